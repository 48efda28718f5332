#!/bin/sh
# The i key: the idle task's samples (pid 0) are left out of the table by
# default and shown as rows at once on i, hidden again on the next i.  A
# stream made here (an idle machine cannot be counted on): 12 samples of
# the idle task in the kernel, 4 of pid 100 "work".
. tests/e2e/tmux.inc

# pipe-mode perf.data: header, one attr (PERF_ATTR_SIZE_VER0: cpu-clock,
# period 1000000, sample_type IP|TID|TIME|PERIOD), COMM, the samples,
# FINISHED_ROUND
perl -e '
	binmode STDOUT;
	my $o = pack("a8Q<", "PERFILE2", 16);
	my $attr = pack("L<L<Q<Q<Q<Q<Q<L<L<Q<", 1, 64, 0, 1000000, 0x107,
			0, 0, 0, 0, 0);
	$o .= pack("L<S<S<", 64, 0, 8 + length($attr)) . $attr;
	$o .= pack("L<S<S<L<L<a16", 3, 0, 32, 100, 100, "work");
	my $t = 1000;
	for my $s ((["1", 0xffffffff81000100, 0]) x 12,
		   (["2", 0x1000, 100]) x 4) {
		$t += 1000;
		$o .= pack("L<S<S<Q<L<L<Q<Q<", 9, $s->[0], 40, $s->[1],
			   $s->[2], $s->[2], $t, 1000000);
	}
	print $o . pack("L<S<S<", 68, 0, 8);
' > "$TMP/idle.pipe" || fail "perl could not write the stream"

run "$PTOP" -i "$TMP/idle.pipe" -s pid,dso,sym
wait_for '^samples 16, total 16; idle 75\.0%; lost 0'
wait_top '^ +100\.00% +4 +100 +work '
screen | grep -q swapper && fail "the idle task has a row by default"

keys i
wait_for 'idle 75\.0% \(rows shown\)'
wait_top '^ +75\.00% +12 +0 +swapper '
wait_for '^filters: .*idle shown'
screen | grep -Eq '^ +25\.00% +4 +100 +work ' || fail "work is not 25 % with idle shown"

keys i
wait_top '^ +100\.00% +4 +100 +work '
wait_gone 'swapper'
wait_gone '^filters:'
screen | grep -q '^samples 16, total 16; idle 75\.0%; lost 0' ||
	fail "the header changed"
quit_clean
exit 0
