#!/bin/sh
# The live view by cgroup: two workloads in two cgroup v2 directories the
# test makes (w.service and v.service under ptop-test-PID), -G of their
# parent, -s cgroup,comm: both rows with their short names; g zooms into
# the selected row's cgroup (the other's row goes, the filter line says
# which), Esc undoes it; the sort picker offers cgroup (an order and a
# grouping).
. tests/e2e/tmux.inc
need_root

. tests/cgroup.inc
cg_make w.service v.service
# each workload in its cgroup, until killed; two in w.service, so that
# its row stays first (no cpu controller is enabled: each process has
# its share of the CPUs, and w.service twice v.service's).  With one
# each, the two rows swapped places between the test's reading of the
# first row and g under load, and g zoomed into the other one.
cg_run w.service "$WL/spin3" 0
W=$LAST_BG
cg_run w.service "$WL/spin3" 0
W2=$LAST_BG
cg_run v.service "$WL/annwork" 0
V=$LAST_BG
moved() {
	grep -qx "0::/ptop-test-$$/w.service" "/proc/$W/cgroup" &&
		grep -qx "0::/ptop-test-$$/w.service" "/proc/$W2/cgroup" &&
		grep -qx "0::/ptop-test-$$/v.service" "/proc/$V/cgroup" &&
		[ "$(readlink "/proc/$W/exe")" = "$WL/spin3" ] &&
		[ "$(readlink "/proc/$W2/exe")" = "$WL/spin3" ] &&
		[ "$(readlink "/proc/$V/exe")" = "$WL/annwork" ]
}
wait_until 30 "the workloads in their cgroups" moved

run "$PTOP" -e cpu-clock -d 0.5 -G "ptop-test-$$" -s cgroup,comm
wait_for '^Overhead  *Samples  *History  *Cgroup  *Command' 30
wait_for '%  *[0-9]+  *[^ ]+  *w\.service  *spin3' 30
wait_for '%  *[0-9]+  *[^ ]+  *v\.service  *annwork' 30
# g: the first row's cgroup alone (w.service's, twice v.service's share);
# the History column is one word.  The first tables are a few hundred
# samples, where the scheduler's turns weigh (a loaded CI run had
# v.service first at 0.3 s, 533 samples against 477): g waits until
# w.service's row is first with half again v.service's samples, so that
# the two cannot swap before g; a ptop that put samples in the wrong
# cgroup never gets there
samples_of() {
	screen | awk -v cg="$1" '$1 ~ /%$/ && $4 == cg { print $2; exit }'
}
leads() {
	l_w=$(samples_of w.service)
	l_v=$(samples_of v.service)
	[ -n "$l_w" ] && [ -n "$l_v" ] && [ "$l_w" -ge $(( l_v * 3 / 2 )) ] &&
		[ "$(top_row | awk '{ print $4 }')" = w.service ]
}
wait_until 30 "w.service's row first with half again v.service's samples" leads
first=$(top_row | awk '{ print $4 }')
[ "$first" = w.service ] || fail "the first row is not w.service's: $(top_row)"
other='v\.service'
keys g
wait_for "^filters: .*cgroup $first"
wait_gone "%  *[0-9]+  *[^ ]+  *$other "
screen | grep -Eq "%  *[0-9]+  *[^ ]+  *$first " || fail "the zoomed cgroup's row is gone"
redrawn
screen | grep -Eq "%  *[0-9]+  *[^ ]+  *$other " && fail "the other cgroup came back"
# Esc undoes it: both rows again
keys Escape
wait_for "%  *[0-9]+  *[^ ]+  *$other " 10
wait_gone '^filters: .*cgroup'
# the sort picker offers cgroup: as an order (rows are grouped by it:
# A to Z) and as a grouping, checked
keys s
wait_for '^ *\*? *cgroup \(A to Z\) *$'
wait_for '^ *\[x\] cgroup *$'
keys Escape
wait_for '^Overhead' 10
quit_clean
echo "ok"
