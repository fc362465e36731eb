# SPDX-License-Identifier: Apache-2.0
#
# The AEAD entries of the SM4 kernel table this level chooses (GHASH, GCM,
# GCM with E(J0) in a message's first call, CCM, XTS for both tweak
# conventions), entry by entry against references over the portable block
# kernel, for every block count to 340, split calls, in place and out of
# place, counters at their wraps (test/aead_kernels.c), and again under
# each SMGOST_SM4_CCM choice.  make test runs it at every capability level.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 3;

my $r = program_ok('aead_kernels', [],
                   'SM4 AEAD kernel entries against the references, 0..340 blocks');
note($_) for $r->{out} =~ /^# (.*)$/mg;
# gfni-avx512 carries one of two CCM kernels by the CPU's vendor
# (src/sm4_x86.c): each of them wherever the level allows that tier
for my $ccm (qw(zen4 glc)) {
    local $ENV{SMGOST_SM4_CCM} = $ccm;
    program_ok('aead_kernels', [], "the same with SMGOST_SM4_CCM=$ccm");
}
