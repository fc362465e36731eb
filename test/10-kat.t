# SPDX-License-Identifier: Apache-2.0
#
# Known-answer tests of smgost's SM4, SM3 and Streebog through EVP
# (test/evp_kat.c): OpenSSL's evp_test vector files, the examples of GB/T
# 32907, draft-ribose-cfrg-sm4 and GB/T 32905 (test/data/*_std.txt), RFC
# 6986's and RFC 7836's with more Streebog cases (evpmd_streebog.txt), GB/T
# 32907's 1,000,000 encryptions, and names/OIDs/metadata (SM: against the
# default provider).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my $sm4 = qr/^SM4-(?:ECB|CBC|OFB|CFB|CTR|GCM|CCM|XTS)$/i;
my $sm3 = qr/^SM3$/i;
my $streebog = qr/^(?:md_gost12_(?:256|512)|HMAC)$/i;
my @files = (
    ['evpciph_sm4.txt', $sm4, "vectors from OpenSSL's evpciph_sm4.txt"],
    ['evpmd_sm3.txt', $sm3, "vectors from OpenSSL's evpmd_sm3.txt"],
    ['evpciph_sm4_std.txt', $sm4, 'GB/T 32907-2016 example 1, draft-ribose-cfrg-sm4 '
                                  . 'ECB, CBC and CTR examples'],
    ['evpmd_sm3_std.txt', $sm3, 'GB/T 32905-2016 SM3 examples'],
    ['evpmd_streebog.txt', $streebog, 'Streebog: RFC 6986 M1 and M2, the empty '
                                      . 'message, 64 zeros, carries of Sigma; '
                                      . 'HMAC-Streebog of RFC 7836'],
);

plan tests => 3 + 2 * @files;

kat_file_ok(@$_) for @files;
program_ok('evp_kat', ['names', 'sm'], 'names, OIDs and metadata match the default provider');
program_ok('evp_kat', ['names', 'streebog'], 'Streebog names, OIDs and sizes');
program_ok('evp_kat', ['gbt'], 'GB/T 32907-2016 example 2 (1,000,000 encryptions), both ways');
