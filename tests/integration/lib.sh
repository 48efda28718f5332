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

# bg CMD...: starts a background process that cleanup kills.
bg() {
	"$@" &
	BG="$BG $!"
	LAST_BG=$!
}

# share FILE SYMBOL: the overhead (percent) of SYMBOL's row in the last
# JSON object of FILE (0 when absent).
share() {
	tail -n 1 "$1" | jq -r --arg s "$2" \
		'[.rows[] | select(.symbol == $s) | .overhead] | add // 0'
}

# near VALUE EXPECTED TOLERANCE WHAT
near() {
	awk -v v="$1" -v e="$2" -v t="$3" 'BEGIN { exit !(v >= e - t && v <= e + t) }' ||
		fail "$4: $1 is not within $3 of $2"
}
