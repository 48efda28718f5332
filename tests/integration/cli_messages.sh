#!/bin/sh
# What a newcomer reads first: --help in 80 columns, opening with common
# uses; an unknown or abbreviated long option refused with the option
# meant; -p by command name; --symfs of a missing folder; --folded
# saying which of its conditions is missing.
. tests/integration/lib.sh

# expect CODE PATTERN CMD...: exits CODE, PATTERN (ERE) on stderr
expect() {
	code=$1 pat=$2
	shift 2
	"$@" > "$TMP/o" 2> "$TMP/e"
	rc=$?
	[ "$rc" -eq "$code" ] || fail "'$*' exited $rc, not $code: $(cat "$TMP/e")"
	grep -Eq -- "$pat" "$TMP/e" || fail "'$*': no /$pat/ in: $(cat "$TMP/e")"
}

# --help: every line in 80 columns; the five common uses come first
"$PTOP" --help > "$TMP/h" || fail "--help failed"
awk 'length($0) > 80 { print NR ": " $0; bad = 1 } END { exit bad }' "$TMP/h" ||
	fail "--help has lines over 80 columns"
sed -n '/^Common uses:$/,/^$/p' "$TMP/h" > "$TMP/uses"
[ "$(grep -c '^  ptop' "$TMP/uses")" -eq 5 ] || fail "not five common uses: $(cat "$TMP/uses")"
[ "$(grep -n '^Common uses:$' "$TMP/h" | cut -d: -f1)" -le 5 ] ||
	fail "the common uses are not at the top: $(head -n 8 "$TMP/h")"

# an unknown long option: the one meant
expect 2 "unknown option '--jsn'; did you mean --json\?" "$PTOP" -b --jsn
expect 2 "did you mean --percent-limit\?" "$PTOP" -b --percent-limt 1
# abbreviations are refused (a script's --inl would change meaning the
# day an option --inline-depth comes), with the option in full
expect 2 "unknown option '--annotat'; did you mean --annotate\?" \
	"$PTOP" -b --annotat main
expect 2 "unknown option '--sor'; did you mean --sort\?" "$PTOP" -b --sor=comm
# a prefix of several: some of them, then how many more (in the table's
# order, which sections change: any of them may come first)
expect 2 "did you mean (--no-[a-z-]+, )+--no-[a-z-]+ \([0-9]+ more\)\?" "$PTOP" -b --no-
grep -q -- "--no-children" "$TMP/e" || fail "--no-: --no-children not among: $(cat "$TMP/e")"
# short options in a cluster are not long ones
"$PTOP" -bg -n 1 -d 0.2 -e cpu-clock -- "$WL/spin3" 0.1 > /dev/null 2> "$TMP/e" ||
	fail "-bg: $(cat "$TMP/e")"

# -p takes command names as the live view's p key does: every process
# so named.  A copy of the workload under a name of this run's own, so
# that no other process on the machine has it.
name=nc$$
cp "$WL/spin3" "$TMP/$name"
bg "$TMP/$name" 0
P1=$LAST_BG
bg "$TMP/$name" 0
P2=$LAST_BG
wait_until 10 "the workloads' comm" sh -c \
	"grep -qx $name /proc/$P1/comm && grep -qx $name /proc/$P2/comm"
"$PTOP" -b -n 1 -d 0.5 -e cpu-clock --json -p "$name" > "$TMP/o" 2> "$TMP/e" ||
	fail "-p $name: $(cat "$TMP/e")"
want=$(printf '%s\n' "$P1" "$P2" | sort -n | paste -sd, -)
jq -e --arg t "pids $want" '.target == $t' "$TMP/o" > /dev/null ||
	fail "-p $name: the target is not 'pids $want': $(jq -r .target "$TMP/o")"
jq -e --arg d "$name" '[.rows[] | select(.dso == $d and .symbol == "spin_a")] | length == 1' \
	"$TMP/o" > /dev/null || fail "-p $name: no spin_a row of $name: $(head -c 600 "$TMP/o")"
# names and pids together
"$PTOP" -b -n 1 -d 0.2 -e cpu-clock --json -p "$name,$$" > "$TMP/o" 2> "$TMP/e" ||
	fail "-p $name,$$: $(cat "$TMP/e")"
want=$(printf '%s\n' "$P1" "$P2" "$$" | sort -n | paste -sd, -)
jq -e --arg t "pids $want" '.target == $t' "$TMP/o" > /dev/null ||
	fail "-p $name,$$: the target is not 'pids $want': $(jq -r .target "$TMP/o")"
expect 1 "no process named 'nosuch$$'" "$PTOP" -b -n 1 -p "nosuch$$"
expect 2 "bad pid '0'" "$PTOP" -b -n 1 -p 0
expect 2 "bad thread id list 'abc'" "$PTOP" -b -n 1 -t abc

# folders that do not exist
expect 2 "--symfs $TMP/missing: No such file or directory" \
	"$PTOP" -b -n 1 --symfs "$TMP/missing"
expect 2 "--symfs /etc/passwd: not a directory" "$PTOP" -b -n 1 --symfs /etc/passwd
expect 2 "--debug-dir $TMP/missing: No such file" \
	"$PTOP" -b -n 1 --debug-dir "$TMP/missing"

# --folded: which of its conditions is missing
expect 2 "--folded .*add -b" "$PTOP" --folded -g
expect 2 "--folded needs call chains: add -g" "$PTOP" --folded -b -n 1
expect 2 "--folded and --json .*pick one" "$PTOP" --folded -b -g --json
exit 0
