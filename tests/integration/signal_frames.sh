#!/bin/sh
# Signal frames in chains, on fpsig (a SIGPROF handler, on_prof, that
# calls prof_work; tests/workloads/fpsig.c).  The handler's return
# address is the first byte of the kernel's signal return trampoline,
# libc's __restore_rt; looked up one byte below, as return addresses are,
# it fell in the padding before it and showed as an address (libc.so.6
# 0x3c050).  perf report names it; so does ptop, with the same Children,
# from the same perf record -g file.  Live: -g names it (its samples'
# callers recovered: on_prof too), --call-graph dwarf names it and goes
# on unwinding into the interrupted main_part.
. tests/integration/lib.sh
. tests/integration/callgraph.inc
need perf

perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -g -o "$TMP/fp.data" -- \
	"$WL/fpsig" 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap -g: $(cat "$TMP/err")"
perf report -i "$TMP/fp.data" --stdio --children --no-inline -g none \
	--sort sym --percent-limit 0 > "$TMP/perf.txt" 2> /dev/null ||
	fail "perf report failed"
theirs=$(awk '$NF == "__restore_rt" && $(NF - 1) == "[.]" { sub(/%/, "", $1); print $1; exit }' "$TMP/perf.txt")
[ -n "$theirs" ] || fail "perf report has no __restore_rt row: $(head -20 "$TMP/perf.txt")"
"$PTOP" -i "$TMP/fp.data" -b --json > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i: $(cat "$TMP/err")"
ours=$(children "$TMP/file.json" __restore_rt)
echo "__restore_rt: ptop -i $ours, perf report $theirs"
at_least "$ours" 1 "__restore_rt's Children"
near "$ours" "$theirs" 0.01 "__restore_rt: ptop -i against perf report (the same file)"
tail -n 1 "$TMP/file.json" | jq -e '[.rows[] | select(.symbol == null or
	(.symbol | test("^0x")))] | length == 0' > /dev/null ||
	fail "rows named by an address: $(tail -n 1 "$TMP/file.json" | jq -c '[.rows[] | select(.symbol == null or (.symbol | test("^0x"))) | .symbol]')"

# live -g: the trampoline named, the handler recovered under it
"$PTOP" -b --json -g -e cpu-clock -d 30 -- "$WL/fpsig" 2 > "$TMP/fp.json" \
	2> "$TMP/err" || fail "ptop -g: $(cat "$TMP/err")"
at_least "$(children "$TMP/fp.json" __restore_rt)" 1 "-g: __restore_rt's Children"
at_least "$(tree_share "$TMP/fp.json" prof_work on_prof)" 90 \
	"-g: prof_work's callers through on_prof"

# --call-graph dwarf: named, and the interrupted function beyond it
"$PTOP" -b --json --call-graph dwarf -e cpu-clock -d 30 -- "$WL/fpsig" 2 \
	> "$TMP/dw.json" 2> "$TMP/err" || fail "ptop --call-graph dwarf: $(cat "$TMP/err")"
r=$(children "$TMP/dw.json" __restore_rt)
p=$(children "$TMP/dw.json" prof_work)
at_least "$r" 1 "dwarf: __restore_rt's Children"
near "$r" "$p" 1 "dwarf: every prof_work sample through __restore_rt"
tail -n 1 "$TMP/dw.json" | jq -e '[.rows[] | select(.symbol == "prof_work") |
	.tree[] | .. | objects | select(.symbol? == "main_part") |
	.children[]? | select(.symbol == "__restore_rt") |
	.children[]? | select(.symbol == "on_prof")] | length > 0' > /dev/null ||
	fail "dwarf: no main_part -> __restore_rt -> on_prof in prof_work's tree"
exit 0
