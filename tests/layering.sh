#!/bin/sh
# The layering check (run by make check, alone by make check-layering):
# the folders are the layers (doc/design.md, "Layout"), and this says what
# each may include and call.
#  1. Every include of ptop's own headers names its folder ("src/core/x.h").
#  2. A folder includes only its own layer and the layers below it:
#       src/core      src/core
#       src/sys       src/core src/sys
#       src/perfdata  src/core src/sys src/perfdata
#       symbols       src/core src/sys symbols
#       ui/report     src/core src/sys src/perfdata symbols ui/report
#       ui/tui        all of the above and ui/tui
#       src (main.c, cli.c: the entry)   everything
#  3. Pure files (every file of src/core, and the files of PURE below):
#     no system headers for files, processes, terminals or the loader, no
#     system call, no thread started, no curses.  pthread.h is allowed for
#     a lock (the session's, the log's); starting a thread is not.
#     sys/types.h (types only, pid_t) is allowed.
#  4. curses only in ui/tui.
#  5. No production .c file over MAX_LINES (1,200) lines: a file that
#     grows past it holds several objects and wants splitting along its
#     seams (doc/design.md, "Layout").
#  6. The kernel's and the machine's files ("/proc/NAME...", "/sys/...",
#     a string that is such a path) are named only in src/sys, which
#     reads them; "/proc" alone, the root of the per-process files
#     handed to src/sys and symbols/, is not such a name.
# Prints each violation as FILE:LINE: what, and exits 1 if there is one;
# then runs its own test (--self-test alone: below).
# LAYERING_ROOT, LAYERING_FILES: the tree and the files to check (the
# self-test's copy); with either set, no self-test.
set -u
here=$(cd "$(dirname "$0")" && pwd)

# --self-test: each kind of violation, made in a copy of the tree, must
# fail the check (a check that cannot fail proves nothing).
if [ "${1:-}" = --self-test ]; then
	t=$(mktemp -d) || exit 2
	trap 'rm -rf "$t"' EXIT
	cp -r "$here/../src" "$here/../symbols" "$here/../ui" "$t/" || exit 2
	n=0
	nfail=0
	try() {	# FILE WHAT LINE...: appends the lines to FILE, expects a failure
		f=$1 what=$2
		shift 2
		cp "$t/$f" "$t/$f.orig"
		printf '%s\n' "$@" >> "$t/$f"
		n=$((n + 1))
		if LAYERING_ROOT=$t LAYERING_FILES=$f sh "$here/layering.sh" \
			> /dev/null 2>&1; then
			echo "layering self-test: not caught: $what ($f)" >&2
			nfail=$((nfail + 1))
		fi
		mv "$t/$f.orig" "$t/$f"
	}
	try src/core/dso.c "a system header in src/core" '#include <unistd.h>'
	try src/core/dso.c "a system call in src/core" \
		'static int f(void) { char b; return (int)read(0, &b, 1); }'
	try src/core/hist.c "a thread started in src/core" \
		'static void g(void) { pthread_create(0, 0, 0, 0); }'
	try src/core/hist.h "src/core including ui/report" \
		'#include "ui/report/rowset.h"'
	try src/sys/fdio.c "src/sys including src/perfdata" \
		'#include "src/perfdata/perfdata.h"'
	try symbols/symtab.c "symbols including ui/tui" '#include "ui/tui/keys.h"'
	try ui/report/table.c "ui/report including ui/tui" \
		'#include "ui/tui/tui.h"'
	try src/sys/fdio.c "an include without its folder" '#include "util.h"'
	try ui/report/app.c "curses outside ui/tui" '#include <curses.h>'
	try ui/report/fmt.c "a pure file outside src/core opening a file" \
		'static void h(void) { fopen("x", "r"); }'
	# (1,201 lines more: words without blanks or globs, one a line)
	# shellcheck disable=SC2046
	try ui/report/app.c "a kernel file named outside src/sys" \
		'static const char *kfile = "/proc/kallsyms";'
	try src/perfdata/writer.c "a sysfs file named outside src/sys" \
		'static const char *sfile = "/sys/kernel/notes";'
	try src/core/lru.c "a .c file over 1,200 lines" \
		$(seq -f 'int_pad%g;' 1 1201)
	# and the untouched copy passes
	if ! LAYERING_ROOT=$t sh "$here/layering.sh" > /dev/null 2>&1; then
		echo "layering self-test: the tree itself fails" >&2
		nfail=$((nfail + 1))
	fi
	[ $nfail -eq 0 ] || { echo "FAIL: layering self-test ($nfail)" >&2; exit 1; }
	echo "layering self-test: $n violations caught, the tree passes"
	exit 0
fi

root=${LAYERING_ROOT:-$here/..}
cd "$root" || exit 2
CPP=${CPP:-cpp}

# The most lines a production .c file may have (5).
MAX_LINES=1200

# Pure files outside src/core (as doc/design.md, "Layout", lists them).
PURE="symbols/symtab.c symbols/symtab_image.c symbols/demangle.c symbols/ehframe.c symbols/ehframe_expr.c symbols/fpfix.c
src/perfdata/header.c src/perfdata/queue.c src/perfdata/timefilter.c
symbols/disasm.c ui/report/fmt.c ui/report/sanitize.c ui/report/header.c
ui/report/batch.c ui/report/annotate.c ui/report/annotate_find.c
ui/report/annotate_count.c ui/report/annotate_fmt.c ui/report/rowset.c
ui/report/sort.c ui/report/rowmemo.c ui/report/callgraph.c ui/report/neighbours.c
ui/report/series.c ui/report/lanes.c
ui/report/treelines.c ui/report/compare.c ui/report/flame.c
ui/report/flamesvg.c ui/tui/screen.c ui/tui/listview.c"

# System headers a pure file may not include (a regular expression over
# what is between the <>).
BAD_HDR='^(unistd|fcntl|poll|dirent|termios|dlfcn|link|zstd|zlib|lzma|gelf|libelf|ncursesw?/.*|curses|term|sys/.*|linux/openat2|elfutils/.*)\.h$'
# Calls a pure file may not make (a word followed by '(', not a member,
# not a prefixed name such as ring__read).
BAD_CALL='open|openat|openat2|creat|read|readv|write|writev|pread|pwrite|close|lseek|mmap|munmap|mprotect|ioctl|syscall|poll|ppoll|select|fopen|fdopen|freopen|opendir|readdir|popen|pipe|pipe2|fork|vfork|execv|execvp|execve|execl|execlp|kill|waitpid|wait|dup|dup2|stat|fstat|lstat|fstatat|access|readlink|unlink|rename|mkdir|dlopen|dlsym|pthread_create|clock_gettime|gettimeofday|time|nanosleep|usleep|sleep|getpid|gettid|getenv|sysconf|uname|perf_event_open'

# BAD_HDR between the <> of an include line
BAD_INC=${BAD_HDR#^}
BAD_INC=${BAD_INC%\$}

fail=0
bad() {
	echo "$1" >&2
	fail=1
}

# layer_of PATH: its layer in $LAYER (a variable, not a command's output:
# a subshell per include made the check take seconds)
layer_of() {
	case "$1" in
	src/core/*) LAYER=src/core ;;
	src/sys/*) LAYER=src/sys ;;
	src/perfdata/*) LAYER=src/perfdata ;;
	src/*/*) LAYER="?" ;;
	src/*) LAYER=src ;;
	symbols/*/*) LAYER="?" ;;
	symbols/*) LAYER=symbols ;;
	ui/report/*) LAYER=ui/report ;;
	ui/tui/*) LAYER=ui/tui ;;
	*) LAYER="?" ;;
	esac
}

# allowed LAYER: the layers it may include, in $OK
allowed() {
	case "$1" in
	src/core) OK="src/core" ;;
	src/sys) OK="src/core src/sys" ;;
	src/perfdata) OK="src/core src/sys src/perfdata" ;;
	symbols) OK="src/core src/sys symbols" ;;
	ui/report) OK="src/core src/sys src/perfdata symbols ui/report" ;;
	ui/tui) OK="src/core src/sys src/perfdata symbols ui/report ui/tui" ;;
	src) OK="src/core src/sys src/perfdata symbols ui/report ui/tui src" ;;
	esac
}

is_pure() {
	case "$1" in src/core/*) return 0 ;; esac
	for p in $PURE; do
		[ "$p" = "$1" ] && return 0
	done
	return 1
}

files=${LAYERING_FILES:-$(find src symbols ui -name '*.[ch]' | sort)}
[ -n "$files" ] || { echo "layering: no sources under $root" >&2; exit 2; }
for p in $PURE; do
	[ -f "$p" ] || bad "tests/layering.sh: PURE names $p, which does not exist"
done

for f in $files; do
	layer_of "$f"
	layer=$LAYER
	if [ "$layer" = "?" ]; then
		bad "$f: not in a layer folder (src/core, src/sys, src/perfdata, symbols, ui/report, ui/tui, or src/ for the entry)"
		continue
	fi
	allowed "$layer"
	ok=$OK
	# 1, 2: ptop's own includes
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
	while read -r line inc; do
		case "$inc" in
		*/*) ;;
		*) echo "$f:$line: \"$inc\" does not name its folder"; continue ;;
		esac
		if [ ! -f "$inc" ]; then
			echo "$f:$line: \"$inc\" is no file of the tree"
			continue
		fi
		layer_of "$inc"
		il=$LAYER
		case " $ok " in
		*" $il "*) ;;
		*) echo "$f:$line: $layer includes \"$inc\" of $il, a higher or other layer" ;;
		esac
	done > "${TMPDIR:-/tmp}/layering.$$"
	if [ -s "${TMPDIR:-/tmp}/layering.$$" ]; then
		cat "${TMPDIR:-/tmp}/layering.$$" >&2
		fail=1
	fi
	rm -f "${TMPDIR:-/tmp}/layering.$$"

	# 5: size
	case "$f" in
	*.c)
		n=$(wc -l < "$f")
		[ "$n" -le "$MAX_LINES" ] ||
			bad "$f: $n lines, over $MAX_LINES: split it along its seams"
		;;
	esac

	# 6: /proc and /sys files named outside src/sys (in the code:
	# comments left out, as for the calls of 3)
	if [ "$layer" != src/sys ] &&
	   grep -q -E '"/(proc/[A-Za-z]|sys/)' "$f"; then
		m=$($CPP -fpreprocessed -dD -P "$f" 2>/dev/null |
			grep -o -E '"/(proc/[A-Za-z]|sys/)[^" ]*"' | sort -u |
			tr '\n' ' ')
		[ -n "$m" ] && bad "$f: names a kernel file outside src/sys (src/sys reads it): $m"
	fi

	# 4: curses
	if [ "$layer" != ui/tui ]; then
		m=$(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(ncursesw?/)?(n?curses|term)\.h>' "$f")
		[ -n "$m" ] && bad "$f:${m%%:*}: curses outside ui/tui"
	fi

	is_pure "$f" || continue
	# 3: a pure file's system headers
	# (one grep a file: BAD_HDR's names between the <>, sys/types.h
	# apart, types only)
	m=$(grep -n -E "^[[:space:]]*#[[:space:]]*include[[:space:]]*<$BAD_INC>" "$f" |
		grep -v '<sys/types\.h>' |
		sed 's|^\([0-9]*\):[^<]*<\([^>]*\)>.*|'"$f"':\1: pure file includes <\2>|')
	if [ -n "$m" ]; then
		echo "$m" >&2
		fail=1
	fi
	# and its calls, comments left out (the preprocessor strips them
	# without reading any include; -P keeps no line markers, so the
	# message gives the call rather than its line)
	calls=$($CPP -fpreprocessed -dD -P "$f" 2>/dev/null |
		grep -o -E "(^|[^A-Za-z0-9_.>])($BAD_CALL)[[:space:]]*\(" |
		sed -E 's/^[^A-Za-z_]*//; s/[[:space:]]*\($//' | sort -u |
		tr '\n' ' ')
	[ -n "$calls" ] && bad "$f: pure file calls: $calls"
done

if [ $fail -ne 0 ]; then
	echo "FAIL: layering (doc/design.md, \"Layout\")" >&2
	exit 1
fi
echo "layering: $(echo "$files" | wc -l) files in their layers"
# Run on the whole tree (as make check does), the self-test follows.
[ -n "${LAYERING_ROOT:-}${LAYERING_FILES:-}" ] && exit 0
exec sh "$here/layering.sh" --self-test
