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

# The last run repeats the SM4 cases with smgost configured for
# "constant-time = yes", which swaps in the "-ct" kernel tables on the
# AES-NI levels.
my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
for my $g (['sm4', 'SM4: every mode, random cases, copies, re-inits, CTR wraps'],
           ['sm3', 'SM3: random messages and chunkings, copies'],
           ['hmac', 'HMAC-SM3 with properties provider=smgost'],
           ['sm4', 'SM4 with constant-time = yes: every mode', $ct]) {
    my ($group, $title, $conf) = @$g;
    my $r = program_ok('evp_diff', ['sm', $group], $title,
                       defined $conf ? (env => { %{ run_env() }, SMGOST_TEST_CONF => $conf }) : ());
    my ($seed) = $r->{out} =~ /^# seed (\d+)/m;
    note("$title: seed " . ($seed // '?'));
}
