#!/bin/sh
# -p follows a running process and the threads and children it creates
# later; -t; the session ends with its final table when the target exits.
. tests/integration/lib.sh

# started: the exec is done (ptop -p must see the workload, not sh)
started() { [ "$(readlink "/proc/$1/exe")" = "$2" ]; }

# -p: latethreads starts a thread and forks a child after 1 s
bg "$WL/latethreads" 3 1
pid=$LAST_BG
wait_until 30 "latethreads started" started "$pid" "$WL/latethreads"
"$PTOP" -b --json -d 1 -s pid,comm,dso,sym -e cpu-clock -p "$pid" > "$TMP/p.json" 2> "$TMP/err" ||
	fail "ptop -p exited with $?: $(cat "$TMP/err")"
# it ran until the target exited (about 4 s), then printed a final table
n=$(wc -l < "$TMP/p.json")
[ "$n" -ge 2 ] || fail "expected several refreshes, got $n"
tail -n 1 "$TMP/p.json" | jq -e '.finished == true' > /dev/null || fail "last table not marked finished"
late=$(share "$TMP/p.json" late_worker)
child=$(share "$TMP/p.json" child_worker)
# each runs 3 s of its own CPU time (wl.h): half each, however loaded
near "$late" 50 5 "late_worker (a thread created after attaching)"
near "$child" 50 5 "child_worker (a child forked after attaching)"
tail -n 1 "$TMP/p.json" | jq -e --argjson p "$pid" \
	'[.rows[] | select(.symbol == "late_worker")][0].pid == $p' > /dev/null ||
	fail "late_worker not attributed to pid $pid"

# -t: only that thread (the main thread of spin3 with 2 threads)
bg "$WL/spin3" 3 2
pid=$LAST_BG
wait_until 30 "spin3 started" started "$pid" "$WL/spin3"
"$PTOP" -b --json -d 1 -n 1 -s tid,dso,sym -e cpu-clock -t "$pid" > "$TMP/t.json" 2> "$TMP/err" ||
	fail "ptop -t exited with $?: $(cat "$TMP/err")"
tail -n 1 "$TMP/t.json" | jq -e --argjson p "$pid" '[.rows[].tid] | unique == [$p]' > /dev/null ||
	fail "-t showed other threads: $(tail -n 1 "$TMP/t.json" | jq -c '[.rows[].tid] | unique')"
# -- COMMAND in batch mode: the command's output goes to standard error,
# standard output holds the tables alone
"$PTOP" -b --json -d 30 -e cpu-clock -- sh -c \
	'echo cmd-stdout; echo cmd-stderr >&2; exec "$0" 1' "$WL/spin3" \
	> "$TMP/c.json" 2> "$TMP/c.err" || fail "ptop -- sh exited with $?: $(cat "$TMP/c.err")"
jq -e . "$TMP/c.json" > /dev/null || fail "standard output is not JSON alone: $(head -c 200 "$TMP/c.json")"
grep -qx cmd-stdout "$TMP/c.err" && grep -qx cmd-stderr "$TMP/c.err" ||
	fail "the command's output is not on standard error: $(cat "$TMP/c.err")"
exit 0
