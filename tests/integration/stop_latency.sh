#!/bin/sh
# solo: deadlines for SIGTERM and q
# A stop request or q is answered while names load (issue 13, section 1):
# on a system-wide -g recording (chains through many binaries, libc among
# them), batch -g --inline -E 5 (the trees' inlined frames read libc's
# DWARF: frame-pointer chains expand them only with --inline) gets
# SIGTERM while the symbolizer's worker is
# inside the load of libc's debug file's DWARF (compressed; made 6 s longer
# by PTOP_TEST_SLOW_LOAD, see tests/slowload.inc, so that the signal
# comes during it on any machine) and exits 0 within the deadline,
# printing no half-built table.  The load may begin while -i is still
# read or once the table is built, as the load of the machine has it:
# either way the request leaves no output ptop owes undone, so the
# status is 0 at any phase (ptop.1 EXIT STATUS).  The live view, after E (every tree),
# quits on q within its deadline during such a load.  The log (-vv) shows
# that the load had begun and not ended when ptop did.
#
# Deadlines: 200 ms is the requirement, and ptop's part is far under it
# (a wait for the worker ends within 10 ms of the signal; the exit does
# not wait for the worker).  A script on a loaded machine measures more:
# here (2 CPUs, load 8) SIGTERM to a bare `sleep` is seen gone 30-390 ms
# later, and this test measured batch 20-120 ms, live q 30-230 ms (tmux's
# send-keys included).  DEADLINE_MS and LIVE_DEADLINE_MS (1000) are about
# three times the worst of those, and a sixth of the 6 s that waiting
# for the load would add: a ptop that waits for it fails whatever the
# load (and the log's check, that the load had not ended when ptop did,
# fails it too).  The load is that long so that a script which sees it
# begin late on a loaded machine still stops ptop inside it (with 2 s,
# one CI run at load 18 did not).
. tests/integration/lib.sh
. tests/integration/perfdata.inc
. tests/slowload.inc
need perf readelf
DEADLINE_MS=${DEADLINE_MS:-1000}
LIVE_DEADLINE_MS=${LIVE_DEADLINE_MS:-1000}

libc_debug "$WL/cgwork"
perf record -q -N --buildid-mmap -a -g -F 2000 -o "$TMP/sys.data" -- \
	sh -c "\"$WL/cgwork\" 2 > /dev/null & \"$WL/spin3\" 2 > /dev/null; wait" \
	> /dev/null 2> "$TMP/rec.err" || fail "perf record --buildid-mmap -a -g: $(cat "$TMP/rec.err")"

# in_dwarf_load PID: the worker of PID sleeps in the slow load of libc's
# DWARF (the trees' inlined frames), not of its symbols, which a cache
# without libc's table has it read while the recording is read, before
# the table's stop handling is this test's
in_dwarf_load() {
	grep -q "$SLOW_LOAD: reading DWARF" "$TMP/err" && in_slow_load "$1"
}

# batch: SIGTERM once the worker has begun libc's DWARF load
PTOP_TEST_SLOW_LOAD="$SLOW_LOAD" "$PTOP" -i "$TMP/sys.data" -b -g --inline -E 5 -vv \
	> "$TMP/out" 2> "$TMP/err" &
pid=$!
wait_until 60 "the worker to begin loading $LIBC_DBG's DWARF" in_dwarf_load $pid
t0=$(ms)
kill -TERM $pid
took=$(gone_ms $pid "$t0")
wait $pid
rc=$?
echo "batch: exit $rc $took ms after SIGTERM"
[ $rc -eq 0 ] || fail "batch: exit status $rc after SIGTERM: $(cat "$TMP/err")"
[ "$took" -le "$DEADLINE_MS" ] || fail "batch: $took ms to answer SIGTERM"
during_load "$TMP/err" "batch"
[ -s "$TMP/out" ] && fail "batch: a table cut short was printed"

# the live view: E builds every tree, q quits
OLD=$TMP
. tests/e2e/tmux.inc
mv "$OLD/sys.data" "$TMP/sys.data"
rm -rf "$OLD"
run env PTOP_TEST_SLOW_LOAD="$SLOW_LOAD" "$PTOP" -i "$TMP/sys.data" -g --inline -vv \
	"2> $TMP/err"
wait_for '^Children +Self' 30
pid=$(pgrep -f "sys.data -g --inline -vv" | head -n 1)
[ -n "$pid" ] || fail "no ptop process"
keys E
wait_until 60 "the worker to begin loading $LIBC_DBG" in_slow_load "$pid"
t0=$(ms)
keys q
live_ended "$pid" "$t0" "live: q" "$LIVE_DEADLINE_MS"
echo "ok"
