#!/bin/sh
# Symbols through the whole path: a dlopen'ed library, demangled C++, a
# stripped binary grouped by .eh_frame bounds, the kernel.
. tests/integration/lib.sh

# whole runs (-d 30: the final table when the command exits), so that the
# samples are the workload's CPU time, not a window of wall time
"$PTOP" -b --json -d 30 -e cpu-clock -- "$WL/dlwork" 1 > "$TMP/dl.json" 2> "$TMP/err" ||
	fail "dlwork run failed: $(cat "$TMP/err")"
work_near "$(share "$TMP/dl.json" wlhot_spin)" 70 "$(user_samples "$TMP/dl.json")" "wlhot_spin in libwlhot.so"
tail -n 1 "$TMP/dl.json" | jq -e '[.rows[] | select(.symbol == "wlhot_spin")][0].dso == "libwlhot.so"' > /dev/null ||
	fail "wlhot_spin not in libwlhot.so"

# perf report's form by default: the name alone; --demangle-params: all
"$PTOP" -b --json -d 30 -e cpu-clock -- "$WL/cppwork" 1 > "$TMP/cpp.json" 2> "$TMP/err" ||
	fail "cppwork run failed: $(cat "$TMP/err")"
n=$(user_samples "$TMP/cpp.json")
work_near "$(share "$TMP/cpp.json" 'ptopwl::Worker<int>::crunch')" 80 "$n" "demangled crunch"
work_near "$(share "$TMP/cpp.json" 'ptopwl::helper')" 20 "$n" "demangled helper"
"$PTOP" -b --json -d 30 -e cpu-clock --demangle-params -- "$WL/cppwork" 1 > "$TMP/long.json" 2> "$TMP/err" ||
	fail "--demangle-params run failed: $(cat "$TMP/err")"
work_near "$(share "$TMP/long.json" 'ptopwl::Worker<int>::crunch(unsigned long)')" 80 \
	"$(user_samples "$TMP/long.json")" "crunch with its parameters"
"$PTOP" -b --json -d 1 -n 1 -e cpu-clock --no-demangle -- "$WL/cppwork" 1 > "$TMP/raw.json" 2>/dev/null || fail "--no-demangle run failed"
tail -n 1 "$TMP/raw.json" | jq -e '[.rows[].symbol] | index("_ZN6ptopwl6WorkerIiE6crunchEm") != null' > /dev/null ||
	fail "--no-demangle still demangles"

# stripped: three rows (one per function), in the right proportions.
# An empty HOME: perf's ~/.debug cache may hold the unstripped spin3 under
# the same build-id, and ptop rightly takes its names from there.
HOME=$TMP "$PTOP" -b --json -d 30 -e cpu-clock -- "$WL/spin3-stripped" 1 > "$TMP/st.json" 2> "$TMP/err" ||
	fail "stripped run failed: $(cat "$TMP/err")"
# (shares of the user-space samples, as share() computes them)
tail -n 1 "$TMP/st.json" | jq -r '([.rows[] | select(.kernel | not) | .overhead] | add) as $u |
	.rows[] | select(.dso == "spin3-stripped") | "\(.overhead * 100 / $u) \(.symbol)"' |
	sort -rn > "$TMP/st.rows"
[ "$(awk '$1 > 5' "$TMP/st.rows" | wc -l)" -eq 3 ] || fail "expected 3 hot stripped functions: $(cat "$TMP/st.rows")"
work_near "$(sed -n 1p "$TMP/st.rows" | cut -d' ' -f1)" 60 "$(user_samples "$TMP/st.json")" \
	"first stripped function"
grep -q ' func_0x' "$TMP/st.rows" || fail "no eh_frame function names: $(cat "$TMP/st.rows")"

# the kernel: a workload that lives in syscalls shows [k] rows with names
"$PTOP" -b --json -d 1 -n 1 -e cpu-clock -- sh -c 'end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do cat /proc/self/stat >/dev/null; done' > "$TMP/k.json" 2>/dev/null ||
	fail "kernel run failed"
tail -n 1 "$TMP/k.json" | jq -e '[.rows[] | select(.kernel and .resolved and (.dso == "[kernel.kallsyms]"))] | length > 0' > /dev/null ||
	fail "no resolved kernel rows"
exit 0
