#!/bin/sh
# --memory-budget (issue 38): past it, the cold entries fold to their
# functions without their chains, the header says so, and no sample is
# lost: manychains' 131072 distinct chains, each as cold as the others,
# four seconds of its CPU (about 16,000 samples, nearly each an entry of
# its own: several MiB of histogram and chains), profiled with -g in a
# budget of 1 MiB (text, then JSON); then two seconds in the default
# budget (64 MiB), which they do not reach: no fold.
. tests/integration/lib.sh
. tests/integration/callgraph.inc

"$PTOP" -b -g --no-children -e cpu-clock -F 4000 -d 1 -E 1000000 \
	--memory-budget 1 -- "$WL/manychains" 4 17 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop exited with $?: $(cat "$TMP/err")"
grep -q '; finished' "$TMP/out" || fail "no finished table: $(tail -n 5 "$TMP/out")"
# the last table: its header's samples, its rows' Samples (Self: each
# sample counts once), its budget line
awk '/^# event / { t = "" } { t = t $0 "\n" } END { printf "%s", t }' \
	"$TMP/out" > "$TMP/last"
total=$(sed -n 's/^# samples \([0-9]*\).*/\1/p' "$TMP/last")
rows=$(awk '!/^#/ && $1 ~ /%$/ && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$TMP/last")
at_least "${total:-0}" 4000 "samples of manychains"
[ "$rows" = "$total" ] || fail "the rows hold $rows samples of $total"
line=$(grep '^# memory budget: ' "$TMP/last") ||
	fail "no memory budget line: $(grep '^#' "$TMP/last")"
echo "$line" | grep -Eq '^# memory budget: [0-9]+ cold entries folded to their functions, their chains dropped \([0-9]+ chain nodes\)$' ||
	fail "the budget line reads: $line"
folded=$(echo "$line" | sed 's/^# memory budget: \([0-9]*\) .*/\1/')
nodes=$(echo "$line" | sed 's/.*(\([0-9]*\) chain nodes)$/\1/')
at_least "$folded" 1000 "entries folded"
at_least "$nodes" 1000 "chain nodes dropped"
# the samples stay in their function: leaf's row (the workload's spin)
leaf=$(awk '!/^#/ && $NF == "leaf" && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$TMP/last")
at_least "$((leaf * 10))" "$((total * 8))" "leaf's samples (of $total)"

# JSON says the same (budget_folded), and every sample is in a row
"$PTOP" -b --json -g --no-children -e cpu-clock -F 4000 -d 1 -E 1000000 \
	--memory-budget 1 -- "$WL/manychains" 3 17 > "$TMP/out.json" 2> "$TMP/err" ||
	fail "ptop --json exited with $?: $(cat "$TMP/err")"
tail -n 1 "$TMP/out.json" | jq -e '.finished and .samples > 3000 and
	.budget_folded.entries > 1000 and .budget_folded.chain_nodes > 1000 and
	.hidden_rows == 0 and ([.rows[].samples] | add) == .samples' \
	> /dev/null ||
	fail "JSON: $(tail -n 1 "$TMP/out.json" | jq -c '{finished, samples, budget_folded, rows: ([.rows[].samples] | add), hidden_rows}')"

# the default budget: nothing folds
"$PTOP" -b -g --no-children -e cpu-clock -F 4000 -d 1 -- \
	"$WL/manychains" 2 17 > "$TMP/out2" 2> "$TMP/err" ||
	fail "ptop exited with $?: $(cat "$TMP/err")"
grep -q '; finished' "$TMP/out2" || fail "no finished table (default budget)"
grep -q '^# memory budget' "$TMP/out2" &&
	fail "a fold in the default budget: $(grep '^# memory budget' "$TMP/out2")"
exit 0
