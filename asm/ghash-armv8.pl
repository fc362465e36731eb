#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# GHASH (NIST SP 800-38D) for AArch64 with PMULL/PMULL2 (FEAT_PMULL, part
# of the Armv8 Cryptographic Extension): the table setup and the GHASH
# entry of src/kernel.h, for SM4-GCM's AAD and the GCM paths that are not
# fused with a cipher.  The field arithmetic and the table layout are in
# util/perlasm/armv8_ghash.pm, shared with the fused GCM kernels in
# asm/sm4-armv8.pl.  Constant-time: no branch and no memory index depends
# on H or on the data; PMULL's timing does not depend on its operands.
#
#   perl asm/ghash-armv8.pl elf [inst] > asm/ghash-armv8.S
#
#   void ghash_pmull_init(void *htable, const unsigned char h[16]);
#   void ghash_pmull(const void *htable, unsigned char xi[16],
#                    const unsigned char *in, size_t nblocks);
#
# Eight blocks a pass are folded with one reduction (aggregated
# reduction), then single blocks.  Instructions executed per byte, counted
# under qemu-user by util/arm-icount.pl (a 16 KiB call against an empty
# run), beside the portable src/ghash.c (gcc 12 -O3) counted the same way:
#
#   ghash_pmull  (8 blocks a pass)   0.67   (85 instructions a pass)
#   src/ghash.c                     25.57
#
# GCM's own counts are in the header of asm/sm4-armv8.pl.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;
use armv8_ghash;

armv8::setup(@ARGV);

my $code = ".arch\tarmv8-a+crypto\n";

$code .= rodata_begin() . ".p2align\t4\n.Lghash_rev128:\n.byte\t"
    . join(',', reverse 0 .. 15) . "\n" . text_begin();

###########################################################################
# ghash_pmull_init(htable x0, h x1): H' = reflect(H x^-1) from the block
# h, then H'^k for k = 2..8 as H'^(k-1) * H (the product of two twisted
# values is the twisted product), each with h0 ^ h1 for Karatsuba.
{
    my ($tab, $hp) = ("x0", "x1");
    my ($hi, $lo, $m, $c) = ("x2", "x3", "x4", "x5");
    my @P = map { "v$_" } reverse 0 .. 7;   # H'^1 .. H'^8, stored v0 first
    my ($K, $mh) = ("v16", "v17");          # K; h0 ^ h1 of H' in d0
    my ($tlo, $tmid, $thi, $t) = map { "v$_" } 18 .. 21;
    my @X = map { "v$_" } 22 .. 29;         # h0 ^ h1 of each power, both lanes
    $code .= function_begin("ghash_pmull_init") . <<"EOT";
	ldp	$hi,$lo,[$hp]
	rev	$hi,$hi
	rev	$lo,$lo
	// (hi:lo) << 1, and reflect(x^-1 + 1) if x^0 fell out
	asr	$m,$hi,#63
	extr	$hi,$hi,$lo,#63
	lsl	$lo,$lo,#1
	mov	$c,#0xc200000000000000
	and	$c,$c,$m
	eor	$hi,$hi,$c
	and	$m,$m,#1
	eor	$lo,$lo,$m
	fmov	@{[ dreg($P[0]) ]},$lo
	mov	$P[0].d[1],$hi
	mov	$c,#0xc200000000000000
	fmov	@{[ dreg($K) ]},$c
	ext	$mh.16b,$P[0].16b,$P[0].16b,#8
	eor	$mh.16b,$mh.16b,$P[0].16b
EOT
    for my $k (1 .. 7) {
        # P[k] = P[k-1] * H: the multiplier's h0 ^ h1 is mh.d0
        $code .= ghash_mul1($P[$k - 1], $P[0], $mh, 0, $K, $tlo, $tmid, $thi, $t, $P[$k]);
    }
    for my $k (0 .. 7) {
        $code .= "\text\t$X[$k].16b,$P[$k].16b,$P[$k].16b,#8\n"
            . "\teor\t$X[$k].16b,$X[$k].16b,$P[$k].16b\n";
    }
    # M pairs [h0^h1 of the higher power, of the lower], over the first
    my @M = @X[7, 5, 3, 1];                 # M87 M65 M43 M21
    for my $j (0 .. 3) {
        my ($a, $b) = (7 - 2 * $j, 6 - 2 * $j);
        $code .= "\ttrn1\t$M[$j].2d,$X[$a].2d,$X[$b].2d\n";
    }
    $code .= <<"EOT";
	st1	{$P[7].16b-$P[4].16b},[$tab],#64
	stp	@{[ qreg($M[0]) ]},@{[ qreg($M[1]) ]},[$tab],#32
	st1	{$P[3].16b-$P[0].16b},[$tab],#64
	stp	@{[ qreg($M[2]) ]},@{[ qreg($M[3]) ]},[$tab],#32
	str	@{[ qreg($K) ]},[$tab]
EOT
    $code .= "\tret\n" . function_end("ghash_pmull_init");
}

###########################################################################
# ghash_pmull(htable x0, xi x1, in x2, nblocks x3).  No callee-saved
# register is used, so there is no frame.
{
    my ($tab, $xip, $inp, $n) = ("x0", "x1", "x2", "x3");
    my ($back, $t0) = ("x4", "x5");
    my @c = map { "v$_" } 0 .. 7;
    my @f = map { "v$_" } 16 .. 23;
    my ($lo, $mid, $hi, $Xi, $K, $REV) = map { "v$_" } 24 .. 29;
    my ($done, $loop, $tail, $one) = (".Lghash_done", ".Lghash_loop", ".Lghash_tail", ".Lghash_one");
    $code .= function_begin("ghash_pmull") . <<"EOT";
	cbz	$n,$done
@{[ adr_label($t0, ".Lghash_rev128") ]}	ldr	@{[ qreg($REV) ]},[$t0]
	ldr	@{[ qreg($K) ]},[$tab,#@{[ GHASH_K ]}]
	ld1	{$Xi.16b},[$xip]
@{[ ghash_reverse($REV, $Xi) ]}	mov	$back,#-160
	cmp	$n,#8
	b.lo	$tail
$loop:
	ld1	{$c[0].16b-$c[3].16b},[$inp],#64
	ld1	{$c[4].16b-$c[7].16b},[$inp],#64
@{[ ghash_blocks8(\@c, \@f, [$lo, $mid, $hi], $Xi, $K, $REV, $tab, $back) ]}	sub	$n,$n,#8
	cmp	$n,#8
	b.hs	$loop
$tail:
	cbz	$n,${done}_store
	ldr	@{[ qreg($f[0]) ]},[$tab,#@{[ GHASH_H1 ]}]
	ldr	@{[ qreg($f[1]) ]},[$tab,#@{[ GHASH_M21 ]}]
$one:
	ld1	{$c[0].16b},[$inp],#16
@{[ ghash_reverse($REV, $c[0]) ]}	eor	$c[0].16b,$c[0].16b,$Xi.16b
@{[ ghash_mul1($c[0], $f[0], $f[1], 1, $K, $lo, $mid, $hi, $f[2], $Xi) ]}	subs	$n,$n,#1
	b.ne	$one
${done}_store:
@{[ ghash_reverse($REV, $Xi) ]}	st1	{$Xi.16b},[$xip]
$done:
	ret
EOT
    $code .= function_end("ghash_pmull");
}

armv8::finish($code);
