#!/bin/sh
# --folded and --flamegraph start each stack with its process when the
# samples come from more than one (system-wide, several pids, -i of such
# a recording), as stackcollapse-perf.pl starts them with the command, so
# that two programs' main no longer merge into one tower: two programs
# at once (fpwork and spin3).  --root none leaves it out, --root pid and
# tid add them (comm-PID, comm-PID/TID); one process: nothing by default.
# The comm is the sample's (after an exec, the new program's).  One line
# per stack: a table is printed once, the last (every refresh holds the
# stacks of the one before), with -g and with --call-graph dwarf.
. tests/integration/lib.sh
need perf

bg "$WL/fpwork" 0
a=$LAST_BG
bg "$WL/spin3" 0
b=$LAST_BG
sleep 0.3
# system-wide: other programs run too; only these two are looked at
"$PTOP" -b -g --folded -e cpu-clock -d 3 -n 1 > "$TMP/sys.folded" \
	2> "$TMP/err" || fail "ptop -b -g --folded: $(cat "$TMP/err")"
"$PTOP" -b -g --folded --root tid -e cpu-clock -d 2 -n 1 -p "$a,$b" \
	> "$TMP/tid.folded" 2> "$TMP/err" || fail "ptop --root tid: $(cat "$TMP/err")"
"$PTOP" -b -g --folded --root none -e cpu-clock -d 2 -n 1 -p "$a,$b" \
	> "$TMP/none.folded" 2> "$TMP/err" || fail "ptop --root none: $(cat "$TMP/err")"
perf record -q -N --buildid-mmap -g -e cpu-clock -F 2000 -p "$a,$b" \
	-o "$TMP/two.data" -- sleep 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record -p: $(cat "$TMP/err")"
"$PTOP" -b -g --flamegraph "$TMP/two.json" -e cpu-clock -d 2 -n 1 \
	-p "$a,$b" > /dev/null 2> "$TMP/err" || fail "ptop --flamegraph: $(cat "$TMP/err")"
kill "$a" "$b"

at_least() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v >= m) }' || fail "$3: $1 is under $2"; }
# count FILE PATTERN: the samples of the lines matching PATTERN
count() {
	grep -E "$2" "$1" | awk '{ s += $NF } END { print s + 0 }'
}
for f in "$TMP/sys.folded"; do
	m=$(count "$f" ';main;copy_part;')
	s=$(count "$f" ';spin_a( |;)')
	at_least "$m" 100 "fpwork's copy_part stacks"
	at_least "$s" 100 "spin3's spin_a stacks"
	[ "$(count "$f" '^fpwork;.*;main;copy_part;')" = "$m" ] ||
		fail "copy_part's stacks not all under fpwork: $(grep ';main;copy_part;' "$f" | grep -v '^fpwork;' | head -3)"
	[ "$(count "$f" '^spin3;.*;spin_a( |;)')" = "$s" ] ||
		fail "spin_a's stacks not all under spin3: $(grep ';spin_a' "$f" | grep -v '^spin3;' | head -3)"
	sed 's/ [0-9]*$//' "$f" | sort | uniq -d > "$TMP/dup"
	[ -s "$TMP/dup" ] && fail "a stack on two lines: $(head -3 "$TMP/dup")"
done
grep -Eq "^fpwork-$a/$a;.*;copy_part;" "$TMP/tid.folded" &&
	grep -Eq "^spin3-$b/[0-9]+;" "$TMP/tid.folded" ||
	fail "--root tid: $(head -3 "$TMP/tid.folded")"
grep -Eq '^(fpwork|spin3)' "$TMP/none.folded" &&
	fail "--root none: $(grep -E '^(fpwork|spin3)' "$TMP/none.folded" | head -3)"
# a recording of two processes (-i): the same roots
"$PTOP" -i "$TMP/two.data" -b --folded > "$TMP/two.folded" 2> "$TMP/err" ||
	fail "ptop -i --folded: $(cat "$TMP/err")"
grep -q '^fpwork;' "$TMP/two.folded" && grep -q '^spin3;' "$TMP/two.folded" ||
	fail "-i of two processes: $(head -3 "$TMP/two.folded")"
# the flame graph: one tower per program under "all"
jq -e '[.children[].name] | index("fpwork") != null and index("spin3") != null' \
	"$TMP/two.json" > /dev/null ||
	fail "flame graph's first level: $(jq -c '[.children[].name]' "$TMP/two.json")"

# one process: no root; after an exec, the new program's comm
"$PTOP" -b -g --folded -e cpu-clock -d 30 -- "$WL/fpwork" 1 \
	> "$TMP/one.folded" 2> "$TMP/err" || fail "ptop -- fpwork: $(cat "$TMP/err")"
grep -q '^fpwork;' "$TMP/one.folded" && fail "one process got a root: $(head -2 "$TMP/one.folded")"
"$PTOP" -b -g --folded --root comm -e cpu-clock -d 0.5 -- sh -c "exec $WL/fpwork 2" \
	> "$TMP/exec.folded" 2> "$TMP/err" || fail "ptop -- sh -c exec: $(cat "$TMP/err")"
m=$(count "$TMP/exec.folded" ';main;copy_part;')
[ "$m" -gt 100 ] && [ "$(count "$TMP/exec.folded" '^fpwork;.*;main;copy_part;')" = "$m" ] ||
	fail "after exec: $(grep ';main;copy_part;' "$TMP/exec.folded" | head -3)"
sed 's/ [0-9]*$//' "$TMP/exec.folded" | sort | uniq -d > "$TMP/dup"
[ -s "$TMP/dup" ] && fail "-d 0.5: a stack on two lines: $(head -3 "$TMP/dup")"
# --call-graph dwarf, several refreshes: one line per stack too
"$PTOP" -b --call-graph dwarf --folded -e cpu-clock -d 0.5 -- "$WL/fpwork" 2 \
	> "$TMP/dw.folded" 2> "$TMP/err" || fail "ptop --call-graph dwarf --folded: $(cat "$TMP/err")"
m=$(count "$TMP/dw.folded" ';main;copy_part;')
[ "$m" -gt 100 ] || fail "--call-graph dwarf: $m copy_part samples: $(head -3 "$TMP/dw.folded")"
sed 's/ [0-9]*$//' "$TMP/dw.folded" | sort | uniq -d > "$TMP/dup"
[ -s "$TMP/dup" ] && fail "--call-graph dwarf: a stack on two lines: $(head -3 "$TMP/dup")"
"$PTOP" -b -g --root pid -e cpu-clock -d 1 -n 1 > /dev/null 2> "$TMP/err" &&
	fail "--root without --folded was taken"
exit 0
