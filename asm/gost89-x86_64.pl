#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Patent note: EA021803B1 (Infotecs) claims GOST 28147-89 on SIMD platforms; ./Configure no-gost-simd leaves this file out.
#
# Vectorised GOST 28147-89 / Magma kernels for x86-64, behind the
# SMG_BLOCK_KERNEL contract of src/kernel.h: ECB, CTR (Magma), CNT
# (GOST 28147-89), CBC decryption and CFB decryption over whole 8-byte
# blocks, for both byte orders and every parameter set.  The serial modes
# (CBC and CFB encryption, OFB) are here for AVX-512 only, through its lean
# rounds once per block (constant-time; 78-81 MB/s through EVP at 16 KiB,
# the C kernel's 81-83, gostprov's 59-61): the "-ct" table that
# "constant-time = yes" picks.  By default both levels run them in the
# scalar table kernel of asm/gost89-serial-x86_64.pl (95-97 MB/s; AVX2's
# lean round is slower still for one block); src/gost89_x86.c wires the
# tables.
#
# Measured at 16 KiB calls on the development VM (AMD EPYC, Zen 4 class,
# AVX-512 VBMI; 2 shared cores, best of many runs), in TSC cycles per byte
# (TSC 2.6 GHz) and MB/s; gostprov 3.0.1 through EVP, CryptoPro-A / Z sets:
#
#   work          gostprov      C kernel     AVX2          AVX-512
#   ECB           (absent)      17.9  145    2.13  1216    1.14  2285
#   CTR (Magma)   41.9   62     18.0  144    2.14  1211    1.16  2246
#   CNT           41.5   63     18.2  143    2.16  1200    1.17  2214
#   CBC decrypt   36.6   71     17.6  147    2.15  1209    1.15  2266
#   CFB decrypt   44.7   58     18.1  143    2.15  1208    1.15  2267
#
# AVX-512 / gostprov: CBC-dec 32x, CNT 35x, Magma CTR 36x, CFB-dec 39x (ECB
# 32x gostprov's fastest mode); AVX2: 17x, 19x, 20x, 21x (ECB 17x).
# gostprov's figures are its best: it also runs at about 35 MB/s from one
# process to the next.
#
# Short calls are latency-bound: a call costs one pass of 32 rounds
# whatever its blocks.  So calls of up to 16 blocks (AVX-512) or 8 (AVX2)
# take a lean pass with the shortest round each ISA allows and nothing else
# set up (no stack, no transposes; AVX2 one-block calls without masks);
# every block count stays in the vector kernels, constant-time.  TSC ticks
# per call (2.6 GHz), in place, best of 6000:
#
#   blocks        1     2     8     16    32
#   AVX-512       212   211   217   269   407   (CTR; ECB/CBC/CFB in place
#   AVX2          368   386   376   758   736    ~50 more: masked stores)
#   C kernel      228   270   697   1382  2755
#   before        387   387   406   407   407   AVX-512 (1-2 blocks: C)
#                 737   753   754   749   740   AVX2 (1-4 blocks: C)
#
# Through EVP, MB/s at 8-byte / 16-byte updates (best of 20 rounds of CPU
# time), against gostprov in the same process:
#
#                 gost89 (CFB-dec)  CNT          Magma CTR    CBC-dec (gost89)
#   AVX-512       92.6 / 180        92.7 / 181   97.0 / 194   96.7 / 194
#   AVX2          53.6 / 98         55.3 / 103   53.3 / 101   54.9 / 105
#   gostprov      50.6 / 56         50.5 / 56    48.6 / 55    60.1 / 65
#
# AVX2 one-block calls lose to gostprov's gost89-cbc decryption (-9%): the
# lean round is ~15 cycles, held there by eight lookups and three shifts
# per round on Zen 4's two shuffle pipes; other layouts tried (combined
# nibble tables, lane folds, VPBLENDVB selection) measured no better.
#
# AVX-512 (F, BW, VBMI): one 32-bit half-block per dword lane, 16 blocks per
# pair of zmm registers, four pairs interleaved.  Each half h is held as
# ror(h, 11) during the rounds; a round on one pair is
#   t = rol(n1, 11) + k (VPROLD, VPADDD with the key broadcast from memory)
#   index of the low nibbles  = (t & 0x0f) | (byte position << 4)
#   index of the high nibbles = ((t >> 4) & 0x0f) | (byte position << 4)
#   two VPERMB through 64-byte tables (simd[0..63], simd[64..127]) that
#   hold, per byte position j, S[2j] in the low nibble and S[2j+1] in the
#   high nibble of the result, then n2 ^= lo | hi in one VPTERNLOGD:
# eight instructions, no memory index and no branch derived from data or key.
# A batch takes 64 blocks (4 pairs); the rest goes in one pass with masked
# loads and stores (33..63 blocks on 4 pairs, 17..32 on 2, 1..16 lean).
# Blocks enter and leave the half-block form through VPERMI2B with index
# vectors that also do Magma's byte reversal.
#
# AVX2: the same dword lanes, 8 blocks per pair of ymm registers, four pairs
# to a group of 32 blocks, two groups interleaved.  VPSHUFB looks up 16 entries per 128-bit lane, the same for
# every byte, so after the key addition the four registers of a group are
# transposed (VPSHUFB inside lanes, then a 4x4 dword transpose) into four
# registers that each hold one byte position of 32 blocks.  Each is looked up
# through three 16-entry tables of its position (simd[128..319]):
#   A(lo) = S[2j](lo) << 3, A(hi) = (S[2j+1](hi) << 7) & 0xff,
#   B(hi) = S[2j+1](hi) >> 1
# so that byte j of rol(S(t), 11) is A_j | B_{j-1} after a rotation by one
# byte: the rotation by 11 costs no shift.  The transpose back (with that
# byte rotation folded into its VPSHUFB) returns to dword lanes for the XOR.
# A batch takes 64 blocks; the rest goes in one pass with VPMASKMOVQ (1..8
# blocks: the lean pass).
#
# GOST R 34.11-94 (src/gost94.c) encrypts four blocks a step, each under
# its own key, and the next step's keys wait for their result: one chain
# of 32 rounds, latency all there is.  gost89_avx512_ecb4k and
# gost89_avx2_ecb4k run it as the lean rounds on one xmm pair (a block per
# dword lane), the round key added per lane from a row of the caller's
# key words.  md_gost94 through EVP at 16 KiB (Zen 4, family 25 model 17,
# make bench, 2026-12-07): 180.0 MB/s over gost89_avx512_ecb4k, 6.1 times
# gostprov's 29.4 and 3.1 times libgcrypt 1.10's 58.0; the AVX2 entry
# gave 140.5 MB/s hashing 16 KiB below the provider where four
# interleaved chains of C table lookups gave 147.0, so it runs only for
# "constant-time = yes".

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;

x86_64::setup(@ARGV);

# Offsets fixed by src/gost89.h; src/gost89_x86.c checks them at compile time.
my $KEY_TAB  = 128;     # offsetof(GOST89_KEY, tab)
my $KEY_BE   = 136;     # offsetof(GOST89_KEY, big_endian)
my $TAB_SIMD = 4096;    # offsetof(GOST89_SBOX_TABLES, simd)

my $C1 = 0x01010104;    # RFC 5830 section 6: N4 step, mod 2^32 - 1
my $C2 = 0x01010101;    # N3 step, mod 2^32

my $code = "";

# SysV arguments of every entry.
my ($ks, $in, $out, $n, $iv) = ("%rdi", "%rsi", "%rdx", "%rcx", "%r8");

##########################################################################
# AVX-512
#
# zmm0..7: state, pair p in zmm(2p) (n1) and zmm(2p+1) (n2)
# zmm8..15: round temporaries, free outside the rounds
# zmm16..23: blocks as in memory (8 per register), also the outputs
# zmm24..31: constants loaded at entry
my ($TLO, $THI, $M0F, $POS) = map { "%zmm$_" } (31, 30, 29, 28);
my ($PX, $PY, $PA, $PB) = map { "%zmm$_" } (27, 26, 25, 24);

sub z { "%zmm$_[0]" }

# Inside the rounds each half h is held as ror(h, 11): the round's XOR
# then takes S(t) unrotated, merged with the OR of the two lookups into one
# VPTERNLOGD, and the one rotation left is that of the half read.
# One round on the pairs given: $dst ^= f($src + k), k at $koff(%r11).
sub round512 {
    my ($koff, $dir, @pairs) = @_;
    my $s = "";
    my @src = map { z(2 * $_ + $dir) } @pairs;
    my @dst = map { z(2 * $_ + 1 - $dir) } @pairs;
    my @t = map { z(8 + 2 * $_) } @pairs;
    my @u = map { z(9 + 2 * $_) } @pairs;
    for my $i (0 .. $#pairs) { $s .= "\tvprold\t\$11,$src[$i],$t[$i]\n"; }
    for my $i (0 .. $#pairs) { $s .= "\tvpaddd\t$koff(%r11){1to16},$t[$i],$t[$i]\n"; }
    for my $i (0 .. $#pairs) { $s .= "\tvpsrld\t\$4,$t[$i],$u[$i]\n"; }
    # (t & 0x0f) | position: ternary-logic truth table 0xea = (A & B) | C
    for my $i (0 .. $#pairs) { $s .= "\tvpternlogd\t\$0xea,$POS,$M0F,$t[$i]\n"; }
    for my $i (0 .. $#pairs) { $s .= "\tvpternlogd\t\$0xea,$POS,$M0F,$u[$i]\n"; }
    for my $i (0 .. $#pairs) { $s .= "\tvpermb\t$TLO,$t[$i],$t[$i]\n"; }
    for my $i (0 .. $#pairs) { $s .= "\tvpermb\t$THI,$u[$i],$u[$i]\n"; }
    # dst ^= t | u: truth table 0x1e = A ^ (B | C)
    for my $i (0 .. $#pairs) { $s .= "\tvpternlogd\t\$0x1e,$u[$i],$t[$i],$dst[$i]\n"; }
    return $s;
}

# 32 rounds on $np pairs; key schedule at (%rdi); clobbers r10, r11.
sub rounds512 {
    my ($name, $np) = @_;
    my @pairs = (0 .. $np - 1);
    my $s = local_function_begin($name);
    $s .= "\tvprord\t\$11," . z($_) . "," . z($_) . "\n" for 0 .. 2 * $np - 1;
    $s .= "\tmov\t%rdi,%r11\n\tmov\t\$8,%r10d\n.L${name}_loop:\n";
    $s .= round512(0, 0, @pairs) . round512(4, 1, @pairs)
        . round512(8, 0, @pairs) . round512(12, 1, @pairs);
    $s .= "\tadd\t\$16,%r11\n\tdec\t%r10d\n\tjnz\t.L${name}_loop\n";
    $s .= "\tvprold\t\$11," . z($_) . "," . z($_) . "\n" for 0 .. 2 * $np - 1;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= text_begin();
$code .= rounds512("gost89_avx512_rounds4", 4);
$code .= rounds512("gost89_avx512_rounds2", 2);

# Register q of memory-form blocks (q = 0..7).  In a masked batch the
# registers from $QF on carry the masks k1, k2, ... (those before are full).
my $QF = 0;
sub mreg { z(16 + $_[0]) }
sub mk { $_[0] && $_[1] >= $QF ? "{%k" . ($_[1] - $QF + 1) . "}" : "" }
sub mkz { my $k = mk(@_); $k ? "$k\{z\}" : "" }

# Memory form (zmm16..) -> half-block form (zmm0..), $np pairs.
sub to_halves {
    my ($np) = @_;
    my $s = "";
    for my $p (0 .. $np - 1) {
        my ($a, $b) = (mreg(2 * $p), mreg(2 * $p + 1));
        $s .= "\tvmovdqa64\t$PX," . z(2 * $p) . "\n";
        $s .= "\tvpermi2b\t$b,$a," . z(2 * $p) . "\n";
        $s .= "\tvmovdqa64\t$PY," . z(2 * $p + 1) . "\n";
        $s .= "\tvpermi2b\t$b,$a," . z(2 * $p + 1) . "\n";
    }
    return $s;
}

# Half-block form after the rounds -> memory form in zmm16..: the block
# leaves as (n2, n1), the last round having no swap.
sub from_halves {
    my ($np) = @_;
    my $s = "";
    for my $p (0 .. $np - 1) {
        my ($x, $y) = (z(2 * $p), z(2 * $p + 1));
        $s .= "\tvmovdqa64\t$PA," . mreg(2 * $p) . "\n";
        $s .= "\tvpermi2b\t$x,$y," . mreg(2 * $p) . "\n";
        $s .= "\tvmovdqa64\t$PB," . mreg(2 * $p + 1) . "\n";
        $s .= "\tvpermi2b\t$x,$y," . mreg(2 * $p + 1) . "\n";
    }
    return $s;
}

# Loads the tables and the permutation indices.  $in_order picks the index
# set that brings blocks in: "key" (the key's byte order), "swap" (the
# other: CTR builds its counters as integers, byte-reversed relative to
# their big-endian memory form) or "le" (CNT builds (n1, n2) directly).
sub prologue512 {
    my ($in_order) = @_;
    my $s = "";
    $s .= "\tmov\t$KEY_TAB($ks),%rax\n";
    $s .= "\tvmovdqu64\t$TAB_SIMD(%rax),$TLO\n";
    $s .= "\tvmovdqu64\t" . ($TAB_SIMD + 64) . "(%rax),$THI\n";
    $s .= "\tvpbroadcastd\t.Lg_m0f(%rip),$M0F\n";
    $s .= "\tvpbroadcastd\t.Lg_pos(%rip),$POS\n";
    $s .= "\tmov\t$KEY_BE($ks),%eax\n\tand\t\$1,%eax\n\tshl\t\$8,%eax\n";
    $s .= "\tlea\t.Lg_perm512(%rip),%r9\n";
    $s .= "\tvmovdqa64\t128(%r9,%rax),$PA\n\tvmovdqa64\t192(%r9,%rax),$PB\n";
    $s .= "\txor\t\$256,%eax\n" if $in_order eq "swap";
    $s .= "\txor\t%eax,%eax\n" if $in_order eq "le";
    $s .= "\tvmovdqa64\t0(%r9,%rax),$PX\n\tvmovdqa64\t64(%r9,%rax),$PY\n";
    return $s;
}

# CNT keeps (N3, N4) as the block's halves n1, n2, in the key's byte order
# like any block; inside, the state is held little-endian.
sub cnt_state_order {
    my ($label) = @_;
    return "\ttestl\t\$1,$KEY_BE($ks)\n\tjz\t$label\n"
        . "\tmov\t($iv),%rax\n\tbswap\t%rax\n\tmov\t%rax,($iv)\n$label:\n";
}

# k1.. = masks of blocks 8*$QF .. %ecx-1 (the batch holds %ecx blocks, at
# most 16 * np, more than 8 * $QF).
sub masks {
    my ($np) = @_;
    my $s = "\tmov\t%ecx,%r9d\n";
    $s .= "\tsub\t\$" . (8 * $QF) . ",%ecx\n" if $QF;
    $s .= "\tmov\t\$1,%eax\n\tshl\t%cl,%rax\n\tdec\t%rax\n\tkmovq\t%rax,%k1\n\tmov\t%r9d,%ecx\n";
    for my $q (1 .. 2 * $np - 1 - $QF) { $s .= "\tkshiftrq\t\$" . (8 * $q) . ",%k1,%k" . ($q + 1) . "\n"; }
    return $s;
}

sub load_in {
    my ($np, $m, $bias) = @_;
    my $s = "";
    for my $q (0 .. 2 * $np - 1) {
        $s .= "\tvmovdqu64\t" . (64 * $q + $bias) . "($in)," . mreg($q) . mkz($m, $q) . "\n";
    }
    return $s;
}

sub store_out {
    my ($np, $m) = @_;
    my $s = "";
    for my $q (0 .. 2 * $np - 1) { $s .= "\tvmovdqu64\t" . mreg($q) . ",\t" . (64 * $q) . "($out)" . mk($m, $q) . "\n"; }
    return $s;
}

sub xor_in {
    my ($np, $m, $bias) = @_;
    my $s = "";
    for my $q (0 .. 2 * $np - 1) {
        if ($m) {
            $s .= "\tvmovdqu64\t" . (64 * $q + $bias) . "($in),%zmm8" . mkz($m, $q) . "\n";
            $s .= "\tvpxorq\t%zmm8," . mreg($q) . "," . mreg($q) . "\n";
        } else {
            $s .= "\tvpxorq\t" . (64 * $q + $bias) . "($in)," . mreg($q) . "," . mreg($q) . "\n";
        }
    }
    return $s;
}

# The previous ciphertext of each block (CBC, CFB): register 0 takes the
# chaining value into lane 0, the others read 8 bytes back.  Into zmm16..
# when $dst is 0, else XORed into the outputs through zmm8/zmm9.
sub prev_blocks {
    my ($np, $m, $xor) = @_;
    my $s = "\tvpbroadcastq\t($iv),%zmm9\n";
    $s .= "\tvmovdqu64\t($in),%zmm8" . mkz($m, 0) . "\n";
    $s .= "\tvalignq\t\$7,%zmm9,%zmm8,%zmm8\n";
    $s .= $xor ? "\tvpxorq\t%zmm8,%zmm16,%zmm16\n" : "\tvmovdqa64\t%zmm8,%zmm16\n";
    for my $q (1 .. 2 * $np - 1) {
        my $src = (64 * $q - 8) . "($in)";
        if ($xor) {
            if ($m) {
                $s .= "\tvmovdqu64\t$src,%zmm8" . mkz($m, $q) . "\n\tvpxorq\t%zmm8," . mreg($q) . "," . mreg($q) . "\n";
            } else {
                $s .= "\tvpxorq\t$src," . mreg($q) . "," . mreg($q) . "\n";
            }
        } else {
            $s .= "\tvmovdqu64\t$src," . mreg($q) . mkz($m, $q) . "\n";
        }
    }
    return $s;
}

# One batch: $np pairs, masked ($m) to %ecx blocks or full.  The last
# ciphertext block becomes the chaining value before anything is stored
# (in and out may be the same buffer).
sub batch512 {
    my ($mode, $np, $m, $rounds) = @_;
    $rounds //= "\tcall\tgost89_avx512_rounds$np\n";
    my $nb = 16 * $np;
    my $s = "";
    $s .= masks($np) if $m;
    if ($mode eq "ecb") {
        $s .= load_in($np, $m, 0) . to_halves($np) . $rounds . from_halves($np);
    } elsif ($mode eq "cbc_dec") {
        $s .= load_in($np, $m, 0) . to_halves($np) . $rounds . from_halves($np);
        $s .= prev_blocks($np, $m, 1);
        $s .= $m ? "\tmov\t-8($in,%rcx,8),%rax\n" : "\tmov\t" . (8 * $nb - 8) . "($in),%rax\n";
        $s .= "\tmov\t%rax,($iv)\n";
    } elsif ($mode eq "cfb_dec") {
        $s .= prev_blocks($np, $m, 0) . to_halves($np) . $rounds . from_halves($np);
        $s .= xor_in($np, $m, 0);
        $s .= $m ? "\tmov\t-8($in,%rcx,8),%rax\n" : "\tmov\t" . (8 * $nb - 8) . "($in),%rax\n";
        $s .= "\tmov\t%rax,($iv)\n";
    } elsif ($mode eq "ctr") {
        # counters ctr + 0 .. ctr + nb-1 as integers; ctr += blocks done
        $s .= "\tmov\t($iv),%rax\n\tbswap\t%rax\n\tvpbroadcastq\t%rax,%zmm8\n";
        $s .= "\tvpaddq\t.Lg_qidx(%rip),%zmm8,%zmm16\n";
        for my $q (1 .. 2 * $np - 1) {
            $s .= "\tvpaddq\t.Lg_q8(%rip){1to8}," . mreg($q - 1) . "," . mreg($q) . "\n";
        }
        $s .= $m ? "\tadd\t%rcx,%rax\n" : "\tadd\t\$$nb,%rax\n";
        $s .= "\tbswap\t%rax\n\tmov\t%rax,($iv)\n";
        $s .= to_halves($np) . $rounds . from_halves($np) . xor_in($np, $m, 0);
    } elsif ($mode eq "cnt") {
        # block j takes (N3 + (j+1)C2, N4 + (j+1)C1 mod 2^32-1): the table
        # holds both steps; N4's end-around carry is added where the sum
        # wrapped (the step is never 0 for j < 64)
        $s .= "\tvpbroadcastq\t($iv),%zmm8\n\tvpternlogd\t\$0xff,%zmm9,%zmm9,%zmm9\n";
        for my $q (0 .. 2 * $np - 1) {
            my $c = ".Lg_cnt+" . (64 * $q) . "(%rip)";
            $s .= "\tvpaddd\t$c,%zmm8," . mreg($q) . "\n";
            $s .= "\tvpcmpud\t\$1,$c," . mreg($q) . ",%k6{%k7}\n";
            $s .= "\tvpsubd\t%zmm9," . mreg($q) . "," . mreg($q) . "{%k6}\n";
        }
        $s .= $m ? "\tmov\t%ecx,%r9d\n" : "\tmov\t\$$nb,%r9d\n";
        $s .= "\tlea\t.Lg_cnt(%rip),%r10\n";
        $s .= "\tmov\t($iv),%eax\n\tmov\t-8(%r10,%r9,8),%r11d\n\tadd\t%r11d,%eax\n\tmov\t%eax,($iv)\n";
        $s .= "\tmov\t4($iv),%eax\n\tadd\t-4(%r10,%r9,8),%eax\n\tadc\t\$0,%eax\n\tmov\t%eax,4($iv)\n";
        $s .= to_halves($np) . $rounds . from_halves($np) . xor_in($np, $m, 0);
    }
    $s .= store_out($np, $m);
    return $s;
}

# Full batches of 64 blocks, then one masked batch: 33..63 blocks with the
# second half masked, or 1..32 blocks on two pairs.
sub entry512 {
    my ($mode) = @_;
    my $name = "gost89_avx512_${mode}";
    my $s = function_begin($name);
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_done\n";
    $s .= "\tcmp\t\$16,$n\n\tja\t.L${name}_wide\n";
    $s .= cnt_state_order(".L${name}_lin") if $mode eq "cnt";
    $s .= "\tcmp\t\$8,$n\n\tja\t.L${name}_lean2\n";
    $s .= lean_pass512($mode, 1) . "\tjmp\t.L${name}_lean_end\n";
    $s .= ".L${name}_lean2:\n" . lean_pass512($mode, 2);
    $s .= ".L${name}_lean_end:\n";
    $s .= cnt_state_order(".L${name}_lout") if $mode eq "cnt";
    $s .= "\tvzeroupper\n\tret\n.L${name}_wide:\n";
    $s .= prologue512($mode eq "ctr" ? "swap" : $mode eq "cnt" ? "le" : "key");
    if ($mode eq "cnt") {
        $s .= "\tmov\t\$0xaaaa,%eax\n\tkmovw\t%eax,%k7\n";
        $s .= cnt_state_order(".L${name}_in");
    }
    $s .= "\tcmp\t\$64,$n\n\tjb\t.L${name}_tail\n";
    $s .= ".L${name}_full:\n";
    $s .= batch512($mode, 4, 0);
    $s .= "\tadd\t\$512,$in\n\tadd\t\$512,$out\n\tsub\t\$64,$n\n";
    $s .= "\tcmp\t\$64,$n\n\tjae\t.L${name}_full\n";
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_end\n";
    $s .= ".L${name}_tail:\n";
    $s .= "\tcmp\t\$32,$n\n\tjbe\t.L${name}_last\n";
    $QF = 4;
    $s .= batch512($mode, 4, 1);
    $s .= "\tjmp\t.L${name}_end\n";
    $s .= ".L${name}_last:\n";
    $QF = 0;
    $s .= batch512($mode, 2, 1);
    $s .= ".L${name}_end:\n";
    $s .= cnt_state_order(".L${name}_out") if $mode eq "cnt";
    $s .= "\tvzeroupper\n";
    $s .= ".L${name}_done:\n\tret\n";
    $s .= function_end($name);
    return $s;
}

# Lean pass, for calls of up to 16 blocks: one or two pairs of ymm
# registers (8 blocks each) with nothing else set up.  The round is that of
# the batches, with the 64-entry lookup as a two-table VPERMI2B on ymm (4
# cycles on Zen 4, where the zmm VPERMB takes 5): about 10 cycles a round.
#
# ymm0..3: n1/n2 of pair 0 and 1; ymm4..7 round temporaries; ymm13/14 the
# nibble mask and the byte positions; ymm16, 17, 22, 23 blocks as in
# memory (4 blocks each); ymm18..21 the tables (simd[0..127] in 32-byte
# quarters); ymm26..29 the VPERMI2B index vectors; ymm30/31 scratch of the
# modes.
my ($LPX, $LPY, $LPA, $LPB) = map { "%ymm$_" } 26 .. 29;
my @LM = (16, 17, 22, 23);
sub ly { "%ymm$_[0]" }

# One lean round on $np pairs: $dst ^= f($src + k), k at $koff(%r11).
sub lean_round512 {
    my ($koff, $dir, $np) = @_;
    my ($m0f, $pos) = map { ly($_) } 13, 14;
    my @lines;
    for my $p (0 .. $np - 1) {
        my ($src, $dst) = map { ly(2 * $p + $_) } $dir ? (1, 0) : (0, 1);
        my ($t, $u) = map { ly(4 + 2 * $p + $_) } 0, 1;
        push @lines, [ split /^/, <<"EOT" ];
	vprold	\$11,$src,$t
	vpaddd	$koff(%r11){1to8},$t,$t
	vpsrld	\$4,$t,$u
	vpternlogd	\$0xea,$pos,$m0f,$t
	vpternlogd	\$0xea,$pos,$m0f,$u
	vpermi2b	%ymm19,%ymm18,$t
	vpermi2b	%ymm21,%ymm20,$u
	vpternlogd	\$0x1e,$u,$t,$dst
EOT
    }
    my $s = "";
    while (grep { @$_ } @lines) { $s .= shift @$_ // '' for @lines; }
    return $s;
}

# $nr (32, or IMIT's 16) lean rounds on $np pairs; key schedule and tables
# from (%rdi); clobbers rax, r10, r11.
sub lean_rounds512 {
    my ($np, $nr) = @_;
    my $name = "gost89_avx512_lean$np" . ($nr == 32 ? "" : "_$nr");
    my $s = local_function_begin($name);
    $s .= "\tmov\t$KEY_TAB($ks),%rax\n";
    $s .= "\tvmovdqu64\t" . ($TAB_SIMD + 32 * $_) . "(%rax)," . ly(18 + $_) . "\n"
        for 0 .. 3;
    $s .= "\tvpbroadcastd\t.Lg_m0f(%rip)," . ly(13) . "\n"
        . "\tvpbroadcastd\t.Lg_pos(%rip)," . ly(14) . "\n";
    $s .= "\tvprord\t\$11," . ly($_) . "," . ly($_) . "\n" for 0 .. 2 * $np - 1;
    $s .= "\tmov\t%rdi,%r11\n\tmov\t\$" . ($nr / 4) . ",%r10d\n.L${name}_loop:\n";
    $s .= lean_round512(4 * $_, $_ & 1, $np) for 0 .. 3;
    $s .= "\tadd\t\$16,%r11\n\tdec\t%r10d\n\tjnz\t.L${name}_loop\n";
    $s .= "\tvprold\t\$11," . ly($_) . "," . ly($_) . "\n" for 0 .. 2 * $np - 1;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= lean_rounds512(1, 32) . lean_rounds512(2, 32) . lean_rounds512(1, 16);

# The lean pass of one mode over the %rcx (at most 8 $np) blocks at in:
# k1.. mask the memory registers (4 blocks each).  The input byte order as
# for prologue512.
sub lean_pass512 {
    my ($mode, $np) = @_;
    my $in_order = $mode eq "ctr" ? "swap" : $mode eq "cnt" ? "le" : "key";
    my @m = map { ly($LM[$_]) } 0 .. 2 * $np - 1;
    my $mk = sub { "{%k" . ($_[0] + 1) . "}" };
    my ($x, $y) = map { ly($_) } 30, 31;
    my $s = "";
    # index vectors: 128 bytes per byte order (PX, PY, PA, PB)
    $s .= "\tmov\t$KEY_BE($ks),%eax\n\tand\t\$1,%eax\n\tshl\t\$7,%eax\n";
    $s .= "\tlea\t.Lg_lean_perm(%rip),%r9\n";
    $s .= "\tvmovdqa64\t64(%r9,%rax),$LPA\n\tvmovdqa64\t96(%r9,%rax),$LPB\n";
    $s .= "\txor\t\$128,%eax\n" if $in_order eq "swap";
    $s .= "\txor\t%eax,%eax\n" if $in_order eq "le";
    $s .= "\tvmovdqa64\t0(%r9,%rax),$LPX\n\tvmovdqa64\t32(%r9,%rax),$LPY\n";
    $s .= "\tmov\t\$1,%eax\n\tshl\t%cl,%eax\n\tdec\t%eax\n\tkmovd\t%eax,%k1\n";
    $s .= "\tkshiftrd\t\$" . (4 * $_) . ",%k1,%k" . ($_ + 1) . "\n"
        for 1 .. 2 * $np - 1;
    # $op on the previous ciphertext of each block (iv first) and m[q]
    my $prev = sub {
        my ($op) = @_;
        my $r = "\tvpbroadcastq\t($iv),$y\n\tvmovdqu64\t($in),$x" . $mk->(0)
            . "{z}\n\tvalignq\t\$3,$y,$x,$x\n" . $op->($x, $m[0]);
        for my $q (1 .. $#m) {
            $r .= "\tvmovdqu64\t" . (32 * $q - 8) . "($in),$x" . $mk->($q)
                . "{z}\n" . $op->($x, $m[$q]);
        }
        return $r;
    };
    my $mov = sub { "\tvmovdqa64\t$_[0],$_[1]\n" };
    my $xor = sub { "\tvpxorq\t$_[0],$_[1],$_[1]\n" };
    if ($mode eq "ecb" || $mode eq "cbc_dec") {
        $s .= "\tvmovdqu64\t" . (32 * $_) . "($in),$m[$_]" . $mk->($_) . "{z}\n"
            for 0 .. $#m;
    } elsif ($mode eq "cfb_dec") {
        $s .= $prev->($mov);
    } elsif ($mode eq "ctr") {
        $s .= "\tmov\t($iv),%rax\n\tbswap\t%rax\n\tvpbroadcastq\t%rax,$x\n";
        $s .= "\tvpaddq\t.Lg2_qidx+" . (32 * $_) . "(%rip),$x,$m[$_]\n"
            for 0 .. $#m;
        $s .= "\tadd\t%rcx,%rax\n\tbswap\t%rax\n\tmov\t%rax,($iv)\n";
    } else {
        # as batch512: N3 += (j+1) C2, N4 += (j+1) C1 mod 2^32 - 1
        $s .= "\tvpbroadcastq\t($iv),$x\n\tvpternlogd\t\$0xff,$y,$y,$y\n"
            . "\tmov\t\$0xaa,%eax\n\tkmovd\t%eax,%k7\n";
        for my $q (0 .. $#m) {
            my $c = ".Lg_cnt+" . (32 * $q) . "(%rip)";
            $s .= "\tvpaddd\t$c,$x,$m[$q]\n\tvpcmpud\t\$1,$c,$m[$q],%k6{%k7}\n"
                . "\tvpsubd\t$y,$m[$q],$m[$q]\{%k6}\n";
        }
        $s .= "\tlea\t.Lg_cnt(%rip),%r10\n"
            . "\tmov\t($iv),%eax\n\tadd\t-8(%r10,%rcx,8),%eax\n\tmov\t%eax,($iv)\n"
            . "\tmov\t4($iv),%eax\n\tadd\t-4(%r10,%rcx,8),%eax\n\tadc\t\$0,%eax\n"
            . "\tmov\t%eax,4($iv)\n";
    }
    # to the half-block form, the rounds, back
    for my $p (0 .. $np - 1) {
        my ($a, $b) = @m[2 * $p, 2 * $p + 1];
        $s .= "\tvmovdqa64\t$LPX," . ly(2 * $p) . "\n\tvpermi2b\t$b,$a," . ly(2 * $p) . "\n"
            . "\tvmovdqa64\t$LPY," . ly(2 * $p + 1) . "\n\tvpermi2b\t$b,$a," . ly(2 * $p + 1) . "\n";
    }
    $s .= "\tcall\tgost89_avx512_lean$np\n";
    for my $p (0 .. $np - 1) {
        my ($a, $b) = @m[2 * $p, 2 * $p + 1];
        my ($n1, $n2) = (ly(2 * $p), ly(2 * $p + 1));
        $s .= "\tvmovdqa64\t$LPA,$a\n\tvpermi2b\t$n1,$n2,$a\n"
            . "\tvmovdqa64\t$LPB,$b\n\tvpermi2b\t$n1,$n2,$b\n";
    }
    if ($mode eq "cbc_dec") {
        $s .= $prev->($xor);
    } elsif ($mode ne "ecb") {
        $s .= "\tvmovdqu64\t" . (32 * $_) . "($in),$x" . $mk->($_) . "{z}\n"
            . $xor->($x, $m[$_]) for 0 .. $#m;
    }
    if ($mode eq "cbc_dec" || $mode eq "cfb_dec") {
        $s .= "\tmov\t-8($in,%rcx,8),%rax\n\tmov\t%rax,($iv)\n";
    }
    $s .= "\tvmovdqu64\t$m[$_]," . (32 * $_) . "($out)" . $mk->($_) . "\n"
        for 0 .. $#m;
    return $s;
}

$code .= entry512($_) for qw(ecb ctr cnt cbc_dec cfb_dec);

# CNT and CFB decryption of whole 64-block batches with a side pass: while
# the first batch runs, five more blocks ride through the same rounds in a
# fifth pair (zmm16/17, free during the rounds; temporaries zmm18/19):
# lanes 0..3 under the decryption schedule of another key, lane 4 under
# its encryption schedule, by two masked key additions (k4, k5).  That is
# CryptoPro key meshing one period ahead (src/gost89_x86.c): a lone block
# through the lean rounds waits out their latency, here it fills the
# batch's issue slots.  Arguments as the entries above, then GOST89_SIDE *
# in r9 (enc and dec pointers, 40 bytes in, 40 out; blocks in the GOST
# 28147-89 byte order); nblocks a multiple of 64.
sub side_round512 {
    my ($koff, $dir) = @_;
    my ($src, $dst) = $dir ? ("%zmm17", "%zmm16") : ("%zmm16", "%zmm17");
    return <<"EOT";
	vprold	\$11,$src,%zmm18
	vpaddd	$koff(%r11,%r12){1to16},%zmm18,%zmm18{%k4}
	vpaddd	$koff(%r11,%r13){1to16},%zmm18,%zmm18{%k5}
	vpsrld	\$4,%zmm18,%zmm19
	vpternlogd	\$0xea,$POS,$M0F,%zmm18
	vpternlogd	\$0xea,$POS,$M0F,%zmm19
	vpermb	$TLO,%zmm18,%zmm18
	vpermb	$THI,%zmm19,%zmm19
	vpternlogd	\$0x1e,%zmm19,%zmm18,$dst
EOT
}

{
    my $name = "gost89_avx512_rounds4s";
    my @pairs = (0 .. 3);
    my @regs = ((map { z($_) } 0 .. 7), "%zmm16", "%zmm17");
    my $s = local_function_begin($name);
    $s .= "\tvprord\t\$11,$_,$_\n" for @regs;
    $s .= "\tmov\t%rdi,%r11\n\tmov\t\$8,%r10d\n.L${name}_loop:\n";
    $s .= round512(4 * $_, $_ & 1, @pairs) . side_round512(4 * $_, $_ & 1) for 0 .. 3;
    $s .= "\tadd\t\$16,%r11\n\tdec\t%r10d\n\tjnz\t.L${name}_loop\n";
    $s .= "\tvprold\t\$11,$_,$_\n" for @regs;
    $code .= $s . "\tret\n" . local_function_end($name);
}

sub entry512_side {
    my ($mode) = @_;
    my $name = "gost89_avx512_${mode}_side";
    my $side = <<"EOT";
	mov	\$0x1f,%eax
	kmovw	%eax,%k3
	vmovdqu64	16(%rbx),%zmm18{%k3}{z}
	vmovdqu64	.Lg_perm512(%rip),%zmm16
	vmovdqu64	.Lg_perm512+64(%rip),%zmm17
	vpermi2b	%zmm18,%zmm18,%zmm16
	vpermi2b	%zmm18,%zmm18,%zmm17
	call	gost89_avx512_rounds4s
	vmovdqu64	.Lg_perm512+128(%rip),%zmm8
	vpermi2b	%zmm16,%zmm17,%zmm8
	vmovdqu64	%zmm8,56(%rbx){%k3}
EOT
    my $s = function_begin($name);
    $s .= "\tpush\t%rbx\n\tpush\t%r12\n\tpush\t%r13\n";
    # the side keys as offsets from the batch's schedule pointer
    $s .= "\tmov\t0(%r9),%r13\n\tmov\t8(%r9),%r12\n\tmov\t%r9,%rbx\n"
        . "\tsub\t%rdi,%r13\n\tsub\t%rdi,%r12\n"
        . "\tmov\t\$0xf,%eax\n\tkmovw\t%eax,%k4\n\tmov\t\$0x10,%eax\n\tkmovw\t%eax,%k5\n";
    $s .= prologue512($mode eq "cnt" ? "le" : "key");
    if ($mode eq "cnt") {
        $s .= "\tmov\t\$0xaaaa,%eax\n\tkmovw\t%eax,%k7\n";
        $s .= cnt_state_order(".L${name}_in");
    }
    $s .= batch512($mode, 4, 0, $side);
    $s .= "\tadd\t\$512,$in\n\tadd\t\$512,$out\n\tsub\t\$64,$n\n";
    $s .= "\tjz\t.L${name}_end\n.L${name}_full:\n";
    $s .= batch512($mode, 4, 0);
    $s .= "\tadd\t\$512,$in\n\tadd\t\$512,$out\n\tsub\t\$64,$n\n";
    $s .= "\tjnz\t.L${name}_full\n.L${name}_end:\n";
    $s .= cnt_state_order(".L${name}_out") if $mode eq "cnt";
    $s .= "\tvzeroupper\n\tpop\t%r13\n\tpop\t%r12\n\tpop\t%rbx\n\tret\n";
    return $s . function_end($name);
}

$code .= entry512_side($_) for qw(cnt cfb_dec);
# Serial modes (CBC and CFB encryption, OFB): the one-pair lean rounds
# once per block, the chaining block in xmm30; as fast as the C kernel's
# table rounds and, unlike them, constant-time.
sub serial512 {
    my ($mode) = @_;
    my $name = "gost89_avx512_${mode}";
    my ($m0, $c, $p) = map { ly($_) } 16, 30, 31;
    my ($cx, $px) = ('%xmm30', '%xmm31');
    my $s = function_begin($name);
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_done\n";
    $s .= "\tmov\t$KEY_BE($ks),%eax\n\tand\t\$1,%eax\n\tshl\t\$7,%eax\n"
        . "\tlea\t.Lg_lean_perm(%rip),%r9\n";
    $s .= "\tvmovdqa64\t" . (32 * $_) . "(%r9,%rax)," . ($LPX, $LPY, $LPA)[$_] . "\n"
        for 0 .. 2;
    $s .= "\tvmovq\t($iv),$cx\n.p2align\t4\n.L${name}_loop:\n";
    $s .= $mode eq "cbc_enc" ? "\tvmovq\t($in),$px\n\tvpxorq\t$c,$p,$m0\n"
                             : "\tvmovdqa64\t$c,$m0\n";
    $s .= <<"EOT";
	vmovdqa64	$LPX,%ymm0
	vpermi2b	$m0,$m0,%ymm0
	vmovdqa64	$LPY,%ymm1
	vpermi2b	$m0,$m0,%ymm1
	call	gost89_avx512_lean1
	vmovdqa64	$LPA,$m0
	vpermi2b	%ymm0,%ymm1,$m0
EOT
    if ($mode eq "cbc_enc") {
        $s .= "\tvmovdqa64\t$m0,$c\n\tvmovq\t$cx,($out)\n";
    } elsif ($mode eq "cfb_enc") {
        $s .= "\tvmovq\t($in),$px\n\tvpxorq\t$m0,$p,$c\n\tvmovq\t$cx,($out)\n";
    } else {
        $s .= "\tvmovdqa64\t$m0,$c\n\tvmovq\t($in),$px\n\tvpxorq\t$m0,$p,$p\n"
            . "\tvmovq\t$px,($out)\n";
    }
    $s .= "\tadd\t\$8,$in\n\tadd\t\$8,$out\n\tdec\t$n\n\tjnz\t.L${name}_loop\n";
    $s .= "\tvmovq\t$cx,($iv)\n\tvzeroupper\n";
    $s .= ".L${name}_done:\n\tret\n" . function_end($name);
    return $s;
}

$code .= serial512($_) for qw(cbc_enc cfb_enc ofb);

# IMIT (src/gost89.c, imit_body): state ^= block, then the first 16
# encryption rounds with no final swap, once per block through the
# one-pair lean rounds: constant-time, for "constant-time = yes" (the
# scalar table kernel is the default).  Arguments (GOST89_KEY *, state,
# in, nblocks); the state in xmm30.
{
    my $name = "gost89_avx512_imit";
    my ($st, $src, $cnt) = ("%rsi", "%rdx", "%rcx");
    my $s = function_begin($name);
    $s .= "\ttest\t$cnt,$cnt\n\tjz\t.L${name}_done\n";
    $s .= "\tmov\t$KEY_BE($ks),%eax\n\tand\t\$1,%eax\n\tshl\t\$7,%eax\n"
        . "\tlea\t.Lg_lean_perm(%rip),%r9\n";
    $s .= "\tvmovdqa64\t" . (32 * $_) . "(%r9,%rax)," . ($LPX, $LPY, $LPA)[$_] . "\n"
        for 0 .. 2;
    # back to memory form with n1 in the low half: the index vector of
    # (n2, n1) with its two tables exchanged
    $s .= <<"EOT";
	vmovq	($st),%xmm30
.p2align	4
.L${name}_loop:
	vmovq	($src),%xmm31
	vpxorq	%ymm30,%ymm31,%ymm16
	vmovdqa64	$LPX,%ymm0
	vpermi2b	%ymm16,%ymm16,%ymm0
	vmovdqa64	$LPY,%ymm1
	vpermi2b	%ymm16,%ymm16,%ymm1
	call	gost89_avx512_lean1_16
	vmovdqa64	$LPA,%ymm30
	vpermi2b	%ymm1,%ymm0,%ymm30
	add	\$8,$src
	dec	$cnt
	jnz	.L${name}_loop
	vmovq	%xmm30,($st)
	vzeroupper
.L${name}_done:
	ret
EOT
    $code .= $s . function_end($name);
}



# GOST R 34.11-94's four encryptions (src/gost94.c): four blocks, each
# under its own key, through the lean rounds on xmm lanes (the 64-entry
# VPERMI2B reads the ymm form of the same registers; their upper lanes,
# zeroed by each xmm write, look up nothing that is kept).  The key words
# come per lane from a row of the caller's kw[8][4] instead of a
# broadcast.  Arguments (GOST89_SBOX_TABLES *, kw, in, out): blocks in the
# GOST 28147-89 byte order.  One chain of 32 rounds of about 10 cycles,
# nothing else; constant-time as the lean rounds are.
sub round4k512 {
    my ($r) = @_;
    my $row = $r < 24 ? $r & 7 : 7 - ($r & 7);
    my ($src, $dst) = $r & 1 ? ("%xmm1", "%xmm0") : ("%xmm0", "%xmm1");
    return <<"EOT";
	vprold	\$11,$src,%xmm4
	vpaddd	@{[16 * $row]}(%rsi),%xmm4,%xmm4
	vpsrld	\$4,%xmm4,%xmm5
	vpternlogd	\$0xea,%xmm14,%xmm13,%xmm4
	vpternlogd	\$0xea,%xmm14,%xmm13,%xmm5
	vpermi2b	%ymm19,%ymm18,%ymm4
	vpermi2b	%ymm21,%ymm20,%ymm5
	vpternlogd	\$0x1e,%xmm5,%xmm4,$dst
EOT
}

{
    my $name = "gost89_avx512_ecb4k";
    my $s = function_begin($name);
    $s .= "\tvmovdqu64\t" . ($TAB_SIMD + 32 * $_) . "(%rdi),%ymm" . (18 + $_) . "\n"
        for 0 .. 3;
    $s .= <<"EOT";
	vpbroadcastd	.Lg_m0f(%rip),%xmm13
	vpbroadcastd	.Lg_pos(%rip),%xmm14
	vmovdqu64	(%rdx),%ymm16
	vpmovqd	%ymm16,%xmm0
	vpsrlq	\$32,%ymm16,%ymm17
	vpmovqd	%ymm17,%xmm1
	vprord	\$11,%xmm0,%xmm0
	vprord	\$11,%xmm1,%xmm1
EOT
    $s .= round4k512($_) for 0 .. 31;
    # each block leaves as (n2, n1)
    $s .= <<"EOT";
	vprold	\$11,%xmm0,%xmm0
	vprold	\$11,%xmm1,%xmm1
	vpunpckldq	%xmm0,%xmm1,%xmm2
	vpunpckhdq	%xmm0,%xmm1,%xmm3
	vmovdqu	%xmm2,(%rcx)
	vmovdqu	%xmm3,16(%rcx)
	vzeroupper
	ret
EOT
    $code .= $s . function_end($name);
}

##########################################################################
# AVX2
#
# The state lives in a 512-byte stack area at %rax: group g (32 blocks) in
# bytes 256g.., pair p at +64p (n1) and +64p+32 (n2), 8 blocks per pair in
# the lane order that VSHUFPS gives (blocks 0,1,4,5 | 2,3,6,7).  The round
# of a group is one dependency chain through the transposes; two groups in
# memory let the out-of-order core overlap them (measured 18% faster than
# one group held in registers, which leaves no room for a second).
# ymm8..15 are the round's temporaries; %r9 points at simd + 128, the AVX2
# tables: per byte position j, 48 bytes: A(lo), A(hi), B(hi).
sub ym { "%ymm$_[0]" }

# Four byte-sliced registers <-> four dword registers (ymm8..11 in and
# out, ymm12..15 scratch): a 4x4 transpose of dwords inside each lane.
sub transpose4 {
    return "\tvpunpckldq\t%ymm9,%ymm8,%ymm12\n\tvpunpckhdq\t%ymm9,%ymm8,%ymm13\n"
        . "\tvpunpckldq\t%ymm11,%ymm10,%ymm14\n\tvpunpckhdq\t%ymm11,%ymm10,%ymm15\n"
        . "\tvpunpcklqdq\t%ymm14,%ymm12,%ymm8\n\tvpunpckhqdq\t%ymm14,%ymm12,%ymm9\n"
        . "\tvpunpcklqdq\t%ymm15,%ymm13,%ymm10\n\tvpunpckhqdq\t%ymm15,%ymm13,%ymm11\n";
}

sub st256 { my ($g, $p, $h) = @_; return (256 * $g + 64 * $p + 32 * $h) . "(%rax)"; }

# One round of group $g, its state in memory or, with $reg, in ymm0..7.
sub round256 {
    my ($koff, $dir, $g, $reg) = @_;
    my $st = sub { $reg ? ym(2 * $_[0] + $_[1]) : st256($g, @_) };
    my $s = "\tvpbroadcastd\t$koff(%r11),%ymm15\n";
    for my $p (0 .. 3) { $s .= "\tvpaddd\t" . $st->($p, $dir) . ",%ymm15," . ym(8 + $p) . "\n"; }
    # bytes of position j to dword j of each lane, then one position per register
    for my $p (0 .. 3) { $s .= "\tvpshufb\t.Lg2_group(%rip)," . ym(8 + $p) . "," . ym(8 + $p) . "\n"; }
    $s .= transpose4();
    # C_j = A_j | B_(j-1) is byte j+1 of rol(S(t), 11)
    for my $j (0 .. 3) {
        my $q = ym(8 + $j);
        my $b = ym(14 + ($j & 1));
        my $bprev = ym(14 + (($j + 1) & 1));
        $s .= "\tvpand\t.Lg2_m0f(%rip),$q,%ymm12\n";
        $s .= "\tvpsrlw\t\$4,$q,$q\n\tvpand\t.Lg2_m0f(%rip),$q,$q\n";
        $s .= "\tvbroadcasti128\t" . (48 * $j + 32) . "(%r9),$b\n\tvpshufb\t$q,$b,$b\n";
        $s .= "\tvbroadcasti128\t" . (48 * $j) . "(%r9),%ymm13\n\tvpshufb\t%ymm12,%ymm13,%ymm13\n";
        $s .= "\tvbroadcasti128\t" . (48 * $j + 16) . "(%r9),%ymm12\n\tvpshufb\t$q,%ymm12,%ymm12\n";
        if ($j == 0) {
            $s .= "\tvpor\t%ymm12,%ymm13,%ymm8\n";
        } else {
            $s .= "\tvpor\t%ymm12,%ymm13,%ymm13\n\tvpor\t$bprev,%ymm13,$q\n";
        }
    }
    $s .= "\tvpor\t%ymm15,%ymm8,%ymm8\n";
    $s .= transpose4();
    for my $p (0 .. 3) {
        my $m = $st->($p, 1 - $dir);
        $s .= "\tvpshufb\t.Lg2_ungroup(%rip)," . ym(8 + $p) . "," . ym(8 + $p) . "\n";
        $s .= $reg ? "\tvpxor\t" . ym(8 + $p) . ",$m,$m\n"
            : "\tvpxor\t$m," . ym(8 + $p) . "," . ym(8 + $p) . "\n\tvmovdqa\t" . ym(8 + $p) . ",$m\n";
    }
    return $s;
}

# 32 rounds on $ng groups at (%rax); key schedule at (%rdi); clobbers r10,
# r11.  A lone group runs from registers: its chain is then shorter by the
# store-to-load forwarding, which is all that counts in a short call.
for my $ng (1, 2) {
    my $name = "gost89_avx2_rounds$ng";
    my $reg = $ng == 1;
    $code .= local_function_begin($name);
    $code .= "\tvmovdqa\t" . (32 * $_) . "(%rax)," . ym($_) . "\n" for $reg ? 0 .. 7 : ();
    $code .= "\tmov\t%rdi,%r11\n\tmov\t\$16,%r10d\n.L${name}_loop:\n";
    for my $dir (0, 1) { $code .= round256(4 * $dir, $dir, $_, $reg) for 0 .. $ng - 1; }
    $code .= "\tadd\t\$8,%r11\n\tdec\t%r10d\n\tjnz\t.L${name}_loop\n";
    $code .= "\tvmovdqa\t" . ym($_) . "," . (32 * $_) . "(%rax)\n" for $reg ? 0 .. 7 : ();
    $code .= "\tret\n" . local_function_end($name);
}

# %r10 = the byte-order shuffle: "key", "swap" or "le" as for AVX-512
# (clobbers r11).
sub order256 {
    my ($order) = @_;
    return "\tlea\t.Lg2_bswap(%rip),%r10\n" if $order eq "le";
    my $s = "\tmov\t$KEY_BE($ks),%r10d\n\tand\t\$1,%r10d\n";
    $s .= "\txor\t\$1,%r10d\n" if $order eq "swap";
    return $s . "\tshl\t\$5,%r10d\n\tlea\t.Lg2_bswap(%rip),%r11\n\tadd\t%r11,%r10\n";
}

# ymm14 = lane mask of memory register q for the first %rcx blocks.
sub mask256 {
    my ($q) = @_;
    return "\tvmovq\t%rcx,%xmm14\n\tvpbroadcastq\t%xmm14,%ymm14\n"
        . "\tvpcmpgtq\t.Lg2_qidx+" . (32 * $q) . "(%rip),%ymm14,%ymm14\n";
}

# $dst = memory register q at byte offset $bias from in (masked if $m).
sub load256 {
    my ($q, $m, $bias, $dst) = @_;
    my $a = (32 * $q + $bias) . "($in)";
    return mask256($q) . "\tvpmaskmovq\t$a,%ymm14,$dst\n" if $m;
    return "\tvmovdqu\t$a,$dst\n";
}

# $dst = the previous ciphertext of each block of memory register q.
sub prev256 {
    my ($q, $m, $dst) = @_;
    return load256($q, $m, -8, $dst) if $q;
    return load256(0, $m, 0, $dst) . "\tvpermq\t\$0x90,$dst,$dst\n"
        . "\tvpbroadcastq\t($iv),%ymm15\n\tvpblendd\t\$3,%ymm15,$dst,$dst\n";
}

# One batch of $ng groups (32 * $ng blocks, or %rcx of them if $m).
sub batch256 {
    my ($mode, $m, $ng) = @_;
    my $nb = 32 * $ng;
    my $s = "";
    my $order = $mode eq "ctr" ? "swap" : $mode eq "cnt" ? "le" : "key";
    if ($mode eq "ctr") {
        $s .= "\tmov\t($iv),%r10\n\tbswap\t%r10\n\tvmovq\t%r10,%xmm12\n\tvpbroadcastq\t%xmm12,%ymm12\n";
        $s .= $m ? "\tadd\t%rcx,%r10\n" : "\tadd\t\$$nb,%r10\n";
        $s .= "\tbswap\t%r10\n\tmov\t%r10,($iv)\n";
    } elsif ($mode eq "cnt") {
        $s .= "\tvpbroadcastq\t($iv),%ymm12\n";
        $s .= "\tlea\t.Lg_cnt(%rip),%r11\n";
        $s .= $m ? "\tmov\t%rcx,%r10\n" : "\tmov\t\$$nb,%r10d\n";
        $s .= "\tlea\t-8(%r11,%r10,8),%r11\n\tmov\t(%r11),%r10d\n\tadd\t%r10d,($iv)\n";
        $s .= "\tmov\t4($iv),%r10d\n\tadd\t4(%r11),%r10d\n\tadc\t\$0,%r10d\n\tmov\t%r10d,4($iv)\n";
    }
    $s .= order256($order);
    for my $g (0 .. $ng - 1) {
        for my $p (0 .. 3) {
            my ($a, $b) = ("%ymm8", "%ymm9");
            for my $h (0, 1) {
                my $q = 8 * $g + 2 * $p + $h;
                my $r = $h ? $b : $a;
                if ($mode eq "ecb" || $mode eq "cbc_dec") {
                    $s .= load256($q, $m, 0, $r);
                } elsif ($mode eq "cfb_dec") {
                    $s .= prev256($q, $m, $r);
                } elsif ($mode eq "ctr") {
                    $s .= "\tvpaddq\t.Lg2_qidx+" . (32 * $q) . "(%rip),%ymm12,$r\n";
                } else {
                    my $c = ".Lg_cnt+" . (32 * $q) . "(%rip)";
                    $s .= "\tvpaddd\t$c,%ymm12,$r\n\tvpmaxud\t$c,$r,%ymm13\n\tvpcmpeqd\t$r,%ymm13,%ymm13\n";
                    $s .= "\tvpandn\t.Lg2_odd(%rip),%ymm13,%ymm13\n\tvpsubd\t%ymm13,$r,$r\n";
                }
                $s .= "\tvpshufb\t(%r10),$r,$r\n";
            }
            $s .= "\tvshufps\t\$0x88,$b,$a,%ymm10\n\tvshufps\t\$0xdd,$b,$a,%ymm11\n";
            $s .= "\tvmovdqa\t%ymm10," . st256($g, $p, 0) . "\n\tvmovdqa\t%ymm11," . st256($g, $p, 1) . "\n";
        }
    }
    $s .= "\tcall\tgost89_avx2_rounds$ng\n";
    $s .= order256("key");
    if ($mode eq "cbc_dec" || $mode eq "cfb_dec") {
        $s .= $m ? "\tmov\t-8($in,%rcx,8),%r11\n" : "\tmov\t" . (8 * $nb - 8) . "($in),%r11\n";
    }
    # The last group first: a group's stores then never reach what an
    # earlier group still reads (CBC's previous blocks); within a group
    # every load comes before the first store.
    for my $g (reverse 0 .. $ng - 1) {
        # back to memory form, register q in ymm(q): the block leaves as (n2, n1)
        for my $p (0 .. 3) {
            $s .= "\tvmovdqa\t" . st256($g, $p, 0) . ",%ymm8\n\tvmovdqa\t" . st256($g, $p, 1) . ",%ymm9\n";
            $s .= "\tvunpcklps\t%ymm8,%ymm9,%ymm10\n\tvunpckhps\t%ymm8,%ymm9,%ymm11\n";
            $s .= "\tvpshufb\t(%r10),%ymm10," . ym(2 * $p) . "\n\tvpshufb\t(%r10),%ymm11," . ym(2 * $p + 1) . "\n";
        }
        for my $q (0 .. 7) {
            my $gq = 8 * $g + $q;
            if ($mode eq "cbc_dec") {
                $s .= prev256($gq, $m, "%ymm8") . "\tvpxor\t%ymm8," . ym($q) . "," . ym($q) . "\n";
            } elsif ($mode ne "ecb") {
                $s .= load256($gq, $m, 0, "%ymm8") . "\tvpxor\t%ymm8," . ym($q) . "," . ym($q) . "\n";
            }
        }
        for my $q (0 .. 7) {
            my $gq = 8 * $g + $q;
            my $a = (32 * $gq) . "($out)";
            $s .= $m ? mask256($gq) . "\tvpmaskmovq\t" . ym($q) . ",%ymm14,$a\n" : "\tvmovdqu\t" . ym($q) . ",$a\n";
        }
    }
    $s .= "\tmov\t%r11,($iv)\n" if $mode eq "cbc_dec" || $mode eq "cfb_dec";
    return $s;
}

# Lean pass, for calls of 1..8 blocks: one pair of ymm registers (n1 in
# ymm0, n2 in ymm1, lanes as in the batches), held as ror(h, 11) like the
# AVX-512 halves, with no transposes and no stack.  VPSHUFB reads 16-entry
# tables, one per byte position and nibble (simd[0..127]); the index of
# position j has bit 7 set in the other bytes, so that each of the eight
# lookups yields only its own byte, and the results (disjoint bits) are
# XORed into n2.  About 15 cycles a round on Zen 4 (the eight lookups
# queue for the two shuffle pipes), against 33 for a batch pass.
sub lean_round256 {
    my ($koff, $dir) = @_;
    my ($src, $dst) = map { ym($_) } $dir ? (1, 0) : (0, 1);
    my ($t, $lo, $hi, $m0f) = map { ym($_) } 2 .. 5;
    my @mk = map { ym($_) } 6 .. 9;
    my ($x, $y, $tx, $ty) = map { ym($_) } 10 .. 13;
    my @acc = map { ym($_) } 14, 15;
    my $s = <<"EOT";
	vpslld	\$11,$src,$t
	vpsrld	\$21,$src,$x
	vpor	$x,$t,$t
	vpbroadcastd	$koff(%r11),$y
	vpaddd	$y,$t,$t
	vpsrld	\$4,$t,$hi
	vpand	$m0f,$t,$lo
	vpand	$m0f,$hi,$hi
EOT
    # the architectural registers repeat; renaming keeps the lookups
    # apart, and each nibble's results accumulate as they arrive; the low
    # nibbles' index is ready a cycle earlier, so their lookups go first
    for my $q (0, 1) {
        for my $j (0 .. 3) {
            my ($idx, $tab) = $q ? ($y, $ty) : ($x, $tx);
            my $d = $j ? $idx : $acc[$q];
            $s .= "\tvpor\t$mk[$j]," . ($q ? $hi : $lo) . ",$idx\n"
                . "\tvbroadcasti128\t" . (64 * $q + 16 * $j) . "(%rax),$tab\n"
                . "\tvpshufb\t$idx,$tab,$d\n";
            $s .= "\tvpxor\t$idx,$acc[$q],$acc[$q]\n" if $j;
        }
    }
    return $s . "\tvpxor\t$acc[0],$dst,$dst\n\tvpxor\t$acc[1],$dst,$dst\n";
}

# $nr (32, or IMIT's 16) lean rounds on ymm0/ymm1; key schedule and
# tables from (%rdi); clobbers rax, r10, r11.
for my $nr (32, 16) {
    my $name = "gost89_avx2_lean" . ($nr == 32 ? "" : "_$nr");
    my $s = local_function_begin($name);
    $s .= "\tmov\t$KEY_TAB($ks),%rax\n\tadd\t\$$TAB_SIMD,%rax\n";
    $s .= "\tvmovdqa\t.Lg2_m0f(%rip),%ymm5\n";
    $s .= "\tvmovdqa\t.Lg2_lmask+" . (32 * $_) . "(%rip)," . ym(6 + $_) . "\n"
        for 0 .. 3;
    for my $h (0, 1) {    # held as ror(h, 11)
        my $x = ym($h);
        $s .= "\tvpsrld\t\$11,$x,%ymm2\n\tvpslld\t\$21,$x,$x\n\tvpor\t%ymm2,$x,$x\n";
    }
    $s .= "\tmov\t%rdi,%r11\n\tmov\t\$" . ($nr / 4) . ",%r10d\n.L${name}_loop:\n";
    $s .= lean_round256(4 * $_, $_ & 1) for 0 .. 3;
    $s .= "\tadd\t\$16,%r11\n\tdec\t%r10d\n\tjnz\t.L${name}_loop\n";
    for my $h (0, 1) {
        my $x = ym($h);
        $s .= "\tvpslld\t\$11,$x,%ymm2\n\tvpsrld\t\$21,$x,$x\n\tvpor\t%ymm2,$x,$x\n";
    }
    $code .= $s . "\tret\n" . local_function_end($name);
}

# The lean pass of one mode over the %rcx (1..8) blocks at in: memory
# registers 0 and 1 (4 blocks each), masked as in the batches.
sub lean_pass256 {
    my ($mode) = @_;
    my $order = $mode eq "ctr" ? "swap" : $mode eq "cnt" ? "le" : "key";
    my ($a, $b) = ("%ymm8", "%ymm9");
    my $s = "";
    if ($mode eq "ctr") {
        $s .= "\tmov\t($iv),%r10\n\tbswap\t%r10\n\tvmovq\t%r10,%xmm12\n\tvpbroadcastq\t%xmm12,%ymm12\n"
            . "\tadd\t%rcx,%r10\n\tbswap\t%r10\n\tmov\t%r10,($iv)\n";
    } elsif ($mode eq "cnt") {
        $s .= "\tvpbroadcastq\t($iv),%ymm12\n\tlea\t.Lg_cnt(%rip),%r11\n"
            . "\tlea\t-8(%r11,%rcx,8),%r11\n\tmov\t(%r11),%r10d\n\tadd\t%r10d,($iv)\n"
            . "\tmov\t4($iv),%r10d\n\tadd\t4(%r11),%r10d\n\tadc\t\$0,%r10d\n\tmov\t%r10d,4($iv)\n";
    }
    $s .= order256($order);
    for my $q (0, 1) {
        my $r = $q ? $b : $a;
        if ($mode eq "ecb" || $mode eq "cbc_dec") {
            $s .= load256($q, 1, 0, $r);
        } elsif ($mode eq "cfb_dec") {
            $s .= prev256($q, 1, $r);
        } elsif ($mode eq "ctr") {
            $s .= "\tvpaddq\t.Lg2_qidx+" . (32 * $q) . "(%rip),%ymm12,$r\n";
        } else {
            my $c = ".Lg_cnt+" . (32 * $q) . "(%rip)";
            $s .= "\tvpaddd\t$c,%ymm12,$r\n\tvpmaxud\t$c,$r,%ymm13\n\tvpcmpeqd\t$r,%ymm13,%ymm13\n"
                . "\tvpandn\t.Lg2_odd(%rip),%ymm13,%ymm13\n\tvpsubd\t%ymm13,$r,$r\n";
        }
        $s .= "\tvpshufb\t(%r10),$r,$r\n";
    }
    $s .= "\tvshufps\t\$0x88,$b,$a,%ymm0\n\tvshufps\t\$0xdd,$b,$a,%ymm1\n";
    $s .= "\tcall\tgost89_avx2_lean\n";
    $s .= order256("key");
    $s .= "\tmov\t-8($in,%rcx,8),%r11\n" if $mode eq "cbc_dec" || $mode eq "cfb_dec";
    # back to memory form: the block leaves as (n2, n1)
    $s .= "\tvunpcklps\t%ymm0,%ymm1,%ymm10\n\tvunpckhps\t%ymm0,%ymm1,%ymm11\n"
        . "\tvpshufb\t(%r10),%ymm10,%ymm0\n\tvpshufb\t(%r10),%ymm11,%ymm1\n";
    for my $q (0, 1) {
        if ($mode eq "cbc_dec") {
            $s .= prev256($q, 1, "%ymm8") . "\tvpxor\t%ymm8," . ym($q) . "," . ym($q) . "\n";
        } elsif ($mode ne "ecb") {
            $s .= load256($q, 1, 0, "%ymm8") . "\tvpxor\t%ymm8," . ym($q) . "," . ym($q) . "\n";
        }
    }
    $s .= mask256($_) . "\tvpmaskmovq\t" . ym($_) . ",%ymm14," . (32 * $_) . "($out)\n"
        for 0, 1;
    $s .= "\tmov\t%r11,($iv)\n" if $mode eq "cbc_dec" || $mode eq "cfb_dec";
    return $s;
}

# The lean pass for one block (8-byte calls): plain 8-byte loads and
# stores instead of masks.
sub lean_one256 {
    my ($mode) = @_;
    my $order = $mode eq "ctr" ? "swap" : $mode eq "cnt" ? "le" : "key";
    my $s = "";
    if ($mode eq "ctr") {
        $s .= "\tmov\t($iv),%r10\n\tbswap\t%r10\n\tvmovq\t%r10,%xmm8\n"
            . "\tadd\t\$1,%r10\n\tbswap\t%r10\n\tmov\t%r10,($iv)\n";
    } elsif ($mode eq "cnt") {
        my $c = ".Lg_cnt(%rip)";
        $s .= "\tvmovq\t($iv),%xmm12\n\tvpaddd\t$c,%xmm12,%xmm8\n"
            . "\tvpmaxud\t$c,%xmm8,%xmm13\n\tvpcmpeqd\t%xmm8,%xmm13,%xmm13\n"
            . "\tvpandn\t.Lg2_odd(%rip),%xmm13,%xmm13\n\tvpsubd\t%xmm13,%xmm8,%xmm8\n"
            . "\tvmovq\t%xmm8,($iv)\n";
    } else {
        $s .= "\tvmovq\t(" . ($mode eq "cfb_dec" ? $iv : $in) . "),%xmm8\n";
    }
    $s .= order256($order);
    $s .= "\tvpshufb\t(%r10),%xmm8,%xmm8\n"
        . "\tvshufps\t\$0x88,%xmm8,%xmm8,%xmm0\n\tvshufps\t\$0xdd,%xmm8,%xmm8,%xmm1\n";
    $s .= "\tcall\tgost89_avx2_lean\n";
    $s .= order256("key");
    $s .= "\tvunpcklps\t%xmm0,%xmm1,%xmm10\n\tvpshufb\t(%r10),%xmm10,%xmm0\n";
    if ($mode ne "ecb") {
        $s .= "\tvmovq\t(" . ($mode eq "cbc_dec" ? $iv : $in) . "),%xmm8\n"
            . "\tvpxor\t%xmm8,%xmm0,%xmm0\n";
    }
    $s .= "\tmov\t($in),%r11\n" if $mode eq "cbc_dec" || $mode eq "cfb_dec";
    $s .= "\tvmovq\t%xmm0,($out)\n";
    $s .= "\tmov\t%r11,($iv)\n" if $mode eq "cbc_dec" || $mode eq "cfb_dec";
    return $s;
}

# Full batches of 64 blocks, then one masked batch of one or two groups.
sub entry256 {
    my ($mode) = @_;
    my $name = "gost89_avx2_${mode}";
    my $s = function_begin($name);
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_done\n";
    $s .= "\tcmp\t\$8,$n\n\tja\t.L${name}_wide\n";
    $s .= cnt_state_order(".L${name}_lin") if $mode eq "cnt";
    $s .= "\tcmp\t\$1,$n\n\tjne\t.L${name}_lean\n" . lean_one256($mode)
        . "\tjmp\t.L${name}_lean_end\n.L${name}_lean:\n";
    $s .= lean_pass256($mode) . ".L${name}_lean_end:\n";
    $s .= cnt_state_order(".L${name}_lout") if $mode eq "cnt";
    $s .= "\tvzeroupper\n\tret\n.L${name}_wide:\n";
    $s .= frame_align_begin(512, 32);
    $s .= "\tmov\t$KEY_TAB($ks),%r9\n\tadd\t\$" . ($TAB_SIMD + 128) . ",%r9\n";
    $s .= cnt_state_order(".L${name}_in") if $mode eq "cnt";
    $s .= "\tmov\t%rsp,%rax\n";
    $s .= "\tcmp\t\$64,$n\n\tjb\t.L${name}_tail\n";
    $s .= ".L${name}_full:\n";
    $s .= batch256($mode, 0, 2);
    $s .= "\tadd\t\$512,$in\n\tadd\t\$512,$out\n\tsub\t\$64,$n\n";
    $s .= "\tcmp\t\$64,$n\n\tjae\t.L${name}_full\n";
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_end\n";
    $s .= ".L${name}_tail:\n";
    $s .= "\tcmp\t\$32,$n\n\tjbe\t.L${name}_last\n";
    $s .= batch256($mode, 1, 2);
    $s .= "\tjmp\t.L${name}_end\n";
    $s .= ".L${name}_last:\n";
    $s .= batch256($mode, 1, 1);
    $s .= ".L${name}_end:\n";
    $s .= cnt_state_order(".L${name}_out") if $mode eq "cnt";
    $s .= "\tvzeroupper\n";
    $s .= frame_align_end();
    $s .= ".L${name}_done:\n\tret\n";
    $s .= function_end($name);
    return $s;
}

$code .= entry256($_) for qw(ecb ctr cnt cbc_dec cfb_dec);

# IMIT through the AVX2 lean rounds, once per block, as gost89_avx512_imit
# does (constant-time, for "constant-time = yes"); the state in xmm12.
{
    my $name = "gost89_avx2_imit";
    my ($st, $src, $cnt) = ("%rsi", "%rdx", "%rcx");
    my $s = function_begin($name);
    $s .= "\ttest\t$cnt,$cnt\n\tjz\t.L${name}_done\n";
    $s .= "\tvmovq\t($st),%xmm12\n.p2align\t4\n.L${name}_loop:\n";
    $s .= "\tvmovq\t($src),%xmm8\n\tvpxor\t%xmm12,%xmm8,%xmm8\n";
    $s .= order256("key");
    $s .= "\tvpshufb\t(%r10),%xmm8,%xmm8\n"
        . "\tvshufps\t\$0x88,%xmm8,%xmm8,%xmm0\n\tvshufps\t\$0xdd,%xmm8,%xmm8,%xmm1\n";
    $s .= "\tcall\tgost89_avx2_lean_16\n";
    $s .= order256("key");
    # n1 back in the low half: (n1, n2), not the cipher's (n2, n1)
    $s .= "\tvunpcklps\t%xmm1,%xmm0,%xmm10\n\tvpshufb\t(%r10),%xmm10,%xmm12\n";
    $s .= "\tadd\t\$8,$src\n\tdec\t$cnt\n\tjnz\t.L${name}_loop\n";
    $s .= "\tvmovq\t%xmm12,($st)\n\tvzeroupper\n";
    $s .= ".L${name}_done:\n\tret\n" . function_end($name);
    $code .= $s;
}

# GOST R 34.11-94's four encryptions through the AVX2 lean round on xmm
# lanes, the key words per lane from a row of kw[8][4] (as
# gost89_avx512_ecb4k; arguments the same).  The tables of the eight
# lookups stay in registers: the four blocks fit one xmm pair, which
# leaves room for them.  Constant-time as the lean rounds are.
sub round4k256 {
    my ($r) = @_;
    my $row = $r < 24 ? $r & 7 : 7 - ($r & 7);
    my ($src, $dst) = $r & 1 ? ("%xmm1", "%xmm0") : ("%xmm0", "%xmm1");
    my $s = <<"EOT";
	vpslld	\$11,$src,%xmm2
	vpsrld	\$21,$src,%xmm3
	vpor	%xmm3,%xmm2,%xmm2
	vpaddd	@{[16 * $row]}(%rsi),%xmm2,%xmm2
	vpsrld	\$4,%xmm2,%xmm4
	vpand	%xmm5,%xmm2,%xmm3
	vpand	%xmm5,%xmm4,%xmm4
EOT
    # position j's index keeps bit 7 clear only in byte j (.Lg2_lmask);
    # tables of the low nibbles in xmm8..11, of the high in xmm12..15
    for my $q (0, 1) {
        my $nib = $q ? "%xmm4" : "%xmm3";
        my $acc = $q ? "%xmm7" : "%xmm6";
        for my $j (0 .. 3) {
            my $d = $j ? "%xmm2" : $acc;
            $s .= "\tvpor\t.Lg2_lmask+" . (32 * $j) . "(%rip),$nib,%xmm2\n"
                . "\tvpshufb\t%xmm2,%xmm" . (8 + 4 * $q + $j) . ",$d\n";
            $s .= "\tvpxor\t%xmm2,$acc,$acc\n" if $j;
        }
    }
    return $s . "\tvpxor\t%xmm6,$dst,$dst\n\tvpxor\t%xmm7,$dst,$dst\n";
}

{
    my $name = "gost89_avx2_ecb4k";
    my $s = function_begin($name);
    $s .= "\tvmovdqu\t" . ($TAB_SIMD + 16 * $_) . "(%rdi),%xmm" . (8 + $_) . "\n"
        for 0 .. 7;
    # n1 = the blocks' even dwords, n2 the odd ones, held as ror(h, 11)
    $s .= <<"EOT";
	vmovdqa	.Lg2_m0f(%rip),%xmm5
	vmovdqu	(%rdx),%xmm0
	vmovdqu	16(%rdx),%xmm1
	vshufps	\$0xdd,%xmm1,%xmm0,%xmm2
	vshufps	\$0x88,%xmm1,%xmm0,%xmm0
	vmovdqa	%xmm2,%xmm1
EOT
    for my $h (0, 1) {
        $s .= "\tvpsrld\t\$11,%xmm$h,%xmm2\n\tvpslld\t\$21,%xmm$h,%xmm$h\n"
            . "\tvpor\t%xmm2,%xmm$h,%xmm$h\n";
    }
    $s .= round4k256($_) for 0 .. 31;
    for my $h (0, 1) {
        $s .= "\tvpslld\t\$11,%xmm$h,%xmm2\n\tvpsrld\t\$21,%xmm$h,%xmm$h\n"
            . "\tvpor\t%xmm2,%xmm$h,%xmm$h\n";
    }
    # each block leaves as (n2, n1)
    $s .= <<"EOT";
	vpunpckldq	%xmm0,%xmm1,%xmm2
	vpunpckhdq	%xmm0,%xmm1,%xmm3
	vmovdqu	%xmm2,(%rcx)
	vmovdqu	%xmm3,16(%rcx)
	ret
EOT
    $code .= $s . function_end($name);
}

##########################################################################
# Constants

sub bytes_line {
    my @b = @_;
    my $s = "";
    while (@b) { $s .= "\t.byte\t" . join(',', map { sprintf '0x%02x', $_ } splice(@b, 0, 16)) . "\n"; }
    return $s;
}

# VPERMI2B indices, 256 bytes per byte order (0 = GOST 28147-89, little-
# endian halves; 1 = Magma, each block reversed): memory -> n1, memory ->
# n2 (first table: blocks 0..7, second: 8..15), then (n2, n1) -> memory
# blocks 0..7 and 8..15.
sub perm512 {
    my ($be) = @_;
    my (@x, @y, @a, @b);
    for my $i (0 .. 15) {
        for my $j (0 .. 3) {
            push @x, 8 * $i + ($be ? 7 - $j : $j);
            push @y, 8 * $i + ($be ? 3 - $j : 4 + $j);
        }
    }
    for my $p (0 .. 127) {
        my ($i, $j) = ($p >> 3, $p & 7);
        my $q = $be ? 7 - $j : $j;
        my $v = $q < 4 ? 4 * $i + $q : 64 + 4 * $i + $q - 4;
        if ($p < 64) { push @a, $v } else { push @b, $v }
    }
    return bytes_line(@x, @y, @a, @b);
}

$code .= rodata_begin();
$code .= ".p2align\t6\n.Lg_perm512:\n" . perm512(0) . perm512(1);
$code .= ".Lg_qidx:\n\t.quad\t0,1,2,3,4,5,6,7\n";
{
    my @c;
    for my $j (1 .. 64) {
        push @c, sprintf("0x%08x", ($j * $C2) % 2**32);
        push @c, sprintf("0x%08x", ($j * $C1) % (2**32 - 1));
    }
    $code .= ".Lg_cnt:\n";
    $code .= "\t.long\t" . join(',', splice(@c, 0, 8)) . "\n" while @c;
}
$code .= ".Lg_q8:\n\t.quad\t8\n";
{
    # VPSHUFB inside each lane: byte b of dword d to 4b + d, and back with
    # the byte rotation of rol 11 (byte i of dword d from position i - 1)
    my (@g, @u);
    for my $i (0 .. 15) { push @g, 4 * ($i & 3) + ($i >> 2); }
    for my $d (0 .. 3) { for my $i (0 .. 3) { push @u, 4 * (($i + 3) & 3) + $d; } }
    my @bs = map { 8 * ($_ >> 3) + 7 - ($_ & 7) } 0 .. 15;
    $code .= ".p2align\t5\n.Lg2_group:\n" . bytes_line(@g, @g);
    $code .= ".Lg2_ungroup:\n" . bytes_line(@u, @u);
    $code .= ".Lg2_bswap:\n" . bytes_line(0 .. 15, 0 .. 15) . bytes_line(@bs, @bs);
    $code .= bytes_line(0 .. 15, 0 .. 15);
    $code .= ".Lg2_m0f:\n" . bytes_line((0x0f) x 32);
    $code .= ".Lg2_odd:\n\t.long\t0,-1,0,-1,0,-1,0,-1\n";
    # lean lookups: position j's index keeps bit 7 clear only in byte j
    $code .= ".Lg2_lmask:\n";
    $code .= "\t.long\t" . join(',', (sprintf('0x%08x', 0x80808080 & ~(0xff << (8 * $_)))) x 8) . "\n"
        for 0 .. 3;
    $code .= ".Lg2_qidx:\n\t.quad\t" . join(',', 0 .. 63) . "\n";
}
# The lean pass's VPERMI2B indices, 128 bytes per byte order: memory ->
# n1, memory -> n2 (8 blocks from two ymm), then (n2, n1) -> memory blocks
# 0..3 and 4..7 (tables of 32 entries each).
sub perm_lean {
    my ($be) = @_;
    my (@x, @y, @a);
    for my $i (0 .. 7) {
        for my $j (0 .. 3) {
            push @x, 8 * $i + ($be ? 7 - $j : $j);
            push @y, 8 * $i + ($be ? 3 - $j : 4 + $j);
        }
    }
    for my $p (0 .. 63) {
        my ($i, $j) = ($p >> 3, $p & 7);
        my $q = $be ? 7 - $j : $j;
        push @a, $q < 4 ? 4 * $i + $q : 32 + 4 * $i + $q - 4;
    }
    return bytes_line(@x, @y, @a);
}
$code .= ".p2align\t5\n.Lg_lean_perm:\n" . perm_lean(0) . perm_lean(1);
$code .= ".Lg_m0f:\n\t.long\t0x0f0f0f0f\n";
$code .= ".Lg_pos:\n\t.long\t0x30201000\n";

x86_64::finish($code);
