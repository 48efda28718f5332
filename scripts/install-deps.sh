#!/bin/sh
# Install, with apt-get, the Debian packages that ptop needs and that are
# missing.  "run": build dependencies.  "test": those plus what the tests use.
# Prints nothing when everything is there.  Optional packages (those a
# test skips by name without) are installed where apt has them; where it
# has not, or their install fails, a line says so and nothing fails.
set -eu
mode=${1:-run}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

need=""
optional=""
have_pc() { command -v "$PKG_CONFIG" >/dev/null 2>&1 && "$PKG_CONFIG" --exists "$1" 2>/dev/null; }
want_pc() { have_pc "$1" || need="$need $2"; }
want_cmd() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
want_deb() {
	dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed' ||
		need="$need $1"
}
want_optional() {
	dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed' ||
		optional="$optional $1"
}
# has_candidate PKG: apt knows a version of PKG it could install
has_candidate() {
	apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'
}

want_cmd "$PKG_CONFIG" pkg-config
want_cmd cc gcc
want_cmd make make
want_pc ncursesw libncurses-dev
want_pc libelf libelf-dev
want_pc libdw libdw-dev
want_pc capstone libcapstone-dev
want_pc libzstd libzstd-dev
want_pc libdebuginfod libdebuginfod-dev
want_pc liblzma liblzma-dev
want_pc zlib zlib1g-dev
# libiberty's C++ demangler: perf's, for the names libstdc++'s refuses
want_deb libiberty-dev
if [ "$mode" = test ]; then
	want_pc check check
	want_cmd tmux tmux
	want_cmd jq jq
	want_cmd perf linux-perf
	want_cmd g++ g++
	want_cmd strip binutils
	want_cmd clang clang
	want_cmd debuginfod debuginfod
	want_cmd xz xz-utils
	want_cmd python3 python3
	want_cmd go golang-go
	want_cmd pgrep procps
	want_cmd script bsdutils
	want_cmd addr2line binutils
	want_cmd gdb gdb
	want_cmd xmllint libxml2-utils
	want_cmd chromium chromium
	# libc's separate debug file (compressed DWARF): the load that
	# tui_resolving.sh and stop_latency.sh quit during
	want_deb libc6-dbg
	# hotspot's perf.data parser (hotspot-perfparser), the second reader
	# of ptop's -o files in perfdata_hotspot.sh; it pulls in Qt and KDE
	# Frameworks: 97 packages, 25 MB to fetch, 117 MB installed, 46 s
	# with apt-get update on this project's machines (doc/bench.md, "The hotspot package")
	want_optional hotspot
fi
[ -z "$need$optional" ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	[ -n "$optional" ] &&
		echo "ptop: not installed:$optional (the tests that use them skip)" >&2
	[ -z "$need" ] && exit 0
	echo "ptop: missing packages:$need" >&2
	echo "ptop: install them as root with: apt-get install$need" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# the lists are read once: known packages need no update
updated=""
for p in $optional; do
	if ! has_candidate "$p" && [ -z "$updated" ]; then
		apt-get update -qq
		updated=1
	fi
	if has_candidate "$p"; then
		need="$need $p"
	else
		echo "ptop: apt has no $p here: the tests that use it skip" >&2
	fi
done
[ -z "$need" ] && exit 0
echo "ptop: installing$need"
[ -n "$updated" ] || apt-get update -qq
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $need >/dev/null; then
	[ -z "$optional" ] && exit 1
	# the required ones alone, so that a failing optional one skips
	# its tests and fails nothing else
	req=""
	for p in $need; do
		case " $optional " in *" $p "*) ;; *) req="$req $p" ;; esac
	done
	echo "ptop: installing$optional failed: the tests that use it skip" >&2
	# shellcheck disable=SC2086
	[ -z "$req" ] || apt-get install -y -qq --no-install-recommends $req >/dev/null
fi
