#!/bin/sh
# --push from the live view: while the table refreshes, profiles reach a
# stand-in of Pyroscope's ingest handler (tests/integration/ingest_server.py,
# which checks each request as the handler does), the header counts them,
# and q ends ptop at once with the total said on stderr.  With the server
# gone the view goes on and the header says why pushing fails.
. tests/e2e/tmux.inc
need python3

mkdir -p "$TMP/srv"
bg python3 tests/integration/ingest_server.py ok "$TMP/srv"
SRV=$LAST_BG
wait_until 20 "the server's port" test -s "$TMP/srv/port"
PORT=$(cat "$TMP/srv/port")

run "$PTOP" -d 1 --push "http://127.0.0.1:$PORT" -e cpu-clock -- "$WL/spin3" 30
wait_for '\[\.\] spin_a$' 10
wait_for '^push: [2-9][0-9]* profiles sent, 0 dropped, [0-9]+ waiting$' 20
ls "$TMP"/srv/*.bad > /dev/null 2>&1 &&
	fail "the server refused: $(cat "$TMP"/srv/*.bad | head -3)"
# the server goes away: the view goes on, the header says so
kill $SRV
wait $SRV 2> /dev/null
wait_for '^push: .*; server unreachable: ' 20
n=$(samples)
wait_until 20 "more samples" samples_at_least $((n + 1000))
quit_clean
exit 0
