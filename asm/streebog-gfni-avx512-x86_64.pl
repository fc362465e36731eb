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
#    of every lane into lane i, and four VPSHUFD (in-lane, one cycle) swap
#    qwords for k = 1, 3, 5, 7;
#  - L: eight VGF2P8AFFINEQB apply M(i, i^k) to lane i of gather k, and
#    the result is already in T layout, so nothing moves back;
#  - the XOR of the eight, with the next round key or constant, in four
#    VPTERNLOGQ.
# A block has two chains, the key schedule K_{i+1} = LPS(K_i ^ C_i) and
# the state; by linearity X_{i+1} ^ K_{i+1} = L(P(S(X_i ^ K_i) ^ S(K_i ^
# C_i))), so the state chain carries Y_i = X_i ^ K_i and shares the key
# chain's S output (one XOR) instead of XORing the key after L: 25 S and
# 24 LP a block instead of 25 each, and the last round's two LP are one.
#
# Why this form on Zen 4 (measured here, core cycles): VGF2P8AFFINEQB zmm
# has latency 3 and issues once a cycle; VPERMB, VPERMT2B and VPSHUFB zmm
# latency 5 (VPSHUFB 2) and each holds both shuffle pipes a cycle;
# VPSHUFD, VPTERNLOGQ, VPBLENDMB latency 1 on other pipes.  A block's
# critical path is 13 rounds of the key chain (K_1 .. K_13), and a round
# of one chain alone takes 29-31 cycles (S about 8: the two VPERMT2B
# queue for the shuffle pipes; the gathers, the eight affine maps and the
# tree about 22); the state chain beside it makes that 35-38, because
# both chains reach S, the gathers and the affine maps together.  So the
# block is bound by that latency, not by issue: dropping S (timing only)
# takes a block from ~510 to ~260 cycles, dropping the affine maps
# changes little.  Tried and kept out, as they did not change the time:
# the S tables in registers instead of memory operands, a list scheduler
# ordering each block's operations for a pipe model of the core, the
# state chain carrying X_i ^ K_i on its own (not sharing the key chain's
# S output) so that the key chain could run ahead.  (Also counted, not
# built: qword rotations of a normal-layout S output, whose transposed
# result needs the next round done by VGF2P8MULB in the AES field, L being
# linear over GF(2^8)/0x11D, with in-lane byte shuffles; one chain alone
# was 26-27 cycles a round that way, two chains no faster.)
#
# Measured on the 2-vCPU AMD EPYC family 25 model 17 (Zen 4) KVM guest,
# TSC 2.6 GHz, core ~3.7 GHz, busy with other jobs; 16 KiB calls of the
# blocks entry, best of 200 (scratch harness), and 698 instructions a
# 64-byte block (10.9 a byte; streebog-c: 104 a byte by callgrind):
#
#   kernel                              TSC ticks/B
#   streebog-gfni-avx512                5.65-5.77
#   streebog-c (src/streebog.c, -O3)    15.7
#
# and through EVP in one make bench run (-a streebog -t 40 -l native,c),
# MB/s, init+update+final per call:
#
#   md_gost12_512    bytes   gfni-avx512   streebog-c   gostprov   gcrypt 1.10
#                    16      31.8 (3.15x)  12.9         10.1       13.1
#                    1024    367.7 (3.15x) 134.5        116.6      134.5
#                    16384   437.8 (3.13x) 158.7        140.0      158.8
#   md_gost12_256    16384   434.7 (3.14x) 158.6        138.6      158.7
#
# Botan 3.13's AVX-512 Streebog-512 was not run here (issue 27 quotes 263
# MB/s, 9.9 TSC ticks/B, on this kind of machine: 437.8 is 1.66 times
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
for my $k (0 .. 7) {
    $code .= ".Lstb_lmat$k:\n"
        . quad_lines(map { gf_matrix(l_block($_, $_ ^ $k)) } 0 .. 7);
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

# L(P(s)) as eight affine maps of the gathers, into the chain's g[0..7]
# (their XOR is the result, left to xor_tree).
sub lp {
    my ($c, $s) = @_;
    my $g = $c->{g};
    my $r = "";
    $r .= "\tvpermb\t$s,$GIDX[$_],$g->[2 * $_]\n" for 0 .. 3;
    $r .= "\tvpshufd\t\$0x4e,$g->[2 * $_],$g->[2 * $_ + 1]\n" for 0 .. 3;
    for my $k (0, 2, 4, 6, 1, 3, 5, 7) {
        $r .= "\tvgf2p8affineqb\t\$0,.Lstb_lmat$k(%rip),$g->[$k],$g->[$k]\n";
    }
    return $r;
}

# dst = XOR of g[0..7] and, if given, $extra (a register or memory
# operand): the gathers k = 0, 2, 4, 6 come a cycle before the others.
sub xor_tree {
    my ($c, $extra, $dst) = @_;
    my @g = @{ $c->{g} };
    my $r = "\tvpternlogq\t\$0x96,$g[4],$g[2],$g[0]\n";
    if (defined $extra) {
        $r .= "\tvpternlogq\t\$0x96,$extra,$g[1],$g[6]\n"
            . "\tvpternlogq\t\$0x96,$g[7],$g[5],$g[3]\n";
    } else {
        $r .= "\tvpternlogq\t\$0x96,$g[3],$g[1],$g[6]\n"
            . "\tvpxorq\t$g[7],$g[5],$g[3]\n";
    }
    return $r . "\tvpternlogq\t\$0x96,$g[3],$g[6],$g[0]\n"
        . "\tvmovdqa64\t$g[0],$dst\n";
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
    my @kg = @{ $KEY{g} };
    # K_1 = LPS(h ^ N); Y_1 = m ^ K_1; Kc_1 = K_1 ^ C_1
    $r .= "\tvpxorq\t$NT,$H,$kx\n";
    $r .= sbox(\%KEY) . lp(\%KEY, $KEY{s});
    $r .= <<"EOT";
	vpternlogq	\$0x96,$kg[4],$kg[2],$kg[0]
	vpternlogq	\$0x96,$kg[3],$kg[1],$kg[6]
	vpxorq	$kg[7],$kg[5],$kg[5]
	vpternlogq	\$0x96,$kg[5],$kg[6],$kg[0]
	vpxorq	$kg[0],$MT,$yx
	vpxorq	.Lstb_c1(%rip),$kg[0],$kx
	vpxorq	$MT,$H,$MT
EOT
    # rounds 1..11: Kc_{i+1} = L(P(S(Kc_i))) ^ C_{i+1},
    # Y_{i+1} = L(P(S(Y_i) ^ S(Kc_i)))
    for my $i (1 .. 12) {
        $r .= interleave(sbox(\%KEY), sbox(\%ST));
        $r .= "\tvpxorq\t$KEY{s},$ST{s},$ST{s}\n";
        if ($i < 12) {
            $r .= interleave(lp(\%KEY, $KEY{s}), lp(\%ST, $ST{s}));
            $r .= interleave(xor_tree(\%KEY, ".Lstb_c" . ($i + 1) . "(%rip)", $kx),
                             xor_tree(\%ST, undef, $yx));
        } else {
            # h' = X_13 ^ K_13 ^ h ^ m = L(P(S(Y_12) ^ S(Kc_12))) ^ (h ^ m)
            $r .= lp(\%ST, $ST{s}) . xor_tree(\%ST, $MT, $H);
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
