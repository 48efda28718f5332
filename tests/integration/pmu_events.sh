#!/bin/sh
# perf's PMU syntax (-e pmu/terms/modifiers), resolved from this machine's
# sysfs: software/config=0/ samples as cpu-clock does; what cannot be
# resolved or sampled fails before anything starts, with a message.
. tests/integration/lib.sh

D=/sys/bus/event_source/devices
[ -r "$D/software/type" ] || skip "no $D/software (a kernel without perf events?)"

expect_fail() {	# expect_fail PATTERN CMD...
	pat=$1
	shift
	"$@" > "$TMP/o" 2> "$TMP/e" && fail "'$*' succeeded"
	grep -q -- "$pat" "$TMP/e" || fail "'$*': no '$pat' in: $(cat "$TMP/e")"
	[ -s "$TMP/o" ] && fail "'$*' printed a table: $(head -3 "$TMP/o")"
	return 0
}

# type 1, config 0: cpu-clock, the known 60/30/10 profile, under the name
# the user typed.  Whole runs (-d 30: the table when the command exits),
# so that the samples are the workload's CPU time whatever the load.
"$PTOP" -b --json -d 30 -e software/config=0/ -- "$WL/spin3" 0.5 \
	> "$TMP/sw.json" 2> "$TMP/err" ||
	fail "-e software/config=0/ failed: $(cat "$TMP/err")"
tail -n 1 "$TMP/sw.json" | jq -e '.event == "software/config=0/" and
	.freq == 4000 and .samples > 1000 and .lost == 0' > /dev/null ||
	fail "software/config=0/: $(head -c 400 "$TMP/sw.json")"
n=$(user_samples "$TMP/sw.json")
work_near "$(share "$TMP/sw.json" spin_a)" 60 "$n" "spin_a under software/config=0/"
work_near "$(share "$TMP/sw.json" spin_b)" 30 "$n" "spin_b under software/config=0/"

# the event's own period (ns of cpu-clock, over -F) and a modifier, beside
# an event sampled at the global frequency
"$PTOP" -b --json -d 30 -e 'software/config=0,period=1000000/u' \
	-e cpu-clock -- "$WL/spin3" 0.5 > "$TMP/p.json" 2> "$TMP/err" ||
	fail "period= failed: $(cat "$TMP/err")"
jq -se 'map(select(.event == "software/config=0,period=1000000/u"))[0] |
	.freq == 0 and .sample_period == 1000000 and .samples > 250 and
	.kernel_share == 0' "$TMP/p.json" > /dev/null ||
	fail "period=/u: $(head -c 400 "$TMP/p.json")"
jq -se 'map(select(.event == "cpu-clock"))[0] | .freq == 4000 and .samples > 1000' \
	"$TMP/p.json" > /dev/null || fail "cpu-clock beside it: $(tail -c 400 "$TMP/p.json")"
"$PTOP" -b --json -d 30 -e 'software/config=0,freq=500/' -- "$WL/spin3" 0.2 \
	> "$TMP/f.json" 2> "$TMP/err" || fail "freq= failed: $(cat "$TMP/err")"
jq -e '.freq == 500' "$TMP/f.json" > /dev/null || fail "freq=500: $(head -c 300 "$TMP/f.json")"

# resolution errors: the PMU or term named, a non-zero exit, no table
expect_fail "unknown PMU 'nosuchpmu'" "$PTOP" -b -n 1 -e nosuchpmu/config=1/ -- "$WL/spin3" 1
expect_fail "PMU 'software' has no term 'nope'" "$PTOP" -b -n 1 -e software/nope=1/ -- "$WL/spin3" 1
expect_fail "no event alias or term 'cycles'" "$PTOP" -b -n 1 -e software/cycles/ -- "$WL/spin3" 1
expect_fail "above the kernel's limit" "$PTOP" -b -n 1 -e software/config=0,freq=100000000/ -- "$WL/spin3" 1
# msr can count the TSC but not sample it: said so
if [ -r "$D/msr/events/tsc" ]; then
	expect_fail "cannot sample msr/tsc/: the msr PMU can count it but not sample it" \
		"$PTOP" -b -n 1 -e msr/tsc/ -- "$WL/spin3" 1
fi
# the live view fails the same way before it starts (script gives it a tty)
need script
if true; then
	TERM=xterm script -qec "'$PTOP' -e nosuchpmu/config=1/ -- '$WL/spin3' 1; echo rc=\$?" \
		/dev/null > "$TMP/live" 2>&1 < /dev/null
	grep -q "unknown PMU 'nosuchpmu'" "$TMP/live" && grep -q 'rc=1' "$TMP/live" ||
		fail "live view: $(cat "$TMP/live")"
fi

# syntax errors (parsed before anything runs)
expect_fail "unterminated" "$PTOP" -b -n 1 -e software/config=0
expect_fail "without a ':'" "$PTOP" -b -n 1 -e software/config=0/:u
expect_fail "bad PMU name" "$PTOP" -b -n 1 -e ../software/config=0/
expect_fail "needs a value above 0" "$PTOP" -b -n 1 -e software/config=0,period=0/

# --list-events: a PMU event alias is listed only when it can be sampled
"$PTOP" --list-events > "$TMP/ev" 2>&1 || fail "--list-events failed"
if [ -r "$D/msr/events/tsc" ]; then
	grep -q 'msr/tsc/' "$TMP/ev" && fail "msr/tsc/ listed, but it cannot be sampled"
fi
grep 'Kernel PMU event' "$TMP/ev" | awk '{ print $1 }' | head -5 > "$TMP/pmuev"
while read -r e; do
	"$PTOP" -b -n 1 -d 0.2 -e "$e" -- true > /dev/null 2> "$TMP/err" ||
		fail "listed $e cannot be opened: $(cat "$TMP/err")"
done < "$TMP/pmuev"
exit 0
