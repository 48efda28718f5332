#!/bin/sh
# Time in the live view: the History column, and the timeline view (w)
# on a workload that moves its CPU from phase_a to phase_b at a known
# moment of its work: a window selected at its start shows phase_a
# alone in the table, one at its end phase_b alone, Esc restores the
# whole; Enter on the process zooms into it; a recording (-i) the same.
. tests/e2e/tmux.inc

# phase_a's and phase_b's rows, by exact name and object
row_of() {
	screen | grep -E "%  *[0-9]+  *[^ ]+  *phases  *\[\.\] $1 *\$"
}
has_row() { [ -n "$(row_of "$1")" ]; }
no_row() { [ -z "$(row_of "$1")" ]; }

# the whole run, then its timeline: every refresh a cell
run "$PTOP" -d 0.5 -e cpu-clock -- "$WL/phases" 1500 1500
wait_for 'the command exited' 60
wait_for '^Overhead  *Samples  *History  *Shared Object  *Symbol' 10
wait_until 10 "phase_a's row" has_row phase_a
wait_until 10 "phase_b's row" has_row phase_b

keys w
wait_for '^Timeline of cpu-clock: \+0\.0 to \+[0-9.]+ s, [0-9]+ cells of 1 refresh' 10
wait_for '^every sample ' 5
wait_for '^seconds from the start +\|0' 5

# the first two cells: phase_a's work alone (1.5 s of CPU, at least as
# long on the clock), the process's start included
keys Home Space
wait_for '^window \+0\.00 to \+[0-9.]+ s: Space or Enter sets it' 5
keys Right Space
wait_for '^filters: window \+0\.0 to \+[0-9.]+ s' 10
wait_until 10 "phase_a's row in the window" has_row phase_a
wait_until 10 "phase_b gone in the window" no_row phase_b
# Esc restores the whole run
keys Escape
wait_gone '^filters:' 10
wait_until 10 "phase_b's row again" has_row phase_b
has_row phase_a || fail "phase_a is gone after Esc"

# the last two cells: phase_b's end alone
keys w
wait_for '^Timeline of cpu-clock' 10
keys End Space Left Enter
wait_for '^filters: window \+[0-9.]+ to \+[0-9.]+ s' 10
wait_until 10 "phase_b's row in the last window" has_row phase_b
wait_until 10 "phase_a gone in the last window" no_row phase_a
keys Escape
wait_gone '^filters:' 10

# a mark dropped with Esc, then the view left with q: nothing changed
keys w
wait_for '^Timeline of cpu-clock' 10
keys Space
wait_for '^window ' 5
keys Escape
wait_gone '^window ' 5
keys q
wait_for '^Overhead' 10
screen | grep -q '^filters:' && fail "a filter after a dropped mark"

# Enter on the process's line zooms the table into it
keys w
wait_for '^Timeline of cpu-clock' 10
keys Down Down Enter
wait_for '^filters: pid [0-9]+' 10
keys Escape
wait_gone '^filters:' 10
quit_clean
restart

# a recording: its cells are a grid of its time, and a window of its
# first fifth is phase_a's
command -v perf > /dev/null 2>&1 || fail "perf is not installed"
mkdir -p "$TMP/.debug"
perf --buildid-dir "$TMP/.debug" record -q -N --buildid-mmap -e cpu-clock \
	-F 1000 -o "$TMP/p.data" -- "$WL/phases" 1000 1000 > /dev/null 2>&1 ||
	fail "perf record failed"
run "$PTOP" -i "$TMP/p.data"
wait_for '^recording: samples from [0-9.]+ to [0-9.]+ s' 20
wait_until 10 "phase_a's row" has_row phase_a
keys w
wait_for '^Timeline of cpu-clock: \+0\.0 to \+[0-9.]+ s, [0-9]+ cells of [0-9.e-]+ s' 10
keys Home Space PageDown PageDown Space
wait_for '^filters: window \+0\.0 to ' 10
wait_until 10 "phase_a's row in the recording's window" has_row phase_a
wait_until 10 "phase_b gone in the recording's window" no_row phase_b
keys Escape
wait_until 10 "phase_b's row again" has_row phase_b
quit_clean
echo "ok"
