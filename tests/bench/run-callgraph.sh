# Sourced by tests/bench/run.sh: call graphs (issue #6).  CPU time of
# ptop and perf top over the same SECS at 4000 Hz on cgwork (-p), with
# -g (frame pointers) and with --call-graph dwarf (cgwork-nofp: no frame
# pointers, so the chains need the stack copies), both in stdio/batch
# mode refreshing every 2 s; and what ptop's unwinder spends per sample.
# Variables from run.sh: PTOP, WL, RUNSTAT, SECS, tmp, pids; field, ratio.

cg_pair() {	# cg_pair WORKLOAD LABEL PTOP_OPTS PERF_OPTS
	"$WL/$1" 0 & cg_wl=$!
	sleep 0.5
	# -v: the unwinder's statistics at exit (on stderr)
	p=$("$RUNSTAT" -t "$SECS" -- "$PTOP" -b -v -F 4000 -e cpu-clock -d 2 \
		-p "$cg_wl" $3 2> "$tmp/cg_err")
	q=$("$RUNSTAT" -t "$SECS" -- perf top -F 4000 -e cpu-clock --stdio -d 2 \
		-p "$cg_wl" $4 2> /dev/null)
	kill "$cg_wl" 2> /dev/null
	wait "$cg_wl" 2> /dev/null
	pc=$(field "$p" cpu_s); qc=$(field "$q" cpu_s)
	pr=$(field "$p" rss_kb); qr=$(field "$q" rss_kb)
	echo "  $2: CPU ptop $pc s, perf top $qc s -> ptop/perf = $(ratio "$pc" "$qc") (target < 1);" \
	     "peak RSS ptop $pr KiB, perf top $qr KiB"
}

echo "call graphs, 4000 Hz, ${SECS} s, -p of a running cgwork:"
cg_pair cgwork "-g            " "-g" "-g"
cg_pair cgwork-nofp "--call-graph dwarf" "--call-graph dwarf" "--call-graph dwarf"
uw=$(sed -n 's/.*unwind: \([0-9]*\) samples unwound, \([0-9]*\) ns each, \([0-9.]*\) user frames each.*refused (queue full, peak \([0-9]*\) KiB).*/\1 samples, \2 ns each, \3 user frames each, queue peak \4 KiB/p' "$tmp/cg_err")
echo "  ptop's DWARF unwinder (libdw): ${uw:-no statistics: $(head -c 300 "$tmp/cg_err")}"
