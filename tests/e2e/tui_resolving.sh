#!/bin/sh
# solo: deadlines for keys, q and SIGTERM
# The live view answers while names load (issue 13, section 1): chains
# through six libraries with compressed DWARF (chainwork, wlchain.c) plus
# libc, whose separate debug file (compressed too) is the load that took
# about 0.9 s, with inlined frames in every tree.  The symbolizer's worker
# reads the files; a build waits for it 20 ms at most, and does the rest
# of its work within its budget (PTOP_BUILD_BUDGET_MS=0 in the first run:
# one DWARF walk per build, so that the names need many builds); keys
# are read between builds, the
# footer says "resolving N symbols", and the rows fill in.  Checked: the
# names were left for later and came in over at least seven builds
# (-vv's log), and the trees end complete (every link, every inlined
# frame).  Then, with libc's loads 6 s longer (PTOP_TEST_SLOW_LOAD, see
# tests/slowload.inc) and the default budget: a key pressed after E is
# answered, q ends ptop, and SIGTERM ends ptop (exit 0, terminal
# restored), each within its deadline while the worker is inside libc's
# load, which the log proves (begun, not ended when ptop exited).
#
# Deadlines: the requirement is 200 ms from the key or signal to ptop's
# answer, and ptop's own part is well under it (a build waits for the
# worker 20 ms at most, a stop request ends a wait within 10 ms, and the
# exit does not wait for the worker).  What a script can measure on a
# loaded machine is not: on this one (2 CPUs, load 8: four busy loops and
# a make check beside us) SIGTERM to a bare `sleep` is seen gone 30-390
# ms later, and this script measured q 30-230 ms and SIGTERM 20-340 ms:
# STOP_DEADLINE_MS (1000) is about three times the worst, and a sixth
# of the 6 s a load waited for would add, so a ptop that waits for the load
# fails whatever the machine's load.  The help screen comes after the
# build E asked for (every tree, with --inline) and a draw: 100-610 ms
# here, once 950 ms; KEY_DEADLINE_MS is 1500.
. tests/e2e/tmux.inc
. tests/slowload.inc
need perf readelf
KEY_DEADLINE_MS=${KEY_DEADLINE_MS:-1500}
STOP_DEADLINE_MS=${STOP_DEADLINE_MS:-1000}

libc_debug "$WL/chainwork"
n=0
for l in "$WL"/libwlchain*.so; do
	compressed "$l" && n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n chain libraries have compressed DWARF"

perf record -q -N --buildid-mmap -g -e cpu-clock -F 2000 -o "$TMP/chain.data" -- \
	"$WL/chainwork" 1 > /dev/null 2> "$TMP/rec.err" ||
	fail "perf record --buildid-mmap -g: $(cat "$TMP/rec.err")"

live() {
	run env "$@" "$PTOP" -i "$TMP/chain.data" -g --inline -vv \
		--max-stack 64 "2> $TMP/err"
	wait_for '^Children +Self' 30
	pid=$(pgrep -f "chain.data -g --inline -vv" | head -n 1)
	[ -n "$pid" ] || fail "no ptop process"
}

# wait_fast ERE SECONDS: wait_for, polling every 20 ms
wait_fast() {
	wf_end=$(( $(date +%s) + $2 ))
	until screen | grep -Eq -- "$1"; do
		[ "$(date +%s)" -le "$wf_end" ] ||
			fail "no line matching /$1/ within $2 s"
		sleep 0.02
	done
}

# 1. the names come in over many builds, and complete
live PTOP_BUILD_BUDGET_MS=0
keys E
for i in 1 2 3 4 5 6; do
	wait_for "chain_$i\$" 30
	wait_for "step_$i \\(inlined\\)\$" 30
done
# the names off the screen too: the footer says "resolving N symbols"
# until the last one is in, then shows the keys again (a full make check
# once pressed q while 91 were left, after the lines above had come)
wait_for '^F1 help' 30
keys q
wait_for '^PTOP-EXIT=' 30
screen | grep -q '^PTOP-EXIT=0$' || fail "exit status not 0"
grep -q 'names: [0-9]* left for the next builds' "$TMP/err" ||
	fail "no build left names for later: $(grep names: "$TMP/err")"
k=$(sed -n 's/.*names: all resolved after \([0-9]*\) builds.*/\1/p' "$TMP/err" | tail -n 1)
[ -n "$k" ] || fail "the names never all came in: $(grep names: "$TMP/err")"
echo "names resolved over $k builds"
[ "$k" -ge 7 ] || fail "resolved in $k builds: not split (six DWARF files and libc's)"

# 2. while the worker is inside libc's load: a key, then q
restart
live PTOP_TEST_SLOW_LOAD="$SLOW_LOAD"
keys E
wait_until 60 "the worker to begin loading $LIBC_DBG" in_slow_load "$pid"
t0=$(ms)
keys '?'
wait_fast 'ptop keys|[Hh]elp' 10
took=$(( $(ms) - t0 ))
echo "help answered $took ms after E"
[ "$took" -le "$KEY_DEADLINE_MS" ] || fail "help took $took ms during the load"
keys Escape
t0=$(ms)
keys q
live_ended "$pid" "$t0" q "$STOP_DEADLINE_MS"

# 3. SIGTERM while the worker is inside libc's load
restart
live PTOP_TEST_SLOW_LOAD="$SLOW_LOAD"
keys E
wait_until 60 "the worker to begin loading $LIBC_DBG" in_slow_load "$pid"
t0=$(ms)
kill -TERM "$pid"
live_ended "$pid" "$t0" SIGTERM "$STOP_DEADLINE_MS"
echo ok
