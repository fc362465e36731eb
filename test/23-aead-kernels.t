# SPDX-License-Identifier: Apache-2.0
#
# The AEAD entries of every SM4 kernel table this level's CPU capabilities
# run (GHASH, GCM, GCM with E(J0) in a message's first call, CCM, XTS for
# both tweak conventions), entry by entry against references over the
# portable block kernel, for every block count to 340, split calls, in
# place and out of place, counters at their wraps (test/aead_kernels.c).
# The tables are the family's list (src/kernel_list.h), which holds both
# sets of gfni-avx512 CCM rounds (SMGOST_SM4_CCM's zen4 and glc), so each
# of them is checked wherever the level allows that tier: the tables checked
# must be those test/kernels lists as running here, the chosen one among
# them.  make test runs it at every capability level.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 2;

my $r = program_ok('aead_kernels', [],
                   'SM4 AEAD kernel entries against the references, 0..340 blocks');
tables_checked_ok($r, 'sm4', 'SM4');
