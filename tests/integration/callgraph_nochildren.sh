#!/bin/sh
# A `perf record --buildid-mmap -g` file of cgwork read with -i: with
# --no-children a row's tree holds only the caller chains of its own
# samples (perf report --no-children -G): lib_work's branches add up to
# its row, split 2:1 between caller_x and caller_y as perf splits them;
# --folded needs no -g when the file has chains.
. tests/integration/lib.sh
. tests/integration/callgraph.inc

need perf
perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -g \
	-o "$TMP/fp.data" -- "$WL/cgwork" 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap -g failed: $(cat "$TMP/err")"

"$PTOP" -i "$TMP/fp.data" -b --json --no-children --tree-limit 0 \
	> "$TMP/nc.json" 2> "$TMP/err" || fail "ptop -i failed: $(cat "$TMP/err")"
# the top-level branches of every row add up to its own samples, never
# more (before: callee samples too, up to 182 % of the row)
tail -n 1 "$TMP/nc.json" | jq -e '[.rows[] | select(.tree | length > 0) |
	([.tree[].samples] | add) <= .samples] | all' > /dev/null ||
	fail "a --no-children tree holds more than its row's samples"
x=$(tree_share "$TMP/nc.json" lib_work caller_x)
y=$(tree_share "$TMP/nc.json" lib_work caller_y)
# perf report --no-children -G: lib_work's callers, as percents of it
perf report -i "$TMP/fp.data" --stdio --no-children -G --sort sym \
	--percent-limit 0 2> /dev/null > "$TMP/perf.txt" ||
	fail "perf report failed"
# (perf's -G percents are of the total: made relative to the row)
px=$(awk '/\[\.\] lib_work$/ { row = $1 + 0; on = 1; next }
	on && /^ +[0-9.]+%/ { on = 0 }
	on && match($0, /[0-9.]+%--caller_x/) {
		s = substr($0, RSTART); sub(/%.*/, "", s); t += s }
	END { if (row > 0) print 100 * t / row; else print 0 }' "$TMP/perf.txt")
[ "$px" != 0 ] || fail "no lib_work caller_x branch in perf report -G"
near "$x" 66.7 8 "caller_x in lib_work's --no-children tree"
near "$(awk -v x="$x" -v y="$y" 'BEGIN { print x + y }')" 100 5 \
	"lib_work's callers (caller_x $x + caller_y $y)"
near "$x" "$px" 1 "caller_x: ptop $x against perf -G $px"

# --folded with -i and no -g: the file's chains are enough
"$PTOP" -i "$TMP/fp.data" -b --folded > "$TMP/folded" 2> "$TMP/err" ||
	fail "--folded -i without -g failed: $(cat "$TMP/err")"
grep -Eq '(^|;)main;caller_x;lib_work [0-9]+$' "$TMP/folded" ||
	fail "no ...;main;caller_x;lib_work N line: $(head -3 "$TMP/folded")"
echo ok
