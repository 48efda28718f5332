#!/bin/sh
# Files ptop maps, changed under a running ptop (doc/ptop.1, SECURITY):
# once the first table is out, the kallsyms cache, the symbols/*.sym
# tables and the DWARF cache's inflated copies are cut to nothing, a
# debug file in use is cut, and a binary
# whose process has exited (its rows stay) is rewritten in place with
# another build (cp over it: the same inode), while every refresh brings
# addresses nobody asked yet (sweep: 64 functions in turn, with inlined
# frames, system-wide for the kernel's).  ptop must not die (SIGBUS), must
# say what changed, must never show a name of the other build, and the
# -o recording it makes meanwhile must be whole (perf report reads it).
. tests/integration/lib.sh
need objcopy strip perf

export XDG_CACHE_HOME=$TMP/cache
mkdir -p "$XDG_CACHE_HOME" "$TMP/bin"
# a: the program with its DWARF, from a copy (rewritten later);
# b: another build, stripped, its DWARF in a debug file found by build-id;
# c: a third, the same with its debug file compressed (zlib), whose
# inflated copy ptop keeps in its DWARF cache and maps
cp "$WL/sweep" "$TMP/bin/prog-a"
# debug_of WORKLOAD: the path of its debug file under $TMP/debug
debug_of() {
	bid=$(readelf -n "$WL/$1" | sed -n 's/^ *Build ID: //p')
	[ -n "$bid" ] || fail "$1 has no build-id"
	echo "$TMP/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
}
dbg=$(debug_of sweep-b)
dbg_c=$(debug_of sweep-c)
mkdir -p "$(dirname "$dbg")" "$(dirname "$dbg_c")"
objcopy --only-keep-debug "$WL/sweep-b" "$dbg" || fail "objcopy"
objcopy --only-keep-debug --compress-debug-sections=zlib "$WL/sweep-c" \
	"$dbg_c" || fail "objcopy --compress-debug-sections"
strip -o "$TMP/bin/prog-b" "$WL/sweep-b" || fail "strip"
strip -o "$TMP/bin/prog-c" "$WL/sweep-c" || fail "strip"

# the caches, made by a first run of each
for p in prog-a prog-b prog-c; do
	"$PTOP" -b -g --inline --debug-dir "$TMP/debug" -e cpu-clock -d 0.3 \
		-n 1 -- "$TMP/bin/$p" 0.3 > /dev/null 2> "$TMP/err" ||
		fail "warm-up of $p: $(cat "$TMP/err")"
done
ls "$XDG_CACHE_HOME"/ptop/kallsyms-* > /dev/null 2>&1 ||
	fail "no kallsyms cache: $(ls -R "$XDG_CACHE_HOME")"
[ "$(ls "$XDG_CACHE_HOME"/ptop/symbols/*.sym | wc -l)" -ge 3 ] ||
	fail "no symbol tables kept: $(ls -R "$XDG_CACHE_HOME")"
ls "$XDG_CACHE_HOME"/ptop/dwarf/*.debug > /dev/null 2>&1 ||
	fail "no DWARF copy kept: $(ls -R "$XDG_CACHE_HOME")"

# prog-a runs 1 s of CPU and exits; prog-b until the end
bg "$TMP/bin/prog-a" 1 40000
A=$LAST_BG
bg "$TMP/bin/prog-b" 0 40000
bg "$TMP/bin/prog-c" 0 40000
# (self rows only, the first 400: a system-wide table of a loaded machine
# with every caller's row ran to 3.7 MB a refresh, 5 minutes under ASan;
# sweep's rows rank in the first hundred)
"$PTOP" -b -g --no-children -E 400 --inline --debug-dir "$TMP/debug" \
	-e cpu-clock -d 0.4 -n 10 -o "$TMP/rec.data" > "$TMP/out" 2> "$TMP/err" &
PT=$!
BG="$BG $PT"
wait_until 30 "the first table" grep -qsE '^# (Overhead|Children)' "$TMP/out"
truncate -s 0 "$XDG_CACHE_HOME"/ptop/kallsyms-*
for f in "$XDG_CACHE_HOME"/ptop/symbols/*.sym; do truncate -s 0 "$f"; done
truncate -s 0 "$dbg"
for f in "$XDG_CACHE_HOME"/ptop/dwarf/*.debug; do truncate -s 0 "$f"; done
# a binary whose process exited, rewritten in place
wait_until 60 "prog-a's end" sh -c "! kill -0 $A 2> /dev/null"
cp "$WL/sweep-other" "$TMP/bin/prog-a" || fail "cp over prog-a"
wait "$PT"
rc=$?
[ "$rc" -eq 0 ] || fail "ptop exited with $rc: $(tail -5 "$TMP/err")"
[ "$(grep -cE '^# (Overhead|Children)' "$TMP/out")" -eq 10 ] ||
	fail "not every table: $(grep -cE '^# (Overhead|Children)' "$TMP/out")"
grep -q ' other_[0-9]' "$TMP/out" &&
	fail "a name of the build written over prog-a: $(grep ' other_' "$TMP/out" | head -3)"
grep -q ' sweep_[0-9]' "$TMP/out" || fail "no sweep_ rows: $(head -20 "$TMP/out")"
grep -q ' c_[0-9]' "$TMP/out" || fail "no c_ rows (prog-c): $(head -20 "$TMP/out")"
# the recording made meanwhile is whole: perf report reads it
# (by comm: the files its names would come from were cut or replaced)
perf report -i "$TMP/rec.data" --stdio --no-children -g none --sort comm \
	> "$TMP/report" 2> "$TMP/report.err" ||
	fail "perf report of -o: $(tail -3 "$TMP/report.err")"
grep -Eq ' prog-a *$' "$TMP/report" && grep -Eq ' prog-b *$' "$TMP/report" ||
	fail "-o's recording lacks prog-a or prog-b: $(grep -v '^#' "$TMP/report" | head -8)"
grep -q 'kernel symbols: its cached table changed while in use' "$TMP/err" ||
	fail "the kallsyms cache's change was not said: $(cat "$TMP/err")"
grep -q 'changed while in use\|cut short\|damaged' "$TMP/err" ||
	fail "no word of the changes: $(cat "$TMP/err")"
cat "$TMP/err" | grep -v 'cycles event' | head -8
echo "ok"
