# SPDX-License-Identifier: Apache-2.0
#
# Known-answer tests of smgost's SM4 and SM3 through EVP (test/evp_kat.c):
# OpenSSL's evp_test vector files, GB/T 32907 examples 1 and 2,
# draft-ribose-cfrg-sm4, GB/T 32905, and names/OIDs/metadata against the
# default provider.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my %files = (
    'evpciph_sm4.txt' => qr/^SM4-(?:ECB|CBC|OFB|CFB|CTR|GCM|CCM|XTS)$/i,
    'evpmd_sm3.txt'   => qr/^SM3$/i,
);

plan tests => 4 + 2 * keys %files;

kat_file_ok($_, $files{$_}, "vectors from $_") for sort keys %files;
program_ok('evp_kat', ['names', 'sm'], 'names, OIDs and metadata match the default provider');
program_ok('evp_kat', ['gbt'], 'GB/T 32907-2016 examples 1 and 2 (1,000,000 encryptions)');
program_ok('evp_kat', ['ribose'], 'draft-ribose-cfrg-sm4 ECB, CBC and CTR examples');
program_ok('evp_kat', ['sm3'], 'GB/T 32905-2016 SM3 examples');
