#!/bin/sh
# --pprof: profiles read back by the real reader, go tool pprof, from
# perf record --buildid-mmap recordings of known workloads (-i, so the
# input is fixed) and from a live batch run: shares as ptop's table
# (0.1 point), stacks as --folded, sample types, mappings with build-ids
# and has_* flags (a stripped binary), one file per event, labels.
. tests/integration/lib.sh

command -v go > /dev/null 2>&1 || fail "no go (golang-go): scripts/install-deps.sh test"
need perf
# go tool pprof needs no network; its cache and home in the temp dir
export HOME="$TMP" GOCACHE="$TMP/gocache" GOFLAGS=-mod=mod
pp() { go tool pprof -symbolize=none "$@" 2> "$TMP/pperr"; }

record() {	# record OUT ARGS...: perf record --buildid-mmap (BRIEF: kernel bug)
	out=$1
	shift
	perf record --buildid-mmap -q -o "$out" "$@" > /dev/null 2> "$TMP/recerr" ||
		fail "perf record --buildid-mmap failed: $(head -c 300 "$TMP/recerr")"
}

buildid() { readelf -n "$1" | awk '/Build ID/ { print $3 }'; }

# flat FILE NAME: go tool pprof -top's flat% of NAME
flat() {
	pp -top -nodecount=100000 -nodefraction=0 -edgefraction=0 "$1" |
		awk -v n="$2" '$6 == n { sub("%", "", $2); print $2; f = 1 }
			END { if (!f) print 0 }'
}

# as_folded FILE: go tool pprof -traces as folded stacks (root first,
# names as --folded writes them: ';' and ' ' as '_'), summed and sorted
as_folded() {
	pp -sample_index=samples -traces "$1" | awk '
		function flush() {
			if (n) {
				s = f[n]
				for (i = n - 1; i >= 1; i--)
					s = s ";" f[i]
				c[s] += cnt
			}
			n = 0
		}
		/^-----------\+/ { flush(); next }
		/^ *[0-9]+   / && !n { cnt = $1; name = substr($0, 14) }
		/^             [^ ]/ && n { name = substr($0, 14) }
		/^ *[0-9]+   / || (/^             [^ ]/ && n) {
			sub(/ \(inline\)$/, "", name)
			gsub(/[; ]/, "_", name)
			f[++n] = name
		}
		END { flush(); for (s in c) print s, c[s] }' | sort
}

# norm_folded FILE: --folded output with unresolved frames' "+0xADDR"
# dropped (pprof shows such a location as [dso]), summed and sorted
norm_folded() {
	sed -E 's/\+0x[0-9a-f]+\]/]/g' "$1" |
		awk '{ c[$1] += $2 } END { for (s in c) print s, c[s] }' | sort
}

# ids FILE SECTION: the ids of -raw's Locations run 1..N in order
ids_in_order() {
	pp -raw "$1" | awk '/^Locations/ { on = 1; next } /^Mappings/ { on = 0 }
		on && /^ *[0-9]+: / { sub(":", "", $1); if ($1 != ++k) bad = 1 }
		END { exit bad || !k }' || fail "$1: location ids are not 1..N"
}

# usage and write errors are said, with a non-zero exit (the live view
# writes --pprof too: tests/e2e/tui_export.sh)
"$PTOP" -b --pprof "$TMP/x" --annotate main -i /dev/null > /dev/null 2> "$TMP/err" &&
	fail "--pprof with --annotate"
grep -q -- '--pprof writes the table.s profile: not with --annotate' "$TMP/err" ||
	fail "usage: $(cat "$TMP/err")"

# 1. spin3 without chains: shares, sample types, the binary's mapping
record "$TMP/spin3.data" -e cpu-clock -F 2000 -- "$WL/spin3" 2
"$PTOP" -i "$TMP/spin3.data" -b --json --pprof "$TMP/spin3.pb.gz" \
	> "$TMP/spin3.json" 2> "$TMP/err" || fail "ptop -i --pprof: $(cat "$TMP/err")"
[ -s "$TMP/spin3.pb.gz" ] && ! ls -A "$TMP" | grep -q 'ptop-tmp$' ||
	fail "no profile (or a temporary left)"
gzip -t "$TMP/spin3.pb.gz" || fail "not gzip"
for f in spin_a spin_b spin_c; do
	near "$(flat "$TMP/spin3.pb.gz" $f)" "$(tail -n 1 "$TMP/spin3.json" | jq -r --arg s $f \
		'[.rows[] | select(.symbol == $s) | .overhead] | add // 0')" 0.1 \
		"pprof's flat% of $f against ptop's table"
done
# the 60/30/10 split bends on a loaded machine: its order does not
awk -v a="$(flat "$TMP/spin3.pb.gz" spin_a)" -v b="$(flat "$TMP/spin3.pb.gz" spin_b)" \
	-v c="$(flat "$TMP/spin3.pb.gz" spin_c)" 'BEGIN { exit !(a > b && b > c && c > 2) }' ||
	fail "spin_a > spin_b > spin_c"
pp -raw "$TMP/spin3.pb.gz" > "$TMP/raw" || fail "pprof -raw: $(cat "$TMP/pperr")"
grep -q '^PeriodType: cpu nanoseconds$' "$TMP/raw" || fail "period type: $(head -3 "$TMP/raw")"
grep -q '^Period: 500000$' "$TMP/raw" || fail "period (1e9/2000)"
grep -q '^samples/count cpu/nanoseconds$' "$TMP/raw" || fail "sample types"
# the duration is the samples' span (wall time: a loaded machine makes a
# 2 s CPU workload last longer), perf script's first to last timestamp
span=$(perf script -i "$TMP/spin3.data" -F time 2> /dev/null | tr -d ':' |
	awk 'NR == 1 { f = $1 } { l = $1 } END { printf "%.2f", l - f }')
got=$(sed -n 's/^Duration: //p' "$TMP/raw")
# (-raw prints the first four characters of Go's duration: "6.91" for
# 6.9137 s, "11.3" for 11.36 s on a loaded machine; the cut's unit plus
# the span's own rounding)
tol=$(awk -v s="$span" 'BEGIN { print (s >= 100 ? 1 : s >= 10 ? 0.1 : 0.01) + 0.01 }')
near "$got" "$span" "$tol" "pprof's Duration against the samples' span (perf script)"
bid=$(buildid "$WL/spin3")
# has_filenames, has_line_numbers hold when every location of the
# mapping has a source line: a sample in crt's _start or a PLT stub (no
# DWARF line there) clears them, as ptop(1) says; has_inline_frames is
# false: inlined functions are expanded in chains unwound from stack
# copies only (--inline), as perf 6.1, so a server may expand them
mid=$(sed -n "s|^ *\([0-9]*\): 0x[0-9a-f]*/0x[0-9a-f]*/0x[0-9a-f]* $WL/spin3 .*|\1|p" "$TMP/raw")
[ -n "$mid" ] || fail "no mapping of spin3: $(sed -n '/^Mappings/,$p' "$TMP/raw")"
if sed -n '/^Locations/,/^Mappings/p' "$TMP/raw" | grep -Eq " M=$mid .* :0 "; then
	flags='\[FN\]'
else
	flags='\[FN\]\[FL\]\[LN\]'
fi
grep -E " $WL/spin3 $bid $flags\$" "$TMP/raw" > /dev/null ||
	fail "spin3's mapping, not $flags: $(sed -n '/^Locations/,$p' "$TMP/raw")"
grep -Eq '^ +[0-9]+: 0x[0-9a-f]+ M=[0-9]+ spin_a .*spin3\.c:[0-9]+ ' "$TMP/raw" ||
	fail "spin_a's location has no file:line"
ids_in_order "$TMP/spin3.pb.gz"
"$PTOP" -i "$TMP/spin3.data" -b --pprof "$TMP/no/such/dir" > /dev/null 2> "$TMP/err" &&
	fail "--pprof into a missing directory succeeded"
grep -q -- "--pprof $TMP/no/such/dir: No such file" "$TMP/err" || fail "ENOENT: $(cat "$TMP/err")"

# 2. cgwork with chains (-g): the stacks are --folded's, the shares the table's
record "$TMP/cg.data" -e cpu-clock -F 2000 -g -- "$WL/cgwork" 2
"$PTOP" -i "$TMP/cg.data" -b -g --folded --pprof "$TMP/cg.pb.gz" \
	> "$TMP/cg.folded" 2> "$TMP/err" || fail "ptop -g --pprof: $(cat "$TMP/err")"
as_folded "$TMP/cg.pb.gz" > "$TMP/cg.a"
norm_folded "$TMP/cg.folded" > "$TMP/cg.b"
[ -s "$TMP/cg.b" ] || fail "no folded stacks"
cmp -s "$TMP/cg.a" "$TMP/cg.b" ||
	fail "stacks differ from --folded: $(diff "$TMP/cg.a" "$TMP/cg.b" | head -10)"
grep -q '^.*main;outer;inner_a [0-9]*$' "$TMP/cg.a" || fail "no main;outer;inner_a"
"$PTOP" -i "$TMP/cg.data" -b -g --json --max-stack 64 > "$TMP/cg.json" 2> "$TMP/err" ||
	fail "ptop -g --json: $(cat "$TMP/err")"
for f in inner_a inner_b lib_work; do
	near "$(flat "$TMP/cg.pb.gz" $f)" \
		"$(tail -n 1 "$TMP/cg.json" | jq -r --arg s $f \
			'[.rows[] | select(.symbol == $s) | .self] | add // 0')" 0.1 \
		"pprof's flat% of $f against ptop's self"
done
ids_in_order "$TMP/cg.pb.gz"

# 3. inlined frames (inlwork) and two events: FILE.EVENT each
record "$TMP/inl.data" -e cpu-clock -e page-faults -F 2000 -g -- "$WL/inlwork" 1
"$PTOP" -i "$TMP/inl.data" -b -g --inline --folded --pprof "$TMP/inl.pb.gz" \
	> "$TMP/inl.folded" 2> "$TMP/err" || fail "ptop two events: $(cat "$TMP/err")"
[ -s "$TMP/inl.pb.gz.cpu-clock" ] && [ -s "$TMP/inl.pb.gz.page-faults" ] &&
	[ ! -e "$TMP/inl.pb.gz" ] || fail "files: $(ls "$TMP")"
pp -traces "$TMP/inl.pb.gz.cpu-clock" | grep -q '^ *inl_helper (inline)$' ||
	fail "inl_helper is not an inlined frame"
pp -raw "$TMP/inl.pb.gz.page-faults" | grep -q '^samples/count page-faults/count$' ||
	fail "page-faults' sample types: $(pp -raw "$TMP/inl.pb.gz.page-faults" | head -8)"
# --folded prints the first event's stacks, then the second's
as_folded "$TMP/inl.pb.gz.cpu-clock" > "$TMP/inl.a"
as_folded "$TMP/inl.pb.gz.page-faults" >> "$TMP/inl.a"
sort -o "$TMP/inl.a" "$TMP/inl.a"
norm_folded "$TMP/inl.folded" > "$TMP/inl.b"
# the two events' identical stacks are summed by norm_folded: sum ours too
awk '{ c[$1] += $2 } END { for (s in c) print s, c[s] }' "$TMP/inl.a" | sort > "$TMP/inl.a2"
cmp -s "$TMP/inl.a2" "$TMP/inl.b" ||
	fail "inlwork stacks differ from --folded: $(diff "$TMP/inl.a2" "$TMP/inl.b" | head)"

# 4. a stripped binary: its build-id, has_functions false
record "$TMP/st.data" -e cpu-clock -F 2000 -- "$WL/spin3-stripped" 1
HOME=$TMP/empty "$PTOP" -i "$TMP/st.data" -b --pprof "$TMP/st.pb.gz" > /dev/null 2> "$TMP/err" ||
	fail "stripped: $(cat "$TMP/err")"
bid=$(buildid "$WL/spin3-stripped")
[ -n "$bid" ] || fail "spin3-stripped has no build-id note"
pp -raw "$TMP/st.pb.gz" > "$TMP/raw" || fail "pprof -raw (stripped)"
line=$(grep -E " $WL/spin3-stripped $bid( |\$)" "$TMP/raw") ||
	fail "stripped mapping: $(sed -n '/^Mappings/,$p' "$TMP/raw")"
case "$line" in *"[FN]"*) fail "stripped binary said to have functions: $line" ;; esac

# 5. labels from the sort keys, and a live batch run rewriting its file
"$PTOP" -b -e cpu-clock -s comm,pid,sym -d 0.5 -n 3 --pprof "$TMP/live.pb.gz" \
	-- "$WL/spin3" 1 > "$TMP/live.txt" 2> "$TMP/err" || fail "live: $(cat "$TMP/err")"
! ls -A "$TMP" | grep -q 'ptop-tmp$' || fail "a temporary left"
pp -tags "$TMP/live.pb.gz" > "$TMP/tags" || fail "pprof -tags: $(cat "$TMP/pperr")"
grep -q 'comm: Total' "$TMP/tags" && grep -q '): spin3$' "$TMP/tags" &&
	grep -q 'pid: Total' "$TMP/tags" || fail "labels: $(cat "$TMP/tags")"
grep -q 'cpu: Total' "$TMP/tags" && fail "a cpu label without -s cpu"
exit 0
