# SPDX-License-Identifier: Apache-2.0
#
# The AEAD entries of the SM4 kernel table this level chooses (GHASH, GCM,
# GCM with E(J0) in a message's first call, CCM, XTS for both tweak
# conventions), entry by entry against references over the portable block
# kernel, for every block count to 340, split calls, in place and out of
# place, counters at their wraps (test/aead_kernels.c).  make test runs it
# at every capability level.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 1;

my $r = program_ok('aead_kernels', [],
                   'SM4 AEAD kernel entries against the references, 0..340 blocks');
note($_) for $r->{out} =~ /^# (.*)$/mg;
