#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Streebog (GOST R 34.11-2012, RFC 6986) compression g_N for x86-64 with
# AVX-512 F/BW/VL, VBMI and GFNI, generated as AT&T text through
# util/perlasm/x86_64.pm:
#
#   perl asm/streebog-gfni-avx512-x86_64.pl elf [bytes] > asm/streebog-gfni-avx512-x86_64.S
#
# Owns streebog_gfni_avx512_blocks and streebog_gfni_avx512_g (the kernel
# interface of src/streebog.h; src/streebog_x86.c puts them in a table).
# The constants and the tables derived from them are
# util/perlasm/streebog_x86_64.pm's.  Constant-time: S is looked up in
# registers (VPERMT2B), never in memory by secret bytes, and the 512-bit
# additions are add/adc chains.
#
# A 512-bit vector is one zmm register, held transposed ("T layout": byte
# 8c+r is byte c of word r) from a call's first load to its last store.
# Then one round LPS(x) is:
#  - S: two VPERMT2B look up the 128-entry halves of pi, VPMOVB2M takes
#    each byte's top bit and VPBLENDMB picks the half;
#  - P and the gathers of L at once: L's output byte i of word r is the
#    XOR over c of M(i,c) applied to byte r of word c of S(x) (P moved it
#    there), M(i,c) an 8x8 bit block of L.  In T layout byte c of word r
#    sits in lane r, so four VPERMB gather, for k = 0, 2, 4, 6, byte i^k
#    of every lane into lane i;
#  - L: each gather k feeds two VGF2P8AFFINEQB: M(i, i^k) on lane i (the
#    even terms, already in T layout) and M(j^1, j^k) on lane j (the odd
#    term k+1, one lane off); the four odd products are summed first and
#    one VPSHUFD (qwords swapped in each 128 bits) puts the sum in place,
#    where four VPSHUFD before the affine maps did it before: 20
#    instructions a round and chain instead of 21, 3 fewer shuffles;
#  - the XOR of it all, with the next round key or constant, in three
#    VPTERNLOGQ and a VPXORQ or two.
# A block has two chains, the key schedule K_{i+1} = LPS(K_i ^ C_i) and
# the state; by linearity X_{i+1} ^ K_{i+1} = L(P(S(X_i ^ K_i) ^ S(K_i ^
# C_i))), so the state chain carries Y_i = X_i ^ K_i and shares the key
# chain's S output (one XOR) instead of XORing the key after L: 25 S and
# 24 LP a block instead of 25 each, and the last round's two LP are one.
#
# Why this form on Zen 4 (measured here, core cycles): VGF2P8AFFINEQB zmm
# has latency 3 and issues once a cycle (FP0/FP1, as do VPMOVB2M, VPCMPB,
# VPTESTMB); VPERMB, VPERMT2B, VPERMQ, VSHUFI64X2 zmm latency 4-5, once a
# cycle (FP1/FP2); VPSHUFD latency 1, three in two cycles; VPTERNLOGQ,
# VPBLENDMB latency 1 on any pipe.  A block's critical path is 13 rounds
# of the key chain (K_1 .. K_13); one chain alone takes ~27 cycles a round
# (L(P) ~19 of it, S ~8), both together ~37 (~40 in the previous form),
# where the pipes would take a round's ~50 vector operations in ~25.  What decides the rest is the order
# the two chains' operations are written in: the core picks the oldest
# ready one, so each round writes the two S side by side, then the key
# chain's whole L(P), then the state's: 7-10% faster than interleaving
# the two L(P) line by line (tried: chunks of 2..12 lines of each, the
# state's S or part of its L(P) ahead of the key's, the state chain a
# round behind the key's; all between 0 and 8%).  Tried and kept out, as
# slower or no faster: S's top-bit mask by VPSHUFB over all-ones and a
# VPTERNLOGQ select instead of VPMOVB2M and VPBLENDMB (10% slower: the
# shuffle pipes are the fuller ones), or by VPCMPGTB (the same time); two
# gathers (k = 0, 4) and three lane moves after the affine maps (VPSHUFD,
# VPERMQ: 8% slower, the moves lengthen the chain); the previous eight
# gathers (VPSHUFD before the affine maps) in this order, for one chain or
# both (3% slower); the L matrices in registers instead
# of memory operands (no change: loads are not the limit), the S tables
# in registers, a list scheduler ordering each block's operations for a
# pipe model of the core.  (Also counted, not built: qword rotations of a
# normal-layout S output, whose transposed result needs the next round
# done by VGF2P8MULB in the AES field, L being linear over GF(2^8)/0x11D,
# with in-lane byte shuffles; one chain alone was 26-27 cycles a round
# that way, two chains no faster.)
#
# Measured on the 2-vCPU AMD EPYC family 25 model 17 (Zen 4) KVM guest,
# TSC 2.6 GHz, core ~3.7 GHz, busy with other jobs; 16 KiB calls of the
# blocks entry, best of 300 (scratch harness, the previous form in the
# same run), and 639 instructions a 64-byte block (10.0 a byte;
# streebog-c: 104 a byte by callgrind):
#
#   kernel                              TSC ticks/B
#   streebog-gfni-avx512                5.26-5.35
#   (previous form, interleaved L(P))   5.72-5.81
#   streebog-c (src/streebog.c, -O3)    15.7
#
# and through EVP in one make bench run (-a md_gost12_512,md_gost12_256 -s
# 16,1024,16384 -l native -r 5 -t 150, BASE= the previous form's build),
# MB/s, init+update+final per call:
#
#   md_gost12_512    bytes   gfni-avx512    previous form  gostprov  gcrypt 1.10
#                    16      33.5 (3.33x)   31.4 (3.12x)   10.1      12.9
#                    1024    389.9 (3.35x)  363.4 (3.13x)  116.3     133.6
#                    16384   473.3 (3.39x)  436.1 (3.13x)  139.5     157.8
#   md_gost12_256    16384   475.2 (3.41x)  436.5 (3.13x)  139.4     158.2
#
# Botan 3.13's AVX-512 Streebog-512 was not run here (issue 27 quotes 263
# MB/s, 9.9 TSC ticks/B, on this kind of machine: 473.3 is 1.80 times
# that); Botan 2.19 (python3-botan) does 84 MB/s here.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use streebog_x86_64;

x86_64::setup(@ARGV);

# ---------------------------------------------------------------------------
# Constants.  pi in four 64-byte quarters; the gather indices (lane i of
# gather k takes byte i^k of each lane r: index 8r + (i^k) at byte 8i+r;
# k = 0 is also the transpose into and out of T layout); the eight matrix
# vectors (lane i of vector k is M(i, i^k)); C_1..C_12 in T layout.
my $code = rodata_begin() . ".p2align\t6\n";
for my $q (0 .. 3) {
    $code .= ".Lstb_pi$q:\n" . byte_lines(@PI[64 * $q .. 64 * $q + 63]);
}
for my $k (0, 2, 4, 6) {
    $code .= ".Lstb_gather$k:\n"
        . byte_lines(map { my $i = $_; map { 8 * $_ + ($i ^ $k) } 0 .. 7 } 0 .. 7);
}
for my $k (0, 2, 4, 6) {
    $code .= ".Lstb_lmat$k:\n"
        . quad_lines(map { gf_matrix(l_block($_, $_ ^ $k)) } 0 .. 7);
    $code .= ".Lstb_lmatx$k:\n"
        . quad_lines(map { gf_matrix(l_block($_ ^ 1, $_ ^ $k)) } 0 .. 7);
}
for my $k (1 .. 12) {
    $code .= ".Lstb_c$k:\n" . byte_lines(transpose_bytes(c_bytes($k)));
}
$code .= text_begin();

# ---------------------------------------------------------------------------
# Registers.  %zmm28..31 hold the gather indices for a whole call.
my @GIDX = map { "%zmm$_" } 28 .. 31;     # k = 0, 2, 4, 6
my ($H, $NT, $MT) = map { "%zmm$_" } 0 .. 2;
# key chain: S input, the two half lookups, S output, the eight gathers
my %KEY = (x => "%zmm3", lo => "%zmm4", hi => "%zmm5", s => "%zmm6",
           g => [ map { "%zmm$_" } 7 .. 14 ], k => "%k1");
# state chain (its S output becomes u = S(Y) ^ S(Kc))
my %ST = (x => "%zmm15", lo => "%zmm16", hi => "%zmm17", s => "%zmm18",
          g => [ map { "%zmm$_" } 19 .. 26 ], k => "%k2");

# S(x) into s, the table quarters as memory operands (constant addresses).
sub sbox {
    my ($c) = @_;
    my ($x, $lo, $hi, $s, $k) = @$c{qw(x lo hi s k)};
    return <<"EOT";
	vmovdqa64	.Lstb_pi0(%rip),$lo
	vmovdqa64	.Lstb_pi2(%rip),$hi
	vpmovb2m	$x,$k
	vpermt2b	.Lstb_pi1(%rip),$x,$lo
	vpermt2b	.Lstb_pi3(%rip),$x,$hi
	vpblendmb	$hi,$lo,$s\{$k\}
EOT
}

# L(P(s)) ^ $extra into $dst: four gathers (k = 0, 2, 4, 6), each taken
# by two affine maps: M(i, i^k) for lane i, and M(j^1, j^k) for lane j,
# whose results, summed, one VPSHUFD moves to lane j^1 (the odd k).
sub lp {
    my ($c, $s, $extra, $dst) = @_;
    my $g = $c->{g};
    my $r = "";
    $r .= "\tvpermb\t$s,$GIDX[$_],$g->[$_]\n" for 0 .. 3;
    for my $j (0 .. 3) {
        $r .= "\tvgf2p8affineqb\t\$0,.Lstb_lmatx" . (2 * $j) . "(%rip),$g->[$j],$g->[4 + $j]\n";
    }
    for my $j (0 .. 3) {
        $r .= "\tvgf2p8affineqb\t\$0,.Lstb_lmat" . (2 * $j) . "(%rip),$g->[$j],$g->[$j]\n";
    }
    $r .= "\tvpternlogq\t\$0x96,$g->[6],$g->[5],$g->[4]\n"
        . "\tvpxorq\t$g->[7],$g->[4],$g->[4]\n"
        . "\tvpternlogq\t\$0x96,$g->[2],$g->[1],$g->[0]\n"
        . "\tvpshufd\t\$0x4e,$g->[4],$g->[4]\n";
    $r .= "\tvpxorq\t$extra,$g->[3],$g->[3]\n" if defined $extra;
    $r .= "\tvpternlogq\t\$0x96,$g->[4],$g->[3],$g->[0]\n"
        . "\tvmovdqa64\t$g->[0],$dst\n";
    return $r;
}

# Merge two instruction lists so that both chains progress together.
sub interleave {
    my ($a, $b) = @_;
    my @a = split /^/, $a;
    my @b = split /^/, $b;
    my $r = "";
    while (@a || @b) {
        $r .= shift @a if @a;
        $r .= shift @b if @b;
    }
    return $r;
}

# One compression: $H = g_N(h, m) with $H = h, $NT = N, $MT = m in T
# layout.  E(K, m) (RFC 6986 7, 8): K_1 = LPS(h ^ N), K_{i+1} = LPS(K_i ^
# C_i), X_1 = m, X_{i+1} = LPS(X_i ^ K_i); E = X_13 ^ K_13.  Here Kc_i =
# K_i ^ C_i and Y_i = X_i ^ K_i.
sub block {
    my $r = "";
    my $kx = $KEY{x};
    my $yx = $ST{x};
    # K_1 = LPS(h ^ N); Y_1 = m ^ K_1; Kc_1 = K_1 ^ C_1
    $r .= "\tvpxorq\t$NT,$H,$kx\n";
    $r .= sbox(\%KEY) . lp(\%KEY, $KEY{s}, undef, $kx);
    $r .= <<"EOT";
	vpxorq	$kx,$MT,$yx
	vpxorq	.Lstb_c1(%rip),$kx,$kx
	vpxorq	$MT,$H,$MT
EOT
    # rounds 1..11: Kc_{i+1} = L(P(S(Kc_i))) ^ C_{i+1},
    # Y_{i+1} = L(P(S(Y_i) ^ S(Kc_i))).  The two S side by side, then the
    # key chain's L(P) whole before the state's: the core takes the oldest
    # ready operation first, so the key chain, the critical path, gets the
    # affine and shuffle pipes first (line by line interleaving of the two
    # L(P) was 7-10% slower).
    for my $i (1 .. 12) {
        $r .= interleave(sbox(\%KEY), sbox(\%ST));
        $r .= "\tvpxorq\t$KEY{s},$ST{s},$ST{s}\n";
        if ($i < 12) {
            $r .= lp(\%KEY, $KEY{s}, ".Lstb_c" . ($i + 1) . "(%rip)", $kx)
                . lp(\%ST, $ST{s}, undef, $yx);
        } else {
            # h' = X_13 ^ K_13 ^ h ^ m = L(P(S(Y_12) ^ S(Kc_12))) ^ (h ^ m)
            $r .= lp(\%ST, $ST{s}, $MT, $H);
        }
    }
    return $r;
}

# ---------------------------------------------------------------------------
# Entry points (SysV).  Only caller-saved registers are used; the chain's
# fields are at 0 (h), 64 (N) and 128 (Sigma) (STREEBOG_CHAIN).
sub load_gathers {
    return join('', map { "\tvmovdqa64\t.Lstb_gather" . (2 * $_) . "(%rip),$GIDX[$_]\n" } 0 .. 3);
}

# void streebog_gfni_avx512_blocks(STREEBOG_CHAIN *c, const unsigned char
#                                   *in, size_t nblocks)
$code .= function_begin("streebog_gfni_avx512_blocks");
$code .= "\ttest\t%rdx,%rdx\n\tjz\t.Lstb_blocks_ret\n" . load_gathers();
$code .= "\tvpermb\t(%rdi),$GIDX[0],$H\n";
$code .= ".p2align\t5\n.Lstb_blocks_loop:\n";
# N for this block, then N += 512 at once, so that the next block's load
# of the whole vector finds the stores long retired; Sigma += m.
$code .= "\tvpermb\t64(%rdi),$GIDX[0],$NT\n\tvpermb\t(%rsi),$GIDX[0],$MT\n";
$code .= "\taddq\t\$512,64(%rdi)\n";
$code .= "\tadcq\t\$0," . (64 + 8 * $_) . "(%rdi)\n" for 1 .. 7;
for my $w (0 .. 7) {
    $code .= "\tmov\t" . (8 * $w) . "(%rsi),%rax\n"
        . "\t" . ($w ? "adc" : "add") . "\t%rax," . (128 + 8 * $w) . "(%rdi)\n";
}
$code .= block();
$code .= <<"EOT";
	add	\$64,%rsi
	dec	%rdx
	jnz	.Lstb_blocks_loop
	vpermb	$H,$GIDX[0],$H
	vmovdqu64	$H,(%rdi)
	vzeroupper
.Lstb_blocks_ret:
	ret
EOT
$code .= function_end("streebog_gfni_avx512_blocks");

# void streebog_gfni_avx512_g(uint64_t h[8], const uint64_t N[8],
#                              const unsigned char m[64])
$code .= function_begin("streebog_gfni_avx512_g");
$code .= load_gathers();
$code .= "\tvpermb\t(%rdi),$GIDX[0],$H\n\tvpermb\t(%rsi),$GIDX[0],$NT\n"
    . "\tvpermb\t(%rdx),$GIDX[0],$MT\n";
$code .= block();
$code .= <<"EOT";
	vpermb	$H,$GIDX[0],$H
	vmovdqu64	$H,(%rdi)
	vzeroupper
	ret
EOT
$code .= function_end("streebog_gfni_avx512_g");

x86_64::finish($code);
