# Sourced by tests/bench/run.sh: -g's recovery of the callers frame
# pointers lose (issue 34).
#  1. The copy's size: the share of chains tied to a frame (and of those
#     with callers put back) at 128 ... 2048 bytes, on the leaf workloads
#     (fpwork on CPU, fpwait off CPU), python3 and gcc.
#  2. Its cost at the default size, system-wide at 4000 Hz with both CPUs
#     busy (two fpwork): bytes per sample (an -o --keep-stacks file
#     against an -o without copies, over their samples), ns per sample
#     (the fixer's clock, -v), the share tied, samples lost, and ptop's
#     CPU time with and without the copies (--no-fp-recovery).
#  3. Off CPU (--off-cpu -g, every context switch of the machine with
#     its copy): records lost at the default ring, beside perf's figure
#     for --call-graph dwarf (section 2 of the issue: 8 KiB a switch).
# Variables from run.sh: PTOP, WL, RUNSTAT, SECS, tmp, pids; field, ratio,
# sp_python_script, sp_gcc_script.

# rc_rate OPTS -- CMD...: "tied% with-callers% chains" of one run (-v)
rc_rate() {
	o=$1
	shift 2
	"$PTOP" -b -v -d 600 $o -- "$@" 2>&1 > /dev/null |
		sed -n 's/.*recovery: \([0-9]*\) chains, .* tied \([0-9]*\),.*/\1 \2/p' |
		awk '{ if ($1 > 0) printf "%.1f %d", 100 * $2 / $1, $1; else print "- 0" }'
}

sp_python_script
sp_gcc_script
echo "-g's recovery of callers: the share of user chains tied to a frame (of N), by copy size:"
printf '  %-10s' "bytes"
for sz in 128 256 512 1024 2048; do printf '%16s' "$sz"; done
echo
for w in fpwork fpwait python3 gcc; do
	printf '  %-10s' "$w"
	for sz in 128 256 512 1024 2048; do
		case $w in
		fpwork) r=$(rc_rate "-g --call-graph fp,$sz -e cpu-clock" -- "$WL/fpwork" 3) ;;
		fpwait) r=$(rc_rate "--off-cpu --call-graph fp,$sz -e sched:sched_switch" -- "$WL/fpwait" 40) ;;
		python3) r=$(rc_rate "-g --call-graph fp,$sz -e cpu-clock" -- /usr/bin/python3 "$tmp/py.py") ;;
		gcc) r=$(rc_rate "-g --call-graph fp,$sz -e cpu-clock" -- "$tmp/gcc.sh") ;;
		esac
		set -- $r
		printf '%16s' "${1:-?}% of ${2:-?}"
	done
	echo
done

# rc_time OUT OPTS...: ptop -b OPTS for SECS (one table, JSON into OUT),
# its "cpu_s rss_kb"
rc_time() {
	rc_out=$1
	shift
	/usr/bin/time -f "%U %S %M" -o "$tmp/rc_time" "$PTOP" -b -d "$SECS" -n 1 \
		--json "$@" > "$rc_out" 2> "$tmp/rc_err"
	awk '{ printf "%.2f %d", $1 + $2, $3 }' "$tmp/rc_time"
}

# 2. the default, system-wide, both CPUs busy
"$WL/fpwork" 0 & rc_a=$!
"$WL/fpwork" 0 & rc_b=$!
pids="$pids $rc_a $rc_b"
sleep 0.5
rc_time "$tmp/rc_plain.json" -g --no-fp-recovery -F 4000 -e cpu-clock > "$tmp/rc_q"
rc_time "$tmp/rc.json" -v -g -F 4000 -e cpu-clock > "$tmp/rc_p"
ns=$(sed -n 's/.*recovery: [0-9]* chains, \([0-9]*\) ns each (and \([0-9.]*\) ms.*/\1 ns (and \2 ms waiting for first tables)/p' "$tmp/rc_err")
SECS=3 rc_time /dev/null -g -F 4000 -e cpu-clock --keep-stacks -o "$tmp/rc_kept.data" > /dev/null
SECS=3 rc_time /dev/null -g -F 4000 -e cpu-clock -o "$tmp/rc_out.data" > /dev/null
kill "$rc_a" "$rc_b" 2> /dev/null
wait "$rc_a" "$rc_b" 2> /dev/null
rc_bytes() {	# FILE: bytes per sample
	n=$("$PTOP" -i "$1" -b --json 2> /dev/null | tail -n 1 | jq '.total_samples')
	awk -v s="$(stat -c %s "$1" 2> /dev/null || echo 0)" -v n="${n:-0}" \
		'BEGIN { if (n > 0) printf "%.0f", s / n; else print "?" }'
}
kb=$(rc_bytes "$tmp/rc_kept.data")
ob=$(rc_bytes "$tmp/rc_out.data")
# the same samples read with their copies (recovered on reading, CFI
# read once) and as -o wrote them: the CPU the recovery costs a sample
rc_cpu() {	# FILE: "cpu_s samples" of ptop -i FILE
	/usr/bin/time -f "%U %S" -o "$tmp/rc_t2" "$PTOP" -i "$1" -b -g --json \
		> "$tmp/rc_i.json" 2> /dev/null
	echo "$(awk '{ print $1 + $2 }' "$tmp/rc_t2") $(tail -n 1 "$tmp/rc_i.json" | jq '.total_samples')"
}
best_cpu() {	# FILE: the least CPU of 3 reads, and the samples
	for i in 1 2 3; do rc_cpu "$1"; done | sort -g | head -1
}
set -- $(best_cpu "$tmp/rc_kept.data")
kc=$1 kn=$2
set -- $(best_cpu "$tmp/rc_out.data")
inc=$(awk -v a="$kc" -v b="$1" -v n="$kn" 'BEGIN { if (n > 0) printf "%.0f", (a - b) * 1e9 / n; else print "?" }')
set -- $(tail -n 1 "$tmp/rc.json" | jq -r '"\(.samples) \(.lost) \(.fp_recovery.copies // 0) \(.fp_recovery.tied // 0)"')
jp=$(tail -n 1 "$tmp/rc_plain.json" | jq -r '"samples \(.samples), lost \(.lost)"')
read -r pc pr < "$tmp/rc_p"
read -r qc qr < "$tmp/rc_q"
echo "  the default ($(sed -n 's/.*#define FP_COPY_DEFAULT \([0-9]*\).*/\1/p' src/cli.h) bytes), system-wide, 4000 Hz, ${SECS} s, 2 fpwork (both CPUs), the default ring:"
echo "    bytes per sample: $kb with the copy, $ob written by -o (recovered chains, no copy)"
echo "    ns per sample: ${ns:-?} (the fixer's clock, on the ring reader's thread);" \
	"$inc reading the copies' file against -o's (ptop -i, the same $kn samples, best of 3)"
echo "    tied: $(awk -v c="${3:-0}" -v t="${4:-0}" 'BEGIN { if (c) printf "%.1f%%", 100 * t / c; else print "-" }') of ${3:-?} chains;" \
	"samples ${1:-?}, lost ${2:-?} (without the copies: $jp)"
echo "    CPU: ptop -g $pc s, --no-fp-recovery $qc s -> $(ratio "$pc" "$qc"); peak RSS $pr KiB, $qr KiB"

# 3. off CPU: every switch of the machine copies its stack
"$WL/switchwork" 0 > /dev/null 2>&1 & rc_s=$!
pids="$pids $rc_s"
sleep 0.5
echo "  --off-cpu, system-wide, ${SECS} s beside switchwork (every switch of the machine a sample), the default ring:"
for m in "-g --no-fp-recovery" "-g" "--call-graph dwarf"; do
	set -- $(rc_time "$tmp/rc_off.json" --off-cpu $m)
	echo "    ptop $m: $(jq -r 'select(.event == "sched:sched_switch") | "\(.total_samples) switch-outs read, \(.lost) lost (\(if .total_samples + .lost > 0 then 100 * .lost / (.total_samples + .lost) | floor else 0 end)%)"' "$tmp/rc_off.json" 2> /dev/null | tail -n 1); CPU $1 s, peak RSS $2 KiB"
done
perf record --buildid-mmap -a -e sched:sched_switch --call-graph dwarf -o "$tmp/rc_sw.data" \
	-- sleep "$SECS" > /dev/null 2> "$tmp/rc_perf"
echo "    perf record -e sched:sched_switch --call-graph dwarf -a: $(grep -o 'lost [0-9.]*%' "$tmp/rc_perf" | head -1 || echo 'no loss reported')"
rm -f "$tmp/rc_sw.data"
kill "$rc_s" 2> /dev/null
wait "$rc_s" 2> /dev/null
