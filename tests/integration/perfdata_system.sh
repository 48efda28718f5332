#!/bin/sh
# ptop -i on a system-wide perf record -a file (every process synthesized,
# kernel samples, idle CPUs): the top rows agree with perf report, and the
# --time window selects what perf report --time selects.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

"$WL/spin3" 4 > /dev/null &
BG="$BG $!"
# running its own code before the recording starts
wait_until 30 "spin3 started" sh -c '[ "$(readlink "/proc/$1/exe")" = "$2" ]' sh "$!" "$WL/spin3"
perf_record "$TMP/a.data" -a -e cpu-clock -F 1000 -- sleep 1.5
agree "-a" "$TMP/a.data" 1
jq -e '.input.bad == 0 and .input.unknown == 0 and .lost == 0 and .dropped == 0' "$TMP/ptop.json" > /dev/null ||
	fail "-a: counters: $(jq -c '{input, lost, dropped}' "$TMP/ptop.json")"

# the middle half of the recording, by percentages and by seconds
agree "-a --time 25%-75%" "$TMP/a.data" 1 --time 25%-75% -- --time 25%-75%
first=$(perf report -i "$TMP/a.data" --header-only 2>/dev/null | sed -n 's/^# time of first sample : //p')
last=$(perf report -i "$TMP/a.data" --header-only 2>/dev/null | sed -n 's/^# time of last sample : //p')
[ -n "$first" ] && [ -n "$last" ] || fail "no sample times in the header"
w=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f,%.6f", a + (b - a) / 3, b - (b - a) / 3 }')
agree "-a --time $w" "$TMP/a.data" 1 --time "$w" -- --time "$w"
jq -e '.filtered > 0' "$TMP/ptop.json" > /dev/null || fail "--time filtered nothing"
exit 0
