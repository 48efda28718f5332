#!/bin/sh
# -- COMMAND in the live view: the command's output never reaches the
# terminal behind curses (the header stays whole), its newest line is on
# the status line (sanitized), its stdin is /dev/null (the keys are the
# view's), and all it wrote is printed once the terminal is restored.
. tests/e2e/tmux.inc

# a line with an escape sequence that would clear the screen, then a
# line to see, a read that must see end of file at once, the workload
cat > "$TMP/cmd.sh" <<'SH'
printf 'hostile-\033[2J-line\n'
printf 'second-line\n'
read x && echo "read:[$x]" || echo "read:eof"
exec "$1" 6
SH
run "$PTOP" -d 1 -e cpu-clock -- sh "$TMP/cmd.sh" "$WL/spin3"
wait_top 'spin_a'
wait_for 'sh: read:eof' 10
screen | sed -n 1p | grep -q '^event cpu-clock' ||
	fail "the header's first line was overwritten: $(screen | sed -n 1p)"
screen | grep -q 'second-line' && fail "the command wrote to the terminal behind curses"
# the keys are still the view's: h opens the help
keys h
wait_for '^ptop keys'
keys Escape
wait_top 'spin_a'
quit_clean
# after the view: what the command wrote, as it wrote it (its escape
# sequence cleared the screen, as it would have without ptop)
out=$(screen)
echo "$out" | grep -q '^second-line$' || fail "no replay of the output"
echo "$out" | grep -q '^read:eof$' || fail "no replay of the last line"
[ "$(echo "$out" | grep -n '^read:eof$' | cut -d: -f1)" -lt \
  "$(echo "$out" | grep -n '^PTOP-EXIT=' | cut -d: -f1)" ] ||
	fail "the replay did not come before ptop exited"
echo "ok"
