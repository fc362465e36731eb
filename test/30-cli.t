# SPDX-License-Identifier: Apache-2.0
#
# The openssl CLI with smgost loaded next to the default provider: provider
# listing and parameters, algorithm listings (README's SM4 and SM3 rows, against the
# default provider's list as this release has it), enc round trips compared with
# the default provider, dgst -sm3, mac HMAC with SM3, speed.
#
# -propquery provider=smgost selects our implementations; each command is
# also run with only the default provider loaded, where the same query must
# fail, which shows the query really reached smgost.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);
use File::Spec;

plan skip_all => 'no openssl program for this build' if openssl_cli() eq '';

my @ciphers = qw(sm4-ecb sm4-cbc sm4-ofb sm4-cfb sm4-ctr);
my @sizes = (1000, 4103);
plan tests => 12 + 4 + 3 * @ciphers * @sizes + 4 + 2 * @ciphers + 1 + 3 + 3
    + 1;

my $dir = tempdir(CLEANUP => 1);
my @ours = (provider_args(), '-propquery', 'provider=smgost');
my @theirs = (provider_args(), '-propquery', 'provider=default');
my @only_default = (provider_args('default'), '-propquery', 'provider=smgost');

sub slurp {
    my ($f) = @_;
    open(my $fh, '<:raw', $f) or return undef;
    local $/;
    return scalar <$fh>;
}

sub spew {
    my ($f, $data) = @_;
    open(my $fh, '>:raw', $f) or die "$f: $!";
    print $fh $data;
    close $fh or die "$f: $!";
}

# Runs the CLI; on failure shows what happened.  Returns the run.
sub cli {
    my ($title, @args) = @_;
    my $r = run_openssl(\@args);
    diag("$title: $r->{cmd}\nexit $r->{exit}, signal $r->{signal}\n$r->{err}")
        if $r->{exit} != 0 || $r->{signal} != 0;
    return $r;
}

sub cli_ok {
    my ($title, @args) = @_;
    my $r = cli($title, @args);
    ok($r->{exit} == 0 && $r->{signal} == 0, $title);
    return $r;
}

# Passes if the command fails cleanly because nothing matched the query
# provider=smgost (libcrypto names the query in its error).
sub cli_fails {
    my ($title, @args) = @_;
    my $r = run_openssl(\@args);
    ok($r->{exit} != 0 && $r->{signal} == 0
       && $r->{err} =~ /provider=smgost/, $title)
        or diag("$r->{cmd}\nexit $r->{exit}, signal $r->{signal}\n$r->{err}");
}

# 1. Providers: smgost listed, with its parameters.
{
    my $r = cli_ok('list -providers -verbose', 'list', '-providers', '-verbose',
                   provider_args());
    my ($block) = $r->{out} =~ /^  smgost\n((?:    .*\n)+)/m;
    ok(defined $block, 'smgost is listed') or diag($r->{out});
    $block //= '';
    like($block, qr/^    name: \S/m, 'its name is shown');
    like($block, qr/^    version: \d+\.\d+\.\d+/m, 'its version is shown');
    like($block, qr/^    status: active$/m, 'it is active');
    like($block, qr/^    build info: \S/m, 'its build info is shown');
    for my $p (qw(name version buildinfo status kernels cpu)) {
        like($block, qr/^      \Q$p\E: /m, "gettable parameter $p");
    }
}

# 2. Algorithm listings: smgost serves every SM4 cipher and SM3 digest its
# README lists, "@ smgost", under the default provider's names and OIDs
# wherever the default provider has the algorithm too.  The default
# provider's list is taken as found: it grows with the release (3.2 added
# SM4-GCM, SM4-CCM and SM4-XTS), and what it has beyond README is noted.

# The CLI's "{ names } @ provider" lines: provider -> key -> 1, a key being
# the lower-cased names and OID, sorted.
sub listed {
    my ($out) = @_;
    my %by;
    while ($out =~ /^\s*\{ ([^}]*) \} @ (\S+)$/mg) {
        my ($names, $prov) = ($1, $2);
        my $key = join ', ', sort map { lc } split /, /, $names;
        $by{$prov}{$key} = 1 if $key =~ /\bsm[34]\b|sm4-|\bsm3\b/;
    }
    return \%by;
}

# README's "Algorithms" table rows of the family (SM4 or SM3), as keys.
sub readme_keys {
    my ($family) = @_;
    open(my $fh, '<', File::Spec->catfile(top_dir(), 'README.md')) or return ();
    my $readme = do { local $/; <$fh> };
    my ($table) = $readme =~ /^## Algorithms\n(.*?)(?=^## )/ms;
    my @keys;
    for my $line (split /\n/, $table // '') {
        my ($names, $oid) = $line =~ /^\|([^|]*)\|\s*([\d.]*)\s*\|/ or next;
        my @n = $names =~ /`([^`]+)`/g;
        next unless @n && $n[0] =~ /^\Q$family\E(?:-|$)/i;
        push @keys, join ', ', sort map { lc } @n, ($oid ne '' ? $oid : ());
    }
    return @keys;
}

# Two tests: every README row is "@ smgost" with those names and OID; every
# algorithm the default provider lists under one of those names has the
# same names and OID.
sub covers {
    my ($family, $what, $by) = @_;
    my @must = readme_keys($family);
    my %ours = %{ $by->{smgost} // {} };
    my @missing = grep { !$ours{$_} } @must;
    ok(@must && !@missing, "smgost serves every $what README lists ("
       . scalar(@must) . "), under README's names and OIDs")
        or diag("README: " . join(' | ', @must) . "\nmissing: " . join(' | ', @missing)
                . "\nsmgost lists: " . join(' | ', sort keys %ours));
    my %name_of = map { my $k = $_; map { $_ => $k } split /, / } @must;
    my (@same, @differ, @beyond);
    for my $d (sort keys %{ $by->{default} // {} }) {
        my ($k) = grep { defined } map { $name_of{$_} } split /, /, $d;
        if (!defined $k) { push @beyond, $d }
        elsif ($k eq $d && $ours{$d}) { push @same, $d }
        else { push @differ, "default { $d } against README { $k }" }
    }
    my $of = scalar(@same) . ' of its ' . scalar(keys %{ $by->{default} // {} });
    ok(@same && !@differ, "the default provider's ${what}s that README lists ($of) "
       . "have the same names and OIDs \@ smgost")
        or diag(join("\n", @differ) . "\nsmgost lists: " . join(' | ', sort keys %ours));
    note("the default provider also has { $_ }, which smgost does not serve") for @beyond;
}

{
    my $r = cli('list -cipher-algorithms', 'list', '-cipher-algorithms',
                provider_args());
    covers('SM4', 'SM4 cipher', listed($r->{out}));
    $r = cli('list -digest-algorithms', 'list', '-digest-algorithms',
             provider_args());
    covers('SM3', 'SM3 digest', listed($r->{out}));
}

# 3. enc: the same ciphertext as the default provider, and back.
my $key = '0123456789abcdeffedcba9876543210';
my $iv = '00112233445566778899aabbccddeeff';
for my $size (@sizes) {
    my $pt = join '', map { chr(($_ * 131 + 7) % 256) } 1 .. $size;
    my $ptf = "$dir/pt$size";
    spew($ptf, $pt);
    for my $c (@ciphers) {
        my @kiv = ('-K', $key, $c eq 'sm4-ecb' ? () : ('-iv', $iv));
        my ($of, $tf, $bf) = map { "$dir/$c.$size.$_" } qw(ours theirs back);
        cli("enc -$c (smgost)", 'enc', "-$c", '-e', @kiv, '-in', $ptf, '-out', $of, @ours);
        cli("enc -$c (default)", 'enc', "-$c", '-e', @kiv, '-in', $ptf, '-out', $tf, @theirs);
        my ($o, $t) = (slurp($of), slurp($tf));
        ok(defined $o && length($o) >= $size, "enc -$c, $size bytes: smgost encrypted");
        ok(defined $o && defined $t && $o eq $t, "enc -$c, $size bytes: same as the default provider");
        cli("enc -$c -d (smgost)", 'enc', "-$c", '-d', @kiv, '-in', $of, '-out', $bf, @ours);
        ok((slurp($bf) // '') eq $pt, "enc -$c -d, $size bytes: back to the plaintext");
    }
}

# No padding, whole blocks.
for my $c (qw(sm4-ecb sm4-cbc)) {
    my @kiv = ('-K', $key, $c eq 'sm4-ecb' ? () : ('-iv', $iv));
    my ($of, $tf) = ("$dir/$c.nopad.ours", "$dir/$c.nopad.theirs");
    my $ptf = "$dir/pt1024";
    spew($ptf, join '', map { chr($_ % 251) } 1 .. 1024);
    cli("enc -$c -nopad (smgost)", 'enc', "-$c", '-nopad', @kiv, '-in', $ptf, '-out', $of, @ours);
    cli("enc -$c -nopad (default)", 'enc', "-$c", '-nopad', @kiv, '-in', $ptf, '-out', $tf, @theirs);
    my ($o, $t) = (slurp($of), slurp($tf));
    ok(defined $o && length($o) == 1024, "enc -$c -nopad: 1024 bytes out");
    ok(defined $o && defined $t && $o eq $t, "enc -$c -nopad: same as the default provider");
}

# Password-based, with PBKDF2 over HMAC-SM3: a fixed salt gives the
# default provider's output; a random one round-trips.  The query only
# prefers smgost here, as PBKDF2 itself lives in the default provider.
for my $c (@ciphers) {
    my $ptf = "$dir/pt$sizes[0]";
    my @pw = ('-pbkdf2', '-pass', 'pass:smgost test', '-md', 'sm3');
    my @pref = (provider_args(), '-propquery', '?provider=smgost');
    my ($of, $tf, $rf, $bf) = map { "$dir/$c.pw.$_" } qw(ours theirs rand back);
    cli("enc -$c -pbkdf2 (smgost)", 'enc', "-$c", @pw, '-S', '0102030405060708', '-in', $ptf, '-out', $of, @pref);
    cli("enc -$c -pbkdf2 (default)", 'enc', "-$c", @pw, '-S', '0102030405060708', '-in', $ptf, '-out', $tf, @theirs);
    my ($o, $t) = (slurp($of), slurp($tf));
    ok(defined $o && length $o && defined $t && $o eq $t, "enc -$c -pbkdf2 -S: same as the default provider");
    cli("enc -$c -pbkdf2 (smgost)", 'enc', "-$c", @pw, '-in', $ptf, '-out', $rf, @pref);
    cli("enc -$c -pbkdf2 -d (smgost)", 'enc', "-$c", '-d', @pw, '-in', $rf, '-out', $bf, @pref);
    ok((slurp($bf) // '') eq slurp($ptf), "enc -$c -pbkdf2, random salt: round trip");
}
cli_fails('enc -sm4-ctr -propquery provider=smgost fails without smgost',
          'enc', '-sm4-ctr', '-K', $key, '-iv', $iv, '-in', "$dir/pt$sizes[0]",
          '-out', "$dir/none", @only_default);

# 4. dgst -sm3.
{
    spew("$dir/abc", 'abc');
    my $r = cli_ok('dgst -sm3', 'dgst', '-sm3', @ours, "$dir/abc");
    like($r->{out}, qr/= ?66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0$/m,
         'dgst -sm3 "abc" gives the GB/T 32905 digest');
    cli_fails('dgst -sm3 -propquery provider=smgost fails without smgost',
              'dgst', '-sm3', @only_default, "$dir/abc");
}

# 5. mac: HMAC (default provider) over smgost's SM3.
{
    my @mac = ('mac', '-digest', 'SM3', '-macopt', 'hexkey:000102030405060708090a0b0c0d0e0f10',
               '-in', "$dir/pt$sizes[1]");
    my $o = cli('mac HMAC-SM3 (smgost)', @mac, '-macopt', 'properties:provider=smgost',
                provider_args(), 'HMAC');
    my $t = cli('mac HMAC-SM3 (default)', @mac, '-macopt', 'properties:provider=default',
                provider_args(), 'HMAC');
    ok($o->{exit} == 0 && $o->{out} =~ /^[0-9A-F]{64}$/m, 'mac HMAC with SM3 from smgost');
    is($o->{out}, $t->{out}, 'mac HMAC-SM3: same as with the default provider');
    cli_fails('mac HMAC properties:provider=smgost fails without smgost',
              @mac, '-macopt', 'properties:provider=smgost', provider_args('default'), 'HMAC');
}

# 6. speed: runs and prints its line.  (openssl 3.0's speed -evp ignores
# -propquery; 40-config.t runs it with smgost preferred by configuration.)
SKIP: {
    # speed ends its timed loop from a SIGALRM handler, which ThreadSanitizer
    # defers to its next interceptor call: libcrypto's loop makes none, so
    # it never ends (the default provider's AES alone shows it).
    skip 'speed never ends under ThreadSanitizer', 1
        if ($ENV{SMGOST_SANITIZE} // '') =~ /\btsan\b/;
    my $r = cli('speed -evp sm4-ctr', 'speed', '-evp', 'sm4-ctr', '-seconds', '1',
                '-bytes', '16384', @ours);
    ok($r->{exit} == 0 && $r->{out} =~ /^SM4-CTR\s+\d+\.\d+k\s*$/mi,
       'speed -evp sm4-ctr prints its result line') or diag($r->{out});
}
