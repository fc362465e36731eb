# SPDX-License-Identifier: Apache-2.0
#
# Every block count from 1 to 300 (past two whole passes of the widest
# loop, SM4 GFNI+AVX-512's 128 blocks, and every tail after them) through
# each entry of the kernel tables this level's CPU capabilities choose, for
# both constant-time settings, out of place and in place, against the
# portable kernels (test/ct_check.c sweep); Streebog's blocks and g from 1
# to 130 blocks; the SM4 and Kuznyechik key schedules (standard round
# keys, then 300 keys against the portable schedules).  make test runs it at every capability level, so each
# kernel gets the whole sweep.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 1;

my $r = program_ok('ct_check', ['sweep'],
                   'SM4 and GOST kernels: every entry, 1..300 blocks, and Streebog\'s '
                   . '1..130, against the portable kernels');
note($_) for $r->{out} =~ /^# (.*)$/mg;
