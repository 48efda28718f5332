#!/bin/sh
# Call graphs in the live view (-g) on cgwork's known graph: Children and
# Self columns; + expands outer's tree (inner_a ~2/3, inner_b ~1/3), G
# flips it; the caller/callee view of lib_work (caller_x ~2/3, caller_y
# ~1/3), Enter moves to caller_x, a annotates from there, Esc comes back;
# q restores the terminal.
# Then the same caller/callee view from DWARF chains (--call-graph
# dwarf), when DWARF unwinding gives chains.
. tests/e2e/tmux.inc

# near VALUE WANT: within 10 points (a short, sampled run)
near() {
	awk -v v="$1" -v w="$2" 'BEGIN { exit !(v != "" && v >= w - 5 && v <= w + 5) }'
}

# pct SYMBOL: the share on the screen's line "NN.NN%--SYMBOL" or
# "NN.NN%  DSO  [.] SYMBOL"
pct() {
	screen | sed -n "s/.*[ -]\([0-9][0-9.]*\)%\(--\|  .*\] \)$1\$/\1/p" |
		head -n 1
}

run "$PTOP" -g -e cpu-clock -d 1 -- "$WL/cgwork" 30
wait_for '^Children +Self +Samples +Shared Object +Symbol +\[trees: callers first' 10
wait_for '\[\.\] outer$' 10
wait_for '\[\.\] lib_work$' 10
# enough samples for the shares (a second of the workload's CPU)
wait_until 60 "4000 samples" samples_at_least 4000

# outer: its tree, in perf's graph style, % of outer
keys /
keys o u t e r
keys Enter
wait_for "^filters: symbol ~ 'outer'"
keys +
wait_for '^ +---outer$'
wait_for '--[0-9.]+%--inner_a$'
wait_for '--[0-9.]+%--inner_b$'
a=$(pct inner_a)
b=$(pct inner_b)
echo "outer: inner_a $a %, inner_b $b %"
near "$a" 66.7 || fail "inner_a has $a % of outer, not ~67 %"
near "$b" 33.3 || fail "inner_b has $b % of outer, not ~33 %"
# G: callee order, said in the titles
keys G
wait_for '\[trees: callees first'
wait_for '--[0-9.]+%--inner_a$'
keys G
wait_for '\[trees: callers first'
keys Escape
wait_gone '^filters:'

# lib_work: who calls it
keys /
keys l i b _ w o r k
keys Enter
wait_for "^filters: symbol ~ 'lib_work'"
keys c
wait_for '^Callers and callees of lib_work \(libwlcg.so\)'
wait_for '^Callers: who calls lib_work'
wait_for '\[\.\] caller_x$'
wait_for '\[\.\] caller_y$'
x=$(pct caller_x)
y=$(pct caller_y)
echo "lib_work: caller_x $x %, caller_y $y %"
near "$x" 66.7 || fail "caller_x has $x % of lib_work, not ~67 %"
near "$y" 33.3 || fail "caller_y has $y % of lib_work, not ~33 %"

# Enter on caller_x (the first caller, selected): its own view
keys Enter
wait_for '^Callers and callees of caller_x \(cgwork\)'
wait_for '\[1 back with Esc\]'
wait_for '\[\.\] lib_work$'
wait_for '\[\.\] main$'
# a annotates from there (the selected line: main, caller_x's caller);
# Esc comes back to the same view
keys a
wait_for '^Annotate main  \[cgwork\]'
keys Escape
wait_for '^Callers and callees of caller_x \(cgwork\)'
# Esc: back to lib_work, then to the table
keys Escape
wait_for '^Callers and callees of lib_work'
keys Escape
wait_for '^Children +Self'
wait_gone '^Callers and callees'
keys Escape
wait_gone '^filters:'

quit_clean
restart

# DWARF chains: the same graph, unwound from stack copies (a ptop
# that unwinds nothing fails here: the view has no caller_x)
run "$PTOP" --call-graph dwarf -e cpu-clock -d 1 -- "$WL/cgwork" 30
wait_for '^Children +Self' 10
wait_for '\[\.\] lib_work$' 10
wait_until 60 "4000 samples" samples_at_least 4000
keys /
keys l i b _ w o r k
keys Enter
wait_for "^filters: symbol ~ 'lib_work'"
keys c
wait_for '^Callers and callees of lib_work \(libwlcg.so\)'
wait_for '\[\.\] caller_y$'
x=$(pct caller_x)
y=$(pct caller_y)
echo "dwarf: lib_work: caller_x $x %, caller_y $y %"
near "$x" 66.7 || fail "dwarf: caller_x has $x % of lib_work, not ~67 %"
near "$y" 33.3 || fail "dwarf: caller_y has $y % of lib_work, not ~33 %"
keys Escape
wait_for '^Children +Self'
keys Escape
wait_gone '^filters:'
# outer's tree from DWARF chains too
keys /
keys o u t e r
keys Enter
keys +
wait_for '--[0-9.]+%--inner_b$'
a=$(pct inner_a)
echo "dwarf: outer: inner_a $a %"
near "$a" 66.7 || fail "dwarf: inner_a has $a % of outer, not ~67 %"
quit_clean
echo "ok"
