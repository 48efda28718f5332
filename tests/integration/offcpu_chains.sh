#!/bin/sh
# Where fpwait blocks (tests/workloads/fpwait.c: nap_part sleeps in
# nanosleep -> clock_nanosleep, wait_part reads a pipe; gcc -O2 with
# frame pointers, libc without), off CPU.  The kernel's walk from a
# switch-out's registers (the system call's entry: rbp is main's frame)
# names neither function: without the recovery both are 0 % of the
# waits.  --off-cpu -g (recovered) and --off-cpu --call-graph dwarf
# (unwound: the switch-outs carry stack copies too) sampling the same
# process at the same time give nap_part and wait_part the same
# Children within 1 point, of the time waited and of the switch-outs;
# perf record -e sched:sched_switch --call-graph dwarf, beside them,
# the same share of the switch-outs.  -o writes the recovered chains:
# perf report of its file gives them the same share as ptop -i.  --wall
# with dwarf names them too.
. tests/integration/lib.sh
. tests/integration/callgraph.inc
need perf

# off_children FILE EVENT SYMBOL: SYMBOL's Children in EVENT's last table
off_children() {
	jq -r --arg e "$2" --arg s "$3" 'select(.event == $e) |
		[.rows[] | select(.symbol == $s) | .children] | add // 0' "$1" |
		tail -n 1
}

"$PTOP" -b --json --off-cpu -g --no-fp-recovery -d 600 -- "$WL/fpwait" 10 \
	> "$TMP/plain.json" 2> "$TMP/err" ||
	fail "ptop --off-cpu --no-fp-recovery: $(cat "$TMP/err")"
n=$(off_children "$TMP/plain.json" off-cpu nap_part)
w=$(off_children "$TMP/plain.json" off-cpu wait_part)
awk -v n="$n" -v w="$w" 'BEGIN { exit !(n < 2 && w < 2) }' ||
	fail "without recovery nap_part $n, wait_part $w: the walk did not lose them, nothing to test"

# fpwait starts its rounds once every sampler is attached (a writer
# opens the FIFO go), so that the three see the same switches
mkfifo "$TMP/go" || fail "mkfifo"
bg "$WL/fpwait" 120 "$TMP/go"
pid=$LAST_BG
# the samplers attach to both threads (one that starts while they read
# /proc/PID/task could be missed by one of them)
two_threads() { [ "$(ls "/proc/$pid/task" 2> /dev/null | wc -l)" -ge 2 ]; }
wait_until 10 "fpwait's helper thread" two_threads
bg "$PTOP" -b --json --off-cpu -g -d 600 -p "$pid" > "$TMP/fp.json" \
	2> "$TMP/fp.err"
fp_pid=$LAST_BG
bg "$PTOP" -b --json --off-cpu --call-graph dwarf -d 600 -p "$pid" \
	> "$TMP/dw.json" 2> "$TMP/dw.err"
dw_pid=$LAST_BG
bg perf record -q -N --buildid-mmap -e sched:sched_switch \
	--call-graph dwarf,4096 -p "$pid" -o "$TMP/perf.data" \
	> /dev/null 2> "$TMP/perf.err"
perf_pid=$LAST_BG
# attached: each has its events open on both threads
attached() {
	for p in $fp_pid $dw_pid $perf_pid; do
		[ "$(ls -l "/proc/$p/fd" 2> /dev/null | grep -c perf_event)" -ge 2 ] ||
			return 1
	done
}
wait_until 30 "the three samplers to attach" attached
: > "$TMP/go"
wait "$pid"
wait "$fp_pid" || fail "ptop --off-cpu -g: $(cat "$TMP/fp.err")"
wait "$dw_pid" || fail "ptop --off-cpu --call-graph dwarf: $(cat "$TMP/dw.err")"
wait "$perf_pid" || fail "perf record: $(cat "$TMP/perf.err")"
jq -s -e '[.[] | select(.event == "sched:sched_switch")] | last |
	.finished and .lost == 0 and .unwind_failed == 0 and .samples > 100' \
	"$TMP/dw.json" > /dev/null ||
	fail "dwarf's switch-outs: $(jq -c 'select(.event == "sched:sched_switch") | del(.rows)' "$TMP/dw.json" | tail -n 1)"
perf report -i "$TMP/perf.data" --stdio --children --no-inline -g none \
	--sort sym --percent-limit 0 > "$TMP/perf.txt" 2> /dev/null ||
	fail "perf report failed"
for f in nap_part wait_part; do
	a=$(off_children "$TMP/fp.json" off-cpu "$f")
	b=$(off_children "$TMP/dw.json" off-cpu "$f")
	sa=$(off_children "$TMP/fp.json" sched:sched_switch "$f")
	sb=$(off_children "$TMP/dw.json" sched:sched_switch "$f")
	p=$(awk -v s="$f" '$NF == s && $(NF - 1) == "[.]" { sub(/%/, "", $1); print $1; exit }' "$TMP/perf.txt")
	echo "$f: waited -g $a, dwarf $b; switch-outs -g $sa, dwarf $sb, perf's dwarf ${p:-none}"
	at_least "$a" 10 "$f's share of the time waited, -g"
	near "$a" "$b" 1 "$f's share of the time waited: -g against --call-graph dwarf"
	near "$sa" "$sb" 1 "$f's share of the switch-outs: -g against --call-graph dwarf"
	near "$sa" "${p:-0}" 1 "$f's share of the switch-outs: -g against perf --call-graph dwarf"
done
# nap_part sleeps 20 ms a round, wait_part 10: two to one
near "$(awk -v n="$(off_children "$TMP/fp.json" off-cpu nap_part)" \
	-v w="$(off_children "$TMP/fp.json" off-cpu wait_part)" \
	'BEGIN { print 100 * n / (n + w) }')" 66.7 5 "nap_part : wait_part"

# -o: the switch-outs' recovered chains in the file, which perf report
# reads as ptop -i does
"$PTOP" -b --off-cpu -g -d 600 -o "$TMP/off.data" -- "$WL/fpwait" 10 \
	> /dev/null 2> "$TMP/err" || fail "ptop --off-cpu -g -o: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/off.data" -b --json > "$TMP/off.json" 2> "$TMP/err" ||
	fail "ptop -i of --off-cpu -o's file: $(cat "$TMP/err")"
perf report -i "$TMP/off.data" --stdio --children --no-inline -g none \
	--sort sym --percent-limit 0 > "$TMP/perf.txt" 2> /dev/null ||
	fail "perf report of --off-cpu -o's file failed"
for f in nap_part wait_part; do
	a=$(off_children "$TMP/off.json" sched:sched_switch "$f")
	p=$(awk -v s="$f" "/of event 'sched:sched_switch'/ { on = 1 }"'
		on && $NF == s && $(NF - 1) == "[.]" { sub(/%/, "", $1); print $1; exit }' "$TMP/perf.txt")
	echo "$f in -o's file: ptop -i $a, perf report ${p:-none} of the switch-outs"
	at_least "$a" 10 "$f's share of the switch-outs in -o's file"
	near "$a" "${p:-0}" 0.01 "$f in -o's file: ptop -i against perf report"
done

# --wall with dwarf: the waits and the CPU time of the same chains
"$PTOP" -b --json --wall --call-graph dwarf -d 600 -- "$WL/fpwait" 10 \
	> "$TMP/wall.json" 2> "$TMP/err" ||
	fail "ptop --wall --call-graph dwarf: $(cat "$TMP/err")"
w=$(jq -r 'select(.wall) | [.rows[] | select(.symbol == "nap_part") | .children] | add // 0' \
	"$TMP/wall.json" | tail -n 1)
at_least "$w" 10 "nap_part's share of the wall-clock time, dwarf"
exit 0
