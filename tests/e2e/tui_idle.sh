#!/bin/sh
# The i key: the idle task's samples (pid 0) are left out of the table by
# default and shown as rows at once on i, hidden again on the next i, on
# a stream made by tests/integration/idle_stream.pl (an idle machine
# cannot be counted on): 12 samples of the idle task, 4 of pid 100.
. tests/e2e/tmux.inc

perl tests/integration/idle_stream.pl > "$TMP/idle.pipe" ||
	fail "perl could not write the stream"

run "$PTOP" -i "$TMP/idle.pipe" -s pid,dso,sym
wait_for '^samples 16, total 16; idle 75\.0%; lost 0'
wait_top '^ +100\.00% +4 +[^ ]+ +100 +work '
screen | grep -q swapper && fail "the idle task has a row by default"

keys i
wait_for 'idle 75\.0% \(rows shown\)'
wait_top '^ +75\.00% +12 +[^ ]+ +0 +swapper '
wait_for '^filters: .*idle shown'
screen | grep -Eq '^ +25\.00% +4 +[^ ]+ +100 +work ' || fail "work is not 25 % with idle shown"

keys i
wait_top '^ +100\.00% +4 +[^ ]+ +100 +work '
wait_gone 'swapper'
wait_gone '^filters:'
screen | grep -q '^samples 16, total 16; idle 75\.0%; lost 0' ||
	fail "the header changed"
quit_clean
exit 0
