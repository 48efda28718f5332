#!/bin/sh
# Call graphs in the live view (-g) on cgwork's known graph: Children and
# Self columns; + expands outer's tree (inner_a ~2/3, inner_b ~1/3), G
# flips it; the caller/callee view of lib_work (caller_x ~2/3, caller_y
# ~1/3), Enter moves to caller_x, a annotates from there, Esc comes back;
# q restores the terminal.
# Then the same caller/callee view from DWARF chains (--call-graph
# dwarf), when DWARF unwinding gives chains.
#
# Rows are selected by their exact name and shared object (select_row),
# with sampling paused (f) so that the table holds still: the filter
# /lib_work also shows lib_work@plt (cgwork), when a run samples it, and
# may put it first.
#
# The shares.  cgwork does fixed work: inner_a twice the iterations of
# inner_b in every call of outer, lib_work twice as many for caller_x as
# for caller_y.  Two things move a profile away from 2/3:
# - sampling: n samples under outer give inner_a's share a standard
#   deviation of sqrt(p (1 - p) / n), 1.05 points at n = 2000 (periodic
#   samples spread more evenly than random ones: an upper bound);
# - the machine: the time an iteration takes is not fixed.  On this VM,
#   loaded, the thread's time splits otherwise than its work: cpu-clock
#   at 4000 Hz and task-clock at 1009 Hz in one recording both gave
#   inner_a 64-65 % of outer; 62.0 to 66.9 % in 20 recordings of 2000
#   samples at loads 8 to 17; a CI run at load 1.3 showed 61.09.
# The machine's part bends both pairs alike: caller_x's share of lib_work
# is the same shape of work (a call of 2n, then one of n, back to back,
# the same loop) and moved with inner_a's in every recording (their
# difference over 1000-sample stretches: mean -0.2 to 1.2, sd under 1.3).
# So the shares of outer are checked against those of lib_work in the
# same run (pair_near, tests/common.sh): within 4 standard deviations of
# the difference of two samplings (the machine cancels out), and each is
# within 8 points of 2/3 or 1/3: half the way to the nearest share a
# wrong tree would show (an even split), whatever the machine does.
. tests/e2e/tmux.inc

# pct SYMBOL: the share on the screen's line "NN.NN%--SYMBOL" or
# "NN.NN%  DSO  [.] SYMBOL"
pct() {
	screen | sed -n "s/.*[ -]\([0-9][0-9.]*\)%\(--\|  .*\] \)$1\$/\1/p" |
		head -n 1
}

# under DSO SYMBOL: the samples under the table's row of SYMBOL (its
# Children share of the header's samples)
under() {
	table_rows | awk -v d="$1" -v s="$2" -v n="$(samples)" '
		substr($0, length($0) - length(s) - 3) == "[.] " s &&
		index($0, "  " d " ") {
			sub(/%/, "", $1)
			printf "%d\n", $1 * n / 100
			exit
		}'
}

run "$PTOP" -g -e cpu-clock -d 1 -- "$WL/cgwork" 30
wait_for '^Children +Self +Samples +History +Shared Object +Symbol +\[trees: callers first' 10
wait_for '\[\.\] outer$' 10
wait_for '\[\.\] lib_work$' 10
# enough samples for the shares (a second of the workload's CPU)
wait_until 60 "4000 samples" samples_at_least 4000
pause
n_outer=$(under cgwork outer)
n_lib=$(under libwlcg.so lib_work)

# outer: its tree, in perf's graph style, % of outer
keys /
keys o u t e r
keys Enter
wait_for "^filters: symbol ~ 'outer'"
select_row cgwork outer
keys +
wait_for '^ +---outer$'
wait_for '--[0-9.]+%--inner_a$'
wait_for '--[0-9.]+%--inner_b$'
a=$(pct inner_a)
b=$(pct inner_b)
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
select_row libwlcg.so lib_work
keys c
wait_for '^Callers and callees of lib_work \(libwlcg.so\)'
wait_for '^Callers: who calls lib_work'
wait_for '\[\.\] caller_x$'
wait_for '\[\.\] caller_y$'
x=$(pct caller_x)
y=$(pct caller_y)
pair_near "inner_a of outer, caller_x of lib_work" "$a" "$n_outer" "$x" "$n_lib" 66.7
pair_near "inner_b of outer, caller_y of lib_work" "$b" "$n_outer" "$y" "$n_lib" 33.3

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
pause
n_outer=$(under cgwork outer)
n_lib=$(under libwlcg.so lib_work)
keys /
keys l i b _ w o r k
keys Enter
wait_for "^filters: symbol ~ 'lib_work'"
select_row libwlcg.so lib_work
keys c
wait_for '^Callers and callees of lib_work \(libwlcg.so\)'
wait_for '\[\.\] caller_y$'
x=$(pct caller_x)
y=$(pct caller_y)
keys Escape
wait_for '^Children +Self'
keys Escape
wait_gone '^filters:'
# outer's tree from DWARF chains too
keys /
keys o u t e r
keys Enter
wait_for "^filters: symbol ~ 'outer'"
select_row cgwork outer
keys +
wait_for '--[0-9.]+%--inner_b$'
a=$(pct inner_a)
b=$(pct inner_b)
pair_near "dwarf: inner_a of outer, caller_x of lib_work" "$a" "$n_outer" "$x" "$n_lib" 66.7
pair_near "dwarf: inner_b of outer, caller_y of lib_work" "$b" "$n_outer" "$y" "$n_lib" 33.3
quit_clean
echo "ok"
