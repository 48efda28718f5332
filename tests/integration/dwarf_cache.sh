#!/bin/sh
# The inflated copies of debug files (symbols/dwcache.c) on the real
# thing: libc's debug file from libc6-dbg, whose DWARF is compressed,
# read for the inlined frames of switchwork's read and write calls.  The
# first run makes $XDG_CACHE_HOME/ptop/dwarf/BUILDID.debug (inflated, mode
# 0600), the second reads it (the same inode) and shows the same inlined
# frames of libc (__libc_read, __libc_write), and --no-dwarf-cache makes
# nothing and still shows them.
. tests/integration/lib.sh

libc=$(ldd "$WL/switchwork" | sed -n 's|.*libc\.so\.6 => \([^ ]*\).*|\1|p')
[ -n "$libc" ] || fail "no libc in ldd $WL/switchwork"
bid=$(readelf -n "$libc" | sed -n 's/^ *Build ID: //p')
dbg=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
[ -f "$dbg" ] || fail "no debug file for $libc ($dbg): scripts/install-deps.sh test installs libc6-dbg"
dbg_bid=$(readelf -n "$dbg" 2> /dev/null | sed -n 's/^ *Build ID: //p')
readelf -SW "$dbg" 2> /dev/null | grep -q ' \.debug_info .* C ' ||
	fail "$dbg has no compressed .debug_info: nothing for the cache to do here"

# RUN NAME [OPTION]: the inlined frames of one run, in $TMP/NAME.inl
run() {
	name=$1
	shift
	XDG_CACHE_HOME=$TMP/$name.cache "$PTOP" -b --off-cpu --inline -e sched:sched_switch \
		-n 1 -d 30 "$@" -- "$WL/switchwork" 20000 \
		> "$TMP/$name.out" 2> "$TMP/$name.err" ||
		fail "ptop $*: $(head -c 400 "$TMP/$name.err")"
	# libc's own (which samples land elsewhere, in ld.so at the start,
	# varies from run to run)
	grep -o '__libc_[a-z_]* (inlined)' "$TMP/$name.out" | sort -u > "$TMP/$name.inl"
	for f in __libc_read __libc_write; do
		grep -q "$f (inlined)" "$TMP/$name.inl" ||
			fail "run $name: no $f (inlined) frame: $(head -c 1500 "$TMP/$name.out")"
	done
}

run first
copy=$TMP/first.cache/ptop/dwarf/$dbg_bid.debug
[ -f "$copy" ] || fail "no $copy after the first run: $(ls -lR "$TMP/first.cache")"
[ "$(stat -c %a "$copy")" = 600 ] || fail "$copy: mode $(stat -c %a "$copy")"
readelf -SW "$copy" 2> /dev/null | grep -q ' \.debug_info ' || fail "$copy has no .debug_info"
readelf -SW "$copy" 2> /dev/null | grep -q ' \.debug_[a-z_]* .* C ' &&
	fail "$copy still has compressed sections: $(readelf -SW "$copy" 2> /dev/null | grep debug_)"
ino=$(stat -c %i "$copy")

# the second run reads the copy (the same file) and shows both frames
mv "$TMP/first.cache" "$TMP/second.cache"
run second
[ "$(stat -c %i "$TMP/second.cache/ptop/dwarf/$dbg_bid.debug")" = "$ino" ] ||
	fail "the second run made the copy again"

# none kept, both frames
run none --no-dwarf-cache
[ -e "$TMP/none.cache/ptop/dwarf" ] && fail "--no-dwarf-cache made $TMP/none.cache/ptop/dwarf"
echo "inlined frames: $(tr '\n' ' ' < "$TMP/first.inl")"
exit 0
