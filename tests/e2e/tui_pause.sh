#!/bin/sh
# f pauses sampling (the count stops growing), f resumes; [ and ] change
# the refresh delay; z zeroes; P saves the table.
. tests/e2e/tmux.inc

bg "$WL/spin3" 40
SPIN=$LAST_BG
cd "$TMP"
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a'
keys f
wait_for '; PAUSED'
wait_for '^paused'
sleep 0.7
a=$(samples)
sleep 1.5
b=$(samples)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "samples grew while paused: $a -> $b"
keys f
wait_gone '; PAUSED'
end=$(( $(date +%s) + 5 ))
while [ "$(samples)" = "$b" ] && [ "$(date +%s)" -le "$end" ]; do sleep 0.1; done
[ "$(samples)" != "$b" ] || fail "samples do not grow after resuming"

# stopped for two seconds (SIGSTOP), then continued: it goes on
P=$(ptop_pid)
kill -STOP "$P"
sleep 2
c=$(samples)
kill -CONT "$P"
end=$(( $(date +%s) + 5 ))
while [ "$(samples)" = "$c" ] && [ "$(date +%s)" -le "$end" ]; do sleep 0.1; done
[ "$(samples)" != "$c" ] || fail "no refresh after SIGCONT"
wait_top 'spin_a'

keys ']'
wait_for 'refreshing every 1 s'
keys '[' '['
wait_for 'refreshing every 0.2 s'

keys z
wait_for 'zeroing at every refresh'
wait_for '; zeroing'
keys z
wait_gone '; zeroing'

keys P
wait_for 'saved the table to ./ptop.hist.0'
grep -q 'spin_a' "$TMP/ptop.hist.0" || fail "the saved table has no spin_a"
grep -q '^# event cpu-clock' "$TMP/ptop.hist.0" || fail "the saved table has no header"

# the row menu: copy the row to a file; a: annotate (tui_annotate.sh tests
# the view), Esc comes back
keys Enter
wait_for 'Annotate .*spin_a'
keys End Enter
wait_for 'saved the row to ./ptop.row.0'
grep -q 'spin_a' "$TMP/ptop.row.0" || fail "the saved row has no spin_a"
keys a
wait_for '^Annotate spin_a '
keys Escape
wait_for '^Overhead'

quit_clean
echo "ok"
