# Shared by every test script (sourced by tests/integration/lib.sh and
# tests/e2e/tmux.inc, which define fail).  The protocol of a script:
#   exit 0    it checked what it says it checks, and that held
#   exit 77   skipped: the machine lacks a capability (not root, no
#             PMU, no tmpfs mount); the last "SKIP: reason" line says
#             which, and make check's summary names it
#   other     failed; the output says why (run-scripts.sh prints it all)
# A missing tool is not a skip: scripts/install-deps.sh test installs
# what the tests use, so `need` fails.

# The user's settings file (~/.config/ptop/config) is not the tests':
# every script starts with none (config.sh makes its own).
if [ -n "${TMP:-}" ]; then
	XDG_CONFIG_HOME=$TMP/no-config
	export XDG_CONFIG_HOME
fi

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

# pair_near WHAT A NA B NB WANT: two shares of the same fixed split of
# work, A of NA samples and B of NB (percents, from the same run), within
# 4 standard deviations of the difference of two samplings
# (sqrt(p (1 - p) / NA + p (1 - p) / NB), p = WANT / 100), each within 8
# points of WANT.  A fixed split of work is not a fixed split of time on
# a loaded machine (tests/README, rule 3): two pairs of the same shape in
# one run bend alike, and their difference is sampling alone; 8 points is
# half the way from 2/3 to an even split, the nearest share a wrong tree
# would show.
pair_near() {
	echo "$1: $2 % of $3 samples, $4 % of $5 (want $6)"
	awk -v a="$2" -v na="$3" -v b="$4" -v nb="$5" -v w="$6" 'BEGIN {
		if (a == "" || b == "" || na < 1 || nb < 1)
			exit 1
		p = w / 100
		tol = 4 * 100 * sqrt(p * (1 - p) / na + p * (1 - p) / nb)
		d = a - b
		if (d < -tol || d > tol) {
			printf "they differ by %.2f, more than 4 sd (%.2f)\n", d, tol
			exit 1
		}
		if (a < w - 8 || a > w + 8 || b < w - 8 || b > w + 8) {
			printf "not within 8 points of %s\n", w
			exit 1
		}
	}' || fail "$1: $2 % (of $3 samples) and $4 % (of $5)"
}

# second_user: sets PLANTER to an unprivileged user of its own for the
# scripts that plant files as another user would (made once with useradd
# and kept, since scripts run side by side), or skips when that cannot
# be; as_planter CMD... runs CMD as that user.
second_user() {
	need_root
	need setpriv
	PLANTER=ptop-planter
	if ! id "$PLANTER" > /dev/null 2>&1; then
		need useradd
		useradd -M -r -s /usr/sbin/nologin "$PLANTER" 2> /dev/null ||
			id "$PLANTER" > /dev/null 2>&1 ||
			skip "cannot create a second user"
	fi
}
as_planter() {
	setpriv --reuid "$PLANTER" --regid "$PLANTER" --clear-groups -- "$@"
}

# public_dir: $PUB, a 1777 folder (in $TMP, made traversable) where the
# second user plants links, and $VICTIM, a file of root's they point to;
# victim_intact WHAT fails when something was written through them.
public_dir() {
	umask 022
	chmod 711 "$TMP"
	PUB=$TMP/pub
	mkdir "$PUB" && chmod 1777 "$PUB" || fail "cannot make $PUB"
	VICTIM=$TMP/victim
	echo "root's secret" > "$VICTIM" && chmod 600 "$VICTIM" ||
		fail "cannot make $VICTIM"
}
victim_intact() {
	[ "$(cat "$VICTIM")" = "root's secret" ] ||
		fail "$1: the planted link's target was written"
}
# is_new FILE MODE WHAT: FILE is a regular file of root's with MODE
is_new() {
	[ -f "$1" ] && [ ! -L "$1" ] || fail "$3: $1 is not a regular file"
	m=$(stat -c '%a %U' "$1")
	[ "$m" = "$2 root" ] || fail "$3: $1 is '$m', not '$2 root'"
}
