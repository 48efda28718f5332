#!/bin/sh
# ptop -p PID follows the threads and children the process creates after
# ptop attached; when it exits the view says so and keeps its last table.
. tests/e2e/tmux.inc

# latethreads sleeps 2 s, then runs a new thread and a child for 2 s of
# CPU each
bg "$WL/latethreads" 2 2
LATE=$LAST_BG
run "$PTOP" -p "$LATE" -d 0.5 -s comm,pid,tid,sym
wait_for "^event .*target pid $LATE \(latethreads\)"
wait_for '\[\.\] late_worker' 10
wait_for '\[\.\] child_worker' 10
# the rows carry the pid and tid columns when grouped by them
screen | grep -q '^Overhead  *Samples  *History  *Command  *Pid  *Tid  *Symbol' || fail "no Pid/Tid/Command columns"
wait_for "process $LATE exited" 60
redrawn
screen | grep -q 'late_worker' || fail "the last table is gone"
screen | grep -q '; finished' || fail "the header does not say finished"
quit_clean
echo "ok"
