#!/bin/sh
# --push: profiles sent to a stand-in for Pyroscope's ingest handler
# (ingest_server.py, on 127.0.0.1, checking each request as the handler
# does) and read back by go tool pprof.
#  - batch: a profile per refresh with samples (at most), each a window (their
#    samples add up to the last table's exactly), labels hostname, event
#    and --label; go tool pprof's shares of the merged windows are the
#    table's within 0.5 point;
#  - -i: one profile of the whole recording, its samples the file's;
#  - a server that fails twice (503): retried, nothing dropped;
#  - a refused port, a server that never answers, one that closes the
#    connection: ptop goes on, exits 0 promptly, counts and says it.
. tests/integration/lib.sh

command -v go > /dev/null 2>&1 || fail "no go (golang-go): scripts/install-deps.sh test"
need python3
need perf
export HOME="$TMP" GOCACHE="$TMP/gocache" GOFLAGS=-mod=mod
SERVER=tests/integration/ingest_server.py

serve() {	# serve MODE DIR: starts the server, sets PORT
	mkdir -p "$2"
	bg python3 "$SERVER" "$1" "$2"
	wait_until 20 "the $1 server's port" test -s "$2/port"
	PORT=$(cat "$2/port")
}

# samples FILE...: go tool pprof's total of samples/count
samples() {
	go tool pprof -symbolize=none -raw "$@" 2> "$TMP/pperr" | awk '
		/^Samples:/ { on = 1; next } on && /^ *[0-9]+ +[0-9]+:/ { s += $1 }
		/^Locations/ { on = 0 } END { print s + 0 }'
}

# flat NAME FILE...: go tool pprof's flat% of NAME, windows merged
flat() {
	n=$1
	shift
	go tool pprof -symbolize=none -sample_index=samples -top -nodecount=100000 \
		-nodefraction=0 -edgefraction=0 "$@" 2> "$TMP/pperr" |
		awk -v n="$n" '$6 == n { sub("%", "", $2); print $2; f = 1 }
			END { if (!f) print 0 }'
}

# "N profiles", "1 profile"
profiles() { if [ "$1" = 1 ]; then echo "1 profile"; else echo "$1 profiles"; fi; }

# --- batch, a server that takes everything ---
serve ok "$TMP/ok"
"$PTOP" -b --json -d 1 --push "http://127.0.0.1:$PORT/" --label env=test \
	--app-name spinner -e cpu-clock -- "$WL/spin3" 3 > "$TMP/out.json" \
	2> "$TMP/err" || fail "ptop --push exited with $?: $(cat "$TMP/err")"
ls "$TMP"/ok/*.bad > /dev/null 2>&1 &&
	fail "the server refused: $(cat "$TMP"/ok/*.bad | head -3)"
n=$(ls "$TMP"/ok/*.pb.gz 2> /dev/null | wc -l)
tables=$(jq -s '[.[] | select(.samples > 0)] | length' "$TMP/out.json")
# one per refresh, but a refresh that comes less than half a period after
# a late one (a loaded machine) joins the next window: the samples below
# say that nothing was lost
[ "$n" -ge 2 ] && [ "$n" -le "$tables" ] ||
	fail "$n profiles received for $tables tables with samples"
grep -q "push: $(profiles "$n") sent, 0 dropped" "$TMP/err" ||
	fail "no summary of $n profiles sent: $(cat "$TMP/err")"
q=$(cat "$TMP/ok/1.query")
case "$q" in
name=spinner%7Bhostname%3D*%2Cevent%3Dcpu-clock%2Cenv%3Dtest%7D\&from=*) ;;
*) fail "query: $q" ;;
esac
echo "$q" | grep -q '&format=pprof&sampleRate=4000&' || fail "query: $q"
# the windows add up to the last (cumulative) table
got=$(samples "$TMP"/ok/*.pb.gz)
want=$(tail -n 1 "$TMP/out.json" | jq .samples)
[ "$got" = "$want" ] || fail "windows hold $got samples, the last table $want"
for s in spin_a spin_b spin_c; do
	mine=$(tail -n 1 "$TMP/out.json" | jq -r --arg s "$s" \
		'[.rows[] | select(.symbol == $s) | .overhead] | add // 0')
	theirs=$(flat "$s" "$TMP"/ok/*.pb.gz)
	echo "$s: table $mine %, pushed windows $theirs %"
	near "$theirs" "$mine" 0.5 "$s's share in the pushed profiles"
done
# the JSON says what was pushed (as of each table)
tail -n 1 "$TMP/out.json" | jq -e '.push.unreachable == false and
	.push.dropped == 0' > /dev/null ||
	fail "JSON push: $(tail -n 1 "$TMP/out.json" | jq -c .push)"

# --- -i: the whole recording, once ---
perf record --buildid-mmap -q -e cpu-clock -F 2000 -o "$TMP/rec.data" -- \
	"$WL/spin3" 1 > /dev/null 2> "$TMP/recerr" ||
	fail "perf record --buildid-mmap -e cpu-clock -F 2000 -- spin3 1: $(cat "$TMP/recerr")"
serve ok "$TMP/file"
"$PTOP" -i "$TMP/rec.data" -b --json --push "http://127.0.0.1:$PORT" \
	> "$TMP/file.json" 2> "$TMP/err" || fail "ptop -i --push: $(cat "$TMP/err")"
n=$(ls "$TMP"/file/*.pb.gz 2> /dev/null | wc -l)
[ "$n" = 1 ] || fail "-i: $n profiles received, not 1"
grep -q "push: 1 profile sent, 0 dropped" "$TMP/err" ||
	fail "-i: no summary of 1 profile sent: $(cat "$TMP/err")"
got=$(samples "$TMP"/file/1.pb.gz)
want=$(tail -n 1 "$TMP/file.json" | jq .samples)
[ "$got" = "$want" ] || fail "-i: the profile holds $got samples, the file $want"
grep -q 'name=ptop%7Bhostname' "$TMP/file/1.query" ||
	fail "-i: the application is not ptop: $(cat "$TMP/file/1.query")"

# --- a server that fails twice: retried, nothing lost ---
serve flaky "$TMP/flaky"
"$PTOP" -b --json -d 1 --push "http://127.0.0.1:$PORT" -e cpu-clock -- \
	"$WL/spin3" 2 > "$TMP/flaky.json" 2> "$TMP/err" ||
	fail "ptop --push (flaky): $(cat "$TMP/err")"
grep -q 'HTTP 503.*retrying' "$TMP/err" || fail "no retry said: $(cat "$TMP/err")"
grep -q 'accepts profiles again' "$TMP/err" || fail "no recovery said: $(cat "$TMP/err")"
n=$(ls "$TMP"/flaky/*.pb.gz 2> /dev/null | wc -l)
grep -q "push: $(profiles "$n") sent, 0 dropped" "$TMP/err" ||
	fail "flaky: $n received; $(cat "$TMP/err")"
got=$(samples "$TMP"/flaky/*.pb.gz)
want=$(tail -n 1 "$TMP/flaky.json" | jq .samples)
[ "$got" = "$want" ] || fail "flaky: $got samples received, $want in the table"

# --- servers that refuse, hang, close: ptop goes on and ends promptly ---
# (the workload's CPU time is fixed; the bound is generous: without the
# flush deadline each waiting profile would hold the exit 10 s)
free_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
serve hang "$TMP/hang"
hang_port=$PORT
serve close "$TMP/close"
close_port=$PORT
for case in "refused $free_port" "hang $hang_port" "close $close_port"; do
	set -- $case
	start=$(date +%s)
	"$PTOP" -b --json -d 1 --push "http://127.0.0.1:$2" -e cpu-clock -- \
		"$WL/spin3" 2 > "$TMP/$1.json" 2> "$TMP/err" ||
		fail "$1: ptop exited with $?: $(cat "$TMP/err")"
	end=$(date +%s)
	cpu=$(tail -n 1 "$TMP/$1.json" | jq .time)
	echo "$1: $((end - start)) s wall for $cpu s of run; $(grep 'push:' "$TMP/err" | tail -n 1)"
	awk -v w=$((end - start)) -v r="$cpu" 'BEGIN { exit !(w <= r + 8) }' ||
		fail "$1: ptop took $((end - start)) s for a $cpu s run"
	grep -q 'push: 0 profiles sent, [1-9][0-9]* dropped; last error: ' "$TMP/err" ||
		fail "$1: the summary: $(cat "$TMP/err")"
	tables=$(jq -s 'length' "$TMP/$1.json")
	[ "$tables" -ge 2 ] || fail "$1: $tables tables: the view did not go on"
	# (a request that hangs is not yet a failure: the profiles wait)
	tail -n 1 "$TMP/$1.json" | jq -e '.push.pushed == 0 and
		(.push.unreachable or .push.queued > 0)' > /dev/null ||
		fail "$1: JSON push: $(tail -n 1 "$TMP/$1.json" | jq -c .push)"
	# ptop's own bounds in its words, not curl's
	grep -q 'aborted by an application callback\|Timeout was reached' \
		"$TMP/err" && fail "$1: curl's words: $(cat "$TMP/err")"
	if [ "$1" = hang ]; then
		grep -q "no answer before ptop's exit\|no answer within [0-9]* s (ptop's timeout)" \
			"$TMP/err" || fail "hang: the reason: $(cat "$TMP/err")"
	fi
done
# the tables say what waits, and for how long nothing came back
"$PTOP" -b -d 1 -n 4 --push "http://127.0.0.1:$hang_port" -e cpu-clock -- \
	"$WL/spin3" 6 > "$TMP/hang.txt" 2> "$TMP/err" ||
	fail "hang: ptop exited with $?: $(cat "$TMP/err")"
grep '^# push:' "$TMP/hang.txt"
grep -q '^# push: 0 profiles sent, 0 dropped, [1-9][0-9]* waiting; no answer for [0-9]* s' \
	"$TMP/hang.txt" || fail "hang: no word of the waiting: $(grep 'push' "$TMP/hang.txt")"
exit 0
