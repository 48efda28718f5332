#!/bin/sh
# The names of inlined functions are perf's: a function is named by its
# linkage name, demangled (the whole path: cxxinl's geo::Box<int>::spin,
# Rust's std::panicking::catch_unwind::do_call::<F, R>), where DWARF's
# DW_AT_name has only the last part (spin, do_call<F, R>).  On a perf
# record --call-graph dwarf file of cxxinl, every "(inlined)" row of
# perf report over 1 % is a row of ptop -i with the same name and the
# same Children within 0.1 point, but glibc's __libc_start_main_impl,
# which ptop names by its symbol (ptop(1), DIFFERENCES FROM PERF).
. tests/integration/lib.sh
need perf

perf record -q -N --buildid-mmap -e cpu-clock -F 2000 --call-graph dwarf \
	-o "$TMP/inl.data" -- "$WL/cxxinl" 1 > /dev/null 2> "$TMP/err" ||
	fail "perf record --call-graph dwarf: $(cat "$TMP/err")"
perf report -i "$TMP/inl.data" --stdio --children --sort sym -g none \
	--percent-limit 1 2> /dev/null |
	sed -n 's/^ *\([0-9.]*\)% .*\[\.\] \(.*\) (inlined)$/\2|\1/p' |
	grep -v '^__libc_start_main_impl|' | sort > "$TMP/perf.txt"
[ -s "$TMP/perf.txt" ] || fail "perf report has no inlined row"
grep -q '^geo::Box<int>::spin|' "$TMP/perf.txt" ||
	fail "perf's inlined rows: $(cat "$TMP/perf.txt")"
"$PTOP" -i "$TMP/inl.data" -b --json > "$TMP/ptop.json" 2> "$TMP/err" ||
	fail "ptop -i: $(cat "$TMP/err")"
while IFS='|' read -r name pct; do
	ours=$(tail -n 1 "$TMP/ptop.json" | jq -r --arg s "$name" \
		'[.rows[] | select(.inlined and .symbol == $s) | .children] | add // "none"')
	echo "$name (inlined): perf $pct, ptop $ours"
	[ "$ours" != none ] || fail "no '$name (inlined)' row: $(tail -n 1 "$TMP/ptop.json" | jq -c '[.rows[] | select(.inlined) | .symbol]')"
	near "$ours" "$pct" 0.1 "$name (inlined)"
done < "$TMP/perf.txt"
exit 0
