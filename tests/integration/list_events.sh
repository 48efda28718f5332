#!/bin/sh
# --list-events prints what this machine can really open.
. tests/integration/lib.sh

"$PTOP" --list-events > "$TMP/ev" 2>&1 || fail "--list-events failed"
for e in cpu-clock task-clock page-faults context-switches; do
	grep -q "^  $e " "$TMP/ev" || fail "$e missing"
done
grep -q 'sched:sched_switch' "$TMP/ev" || fail "no tracepoints listed"
# what is listed can be opened
"$PTOP" -b -d 0.3 -n 1 -e sched:sched_switch > /dev/null 2>&1 || fail "a listed tracepoint cannot be opened"
# on a machine without a PMU, cycles must not be listed as openable
if ! perf stat -e cycles true > /dev/null 2>&1; then
	grep -q '^  cycles ' "$TMP/ev" && fail "cycles listed but cannot be opened"
fi
exit 0
