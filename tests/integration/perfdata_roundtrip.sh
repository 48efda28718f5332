#!/bin/sh
# solo: a system-wide file perf report must read without a warning
# Record with ptop -o, open with perf report (no warnings, same top rows as
# ptop showed) and with ptop -i (identical counts and rows); the same in
# pipe mode both ways: ptop -o - | perf report -i -, perf record -o - |
# ptop -i -.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

# a command, to its end: ptop's final table, then the file (-d 300: one
# table, at the end, however long the workload's CPU second takes)
"$PTOP" -b --json -d 300 -e cpu-clock -o "$TMP/o.data" -- "$WL/spin3" 1 \
	> "$TMP/live.json" 2> "$TMP/live.err" || fail "ptop -o: $(cat "$TMP/live.err")"
[ -s "$TMP/o.data" ] || fail "no file written"
jq -e '.finished and .output.dropped == 0 and .output.error == ""' "$TMP/live.json" > /dev/null ||
	fail "live table: $(jq -c '{finished, output}' "$TMP/live.json")"
agree_json "ptop -o -> perf report" "$TMP/live.json" "$TMP/o.data" 0.5
perf_clean "ptop -o -> perf report"
# read back: the same samples and the same rows
"$PTOP" -i "$TMP/o.data" -b --json -E 1000000 > "$TMP/back.json" 2> "$TMP/back.err" ||
	fail "ptop -i: $(cat "$TMP/back.err")"
for k in total_samples period lost; do
	a=$(jq ".$k" "$TMP/live.json")
	b=$(jq ".$k" "$TMP/back.json")
	[ "$a" = "$b" ] || fail "$k: live $a, read back $b"
done
jq -c '[.rows[] | {dso, symbol, samples}] | sort_by(.dso, .symbol)' "$TMP/live.json" > "$TMP/r1"
jq -c '[.rows[] | {dso, symbol, samples}] | sort_by(.dso, .symbol)' "$TMP/back.json" > "$TMP/r2"
cmp -s "$TMP/r1" "$TMP/r2" || fail "rows differ: live $(head -c 300 "$TMP/r1") back $(head -c 300 "$TMP/r2")"
[ -s "$TMP/back.err" ] && fail "ptop -i warned: $(cat "$TMP/back.err")"

# system-wide, with the kernel: perf resolves kernel symbols too
"$WL/spin3" 3 > /dev/null &
BG="$BG $!"
"$PTOP" -b --json -d 1 -n 1 -e cpu-clock -o "$TMP/a.data" > "$TMP/a.json" 2> "$TMP/a.err" ||
	fail "ptop -o system-wide: $(cat "$TMP/a.err")"
perf_rows "$TMP/a.data" > "$TMP/p.rows"
perf_clean "system-wide file"
grep -q '	\[kernel.kallsyms\]	[a-z_]' "$TMP/p.rows" ||
	fail "perf report shows no kernel symbol: $(head -5 "$TMP/p.rows")"
# rows per thread: the machine runs other worktrees' builds of the same
# workloads (BY_PID, perfdata.inc)
BY_PID=1
agree "system-wide file" "$TMP/a.data" 1 -- --show-idle
BY_PID=0

# pipe mode out: ptop -o - | perf report -i -
"$PTOP" -b --json -d 300 -e cpu-clock -o - -- "$WL/spin3" 1 2> "$TMP/pl.json" |
	perf report -i - --stdio --sort dso,sym -g none > "$TMP/perf.txt" 2> "$TMP/perf.err" ||
	fail "ptop -o - | perf report -i - failed: $(head -3 "$TMP/perf.err")"
perf_clean "ptop -o - | perf report -i -"
grep -q '^{' "$TMP/pl.json" || fail "no table on stderr: $(head -3 "$TMP/pl.json")"
grep -Eq '^ +[0-9.]+% +spin3 +\[\.\] spin_a' "$TMP/perf.txt" ||
	fail "perf report of the stream: $(grep % "$TMP/perf.txt" | head -5)"
# the same stream kept in a file: ptop and perf agree on it
"$PTOP" -b -d 300 -e cpu-clock -o - -- "$WL/spin3" 1 > "$TMP/o.pipe" 2> /dev/null ||
	fail "ptop -o - > file"
agree "ptop -o - file" "$TMP/o.pipe" 0.5
perf_clean "ptop -o - file"

# pipe mode in: perf record -o - | ptop -i -, against perf report of it
perf record -q --buildid-mmap -e cpu-clock -c 100000 -o - -- "$WL/spin3" 1 \
	2> "$TMP/rec.err" | tee "$TMP/p.pipe" |
	"$PTOP" -i - -b --json -E 1000000 > "$TMP/in.json" 2> "$TMP/in.err" ||
	fail "perf record --buildid-mmap -o - | ptop -i -: $(cat "$TMP/in.err"); perf: $(cat "$TMP/rec.err")"
[ -s "$TMP/rec.err" ] && fail "perf record --buildid-mmap -o -: $(cat "$TMP/rec.err")"
jq -e 'select(.finished) | .total_samples > 0' "$TMP/in.json" > /dev/null ||
	fail "no final table: $(tail -c 300 "$TMP/in.json")"
grep '"finished":true' "$TMP/in.json" > "$TMP/in.last"
agree_json "perf record --buildid-mmap -o - | ptop -i -" "$TMP/in.last" "$TMP/p.pipe" 0.5
exit 0
