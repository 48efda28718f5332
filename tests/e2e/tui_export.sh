#!/bin/sh
# --flamegraph and --pprof in the live view: batch's files (the same
# writer and rows: the command line's filters, not the view's search),
# replaced whole at each refresh (a new inode each time, never a file
# half written), readable by xmllint and go tool pprof.
. tests/e2e/tmux.inc
need xmllint
command -v go > /dev/null 2>&1 || fail "no go (golang-go): scripts/install-deps.sh test"
export HOME="$TMP" GOCACHE="$TMP/gocache" GOFLAGS=-mod=mod

svg=$TMP/live.svg
pb=$TMP/live.pb.gz
inode() { stat -c %i "$1" 2> /dev/null; }
run "$PTOP" -g -d 0.5 --flamegraph "$svg" --pprof "$pb" -- "$WL/cgwork" 0
wait_for ' lib_work$' 30
wait_until 20 "the live view's files" test -s "$svg" -a -s "$pb"
# rewritten at each refresh: the name gets a new file each time
i1=$(inode "$svg")
p1=$(inode "$pb")
wait_until 20 "a second flame graph" sh -c "[ \"\$(stat -c %i '$svg')\" != '$i1' ]"
wait_until 20 "a second profile" sh -c "[ \"\$(stat -c %i '$pb')\" != '$p1' ]"
xmllint --noout "$svg" 2> "$TMP/err" || fail "invalid XML: $(head -5 "$TMP/err")"
for f in lib_work caller_x caller_y outer inner_a main; do
	grep -q "data-n=\"$f\"" "$svg" || fail "no $f frame in the live flame graph"
done
go tool pprof -symbolize=none -top -nodecount=1000 "$pb" > "$TMP/top" 2> "$TMP/pperr" ||
	fail "go tool pprof: $(cat "$TMP/pperr")"
awk '$6 == "lib_work" { f = 1 } END { exit !f }' "$TMP/top" ||
	fail "no lib_work in go tool pprof -top: $(head -20 "$TMP/top")"

# the view's search is the view's: the files keep every chain
keys /
keys i n n e r _ a
wait_for "^Filter symbols: inner_a"
keys Enter
wait_for "^filters: symbol ~ 'inner_a'"
i2=$(inode "$svg")
wait_until 20 "a flame graph after the search" sh -c "[ \"\$(stat -c %i '$svg')\" != '$i2' ]"
grep -q 'data-n="caller_y"' "$svg" || fail "the view's search reached the file"
quit_clean
# nothing left beside them (the writer's temporaries)
[ "$(ls "$TMP" | grep -c '^live\.')" -eq 2 ] || fail "files beside the outputs: $(ls "$TMP")"
exit 0
