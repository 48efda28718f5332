#!/bin/sh
# Signal frames in chains, on fpsig (a SIGPROF handler, on_prof, that
# calls prof_work; tests/workloads/fpsig.c).  The handler's return
# address is the first byte of the kernel's signal return trampoline,
# libc's __restore_rt; looked up one byte below, as return addresses are,
# it fell in the padding before it and showed as an address (libc.so.6
# 0x3c050).  perf report names it; so does ptop, with the same Children,
# from the same perf record -g file.  Live: -g names it (its samples'
# callers recovered: on_prof too), --call-graph dwarf names it and goes
# on unwinding into the interrupted main_part.  Go's trampoline
# (runtime.sigreturn.abi0 in Go 1.19) the same way: a Go program that
# signals itself (a fixed number of rounds), perf record -g, ptop -i and
# perf report of the same file.
. tests/integration/lib.sh
. tests/integration/callgraph.inc
need perf
command -v go > /dev/null 2>&1 || fail "no go (golang-go): scripts/install-deps.sh test"

# trampoline DATA PATTERN CMD...: perf record -g of CMD into DATA; the
# row whose name matches PATTERN (an awk regex) in perf report and in
# ptop -i (its JSON: DATA.json) has the same Children, 0.1 % or more:
# a row of a few samples at least (about 4,000 in all), not an empty
# one; the share itself is the machine's (gosig's trampoline took 2.8 to
# 6 % of its samples on a quiet machine, 0.68 % in a loaded CI run, with
# perf report giving the same figure each time)
trampoline() {
	tr_data=$1 tr_pat=$2
	shift 2
	perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -g -o "$tr_data" -- \
		"$@" > /dev/null 2> "$TMP/err" ||
		fail "perf record --buildid-mmap -g $1: $(cat "$TMP/err")"
	perf report -i "$tr_data" --stdio --children --no-inline -g none \
		--sort sym --percent-limit 0 > "$TMP/perf.txt" 2> /dev/null ||
		fail "perf report of $1 failed"
	set -- $(awk -v p="$tr_pat" '$NF ~ p && $(NF - 1) == "[.]" { sub(/%/, "", $1); print $NF, $1; exit }' "$TMP/perf.txt")
	[ $# -eq 2 ] || fail "perf report has no row matching $tr_pat: $(head -20 "$TMP/perf.txt")"
	"$PTOP" -i "$tr_data" -b --json > "$tr_data.json" 2> "$TMP/err" ||
		fail "ptop -i $tr_data: $(cat "$TMP/err")"
	tr_ours=$(children "$tr_data.json" "$1")
	echo "$1: ptop -i $tr_ours, perf report $2"
	at_least "$tr_ours" 0.1 "$1's Children"
	near "$tr_ours" "$2" 0.01 "$1: ptop -i against perf report (the same file)"
}

trampoline "$TMP/fp.data" '^__restore_rt$' "$WL/fpsig" 2
# user rows only: a kernel sample may land in code kallsyms does not list
# (a BPF program's or ftrace's trampoline at 0xffffffffc0000b7d, one CI
# run), which perf names by its address too
tail -n 1 "$TMP/fp.data.json" | jq -e '[.rows[] | select((.kernel | not) and
	(.symbol == null or (.symbol | test("^0x"))))] | length == 0' > /dev/null ||
	fail "user rows named by an address: $(tail -n 1 "$TMP/fp.data.json" | jq -c '[.rows[] | select((.kernel | not) and (.symbol == null or (.symbol | test("^0x")))) | .symbol]')"

# live -g: the trampoline named, the handler recovered under it
"$PTOP" -b --json -g -e cpu-clock -d 30 -- "$WL/fpsig" 2 > "$TMP/fp.json" \
	2> "$TMP/err" || fail "ptop -g: $(cat "$TMP/err")"
at_least "$(children "$TMP/fp.json" __restore_rt)" 1 "-g: __restore_rt's Children"
at_least "$(tree_share "$TMP/fp.json" prof_work on_prof)" 90 \
	"-g: prof_work's callers through on_prof"

# --call-graph dwarf: named, and the interrupted function beyond it
"$PTOP" -b --json --call-graph dwarf -e cpu-clock -d 30 -- "$WL/fpsig" 2 \
	> "$TMP/dw.json" 2> "$TMP/err" || fail "ptop --call-graph dwarf: $(cat "$TMP/err")"
r=$(children "$TMP/dw.json" __restore_rt)
p=$(children "$TMP/dw.json" prof_work)
at_least "$r" 1 "dwarf: __restore_rt's Children"
near "$r" "$p" 1 "dwarf: every prof_work sample through __restore_rt"
tail -n 1 "$TMP/dw.json" | jq -e '[.rows[] | select(.symbol == "prof_work") |
	.tree[] | .. | objects | select(.symbol? == "main_part") |
	.children[]? | select(.symbol == "__restore_rt") |
	.children[]? | select(.symbol == "on_prof")] | length > 0' > /dev/null ||
	fail "dwarf: no main_part -> __restore_rt -> on_prof in prof_work's tree"

# Go (tests/workloads/gosig.go): the runtime's handler under its trampoline
cp tests/workloads/gosig.go "$TMP/main.go" || fail "cp gosig.go"
(cd "$TMP" && HOME="$TMP" GOCACHE="$TMP/gocache" GOFLAGS= GO111MODULE=off \
	go build -o gosig main.go) > "$TMP/err" 2>&1 || fail "go build: $(cat "$TMP/err")"
# the trampoline's name: runtime.sigreturn.abi0 (Go 1.19), other
# versions' runtime.sigreturn__sigaction.abi0
trampoline "$TMP/go.data" '^runtime\\.sigreturn' "$TMP/gosig" 20000
exit 0
