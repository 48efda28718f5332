# Sourced by tests/bench/run.sh: --off-cpu's cost (issue 17).  CPU time
# of ptop -b --off-cpu -e sched:sched_switch -p (the waits alone, no
# on-CPU sampling) and of perf record -e sched:sched_switch -g -p (the
# issue's reference), and perf record with --switch-events too (the
# records an off-CPU analysis of a perf file needs, as ptop reads), over
# the same SECS on switchwork (two threads that wake each other through
# pipes: tens of thousands of switches a second), and the rate of
# switches ptop counted.  Each tool three times, in turn, the best of
# each; the first (rate) run leaves libc's inflated DWARF in ptop's
# cache, as any earlier run does, and one run more without the cache
# (--no-dwarf-cache) says what a first run costs.
# Variables from run.sh: PTOP, WL, RUNSTAT, SECS, tmp; field, ratio, best.

"$WL/switchwork" 0 & oc_wl=$!
sleep 0.5
# the rate, from a short run of its own
"$PTOP" -b --off-cpu -e sched:sched_switch -d 2 -n 1 --json -p "$oc_wl" \
	> "$tmp/oc.json" 2> /dev/null
: > "$tmp/oc.p"; : > "$tmp/oc.q"; : > "$tmp/oc.w"
for i in 1 2 3; do
	"$RUNSTAT" -t "$((SECS + 2))" -- "$PTOP" -b --off-cpu \
		-e sched:sched_switch -d "$SECS" -n 1 -p "$oc_wl" 2> /dev/null >> "$tmp/oc.p"
	"$RUNSTAT" -t "$SECS" -- perf record -q --buildid-mmap -e sched:sched_switch \
		-g -p "$oc_wl" -o "$tmp/oc.data" 2> /dev/null >> "$tmp/oc.q"
	"$RUNSTAT" -t "$SECS" -- perf record -q --buildid-mmap -e sched:sched_switch \
		-g --switch-events -p "$oc_wl" -o "$tmp/oc.data" 2> /dev/null >> "$tmp/oc.w"
done
c=$("$RUNSTAT" -t "$((SECS + 2))" -- "$PTOP" -b --off-cpu --no-dwarf-cache \
	-e sched:sched_switch -d "$SECS" -n 1 -p "$oc_wl" 2> /dev/null)
kill "$oc_wl" 2> /dev/null
wait "$oc_wl" 2> /dev/null
rate=$(grep '"event":"sched:sched_switch"' "$tmp/oc.json" | tail -n 1 |
	jq -r '(.total_samples / .time) | floor' 2> /dev/null)
cpus() { sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$1" | tr '\n' ' '; }
pc=$(cpus "$tmp/oc.p" | tr ' ' '\n' | grep . | best)
qc=$(cpus "$tmp/oc.q" | tr ' ' '\n' | grep . | best)
wc=$(cpus "$tmp/oc.w" | tr ' ' '\n' | grep . | best)
cc=$(field "$c" cpu_s)
pr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/oc.p" | sort -n | tail -n 1)
qr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/oc.q" | sort -n | tail -n 1)
echo "off-CPU time, -p of switchwork (${rate:-?} switches/s seen), ${SECS} s, best of 3 (all: ptop $(cpus "$tmp/oc.p")| perf $(cpus "$tmp/oc.q")):"
echo "  CPU: ptop --off-cpu -e sched:sched_switch $pc s, perf record -e sched:sched_switch -g $qc s -> ptop/perf = $(ratio "$pc" "$qc") (target < 1); with --switch-events $wc s -> $(ratio "$pc" "$wc"); ptop without its DWARF cache (a first run) $cc s -> $(ratio "$cc" "$qc"); peak RSS ptop $pr KiB, perf record $qr KiB"
rm -f "$tmp/oc.data"
