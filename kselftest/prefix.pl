#!/usr/bin/perl
# prefix.pl: copy standard input to standard output with "# " in front of
# every line, as it arrives (no line buffering), so that a test's own
# KTAP/TAP becomes a nested block of the runner's document and a test that
# hangs mid-line still shows what it printed. Part of vfsidmap's kselftest
# runner (runner.sh); see kselftest/README.md.
use strict;
use warnings;
use Errno qw(EINTR);

binmode STDIN;
binmode STDOUT;
$| = 1;

my $at_line_start = 1;
while (1) {
	my $buf;
	my $n = sysread(STDIN, $buf, 4096);
	if (!defined $n) {
		next if $! == EINTR;
		die "prefix.pl: read: $!\n";
	}
	last if $n == 0;
	$buf = "# $buf" if $at_line_start;
	$at_line_start = substr($buf, -1) eq "\n";
	# a prefix after every line break but the chunk's last: the next line
	# may not have arrived yet
	$buf =~ s/\n(?!\z)/\n# /g;
	print $buf;
}
