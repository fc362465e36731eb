# SPDX-License-Identifier: Apache-2.0
#
# Allocation failure (test/alloc_fail.c): each step of each algorithm's use
# runs with its Nth allocation failing, N = 1, 2, ... until it needs no
# more; a failing call must report an error, a retry with working memory
# must succeed with the right result, and nothing may leak (checked by the
# program's own allocator once libcrypto has freed its own blocks: in
# OPENSSL_cleanup() up to OpenSSL 3, in libcrypto's destructor from OpenSSL
# 4.0; and by LeakSanitizer in an ASan build).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [sm4   => 'SM4 ciphers: ctx new, init, update, final, copy, re-init; '
              . 'SM4-GCM, CCM and XTS each way, with the AAD, CCM\'s length and the tag'],
    [gost  => 'GOST 28147-89 ciphers: the same steps'],
    [magma => 'Magma ciphers (magma-ctr-acpkm, magma-mgm each way included): the same steps'],
    [kuznyechik => 'Kuznyechik ciphers (kuznyechik-ctr-acpkm, kuznyechik-mgm each way '
                   . 'included): the same steps'],
    [sm3   => 'SM3: the same steps and the one-shot digest'],
    [gost94 => 'md_gost94: the same steps and the one-shot digest'],
    [mac   => 'gost-mac, gost-mac-12, the OMAC and OMAC-ACPKM MACs, HMAC-SM3: '
              . 'the same steps, one-shot'],
    [streebog => 'md_gost12_256, md_gost12_512 and HMAC over each: the same steps, one-shot'],
    [load  => 'provider load with smgost\'s own allocations failing'],
    [core  => 'load and fetch with every allocation failing (libcrypto 3.0 '
              . 'leaks listed, not failed)'],
);
plan tests => scalar @groups;
program_ok('alloc_fail', [$_->[0]], $_->[1]) for @groups;
