#!/bin/sh
# --call-graph dwarf through an exec: the recorded process first runs
# bash (a loop whose samples are unwound), then execs cgwork-nofp (built
# without frame pointers).  ptop unwinds the new program's samples as it
# does without the exec: at least 95 % of cgwork's stacks reach _start,
# directly and after the exec.  perf 6.1's report loses the outer frames
# after such an exec (its chains stop at __libc_start_call_main or
# earlier); ptop(1) documents the difference, and this test prints
# perf's figure beside ptop's, asserting only ptop's (gdb on the same
# loop shows the frames up to _start, as ptop does).
. tests/integration/lib.sh
need perf

# STACKS FILE: "reaching total" over cgwork's stacks in ptop's --folded
# output of FILE (the stacks through main and one of cgwork's functions)
stacks() {
	"$PTOP" -i "$1" -b --folded --max-stack 64 2> "$TMP/err" > "$TMP/folded" ||
		fail "ptop -i $1 --folded failed: $(cat "$TMP/err")"
	awk '/;main;(outer|caller_x|caller_y)(;|$)/ || /;main;(outer|caller_x|caller_y) / {
		n = $NF; total += n; if ($0 ~ /^_start;/) reach += n
	} END { print reach + 0, total + 0 }' "$TMP/folded"
}

# PERF FILE: "reaching total" of perf script's cgwork-nofp samples
perf_stacks() {
	perf script -i "$1" -F comm,ip,sym --comms cgwork-nofp 2> /dev/null |
		awk 'BEGIN { RS = "" } { n++; if ($NF == "_start") s++ }
		     END { print s + 0, n + 0 }'
}

check() {	# NAME FILE
	set -- "$1" "$2" $(stacks "$2")
	[ "$4" -ge 500 ] || fail "$1: only $4 samples of cgwork's functions"
	[ $(($3 * 100)) -ge $(($4 * 95)) ] ||
		fail "$1: $3 of $4 of cgwork's stacks reach _start (< 95 %)"
	echo "$1: ptop $3 of $4 stacks reach _start; perf report: $(perf_stacks "$2" |
		awk '{ print $1 " of " $2 }')"
}

rec() {	# FILE COMMAND...
	out=$1
	shift
	perf record -q -N --buildid-mmap -e cpu-clock -F 2000 --call-graph dwarf \
		-o "$out" -- "$@" > /dev/null 2> "$TMP/err" ||
		fail "perf record --buildid-mmap --call-graph dwarf: $(cat "$TMP/err")"
}

rec "$TMP/direct.data" "$WL/cgwork-nofp" 1
check direct "$TMP/direct.data"
# bash's loop is fixed work, long enough to be sampled and unwound
rec "$TMP/exec.data" bash -c \
	'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; exec "$0" 1' \
	"$WL/cgwork-nofp"
check exec "$TMP/exec.data"
# the bash part was unwound too (it is what makes perf lose the frames)
grep -q 'execute_command' "$TMP/folded" ||
	fail "no bash stack in the exec recording: $(head -3 "$TMP/folded")"
exit 0
