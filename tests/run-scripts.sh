#!/bin/sh
# Runs the integration (tests/integration/*.sh) and end-to-end
# (tests/e2e/*.sh) scripts; each exits non-zero on failure.
# Environment: PTOP (the binary), WL (workloads dir), BUILD.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
failed=""
for t in tests/integration/*.sh tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	case "$t" in */lib.sh) continue ;; esac
	if [ -n "${ONLY:-}" ] && ! echo "$t" | grep -q -- "$ONLY"; then
		continue
	fi
	start=$(date +%s)
	out=$(sh "$t" 2>&1)
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $t (${secs}s)"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		echo "FAIL $t (${secs}s)"
		echo "$out" | sed 's/^/    /' | tail -40
	fi
done
echo "scripts: $pass passed, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
