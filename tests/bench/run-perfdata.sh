# make bench, perf.data section (sourced by tests/bench/run.sh: PTOP, WL,
# RUNSTAT, tmp, field, ratio and best are set): ptop -i FILE -b against
# perf report --stdio on the same large recording (a few hundred thousand
# samples), without and with call chains, and compressed (perf record
# -z).  Target: ptop at least 3x faster, and less memory.
echo
echo "perf.data: ptop -i FILE -b against perf report --stdio (best of 3):"
for g in "" "-g" "-z"; do
	f="$tmp/big$g.data"
	# 2 threads at (asked) 50 kHz each for 20 s: a few hundred thousand
	# samples (a VM's cpu-clock gives less than asked)
	# shellcheck disable=SC2086
	# --buildid-mmap: a plain perf record aborts beside a live ptop (the
	# kernel leaks the build-id bit into other sessions' MMAP2 records)
	perf record --buildid-mmap -q -e cpu-clock -c 20000 $g -o "$f" -- "$WL/spin3" 20 2 > /dev/null 2>&1 ||
		{ echo "  perf record $g failed"; continue; }
	n=$(perf report -i "$f" --stdio --sort dso 2> /dev/null |
		sed -n "s/^# Samples: \([0-9.]*[KM]*\) .*/\1/p" | head -1)
	for i in 1 2 3; do
		"$RUNSTAT" -t 300 -- "$PTOP" -i "$f" -b
	done > "$tmp/pd_ptop"
	for i in 1 2 3; do
		"$RUNSTAT" -t 300 -- perf report -i "$f" --stdio --sort dso,sym
	done > "$tmp/pd_perf" 2> /dev/null
	pc=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$tmp/pd_ptop" | best)
	pr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/pd_ptop" | best)
	qc=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$tmp/pd_perf" | best)
	qr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/pd_perf" | best)
	case $g in
	"") what="no call chains" ;;
	-z) what="-z (zstd), no call chains" ;;
	*) what=$g ;;
	esac
	echo "  $what ($n samples, $(($(wc -c < "$f") / 1048576)) MiB):"
	echo "    CPU time:  ptop $pc s, perf report $qc s  -> perf/ptop = $(ratio "$qc" "$pc") (target >= 3)"
	echo "    peak RSS:  ptop $pr KiB, perf report $qr KiB  -> ptop/perf = $(ratio "$pr" "$qr") (target < 1)"
	rm -f "$f"
done
