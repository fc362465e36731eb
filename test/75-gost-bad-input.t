# SPDX-License-Identifier: Apache-2.0
#
# Misuse of smgost's GOST 28147-89, Magma, Kuznyechik and GOST MACs
# (test/bad_input.c; Kuznyechik in nokey and lengths):
# each call must fail with its reason on the error queue (smgost's own for
# the GOST parameters, the default provider's for what its ciphers and MACs
# share), give no output and leave the context as it was; parameters set
# before any init must not crash and must hold for the init that follows.
# The CTR-ACPKM-OMAC ciphers' misuse is test/ctr_omac_test.c's "bad" group.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [paramset => 'unknown parameter sets ("unknown parameter set")'],
    [algid    => 'malformed alg_id_param, algorithm-id-params, asn1_to_param '
                 . '("invalid algorithm id parameters")'],
    [keymesh  => 'key-mesh on ECB/CBC ("invalid key meshing period")'],
    [num      => 'num moved inside a gost89 (CFB) block ("failed to get parameter")'],
    [nokey    => 'update and final after an init without key ("no key set"), '
                 . 'Kuznyechik too'],
    [lengths  => 'wrong key and IV lengths, through EVP and the raw init; '
                 . 'bad final blocks (EVP reasons, as gostprov), Kuznyechik too'],
    [macsize  => 'MAC sizes 0, 9 and beyond ("invalid mac size")'],
    [early    => 'parameters and calls before any init'],
    [gost94   => 'md_gost94 misuse: update and final after final, final into 31 bytes'],
    [null     => 'updates of a NULL input, every GOST cipher and MGM ("cipher operation failed")'],
);
plan tests => scalar @groups + 1;
program_ok('bad_input', ['gost89', $_->[0]], $_->[1]) for @groups;
program_ok('ctr_omac_test', ['bad'], 'kuznyechik-ctr-acpkm-omac and magma-ctr-acpkm-omac '
           . '(test/ctr_omac_test.c): key, IV and ukm lengths, key-mesh, tag lengths and '
           . 'directions, no tag, a wrong tag (the final fails, no output, nothing queued), '
           . 'updates and finals out of order');
