#!/bin/sh
# busy-record.sh OUT WL: a busy machine's call-graph recording, made once
# and kept for make bench (run-busy.sh): perf record -a -g of the whole
# machine, 5 s at 4000 Hz, while a loop of gcc compiles of ptop's own
# sources, a python3 script (JSON, regular expressions, a sort) and a
# frame-pointer program (fpwork) run.  --buildid-mmap: a plain perf
# record 6.1 aborts while a live ptop runs on this kernel (the build-id
# bit leaks into other sessions' MMAP2 records).  OUT is written under a
# temporary name and renamed into place, so an interrupted run leaves no
# half-written recording.  WL: the built workloads (build/workloads).
# Run from the top of the tree (gcc compiles its files).
set -u
out=$1
wl=$2
[ -x "$wl/fpwork" ] || { echo "busy-record.sh: no $wl/fpwork (make workloads)" >&2; exit 1; }
command -v gcc > /dev/null || { echo "busy-record.sh: no gcc" >&2; exit 1; }
[ -x /usr/bin/python3 ] || { echo "busy-record.sh: no /usr/bin/python3" >&2; exit 1; }
mkdir -p "$(dirname "$out")" || exit 1
br_tmp=$(mktemp -d) || exit 1
br_pids=""
br_cleanup() {
	for p in $br_pids; do
		pkill -P "$p" 2> /dev/null
		kill "$p" 2> /dev/null
	done
	wait 2> /dev/null
	rm -rf "$br_tmp"
}
trap br_cleanup EXIT
trap 'exit 1' INT TERM

cflags="-O2 -D_GNU_SOURCE -I$PWD $(pkg-config --cflags libdw 2> /dev/null)"
( while :; do
	for f in src/perfdata/*.c symbols/demangle.c symbols/symbolizer.c; do
		# shellcheck disable=SC2086 # the flags are words
		gcc $cflags -c "$PWD/$f" -o "$br_tmp/o.o" || exit 1
	done
done ) > /dev/null 2>&1 &
br_pids="$br_pids $!"
( while :; do /usr/bin/python3 tests/bench/pywork.py || exit 1; done ) > /dev/null 2>&1 &
br_pids="$br_pids $!"
"$wl/fpwork" 0 > /dev/null 2>&1 &
br_pids="$br_pids $!"
sleep 1
perf record --buildid-mmap -q -a -g -F 4000 -e cpu-clock \
	-o "$br_tmp/busy.data" -- sleep 5 > /dev/null 2> "$br_tmp/err" || {
	echo "busy-record.sh: perf record failed: $(head -c 300 "$br_tmp/err")" >&2
	exit 1
}
mv "$br_tmp/busy.data" "$out.tmp.$$" && mv "$out.tmp.$$" "$out" || exit 1
echo "busy-record.sh: $out ($(($(stat -c %s "$out") >> 20)) MiB)"
