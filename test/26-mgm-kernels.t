# SPDX-License-Identifier: Apache-2.0
#
# MGM's multiply-accumulate kernels (src/kernel.h's SMG_MGM_KERNEL) of
# every table of the family's list this level's CPU capabilities run, both
# fields, against a bit-by-bit product of the test's own, for every block
# count to 140, split calls onto a running sum (test/mgm_kernels.c); the
# tables checked must be those test/kernels lists as running here, the
# chosen one among them.  make test runs it at every capability level.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 2;

my $r = program_ok('mgm_kernels', [],
                   'MGM kernels against the bit-by-bit product, 0..140 blocks');
tables_checked_ok($r, 'mgm', 'MGM');
