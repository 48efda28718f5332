#!/bin/sh
# The live view while its mapped caches are cut (doc/ptop.1, SECURITY):
# once sweep's rows are on the screen, the kallsyms cache and the symbol
# tables (symbols/*.sym) are truncated to nothing, as a cleanup script
# would.  The view goes on (no SIGBUS through its own crash handler,
# which hands the fault to the guard first), the status line says which
# table changed (once a lookup meets it: kernel work after the cut makes
# one), names stay right, and q leaves the terminal restored.
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
# a table is found cut by a lookup its answers' cache cannot answer: on a
# quiet machine every address may be named before the cut, so kernel
# work in code paths of its own (a round of ls -R of /usr/lib, a fixed
# amount) brings new kernel addresses until the status line says it.
# The status line shows the last warning: "changed while in use: read
# again", or, in the same refresh on a quiet machine, the next one of the
# same cut, when the table is made again and its cut file is found ("its
# symbol table in DIR was damaged: made again", whose end a long path
# pushes past the 120 columns)
cut_seen() {
	screen | grep -Eq 'its cached table changed while in use|its symbol table in /|^PTOP-EXIT='
}
new_kernel_addresses() {
	cut_seen && return 0
	ls -laR /usr/lib > /dev/null 2>&1
	cut_seen
}
wait_until 60 "a lookup to find the cut tables (the status line)" \
	new_kernel_addresses
screen | grep -q '^PTOP-EXIT=' &&
	fail "ptop exited: $(screen | grep -E 'PTOP-EXIT|error')"
redrawn
screen | grep -q '^PTOP-EXIT=' && fail "ptop exited"
[ -n "$(ptop_pid)" ] || fail "ptop is not running"
screen | grep -q ' sweep_[0-9]' || fail "no sweep_ row after the cut"
quit_clean
echo ok
