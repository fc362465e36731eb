# SPDX-License-Identifier: Apache-2.0
#
# GHASH (NIST SP 800-38D) with PMULL/PMULL2 for the AArch64 kernels: the
# code generators that asm/ghash-armv8.pl (GHASH alone, its table) and
# asm/sm4-armv8.pl (GCM, CTR fused with GHASH) share, and the layout of the
# table they read.  Registers are perl strings ("v3"), as in armv8.pm.
#
# The field.  GCM's bit order puts x^0 at the top bit of byte 0, so a block
# read as a big-endian 128-bit integer B has bit 127-i as the coefficient
# of x^i (the "reflected" form; in a register that is the block with its
# 16 bytes reversed, one TBL).  For reflected operands the carry-less
# product B1 * B2 (255 bits) is the reflected form of A1*A2*x in 256 bits,
# so H is stored "twisted", as reflect(H * x^-1): a left shift of B by one
# and, when x^0 falls out, an XOR with reflect(x^-1 + 1) = 0xc2 << 120 | 1
# (x^-1 = x^127 + x^6 + x + 1 modulo g = x^128 + x^7 + x^2 + x + 1).
# Then B * H' is the 256-bit reflected form of A*H, whose low 128 bits are
# its terms of degree 128 to 255.  They are cleared 64 bits at a time:
# removing bit k adds g * x^(127-k), i.e. bits k+121, k+126, k+127 (the
# product of the 64-bit word with 0xc2 << 56, placed 64 bits up) and
# k+128 (the word itself, 128 bits up).  Two PMULLs by that constant
# ("K" below) reduce a product; Karatsuba makes a product three PMULLs.
#
# MGM (RFC 9058) multiplies in the natural bit order, x^0 at the bottom
# bit of the last byte: a block read as a big-endian integer is its
# polynomial, so the carry-less product needs no twist, and the reduction
# folds the top down: x^128 = x^7 + x^2 + x + 1 (0x87) for 128-bit blocks,
# x^64 = x^4 + x^3 + x + 1 (0x1b) for 64-bit ones (mgm_reduce128,
# mgm_reduce64; asm/mgm-armv8.pl sums a batch's products first).
#
# Aggregation: eight blocks are folded as
#   Xi' = (Xi ^ C0) H^8 ^ C1 H^7 ^ ... ^ C7 H
# with the products summed unreduced and reduced once.  The table holds
# the twisted powers H..H^8 and, for Karatsuba, h0 ^ h1 of each power,
# two powers a register so that the middle products of two blocks are one
# PMULL and one PMULL2 (the blocks' own h0 ^ h1 come from one TRN1/TRN2
# pair and an EOR).
package armv8_ghash;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT = qw(ghash_reverse ghash_mul1 ghash_reduce ghash_blocks8
                 mgm_reduce128 mgm_reduce64
                 GHASH_H1 GHASH_M21 GHASH_K GHASH_TABLE_BYTES);

# Table layout (bytes), read by ghash_blocks8 as four LD1s that walk it
# and come back to the start:
#   0   H^8 H^7 H^6 H^5       (twisted powers, d0 = low half)
#   64  M87 M65               (M87 = [h0^h1 of H^8, of H^7], ...)
#   96  H^4 H^3 H^2 H^1
#   160 M43 M21
#   192 K = 0xc2 << 56 in d0
use constant GHASH_H1 => 144;
use constant GHASH_M21 => 176;          # h0 ^ h1 of H in lane d1
use constant GHASH_K => 192;
use constant GHASH_TABLE_BYTES => 208;

# A block between memory order and the reflected form: reverse its bytes.
sub ghash_reverse {
    my ($rev, @r) = @_;
    return join '', map { "\ttbl\t$_.16b,{$_.16b},$rev.16b\n" } @r;
}

# Karatsuba fix-up and reduction of the 256-bit product (lo, mid, hi
# unreduced, mid still holding (a0^a1)(b0^b1)) into out; t is a temporary.
# lo = [X1:X0], hi = [X3:X2]: phase one folds X0 (with the middle terms)
# into X1:X2, phase two folds the new X1 into X2:X3.
sub ghash_reduce {
    my ($lo, $mid, $hi, $K, $t, $out) = @_;
    return <<"EOT";
	eor	$mid.16b,$mid.16b,$lo.16b
	eor	$mid.16b,$mid.16b,$hi.16b
	pmull	$t.1q,$lo.1d,$K.1d
	ext	$lo.16b,$lo.16b,$lo.16b,#8
	eor	$lo.16b,$lo.16b,$mid.16b
	eor	$lo.16b,$lo.16b,$t.16b
	pmull	$t.1q,$lo.1d,$K.1d
	ext	$lo.16b,$lo.16b,$lo.16b,#8
	eor	$lo.16b,$lo.16b,$t.16b
	eor	$out.16b,$hi.16b,$lo.16b
EOT
}

# MGM, GF(2^128): the 256-bit sum (lo, mid, hi: mid the two middle
# products summed) reduced into lo; P holds 0x87 in both lanes, z is zero,
# t and u temporaries.  hi's top word times P lands at x^64 (its low word,
# onto lo's top) and x^128 (its 7-bit overflow, onto hi's low word), which
# a second product folds into lo.
sub mgm_reduce128 {
    my ($lo, $mid, $hi, $P, $z, $t, $u) = @_;
    return <<"EOT";
	ext	$t.16b,$z.16b,$mid.16b,#8
	ext	$u.16b,$mid.16b,$z.16b,#8
	eor	$lo.16b,$lo.16b,$t.16b
	eor	$hi.16b,$hi.16b,$u.16b
	pmull2	$t.1q,$hi.2d,$P.2d
	ext	$u.16b,$t.16b,$z.16b,#8
	eor	$hi.16b,$hi.16b,$u.16b
	ext	$t.16b,$z.16b,$t.16b,#8
	eor	$lo.16b,$lo.16b,$t.16b
	pmull	$u.1q,$hi.1d,$P.1d
	eor	$lo.16b,$lo.16b,$u.16b
EOT
}

# MGM, GF(2^64): the 128-bit sum of products in acc reduced into its low
# word; P holds 0x1b in both lanes, t and u temporaries.  The high word
# times P is at most 67 bits; its top 3 bits times P once more.
sub mgm_reduce64 {
    my ($acc, $P, $t, $u) = @_;
    return <<"EOT";
	pmull2	$t.1q,$acc.2d,$P.2d
	pmull2	$u.1q,$t.2d,$P.2d
	eor	$acc.16b,$acc.16b,$t.16b
	eor	$acc.16b,$acc.16b,$u.16b
EOT
}

# xi = a * H for a reflected block a (xi already folded in), H' in h and
# h0 ^ h1 in lane $lane of m; a is preserved unless it is t.
sub ghash_mul1 {
    my ($a, $h, $m, $lane, $K, $lo, $mid, $hi, $t, $xi) = @_;
    my $pm = $lane ? "pmull2\t$mid.1q,$t.2d,$m.2d" : "pmull\t$mid.1q,$t.1d,$m.1d";
    return <<"EOT" . ghash_reduce($lo, $mid, $hi, $K, $t, $xi);
	pmull	$lo.1q,$a.1d,$h.1d
	pmull2	$hi.1q,$a.2d,$h.2d
	ext	$t.16b,$a.16b,$a.16b,#8
	eor	$t.16b,$t.16b,$a.16b
	$pm
EOT
}

# Eight blocks c[0..7] (memory order; destroyed) into xi.  f: eight free
# registers; acc: [lo, mid, hi]; tp: the table pointer, walked and put
# back with the register back = -160.
sub ghash_blocks8 {
    my ($c, $f, $acc, $xi, $K, $rev, $tp, $back) = @_;
    my ($lo, $mid, $hi) = @$acc;
    my @f = @$f;
    my $s = ghash_reverse($rev, @$c);
    $s .= "\teor\t$c->[0].16b,$c->[0].16b,$xi.16b\n";
    for my $half (0, 1) {
        my $post = $half ? $back : "#32";
        $s .= "\tld1\t{$f[0].16b-$f[3].16b},[$tp],#64\n";
        $s .= "\tld1\t{$f[4].16b-$f[5].16b},[$tp],$post\n";
        for my $p (0, 1) {
            my ($a, $b) = @{$c}[4 * $half + 2 * $p, 4 * $half + 2 * $p + 1];
            my ($ha, $hb, $m) = ($f[2 * $p], $f[2 * $p + 1], $f[4 + $p]);
            my ($u, $w) = @f[6, 7];
            $s .= <<"EOT";
	trn1	$u.2d,$a.2d,$b.2d
	trn2	$w.2d,$a.2d,$b.2d
	eor	$u.16b,$u.16b,$w.16b
EOT
            if ($half == 0 && $p == 0) {
                $s .= <<"EOT";
	pmull	$lo.1q,$a.1d,$ha.1d
	pmull2	$hi.1q,$a.2d,$ha.2d
	pmull	$mid.1q,$u.1d,$m.1d
EOT
            } else {
                $s .= <<"EOT";
	pmull	$w.1q,$a.1d,$ha.1d
	eor	$lo.16b,$lo.16b,$w.16b
	pmull2	$a.1q,$a.2d,$ha.2d
	eor	$hi.16b,$hi.16b,$a.16b
	pmull	$w.1q,$u.1d,$m.1d
	eor	$mid.16b,$mid.16b,$w.16b
EOT
            }
            $s .= <<"EOT";
	pmull	$w.1q,$b.1d,$hb.1d
	eor	$lo.16b,$lo.16b,$w.16b
	pmull2	$b.1q,$b.2d,$hb.2d
	eor	$hi.16b,$hi.16b,$b.16b
	pmull2	$u.1q,$u.2d,$m.2d
	eor	$mid.16b,$mid.16b,$u.16b
EOT
        }
    }
    return $s . ghash_reduce($lo, $mid, $hi, $K, $f[6], $xi);
}

1;
