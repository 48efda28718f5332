#!/bin/sh
# A stop request is answered within 200 ms of ptop's CPU time whatever it
# computes (issue 13, section 1): on a recording with 40,000 distinct
# chains (manychains), the live view with every tree expanded (E) and the
# batch table with every row's tree (-E 1000) each take about half a
# second of CPU a build; SIGTERM comes in the middle of one.  ptop's CPU
# time after the signal (its total, from the shell's `times`, less what
# /proc/PID/stat said as the signal went) must be at most 200 ms: CPU
# time, not wall time, so that a loaded machine, which delays when ptop
# runs, does not change what is measured.  The -vv log says that the
# build was cut short (the situation was made).  q is checked the same
# way, its CPU counted from when tmux is asked to send it (the wall time
# it took is shown; a loaded machine stretches it).  Last, the view of
# the ended recording must idle once its trees are drawn.
. tests/e2e/tmux.inc
. tests/slowload.inc
need perf
CPU_MS=200
TCK=$(getconf CLK_TCK)

# ticks PID: the process's user + system time, in clock ticks
ticks() {
	sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | awk '{ print $12 + $13 }'
}

# children_ms FILE: the children's user + system time in `times` output
children_ms() {
	sed -n 2p "$1" | awk '{
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub(/s$/, "", p[2])
			t += p[1] * 60 + p[2]
		}
		printf "%d\n", t * 1000 + 0.5 }'
}

# busy PID SINCE: waits until PID has used 50 ms of CPU more than SINCE
# (ticks), and is still using it
busy() {
	b_end=$(( $(date +%s) + 60 ))
	while [ "$(date +%s)" -le "$b_end" ]; do
		b_now=$(ticks "$1")
		[ -n "$b_now" ] || fail "ptop ended before the stop"
		[ $(( (b_now - $2) * 1000 / TCK )) -ge 50 ] && return 0
		sleep 0.01
	done
	fail "ptop used no CPU for 60 s after the build began"
}

# after_stop WHAT BEFORE TIMES: the CPU after the signal, within CPU_MS
after_stop() {
	[ -s "$3" ] || fail "$1: no times (did the shell run to the end?)"
	as_total=$(children_ms "$3")
	as_after=$(( as_total - $2 * 1000 / TCK ))
	echo "$1: CPU after the stop request: $as_after ms (total $as_total ms)"
	# one tick of /proc's resolution beyond the 200 ms
	[ "$as_after" -le $(( CPU_MS + 1000 / TCK )) ] ||
		fail "$1: $as_after ms of CPU after the stop request (at most $CPU_MS)"
}

perf record --buildid-mmap -q -g -e cpu-clock -F 8000 -o "$TMP/mc.data" -- \
	"$WL/manychains" 5 > /dev/null 2> "$TMP/rec.err" ||
	fail "perf record --buildid-mmap of manychains: $(cat "$TMP/rec.err")"

# batch: every row's tree
cat > "$TMP/batch.sh" << EOF
"$PTOP" -i "$TMP/mc.data" -b -g --inline -E 1000 -vv > "$TMP/b.out" 2> "$TMP/b.err"
echo \$? > "$TMP/b.rc"
times > "$TMP/b.times"
EOF
sh "$TMP/batch.sh" &
sh_pid=$!
child() { pgrep -P "$1" -x ptop > /dev/null; }
wait_until 30 "batch ptop to start" child $sh_pid
pid=$(pgrep -P $sh_pid -x ptop)
# the trees' inlined frames need the workload's DWARF: its load is logged
# as the trees begin
in_trees() { grep -q 'manychains: reading DWARF' "$TMP/b.err"; }
wait_until 60 "the batch's trees to begin" in_trees
busy "$pid" "$(ticks "$pid")"
before=$(ticks "$pid")
kill -TERM "$pid"
wait $sh_pid
[ "$(cat "$TMP/b.rc")" = 0 ] || fail "batch: exit status $(cat "$TMP/b.rc"): $(tail -3 "$TMP/b.err")"
grep -q 'batch: stopped during a table' "$TMP/b.err" ||
	fail "batch: the signal did not come during a table (the situation was not made): $(tail -3 "$TMP/b.err")"
[ -s "$TMP/b.out" ] && fail "batch: a table cut short was printed"
after_stop batch "$before" "$TMP/b.times"

# live, SIGTERM: E draws the trees on screen, about 0.4 s of CPU (an
# ended recording's view is not built again until something changes, so
# this first build is where the signal must come)
cat > "$TMP/live.sh" << EOF
"$PTOP" -i "$TMP/mc.data" -g --inline -vv 2> "$TMP/l.err"
rc=\$?
times > "$TMP/l.times"
exit \$rc
EOF
# live_e: a new live view (after restart) of the recording, E pressed;
# its pid in $pid, its CPU before E in $e0
live_e() {
	rm -f "$TMP/l.err" "$TMP/l.times"
	run sh "$TMP/live.sh"
	wait_for '^Children +Self' 30
	pid=$(pgrep -f "^$PTOP -i $TMP/mc.data -g --inline" | head -n 1)
	[ -n "$pid" ] || fail "no ptop process"
	e0=$(ticks "$pid")
	keys E
}
live_e
busy "$pid" "$e0"
before=$(ticks "$pid")
kill -TERM "$pid"
wait_for '^TTY-' 30
screen | grep -q '^PTOP-EXIT=0$' || fail "live: exit status after SIGTERM not 0"
screen | grep -q '^TTY-icanon$' || fail "live: terminal not restored after SIGTERM"
grep -q 'build: cut short' "$TMP/l.err" ||
	fail "live: no build was cut short (the signal came between two builds): $(tail -3 "$TMP/l.err")"
after_stop "live, SIGTERM" "$before" "$TMP/l.times"

# live, q: within the same CPU time from when q is in ptop's terminal.
# ptop is stopped (SIGSTOP) while tmux is asked to send q and a second
# command's answer shows that tmux has handled the first, then continued:
# a loaded machine that delays tmux no longer lends ptop's build that
# delay's CPU (one CI run at load 18 counted 300 ms so, for q sent in
# the middle of a build).  The wall time is shown, and bounded only
# against a hang (a loaded machine under ASan took 1.5 s of wall time,
# 40 ms of ptop's CPU)
restart
live_e
busy "$pid" "$e0"
kill -STOP "$pid"
stopped() { sed 's/.*) //' "/proc/$pid/stat" | awk '{ exit !($1 == "T") }'; }
wait_until 30 "ptop to stop (SIGSTOP)" stopped
before=$(ticks "$pid")
keys q
T display-message -p -t main '' > /dev/null
t0=$(ms)
kill -CONT "$pid"
took=$(gone_ms "$pid" "$t0")
echo "live, q: answered in $took ms (wall)"
wait_for '^TTY-' 30
screen | grep -q '^PTOP-EXIT=0$' || fail "live: exit status after q not 0"
grep -q 'build: cut short' "$TMP/l.err" ||
	fail "live, q: no build was cut short (q came between two builds): $(tail -3 "$TMP/l.err")"
after_stop "live, q" "$before" "$TMP/l.times"
[ "$took" -le 10000 ] || fail "live: q took $took ms of wall time"

# an ended recording's view, its trees drawn, idles as perf report's
# does: 3 s with nothing to do cost at most 50 ms of CPU (it was 0.15 s a
# refresh, building the same table again: every 3 s then cost 450 ms).
# Work that comes late once (a key tmux delivered late on a loaded
# machine, a build that waited for a CPU or a disk) is not idling: the
# view must reach a 3 s window that costs at most 50 ms within 60 s, and
# the windows before it are shown.  A view that rebuilds on every
# refresh never does.
restart
live_e
# built: the CPU time stops moving for half a second, and no thread of
# it waits for a CPU (on a loaded machine a thread that is runnable but
# not run uses no CPU time either)
runnable() {
	for rn_t in /proc/"$1"/task/*/stat; do
		sed 's/.*) //' "$rn_t" 2> /dev/null | awk '{ exit !($1 == "R" || $1 == "D") }' &&
			return 0
	done
	return 1
}
still() {
	st_a=$(ticks "$pid")
	sleep 0.5
	[ "$(ticks "$pid")" = "$st_a" ] && ! runnable "$pid"
}
wait_until 60 "the build after E to end" still
# threads PID: each thread's name and CPU ticks, one line
threads() {
	for th in /proc/"$1"/task/*; do
		printf '%s=%s ' "$(cat "$th/comm" 2> /dev/null)" \
			"$(sed 's/.*) //' "$th/stat" 2> /dev/null | awk '{ print $12 + $13 }')"
	done
}
idle_end=$(( $(date +%s) + 60 ))
while :; do
	i0=$(ticks "$pid")
	th0=$(threads "$pid")
	sleep 3
	i1=$(ticks "$pid")
	[ -n "$i1" ] || fail "ptop ended while idle"
	idle_ms=$(( (i1 - i0) * 1000 / TCK ))
	echo "idle: $idle_ms ms of CPU in 3 s"
	[ "$idle_ms" -le 50 ] && break
	echo "    threads' ticks before: $th0; after: $(threads "$pid")"
	[ "$(date +%s)" -le "$idle_end" ] ||
		fail "the ended recording's view used more than 50 ms of CPU in every 3 s for 60 s with nothing to do"
done
keys q
wait_for '^TTY-' 30
echo "ok"
