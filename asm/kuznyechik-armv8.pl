#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Kuznyechik (GOST R 34.12-2015, RFC 7801) for AArch64 with Advanced SIMD
# only, constant-time, behind the SMG_BLOCK_KERNEL contract of
# src/kernel.h: kuznyechik_neon_{ecb,ctr,cbc_dec,cfb_dec,cbc_enc,cfb_enc,
# ofb}(ks = x0, in = x1, out = x2, nblocks = x3, iv = x4), ks a
# KUZNYECHIK_KEY (src/kuznyechik.h: rk[10][16] at 0, decrypt at 160).
# src/kuznyechik_arm.c puts them in its tables.
#
#   perl asm/kuznyechik-armv8.pl elf > asm/kuznyechik-armv8.S
#
# Real Arm hardware is not available: the figures are instructions
# executed per byte, counted exactly under qemu-user 7.2 (-cpu max) by
# util/arm-icount.pl (difference between 1 KiB and 9 KiB), on an x86-64
# host (AMD EPYC family 25 model 17); no real aarch64 CPU figure exists.
#
#   instructions/byte     ECB    CTR  CBC-dec CFB-dec CBC-enc CFB-enc  OFB
#   kuznyechik-neon-ct  30.38  30.82  30.51  30.51  484.12  484.06 484.12
#   kuznyechik-neon     30.38  30.82  30.51  30.51   60.12   60.06  59.69
#   kuznyechik-c        41.38  41.05  46.77  41.31   60.12   60.06  59.69
#   kuznyechik-c-ct   1015.27 1015.72 1017.52 1016.00 2634.56 2634.38 2633.62
#
# (kuznyechik-neon's serial modes are kuznyechik-c's.)  CTR at 0.75 of the
# table kernel's count (0.52 of the 60.00 it counted before its four-block
# passes), not the third aimed at, and no form of L found here reaches
# it: L is 112 products of a 16-lane register by a GF(2^8) constant a
# round (16 LFSR steps of seven, the symmetric pairs summed first; the
# matrix form, bytes that share a coefficient summed first, is 112 too),
# and Advanced SIMD makes 16 lanes of one product with two instructions at
# best (PMULL and PMULL2, or two TBL of nibble tables after two to split
# the input) and adds it with two EOR: 448 a round for 16 blocks before
# the 16 reductions, the pair sums, S (about 120) and X (20), at least 21
# instructions a byte over nine rounds, 30.8 as written.  A serial mode
# runs a whole 16-lane pass for each block, 16 times the work, so
# kuznyechik-neon leaves them to the table kernel and only the
# constant-time table (constant-time = yes) runs them here.
#
# Design.  16 blocks a pass, byte-sliced: after a 16x16 byte transpose of
# the blocks, register j holds memory byte j (a_(15-j)) of all 16 blocks,
# and the layout survives every round:
#   X   the round key's byte j, broadcast (LD4R, four bytes at once),
#       XORed into register j;
#   S   pi on every byte: TBL and three TBX over pi held in v16-v31
#       (util/perlasm/gost2015_armv8.pm); four state registers wait on the
#       stack meanwhile, so that the lookup has its scratch registers;
#   L   R^16, each R a rename of the registers plus one new register
#       l(a) = sum c_i a_i: the coefficients are symmetric (148, 32, 133,
#       16, 194, 192, 1, 251, 1, 192, ... around 251), so the bytes of
#       each equal pair are XORed first and only seven products remain;
#       each is PMULL/PMULL2 (8x8 -> 16-bit carry-less, per lane) by the
#       constant in every lane, accumulated unreduced, then reduced once
#       modulo x^8+x^7+x^6+x+1: the high byte h (7 bits) folds back as
#       h x^8 mod p by two 16-entry TBL (its nibbles).  That is 43
#       instructions an R for 16 blocks, 2.7 a block.
# Decryption runs X[K_10], then (L^-1, S^-1, X[K_i]) for i = 9..1, with
# R^-1 the same step the other way (the coefficient of a_0 is 1).
# A table lookup of the C kernel gives 16 bytes from one byte with about
# five instructions; TBL and PMULL here give 16 lanes of 4- or 8-bit
# products, so L is where the count goes (43 x 16 of about 820
# instructions a round for 16 blocks).
#
# Nothing is indexed by data or key: pi and the reduction tables are read
# by TBL from registers, addresses depend on the pointers and the block
# count only, and branches on the block count (public) only.  The last
# 1..15 blocks run one pass with only their lanes loaded and stored.  The
# serial modes (CBC and CFB encryption, OFB) run a pass a block.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;
use gost2015_armv8;

armv8::setup(@ARGV);

my $KS_DECRYPT = 160;   # offsetof(KUZNYECHIK_KEY, decrypt), checked in C
my $SCRATCH = 16 + 64;  # frame scratch: after x29/x30 and d8-d15

# l's coefficients, memory byte 0 (a_15) first (RFC 7801 4.1.2).
my @COEF = (148, 32, 133, 16, 194, 192, 1, 251, 1, 192, 194, 16, 133, 32, 148, 1);

# The products' constants: l's coefficients are symmetric around a_8
# (memory byte 7, 251), so the pairs (j, 14 - j) share theirs; bytes 6 and
# 8 and byte 15 have coefficient 1.
for my $j (0 .. 6) {
    die "kuznyechik-armv8.pl: l is not symmetric\n" if $COEF[$j] != $COEF[14 - $j];
}
die "kuznyechik-armv8.pl: unexpected unit coefficients\n"
    if $COEF[6] != 1 || $COEF[15] != 1;
my @PCONST = @COEF[0 .. 5, 7];      # 148 32 133 16 194 192 251

# A polynomial of degree < 16 reduced modulo x^8+x^7+x^6+x+1.
sub red {
    my ($x) = @_;
    for (my $b = 15; $b >= 8; $b--) {
        $x ^= 0x1c3 << ($b - 8) if ($x >> $b) & 1;
    }
    return $x;
}

my @v = map { "v$_" } 0 .. 31;

##########################################################################
# Constants

my $rodata = rodata_begin() . sbox_rodata(".Lkuz_pi", @PI)
    . sbox_rodata(".Lkuz_pi_inv", @PI_INV);
# L constants, 16 bytes each: the seven products' constants in every lane,
# then the reduction tables (h x^8 mod p for h = 0..15, and for h << 4),
# then 0x0f in every byte.
$rodata .= ".p2align\t4\n.Lkuz_lconst:\n";
$rodata .= "\t.byte\t" . join(',', ($_) x 16) . "\n" for @PCONST;
$rodata .= "\t.byte\t" . join(',', map { red($_ << 8) } 0 .. 15) . "\n";
$rodata .= "\t.byte\t" . join(',', map { red($_ << 12) } 0 .. 15) . "\n";
$rodata .= "\t.byte\t" . join(',', (15) x 16) . "\n";


##########################################################################
# Register bookkeeping for the core: @st[j] names the register holding
# memory byte j of the 16 blocks.  The core is generated unrolled, so the
# registers move by renaming.

# 16x16 byte transpose of the registers @$r (row i in $r->[i]), in place up
# to renaming, with one free register $$free (updated).  Rows become
# columns: afterwards $r->[j] holds byte j of every row, lane i from row i.
sub transpose16 {
    my ($r, $free) = @_;
    my $s = "";
    for my $st ([1, '16b'], [2, '8h'], [4, '4s'], [8, '2d']) {
        my ($d, $t) = @$st;
        for my $i (0 .. 15) {
            next if $i & $d;
            my ($p, $q) = ($r->[$i], $r->[$i + $d]);
            $s .= "\ttrn1\t$$free.$t,$p.$t,$q.$t\n";
            $s .= "\ttrn2\t$q.$t,$p.$t,$q.$t\n";
            $r->[$i] = $$free;
            $$free = $p;
        }
    }
    return $s;
}

# X[K_r]: register j ^= byte j of round key r (x0 = rk): LD4R broadcasts
# four key bytes into the four consecutive registers @k at once.
sub xkey {
    my ($st, $r, @k) = @_;
    my $s = "\tadd\tx9,x0,#" . (16 * $r) . "\n";
    for my $g (0 .. 3) {
        $s .= "\tld4r\t{$k[0].16b-$k[3].16b},[x9],#4\n";
        $s .= "\teor\t$st->[4 * $g + $_].16b,$st->[4 * $g + $_].16b,$k[$_].16b\n" for 0 .. 3;
    }
    return $s;
}

# S (or S^-1) of the 16 state registers in v0-v15 (renamed within v0-v15):
# the table in v16-v31.  st[12..15] wait in the frame's four scratch
# slots, so that each lookup has its output register and the constant
# 0x40; the last two lookups park an earlier output in a slot emptied by
# then, so the count of free registers never runs out.
sub sbox {
    my ($st, $label) = @_;
    my @T = @v[16 .. 31];
    my $s = adr_label("x9", $label) . pi_load("x9", @T);
    my @slot = map { $SCRATCH + 16 * $_ } 0 .. 3;
    $s .= "\tstp\t" . qreg($st->[12]) . "," . qreg($st->[13]) . ",[sp,#$slot[0]]\n";
    $s .= "\tstp\t" . qreg($st->[14]) . "," . qreg($st->[15]) . ",[sp,#$slot[2]]\n";
    my $c40 = $st->[15];
    my @free = @$st[12 .. 14];
    my (@empty, @parked);
    $s .= "\tmovi\t$c40.16b,#0x40\n";
    for my $j (0 .. 15) {
        if ($j >= 12) {
            if (@free < 2) {
                my $k = scalar @parked;
                my $sl = shift @empty;
                $s .= "\tstr\t" . qreg($st->[$k]) . ",[sp,#$sl]\n";
                push @parked, [$k, $sl];
                push @free, $st->[$k];
            }
            my $in = shift @free;
            $s .= "\tldr\t" . qreg($in) . ",[sp,#$slot[$j - 12]]\n";
            push @empty, $slot[$j - 12];
            $st->[$j] = $in;
        }
        my $d = shift @free;
        $s .= pi_lookup($d, $st->[$j], $c40, @T);
        push @free, $st->[$j];
        $st->[$j] = $d;
    }
    push @free, $c40;
    for my $pk (@parked) {
        my ($k, $sl) = @$pk;
        my $r = shift @free;
        $s .= "\tldr\t" . qreg($r) . ",[sp,#$sl]\n";
        $st->[$k] = $r;
    }
    return $s;
}

# The L constants into v16-v25; v26-v31 are L's temporaries.
my @C = map { $v[16 + $_] } 0 .. 6;     # 148 32 133 16 194 192 251
my ($RLO, $RHI, $M0F) = @v[23 .. 25];
my ($P, $PL, $PH, $AL, $AH) = @v[26 .. 30];

sub lconst_load {
    return adr_label("x9", ".Lkuz_lconst")
        . "\tld1\t{v16.16b-v19.16b},[x9],#64\n\tld1\t{v20.16b-v23.16b},[x9],#64\n"
        . "\tld1\t{v24.16b-v25.16b},[x9]\n";
}

# The new byte of one LFSR step: sum over the pairs (i, j) with constant c
# of c (st[i] ^ st[j]), the single products, and the plain terms, into the
# register $dst (one of the plain terms' registers, XORed last).
sub lfsr_new {
    my ($st, $pairs, $singles, $plain, $dst) = @_;
    my $s = "";
    my $first = 1;
    my @prods = ((map { [ 'pair', @$_ ] } @$pairs), (map { [ 'single', @$_ ] } @$singles));
    for my $pr (@prods) {
        my ($kind, @a) = @$pr;
        my ($x, $c);
        if ($kind eq 'pair') {
            $s .= "\teor\t$P.16b,$st->[$a[0]].16b,$st->[$a[1]].16b\n";
            ($x, $c) = ($P, $a[2]);
        } else {
            ($x, $c) = ($st->[$a[0]], $a[1]);
        }
        if ($first) {
            $s .= "\tpmull\t$AL.8h,$x.8b,$c.8b\n\tpmull2\t$AH.8h,$x.16b,$c.16b\n";
            $first = 0;
        } else {
            $s .= "\tpmull\t$PL.8h,$x.8b,$c.8b\n\tpmull2\t$PH.8h,$x.16b,$c.16b\n";
            $s .= "\teor\t$AL.16b,$AL.16b,$PL.16b\n\teor\t$AH.16b,$AH.16b,$PH.16b\n";
        }
    }
    # reduce: low bytes ^ (high byte) x^8 mod p
    $s .= "\tuzp1\t$P.16b,$AL.16b,$AH.16b\n\tuzp2\t$PL.16b,$AL.16b,$AH.16b\n";
    $s .= "\tushr\t$PH.16b,$PL.16b,#4\n\tand\t$PL.16b,$PL.16b,$M0F.16b\n";
    $s .= "\ttbl\t$PL.16b,{$RLO.16b},$PL.16b\n\ttbl\t$PH.16b,{$RHI.16b},$PH.16b\n";
    $s .= "\teor\t$P.16b,$P.16b,$PL.16b\n\teor\t$P.16b,$P.16b,$PH.16b\n";
    my @pl = grep { $st->[$_] ne $dst } @$plain;
    $s .= "\teor\t$P.16b,$P.16b,$st->[$_].16b\n" for @pl;
    $s .= "\teor\t$dst.16b,$P.16b,$dst.16b\n";
    return $s;
}

# L = R^16: R puts l(a) at memory byte 0 and moves byte m to m + 1 (byte
# 15, a_0, leaves).
sub lin {
    my ($st) = @_;
    my $s = "";
    for (1 .. 16) {
        my $d = $st->[15];
        $s .= lfsr_new($st,
            [ [0, 14, $C[0]], [1, 13, $C[1]], [2, 12, $C[2]], [3, 11, $C[3]],
              [4, 10, $C[4]], [5, 9, $C[5]] ],
            [ [7, $C[6]] ], [6, 8, 15], $d);
        @$st = ($d, @$st[0 .. 14]);
    }
    return $s;
}

# L^-1 = (R^-1)^16: R^-1 moves byte m + 1 to m and puts at byte 15 the
# a_0 that makes l(a) equal the old byte 0.
sub lin_inv {
    my ($st) = @_;
    my $s = "";
    for (1 .. 16) {
        my $d = $st->[0];
        $s .= lfsr_new($st,
            [ [1, 15, $C[0]], [2, 14, $C[1]], [3, 13, $C[2]], [4, 12, $C[3]],
              [5, 11, $C[4]], [6, 10, $C[5]] ],
            [ [8, $C[6]] ], [7, 9, 0], $d);
        @$st = (@$st[1 .. 15], $d);
    }
    return $s;
}

# The core: 16 blocks in v0..v15 (block i in v_i, memory order) are
# encrypted (or decrypted) in place up to renaming; returns the code and
# the registers holding output blocks 0..15 (all below v16).  x0 = ks.
# Clobbers v0-v31, x9.
sub core {
    my ($dec) = @_;
    my @st = @v[0 .. 15];
    my $free = $v[16];
    my $s = transpose16(\@st, \$free);
    # back below v16: the S-box's table goes there
    for my $j (0 .. 15) {
        if ($st[$j] eq $v[16]) { $s .= "\tmov\t$free.16b,$v[16].16b\n"; $st[$j] = $free; }
    }
    if (!$dec) {
        $s .= xkey(\@st, 0, @v[16 .. 19]);
        for my $r (1 .. 9) {
            $s .= sbox(\@st, ".Lkuz_pi") . lconst_load() . lin(\@st);
            $s .= xkey(\@st, $r, @v[16 .. 19]);
        }
    } else {
        $s .= xkey(\@st, 9, @v[16 .. 19]);
        for my $r (reverse 0 .. 8) {
            $s .= lconst_load() . lin_inv(\@st) . sbox(\@st, ".Lkuz_pi_inv");
            $s .= xkey(\@st, $r, @v[16 .. 19]);
        }
    }
    $free = $v[16];
    $s .= transpose16(\@st, \$free);
    for my $i (0 .. 15) {
        if ($st[$i] eq $v[16]) { $s .= "\tmov\t$free.16b,$v[16].16b\n"; $st[$i] = $free; }
    }
    return ($s, @st);
}

my ($enc_code, @ENC) = core(0);
my ($dec_code, @DEC) = core(1);
my $text = local_function_begin(".Lkuz_enc16") . $enc_code . "\tret\n"
    . local_function_end(".Lkuz_enc16")
    . local_function_begin(".Lkuz_dec16") . $dec_code . "\tret\n"
    . local_function_end(".Lkuz_dec16");

##########################################################################
# Modes.  Arguments ks x0, in x1, out x2, nblocks x3, iv x4.  A whole pass
# is 16 blocks; the last 1..15 blocks run one pass whose loads and stores
# stop at the block count (x3 then holds it).

my $label = 0;
sub L { return ".Lkuz_" . $_[0] . "_" . $label++; }

# Blocks $lo.. of a pass from [$base + 16 i] into the registers @$regs
# (block i in $regs->[i - $lo]), or stored from them; in a tail pass only
# those below the count x3.
sub blocks_io {
    my ($op, $base, $regs, $lo, $tail) = @_;
    my $s = "";
    my $skip = L("skip");
    for my $k (0 .. $#$regs) {
        my $i = $lo + $k;
        $s .= "\tcmp\tx3,#$i\n\tb.ls\t$skip\n" if $tail && $i > 0;
        $s .= "\t$op\t" . qreg($regs->[$k]) . ",[$base,#" . (16 * $i) . "]\n";
    }
    $s .= "$skip:\n" if $tail;
    return $s;
}

# XOR of output block i (core register) with the register $x->[i].
sub xor_out {
    my ($out, $x) = @_;
    return join '', map { "\teor\t$out->[$_].16b,$out->[$_].16b,$x->[$_].16b\n" } 0 .. 15;
}

my $FRAME_D = [ map { "d$_" } 8 .. 15 ];

# One pass of a parallel mode (the tail pass if $tail).
sub pass {
    my ($mode, $tail) = @_;
    my $s = "";
    my @in = @v[0 .. 15];
    my @hi = @v[16 .. 31];
    if ($mode eq 'ecb_enc' || $mode eq 'ecb_dec' || $mode eq 'cbc_dec') {
        $s .= blocks_io('ldr', 'x1', \@in, 0, $tail);
        $s .= "\tbl\t" . ($mode eq 'ecb_enc' ? ".Lkuz_enc16" : ".Lkuz_dec16") . "\n";
        my @out = $mode eq 'ecb_enc' ? @ENC : @DEC;
        if ($mode eq 'cbc_dec') {
            # c_(i-1) for block i: the IV, then the pass's own ciphertext
            $s .= "\tldr\t" . qreg($hi[0]) . ",[x4]\n";
            $s .= blocks_io('ldr', 'x1', [ @hi[1 .. 15] ], 0, $tail);
            $s .= xor_out(\@out, \@hi);
        }
        $s .= newiv($tail) if $mode eq 'cbc_dec';
        $s .= blocks_io('str', 'x2', \@out, 0, $tail);
    } elsif ($mode eq 'cfb_dec') {
        $s .= "\tldr\t" . qreg($in[0]) . ",[x4]\n";
        $s .= blocks_io('ldr', 'x1', [ @in[1 .. 15] ], 0, $tail);
        $s .= "\tbl\t.Lkuz_enc16\n";
        $s .= blocks_io('ldr', 'x1', \@hi, 0, $tail);
        $s .= xor_out(\@ENC, \@hi) . newiv($tail);
        $s .= blocks_io('str', 'x2', \@ENC, 0, $tail);
    } elsif ($mode eq 'ctr') {
        # counter (x6 high, x7 low, native) + i into block i, big-endian
        for my $i (0 .. 15) {
            $s .= "\tadds\tx9,x7,#$i\n\tadc\tx10,x6,xzr\n\trev\tx9,x9\n\trev\tx10,x10\n";
            $s .= "\tfmov\t" . dreg($in[$i]) . ",x10\n\tmov\t$in[$i].d[1],x9\n";
        }
        $s .= "\tbl\t.Lkuz_enc16\n";
        $s .= blocks_io('ldr', 'x1', \@hi, 0, $tail);
        $s .= xor_out(\@ENC, \@hi);
        $s .= blocks_io('str', 'x2', \@ENC, 0, $tail);
        $s .= $tail ? "\tadds\tx7,x7,x3\n" : "\tadds\tx7,x7,#16\n";
        $s .= "\tadc\tx6,x6,xzr\n";
    }
    return $s;
}

# CBC and CFB decryption: the IV becomes the pass's last ciphertext block,
# read before any store (in place, the store would overwrite it).
sub newiv {
    my ($tail) = @_;
    my $s = $tail ? "\tadd\tx9,x1,x3,lsl #4\n\tldur\tq16,[x9,#-16]\n"
        : "\tldr\tq16,[x1,#240]\n";
    return $s . "\tstr\tq16,[x4]\n";
}

sub parallel_entry {
    my ($fn, $mode, $local) = @_;
    my $s = $local ? local_function_begin($fn) : function_begin($fn);
    my ($go, $loop, $tail, $done) = (L("go"), L("loop"), L("tail"), L("done"));
    $s .= "\tcbnz\tx3,$go\n\tret\n$go:\n" . frame_enter($FRAME_D, 64);
    if ($mode eq 'ctr') {
        $s .= "\tldp\tx6,x7,[x4]\n\trev\tx6,x6\n\trev\tx7,x7\n";
    }
    $s .= "\tcmp\tx3,#16\n\tb.lo\t$tail\n$loop:\n" . pass($mode, 0);
    $s .= "\tadd\tx1,x1,#256\n\tadd\tx2,x2,#256\n";
    $s .= "\tsub\tx3,x3,#16\n\tcmp\tx3,#16\n\tb.hs\t$loop\n";
    $s .= "$tail:\n\tcbz\tx3,$done\n" . pass($mode, 1) . "$done:\n";
    if ($mode eq 'ctr') {
        $s .= "\trev\tx6,x6\n\trev\tx7,x7\n\tstp\tx6,x7,[x4]\n";
    }
    $s .= wipe() . frame_leave($FRAME_D, 64);
    $s .= $local ? local_function_end($fn) : function_end($fn);
    return $s;
}

# The serial modes: one block a pass, in lane 0 (the other lanes hold
# whatever the registers held; they are never stored).
sub serial_entry {
    my ($fn, $mode) = @_;
    my $s = function_begin($fn);
    my ($go, $loop) = (L("go"), L("loop"));
    my ($o) = $ENC[0];
    $s .= "\tcbnz\tx3,$go\n\tret\n$go:\n" . frame_enter($FRAME_D, 64);
    $s .= "\tldr\tq0,[x4]\n";
    $s .= "$loop:\n";
    if ($mode eq 'cbc_enc') {
        $s .= "\tldr\tq16,[x1],#16\n\teor\tv0.16b,v0.16b,v16.16b\n\tbl\t.Lkuz_enc16\n";
        $s .= "\tstr\t" . qreg($o) . ",[x2],#16\n";
        $s .= "\tmov\tv0.16b,$o.16b\n" if $o ne 'v0';
    } elsif ($mode eq 'cfb_enc') {
        $s .= "\tbl\t.Lkuz_enc16\n\tldr\tq16,[x1],#16\n\teor\tv0.16b,$o.16b,v16.16b\n";
        $s .= "\tstr\tq0,[x2],#16\n";
    } else {
        $s .= "\tbl\t.Lkuz_enc16\n\tldr\tq16,[x1],#16\n\teor\tv16.16b,$o.16b,v16.16b\n";
        $s .= "\tstr\tq16,[x2],#16\n";
        $s .= "\tmov\tv0.16b,$o.16b\n" if $o ne 'v0';
    }
    $s .= "\tsubs\tx3,x3,#1\n\tb.ne\t$loop\n\tstr\tq0,[x4]\n";
    $s .= wipe() . frame_leave($FRAME_D, 64) . function_end($fn);
    return $s;
}

# No block, key byte or keystream is left in a vector register, nor on the
# stack (the S step's spills).
sub wipe {
    my $s = join '', map { "\tmovi\t$_.2d,#0\n" } @v;
    $s .= "\tstp\tq0,q1,[sp,#$SCRATCH]\n\tstp\tq0,q1,[sp,#" . ($SCRATCH + 32) . "]\n";
    return $s;
}

{
    my $fn = "kuznyechik_neon_ecb";
    my $s = function_begin($fn);
    # the schedule says which way: a branch on public data
    $s .= "\tldr\tw9,[x0,#$KS_DECRYPT]\n\tcbnz\tw9,.Lkuz_ecb_dec_entry\n";
    $s .= "\tb\t.Lkuz_ecb_enc_entry\n" . function_end($fn);
    $text .= $s;
}
for my $pe (['.Lkuz_ecb_enc_entry', 'ecb_enc'], ['.Lkuz_ecb_dec_entry', 'ecb_dec']) {
    my ($name, $mode) = @$pe;
    $text .= parallel_entry($name, $mode, 1);
}
$text .= parallel_entry("kuznyechik_neon_$_", $_) for qw(ctr cbc_dec cfb_dec);
$text .= serial_entry("kuznyechik_neon_$_", $_) for qw(cbc_enc cfb_enc ofb);

armv8::finish(".arch\tarmv8-a\n" . $rodata . text_begin() . $text);
