#!/bin/sh
# What start-up says reaches the live view's status line, not the
# terminal behind the alternate screen: the default event's fallback
# from cycles to cpu-clock (no PMU here), and a settings file ignored
# (writable by others); both are written to stderr once the terminal
# is back.  And NO_COLOR, --no-color, --color: the attributes drawn.
. tests/e2e/tmux.inc

mkdir -p "$TMP/no-config/ptop"
printf 'sort = comm\n' > "$TMP/no-config/ptop/config"
chmod 666 "$TMP/no-config/ptop/config"

run "$PTOP" -d 0.5 -- "$WL/spin3" 0
wait_for '^event ' 30
fallback=0
if screen | grep -q '^event cpu-clock'; then
	# no PMU: the fallback is the newest message, the file's before it
	wait_for 'falling back to cpu-clock \(\+1 more\)' 10
	fallback=1
else
	wait_for 'config: ignored: writable by its group or others' 10
fi
wait_top 'spin_a'
# ignored: grouped by the default, not by comm
screen | grep -Eq '^Overhead +Samples +History +Shared Object' ||
	fail "the ignored file was applied"
keys q
wait_for '^PTOP-EXIT=0$' 10
# once the terminal is back: each said once on stderr
[ "$(screen | grep -c 'ptop: warning: .*config: ignored: writable')" -eq 1 ] ||
	fail "the file's warning is not on stderr once"
if [ "$fallback" = 1 ]; then
	[ "$(screen | grep -c 'ptop: warning: .*falling back to cpu-clock')" -eq 1 ] ||
		fail "the fallback is not on stderr once"
fi
restart
rm "$TMP/no-config/ptop/config"

# colours: the selected row's attributes (tmux's capture-pane -e)
sel_line() {
	T capture-pane -p -e -t main | grep 'spin_a' | head -n 1
}
for mode in default no_color no_color_flag color_over_env; do
	case $mode in
	default) run "$PTOP" -d 0.5 -- "$WL/spin3" 0 ;;
	no_color) run env NO_COLOR=1 "$PTOP" -d 0.5 -- "$WL/spin3" 0 ;;
	no_color_flag) run "$PTOP" --no-color -d 0.5 -- "$WL/spin3" 0 ;;
	color_over_env) run env NO_COLOR=1 "$PTOP" --color -d 0.5 -- "$WL/spin3" 0 ;;
	esac
	wait_top 'spin_a'
	line=$(sel_line)
	# colour pairs come as SGR 30-47 (or 38;5/48;5); plain attributes
	# (reverse 7, bold 1) do not
	if printf '%s' "$line" | grep -Eq '\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;[0-9;]*)?m'; then
		coloured=1
	else
		coloured=0
	fi
	case $mode in
	default | color_over_env) [ "$coloured" = 1 ] || fail "$mode: no colours: $line" ;;
	*) [ "$coloured" = 0 ] || fail "$mode: colours: $line" ;;
	esac
	quit_clean
	restart
done
exit 0
