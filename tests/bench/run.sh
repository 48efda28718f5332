#!/bin/sh
# make bench: ptop against the installed perf, in the same run.
# Environment: PTOP, WL (workloads), BUILD.  BENCH_SECS (default 10).
# BENCH_ONLY=NAME: only the section of tests/bench/run-NAME.sh (make bench
# BENCH_ONLY=recover: -g's recovery alone).
# The machine is noisy: each figure is the best of a few runs, and the
# ratios matter more than the absolute numbers.
set -u
SECS=${BENCH_SECS:-10}
RUNSTAT=$BUILD/bench/runstat
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
best() { sort -g | head -1; }

# Real programs the sections run (run-speed.sh, run-recover.sh)
# gcc compiling a few of ptop's biggest files: a script, so that perf
# record runs it as it is
sp_gcc_script() {
	cflags="-O2 -D_GNU_SOURCE -I$PWD $(pkg-config --cflags libdw 2>/dev/null)"
	{
		echo "#!/bin/sh"
		# not $f: the caller's (functions share the shell's variables)
		for sp_src in src/perfdata/*.c symbols/demangle.c symbols/symbolizer.c; do
			echo "gcc $cflags -c $PWD/$sp_src -o $tmp/sp.o || exit 1"
		done
	} > "$tmp/gcc.sh"
	chmod +x "$tmp/gcc.sh"
}

# a fixed amount of Python work: JSON, regular expressions, sorting
sp_python_script() {
	cp tests/bench/pywork.py "$tmp/py.py"
}

# tui_one NAME PATTERN CMD...: CMD in a 160x50 tmux pane for SECS;
# prints "first_s cpu_s rss_kb": when the screen first showed PATTERN
# (-1: never), the CPU time and peak RSS of the pane's process (read
# before q, from /proc).
tui_one() {
	name=$1
	pat=$2
	shift 2
	sock="ptop-bench-$$-$name"
	tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 50 "$*"
	start=$(date +%s.%N)
	first=-1
	pid=""
	while :; do
		now=$(date +%s.%N)
		el=$(awk -v a="$start" -v b="$now" 'BEGIN { print b - a }')
		[ -z "$pid" ] && pid=$(tmux -L "$sock" list-panes -F '#{pane_pid}' 2>/dev/null | head -1)
		if [ "$first" = -1 ] && tmux -L "$sock" capture-pane -p 2>/dev/null | grep -qF -- "$pat"; then
			first=$(printf '%.2f' "$el")
		fi
		awk -v e="$el" -v s="$SECS" 'BEGIN { exit !(e >= s) }' && break
		sleep 0.05
	done
	cpu=-1
	rss=-1
	if [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; then
		tck=$(getconf CLK_TCK)
		cpu=$(sed 's/.*) //' "/proc/$pid/stat" | awk -v t="$tck" '{ printf "%.2f", ($12 + $13) / t }')
		rss=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status")
	fi
	tmux -L "$sock" send-keys q 2>/dev/null
	sleep 0.3
	tmux -L "$sock" kill-server 2>/dev/null
	echo "$first $cpu ${rss:--1}"
}

echo "ptop bench ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(uname -r), $(perf --version 2>/dev/null))"
echo

if [ -z "${BENCH_ONLY:-}" ]; then
# 1. Ingest cost: synthetic records, no kernel.
# Plain samples, -g's frame-pointer chains (8 frames), and -g with the
# leaf recovery's stack copies (-r): what each adds is shown apart.
for i in 1 2 3; do
	"$BUILD/bench/ingest" 3000000
	"$BUILD/bench/ingest" -g 3000000
	"$BUILD/bench/ingest" -r 3000000
done > "$tmp/ingest"
ns=$(sed -n 's/^ingest: \([0-9.]*\) ns.*/\1/p' "$tmp/ingest" | best)
ng=$(sed -n 's/^ingest -g: \([0-9.]*\) ns.*/\1/p' "$tmp/ingest" | best)
nr=$(sed -n 's/^ingest -r: \([0-9.]*\) ns.*/\1/p' "$tmp/ingest" | best)
echo "ingest (ring read + decode + map lookup + aggregation): $ns ns/sample (best of 3; target <= 50)"
echo "  -g, frame-pointer chains of 8 frames interned: $ng ns/sample, the chains $(awk -v a="$ng" -v b="$ns" 'BEGIN { printf "%.1f", a - b }') of it (target <= 50 in all)"
echo "  -g with the leaf recovery (ip, sp, bp and a 256-byte stack copy a sample, the callers put back): $nr ns/sample, the recovery $(awk -v a="$nr" -v b="$ng" 'BEGIN { printf "%.1f", a - b }') of it (best of 3, alternating)"
# and a refresh every 16000 samples (2 s at 4000 Hz on two CPUs): the
# snapshot alone, then with the timeline's take in the same pass (the
# samples' path is the same; what time costs is the take's, per refresh)
for i in 1 2 3; do
	"$BUILD/bench/ingest" 3000000 16000 notake
	"$BUILD/bench/ingest" 3000000 16000
done > "$tmp/refresh"
rs=$(grep 'snapshot alone' "$tmp/refresh" | sed -n 's/.*refresh: \([0-9.]*\) ns.*/\1/p' | best)
rt=$(grep 'timeline take' "$tmp/refresh" | sed -n 's/.*refresh: \([0-9.]*\) ns.*/\1/p' | best)
echo "  a refresh every 16000 samples, per sample: snapshot $rs ns, snapshot and timeline take $rt ns (best of 3, alternating)"

# 2. System-wide at 4000 Hz for SECS, a 2-thread busy workload running.
"$WL/spin3" 0 2 & spin=$!
pids="$pids $spin"
sleep 0.5
p=$("$RUNSTAT" -t "$SECS" -- "$PTOP" -b -F 4000 -d 2)
q=$("$RUNSTAT" -t "$SECS" -- perf top -F 4000 --stdio -d 2 2>/dev/null)
pc=$(field "$p" cpu_s); pr=$(field "$p" rss_kb)
qc=$(field "$q" cpu_s); qr=$(field "$q" rss_kb)
echo "system-wide, 4000 Hz, ${SECS} s, spin3 x2 threads:"
echo "  CPU time:  ptop $pc s, perf top $qc s  -> ptop/perf = $(ratio "$pc" "$qc") (target <= 0.5)"
echo "  peak RSS:  ptop $pr KiB, perf top $qr KiB  -> ptop/perf = $(ratio "$pr" "$qr") (target <= 0.5)"

# 3. Time to the first screen that shows the hot function, resolved.
# Each tool at its fastest refresh: ptop -d 0.25, perf top -d 1.
for i in 1 2 3; do
	"$RUNSTAT" -t 6 -p spin_a -- "$PTOP" -b -F 4000 -d 0.25
done > "$tmp/first_ptop"
for i in 1 2 3; do
	"$RUNSTAT" -t 8 -p spin_a -- perf top -F 4000 --stdio -d 1 2>/dev/null
done > "$tmp/first_perf"
fp=$(sed -n 's/.*first_s=\([-0-9.]*\).*/\1/p' "$tmp/first_ptop" | grep -v '^-' | best)
fq=$(sed -n 's/.*first_s=\([-0-9.]*\).*/\1/p' "$tmp/first_perf" | grep -v '^-' | best)
echo "first resolved table showing spin_a: ptop ${fp:-never} s, perf top ${fq:-never} s (best of 3; target well under 1 s)"
# the sections below start the workloads they need, on an idle machine
kill "$spin" 2> /dev/null
wait "$spin" 2> /dev/null
fi

# Further sections are added by the features that own them.
for extra in tests/bench/run-${BENCH_ONLY:-*}.sh; do
	[ -f "$extra" ] && . "$extra"
done
exit 0
