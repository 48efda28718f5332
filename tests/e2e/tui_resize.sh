#!/bin/sh
# Resizing redraws at the new size (the History column where the width
# allows it); tiny terminals and a SIGWINCH storm do not crash it.
. tests/e2e/tmux.inc

bg "$WL/spin3" 40
SPIN=$LAST_BG
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a'
T resize-window -t main -x 40 -y 12
wait_top 'spin_a'
# (the ellipsis is one column, three bytes)
ell=$(printf '\342\200\246')
screen | sed "s/$ell/./g" | awk 'length($0) > 40 { exit 1 }' ||
	fail "lines wider than 40 columns"
[ "$(screen | wc -l)" -le 12 ] || fail "more than 12 lines"
# no room for the History column at 40 columns
wait_for '^Overhead ' 10
wait_gone '^Overhead .*History' 10
T resize-window -t main -x 10 -y 3
wait_for '^event'
# at 1x1 (nothing fits): ptop goes on waking and drawing, alive
P=$(ptop_pid)
[ -n "$P" ] || fail "no ptop"
wakeups() { sed -n 's/^voluntary_ctxt_switches:[^0-9]*//p' "/proc/$P/status" 2> /dev/null; }
woke() { [ "$(wakeups)" -ge "$1" ] 2> /dev/null; }
T resize-window -t main -x 1 -y 1
w0=$(wakeups)
wait_until 10 "ptop waking 3 times at 1x1" woke $((w0 + 3))
kill -0 "$P" 2> /dev/null || fail "ptop died at 1x1"
T resize-window -t main -x 120 -y 40
wait_top 'spin_a'
# a storm of resizes
i=0
while [ $i -lt 30 ]; do
	T resize-window -t main -x $((20 + i * 3)) -y $((5 + i))
	i=$((i + 1))
done
T resize-window -t main -x 120 -y 40
wait_top 'spin_a'
screen | grep -q '^Overhead' || fail "no table after the storm"
# 120 columns again: the History column is back
wait_for '^Overhead  *Samples  *History  *Shared Object  *Symbol' 10
[ -n "$(ptop_pid)" ] || fail "ptop is gone"

quit_clean
echo "ok"
