# SPDX-License-Identifier: Apache-2.0
#
# Key hygiene (test/key_hygiene.c): no block smgost frees may hold a key,
# a key schedule (meshed ones too), HMAC's key-derived SM3 or Streebog
# state or a GHASH table, and a context re-keyed, re-initialised or reset
# may not keep what it dropped.  Then the check must catch leaks: with
# -plant the program leaks every secret it registered, and each must be
# reported as held by the block it was left in (an expected failure).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [sm4   => 'SM4 ciphers: init, copy, re-init, re-key, reset, free'],
    [aead  => 'SM4-GCM (GHASH key and tables included), SM4-CCM, SM4-XTS (both key halves), '
              . 'kuznyechik-mgm, magma-mgm'],
    [gost  => 'GOST 28147-89 ciphers, meshed schedules included'],
    [magma => 'Magma ciphers, magma-ctr-acpkm\'s section keys included'],
    [kuznyechik => 'Kuznyechik ciphers (round keys and the table kernel\'s decryption keys; '
                   . 'kuznyechik-ctr-acpkm\'s section keys)'],
    [omac  => 'kuznyechik-ctr-acpkm-omac and magma-ctr-acpkm-omac: the key, the KDF\'s '
              . 'K_ctr and K_mac, their schedules and OMAC subkeys'],
    [mac   => 'gost-mac, gost-mac-12, magma-mac and kuznyechik-mac (OMAC '
              . 'subkeys included): init, dup, restart, re-key, free'],
    [hmac  => 'HMAC over smgost\'s SM3: the digest contexts\' key state'],
    [sm3   => 'SM3 over secret data: copy, reset'],
    ['hmac-streebog' => 'HMAC over smgost\'s md_gost12_256 and md_gost12_512: the digest contexts\' key state'],
    [streebog => 'md_gost12_256 and md_gost12_512 over secret data: copy, reset'],
    [gost94 => 'md_gost94 over secret data, and HMAC over it: the digest contexts\' key state'],
);
plan tests => 2 * scalar @groups;
program_ok('key_hygiene', [$_->[0]], $_->[1]) for @groups;

for my $g (@groups) {
    my $r = run_program('key_hygiene', ['-plant', $g->[0]]);
    my @planted = $r->{out} =~ /^# planted (\d+) bytes of (.*) in a (\d+)-byte block$/mg;
    my (%reported, @other, @missing);
    for my $line (grep { /^FAIL / } split /\n/, $r->{err}) {
        if ($line =~ /: a (\d+)-byte block freed by smgost held (.*)$/) {
            $reported{"$1 $2"} = 1;
        } else {
            push @other, $line;
        }
    }
    my @plants;
    while (my ($len, $label, $size) = splice(@planted, 0, 3)) {
        push @plants, [$len, $label];
        push @missing, "$len bytes of $label" unless $reported{"$size $label"};
    }
    my $tables = grep { $_->[1] =~ /^GHASH table of key / } @plants;
    my ($fails) = $r->{out} =~ /: \d+ checks, (\d+) failures$/m;
    ok($r->{exit} == 1 && $r->{signal} == 0 && @plants > 0 && !@missing && !@other
       && defined $fails && $fails > 0
       && ($g->[0] ne 'aead' || $tables >= 4),
       "$g->[0]: each of " . scalar(@plants) . ' planted leaks reported'
       . ($g->[0] eq 'aead' ? " ($tables of GHASH tables, whole and in part)" : '')
       . ' (expected failure)')
        or diag("command: $r->{cmd}\nexit $r->{exit}, signal $r->{signal}\n"
                . (@missing ? "not reported:\n" . join("\n", @missing) . "\n" : '')
                . (@other ? "other failures:\n" . join("\n", @other) . "\n" : '')
                . "stdout:\n$r->{out}stderr:\n$r->{err}");
}
