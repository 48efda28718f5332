#!/bin/sh
# Inlined frames in batch trees on inlwork: main -> outer_fn ->
# inl_helper (always inlined into outer_fn) -> leaf_spin.  leaf_spin's
# caller frame is an address that DWARF gives to inl_helper, so the JSON
# trees of outer_fn's and leaf_spin's rows hold outer_fn -> inl_helper
# ("inlined":true, plain name) -> leaf_spin, the text trees
# "inl_helper (inlined)", the folded stacks main;outer_fn;inl_helper;
# leaf_spin, as the live view's trees show them.
# When: as perf 6.1, by default only in chains unwound from stack copies
# (--call-graph dwarf, live or recorded); frame-pointer chains (-g, live
# or a perf record -g file) get them with --inline only: perf 6.1's
# report and script show no inlined frame for such a chain, even with
# --inline (they name outer_fn only), which this test checks too.
# addr2line -i, reading the same DWARF, is the witness of the names.
. tests/integration/lib.sh
. tests/integration/callgraph.inc

# The workload is what the test needs: an inlined subroutine in DWARF,
# and no inl_helper symbol (it was inlined everywhere).
readelf --debug-dump=info "$WL/inlwork" 2> /dev/null |
	grep -q DW_TAG_inlined_subroutine ||
	fail "inlwork's DWARF has no DW_TAG_inlined_subroutine"
nm "$WL/inlwork" | grep -qw inl_helper &&
	fail "inlwork has an inl_helper symbol: it was not inlined"
# addr2line -i on the call to leaf_spin (the return address minus one):
# the innermost function is the inlined helper, then outer_fn.
ret=$(objdump -d --no-show-raw-insn "$WL/inlwork" | awk '
	/^[0-9a-f]+ <outer_fn>:/ { in_fn = 1; next }
	/^$/ { in_fn = 0 }
	in_fn && called { sub(/:.*/, ""); gsub(/ /, ""); print; exit }
	in_fn && /call.*<leaf_spin>/ { called = 1 }')
[ -n "$ret" ] || fail "no call to leaf_spin in outer_fn"
a2l=$(addr2line -e "$WL/inlwork" -i -f "$(printf '0x%x' $((0x$ret - 1)))" |
	sed -n '1p;3p' | tr '\n' ' ')
[ "$a2l" = "inl_helper outer_fn " ] ||
	fail "addr2line -i at the call: '$a2l', not 'inl_helper outer_fn'"

# check_inl FILE WHAT: the trees of FILE's last object.
check_inl() {
	last=$(tail -n 1 "$1")
	echo "$last" | jq -e . > /dev/null || fail "$2: invalid JSON"
	# outer_fn's row: all of it through the inlined helper to leaf_spin
	p=$(echo "$last" | jq -r '[.rows[] | select(.symbol == "outer_fn") |
		.tree[] | select(.symbol == "outer_fn" and .inlined == false) |
		.children[] | select(.symbol == "inl_helper" and .inlined) |
		.children[] | select(.symbol == "leaf_spin" and
			.inlined == false) | .percent] | add // 0')
	at_least "$p" 90 "$2: outer_fn -> inl_helper (inlined) -> leaf_spin in outer_fn's tree"
	# leaf_spin's row (who calls it): the same three frames in its
	# callers' path
	p=$(echo "$last" | jq -r '[.rows[] | select(.symbol == "leaf_spin") |
		.tree[] | .. | objects |
		select(.symbol? == "outer_fn" and .inlined == false) |
		.children[] | select(.symbol == "inl_helper" and .inlined) |
		.children[] | select(.symbol == "leaf_spin" and
			.inlined == false) | .percent] | add // 0')
	at_least "$p" 90 "$2: outer_fn -> inl_helper (inlined) -> leaf_spin in leaf_spin's tree"
	# an inlined function is never a plain frame, and its JSON name has
	# no suffix; every node says whether it is inlined (its rows:
	# callgraph_inline_rows.sh)
	echo "$last" | jq -e '
		([.rows[].tree[]? | .. | objects | select(has("symbol"))] |
			all(.inlined | type == "boolean")) and
		([.rows[].tree[]? | .. | objects |
			select(.symbol? == "inl_helper")] |
			length > 0 and all(.inlined)) and
		([.. | strings | select(test("[(]inlined[)]"))] | length == 0)' \
		> /dev/null || fail "$2: inlined nodes: $(echo "$last" | jq -c \
		'[.rows[] | select(.symbol == "outer_fn") | .tree]')"
}

# no_inl FILE WHAT: no inlined frame or row anywhere in FILE's last
# object, but outer_fn calling leaf_spin
no_inl() {
	tail -n 1 "$1" | jq -e '
		([.. | objects | select(.inlined? == true)] | length == 0) and
		([.rows[] | select(.symbol == "outer_fn") | .tree[] |
			.. | objects | select(.symbol? == "leaf_spin")] |
			length > 0)' > /dev/null ||
		fail "$2: inlined frames or rows, or no outer_fn -> leaf_spin: $(tail -n 1 "$1" |
			jq -c '[.rows[:6][] | [.symbol, .inlined]]')"
}

"$PTOP" -b --json -g --inline -e cpu-clock -d 30 -- "$WL/inlwork" 2 \
	> "$TMP/out.json" 2> "$TMP/err" ||
	fail "ptop exited with $?: $(cat "$TMP/err")"
tail -n 1 "$TMP/out.json" | jq -e '.finished and .samples > 1000' \
	> /dev/null || fail "counters: $(tail -n 1 "$TMP/out.json" | jq -c 'del(.rows)')"
check_inl "$TMP/out.json" "-g --inline"

# frame-pointer chains, by default: none (perf 6.1)
"$PTOP" -b --json -g -e cpu-clock -d 30 -- "$WL/inlwork" 1 \
	> "$TMP/fp.json" 2> "$TMP/err" ||
	fail "ptop -g exited with $?: $(cat "$TMP/err")"
no_inl "$TMP/fp.json" "-g"

# the text trees: outer_fn's row, in perf's graph style (the frames
# without the graph's lines; a small branch, e.g. wl_now sampled before
# its frame was set up, may come between inl_helper and leaf_spin)
"$PTOP" -b -g --inline -e cpu-clock -d 30 -- "$WL/inlwork" 1 > "$TMP/out.txt" \
	2> "$TMP/err" || fail "ptop -b -g --inline exited with $?: $(cat "$TMP/err")"
awk '/\[\.\] outer_fn$/ { row = 1; next }
	row && /^ *[0-9.]+%/ { exit }
	row { sub(/^[ |]*(---|[|-]?-[0-9.]+%--)?/, ""); if ($0 != "") print }' \
	"$TMP/out.txt" > "$TMP/outer.txt"
[ "$(head -n 2 "$TMP/outer.txt" | tr '\n' ';')" = \
	"outer_fn;inl_helper (inlined);" ] && grep -qx leaf_spin "$TMP/outer.txt" ||
	fail "outer_fn's text tree: $(head -n 8 "$TMP/outer.txt")"

# folded stacks hold the inlined frame, plainly named
"$PTOP" -b -g --inline --folded -e cpu-clock -d 30 -- "$WL/inlwork" 1 \
	> "$TMP/folded" 2> "$TMP/err" || fail "--folded failed: $(cat "$TMP/err")"
n=$(folded_count "$TMP/folded" "main;outer_fn;inl_helper;leaf_spin")
at_least "$n" 2000 "folded samples of main;outer_fn;inl_helper;leaf_spin"
grep -q 'outer_fn;leaf_spin' "$TMP/folded" &&
	fail "a folded stack without the inlined frame: $(grep 'outer_fn;leaf_spin' "$TMP/folded" | head -3)"

# DWARF unwinding: the same return addresses, the same inlined frame
"$PTOP" -b --json --call-graph dwarf -e cpu-clock -d 30 -- "$WL/inlwork" 1 \
	> "$TMP/dwarf.json" 2> "$TMP/err" ||
	fail "ptop --call-graph dwarf exited with $?: $(cat "$TMP/err")"
check_inl "$TMP/dwarf.json" "--call-graph dwarf"
# live, rows only when asked (the key l, --inline)
n=$(tail -n 1 "$TMP/dwarf.json" | jq '[.rows[] | select(.inlined)] | length')
[ "$n" = 0 ] || fail "--call-graph dwarf live: $n inlined rows"

# a perf.data file recorded by perf with -g, read back (ptop -i)
need perf
perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -g -o "$TMP/fp.data" -- \
	"$WL/inlwork" 1 > /dev/null 2> "$TMP/err" ||
	fail "recording -g failed: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/fp.data" -b --json > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i failed: $(cat "$TMP/err")"
no_inl "$TMP/file.json" "-i perf.data (-g)"
for o in "" --inline; do
	perf report -i "$TMP/fp.data" --stdio --children $o 2> /dev/null |
		grep -q 'inlined' &&
		fail "perf report $o shows inlined frames of a -g recording: the default's reason is gone"
done
"$PTOP" -i "$TMP/fp.data" -b --json --inline > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i --inline failed: $(cat "$TMP/err")"
check_inl "$TMP/file.json" "-i perf.data (-g) --inline"
exit 0
