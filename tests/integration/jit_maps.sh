#!/bin/sh
# JIT code named by /tmp/perf-PID.map (tests/workloads/jitwork.c): live,
# jit_spin takes about half of the samples in the "[JIT] tid PID" dso;
# in a perf record file read after the process is gone, ptop names it
# from the map left behind, and agrees with perf report.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

maps=""
jit_cleanup() {
	for m in $maps; do
		case $m in /tmp/perf-[0-9]*.map) rm -f "$m" ;; esac
	done
	cleanup
}
trap jit_cleanup EXIT INT TERM

# live: the workload prints its map's path (in batch mode the command's
# standard output goes to ptop's standard error)
"$PTOP" -b --json -d 30 -e cpu-clock -- "$WL/jitwork" 2 > "$TMP/out" 2> "$TMP/err" || {
	st=$?
	maps=$(grep '^/tmp/perf-' "$TMP/err")
	[ "$st" = 77 ] && skip "jitwork is x86-64 only"
	fail "ptop exited with $st: $(cat "$TMP/err")"
}
maps=$(grep '^/tmp/perf-' "$TMP/err")
pid=$(echo "$maps" | sed -n 's|^/tmp/perf-\([0-9]*\)\.map$|\1|p')
[ -n "$pid" ] || fail "jitwork printed no map path: $(head -c 300 "$TMP/err")"
jq -e . "$TMP/out" > /dev/null || fail "standard output is not JSON alone"
cp "$TMP/out" "$TMP/out.json"
near "$(share "$TMP/out.json" jit_spin)" 50 10 "jit_spin live"
near "$(share "$TMP/out.json" native_spin)" 50 10 "native_spin live"
tail -n 1 "$TMP/out.json" | jq -e --arg d "[JIT] tid $pid" \
	'[.rows[] | select(.symbol == "jit_spin")][0].dso == $d' > /dev/null ||
	fail "jit_spin's dso: $(tail -n 1 "$TMP/out.json" | jq -c '[.rows[0:3][] | [.dso, .symbol]]')"

perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -o "$TMP/jit.data" -- \
	"$WL/jitwork" 1 > "$TMP/rec.out" 2> "$TMP/rec.err" ||
	fail "perf record --buildid-mmap: $(cat "$TMP/rec.err")"
maps="$maps $(grep '^/tmp/perf-' "$TMP/rec.out")"
agree "JIT file" "$TMP/jit.data" 0.5
near "$(share "$TMP/ptop.json" jit_spin)" 50 10 "jit_spin in the file"
exit 0
