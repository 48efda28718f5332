#!/bin/sh
# solo: every CPU's switches: more load overflows the rings
# --off-cpu of every CPU while offwork runs: its main thread's waits as
# for a command (offcpu.sh): each within what offwork measured of its
# calls (OFFWORK_TIMES: late wake-ups on a loaded machine lengthen them
# and move the split), at least its nominal time, and split as measured
# within 5 points.  offwork's rounds all fall inside ptop's table: it
# starts once ptop's events are open, its rounds once a table ptop
# printed after that start has shown that ptop read the records of the
# start (its exec, its threads: a CI run at load 18 lost one of the first
# round's sleeps when the rounds began at the exec), and the table compared is one ptop
# took after offwork ended (tables are cumulative); a stop request then
# ends ptop with status 0.  Every context switch of the
# machine is recorded with its chain: on a machine so loaded that the
# rings overflow, ptop drops the waits it can no longer follow and says
# how many records were lost; the waits are then not what this test can
# check, and it is skipped by name.  Rows are per process (-s pid): only
# this offwork's waits are compared, not those of another offwork that a
# test beside it runs (a CI run here failed with 2.5 times the waits while
# another worktree's offcpu.sh ran).
. tests/integration/lib.sh

# events_open PID: ptop has opened its perf events
events_open() { ls -l "/proc/$1/fd" 2> /dev/null | grep -q 'perf_event'; }
# rounds_done N: offwork has measured N rounds
rounds_done() { [ "$(awk '{ print $4 }' "$TMP/t" 2> /dev/null)" = "$1" ]; }
# tables_past N: ptop printed more than N tables
tables_past() { [ "$(wc -l < "$TMP/a.json")" -gt "$1" ]; }

mkfifo "$TMP/go"
bg "$PTOP" -b --off-cpu -e cpu-clock -d 1 --json -s pid,dso,sym \
	> "$TMP/a.json" 2> "$TMP/err"
P=$LAST_BG
wait_until 60 "ptop opening its events" events_open "$P"
bg env OFFWORK_TIMES="$TMP/t" OFFWORK_GO="$TMP/go" "$WL/offwork" 4
W=$LAST_BG
# waiting: offwork runs and its main thread sleeps in the fifo's open
waiting() {
	[ "$(readlink "/proc/$W/exe" 2> /dev/null)" = "$WL/offwork" ] &&
		sed 's/.*) //' "/proc/$W/stat" | awk '{ exit !($1 == "S") }' &&
		[ "$(ls "/proc/$W/task" | wc -l)" -ge 3 ]
}
wait_until 60 "offwork to start and wait for its go" waiting
# two tables later (the first may have been taken before the start)
n=$(wc -l < "$TMP/a.json")
wait_until 60 "two tables after offwork's start" tables_past $((n / 3 * 3 + 5))
echo go > "$TMP/go"
wait_until 120 "offwork's 4 rounds" rounds_done 4
# the second table printed after offwork's end: its snapshot came after
# the first was printed (a table's snapshot may predate its printing)
n=$(wc -l < "$TMP/a.json")
wait_until 120 "two tables after offwork's end" tables_past $((n / 3 * 3 + 5))
kill -TERM "$P"
wait "$P"
rc=$?
BG=""
[ $rc -eq 0 ] || fail "ptop --off-cpu (every CPU): exit status $rc after SIGTERM: $(cat "$TMP/err")"
# that table (the lines of its three events)
head -n $(( (n / 3 + 2) * 3 )) "$TMP/a.json" > "$TMP/b.json"
lost=$(grep '"event":"sched:sched_switch"' "$TMP/b.json" | tail -n 1 | jq -r '.lost')
[ "$lost" = 0 ] || skip "the rings lost $lost records of sched_switch (a machine this loaded overflows them)"
set -- $(grep '"event":"off-cpu"' "$TMP/b.json" | tail -n 1 | jq -r --argjson w "$W" '
	def t($s): ([.rows[] | select(.symbol == $s and .dso == "offwork" and
		.pid == $w) |
		.children_period] | add // 0) / 1e6;
	"\(t("do_sleep")) \(t("do_pipe")) \(t("do_mutex"))"') $(cat "$TMP/t")
echo "every CPU: sleep $1 ms, pipe $2 ms, mutex $3 ms; offwork measured $4 / $5 / $6 in $7 rounds"
awk -v s="$1" -v p="$2" -v m="$3" -v a="$4" -v b="$5" -v c="$6" -v n="$7" 'BEGIN {
	t = s + p + m; u = a + b + c
	exit !(t > 0 && u > 0 && s >= 200 * n && s <= a + 2 * n &&
	       p >= 95 * n && p <= b + 2 * n && m >= 95 * n && m <= c + 2 * n &&
	       (100 * s / t - 100 * a / u) ^ 2 <= 25 &&
	       (100 * p / t - 100 * b / u) ^ 2 <= 25 &&
	       (100 * m / t - 100 * c / u) ^ 2 <= 25) }' ||
	fail "every CPU: waits $1 / $2 / $3 ms for $7 rounds of 200 / 100 / 100 ms, offwork measured $4 / $5 / $6"
exit 0
