# Sourced by tests/bench/run.sh: call graphs (issue #6).  CPU time of
# ptop and perf top over the same SECS at 4000 Hz on cgwork (-p), with
# -g (frame pointers) and with --call-graph dwarf (cgwork-nofp: no frame
# pointers, so the chains need the stack copies), both in stdio/batch
# mode refreshing every 2 s; and what ptop's unwinder spends per sample.
# Then --call-graph dwarf system-wide beside 200 new processes a second
# (churn): every process a Dwfl of its own (issue 12).
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

# system-wide dwarf under process churn: each new process is a Dwfl of
# its own, and every chain ends in libc or ld.so
"$WL/churn" 0 200 > /dev/null 2>&1 & cg_ch=$!
sleep 0.5
p=$("$RUNSTAT" -t "$SECS" -- "$PTOP" -b -F 1000 -e cpu-clock -d 2 \
	--call-graph dwarf 2> /dev/null)
q=$("$RUNSTAT" -t "$SECS" -- perf top -F 1000 -e cpu-clock --stdio -d 2 \
	--call-graph dwarf 2> /dev/null)
kill "$cg_ch" 2> /dev/null
wait "$cg_ch" 2> /dev/null
pc=$(field "$p" cpu_s); qc=$(field "$q" cpu_s)
pr=$(field "$p" rss_kb); qr=$(field "$q" rss_kb)
echo "  system-wide --call-graph dwarf, 1000 Hz, beside 200 new processes/s (churn):" \
     "CPU ptop $pc s, perf top $qc s -> ptop/perf = $(ratio "$pc" "$qc") (target < 1);" \
     "peak RSS ptop $pr KiB, perf top $qr KiB"
