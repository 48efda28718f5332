#!/bin/bash
# outputs: every output of ptop on a fixed set of recordings, for a byte
# for byte comparison of two builds (a change that moves code and must
# change no behaviour).
#
#   scripts/outputs.sh record RECDIR           the recordings, made once
#   scripts/outputs.sh capture RECDIR OUTDIR   every output of $PTOP
#                                              (default build/ptop) on them
#   diff -r OLD_OUTDIR NEW_OUTDIR              nothing: the same outputs
#
# record copies the workloads (make workloads) into RECDIR/wl and records
# them from there, so that the recordings' paths stay valid: perf record
# --buildid-mmap (see tests/integration/perfdata.inc) for plain, -g,
# system-wide -g and --call-graph dwarf files, ptop -o for two events
# and off-CPU time.
# capture writes, per recording, the batch outputs (text tables with
# several -s keys and filters, --json, --folded, --flamegraph SVG and
# JSON, --pprof, --annotate text and JSON), each with its stderr and exit
# status, then drives the live view on -i of the recordings in a private
# tmux (120x40) and keeps the screen after each key (capture-pane, plain
# and with its styles), and one live session for the event picker.
#
# Determinism: HOME and XDG_CACHE_HOME are fresh per capture (no symbol
# or DWARF cache from an earlier run), DEBUGINFOD_URLS is unset, the
# locale, TZ, TERM and the terminal's size are pinned, and a screen is
# taken when it has settled (two captures alike, no "resolving" in the
# footer).  The live view runs under faketime (apt-get install faketime)
# with its clock 20 times slower: a status line stays 5 s of its clock,
# 100 s here, so that the status an earlier key left is on every screen
# until the next key's, however loaded the machine.  Run capture twice on
# the same build: the two must be identical before a comparison means
# anything.
set -u

die() {
	echo "outputs.sh: $*" >&2
	exit 1
}

usage() {
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

TOP=$(cd "$(dirname "$0")/.." && pwd)

# ---- record ----

record() {
	rec=$1
	wl=${WL:-$TOP/build/workloads}
	ptop=${PTOP:-$TOP/build/ptop}

	[ -x "$wl/cgwork" ] || die "no workloads in $wl (make workloads)"
	[ -x "$ptop" ] || die "no ptop at $ptop (make)"
	mkdir -p "$rec/wl" "$rec/.debug" || die "cannot make $rec"
	rec=$(cd "$rec" && pwd)
	for w in annwork cgwork libwlcg.so cgwork-nofp libwlcg-nofp.so \
		cppwork offwork spin3; do
		cp "$wl/$w" "$rec/wl/" || die "cannot copy $w"
	done
	cd "$rec" || die "cannot enter $rec"
	pr() {
		out=$1
		shift
		perf --buildid-dir "$rec/.debug" record -q -N --buildid-mmap \
			-o "$out" "$@" > /dev/null 2> "$out.err" ||
			die "perf record $out: $(cat "$out.err")"
		rm -f "$out.err"
	}
	# three threads in three functions (comm, pid, tid, zooms)
	pr plain.data -e cpu-clock/period=250000/ -- wl/spin3 1 3
	# a hot loop with source lines (annotate)
	pr ann.data -e cpu-clock/period=250000/ -- wl/annwork 1
	# frame-pointer chains: a known call graph
	pr fp.data -g -e cpu-clock/period=250000/ -- wl/cgwork 1
	# DWARF chains of the same graph, from stack copies
	pr dwarf.data --call-graph dwarf,16384 -e cpu-clock/period=500000/ \
		-- wl/cgwork-nofp 1
	# system-wide chains: the idle task's samples (pid 0: its switches
	# to a task) beside a known call graph on one of the CPUs
	pr sys.data -a -g -e cpu-clock/period=250000/ -e sched:sched_switch \
		-- wl/cgwork 1
	# ptop's own files: two events with chains (C++ names), off-CPU
	"$ptop" -b -g -e cpu-clock -e page-faults -d 60 -o two.data \
		-- wl/cppwork 1 > /dev/null 2> two.err ||
		die "ptop -o two.data: $(cat two.err)"
	"$ptop" -b --off-cpu -e cpu-clock -d 60 -o offcpu.data \
		-- wl/offwork 3 > /dev/null 2> offcpu.err ||
		die "ptop -o offcpu.data: $(cat offcpu.err)"
	rm -f two.err offcpu.err
	ls -l "$rec"/*.data
}

# ---- capture: batch ----

# b NAME ARGS...: ptop ARGS in the recordings' folder; its stdout, stderr
# and status into OUT/batch/NAME.{out,err,rc}; files it writes under
# files/ are moved to OUT/batch/NAME.files/.
b() {
	name=$1
	shift
	rm -rf files
	mkdir files
	"$PTOP" "$@" > "$OUT/batch/$name.out" 2> "$OUT/batch/$name.err" \
		< /dev/null
	echo $? > "$OUT/batch/$name.rc"
	if [ -n "$(ls files)" ]; then
		mv files "$OUT/batch/$name.files"
	fi
	rm -rf files
}

batch() {
	mkdir -p "$OUT/batch"
	for r in plain ann fp dwarf two offcpu sys; do
		f=$r.data
		b "$r" -i "$f" -b
		b "$r.json" -i "$f" -b --json
		b "$r.comm" -i "$f" -b -s comm,dso,sym
		b "$r.pidtid" -i "$f" -b -s pid,tid,sym
		b "$r.sym" -i "$f" -b -s sym
		b "$r.dso" -i "$f" -b -s dso --show-period
		b "$r.cpu" -i "$f" -b -s cpu,sym
		b "$r.bysamples" -i "$f" -b -s dso,sym,sample
		b "$r.byperiod" -i "$f" -b -s sym,period
		b "$r.limit" -i "$f" -b --percent-limit 5
		b "$r.entries" -i "$f" -b -E 3 -K
		b "$r.user" -i "$f" -b -U
		b "$r.idle" -i "$f" -b --show-idle
		b "$r.time" -i "$f" -b --time 10%-60%
		b "$r.time.json" -i "$f" -b --json --time 50%/2
		b "$r.pprof" -i "$f" -b --pprof files/p.pb.gz
		b "$r.json.pidtid" -i "$f" -b --json -s pid,tid,sym
	done
	for r in fp dwarf two sys; do
		f=$r.data
		b "$r.nochildren" -i "$f" -b --no-children
		b "$r.nochildren.json" -i "$f" -b --no-children --json
		b "$r.folded" -i "$f" -b --folded
		b "$r.flame.svg" -i "$f" -b --flamegraph files/f.svg
		b "$r.flame.json" -i "$f" -b --flamegraph files/f.json
		b "$r.treelimit0" -i "$f" -b --tree-limit 0
		b "$r.callee" -i "$f" -b --call-graph fp,callee
		b "$r.noinline" -i "$f" -b --no-inline
		b "$r.limit.json" -i "$f" -b --json --percent-limit 2
		b "$r.maxstack" -i "$f" -b --max-stack 3 --folded
	done
	b two.params -i two.data -b --demangle-params
	b two.mangled -i two.data -b --no-demangle
	b offcpu.state -i offcpu.data -b --off-cpu -s state,dso,sym
	b offcpu.state.json -i offcpu.data -b --off-cpu --json -s state,dso,sym
	b baseline -i dwarf.data -b --baseline fp.data
	b baseline.json -i dwarf.data -b --json --baseline fp.data
	# annotate: text and JSON, AT&T and Intel
	b ann.annotate -i ann.data -b --annotate ann_outer
	b ann.annotate.json -i ann.data -b --json --annotate ann_outer
	b ann.annotate.intel -i ann.data -b --annotate ann_inner -M intel
	b fp.annotate -i fp.data -b --annotate inner_a
	b fp.annotate.lib -i fp.data -b --json --annotate lib_work
	b two.annotate -i two.data -b --annotate 'ptopwl::helper'
	b plain.annotate -i plain.data -b --annotate spin_b
	b plain.annotate.none -i plain.data -b --annotate no_such_function
	# errors a user can cause
	b err.nofile -i no-such.data -b
	b err.flame -i plain.data -b --flamegraph files/x.svg
	b err.folded -i plain.data -b --folded
	b err.sort -i plain.data -b -s nosuchkey
}

# ---- capture: the live view ----

T() {
	tmux -L "$SOCK" -f "$TMUXCONF" "$@"
}

# settle: until two captures 0.3 s apart are alike and the footer is not
# resolving names (30 s at most: then the screen is kept as UNSETTLED)
settle() {
	end=$(( $(date +%s) + 30 ))
	prev=$(T capture-pane -p -e -t main 2> /dev/null)
	while :; do
		sleep 0.3
		cur=$(T capture-pane -p -e -t main 2> /dev/null)
		if [ "$cur" = "$prev" ] &&
		   ! printf '%s\n' "$cur" | tail -n 1 | grep -q 'resolving'; then
			return 0
		fi
		[ "$(date +%s)" -le "$end" ] || return 1
		prev=$cur
	done
}

# shot LABEL: the screen now (after settling) as LABEL
shot() {
	n=$(printf '%02d' "$STEP")
	STEP=$((STEP + 1))
	ok=
	settle || ok=".UNSETTLED"
	T capture-pane -p -t main > "$SDIR/$n-$1$ok.txt" 2> /dev/null
	T capture-pane -p -e -t main > "$SDIR/$n-$1$ok.esc" 2> /dev/null
	grep -q 'PTOP-EXIT=' "$SDIR/$n-$1$ok.txt" &&
		echo "outputs.sh: $SDIR/$n-$1: ptop has exited" >&2
	[ -z "$ok" ] || echo "outputs.sh: $SDIR/$n-$1: unsettled" >&2
}

# back LABEL: Esc until the table shows (a view a key opened or not)
back() {
	i=0
	while ! T capture-pane -p -t main |
		grep -Eq '^(Overhead|Children|Time|Self) ' && [ $i -lt 5 ]; do
		k "$1$i" Escape
		i=$((i + 1))
	done
}

# k LABEL KEYS...: send keys (tmux names), then a shot.  An Esc alone is
# a key only after curses' ESCDELAY (25 ms, 0.5 s under faketime): the
# shot waits that long first.
k() {
	label=$1
	shift
	T send-keys -t main "$@"
	case " $* " in *" Escape "*) sleep 1.5 ;; esac
	shot "$label"
}

# typ LABEL TEXT: type text literally, then a shot
typ() {
	T send-keys -t main -l "$2"
	shot "$1"
}

# wait_text ERE [SECONDS]: until the screen shows it (30 s)
wait_text() {
	end=$(( $(date +%s) + ${2:-30} ))
	until T capture-pane -p -t main 2> /dev/null | grep -Eq -- "$1"; do
		[ "$(date +%s)" -le "$end" ] || return 1
		sleep 0.1
	done
}

# session NAME ARGS...: ptop ARGS in a 120x40 pane, its saved files
# (P) under OUT/tui/NAME/files; the first shot once its table has samples
session() {
	SDIR=$OUT/tui/$1
	shift
	STEP=0
	mkdir -p "$SDIR/files"
	ln -sfn "$REC" "$SDIR/files/rec"
	{
		printf 'cd %q || exit 1\n' "$SDIR/files"
		printf 'exec faketime -m -f "+0 x0.05"'
		printf ' %q' "$PTOP" "$@"
		printf '\n'
	} > "$WORK/cmd"
	T new-session -d -x 120 -y 40 -s main \
		"sh $WORK/cmd; echo PTOP-EXIT=\$?; sleep 600"
	wait_text '^samples [1-9]' 60 ||
		echo "outputs.sh: $SDIR: no table" >&2
	shot table
}

# end_session: q until ptop exits (y when it asks), the exit line, the
# server gone
end_session() {
	for i in 1 2 3 4 5 6; do
		if T capture-pane -p -t main | tail -n 1 | grep -q '^Quit ptop?'; then
			T send-keys -t main y
		else
			T send-keys -t main q
		fi
		wait_text 'PTOP-EXIT=' 3 && break
	done
	T capture-pane -p -t main | grep 'PTOP-EXIT=' > "$SDIR/exit.txt"
	T kill-server 2> /dev/null
	end=$(( $(date +%s) + 5 ))
	while T has-session 2> /dev/null && [ "$(date +%s)" -le "$end" ]; do
		sleep 0.1
	done
	rm -f "$SDIR/files/rec"
}

# unconfirm LABEL: n when ptop asks whether to quit (an Esc too many)
unconfirm() {
	if T capture-pane -p -t main | tail -n 1 | grep -q '^Quit ptop?'; then
		k "$1" n
	fi
}

tui() {
	mkdir -p "$OUT/tui"
	printf 'set -g default-terminal "screen-256color"\nset -g status off\n' \
		> "$TMUXCONF"
	export PTOP_BUILD_BUDGET_MS=60000

	# frame-pointer chains: every view
	session fp -i rec/fp.data
	k down Down
	k tree +
	k tree-down Down Down
	k tree-flip G
	k tree-collapse C
	k tree-all E
	k tree-none C
	k callers c
	k callers-down Down
	k callers-up Up
	# Up went to the Callees heading: Enter on a callee moves to it
	k callers-down-again Down
	k callers-enter Enter
	k callers-back Escape
	k callers-close q
	k flame F
	k flame-up Up
	k flame-right Right
	k flame-zoom Enter
	k flame-flip i
	k flame-search /
	typ flame-typed inner
	k flame-accept Enter
	k flame-back Escape
	k flame-freeze f
	k flame-help h
	k flame-help-close q
	k flame-close q
	k ann-select Down Down
	k annotate a
	k ann-next Tab
	k ann-prev BTab
	k ann-hottest H
	k ann-source s
	k ann-source2 s
	k ann-source3 s
	k ann-value t
	k ann-value2 t
	k ann-bytes o
	k ann-search /
	typ ann-typed add
	k ann-accept Enter
	k ann-next-match n
	k ann-enter Enter
	k ann-save P
	back ann-back
	k help h
	k help-pgdn PPage
	k help-pgdn2 NPage
	k help-end End
	k help-search /
	typ help-typed flame
	k help-accept Enter
	k help-clear Escape
	k help-close q
	k sort s
	k sort-down Down
	k sort-pick Enter
	k sort-invert I
	k sort-next '>'
	k sort-prev '<'
	k sort-menu F6
	k sort-home Home
	k sort-overhead Enter
	k menu Enter
	k menu-down Down
	k menu-close Escape
	k filter /
	typ filter-typed inner
	k filter-accept Enter
	k filter-undo Escape
	k zoom-dso d
	k zoom-dso-undo Escape
	k zoom-thread t
	k zoom-process T
	k zoom-cgroup g
	k zoom-undo Escape
	k zoom-undo2 Escape
	unconfirm zoom-stay
	k hide-kernel K
	k hide-user U
	k show-user U
	k limit L
	typ limit-typed 20
	k limit-accept Enter
	k limit-again L
	k limit-erase BSpace BSpace
	k limit-clear Enter
	k inline l
	k inline-off l
	k idle i
	k idle-off i
	k baseline b
	k baseline-sort s
	k baseline-close Escape
	k baseline-clear b
	k save P
	k event-next Tab
	k picker e
	k attach p
	k pause f
	k delay '['
	k delay2 ']'
	k zero z
	k end End
	k home Home
	k pgdn NPage
	k repaint C-l
	k confirm Escape
	k confirm-no n
	end_session

	# DWARF chains
	session dwarf -i rec/dwarf.data
	k tree +
	k callers c
	k callers-annotate a
	k back Escape
	back back2
	k flame F
	k flame-up Up
	k flame-annotate a
	k flame-annotate-back Escape
	k flame-callers c
	k flame-callers-back q
	k flame-home Home
	k flame-down Down
	k flame-left Left
	k flame-close q
	end_session

	# two events, C++ names
	session two -i rec/two.data
	k event-next Tab
	k event-prev BTab
	k params N
	k params-off N
	k annotate a
	k ann-back q
	k tree +
	k flame F
	k flame-event Tab
	k flame-close q
	end_session

	# a whole machine: processes, the idle task, a tracepoint
	session sys -i rec/sys.data
	k tree +
	k flame F
	k flame-zoom Enter
	k flame-close q
	k callers c
	k callers-close q
	k idle i
	k idle-flame F
	k idle-flame-close q
	k idle-off i
	k zoom-process T
	k zoom-undo Escape
	k event-next Tab
	k save P
	end_session

	# off-CPU time
	session offcpu -i rec/offcpu.data --off-cpu
	k event-next Tab
	k tree +
	k callers c
	k callers-close q
	k annotate a
	back ann-back
	k sort-state s
	k sort-down End
	k sort-pick Enter
	end_session

	# no chains: what the chain keys say; the other sort keys
	session plain -i rec/plain.data -s pid,tid,sym
	k tree +
	k flame F
	k callers c
	k annotate a
	k ann-back Escape
	k zoom-thread t
	k zoom-undo Escape
	k save P
	k down Down
	k row-menu Enter
	k row-menu-save End
	k row-menu-copy Enter
	end_session

	session ann -i rec/ann.data --no-children
	k annotate a
	k ann-end End
	k ann-home Home
	k ann-source s
	k ann-back q
	end_session

	# the event picker needs a live source: only its screens are kept
	SDIR=$OUT/tui/picker
	STEP=0
	mkdir -p "$SDIR/files"
	{
		printf 'cd %q || exit 1\n' "$SDIR/files"
		printf 'exec faketime -m -f "+0 x0.05" %q -e cpu-clock -d 0.5 -- sleep 600\n' \
			"$PTOP"
	} > "$WORK/cmd"
	T new-session -d -x 120 -y 40 -s main \
		"sh $WORK/cmd; echo PTOP-EXIT=\$?; sleep 600"
	wait_text '^(Overhead|Children)' 60 ||
		echo "outputs.sh: picker: no table" >&2
	T send-keys -t main e
	wait_text '\([0-9]+ events\)' ||
		echo "outputs.sh: picker: the listing did not end" >&2
	shot picker
	k picker-down Down
	k picker-search /
	typ picker-typed sched_switch
	k picker-accept Enter
	k picker-clear Escape
	k picker-end End
	k picker-close Escape
	# the table of a live session is not the same twice
	rm -f "$SDIR"/*-picker-close.*
	end_session
}

capture() {
	REC=$(cd "$1" && pwd) || die "no recordings in $1"
	mkdir -p "$2" || die "cannot make $2"
	OUT=$(cd "$2" && pwd)
	PTOP=${PTOP:-$TOP/build/ptop}
	PTOP=$(cd "$(dirname "$PTOP")" && pwd)/$(basename "$PTOP")
	[ -x "$PTOP" ] || die "no ptop at $PTOP"
	[ -f "$REC/fp.data" ] || die "$REC has no recordings (record first)"
	command -v tmux > /dev/null || die "tmux is needed"
	command -v faketime > /dev/null ||
		die "faketime is needed (apt-get install faketime)"
	WORK=$(mktemp -d)
	SOCK=outputs-$$
	TMUXCONF=$WORK/tmux.conf
	export TMUX_TMPDIR=$WORK
	unset TMUX DEBUGINFOD_URLS PTOP_TEST_SLOW_LOAD PTOP_BUILD_BUDGET_MS \
		NO_COLOR
	export HOME=$WORK/home XDG_CACHE_HOME=$WORK/cache
	mkdir -p "$HOME" "$XDG_CACHE_HOME"
	export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color COLUMNS=120 LINES=40
	trap 'T kill-server 2> /dev/null; rm -rf "$WORK"' EXIT INT TERM
	cd "$REC" || die "cannot enter $REC"
	batch
	tui
	# no absolute path of this capture in what was kept
	grep -rl -- "$OUT" "$OUT" 2> /dev/null | sed 's/^/outputs.sh: names the capture folder: /' >&2
	echo "outputs.sh: $(find "$OUT" -type f | wc -l) files in $OUT"
}

case "${1:-}" in
record)
	[ $# -eq 2 ] || usage
	record "$2"
	;;
capture)
	[ $# -eq 3 ] || usage
	capture "$2" "$3"
	;;
*)
	usage
	;;
esac
