#!/bin/sh
# solo: a split of waits that extra wake-up latency bends
# --off-cpu in the live view: Tab reaches the off-cpu event, its header
# gives the time waited, a Time column, offwork's waits as rows (their
# Children time grows with the rounds); the flame graph of the waits;
# annotate of where do_sleep waits.
. tests/e2e/tmux.inc

run env OFFWORK_TIMES="$TMP/t" "$PTOP" --off-cpu -e cpu-clock -d 1 -- "$WL/offwork" 400
wait_for '^event cpu-clock, 4000 Hz \[1/3\]' 10
keys Tab
wait_for '^event sched:sched_switch, period 1 \[2/3\]' 10
keys Tab
wait_for '^event off-cpu, waits [0-9.]+ (s|ms|us) \[3/3\]' 10
wait_for '^Children +Self +Samples +Time +History +Shared Object +Symbol' 10
wait_for '[0-9.]+ (s|ms) +[^ ]+ +offwork +\[\.\] do_sleep$' 15
wait_for '[0-9.]+ (s|ms) +[^ ]+ +offwork +\[\.\] do_pipe$' 15
wait_for '[0-9.]+ (s|ms) +[^ ]+ +offwork +\[\.\] do_mutex$' 15
# do_sleep's share of the waits of main: about half of do_sleep +
# do_pipe + do_mutex, as offwork measured its calls so far (OFFWORK_TIMES:
# late wake-ups on a loaded machine move the split), within 5 points (one
# screen, one snapshot), after a dozen rounds of 0.4 s (a round in
# progress weighs a twelfth at most)
elapsed_at_least() {
	awk -v e="$(elapsed)" -v m="$1" 'BEGIN { exit !(e != "" && e >= m) }'
}
wait_until 60 "5 s elapsed" elapsed_at_least 5
pct() {
	screen | sed -n "s/^ *\([0-9.]*\)%.* offwork *\[\.\] $1\$/\1/p" | head -n 1
}
s=$(pct do_sleep)
p=$(pct do_pipe)
m=$(pct do_mutex)
set -- $(cat "$TMP/t")
echo "off-cpu Children: do_sleep $s %, do_pipe $p %, do_mutex $m %; offwork measured $1 / $2 / $3 ms"
awk -v s="$s" -v p="$p" -v m="$m" -v a="$1" -v b="$2" -v c="$3" 'BEGIN {
	t = s + p + m; w = 100 * a / (a + b + c)
	exit !(t > 0 && 100 * s / t >= w - 5 && 100 * s / t <= w + 5) }' ||
	fail "do_sleep's share of the main thread's waits ($s, $p, $m %) is not what offwork measured ($1 / $2 / $3 ms)"
# the flame graph of the waits: do_sleep's frames, found by the search
# (too narrow to be named among every thread's waits)
keys F
wait_for '^Flame graph of off-cpu: [0-9]+ samples' 10
keys /
keys -l do_sleep
keys Enter
wait_for '^search "do_sleep": [0-9.]*[1-9][0-9.]*% of all samples' 10
keys q
wait_for '^Children +Self +Samples +Time'
# where do_sleep waits: annotate counts the waits at its call of the
# sleep (the samples' own addresses are the scheduler's); its row by
# name and object, sampling paused (a filter's text may be in other
# names too)
pause
keys /
keys d o _ s l e e p
keys Enter
wait_for "^filters: symbol ~ 'do_sleep'"
select_row offwork do_sleep
keys a
wait_for '^Annotate do_sleep  \[offwork\]  [0-9.]+% of off-cpu' 10
wait_for '^ +100\.00 +[0-9a-f]+: .*call' 10
keys Escape
wait_for '^Children +Self +Samples +Time'
# back to cpu-clock: no Time column
keys Tab
wait_for '^event cpu-clock' 10
wait_for '^Children +Self +Samples +History +Shared Object' 10
quit_clean
exit 0
