#!/bin/sh
# The keys a newcomer reaches for, and the mouse, in the real binary:
# Esc with nothing to undo says so and takes nothing else (Esc then /
# sent apart and in one write both open the filter); Esc undoes what the
# filters: line lists, the sort and grouping too; sorting never regroups;
# F3 searches, F4 filters, F5 expands every tree (again: none), F2's
# setup saves the settings file; the mouse by the bytes terminals send:
# X10 in tmux's screen terminal, SGR 1006 in an xterm one (past column
# 223 too); a double click (both clicks in one write) is Enter;
# --no-mouse leaves the mouse to the terminal.
. tests/e2e/tmux.inc

# the pane's last line
footer() { screen | tail -n 1; }

# x10 X Y [BUTTON]: the bytes of a press and a release at cell (X, Y),
# 0-based, as xterm's X10 encoding sends them (button 0: left)
x10() {
	b=${3:-0}
	printf '1b 5b 4d %02x %02x %02x ' $((32 + b)) $((33 + $1)) $((33 + $2))
	[ "$b" -ge 64 ] || printf '1b 5b 4d 23 %02x %02x ' $((33 + $1)) $((33 + $2))
}
# sgr X Y [BUTTON]: the same in SGR 1006 (1-based, M press, m release)
sgr() {
	b=${3:-0}
	printf '\033[<%d;%d;%dM' "$b" $(($1 + 1)) $(($2 + 1))
	[ "$b" -ge 64 ] || printf '\033[<%d;%d;%dm' "$b" $(($1 + 1)) $(($2 + 1))
}
click() { T send-keys -t main -H $(x10 "$@"); }
# the line (0-based) whose text matches ERE, and the column of WORD in it
line_of() { screen | grep -nE -- "$1" | head -n 1 | cut -d: -f1 | awk '{ print $1 - 1 }'; }
col_of() { screen | sed -n "$(($1 + 1))p" | awk -v w="$2" '{ print index($0, w) - 1 }'; }
# SEL: the symbol of the selected row, its menu's title (Enter), the
# menu closed again
selected() {
	keys Enter
	wait_for '^  Annotate ' 10
	SEL=$(screen | sed -n 1p | sed 's/ *$//')
	keys Escape
	wait_for '^F1 help' 15
}

bg "$WL/spin3" 0
SPIN=$LAST_BG

# --- Esc --------------------------------------------------------------
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a' 30
wait_for '^F1 help  F2 setup  F3 search  F4 filter  F5 tree  F6 sort  F10 quit' 20
# nothing to undo: it says so, and the next key is the table's
keys Escape
wait_for '^nothing to undo: q quits$' 10
screen | grep -q 'Quit ptop' && fail "Esc asked to quit"
keys /
wait_for '^Filter symbols:' 10
keys Escape
wait_for '^F1 help' 15
# Esc and / in one write (ESCDELAY): the filter too
T send-keys -t main -H 1b 2f
wait_for '^Filter symbols:' 10
keys s p i n _ b Enter
wait_for "^filters: symbol ~ 'spin_b'" 10
wait_top 'spin_b'
# the order and the grouping go on the filters: line, and Esc takes them
# back, the last first
keys '>'
wait_for "^filters: symbol ~ 'spin_b', sort sample$" 10
keys Escape
wait_for "^filters: symbol ~ 'spin_b'$" 10
keys Escape
wait_gone '^filters:' 10
wait_top 'spin_a'
keys Escape
wait_for '^nothing to undo: q quits$' 10

# --- sorting never regroups ---------------------------------------------
keys s
wait_for '^Sort and group' 10
wait_for '^ +\[ \] comm$' 10
# comm is offered as a grouping, not as an order: grouped by it, the
# rows still ordered by overhead (spin_a first, not [unknown] A to Z)
n=$(screen | grep -n '^ *\[ \] comm$' | cut -d: -f1)
m=$(screen | grep -n '^ *\* overhead' | cut -d: -f1)
i=0
while [ $i -lt $((n - m)) ]; do keys Down; i=$((i + 1)); done
keys Enter
wait_for '^ +\[x\] comm$' 10
keys Escape
wait_for '^filters: grouped by dso,sym,comm$' 10
wait_for '^Overhead +Samples +History +Shared Object +Command +Symbol' 10
wait_top 'spin3 +spin3 +\[\.\] spin_a'
keys Escape
wait_gone '^filters:' 10
wait_for '^Overhead +Samples +History +Shared Object +Symbol' 10

# --- F3 search, F4 filter -------------------------------------------------
keys F3
wait_for '^Search \(F3: next' 10
keys s p i n _ c Enter
wait_for '^F1 help' 15
selected
[ "$SEL" = spin_c ] || fail "F3 spin_c selected '$SEL', not spin_c"
screen | grep -q '^filters:' && fail "the search filtered the rows"
keys F4
wait_for '^Filter symbols:' 10
keys Escape
quit_clean
restart

# --- F2: the setup screen saves the settings file ------------------------
mkdir -p "$TMP/no-config/ptop"
printf '# mine, kept\ndelay = 0.5\n' > "$TMP/no-config/ptop/config"
chmod 600 "$TMP/no-config/ptop/config"
run "$PTOP" -p "$SPIN"
wait_top 'spin_a' 30
keys F2
wait_for '^Setup \(' 10
wait_for '^  Refresh +every 0.5 s$' 10
wait_for '^  Period column +hidden$' 10
keys Down Down Enter
wait_for '^  Period column +shown$' 10
keys w
wait_for "saved to $TMP/no-config/ptop/config" 10
keys Escape
wait_for '^Overhead +Samples +Period +History +Shared Object' 10
quit_clean
grep -qx '# mine, kept' "$TMP/no-config/ptop/config" || fail "the comment is gone: $(cat "$TMP/no-config/ptop/config")"
grep -qx 'delay = 0.5' "$TMP/no-config/ptop/config" || fail "delay is gone: $(cat "$TMP/no-config/ptop/config")"
grep -qx 'show-period' "$TMP/no-config/ptop/config" || fail "show-period not saved: $(cat "$TMP/no-config/ptop/config")"
restart
# the next run reads it
run "$PTOP" -p "$SPIN"
wait_for '^Overhead +Samples +Period +History +Shared Object' 30
quit_clean
restart
# --no-config does not read it, and w still saves there what is shown
# (the Period column hidden: its line goes, the others stay)
run "$PTOP" -p "$SPIN" --no-config
wait_top 'spin_a' 30
wait_for '^Overhead +Samples +History +Shared Object' 10
keys F2
wait_for '^Setup \(' 10
wait_for '^  Period column +hidden$' 10
keys w
wait_for "saved to $TMP/no-config/ptop/config" 10
keys Escape
quit_clean
grep -qx 'show-period' "$TMP/no-config/ptop/config" && fail "show-period kept: $(cat "$TMP/no-config/ptop/config")"
grep -qx '# mine, kept' "$TMP/no-config/ptop/config" || fail "--no-config: the comment is gone: $(cat "$TMP/no-config/ptop/config")"
restart
rm "$TMP/no-config/ptop/config"

# --- the mouse: X10 in tmux's screen terminal ----------------------------
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a' 30
wait_for '^F1 help' 20
[ "$(T display -p -t main '#{mouse_any_flag}')" = 1 ] || fail "the mouse is not taken"
# motion with a button held (1002: drags) is asked for, after ncurses's
# own 1000 that would turn it off
[ "$(T display -p -t main '#{mouse_button_flag}')" = 1 ] || fail "drags (1002) not asked for"
# a click on a row selects it, a double click (both clicks in one write)
# is Enter: the row's menu
y=$(line_of ' spin3 +\[\.\] spin_c$')
[ -n "$y" ] || fail "no such row"
T send-keys -t main -H $(x10 10 "$y") $(x10 10 "$y")
wait_for '^spin_c *$' 10
keys Escape
wait_for '^F1 help' 15
# the wheel moves the selection (down three rows, from the first)
keys Home
y=$(line_of ' spin3 +\[\.\] spin_b$')
[ -n "$y" ] || fail "no such row"
T send-keys -t main -H $(x10 10 "$y" 65)
wait_for '^F1 help' 15
selected
[ "$SEL" != spin_a ] || fail "the wheel did not move the selection"
# a click on a column's title sorts by it; again, the other way
y=$(line_of '^Overhead  Samples')
x=$(col_of "$y" Samples)
click "$x" "$y"
wait_for '^filters: sort sample$' 10
y=$(line_of '^Overhead  Samples')
click "$x" "$y"
wait_for '^filters: sort sample inverted$' 10
keys Escape
wait_gone '^filters:' 10
# a click on the footer's F6 opens the picker (once the status line
# shows the keys again)
wait_for '^F1 help' 15
y=$(line_of '^F1 help')
x=$(col_of "$y" 'F6 sort')
click "$x" "$y"
wait_for '^Sort and group' 10
keys Escape
quit_clean
# the terminal's mouse is its own again
[ "$(T display -p -t main '#{mouse_any_flag}')" = 0 ] || fail "mouse reporting left on after q"
[ "$(T display -p -t main '#{mouse_button_flag}')" = 0 ] || fail "1002 left on after q"
restart

# --- SGR 1006 in an xterm terminal, past column 223 ---------------------
printf 'exec env TERM=xterm-256color %s -p %s -d 0.5\n' "$PTOP" "$SPIN" > "$TMP/cmd"
T new-session -d -x 260 -y 40 -s main \
	"sh $TMP/cmd; echo PTOP-EXIT=\$?; stty -a | grep -o -- '-*icanon' | sed 's/^/TTY-/'; sleep 600"
wait_top 'spin_a' 30
wait_for '^F1 help' 20
[ "$(T display -p -t main '#{mouse_sgr_flag}')" = 1 ] || fail "SGR 1006 not asked for in an xterm terminal"
# a double click (ordered by overhead, spin_c is among the first rows;
# A to Z, kernel functions may push it off the screen)
y=$(line_of ' spin3 +\[\.\] spin_c$')
[ -n "$y" ] || fail "no spin_c row"
T send-keys -t main -l "$(sgr 10 "$y")$(sgr 10 "$y")"
wait_for '^spin_c *$' 10
keys Escape
wait_for '^F1 help' 15
y=$(line_of '^Overhead  Samples')
# the Symbol column takes the rest of the line: column 240
T send-keys -t main -l "$(sgr 240 "$y")"
wait_for '^filters: sort sym$' 10
quit_clean
restart

# --- --no-mouse: the terminal keeps its selection --------------------------
run "$PTOP" -p "$SPIN" -d 0.5 --no-mouse
wait_top 'spin_a' 30
[ "$(T display -p -t main '#{mouse_any_flag}')" = 0 ] || fail "--no-mouse took the mouse"
quit_clean
restart
# the settings file's no-mouse too, and --mouse over it
mkdir -p "$TMP/no-config/ptop"
printf 'no-mouse\n' > "$TMP/no-config/ptop/config"
chmod 600 "$TMP/no-config/ptop/config"
run "$PTOP" -p "$SPIN" -d 0.5
wait_top 'spin_a' 30
wait_for '^F1 help' 20
[ "$(T display -p -t main '#{mouse_any_flag}')" = 0 ] || fail "the file's no-mouse took the mouse"
quit_clean
restart
run "$PTOP" -p "$SPIN" -d 0.5 --mouse
wait_top 'spin_a' 30
wait_for '^F1 help' 20
[ "$(T display -p -t main '#{mouse_any_flag}')" = 1 ] || fail "--mouse over the file's no-mouse: not taken"
quit_clean
restart
rm "$TMP/no-config/ptop/config"

# --- the flame graph: a click selects a frame, a double click zooms --------
run "$PTOP" -g -d 0.5 -- "$WL/cgwork" 0
wait_for ' lib_work$' 30
# F5: every call tree, then none
keys F5
wait_for '^every call tree expanded' 10
wait_for '^ +---main$' 10
wait_for '^ +\|--[0-9.]+%--outer$' 10
keys F5
wait_for '^every call tree collapsed' 10
wait_gone '^ +---main$' 10
keys F
wait_for '^Flame graph of ' 10
# lib_work's first frame, wherever it starts (a frame of a sample or two,
# drawn as '.', may come before it in its line)
y=$(line_of '(^|[ .])lib_work( |$)')
[ -n "$y" ] || fail "no lib_work frame line"
x=$(col_of "$y" lib_work)
[ "$x" -ge 0 ] || fail "no lib_work frame in line $y"
T send-keys -t main -H $(x10 "$x" "$y")
wait_for '^lib_work +libwlcg.so +[0-9.]+%' 10
T send-keys -t main -H $(x10 "$x" "$y") $(x10 "$x" "$y")
wait_for 'zoomed into lib_work' 10
keys q
wait_for '^Children +Self' 10
quit_clean
exit 0
