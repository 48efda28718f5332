#!/bin/sh
# Damage the records do not show (issue 13, section 3), on real
# recordings: each gives a warning naming it, the header's note and the
# JSON input object say it, and the rest is read.  A sound input says
# nothing.
. tests/integration/lib.sh
. tests/integration/perfdata.inc
need perf

perf_record "$TMP/f.data" --buildid-mmap -e cpu-clock -c 200000 -- "$WL/spin3" 1
perf record -q -N --buildid-mmap -e cpu-clock -c 200000 -o - -- "$WL/spin3" 1 \
	> "$TMP/p.data" 2> "$TMP/rec.err" || fail "perf record --buildid-mmap -o -: $(cat "$TMP/rec.err")"

# check NAME FILE JQ-TEST WARNING-ERE [ptop input args]: ptop -b --json
# reads it (exit 0, samples), the input object passes JQ-TEST, stderr
# matches WARNING-ERE; the text header's note says the damage too
check() {
	name=$1 f=$2 test=$3 warn=$4
	shift 4
	in=${1:-$f}
	if [ "$in" = - ]; then
		"$PTOP" -i - -b --json < "$f" > "$TMP/o" 2> "$TMP/e"
	else
		"$PTOP" -i "$f" -b --json > "$TMP/o" 2> "$TMP/e"
	fi || fail "$name: ptop failed: $(cat "$TMP/e")"
	jq -e '.total_samples > 0' "$TMP/o" > /dev/null || fail "$name: no samples"
	jq -e ".input | $test" "$TMP/o" > /dev/null ||
		fail "$name: the JSON input object fails '$test': $(jq -c .input "$TMP/o")"
	grep -Eq -- "$warn" "$TMP/e" || fail "$name: no warning /$warn/: $(cat "$TMP/e")"
	damage=$(jq -r '.input.damage' "$TMP/o")
	[ -n "$damage" ] || fail "$name: the JSON damage is empty"
	if [ "$in" = - ]; then
		"$PTOP" -i - -b < "$f" > "$TMP/t" 2> /dev/null
	else
		"$PTOP" -i "$f" -b > "$TMP/t" 2> /dev/null
	fi
	grep -q "^# .*$damage" "$TMP/t" ||
		fail "$name: the text header does not say '$damage': $(head -4 "$TMP/t")"
}

# sound inputs: nothing said
for f in "$TMP/f.data" "$TMP/p.data"; do
	"$PTOP" -i "$f" -b --json > "$TMP/o" 2> "$TMP/e" || fail "$f: $(cat "$TMP/e")"
	[ -s "$TMP/e" ] && fail "$f: warnings on a sound file: $(cat "$TMP/e")"
	jq -e '.input | .truncated == false and .damage == "" and .features_damaged == 0 and .unfinished == false and .bad_header_size == null' \
		"$TMP/o" > /dev/null || fail "$f: damage on a sound file: $(jq -c .input "$TMP/o")"
done

# a file missing its last byte
head -c -1 "$TMP/f.data" > "$TMP/cut1.data"
check "last byte" "$TMP/cut1.data" '.truncated and .features_damaged >= 1' \
	'runs past the end of the file.*truncated'

# every feature section in turn one byte past the end (those ptop does
# not use included): python-free, with od and dd on the header's table
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
put64() {
	v=$3
	bytes=""
	for k in 1 2 3 4 5 6 7 8; do
		bytes="$bytes\\$(printf '%03o' $((v & 255)))"
		v=$((v >> 8))
	done
	printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
size=$(wc -c < "$TMP/f.data")
table=$(( $(u64 "$TMP/f.data" 40) + $(u64 "$TMP/f.data" 48) ))
flags=$(u64 "$TMP/f.data" 72)
nfeat=0
bit=0
while [ $bit -lt 64 ]; do
	[ $(( (flags >> bit) & 1 )) -eq 1 ] && nfeat=$((nfeat + 1))
	bit=$((bit + 1))
done
[ $nfeat -ge 5 ] || fail "perf wrote $nfeat features"
i=0
while [ $i -lt $nfeat ]; do
	cp "$TMP/f.data" "$TMP/feat.data"
	off=$(u64 "$TMP/f.data" $((table + 16 * i)))
	put64 "$TMP/feat.data" $((table + 16 * i + 8)) $((size - off + 1))
	check "feature $i" "$TMP/feat.data" '.truncated and .features_damaged == 1' \
		'feature [a-z_]+ .*runs past the end'
	i=$((i + 1))
done

# a header size above 104 (perf: "incompatible file format")
cp "$TMP/f.data" "$TMP/h.data"
put64 "$TMP/h.data" 8 112
check "header size" "$TMP/h.data" '.bad_header_size == 112' 'header size 112'

# sample_type 0 in the attr (byte 24 of the first attr)
cp "$TMP/f.data" "$TMP/st.data"
put64 "$TMP/st.data" $(( $(u64 "$TMP/f.data" 24) + 24 )) 0
check "sample_type 0" "$TMP/st.data" '.no_ip_events == 1' 'has no IP'

# a stream cut exactly at a record boundary before its end: perf's
# stream ends with FINISHED_ROUND (8 bytes); without it, the records of
# the last pass follow the round before
psize=$(wc -c < "$TMP/p.data")
[ "$(od -An -t u4 -j $((psize - 8)) -N 8 "$TMP/p.data" | tr -s ' ')" = " 68 524288" ] ||
	fail "perf's stream does not end with FINISHED_ROUND"
head -c $((psize - 8)) "$TMP/p.data" > "$TMP/pcut.data"
check "stream cut at a record" "$TMP/pcut.data" '.unfinished and .truncated' \
	'after its last FINISHED_ROUND' -
# the same bytes as a file in pipe format
check "pipe file cut at a record" "$TMP/pcut.data" '.unfinished' \
	'after its last FINISHED_ROUND'
echo ok
