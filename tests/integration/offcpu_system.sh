#!/bin/sh
# solo: every CPU's switches: more load overflows the rings
# --off-cpu of every CPU while offwork runs: its main thread's waits
# split 50/25/25 (sleep, pipe, mutex) within 5 points, as for -p
# (offcpu.sh).  Every context switch of the machine is recorded with its
# chain: on a machine so loaded that the rings overflow, ptop drops the
# waits it can no longer follow and says how many records were lost; the
# split is then not what this test can check, and it is skipped by name.
. tests/integration/lib.sh

bg "$WL/offwork" 100
"$PTOP" -b --off-cpu -e cpu-clock -d 3 -n 1 --json > "$TMP/a.json" 2> "$TMP/err" ||
	fail "ptop --off-cpu (every CPU): $(cat "$TMP/err")"
lost=$(grep '"event":"sched:sched_switch"' "$TMP/a.json" | tail -n 1 | jq -r '.lost')
[ "$lost" = 0 ] || skip "the rings lost $lost records of sched_switch (a machine this loaded overflows them)"
set -- $(grep '"event":"off-cpu"' "$TMP/a.json" | tail -n 1 | jq -r '
	def t($s): ([.rows[] | select(.symbol == $s and .dso == "offwork") |
		.children_period] | add // 0) / 1e6;
	"\(t("do_sleep")) \(t("do_pipe")) \(t("do_mutex"))"')
echo "every CPU: sleep $1 ms, pipe $2 ms, mutex $3 ms"
awk -v s="$1" -v p="$2" -v m="$3" 'BEGIN { t = s + p + m
	exit !(t > 1000 && (100 * s / t) >= 45 && (100 * s / t) <= 55 &&
	       (100 * p / t) >= 20 && (100 * p / t) <= 30) }' ||
	fail "every CPU: waits $1 / $2 / $3 ms"
exit 0
