# SPDX-License-Identifier: Apache-2.0
#
# The ciphers' AlgorithmIdentifier parameters through libcrypto's own calls
# (test/asn1_params.c): RFC 4357's Gost28147-89-Parameters for GOST
# 28147-89, the same DER on OpenSSL 3.0 (which asks alg_id_param) and 3.4
# and later (algorithm-id-params, algorithm-id); SM4's as the default
# provider's.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [gost => 'GOST 28147-89, Magma and the CTR-ACPKM ciphers: param_to_asn1, asn1_to_param, get_algor'],
    [sm4  => 'SM4: parameters as the default provider gives and takes them'],
);
plan tests => scalar @groups;
program_ok('asn1_params', [$_->[0]], $_->[1]) for @groups;
