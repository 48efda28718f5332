#!/bin/sh
# solo: its workloads must show in a system-wide table
# p re-targets sampling live: to a pid, to a process name, back to every
# CPU.
. tests/e2e/tmux.inc

# a copy with a name of its own: "p NAME" must find this process only,
# not a spin3 of another test or user running at the same time
NAME=spt$$
cp "$WL/spin3" "$TMP/$NAME"
bg "$TMP/$NAME" 40
SPIN=$LAST_BG
bg "$WL/dlwork" 40
DL=$LAST_BG
run "$PTOP" -p "$SPIN" -d 1
wait_top 'spin_a'

keys p
wait_for '^Attach to pid'
keys "$DL" Enter
wait_for "^event cpu-clock.*target pid $DL \(dlwork\)"
wait_for "attached to pid $DL"
wait_top 'wlhot_spin' 10
wait_gone 'spin_a' 10

keys p
keys "$NAME" Enter
wait_for "^event cpu-clock.*target pid $SPIN \($NAME\)"
wait_top 'spin_a'

keys p
keys n o - s u c h - p r o c e s s Enter
wait_for "no process named 'no-such-process'"
wait_for "target pid $SPIN \($NAME\)"

keys p Enter
wait_for '^event cpu-clock.*target all CPUs'
wait_for 'wlhot_spin' 10
wait_for 'spin_a' 10

quit_clean
echo "ok"
