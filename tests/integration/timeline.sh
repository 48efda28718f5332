#!/bin/sh
# Time in batch and recordings, on phases (phase_a's work, then
# phase_b's: a switch at a known point of the work done):
# - live, --timeline 0.25: each row's "timeline" adds up to its samples,
#   phase_a's intervals all come before phase_b's (one interval at most
#   holds both: the switch), the split is the work's; the text table's
#   History column (only with --timeline), ASCII where the terminal is
#   not UTF-8, falls for phase_a and rises for phase_b; intervals too
#   fine for 256 cells are merged, and the header says the coarser step;
# - a perf record --buildid-mmap file: --time +0,+A (up to phase_a's last
#   sample) and +B, (from phase_b's first) select one phase each, with
#   exactly perf report --time's counts given the absolute times;
#   percentages work without HEADER_SAMPLE_TIME (the same counts as the
#   relative window they stand for); a window that selects nothing fails
#   with the recording's range; the header gives the range; -i
#   --timeline cells the recording from its first sample, and with call
#   chains each row's "timeline_children" adds up to its Children share.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

# timeline_check FILE: the JSON's phase_a and phase_b rows over time
timeline_check() {
	tail -n 1 "$1" | jq -e '
		(.timeline_samples | length) as $n |
		[.rows[] | select(.dso == "phases" and
				  (.symbol == "phase_a" or .symbol == "phase_b"))] |
		length == 2 and
		all(.[]; (.timeline | length) == $n and (.timeline | add) == .samples)
	' > /dev/null || fail "$1: rows' timelines do not add up: $(tail -n 1 "$1" | head -c 600)"
	tail -n 1 "$1" | jq -r '
		def idx(s): [.rows[] | select(.dso == "phases" and .symbol == s) |
			     .timeline | to_entries[] | select(.value > 0) | .key];
		[(idx("phase_a") | max), (idx("phase_b") | min),
		 ([idx("phase_a")[] as $i | idx("phase_b")[] | select(. == $i)] |
		  length)] | @tsv' > "$TMP/switch"
	read -r last_a first_b both < "$TMP/switch"
	echo "$1: phase_a up to interval $last_a, phase_b from $first_b, both in $both"
	[ "$last_a" -le "$first_b" ] && [ "$both" -le 1 ] ||
		fail "$1: the switch is not within one interval ($last_a, $first_b, $both)"
}

# 1. live: intervals of a quarter of a second
PHASES_TIMES="$TMP/ptimes" "$PTOP" -b --json -d 600 --timeline 0.25 -e cpu-clock \
	-- "$WL/phases" 800 800 \
	> "$TMP/live.json" 2> "$TMP/live.err" || fail "ptop --timeline: $(head -c 400 "$TMP/live.err")"
jq -e '.timeline_interval == 0.25 and .timeline_start == 0' "$TMP/live.json" > /dev/null ||
	fail "live: $(jq -c '{timeline_interval, timeline_start}' "$TMP/live.json")"
timeline_check "$TMP/live.json"
# the split is the CPU time each phase took by phases' own clock: the
# same work takes more of it while another script spins on the sibling
# CPU (62 % for half the work in a CI run here)
read -r ta_ms tb_ms < "$TMP/ptimes" || fail "phases wrote no times"
want_a=$(awk -v a="$ta_ms" -v b="$tb_ms" 'BEGIN { print 100 * a / (a + b) }')
echo "live: phases measured phase_a $ta_ms ms, phase_b $tb_ms ms ($want_a %)"
near "$(share "$TMP/live.json" phase_a)" "$want_a" 8 "phase_a's share of its CPU time"

# the text table: no History column without --timeline; with it, in a
# terminal that is not UTF-8, ASCII sparklines where phase_a falls to
# nothing ('.') and phase_b rises from it
"$PTOP" -b -d 600 -e cpu-clock -E 3 -- "$WL/phases" 200 200 > "$TMP/plain.txt" 2>&1 ||
	fail "ptop -b: $(head -c 400 "$TMP/plain.txt")"
grep -q '^# Overhead  *Samples  *Shared Object  *Symbol' "$TMP/plain.txt" ||
	fail "batch text without --timeline: $(grep '^# Overhead' "$TMP/plain.txt")"
LC_ALL=C "$PTOP" -b -d 600 --timeline 0.25 -e cpu-clock -E 3 -- "$WL/phases" 800 800 \
	> "$TMP/hist.txt" 2>&1 || fail "ptop -b --timeline: $(head -c 400 "$TMP/hist.txt")"
grep -q '^# Overhead  *Samples  *History  *Shared Object  *Symbol' "$TMP/hist.txt" ||
	fail "no History column: $(head -n 6 "$TMP/hist.txt")"
spark() {
	awk -v s="$1" '$NF == s && $(NF - 1) == "[.]" && $(NF - 2) == "phases" { print $3 }' "$TMP/hist.txt"
}
sa=$(spark phase_a)
sb=$(spark phase_b)
echo "History (ASCII): phase_a $sa, phase_b $sb"
echo "$sa$sb" | grep -Eq '^[-_:=+*%#.]+$' || fail "not ASCII sparklines: '$sa' '$sb'"
[ ${#sa} = ${#sb} ] || fail "the histories differ in length: '$sa' '$sb'"
# phase_a's last mark no later than phase_b's first (an interval where
# the machine's load starved the workload may be '.' in either)
awk -v a="$sa" -v b="$sb" 'BEGIN {
	la = 0; for (i = 1; i <= length(a); i++) if (substr(a, i, 1) != ".") la = i
	fb = 0; for (i = length(b); i >= 1; i--) if (substr(b, i, 1) != ".") fb = i
	exit !(la > 0 && fb > 0 && la <= fb && la < length(a) && fb > 1) }' ||
	fail "phase_a's history does not fall before phase_b's rises: '$sa' '$sb'"

# intervals too fine for 256 cells: merged two by two, and the header
# and timeline_interval say the coarser step
"$PTOP" -b -d 600 --timeline 0.002 -e cpu-clock -E 3 -- "$WL/phases" 400 400 \
	> "$TMP/fine.txt" 2>&1 || fail "ptop --timeline 0.002: $(head -c 400 "$TMP/fine.txt")"
grep -Eq '^# timeline: [0-9]+ cells of 0\.0(04|08|16|32|64) s$' "$TMP/fine.txt" ||
	fail "no coarser resolution in the header: $(head -n 4 "$TMP/fine.txt")"
"$PTOP" -b --json -d 600 --timeline 0.002 -e cpu-clock -- "$WL/phases" 400 400 \
	> "$TMP/fine.json" 2> "$TMP/err" || fail "ptop --json --timeline 0.002: $(cat "$TMP/err")"
tail -n 1 "$TMP/fine.json" | jq -e '(.timeline_samples | length) <= 256 and
	.timeline_interval >= 0.004 and
	(.timeline_samples | add) == .samples' \
	> /dev/null || fail "fine JSON: $(tail -n 1 "$TMP/fine.json" | jq -c '{timeline_interval, n: (.timeline_samples | length), t: (.timeline_samples | add), samples, total_samples}')"

# 2. a recording
perf_record "$TMP/p.data" -e cpu-clock -F 1000 -- "$WL/phases" 800 800
# sample times in ns (integers), with their function
perf script -i "$TMP/p.data" -F time,ip,sym --ns 2> /dev/null |
	sed -n 's/^ *\([0-9]*\)\.\([0-9]\{9\}\): *[0-9a-f]* \(.*\)$/\1\2 \3/p' > "$TMP/times"
t0=$(head -n 1 "$TMP/times" | cut -d' ' -f1)
tn=$(tail -n 1 "$TMP/times" | cut -d' ' -f1)
ta=$(awk '$2 == "phase_a" { t = $1 } END { print t }' "$TMP/times")
tb=$(awk '$2 == "phase_b" { print $1; exit }' "$TMP/times")
[ -n "$t0" ] && [ -n "$ta" ] && [ -n "$tb" ] && [ "$ta" -lt "$tb" ] ||
	fail "perf script: no switch from phase_a to phase_b ($t0 $ta $tb)"
# ns to "S.NNNNNNNNN"
secs() { printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }

# ptop_count WINDOW SYMBOL: the samples of SYMBOL under --time WINDOW
ptop_count() {
	"$PTOP" -i "$TMP/p.data" -b --json -E 100000 --time "$1" \
		> "$TMP/w.json" 2> "$TMP/w.err" || fail "--time $1: $(cat "$TMP/w.err")"
	jq -r --arg s "$2" '[.rows[] | select(.symbol == $s) | .samples] | add // 0' "$TMP/w.json"
}
# perf_count START END SYMBOL: the same from perf report --time
perf_count() {
	perf report -i "$TMP/p.data" --stdio -n --sort sym --time "$1,$2" \
		2> /dev/null | awk -v s="$3" '$3 == "[.]" && $4 == s { print $2; f = 1 } END { if (!f) print 0 }'
}
# a window, by ptop's relative form and perf's absolute one
agree_window() {
	for sym in phase_a phase_b; do
		p=$(ptop_count "$1" $sym)
		r=$(perf_count "$2" "$3" $sym)
		echo "--time $1 ($2,$3): $sym ptop $p, perf report $r"
		[ "$p" = "$r" ] || fail "--time $1: $sym $p, perf report --time $2,$3 says $r"
	done
}
agree_window "+0,+$(secs $((ta - t0)))" "$(secs "$t0")" "$(secs "$ta")"
[ "$(ptop_count "+0,+$(secs $((ta - t0)))" phase_b)" = 0 ] || fail "phase_b before the switch"
[ "$(ptop_count "+0,+$(secs $((ta - t0)))" phase_a)" -gt 100 ] || fail "phase_a missing"
agree_window "+$(secs $((tb - t0))),+$(secs $((tn - t0)))" "$(secs "$tb")" "$(secs "$tn")"
[ "$(ptop_count "+$(secs $((tb - t0))),+$(secs $((tn - t0)))" phase_a)" = 0 ] ||
	fail "phase_a after the switch"

# percentages of a file without HEADER_SAMPLE_TIME: the relative window
# they stand for, and phase_a alone up to a point before the switch
pct=$(( (ta - t0) * 100 / (tn - t0) - 1 ))
[ "$pct" -ge 5 ] || fail "the switch is at $pct % of the recording"
rel=$(( (tn - t0) * pct / 100 ))
for sym in phase_a phase_b; do
	a=$(ptop_count "0%-$pct%" $sym)
	b=$(ptop_count "+0,+$(secs "$rel")" $sym)
	echo "--time 0%-$pct%: $sym $a (+0,+$(secs "$rel"): $b)"
	# one ns of rounding apart at most: a sample there is one more
	[ $((a - b)) -le 1 ] && [ $((b - a)) -le 1 ] || fail "0%-$pct%: $sym $a, not $b"
done
[ "$(ptop_count "0%-$pct%" phase_b)" = 0 ] || fail "phase_b in 0%-$pct%"

# nothing selected: an error naming the range
"$PTOP" -i "$TMP/p.data" -b --time +100,+200 > "$TMP/out" 2> "$TMP/err" &&
	fail "an empty window succeeded"
grep -q "selects no sample: the recording's samples are from $(secs "$t0" | cut -c1-8)" "$TMP/err" ||
	fail "the empty window's message: $(cat "$TMP/err")"
# the header gives the range
"$PTOP" -i "$TMP/p.data" -b -E 3 > "$TMP/out" 2> "$TMP/err" || fail "ptop -i: $(cat "$TMP/err")"
grep -q "^# recording: samples from $(secs "$t0" | cut -c1-8)[0-9]* to $(secs "$tn" | cut -c1-8)" "$TMP/out" ||
	fail "no range in the header: $(head -n 4 "$TMP/out")"

# the recording's cells, from its first sample
"$PTOP" -i "$TMP/p.data" -b --json --timeline 0.25 > "$TMP/rec.json" 2> "$TMP/err" ||
	fail "ptop -i --timeline: $(cat "$TMP/err")"
timeline_check "$TMP/rec.json"
# the interval of phase_a's last sample and of phase_b's first, from the
# grid: no interval but the switch's holds both
jq -e --argjson a "$(( (ta - t0) / 250000000 ))" --argjson b "$(( (tb - t0) / 250000000 ))" '
	[.rows[] | select(.symbol == "phase_a") | .timeline[$a + 1:] | add] == [0] and
	[.rows[] | select(.symbol == "phase_b") | .timeline[:$b] | add] == [0]' \
	"$TMP/rec.json" > /dev/null ||
	fail "the recording's cells do not end where its samples say ($((ta - t0)) and $((tb - t0)) ns)"

# with call chains: each row's "timeline_children" is at least its self
# samples in every interval, and adds up to its Children share
perf_record "$TMP/g.data" -g -e cpu-clock -F 1000 -- "$WL/phases" 300 300
"$PTOP" -i "$TMP/g.data" -b --json --timeline 0.25 > "$TMP/g.json" 2> "$TMP/err" ||
	fail "ptop -i --timeline (call chains): $(cat "$TMP/err")"
tail -n 1 "$TMP/g.json" | jq -e '.samples as $tot | (.timeline_samples | length) as $n |
	[.rows[] | select(.samples > 0 or .children > 0)] | length > 2 and all(.[];
		(.timeline_children | length) == $n and
		([.timeline, .timeline_children] | transpose | all(.[1] >= .[0])) and
		(((.timeline_children | add) - .children * $tot / 100) | fabs) < 0.6)' \
	> /dev/null || fail "timeline_children: $(tail -n 1 "$TMP/g.json" |
		jq -c '[.samples, [.rows[:4][] | {symbol, samples, children, timeline, timeline_children}]]')"
exit 0
