#!/bin/sh
# make check's closing lines, from the summary files the unit runner
# (tests/main.c) and tests/run-scripts.sh append to: what failed and what
# was skipped (by name, with the reason), then one line
#   N passed, N failed[, N skipped]
# for units and scripts together.  Exits 1 when anything failed or a
# part did not report (it did not build, or it crashed).
# usage: tests/summary.sh FILE...
pass=0 fail=0 skip=0 missing=""
for f in "$@"; do
	if ! grep -q '^counts ' "$f" 2> /dev/null; then
		missing="$missing $f"
		continue
	fi
	c=$(awk '/^counts / { p += $2; f += $3; s += $4 }
		END { print p, f, s }' "$f")
	pass=$((pass + ${c%% *}))
	c=${c#* }
	fail=$((fail + ${c%% *})) skip=$((skip + ${c#* }))
	sed -n 's/^fail /failed: /p; s/^skip /skipped: /p' "$f"
done
for f in $missing; do
	echo "failed: $(basename "$f" | sed 's/^summary\.//') did not run to its end"
	fail=$((fail + 1))
done
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
