#!/bin/sh
# --flamegraph FILE.svg: a perf record -g file of cgwork (a known call
# graph) read with -i, and a live batch run.  The SVG is valid XML
# (xmllint); every stack of --folded of the same file is in it with its
# count, and no other sample; a real browser (Debian's headless
# Chromium) runs its script: the search's share is the folded stacks'
# share, a zoom hides the frames outside; its screenshot shows the frames.
. tests/integration/lib.sh
need perf
need xmllint
need chromium
need python3
check=tests/integration/flamegraph_check.py

# about 1,000 samples a second: every frame is wider than the 0.1 px
# under which the picture leaves one out
perf record -q -N --buildid-mmap -e cpu-clock -F 999 -g -o "$TMP/fp.data" -- \
	"$WL/cgwork" 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap -g: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/fp.data" -b --folded > "$TMP/folded" 2> "$TMP/err" ||
	fail "ptop -i --folded: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/fp.data" -b --flamegraph "$TMP/fg.svg" > "$TMP/table" 2> "$TMP/err" ||
	fail "ptop -i --flamegraph: $(cat "$TMP/err")"
grep -q 'outer' "$TMP/table" || fail "no table with --flamegraph: $(head -5 "$TMP/table")"
[ -s "$TMP/fg.svg" ] || fail "no SVG written"
ls -A "$TMP" | grep -q 'ptop-tmp$' && fail "the temporary file was left behind"
xmllint --noout "$TMP/fg.svg" 2> "$TMP/err" || fail "invalid XML: $(head -5 "$TMP/err")"
python3 "$check" stacks "$TMP/fg.svg" "$TMP/folded" > "$TMP/out" 2>&1 ||
	fail "the SVG's stacks against --folded: $(cat "$TMP/out")"
cat "$TMP/out"

# FILE.json: the same tree as d3-flame-graph's JSON; every node's value
# is its own samples and its callees'
"$PTOP" -i "$TMP/fp.data" -b --flamegraph "$TMP/fg.json" > /dev/null 2> "$TMP/err" ||
	fail "ptop -i --flamegraph FILE.json: $(cat "$TMP/err")"
total=$(awk '{ t += $NF } END { print t }' "$TMP/folded")
jq -e --argjson t "$total" '.name == "all" and .value == $t and
	([.. | objects | select(has("children")) |
	  select(.value != .self + ([.children[].value] | add // 0))] | length == 0) and
	([.. | objects | select(.name == "inner_a")] | length > 0)' "$TMP/fg.json" > /dev/null ||
	fail "the JSON tree: $(head -c 300 "$TMP/fg.json")"

# the known split, loosely (a guest's cpu-clock counts stolen time); the
# exact comparison is the folded one above
a=$(python3 "$check" share "$TMP/fg.svg" "$(grep -o '^[^ ]*;main;outer;inner_a ' "$TMP/folded" | head -1 | sed 's/ $//')")
b=$(python3 "$check" share "$TMP/fg.svg" "$(grep -o '^[^ ]*;main;outer;inner_b ' "$TMP/folded" | head -1 | sed 's/ $//')")
at=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + b > 0) print 100 * a / (a + b); else print 0 }')
near "$at" 66.7 12 "inner_a's part of outer in the SVG ($a and $b %)"

# a browser runs the picture's script: search and zoom
folded_share() {	# the percent of the folded samples whose stack holds $1
	awk -v re="$1" '{ n = $NF; t += n; s = $0; sub(/ [0-9]+$/, "", s)
		if (s ~ re) m += n } END { printf "%.2f\n", t ? 100 * m / t : 0 }' "$TMP/folded"
}
# the search is a regex on frame names, as flamegraph.pl's: lib_work@plt,
# when a run samples the PLT entry, matches too (49.60 against 49.55 of an
# exact match, one CI run)
want=$(folded_share '(^|;)[^;]*lib_work[^;]*(;|$)')
chromium --headless --no-sandbox --disable-gpu --dump-dom \
	"file://$TMP/fg.svg#search=lib_work" > "$TMP/dom" 2> "$TMP/err" ||
	fail "chromium --dump-dom: $(tail -3 "$TMP/err")"
got=$(sed -n 's/.*id="matched"[^>]*>Matched: \([0-9.]*\)%.*/\1/p' "$TMP/dom")
[ -n "$got" ] || fail "the search printed no share: $(grep -o 'id="matched"[^<]*' "$TMP/dom")"
near "$got" "$want" 0.01 "the browser's search share of lib_work (folded: $want)"
grep -q 'fill="rgb(230,0,230)"' "$TMP/dom" || fail "no frame highlighted by the search"
chromium --headless --no-sandbox --disable-gpu --dump-dom \
	"file://$TMP/fg.svg#zoom=outer" > "$TMP/dom" 2> "$TMP/err" ||
	fail "chromium --dump-dom: $(tail -3 "$TMP/err")"
grep -q 'data-n="caller_x"[^>]*style="display: none;"' "$TMP/dom" ||
	fail "zoomed into outer, caller_x is still shown"
grep -Eq 'data-n="inner_a"[^>]*style="[^"]*opacity: 1' "$TMP/dom" ||
	fail "zoomed into outer, inner_a is not shown"

# the screenshot shows the frames: user frames are warm colours
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=1200,700 --screenshot="$TMP/fg.png" "file://$TMP/fg.svg" \
	> /dev/null 2> "$TMP/err" || fail "chromium --screenshot: $(tail -3 "$TMP/err")"
warm=$(python3 "$check" pixels "$TMP/fg.png" 200 255 120 200 40 80) ||
	fail "reading the screenshot: $warm"
# main, outer, callers and leaves: five rows of 15 px, most of 1180 px wide
[ "$warm" -ge 40000 ] || fail "the screenshot shows $warm pixels of user frames, not 40000"
echo "screenshot: $warm pixels of user frames"

# live batch, -g: the file is there after the run, valid, with the
# workload's frames
"$PTOP" -b -g -F 999 -d 1 --flamegraph "$TMP/live.svg" -- "$WL/cgwork" 1 \
	> /dev/null 2> "$TMP/err" || fail "ptop -b -g --flamegraph: $(cat "$TMP/err")"
xmllint --noout "$TMP/live.svg" 2> "$TMP/err" || fail "live: invalid XML: $(head -5 "$TMP/err")"
grep -q 'data-n="lib_work"' "$TMP/live.svg" || fail "live: no lib_work frame"

# misuse: a clear message and a non-zero exit
"$PTOP" -b --flamegraph "$TMP/x.svg" -- "$WL/cgwork" 1 > /dev/null 2> "$TMP/err" &&
	fail "--flamegraph without -g was accepted"
grep -q 'draws call chains: add -g' "$TMP/err" || fail "no reason given: $(cat "$TMP/err")"
perf record -q -N --buildid-mmap -e cpu-clock -F 999 -o "$TMP/plain.data" -- \
	"$WL/cgwork" 1 > /dev/null 2> "$TMP/err" ||
	fail "perf record -N --buildid-mmap -e cpu-clock -F 999 -- cgwork 1: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/plain.data" -b --flamegraph "$TMP/y.svg" > /dev/null 2> "$TMP/err" &&
	fail "--flamegraph of a file without chains was accepted"
grep -q 'no call chains' "$TMP/err" || fail "no reason given: $(cat "$TMP/err")"
[ -e "$TMP/y.svg" ] && fail "an SVG was written without chains"
"$PTOP" -i "$TMP/fp.data" -b --flamegraph /nonexistent/dir/z.svg > /dev/null 2> "$TMP/err" &&
	fail "an unwritable --flamegraph path was accepted"
grep -q 'nonexistent' "$TMP/err" || fail "no reason given: $(cat "$TMP/err")"
exit 0
