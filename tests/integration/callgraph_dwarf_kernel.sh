#!/bin/sh
# --call-graph dwarf on samples taken in the kernel: syswork (no frame
# pointers) spends most of its time in read(2) of /dev/zero, called at a
# known user stack.  gdb, a third unwinder, stopped at that read, gives
# the user stack _start .. main -> sys_a -> sys_b -> sys_c -> read; the
# user part of ptop's chains of the samples taken in the syscall must be
# the same frames (names normalized: glibc's DWARF names against its
# symbols' names), for at least 95 % of them, live and from a perf record
# file.  perf 6.1's chains of the same file are printed beside.
. tests/integration/lib.sh
need gdb
need perf

# gdb's user stack at the syscall, outermost first, ';'-separated
gdb -q -batch -ex 'set backtrace past-main on' -ex 'break sys_c' -ex run \
	-ex 'break read' -ex continue -ex bt "$WL/syswork" > "$TMP/gdb" 2>&1 ||
	fail "gdb failed: $(tail -5 "$TMP/gdb")"
norm() {	# names as one form: glibc's DWARF names, version suffixes
	sed -e 's/__GI___libc_read/read/g' -e 's/__libc_start_main_impl/__libc_start_main/g' \
		-e 's/@@GLIBC_[0-9.]*//g' -e 's/ (inlined)//g'
}
want=$(grep '^#' "$TMP/gdb" | awk '{ print ($3 == "in") ? $4 : $2 }' |
	tac | paste -sd ';' | norm)
case "$want" in
_start\;*\;main\;sys_a\;sys_b\;sys_c\;read) ;;
*) fail "gdb's stack at read: '$want' ($(grep '^#' "$TMP/gdb" | head -3))" ;;
esac
echo "gdb: $want"
# compared: the outermost frame, and from main down (the names of libc's
# start-up frames depend on its debug files)
short() { sed -E 's/(^| )_start;(.*;)?main;/\1_start;...;main;/'; }
want=$(echo "$want" | short)

# check FOLDED WHAT: the samples in the syscall have gdb's user stack
check() {
	awk '/;entry_SYSCALL_64/ { n = $NF; $NF = ""; sub(/ $/, "")
		sub(/;entry_SYSCALL_64.*/, ""); print n, $0 }' "$1" | norm | short |
		awk -v want="$want" -v what="$2" '
		{ total += $1; if ($2 == want) same += $1; else other[$2] += $1 }
		END {
			printf "%s: %d of %d syscall samples with gdb'"'"'s stack\n", what, same, total
			for (s in other) if (other[s] * 20 > total) print "  other: " other[s] " " s
			exit !(total >= 500 && same * 100 >= total * 95)
		}' || fail "$2: the syscall samples' user stacks differ from gdb's"
}

"$PTOP" -b --folded --max-stack 64 --call-graph dwarf -e cpu-clock -d 30 -- \
	"$WL/syswork" 1 > "$TMP/live.folded" 2> "$TMP/err" ||
	fail "ptop --call-graph dwarf: $(cat "$TMP/err")"
check "$TMP/live.folded" live

perf record -q -N --buildid-mmap -e cpu-clock -F 2000 --call-graph dwarf \
	-o "$TMP/sys.data" -- "$WL/syswork" 1 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap --call-graph dwarf: $(cat "$TMP/err")"
"$PTOP" -i "$TMP/sys.data" -b --folded --max-stack 64 > "$TMP/file.folded" \
	2> "$TMP/err" || fail "ptop -i: $(cat "$TMP/err")"
check "$TMP/file.folded" "ptop -i"
# perf's own unwinding of the same samples, for the record (not asserted)
perf script -i "$TMP/sys.data" -F ip,sym 2> /dev/null | awk '
	BEGIN { RS = "" } /entry_SYSCALL_64/ { n++; if ($NF == "_start") s++ }
	END { printf "perf script: %d of %d syscall samples reach _start\n", s, n }'
exit 0
