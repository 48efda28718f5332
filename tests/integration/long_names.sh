#!/bin/sh
# A 100,000-character symbol from a perf map (a JIT can write one) is cut
# at SANITIZE_MAX (4096) bytes with the cut mark "…[cut: N bytes]" in
# every output: batch text, JSON and the live view (issue 13, section 4).
. tests/integration/lib.sh
. tests/integration/perfdata.inc
need perf

maps=""
ln_cleanup() {
	for m in $maps; do
		case $m in /tmp/perf-[0-9]*.map) rm -f "$m" ;; esac
	done
	cleanup
}
trap ln_cleanup EXIT INT TERM

perf record -q -N --buildid-mmap -e cpu-clock -F 2000 -o "$TMP/jit.data" -- "$WL/jitwork" 1 \
	> "$TMP/rec.out" 2> "$TMP/rec.err" || {
	[ $? = 77 ] && skip "jitwork is x86-64 only"
	fail "recording failed: $(cat "$TMP/rec.err")"
}
map=$(grep '^/tmp/perf-' "$TMP/rec.out")
maps=$map
[ -f "$map" ] || fail "jitwork left no map"
# jit_spin's name becomes 100,000 characters
long=$(awk 'BEGIN { s = "jit_"; while (length(s) < 100000) s = s "x"; print substr(s, 1, 100000) }')
awk -v n="$long" '$3 == "jit_spin" { $3 = n } { print }' "$map" > "$TMP/map" &&
	cat "$TMP/map" > "$map" || fail "cannot rewrite $map"

# text
"$PTOP" -i "$TMP/jit.data" -b > "$TMP/t" 2> "$TMP/e" || fail "ptop -b: $(cat "$TMP/e")"
grep -q 'jit_xxxx.*…\[cut: 100000 bytes\]' "$TMP/t" ||
	fail "text: no cut mark: $(cut -c 1-200 "$TMP/t" | head)"
maxlen=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/t")
[ "$maxlen" -lt 4300 ] || fail "text: a line of $maxlen characters"

# JSON: the symbol keeps the cut mark, its whole length in it
"$PTOP" -i "$TMP/jit.data" -b --json > "$TMP/j" 2> "$TMP/e" || fail "ptop --json: $(cat "$TMP/e")"
jq -e '[.rows[] | select(.symbol | startswith("jit_xxx"))][0].symbol |
	(endswith("…[cut: 100000 bytes]") and length < 4200)' "$TMP/j" > /dev/null ||
	fail "JSON: $(jq -c '[.rows[] | .symbol | .[0:40] + "..." + .[-30:]]' "$TMP/j")"
bytes=$(wc -c < "$TMP/j")
[ "$bytes" -lt 60000 ] || fail "JSON: $bytes bytes"

# the live view: the row fits the terminal (tmux.inc has a TMP and a
# cleanup of its own)
OLD=$TMP
. tests/e2e/tmux.inc
mv "$OLD/jit.data" "$TMP/jit.data"
rm -rf "$OLD"
trap 'rm -f "$maps"; cleanup' EXIT INT TERM
run "$PTOP" -i "$TMP/jit.data"
wait_for 'jit_xxxx' 10
[ "$(screen | wc -L)" -le 120 ] || fail "a screen line is wider than 120"
quit_clean
echo "ok"
