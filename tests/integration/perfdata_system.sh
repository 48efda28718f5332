#!/bin/sh
# solo: a system-wide recording that must lose nothing
# ptop -i on a system-wide perf record -a file (every process synthesized,
# kernel samples, idle CPUs): the top rows agree with perf report, and the
# --time window (seconds; percentages on ptop's own -a file) selects what
# perf report --time selects.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

"$WL/spin3" 4 > /dev/null &
BG="$BG $!"
# running its own code before the recording starts
wait_until 30 "spin3 started" sh -c '[ "$(readlink "/proc/$1/exe")" = "$2" ]' sh "$!" "$WL/spin3"
perf_record "$TMP/a.data" -a -e cpu-clock -F 1000 -- sleep 1.5
# rows per thread: the machine runs other worktrees' builds of the same
# workloads (BY_PID, perfdata.inc)
BY_PID=1
# perf report has the idle task's rows (swapper): ptop shows them too
agree "-a" "$TMP/a.data" 1 -- --show-idle
jq -e '.input.bad == 0 and .input.unknown == 0 and .lost == 0 and .dropped == 0' "$TMP/ptop.json" > /dev/null ||
	fail "-a: counters: $(jq -c '{input, lost, dropped}' "$TMP/ptop.json")"

# A window in seconds: the middle third.  perf record --buildid-mmap
# (6.1) does not process the samples, so its file has no sample time range
# (HEADER_SAMPLE_TIME): the times come from perf script.
perf script -i "$TMP/a.data" -F time 2> /dev/null | tr -d ' :' | sort -n > "$TMP/times"
first=$(head -n 1 "$TMP/times")
last=$(tail -n 1 "$TMP/times")
[ -n "$first" ] && [ -n "$last" ] || fail "no sample times from perf script"
w=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f,%.6f", a + (b - a) / 3, b - (b - a) / 3 }')
agree "-a --time $w" "$TMP/a.data" 1 --time "$w" -- --time "$w" --show-idle
jq -e '.filtered > 0' "$TMP/ptop.json" > /dev/null || fail "--time filtered nothing"
# percentages without that range: ptop takes it from the samples (perf
# report 6.1 refuses them), so 25%-75% is the middle half of the
# samples' own span; the seconds perf script prints are rounded to the
# microsecond, so a sample at either edge may fall either way
w=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f,%.6f", a + (b - a) / 4, b - (b - a) / 4 }')
"$PTOP" -i "$TMP/a.data" -b --json --show-idle --time 25%-75% > "$TMP/pct.json" 2> "$TMP/err" ||
	fail "--time 25%-75% without a sample time range: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/a.data" -b --json --show-idle --time "$w" > "$TMP/abs.json" 2> "$TMP/err" ||
	fail "--time $w: $(cat "$TMP/err")"
p=$(tail -n 1 "$TMP/pct.json" | jq .samples)
q=$(tail -n 1 "$TMP/abs.json" | jq .samples)
echo "--time 25%-75%: $p samples; --time $w: $q"
[ "$p" -gt 0 ] && [ $((p - q)) -le 2 ] && [ $((q - p)) -le 2 ] ||
	fail "--time 25%-75% held $p samples, the same window in seconds $q"

# percentages on a system-wide file that has the range: ptop -o's
"$PTOP" -b -d 1.5 -n 1 -e cpu-clock -F 1000 -o "$TMP/o.data" > /dev/null 2> "$TMP/err" ||
	fail "ptop -o -a: $(cat "$TMP/err")"
agree "ptop -o -a --time 25%-75%" "$TMP/o.data" 1 --time 25%-75% -- --time 25%-75% --show-idle
jq -e '.filtered > 0' "$TMP/ptop.json" > /dev/null || fail "--time 25%-75% filtered nothing"
exit 0
