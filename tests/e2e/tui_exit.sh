#!/bin/sh
# Every way out restores the terminal: q, Ctrl-C, SIGTERM, a crash
# signal.  A command that exits leaves its last table; TERM=dumb is
# refused with advice.
. tests/e2e/tmux.inc

# the command ends: the view says so and keeps the table
run "$PTOP" -d 0.5 -- "$WL/spin3" 2
wait_top 'spin_a'
wait_for 'the command exited' 10
redrawn
top_row | grep -q 'spin_a' || fail "the last table is gone"
quit_clean
restart

bg "$WL/spin3" 40
SPIN=$LAST_BG

# Ctrl-C
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a'
keys C-c
wait_for '^PTOP-EXIT=0$'
wait_for '^TTY-icanon$'
restart

# SIGTERM
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a'
kill -TERM "$(ptop_pid)"
wait_for '^PTOP-EXIT=0$'
wait_for '^TTY-icanon$'
restart

# a crash: the handler restores the terminal, then the signal kills it
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a'
kill -SEGV "$(ptop_pid)"
wait_for '^PTOP-EXIT=(139|1)'
wait_for '^TTY-icanon$'
restart

# TERM=dumb: refused with a hint at -b, non-zero exit
run env TERM=dumb "$PTOP" -p "$SPIN"
wait_for '^PTOP-EXIT=1$'
screen | grep -q 'use -b' || fail "no -b advice for TERM=dumb"
restart
echo "ok"
