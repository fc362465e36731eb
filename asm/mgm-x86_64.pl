#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# MGM's multiply-accumulate (RFC 9058; src/kernel.h's SMG_MGM_KERNEL) for
# x86-64 by carry-less multiplication, generated as AT&T text through
# util/perlasm/x86_64.pm.  Owns the assembly tables' entries:
#
#   smg_mgm_clmul_avx_mac{128,64}       PCLMULQDQ, xmm (VEX): one block a
#                                       register (GF(2^64): two)
#   smg_mgm_vpclmul_avx512_mac{128,64}  VPCLMULQDQ, zmm: four blocks a
#                                       register (GF(2^64): eight)
#
# sum ^= XOR over i of H_i (x) X_i.  Every H_i differs (H_i = E(Z_i)), so
# unlike GHASH there is no table of powers and no serial dependence: the
# products of a whole call are summed unreduced (schoolbook, the middle
# products summed apart) and reduced once, at the end, and the loop is
# loads, byte reversals, multiplications and XORs into accumulators that
# the multiplications of the next register do not wait on.  The
# multiply-and-reduce and its constants are util/perlasm/clmul_x86_64.pm's
# (%MGM128_FIELD, %MGM64_FIELD: the natural bit order, blocks loaded
# byte-reversed).  GF(2^64) takes its products two a lane (0x00 and 0x11),
# summed into one 128-bit accumulator a lane.
#
# Every path is constant-time: multiplications, shifts and XORs only; no
# table is indexed by H or by the data, and the only branches and masks
# depend on the block count.
#
# Measured on the 2-core AMD EPYC family 25 model 17 (Zen 4 class) KVM
# guest, TSC ticks per byte of X (best of 2000 calls; the H_i and X_i of
# a 16 KiB call, 32 KiB together, spill out of L1, a 1 KiB call's stay):
#
#   kernel                  16 KiB calls        1 KiB calls
#                           mac128   mac64      mac128   mac64
#   clmul-avx      (xmm)    0.35     0.175      0.33     0.18
#   vpclmul-avx512 (zmm)    0.10     0.054      0.076    0.050
#   mgm-c (src/mgm_mac.c)   5.5      4.2        5.5      4.2
#
# The mode layer calls with 64 blocks (1 KiB of Kuznyechik): perf gives
# the zmm kernel 4% of kuznyechik-mgm's time at 16 KiB, the two
# encryptions a block (kuznyechik-gfni-avx512's ECB) about 80%.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use clmul_x86_64;

x86_64::setup(@ARGV);

sub R { my ($w, $n) = @_; return "%${w}mm$n"; }

my $code = rodata_begin() . ".p2align\t6\n"
    . clmul_rodata(\%MGM128_FIELD, bswap => [ '.Lmgm_bswap128', 4 ],
                   fold => [ '.Lmgm_poly128', 4 ])
    . clmul_rodata(\%MGM64_FIELD, bswap => [ '.Lmgm_bswap64', 4 ],
                   fold => [ '.Lmgm_poly64', 1 ])
    . text_begin();

# Register roles: accumulators lo, mid, hi (GF(2^64): lo alone); two sets
# of temporaries for consecutive registers of blocks; constants.
my ($LO, $MID, $HI) = (0, 1, 2);
my @TMP = ([4, 5, 6, 7], [8, 9, 10, 11]);
my ($POLY, $BSW) = (14, 15);

# One register of blocks into the accumulators: X from $xmem, H from
# $hmem, both loaded with $mask (EVEX) when given, or with vmovq when
# $o{q} (one 8-byte block).
sub chunk {
    my ($field, $w, $set, $xmem, $hmem, %o) = @_;
    my ($d, $h, $t0, $t1) = map { R($w, $_) } @{ $TMP[$set] };
    my ($lo, $mid, $hi, $bsw) = map { R($w, $_) } $LO, $MID, $HI, $BSW;
    my $mov = $w eq 'z' ? 'vmovdqu64' : 'vmovdqu';
    my $m = $o{mask} // '';
    my $z = $m ? '{z}' : '';
    $mov = 'vmovq' if $o{q};
    my $s = "\t$mov\t$xmem,$d$m$z\n\t$mov\t$hmem,$h$m$z\n"
        . "\tvpshufb\t$bsw,$d,$d\n\tvpshufb\t$bsw,$h,$h\n";
    if ($field->{bits} == 64) {
        my @ops = ("vpclmulqdq\t\$0x00,$h,$d,$t0", "vpclmulqdq\t\$0x11,$h,$d,$t1");
        push @ops, $w eq 'z' ? "vpternlogq\t\$0x96,$t1,$t0,$lo"
                             : ("vpxor\t$t0,$lo,$lo", "vpxor\t$t1,$lo,$lo");
        return $s . clmul_text(@ops);
    }
    return $s . clmul_text(clmul_mul(h => $h, d => $d, lo => $lo, mid => $mid,
                                     hi => $hi, t => [ $t0, $t1 ], pair => 1));
}

# The accumulators (width w) reduced, summed over the lanes and added to
# the sum at (%rdi).
sub finish_sum {
    my ($field, $w) = @_;
    my ($lo, $mid, $hi, $p) = map { R($w, $_) } $LO, $MID, $HI, $POLY;
    my ($t, $u) = map { R($w, $_) } @{ $TMP[0] }[2, 3];
    my ($xlo, $xt, $xu, $xp, $xb) = map { R('x', $_) } $LO, @{ $TMP[0] }[2, 3], $POLY, $BSW;
    my $s = '';
    if ($field->{bits} == 64) {
        # the lanes' 128-bit sums first, then one reduction
        $s .= clmul_text(clmul_lanes_sum($lo, $t, $xlo)) if $w ne 'x';
        $s .= clmul_text(clmul_reduce($field, lo => $xlo, t => $xt, u => $xu,
                                      p => $xp));
        return $s . "\tvmovq\t(%rdi),$xt\n\tvpshufb\t$xb,$xt,$xt\n"
            . "\tvpxor\t$xt,$xlo,$xlo\n\tvpshufb\t$xb,$xlo,$xlo\n"
            . "\tvmovq\t$xlo,(%rdi)\n";
    }
    $s .= clmul_text(clmul_fold($lo, $mid, $hi, $t),
                     clmul_reduce($field, lo => $lo, hi => $hi, t => $t, u => $u,
                                  p => $p, ternary => $w eq 'z'));
    $s .= clmul_text(clmul_lanes_sum($lo, $t, $xlo)) if $w ne 'x';
    return $s . "\tvmovdqu\t(%rdi),$xt\n\tvpshufb\t$xb,$xt,$xt\n"
        . "\tvpxor\t$xt,$xlo,$xlo\n\tvpshufb\t$xb,$xlo,$xlo\n"
        . "\tvmovdqu\t$xlo,(%rdi)\n";
}

# smg_mgm_<name>_mac<bits>(sum=%rdi, h=%rsi, x=%rdx, nblocks=%rcx)
sub mac {
    my ($name, $w, $field) = @_;
    my $bits = $field->{bits};
    my $fn = "smg_mgm_${name}_mac$bits";
    my $L = ".L$fn";
    my $bpr = { x => 1, z => 4 }->{$w} * (128 / $bits);   # blocks a register
    my $unroll = 4;
    my $bytes = 16 * { x => 1, z => 4 }->{$w};
    my $mov = $w eq 'z' ? 'vmovdqu64' : 'vmovdqa';
    my $s = function_begin($fn);
    $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    $s .= "\t$mov\t.Lmgm_bswap$bits(%rip)," . R($w, $BSW) . "\n";
    $s .= "\tvmovdqa\t.Lmgm_poly$bits(%rip)," . R('x', $POLY) . "\n" if $bits == 64;
    $s .= "\t$mov\t.Lmgm_poly$bits(%rip)," . R($w, $POLY) . "\n" if $bits == 128;
    # VEX zeroing clears the upper lanes too
    $s .= "\tvpxor\t$_,$_,$_\n" for map { R('x', $_) } $LO, $MID, $HI;
    $s .= "\tcmp\t\$" . $bpr * $unroll . ",%rcx\n\tjb\t${L}_tail\n"
        . ".p2align\t5\n${L}_loop:\n";
    for my $q (0 .. $unroll - 1) {
        $s .= chunk($field, $w, $q & 1, ($bytes * $q) . "(%rdx)",
                    ($bytes * $q) . "(%rsi)");
    }
    $s .= <<"EOT";
	add	\$@{[$bytes * $unroll]},%rdx
	add	\$@{[$bytes * $unroll]},%rsi
	sub	\$@{[$bpr * $unroll]},%rcx
	cmp	\$@{[$bpr * $unroll]},%rcx
	jae	${L}_loop
${L}_tail:
	test	%rcx,%rcx
	jz	${L}_done
EOT
    # the rest a register at a time, the last one partial (AVX-512:
    # masked; xmm GF(2^64): one block by vmovq)
    if ($w eq 'z') {
        # %r10 counts the blocks left, %cl shifts the mask
        $s .= "\tmov\t%rcx,%r10\n${L}_tloop:\n"
            . "\tmov\t\$$bpr,%r9d\n\tcmp\t%r9,%r10\n\tcmovb\t%r10,%r9\n"
            . "\tlea\t(%r9,%r9),%ecx\n" x ($bits == 128)
            . "\tmov\t%r9d,%ecx\n" x ($bits == 64);
        $s .= <<'EOT';
	mov	$1,%eax
	shl	%cl,%eax
	dec	%eax
	kmovw	%eax,%k1
EOT
        $s .= chunk($field, $w, 0, "(%rdx)", "(%rsi)", mask => '{%k1}');
        $s .= "\tadd\t\$$bytes,%rdx\n\tadd\t\$$bytes,%rsi\n"
            . "\tsub\t%r9,%r10\n\tjnz\t${L}_tloop\n";
    } elsif ($bits == 64) {
        $s .= "${L}_tloop:\n\tcmp\t\$1,%rcx\n\tje\t${L}_one\n";
        $s .= chunk($field, $w, 0, "(%rdx)", "(%rsi)");
        $s .= "\tadd\t\$16,%rdx\n\tadd\t\$16,%rsi\n\tsub\t\$2,%rcx\n"
            . "\tjnz\t${L}_tloop\n\tjmp\t${L}_done\n${L}_one:\n";
        $s .= chunk($field, $w, 1, "(%rdx)", "(%rsi)", q => 1);
    } else {
        $s .= "${L}_tloop:\n" . chunk($field, $w, 0, "(%rdx)", "(%rsi)");
        $s .= "\tadd\t\$16,%rdx\n\tadd\t\$16,%rsi\n\tdec\t%rcx\n"
            . "\tjnz\t${L}_tloop\n";
    }
    $s .= "${L}_done:\n" . finish_sum($field, $w);
    $s .= "\tvzeroupper\n" if $w ne 'x';
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

for my $f (\%MGM128_FIELD, \%MGM64_FIELD) {
    $code .= mac('clmul_avx', 'x', $f) . mac('vpclmul_avx512', 'z', $f);
}

x86_64::finish($code);
