# SPDX-License-Identifier: Apache-2.0
#
# Key hygiene (test/key_hygiene.c): no block smgost frees may hold a key,
# a key schedule (meshed ones too) or HMAC's key-derived SM3 state, and a
# context re-keyed, re-initialised or reset may not keep what it dropped.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [sm4   => 'SM4 ciphers: init, copy, re-init, re-key, reset, free'],
    [aead  => 'SM4-GCM (GHASH key included), SM4-CCM, SM4-XTS (both key halves)'],
    [gost  => 'GOST 28147-89 ciphers, meshed schedules included'],
    [magma => 'Magma ciphers'],
    [mac   => 'gost-mac and gost-mac-12: init, dup, restart, re-key, free'],
    [hmac  => 'HMAC over smgost\'s SM3: the digest contexts\' key state'],
    [sm3   => 'SM3 over secret data: copy, reset'],
);
plan tests => scalar @groups;
program_ok('key_hygiene', [$_->[0]], $_->[1]) for @groups;
