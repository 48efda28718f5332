#!/bin/sh
# Process churn in the live view: the samples of processes that exited
# are kept per function, not per address (session__fold_addrs), and the
# annotation of their function says so in its title instead of putting
# them on an instruction.  churn's children run churn_work for 0.5 ms
# each and exit; nothing groups rows by process.
. tests/e2e/tmux.inc

cd "$TMP"
run env NO_COLOR=1 "$PTOP" -e cpu-clock -F 4000 -d 0.5 -- "$WL/churn" 0 100
wait_for 'churn_work' 20
# only churn_work's row, then its annotation
keys / c h u r n _ w o r k Enter
wait_top 'churn_work'
keys a
wait_for '^Annotate churn_work  \[churn\]  [0-9.]+% of cpu-clock'
# the children reaped since are folded at the next refreshes
folded() {
	screen | grep -Eq '^Annotate churn_work .*, [0-9]+ samples? \(\+[0-9]+ of exited processes, address not kept\)'
}
wait_until 20 "the title counting exited processes' samples apart" folded
# and the count grows as children exit: the fold goes on
n_folded() {
	screen | sed -n 's/.*(+\([0-9]*\) of exited processes.*/\1/p' | head -n 1
}
n1=$(n_folded)
more_folded() { [ "$(n_folded)" -gt "$n1" ] 2> /dev/null; }
wait_until 20 "more folded samples than $n1" more_folded
# the instructions' shares are of the samples that kept their address:
# those on screen add up to at most 100
sum=$(screen | awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $2 ~ /:$/ { s += $1 } END { printf "%d", s }')
[ "$sum" -le 101 ] || fail "the instructions' shares add up to $sum"
keys Escape
wait_top 'churn_work'
quit_clean
