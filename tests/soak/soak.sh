#!/bin/sh
# The soak (make soak; not part of make check): the live view for
# SOAK_MINUTES (default 20) in a private tmux on tests/workloads/churn,
# which starts SOAK_RATE (default 200) short processes a second (as many as
# the machine allows), with keys pressed every 2 s.  Each minute: ptop's RSS, fds, threads, CPU and
# the header's lost and dropped counts, into SOAK_OUT (default
# build/soak.txt) and stdout.  Fails when, after the warm-up (half the
# run, 5 minutes at most: the address-level table fills while new code is
# sampled), RSS grows by more than 2 % + 1 MB (main before the fold of
# reaped processes grew 0.2 MB a minute here), fds or threads grow, or
# ptop stops answering q.
# Environment: PTOP, WL (as for the scripts).
. tests/e2e/tmux.inc
MIN=${SOAK_MINUTES:-20}
RATE=${SOAK_RATE:-200}
OUT=${SOAK_OUT:-build/soak.txt}
WARM=$(( MIN / 2 ))
[ $WARM -gt 5 ] && WARM=5
[ $WARM -lt 1 ] && WARM=1
[ "$MIN" -gt "$WARM" ] || { echo "FAIL: SOAK_MINUTES=$MIN leaves no time after the warm-up"; exit 1; }
TCK=$(getconf CLK_TCK)

# ptop follows churn and its children (-- COMMAND): on a shared machine
# the code the neighbours build and run would otherwise be measured too
run "$PTOP" -d 1 -- "$WL/churn" 0 "$RATE"
wait_for '^samples [0-9]+' 20
P=$(ptop_pid)
[ -n "$P" ] || fail "no ptop"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
status() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
header() {
	screen | sed -n "s/.*; $1 \([0-9]*\)[;,].*/\1/p" | head -n 1
}
# the processes started (by anyone) so far: the last pid given out
lastpid() { awk '{ print $5 }' /proc/loadavg; }

KEYS="j j j k > < I I K K End Home z z C-l PgDn j k"

mkdir -p "$(dirname "$OUT")"
{
	echo "# ptop soak: ${MIN} min, churn at ${RATE} processes/s, keys every 2 s; $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs"
	printf '%-4s %9s %5s %7s %6s %8s %8s %9s %9s\n' min rss_kb fds threads cpu% lost dropped samples pids_all
} > "$OUT"
cat "$OUT"

t0=$(cpu_ticks "$P")
pidprev=$(lastpid)
pids=0
pidmax=$(cat /proc/sys/kernel/pid_max)
rss_warm=0 fds_warm=0 thr_warm=0 rss_max_after=0 fds_max_after=0 thr_max_after=0 thr_min_after=100000
m=1
k=0
while [ $m -le "$MIN" ]; do
	end=$(( $(date +%s) + 60 ))
	while [ "$(date +%s)" -lt "$end" ]; do
		kill -0 "$P" 2> /dev/null || fail "ptop died in minute $m"
		set -- $KEYS
		shift $(( k % $# ))
		keys "$1"
		k=$((k + 1))
		sleep 2
	done
	t1=$(cpu_ticks "$P")
	rss=$(status "$P" VmRSS)
	thr=$(status "$P" Threads)
	fds=$(ls "/proc/$P/fd" | wc -l)
	cpu=$(awk -v d=$((t1 - t0)) -v h="$TCK" 'BEGIN { printf "%.1f", 100 * d / h / 60 }')
	t0=$t1
	lost=$(header lost)
	dropped=$(header dropped)
	pidnow=$(lastpid)
	d=$(( pidnow - pidprev ))
	[ $d -lt 0 ] && d=$(( d + pidmax ))
	pids=$(( pids + d ))
	pidprev=$pidnow
	samples=$(screen | sed -n 's/.*, total \([0-9]*\);.*/\1/p' | head -n 1)
	line=$(printf '%-4s %9s %5s %7s %6s %8s %8s %9s %9s' "$m" "$rss" "$fds" "$thr" "$cpu" "${lost:-?}" "${dropped:-?}" "${samples:-?}" "$pids")
	echo "$line" >> "$OUT"
	echo "$line"
	if [ $m -eq "$WARM" ]; then
		rss_warm=$rss fds_warm=$fds thr_warm=$thr
	elif [ $m -gt "$WARM" ]; then
		[ "$rss" -gt $rss_max_after ] && rss_max_after=$rss
		[ "$fds" -gt $fds_max_after ] && fds_max_after=$fds
		[ "$thr" -gt $thr_max_after ] && thr_max_after=$thr
	fi
	m=$((m + 1))
done
quit_clean

limit=$(( rss_warm + rss_warm / 50 + 1024 ))
verdict=ok
[ $rss_max_after -le $limit ] || verdict="RSS grew after the warm-up: $rss_warm -> $rss_max_after kB (limit $limit)"
[ $fds_max_after -le "$fds_warm" ] || verdict="fds grew after the warm-up: $fds_warm -> $fds_max_after"
[ $thr_max_after -le "$thr_warm" ] || verdict="threads grew after the warm-up: $thr_warm -> $thr_max_after"
echo "# after the ${WARM}-minute warm-up: RSS $rss_warm -> max $rss_max_after kB (limit $limit), fds $fds_warm -> max $fds_max_after, threads $thr_warm -> max $thr_max_after: $verdict" | tee -a "$OUT"
[ "$verdict" = ok ] || { echo "FAIL: $verdict"; exit 1; }
echo "ok"
