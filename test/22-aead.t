# SPDX-License-Identifier: Apache-2.0
#
# SM4-GCM, SM4-CCM and SM4-XTS (test/aead_test.c): edge cases, bad input,
# TLS records, the default provider's GMAC and CMAC over smgost's ciphers,
# and random cases against
# OpenSSL's default provider where it has them (OpenSSL 3.2 and later),
# else libgcrypt (GCM, CCM, IEEE XTS), with update chunkings, in place,
# re-inits with a new IV only, GCM counter wraps inside a batch and
# tampering.  Seeded: SMGOST_TEST_SEED replays, SMGOST_TEST_SCALE scales.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 7;

# The differential groups need an oracle: the default provider's SM4-GCM,
# CCM and XTS (OpenSSL 3.2 and later) or libgcrypt.  Without either (a
# build without libgcrypt against OpenSSL 3.0, such as a cross build
# without libgcrypt20-dev for its target) they are skipped, and say so.
my $o = run_program('aead_test', ['oracle']);
my ($oracle) = $o->{out} =~ /^oracle: (.+)$/m;
die "aead_test oracle: $o->{cmd}\n$o->{out}$o->{err}" unless defined $oracle;
my %needs_oracle = map { $_ => 1 } qw(mac gcm ccm xts);
my $no_oracle = 'no oracle: the default provider lacks SM4-GCM, CCM and XTS '
    . '(OpenSSL before 3.2) and the programs are built without libgcrypt';
diag("skipped: $no_oracle") if $oracle eq 'none';

for my $g (['edge', 'edges: empty data and AAD, 1- to 128-byte GCM IVs, CCM nonce and tag extremes, XTS units of 16, 17 bytes and 2^20 blocks, identical XTS key halves'],
           ['bad', 'bad input gets the error the default provider gives, the cause in its data (a CCM length after the AAD or data included); no plaintext from a forged CCM message'],
           ['tls', 'TLS records (GCM, CCM, CCM_8) sealed and opened, against the oracle'],
           ['mac', 'GMAC over SM4-GCM and CMAC over SM4-CBC with properties=provider=smgost'],
           ['gcm', 'SM4-GCM: random cases against the oracle, wraps, tampering'],
           ['ccm', 'SM4-CCM: random cases against the oracle, tampering'],
           ['xts', 'SM4-XTS: random data units, both standards where an oracle has them']) {
    my ($group, $title) = @$g;
    SKIP: {
        skip($no_oracle, 1) if $oracle eq 'none' && $needs_oracle{$group};
        my $r = program_ok('aead_test', [$group], $title);
        note($_) for $r->{out} =~ /^# (.*)$/mg;
    }
}
