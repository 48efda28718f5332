#!/bin/sh
# --call-graph dwarf on cgwork-nofp (program and library built without
# frame pointers): the chains come from CFI alone.  outer's children are
# ~100 % of its row, 2/3 : 1/3 between inner_a and inner_b; lib_work's
# callers caller_x and caller_y hold ~2/3 and ~1/3 of it; chains reach
# main; every sample was unwound, and the last table (the
# command exited) holds every sample the unwinder took.  A perf.data file
# perf recorded with --call-graph dwarf gives perf report's numbers.
. tests/integration/lib.sh
. tests/integration/callgraph.inc

"$PTOP" -b --json -v --max-stack 64 --call-graph dwarf -e cpu-clock -d 30 -- \
	"$WL/cgwork-nofp" 4 > "$TMP/out.json" 2> "$TMP/err" ||
	fail "ptop exited with $?: $(cat "$TMP/err")"
jq -e . "$TMP/out.json" > /dev/null || fail "invalid JSON"
last() { tail -n 1 "$TMP/out.json"; }
# (a loaded machine may lose a few records: counted, and rare)
last | jq -e '.finished and .lost * 20 < .samples and .dropped == 0 and
	.unwind_failed == 0 and .samples > 2000' > /dev/null ||
	fail "counters: $(last | jq -c 'del(.rows)')"

check_cgwork "$TMP/out.json" cgwork-nofp libwlcg-nofp.so

# The unwinder's own count: the table printed after the command exited
# holds every sample it took (session__flush; the unit suite checks the
# flush with a queue that cannot keep up).  The others are the samples
# whose stack the kernel could not copy (the exit: 6 in one loaded run),
# added as they came and counted: together, every sample.
unwound=$(sed -n 's/.*unwind: \([0-9]*\) samples unwound.*/\1/p' "$TMP/err")
[ -n "$unwound" ] || fail "no unwinder statistics: $(cat "$TMP/err")"
samples=$(last | jq .samples)
nostack=$(last | jq .unwind_no_stack)
echo "samples $samples: $unwound unwound, $nostack without a user stack"
[ "$((unwound + nostack))" -eq "$samples" ] && [ "$nostack" -le $((samples / 100)) ] ||
	fail "$unwound samples unwound and $nostack without a stack, $samples in the last table"

# The control: frame pointers on the same binary cannot find outer as
# a caller.  (A sample may land in outer's own few instructions: then
# its children equal its self, about one run in ten.)
"$PTOP" -b --json --max-stack 64 -g -e cpu-clock -d 1 -n 1 -- "$WL/cgwork-nofp" 2 \
	> "$TMP/fp.json" 2> "$TMP/err" || fail "ptop -g failed: $(cat "$TMP/err")"
awk -v c="$(children "$TMP/fp.json" outer)" \
	-v s="$(row_field "$TMP/fp.json" outer self)" 'BEGIN { exit !(c == s) }' ||
	fail "cgwork-nofp has frame pointers: -g found outer as a caller"

# A perf.data file recorded by perf with --call-graph dwarf: ptop -i
# unwinds its stacks (on the reader's thread) like perf report does.
need perf
perf record -q -N --buildid-mmap -e cpu-clock -F 4000 --call-graph dwarf \
	-o "$TMP/dw.data" -- "$WL/cgwork-nofp" 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap --call-graph dwarf: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/dw.data" -b --json --max-stack 64 > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i failed: $(cat "$TMP/err")"
tail -n 1 "$TMP/file.json" | jq -e '.unwind_failed == 0' > /dev/null ||
	fail "samples of the file not unwound"
check_cgwork "$TMP/file.json" cgwork-nofp libwlcg-nofp.so
vs_perf_report "$TMP/dw.data" "$TMP/file.json"
exit 0
