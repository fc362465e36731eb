#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Streebog (GOST R 34.11-2012, RFC 6986) compression for AArch64 with
# Advanced SIMD only, constant-time, behind the STREEBOG_KERNEL contract of
# src/streebog.h: streebog_neon_blocks(chain, in, nblocks) (h = g_N(h, m),
# N += 512, Sigma += m per block) and streebog_neon_g(h, N, m) (one g_N for
# the finishing steps).  src/streebog_arm.c puts them in the
# "streebog-neon" table.
#
#   perl asm/streebog-armv8.pl elf > asm/streebog-armv8.S
#
# Real Arm hardware is not available: the figures are instructions
# executed per byte, counted exactly under qemu-user 7.2 (-cpu max) by
# util/arm-icount.pl (difference between 1 KiB and 9 KiB of blocks), on
# an x86-64 host (AMD EPYC family 25 model 17); no real aarch64 CPU figure
# exists for this kernel.
#
#   implementation                      instructions/byte
#   streebog-neon (this file)                          77.44
#   streebog-c (src/streebog.c, gcc 12 -O3, tables)   112.27
#
# 0.69 of the table kernel's count (0.75 with nibble tables, 83.94), not
# the half aimed at: per LPS of the two chains L is 64 products of a
# 16-lane register by a GF(2^8) constant (L is an 8x8 matrix over the
# field of x^8+x^4+x^3+x^2+1, all 64 entries distinct), and Advanced SIMD
# makes 16 lanes of one product with two instructions at best (two TBL of
# 16-entry nibble tables, or PMULL and PMULL2) and adds it with two EOR:
# 256 instructions an LPS before S (56), P (24) and the table loads, 13
# LPS a block, about 64 a byte.  Nibble tables need 128 TBL, 120 EOR, 32
# loads and 16 splits an LPS (296); the split below, 96 TBL, 88 EOR, 64
# loads and 16 (264).  PMULL needs no table, but 8 reductions (312).  The
# first LPS of each block, K_1 = LPS(h ^ N), runs alone in half the lanes.
#
# Design.  g_N runs E's two chains, the key schedule K_i and the state,
# side by side in the same registers: register V_b holds 64-bit word b of
# the state in its low half and word b of the key in its high half, so one
# LPS pass of 8 registers transforms both.  The first pass computes
# K_1 = LPS(h ^ N) (its low half is then replaced by the message), the 12
# rounds follow, each XORing [K | C_i] into [state | K] (one ZIP2 and one
# EOR a register) before its LPS.
#
# LPS of 8 registers:
#   S   pi on every byte: the table in v16-v31, TBL and three TBX with the
#       index lowered by 64 each time (util/perlasm/gost2015_armv8.pm);
#   P,L output word w = XOR_b T_b[byte w of word b] (P is the transpose of
#       the 8x8 byte matrix, so L reads byte w of every word for output
#       word w), where T_b[v] = l(v << 8b) with l the 64x64 matrix A of
#       RFC 6986 section 6.4.  Byte k of T_b[v] is linear in v, so for a
#       pair of words (b, b + 1) it is Tl_bk[v & 31] ^ Tl_(b+1)k[v' & 31] ^
#       Tp_bk[(v >> 5) << 3 | v' >> 5]: TBL over 32-entry tables (two
#       registers) for each word's low five bits, and one TBL over a
#       64-entry table (four registers) for the top three bits of both,
#       their index made by USHR and SRI; each over the registers of the
#       input words (their lanes are the bytes w), accumulated into W_k
#       (lane w = byte k of output word w); the 4 KiB of tables are loaded
#       64 bytes at a time;
#   the 8x8 byte transpose of W (TRN1/TRN2 at bytes, halfwords, words;
#       each 64-bit half transposes on its own) gives the words back.
# Nothing is indexed by data: the S-box and the L tables are read by TBL
# from registers, table addresses and branches depend only on the round
# and the block count.  N and Sigma are added with ADDS/ADCS chains.
#
# Entry points (AAPCS64): streebog_neon_blocks(x0 = chain {h, N, Sigma},
# x1 = in, x2 = nblocks), streebog_neon_g(x0 = h, x1 = N, x2 = m).

use strict;
use warnings;
no warnings qw(portable);
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;
use gost2015_armv8;

armv8::setup(@ARGV);

# RFC 6986 section 6.4: the rows of A; row i is the image of bit 63 - i.
my @A = (
    0x8e20faa72ba0b470, 0x47107ddd9b505a38, 0xad08b0e0c3282d1c, 0xd8045870ef14980e,
    0x6c022c38f90a4c07, 0x3601161cf205268d, 0x1b8e0b0e798c13c8, 0x83478b07b2468764,
    0xa011d380818e8f40, 0x5086e740ce47c920, 0x2843fd2067adea10, 0x14aff010bdd87508,
    0x0ad97808d06cb404, 0x05e23c0468365a02, 0x8c711e02341b2d01, 0x46b60f011a83988e,
    0x90dab52a387ae76f, 0x486dd4151c3dfdb9, 0x24b86a840e90f0d2, 0x125c354207487869,
    0x092e94218d243cba, 0x8a174a9ec8121e5d, 0x4585254f64090fa0, 0xaccc9ca9328a8950,
    0x9d4df05d5f661451, 0xc0a878a0a1330aa6, 0x60543c50de970553, 0x302a1e286fc58ca7,
    0x18150f14b9ec46dd, 0x0c84890ad27623e0, 0x0642ca05693b9f70, 0x0321658cba93c138,
    0x86275df09ce8aaa8, 0x439da0784e745554, 0xafc0503c273aa42a, 0xd960281e9d1d5215,
    0xe230140fc0802984, 0x71180a8960409a42, 0xb60c05ca30204d21, 0x5b068c651810a89e,
    0x456c34887a3805b9, 0xac361a443d1c8cd2, 0x561b0d22900e4669, 0x2b838811480723ba,
    0x9bcf4486248d9f5d, 0xc3e9224312c8c1a0, 0xeffa11af0964ee50, 0xf97d86d98a327728,
    0xe4fa2054a80b329c, 0x727d102a548b194e, 0x39b008152acb8227, 0x9258048415eb419d,
    0x492c024284fbaec0, 0xaa16012142f35760, 0x550b8e9e21f7a530, 0xa48b474f9ef5dc18,
    0x70a6a56e2440598e, 0x3853dc371220a247, 0x1ca76e95091051ad, 0x0edd37c48a08a6d8,
    0x07e095624504536c, 0x8d70c431ac02a736, 0xc83862965601dd1b, 0x641c314b2b8ee083,
);

# RFC 6986 section 6.5: the round constants C_1..C_12 as 512-bit numbers
# (printed most significant digit first).
my @C = qw(
    b1085bda1ecadae9ebcb2f81c0657c1f2f6a76432e45d016714eb88d7585c4fc4b7ce09192676901a2422a08a460d31505767436cc744d23dd806559f2a64507
    6fa3b58aa99d2f1a4fe39d460f70b5d7f3feea720a232b9861d55e0f16b501319ab5176b12d699585cb561c2db0aa7ca55dda21bd7cbcd56e679047021b19bb7
    f574dcac2bce2fc70a39fc286a3d843506f15e5f529c1f8bf2ea7514b1297b7bd3e20fe490359eb1c1c93a376062db09c2b6f443867adb31991e96f50aba0ab2
    ef1fdfb3e81566d2f948e1a05d71e4dd488e857e335c3c7d9d721cad685e353fa9d72c82ed03d675d8b71333935203be3453eaa193e837f1220cbebc84e3d12e
    4bea6bacad4747999a3f410c6ca923637f151c1f1686104a359e35d7800fffbdbfcd1747253af5a3dfff00b723271a167a56a27ea9ea63f5601758fd7c6cfe57
    ae4faeae1d3ad3d96fa4c33b7a3039c02d66c4f95142a46c187f9ab49af08ec6cffaa6b71c9ab7b40af21f66c2bec6b6bf71c57236904f35fa68407a46647d6e
    f4c70e16eeaac5ec51ac86febf240954399ec6c7e6bf87c9d3473e33197a93c90992abc52d822c3706476983284a05043517454ca23c4af38886564d3a14d493
    9b1f5b424d93c9a703e7aa020c6e41414eb7f8719c36de1e89b4443b4ddbc49af4892bcb929b069069d18d2bd1a5c42f36acc2355951a8d9a47f0dd4bf02e71e
    378f5a541631229b944c9ad8ec165fde3a7d3a1b258942243cd955b7e00d0984800a440bdbb2ceb17b2b8a9aa6079c540e38dc92cb1f2a607261445183235adb
    abbedea680056f52382ae548b2e4f3f38941e71cff8a78db1fffe18a1b3361039fe76702af69334b7a1e6c303b7652f43698fad1153bb6c374b4c7fb98459ced
    7bcd9ed0efc889fb3002c6cd635afe94d8fa6bbbebab076120018021148466798a1d71efea48b9caefbacd1d7d476e98dea2594ac06fd85d6bcaa4cd81f32d1b
    378ee767f11631bad21380b00449b17acda43c32bcdf1d77f82012d430219f9b5d80ef9d1891cc86e71da4aa88e12852faf417d5d9b21b9948bc924af11bd720
);

my @v = map { "v$_" } 0 .. 31;

##########################################################################
# Constants

# T_b[x] = l(x << 8b): the XOR of the rows of A for the set bits.
sub t_row {
    my ($b, $x) = @_;
    my $r = 0;
    for my $i (0 .. 7) {
        $r ^= $A[63 - (8 * $b + $i)] if ($x >> $i) & 1;
    }
    return $r;
}

my $rodata = rodata_begin() . sbox_rodata(".Lstb_pi", @PI);
# L tables, 128 bytes for each pair of input words (b, b + 1) = (2p, 2p + 1)
# and output byte k, p then k: byte k of T_b[v] for the low five bits v
# (32 bytes), the same for T_(b+1), then byte k of T_b[h << 5] ^
# T_(b+1)[g << 5] at the index h << 3 | g of the two words' top three bits
# (64 bytes).
$rodata .= ".p2align\t4\n.Lstb_l:\n";
for my $p (0 .. 3) {
    my ($b, $b1) = (2 * $p, 2 * $p + 1);
    for my $k (0 .. 7) {
        my @t = map { (t_row($b, $_) >> (8 * $k)) & 0xff } 0 .. 31;
        push @t, map { (t_row($b1, $_) >> (8 * $k)) & 0xff } 0 .. 31;
        push @t, map { ((t_row($b, ($_ >> 3) << 5) ^ t_row($b1, ($_ & 7) << 5)) >> (8 * $k)) & 0xff }
            0 .. 63;
        $rodata .= bytes_rodata(@t);
    }
}
# Round constants as eight 16-byte rows a round, word b of C_i in the high
# half of row b (the low half unused), for ZIP2 against [state | K].
$rodata .= ".p2align\t4\n.Lstb_c:\n";
for my $c (@C) {
    my $hex = $c;
    for my $b (0 .. 7) {
        my $w = substr($hex, 128 - 16 * ($b + 1), 16);
        $rodata .= "\t.quad\t0,0x$w\n";
    }
}

##########################################################################
# LPS of v0-v7 in place, both halves.  A leaf: clobbers v8-v31, x9, x10.

my @PIREG = @v[16 .. 31];

sub lps {
    my $s = local_function_begin(".Lstb_lps");
    $s .= adr_label("x9", ".Lstb_pi") . pi_load("x9", @PIREG);
    # S: V_b -> a free register, V_b's register freed for the next
    my $c40 = $v[15];
    $s .= "\tmovi\t$c40.16b,#0x40\n";
    my @free = @v[8 .. 14];
    my @S;
    for my $b (0 .. 7) {
        my $d = shift @free;
        $s .= pi_lookup($d, $v[$b], $c40, @PIREG);
        push @S, $d;
        push @free, $v[$b];
    }
    push @free, $c40;
    # P and L: W_k = XOR over the pairs p of Tl_(2p)k[low five bits of
    # S_2p] ^ Tl_(2p+1)k[low five bits of S_2p+1] ^ Tp_pk[top three bits of
    # both]: TBL over two, two and four table registers
    my @W = @free;
    my ($mask, $idx, $t, $u, $w) = @v[16 .. 20];
    my @tab = @v[24 .. 31];
    $s .= adr_label("x10", ".Lstb_l") . "\tmovi\t$mask.16b,#0x1f\n";
    for my $p (0 .. 3) {
        my ($x, $y) = @S[2 * $p, 2 * $p + 1];
        # idx = x >> 5 << 3 | y >> 5 (SRI keeps idx's top five bits)
        $s .= "\tushr\t$idx.16b,$x.16b,#2\n\tsri\t$idx.16b,$y.16b,#5\n";
        $s .= "\tand\t$x.16b,$x.16b,$mask.16b\n\tand\t$y.16b,$y.16b,$mask.16b\n";
        for my $k (0 .. 7) {
            $s .= "\tld1\t{$tab[0].16b-$tab[3].16b},[x10],#64\n";
            $s .= "\tld1\t{$tab[4].16b-$tab[7].16b},[x10],#64\n";
            $s .= "\ttbl\t$t.16b,{$tab[0].16b-$tab[1].16b},$x.16b\n";
            $s .= "\ttbl\t$u.16b,{$tab[2].16b-$tab[3].16b},$y.16b\n";
            $s .= "\ttbl\t$w.16b,{$tab[4].16b-$tab[7].16b},$idx.16b\n";
            if ($p == 0) {
                $s .= "\teor\t$W[$k].16b,$t.16b,$u.16b\n";
            } else {
                $s .= "\teor\t$W[$k].16b,$W[$k].16b,$t.16b\n";
                $s .= "\teor\t$W[$k].16b,$W[$k].16b,$u.16b\n";
            }
            $s .= "\teor\t$W[$k].16b,$W[$k].16b,$w.16b\n";
        }
    }
    # transpose W (rows k, lanes w) into v0-v7 (rows w, lanes k)
    my @A1 = @v[16 .. 23];
    my @B1 = @v[24 .. 31];
    for my $i (0, 2, 4, 6) {
        $s .= "\ttrn1\t$A1[$i].16b,$W[$i].16b,$W[$i + 1].16b\n";
        $s .= "\ttrn2\t$A1[$i + 1].16b,$W[$i].16b,$W[$i + 1].16b\n";
    }
    for my $i (0, 1, 4, 5) {
        $s .= "\ttrn1\t$B1[$i].8h,$A1[$i].8h,$A1[$i + 2].8h\n";
        $s .= "\ttrn2\t$B1[$i + 2].8h,$A1[$i].8h,$A1[$i + 2].8h\n";
    }
    for my $i (0 .. 3) {
        $s .= "\ttrn1\t$v[$i].4s,$B1[$i].4s,$B1[$i + 4].4s\n";
        $s .= "\ttrn2\t$v[$i + 4].4s,$B1[$i].4s,$B1[$i + 4].4s\n";
    }
    $s .= "\tret\n" . local_function_end(".Lstb_lps");
    return $s;
}

##########################################################################
# g_N(h, m) with h at $hp, N at $np, m at $mp: the new h is stored at $hp.
# Clobbers v0-v31, x9-x12; calls .Lstb_lps (the caller's frame saves x30
# and d8-d15).

sub g_body {
    my ($hp, $np, $mp) = @_;
    my $s = "";
    # K_1 = LPS(h ^ N), computed in both halves
    $s .= "\tld1\t{v16.2d-v19.2d},[$hp]\n\tld1\t{v20.2d-v23.2d},[$np]\n";
    $s .= "\teor\tv" . (16 + $_) . ".16b,v" . (16 + $_) . ".16b,v" . (20 + $_) . ".16b\n" for 0 .. 3;
    $s .= "\tdup\t$v[$_].2d,v" . (16 + ($_ >> 1)) . ".d[" . ($_ & 1) . "]\n" for 0 .. 7;
    $s .= "\tbl\t.Lstb_lps\n";
    # [m | K_1]
    $s .= "\tld1\t{v16.2d-v19.2d},[$mp]\n";
    $s .= "\tmov\t$v[$_].d[0],v" . (16 + ($_ >> 1)) . ".d[" . ($_ & 1) . "]\n" for 0 .. 7;
    my $loop = ".Lstb_round_" . $hp . $np;
    $s .= adr_label("x11", ".Lstb_c") . "\tmov\tx12,#12\n";
    $s .= "$loop:\n";
    $s .= "\tld1\t{v8.2d-v11.2d},[x11],#64\n\tld1\t{v12.2d-v15.2d},[x11],#64\n";
    for my $b (0 .. 7) {
        $s .= "\tzip2\t$v[8 + $b].2d,$v[$b].2d,$v[8 + $b].2d\n";
        $s .= "\teor\t$v[$b].16b,$v[$b].16b,$v[8 + $b].16b\n";
    }
    $s .= "\tbl\t.Lstb_lps\n\tsubs\tx12,x12,#1\n\tb.ne\t$loop\n";
    # E = state ^ K_13, then h ^= E ^ m
    for my $p (0 .. 3) {
        my ($a, $b) = ($v[2 * $p], $v[2 * $p + 1]);
        $s .= "\tzip1\t$v[8 + $p].2d,$a.2d,$b.2d\n\tzip2\t$v[12 + $p].2d,$a.2d,$b.2d\n";
        $s .= "\teor\t$v[8 + $p].16b,$v[8 + $p].16b,$v[12 + $p].16b\n";
    }
    $s .= "\tld1\t{v16.2d-v19.2d},[$hp]\n\tld1\t{v20.2d-v23.2d},[$mp]\n";
    for my $p (0 .. 3) {
        $s .= "\teor\t$v[8 + $p].16b,$v[8 + $p].16b,$v[16 + $p].16b\n";
        $s .= "\teor\t$v[8 + $p].16b,$v[8 + $p].16b,$v[20 + $p].16b\n";
    }
    $s .= "\tst1\t{v8.2d-v11.2d},[$hp]\n";
    return $s;
}

# The registers that leave no secret behind: the state, the key schedule
# and the message pass through all of v0-v31.
sub wipe {
    return join '', map { "\tmovi\t$_.2d,#0\n" } @v;
}

my $FRAME_D = [ map { "d$_" } 8 .. 15 ];

my $code = ".arch\tarmv8-a\n" . $rodata . text_begin() . lps();

{
    my $fn = "streebog_neon_g";
    $code .= function_begin($fn) . frame_enter($FRAME_D);
    $code .= g_body("x0", "x1", "x2") . wipe();
    $code .= frame_leave($FRAME_D) . function_end($fn);
}

{
    # x0 = chain (h at 0, N at 64, Sigma at 128), x1 = in, x2 = nblocks
    my $fn = "streebog_neon_blocks";
    $code .= function_begin($fn);
    $code .= "\tcbnz\tx2,.Lstb_blocks_go\n\tret\n.Lstb_blocks_go:\n";
    $code .= frame_enter($FRAME_D);
    $code .= "\tadd\tx3,x0,#64\n\tadd\tx4,x0,#128\n";
    $code .= ".Lstb_blocks_loop:\n";
    $code .= g_body("x0", "x3", "x1");
    # N += 512
    $code .= "\tldp\tx5,x6,[x3]\n\tadds\tx5,x5,#512\n\tadcs\tx6,x6,xzr\n\tstp\tx5,x6,[x3]\n";
    for my $o (16, 32, 48) {
        my $last = $o == 48;
        $code .= "\tldp\tx5,x6,[x3,#$o]\n\tadcs\tx5,x5,xzr\n";
        $code .= $last ? "\tadc\tx6,x6,xzr\n" : "\tadcs\tx6,x6,xzr\n";
        $code .= "\tstp\tx5,x6,[x3,#$o]\n";
    }
    # Sigma += m
    for my $o (0, 16, 32, 48) {
        $code .= "\tldp\tx5,x6,[x4,#$o]\n\tldp\tx7,x8,[x1,#$o]\n";
        $code .= ($o == 0 ? "\tadds" : "\tadcs") . "\tx5,x5,x7\n";
        $code .= ($o == 48 ? "\tadc" : "\tadcs") . "\tx6,x6,x8\n";
        $code .= "\tstp\tx5,x6,[x4,#$o]\n";
    }
    $code .= "\tadd\tx1,x1,#64\n\tsubs\tx2,x2,#1\n\tb.ne\t.Lstb_blocks_loop\n";
    $code .= wipe() . "\tmov\tx5,xzr\n\tmov\tx6,xzr\n\tmov\tx7,xzr\n\tmov\tx8,xzr\n";
    $code .= frame_leave($FRAME_D) . function_end($fn);
}

armv8::finish($code);
