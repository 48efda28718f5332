#!/bin/sh
# solo: a window of one delay after the last table
# -n in the live view: like top, ptop exits by itself (status 0, terminal
# restored, the command ended) once the Nth table has been on screen for
# one delay.  And p with an empty answer goes back to system-wide on the
# CPUs of -C, which the header names as at the start.
. tests/e2e/tmux.inc

# -d 2 -n 3: tables at about 0.5, 2.5 and 4.5 s, the exit at about
# 6.5 s (with -d 1, a loaded machine showed spin_a first in the last
# table and ptop had exited at the next look); only lower bounds are
# timed (a loaded machine is only slower)
start=$(date +%s%N)
run "$PTOP" -d 2 -n 3 -e cpu-clock -- "$WL/spin3" 30
# the command ptop started, found while ptop runs (it starts it first)
cmd_of_ptop() {
	P=$(ptop_pid)
	[ -n "$P" ] && CMD=$(pgrep -P "$P" -x spin3 | head -n 1) && [ -n "$CMD" ]
}
wait_until 10 "spin3 under ptop" cmd_of_ptop
wait_top 'spin_a' 10
screen | grep -q '^PTOP-EXIT=' && fail "ptop exited before its table was read"
wait_for '^PTOP-EXIT=' 30
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "ptop -d 2 -n 3 exited after $ms ms"
screen | grep -q '^PTOP-EXIT=0$' || fail "ptop did not exit with 0"
wait_for '^TTY-icanon$' 5
[ "$ms" -ge 4500 ] || fail "ptop exited after $ms ms, before its 3 tables"
# the command it started does not outlive it (SIGTERM, SIGKILL after 1 s)
gone() { ! kill -0 "$1" 2> /dev/null; }
wait_until 5 "spin3 ($CMD) ending with ptop" gone "$CMD"
restart

# -C 0: p, then an empty answer, comes back to "CPUs 0", not "all CPUs"
bg "$WL/spin3" 40
SPIN=$LAST_BG
run "$PTOP" -C 0 -d 0.5
wait_for '^event cpu-clock.*target CPUs 0(;|$)'
keys p
wait_for '^Attach to pid'
keys "$SPIN" Enter
wait_for "^event cpu-clock.*target pid $SPIN \(spin3\)"
keys p
wait_for '^Attach to pid'
keys Enter
wait_for 'attached to CPUs 0$'
wait_for '^event cpu-clock.*target CPUs 0(;|$)'
screen | grep -q 'target all CPUs' && fail "the header says all CPUs under -C 0"

quit_clean
echo "ok"
