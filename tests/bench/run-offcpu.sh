# Sourced by tests/bench/run.sh: --off-cpu's cost (issue 17).  CPU time
# of ptop -b --off-cpu -e sched:sched_switch -p (the waits alone, no
# on-CPU sampling) and of perf record -e sched:sched_switch -g -p (the
# issue's reference), and perf record with --switch-events too (the
# records an off-CPU analysis of a perf file needs, as ptop reads), over
# the same SECS on switchwork (two threads that wake each other through
# pipes: tens of thousands of switches a second), and the rate of
# switches ptop counted.
# Variables from run.sh: PTOP, WL, RUNSTAT, SECS, tmp; field, ratio.

"$WL/switchwork" 0 & oc_wl=$!
sleep 0.5
# the rate, from a short run of its own
"$PTOP" -b --off-cpu -e sched:sched_switch -d 2 -n 1 --json -p "$oc_wl" \
	> "$tmp/oc.json" 2> /dev/null
p=$("$RUNSTAT" -t "$((SECS + 2))" -- "$PTOP" -b --off-cpu -e sched:sched_switch \
	-d "$SECS" -n 1 -p "$oc_wl" 2> /dev/null)
q=$("$RUNSTAT" -t "$SECS" -- perf record -q --buildid-mmap -e sched:sched_switch \
	-g -p "$oc_wl" -o "$tmp/oc.data" 2> /dev/null)
w=$("$RUNSTAT" -t "$SECS" -- perf record -q --buildid-mmap -e sched:sched_switch \
	-g --switch-events -p "$oc_wl" -o "$tmp/oc.data" 2> /dev/null)
kill "$oc_wl" 2> /dev/null
wait "$oc_wl" 2> /dev/null
rate=$(grep '"event":"sched:sched_switch"' "$tmp/oc.json" | tail -n 1 |
	jq -r '(.total_samples / .time) | floor' 2> /dev/null)
pc=$(field "$p" cpu_s); qc=$(field "$q" cpu_s); wc=$(field "$w" cpu_s)
pr=$(field "$p" rss_kb); qr=$(field "$q" rss_kb)
echo "off-CPU time, -p of switchwork (${rate:-?} switches/s seen), ${SECS} s:"
echo "  CPU: ptop --off-cpu -e sched:sched_switch $pc s, perf record -e sched:sched_switch -g $qc s -> ptop/perf = $(ratio "$pc" "$qc") (target < 1); with --switch-events $wc s -> $(ratio "$pc" "$wc"); peak RSS ptop $pr KiB, perf record $qr KiB"
rm -f "$tmp/oc.data"
