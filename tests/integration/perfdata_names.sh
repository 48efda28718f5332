#!/bin/sh
# Names as perf report gives them, row by row, on recordings made here:
# C++ overloads, templates, operators and gcc clones by their name alone,
# libc's aliases (memcpy/memmove, free/cfree@GLIBC_2.2.5), PLT stubs,
# anonymous JIT code ("[JIT] tid PID") and the execve syscall's samples
# (the old program's libc).  Every recording is perf record
# --buildid-mmap, which the leaked build-id bit of other sessions' MMAP2
# records cannot trip.
. tests/integration/lib.sh

mkdir -p "$TMP/.debug"
perf() {
	command perf --buildid-dir "$TMP/.debug" "$@"
}

record() {
	f=$1
	shift
	perf record --buildid-mmap -q -o "$f" "$@" > "$TMP/rec.out" 2> "$TMP/rec.err" ||
		fail "perf record --buildid-mmap $*: $(head -c 400 "$TMP/rec.err")"
}

# perf_rows FILE [perf report args]: "dso<TAB>symbol<TAB>self<TAB>children"
# of perf report --stdio --sort dso,sym (children = self without
# --children), from its '|'-separated form (dsos such as "[JIT] tid 42"
# hold spaces; a symbol may hold '|': operator|)
perf_rows() {
	f=$1
	shift
	perf report -i "$f" --stdio --sort dso,sym -g none -t '|' "$@" \
		> "$TMP/perf.txt" 2> "$TMP/perf.err" ||
		fail "perf report -i $f: $(head -c 300 "$TMP/perf.err")"
	awk -F '|' '
		function trim(x) { sub(/^ +/, "", x); sub(/ +$/, "", x); return x }
		/^#/ || !/%/ { next }
		{
			o = trim($1); sub(/%$/, "", o); c = o; k = 2
			if (trim($2) ~ /^[0-9.]+%$/) {
				c = o; o = trim($2); sub(/%$/, "", o); k = 3
			}
			dso = trim($k); sym = $(k + 1)
			for (i = k + 2; i <= NF; i++) sym = sym "|" $i
			sub(/^\[.\] /, "", sym); sym = trim(sym)
			printf "%s\t%s\t%s\t%s\n", dso, sym, o, c
		}' "$TMP/perf.txt"
}

ptop_rows() {
	f=$1
	shift
	"$PTOP" -i "$f" -b --json -E 1000000 "$@" > "$TMP/ptop.json" 2> "$TMP/ptop.err" ||
		fail "ptop -i $f: $(head -c 300 "$TMP/ptop.err")"
	jq -r '.rows[] | [.dso, .symbol, .overhead, (.children // .overhead)] | @tsv' \
		"$TMP/ptop.json"
}

# same_names WHAT MIN: every perf row of MIN percent or more (self, and
# children when there are chains) is in ptop's table under the same dso
# and the same name, as many rows of that name (overloads), their sum
# within 0.1 point (0.3 for children).  perf's hex rows are left out:
# ptop groups a stripped function's addresses into one func_0x row.
same_names() {
	what=$1 min=$2
	[ -s "$TMP/p.rows" ] || fail "$what: perf report shows no rows"
	awk -F '\t' -v min="$min" -v what="$what" '
		NR == FNR { k = $1 "\t" $2; to[k] += $3; tc[k] += $4; tn[k]++; next }
		{
			k = $1 "\t" $2
			if (!(k in po)) ord[++n] = k
			po[k] += $3; pc[k] += $4; pn[k]++
		}
		END {
			for (i = 1; i <= n; i++) {
				k = ord[i]
				if ((po[k] < min && pc[k] < min) || k ~ /\t0x[0-9a-f]+$/)
					continue
				split(k, f, "\t")
				checked++
				if (!(k in to)) {
					printf "%s: perf row %s %s (%.2f%%) is not in ptop\n", what, f[1], f[2], po[k]
					bad++
					continue
				}
				if (tn[k] != pn[k]) {
					printf "%s: %s %s: %d rows in perf, %d in ptop\n", what, f[1], f[2], pn[k], tn[k]
					bad++
				}
				d = to[k] - po[k]; dc = tc[k] - pc[k]
				if (d < -0.1 || d > 0.1 || dc < -0.3 || dc > 0.3) {
					printf "%s: %s %s: perf %.2f%% (%.2f%%), ptop %.2f%% (%.2f%%)\n", what, f[1], f[2], po[k], pc[k], to[k], tc[k]
					bad++
				}
			}
			if (checked < 3) { printf "%s: only %d rows compared\n", what, checked; exit 1 }
			printf "%s: %d rows named and shared as in perf report\n", what, checked - bad
			exit bad > 0
		}' "$TMP/t.rows" "$TMP/p.rows" >&2 ||
		fail "$what: ptop and perf report disagree"
}

# 1. C++ and libc through the PLT
F=$TMP/cxx.data
record "$F" -F 999 -- "$WL/cxxnames" 3
perf_rows "$F" > "$TMP/p.rows"
ptop_rows "$F" > "$TMP/t.rows"
same_names cxxnames 0.5
# what is known without perf: the name alone, overloads as two rows
awk -F '\t' '$1 == "cxxnames" && $3 > 3 { print $2 }' "$TMP/t.rows" | sort > "$TMP/names"
for want in 'ns::work' 'ns::twice<int>' 'ns::twice<long>' 'ns::Box::get' \
	'ns::Box::operator<' 'ns::Box::operator long' \
	'(anonymous namespace)::anon_fn' 'spin_cloned'; do
	grep -qxF "$want" "$TMP/names" || fail "no hot row '$want' in: $(cat "$TMP/names")"
done
[ "$(grep -cxF 'ns::work' "$TMP/names")" -eq 2 ] || fail "ns::work(int) and (double) are not two rows"
! grep -q '\[clone\|(int)\|(double)\|const$' "$TMP/names" || fail "parameters or clones in short names: $(cat "$TMP/names")"
# libc: memcpy under perf's alias, and the PLT named
awk -F '\t' '$1 ~ /^libc\.so/ && $3 > 2' "$TMP/t.rows" | grep -q . || fail "no libc rows"
# the full form on demand
ptop_rows "$F" --demangle-params > "$TMP/long.rows"
grep -qF "$(printf 'cxxnames\tns::work(double)')" "$TMP/long.rows" || fail "--demangle-params: no ns::work(double)"
grep -qF "$(printf 'cxxnames\tns::Box::get(int) const')" "$TMP/long.rows" || fail "--demangle-params: no ns::Box::get(int) const"
grep -q "$(printf 'cxxnames\tspin_cloned(Cfg const\\*, int) \\[clone ')" "$TMP/long.rows" ||
	fail "--demangle-params: no spin_cloned(Cfg const*, int) [clone ...]"

# 2. anonymous executable code without a map: "[JIT] tid PID"
F=$TMP/jit.data
record "$F" -F 999 -- "$WL/jitwork" 1
rm -f "$(cat "$TMP/rec.out")"
pid=$(perf report -i "$F" --stdio --sort pid 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\):jitwork *$/\1/p' | head -n 1)
[ -n "$pid" ] || fail "no jitwork pid in the recording"
perf_rows "$F" > "$TMP/p.rows"
ptop_rows "$F" > "$TMP/t.rows"
grep -q "^\[JIT\] tid $pid	0x" "$TMP/p.rows" || fail "perf shows no [JIT] tid $pid rows (perf changed?)"
pj=$(awk -F '\t' -v d="[JIT] tid $pid" '$1 == d { s += $3 } END { print s + 0 }' "$TMP/p.rows")
tj=$(awk -F '\t' -v d="[JIT] tid $pid" '$1 == d { s += $3 } END { print s + 0 }' "$TMP/t.rows")
near "$tj" "$pj" 0.1 "[JIT] tid $pid share (perf $pj)"
near "$tj" 50 15 "[JIT] tid $pid share"

# 3. execs with call chains: the execve syscall's samples, after the
# new program's COMM record, name the old program's libc as perf does;
# ld.so's _start (a zero-size label) is named.  At 19999 Hz: each
# forked child's cpu-clock count starts at zero, and its execve comes in
# its first 100 us or so; at 1999 Hz (a 500 us period) a fast machine
# saw no execve sample in 1000 execs
F=$TMP/exec.data
record "$F" -g -F 19999 -- sh -c 'i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done'
perf_rows "$F" --children > "$TMP/p.rows"
ptop_rows "$F" > "$TMP/t.rows"
pe=$(awk -F '\t' '$1 ~ /^libc\.so/ && $2 ~ /execve/ { print $2 "\t" $4; exit }' "$TMP/p.rows")
[ -n "$pe" ] || fail "perf names no libc execve frame (perf changed?)"
name=$(printf '%s' "$pe" | cut -f1)
pc=$(printf '%s' "$pe" | cut -f2)
tc=$(awk -F '\t' -v n="$name" '$1 ~ /^libc\.so/ && $2 == n { print $4; exit }' "$TMP/t.rows")
[ -n "$tc" ] || fail "ptop has no libc $name row (perf: $pc%)"
near "$tc" "$pc" 0.3 "children of libc $name (perf $pc%)"
awk -v c="$tc" 'BEGIN { exit !(c > 1) }' || fail "libc $name: $tc% children only"
awk -F '\t' '$1 ~ /^ld-linux/ && $2 == "_start" && $3 > 0' "$TMP/t.rows" | grep -q . ||
	fail "ld.so's _start is not named"
exit 0
