#!/bin/sh
# N in the live view: C++ names by their name alone (perf's form, the
# default), then with their parameters, then back.
. tests/e2e/tmux.inc

run "$PTOP" -d 0.5 -e cpu-clock -- "$WL/cppwork" 30
wait_top 'ptopwl::Worker<int>::crunch *$' 15
keys N
wait_for 'with their parameters'
wait_top 'ptopwl::Worker<int>::crunch\(unsigned long\)' 10
keys N
wait_for 'by their name alone'
wait_top 'ptopwl::Worker<int>::crunch *$' 10
quit_clean
exit 0
