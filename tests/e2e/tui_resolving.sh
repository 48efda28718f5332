#!/bin/sh
# The live view answers while names load (issue 13, section 1): chains
# through six libraries with compressed DWARF (chainwork, wlchain.c) plus
# libc, with inlined frames in every tree.  Each build has a time budget
# for loading (PTOP_BUILD_BUDGET_MS=0 here: one load or DWARF walk per
# build, so that the names need many builds, as big libraries do at the
# default 100 ms); keys are read between builds, the footer says
# "resolving N symbols", and the rows fill in.  Checked: the names were
# left for later and came in over at least seven builds (-vv's log), the
# trees end complete (every link, every inlined frame), a key pressed
# right after E is answered within a deadline, and SIGTERM during the
# builds ends ptop (exit 0, terminal restored) within a deadline.
. tests/e2e/tmux.inc
need perf

ms() { echo $(( $(date +%s%N) / 1000000 )); }

perf record -q -N --buildid-mmap -g -e cpu-clock -F 2000 -o "$TMP/chain.data" -- \
	"$WL/chainwork" 1 > /dev/null 2> "$TMP/rec.err" ||
	fail "perf record -g: $(cat "$TMP/rec.err")"

live() {
	run env PTOP_BUILD_BUDGET_MS=0 "$PTOP" -i "$TMP/chain.data" -g --inline \
		-vv --max-stack 64 "$@" "2> $TMP/err"
	wait_for '^Children +Self' 30
}

# E, then at once a key: help is on the screen within the deadline
live
keys E
t0=$(ms)
keys '?'
wait_for 'ptop keys|[Hh]elp' 10
took=$(( $(ms) - t0 ))
echo "help answered $took ms after E"
[ "$took" -le 2500 ] || fail "help took $took ms during the builds"
keys Escape
# the trees end complete: every link and every inlined step
for i in 1 2 3 4 5 6; do
	wait_for "chain_$i\$" 30
	wait_for "step_$i \\(inlined\\)\$" 30
done
keys q
wait_for '^PTOP-EXIT=' 30
screen | grep -q '^PTOP-EXIT=0$' || fail "exit status not 0"
grep -q 'names: [0-9]* left for the next builds' "$TMP/err" ||
	fail "no build left names for later: $(grep names: "$TMP/err")"
k=$(sed -n 's/.*names: all resolved after \([0-9]*\) builds.*/\1/p' "$TMP/err" | tail -n 1)
[ -n "$k" ] || fail "the names never all came in: $(grep names: "$TMP/err")"
echo "names resolved over $k builds"
[ "$k" -ge 7 ] || fail "resolved in $k builds: not split (six DWARF files and libc's)"

# SIGTERM while the names load: ptop ends within the deadline
restart
live
keys E
pid=$(pgrep -f "chain.data -g --inline -vv" | head -n 1)
[ -n "$pid" ] || fail "no ptop process"
t0=$(ms)
kill -TERM "$pid"
wait_for '^PTOP-EXIT=' 30
took=$(( $(ms) - t0 ))
echo "SIGTERM answered in $took ms"
screen | grep -q '^PTOP-EXIT=0$' || fail "exit status after SIGTERM not 0"
screen | grep -q '^TTY-icanon$' || fail "terminal not restored after SIGTERM"
[ "$took" -le 2500 ] || fail "SIGTERM took $took ms during the builds"
echo ok
