#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# GHASH (NIST SP 800-38D) for x86-64 by carry-less multiplication, generated
# as AT&T text through util/perlasm/x86_64.pm.  Owns the three GHASH kernels
# of src/kernel.h's SMG_GCM_KERNEL and the htable layout they share:
#
#   smg_ghash_clmul_avx{,_init}      PCLMULQDQ, xmm (VEX): 8 blocks a reduction
#   smg_ghash_vpclmul_avx2{,_init}   VPCLMULQDQ, ymm: 2 blocks a register,
#                                     16 a reduction
#   smg_ghash_vpclmul_avx512{,_init} VPCLMULQDQ, zmm: 4 blocks a register,
#                                     32 a reduction
#
# Every path is constant-time: multiplications, shifts and XORs only; no
# table is indexed by H or by the data, and the only branches and masks
# depend on the block count.
#
# The multiply-and-reduce and its constants are util/perlasm/clmul_x86_64.pm's
# (which gives the representation: blocks byte-reversed, H premultiplied
# by x^-1); this file owns how the kernels load, aggregate and store.
# Reduction is linear, so a group of blocks multiplied by descending powers
# of H is summed first and reduced once.
#
# htable (SMG_GHASH_TABLE_SIZE = 512 bytes): entry i (16 bytes at 16 i) is
# the reflected, premultiplied H^(32-i); a tier that aggregates G blocks
# needs entries 32-G..31 and its ghash_init builds just those.  A group of
# m blocks multiplies block j by entry 32-m+j, so one table serves groups
# of every length.
#
# Measured on the 2-core AMD EPYC family 26 model 2 (Zen 5 class) KVM
# guest, 16 KiB calls, best of 2000, TSC ticks (2.6 GHz) per byte, and core
# cycles at the 1.1 cycles a tick a chain of dependent adds gives (no PMU
# in the guest; the other vCPU was busy):
#
#   kernel                 ticks/B  cycles/B
#   clmul-avx      (xmm)   0.33     0.37
#   vpclmul-avx2   (ymm)   0.167    0.18
#   vpclmul-avx512 (zmm)   0.083    0.09
#
# (1 KiB calls: 0.31, 0.13, 0.05 ticks/B: the table of 32 powers lets a
# 64-block call reduce twice.)
# On the Intel Xeon family 6 model 207 (Golden Cove cores) KVM guest,
# 2.3 GHz TSC, 1.30 core cycles a tick: vpclmul-avx512 0.079 ticks/B at
# 16 KiB (0.10 cycles/B); VPCLMULQDQ on zmm issues on one port there.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use clmul_x86_64;

x86_64::setup(@ARGV);

my $code = "";

sub R { my ($w, $n) = @_; return "%${w}mm$n"; }

my %bpr = (x => 1, y => 2, z => 4);       # blocks per register
my %group = (x => 8, y => 16, z => 32);   # blocks per reduction

# byte reversal and the folding constant in every lane, R(x^-1)
$code .= rodata_begin() . ".p2align\t6\n"
    . clmul_rodata(\%GHASH_FIELD, bswap => [ '.Lghash_bswap', 4 ],
                   fold => [ '.Lghash_poly', 4 ], twist => '.Lghash_twist')
    . text_begin();

# Register roles, every width (16 registers suffice for VEX): product
# accumulators lo, mid, hi; the running xi (xmm, upper lanes zero); two
# sets of chunk temporaries for consecutive chunks; constants.
my ($LO, $MID, $HI, $XI) = (0, 1, 2, 3);
my @TMP = ([4, 5, 6, 7], [8, 9, 10, 11]);
my ($POLY, $BSW) = (14, 15);

# One chunk (a register of blocks) into the accumulators: data from $dmem,
# powers from $tmem, both loaded with $mask (EVEX) when given.  $first
# writes the accumulators instead of adding to them; $xi XORs the running
# hash into the chunk's first block.
sub chunk {
    my ($w, $set, $dmem, $tmem, %o) = @_;
    my ($d, $h, $t0, $t1) = map { R($w, $_) } @{ $TMP[$set] };
    my ($lo, $mid, $hi) = map { R($w, $_) } $LO, $MID, $HI;
    my $mov = $w eq 'z' ? 'vmovdqu64' : 'vmovdqu';
    my $m = $o{mask} // '';
    my $z = $m ? '{z}' : '';
    # one block of a ymm chunk: VEX.128 loads clear the upper lane
    my ($ld, $lh) = $o{half} ? map { s/ymm/xmm/r } $d, $h : ($d, $h);
    my $s = "\t$mov\t$dmem,$ld$m$z\n\t$mov\t$tmem,$lh$m$z\n";
    $s .= "\tvpshufb\t" . R($w, $BSW) . ",$d,$d\n";
    $s .= "\tvpxor" . ($w eq 'z' ? 'q' : '') . "\t" . R($w, $XI) . ",$d,$d\n" if $o{xi};
    return $s . clmul_text(clmul_mul(h => $h, d => $d, lo => $lo, mid => $mid,
                                     hi => $hi, t => [ $t0, $t1 ],
                                     $o{first} ? (first => 1) : (pair => 1)));
}

# lo, mid, hi (width w) -> xi: the 256-bit sums of every lane, reduced,
# then the lanes summed (reduction is linear).
sub reduce {
    my ($w) = @_;
    my ($lo, $mid, $hi, $p) = map { R($w, $_) } $LO, $MID, $HI, $POLY;
    my $t0 = R($w, $TMP[0][2]);
    my $s = clmul_text(clmul_fold($lo, $mid, $hi, $t0),
                       clmul_reduce(\%GHASH_FIELD, lo => $lo, hi => $hi, t => $t0,
                                    p => $p, ternary => 1));
    return $s . "\tvmovdqa\t" . R('x', $LO) . "," . R('x', $XI) . "\n" if $w eq 'x';
    return $s . clmul_text(clmul_lanes_sum($lo, $t0, R('x', $XI)));
}

# smg_ghash_<name>(htable=%rdi, xi=%rsi, in=%rdx, nblocks=%rcx)
sub ghash {
    my ($name, $w) = @_;
    my $fn = "smg_ghash_$name";
    my $L = ".L$fn";
    my $G = $group{$w};
    my $bytes = 16 * $bpr{$w};
    my $mov = $w eq 'z' ? 'vmovdqu64' : 'vmovdqu';
    my $s = function_begin($fn);
    $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    # calls of fewer than 8 blocks (GCM's AAD, lengths and tails) are the
    # xmm kernel's: the same table entries, no wide constants to load, no
    # VZEROUPPER
    $s .= "\tcmp\t\$8,%rcx\n\tjb\tsmg_ghash_clmul_avx\n" if $w ne 'x';
    if ($w eq 'x') {
        $s .= "\tvmovdqa\t.Lghash_bswap(%rip),%xmm$BSW\n"
            . "\tvmovdqa\t.Lghash_poly(%rip),%xmm$POLY\n";
    } else {
        $s .= "\t$mov\t.Lghash_bswap(%rip)," . R($w, $BSW) . "\n"
            . "\t$mov\t.Lghash_poly(%rip)," . R($w, $POLY) . "\n";
    }
    $s .= "\tvmovdqu\t(%rsi),%xmm$XI\n\tvpshufb\t%xmm$BSW,%xmm$XI,%xmm$XI\n";
    $s .= "\tcmp\t\$$G,%rcx\n\tjb\t${L}_tail\n.p2align\t5\n${L}_loop:\n";
    for my $q (0 .. $G / $bpr{$w} - 1) {
        $s .= chunk($w, $q & 1, ($bytes * $q) . "(%rdx)",
                    (16 * (32 - $G) + $bytes * $q) . "(%rdi)",
                    first => $q == 0, xi => $q == 0);
    }
    $s .= reduce($w);
    $s .= <<"EOT";
	add	\$@{[16 * $G]},%rdx
	sub	\$$G,%rcx
	cmp	\$$G,%rcx
	jae	${L}_loop
${L}_tail:
	test	%rcx,%rcx
	jz	${L}_done
	mov	%rcx,%r8
	shl	\$4,%rcx
	neg	%rcx
	lea	512(%rdi,%rcx),%r9
EOT
    # the m < G remaining blocks, one register at a time, the last one
    # partial (AVX-512: masked; AVX2: one xmm block; xmm: never partial);
    # block j meets entry 32-m+j, read from %r9 on
    my @acc = map { R($w, $_) } $LO, $MID, $HI;
    $s .= "\tvpxor\t$_,$_,$_\n" for map { s/zmm/ymm/r } @acc;
    $s .= "${L}_tloop:\n";
    if ($w eq 'z') {
        $s .= <<'EOT';
	mov	$4,%ecx
	cmp	%rcx,%r8
	cmovb	%r8,%rcx
	add	%ecx,%ecx
	mov	$1,%eax
	shl	%cl,%eax
	dec	%eax
	kmovw	%eax,%k1
EOT
        $s .= chunk($w, 0, "(%rdx)", "(%r9)", mask => '{%k1}', xi => 1);
    } elsif ($w eq 'y') {
        $s .= "\tcmp\t\$1,%r8\n\tje\t${L}_one\n";
        $s .= chunk($w, 0, "(%rdx)", "(%r9)", xi => 1);
        $s .= "\tjmp\t${L}_next\n${L}_one:\n";
        $s .= chunk($w, 1, "(%rdx)", "(%r9)", xi => 1, half => 1);
        $s .= "${L}_next:\n";
    } else {
        $s .= chunk($w, 0, "(%rdx)", "(%r9)", xi => 1);
    }
    # the hash enters the first register only
    $s .= "\tvpxor\t%xmm$XI,%xmm$XI,%xmm$XI\n";
    $s .= <<"EOT";
	add	\$$bytes,%rdx
	add	\$$bytes,%r9
	sub	\$$bpr{$w},%r8
	jg	${L}_tloop
EOT
    $s .= reduce($w);
    $s .= "${L}_done:\n\tvpshufb\t%xmm$BSW,%xmm$XI,%xmm$XI\n"
        . "\tvmovdqu\t%xmm$XI,(%rsi)\n";
    $s .= "\tvzeroupper\n" if $w ne 'x';
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

# $d = $a * $b for each 128-bit lane of width $w (both premultiplied
# powers, so the product is one too), through temporaries $t0..$t3 and the
# reduction constant in each lane of $p.
sub gf_mul {
    my ($w, $a, $b, $d, $t0, $t1, $t2, $t3, $p) = @_;
    return clmul_text(
        clmul_mul(h => $a, d => $b, lo => $t0, mid => $t1, hi => $t3, t => [ $t2 ],
                  first => 1),
        clmul_fold($t0, $t1, $t3, $t2),
        clmul_reduce(\%GHASH_FIELD, lo => $t0, hi => $t3, t => $t1, p => $p, dst => $d));
}

# smg_ghash_<name>_init(htable=%rdi, h=%rsi): entries 32-G..31, run once
# per key.  H^k for k in (2^m, 2^(m+1)] is H^(2^m) times H^(k-2^m), both
# read back from the table, so no product waits on more than m before it;
# once 2^m reaches the lanes of the kernel's width, one product makes a
# register of powers (H^(2^m) in every lane times the next powers below
# it).  A serial chain of G-1 products had waited on each one's latency:
# vpclmul-avx512's 32 powers took 260 TSC ticks a key, 166 as xmm products
# by levels and 84 with zmm ones; vpclmul-avx2's 16 take 62 (108 before),
# clmul-avx's 8 take 46 (40: its chain was short already); Intel Xeon
# family 6 model 207, best of 20000 calls.
sub ghash_init {
    my ($name, $w, $G) = @_;
    my $fn = "smg_ghash_${name}_init";
    my $lanes = { x => 1, y => 2, z => 4 }->{$w};
    my ($ha, $hb, $t0, $t1, $t2, $t3, $bsw, $p) = map { "%xmm$_" } 0 .. 7;
    my @W = map { "%${w}mm$_" } 0 .. 7;
    my $s = function_begin($fn);
    $s .= <<"EOT";
	vmovdqa	.Lghash_bswap(%rip),$bsw
	vmovdqu	(%rsi),$ha
	vpshufb	$bsw,$ha,$ha
	vpsllq	\$1,$ha,$t0
	vpsrlq	\$63,$ha,$t1
	vpslldq	\$8,$t1,$t1
	vpor	$t1,$t0,$t0
	vpshufd	\$0xff,$ha,$t1
	vpsrad	\$31,$t1,$t1
	vpand	.Lghash_twist(%rip),$t1,$t1
	vpxor	$t1,$t0,$ha
	vmovdqa	.Lghash_poly(%rip),$p
	vmovdqu	$ha,496(%rdi)
EOT
    my $pow = 1;    # 2^m: the powers up to it are in the table
    while ($pow < $G) {
        if ($pow < $lanes || $w eq 'x') {
            for my $k ($pow + 1 .. 2 * $pow) {
                $s .= "\tvmovdqu\t" . 16 * (32 - $pow) . "(%rdi),$ha\n"
                    . "\tvmovdqu\t" . 16 * (32 - ($k - $pow)) . "(%rdi),$hb\n"
                    . gf_mul('x', $ha, $hb, $t0, $t0, $t1, $t2, $t3, $p)
                    . "\tvmovdqu\t$t0," . 16 * (32 - $k) . "(%rdi)\n";
            }
        } else {
            if ($pow == $lanes) {
                $s .= $w eq 'y' ? "\tvbroadcasti128\t.Lghash_poly(%rip),$W[7]\n"
                    : "\tvbroadcasti32x4\t.Lghash_poly(%rip),$W[7]\n";
            }
            $s .= ($w eq 'y' ? "\tvbroadcasti128\t" : "\tvbroadcasti32x4\t")
                . 16 * (32 - $pow) . "(%rdi),$W[0]\n";
            my $ld = $w eq 'z' ? 'vmovdqu64' : 'vmovdqu';
            # entries e..e+lanes-1 hold H^(32-e) down; times H^pow they
            # are H^(pow+32-e) down, entries e-pow on
            for (my $e = 32 - $pow; $e < 32; $e += $lanes) {
                $s .= "\t$ld\t" . 16 * $e . "(%rdi),$W[1]\n"
                    . gf_mul($w, @W[0, 1, 2, 2 .. 5, 7])
                    . "\t$ld\t$W[2]," . 16 * ($e - $pow) . "(%rdi)\n";
            }
        }
        $pow *= 2;
    }
    $s .= "\tvzeroupper\n" if $w ne 'x';
    $s .= "\tret\n" . function_end($fn);
    return $s;
}

$code .= ghash_init('clmul_avx', 'x', $group{x}) . ghash('clmul_avx', 'x');
$code .= ghash_init('vpclmul_avx2', 'y', $group{y}) . ghash('vpclmul_avx2', 'y');
$code .= ghash_init('vpclmul_avx512', 'z', $group{z}) . ghash('vpclmul_avx512', 'z');

x86_64::finish($code);
