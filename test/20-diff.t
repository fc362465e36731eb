# SPDX-License-Identifier: Apache-2.0
#
# Differential tests against OpenSSL's default provider (test/evp_diff.c):
# SM4 in every mode, SM3, and HMAC-SM3 through the default HMAC with
# smgost's SM3.  Seeded: the seed is printed (and shown on failure);
# SMGOST_TEST_SEED replays it, SMGOST_TEST_SCALE scales the case counts.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);

plan tests => 4;

for my $g (['sm4', 'SM4: every mode, random cases, copies, re-inits, CTR wraps'],
           ['sm3', 'SM3: random messages and chunkings, copies'],
           ['hmac', 'HMAC-SM3 with properties provider=smgost']) {
    my $r = program_ok('evp_diff', [$g->[0]], $g->[1]);
    my ($seed) = $r->{out} =~ /^# seed (\d+)/m;
    note("$g->[0]: seed " . ($seed // '?'));
}

# The same SM4 cases with smgost configured for "constant-time = yes",
# which swaps in the "-ct" kernel tables on the AES-NI levels.
my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
my $r = program_ok('evp_diff', ['sm4'], 'SM4 with constant-time = yes: every mode',
                   env => { %{ run_env() }, SMGOST_TEST_CONF => $ct });
my ($seed) = $r->{out} =~ /^# seed (\d+)/m;
note("sm4, constant-time = yes: seed " . ($seed // '?'));
