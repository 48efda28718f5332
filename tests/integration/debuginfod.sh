#!/bin/sh
# Names and source lines of stripped binaries from a real debuginfod
# server (Debian's, on 127.0.0.1), in batch mode: a run of a stripped
# workload, --annotate (source lines from the fetched file), inlined
# frames of -g --folded (its DWARF), -i of a perf
# record file whose binary is gone (the executable fetched too), the
# client's cache on the next run (the server stopped), and without the
# variable or with --no-debuginfod: func_0x rows.  Then servers that fail:
# a port that refuses, a server that accepts and never answers, one that
# answers garbage; each costs a message and a bounded wait, the table
# comes out with the names it can have.
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
DEBUGINFOD_URLS=$URL "$PTOP" -b -g --folded -e cpu-clock -d 30 -- \
	"$TMP/bin/inlwork" 1 > "$TMP/folded" 2> "$TMP/err" ||
	fail "--folded failed: $(cat "$TMP/err")"
grep -q ';outer_fn;inl_helper;leaf_spin [0-9]' "$TMP/folded" ||
	fail "no inlined frame from the fetched file: $(head -5 "$TMP/folded") $(cat "$TMP/err")"
"$PTOP" -b -g --folded -e cpu-clock -d 30 -- "$TMP/bin/inlwork" 1 \
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
start_garbage
DEBUGINFOD_URLS=http://127.0.0.1:$GARBAGE_PORT "$PTOP" -b -e cpu-clock -d 30 \
	-E 5 -- "$TMP/bin/annwork" 1 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed with a garbage server: $(cat "$TMP/err")"
grep -q 'debuginfod: the debug info of annwork: the server sent a file that is not it' "$TMP/err" ||
	fail "no message for the garbage: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" || fail "no table with a garbage server"
exit 0
