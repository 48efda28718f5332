#!/bin/sh
# Every example line of the README's "Quick start" and "Use" blocks, run
# as written: only ./program (a workload), 1234 (its pid), python3 (its
# name), main_loop (its hot function) and the files (in a temporary
# directory) are replaced; the quick start's make lines are what built
# this.  Lines with -b or --list-events run in batch and are checked for
# their output; the others are live views, started in tmux, checked for a
# header and a table (and the workload's function where they profile
# it), quit with q.
. tests/e2e/tmux.inc
need perf

# the first block of a README section, commands without their comments
block() {
	awk -v h="$1" '
		$0 == h { use = 1; next }
		use && /^```/ { if (in_block) exit; in_block = 1; next }
		in_block && /^[^ ]/ { sub(/ +#.*$/, ""); sub(/ +$/, ""); print }
	' README.md
}
block '## Quick start' | grep -v '^make ' | sed 's|^\./ptop|ptop|' > "$TMP/quick"
[ "$(wc -l < "$TMP/quick")" -eq 3 ] || fail "the README's Quick start: $(cat "$TMP/quick")"
block '## Use' > "$TMP/use"
[ "$(wc -l < "$TMP/use")" -ge 15 ] || fail "the README's Use block: $(cat "$TMP/use")"
cat "$TMP/quick" "$TMP/use" > "$TMP/lines"

mkdir -p "$TMP/bin"
ln -s "$PTOP" "$TMP/bin/ptop"
PATH="$TMP/bin:$PATH"
export PATH
bg "$WL/annwork" 600
PID=$LAST_BG
perf record --buildid-mmap -q -N -o "$TMP/perf.data" -- "$WL/annwork" 2 \
	> /dev/null 2> "$TMP/rec.err" || { echo "FAIL: perf record: $(cat "$TMP/rec.err")"; exit 1; }

n=0
while IFS= read -r line; do
	n=$((n + 1))
	cmd=$(printf '%s\n' "$line" | sed \
		-e "s| build/workloads/| $WL/|g" \
		-e "s|\./program args|$WL/annwork 4|g" \
		-e "s|\./program|$WL/annwork 4|g" \
		-e "s|1234|$PID|g" \
		-e "s|python3|annwork|g" \
		-e "s|main_loop|ann_outer|g" \
		-e "s|perf\.data|$TMP/perf.data|g" \
		-e "s|run\.data|$TMP/run.data|g" \
		-e "s|report\.txt|$TMP/report.txt|g" \
		-e "s|flame\.svg|$TMP/flame.svg|g")
	echo "example $n: $line"
	case " $line " in
	*" -b "* | *" --list-events "*)
		timeout 120 sh -c "$cmd" > "$TMP/out" 2> "$TMP/err" < /dev/null ||
			fail "'$line' failed ($?): $(head -c 400 "$TMP/err")"
		[ -s "$TMP/out" ] || fail "'$line' printed nothing: $(head -c 400 "$TMP/err")"
		case "$line" in
		*--list-events*) want='cpu-clock' ;;
		*--json*) want='^\{"time"' ;;
		*) want='ann_outer' ;;
		esac
		grep -Eq "$want" "$TMP/out" ||
			fail "'$line': no /$want/ in: $(head -c 600 "$TMP/out")"
		case "$line" in
		*flame.svg*)
			grep -q 'data-n="ann_outer"' "$TMP/flame.svg" ||
				fail "'$line': flame.svg has no ann_outer frame"
			;;
		esac
		continue
		;;
	esac
	# a PMU event where this machine has no such PMU (most VMs): a clear
	# error, nothing else can be checked here
	pmu=$(printf '%s\n' "$line" | sed -n 's|.* -e \([a-z_0-9]*\)/.*|\1|p')
	if [ -n "$pmu" ] && [ ! -e "/sys/bus/event_source/devices/$pmu" ]; then
		restart
		run "$cmd"
		wait_for "unknown PMU '$pmu'" 30
		wait_for '^PTOP-EXIT=[1-9]' 10
		echo "  (no $pmu PMU on this machine: the error names it)"
		continue
	fi
	restart
	run "$cmd"
	wait_for '^event ' 30
	wait_for '^(Overhead|Children) ' 30
	case "$line" in
	*program* | *1234* | *python3* | *perf.data*) wait_for 'ann_outer' 30 ;;
	*spin3*) wait_for 'spin_a' 30 ;;
	esac
	quit_clean
	case "$line" in
	*run.data*)
		perf report -i "$TMP/run.data" --stdio 2> /dev/null | grep -q 'ann_outer' ||
			fail "'$line': perf report of the file has no ann_outer"
		;;
	*report.txt*)
		grep -q '^# Samples: ' "$TMP/report.txt" ||
			fail "'$line': report.txt: $(head -c 400 "$TMP/report.txt")"
		;;
	esac
done < "$TMP/lines"
echo "$n examples"
exit 0
