# SPDX-License-Identifier: Apache-2.0
#
# GOST R 34.11-94 (test/gost94_test.c): RFC 5831 section 7.3's examples
# (test parameter set) and the CryptoPro set's through every kernel of
# src/gost94.c this level runs, each kernel against libgcrypt's
# GOSTR3411_94 and GOSTR3411_CP over random messages, and HMAC over
# md_gost94 through OpenSSL's HMAC against libgcrypt's known answers.  The
# provider's own known answers for md_gost94 are test/60-gost-kat.t's, its
# differential tests test/70-gost-diff.t's.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 3;

program_ok('gost94_test', ['kat'], "RFC 5831 examples (test set) and the CryptoPro "
           . 'set, every kernel, in two pieces split everywhere');
program_ok('gost94_test', ['hmac'], 'HMAC over md_gost94 (properties provider=smgost) '
           . "against libgcrypt's HMAC over GOSTR3411_CP");
SKIP: {
    my $has = run_program('evp_diff', ['has-gcrypt']);
    skip('test programs built without libgcrypt (no HAVE_GCRYPT)', 1)
        if $has->{exit} != 0 || $has->{signal} != 0;
    program_ok('gost94_test', ['gcrypt'], "every kernel against libgcrypt's "
               . 'GOSTR3411_94 and GOSTR3411_CP, random messages and splits');
}
