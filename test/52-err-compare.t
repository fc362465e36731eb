# SPDX-License-Identifier: Apache-2.0
#
# The same misuse on smgost and on OpenSSL's default provider
# (test/err_compare.c): every SM4 mode, SM3, and HMAC-SM3, CMAC-SM4-CBC and
# GMAC-SM4-GCM over smgost's digest and ciphers.  After each misuse the
# call's result and the whole error queue, as (library, reason) pairs, must
# be the same: a program that maps OpenSSL's reasons to its errors (Python's
# cryptography) sees the same from either provider.  Where the default
# provider lacks SM4-GCM, CCM and XTS (OpenSSL before 3.2), its AES-128
# ones stand in: the same generic GCM, CCM and XTS code.  smgost may only
# refuse, with its own reason, the misuse a case marks (update after
# final, ...) where the default provider goes ahead; each such case is
# listed in the output.  Where gostprov is installed, the GOST ciphers are
# compared with its ones: the bad final blocks, where smgost raises
# gostprov's (EVP's) reasons, must agree; the rest, where gostprov leaves
# its own reasons, is listed.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

my @groups = (
    [cipher => 'SM4 in every mode: keys, IVs, parameters, padding, tags, '
               . 'CCM lengths, XTS units, TLS parameters'],
    [digest => 'SM3: after final, XOF, parameters, output room'],
    [mac    => 'HMAC-SM3, CMAC-SM4-CBC and GMAC-SM4-GCM of the default '
               . 'provider over smgost'],
);
push @groups, [gost => 'GOST 28147-89 and Magma against gostprov: its EVP '
                       . 'reasons for bad final blocks'] if gostprov_dir() ne '';
plan tests => scalar @groups;
diag('skipped: gostprov is not installed (SMGOST_GOSTPROV is empty): the GOST '
     . 'ciphers are not compared') if gostprov_dir() eq '';
for my $g (@groups) {
    my $r = program_ok('err_compare', [$g->[0]], $g->[1], timeout => 120);
    # The reference each SM4 mode was compared with, and what smgost alone
    # refuses: in the TAP output, for the record.
    note($_) for grep { /against|refuses/ } split /\n/, $r->{out};
}
