# SPDX-License-Identifier: Apache-2.0
#
# Known answers for smgost's GOST 28147-89 and Magma through EVP
# (test/gost_kat.c, vectors in test/gost_vectors.h): every parameter set,
# CryptoPro CSP vectors from gost-engine's test_gost2814789.c (CFB, CNT,
# ECB, IMIT, key meshing), RFC 8891 and GOST R 34.13-2015 Magma.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [names   => 'names, aliases, OIDs, lengths and modes'],
    [allsets => 'every parameter set, chosen every way, read back'],
    [vectors => 'CryptoPro CSP and GOST R 34.13-2015 vectors, fed every way'],
    [magma   => 'GOST R 34.13-2015 A.2.4 Magma CBC'],
    [long    => '5 MiB CryptoPro vectors (4 GiB ones at SMGOST_TEST_SCALE >= 100)'],
);
plan tests => scalar @groups;
program_ok('gost_kat', [$_->[0]], $_->[1]) for @groups;
