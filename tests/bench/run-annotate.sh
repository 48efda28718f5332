# Sourced by tests/bench/run.sh (PTOP, BUILD, tmp, ratio, best): annotate
# one function of a big shared library, ptop against perf annotate.
#
# clang++ compiles a template-heavy file under perf record; the hottest
# named libLLVM function of that profile is annotated by
#   perf annotate --stdio -i FILE SYM   (objdump underneath), and by
#   build/bench/annotate LIB SYM        (ptop's annotator in process:
#     "annotate" = code read + disassembly + source lines + text, what
#     the live view pays when `a` opens a row whose symbols the table
#     already loaded; "cold" adds loading the library's symbol table and
#     finding the name), and, when ptop reads perf.data (-i), by
#   ptop -i FILE -b --annotate SYM      (everything, end to end: with
#     the symbol tables an earlier run kept, the default; reading the
#     binaries, --no-symbol-cache; and a first run, no cache at all).
# Wall times, best of 3.

ann_ms() {	# ann_ms CMD...: wall milliseconds of one run
	s=$(date +%s%N)
	"$@" > /dev/null 2>&1
	e=$(date +%s%N)
	echo $(( (e - s) / 1000000 ))
}

ann_bench() {
	clangxx=$(command -v clang++-14 || command -v clang++)
	[ -n "$clangxx" ] || { echo "annotate: skipped (no clang++)"; return; }
	lib=$(ldd "$(readlink -f "$clangxx")" 2>/dev/null |
		sed -n 's/.*=> \(.*libLLVM[^ ]*\) .*/\1/p' | head -n 1)
	[ -n "$lib" ] || { echo "annotate: skipped (clang++ does not use libLLVM)"; return; }
	cat > "$tmp/big.cpp" <<'CPP'
#include <algorithm>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>
std::map<std::string, std::vector<int>> m;
int f(const std::string &s)
{
	std::regex r("a+b*");
	std::smatch sm;
	std::regex_search(s, sm, r);
	std::ostringstream o;
	o << s << sm.size();
	std::unordered_map<std::string, int> u;
	u[o.str()]++;
	std::vector<std::function<int(int)>> v;
	v.push_back([](int x) { return x + 1; });
	std::sort(m[s].begin(), m[s].end());
	return (int)u.size() + v[0](3);
}
CPP
	# -N: perf 6.1 sometimes aborts while filling its build-id cache;
	# --buildid-mmap: a plain perf record aborts while a live ptop runs
	# (a kernel bug leaks the build-id bit into other sessions' MMAP2)
	perf record --buildid-mmap -N -q -e cpu-clock -F 4000 -o "$tmp/ann.data" -- \
		"$clangxx" -O2 -c "$tmp/big.cpp" -o "$tmp/big.o" > /dev/null 2>&1 ||
		{ echo "annotate: skipped (perf record failed)"; return; }
	base=$(basename "$lib")
	sym=$(perf report -i "$tmp/ann.data" --stdio --sort dso,sym -q 2>/dev/null |
		sed -n "s/^ *[0-9.]*% *$base *\[\.\] //p" | grep -v '^0x' |
		sed 's/ *$//' | head -n 1)
	[ -n "$sym" ] || { echo "annotate: skipped (no named $base function in the profile)"; return; }

	for i in 1 2 3; do
		ann_ms perf annotate --stdio -i "$tmp/ann.data" -s "$sym"
	done > "$tmp/ann_perf"
	for i in 1 2 3; do
		"$BUILD/bench/annotate" "$lib" "$sym"
	done > "$tmp/ann_ptop"
	pa=$(best < "$tmp/ann_perf")
	ta=$(sed -n 's/.*annotate_ms=\([0-9.]*\).*/\1/p' "$tmp/ann_ptop" | best)
	tc=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
		v[kv[1]] = kv[2] } print v["symbols_ms"] + v["find_ms"] + v["annotate_ms"] }' \
		"$tmp/ann_ptop" | best)
	ni=$(sed -n 's/.*insns=\([0-9]*\).*/\1/p' "$tmp/ann_ptop" | head -n 1)
	echo "annotate $sym ($base, ${ni:-?} instructions; best of 3):"
	echo "  perf annotate --stdio: $pa ms"
	echo "  ptop annotate: $ta ms (cold, with $base's symbol table: $tc ms)" \
		"-> perf/ptop = $(ratio "$pa" "$ta") x, $(ratio "$pa" "$tc") x cold" \
		"(target: under 50 ms, at least 10x)"
	if "$PTOP" --help 2>/dev/null | grep -q -- '--input'; then
		# first run ever (no cache: kallsyms and symbol tables made),
		# every run reading the binaries (--no-symbol-cache), and
		# with the tables an earlier run kept (the default)
		for i in 1 2 3; do
			rm -rf "$tmp/ann_cache"
			ann_ms env XDG_CACHE_HOME=$tmp/ann_cache "$PTOP" -i "$tmp/ann.data" \
				-b --annotate "$sym"
		done > "$tmp/ann_cold"
		for i in 1 2 3; do
			ann_ms "$PTOP" -i "$tmp/ann.data" -b --no-symbol-cache \
				--annotate "$sym"
		done > "$tmp/ann_nosc"
		ann_ms "$PTOP" -i "$tmp/ann.data" -b --annotate "$sym" > /dev/null
		for i in 1 2 3; do
			ann_ms "$PTOP" -i "$tmp/ann.data" -b --annotate "$sym"
		done > "$tmp/ann_e2e"
		rm -rf "$tmp/ann_cache"
		pe=$(best < "$tmp/ann_e2e")
		pn=$(best < "$tmp/ann_nosc")
		pf=$(best < "$tmp/ann_cold")
		echo "  ptop -i FILE -b --annotate (read perf.data, symbols, annotate): $pe ms" \
			"-> perf/ptop = $(ratio "$pa" "$pe") x (target: at least 10x)"
		echo "    reading the binaries (--no-symbol-cache): $pn ms -> $(ratio "$pa" "$pn") x;" \
			"first run, no cache at all: $pf ms -> $(ratio "$pa" "$pf") x"
	fi
}
ann_bench
