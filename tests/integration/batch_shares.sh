#!/bin/sh
# ptop -b --json -- workload: the known 60/30/10 profile, in the right dso,
# and the text mode shows the same rows.
. tests/integration/lib.sh

# -n 2: two tables, then ptop exits
"$PTOP" -b --json -d 0.3 -n 2 -e cpu-clock -- "$WL/spin3" 1 > "$TMP/n.json" 2> "$TMP/err" ||
	fail "ptop -n 2 exited with $?: $(cat "$TMP/err")"
[ "$(wc -l < "$TMP/n.json")" -eq 2 ] || fail "expected 2 refreshes, got $(wc -l < "$TMP/n.json")"
jq -e . "$TMP/n.json" > /dev/null || fail "invalid JSON"
# the shares: the whole run (2 s of the workload's CPU, about 8000
# samples whatever the load; a 1 s window of wall time held a few
# hundred at load 30)
SPIN3_TIMES="$TMP/times" "$PTOP" -b --json -d 30 -e cpu-clock -- "$WL/spin3" 2 \
	> "$TMP/out.json" 2> "$TMP/err" ||
	fail "ptop exited with $?: $(cat "$TMP/err")"
tail -n 1 "$TMP/out.json" | jq -e '.finished and .samples > 4000' > /dev/null ||
	fail "not the whole run: $(tail -n 1 "$TMP/out.json" | jq -c 'del(.rows)')"
a=$(share "$TMP/out.json" spin_a)
b=$(share "$TMP/out.json" spin_b)
c=$(share "$TMP/out.json" spin_c)
# (of the user-space samples) against what the workload did: 60/30/10
# of its fixed work, and the CPU time spin3 measured in each function
# (CLOCK_THREAD_CPUTIME_ID around each call).  Under a hypervisor's
# unseen steal the two disagree, by up to 8 points (one loaded CI run
# measured spin_a 56.6; another 58.84 while the samples said 60.27, as
# the fixed work does): all three shares within 1.5 points of one of
# them (2 sigma of 8000 samples is 1.1).
set -- $(cat "$TMP/times")
[ $# -eq 3 ] || fail "spin3 wrote no times: $(cat "$TMP/times" 2>&1)"
m=$(awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { t = a + b + c
	printf "%.2f %.2f %.2f", 100 * a / t, 100 * b / t, 100 * c / t }')
echo "ptop: spin_a $a, spin_b $b, spin_c $c; spin3 measured $m"
set -- $m
near "$1" 60 8 "spin3's own spin_a (the machine bent the fixed work)"
# within 1.5 of all three of "x y z"
all_near() {
	set -- $1
	awk -v a="$a" -v b="$b" -v c="$c" -v x="$1" -v y="$2" -v z="$3" 'BEGIN {
		d = 1.5
		exit !(a >= x - d && a <= x + d && b >= y - d && b <= y + d &&
		       c >= z - d && c <= z + d) }'
}
all_near "60 30 10" || all_near "$m" ||
	fail "ptop's shares $a $b $c are not within 1.5 points of 60 30 10 (the fixed work) nor of $m (spin3's CPU times)"
tail -n 1 "$TMP/out.json" | jq -e '.event == "cpu-clock" and .lost == 0 and
	([.rows[] | select(.symbol == "spin_a")][0].dso == "spin3") and
	([.rows[] | select(.symbol == "spin_a")][0].kernel == false)' > /dev/null ||
	fail "event, lost or dso wrong: $(tail -n 1 "$TMP/out.json" | head -c 600)"
# the samples of the rows and the header agree
tail -n 1 "$TMP/out.json" | jq -e '([.rows[].samples] | add) <= .samples' > /dev/null ||
	fail "rows hold more samples than the header"

# text mode: '#' header lines, then the rows with the [.] marker
"$PTOP" -b -d 1 -n 1 -e cpu-clock -- "$WL/spin3" 2 > "$TMP/out.txt" 2>&1 ||
	fail "text mode failed"
grep -q '^# event cpu-clock, 4000 Hz' "$TMP/out.txt" || fail "no event header: $(head -3 "$TMP/out.txt")"
grep -q '^# Overhead  Samples' "$TMP/out.txt" || fail "no column titles"
grep -Eq '^ +[0-9.]+% +[0-9]+ +spin3 +\[\.\] spin_a$' "$TMP/out.txt" ||
	fail "no spin_a row: $(cat "$TMP/out.txt")"
exit 0
