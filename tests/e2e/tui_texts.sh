#!/bin/sh
# Texts that must say what is true: a recording's footer offers no key
# that needs a live source (p attach, f pause, e add event) while a live
# view's does; a view's status line is its own (the callers view opened
# from an expanded call tree does not say "call tree of ...").  (Counts
# of one, "1 profile sent", are push.sh's.)
. tests/e2e/tmux.inc
need perf

perf record --buildid-mmap -q -N -e cpu-clock -o "$TMP/perf.data" -- "$WL/spin3" 0.5 \
	> /dev/null 2> "$TMP/rec.err" || fail "perf record --buildid-mmap: $(cat "$TMP/rec.err")"
footer() { screen | tail -n 1; }

# a recording: the footer's keys, none of the live ones
run "$PTOP" -i "$TMP/perf.data"
wait_top 'spin_a' 30
wait_for '^F1 help .*F10 quit' 15
f=$(footer)
for k in 'p attach' 'f pause' 'e add event'; do
	case "$f" in *"$k"*) fail "-i's footer offers '$k': $f" ;; esac
done
quit_clean
restart

# live: they are there (after the start's notice, if any)
run "$PTOP" -g -d 0.5 -- "$WL/cgwork" 0
wait_for ' lib_work$' 30
# (f pause is past the 120 columns: after the F-keys, the letters'
# hints as far as they fit)
wait_for '^F1 help .*e add event .*p attach' 15

# + expands a tree: its status names the tree; c opens the callers view,
# whose status line is its own
keys +
wait_for 'call tree of .*\(\+ collapses' 5
keys c
wait_for '^Callers and callees of ' 10
footer | grep -q 'call tree' && fail "the callers view says the table's: $(footer)"
wait_for '^Enter go to .*Esc back' 5
keys q
wait_for '^F1 help ' 10
quit_clean
exit 0
