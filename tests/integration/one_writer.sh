#!/bin/sh
# Every file ptop writes goes through src/sys/outfile (doc/ptop.1,
# SECURITY; doc/design.md): no other code of ptop creates, truncates or
# opens a file for writing, so that no path of the tree can follow a link
# someone planted.  A source check, line by line in src/, ui/ and
# symbols/ (comments included: a usage block naming a flag in a way that
# reads as a call is worth rewording): open flags that create or write,
# fopen/freopen/fdopen for writing, creat, mkstemp, O_TMPFILE.  What is
# allowed elsewhere is listed here with its reason.
set -u
cd "$(dirname "$0")/../.."
hits=$(grep -rnE 'O_CREAT|O_TRUNC|O_WRONLY|O_RDWR|O_APPEND|O_TMPFILE|\bcreat\(|mkstemp|mkostemp|\b(fopen|freopen|fdopen)\([^)]*"[^"]*[wa+]' \
	src ui symbols --include='*.c' --include='*.h' |
	grep -v '^src/sys/outfile\.[ch]:' |
	# the terminal, opened to read keys and draw (not a file)
	grep -v '^src/main\.c:.*open("/dev/tty", O_RDWR | O_CLOEXEC)' |
	# libdebuginfod's verbose output, discarded (dbgfetch.c says why)
	grep -v '^symbols/dbgfetch\.c:.*open("/dev/null", O_WRONLY | O_CLOEXEC)')
if [ -n "$hits" ]; then
	echo "FAIL: files opened for writing outside src/sys/outfile:"
	echo "$hits"
	exit 1
fi
# and the check catches what it is meant to
probe=$(printf '%s\n' 'fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);' \
	'f = fopen(p, "w");' | grep -cE 'O_CREAT|\b(fopen|freopen|fdopen)\([^)]*"[^"]*[wa+]')
[ "$probe" -eq 2 ] || { echo "FAIL: the pattern misses a write ($probe of 2)"; exit 1; }
echo ok
