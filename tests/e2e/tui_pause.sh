#!/bin/sh
# f pauses sampling (the events are disabled: no sample is taken while
# paused), f resumes; SIGSTOP then SIGCONT; [ and ] change the refresh
# delay; z zeroes; P saves the table.
. tests/e2e/tmux.inc

# read_total: samples read plus lost, from the header ("total N; lost L")
read_total() {
	screen | sed -n 's/^samples .*, total \([0-9]*\); lost \([0-9]*\);.*/\1 \2/p' |
		head -n 1 | awk '{ print $1 + $2 }'
}
total_not() { [ "$(read_total)" != "$1" ]; }
# cpu_ticks PID: its user + system time, in clock ticks (100 a second)
cpu_ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
cpu_past() { [ "$(cpu_ticks "$1")" -ge "$2" ]; }

bg "$WL/spin3" 0
SPIN=$LAST_BG
cd "$TMP"
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a'

# Paused, the events are disabled: the kernel takes no sample.  The view
# takes no snapshot while paused, so its count cannot tell; what can is
# the count after resuming.  Samples the kernel took during the pause
# would be in the ring (or counted lost) and read at once after it.  The
# pause lasts 3 s of the workload's CPU time, about 12000 samples at
# 4000 Hz if the events ran: after resuming the view must have read
# (or lost) only what the workload's CPU time since then accounts for.
keys f
wait_for '; PAUSED'
wait_for '^paused'
a=$(read_total)
t0=$(cpu_ticks "$SPIN")
wait_until 120 "spin3 running 3 s of CPU while paused" cpu_past "$SPIN" $((t0 + 300))
t1=$(cpu_ticks "$SPIN")
[ "$(read_total)" = "$a" ] || fail "the paused view changed its counts"
keys f
wait_gone '; PAUSED'
wait_until 10 "the counts growing after resuming" total_not "$a"
b=$(read_total)
t2=$(cpu_ticks "$SPIN")
# what the CPU time since resuming accounts for, plus a margin
max=$(( (t2 - t1) * 40 + 1500 ))
[ $((b - a)) -le "$max" ] ||
	fail "$((b - a)) samples (read + lost) after resuming, at most $max for $(( t2 - t1 )) ticks of CPU since: the events ran while paused ($(( t1 - t0 )) ticks)"
echo "paused for $(( t1 - t0 )) ticks of spin3's CPU; $((b - a)) samples read after resuming, within $((t2 - t1)) ticks"

# stopped for two seconds (SIGSTOP), then continued: it goes on
P=$(ptop_pid)
kill -STOP "$P"
# stopped until the workload has run 2 s of CPU: ptop's rings fill
t0=$(cpu_ticks "$SPIN")
wait_until 120 "spin3 running 2 s of CPU while ptop is stopped" cpu_past "$SPIN" $((t0 + 200))
c=$(read_total)
kill -CONT "$P"
wait_until 10 "a refresh after SIGCONT" total_not "$c"
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
