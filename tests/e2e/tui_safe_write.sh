#!/bin/sh
# The live view run by root in a folder another user can write (1777):
# -o's FILE is a link that user planted before the run (kept as
# FILE.old, never written through), and once the first status line is on
# the screen, links at the names P saves the table to: P skips them and
# saves to the next free name, a new file of root's (0644 less the
# umask).  Then q: -o's file is root's, 0600, and reads back.
. tests/e2e/tmux.inc
second_user
public_dir
D=$PUB
bg "$WL/spin3" 0
SPIN=$LAST_BG
as_planter ln -s "$VICTIM" "$D/live.data" || fail "cannot plant a link"
run sh -c "\"cd '$D' && exec '$PTOP' -d 0.5 -e cpu-clock -p $SPIN -o '$D/live.data'\""
wait_top 'spin_a'
wait_for 'writing .*live\.data: '
victim_intact "-o, a link at FILE"
for n in 0 1; do
	as_planter ln -s "$VICTIM" "$D/ptop.hist.$n" || fail "cannot plant"
done
keys P
wait_for 'saved the table to \./ptop\.hist\.2'
victim_intact "P"
is_new "$D/ptop.hist.2" 644 P
grep -q spin_a "$D/ptop.hist.2" || fail "the saved table has no spin_a row"
quit_clean
victim_intact "-o"
[ -L "$D/live.data.old" ] || fail "the planted link is not live.data.old"
is_new "$D/live.data" 600 -o
"$PTOP" -i "$D/live.data" -b -E 3 > "$TMP/out" 2>&1 ||
	fail "live.data does not read back: $(cat "$TMP/out")"
grep -q spin_a "$TMP/out" || fail "live.data has no spin_a: $(cat "$TMP/out")"
echo "ok"
