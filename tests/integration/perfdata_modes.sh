#!/bin/sh
# solo: its -a and -C 0 recordings hold other scripts' processes, whose JIT maps and binaries can go between perf report's read and ptop's
# Recording modes as users record (issue 9, section 2): programs nobody
# here wrote (xz, gzip, sort, python3, dd) recorded with perf record
# --buildid-mmap -a, -p PID, -t TID, -C 0, -c N, two events,
# -e page-faults, -e sched:sched_switch -g, -z, -g and --call-graph
# dwarf; ptop -i FILE -b --json compared with perf report --stdio
# --sort dso,sym row by row: perf's top 15 rows of each event are in
# ptop's table under the same dso and name, as many rows of the name,
# within 0.1 point.  Every disagreement is printed before the script
# fails.  The recordings are rebuilt here from their recipes.
#
# Left out of the comparison, on purpose: perf's hex rows (ptop groups a
# stripped binary's addresses into one func_0x row per .eh_frame
# function), and under --children the Children column of hex and
# [unknown] rows (chain addresses and garbage frames are another
# change's matter); the Self column of chains is compared.
#
# Rows are matched by event, shared object and name, never by position.
# Both tools read the same samples, so a row's count is the same: 0.1
# point is perf's two decimals, under one sample in these recordings
# (100 / N points: 0.3 to 0.5 for the DWARF ones).  Where the two name
# the same code otherwise on purpose (ptop.1, Names), the rows are
# compared as a group: PLT entries (perf 6.1 names them by their index in
# .rela.plt, a library's own IFUNC entries "@plt", the main program's
# often "_init"; ptop after the GOT slot they jump through) are summed
# per shared object, the names ending in "@plt" and "_init" on each side.
# ptop's rows of inlined functions (--children of a recording) are named
# with perf's " (inlined)" suffix, so that they are not summed into the
# function's own row.
. tests/integration/lib.sh

mkdir -p "$TMP/.debug"
perf() {
	command perf --buildid-dir "$TMP/.debug" "$@"
}

BAD=0
PERF_SORT=
BY_PID=0
LONGER=0
: > "$TMP/reasons"

# record NAME PERF-RECORD-ARGS...: $TMP/NAME.data
record() {
	f=$TMP/$1.data
	shift
	perf record --buildid-mmap -q -o "$f" "$@" > /dev/null 2> "$TMP/rec.err" ||
		fail "perf record --buildid-mmap $*: $(head -c 400 "$TMP/rec.err")"
}

# perf_rows FILE [perf report args]: "event<TAB>dso<TAB>symbol<TAB>self<TAB>children"
# per row of perf report's '|'-separated table (children = self without
# --children), in perf's order; PERF_SORT=dso: "event<TAB>dso<TAB><TAB>self...";
# BY_PID=1: rows per thread, the dso field "TID DSO" (see sort_keys)
perf_rows() {
	f=$1
	shift
	perf report -i "$f" --stdio --sort "$(sort_keys perf)" -g none -t '|' "$@" \
		> "$TMP/perf.txt" 2> "$TMP/perf.err" ||
		fail "perf report -i $f $*: $(head -c 300 "$TMP/perf.err")"
	bypid=$BY_PID
	[ -z "${PERF_SORT:-}" ] || bypid=0
	awk -F '|' -v bypid="$bypid" '
		function trim(x) { sub(/^ +/, "", x); sub(/ +$/, "", x); return x }
		/^# Samples: .* of event / {
			ev = $0
			sub(/^[^'"'"']*'"'"'/, "", ev)
			sub(/'"'"'.*$/, "", ev)
			next
		}
		/^#/ || !/%/ { next }
		{
			o = trim($1); sub(/%$/, "", o); c = o; k = 2
			if (trim($2) ~ /^[0-9.]+%$/) {
				o = trim($2); sub(/%$/, "", o); k = 3
			}
			pid = ""
			if (bypid) {
				pid = trim($k); sub(/:.*$/, "", pid); pid = pid " "
				k++
			}
			dso = pid trim($k); sym = $(k + 1)
			for (i = k + 2; i <= NF; i++) sym = sym "|" $i
			sub(/^\[.\] /, "", sym); sym = trim(sym)
			printf "%s\t%s\t%s\t%s\t%s\n", ev, dso, sym, o, c
		}' "$TMP/perf.txt"
}

# ptop_rows FILE [ptop args]: the same from ptop -i FILE -b --json (one
# JSON object per event)
ptop_rows() {
	f=$1
	shift
	# perf report has the idle task's rows (swapper): ptop shows them too
	"$PTOP" -i "$f" -b --json -E 1000000 --show-idle \
		-s "$(sort_keys ptop)" "$@" \
		> "$TMP/ptop.json" 2> "$TMP/ptop.err" ||
		fail "ptop -i $f $*: $(head -c 300 "$TMP/ptop.err")"
	if [ "${PERF_SORT:-}" = dso ]; then
		jq -r '.event as $e | .rows[] | [$e, .dso, "", .overhead, (.children // .overhead)] | @tsv' \
			"$TMP/ptop.json"
	elif [ "$BY_PID" = 1 ]; then
		jq -r '.event as $e | .rows[] | [$e, "\(.tid) \(.dso)",
			(.symbol + (if .inlined then " (inlined)" else "" end)),
			.overhead, (.children // .overhead)] | @tsv' "$TMP/ptop.json"
	else
		jq -r '.event as $e | .rows[] | [$e, .dso,
			(.symbol + (if .inlined then " (inlined)" else "" end)),
			.overhead, (.children // .overhead)] | @tsv' \
			"$TMP/ptop.json"
	fi
}

# sort_keys perf|ptop: the keys of the tables: PERF_SORT, or dso,sym
# (with BY_PID=1, per thread: perf's pid key is its threads', ptop's tid)
sort_keys() {
	if [ -n "${PERF_SORT:-}" ]; then
		echo "$PERF_SORT"
	elif [ "$BY_PID" = 1 ]; then
		if [ "$1" = perf ]; then echo pid,dso,sym; else echo tid,dso,sym; fi
	else
		echo dso,sym
	fi
}

# compare WHAT FILE NEVENTS [perf report args] -- [ptop args]: perf's top
# 15 rows of each of NEVENTS events against ptop's; a disagreement is
# recorded in $TMP/reasons and the script fails at its end.
compare() {
	what=$1 f=$2 nev=$3
	shift 3
	pargs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		pargs="$pargs $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086
	perf_rows "$f" $pargs > "$TMP/p.rows"
	ptop_rows "$f" "$@" > "$TMP/t.rows"
	case " $pargs " in *" --children "*) ch=1 ;; *) ch=0 ;; esac
	if ! awk -F '\t' -v what="$what" -v nev="$nev" -v ch="$ch" -v longer="${LONGER:-0}" '
		function dc_ok(d) { return d >= -0.1 }
		function named(s) {
			if (s ~ /^0x[0-9a-f]+$/ || s == "[unknown]")
				return 0
			return !(length(s) == 16 && s ~ /^[0-9a-f]+$/)
		}
		# PLT entries, which the two name otherwise (ptop.1, Names)
		function plt(s) { return s ~ /@plt$/ || s == "_init" }
		NR == FNR {
			k = $1 "\t" $2 "\t" $3
			to[k] += $4; tc[k] += $5; tn[k]++; tev[$1] = 1
			if (plt($3)) {
				g = $1 "\t" $2
				tgo[g] += $4; tgc[g] += $5
			}
			next
		}
		{
			k = $1 "\t" $2 "\t" $3
			if (!(k in po)) {
				ord[++n] = k
				rank[k] = ++nrow[$1]
				if (nrow[$1] == 1) evs++
			}
			po[k] += $4; pc[k] += $5; pn[k]++
			if (plt($3)) {
				g = $1 "\t" $2
				pgo[g] += $4; pgc[g] += $5
			}
		}
		END {
			if (evs != nev) {
				printf "%s: perf report shows %d events, not %d\n", what, evs, nev
				bad++
			}
			for (e in nrow) if (!(e in tev)) {
				printf "%s: ptop has no table of event %s\n", what, e
				bad++
			}
			for (i = 1; i <= n; i++) {
				k = ord[i]
				if (rank[k] > 15)
					continue
				split(k, f, "\t")
				# hex rows (stripped code, [unknown] chain
				# entries); the inlined rows of perf, which ptop folds
				# into their caller, under --children
				if (!named(f[3]) || (ch && f[3] ~ / \(inlined\)$/))
					continue
				# the PLT entries of its dso, summed, once
				if (plt(f[3])) {
					g = f[1] "\t" f[2]
					if (g in gdone)
						continue
					gdone[g] = 1
					checked++
					d = tgo[g] - pgo[g]; dc = ch ? tgc[g] - pgc[g] : 0
					if (d < -0.1 || d > 0.1 || (!longer && (dc < -0.1 || dc > 0.1)) || (longer && !dc_ok(dc))) {
						printf "%s: %s: %s PLT entries (@plt, _init): perf %.2f%% (children %.2f%%), ptop %.2f%% (children %.2f%%)\n", what, f[1], f[2], pgo[g], pgc[g], tgo[g], tgc[g]
						bad++
					}
					continue
				}
				checked++
				if (!(k in to)) {
					printf "%s: %s: perf row #%d %s %s %.2f%% (children %.2f%%) is not in ptop\n", what, f[1], rank[k], f[2], f[3], po[k], pc[k]
					bad++
					continue
				}
				if (ch && longer && dc_ok(tc[k] - pc[k])) {
					if (tc[k] - pc[k] > 0.1)
						printf "note: %s: %s: %s %s: children perf %.2f%%, ptop %.2f%% (longer DWARF chains)\n", what, f[1], f[2], f[3], pc[k], tc[k]
					if (to[k] - po[k] >= -0.1 && to[k] - po[k] <= 0.1)
						continue
				}
				if (tn[k] != pn[k]) {
					printf "%s: %s: %s %s: %d rows in perf, %d in ptop\n", what, f[1], f[2], f[3], pn[k], tn[k]
					bad++
				}
				d = to[k] - po[k]; dc = ch ? tc[k] - pc[k] : 0
				if (d < -0.1 || d > 0.1 || dc < -0.1 || dc > 0.1) {
					printf "%s: %s: row #%d %s %s: perf %.2f%% (children %.2f%%), ptop %.2f%% (children %.2f%%)\n", what, f[1], rank[k], f[2], f[3], po[k], pc[k], to[k], tc[k]
					bad++
				}
			}
			# (all hex: the --sort dso comparison below holds them)
			printf "%s: %d of %d named top rows agree\n", what, checked - bad, checked
			exit bad > 0
		}' "$TMP/t.rows" "$TMP/p.rows" > "$TMP/cmp.out"; then
		cat "$TMP/cmp.out" >> "$TMP/reasons"
		BAD=$((BAD + 1))
	fi
	cat "$TMP/cmp.out" >&2
	# the dsos' self shares (--sort dso), which hold the stripped
	# binaries' hex rows: perf's top 10 of each event within 0.1 point
	PERF_SORT=dso
	# shellcheck disable=SC2086
	perf_rows "$f" $pargs > "$TMP/p.rows"
	ptop_rows "$f" "$@" > "$TMP/t.rows"
	PERF_SORT=
	if ! awk -F '\t' -v what="$what --sort dso" '
		NR == FNR { t[$1 "\t" $2] += $4; next }
		{
			k = $1 "\t" $2
			if (++rank[$1] > 10)
				next
			checked++
			d = t[k] - $4
			if (!(k in t)) {
				printf "%s: %s: perf row #%d %s %.2f%% is not in ptop\n", what, $1, rank[$1], $2, $4
				bad++
			} else if (d < -0.1 || d > 0.1) {
				printf "%s: %s: row #%d %s: perf %.2f%%, ptop %.2f%%\n", what, $1, rank[$1], $2, $4, t[k]
				bad++
			}
		}
		END {
			printf "%s: %d of %d top dsos agree\n", what, checked - bad, checked
			exit bad > 0 || !checked
		}' "$TMP/t.rows" "$TMP/p.rows" > "$TMP/cmp.out"; then
		cat "$TMP/cmp.out" >> "$TMP/reasons"
		BAD=$((BAD + 1))
	fi
	cat "$TMP/cmp.out" >&2
}

# attr_of FILE EVENT FIELD: a field of perf evlist -v's line of EVENT
attr_of() {
	perf evlist -v -i "$1" 2> /dev/null |
		sed -n "s/^$2: .*[{ ,] *$3[^:]*: \([0-9]*\).*/\1/p" | head -n 1
}

# the inputs: generated text (no file of the repository's own)
seq 1 100000 | awk '{ print ($1 * 7919) % 1000003, $1 }' > "$TMP/small.txt"
seq 1 400000 | awk '{ print ($1 * 7919) % 1000003, $1 }' > "$TMP/big.txt"
XZ="xz -3 -T1 -c $TMP/small.txt"
GZ="gzip -6 -c $TMP/big.txt"
SORT="sort -o /dev/null $TMP/big.txt"
# a pure Python loop and a hashing loop (libcrypto)
PYLOOP='s = 0
for i in range(1500000):
    s += i * i % 7
'

# 1. plain, -z, two events, -e page-faults, -c N
# shellcheck disable=SC2086
record plain -F 999 -- $XZ
compare "plain xz" "$TMP/plain.data" 1
# shellcheck disable=SC2086
record zstd -z -F 999 -- $GZ
compare "-z gzip" "$TMP/zstd.data" 1
# shellcheck disable=SC2086
record two -e cpu-clock,page-faults -F 999 -- $SORT
compare "two events sort" "$TMP/two.data" 2
record pf -e page-faults -c 1 -- python3 -c "$PYLOOP"
compare "-e page-faults python3" "$TMP/pf.data" 1
# shellcheck disable=SC2086
record tc -e task-clock -c 100000 -- $GZ
[ "$(attr_of "$TMP/tc.data" task-clock sample_period)" = 100000 ] ||
	fail "-c 100000 on task-clock: sample_period $(attr_of "$TMP/tc.data" task-clock sample_period)"
compare "-c task-clock gzip" "$TMP/tc.data" 1
# shellcheck disable=SC2086
record cc -e cpu-clock -c 100000 -- $GZ
# (perf 6.1.187 keeps the period of -c on cpu-clock: no sample_period 1)
[ "$(attr_of "$TMP/cc.data" cpu-clock sample_period)" = 100000 ] ||
	fail "-c 100000 on cpu-clock: sample_period $(attr_of "$TMP/cc.data" cpu-clock sample_period)"
compare "-c cpu-clock gzip" "$TMP/cc.data" 1
# shellcheck disable=SC2086
record pfc -e page-faults -c 10 -- $SORT
compare "-c page-faults sort" "$TMP/pfc.data" 1
# a system call per byte: kernel samples in the entry path, some in code
# kallsyms does not list (this VM's entry trampolines), which both name
# [unknown] (ptop.1, OUTPUT)
record dd -F 4000 -- dd if=/dev/zero of=/dev/null bs=1 count=2000000
compare "dd bs=1" "$TMP/dd.data" 1

# 2. -C 0 with the workload pinned there, -a with a workload running.
# Rows per thread: on a machine shared with other worktrees these
# recordings hold other builds of the same workloads (two spin3 of other
# layouts), and perf report 6.1 --sort dso,sym merges the rows of two
# binaries of one name whose symbols share an address, under one name
# (spin_c's samples of one counted as spin_b of the other); per thread,
# each name is one binary's, in both (ptop.1, Names).
BY_PID=1
# shellcheck disable=SC2086
record cpu0 -C 0 -F 999 -- taskset -c 0 $XZ
compare "-C 0 xz" "$TMP/cpu0.data" 1
# shellcheck disable=SC2086
record sys -a -F 499 -- $GZ
compare "-a gzip" "$TMP/sys.data" 1
BY_PID=0

# a system-wide stream read as it comes: perf's dummy tracking event
# (no samples) makes no table at any refresh, as in perf report
perf record --buildid-mmap -q -a -F 499 -o - -- gzip -1 -c "$TMP/small.txt" 2> "$TMP/rec.err" |
	"$PTOP" -i - -b -d 0.2 -E 3 > "$TMP/stream.txt" 2> "$TMP/ptop.err" ||
	fail "perf record --buildid-mmap -a -o - | ptop -i - -b: $(head -c 300 "$TMP/ptop.err")"
grep -q '^# event cpu-clock.*finished' "$TMP/stream.txt" ||
	fail "ptop -i - -b: no final table: $(head -c 300 "$TMP/stream.txt")"
! grep -q '^# event dummy' "$TMP/stream.txt" ||
	fail "ptop -i - -b shows perf's dummy event: $(grep '^# event' "$TMP/stream.txt" | head -3)"

# 3. -p PID and -t TID of a running python3: its main thread loops in
# Python, a second thread hashes (libcrypto).  Both wait on a fifo until
# perf has attached and enabled its events (perf's control fifo acks).
PYTHREADS='import sys, threading, hashlib
go = threading.Event()
def hashing():
    print(threading.get_native_id(), flush=True)
    go.wait()
    h = hashlib.sha256()
    b = bytes(4096)
    for i in range(60000):
        h.update(b)
    s = 0
    for i in range(300000):
        s += i * i % 7
t = threading.Thread(target=hashing)
t.start()
open(sys.argv[1]).read()
go.set()
s = 0
for i in range(1000000):
    s += i * i % 7
t.join()
'
# attach MODE NAME: records the python3 above with perf record MODE ID
attach() {
	rm -f "$TMP/go" "$TMP/ctl" "$TMP/ack" "$TMP/ids"
	mkfifo "$TMP/go" "$TMP/ctl" "$TMP/ack"
	python3 -c "$PYTHREADS" "$TMP/go" > "$TMP/ids" &
	py=$!
	BG="$BG $py"
	# the worker thread's id, once it is printed
	end=$(($(date +%s) + 60))
	until [ -s "$TMP/ids" ]; do
		[ "$(date +%s)" -lt "$end" ] || fail "python3 printed no thread id"
		kill -0 "$py" 2> /dev/null || fail "python3 died"
		sleep 0.05
	done
	tid=$(head -n 1 "$TMP/ids")
	case $1 in -p) id=$py ;; *) id=$tid ;; esac
	f=$TMP/$2.data
	perf record --buildid-mmap -q -F 999 -o "$f" "$1" "$id" -D -1 \
		--control "fifo:$TMP/ctl,$TMP/ack" > /dev/null 2> "$TMP/rec.err" &
	rec=$!
	BG="$BG $rec"
	echo enable > "$TMP/ctl"
	read -r ack < "$TMP/ack"
	[ "$ack" = ack ] || fail "perf record --buildid-mmap $1: its control fifo said '$ack'"
	echo go > "$TMP/go"
	wait "$py" || fail "python3 failed"
	wait "$rec" || fail "perf record --buildid-mmap $1 $id: $(head -c 400 "$TMP/rec.err")"
}
attach -p pid
compare "-p python3" "$TMP/pid.data" 1
attach -t tid
compare "-t python3" "$TMP/tid.data" 1
# -t: only the hashing thread's samples
tids=$(perf script -i "$TMP/tid.data" -F tid 2> /dev/null | sort -u | tr -d ' ' | tr '\n' ' ')
[ "$tids" = "$tid " ] || fail "-t $tid: perf script shows the threads $tids"

# 4. chains: -g, --call-graph dwarf, -e sched:sched_switch -g
# shellcheck disable=SC2086
record fp -g -F 999 -- $SORT
compare "-g sort" "$TMP/fp.data" 1 --no-children -- --no-children
compare "-g sort --children" "$TMP/fp.data" 1 --children -- --children
# the user stacks of kernel-mode samples: ptop unwinds them, perf 6.1
# stops at the first user frame (issue 10, to decide): Self only
record dwarf --call-graph dwarf -F 499 -- python3 -c "$PYLOOP"
compare "--call-graph dwarf python3" "$TMP/dwarf.data" 1 --no-children -- --no-children
# user-mode samples alone: Children too
record dwarfu -e cpu-clock:u --call-graph dwarf -F 499 -- python3 -c "$PYLOOP"
compare "--call-graph dwarf cpu-clock:u python3" "$TMP/dwarfu.data" 1 --no-children -- --no-children
# Children: ptop's DWARF chains reach further than perf 6.1's on the same
# stack copies (python3: __libc_start_call_main 73% against 44%, ld.so's
# _start, and perf shows some names twice); not decided yet (issue 10),
# so Children is only checked not to fall below perf's, the differences
# printed as notes, Self exact.  From the same stack copies ptop's chain
# of a sample holds perf's frames or more, so a row's Children is never a
# sample short: a deficit of 0.1 point is one sample (100 / N: 0.3 to 0.5
# here) that ptop unwound shorter, a fault (it was: a kernel sample's
# interrupted user instruction looked up minus one, at a function's first
# byte, named and unwound as the function before it).
LONGER=1
compare "--call-graph dwarf python3 --children" "$TMP/dwarf.data" 1 --children -- --children
compare "--call-graph dwarf cpu-clock:u python3 --children" "$TMP/dwarfu.data" 1 --children -- --children
LONGER=0
# a workload that switches: a pipe of small writes and reads
record sw -e sched:sched_switch -g -- sh -c \
	"seq 1 20000 | while read -r i; do echo \$i; done | gzip -1 > /dev/null"
compare "-e sched:sched_switch -g sh pipe" "$TMP/sw.data" 1 --no-children -- --no-children
compare "-e sched:sched_switch -g sh pipe --children" "$TMP/sw.data" 1 --children -- --children

if [ "$BAD" -gt 0 ]; then
	echo "perf report and ptop disagree in $BAD comparisons:" >&2
	cat "$TMP/reasons" >&2
	exit 1
fi
exit 0
