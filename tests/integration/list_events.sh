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
# a tracepoint glob: one table per tracepoint it matches, as listed
"$PTOP" -b --json -d 0.5 -n 1 -e 'sched:sched_switch*' -e cpu-clock > "$TMP/glob.json" 2> "$TMP/err" ||
	fail "-e 'sched:sched_switch*' failed: $(cat "$TMP/err")"
want=$(grep -o '^  sched:sched_switch[^ ]*' "$TMP/ev" | tr -d ' ' | sort | tr '\n' ' ')
got=$(jq -r .event "$TMP/glob.json" | grep '^sched:' | sort | tr '\n' ' ')
[ -n "$want" ] && [ "$got" = "$want" ] || fail "glob events: got '$got', listed '$want'"
jq -r .event "$TMP/glob.json" | grep -qx cpu-clock || fail "cpu-clock missing beside the glob"
"$PTOP" -b -n 1 -e 'sched:no_such_*' > /dev/null 2> "$TMP/err" && fail "a glob matching nothing was accepted"
grep -q "no tracepoint matches 'sched:no_such_\*'" "$TMP/err" || fail "no message: $(cat "$TMP/err")"
exit 0
