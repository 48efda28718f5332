#!/bin/sh
# The live view while its mapped caches are cut (doc/ptop.1, SECURITY):
# once sweep's rows are on the screen, the kallsyms cache and the symbol
# tables (symbols/*.sym) are truncated to nothing, as a cleanup script
# would.  The view goes on (no SIGBUS through its own crash handler,
# which hands the fault to the guard first), the status line says which
# table changed, names stay right, and q leaves the terminal restored.
. tests/e2e/tmux.inc
export XDG_CACHE_HOME=$TMP/cache
mkdir -p "$XDG_CACHE_HOME" "$TMP/bin"
cp "$WL/sweep" "$TMP/bin/prog"
bg "$TMP/bin/prog" 0 40000
# the caches, made by a system-wide run (kernel rows, so that the
# kallsyms table is loaded and kept)
"$PTOP" -b -g -e cpu-clock -d 0.5 -n 1 > /dev/null 2> "$TMP/err" ||
	fail "warm-up: $(cat "$TMP/err")"
ls "$XDG_CACHE_HOME"/ptop/kallsyms-* > /dev/null 2>&1 ||
	fail "no kallsyms cache: $(ls -R "$XDG_CACHE_HOME")"
ls "$XDG_CACHE_HOME"/ptop/symbols/*.sym > /dev/null 2>&1 ||
	fail "no symbol table kept: $(ls -R "$XDG_CACHE_HOME")"
# system-wide: kernel rows too, so that the kallsyms table is looked up
run env XDG_CACHE_HOME="$XDG_CACHE_HOME" "$PTOP" -d 0.5 -e cpu-clock
wait_for ' sweep_[0-9]+ *$' 20
truncate -s 0 "$XDG_CACHE_HOME"/ptop/kallsyms-*
for f in "$XDG_CACHE_HOME"/ptop/symbols/*.sym; do truncate -s 0 "$f"; done
wait_for 'its cached table changed while in use|^PTOP-EXIT=' 20
screen | grep -q '^PTOP-EXIT=' &&
	fail "ptop exited: $(screen | grep -E 'PTOP-EXIT|error')"
redrawn
screen | grep -q '^PTOP-EXIT=' && fail "ptop exited"
[ -n "$(ptop_pid)" ] || fail "ptop is not running"
screen | grep -q ' sweep_[0-9]' || fail "no sweep_ row after the cut"
quit_clean
echo ok
