#!/bin/bash
# Live -g over time (issue 12; not part of make bench: 5+ minutes):
# ptop -g -vv system-wide in a private tmux beside two
# `manychains 0 DEPTH LEAF LEAF_US` (LEAF 1: the leaf spins on one
# instruction, so that the distinct chains, 2^DEPTH, stop growing; a
# longer LEAF_US makes the samples on the way down, a long tail of
# chains, rarer), E (every tree)
# then c (the callers view); every 30 s ptop's CPU in those 30 s (per
# 2 s refresh) and RSS (anonymous memory and mapped files' pages
# apart); at the end the last builds of the -vv log (CPU, rows, chain
# nodes) and where the memory was after them (-vv's "memory:").
# usage: tests/bench/flat.sh PTOP WL OUT [EXTRA PTOP OPTIONS]
#   PIDS=1: -p of the two workloads instead of system-wide
#   LOAD=make: instead of the two workloads, `make -j2 -B` of ptop (this
#   tree's HEAD, exported to a temporary folder) in a loop: new
#   processes, binaries and chains all along (issue 38's memory budget);
#   the end says the RSS at minute 15 against minute 5 (MIN >= 15)
#   e.g. MIN=5 DEPTH=16 tests/bench/flat.sh build/ptop build/workloads
#        build/flat.txt --call-graph dwarf
#   MIN=15 LOAD=make tests/bench/flat.sh build/ptop build/workloads
#        build/flat.txt --call-graph dwarf
PTOP=$1 WL=$2 OUT=$3
shift 3
MIN=${MIN:-5} DEPTH=${DEPTH:-16} LEAF=${LEAF:-1} LEAF_US=${LEAF_US:-20}
sock=ptop-flat-$$
if [ "${LOAD:-}" = make ]; then
	src=$(mktemp -d /tmp/ptop-flat-src.XXXXXX)
	git -C "$(dirname "$0")/../.." archive HEAD | tar -x -C "$src" ||
		{ echo "no copy of the tree to build" >&2; exit 1; }
	# a process group of its own, so that the end stops the make under
	# way too
	setsid bash -c 'while :; do make -s -C "$1" -j2 -B BUILD="$1/build" \
		ptop > /dev/null 2>&1; done' flat "$src" & w1=$!
	w2=
	trap 'kill -- -$w1 2> /dev/null; sleep 1; rm -rf "$src"; tmux -L $sock kill-server 2> /dev/null' EXIT
else
	"$WL/manychains" 0 "$DEPTH" "$LEAF" "$LEAF_US" & w1=$!
	"$WL/manychains" 0 "$DEPTH" "$LEAF" "$LEAF_US" & w2=$!
	trap 'kill $w1 $w2 2> /dev/null; tmux -L $sock kill-server 2> /dev/null' EXIT
fi
# PIDS=1: the two workloads alone (-p), not the whole machine
target=
[ "${PIDS:-0}" = 1 ] && [ -n "$w2" ] && target="-p $w1,$w2"
tmux -L $sock -f /dev/null new-session -d -x 200 -y 50 \
	"$PTOP -g -F 4000 -e cpu-clock -d 2 -vv $target $* 2> $OUT.log"
for _ in $(seq 100); do
	tmux -L $sock capture-pane -p | grep -q Children && break
	sleep 0.2
done
tmux -L $sock send-keys E
sleep 3
tmux -L $sock send-keys c
pid=$(pgrep -x ptop -P "$(tmux -L $sock list-panes -F '#{pane_pid}')" | head -n 1)
[ -n "$pid" ] || { echo "no ptop" >&2; exit 1; }
tck=$(getconf CLK_TCK)
if [ "${LOAD:-}" = make ]; then
	what="make -j2 -B of ptop in a loop"
else
	what="depth $DEPTH leaf $LEAF ($LEAF_US us)"
fi
echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $what; ${target:-system-wide} $*; load $(cut -d' ' -f1-3 /proc/loadavg)" > "$OUT"
prev=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
s0=$(date +%s)
for i in $(seq $((MIN * 2))); do
	sleep 30
	cpu=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	# the RSS, and of it the heap and anonymous maps, and the pages
	# of mapped files (binaries, debug files: clean, the page cache's)
	rss=$(awk '/^VmRSS/ { r = $2 } /^RssAnon/ { a = $2 } /^RssFile/ { f = $2 }
		END { print r " kB (anon " a ", files " f ")" }' "/proc/$pid/status")
	[ "$i" = 10 ] && rss5=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
	[ "$i" = 30 ] && rss15=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
	echo "t=$(( $(date +%s) - s0 ))s cpu/refresh=$(awk -v a="$cpu" -v b="$prev" -v t="$tck" 'BEGIN { printf "%.3f", (a - b) / t / 15 }') s rss=$rss load $(cut -d' ' -f1 /proc/loadavg)" >> "$OUT"
	prev=$cpu
done
# q leaves the callers view for the table, then ptop
for _ in 1 2 3; do
	tmux -L $sock send-keys q
	for _ in $(seq 50); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.2
	done
	kill -0 "$pid" 2> /dev/null || break
done
# the log is written as ptop leaves the terminal
for _ in $(seq 50); do
	grep -q 'build: .* ms of CPU' "$OUT.log" && break
	sleep 0.2
done
grep 'build: .* ms of CPU' "$OUT.log" | tail -n 3 >> "$OUT"
# where the memory was after the last builds (the log keeps the last
# 128 messages)
grep 'memory: heap' "$OUT.log" | tail -n 3 >> "$OUT"
grep 'memory budget' "$OUT.log" | tail -n 1 >> "$OUT"
if [ -n "${rss5:-}" ] && [ -n "${rss15:-}" ]; then
	echo "RSS at minute 15 / at minute 5: $rss15 / $rss5 kB = $(awk -v a="$rss15" -v b="$rss5" 'BEGIN { printf "%.3f", a / b }') (target <= 1.05)" >> "$OUT"
fi
cat "$OUT"
