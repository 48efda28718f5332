#!/bin/sh
# Names without a server: a workload stripped the way Fedora strips
# (MiniDebugInfo: its local functions' symbol table, xz-compressed, in
# .gnu_debugdata) is named in batch mode; the same binary without the
# section gives func_0x rows.  --symfs: a perf record file whose binary
# moved away is named from a copy of the files under DIR.
. tests/integration/lib.sh
command -v xz > /dev/null || fail "xz is not installed"

# find-debuginfo's add_minidebug, step by step
mkdir -p "$TMP/m"
cd "$TMP/m" || fail "cd"
objcopy --only-keep-debug "$WL/annwork" debug || fail "objcopy"
strip --strip-all -o plain "$WL/annwork" || fail "strip"
nm -D plain --format=posix --defined-only | awk '{ print $1 }' | sort > dynsyms
nm debug --format=posix --defined-only |
	awk '$2 == "T" || $2 == "t" || $2 == "D" { print $1 }' | sort > funcsyms
comm -13 dynsyms funcsyms > keep
grep -qx ann_outer keep || fail "ann_outer is not among the kept symbols"
objcopy -S --remove-section .gdb_index --remove-section .comment \
	--keep-symbols=keep debug mini || fail "objcopy of the mini debug info"
xz mini || fail "xz"
objcopy --add-section .gnu_debugdata=mini.xz plain annwork || fail "--add-section"
cd - > /dev/null || fail "cd -"
nm "$TMP/m/annwork" 2> /dev/null | grep -q . && fail "annwork has a .symtab"

unset DEBUGINFOD_URLS
# whole runs (-d 30: the table when the command exits), not a window of
# wall time
"$PTOP" -b -e cpu-clock -d 30 -E 5 -- "$TMP/m/annwork" 1 \
	> "$TMP/out" 2> "$TMP/err" || fail "ptop failed: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] ann_outer$' "$TMP/out" ||
	fail "MiniDebugInfo: no ann_outer row: $(cat "$TMP/out")"
grep -Eq 'annwork +\[\.\] ann_inner$' "$TMP/out" ||
	fail "MiniDebugInfo: no ann_inner row"
cp "$TMP/m/plain" "$TMP/m/annwork"
"$PTOP" -b -e cpu-clock -d 30 -E 5 -- "$TMP/m/annwork" 1 \
	> "$TMP/out" 2> "$TMP/err" || fail "ptop failed"
grep -Eq 'annwork +\[\.\] func_0x' "$TMP/out" ||
	fail "without .gnu_debugdata: no func_0x row: $(cat "$TMP/out")"

# --symfs: the recording's binary is gone from its path; a copy of the
# machine's files (the binary, its debug file by build-id) under DIR
need perf
mkdir -p "$TMP/run"
cp "$TMP/m/plain" "$TMP/run/annwork"
perf record --buildid-mmap -q -N -o "$TMP/perf.data" -e cpu-clock \
	-- "$TMP/run/annwork" 1 > /dev/null 2> "$TMP/rec.err" ||
	fail "perf record --buildid-mmap: $(cat "$TMP/rec.err")"
bid=$(readelf -n "$TMP/run/annwork" | sed -n 's/^ *Build ID: //p')
sysroot=$TMP/sysroot
mkdir -p "$sysroot$TMP/run" "$sysroot/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)"
mv "$TMP/run/annwork" "$sysroot$TMP/run/annwork"
cp "$TMP/m/debug" "$sysroot/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
"$PTOP" -i "$TMP/perf.data" -b -E 5 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop -i failed: $(cat "$TMP/err")"
grep -q 'ann_outer' "$TMP/out" && fail "named without --symfs"
"$PTOP" -i "$TMP/perf.data" --symfs "$sysroot" -b -E 5 > "$TMP/out" 2> "$TMP/err" ||
	fail "ptop -i --symfs failed: $(cat "$TMP/err")"
grep -Eq 'annwork +\[\.\] ann_outer$' "$TMP/out" ||
	fail "--symfs: no ann_outer row: $(cat "$TMP/out") $(cat "$TMP/err")"
exit 0
