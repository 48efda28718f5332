# Sourced by tests/bench/run.sh: the live views side by side, in tmux
# (tui_one, run.sh).  ptop and perf top, same workload, same rate, same
# length: CPU time of the profiler (from /proc/PID/stat) and time from
# start to the first screen that shows the workload's hot function.

"$WL/spin3" 0 2 & tui_wl=$!
sleep 0.5
pt=$(tui_one ptop spin_a "$PTOP" -F 4000 -e cpu-clock)
pf=$(tui_one perf spin_a perf top -F 4000 -e cpu-clock)
kill "$tui_wl" 2>/dev/null
wait "$tui_wl" 2>/dev/null
echo "live view in tmux, 4000 Hz, ${SECS} s, spin3 x2 threads:"
pc=$(echo "$pt" | cut -d' ' -f2); qc=$(echo "$pf" | cut -d' ' -f2)
echo "  CPU time:  ptop $pc s, perf top $qc s  -> ptop/perf = $(ratio "$pc" "$qc") (target <= 0.5)"
echo "  first screen showing spin_a: ptop ${pt%% *} s, perf top ${pf%% *} s (target < 0.5 s)"
