#!/bin/sh
# The symbol tables kept for later runs (symbols/symcache.c) on real
# binaries: a recording of python3 (a big stripped binary: .dynsym and
# .eh_frame ranges) and libc.  The first run reads the binaries and keeps
# their tables in $XDG_CACHE_HOME/ptop/symbols (mode 0600), the second
# maps them (-vv says so, and rewrites none) and prints the same table
# and the same annotation, byte for byte; --no-symbol-cache keeps none
# and prints them too.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

py=$(command -v python3) || skip "no python3"
perf_record "$TMP/py.data" -e cpu-clock -F 2000 -- "$py" -c '
s = 0
for i in range(3000000):
    s += i * i % 7
'

# RUN NAME [OPTION]: the table and the hottest python3 row's annotation
# of one run with the cache folder $TMP/NAME, into $TMP/NAME.{json,ann,err}
run() {
	name=$1
	shift
	XDG_CACHE_HOME=$TMP/$name "$PTOP" -i "$TMP/py.data" -b --json -E 1000000 \
		-vv "$@" > "$TMP/$name.json" 2> "$TMP/$name.err" ||
		fail "ptop -i $*: $(head -c 400 "$TMP/$name.err")"
	[ -n "${hot:-}" ] || hot=$(jq -r '[.rows[] | select(.dso | test("python"))][0].symbol // empty' \
		"$TMP/$name.json")
	[ -n "$hot" ] || fail "no python3 row: $(head -c 600 "$TMP/$name.json")"
	XDG_CACHE_HOME=$TMP/$name "$PTOP" -i "$TMP/py.data" -b --annotate "$hot" \
		"$@" > "$TMP/$name.ann" 2> "$TMP/$name.aerr" ||
		fail "ptop --annotate '$hot' $*: $(head -c 400 "$TMP/$name.aerr")"
}

hot=
run first
tables=$TMP/first/ptop/symbols
ls "$tables"/*.sym > /dev/null 2>&1 || fail "no table kept in $tables: $(ls -la "$TMP/first/ptop" 2>&1)"
grep -q "python3.*its table kept for later runs" "$TMP/first.err" ||
	fail "python3's table not kept: $(grep 'read in' "$TMP/first.err")"
for f in "$tables"/*.sym; do
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f: mode $(stat -c %a "$f")"
done
ls -i "$tables" > "$TMP/inodes.first"

mv "$TMP/first" "$TMP/second"
run second
grep -q "python3.*its table kept from an earlier run" "$TMP/second.err" ||
	fail "the second run read python3 again: $(grep 'read in' "$TMP/second.err")"
grep "read in" "$TMP/second.err" | grep -q "kept for later runs" &&
	fail "the second run kept a table again: $(grep 'read in' "$TMP/second.err")"
ls -i "$TMP/second/ptop/symbols" > "$TMP/inodes.second"
cmp -s "$TMP/inodes.first" "$TMP/inodes.second" ||
	fail "the tables changed: $(diff "$TMP/inodes.first" "$TMP/inodes.second")"

# --no-demangle's tables (another choice of aliases) are kept beside the
# default ones: neither mode takes the other's for damaged and rewrites it
mv "$TMP/second" "$TMP/nodem"
run nodem --no-demangle
mv "$TMP/nodem" "$TMP/third"
run third
for r in nodem third; do
	grep -q "damaged" "$TMP/$r.err" "$TMP/$r.aerr" &&
		fail "run $r took a table for damaged: $(grep -h damaged "$TMP/$r.err" "$TMP/$r.aerr" | head -3)"
done
grep -q "python3.*its table kept from an earlier run" "$TMP/third.err" ||
	fail "after --no-demangle the default run read python3 again: $(grep 'read in' "$TMP/third.err")"
mv "$TMP/third" "$TMP/second"

run none --no-symbol-cache
[ -e "$TMP/none/ptop/symbols" ] && fail "--no-symbol-cache made $TMP/none/ptop/symbols"

for r in second none; do
	# the header's elapsed time aside
	for k in json ann; do
		grep -v '^# ' "$TMP/first.$k" | sed 's/"elapsed":[0-9.e+-]*,//' > "$TMP/a"
		grep -v '^# ' "$TMP/$r.$k" | sed 's/"elapsed":[0-9.e+-]*,//' > "$TMP/b"
		cmp -s "$TMP/a" "$TMP/b" ||
			fail "run $r's $k differs from the first: $(diff "$TMP/a" "$TMP/b" | head -20)"
	done
done
grep -q "func_0x\|[0-9a-f]:" "$TMP/first.ann" || fail "no annotation of $hot: $(head -c 400 "$TMP/first.ann")"
echo "hottest python3 row: $hot; $(ls "$TMP/second/ptop/symbols" | wc -l) tables; $(wc -l < "$TMP/first.ann") annotation lines"
exit 0
