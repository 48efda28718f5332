#!/bin/sh
# solo: wait times and splits that extra wake-up latency bends
# --off-cpu on offwork, whose main thread waits in known places each
# round: do_sleep 200 ms (nanosleep), do_pipe about 100 ms (a pipe a
# helper writes 100 ms later), do_mutex about 100 ms (a mutex a helper
# holds 100 ms).  The off-cpu event's Children time of each is the
# rounds times its wait (the time, not only the shares: waking up adds
# a little), and they split 50/25/25 within 5 points; a command, -p, the
# whole machine, a perf record file (-i), and a thread asleep across
# refreshes (charged up to each one).
#
# Waking up adds more than a little on a loaded machine (a 200 ms sleep
# took 261 ms at a load of 15, and the split moved to 45/27/28): offwork
# measures the wall time of each wait (OFFWORK_TIMES), and the waits
# ptop shows are checked against those, not against the nominal times
# alone.  A wait is within its call: at most the call's time (2 ms a
# round of slack for the two clocks), at least the nominal sleep (the
# pipe and the mutex: 95 % of it, see check_waits); the split within 5
# points of the measured one.
. tests/integration/lib.sh
need perf

# waits FILE: "sleep pipe mutex" (ms) of the last off-cpu object
waits() {
	grep '"event":"off-cpu"' "$1" | tail -n 1 | jq -r '
		def t($s): ([.rows[] | select(.symbol == $s and .dso == "offwork") |
			.children_period] | add // 0) / 1e6;
		"\(t("do_sleep")) \(t("do_pipe")) \(t("do_mutex"))"'
}

# measured FILE: offwork's OFFWORK_TIMES file, "sleep pipe mutex rounds"
measured() {
	[ -s "$1" ] || fail "offwork wrote no times to $1"
	cat "$1"
}

# split_near WHAT S P M MS MP MM: the split of S P M within 5 points of
# that of MS MP MM
split_near() {
	awk -v s="$2" -v p="$3" -v m="$4" -v a="$5" -v b="$6" -v c="$7" 'BEGIN {
		t = s + p + m; u = a + b + c
		if (t <= 0 || u <= 0)
			exit 1
		for (i = 1; i <= 3; i++) {
			x = (i == 1 ? s : i == 2 ? p : m) / t
			y = (i == 1 ? a : i == 2 ? b : c) / u
			if (100 * (x - y) > 5 || 100 * (y - x) > 5)
				exit 1
		}
	}' || fail "$1: waits $2 / $3 / $4 ms do not split as offwork measured them, $5 / $6 / $7 ms"
}

# check_waits FILE ROUNDS WHAT TIMES: the waits against offwork's own
# measure of them (TIMES, its OFFWORK_TIMES file): each within its calls'
# time, 2 ms a round of slack; the sleep at least its 200 ms a round, the
# pipe and the mutex 95: on a loaded machine the main thread can be
# preempted between asking its helper and blocking on the answer, and a
# preemption is not a wait (without --wall): the helper's 100 ms then
# began before the wait did (make check beside other work saw 499.9 ms
# for 5 rounds of the pipe); the split within 5 points of the measured.
check_waits() {
	set -- "$1" "$2" "$3" $(waits "$1") $(measured "$4")
	echo "$3: sleep $4 ms, pipe $5 ms, mutex $6 ms ($2 rounds; offwork measured $7 / $8 / $9 in ${10})"
	[ "${10}" = "$2" ] || fail "$3: offwork measured ${10} rounds, not $2"
	awk -v n="$2" -v s="$4" -v p="$5" -v m="$6" -v a="$7" -v b="$8" -v c="$9" 'BEGIN {
		exit !(s >= 200 * n && s <= a + 2 * n && p >= 95 * n && p <= b + 2 * n &&
		       m >= 95 * n && m <= c + 2 * n) }' ||
		fail "$3: waits $4 / $5 / $6 ms for $2 rounds of 200 / 100 / 100 ms (offwork measured $7 / $8 / $9)"
	split_near "$3" "$4" "$5" "$6" "$7" "$8" "$9"
}

# a command, batch, JSON: every event's table, the off-cpu one last;
# rows by thread state too (the waits' rows add up as without it)
OFFWORK_TIMES=$TMP/cmd.t "$PTOP" -b --off-cpu -e cpu-clock -d 60 --json -s state,dso,sym -- "$WL/offwork" 5 \
	> "$TMP/cmd.json" 2> "$TMP/err" || fail "ptop --off-cpu: $(cat "$TMP/err")"
jq -e . "$TMP/cmd.json" > /dev/null || fail "invalid JSON"
grep '"event":"off-cpu"' "$TMP/cmd.json" | tail -n 1 |
	jq -e '.off_cpu and .period_unit == "ns" and .finished and .samples > 0' \
	> /dev/null || fail "off-cpu object: $(grep '"event":"off-cpu"' "$TMP/cmd.json" | tail -n 1 | jq -c 'del(.rows)')"
grep -q '"event":"cpu-clock"' "$TMP/cmd.json" || fail "no cpu-clock table beside it"
check_waits "$TMP/cmd.json" 5 "command" "$TMP/cmd.t"
# check_states FILE WHAT: nanosleep, a pipe's read and a futex wait are
# interruptible sleeps: every off-cpu row of the three waits is "S"
check_states() {
	grep '"event":"off-cpu"' "$1" | tail -n 1 | jq -e '
		[.rows[] | select(.dso == "offwork" and
			(.symbol | IN("do_sleep", "do_pipe", "do_mutex")))] |
		length >= 3 and all(.state == "S sleeping")' > /dev/null ||
		fail "$2: the waits' states: $(grep '"event":"off-cpu"' "$1" | tail -n 1 | jq -c '[.rows[] | select(.dso == "offwork") | [.symbol, .state, .children_period]]')"
}
check_states "$TMP/cmd.json" "command"

# --wall: on CPU and off, preemptions too: the main thread's rows hold
# its sleeps, its blocking and its spinning, and add up to about its
# lifetime (the rounds' 400 ms of waits plus do_spin's CPU each); by
# state, main's sleeps are "S" and do_spin's samples "running" (on CPU);
# do_sleep's time at most what offwork measured of its calls
OFFWORK_TIMES=$TMP/wall.t "$PTOP" -b --wall -d 60 --json -s state,dso,sym -- "$WL/offwork" 5 > "$TMP/wall.json" 2> "$TMP/err" ||
	fail "ptop --wall: $(cat "$TMP/err")"
set -- $(measured "$TMP/wall.t")
grep '"event":"wall"' "$TMP/wall.json" | tail -n 1 | jq -e --argjson n 5 --argjson sl "$1" '
	def t($s): ([.rows[] | select(.symbol == $s and .dso == "offwork") |
		.children_period] | add // 0) / 1e9;
	def st($s; $st): ([.rows[] | select(.symbol == $s and
		.dso == "offwork" and .state == $st) | .children_period] |
		add // 0) / 1e9;
	t("main") as $m | (t("do_sleep") + t("do_pipe") + t("do_mutex") +
		t("do_spin")) as $parts |
	st("main"; "S sleeping") >= 0.4 * $n and
	st("do_spin"; "running") > 0 and
	.wall and .period_unit == "ns" and
	t("do_sleep") >= 0.2 * $n and t("do_sleep") <= ($sl + 2 * $n) / 1e3 and
	t("do_pipe") >= 0.1 * $n and t("do_mutex") >= 0.1 * $n and
	t("do_spin") > 0 and (($m - $parts) | fabs) < 0.05 * $m and
	$m >= 0.4 * $n and $m <= .time' > /dev/null ||
	fail "--wall: $(grep '"event":"wall"' "$TMP/wall.json" | tail -n 1 | jq -c '[.time, (.rows[] | select(.dso == "offwork") | [.symbol, .state, .children_period])]')"
"$PTOP" -b --wall -e page-faults -- "$WL/offwork" 1 > /dev/null 2> "$TMP/err" &&
	fail "--wall without a clock event was accepted"
grep -q 'needs cpu-clock or task-clock' "$TMP/err" || fail "no reason given: $(cat "$TMP/err")"

# the text: the Time column and the total in the header
"$PTOP" -b --off-cpu -e cpu-clock -d 60 -- "$WL/offwork" 2 > "$TMP/cmd.txt" 2> "$TMP/err" ||
	fail "ptop --off-cpu (text): $(cat "$TMP/err")"
grep -Eq '^# event off-cpu, waits [0-9.]+ (s|ms)' "$TMP/cmd.txt" ||
	fail "no off-cpu header: $(grep '^# event' "$TMP/cmd.txt")"
grep -Eq '^# Children +Self +Samples +Time ' "$TMP/cmd.txt" ||
	fail "no Time column: $(grep '^# Children' "$TMP/cmd.txt")"
grep -Eq '[0-9.]+ (s|ms) +offwork +\[\.\] do_sleep$' "$TMP/cmd.txt" ||
	fail "no do_sleep row with its time"

# -p of a running offwork, attached after its first round, to its end
# (every CPU: offcpu_system.sh): the waits offwork measured from then on
# (its totals before ptop and at the end), each within one round's wait:
# the wait in progress when ptop attached is ptop's only from then
bg env OFFWORK_TIMES="$TMP/p.t" "$WL/offwork" 8
pid=$LAST_BG
wait_until 30 "offwork's first round" test -s "$TMP/p.t"
before=$(measured "$TMP/p.t")
"$PTOP" -b --off-cpu -e cpu-clock -p "$pid" -d 60 --json > "$TMP/p.json" 2> "$TMP/err" ||
	fail "ptop --off-cpu -p: $(cat "$TMP/err")"
after=$(measured "$TMP/p.t")
set -- $(waits "$TMP/p.json") $(echo "$before $after" |
	awk '{ printf "%.3f %.3f %.3f %d %.3f %.3f %.3f", $5 - $1, $6 - $2, $7 - $3,
		$8 - $4, $5 / $8, $6 / $8, $7 / $8 }')
echo "-p: sleep $1 ms, pipe $2 ms, mutex $3 ms; offwork measured $4 / $5 / $6 ms in $7 rounds"
awk -v t="$*" 'BEGIN { split(t, v, " ")
	for (i = 1; i <= 3; i++)
		if (v[i] > v[i + 3] + 2 * v[7] || v[i] < v[i + 3] - 1.5 * v[i + 7])
			exit 1
	exit !(v[7] >= 5) }' ||
	fail "-p: waits $1 / $2 / $3 ms, offwork measured $4 / $5 / $6 ms in $7 rounds"

# a thread asleep across refreshes: charged up to each one (up to the
# sampler's last pass over the rings, a tenth of a second before the
# refresh or more while start-up keeps the session busy: never past the
# wait's end), so from the second refresh on it grows as the clock does
"$PTOP" -b --off-cpu -d 1 -n 4 --json -- sleep 30 > "$TMP/sleep.json" 2> "$TMP/err" ||
	fail "ptop --off-cpu -- sleep: $(cat "$TMP/err")"
grep '"event":"off-cpu"' "$TMP/sleep.json" | jq -s -e '
	length == 4 and .[0].period > 0 and
	([range(2; 4) as $i | (.[$i].period - .[$i - 1].period) / 1e9 -
		(.[$i].time - .[$i - 1].time)] | all(fabs < 0.3))' > /dev/null ||
	fail "sleep 30: off-CPU time grows with the elapsed time: $(grep '"event":"off-cpu"' "$TMP/sleep.json" | jq -c '[.time, .period]')"

# ptop's own recording (-o) read back: the same waits
OFFWORK_TIMES=$TMP/o.t "$PTOP" -b --off-cpu -e cpu-clock -o "$TMP/o.data" -d 60 -- "$WL/offwork" 3 \
	> /dev/null 2> "$TMP/err" || fail "ptop --off-cpu -o: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/o.data" --off-cpu -b --json > "$TMP/o.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu of ptop's file: $(cat "$TMP/err")"
check_waits "$TMP/o.json" 3 "ptop -o file" "$TMP/o.t"
"$PTOP" -i "$TMP/o.data" -b 2> /dev/null | grep -q '^# event off-cpu' &&
	fail "the off-cpu event (the session's) was written to the file"
# perf reads it: the tracepoints' formats are in the file
perf report -i "$TMP/o.data" --stdio > "$TMP/report" 2> "$TMP/err" ||
	fail "perf report of ptop's -o file: $(tail -3 "$TMP/err")"
grep -q "of event 'sched:sched_switch'" "$TMP/report" ||
	fail "perf report has no sched:sched_switch samples: $(grep '^# Samples' "$TMP/report")"
perf script -i "$TMP/o.data" 2> /dev/null | grep -q 'sched:sched_switch: prev_comm=offwork .*prev_state=' ||
	fail "perf script does not show sched_switch's fields"

# a perf record file with sched_switch chains and switch records
OFFWORK_TIMES=$TMP/sw.t perf record -q -N --buildid-mmap -e sched:sched_switch -g --switch-events \
	-o "$TMP/sw.data" -- "$WL/offwork" 4 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/sw.data" --off-cpu -b --json > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu: $(cat "$TMP/err")"
check_waits "$TMP/file.json" 4 "perf record --buildid-mmap file" "$TMP/sw.t"
# the states from perf's file: prev_state where its tracing data's format
# of sched_switch says
"$PTOP" -i "$TMP/sw.data" --off-cpu -b --json -s state,dso,sym > "$TMP/state.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu -s state: $(cat "$TMP/err")"
check_states "$TMP/state.json" "perf record --buildid-mmap file"
# where main waited: annotate's instructions of main on the off-cpu
# event are its three calls, split as offwork measured them (5 points)
"$PTOP" -i "$TMP/sw.data" --off-cpu -b --annotate main --json > "$TMP/ann.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu --annotate main: $(cat "$TMP/err")"
set -- $(measured "$TMP/sw.t")
grep '"event":"off-cpu"' "$TMP/ann.json" | jq -e --argjson a "$1" --argjson b "$2" --argjson c "$3" '
	def p($f): [.instructions[] | select(.target_symbol == $f) | .percent] | add // 0;
	($a + $b + $c) as $t |
	([.instructions[] | select(.samples > 0)] | length) == 3 and
	(p("do_sleep") - 100 * $a / $t | fabs) <= 5 and
	(p("do_pipe") - 100 * $b / $t | fabs) <= 5 and
	(p("do_mutex") - 100 * $c / $t | fabs) <= 5' > /dev/null ||
	fail "annotate main (off-cpu): $(grep '"event":"off-cpu"' "$TMP/ann.json" | jq -c '[.instructions[] | select(.samples > 0) | [.text, .percent]]')"
# perf record --off-cpu's event, offcpu-time (a BPF program's samples
# whose periods are the nanoseconds each stack waited; this machine's
# perf, 6.1, and bookworm-backports' 6.12 are built without BPF
# skeletons, so no such file can be made here): known by its name, its
# periods shown as time.  A cpu-clock recording, whose periods are
# nanoseconds too, renamed in its EVENT_DESC, stands in for one.
perf record -q -N --buildid-mmap -e cpu-clock -F 1000 -o "$TMP/oc.data" -- "$WL/spin3" 1 \
	> /dev/null 2> "$TMP/err" || fail "perf record: $(cat "$TMP/err")"
python3 - "$TMP/oc.data" <<'PY' || fail "could not rename the event"
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, "rb").read())
# the header's data section and feature bits; the feature table follows
# the data, a (offset, size) per feature present, in bit order
data_off, data_size = struct.unpack_from("<QQ", d, 40)
bits = int.from_bytes(d[72:104], "little")
table = data_off + data_size
desc = [i for i in range(256) if bits >> i & 1].index(12)  # EVENT_DESC
off, _ = struct.unpack_from("<QQ", d, table + 16 * desc)
nr, attr_size = struct.unpack_from("<II", d, off)
p = off + 8 + attr_size + 4          # the first event's name: u32 len, chars
n = struct.unpack_from("<I", d, p)[0]
name = bytes(d[p + 4:p + 4 + n]).rstrip(b"\0")
new = b"offcpu-time\0"
if nr != 1 or name != b"cpu-clock" or n < len(new):
    sys.exit(1)
d[p + 4:p + 4 + len(new)] = new
open(path, "wb").write(d)
PY
"$PTOP" -i "$TMP/oc.data" -b --json > "$TMP/oc.json" 2> "$TMP/err" ||
	fail "ptop -i of an offcpu-time file: $(cat "$TMP/err")"
tail -n 1 "$TMP/oc.json" | jq -e '.event == "offcpu-time" and .off_cpu and
	.period_unit == "ns" and .period > 0.8e9 and .period < 1.5e9' > /dev/null ||
	fail "offcpu-time: $(tail -n 1 "$TMP/oc.json" | jq -c 'del(.rows, .per_cpu)')"
"$PTOP" -i "$TMP/oc.data" -b 2> /dev/null | grep -Eq '^# Overhead +Samples +Time ' ||
	fail "offcpu-time: no Time column"
# without sched_switch: a clear refusal
perf record -q -N --buildid-mmap -e cpu-clock -o "$TMP/plain.data" -- "$WL/offwork" 1 \
	> /dev/null 2> "$TMP/err" || fail "perf record: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/plain.data" --off-cpu -b > /dev/null 2> "$TMP/err" &&
	fail "--off-cpu of a file without sched_switch was accepted"
grep -q 'no sched:sched_switch samples' "$TMP/err" || fail "no reason given: $(cat "$TMP/err")"
exit 0
