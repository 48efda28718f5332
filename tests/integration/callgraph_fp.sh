#!/bin/sh
# -g (frame pointers) on cgwork: the twin of callgraph_dwarf.sh, with the
# same assertions, the folded stacks, and the trees of a `perf record -g`
# file read with -i against `perf report --children` on the same file.
. tests/integration/lib.sh
. tests/integration/callgraph.inc

"$PTOP" -b --json --max-stack 64 -g -e cpu-clock -d 30 -- "$WL/cgwork" 4 \
	> "$TMP/out.json" 2> "$TMP/err" ||
	fail "ptop exited with $?: $(cat "$TMP/err")"
jq -e . "$TMP/out.json" > /dev/null || fail "invalid JSON"
tail -n 1 "$TMP/out.json" | jq -e '.finished and .lost * 20 < .samples and
	.dropped == 0 and .unwind_failed == 0 and .samples > 2000' > /dev/null ||
	fail "counters: $(tail -n 1 "$TMP/out.json" | jq -c 'del(.rows)')"
check_cgwork "$TMP/out.json" cgwork libwlcg.so

# folded stacks: "frame;frame;... count", root first
"$PTOP" -b -g --folded -e cpu-clock -d 30 -- "$WL/cgwork" 3 \
	> "$TMP/folded" 2> "$TMP/err" || fail "--folded failed: $(cat "$TMP/err")"
grep -Eq '(^|;)main;outer;inner_a [0-9]+$' "$TMP/folded" ||
	fail "no ...;main;outer;inner_a N line: $(head -5 "$TMP/folded")"
grep -Evq '^[^ ]+ [0-9]+$' "$TMP/folded" &&
	fail "a line that is not 'frames count': $(grep -Ev '^[^ ]+ [0-9]+$' "$TMP/folded" | head -3)"
a=$(folded_count "$TMP/folded" "main;outer;inner_a")
b=$(folded_count "$TMP/folded" "main;outer;inner_b")
x=$(folded_count "$TMP/folded" "main;caller_x;lib_work")
y=$(folded_count "$TMP/folded" "main;caller_y;lib_work")
at_least "$((a + b + x + y))" 1000 "folded samples in the four leaves"
# the same shape of fixed work, bent alike by the machine (pair_near)
pair_near "folded inner_a : inner_b, caller_x : caller_y" \
	"$(awk -v a="$a" -v b="$b" 'BEGIN { print 100 * a / (a + b) }')" $((a + b)) \
	"$(awk -v x="$x" -v y="$y" 'BEGIN { print 100 * x / (x + y) }')" $((x + y)) 66.7

# a perf.data file recorded by perf with -g, read back (ptop -i)
need perf
perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -g -o "$TMP/fp.data" -- \
	"$WL/cgwork" 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap -g: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/fp.data" -b --json --max-stack 64 > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i failed: $(cat "$TMP/err")"
check_cgwork "$TMP/file.json" cgwork libwlcg.so
vs_perf_report "$TMP/fp.data" "$TMP/file.json"
exit 0
