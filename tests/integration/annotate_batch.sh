#!/bin/sh
# ptop -b --annotate on a workload whose hot loop is known (annwork): the
# loop's instructions hold ~100 % of ann_outer, the loop body's source line
# stands above them, the call names its callee, the %rip-relative loads
# and stores name the global annwork_sink; JSON, -M intel, an unknown
# name (close names, exit 1), a kernel function.
. tests/integration/lib.sh

SRC=tests/workloads/annwork.c
BODY=$(grep -n '/\* MARK:body \*/' "$SRC" | cut -d: -f1)
[ -n "$BODY" ] || fail "no MARK:body in $SRC"
# annwork_sink's address as nm gives it, as ptop prints it (0x4028)
SINK=$(nm "$WL/annwork" | awk '$3 == "annwork_sink" { print $1 }')
[ -n "$SINK" ] || fail "no annwork_sink in $WL/annwork"
SINK=$(printf '0x%x' "0x$SINK")

# Each run is the workload's whole run (-d 30: the annotation is printed
# when it exits), so that its samples are its CPU time: a window of wall
# time held none of ann_outer at load 30.
# text: one line per instruction (percent, address:, instruction)
"$PTOP" -b -e cpu-clock -d 30 --annotate ann_outer -- \
	"$WL/annwork" 1 > "$TMP/text" 2> "$TMP/err" ||
	fail "--annotate failed: $(cat "$TMP/err")"
grep -q '^# annotate: ann_outer  \[annwork\]' "$TMP/text" ||
	fail "no annotate title: $(head -5 "$TMP/text")"
grep -Eq "^ +annwork\\.c:$BODY +annwork_sink \\+= i \\* i / \\(i \\| 1\\);" "$TMP/text" ||
	fail "the loop body's source line is not shown"
grep -Eq '^ +[0-9.]+ +[0-9a-f]+: .*call[q]? +0x[0-9a-f]+ <ann_inner>$' "$TMP/text" ||
	fail "the call does not name ann_inner"
# the global the loop body reads and writes: perf's "# 4028 <counter>"
n=$(grep -Ec '^ +[0-9.]+ +[0-9a-f]+: .*mov[q]? +.*\(%rip\).*  # '"$SINK"' <annwork_sink>$' "$TMP/text")
[ "$n" -ge 2 ] ||
	fail "the %rip-relative operands do not name annwork_sink at $SINK: $(grep rip "$TMP/text")"
# every percent of the function adds up to 100
sum=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $2 ~ /:$/ { s += $1 } END { print s }' "$TMP/text")
near "$sum" 100 0.5 "sum of the instructions' percents"
# the instructions right under the body's line are hot
hot=$(awk -v l="annwork.c:$BODY" '
	$1 == l { on = 1; next }
	$1 ~ /^annwork\.c:/ { on = 0 }
	on && $1 ~ /^[0-9]/ { s += $1 }
	END { print s + 0 }' "$TMP/text")
awk -v h="$hot" 'BEGIN { exit !(h > 20) }' ||
	fail "the body's instructions hold only $hot %"

# JSON: the instructions of the loop (from the backward jump's target to
# the jump) hold ~100 %
"$PTOP" -b --json -e cpu-clock -d 30 --annotate ann_outer -- \
	"$WL/annwork" 1 > "$TMP/json" 2> "$TMP/err" ||
	fail "--annotate --json failed: $(cat "$TMP/err")"
jq -e '.symbol == "ann_outer" and .dso == "annwork" and .samples > 100' \
	"$TMP/json" > /dev/null || fail "bad JSON head: $(head -c 300 "$TMP/json")"
loop=$(jq '[.instructions[] | select(.kind == "cond_jump" and .target != null)
	| select((.target | ltrimstr("0x")) < (.addr | ltrimstr("0x")))] | length' "$TMP/json")
[ "$loop" -ge 1 ] || fail "no backward jump in ann_outer"
inloop=$(jq '. as $o
	| [$o.instructions[] | select(.kind == "cond_jump" and .target != null)][-1] as $j
	| ($j.target | ltrimstr("0x") | explode | map(if . >= 97 then . - 87 else . - 48 end) | reduce .[] as $d (0; . * 16 + $d)) as $lo
	| ($j.addr | ltrimstr("0x") | explode | map(if . >= 97 then . - 87 else . - 48 end) | reduce .[] as $d (0; . * 16 + $d)) as $hi
	| [$o.instructions[] | select((.addr | ltrimstr("0x") | explode | map(if . >= 97 then . - 87 else . - 48 end) | reduce .[] as $d (0; . * 16 + $d)) as $a | $a >= $lo and $a <= $hi) | .percent] | add' "$TMP/json")
near "$inloop" 100 2 "the loop's share of ann_outer"
jq -e --argjson l "$BODY" '[.lines[] | select(.line == $l and (.text | test("annwork_sink")))] | length == 1' \
	"$TMP/json" > /dev/null || fail "JSON lines miss the body's line"
jq -e '[.instructions[] | select(.kind == "call")][0].target_symbol == "ann_inner"' \
	"$TMP/json" > /dev/null || fail "JSON call has no target_symbol"
jq -e --arg a "$SINK" '[.instructions[] | select(.mem_symbol == "annwork_sink"
	and .mem_target == $a and .mem_offset == 0 and .target_symbol == null)]
	| length >= 2' "$TMP/json" > /dev/null ||
	fail "JSON instructions have no mem_symbol annwork_sink"

# Intel syntax: no AT&T registers; the global named the same way
"$PTOP" -b -e cpu-clock -d 30 -M intel --annotate ann_outer -- \
	"$WL/annwork" 0.3 > "$TMP/intel" 2> "$TMP/err" || fail "-M intel failed: $(cat "$TMP/err")"
grep -Eq '^ +[0-9.]+ +[0-9a-f]+: .*(imul|mov) ' "$TMP/intel" || fail "no Intel instructions"
grep -E '^ +[0-9.]+ +[0-9a-f]+: ' "$TMP/intel" | grep -q '%' && fail "AT&T operands in -M intel"
grep -Eq '^ +[0-9.]+ +[0-9a-f]+: .*mov .*\[rip \+ 0x[0-9a-f]+\].*  # '"$SINK"' <annwork_sink>$' "$TMP/intel" ||
	fail "-M intel does not name annwork_sink: $(grep rip "$TMP/intel")"

# an unknown name: close names, exit 1
"$PTOP" -b -e cpu-clock -d 30 --annotate ann_outr -- "$WL/annwork" 0.3 \
	> "$TMP/o" 2> "$TMP/err" && fail "an unknown symbol exited 0"
grep -q "no function named 'ann_outr'.*close names: .*ann_outer" "$TMP/err" ||
	fail "no close names: $(cat "$TMP/err")"

# a kernel function: annotated from /proc/kcore, or a clear message
if [ -r /proc/kallsyms ] && [ "$(id -u)" = 0 ]; then
	# the command is bounded: ptop -n leaves its command running
	"$PTOP" -b -e cpu-clock -d 1 -n 1 --annotate __x64_sys_clock_gettime \
		-- timeout 3 sh -c 'while :; do date > /dev/null; done' \
		> "$TMP/k" 2> "$TMP/err"
	rc=$?
	if [ -r /proc/kcore ]; then
		[ $rc -eq 0 ] || grep -q 'no function named' "$TMP/err" ||
			fail "kernel annotation failed: $(cat "$TMP/err")"
	else
		grep -q 'no function named' "$TMP/err" ||
			grep -q 'kernel annotation needs /proc/kcore' "$TMP/err" ||
			fail "no kcore message: $(cat "$TMP/err")"
	fi
else
	skip "the kernel function: not root (the rest passed)"
fi
exit 0
