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
. tests/integration/lib.sh
need perf

# waits FILE: "sleep pipe mutex" (ms) of the last off-cpu object
waits() {
	grep '"event":"off-cpu"' "$1" | tail -n 1 | jq -r '
		def t($s): ([.rows[] | select(.symbol == $s and .dso == "offwork") |
			.children_period] | add // 0) / 1e6;
		"\(t("do_sleep")) \(t("do_pipe")) \(t("do_mutex"))"'
}

# check_waits FILE ROUNDS WHAT: the sleep within [1, 1.25] times its
# length per round, the pipe and the mutex within [0.95, 1.25]; the split
# within 5 points of 50/25/25.  The pipe and the mutex not from 1: on a
# loaded machine the main thread can be preempted between asking its
# helper and blocking on the answer, and a preemption is not a wait
# (without --wall): the helper's 100 ms then began before the wait did
# (make check beside other work saw 499.9 ms for 5 rounds of the pipe)
check_waits() {
	set -- "$1" "$2" "$3" $(waits "$1")
	echo "$3: sleep $4 ms, pipe $5 ms, mutex $6 ms ($2 rounds)"
	awk -v n="$2" -v s="$4" -v p="$5" -v m="$6" 'BEGIN {
		ok = s >= 200 * n && s <= 250 * n && p >= 95 * n && p <= 125 * n &&
		     m >= 95 * n && m <= 125 * n
		t = s + p + m
		ok = ok && t > 0 && (100 * s / t) >= 45 && (100 * s / t) <= 55 &&
		     (100 * p / t) >= 20 && (100 * p / t) <= 30 &&
		     (100 * m / t) >= 20 && (100 * m / t) <= 30
		exit !ok }' || fail "$3: waits $4 / $5 / $6 ms for $2 rounds of 200 / 100 / 100 ms"
}

# a command, batch, JSON: every event's table, the off-cpu one last;
# rows by thread state too (the waits' rows add up as without it)
"$PTOP" -b --off-cpu -e cpu-clock -d 60 --json -s state,dso,sym -- "$WL/offwork" 5 \
	> "$TMP/cmd.json" 2> "$TMP/err" || fail "ptop --off-cpu: $(cat "$TMP/err")"
jq -e . "$TMP/cmd.json" > /dev/null || fail "invalid JSON"
grep '"event":"off-cpu"' "$TMP/cmd.json" | tail -n 1 |
	jq -e '.off_cpu and .period_unit == "ns" and .finished and .samples > 0' \
	> /dev/null || fail "off-cpu object: $(grep '"event":"off-cpu"' "$TMP/cmd.json" | tail -n 1 | jq -c 'del(.rows)')"
grep -q '"event":"cpu-clock"' "$TMP/cmd.json" || fail "no cpu-clock table beside it"
check_waits "$TMP/cmd.json" 5 "command"
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
# state, main's sleeps are "S" and do_spin's samples "running" (on CPU)
"$PTOP" -b --wall -d 60 --json -s state,dso,sym -- "$WL/offwork" 5 > "$TMP/wall.json" 2> "$TMP/err" ||
	fail "ptop --wall: $(cat "$TMP/err")"
grep '"event":"wall"' "$TMP/wall.json" | tail -n 1 | jq -e --argjson n 5 '
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
	t("do_sleep") >= 0.2 * $n and t("do_sleep") <= 0.25 * $n and
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

# -p of a running offwork: the same split (every CPU: offcpu_system.sh)
bg "$WL/offwork" 100
pid=$LAST_BG
"$PTOP" -b --off-cpu -e cpu-clock -p "$pid" -d 3 -n 1 --json > "$TMP/p.json" 2> "$TMP/err" ||
	fail "ptop --off-cpu -p: $(cat "$TMP/err")"
# check_split FILE WHAT: the main thread's waits in a window of a
# longer run (whole rounds or not): the split alone
check_split() {
	set -- $(waits "$1") "$2"
	awk -v s="$1" -v p="$2" -v m="$3" 'BEGIN { t = s + p + m
		exit !(t > 1000 && (100 * s / t) >= 45 && (100 * s / t) <= 55 &&
		       (100 * p / t) >= 20 && (100 * p / t) <= 30) }' ||
		fail "$4: waits $1 / $2 / $3 ms"
	echo "$4: sleep $1 ms, pipe $2 ms, mutex $3 ms"
}
check_split "$TMP/p.json" "-p"
kill "$pid" 2> /dev/null

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
"$PTOP" -b --off-cpu -e cpu-clock -o "$TMP/o.data" -d 60 -- "$WL/offwork" 3 \
	> /dev/null 2> "$TMP/err" || fail "ptop --off-cpu -o: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/o.data" --off-cpu -b --json > "$TMP/o.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu of ptop's file: $(cat "$TMP/err")"
check_waits "$TMP/o.json" 3 "ptop -o file"
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
perf record -q -N --buildid-mmap -e sched:sched_switch -g --switch-events \
	-o "$TMP/sw.data" -- "$WL/offwork" 4 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/sw.data" --off-cpu -b --json > "$TMP/file.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu: $(cat "$TMP/err")"
check_waits "$TMP/file.json" 4 "perf record --buildid-mmap file"
# the states from perf's file: prev_state where its tracing data's format
# of sched_switch says
"$PTOP" -i "$TMP/sw.data" --off-cpu -b --json -s state,dso,sym > "$TMP/state.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu -s state: $(cat "$TMP/err")"
check_states "$TMP/state.json" "perf record --buildid-mmap file"
# where main waited: annotate's instructions of main on the off-cpu
# event are its three calls, 50/25/25 within 5 points
"$PTOP" -i "$TMP/sw.data" --off-cpu -b --annotate main --json > "$TMP/ann.json" 2> "$TMP/err" ||
	fail "ptop -i --off-cpu --annotate main: $(cat "$TMP/err")"
grep '"event":"off-cpu"' "$TMP/ann.json" | jq -e '
	def p($f): [.instructions[] | select(.target_symbol == $f) | .percent] | add // 0;
	([.instructions[] | select(.samples > 0)] | length) == 3 and
	(p("do_sleep") - 50 | fabs) <= 5 and (p("do_pipe") - 25 | fabs) <= 5 and
	(p("do_mutex") - 25 | fabs) <= 5' > /dev/null ||
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
