#!/bin/sh
# Names and source lines of stripped binaries from a real debuginfod
# server (Debian's, on 127.0.0.1), in batch mode: a run of a stripped
# workload, --annotate (source lines from the fetched file), inlined
# frames of -g --folded (its DWARF), -i of a perf
# record file whose binary is gone (the executable fetched too), the
# client's cache on the next run (the server stopped), and without the
# variable or with --no-debuginfod: func_0x rows.  Then servers that fail:
# a port that refuses, a server that accepts and never answers, one that
# answers garbage (not kept in the client's cache: the next run asks
# again), one that streams more than the bound (--debuginfod-maxsize,
# DEBUGINFOD_MAXSIZE, 1 GiB: the bytes read stay under it and 1 MiB), one
# that announces 4 GiB, one that redirects to itself (a few dozen
# requests); each costs a message and a bounded wait, the table comes out
# with the names it can have; a silent server holds no table back past
# its refresh.
. tests/integration/lib.sh
. tests/integration/debuginfod.inc

BODY=$(grep -n '/\* MARK:body \*/' tests/workloads/annwork.c | cut -d: -f1)
split annwork exe
split inlwork
start_server

# Every table is the workload's whole run (-d 30: the table when the
# command exits), so that its samples are its CPU time: a first table
# after 1 s of wall time held none of ann_outer on a loaded machine.  The
# runs that time a server's failure are of 0.3 s of CPU.

# names: table of a stripped program, its debug file fetched
DEBUGINFOD_URLS=$URL "$PTOP" -b -e cpu-clock -d 30 -E 5 -- \
	"$TMP/bin/annwork" 0.3 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed: $(cat "$TMP/err")"
grep -Eq '^ +[0-9.]+% +[0-9]+ +annwork +\[\.\] ann_outer$' "$TMP/out" ||
	fail "no ann_outer row: $(cat "$TMP/out") $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] ann_inner$' "$TMP/out" || fail "no ann_inner row"
grep -q 'func_0x' "$TMP/out" && fail "func_0x rows with the debug file: $(cat "$TMP/out")"
grep -q 'debuginfod: got the debug info of annwork' "$TMP/err" ||
	fail "no message of the fetch: $(cat "$TMP/err")"
ls "$XDG_CACHE_HOME"/debuginfod_client/*/debuginfo > /dev/null 2>&1 ||
	fail "nothing in the client's cache"

# without the variable, and with --no-debuginfod: what a stripped binary
# gives without its debug file
for how in unset off; do
	if [ $how = unset ]; then
		"$PTOP" -b -e cpu-clock -d 30 -E 5 -- "$TMP/bin/annwork" 1 \
			> "$TMP/out" 2> "$TMP/err" || fail "ptop failed"
	else
		DEBUGINFOD_URLS=$URL "$PTOP" --no-debuginfod -b -e cpu-clock \
			-d 30 -E 5 -- "$TMP/bin/annwork" 1 \
			> "$TMP/out" 2> "$TMP/err" || fail "ptop failed"
	fi
	grep -Eq 'annwork +\[\.\] func_0x[0-9a-f]+$' "$TMP/out" ||
		fail "$how: no func_0x row: $(cat "$TMP/out")"
	grep -q 'ann_outer' "$TMP/out" && fail "$how: ann_outer named"
	grep -q 'debuginfod' "$TMP/err" && fail "$how: debuginfod was asked"
done

# --annotate: the source lines come from the fetched file (a new cache)
XDG_CACHE_HOME=$TMP/cache2 DEBUGINFOD_URLS=$URL "$PTOP" -b -e cpu-clock \
	-d 30 --annotate ann_outer -- "$TMP/bin/annwork" 2 \
	> "$TMP/ann" 2> "$TMP/err" || fail "--annotate failed: $(cat "$TMP/err")"
grep -q '^# annotate: ann_outer  \[annwork\]' "$TMP/ann" ||
	fail "no annotate title: $(head -5 "$TMP/ann") $(cat "$TMP/err")"
grep -Eq "^ +annwork\\.c:$BODY +annwork_sink \\+= i \\* i / \\(i \\| 1\\);" "$TMP/ann" ||
	fail "no source line of the loop body: $(head -30 "$TMP/ann")"

# inlined frames (-g): the DWARF of the fetched file names the helper
# that was inlined into outer_fn (see callgraph_inline.sh)
DEBUGINFOD_URLS=$URL "$PTOP" -b -g --inline --folded -e cpu-clock -d 30 -- \
	"$TMP/bin/inlwork" 1 > "$TMP/folded" 2> "$TMP/err" ||
	fail "--folded failed: $(cat "$TMP/err")"
grep -q ';outer_fn;inl_helper;leaf_spin [0-9]' "$TMP/folded" ||
	fail "no inlined frame from the fetched file: $(head -5 "$TMP/folded") $(cat "$TMP/err")"
"$PTOP" -b -g --inline --folded -e cpu-clock -d 30 -- "$TMP/bin/inlwork" 1 \
	> "$TMP/folded" 2> /dev/null || fail "--folded failed"
grep -q 'inl_helper' "$TMP/folded" && fail "an inlined frame without the debug file"

# -i of a perf record file whose binary is gone since: the executable and
# its debug file both come from the server
need perf
perf record --buildid-mmap -q -N -o "$TMP/perf.data" -e cpu-clock \
	-- "$TMP/bin/annwork" 0.3 > /dev/null 2> "$TMP/rec.err" ||
	fail "recording failed: $(cat "$TMP/rec.err")"
mv "$TMP/bin/annwork" "$TMP/annwork.away"
XDG_CACHE_HOME=$TMP/cache3 DEBUGINFOD_URLS=$URL "$PTOP" -i "$TMP/perf.data" \
	-b -E 5 > "$TMP/out" 2> "$TMP/err" || fail "ptop -i failed: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] ann_outer$' "$TMP/out" ||
	fail "-i: no ann_outer row: $(cat "$TMP/out") $(cat "$TMP/err")"
grep -q 'got the binary of annwork' "$TMP/err" ||
	fail "-i: the executable was not fetched: $(cat "$TMP/err")"
# and without the variable: the binary is missing, no names
"$PTOP" -i "$TMP/perf.data" -b -E 5 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop -i failed"
grep -q 'ann_outer' "$TMP/out" && fail "-i without debuginfod named ann_outer"
mv "$TMP/annwork.away" "$TMP/bin/annwork"

# the cache: the next run fetches nothing, even with the server gone
stop_server
DEBUGINFOD_URLS=$URL "$PTOP" -b -e cpu-clock -d 30 -E 5 -- \
	"$TMP/bin/annwork" 0.3 > "$TMP/out" 2> "$TMP/err" || fail "ptop failed"
grep -Eq 'annwork +\[\.\] ann_outer$' "$TMP/out" ||
	fail "from the cache: no ann_outer row: $(cat "$TMP/err")"
grep -q "debuginfod: fetching" "$TMP/err" && fail "the cached file was fetched again: $(cat "$TMP/err")"

# a port that refuses: a message, the table, at once
export XDG_CACHE_HOME=$TMP/cache4
start=$(date +%s)
DEBUGINFOD_URLS=http://127.0.0.1:$(free_port) "$PTOP" -b -e cpu-clock -d 30 \
	-E 5 -- "$TMP/bin/annwork" 0.3 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed with a refusing server: $(cat "$TMP/err")"
secs=$(( $(date +%s) - start ))
grep -q 'warning: debuginfod: the debug info of annwork: ' "$TMP/err" ||
	fail "no message for the refusing server: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" || fail "no table with a refusing server"
[ "$secs" -lt 20 ] || fail "a refusing server cost $secs s"

# a server that accepts and never answers: bounded by DEBUGINFOD_TIMEOUT
export XDG_CACHE_HOME=$TMP/cache5
start_hang
start=$(date +%s)
DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_URLS=http://127.0.0.1:$HANG_PORT "$PTOP" -b \
	-e cpu-clock -d 30 -E 5 -- "$TMP/bin/annwork" 0.3 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed with a silent server: $(cat "$TMP/err")"
secs=$(( $(date +%s) - start ))
echo "a silent server cost $secs s (DEBUGINFOD_TIMEOUT=2)"
grep -q 'debuginfod: the debug info of annwork: no answer for 2 s' "$TMP/err" ||
	fail "no message for the silent server: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" || fail "no table with a silent server"
[ "$secs" -lt 20 ] || fail "a silent server cost $secs s"

# a server that answers garbage: never used, said
export XDG_CACHE_HOME=$TMP/cache6
start_bad garbage
GARBAGE_PORT=$BAD_PORT
DEBUGINFOD_URLS=http://127.0.0.1:$GARBAGE_PORT "$PTOP" -b -e cpu-clock -d 30 \
	-E 5 -- "$TMP/bin/annwork" 1 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed with a garbage server: $(cat "$TMP/err")"
grep -q 'debuginfod: the debug info of annwork: the server sent a file that is not it' "$TMP/err" ||
	fail "no message for the garbage: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" || fail "no table with a garbage server"
# not kept: no file of the build-id in the client's cache, and the next
# run asks the server again
BID=$(build_id "$TMP/bin/annwork")
[ -z "$(find "$XDG_CACHE_HOME/debuginfod_client/$BID" -type f 2> /dev/null)" ] ||
	fail "the refused file is still in the client's cache: $(ls -la "$XDG_CACHE_HOME/debuginfod_client/$BID")"
set -- $(bad_count garbage)
[ "$1" -eq 1 ] || fail "garbage: $1 requests for one fetch"
DEBUGINFOD_URLS=http://127.0.0.1:$GARBAGE_PORT "$PTOP" -b -e cpu-clock -d 1 \
	-n 1 -E 5 -- "$TMP/bin/annwork" 1 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed with a garbage server, again: $(cat "$TMP/err")"
set -- $(bad_count garbage)
[ "$1" -eq 2 ] || fail "garbage: the second run did not ask again ($1 requests)"

# bytes streamed, no length said (chunked): cut at the bound on what was
# received (the server sends 256 KiB every 10 ms, 64 MiB at most); a
# length that lies (4 GiB announced): cut at once, the default bound
# (1 GiB) too; nothing kept, so the next run asks again
export XDG_CACHE_HOME=$TMP/cache7
start_bad chunked
DEBUGINFOD_URLS=http://127.0.0.1:$BAD_PORT "$PTOP" --debuginfod-maxsize 2M \
	-b -e cpu-clock -d 1 -n 1 -E 5 -- "$TMP/bin/annwork" 1 \
	> "$TMP/out" 2> "$TMP/err" || fail "ptop failed: $(cat "$TMP/err")"
grep -q 'debuginfod: the debug info of annwork: over 2 MiB' "$TMP/err" ||
	fail "no message for a file too big: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" || fail "no table with a file too big"
set -- $(bad_count chunked)
echo "chunked: $1 request(s), $2 bytes sent for a bound of 2 MiB"
[ "$2" -le $(( (2 + 1) << 20 )) ] ||
	fail "$2 bytes read, over the bound (2 MiB) and 1 MiB"
DEBUGINFOD_URLS=http://127.0.0.1:$BAD_PORT DEBUGINFOD_MAXSIZE=1048576 \
	"$PTOP" -b -e cpu-clock -d 1 -n 1 -E 5 -- "$TMP/bin/annwork" 1 \
	> "$TMP/out" 2> "$TMP/err" || fail "ptop failed: $(cat "$TMP/err")"
grep -q 'over 1 MiB (DEBUGINFOD_MAXSIZE' "$TMP/err" ||
	fail "DEBUGINFOD_MAXSIZE not the bound: $(cat "$TMP/err")"
set -- $(bad_count chunked)
[ "$1" -eq 2 ] || fail "chunked: the second run did not ask again ($1)"
# against_bad MODE MESSAGE: a run with the misbehaving server MODE (a new
# client cache): the table, with MESSAGE said
against_bad() {
	export XDG_CACHE_HOME=$TMP/cache-$1
	start_bad "$1"
	DEBUGINFOD_URLS=http://127.0.0.1:$BAD_PORT "$PTOP" -b -e cpu-clock \
		-d 1 -n 1 -E 5 -- "$TMP/bin/annwork" 1 > "$TMP/out" \
		2> "$TMP/err" || fail "ptop failed ($1): $(cat "$TMP/err")"
	grep -q "$2" "$TMP/err" || fail "$1: no '$2': $(cat "$TMP/err")"
	grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" || fail "$1: no table"
}
against_bad huge 'over 1024 MiB'
set -- $(bad_count huge)
[ "$2" -le $(( 1 << 20 )) ] || fail "4 GiB announced: $2 bytes read"

# a server that redirects to itself: a few dozen requests, not thousands
against_bad redirect 'redirect loop'
set -- $(bad_count redirect)
echo "redirect loop: $1 requests"
[ "$1" -le 100 ] || fail "a redirect loop cost $1 requests"

# a silent server does not hold the tables back: with DEBUGINFOD_TIMEOUT
# at 60 s, -d 1 -n 3 prints a table a second (the fetch goes on; the last
# table waits for it 10 s at most), and -n 1 waits 10 s at most
export XDG_CACHE_HOME=$TMP/cache10
start=$(date +%s)
DEBUGINFOD_TIMEOUT=60 DEBUGINFOD_URLS=http://127.0.0.1:$HANG_PORT "$PTOP" -b \
	-e cpu-clock -d 1 -n 3 -E 5 -- "$TMP/bin/annwork" 30 2> "$TMP/err" |
	while read -r l; do
		case "$l" in "# event"*) echo "$(( $(date +%s) - start ))" ;; esac
	done > "$TMP/when"
echo "tables of -d 1 -n 3 with a silent server at: $(tr '\n' ' ' < "$TMP/when")s"
[ "$(wc -l < "$TMP/when")" -eq 3 ] || fail "not 3 tables: $(cat "$TMP/err")"
[ "$(head -1 "$TMP/when")" -lt 30 ] ||
	fail "the first table waited for the fetch: $(head -1 "$TMP/when") s"
start=$(date +%s)
DEBUGINFOD_TIMEOUT=60 DEBUGINFOD_URLS=http://127.0.0.1:$HANG_PORT "$PTOP" -b \
	-e cpu-clock -d 1 -n 1 -E 5 -- "$TMP/bin/annwork" 30 > /dev/null 2> "$TMP/err"
secs=$(( $(date +%s) - start ))
echo "a one-table run with a silent server: $secs s"
[ "$secs" -lt 40 ] || fail "a one-table run waited $secs s for a silent server"
exit 0
