#!/bin/sh
# ptop -i on files recorded by perf record: the top rows agree with
# perf report --sort dso,sym (same symbols, shares within 0.1 point) for
# a command with -c and with -F, -p, -g and two events.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

# a command, fixed period
perf_record "$TMP/c.data" -e cpu-clock -c 100000 -- "$WL/spin3" 1
agree "-c" "$TMP/c.data" 0.5
work_near "$(share "$TMP/ptop.json" spin_a)" 60 "$(user_samples "$TMP/ptop.json")" "spin_a in the -c file"
jq -e '.finished == true and .input.bad == 0 and .input.damaged == false' "$TMP/ptop.json" > /dev/null ||
	fail "-c: header says: $(head -c 400 "$TMP/ptop.json")"

# frequency mode: periods differ from sample to sample
perf_record "$TMP/f.data" -e cpu-clock -F 2000 -- "$WL/spin3" 1
agree "-F" "$TMP/f.data" 0.5

# an existing process
"$WL/spin3" 3 > /dev/null &
BG="$BG $!"
pid=$!
# perf record -p must find the workload, not the shell before its exec
wait_until 30 "spin3 started" sh -c '[ "$(readlink "/proc/$1/exe")" = "$2" ]' sh "$pid" "$WL/spin3"
perf_record "$TMP/p.data" -e cpu-clock -c 100000 -p "$pid" -- sleep 1
agree "-p" "$TMP/p.data" 0.5

# call chains: self shares, as perf report --no-children
perf_record "$TMP/g.data" -e cpu-clock -g -c 100000 -- "$WL/spin3" 1
agree "-g" "$TMP/g.data" 0.5 --no-children -- --no-children
jq -e '[.rows[] | select(.symbol == "spin_a")][0].tree | length > 0' "$TMP/ptop.json" > /dev/null ||
	fail "-g: no call tree under spin_a"

# two events, one table each, each with its own period (-c is global:
# "-e cpu-clock -c 100000 -e page-faults -c 1" samples cpu-clock every ns)
perf_record "$TMP/e.data" -e cpu-clock/period=100000/ -e page-faults/period=1/ -- "$WL/dlwork" 1
# (page-faults has few samples: its small rows are ties that perf and
# ptop may name by different aliases of one address)
agree "-e two events" "$TMP/e.data" 5
[ "$(jq -r .event "$TMP/ptop.json" | sort -u | wc -l)" -eq 2 ] ||
	fail "two events: $(jq -r .event "$TMP/ptop.json" | sort -u | tr '\n' ' ')"
# cpu-clock every 100 us: about 10000 samples in dlwork's CPU second
jq -se 'map(select(.event | startswith("cpu-clock")))[0] |
	.total_samples > 5000 and .total_samples < 20000' "$TMP/ptop.json" > /dev/null ||
	fail "cpu-clock/period=100000/: $(jq -c '{event, total_samples}' "$TMP/ptop.json")"
exit 0
