# Shared helpers of the integration scripts (sourced).
# Environment: PTOP (binary), WL (workloads dir).
set -u
: "${PTOP:?}" "${WL:?}"
TMP=$(mktemp -d)
BG=""

cleanup() {
	for p in $BG; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip, need, need_root, wait_until (the scripts' exit protocol)
. tests/common.sh
need jq

# bg CMD...: starts a background process that cleanup kills.
bg() {
	"$@" &
	BG="$BG $!"
	LAST_BG=$!
}

# share FILE SYMBOL: SYMBOL's share (percent) of the user-space samples
# in the last JSON object of FILE (0 when absent).  A workload's known
# split is of its own (user) work: the kernel's part, interrupts and
# page faults, is the machine's (1 to 20 % in this VM's pvm_irq_enable,
# with the load).  Tests of absolute overheads compare with perf report.
share() {
	tail -n 1 "$1" | jq -r --arg s "$2" '
		([.rows[] | select(.kernel | not) | .overhead] | add // 0) as $u |
		if $u > 0 then ([.rows[] | select(.symbol == $s) | .overhead] |
			add // 0) * 100 / $u else 0 end'
}

# user_samples FILE: the user-space samples of the last JSON object of
# FILE (what share's percents are of)
user_samples() {
	tail -n 1 "$1" | jq -r '[.rows[] | select(.kernel | not) | .samples] | add // 0'
}

# work_near VALUE WANT N WHAT: VALUE, a profile's share (percent of N
# samples) of a function that does WANT percent of a workload's fixed
# work (wl.h), within what sampling and the machine allow: 4 standard
# deviations of N samples (sqrt(p (1 - p) / N)), plus the machine's bend
# (tests/README, rule 3), at most 15 % of the smaller side of the split
# as measured here (cgwork's inner_b took 38 % of outer's samples for a
# third of its work, load 17; spin3's spin_b and spin_c 43.4 % of its
# CPU time for 40 % of its work, by its own clock, in a loaded CI run).
work_near() {
	awk -v v="$1" -v w="$2" -v n="$3" 'BEGIN {
		if (v == "" || n < 1)
			exit 1
		p = w / 100
		t = 4 * 100 * sqrt(p * (1 - p) / n) + 0.15 * (w < 50 ? w : 100 - w)
		exit !(v >= w - t && v <= w + t) }' ||
		fail "$4: $1 % of $3 samples is not within 4 sd and the machine's bend of $2 %"
}

# near VALUE EXPECTED TOLERANCE WHAT
near() {
	awk -v v="$1" -v e="$2" -v t="$3" 'BEGIN { exit !(v >= e - t && v <= e + t) }' ||
		fail "$4: $1 is not within $3 of $2"
}
