# Shared by every test script (sourced by tests/integration/lib.sh and
# tests/e2e/tmux.inc, which define fail).  The protocol of a script:
#   exit 0    it checked what it says it checks, and that held
#   exit 77   skipped: the machine lacks a capability (not root, no
#             PMU, no tmpfs mount); the last "SKIP: reason" line says
#             which, and make check's summary names it
#   other     failed; the output says why (run-scripts.sh prints it all)
# A missing tool is not a skip: scripts/install-deps.sh test installs
# what the tests use, so `need` fails.

# skip REASON...: ends the script as skipped
skip() {
	echo "SKIP: $*"
	exit 77
}

# need CMD...: fails unless every CMD is installed
need() {
	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 ||
			fail "$c is not installed (make deps-test installs it)"
	done
}

# need_root: skips unless root
need_root() {
	[ "$(id -u)" = 0 ] || skip "not root"
}

# wait_until SECONDS WHAT CMD...: runs CMD every 50 ms until it succeeds;
# fails with WHAT after SECONDS.  Deadlines are generous: they are only
# reached when what is awaited never happens.
wait_until() {
	wu_secs=$1 wu_what=$2
	wu_end=$(( $(date +%s) + wu_secs ))
	shift 2
	until "$@"; do
		[ "$(date +%s)" -le "$wu_end" ] ||
			fail "$wu_what: not within $wu_secs s"
		sleep 0.05
	done
}
