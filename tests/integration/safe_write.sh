#!/bin/sh
# As root among other users (doc/ptop.1, SECURITY): every file ptop
# writes into a 1777 folder where a second, unprivileged user planted
# links, before the run and during it (once the first table is out):
# --pprof, --flamegraph and -o never write through a link (at the name or
# at the temporary name ptop used to take, FILE.tmp), an existing -o file
# is kept as FILE.old, new files get their modes (perf.data 0600, exports
# 0644 less the umask), and nothing temporary is left.  Then what is not
# a regular file is written in place, never replaced: /dev/null and
# /dev/full (in a mount namespace of their own, so that a regression
# cannot replace the machine's), a FIFO, a socket, /dev/stdout and
# /proc/self/fd/N.  fs.protected_symlinks is not relied on: the
# machine's is 0.
. tests/integration/lib.sh
second_user
need unshare python3
public_dir
D=$PUB
as_planter ln -s "$VICTIM" "$D/probe" || fail "$PLANTER cannot plant a link in $D"
rm -f "$D/probe"

bg "$WL/spin3" 0
SPIN=$LAST_BG

no_tmp() {
	! ls -A "$D" | grep -q 'ptop-tmp$' ||
		fail "$1: a temporary is left: $(ls -A "$D")"
}
# plant NAME...: links from the second user to the victim at each NAME in $D
plant() {
	for n in "$@"; do
		rm -f "$D/$n"
		as_planter ln -s "$VICTIM" "$D/$n" || fail "cannot plant $n"
	done
}

# --- links planted before the run
plant out.pb.gz out.pb.gz.tmp fg.svg fg.svg.tmp rec.data
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" --pprof "$D/out.pb.gz" \
	> /dev/null 2> "$TMP/err" || fail "--pprof: $(cat "$TMP/err")"
victim_intact "--pprof, links planted before"
is_new "$D/out.pb.gz" 644 "--pprof"
gzip -t "$D/out.pb.gz" || fail "--pprof: not a gzip file"
"$PTOP" -b -g -e cpu-clock -d 0.5 -n 1 -p "$SPIN" --flamegraph "$D/fg.svg" \
	> /dev/null 2> "$TMP/err" || fail "--flamegraph: $(cat "$TMP/err")"
victim_intact "--flamegraph, links planted before"
is_new "$D/fg.svg" 644 "--flamegraph"
grep -q '<svg' "$D/fg.svg" || fail "--flamegraph: no SVG"
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" -o "$D/rec.data" \
	> /dev/null 2> "$TMP/err" || fail "-o: $(cat "$TMP/err")"
victim_intact "-o, a link planted at FILE"
is_new "$D/rec.data" 600 "-o"
[ -L "$D/rec.data.old" ] || fail "-o: the link was not kept as rec.data.old"
"$PTOP" -i "$D/rec.data" -b -E 3 > "$TMP/out" 2> "$TMP/err" ||
	fail "-o's file does not read back: $(cat "$TMP/err")"
grep -q spin "$TMP/out" || fail "-o's file has no spin rows: $(cat "$TMP/out")"
# an existing file is kept as .old, not written into
cp "$D/rec.data" "$TMP/first.data"
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" -o "$D/rec.data" \
	> /dev/null 2> "$TMP/err" || fail "-o again: $(cat "$TMP/err")"
cmp -s "$D/rec.data.old" "$TMP/first.data" ||
	fail "-o: the existing file is not rec.data.old"
is_new "$D/rec.data" 600 "-o over a file"
no_tmp "before the run"

# --- links planted during a run, once its first table is out: every
# refresh rewrites the profile
rm -f "$D"/live.*
"$PTOP" -b -e cpu-clock -d 0.3 -n 8 -p "$SPIN" --pprof "$D/live.pb.gz" \
	> "$TMP/live.out" 2> "$TMP/live.err" &
LIVE=$!
BG="$BG $LIVE"
wait_until 30 "the first table" grep -qs '^# Overhead' "$TMP/live.out"
plant live.pb.gz.tmp
wait "$LIVE" || fail "--pprof during a run: $(cat "$TMP/live.err")"
[ "$(grep -c '^# Overhead' "$TMP/live.out")" -ge 3 ] ||
	fail "fewer than 3 tables: the run ended before it wrote again"
victim_intact "--pprof, a link planted during the run"
is_new "$D/live.pb.gz" 644 "--pprof during a run"
no_tmp "during the run"

# --- not a regular file: written in place, never replaced
# /dev/null, /dev/full in a namespace of their own
cat > "$TMP/devs.sh" << EOF
set -e
mount -t tmpfs ptop-test-dev /dev
mknod -m 666 /dev/null c 1 3
mknod -m 666 /dev/full c 1 7
ln -s /proc/self/fd/1 /dev/stdout
"$PTOP" -b -e cpu-clock -d 0.3 -n 1 -p $SPIN --pprof /dev/null > $TMP/t1 2> $TMP/e1
"$PTOP" -b -e cpu-clock -d 0.3 -n 1 -p $SPIN -o /dev/null > $TMP/t2 2> $TMP/e2
rc=0
"$PTOP" -b -e cpu-clock -d 0.3 -n 1 -p $SPIN --pprof /dev/full > $TMP/t3 2> $TMP/e3 || rc=\$?
echo "full: \$rc" > $TMP/rc3
rc=0
"$PTOP" -b -e cpu-clock -d 0.3 -n 1 -p $SPIN -o /dev/full > $TMP/t4 2> $TMP/e4 || rc=\$?
echo "full: \$rc" > $TMP/rc4
stat -c '%F' /dev/null /dev/full > $TMP/devs
EOF
unshare -m sh "$TMP/devs.sh" > "$TMP/devs.out" 2>&1 ||
	fail "the /dev/null runs: $(cat "$TMP/devs.out") $(cat "$TMP"/e1 "$TMP"/e2 2> /dev/null)"
[ "$(cat "$TMP/devs")" = "character special file
character special file" ] || fail "/dev/null or /dev/full replaced: $(cat "$TMP/devs")"
grep -q '^# Overhead' "$TMP/t1" || fail "--pprof /dev/null: no table"
[ "$(cat "$TMP/rc3")" != "full: 0" ] || fail "--pprof /dev/full exited 0"
grep -q 'No space left on device' "$TMP/e3" ||
	fail "--pprof /dev/full: no ENOSPC message: $(cat "$TMP/e3")"
[ "$(cat "$TMP/rc4")" != "full: 0" ] || fail "-o /dev/full exited 0"
grep -q 'No space left on device' "$TMP/e4" ||
	fail "-o /dev/full: no ENOSPC message: $(cat "$TMP/e4")"

# a FIFO: -o writes perf's pipe stream into it, ptop -i - reads it
mkfifo "$D/fifo"
"$PTOP" -i - -b -E 3 < "$D/fifo" > "$TMP/fifo.out" 2> "$TMP/fifo.err" &
READER=$!
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" -o "$D/fifo" > /dev/null \
	2> "$TMP/err" || fail "-o FIFO: $(cat "$TMP/err")"
wait "$READER" || fail "ptop -i - of the FIFO: $(cat "$TMP/fifo.err")"
grep -q spin "$TMP/fifo.out" || fail "the FIFO's stream: $(cat "$TMP/fifo.out")"
[ -p "$D/fifo" ] || fail "the FIFO was replaced"

# a socket: connected to, the profile received whole
cat > "$TMP/sock.py" << 'EOF'
import gzip, os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
s.settimeout(60)
c, _ = s.accept()
data = b""
while True:
    b = c.recv(65536)
    if not b:
        break
    data += b
gzip.decompress(data)
print("received", len(data))
EOF
python3 "$TMP/sock.py" "$D/sock" > "$TMP/sock.out" 2>&1 &
SOCKSRV=$!
wait_until 30 "the socket" test -S "$D/sock"
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" --pprof "$D/sock" \
	> /dev/null 2> "$TMP/err" || fail "--pprof SOCKET: $(cat "$TMP/err")"
wait "$SOCKSRV" || fail "the socket's server: $(cat "$TMP/sock.out")"
grep -q '^received' "$TMP/sock.out" || fail "nothing received: $(cat "$TMP/sock.out")"
[ -S "$D/sock" ] || fail "the socket was replaced"

# /dev/stdout and /proc/self/fd/N: the descriptor, resolved once
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" -o /dev/stdout \
	2> "$TMP/tables" | "$PTOP" -i - -b -E 3 > "$TMP/out" 2>&1 ||
	fail "-o /dev/stdout | ptop -i -: $(cat "$TMP/out")"
grep -q spin "$TMP/out" || fail "-o /dev/stdout: no stream: $(cat "$TMP/out")"
grep -q '^# Overhead' "$TMP/tables" || fail "-o /dev/stdout: tables not on stderr"
"$PTOP" -b -e cpu-clock -d 0.5 -n 1 -p "$SPIN" --pprof /proc/self/fd/3 \
	3> "$TMP/fd3.pb.gz" > /dev/null 2> "$TMP/err" ||
	fail "--pprof /proc/self/fd/3: $(cat "$TMP/err")"
gzip -t "$TMP/fd3.pb.gz" || fail "--pprof /proc/self/fd/3: not what fd 3 got"
no_tmp "in place"
echo "ok"
