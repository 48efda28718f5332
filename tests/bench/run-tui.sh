# Sourced by tests/bench/run.sh: the live views side by side, in tmux.
# ptop and perf top, same workload, same rate, same length: CPU time of
# the profiler (from /proc/PID/stat) and time from start to the first
# screen that shows the workload's hot function.

tui_one() {	# tui_one NAME CMD... ; prints "first_s cpu_s"
	name=$1
	shift
	sock="ptop-bench-$$-$name"
	tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 50 "$*"
	start=$(date +%s.%N)
	first=-1
	pid=""
	while :; do
		now=$(date +%s.%N)
		el=$(awk -v a="$start" -v b="$now" 'BEGIN { print b - a }')
		[ -z "$pid" ] && pid=$(tmux -L "$sock" list-panes -F '#{pane_pid}' 2>/dev/null | head -1)
		if [ "$first" = -1 ] && tmux -L "$sock" capture-pane -p 2>/dev/null | grep -q spin_a; then
			first=$(printf '%.2f' "$el")
		fi
		awk -v e="$el" -v s="$SECS" 'BEGIN { exit !(e >= s) }' && break
		sleep 0.05
	done
	cpu=-1
	if [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; then
		tck=$(getconf CLK_TCK)
		cpu=$(sed 's/.*) //' "/proc/$pid/stat" | awk -v t="$tck" '{ printf "%.2f", ($12 + $13) / t }')
	fi
	tmux -L "$sock" send-keys q 2>/dev/null
	sleep 0.3
	tmux -L "$sock" kill-server 2>/dev/null
	echo "$first $cpu"
}

"$WL/spin3" 0 2 & tui_wl=$!
sleep 0.5
pt=$(tui_one ptop "$PTOP" -F 4000 -e cpu-clock)
pf=$(tui_one perf perf top -F 4000 -e cpu-clock)
kill "$tui_wl" 2>/dev/null
wait "$tui_wl" 2>/dev/null
echo "live view in tmux, 4000 Hz, ${SECS} s, spin3 x2 threads:"
echo "  CPU time:  ptop ${pt#* } s, perf top ${pf#* } s  -> ptop/perf = $(ratio "${pt#* }" "${pf#* }") (target <= 0.5)"
echo "  first screen showing spin_a: ptop ${pt% *} s, perf top ${pf% *} s (target < 0.5 s)"
