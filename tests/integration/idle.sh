#!/bin/sh
# solo: needs idle CPUs, which other scripts take away
# Idle is not work: system-wide (ptop's default target), the idle task's
# samples (pid 0) are the header's idle share and not rows, and the rows
# add up to 100 % of the rest; --show-idle makes them rows; a ptop -o file
# and a perf record -a file keep them, and ptop -i's idle share is perf
# report's 0:swapper share.
. tests/integration/lib.sh
. tests/integration/perfdata.inc
command -v perf > /dev/null || fail "perf is not installed"

# swapper FILE: perf report's share (percent, 2 decimals) and samples of
# pid 0, "0 0" when it has none
swapper() {
	perf report -i "$1" --stdio --no-children --sort pid -n -g none \
		2> "$TMP/perf.err" |
		awk '$3 == "0:swapper" { sub(/%$/, "", $1); v = $1; n = $2 }
			END { print v + 0, n + 0 }'
}
# file_agrees WHAT FILE: ptop -i FILE's idle share is perf report's
# swapper share, the same samples, and --show-idle makes its rows
file_agrees() {
	what=$1 f=$2
	"$PTOP" -i "$f" -b --json -s pid,dso,sym -E 1000000 > "$TMP/f.json" 2> "$TMP/f.err" ||
		fail "$what: ptop -i: $(cat "$TMP/f.err")"
	jq 'select(.event | startswith("cpu-clock"))' "$TMP/f.json" > "$TMP/f1.json"
	ti=$(jq -r '.idle' "$TMP/f1.json")
	tn=$(jq -r '.idle_samples' "$TMP/f1.json")
	set -- $(swapper "$f")
	pi=$1 pn=$2
	# the samples, exactly (a busy machine's few idle samples print as
	# 0.00 %), then the share
	[ "$pn" -gt 0 ] ||
		fail "$what: perf report sees no idle sample (0:swapper): $(head -3 "$TMP/perf.err")"
	[ "$tn" = "$pn" ] ||
		fail "$what: ptop has $tn idle samples, perf report $pn of 0:swapper"
	near "$ti" "$pi" 0.1 "$what: ptop's idle share against perf report's 0:swapper"
	jq -e '[.rows[] | select(.pid == 0)] == [] and
		([.rows[].samples] | add) == .samples - .idle_samples' \
		"$TMP/f1.json" > /dev/null || fail "$what: rows: $(head -c 400 "$TMP/f1.json")"
	"$PTOP" -i "$f" -b --json -s pid -E 1000000 --show-idle > "$TMP/fs.json" 2>> "$TMP/f.err" ||
		fail "$what: ptop -i --show-idle: $(cat "$TMP/f.err")"
	si=$(jq -r 'select(.event | startswith("cpu-clock")) |
		[.rows[] | select(.pid == 0) | .overhead] | add // 0' "$TMP/fs.json")
	near "$si" "$pi" 0.1 "$what: --show-idle's pid 0 row against perf report's 0:swapper"
}
# A made stream first (tests/integration/idle_stream.pl: 12 idle samples,
# 4 of pid 100): exact figures whatever the machine does.
perl tests/integration/idle_stream.pl > "$TMP/made.pipe" || fail "perl failed"
file_agrees "made stream" "$TMP/made.pipe"
jq -e '.idle == 75 and .idle_samples == 12 and .samples == 16 and
	[.rows[] | {pid, samples, overhead}] == [{"pid":100,"samples":4,"overhead":100}]' \
	"$TMP/f1.json" > /dev/null || fail "made stream: $(cat "$TMP/f1.json")"
"$PTOP" -i - -b --json -s pid < "$TMP/made.pipe" > "$TMP/m.json" 2> "$TMP/m.err" ||
	fail "ptop -i - of the made stream: $(cat "$TMP/m.err")"
jq -e 'select(.finished) | .idle == 75 and ([.rows[].pid] == [100])' "$TMP/m.json" > /dev/null ||
	fail "ptop -i - of the made stream: $(cat "$TMP/m.json")"

# Idle samples need a CPU with nothing to run.  Three samplers run side by
# side (ptop, ptop --show-idle, perf record -a) until both ptops have seen
# at least MIN idle samples (a quiet machine: at once; a loaded one, at a
# load of 13 on 2 CPUs: 6 in 90 s), then all stop on SIGINT (which
# finishes both files); a machine that is never idle in LIMIT seconds
# cannot test this: the live half is then reported skipped, by name.
MIN=3
LIMIT=60
F="-e cpu-clock -F 1000 -s pid,dso,sym -E 1000000"
# shellcheck disable=SC2086
bg "$PTOP" -b --json -d 1 -n $((LIMIT + 30)) $F -o "$TMP/a.data" > "$TMP/a.json" 2> "$TMP/a.err"
A=$LAST_BG
# shellcheck disable=SC2086
bg "$PTOP" -b --json -d 1 -n $((LIMIT + 30)) $F --show-idle > "$TMP/s.json" 2> "$TMP/s.err"
S=$LAST_BG
# perf itself, not perfdata.inc's function (command -v would name it), so
# that $LAST_BG is perf's pid
bg "$(which perf)" --buildid-dir "$TMP/.debug" record --buildid-mmap \
	-q -N -a -e cpu-clock -F 1000 -o "$TMP/p.data" > /dev/null 2> "$TMP/p.err"
P=$LAST_BG

idle_of() {
	tail -n 1 "$1" 2> /dev/null | jq -r '.idle_samples // 0' 2> /dev/null || echo 0
}
start=$(date +%s)
while :; do
	a=$(idle_of "$TMP/a.json")
	s=$(idle_of "$TMP/s.json")
	[ "${a:-0}" -ge $MIN ] && [ "${s:-0}" -ge $MIN ] && break
	if [ $(( $(date +%s) - start )) -ge $LIMIT ]; then
		skip "live idle: the machine was never idle in $LIMIT s ($a and $s idle samples; load: $(cat /proc/loadavg)); the made stream above was checked"
	fi
	kill -0 "$A" 2> /dev/null || fail "ptop stopped: $(cat "$TMP/a.err")"
	sleep 0.5
done
kill -INT "$A" "$S" "$P"
wait "$A" || fail "ptop -o: exit status $?: $(cat "$TMP/a.err")"
wait "$S" || fail "ptop --show-idle: exit status $?: $(cat "$TMP/s.err")"
# perf record -a ends with 130 on SIGINT, its usual end
wait "$P"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 130 ] ||
	fail "perf record --buildid-mmap -a: exit status $rc: $(head -c 400 "$TMP/p.err")"
BG=""

# Every table: the idle fields, no pid 0 row, rows = samples - idle, 100 %
# (each row's overhead is printed to 4 decimals: n rows, n * 0.00005).
jq -e . "$TMP/a.json" > /dev/null || fail "invalid JSON: $(head -c 300 "$TMP/a.json")"
jq -c '{samples, idle, idle_samples, idle_period, idle_shown, period,
	pid0: [.rows[] | select(.pid == 0)] | length,
	rows: ([.rows[].samples] | add // 0), hidden_rows, n: (.rows | length),
	overhead: ([.rows[].overhead] | add // 0)}' "$TMP/a.json" > "$TMP/a.sum"
while read -r l; do
	echo "$l" | jq -e '(.idle | type) == "number" and
		(.idle_samples | type) == "number" and .idle_shown == false and
		.pid0 == 0 and .hidden_rows == 0 and
		.rows == .samples - .idle_samples and
		(.samples == .idle_samples or
		 ((.overhead - 100) | fabs) < 0.00005 * .n + 0.0001) and
		(.period == 0 or
		 ((.idle - 100 * .idle_period / .period) | fabs) < 0.0001)' \
		> /dev/null || fail "default table: $l"
done < "$TMP/a.sum"
# the text header gives the same share
"$PTOP" -i "$TMP/a.data" -b -E 3 > "$TMP/a.txt" 2> "$TMP/ai.err" ||
	fail "ptop -i (text): $(cat "$TMP/ai.err")"
"$PTOP" -i "$TMP/a.data" -b --json -s pid,dso,sym -E 1000000 > "$TMP/ai.json" 2> "$TMP/ai.err" ||
	fail "ptop -i: $(cat "$TMP/ai.err")"
ai=$(jq -r 'select(.event | startswith("cpu-clock")) | .idle' "$TMP/ai.json")
want=$(awk -v v="$ai" 'BEGIN { printf "idle %.1f%%;", v }')
grep -q "^# samples .*; $want" "$TMP/a.txt" ||
	fail "text header has no '$want': $(head -3 "$TMP/a.txt")"

# --show-idle: the idle task's rows are there and the rows are every sample
jq -c '{samples, idle_samples, idle_shown,
	idle_rows: ([.rows[] | select(.pid == 0) | .samples] | add // 0),
	rows: ([.rows[].samples] | add // 0), hidden_rows}' "$TMP/s.json" > "$TMP/s.sum"
while read -r l; do
	echo "$l" | jq -e '.idle_shown and .hidden_rows == 0 and
		.rows == .samples and .idle_rows == .idle_samples' > /dev/null ||
		fail "--show-idle table: $l"
done < "$TMP/s.sum"
tail -n 1 "$TMP/s.sum" | jq -e '.idle_rows > 0' > /dev/null ||
	fail "--show-idle: no pid 0 row: $(tail -n 1 "$TMP/s.sum")"

file_agrees "ptop -o file" "$TMP/a.data"
file_agrees "perf record --buildid-mmap -a file" "$TMP/p.data"
exit 0
