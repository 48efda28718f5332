# make bench, start-up and real recordings (sourced by tests/bench/run.sh:
# PTOP, WL, RUNSTAT, tmp, field, ratio and best are set; issue 12).
#  1. ptop -i of a plain recording of a real program (gcc compiling ptop's
#     own sources; python3 doing JSON, regular expressions and a sort;
#     perf record --buildid-mmap) against perf report
#     --stdio: wall and CPU time, peak RSS.  Target: ptop at most 1/3 of
#     perf report's time.
#  2. System-wide start on a busy machine (two spinning threads, a loop
#     of gcc and clang compiles and a python3 script, an ASan program):
#     time to the first table that shows a user
#     symbol ("[.] ") and peak RSS of
#     ptop -b -d 1 against perf top --stdio -d 1, same run.  Target: both
#     below perf top's.
#  3. ptop -i -b -g against perf report --stdio on recordings with call
#     chains: perf record -a -g while a two-thread program spins, and
#     --call-graph dwarf of a program without frame pointers.  Target:
#     at most 1/3 of perf report's time, less memory.
# The figures are with the kallsyms of this boot and the symbol tables
# kept by an earlier run (~/.cache/ptop: the default); 1. also gives the
# runs that read the binaries (--no-symbol-cache) and a first run with
# no cache at all.

sp_ms() {	# sp_ms CMD...: wall milliseconds of one run, output dropped
	s=$(date +%s%N)
	"$@" > /dev/null 2>&1
	e=$(date +%s%N)
	echo $(( (e - s) / 1000000 ))
}

# sp_samples FILE: perf report's sample count of FILE ("7K")
sp_samples() {
	perf report -i "$1" --stdio --sort dso 2> /dev/null |
		sed -n "s/^# Samples: \([0-9.]*[KM]*\) .*/\1/p" | head -1
}

# sp_versus FILE [PTOP ARGS...]: ptop -i FILE -b ARGS against perf report
# --stdio --sort dso,sym, best of 3 each after one run that keeps the
# symbol tables: sets pw qw (wall ms), pc qc (CPU s), pr qr (peak RSS KiB)
sp_versus() {
	vf=$1
	shift
	"$PTOP" -i "$vf" -b "$@" > /dev/null 2>&1
	for i in 1 2 3; do sp_ms "$PTOP" -i "$vf" -b "$@"; done > "$tmp/sp_pw"
	for i in 1 2 3; do sp_ms perf report -i "$vf" --stdio --sort dso,sym; done > "$tmp/sp_qw"
	for i in 1 2 3; do
		"$RUNSTAT" -t 600 -- "$PTOP" -i "$vf" -b "$@"
	done > "$tmp/sp_p" 2> /dev/null
	for i in 1 2 3; do
		"$RUNSTAT" -t 600 -- perf report -i "$vf" --stdio --sort dso,sym
	done > "$tmp/sp_q" 2> /dev/null
	pw=$(best < "$tmp/sp_pw"); qw=$(best < "$tmp/sp_qw")
	pc=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$tmp/sp_p" | best)
	qc=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$tmp/sp_q" | best)
	pr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/sp_p" | best)
	qr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/sp_q" | best)
}

# sp_recording WHAT CMD...: a perf record of CMD read by ptop -i and by
# perf report
sp_recording() {
	what=$1
	shift
	f="$tmp/rec.data"
	perf record --buildid-mmap -q -e cpu-clock -F 4000 -o "$f" -- \
		"$@" > /dev/null 2>&1 ||
		{ echo "  perf record of $what failed"; return; }
	n=$(sp_samples "$f")
	# a first run ever (kallsyms and symbol tables not kept yet), and
	# runs that read the binaries (--no-symbol-cache)
	for i in 1 2 3; do
		rm -rf "$tmp/sp_cache"
		sp_ms env XDG_CACHE_HOME=$tmp/sp_cache "$PTOP" -i "$f" -b
	done > "$tmp/sp_cold"
	rm -rf "$tmp/sp_cache"
	cold=$(best < "$tmp/sp_cold")
	for i in 1 2 3; do sp_ms "$PTOP" -i "$f" -b --no-symbol-cache; done > "$tmp/sp_nosc"
	nosc=$(best < "$tmp/sp_nosc")
	sp_versus "$f"
	echo "  $what ($n samples, perf record --buildid-mmap):"
	echo "    wall:  ptop $pw ms, perf report $qw ms  -> ptop/perf = $(ratio "$pw" "$qw") (target <= 0.33)"
	echo "           reading the binaries (--no-symbol-cache) $nosc ms -> $(ratio "$nosc" "$qw");" \
		"first run, no cache at all $cold ms -> $(ratio "$cold" "$qw")"
	echo "    CPU:   ptop $pc s, perf report $qc s  -> ptop/perf = $(ratio "$pc" "$qc")"
	echo "    RSS:   ptop $pr KiB, perf report $qr KiB  -> ptop/perf = $(ratio "$pr" "$qr")"
	rm -f "$f"
}

# sp_chains WHAT PERF_RECORD_ARGS...: ptop -i -b -g against perf report
# --stdio (Children, as both show by default) on a recording with call
# chains made as users make them: wall, CPU, peak RSS, best of 3
sp_chains() {
	what=$1
	shift
	f="$tmp/chains.data"
	perf record --buildid-mmap -q -e cpu-clock -o "$f" "$@" > /dev/null 2>&1 ||
		{ echo "  $what: perf record failed"; return; }
	n=$(sp_samples "$f")
	sz=$(( $(stat -c %s "$f") >> 20 ))
	sp_versus "$f" -g
	echo "  $what ($n samples, $sz MiB):"
	echo "    wall:  ptop $pw ms, perf report $qw ms  -> ptop/perf = $(ratio "$pw" "$qw") (target <= 0.33)"
	echo "    CPU:   ptop $pc s, perf report $qc s  -> ptop/perf = $(ratio "$pc" "$qc")"
	echo "    RSS:   ptop $pr KiB, perf report $qr KiB  -> ptop/perf = $(ratio "$pr" "$qr") (target < 1)"
	rm -f "$f"
}

sp_start() {
	"$WL/spin3" 0 2 > /dev/null 2>&1 & sp_spin=$!
	sp_gcc_script
	sp_python_script
	# big binaries beside: clang (libLLVM, 110 MB), python3, and an
	# ASan program (terabytes of shadow maps) when they can be had
	sp_what="spin3 x2, gcc in a loop"
	clang=$(command -v clang-14 || command -v clang)
	printf '#include <stdlib.h>\n#include <string.h>\nint main(void) { for (;;) { char *p = malloc(4096); memset(p, 1, 4096); free(p); } }\n' > "$tmp/aspin.c"
	( while :; do
		"$tmp/gcc.sh"
		[ -n "$clang" ] && "$clang" -O2 -c "$PWD/symbols/demangle.c" -o "$tmp/sp_clang.o"
		/usr/bin/python3 "$tmp/py.py"
	done ) > /dev/null 2>&1 & sp_load=$!
	[ -n "$clang" ] && sp_what="$sp_what, clang"
	[ -x /usr/bin/python3 ] && sp_what="$sp_what, python3"
	sp_asan=
	if gcc -O1 -fsanitize=address -o "$tmp/aspin" "$tmp/aspin.c" 2> /dev/null; then
		"$tmp/aspin" & sp_asan=$!
		sp_what="$sp_what, an ASan program"
	fi
	pids="$pids $sp_spin $sp_load $sp_asan"
	sleep 1
	load=$(cut -d' ' -f1 /proc/loadavg)
	for i in 1 2 3; do
		"$RUNSTAT" -t 8 -p '[.] ' -- "$PTOP" -b -F 4000 -d 1
	done > "$tmp/sp_sp"
	for i in 1 2 3; do
		"$RUNSTAT" -t 8 -p '[.] ' -- perf top -F 4000 --stdio -d 1 2> /dev/null
	done > "$tmp/sp_sq"
	# the live views, in tmux, under the same load
	for i in 1 2 3; do
		tui_one "sp-ptop-$i" '[.] ' "$PTOP" -F 4000
	done > "$tmp/sp_tp"
	for i in 1 2 3; do
		tui_one "sp-perf-$i" '[.] ' perf top -F 4000
	done > "$tmp/sp_tq"
	kill "$sp_load" "$sp_spin" $sp_asan 2> /dev/null
	pkill -P "$sp_load" 2> /dev/null
	wait "$sp_load" "$sp_spin" $sp_asan 2> /dev/null
	tf=$(cut -d' ' -f1 "$tmp/sp_tp" | grep -v '^-' | best)
	tq=$(cut -d' ' -f1 "$tmp/sp_tq" | grep -v '^-' | best)
	tr=$(cut -d' ' -f3 "$tmp/sp_tp" | grep -v '^-' | best)
	tqr=$(cut -d' ' -f3 "$tmp/sp_tq" | grep -v '^-' | best)
	pf=$(sed -n 's/.*first_s=\([-0-9.]*\).*/\1/p' "$tmp/sp_sp" | grep -v '^-' | best)
	qf=$(sed -n 's/.*first_s=\([-0-9.]*\).*/\1/p' "$tmp/sp_sq" | grep -v '^-' | best)
	pr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/sp_sp" | best)
	qr=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$tmp/sp_sq" | best)
	pc=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$tmp/sp_sp" | best)
	qc=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$tmp/sp_sq" | best)
	echo "  system-wide start, busy machine (load $load: $sp_what), 8 s:"
	echo "    live view (tmux), first screen with a user symbol: ptop ${tf:-never} s, perf top ${tq:-never} s (best of 3; target: below perf top); peak RSS ptop ${tr:-?} KiB, perf top ${tqr:-?} KiB"
	echo "    batch -d 1 (its first table comes after 1 s by definition; perf top --stdio prints one earlier):"
	echo "    first table:  ptop ${pf:-never} s, perf top ${qf:-never} s (best of 3)"
	echo "    peak RSS:     ptop $pr KiB, perf top $qr KiB  -> ptop/perf = $(ratio "$pr" "$qr") (target < 1)"
	echo "    CPU in 8 s:   ptop $pc s, perf top $qc s"
}

echo
echo "start-up and plain recordings (issue 12):"
if command -v gcc > /dev/null; then
	sp_gcc_script
	sp_recording "gcc compiling 3 files" "$tmp/gcc.sh"
else
	echo "  gcc: skipped (no gcc)"
fi
if [ -x /usr/bin/python3 ]; then
	sp_python_script
	sp_recording "python3: JSON, regular expressions and a sort" \
		/usr/bin/python3 "$tmp/py.py"
else
	echo "  python3: skipped (no /usr/bin/python3)"
fi
# call chains: the whole machine while two threads spin (frame
# pointers), and a program without frame pointers (DWARF)
sp_chains "perf record -a -g, 4000 Hz, 6 s, spin3 x2 threads" \
	-a -g -F 4000 -- "$WL/spin3" 6 2
sp_chains "perf record --call-graph dwarf, 1000 Hz, 4 s of cgwork-nofp" \
	--call-graph dwarf -F 1000 -- "$WL/cgwork-nofp" 4
sp_start
