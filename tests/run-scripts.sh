#!/bin/bash
# Runs the layering check (tests/layering.sh), the integration
# (tests/integration/*.sh) and end-to-end (tests/e2e/*.sh) scripts.  Exit status 0 passes, 77 skips (the last
# "SKIP: reason" line says why; see tests/common.sh), anything else fails
# and the script's whole output is shown.
#
# Scripts run PTOP_TEST_JOBS at a time (default 2): most wait on ptop,
# perf or tmux more than they compute, and a loaded machine gives two
# runners twice the share of one.  A script whose result depends on
# what else runs (system-wide shares, idle time, latencies, lost
# records) says so with a "# solo: REASON" line and runs alone, after
# the others.  Each result is printed when its script ends.
# Environment: PTOP (the binary), WL (workloads dir), BUILD; ONLY (a
# pattern: the scripts whose path matches); PTOP_TEST_JOBS; PTOP_SUMMARY
# (a file the counts and names are appended to, for tests/summary.sh).
set -u
cd "$(dirname "$0")/.."
jobs=${PTOP_TEST_JOBS:-2}
case "$jobs" in '' | *[!0-9]* | 0) jobs=1 ;; esac
pass=0
fail=0
skipped=0
failed=""
sum=${PTOP_SUMMARY:-/dev/null}
outdir=$(mktemp -d)
trap 'rm -rf "$outdir"' EXIT

# run_one N SCRIPT: runs it, output in $outdir/N.out, "rc secs" in N.rc
run_one() {
	local start rc
	start=$(date +%s)
	sh "$2" > "$outdir/$1.out" 2>&1 < /dev/null
	rc=$?
	echo "$rc $(($(date +%s) - start))" > "$outdir/$1.rc.tmp"
	mv "$outdir/$1.rc.tmp" "$outdir/$1.rc"
}

# report N SCRIPT: its result, counted
report() {
	local n=$1 t=$2 rc secs out=$outdir/$1.out why
	read -r rc secs < "$outdir/$n.rc"
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $t (${secs}s)"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		why=$(sed -n 's/^SKIP: //p' "$out" | tail -n 1)
		echo "SKIP $t (${secs}s): ${why:-no reason given}"
		echo "skip script $t: ${why:-no reason given}" >> "$sum"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		echo "FAIL $t (${secs}s, exit $rc)"
		sed 's/^/    /' "$out"
		why=$(grep -m 1 'FAIL: ' "$out" | sed 's/^.*FAIL: //')
		echo "fail script $t: ${why:-exit $rc}" >> "$sum"
	fi
	rm -f "$outdir/$n.rc" "$out"
}

shared=()
solo=()
for t in tests/layering.sh tests/integration/*.sh tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	case "$t" in */lib.sh) continue ;; esac
	if [ -n "${ONLY:-}" ] && ! echo "$t" | grep -q -- "$ONLY"; then
		continue
	fi
	if grep -q '^# solo: ' "$t"; then
		solo+=("$t")
	else
		shared+=("$t")
	fi
done

# the shared ones, jobs at a time
declare -A running=()
n=0
reap() {	# reports the scripts that ended
	local k
	for k in "${!running[@]}"; do
		if [ -f "$outdir/$k.rc" ]; then
			wait "${running[$k]%% *}" 2> /dev/null
			report "$k" "${running[$k]#* }"
			unset "running[$k]"
		fi
	done
}
for t in "${shared[@]}"; do
	while [ "${#running[@]}" -ge "$jobs" ]; do
		wait -n 2> /dev/null
		reap
	done
	n=$((n + 1))
	run_one "$n" "$t" &
	running[$n]="$! $t"
done
while [ "${#running[@]}" -gt 0 ]; do
	wait -n 2> /dev/null
	reap
done

# then the ones that need the machine to themselves
for t in "${solo[@]}"; do
	n=$((n + 1))
	run_one "$n" "$t"
	report "$n" "$t"
done
echo "scripts: $pass passed, $fail failed, $skipped skipped"
echo "counts $pass $fail $skipped" >> "$sum"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
