# A pipe-mode perf.data stream on stdout, for the idle tests (an idle
# machine cannot be counted on): one cpu-clock event (attr of
# PERF_ATTR_SIZE_VER0, period 1000000, sample_type IP|TID|TIME|PERIOD),
# a COMM of pid 100 "work", 12 samples of the idle task (pid 0, kernel
# mode) and 4 of pid 100 (user mode, no map), a FINISHED_ROUND.
use strict;
binmode STDOUT;
my $o = pack("a8Q<", "PERFILE2", 16);
my $attr = pack("L<L<Q<Q<Q<Q<Q<L<L<Q<", 1, 64, 0, 1000000, 0x107,
		0, 0, 0, 0, 0);
$o .= pack("L<S<S<", 64, 0, 8 + length($attr)) . $attr;
$o .= pack("L<S<S<L<L<a16", 3, 0, 32, 100, 100, "work");
my $t = 1000;
for my $s (([1, 0xffffffff81000100, 0]) x 12, ([2, 0x1000, 100]) x 4) {
	$t += 1000;
	$o .= pack("L<S<S<Q<L<L<Q<Q<", 9, $s->[0], 40, $s->[1], $s->[2],
		   $s->[2], $t, 1000000);
}
print $o . pack("L<S<S<", 68, 0, 8);
