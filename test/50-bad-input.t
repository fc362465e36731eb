# SPDX-License-Identifier: Apache-2.0
#
# Misuse of SM4, SM3 and Streebog (test/bad_input.c): each call must fail, leave its
# reason on the error queue (the default provider's where it has the same
# failure, smgost's own otherwise) and report no output.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [keyiv   => 'wrong key and IV lengths'],
    [params  => 'parameter values of the wrong type or out of range'],
    [state   => 'update without a key, update and final after final'],
    [final   => 'partial final blocks without padding, corrupt padding'],
    [outsize => 'output buffers too small'],
    [lengths => 'lengths near SIZE_MAX'],
    [sm3     => 'SM3 misuse'],
    [null    => 'updates of a NULL input, every SM4 mode ("cipher operation failed")'],
);
plan tests => 1 + scalar @groups;
# A correct run takes well under a second even under qemu; a provider that
# goes ahead with an impossible length may run on there instead of crashing.
program_ok('bad_input', ['sm', $_->[0]], $_->[1], timeout => 120) for @groups;
program_ok('bad_input', ['streebog', 'digest'], 'md_gost12_256 and md_gost12_512 misuse',
           timeout => 120);
