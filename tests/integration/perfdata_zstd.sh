#!/bin/sh
# ptop -i on files perf record -z wrote (records in zstd COMPRESSED
# records): the top rows agree with perf report, with frame-pointer
# chains, with DWARF stacks (large records, split between compressed
# records), and in pipe mode.
. tests/integration/lib.sh
. tests/integration/perfdata.inc
. tests/integration/callgraph.inc

rec_z() {
	f=$1
	shift
	perf_record "$f" -z "$@"
}
compressed() {
	jq -e '.input.compressed > 0 and .input.bad == 0 and .input.truncated == false and
		.input.damaged == false' "$TMP/ptop.json" > /dev/null ||
		fail "$1: input counters: $(jq -c .input "$TMP/ptop.json" | head -n 1)"
}

# frame-pointer chains
rec_z "$TMP/g.data" -e cpu-clock -F 4000 -g -- "$WL/cgwork" 1
agree "-z -g" "$TMP/g.data" 0.5 --no-children -- --no-children
compressed "-z -g"
"$PTOP" -i "$TMP/g.data" -b --json --max-stack 64 > "$TMP/cg.json" 2> "$TMP/err" ||
	fail "ptop -i -z -g: $(cat "$TMP/err")"
check_cgwork "$TMP/cg.json" cgwork libwlcg.so

# DWARF stacks: 8 KiB per sample, so a ring's worth of records
# decompresses to more than one compressed record holds
rec_z "$TMP/d.data" -e cpu-clock -F 2000 --call-graph dwarf -- "$WL/cgwork-nofp" 1
agree "-z --call-graph dwarf" "$TMP/d.data" 0.5 --no-children -- --no-children --max-stack 64
compressed "-z --call-graph dwarf"
n=$(jq .input.compressed "$TMP/ptop.json" | head -n 1)
[ "$n" -gt 1 ] || fail "-z --call-graph dwarf: only $n compressed record(s)"
jq -e '.unwind_failed == 0' "$TMP/ptop.json" > /dev/null || fail "-z dwarf: samples not unwound"
"$PTOP" -i "$TMP/d.data" -b --json --max-stack 64 > "$TMP/dw.json" 2> "$TMP/err" ||
	fail "ptop -i -z dwarf: $(cat "$TMP/err")"
check_cgwork "$TMP/dw.json" cgwork-nofp libwlcg-nofp.so

# pipe mode: perf record --buildid-mmap -z -o - | ptop -i -
perf record -q -N --buildid-mmap -z -e cpu-clock -F 4000 -o - -- "$WL/spin3" 1 2> "$TMP/rec.err" \
	> "$TMP/z.pipe" || fail "perf record --buildid-mmap -z -o -: $(cat "$TMP/rec.err")"
"$PTOP" -i - -b --json < "$TMP/z.pipe" > "$TMP/pipe.json" 2> "$TMP/err" ||
	fail "ptop -i - failed: $(cat "$TMP/err")"
tail -n 1 "$TMP/pipe.json" | jq -e '.input.compressed > 0 and .input.bad == 0' > /dev/null ||
	fail "pipe: $(tail -n 1 "$TMP/pipe.json" | jq -c .input)"
work_near "$(share "$TMP/pipe.json" spin_a)" 60 "$(user_samples "$TMP/pipe.json")" \
	"spin_a in the -z pipe ($(tail -n 1 "$TMP/pipe.json" |
		jq -c '{samples, lost, input, rows: [.rows[0:4][] | [.dso, .symbol, .overhead]]}'); $(head -c 300 "$TMP/err"))"
agree "-z pipe" "$TMP/z.pipe" 0.5

# a damaged compressed record: a warning, the rest is read, exit 0
cp "$TMP/g.data" "$TMP/bad.data"
# the first COMPRESSED record (type 81), walking the data section
rd() { od -An -t "u$2" -j "$1" -N "$2" "$TMP/g.data" | tr -d ' '; }
off=$(rd 40 8)
end=$((off + $(rd 48 8)))
while [ "$off" -lt "$end" ] && [ "$(rd "$off" 4)" != 81 ]; do
	size=$(rd $((off + 6)) 2)
	[ "$size" -ge 8 ] || fail "bad record size $size at $off"
	off=$((off + size))
done
[ "$off" -lt "$end" ] || fail "no COMPRESSED record in the -z file"
printf 'garbage!garbage!garbage!' | dd of="$TMP/bad.data" bs=1 seek=$((off + 16)) conv=notrunc 2> /dev/null
"$PTOP" -i "$TMP/bad.data" -b --json > "$TMP/bad.json" 2> "$TMP/err" ||
	fail "ptop -i on a damaged -z file exited with $?: $(cat "$TMP/err")"
grep -q "compressed data .*what it held is skipped" "$TMP/err" || fail "no warning: $(cat "$TMP/err")"
tail -n 1 "$TMP/bad.json" | jq -e '.input.bad > 0' > /dev/null || fail "damage not counted"
exit 0
