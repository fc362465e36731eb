#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# MGM's multiply-accumulate (RFC 9058; src/kernel.h's SMG_MGM_KERNEL) for
# AArch64 with PMULL/PMULL2 (FEAT_PMULL): sum ^= XOR over i of
# H_i (x) X_i, in GF(2^128) and GF(2^64), blocks as big-endian integers.
# Every H_i differs, so there is no table: the products of a call are
# summed unreduced (schoolbook: four PMULLs a 128-bit block, one a 64-bit
# block) and reduced once, by util/perlasm/armv8_ghash.pm's natural-order
# reduction.  Constant-time: no branch and no memory index depends on H
# or the data (only on the block count); PMULL's timing does not depend on
# its operands.
#
#   perl asm/mgm-armv8.pl elf [inst] > asm/mgm-armv8.S
#
#   void smg_mgm_pmull_mac128(unsigned char sum[16], const unsigned char *h,
#                             const unsigned char *x, size_t nblocks);
#   void smg_mgm_pmull_mac64(unsigned char sum[8], const unsigned char *h,
#                            const unsigned char *x, size_t nblocks);
#
# Instructions executed per byte of X, counted under qemu-user by
# util/arm-icount.pl (calls of 1 KiB against 9 KiB), beside the portable
# src/mgm_mac.c (gcc 12 -O3) counted the same way (no Arm hardware here:
# the counts stand in for speed):
#
#   kernel   mac128   mac64
#   pmull     0.77     0.45    (49 and 29 instructions a pass of 4 and 8)
#   mgm-c    23.31    13.62

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;
use armv8_ghash;

armv8::setup(@ARGV);

my $code = ".arch\tarmv8-a+crypto\n";

$code .= rodata_begin() . ".p2align\t4\n.Lmgm_rev128:\n.byte\t"
    . join(',', reverse 0 .. 15) . "\n" . text_begin();

my ($sum, $hp, $xp, $n, $t0) = ("x0", "x1", "x2", "x3", "x4");

###########################################################################
# smg_mgm_pmull_mac128(sum x0, h x1, x x2, nblocks x3): four blocks a
# pass, then one at a time.  No callee-saved register: no frame.
{
    my @x = map { "v$_" } 0 .. 3;
    my @h = map { "v$_" } 4 .. 7;
    my ($t, $u, $w) = map { "v$_" } 16 .. 18;
    my ($lo, $mid, $hi, $z, $P, $REV) = map { "v$_" } 24 .. 29;
    my $L = ".Lmgm128";
    # x_i times h_i onto lo, mid, hi (h_i's halves swapped for the middle)
    my $prod = sub {
        my ($a, $b) = @_;
        return <<"EOT";
	pmull	$t.1q,$a.1d,$b.1d
	pmull2	$u.1q,$a.2d,$b.2d
	ext	$w.16b,$b.16b,$b.16b,#8
	eor	$lo.16b,$lo.16b,$t.16b
	eor	$hi.16b,$hi.16b,$u.16b
	pmull	$t.1q,$a.1d,$w.1d
	pmull2	$u.1q,$a.2d,$w.2d
	eor	$mid.16b,$mid.16b,$t.16b
	eor	$mid.16b,$mid.16b,$u.16b
EOT
    };
    $code .= function_begin("smg_mgm_pmull_mac128") . <<"EOT";
	cbz	$n,${L}_ret
@{[ adr_label($t0, ".Lmgm_rev128") ]}	ldr	@{[ qreg($REV) ]},[$t0]
	mov	$t0,#0x87
	dup	$P.2d,$t0
	movi	$lo.16b,#0
	movi	$mid.16b,#0
	movi	$hi.16b,#0
	movi	$z.16b,#0
	cmp	$n,#4
	b.lo	${L}_tail
${L}_loop:
	ld1	{$x[0].16b-$x[3].16b},[$xp],#64
	ld1	{$h[0].16b-$h[3].16b},[$hp],#64
@{[ ghash_reverse($REV, @x, @h) ]}@{[ join '', map { $prod->($x[$_], $h[$_]) } 0 .. 3 ]}	sub	$n,$n,#4
	cmp	$n,#4
	b.hs	${L}_loop
${L}_tail:
	cbz	$n,${L}_done
${L}_one:
	ld1	{$x[0].16b},[$xp],#16
	ld1	{$h[0].16b},[$hp],#16
@{[ ghash_reverse($REV, $x[0], $h[0]) ]}@{[ $prod->($x[0], $h[0]) ]}	subs	$n,$n,#1
	b.ne	${L}_one
${L}_done:
@{[ mgm_reduce128($lo, $mid, $hi, $P, $z, $t, $u) ]}	ld1	{$t.16b},[$sum]
@{[ ghash_reverse($REV, $t) ]}	eor	$lo.16b,$lo.16b,$t.16b
@{[ ghash_reverse($REV, $lo) ]}	st1	{$lo.16b},[$sum]
${L}_ret:
	ret
EOT
    $code .= function_end("smg_mgm_pmull_mac128");
}

###########################################################################
# smg_mgm_pmull_mac64(sum x0, h x1, x x2, nblocks x3): eight blocks a
# pass (two a register, each qword byte-reversed), then two, then one.
{
    my @x = map { "v$_" } 0 .. 3;
    my @h = map { "v$_" } 4 .. 7;
    my ($t, $u) = map { "v$_" } 16 .. 17;
    my ($acc0, $acc1, $P) = map { "v$_" } 24 .. 26;
    my $L = ".Lmgm64";
    my $rev = sub { join '', map { "\trev64\t$_.16b,$_.16b\n" } @_ };
    my $prod = sub {
        my ($a, $b) = @_;
        return <<"EOT";
	pmull	$t.1q,$a.1d,$b.1d
	pmull2	$u.1q,$a.2d,$b.2d
	eor	$acc0.16b,$acc0.16b,$t.16b
	eor	$acc1.16b,$acc1.16b,$u.16b
EOT
    };
    $code .= function_begin("smg_mgm_pmull_mac64") . <<"EOT";
	cbz	$n,${L}_ret
	mov	$t0,#0x1b
	dup	$P.2d,$t0
	movi	$acc0.16b,#0
	movi	$acc1.16b,#0
	cmp	$n,#8
	b.lo	${L}_tail
${L}_loop:
	ld1	{$x[0].16b-$x[3].16b},[$xp],#64
	ld1	{$h[0].16b-$h[3].16b},[$hp],#64
@{[ $rev->(@x, @h) ]}@{[ join '', map { $prod->($x[$_], $h[$_]) } 0 .. 3 ]}	sub	$n,$n,#8
	cmp	$n,#8
	b.hs	${L}_loop
${L}_tail:
	cmp	$n,#2
	b.lo	${L}_last
	ld1	{$x[0].16b},[$xp],#16
	ld1	{$h[0].16b},[$hp],#16
@{[ $rev->($x[0], $h[0]) ]}@{[ $prod->($x[0], $h[0]) ]}	sub	$n,$n,#2
	b	${L}_tail
${L}_last:
	cbz	$n,${L}_done
	ldr	@{[ dreg($x[0]) ]},[$xp]
	ldr	@{[ dreg($h[0]) ]},[$hp]
@{[ $rev->($x[0], $h[0]) ]}	pmull	$t.1q,$x[0].1d,$h[0].1d
	eor	$acc0.16b,$acc0.16b,$t.16b
${L}_done:
	eor	$acc0.16b,$acc0.16b,$acc1.16b
@{[ mgm_reduce64($acc0, $P, $t, $u) ]}	ldr	@{[ dreg($t) ]},[$sum]
@{[ $rev->($t) ]}	eor	$acc0.16b,$acc0.16b,$t.16b
@{[ $rev->($acc0) ]}	str	@{[ dreg($acc0) ]},[$sum]
${L}_ret:
	ret
EOT
    $code .= function_end("smg_mgm_pmull_mac64");
}

armv8::finish($code);
