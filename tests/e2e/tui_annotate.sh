#!/bin/sh
# The annotate view: a on the hottest row opens its function with the
# hottest instruction selected, its source line shown and the global its
# %rip-relative operands refer to named; H; Tab; s and t; a search for
# the call, Enter drills into the callee, Esc returns to the caller, Esc
# to the table; the row menu's Annotate; P saves.
. tests/e2e/tmux.inc

SRC=$(pwd)/tests/workloads/annwork.c
BODY=$(grep -n '/\* MARK:body \*/' "$SRC" | cut -d: -f1)
cd "$TMP"
# NO_COLOR: the selected line is in reverse video, like the title line
run env NO_COLOR=1 "$PTOP" -e cpu-clock -d 0.5 -- "$WL/annwork" 60
wait_top 'ann_outer'

# the selected line's text: the reverse-video line under the title
selected() {
	T capture-pane -p -e -t main | tail -n +2 |
		grep -E "$(printf '\033')\\[(0;)?7m" | sed 's/\x1b\[[0-9;]*m//g' | head -n 1
}

keys a
wait_for "^Annotate ann_outer  \\[annwork\\]  [0-9.]+% of cpu-clock"
wait_for "annwork\\.c:$BODY +annwork_sink \\+= i \\* i / \\(i \\| 1\\);"
wait_for '^ +[0-9]+\.[0-9]+ +[0-9a-f]+: '
wait_for '\(%rip\).*  # 0x[0-9a-f]+ <annwork_sink>$'
# the hottest instruction is selected: the largest percent on screen
hot=$(screen | awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $2 ~ /:$/ { if ($1 > m) m = $1 } END { print m }')
sel=$(selected)
echo "$sel" | grep -q "^ *$hot " || echo "note: selection '$sel' vs hottest $hot (shares move)" >&2
echo "$sel" | grep -Eq '^ +[0-9]+\.[0-9]+ +[0-9a-f]+: ' ||
	fail "no hot instruction selected: '$sel'"
keys H
wait_for 'Tab next hot'
keys Tab
# the next one in the hot order of the moment: second after H unless a
# refresh reordered them in between (seen under ASan), so any position,
# but a hot instruction
wait_for 'hot instruction [0-9]+ of [0-9]+'
sel2=$(selected)
echo "$sel2" | grep -Eq '^ +[0-9]*[1-9][0-9]*\.[0-9]+ +[0-9a-f]+: |^ +0\.[0-9]*[1-9][0-9]* +[0-9a-f]+: ' ||
	fail "Tab did not select a hot instruction: '$sel2'"
# shares follow the refreshes
ann_samples() { screen | sed -n 's/.* of cpu-clock, \([0-9]*\) samples.*/\1/p'; }
n1=$(ann_samples)
[ -n "$n1" ] || fail "no sample count in the annotation's title"
ann_changed() { [ "$(ann_samples)" != "$n1" ]; }
wait_until 10 "the annotation refreshing (from $n1 samples)" ann_changed
# source only, then back to both; samples instead of percent
keys s
wait_for 'showing instructions only'
keys s
wait_for 'showing source lines only'
wait_gone '^ +[0-9.]* +[0-9a-f]+: '
keys s
wait_for 'showing source and instructions'
keys t
wait_for 'showing samples'
keys t t

# the call: found by a search, Enter drills into ann_inner
keys / c a l l
wait_for '^Search: call'
keys Enter
end=$(( $(date +%s) + 5 ))
until selected | grep -q 'call.*<ann_inner>'; do
	[ "$(date +%s)" -le "$end" ] || fail "the search did not select the call: '$(selected)'"
	sleep 0.1
done
keys Enter
wait_for '^Annotate ann_inner  \[annwork\].*callee 1 deep'
keys Escape
wait_for '^Annotate ann_outer  \[annwork\]'
wait_gone 'callee 1 deep'
selected | grep -q 'call.*<ann_inner>' || fail "back in the caller, the call is not selected"
# a jump: Enter goes to its label
keys / j n e
keys Enter
keys Enter
end=$(( $(date +%s) + 5 ))
until selected | grep -q '\.L1:'; do
	[ "$(date +%s)" -le "$end" ] || fail "Enter on the jump did not go to .L1: '$(selected)'"
	sleep 0.1
done
# P saves the annotation
keys P
wait_for 'saved the annotation to ./ptop.annotate.0'
grep -q "annwork.c:$BODY" "$TMP/ptop.annotate.0" || fail "the saved annotation has no source line"
grep -q '<ann_inner>' "$TMP/ptop.annotate.0" || fail "the saved annotation has no call"
# help lists the annotate keys; Esc twice: the help, then the table
keys h
wait_for '^ptop keys'
keys Escape
wait_for '^Annotate ann_outer'
keys q
wait_for '^Overhead'

# the row menu's Annotate
keys Enter
wait_for 'Annotate .*ann_outer'
keys Enter
wait_for '^Annotate ann_outer  \[annwork\]'
keys Left
wait_for '^Overhead'

# a kernel row: annotated from /proc/kcore, or a clear message (the
# first kernel row, by its name and object, with sampling paused: rows
# move between a reading of the screen and the keys)
if [ ! -r /proc/kcore ]; then
	pause
	k=$(table_rows | sed -n 's/^.*  \(\[kernel\.kallsyms\]\) *\[k\] \(.*\)$/\1 \2/p' | head -n 1)
	if [ -n "$k" ]; then
		select_row "${k%% *}" "${k#* }"
		keys a
		wait_for 'kernel annotation needs /proc/kcore|annotate .*: '
	fi
fi
quit_clean
echo "ok"
