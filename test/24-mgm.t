# SPDX-License-Identifier: Apache-2.0
#
# kuznyechik-mgm and magma-mgm (test/mgm_test.c): random cases against the
# model in test/lib/mgm_ref.h (bit-by-bit products, RFC 9058 section 4) with
# chunkings, in place, every tag length and tampering; bad input; and the
# differential against gostprov's MGM where gostprov has it (3.0.2 and
# later; Debian 12's 3.0.1 lacks MGM).  Seeded: SMGOST_TEST_SEED replays.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 3;

program_ok('mgm_test', ['model'], 'MGM: random cases against the model, tampering');
program_ok('mgm_test', ['bad'], 'MGM: bad nonce, ivlen and tag lengths, no tag, AAD after data');

SKIP: {
    my $dir = gostprov_dir();
    my $l = $dir eq '' ? { out => '' }
        : run_openssl([ 'list', '-cipher-algorithms', '-provider-path', $dir,
                        '-provider', 'gostprov' ]);
    skip 'gostprov is absent or lacks MGM (gost-engine before 3.0.2, as Debian 12\'s 3.0.1)', 1
        unless $l->{out} =~ /kuznyechik-mgm/i && $l->{out} =~ /magma-mgm/i;
    program_ok('mgm_test', ['gostprov'], 'MGM: random cases against gostprov');
}
