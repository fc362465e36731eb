#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Streebog (GOST R 34.11-2012, RFC 6986) compression g_N for x86-64
# without AVX-512, two tiers, generated as AT&T text through
# util/perlasm/x86_64.pm:
#
#   perl asm/streebog-avx2-x86_64.pl elf [bytes] > asm/streebog-avx2-x86_64.S
#
#   streebog_gfni_avx2_{blocks,g}   AVX2 and the VEX forms of GFNI
#   streebog_avx2_{blocks,g}        AVX2 alone
#
# Owns both tiers' compressions and entry points (the kernel interface of
# src/streebog.h; src/streebog_x86.c puts them in tables).  The constants
# and L's blocks are util/perlasm/streebog_x86_64.pm's, pi's code
# util/perlasm/gost2015_pi_x86_64.pm's.  Constant-time: pi is computed in
# registers (VPSHUFB looks 16-entry tables up inside a register), no
# memory is indexed by data, no branch depends on it, and the 512-bit
# additions are add/adc chains.
#
# Why the GFNI tier's form.  A 512-bit vector is two ymm registers held in
# a layout "T" where qword c (register c >> 2, qword c & 3) holds byte c
# of every word, word w's byte at position G[w] of the qword, G = (0, 2,
# 4, 6, 1, 3, 5, 7) below (what the transpose's unpacks give).  Then one
# round LPS is:
#  - S: Biryukov-Perrin-Udovenko's decomposition of pi (GFNI affine maps
#    at its two linear ends), each ymm on its own;
#  - P, as an 8x8 byte transpose of the two registers in six operations
#    (VPUNPCK{L,H}BW, VPUNPCK{L,H}WD, two VPERMD): it turns the T layout
#    into words (qwords) holding what L reads, at qword positions G;
#  - L: output qword c' of the T layout is the XOR over the word index j
#    of M(c', j) applied to word j's qword, M(c', j) an 8x8 bit block of
#    L (one matrix per qword: VGF2P8AFFINEQB).  The eight words reach
#    every output qword by the four permutations s -> s ^ k (k = 0..3:
#    itself, VPSHUFD, two VPERMQ) of each transposed register: sixteen
#    affine maps and fifteen XORs, and the result is in T layout again,
#    so the transpose is the only data movement a round.
# The key schedule and the state share the key chain's S output, as the
# AVX-512 kernel does: Y_i = X_i ^ K_i, Y_{i+1} = L(P(S(Y_i) ^ S(Kc_i))).
# Both chains stay in registers between rounds (pi's temporaries take
# eight, one L ten, and the roles of three register pairs turn each round
# so that the key chain's L is issued first): on this core the block is
# bound by the latency of the two chains, and each store and reload of a
# chain between rounds cost about 15% (231 -> 273 -> 281 MB/s as they went;
# issuing the key chain's L before the state's S, with S(Kc) through the
# frame, lost 14%).  The frame keeps h and h ^ m, cleared before return.
#
# Why the AVX2 tier's form (above its code).  Without GFNI an 8x8 bit
# matrix is two VPSHUFB nibble tables, and a VPSHUFB table is one per
# 128-bit lane: so each lane holds 16 bytes that take the same matrix,
# the same word (or byte) index of the key chain and of the state, and
# every lookup serves both chains.  pi's output map omega, L's blocks and
# the next round's alpha are merged into the tables, indexed directly by
# the nibbles pi's core leaves (l'', s): 64 lookups a round for P and L of
# both chains, 24 for the four S cores, then a byte transpose; the chains
# are held as alpha(x).  Measured while writing it (TSC ticks a byte, 16
# KiB, streebog-c 15.7 in the same runs): 15.7 with the 13 rounds
# unrolled and each source's S followed by its lookups; no change as a
# loop (the front end was not the limit: neither were the table loads,
# nor the VPSHUFB count alone); 13.1 with the four S cores first (their
# latencies overlap); 12.4 with the lane swaps moved from the 8 sources
# to 4 cross accumulators and A ^ B folded into the transpose.  The loop
# is 4311 instructions a 64-byte block (67 a byte), 1136 of them VPSHUFB.
# Not written, counted: nibble tables of L alone, over pi's output bytes,
# would add a shift, two masks and omega's two lookups a source and
# round; a shift-and-mask L (the doublings of every byte, masked per lane
# and bit) takes about four times the lookups' operations.
#
# Measured on the 2-vCPU AMD EPYC family 25 model 17 (Zen 4) KVM guest,
# TSC 2.6 GHz, busy with other jobs (load ~12); make bench
# BENCH_ARGS='-a md_gost12_512,md_gost12_256 -s 16,1024,16384 -l
# no-avx512,no-gfni,c -t 90 -r 3', MB/s, init+update+final per call, and
# the ratio to gostprov 3.0.1:
#
#   md_gost12_512  bytes  gfni-avx2      avx2           streebog-c     gostprov  gcrypt 1.10
#                  16     20.6 (2.03x)   15.7 (1.55x)   12.7 (1.25x)   10.2      13.1
#                  1024   224.3 (1.92x)  169.5 (1.45x)  136.7 (1.17x)  116.7     134.8
#                  16384  281.9 (2.01x)  202.6 (1.45x)  162.8 (1.16x)  140.1     158.9
#   md_gost12_256  16384  282.0 (2.01x)  201.6 (1.44x)  162.7 (1.16x)  140.1     159.0
#
# that is, at 16 KiB, TSC ticks a byte (2.6 GHz): streebog-gfni-avx2 9.2,
# streebog-avx2 12.8, streebog-c 16.0, gostprov 18.6.  The GFNI tier's
# loop is 2540 instructions a 64-byte block (40 a byte), of which 484
# VGF2P8AFFINEQB and 400 VPSHUFB.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use streebog_x86_64;
use gost2015_pi_x86_64;

x86_64::setup(@ARGV);

pi_setup('.Lstb_', 'streebog-avx2');
pi_tables(1);
my $IDENTITY = sub { return $_[0]; };
linear_ends('', $IDENTITY, $IDENTITY, 'pi');
# the AVX2 tier's packed alpha and alpha^-1 by nibble tables
nibble_tables('alpha', \&pi_alpha);
nibble_tables('alphainv', inverse_of(\&pi_alpha));

# ---------------------------------------------------------------------------
# The layout.  The transpose below takes byte j of qword q to qword j,
# byte G[q]; the T layout of a vector is that transpose of its words.
my @G = (0, 2, 4, 6, 1, 3, 5, 7);
sub tpos { my ($c, $w) = @_; return 8 * $c + $G[$w]; }
my @GINV;
$GINV[ $G[$_] ] = $_ for 0 .. 7;

sub t_layout {
    my (@b) = @_;    # 64 bytes in memory order: byte c of word w at 8w+c
    my @t;
    for my $w (0 .. 7) {
        $t[ tpos($_, $w) ] = $b[8 * $w + $_] for 0 .. 7;
    }
    return @t;
}

my $rodata = pi_rodata() . ".p2align\t5\n.Lstb_perm:\n.long\t0,4,1,5,2,6,3,7\n";
# VGF2P8AFFINEQB matrices: output register o, transposed register n,
# permutation k: qword s applies M(4o + s, word at transposed qword
# 4n + (s ^ k)); the transpose puts word w at qword G[w].
for my $o (0, 1) {
    for my $n (0, 1) {
        for my $k (0 .. 3) {
            $rodata .= ".p2align\t5\n.Lstb_m$o$n$k:\n" . quad_lines(
                map { gf_matrix(l_block(4 * $o + $_, $GINV[4 * $n + ($_ ^ $k)])) } 0 .. 3);
        }
    }
}
for my $k (1 .. 12) {
    $rodata .= ".p2align\t5\n.Lstb_c$k:\n" . byte_lines(t_layout(c_bytes($k)));
}

# ---------------------------------------------------------------------------
# The frame (at %rsp, 32-byte aligned): the hash value and h ^ m, in T
# layout.
my %F = (h => 0, hm => 64);
my $FRAME = 128;
sub F { my ($v, $half) = @_; return ($F{$v} + 32 * $half) . '(%rsp)'; }
sub Y { return "%ymm$_[0]"; }

# The transpose of registers $a (words 0..3) and $b (words 4..7) into
# registers 2 and 3; clobbers 0, 1 and 4.
sub transpose {
    my ($a, $b) = map { Y($_) } @_;
    return <<"EOT";
	vpunpcklbw	$b,$a,%ymm0
	vpunpckhbw	$b,$a,%ymm1
	vmovdqa	.Lstb_perm(%rip),%ymm4
	vpunpcklwd	%ymm1,%ymm0,%ymm2
	vpunpckhwd	%ymm1,%ymm0,%ymm3
	vpermd	%ymm2,%ymm4,%ymm2
	vpermd	%ymm3,%ymm4,%ymm3
EOT
}

# L(P(x)) of x = (register $a, register $b) in T layout, ^ $extra (a
# label, a frame vector or none), into registers $o0 and $o1, with three
# temporaries; clobbers 0..7, $a and $b.
sub lp {
    my ($a, $b, $o0, $o1, $extra, @tmp) = @_;
    my $r = transpose($a, $b);
    # the permuted transposed registers: [n][k]
    my @v = ([ 2, 4, 5, 6 ], [ 3, 7, $a, $b ]);
    for my $n (0, 1) {
        my $src = Y($v[$n][0]);
        $r .= "\tvpshufd\t\$0x4e,$src," . Y($v[$n][1]) . "\n"
            . "\tvpermq\t\$0x4e,$src," . Y($v[$n][2]) . "\n"
            . "\tvpermq\t\$0x1b,$src," . Y($v[$n][3]) . "\n";
    }
    my ($t1, $t2, $t3) = map { Y($_) } @tmp;
    for my $o (0, 1) {
        my $acc = Y($o ? $o1 : $o0);
        my $aff = sub {
            my ($n, $k, $dst) = @_;
            return "\tvgf2p8affineqb\t\$0,.Lstb_m$o$n$k(%rip),"
                . Y($v[$n][$k]) . ",$dst\n";
        };
        $r .= $aff->(0, 0, $acc);
        if (defined $extra) {
            my $e = $extra =~ /^\./ ? "$extra+" . (32 * $o) . "(%rip)" : F($extra, $o);
            $r .= "\tvpxor\t$e,$acc,$acc\n";
        }
        # a tree: three XORs after the last product
        $r .= $aff->(0, 1, $t1) . "\tvpxor\t$t1,$acc,$acc\n"
            . $aff->(0, 2, $t2) . $aff->(0, 3, $t3) . "\tvpxor\t$t3,$t2,$t2\n"
            . "\tvpxor\t$t2,$acc,$acc\n"
            . $aff->(1, 0, $t1) . $aff->(1, 1, $t2) . "\tvpxor\t$t2,$t1,$t1\n"
            . $aff->(1, 2, $t2) . $aff->(1, 3, $t3) . "\tvpxor\t$t3,$t2,$t2\n"
            . "\tvpxor\t$t2,$t1,$t1\n\tvpxor\t$t1,$acc,$acc\n";
    }
    return $r;
}

# S of register $in (8..12) into register $dst (8..12)
sub s_reg {
    my ($in, $dst) = @_;
    return sbox('y', 1, '', Y($in)) . "\tvmovdqa\t%ymm1," . Y($dst) . "\n";
}

# pi's constants (with GFNI it needs no nibble mask)
sub consts {
    return "\tvpxor\t%ymm15,%ymm15,%ymm15\n\tvmovdqa\t.Lstb_c15(%rip),%ymm13\n";
}

# One compression: the frame's h = g_N(h, m), with kc = h ^ N in
# registers 8, 9, m in 10, 11 and hm = h ^ m in the frame (all in T
# layout).  RFC 6986 7, 8: K_1 = LPS(h ^ N), K_{i+1} = LPS(K_i ^ C_i),
# X_1 = m, X_{i+1} = LPS(X_i ^ K_i), E = X_13 ^ K_13; here Kc_i = K_i ^
# C_i and Y_i = X_i ^ K_i.  Both chains stay in registers: three pairs
# of 8..12, 14 hold Kc, Y and S(Kc), their roles turning each round so
# that the key chain's L comes first without a move; pi's constants take
# 13 and 15.
my @LP_TMP = (13, 15, 0);
sub block {
    my ($k, $y, $f) = ([ 8, 9 ], [ 10, 11 ], [ 12, 14 ]);
    my $r = consts() . s_reg($k->[0], $f->[0]) . s_reg($k->[1], $f->[1])
        . lp(@$f, @$k, undef, @LP_TMP);
    # Y_1 = m ^ K_1, Kc_1 = K_1 ^ C_1
    for my $half (0, 1) {
        my ($kr, $yr) = map { Y($_->[$half]) } $k, $y;
        $r .= "\tvpxor\t$kr,$yr,$yr\n"
            . "\tvpxor\t.Lstb_c1+" . (32 * $half) . "(%rip),$kr,$kr\n";
    }
    for my $i (1 .. 12) {
        # S(Kc) into f; S(Y) ^ S(Kc) into k
        $r .= consts() . s_reg($k->[0], $f->[0]) . s_reg($k->[1], $f->[1]);
        for my $half (0, 1) {
            $r .= sbox('y', 1, '', Y($y->[$half])) . "\tvpxor\t" . Y($f->[$half])
                . ",%ymm1," . Y($k->[$half]) . "\n";
        }
        if ($i < 12) {
            # Kc_{i+1} into y's pair, Y_{i+1} into f's
            $r .= lp(@$f, @$y, '.Lstb_c' . ($i + 1), @LP_TMP);
            $r .= lp(@$k, @$f, undef, @LP_TMP);
            ($k, $y, $f) = ($y, $f, $k);
        } else {
            # h' = X_13 ^ K_13 ^ h ^ m = L(P(S(Y_12) ^ S(Kc_12))) ^ (h ^ m)
            $r .= lp(@$k, @$y, 'hm', @LP_TMP);
            $r .= "\tvmovdqa\t" . Y($y->[0]) . "," . F('h', 0) . "\n\tvmovdqa\t"
                . Y($y->[1]) . "," . F('h', 1) . "\n";
        }
    }
    return $r;
}

# A vector from memory at $addr (words) into T layout in registers 2, 3
sub load_t {
    my ($addr) = @_;
    my ($o) = $addr =~ /^(-?\d*)\(/;
    $o ||= 0;
    my ($base) = $addr =~ /(\(.*\))/;
    return "\tvmovdqu\t$addr,%ymm8\n\tvmovdqu\t" . ($o + 32) . "$base,%ymm9\n" . transpose(8, 9);
}

# From N at $n and m at $m in memory: hm = h ^ m in the frame, m in
# registers 10, 11, kc = h ^ N in 8, 9
sub block_inputs {
    my ($n, $m) = @_;
    my $r = load_t($m);
    for my $half (0, 1) {
        my $x = Y(2 + $half);
        $r .= "\tvmovdqa\t$x," . Y(10 + $half) . "\n\tvpxor\t" . F('h', $half)
            . ",$x,%ymm0\n\tvmovdqa\t%ymm0," . F('hm', $half) . "\n";
    }
    $r .= load_t($n);
    for my $half (0, 1) {
        $r .= "\tvpxor\t" . F('h', $half) . "," . Y(2 + $half) . "," . Y(8 + $half) . "\n";
    }
    return $r;
}

# The frame's h (T layout) to and from the words at (%rdi), byte by byte
# (public positions; once a call)
sub h_in {
    my $r = load_t('(%rdi)');
    return $r . "\tvmovdqa\t%ymm2," . F('h', 0) . "\n\tvmovdqa\t%ymm3," . F('h', 1) . "\n";
}
sub h_out {
    my $r = "";
    for my $w (0 .. 7) {
        for my $c (0 .. 7) {
            $r .= "\tmovzbl\t" . ($F{h} + tpos($c, $w)) . "(%rsp),%eax\n"
                . "\tmovb\t%al," . (8 * $w + $c) . "(%rdi)\n";
        }
    }
    # clear the frame and the registers that held the chains
    $r .= "\tvpxor\t%ymm0,%ymm0,%ymm0\n";
    $r .= "\tvmovdqa\t%ymm0," . (32 * $_) . "(%rsp)\n" for 0 .. $FRAME / 32 - 1;
    return $r . "\tvzeroall\n";
}

# ===========================================================================
# The AVX2 tier without GFNI: streebog_avx2_blocks and streebog_avx2_g.
# (The reasons for its form are at the top.)
#
# Layouts: the two chains share four ymm registers, each 128-bit lane
# holding the same index of both (qword 0 the key chain's, qword 1 the
# state's), so that every VPSHUFB table lookup serves both:
#   W (words): register k, lane h holds word 2k+h, bytes in memory order;
#   B (bytes): register q, lane h holds byte 4h+q of words 0..7 (word j
#              at byte j of the chain's qword).
# S is pi's core on the nibbles of alpha(x) (gost2015_pi_x86_64.pm), the
# chains held as alpha(x) between rounds so that the split into nibbles is
# a shift and two masks.  P and L: source register k of W is pre-P word
# 2k+h in lane h, that is byte 2k+h of every post-P word, so output
# register q of B is the XOR over k and the lane swap sw of M(4h'+q,
# 2k+(h'^sw)) applied bytewise; with pi's output map (omega) before it and
# alpha after it merged into two 16-entry tables per lane, indexed by
# pi's core outputs l'' and s: 64 VPSHUFB a round.  Then a byte transpose
# (three unpack levels and VPERMD) takes B back to W.

my $rodata2 = "";

sub parity8 { my ($x) = @_; $x ^= $x >> 4; $x ^= $x >> 2; $x ^= $x >> 1; return $x & 1; }
sub m_apply {
    my ($rows, $x) = @_;
    my $y = 0;
    $y |= parity8($rows->[$_] & $x) << $_ for 0 .. 7;
    return $y;
}
# L's tables: output register q, source register k, index l'' (h) or
# s (s); sw = 1: lane h's product belongs to lane h ^ 1 (added into the
# cross accumulators, whose lanes are swapped once a round)
for my $q (0 .. 3) {
    for my $k (0 .. 3) {
        for my $sw (0, 1) {
            for my $part ([ 'h', \&pi_out_h ], [ 's', \&pi_out_sig ]) {
                my ($name, $f) = @$part;
                my @b;
                for my $h (0, 1) {
                    my @rows = l_block(4 * ($h ^ $sw) + $q, 2 * $k + $h);
                    push @b, map { pi_alpha(m_apply(\@rows, $f->($_))) } 0 .. 15;
                }
                $rodata2 .= ".p2align\t5\n.Lstb_l$q$k$sw$name:\n" . byte_lines(@b);
            }
        }
    }
}
# alpha(C_i) in W layout, the state's qwords zero
for my $k (1 .. 12) {
    my @c = c_bytes($k);
    my @b;
    for my $w (0 .. 7) {
        push @b, (map { pi_alpha($_) } @c[8 * $w .. 8 * $w + 7]), (0) x 8;
    }
    # contiguous: the rounds' loop steps through them
    $rodata2 .= ($k == 1 ? ".p2align\t5\n" : "") . ".Lstb_ac$k:\n" . byte_lines(@b);
}

# The frame: h and h ^ m in memory order, pi's core outputs (l'', s) of
# a round's four sources, and alpha(C_1) beside alpha(m) for the first
# round (W layout).  Between rounds the sources, in W layout as alpha(x),
# are the accumulators' registers.
my %F2 = (h => 0, hm => 64, x => 128, z => 384);
my $FRAME2 = 512;
sub F2 { my ($v, $i) = @_; return ($F2{$v} + 32 * $i) . '(%rsp)'; }

my @ACC = (8, 9, 10, 11);

# alpha of register $src into register $dst (packed), clobbering 1, 2, 7
sub alpha_reg {
    my ($tbl, $src, $dst) = @_;
    my ($x, $d, $n) = (Y($src), Y($dst), Y($NIB));
    return <<"EOT";
	vpsrlw	\$4,$x,%ymm1
	vpand	$n,%ymm1,%ymm1
	vpand	$n,$x,%ymm2
	vmovdqa	.Lstb_${tbl}_h(%rip),%ymm7
	vpshufb	%ymm1,%ymm7,$d
	vmovdqa	.Lstb_${tbl}_l(%rip),%ymm7
	vpshufb	%ymm2,%ymm7,%ymm7
	vpxor	%ymm7,$d,$d
EOT
}

# pi's core of register $src (alpha(x)): l'' into 0, s into 6
sub core_of {
    my ($src) = @_;
    my ($x, $n) = (Y($src), Y($NIB));
    return "\tvpsrlw\t\$4,$x,%ymm1\n\tvpand\t$n,%ymm1,%ymm1\n\tvpand\t$n,$x,%ymm2\n"
        . sbox_core('y');
}

# L's lookups for source register k from its l'', s in 0, 6: into the
# accumulators and, for the lanes swapped, the cross accumulators (set by
# the first source)
my @CROSS = (12, 13, 14, 15);
sub l_lookups {
    my ($k) = @_;
    my $r = "";
    for my $q (0 .. 3) {
        for my $sw (0, 1) {
            my $acc = Y($sw ? $CROSS[$q] : $ACC[$q]);
            my ($ta, $tb) = map { Y($_) } $sw ? (5, 7) : (3, 4);
            $r .= "\tvmovdqa\t.Lstb_l$q$k${sw}h(%rip),$ta\n\tvpshufb\t%ymm0,$ta,$ta\n"
                . "\tvmovdqa\t.Lstb_l$q$k${sw}s(%rip),$tb\n\tvpshufb\t%ymm6,$tb,$tb\n";
            if ($k == 0) {
                $r .= "\tvpxor\t$tb,$ta,$acc\n";
            } else {
                $r .= "\tvpxor\t$tb,$ta,$ta\n\tvpxor\t$ta,$acc,$acc\n";
            }
        }
    }
    # the cross accumulators into the others; pi's constants back
    if ($k == 3) {
        for my $q (0 .. 3) {
            $r .= "\tvpermq\t\$0x4e," . Y($CROSS[$q]) . ",%ymm0\n\tvpxor\t%ymm0,"
                . Y($ACC[$q]) . "," . Y($ACC[$q]) . "\n";
        }
        $r .= load_consts('y');
    }
    return $r;
}

# B (the accumulators) to W, in place; clobbers 0..7, 12.  $mix: the
# state chain's bytes (A, B) become A ^ B, at the first level, where
# the chains' bytes lie in the same order in separate registers.
sub transpose_bw {
    my ($mix) = @_;
    my ($r0, $r1, $r2, $r3) = map { Y($_) } @ACC;
    my $s = <<"EOT";
	vpunpcklbw	$r1,$r0,%ymm0
	vpunpckhbw	$r1,$r0,%ymm1
	vpunpcklbw	$r3,$r2,%ymm2
	vpunpckhbw	$r3,$r2,%ymm3
EOT
    $s .= "\tvpxor\t%ymm0,%ymm1,%ymm1\n\tvpxor\t%ymm2,%ymm3,%ymm3\n" if $mix;
    $s .= <<"EOT";
	vpunpcklwd	%ymm2,%ymm0,%ymm4
	vpunpckhwd	%ymm2,%ymm0,%ymm5
	vpunpcklwd	%ymm3,%ymm1,%ymm6
	vpunpckhwd	%ymm3,%ymm1,%ymm7
	vpunpckldq	%ymm6,%ymm4,%ymm0
	vpunpckhdq	%ymm6,%ymm4,%ymm1
	vpunpckldq	%ymm7,%ymm5,%ymm2
	vpunpckhdq	%ymm7,%ymm5,%ymm3
	vmovdqa	.Lstb_perm(%rip),%ymm12
EOT
    $s .= "\tvpermd\t%ymm$_,%ymm12," . Y($ACC[$_]) . "\n" for 0 .. 3;
    return $s;
}

# A round's S (pi's cores of the four sources in the accumulators'
# registers, l'' and s of source k to the frame's slots 2k, 2k+1), then
# its L (the lookups, source by source): every core's latency overlaps
# the others' instead of waiting behind the lookups.
sub round2 {
    my $r = "";
    for my $k (0 .. 3) {
        $r .= core_of($ACC[$k]) . "\tvmovdqa\t%ymm0," . F2('x', 2 * $k) . "\n\tvmovdqa\t%ymm6,"
            . F2('x', 2 * $k + 1) . "\n";
    }
    for my $k (0 .. 3) {
        my ($hs, $ss) = map { F2('x', 2 * $k + $_) } 0, 1;
        $r .= "\tvmovdqa\t$hs,%ymm0\n\tvmovdqa\t$ss,%ymm6\n" . l_lookups($k);
    }
    return $r;
}

# One compression of the frame's h by m at $m(%$mr), N at $n(%$nr):
# what reads N (pi's core outputs of h ^ N, to the frame), then the
# rounds
sub block2_inputs {
    my ($n, $nr, $m, $mr) = @_;
    my $r = "";
    # h ^ m; alpha(m) beside alpha(C_1) in W layout
    for my $half (0, 1) {
        my $o = 32 * $half;
        $r .= "\tvmovdqu\t" . ($m + $o) . "(%$mr),%ymm8\n\tvpxor\t" . F2('h', $half) . ",%ymm8,%ymm0\n"
            . "\tvmovdqa\t%ymm0," . F2('hm', $half) . "\n" . alpha_reg('alpha', 8, 9);
        for my $k (2 * $half, 2 * $half + 1) {
            $r .= "\tvpermq\t\$" . ($k & 1 ? '0xfa' : '0x50') . ",%ymm9,%ymm0\n"
                . "\tvpblendd\t\$0x33,.Lstb_ac1+" . (32 * $k) . "(%rip),%ymm0,%ymm0\n"
                . "\tvmovdqa\t%ymm0," . F2('z', $k) . "\n";
        }
    }
    # K_1 = LPS(h ^ N): S on the words, in memory order, its outputs
    # (l'', s) to the frame; both chains take them
    for my $half (0, 1) {
        my $o = 32 * $half;
        $r .= "\tvmovdqu\t" . ($n + $o) . "(%$nr),%ymm8\n\tvpxor\t" . F2('h', $half) . ",%ymm8,%ymm8\n"
            . alpha_reg('alpha', 8, 8) . core_of(8)
            . "\tvmovdqa\t%ymm0," . F2('x', 2 * $half) . "\n\tvmovdqa\t%ymm6,"
            . F2('x', 2 * $half + 1) . "\n";
    }
    return $r;
}

sub block2_rounds {
    my ($L2) = @_;
    # K_1 = LPS(h ^ N) in both chains (the cores' outputs spread to W by
    # VPERMQ), then Kc_1 = K_1 ^ C_1 and Y_1 = K_1 ^ m
    my $r = "";
    for my $k (0 .. 3) {
        my ($hsrc, $ssrc) = map { F2('x', 2 * ($k >> 1) + $_) } 0, 1;
        my $imm = $k & 1 ? '0xfa' : '0x50';
        $r .= "\tvpermq\t\$$imm,$hsrc,%ymm0\n\tvpermq\t\$$imm,$ssrc,%ymm6\n" . l_lookups($k);
    }
    $r .= transpose_bw();
    for my $k (0 .. 3) {
        my $w = Y($ACC[$k]);
        $r .= "\tvpxor\t" . F2('z', $k) . ",$w,$w\n";
    }
    # rounds 1..12 from (Kc_i, Y_i): their lookups give B = (alpha K_{i+1},
    # alpha X_{i+1}); Kc_{i+1} = K_{i+1} ^ C_{i+1}, Y_{i+1} = X_{i+1} ^
    # K_{i+1}.  Rounds 1..11 are a loop (%rcx at alpha(C_{i+1}), %r8d
    # counting).
    $r .= "\tlea\t.Lstb_ac2(%rip),%rcx\n\tmov\t\$11,%r8d\n.p2align\t5\n${L2}_round:\n"
        . round2() . transpose_bw(1);
    for my $k (0 .. 3) {
        my $w = Y($ACC[$k]);
        $r .= "\tvpxor\t" . (32 * $k) . "(%rcx),$w,$w\n";
    }
    $r .= "\tadd\t\$128,%rcx\n\tdec\t%r8d\n\tjnz\t${L2}_round\n" . round2();
    # E = X_13 ^ K_13 in the state chain's qwords, to W, to memory
    # order; h = alpha^-1(E) ^ h ^ m
    $r .= transpose_bw(1);
    for my $half (0, 1) {
        my ($a, $b) = map { Y($ACC[2 * $half + $_]) } 0, 1;
        my $x = Y(8 + $half);
        $r .= "\tvpunpckhqdq\t$b,$a,$x\n\tvpermq\t\$0xd8,$x,$x\n";
    }
    for my $half (0, 1) {
        my $x = Y(8 + $half);
        $r .= alpha_reg('alphainv', 8 + $half, 8 + $half) . "\tvpxor\t" . F2('hm', $half)
            . ",$x,$x\n\tvmovdqa\t$x," . F2('h', $half) . "\n";
    }
    return $r;
}

sub h_in2 {
    return "\tvmovdqu\t(%rdi),%ymm0\n\tvmovdqu\t32(%rdi),%ymm1\n"
        . "\tvmovdqa\t%ymm0," . F2('h', 0) . "\n\tvmovdqa\t%ymm1," . F2('h', 1) . "\n"
        . load_consts('y');
}
sub h_out2 {
    my $r = "\tvmovdqa\t" . F2('h', 0) . ",%ymm0\n\tvmovdqa\t" . F2('h', 1) . ",%ymm1\n"
        . "\tvmovdqu\t%ymm0,(%rdi)\n\tvmovdqu\t%ymm1,32(%rdi)\n\tvpxor\t%ymm0,%ymm0,%ymm0\n";
    $r .= "\tvmovdqa\t%ymm0," . (32 * $_) . "(%rsp)\n" for 0 .. $FRAME2 / 32 - 1;
    return $r . "\tvzeroall\n";
}

# ---------------------------------------------------------------------------
# Entry points of both tiers.  N += 512 and Sigma += m (mod 2^512), branch-free
sub n_sigma {
    my $r = "\taddq\t\$512,64(%rdi)\n";
    $r .= "\tadcq\t\$0," . (64 + 8 * $_) . "(%rdi)\n" for 1 .. 7;
    for my $w (0 .. 7) {
        $r .= "\tmov\t" . (8 * $w) . "(%rsi),%rax\n"
            . "\t" . ($w ? "adc" : "add") . "\t%rax," . (128 + 8 * $w) . "(%rdi)\n";
    }
    return $r;
}

# A tier: its frame, h in and out of it, a block's inputs (N at
# $n(%$nr), m at $m(%$mr)) and its rounds, N and Sigma between them
my %TIER = (
    gfni_avx2 => {
        frame => $FRAME, h_in => \&h_in, h_out => \&h_out,
        inputs => sub { my ($n, $nr, $m, $mr) = @_; return block_inputs("$n(%$nr)", "$m(%$mr)"); },
        rounds => \&block,
    },
    avx2 => {
        frame => $FRAME2, h_in => \&h_in2, h_out => \&h_out2,
        inputs => \&block2_inputs, rounds => \&block2_rounds,
    },
);

my $code = rodata_begin() . $rodata . $rodata2 . text_begin();
for my $tier (qw(gfni_avx2 avx2)) {
    my $t = $TIER{$tier};
    my $L = ".Lstb_${tier}";
    # void streebog_TIER_blocks(STREEBOG_CHAIN *c, const unsigned char
    #                           *in, size_t nblocks)
    $code .= function_begin("streebog_${tier}_blocks")
        . "\ttest\t%rdx,%rdx\n\tjz\t${L}_blocks_ret\n" . frame_align_begin($t->{frame}, 32)
        . $t->{h_in}->() . ".p2align\t5\n${L}_blocks_loop:\n"
        . $t->{inputs}->(64, 'rdi', 0, 'rsi') . n_sigma() . $t->{rounds}->("${L}_b") . <<"EOT";
	add	\$64,%rsi
	dec	%rdx
	jnz	${L}_blocks_loop
EOT
    $code .= $t->{h_out}->() . frame_align_end() . "${L}_blocks_ret:\n\tret\n"
        . function_end("streebog_${tier}_blocks");
    # void streebog_TIER_g(uint64_t h[8], const uint64_t N[8],
    #                      const unsigned char m[64])
    $code .= function_begin("streebog_${tier}_g") . frame_align_begin($t->{frame}, 32)
        . $t->{h_in}->() . $t->{inputs}->(0, 'rsi', 0, 'rdx') . $t->{rounds}->("${L}_g") . $t->{h_out}->()
        . frame_align_end() . "\tret\n" . function_end("streebog_${tier}_g");
}

x86_64::finish($code);
