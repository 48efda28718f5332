#!/bin/sh
# Install, with apt-get, the Debian packages that ptop needs and that are
# missing.  "run": build dependencies.  "test": those plus what the tests use.
# Prints nothing when everything is there.
set -eu
mode=${1:-run}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

need=""
have_pc() { command -v "$PKG_CONFIG" >/dev/null 2>&1 && "$PKG_CONFIG" --exists "$1" 2>/dev/null; }
want_pc() { have_pc "$1" || need="$need $2"; }
want_cmd() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
want_deb() {
	dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed' ||
		need="$need $1"
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
fi
[ -z "$need" ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "ptop: missing packages:$need" >&2
	echo "ptop: install them as root with: apt-get install$need" >&2
	exit 1
fi
echo "ptop: installing$need"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $need >/dev/null
