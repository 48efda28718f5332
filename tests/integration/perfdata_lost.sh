#!/bin/sh
# Lost samples counted once: perf record (6.0+) reports a full ring with
# LOST records as it goes, then, when it stops, each counter's own lost
# count (PERF_FORMAT_LOST) as LOST_SAMPLES records: the same losses twice.
# A recording that loses samples (a one-page ring at perf's highest rate,
# two busy threads): ptop's lost is perf report's "Total Lost Samples",
# and the warning says that the recorder lost them.
. tests/integration/lib.sh
. tests/integration/perfdata.inc
command -v perf > /dev/null || fail "perf is not installed"

perf record --buildid-mmap -q -N -F max -m 1 -e cpu-clock -o "$TMP/l.data" \
	-- "$WL/spin3" 1 2 > /dev/null 2> "$TMP/rec.err" ||
	fail "perf record --buildid-mmap: $(head -c 400 "$TMP/rec.err")"
perf report -i "$TMP/l.data" --stdio --sort dso,sym > "$TMP/perf.txt" 2> "$TMP/perf.err" ||
	fail "perf report: $(head -5 "$TMP/perf.err")"
plost=$(sed -n 's/^# Total Lost Samples: \([0-9]*\)$/\1/p' "$TMP/perf.txt" | head -n 1)
[ -n "$plost" ] || fail "perf report says no Total Lost Samples: $(head -8 "$TMP/perf.txt")"
[ "$plost" -gt 0 ] ||
	fail "the recipe lost nothing (perf record --buildid-mmap -F max -m 1 with two busy threads): nothing to test"
"$PTOP" -i "$TMP/l.data" -b --json > "$TMP/l.json" 2> "$TMP/l.err" ||
	fail "ptop -i: $(cat "$TMP/l.err")"
jq -c '{lost, lost_records, lost_samples, total_samples}' "$TMP/l.json" > "$TMP/l.sum"
echo "perf report: Total Lost Samples $plost; ptop: $(cat "$TMP/l.sum")"
jq -e --argjson p "$plost" '.lost == $p and .lost_samples == $p and
	.lost_records > 0 and .lost < .lost_records + .lost_samples' \
	"$TMP/l.json" > /dev/null ||
	fail "ptop's lost is not perf report's $plost, once: $(cat "$TMP/l.sum")"
# perf report's "Processed N samples and lost P%": N = samples + lost.
# perf prints it only for some recordings (others get "Processed N events
# and lost M chunks"); the samples of the file, counted by perf's own
# dump, are checked in every case.
processed=$(sed -n 's/^Processed \([0-9]*\) samples and lost.*/\1/p' "$TMP/perf.err" | head -n 1)
if [ -n "$processed" ]; then
	jq -e --argjson n "$processed" '.total_samples + .lost == $n' "$TMP/l.json" > /dev/null ||
		fail "perf report processed $processed samples; ptop: $(cat "$TMP/l.sum")"
fi
nsamples=$(perf report -D -i "$TMP/l.data" 2> /dev/null | grep -c 'PERF_RECORD_SAMPLE(')
jq -e --argjson n "$nsamples" '.total_samples == $n' "$TMP/l.json" > /dev/null ||
	fail "perf report -D holds $nsamples samples; ptop: $(cat "$TMP/l.sum")"

# text: the figure once, and whose loss it was
"$PTOP" -i "$TMP/l.data" -b -E 3 > "$TMP/l.txt" 2> "$TMP/l.err" ||
	fail "ptop -i (text): $(cat "$TMP/l.err")"
grep -q "^# samples .*; lost $plost;" "$TMP/l.txt" ||
	fail "text header: $(head -3 "$TMP/l.txt")"
grep -q "^# WARNING: $plost samples lost by the recorder" "$TMP/l.txt" ||
	fail "no recorder's warning: $(head -4 "$TMP/l.txt")"
grep -q "ptop was too slow" "$TMP/l.txt" && fail "file mode blames ptop: $(head -4 "$TMP/l.txt")"
exit 0
