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

# near VALUE EXPECTED TOLERANCE WHAT
near() {
	awk -v v="$1" -v e="$2" -v t="$3" 'BEGIN { exit !(v >= e - t && v <= e + t) }' ||
		fail "$4: $1 is not within $3 of $2"
}
