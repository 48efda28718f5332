#!/bin/sh
# Time in the live view: the History column (H hides and shows it,
# --no-history starts without it), and the timeline view (w) on a
# workload that moves its CPU from phase_a to phase_b at a known moment
# of its work: a window selected at its start shows phase_a alone in the
# table, one at its end phase_b alone, Esc restores the whole; Enter on
# the process zooms into it; a recording (-i, with call chains) the same,
# and there the flame graph and annotate show the window too, and the
# timeline's line of the selected row (phase_a) has its samples where
# phase_a ran, and b makes a window the baseline of another; t makes
# the lines threads', Enter on one filters to it; the mouse opens the
# timeline (History's title), drags a window and zooms (a double click).
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
# H hides the History column and shows it again
keys H
wait_for '^Overhead  *Samples  *Shared Object  *Symbol' 10
keys H
wait_for '^Overhead  *Samples  *History  *Shared Object  *Symbol' 10

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
# t: a line per thread, and Enter on one filters to it
keys w
wait_for '^Timeline of cpu-clock' 10
keys t
wait_for 'a line per thread' 5
keys Down Down Enter
wait_for '^filters: tid [0-9]+' 10
wait_until 10 "phase_a's row in the thread" has_row phase_a
keys Escape
wait_gone '^filters:' 10
quit_clean
restart

# a recording with call chains: its cells are a grid of its time, and a
# window of its first fifth is phase_a's, in the table and in the flame
# graph; started without the History column (H shows it)
command -v perf > /dev/null 2>&1 || fail "perf is not installed"
mkdir -p "$TMP/.debug"
perf --buildid-dir "$TMP/.debug" record -q -N --buildid-mmap -g -e cpu-clock \
	-F 1000 -o "$TMP/p.data" -- "$WL/phases" 1000 1000 > /dev/null 2>&1 ||
	fail "perf record failed"
run "$PTOP" --no-history -i "$TMP/p.data"
wait_for '^recording: samples from [0-9.]+ to [0-9.]+ s' 20
wait_for '^Children  *Self  *Samples  *Shared Object  *Symbol' 10
keys H
wait_for '^Children  *Self  *Samples  *History  *Shared Object  *Symbol' 10
wait_until 10 "phase_a's row" has_row phase_a
keys w
wait_for '^Timeline of cpu-clock: \+0\.0 to \+[0-9.]+ s, [0-9]+ cells of [0-9.e-]+ s' 10
keys Home Space PageDown PageDown Space
wait_for '^filters: window \+0\.0 to ' 10
wait_until 10 "phase_a's row in the recording's window" has_row phase_a
wait_until 10 "phase_b gone in the recording's window" no_row phase_b
# the flame graph of the window: phase_a's frames, none of phase_b
keys F
wait_for '^Flame graph of cpu-clock: [0-9]+ samples' 10
wait_for 'phase_a' 10
screen | grep -q 'phase_b' && fail "phase_b in the flame graph of phase_a's window"
keys Escape
wait_for '^filters: window \+0\.0 to ' 10
# phase_a selected in the window's table: its line in the timeline has
# its samples in the first column, none in the last (phase_b's)
# (the selection's style: reverse, or black on cyan with colours; the
# columns' titles are reverse too)
selected() {
	T capture-pane -p -e -t main | tail -n +2 |
		grep -E "$(printf '\033')\\[((0;)?7|30m$(printf '\033')\\[46)m" |
		sed 's/\x1b\[[0-9;]*m//g' | grep -Ev '^Children ' | head -n 1
}
keys Home
for _ in 1 2 3 4 5 6 7 8 9 10; do
	selected | grep -Eq '\[\.\] phase_a *$' && break
	before=$(selected)
	keys Down
	sel_moved() { [ "$(selected)" != "$before" ]; }
	wait_until 5 "the selection to move" sel_moved
done
selected | grep -Eq '\[\.\] phase_a *$' || fail "could not select phase_a: '$(selected)'"
# annotate reads the window too: phase_a is nearly all of its samples
keys a
wait_for '^Annotate phase_a  \[phases\]  [0-9.]+% of cpu-clock' 10
share=$(screen | sed -n 's/^Annotate phase_a  \[phases\]  \([0-9.]*\)% of cpu-clock.*/\1/p')
echo "annotate in phase_a's window: phase_a $share % of cpu-clock"
awk -v v="$share" 'BEGIN { exit !(v >= 90) }' ||
	fail "annotate in phase_a's window: $share %, not the window's"
keys Escape
wait_for '^filters: window \+0\.0 to ' 10
keys w
wait_for '^Timeline of cpu-clock' 10
wait_for '^\[\.\] phase_a ' 10
keys Home
wait_for '^\+0\.00 to \+[0-9.]+ s: [0-9]+ samples, the selected row [0-9.]+%' 10
first=$(screen | sed -n 's/^+0\.00 to .*, the selected row \([0-9.]*\)%$/\1/p')
keys End
wait_gone '^\+0\.00 to ' 10
last=$(screen | sed -n 's/^+[0-9.]* to .*, the selected row \([0-9.]*\)%$/\1/p')
echo "the selected row (phase_a): $first % of the first column, '$last' % of the last"
awk -v f="$first" 'BEGIN { exit !(f >= 50) }' || fail "phase_a is $first % of the first column"
[ "$last" = "0.0" ] || fail "phase_a is $last % of the last column"
keys q
wait_for '^filters: window' 10
keys Escape
wait_until 10 "phase_b's row again" has_row phase_b
# the flame graph of the whole recording has phase_b again
keys F
wait_for '^Flame graph of cpu-clock: [0-9]+ samples' 10
wait_for 'phase_b' 10
keys Escape
wait_for '^Children  *Self' 10
# b in a window marks it as the baseline, another window is compared
# with it: phase_b new there, phase_a gone; Esc goes back to the first
keys w
wait_for '^Timeline of cpu-clock' 10
keys Home Space PageDown PageDown Space
wait_for '^filters: window \+0\.0 to ' 10
keys b
wait_for '^baseline marked' 10
keys w
wait_for '^Timeline of cpu-clock' 10
keys End Space PageUp Enter
wait_for '^filters: window \+[1-9][0-9.]* to ' 10
cmp_is() { screen | grep -E "  phases +\[\.\] $1 *\$" | grep -q " $2 "; }
wait_until 10 "phase_b new in the second window" cmp_is phase_b new
wait_until 10 "phase_a gone in the second window" cmp_is phase_a gone
keys Escape
wait_for '^filters: window \+0\.0 to ' 10
keys Escape
wait_gone '^filters:' 10
# b again clears the baseline: the History column is back
keys b
wait_for '^Children  *Self  *Samples  *History' 10

# the mouse (X10 bytes, as tmux's terminal sends them; each event
# awaited on the screen, as a hand moves): a click on History's title
# opens the timeline; a drag over its first fifth sets that window,
# phase_a's; a double click on the process's line zooms into it
xy() { printf '%02x %02x' $((33 + $1)) $((33 + $2)); }
mouse() { T send-keys -t main -H 1b 5b 4d "$1" $(xy "$2" "$3"); }
line_of() { screen | grep -nE -- "$1" | head -n 1 | cut -d: -f1 | awk '{ print $1 - 1 }'; }
y=$(line_of '^Children  *Self  *Samples  *History')
x=$(screen | sed -n "$((y + 1))p" | awk '{ print index($0, "History") - 1 }')
mouse 20 "$x" "$y"
mouse 23 "$x" "$y"
wait_for '^Timeline of cpu-clock' 10
y=$(line_of '^every sample')
# (its columns: the blocks are 3 bytes each, counted as characters)
w=$(screen | sed -n "$((y + 1))p" | sed 's/^every sample *//' |
	LC_ALL=C.UTF-8 sed 's/./x/g' | awk '{ print length($0) }')
[ "$w" -gt 20 ] 2> /dev/null || fail "no line of every sample to drag over ($w columns)"
mouse 20 27 "$y"
wait_for '^\+0\.00 to ' 10
mouse 40 $((27 + w / 10)) "$y"
wait_for '^window \+0\.00 to ' 10
mouse 40 $((27 + w / 5)) "$y"
wait_for "^window \\+0\\.00 to \\+[0-9.]+ s: Space or Enter sets it" 10
mouse 23 $((27 + w / 5)) "$y"
wait_for '^filters: window \+0\.0 to ' 10
wait_until 10 "phase_a's row in the dragged window" has_row phase_a
wait_until 10 "phase_b gone in the dragged window" no_row phase_b
keys Escape
wait_gone '^filters:' 10
keys w
wait_for '^Timeline of cpu-clock' 10
y=$(line_of '^[0-9]+ phases ')
[ -n "$y" ] || fail "no line of the phases process"
mouse 20 5 "$y"
mouse 23 5 "$y"
mouse 20 5 "$y"
mouse 23 5 "$y"
wait_for '^filters: pid [0-9]+' 10
quit_clean
echo "ok"
