#!/bin/sh
# --inline's rows on inlwork (main -> outer_fn -> inl_helper, always
# inlined into outer_fn -> leaf_spin), recorded by perf with --call-graph
# dwarf: perf report --children shows "inl_helper (inlined)" as a row of
# its own; ptop -i shows it by default ("inlined": true in JSON, no self
# cost), its Children within 0.1 point of perf's, and with --no-inline
# not at all.  Live (-b, where rows of inlined functions are off unless
# asked), --inline gives the row with outer_fn's Children.
. tests/integration/lib.sh
need perf
need jq

perf record -q -N --buildid-mmap -e cpu-clock -F 2000 --call-graph dwarf \
	-o "$TMP/inl.data" -- "$WL/inlwork" 1 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap --call-graph dwarf: $(cat "$TMP/err")"
perf report -i "$TMP/inl.data" --stdio --children --sort dso,sym -g none \
	> "$TMP/perf.txt" 2> "$TMP/err" ||
	fail "perf report: $(cat "$TMP/err")"
# perf may split it into rows per inlined instance (a sample in a second
# copy of the inlined code, 0.55 % in one CI run); ptop groups an inlined
# function's rows by object and name (ptop(1)): perf's rows are summed
theirs=$(awk '$NF == "(inlined)" && $(NF - 1) == "inl_helper" {
	sub(/%/, "", $1); s += $1; n++ } END { if (n) print s }' "$TMP/perf.txt")
[ -n "$theirs" ] ||
	fail "perf report has no inl_helper (inlined) row: $(head -20 "$TMP/perf.txt")"

"$PTOP" -i "$TMP/inl.data" -b --json > "$TMP/on.json" 2> "$TMP/err" ||
	fail "ptop -i: $(cat "$TMP/err")"
row() {	# FILE: inl_helper's inlined row as "children self"
	tail -n 1 "$1" | jq -r '.rows[] | select(.symbol == "inl_helper" and
		.inlined) | "\(.children) \(.self)"'
}
set -- $(row "$TMP/on.json")
[ $# -eq 2 ] || fail "ptop -i: no inl_helper inlined row: $(tail -n 1 "$TMP/on.json" |
	jq -c '[.rows[:12][] | [.symbol, .inlined, .children]]')"
awk -v a="$1" -v b="$theirs" -v s="$2" 'BEGIN {
	d = a - b; if (d < 0) d = -d; exit !(d <= 0.1 && s == 0) }' ||
	fail "inl_helper (inlined): ptop children $1 self $2, perf $theirs"
# the text table names it as perf does
"$PTOP" -i "$TMP/inl.data" -b -n 1 2> "$TMP/err" | grep -q ' inl_helper (inlined)$' ||
	fail "no 'inl_helper (inlined)' row in the text table"

"$PTOP" -i "$TMP/inl.data" -b --json --no-inline > "$TMP/off.json" 2> "$TMP/err" ||
	fail "ptop -i --no-inline: $(cat "$TMP/err")"
n=$(tail -n 1 "$TMP/off.json" | jq '[.rows[] | select(.inlined)] | length')
[ "$n" = 0 ] || fail "--no-inline: $n inlined rows"

# live, asked for
"$PTOP" -b --json --inline --call-graph dwarf -e cpu-clock -d 30 -- \
	"$WL/inlwork" 1 > "$TMP/live.json" 2> "$TMP/err" ||
	fail "ptop --inline live: $(cat "$TMP/err")"
set -- $(row "$TMP/live.json")
outer=$(tail -n 1 "$TMP/live.json" | jq -r '.rows[] |
	select(.symbol == "outer_fn" and (.inlined | not)) | .children')
[ $# -eq 2 ] && [ -n "$outer" ] ||
	fail "live --inline: no inl_helper or outer_fn row"
awk -v a="$1" -v o="$outer" 'BEGIN { d = a - o; if (d < 0) d = -d
	exit !(a > 80 && d <= 1) }' ||
	fail "live --inline: inl_helper $1 against outer_fn $outer"
exit 0
