# SPDX-License-Identifier: Apache-2.0
#
# Known answers for smgost's GOST 28147-89 and Magma through EVP
# (test/gost89_kat.c, vectors in test/gost89_vectors.h): every parameter set,
# CryptoPro CSP vectors from gost-engine's test_gost2814789.c (CFB, CNT,
# ECB, IMIT, key meshing), RFC 8891 and GOST R 34.13-2015 Magma; the
# vectors also with constant-time = yes.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);

# The vectors again with smgost configured for "constant-time = yes",
# which swaps in the "-ct" kernel tables and the constant-time IMIT rounds
# (the CryptoPro IMIT vectors mesh the key past 1024 bytes).
my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
my @groups = (
    [names   => 'names, aliases, OIDs, lengths and modes'],
    [allsets => 'every parameter set, chosen every way, read back'],
    [vectors => 'CryptoPro CSP and GOST R 34.13-2015 vectors, fed every way'],
    [magma   => 'GOST R 34.13-2015 A.2.4 Magma CBC'],
    [long    => '5 MiB CryptoPro vectors (4 GiB ones at SMGOST_TEST_SCALE >= 100)'],
    [vectors => 'the same vectors with constant-time = yes', $ct],
);
plan tests => scalar @groups;
for my $g (@groups) {
    my ($group, $title, $conf) = @$g;
    program_ok('gost89_kat', [$group], $title,
               defined $conf ? (env => { %{ run_env() }, SMGOST_TEST_CONF => $conf }) : ());
}
