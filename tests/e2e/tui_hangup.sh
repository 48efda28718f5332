#!/bin/sh
# SIGHUP (a terminal that closes, an ssh session that drops) ends ptop as
# q does: under sh and under bash the terminal is restored and the
# screen left clean, exit status 0, and -o's file is finished (perf
# report reads it).  A pane killed under ptop: ptop ends by itself and
# its file is finished too.
. tests/e2e/tmux.inc
need bash

bg "$WL/spin3" 60
SPIN=$LAST_BG

# pid_in_pane: ptop among the processes of the pane's session (the pane's
# shell leads it), whatever shell sits between
pid_in_pane() {
	pgrep -s "$(T display -p -t main '#{pane_pid}')" -x ptop | head -n 1
}

# hup_in SHELL: ptop started by SHELL (not exec'ed), then SIGHUP
hup_in() {
	printf '"%s" -p %s -d 0.5 %s\necho PTOP-EXIT=$?\nstty -a | grep -o -- "-*icanon" | sed "s/^/TTY-/"\n' \
		"$PTOP" "$SPIN" "${2:-}" > "$TMP/hup.sh"
	T new-session -d -x 120 -y 40 -s main "$1 $TMP/hup.sh; sleep 600"
	wait_top 'spin_a'
	p=$(pid_in_pane)
	[ -n "$p" ] || fail "no ptop in the pane ($1)"
	kill -HUP "$p"
	wait_for '^PTOP-EXIT=0$' 10
	wait_for '^TTY-icanon$' 5
	# the table went with the alternate screen, as after q
	screen | grep -q '^Overhead' && fail "the table is still on the screen ($1)"
	return 0
}

hup_in sh
restart
hup_in bash
restart

# perf report reads what ptop -o wrote: header sizes, features
report() {
	command -v perf > /dev/null || return 0
	perf --buildid-dir "$TMP/.debug" report -i "$1" --stdio --sort sym \
		> "$TMP/rep.txt" 2> "$TMP/rep.err" ||
		fail "perf report -i $1 failed: $(head -5 "$TMP/rep.err")"
	grep -q 'spin_a' "$TMP/rep.txt" ||
		fail "perf report of $1 has no spin_a: $(head -20 "$TMP/rep.txt")"
}

# -o FILE, SIGHUP under sh
hup_in sh "-o $TMP/sh.data"
report "$TMP/sh.data"
restart

# -o FILE, SIGHUP under bash
hup_in bash "-o $TMP/bash.data"
report "$TMP/bash.data"
restart

# the pane goes away under ptop (the kernel hangs its terminal up)
run "$PTOP" -p "$SPIN" -d 0.5 -o "$TMP/kill.data"
wait_top 'spin_a'
p=$(ptop_pid)
[ -n "$p" ] || fail "no ptop in the pane"
T kill-pane -t main
end=$(( $(date +%s) + 10 ))
while kill -0 "$p" 2> /dev/null && [ "$(date +%s)" -le "$end" ]; do
	sleep 0.1
done
kill -0 "$p" 2> /dev/null && fail "ptop still runs 10 s after its pane was killed"
report "$TMP/kill.data"
echo "ok"
