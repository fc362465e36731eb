# SPDX-License-Identifier: Apache-2.0
#
# Known answers for smgost's GOST 28147-89, Magma and Kuznyechik through
# EVP (test/evp_kat.c, vectors in test/data/evpciph_gost89.txt,
# evpciph_kuznyechik.txt, evpciph_gost2015.txt, evpmac_gost89.txt and
# evpmac_gost2015.txt): every parameter set, CryptoPro CSP vectors from
# gost-engine's test_gost2814789.c (CFB, CNT, ECB, IMIT, key meshing, 5 MiB
# and 4 GiB of zeros), RFC 8891, RFC 7801, GOST R 34.13-2015 (Magma and
# Kuznyechik in every mode, OFB, CBC and CFB also with their multi-block
# IVs, OMAC), R 1323565.1.017-2018 (CTR-ACPKM, OMAC-ACPKM), the
# CTR-ACPKM-OMAC ciphers (evpciph_ctr_omac.txt: vectors gost-engine
# accepts); the vectors also with constant-time = yes.
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
my $ct_env = { %{ run_env() }, SMGOST_TEST_CONF => $ct };
my $ciphers = qr/^(?:gost89|magma)/;
my $macs = qr/^gost-mac/;
my $kuz = qr/^kuznyechik-/;
my $omacs = qr/^(?:magma|kuznyechik)-(?:mac|ctr-acpkm-omac)$/;

plan tests => 35;
program_ok('evp_kat', ['names', 'gost89'], 'names, aliases, OIDs, lengths and modes');
program_ok('evp_kat', ['allsets', data_file('evpciph_gost89.txt')],
           'every parameter set, chosen every way, read back');
kat_file_ok('evpciph_gost89.txt', $ciphers, 'CryptoPro CSP, GOST R 34.13-2015 and '
            . '5 MiB cipher vectors, fed every way (4 GiB ones at SMGOST_TEST_SCALE >= 100)');
kat_file_ok('evpmac_gost89.txt', $macs, 'CryptoPro CSP and 5 MiB IMIT vectors, fed every way '
            . '(4 GiB ones at SMGOST_TEST_SCALE >= 100)');
kat_file_ok('evpmd_gost94.txt', qr/^md_gost94$/, 'GOST R 34.11-94 (md_gost94): RFC 5831 '
            . "section 7.3's messages and the empty one, CryptoPro set");
kat_file_ok('evpmd_gost94.txt', qr/^md_gost94$/, 'md_gost94 with constant-time = yes',
            env => $ct_env);
kat_file_ok('evpciph_gost89.txt', $ciphers, 'the cipher vectors with constant-time = yes',
            env => $ct_env);
kat_file_ok('evpmac_gost89.txt', $macs, 'the IMIT vectors with constant-time = yes',
            env => $ct_env);
program_ok('evp_kat', ['names', 'kuznyechik'], 'Kuznyechik: names, lengths and modes');
kat_file_ok('evpciph_kuznyechik.txt', qr/^kuznyechik-/,
            'Kuznyechik: RFC 7801 and GOST R 34.13-2015 A.1, fed every way');
kat_file_ok('evpciph_kuznyechik.txt', qr/^kuznyechik-/,
            'Kuznyechik with constant-time = yes', env => $ct_env);
kat_file_ok('evpciph_gost2015.txt', $kuz, 'GOST R 34.13-2015 A.1.3-A.1.5 (two-block IVs) '
            . 'and R 1323565.1.017-2018 Kuznyechik CTR-ACPKM vectors, fed every way');
kat_file_ok('evpciph_gost2015.txt', $kuz, 'the Kuznyechik vectors with constant-time = yes',
            env => $ct_env);
kat_file_ok('evpaead_mgm.txt', qr/^(?:kuznyechik|magma)-mgm$/,
            'MGM: RFC 9058 A.1 and A.2, every chunking, in place, a wrong tag');
kat_file_ok('evpaead_mgm.txt', qr/^(?:kuznyechik|magma)-mgm$/,
            'MGM with constant-time = yes', env => $ct_env);
kat_file_ok('evpciph_ctr_omac.txt', qr/^(?:kuznyechik|magma)-ctr-acpkm-omac$/,
            'CTR-ACPKM-OMAC: vectors gost-engine accepts, the parameters every way, '
            . 'every chunking, in place, a wrong tag');
kat_file_ok('evpciph_ctr_omac.txt', qr/^(?:kuznyechik|magma)-ctr-acpkm-omac$/,
            'CTR-ACPKM-OMAC with constant-time = yes', env => $ct_env);
kat_file_ok('evpmac_gost2015.txt', $omacs, 'GOST R 34.13-2015 OMAC and R 1323565.1.017-2018 '
            . 'OMAC-ACPKM vectors, fed every way');
kat_file_ok('evpmac_gost2015.txt', $omacs, 'the OMAC vectors with constant-time = yes',
            env => $ct_env);
