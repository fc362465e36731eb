# SPDX-License-Identifier: Apache-2.0
#
# The manual page doc/man7/smgost.pod: podchecker finds neither an error nor
# a warning in it, and its algorithm entries match what the loaded provider
# registers, as `openssl list` reports it.
#
# An algorithm entry is an "=item B<name>, ..." under "=head1 OPERATIONS AND
# ALGORITHMS": its names are the B<> words, its OID the dotted number after
# "OID".  Every algorithm smgost registers must have an entry giving exactly
# its names and OID.  Every entry must be registered, except those of a
# subsection marked "=for comment announced", which document algorithms
# another change is adding and are checked like the others once they are
# registered.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Spec;

my $pod = File::Spec->catfile(top_dir(), 'doc', 'man7', 'smgost.pod');

# The algorithm entries: [ names (lower case, the OID among them), announced, line ].
sub entries {
    open(my $fh, '<', $pod) or die "$pod: $!";
    my ($in_algs, $announced, @entries) = (0, 0);
    while (my $l = <$fh>) {
        if ($l =~ /^=head1\s+(.*?)\s*$/) { $in_algs = $1 eq 'OPERATIONS AND ALGORITHMS'; $announced = 0 }
        elsif ($l =~ /^=head2\b/) { $announced = 0 }
        elsif ($l =~ /^=for comment announced\b/) { $announced = 1 }
        elsif ($in_algs && $l =~ /^=item\s+B</) {
            my @names = map { lc } $l =~ /B<([^>]+)>/g;
            push @names, $1 if $l =~ /\bOID\s+(\d+(?:\.\d+)+)/;
            push @entries, [ [ sort @names ], $announced, $. ];
        }
    }
    return @entries;
}

# Every algorithm the provider registers, as sorted lists of its names.
sub registered {
    my @algs;
    for my $op (qw(cipher digest mac)) {
        my $r = run_openssl([ 'list', "-$op-algorithms", provider_args('smgost') ]);
        die "openssl list -$op-algorithms failed: $r->{cmd}\n$r->{err}"
            if $r->{exit} != 0 || $r->{signal} != 0;
        for my $l (split /\n/, $r->{out}) {
            next unless $l =~ /^\s*(?:\{\s*(.*?)\s*\}|(\S.*?))\s+@\s+smgost\s*$/;
            push @algs, [ sort map { lc } split /\s*,\s*/, $1 // $2 ];
        }
    }
    return @algs;
}

my $check = run_cmd([ 'podchecker', '-warnings', $pod ], host => 1);
my @complaints = grep { /\b(ERROR|WARNING)\b/ } split /\n/, $check->{err};
ok($check->{exit} == 0 && !@complaints, 'podchecker finds no error or warning')
    or diag("$check->{cmd}: exit $check->{exit}\n$check->{err}");

my @entries = entries();
ok(@entries > 0, 'the page has algorithm entries') or diag("none found in $pod");

SKIP: {
    skip 'no openssl program for this build: registered algorithms not compared', 2
        if openssl_cli() eq '';
    my @algs = registered();
    my %reg = map { join("\n", @$_) => 1 } @algs;
    my %doc = map { join("\n", @{ $_->[0] }) => 1 } @entries;
    my @missing = grep { !$doc{ join("\n", @$_) } } @algs;
    ok(@algs > 0 && !@missing, scalar(@algs) . ' registered algorithms, each with its entry')
        or diag(@algs ? "registered but without an entry naming exactly its names and OID:\n"
                        . join('', map { '  ' . join(', ', @$_) . "\n" } @missing)
                      : 'smgost registers nothing');
    my @stale = grep { !$_->[1] && !$reg{ join("\n", @{ $_->[0] }) } } @entries;
    ok(!@stale, 'every entry outside an announced subsection is registered')
        or diag("documented but not registered as such:\n"
                . join('', map { "  line $_->[2]: " . join(', ', @{ $_->[0] }) . "\n" } @stale));
    for my $e (grep { $_->[1] && !$reg{ join("\n", @{ $_->[0] }) } } @entries) {
        note('announced, not registered yet: ' . join(', ', @{ $e->[0] }));
    }
}

done_testing();
