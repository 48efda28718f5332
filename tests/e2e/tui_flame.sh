#!/bin/sh
# The flame graph in the live view (-g, F) on cgwork's known call graph:
# frozen (f), the search's shares (/) of inner_a, inner_b and outer add
# up; zoomed into outer (arrows, Enter), its callees share the width as
# the search says and caller_x is gone; a annotates, c shows callers,
# i flips into an icicle, Esc zooms out and goes back, q quits clean.
# The workload's known split is checked as tui_callgraph.sh does it:
# inner_a's share of outer against caller_x's of lib_work, the same
# shape of fixed work in the same snapshot (pair_near: the machine bends
# both alike); the exact checks are the graph against its own counts.
# Then the same from a perf record -g file (-i).
. tests/e2e/tmux.inc

# share TEXT: the search line's share of TEXT's frames (a search per call)
share() {
	keys /
	keys C-u
	keys -l "$1"
	keys Enter
	wait_for "^search \"$1\": [0-9.]+% of all samples"
	screen | sed -n "s/^search \"$1\": \([0-9.]*\)% of all samples.*/\1/p" | head -n 1
}

# info: the line that describes the selected frame
info() {
	screen | sed -n 2p
}
info_not() { [ "$(info)" != "$1" ]; }

# move KEY NAME: presses KEY until the info line (not a graph line that
# starts with the same name) names NAME, each time waiting for the view
# to draw the new selection
move() {
	for _ in 1 2 3 4 5 6 7 8; do
		info | grep -Eq "^$2  " && return 0
		before=$(info)
		keys "$1"
		wait_until 5 "the selection to move ($1)" info_not "$before"
	done
	info | grep -Eq "^$2  " || fail "could not select $2 with $1"
}

flame_checks() {
	keys F
	wait_for '^Flame graph of cpu-clock: [0-9]+ samples' 10
	wait_for '^all +100\.00% \([0-9]+ samples\)' 10
	wait_for 'inner_a' 10
	wait_for 'lib_work' 10
	keys f
	wait_for '^Flame graph.*, frozen \(f\)'
	n1=$(screen | sed -n 's/^Flame graph of cpu-clock: \([0-9]*\) samples.*/\1/p')
	a=$(share inner_a)
	b=$(share inner_b)
	o=$(share outer)
	echo "search: inner_a $a %, inner_b $b %, outer $o %"
	# outer's samples are in its callees (it has no work of its own
	# but its loop; a sample in a callee's first instructions skips
	# outer in a frame-pointer chain): within a point of their sum, in
	# one snapshot
	awk -v a="$a" -v b="$b" -v o="$o" 'BEGIN { d = o - a - b
		exit !(a > 0 && b > 0 && d >= -1 && d <= 1) }' ||
		fail "outer $o % is not inner_a $a % + inner_b $b %"
	x=$(share caller_x)
	y=$(share caller_y)
	ab=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", 100 * a / (a + b) }')
	xy=$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.2f", 100 * x / (x + y) }')
	pair_near "inner_a of outer's callees, caller_x of lib_work's callers" \
		"$ab" "$(awk -v s="$a" -v t="$b" -v n="$n1" 'BEGIN { printf "%d", (s + t) * n / 100 }')" \
		"$xy" "$(awk -v s="$x" -v t="$y" -v n="$n1" 'BEGIN { printf "%d", (s + t) * n / 100 }')" 66.7
	# live, frozen: the count stays over two refreshes (the title's
	# elapsed time moves at each); a recording's never moves
	if [ "$1" = live ]; then
		redrawn
		n2=$(screen | sed -n 's/^Flame graph of cpu-clock: \([0-9]*\) samples.*/\1/p')
		[ "$n1" = "$n2" ] || fail "frozen, the graph went from $n1 to $n2 samples"
	fi
	keys /
	keys C-u
	keys Enter
	wait_gone '^search "'

	# zoom into outer
	keys Home
	wait_for '^all +100\.00%'
	move Up main
	before=$(info)
	keys Up
	wait_until 5 "a callee of main" info_not "$before"
	move Right outer
	keys Enter
	wait_for '^Flame graph.*zoomed into outer \([0-9.]+%, Esc zooms out\)'
	wait_gone 'caller_x'
	wait_for '^inner_a +.*inner_b'
	# inner_a's cell: from column 0 to where inner_b starts, in
	# proportion to its samples (rounding: a column either way)
	at=$(screen | grep -E '^inner_a +.*inner_b' | head -1 |
		awk '{ print index($0, "inner_b") - 1 }')
	want=$(awk -v v="$ab" 'BEGIN { printf "%.1f", v * 120 / 100 }')
	awk -v at="$at" -v w="$want" 'BEGIN { exit !(at >= w - 1.5 && at <= w + 1.5) }' ||
		fail "inner_b starts at column $at, not about $want ($ab % of 120)"
	share inner_a > /dev/null
	z=$(screen | sed -n 's/^search "inner_a": .* (\([0-9.]*\)% of the zoomed frame).*/\1/p' | head -1)
	# frozen: the same snapshot as the shares of all samples above
	awk -v z="$z" -v w="$ab" 'BEGIN { exit !(z != "" && z >= w - 0.2 && z <= w + 0.2) }' ||
		fail "zoomed into outer, inner_a is '$z' % of it, not $ab %"
	echo "zoomed: inner_b at column $at (want $want), inner_a $z % of outer"
	keys /
	keys C-u
	keys Enter

	# a annotates the selected frame (outer), Esc comes back
	keys a
	wait_for '^Annotate outer  \[cgwork\]'
	keys Escape
	wait_for '^Flame graph.*zoomed into outer'
	# c: its callers and callees
	keys c
	wait_for '^Callers and callees of outer \(cgwork\)'
	keys Escape
	wait_for '^Flame graph.*zoomed into outer'
	# i: an icicle, the outermost at the top (under title and info)
	keys i
	wait_for '^Flame graph \(icicle\)'
	screen | sed -n 3p | grep -Eq '^all( |$)' || fail "icicle: all is not on the third line"
	keys i
	wait_gone '^Flame graph \(icicle\)'
	# f again follows the samples
	keys f
	wait_gone 'frozen'
	# Esc: out of the zoom, then back to the table
	keys Escape
	wait_gone 'zoomed into'
	wait_for 'caller_x'
	keys Escape
	wait_for '^Children +Self'
}

run "$PTOP" -g -e cpu-clock -d 1 -- "$WL/cgwork" 60
wait_for '\[\.\] outer$' 10
wait_until 60 "4000 samples" samples_at_least 4000
flame_checks live
quit_clean

# without call chains, F says how to get them
restart
run "$PTOP" -e cpu-clock -d 1 -- "$WL/cgwork" 30
wait_for '\[\.\] inner_a$' 10
keys F
wait_for 'a flame graph needs call chains: start ptop with -g'
quit_clean

# a perf record -g file, in the live view (-i)
need perf
perf record -q -N --buildid-mmap -e cpu-clock -F 4000 -g -o "$TMP/fp.data" -- \
	"$WL/cgwork" 2 > /dev/null 2> "$TMP/err" ||
	fail "perf record --buildid-mmap -g: $(cat "$TMP/err")"
restart
run "$PTOP" -i "$TMP/fp.data"
wait_for '\[\.\] outer$' 10
flame_checks file
quit_clean
exit 0
