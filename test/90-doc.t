# SPDX-License-Identifier: Apache-2.0
#
# The manual page doc/man7/smgost.pod: podchecker finds neither an error nor
# a warning in it, its algorithm entries match what the loaded provider
# registers, as `openssl list` reports it, and its KERNELS section names
# every kernel the provider reports at this level (make test runs the
# recipe at every level), with and without constant-time = yes, and every
# kernel table of this build's families' lists (src/kernel_list.h, read
# through test/kernels), chosen here or not.  README.md's kernel table ("The
# kernels, fastest first") names every table of those lists too, in its
# family's row, under this architecture or "everywhere"; and, when this
# build left no table out of them, nothing there that the lists lack.
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
use File::Temp qw(tempdir);

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

# The text of the KERNELS section, formatting codes taken off.
sub kernels_section {
    open(my $fh, '<', $pod) or die "$pod: $!";
    my $pod_text = do { local $/; <$fh> };
    my ($sec) = $pod_text =~ /^=head1 KERNELS\n(.*?)^=head1 /ms;
    $sec //= '';
    1 while $sec =~ s/[A-Z]<([^<>]*)>/$1/g;
    return $sec;
}

# The kernel names in the provider's build info, e.g. from
# "kernels: sm4=gfni-avx512+vpclmul-avx512 sm3=sm3-avx-bmi2 gost=gost89-avx2;".
sub reported_kernels {
    my (%opt) = @_;
    my $r = run_openssl([ 'list', '-providers', '-verbose',
                          $opt{env} ? () : provider_args('smgost') ],
                        $opt{env} ? (env => { %{ run_env() }, %{ $opt{env} } }) : ());
    my ($k) = $r->{out} =~ /kernels: ([^;]+);/;
    die "smgost did not load: $r->{cmd}\n$r->{err}" unless defined $k;
    return map { split /\+/ } map { s/^\w+=//r } split ' ', $k;
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

SKIP: {
    skip 'no openssl program for this build: reported kernels not compared', 1
        if openssl_cli() eq '';
    my $dir = tempdir(CLEANUP => 1);
    my $cnf = write_config($dir, smgost => { 'constant-time' => 'yes' });
    my %kernels = map { $_ => 1 } reported_kernels(),
        reported_kernels(env => { OPENSSL_CONF => $cnf });
    my $sec = kernels_section();
    my @undocumented = grep { $sec !~ /(?<![\w-])\Q$_\E(?![\w-])/ } sort keys %kernels;
    ok(!@undocumented, 'KERNELS names the kernels of this level: ' . join(' ', sort keys %kernels))
        or diag("reported by the provider, not named under =head1 KERNELS: @undocumented");
}

{
    my $r = run_program('kernels');
    my %listed = map { $_ => 1 } map { split /\+/ } $r->{out} =~ /^table \S+ (\S+) /mg;
    my $sec = kernels_section();
    my @undocumented = sort grep { $sec !~ /(?<![\w-])\Q$_\E(?![\w-])/ } keys %listed;
    ok($r->{exit} == 0 && keys %listed > 0 && !@undocumented,
       'KERNELS names every kernel of the lists: ' . join(' ', sort keys %listed))
        or diag("$r->{cmd}: exit $r->{exit}\n$r->{err}\nlisted, not named under =head1 KERNELS: @undocumented");
}

# README's kernel table: its rows as { family => the row's first cell,
# column => [ the names in backquotes under that column's heading ] }.
sub readme_kernel_rows {
    my $readme = File::Spec->catfile(top_dir(), 'README.md');
    open(my $fh, '<', $readme) or die "$readme: $!";
    my ($in_table, @head, @rows);
    while (my $l = <$fh>) {
        if (!$in_table) { $in_table = $l =~ /^The kernels, fastest first/; next }
        next if !@head && $l !~ /^\|/;
        last if $l !~ /^\|/;
        my @cells = map { s/^\s+|\s+$//gr } split /\|/, $l =~ s/^\||\|\s*$//gr;
        if (!@head) { @head = @cells; next }
        next if $cells[0] =~ /^[-: ]+$/;
        push @rows, { family => $cells[0],
                      map { $head[$_] => [ $cells[$_] =~ /`([^`]+)`/g ] } 1 .. $#cells };
    }
    return @rows;
}

# A family's tables are named in the row whose first cell starts with the
# family's report key (test/kernels: sm4, sm3, gost); an SM4 table is
# named by its two parts, the block kernel's and, after the plus, its
# GHASH kernel's, which has a row of its own ("SM4 GHASH").  A "-ct"
# sibling is named as its sibling, and in backquotes somewhere in README
# (where "Constant time" lists them).
{
    my $r = run_program('kernels');
    my ($complete) = $r->{out} =~ /^build complete=([01])$/m;
    my @rows = readme_kernel_rows();
    my $column = { x86_64 => 'x86-64', aarch64 => 'aarch64' }->{ run_arch() };
    my @columns = ((defined $column ? $column : ()), 'everywhere');
    my $row_of = sub {
        my ($family, $ghash) = @_;
        my @r = grep { $_->{family} =~ /^\Q$family\E\b/i
                       && ($_->{family} =~ /\bGHASH\b/) == $ghash } @rows;
        return @r == 1 ? $r[0] : undef;
    };
    open(my $fh, '<', File::Spec->catfile(top_dir(), 'README.md')) or die "README.md: $!";
    my %quoted = map { $_ => 1 } do { local $/; <$fh> } =~ /`([^`]+)`/g;
    my (%listed, @missing, @unlisted, %seen);
    for my $t ($r->{out} =~ /^table (\S+ \S+) /mg) {
        my ($family, $name) = split ' ', $t;
        my @parts = split /\+/, $name;
        for my $i (0 .. $#parts) {
            my $row = $row_of->($family, $i > 0);
            (my $base = $parts[$i]) =~ s/-ct$//;
            unless ($row) { push @missing, "$family $parts[$i] (no row for it)"; next }
            $listed{$row}{$base} = 1;
            push @missing, "$family $base"
                unless grep { $_ eq $base } map { @{ $row->{$_} // [] } } @columns;
            push @missing, "$parts[$i] (not in backquotes anywhere)"
                if $base ne $parts[$i] && !$quoted{ $parts[$i] };
        }
    }
    ok($r->{exit} == 0 && defined $complete && keys %listed > 0 && !@missing,
       "README's kernel table names every table of the lists under @columns")
        or diag("$r->{cmd}: exit $r->{exit}\n$r->{err}\nlisted, not named in README's kernel table:\n"
                . join('', map { "  $_\n" } grep { !$seen{$_}++ } @missing));
    SKIP: {
        skip 'this build leaves tables out of the lists (no-asm, no-gost-simd): '
            . "README's kernel table not checked for names they lack", 1
            unless $complete;
        for my $row (@rows) {
            push @unlisted, map { "$row->{family}: $_" }
                grep { !$listed{$row}{$_} } map { @{ $row->{$_} // [] } } @columns;
        }
        ok(@rows > 0 && !@unlisted, "README's kernel table names nothing under @columns that the lists lack")
            or diag("named in README's kernel table, in no list:\n" . join('', map { "  $_\n" } @unlisted));
    }
}

done_testing();
