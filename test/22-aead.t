# SPDX-License-Identifier: Apache-2.0
#
# SM4-GCM, SM4-CCM and SM4-XTS (test/aead_test.c): random cases against
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

plan tests => 3;

for my $g (['gcm', 'SM4-GCM: random cases against the oracle, wraps, tampering'],
           ['ccm', 'SM4-CCM: random cases against the oracle, tampering'],
           ['xts', 'SM4-XTS: random data units, both standards where an oracle has them']) {
    my ($group, $title) = @$g;
    my $r = program_ok('aead_test', [$group], $title);
    note($_) for $r->{out} =~ /^# (.*)$/mg;
}
