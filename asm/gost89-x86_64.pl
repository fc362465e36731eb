#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Patent note: EA021803B1 (Infotecs) claims GOST 28147-89 on SIMD platforms; ./Configure no-gost-simd leaves this file out.
#
# Vectorised GOST 28147-89 / Magma kernels for x86-64, behind the
# SMG_BLOCK_KERNEL contract of src/kernel.h: ECB, CTR (Magma), CNT
# (GOST 28147-89), CBC decryption and CFB decryption over whole 8-byte
# blocks, for both byte orders and every parameter set.  The serial modes
# stay with the C kernel (src/gost89_x86.c wires the tables).
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
# process to the next.  One call of 1..32 blocks costs about one pass of 32
# rounds' latency (~150 ns AVX-512, ~300 ns AVX2), so the C glue keeps 1-2
# (AVX-512) and 1-4 (AVX2) blocks in C.
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
# loads and stores (33..63 blocks on 4 pairs, 1..32 on 2).
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
# A batch takes 64 blocks; the rest goes in one pass with VPMASKMOVQ.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;

x86_64::setup(@ARGV);

# Offsets fixed by src/gost89.h; src/gost89_x86.c checks them at compile time.
my $KEY_TAB  = 128;     # offsetof(GOST_KEY, tab)
my $KEY_BE   = 136;     # offsetof(GOST_KEY, big_endian)
my $TAB_SIMD = 4096;    # offsetof(GOST_SBOX_TABLES, simd)

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
    my ($mode, $np, $m) = @_;
    my $rounds = "\tcall\tgost89_avx512_rounds$np\n";
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
    my $name = "gost89_${mode}_avx512";
    my $s = function_begin($name);
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_done\n";
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

$code .= entry512($_) for qw(ecb ctr cnt cbc_dec cfb_dec);

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

# Full batches of 64 blocks, then one masked batch of one or two groups.
sub entry256 {
    my ($mode) = @_;
    my $name = "gost89_${mode}_avx2";
    my $s = function_begin($name);
    $s .= "\ttest\t$n,$n\n\tjz\t.L${name}_done\n";
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
    $code .= ".Lg2_qidx:\n\t.quad\t" . join(',', 0 .. 63) . "\n";
}
$code .= ".Lg_m0f:\n\t.long\t0x0f0f0f0f\n";
$code .= ".Lg_pos:\n\t.long\t0x30201000\n";

x86_64::finish($code);
