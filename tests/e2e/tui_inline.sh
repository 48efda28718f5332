#!/bin/sh
# Rows of inlined functions in the live view (-g) on inlwork (main ->
# outer_fn -> inl_helper, always inlined into outer_fn -> leaf_spin):
# none by default live; l shows "inl_helper (inlined)" as a row with
# outer_fn's Children and no self cost, and says so; l again hides it.
. tests/e2e/tmux.inc

run "$PTOP" -g -e cpu-clock -d 1 -- "$WL/inlwork" 30
wait_for '\[\.\] outer_fn$' 10
wait_until 60 "1000 samples" samples_at_least 1000
wait_gone 'inl_helper' 1
keys l
wait_for 'inlined functions have rows of their own'
wait_for '\[\.\] inl_helper \(inlined\)$' 10
# Children near outer_fn's, Self 0
line=$(screen | grep '\[\.\] inl_helper (inlined)$' | head -n 1)
outer=$(screen | grep '\[\.\] outer_fn$' | head -n 1)
echo "inlined row: $line"
echo "outer_fn row: $outer"
set -- $line
c=${1%\%} s=${2%\%}
set -- $outer
o=${1%\%}
awk -v c="$c" -v s="$s" -v o="$o" 'BEGIN { d = c - o; if (d < 0) d = -d
	exit !(c > 50 && s == 0 && d <= 2) }' ||
	fail "inl_helper (inlined): children $c self $s, outer_fn $o"
keys l
wait_for 'no rows for inlined functions'
wait_gone '\(inlined\)$' 10
quit_clean
exit 0
