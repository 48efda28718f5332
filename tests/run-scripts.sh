#!/bin/sh
# Runs the layering check (tests/layering.sh), the integration
# (tests/integration/*.sh) and end-to-end (tests/e2e/*.sh) scripts.  Exit status 0 passes, 77 skips (the last
# "SKIP: reason" line says why; see tests/common.sh), anything else fails
# and the script's whole output is shown.
# Environment: PTOP (the binary), WL (workloads dir), BUILD; ONLY (a
# pattern: the scripts whose path matches); PTOP_SUMMARY (a file the
# counts and names are appended to, for tests/summary.sh).
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
skipped=0
failed=""
sum=${PTOP_SUMMARY:-/dev/null}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in tests/layering.sh tests/integration/*.sh tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	case "$t" in */lib.sh) continue ;; esac
	if [ -n "${ONLY:-}" ] && ! echo "$t" | grep -q -- "$ONLY"; then
		continue
	fi
	start=$(date +%s)
	sh "$t" > "$out" 2>&1 < /dev/null
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $t (${secs}s)"
	elif [ $rc -eq 77 ]; then
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
done
echo "scripts: $pass passed, $fail failed, $skipped skipped"
echo "counts $pass $fail $skipped" >> "$sum"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
