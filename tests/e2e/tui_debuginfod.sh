#!/bin/sh
# The live view with a real debuginfod server (Debian's, on 127.0.0.1):
# the rows of a stripped program get their names when its debug file
# arrives; the server stopped mid-run: the next program's fetch fails
# with a message on the status line and the view goes on refreshing; a
# server that accepts and never answers: the view refreshes while it
# waits, then a message (DEBUGINFOD_TIMEOUT) and it goes on.
. tests/e2e/tmux.inc
. tests/integration/debuginfod.inc

split annwork
split spin3
start_server

# refreshes: 0 when the header's sample count moves within 10 s
refreshes() {
	n1=$(samples)
	end=$(( $(date +%s) + 10 ))
	while [ "$(samples)" = "$n1" ] && [ "$(date +%s)" -le "$end" ]; do
		sleep 0.1
	done
	[ "$(samples)" != "$n1" ]
}

# annwork, then (once the test says so) spin3, both stripped
cat > "$TMP/work.sh" <<EOF
"$TMP/bin/annwork" 4
i=0
while [ ! -e "$TMP/go" ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
exec "$TMP/bin/spin3" 30
EOF
run env DEBUGINFOD_URLS="$URL" XDG_CACHE_HOME="$XDG_CACHE_HOME" \
	"$PTOP" -e cpu-clock -d 0.5 -- sh "$TMP/work.sh"
wait_for 'annwork +\[\.\] ann_outer *$' 30
screen | grep -q 'annwork  *\[\.\] func_0x' && fail "func_0x rows left for annwork"

# the server goes away; spin3's debug file cannot come
stop_server
touch "$TMP/go"
wait_for 'spin3 +\[\.\] func_0x' 30
# the shell running work.sh (dash, stripped) is asked for too: the status
# line shows the newest failure, whichever it is
wait_for 'debuginfod: (the debug info of (spin3|dash): |[0-9]+ fetches in a row failed)' 30
refreshes || fail "the view stopped refreshing after the failure"
quit_clean
# what was on the status line is written out at the exit
screen | grep -q 'warning: debuginfod: the debug info of spin3: ' ||
	fail "no failure message for spin3"
restart

# a silent server: the view refreshes while the fetch waits, then a
# message after DEBUGINFOD_TIMEOUT seconds
start_hang
run env DEBUGINFOD_URLS="http://127.0.0.1:$HANG_PORT" DEBUGINFOD_TIMEOUT=4 \
	XDG_CACHE_HOME="$TMP/cache2" "$PTOP" -e cpu-clock -d 0.5 -- \
	"$TMP/bin/spin3" 40
wait_for 'spin3 +\[\.\] func_0x' 20
refreshes || fail "the view does not refresh while the fetch waits"
wait_for 'debuginfod: the debug info of spin3: no answer for 4 s' 30
refreshes || fail "the view stopped refreshing after the timeout"
quit_clean
exit 0
