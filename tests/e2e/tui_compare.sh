#!/bin/sh
# Compare in the live view.  b marks the table as the baseline: the
# header says what is compared with what, the columns Baseline and Delta
# appear; when spin3's split turns from 60/30/10 to 10/30/60 (by fixed
# work) the deltas show it, -s delta puts spin_c first and I spin_a; b
# again clears it.  Then --baseline FILE with -i FILE (both recorded by
# ptop -o): the file's shares and deltas, b clears it, b marks anew.
. tests/e2e/tmux.inc

# Delta (points) of row SYM on the screen, "" when absent
delta_of() {
	screen | awk -v s="$1" '$NF == s && $1 ~ /%$/ { gsub(/%/, ""); print $3 + 0; exit }'
}
base_of() {
	screen | awk -v s="$1" '$NF == s && $1 ~ /%$/ { gsub(/%/, ""); print $1 + 0; exit }'
}
# the first table row under compare's titles
cmp_top() {
	screen | sed -n '/^Baseline/{n;p;q;}' | grep -Eq -- "$1"
}
# delta_beyond SYM LIMIT: SYM's delta is past LIMIT (its sign says which
# way)
delta_beyond() {
	d=$(delta_of "$1")
	[ -n "$d" ] && awk -v d="$d" -v l="$2" 'BEGIN { exit !(l > 0 ? d > l : d < l) }'
}

# cpu_ticks PID: its user + system time, in clock ticks (100 a second)
cpu_ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
cpu_past() { [ "$(cpu_ticks "$1")" -ge "$2" ]; }
elapsed_past() {
	awk -v e="$(elapsed)" -v m="$1" 'BEGIN { exit !(e != "" && e >= m) }'
}

# 5 CPU seconds of 60/30/10, then as much of 10/30/60 (by its CPU time:
# the second half begins after a wait as long as the load makes it)
bg "$WL/spin3" 10 1 6,3,1 1,3,6
SPIN=$LAST_BG
cd "$TMP"
# -z: each table is one refresh, so that the second half's tables differ
# from the baseline by the whole change; 2 s a table, so that a table
# holds some hundred samples even at a load of 20 (0.3 s held 44)
run "$PTOP" -p "$SPIN" -z -d 2 -e cpu-clock -s delta
wait_top 'spin_a'
screen | grep -q '^baseline' && fail "a baseline before b"
# the second table (the first is of a quarter of a second): well inside
# spin3's first half (5 s of its CPU)
wait_until 30 "the second table" elapsed_past 2.3
keys b
wait_for '^baseline marked at [0-9.]+ s \(a [0-9.]+ s window\): [0-9]+ samples; now [0-9]+ samples; Delta = now - baseline, in points'
wait_for '^Baseline +Overhead +Delta +Samples +History +Shared Object +Symbol'
wait_for 'baseline marked: Delta = this refresh - the marked one'
# marked in the first half: spin_a had its 60 %, nearer 60 than the
# second half's 10 (the midway point, 35, is 5 standard deviations of
# 60 % of 100 samples away)
b=$(base_of spin_a)
awk -v b="$b" 'BEGIN { exit !(b > 35) }' ||
	fail "spin_a's Baseline is '$b': not marked in spin3's first half"
# the split turns once spin3 has run its first half (5 s of CPU: 500
# ticks; a deadline for a machine where it never runs)
wait_until 600 "spin3 past its first half" cpu_past "$SPIN" 520
# spin_c gains and spin_a loses tens of points (50 each way)
wait_until 60 "spin_c's Delta over +30" delta_beyond spin_c 30
wait_until 10 "spin_a's Delta under -30" delta_beyond spin_a -30
echo "deltas: spin_c $(delta_of spin_c), spin_b $(delta_of spin_b), spin_a $(delta_of spin_a)"
# by delta: the largest gain first; inverted, the largest loss
wait_until 10 "spin_c first by delta" cmp_top 'spin_c$'
keys I
wait_until 10 "spin_a first by delta inverted" cmp_top 'spin_a$'
keys I
wait_until 10 "spin_c first again" cmp_top 'spin_c$'
# b again: the plain table
keys b
wait_for 'baseline cleared'
wait_gone '^baseline '
wait_for '^Overhead +Samples +History +Shared Object +Symbol'
screen | grep -q 'Delta' && fail "a Delta column after b cleared the baseline"
quit_clean

# without -z the table is a total since the start: b restarts it from
# zero, so that Delta compares what comes after the mark with what came
# before (a total holding both kept every Delta near 0)
restart
bg "$WL/spin3" 10 1 6,3,1 1,3,6
SPIN=$LAST_BG
run "$PTOP" -p "$SPIN" -d 0.3 -e cpu-clock
wait_top 'spin_a'
wait_until 30 "2000 samples before the mark" samples_at_least 2000
keys b
wait_for 'baseline marked: the table counts from now; Delta = since the mark - before it'
wait_for '^baseline marked at [0-9.]+ s \(before it\): [0-9]+ samples; now [0-9]+ samples'
# the first table after the mark holds fewer samples than the baseline
now_lt_base() {
	screen | sed -n 's/^baseline marked at .*: \([0-9]*\) samples; now \([0-9]*\) samples.*/\1 \2/p' |
		awk '{ exit !($2 < $1) }'
}
wait_until 10 "a table of the samples since the mark" now_lt_base
# the split turns after the mark: spin_c gains, spin_a loses
# (180 s: at a load of 18 spin3 got a tenth of a CPU, and the second
# half's 3 CPU seconds this needs took over a minute)
wait_until 180 "spin_c's Delta over +20" delta_beyond spin_c 20
wait_until 10 "spin_a's Delta under -20" delta_beyond spin_a -20
keys b
wait_for 'baseline cleared \(b marks one\); the table counts from the mark'
quit_clean

# --baseline FILE, -i FILE: recordings of ptop -o
"$PTOP" -b -o "$TMP/old.data" -e cpu-clock -d 30 -- "$WL/spin3" 1 1 6,3,1 > /dev/null 2>&1 ||
	fail "ptop -o old.data failed"
"$PTOP" -b -o "$TMP/new.data" -e cpu-clock -d 30 -- "$WL/spin3" 1 1 1,3,6 > /dev/null 2>&1 ||
	fail "ptop -o new.data failed"
restart
run "$PTOP" -i "$TMP/new.data" --baseline "$TMP/old.data"
wait_for "^baseline $TMP/old.data: [0-9]+ samples over [0-9.]+ s; now [0-9]+ samples over"
wait_for '^Baseline +Overhead +Delta'
wait_until 10 "spin_c first" cmp_top 'spin_c$'
d=$(delta_of spin_a)
awk -v d="$d" 'BEGIN { exit !(d < -40 && d > -60) }' || fail "spin_a's Delta is '$d', not about -50"
keys b
wait_gone '^baseline '
wait_for '^Overhead +Samples'
# a recording read whole: nothing comes after a mark
keys b
wait_for 'nothing comes after a mark: the recording is read whole'
screen | grep -q '^baseline ' && fail "a finished recording was marked"
quit_clean
echo "ok"
