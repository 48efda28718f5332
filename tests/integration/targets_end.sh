#!/bin/sh
# How targets end and what ptop says of them (doc/ptop.1): the command
# of `-- COMMAND` dies with ptop, even when ptop is killed with SIGKILL
# (no handler runs then); a program that cannot run is named; a command
# that exits 3 or dies of SIGSEGV is said so; -p of a zombie says it has
# exited; -p of a kernel thread says what can sample it; non-root
# --off-cpu with tracefs mounted but unreadable says so, not "not
# mounted".
. tests/integration/lib.sh

# SIGKILL of ptop: the command goes too
"$PTOP" -b -e cpu-clock -d 1 -- "$WL/spin3" 0 > /dev/null 2>&1 &
PT=$!
BG="$BG $PT"
wait_until 30 "the command's start" sh -c "pgrep -P $PT -x spin3 > /dev/null"
CHILD=$(pgrep -P "$PT" -x spin3)
BG="$BG $CHILD"
kill -KILL "$PT"
wait "$PT" 2> /dev/null
# gone, or a zombie nobody reaped yet: not running
not_running() {
	st=$(ps -o stat= -p "$CHILD" 2> /dev/null)
	[ -z "$st" ] || [ "${st#Z}" != "$st" ]
}
wait_until 10 "spin3's end after SIGKILL of ptop" not_running

# a program that cannot run is named
"$PTOP" -b -n 1 -- /nonexistent/prog > /dev/null 2> "$TMP/err" &&
	fail "ptop -- /nonexistent/prog exited 0"
grep -q "cannot run '/nonexistent/prog': No such file or directory" \
	"$TMP/err" || fail "the program is not named: $(cat "$TMP/err")"

# how the command ended
"$PTOP" -b -e cpu-clock -d 10 -- sh -c "\"$WL/spin3\" 0.2; exit 3" \
	> "$TMP/out" 2> "$TMP/err" || fail "ptop failed: $(cat "$TMP/err")"
grep -q '^# the command exited with status 3$' "$TMP/out" ||
	fail "exit 3: $(grep '^# the' "$TMP/out") $(cat "$TMP/err")"
"$PTOP" -b -e cpu-clock -d 10 -- sh -c "\"$WL/spin3\" 0.2; kill -SEGV \$\$" \
	> "$TMP/out" 2> "$TMP/err" || fail "ptop failed: $(cat "$TMP/err")"
grep -q '^# the command was killed by SIGSEGV' "$TMP/out" ||
	fail "SIGSEGV: $(grep '^# the' "$TMP/out") $(cat "$TMP/err")"
"$PTOP" -b -e cpu-clock -d 10 -- "$WL/spin3" 0.2 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop failed: $(cat "$TMP/err")"
grep -q '^# the command exited$' "$TMP/out" ||
	fail "exit 0: $(grep '^# the' "$TMP/out")"

# -p of a zombie: it has exited
python3 -c '
import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(pid))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)' "$TMP/zombie" &
BG="$BG $!"
wait_until 30 "the zombie" test -s "$TMP/zombie"
Z=$(cat "$TMP/zombie")
wait_until 10 "the zombie's state" sh -c "ps -o stat= -p $Z | grep -q Z"
"$PTOP" -b -n 1 -d 0.5 -p "$Z" > /dev/null 2> "$TMP/err" &&
	fail "-p of a zombie exited 0"
grep -q "process $Z (python3) has exited: a zombie" "$TMP/err" ||
	fail "-p of a zombie: $(cat "$TMP/err")"

# -p of a kernel thread (kthreadd, pid 2)
[ "$(cat /proc/2/comm)" = kthreadd ] || skip "pid 2 is not kthreadd here"
"$PTOP" -b -n 1 -d 0.5 -e cpu-clock:u -p 2 > /dev/null 2> "$TMP/err" ||
	fail "-p 2: $(cat "$TMP/err")"
grep -q '2 (kthreadd) is a kernel thread: user-space events' "$TMP/err" ||
	fail "-p of a kernel thread with :u: $(cat "$TMP/err")"
if [ "$(id -u)" = 0 ]; then
	"$PTOP" -b -n 1 -d 0.5 -e cpu-clock -p 2 > /dev/null 2> "$TMP/err" ||
		fail "-p 2: $(cat "$TMP/err")"
	grep -q '2 (kthreadd) is a kernel thread: its kernel code' "$TMP/err" ||
		fail "-p of a kernel thread: $(cat "$TMP/err")"
fi

# non-root --off-cpu, tracefs mounted but root's alone
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null &&
	! setpriv --reuid 65534 --regid 65534 --clear-groups \
		test -r /sys/kernel/tracing/events; then
	setpriv --reuid 65534 --regid 65534 --clear-groups "$PTOP" -b -n 1 \
		--off-cpu -p $$ > /dev/null 2> "$TMP/err" &&
		fail "non-root --off-cpu exited 0"
	grep -q 'tracefs is mounted on /sys/kernel/tracing, but only root may read it' \
		"$TMP/err" || fail "non-root --off-cpu: $(cat "$TMP/err")"
	grep -q 'not available' "$TMP/err" &&
		fail "said not mounted: $(cat "$TMP/err")"
else
	echo "tracefs readable by others here: the non-root case is not run"
fi
echo ok
