#!/bin/sh
# Bad input: a clear message and a non-zero exit, nothing half-done.
. tests/integration/lib.sh

expect_fail() {	# expect_fail PATTERN CMD...
	pat=$1
	shift
	"$@" > "$TMP/o" 2> "$TMP/e" && fail "'$*' succeeded"
	grep -qi -- "$pat" "$TMP/e" || fail "'$*': no '$pat' in: $(cat "$TMP/e")"
}

expect_fail "unknown event 'bogus-event'" "$PTOP" -b -e bogus-event
expect_fail "list-events" "$PTOP" -b -e bogus-event
expect_fail "unknown option" "$PTOP" -b --frobnicate
expect_fail "needs an argument" "$PTOP" -b -e
expect_fail "bad frequency" "$PTOP" -b -F 0
expect_fail "power of two" "$PTOP" -b -m 3
expect_fail "bad CPU list" "$PTOP" -b -C 1-0
expect_fail "unknown sort key" "$PTOP" -b -s dso,nope
expect_fail "no such process" "$PTOP" -b -n 1 -p 999999999
expect_fail "cannot run" "$PTOP" -b -n 1 -- /nonexistent/program
expect_fail "needs a terminal" "$PTOP" < /dev/null
expect_fail "not supported" "$PTOP" -b -n 1 -e instructions
# an unknown tracepoint
expect_fail "tracepoint" "$PTOP" -b -n 1 -e nosuch:tracepoint
expect_fail "annotate needs -b" "$PTOP" --annotate main
expect_fail "bad disassembler style" "$PTOP" -b -M arm

# perf.data options
expect_fail "needs -i" "$PTOP" -b --time 1,2
expect_fail "only applies to profiling" "$PTOP" -b -i /dev/null -e cpu-clock
expect_fail "cannot be combined" "$PTOP" -b -i x.data -o y.data
expect_fail "No such file" "$PTOP" -b -i /nonexistent.data
: > "$TMP/empty.data"
expect_fail "is empty" "$PTOP" -b -i "$TMP/empty.data"
expect_fail "not a regular file" "$PTOP" -b -i /dev/null
printf 'not a perf file at all' > "$TMP/bad.data"
expect_fail "not a perf.data file" "$PTOP" -b -i "$TMP/bad.data"

# the default event falls back to cpu-clock with one notice, here
"$PTOP" -b -d 0.3 -n 1 > "$TMP/o" 2> "$TMP/e" || fail "default event run failed: $(cat "$TMP/e")"
if grep -q 'event cpu-clock' "$TMP/o"; then
	[ "$(grep -c 'falling back to cpu-clock' "$TMP/e")" -eq 1 ] || fail "no single fallback notice: $(cat "$TMP/e")"
fi

# the reader goes away: no error, no hang
timeout 20 sh -c "'$PTOP' -b -d 0.2 -e cpu-clock | head -c 100 > /dev/null" || fail "EPIPE not handled"

# --help lists every option and exits 0
"$PTOP" --help > "$TMP/h" || fail "--help failed"
sed 's/\\-/-/g' doc/ptop.1 > "$TMP/man"
for o in event freq count pid tid cpu mmap-pages delay iterations batch json sort zero decay \
	percent-limit entries hide-kernel hide-user list-events debug-dir input output time annotate \
	disassembler-style; do
	grep -q -- "--$o" "$TMP/h" || fail "--help misses --$o"
	grep -q -- "--$o" "$TMP/man" || fail "doc/ptop.1 misses --$o"
done
# every option --help lists (it comes from the option table) is in the
# man page and the README's pointers hold
grep -o -- '--[a-z][a-z-]*' "$TMP/h" | sort -u > "$TMP/opts"
[ "$(wc -l < "$TMP/opts")" -ge 30 ] || fail "too few options in --help: $(cat "$TMP/opts")"
while read -r o; do
	grep -q -- "$o" "$TMP/man" || fail "doc/ptop.1 misses $o"
done < "$TMP/opts"
exit 0
