#!/bin/sh
# Two events: Tab and Shift-Tab switch the header; e adds a third event
# live from the picker.
. tests/e2e/tmux.inc

bg "$WL/spin3" 40
SPIN=$LAST_BG
run "$PTOP" -p "$SPIN" -d 1 -e cpu-clock,page-faults
wait_for '^event cpu-clock, [0-9]+ Hz \[1/2\]'
wait_top 'spin_a'
keys Tab
wait_for '^event page-faults, [0-9]+ Hz \[2/2\]'
keys BTab
wait_for '^event cpu-clock, [0-9]+ Hz \[1/2\]'
keys Tab Tab
wait_for '^event cpu-clock, [0-9]+ Hz \[1/2\]'

# the picker lists what this machine can open, tracepoints included
keys e
wait_for '^Events: Enter adds'
wait_for 'context-switches +\[Software event\]'
wait_for '\(([0-9]+) events\)' 20
screen | grep -q 'Tracepoint event' || keys End
wait_for '\[Tracepoint event\]'
keys Home /
keys c o n t e x t - s w i t c h e s
wait_for '^Search: context-switches'
keys Enter
wait_gone '^Search:'
screen | sed -n 2p | grep -q '^  context-switches ' || fail "context-switches is not the first entry"
keys Enter
wait_for '^event context-switches, [0-9]+ Hz \[3/3\]'
wait_for 'also sampling context-switches'
# r replaces the shown event
keys e
wait_for '^Events: Enter adds, r replaces context-switches'
keys /
keys t a s k - c l o c k Enter
wait_gone '^Search:'
keys r
wait_for '^event task-clock, [0-9]+ Hz \[3/3\]'
wait_for 'now sampling task-clock'
# the other two are still sampled
keys Tab
wait_for '^event cpu-clock, [0-9]+ Hz \[1/3\]'
wait_top 'spin_a'

quit_clean
echo "ok"
