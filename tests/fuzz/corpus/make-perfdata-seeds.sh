#!/bin/sh
# Records the seeds of the perf.data fuzz targets (and of the unit tests
# that cut real files at every byte): tiny real recordings from perf
# record and ptop -o, in file mode (corpus/perfdata) and pipe mode
# (corpus/perfpipe).  Run from the repository root after make and make
# workloads; needs perf and perf_event_paranoid <= 1 (or root).
# Each file stays well under 100 KiB: one short command, a long period.
set -eu
W=${WL:-build/workloads}
PTOP=${PTOP:-build/ptop}
d=tests/fuzz/corpus/perfdata
p=tests/fuzz/corpus/perfpipe
mkdir -p "$d" "$p"
rec() { perf record -q --buildid-mmap -c 5000000 "$@" 2>/dev/null; }

rec -e cpu-clock -o "$d/perf-cmd.data" -- "$W/spin3" 0.1
rec -e cpu-clock -g -o "$d/perf-g.data" -- "$W/spin3" 0.1
rec -e cpu-clock,page-faults -o "$d/perf-2ev.data" -- "$W/spin3" 0.1
"$PTOP" -b -n 1 -d 5 -e cpu-clock -c 5000000 -o "$d/ptop.data" -- "$W/spin3" 0.1 > /dev/null 2>&1
rec -e cpu-clock -o - -- "$W/spin3" 0.1 > "$p/perf.pipe"
"$PTOP" -b -n 1 -d 5 -e cpu-clock -c 5000000 -o - -- "$W/spin3" 0.1 > "$p/ptop.pipe" 2> /dev/null
chmod 644 "$d"/* "$p"/*
ls -l "$d" "$p"
