# make bench, a busy machine's call-graph recording (sourced by
# tests/bench/run.sh: PTOP, WL, RUNSTAT, tmp, field, ratio are set;
# issue 38).  The recording is made once, by
#   tests/bench/busy-record.sh FILE build/workloads
# (perf record -a -g --buildid-mmap, 5 s at 4000 Hz, while a loop of gcc
# compiles, a python3 script and fpwork, a frame-pointer program, run),
# and kept: FILE is $PTOP_BENCH_CACHE/busy-g.data (default
# ${XDG_CACHE_HOME:-~/.cache}/ptop-bench), outside the build folder so
# that make clean keeps it; make bench makes it when it is missing and
# reads it as it is otherwise (delete it for a new one).  What a busy
# machine holds is not the same twice, so figures are comparable across
# benches only on the same file: the section prints its size and sample
# count.
# ptop -i FILE -b against perf report -i FILE --stdio, default (Children)
# and --no-children, ptop without inline expansion (the default of
# frame-pointer chains) and with --inline (perf report 6.1 expands
# inlined functions by default): 7 pairs each, alternating, each pair's
# ratio taken within the pair; the medians.  Target: at most 1/3 of perf
# report's time (0.25 with room), peak RSS at most perf report's.

bz_median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }

# bz_pairs LABEL PERF_OPTS PTOP_OPTS...: 7 alternating pairs
bz_pairs() {
	bz_label=$1
	bz_popt=$2
	shift 2
	for i in 1 2 3 4 5 6 7; do
		# shellcheck disable=SC2086
		p=$("$RUNSTAT" -t 600 -- "$PTOP" -i "$bz_file" -b "$@" 2> /dev/null)
		# shellcheck disable=SC2086
		q=$("$RUNSTAT" -t 600 -- perf report -i "$bz_file" --stdio $bz_popt 2> /dev/null)
		[ "$(field "$p" status)" = 0 ] || { echo "  $bz_label: ptop failed: $p"; return; }
		[ "$(field "$q" status)" = 0 ] || { echo "  $bz_label: perf report failed: $q"; return; }
		pc=$(field "$p" cpu_s); qc=$(field "$q" cpu_s)
		pw=$(field "$p" wall_s); qw=$(field "$q" wall_s)
		pr=$(field "$p" rss_kb); qr=$(field "$q" rss_kb)
		echo "$pc $qc $(ratio "$pc" "$qc") $pw $qw $(ratio "$pw" "$qw") $pr $qr $(ratio "$pr" "$qr")"
	done > "$tmp/bz_pairs"
	col() { cut -d' ' -f"$1" "$tmp/bz_pairs" | bz_median; }
	echo "  $bz_label:"
	echo "    CPU:  ptop $(col 1) s, perf report $(col 2) s  -> ptop/perf = $(col 3) (range $(cut -d' ' -f3 "$tmp/bz_pairs" | sort -g | sed -n '1p;$p' | tr '\n' ' ' | sed 's/ $//; s/ /-/')) (target <= 0.33, 0.25 with room)"
	echo "    wall: ptop $(col 4) s, perf report $(col 5) s  -> ptop/perf = $(col 6)"
	echo "    peak RSS: ptop $(col 7) KiB, perf report $(col 8) KiB  -> ptop/perf = $(col 9) (target <= 1)"
}

bz_dir=${PTOP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptop-bench}
bz_file=$bz_dir/busy-g.data
echo
echo "a busy machine's perf record -a -g (issue 38; medians of 7 alternating pairs):"
if [ ! -s "$bz_file" ]; then
	echo "  making $bz_file (tests/bench/busy-record.sh; kept for later benches)"
	tests/bench/busy-record.sh "$bz_file" "$WL" > /dev/null ||
		{ echo "  busy-record.sh failed"; bz_file=; }
fi
if [ -n "$bz_file" ]; then
	echo "  $bz_file: $(perf report -i "$bz_file" --stdio --sort dso 2> /dev/null | sed -n "s/^# Samples: \([0-9.]*[KM]*\) .*/\1/p" | head -1) samples, $(( $(stat -c %s "$bz_file") >> 20 )) MiB, recorded $(date -u -r "$bz_file" +%Y-%m-%dT%H:%MZ)"
	# one run first: the symbol tables kept, as a user's second run
	"$PTOP" -i "$bz_file" -b > /dev/null 2>&1
	"$PTOP" -i "$bz_file" -b --inline > /dev/null 2>&1
	bz_pairs "Children (the default), ptop without inline expansion" ""
	bz_pairs "Children, ptop --inline" "" --inline
	bz_pairs "--no-children, ptop without inline expansion" "--no-children" --no-children
	bz_pairs "--no-children, ptop --inline" "--no-children" --no-children --inline
fi
