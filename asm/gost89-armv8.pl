#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Patent note: EA021803B1 (Infotecs) claims GOST 28147-89 on SIMD platforms; ./Configure no-gost-simd leaves this file out.
#
# Vectorised GOST 28147-89 / Magma kernel for AArch64 (Advanced SIMD only),
# behind the SMG_BLOCK_KERNEL contract of src/kernel.h: ECB, CTR (Magma),
# CNT (GOST 28147-89), CBC decryption and CFB decryption over whole 8-byte
# blocks, for both byte orders and every parameter set.  The serial modes
# stay with the C kernel (src/gost89_arm.c wires the table).  Beside them,
# IMIT's 16 rounds a block on one lane, for constant-time = yes.
#
#   perl asm/gost89-armv8.pl elf > asm/gost89-armv8.S
#
# Entry points: gost89_neon_{ecb,ctr,cnt,cbc_dec,cfb_dec} with AAPCS64
# arguments ks=x0 in=x1 out=x2 nblocks=x3 iv=x4; gost89_neon_imit with
# ks=x0 state=x1 in=x2 nblocks=x3.
#
# Real Arm hardware is not available to measure; the figures are
# instructions per byte counted statically from the generated code: the
# 16-block loop with the rounds it calls (1336 instructions per 128 bytes
# for ECB, 1314 of them the rounds: ten per register and round plus a
# quarter of the key load), beside gcc 12 -O3's code for src/gost89.c
# counted the same way (its 4-block loop with the 32 rounds unrolled, 1794
# instructions per 32 bytes for ECB; the serial modes' 1-block loop is 56.2
# per byte too):
#
#   instructions per byte           ECB     CTR     CNT     CBC-dec  CFB-dec
#   gost89-neon, GOST 28147-89      10.44   10.64   10.64   10.52    10.52
#   gost89-neon, Magma order        10.50   10.64   10.70   10.65    10.65
#   src/gost89.c (gcc 12 -O3)       56.1    55.9    56.5    55.8     55.7
#
# IMIT, counted dynamically by util/arm-icount.pl (the difference between
# 1 KiB and 9 KiB, CryptoPro-A, GOST 28147-89 order), not measured on
# hardware:
#
#   instructions per byte           IMIT
#   gost89-neon (one lane)          20.62
#   src/gost89.c (gcc 12 -O3)       27.12
#
# A block is 165 instructions (16 rounds of ten, the block's load and
# XOR, the loop) in one dependency chain about eight instructions deep a
# round, against independent registers in the parallel modes, so the
# count does not predict its speed; the C kernel stays IMIT's default.
# Timed under qemu-user 7.2 (TCG, -cpu max, on a loaded 2-vCPU Xeon host,
# Intel family 6 model 207; 64 calls of 64 KiB, five runs) the NEON rounds
# ran at 4.0-4.7 MB/s and the C kernel at 36-44 MB/s: qemu emulates TBL
# slowly, which says nothing about Arm hardware either.
#
# Whole calls, counted dynamically (qemu-aarch64 -singlestep -d exec, ECB,
# GOST 28147-89 order), NEON / C kernel: 1 block 397 / 464, 4 blocks
# 411 / 1833, 8 blocks 737 / 3627, 15 blocks 1400 / 6763, 1024 blocks
# 85534 / 459303.  The short calls run one, two or four register pairs: a
# lone pair is one dependency chain per round (about eight instructions
# deep), so below four blocks the C kernel may well be faster in time, but
# it indexes memory with secrets and this path does not.
#
# Design.  One 32-bit half-block per lane, four blocks per register pair
# (n1 in v2g, n2 in v2g+1), four pairs interleaved: 16 blocks a pass, all
# rounds unrolled.  A round on one register of four halves is ten
# instructions, none indexed by or branching on data or key:
#   t = n1 + k                      ADD (k broadcast by LD1R, shared)
#   hi index = (t >> 4) | j << 4    USHR (bytes), ORR with POS
#   lo index = (t & 15) | j << 4    BIF: t keeps its low nibble, takes POS
#   s = lo(S) | hi(S)               two TBL through 64-byte tables, ORR
#   n2 ^= rol(s, 11)                SHL, SRI, EOR
# where j is the byte's position in its lane (POS = 0x30201000 per lane)
# and the two tables (GOST89_SBOX_TABLES.simd, built by src/gost89_arm.c)
# hold, at 16j + x, S[2j](x) and S[2j+1](x) << 4: TBL with four table
# registers looks up 64 entries, so one instruction substitutes the eight
# nibbles of one kind of four blocks.  Holding the halves rotated by 11
# (as the AVX-512 kernel does) moves the rotation to the read side at the
# same cost, so it is not done.  A byte-sliced layout (register j holding
# byte j of 16 halves) was counted too: its S-box is cheaper (16-entry
# tables, no position tag) but the carries of the 32-bit key addition
# across byte registers cost more than that saves, about 46 instructions a
# round for 16 blocks against 40 here.  With FEAT_SHA3, EOR3 would merge
# both lookups into the XOR (nine a round, the halves held rotated); it is
# not baseline Armv8, so this kernel does without.
#
# Calls of any size run in the vector unit, so every block count is
# constant-time: 16-block passes, then one pass of one, two or four pairs
# for the last 1..15 blocks, which loads and stores only the lanes of real
# blocks (single-lane LD2/ST2 chosen by the block count, which is public).

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;

armv8::setup(@ARGV);

# Offsets fixed by src/gost89.h; src/gost89_arm.c checks them at compile
# time.
my $KEY_TAB  = 128;     # offsetof(GOST89_KEY, tab)
my $KEY_BE   = 136;     # offsetof(GOST89_KEY, big_endian)
my $TAB_SIMD = 4096;    # offsetof(GOST89_SBOX_TABLES, simd)

my $C1 = 0x01010104;    # RFC 5830 section 6: N4 step, mod 2^32 - 1
my $C2 = 0x01010101;    # N3 step, mod 2^32

my $code = ".arch\tarmv8-a\n" . text_begin();

my ($ks, $inp, $out, $n, $ivp) = map { "x$_" } 0 .. 4;
my @v = map { "v$_" } 0 .. 31;

# v0-v7 state (pair g: n1 in v2g, n2 in v2g+1), v8-v15 round temporaries
# (two per pair), also the mode's data registers outside the rounds;
# v16-v19 the mode's constants (kept across the rounds); v20/v21 the round
# keys, alternating so the next load need not wait; v22 POS; v23 0x0f in
# every byte; v24-v27 and v28-v31 the two tables.
my @K = @v[20, 21];
my ($POS, $M0F) = @v[22, 23];
my @TLO = @v[24 .. 27];
my @THI = @v[28 .. 31];
sub A  { return $v[2 * $_[0]]; }
sub B  { return $v[2 * $_[0] + 1]; }
sub T0 { return $v[8 + 2 * $_[0]]; }
sub T1 { return $v[9 + 2 * $_[0]]; }

my $label = 0;
sub L { return ".Lg_" . $_[0] . "_" . $label++; }

# Instruction lists of several pairs, emitted row by row so that the pairs'
# independent chains alternate in the stream.
sub interleave {
    my @lists = @_;
    my $s = "";
    for my $i (0 .. $#{ $lists[0] }) {
        $s .= "\t$_->[$i]\n" for @lists;
    }
    return $s;
}

##########################################################################
# The rounds

# dst ^= f(src + k) on one pair.
sub half_round {
    my ($src, $dst, $t, $u, $k) = @_;
    return [
        "add\t$t.4s,$src.4s,$k.4s",
        "ushr\t$u.16b,$t.16b,#4",
        "bif\t$t.16b,$POS.16b,$M0F.16b",
        "orr\t$u.16b,$u.16b,$POS.16b",
        "tbl\t$t.16b,{$TLO[0].16b-$TLO[3].16b},$t.16b",
        "tbl\t$u.16b,{$THI[0].16b-$THI[3].16b},$u.16b",
        "orr\t$t.16b,$t.16b,$u.16b",
        "shl\t$u.4s,$t.4s,#11",
        "sri\t$u.4s,$t.4s,#21",
        "eor\t$dst.16b,$dst.16b,$u.16b",
    ];
}

# 32 rounds on pairs 0..G-1 with the schedule at ks (application order).
# The last round does not swap: the block leaves as n1 << 32 | n2 with n1
# in v2g.  Clobbers x15 and the temporaries of the pairs.
sub core {
    my ($G) = @_;
    my $name = ".Lgost_core$G";
    my $s = local_function_begin($name);
    $s .= "\tmov\tx15,$ks\n\tld1r\t{$K[0].4s},[x15],#4\n";
    for my $r (0 .. 31) {
        my @lists = map {
            my ($src, $dst) = $r & 1 ? (B($_), A($_)) : (A($_), B($_));
            half_round($src, $dst, T0($_), T1($_), $K[$r & 1]);
        } 0 .. $G - 1;
        my $rows = interleave(@lists);
        # the next key, once every ADD of this round has read the other one
        if ($r < 31) {
            my $after = $G;
            my @l = split /\n/, $rows;
            splice @l, $after, 0, "\tld1r\t{$K[($r + 1) & 1].4s},[x15],#4";
            $rows = join("\n", @l) . "\n";
        }
        $s .= $rows;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= core(4) . core(2) . core(1);

##########################################################################
# Modes
#
# A pass runs G pairs (4G lanes).  Whole passes (16 blocks) move every
# lane; the pass for the last r = 1..15 blocks (r in x3) moves lanes below
# rmin unconditionally and lane b < rmax only if b < r.  Blocks are moved
# as memory forms: LD2/ST2 split a block into its first 4 bytes (X) and
# last 4 bytes (Y).  GOST 28147-89 order: n1 = X, n2 = Y, and the result
# n1 << 32 | n2 leaves as X = n2, Y = n1.  Magma (big-endian): n1 =
# rev32(Y), n2 = rev32(X), and it leaves as X = rev32(n1), Y = rev32(n2).
#
# Scalars: x6 the CTR counter (native), w6/w7 CNT's N3/N4, x7 the previous
# ciphertext block of CBC/CFB (raw), x8 x11 x14 scratch, x12/x13 CNT's
# tables.

# LD2/ST2 of lanes $lo .. $hi-1 of the pairs in @$pairs ([X, Y] each) from
# or to consecutive blocks at [$ptr] (post-incremented); lanes from $rmin
# on only while the lane is below the block count.
sub lanes_io {
    my ($op, $ptr, $pairs, $lo, $rmin, $hi) = @_;
    my $s = "";
    my $skip = L("skip");
    my $cond = 0;
    my $b = $lo;
    while ($b < $hi) {
        my ($x, $y) = @{ $pairs->[$b >> 2] };
        if (($b & 3) == 0 && $b + 4 <= $rmin) {
            $s .= "\t$op\t{$x.4s,$y.4s},[$ptr],#32\n";
            $b += 4;
            next;
        }
        if ($b >= $rmin) {
            $s .= "\tcmp\t$n,#$b\n\tb.ls\t$skip\n";
            $cond = 1;
        }
        $s .= "\t$op\t{$x.s,$y.s}[" . ($b & 3) . "],[$ptr],#8\n";
        $b++;
    }
    $s .= "$skip:\n" if $cond;
    return $s;
}

# Lane 0 of a memory-form pair from x7 (the previous block).
sub iv_lane0 {
    my ($x, $y) = @{ $_[0] };
    return "\tmov\t$x.s[0],w7\n\tlsr\tx8,x7,#32\n\tmov\t$y.s[0],w8\n";
}

# Memory form in the temporaries -> state, Magma order.
sub from_mem_be {
    my @g = @_;
    return interleave(map { [ "rev32\t" . A($_) . ".16b," . T1($_) . ".16b",
                              "rev32\t" . B($_) . ".16b," . T0($_) . ".16b" ] } @g);
}

# The result into the temporaries as memory form, XORed into the data
# there if $xor.
sub to_mem {
    my ($be, $xor, @g) = @_;
    return interleave(map {
        my ($a, $b, $x, $y) = (A($_), B($_), T0($_), T1($_));
        $be ? ($xor ? [ "rev32\t$a.16b,$a.16b", "rev32\t$b.16b,$b.16b",
                        "eor\t$x.16b,$x.16b,$a.16b", "eor\t$y.16b,$y.16b,$b.16b" ]
                    : [ "rev32\t$x.16b,$a.16b", "rev32\t$y.16b,$b.16b" ])
            : ($xor ? [ "eor\t$x.16b,$x.16b,$b.16b", "eor\t$y.16b,$y.16b,$a.16b" ]
                    : [ "mov\t$x.16b,$b.16b", "mov\t$y.16b,$a.16b" ]);
    } @g);
}

# CTR: v16 = (0, 1), v17 = (2, 2) as 64-bit lanes; block i of the pass is
# the big-endian integer x6 + i.  Magma's n1 is its low word; GOST
# 28147-89 reads the big-endian bytes little-endian, so there n1 is the
# byte-reversed high word.
sub ctr_gen {
    my ($be, @g) = @_;
    my $s = "\tdup\tv18.2d,x6\n\tadd\tv18.2d,v18.2d,v16.2d\n";
    for my $g (@g) {
        my ($a, $b, $x, $y) = (A($g), B($g), T0($g), T1($g));
        $s .= "\tadd\tv19.2d,v18.2d,v17.2d\n";
        if ($be) {
            $s .= "\tuzp1\t$a.4s,v18.4s,v19.4s\n\tuzp2\t$b.4s,v18.4s,v19.4s\n";
        } else {
            $s .= "\tuzp1\t$x.4s,v18.4s,v19.4s\n\tuzp2\t$y.4s,v18.4s,v19.4s\n";
            $s .= "\trev32\t$a.16b,$y.16b\n\trev32\t$b.16b,$x.16b\n";
        }
        $s .= "\tadd\tv18.2d,v19.2d,v17.2d\n" if $g != $g[-1];
    }
    return $s;
}

# CNT: lane j (1-based) of the pass is N3 + j C2 mod 2^32 and N4 + j C1
# with the end-around carry of gost_cnt_next: x12 holds j C2 and x13
# j C1 mod 2^32 - 1 for j = 1..16.  One addition of j C1 with the
# end-around carry equals j steps of one C1: after every step the value is
# ((N4 + steps - 1) mod (2^32 - 1)) + 1 as long as the sum is not 0, and
# j C1 mod 2^32 - 1 is never 0 for j < 2^32 - 1 (C1 is prime to it).
sub cnt_gen {
    my (@g) = @_;
    my $G = @g;
    my $list = sub { my $b = shift; $G == 1 ? "{v$b.4s}" : "{v$b.4s-v" . ($b + $G - 1) . ".4s}" };
    my $s = "\tdup\tv16.4s,w6\n\tdup\tv17.4s,w7\n";
    $s .= "\tld1\t" . $list->(8) . ",[x12]\n\tld1\t" . $list->(12) . ",[x13]\n";
    $s .= interleave(map {
        my ($a, $b, $c2, $c1) = (A($_), B($_), $v[8 + $_], $v[12 + $_]);
        [ "add\t$a.4s,v16.4s,$c2.4s", "add\t$b.4s,v17.4s,$c1.4s",
          "cmhi\t$c1.4s,$c1.4s,$b.4s", "sub\t$b.4s,$b.4s,$c1.4s" ];
    } @g);
    return $s;
}

# The state after the pass's blocks: x14 = their count minus one.
sub cnt_step {
    return "\tldr\tw8,[x12,x14,lsl #2]\n\tadd\tw6,w6,w8\n"
        . "\tldr\tw8,[x13,x14,lsl #2]\n\tadds\tw7,w7,w8\n\tcinc\tw7,w7,cs\n";
}

# One pass of $G pairs in byte order $be; ($rmin, $rmax) = (16, 16) for
# a whole pass.
sub pass {
    my ($mode, $be, $G, $rmin, $rmax) = @_;
    my @g = (0 .. $G - 1);
    my @state = map { [ A($_), B($_) ] } @g;
    my @tmp = map { [ T0($_), T1($_) ] } @g;
    my $whole = $rmin == $rmax;
    my $s = "";

    # cipher input
    if ($mode eq 'ecb' || $mode eq 'cbc_dec' || $mode eq 'cfb_dec') {
        my $dst = $be ? \@tmp : \@state;
        $s .= "\tmov\tx11,$inp\n";
        if ($mode eq 'cfb_dec') {
            # E(previous ciphertext): lane b takes block b - 1, lane 0 the IV
            $s .= iv_lane0($dst->[0]) . lanes_io('ld2', 'x11', $dst, 1, $rmin, $rmax);
        } else {
            $s .= lanes_io('ld2', 'x11', $dst, 0, $rmin, $rmax);
        }
        $s .= from_mem_be(@g) if $be;
    } elsif ($mode eq 'ctr') {
        $s .= ctr_gen($be, @g);
        $s .= $whole ? "\tadd\tx6,x6,#16\n" : "\tadd\tx6,x6,$n\n";
    } elsif ($mode eq 'cnt') {
        $s .= cnt_gen(@g);
        $s .= $whole ? "\tmov\tx14,#15\n" : "\tsub\tx14,$n,#1\n";
        $s .= cnt_step();
    }

    $s .= "\tbl\t.Lgost_core$G\n";

    # data to XOR with, read before any store (in place, CBC reads blocks
    # that the pass overwrites)
    if ($mode eq 'cbc_dec') {
        $s .= "\tmov\tx11,$inp\n" . iv_lane0($tmp[0]) . lanes_io('ld2', 'x11', \@tmp, 1, $rmin, $rmax);
    } elsif ($mode ne 'ecb') {
        $s .= "\tmov\tx11,$inp\n" . lanes_io('ld2', 'x11', \@tmp, 0, $rmin, $rmax);
    }
    if ($mode eq 'cbc_dec' || $mode eq 'cfb_dec') {
        $s .= $whole ? "\tldr\tx7,[$inp,#120]\n"
            : "\tadd\tx8,$inp,$n,lsl #3\n\tldur\tx7,[x8,#-8]\n";
    }
    $s .= to_mem($be, $mode ne 'ecb', @g);
    $s .= lanes_io('st2', $out, \@tmp, 0, $rmin, $rmax);
    $s .= "\tadd\t$inp,$inp,#128\n" if $whole;
    return $s;
}

# Mode state in and out of the scalar registers.
sub mode_in {
    my ($mode, $be) = @_;
    return "\tldr\tx7,[$ivp]\n" if $mode eq 'cbc_dec' || $mode eq 'cfb_dec';
    return "\tldr\tx6,[$ivp]\n\trev\tx6,x6\n" if $mode eq 'ctr';
    if ($mode eq 'cnt') {
        return $be ? "\tldp\tw7,w6,[$ivp]\n\trev\tw6,w6\n\trev\tw7,w7\n"
            : "\tldp\tw6,w7,[$ivp]\n";
    }
    return "";
}

sub mode_out {
    my ($mode, $be) = @_;
    return "\tstr\tx7,[$ivp]\n" if $mode eq 'cbc_dec' || $mode eq 'cfb_dec';
    return "\trev\tx6,x6\n\tstr\tx6,[$ivp]\n" if $mode eq 'ctr';
    if ($mode eq 'cnt') {
        return $be ? "\trev\tw6,w6\n\trev\tw7,w7\n\tstp\tw7,w6,[$ivp]\n"
            : "\tstp\tw6,w7,[$ivp]\n";
    }
    return "";
}

# Constants that live through a call.
sub mode_setup {
    my ($mode) = @_;
    if ($mode eq 'ctr') {
        return "\tmovi\tv16.2d,#0\n\tmov\tx8,#1\n\tmov\tv16.d[1],x8\n"
            . "\tmov\tx8,#2\n\tdup\tv17.2d,x8\n";
    }
    if ($mode eq 'cnt') {
        return adr_label("x12", ".Lg_cnt") . "\tadd\tx13,x12,#64\n";
    }
    return "";
}

my $FRAME_D = [ map { "d$_" } 8 .. 15 ];

sub entry {
    my ($mode) = @_;
    my $fn = "gost89_neon_$mode";
    my $s = function_begin($fn);
    # nothing to do: return before any frame exists
    my $go = L("go");
    $s .= "\tcbnz\t$n,$go\n\tret\n$go:\n";
    $s .= frame_enter($FRAME_D);
    $s .= "\tldr\tx8,[$ks,#$KEY_TAB]\n\tadd\tx8,x8,#$TAB_SIMD\n";
    $s .= "\tld1\t{$TLO[0].16b-$TLO[3].16b},[x8],#64\n";
    $s .= "\tld1\t{$THI[0].16b-$THI[3].16b},[x8]\n";
    $s .= adr_label("x8", ".Lg_pos") . "\tldr\t" . qreg($POS) . ",[x8]\n";
    $s .= "\tmovi\t$M0F.16b,#0x0f\n";
    $s .= mode_setup($mode);
    my $exit = L("exit");
    my $be_body = L("be");
    $s .= "\tldr\tw8,[$ks,#$KEY_BE]\n\tcbnz\tw8,$be_body\n";
    for my $be (0, 1) {
        my ($loop, $tail, $t2, $t4, $done) = map { L($_) } qw(loop tail t2 t4 done);
        $s .= "$be_body:\n" if $be;
        $s .= mode_in($mode, $be);
        $s .= "\tcmp\t$n,#16\n\tb.lo\t$tail\n$loop:\n";
        $s .= pass($mode, $be, 4, 16, 16);
        $s .= "\tsub\t$n,$n,#16\n\tcmp\t$n,#16\n\tb.hs\t$loop\n";
        $s .= "$tail:\n\tcbz\t$n,$done\n";
        $s .= "\tcmp\t$n,#4\n\tb.hi\t$t2\n" . pass($mode, $be, 1, 1, 4) . "\tb\t$done\n";
        $s .= "$t2:\n\tcmp\t$n,#8\n\tb.hi\t$t4\n" . pass($mode, $be, 2, 5, 8) . "\tb\t$done\n";
        $s .= "$t4:\n" . pass($mode, $be, 4, 9, 15);
        $s .= "$done:\n" . mode_out($mode, $be);
        $s .= "\tb\t$exit\n" unless $be;
    }
    $s .= "$exit:\n" . frame_leave($FRAME_D);
    $s .= function_end($fn);
    return $s;
}

$code .= entry($_) for qw(ecb ctr cnt cbc_dec cfb_dec);

##########################################################################
# IMIT (src/gost89.c, imit_body): state ^= block, then the first 16
# encryption rounds with no final swap, once per block: constant-time,
# for "constant-time = yes" (src/gost89_arm.c keeps the C kernel as the
# default).  Arguments (GOST89_KEY *, state, in, nblocks) in x0..x3.
#
# The blocks are serial, so one lane of one register pair is all there is
# to do: the half-blocks sit in lane 0 of v0/v1 and each round is the
# half_round of the parallel core (the same TBL S-box, ten instructions).
# The 16 rounds take K0..K7 twice (GOST 28147-89 section 5: rk[8..15] =
# rk[0..7] in the encryption schedule), so the eight keys are broadcast
# once, into v4-v7 and v16-v19.  Only caller-saved registers are used: no
# frame.  GOST 28147-89 order: n1 = X in v0, n2 = Y in v1, and the state
# leaves as X = n1, Y = n2; Magma (big-endian): the words byte-reversed,
# n1 = rev32(Y) in v1, n2 = rev32(X) in v0, so in both orders v0 takes X
# and v1 takes Y.
{
    my $fn = "gost89_neon_imit";
    my ($st, $src, $cnt) = ("x1", "x2", "x3");
    my ($d0, $d1) = @v[2, 3];       # the block, then the round temporaries
    my @IK = @v[4 .. 7, 16 .. 19];
    my $s = function_begin($fn);
    my ($go, $be_body, $exit) = (L("go"), L("be"), L("exit"));
    $s .= "\tcbnz\t$cnt,$go\n\tret\n$go:\n";
    $s .= "\tldr\tx8,[$ks,#$KEY_TAB]\n\tadd\tx8,x8,#$TAB_SIMD\n";
    $s .= "\tld1\t{$TLO[0].16b-$TLO[3].16b},[x8],#64\n";
    $s .= "\tld1\t{$THI[0].16b-$THI[3].16b},[x8]\n";
    $s .= adr_label("x8", ".Lg_pos") . "\tldr\t" . qreg($POS) . ",[x8]\n";
    $s .= "\tmovi\t$M0F.16b,#0x0f\n\tldr\tw10,[$ks,#$KEY_BE]\n\tmov\tx9,$ks\n";
    $s .= "\tld1r\t{$_.4s},[x9],#4\n" for @IK;
    $s .= "\tld2\t{$v[0].s,$v[1].s}[0],[$st]\n\tcbnz\tw10,$be_body\n";
    for my $be (0, 1) {
        my ($n1, $n2) = $be ? @v[1, 0] : @v[0, 1];
        my $loop = L("loop");
        my $rev = $be ? "\trev32\t$v[0].16b,$v[0].16b\n\trev32\t$v[1].16b,$v[1].16b\n" : "";
        $s .= "$be_body:\n" if $be;
        $s .= $rev;
        $s .= "$loop:\n\tld2\t{$d0.s,$d1.s}[0],[$src],#8\n";
        $s .= "\trev32\t$d0.16b,$d0.16b\n\trev32\t$d1.16b,$d1.16b\n" if $be;
        $s .= "\teor\t$v[0].16b,$v[0].16b,$d0.16b\n\teor\t$v[1].16b,$v[1].16b,$d1.16b\n";
        for my $r (0 .. 15) {
            my ($a, $b) = $r & 1 ? ($n2, $n1) : ($n1, $n2);
            $s .= join '', map { "\t$_\n" } @{ half_round($a, $b, $d0, $d1, $IK[$r & 7]) };
        }
        $s .= "\tsubs\t$cnt,$cnt,#1\n\tb.ne\t$loop\n$rev";
        $s .= "\tb\t$exit\n" unless $be;
    }
    $s .= "$exit:\n\tst2\t{$v[0].s,$v[1].s}[0],[$st]\n";
    # the round keys and the state leave no copy in the registers
    $s .= "\tmovi\t$_.2d,#0\n" for @v[0 .. 3], @IK;
    $s .= "\tret\n" . function_end($fn);
    $code .= $s;
}

##########################################################################
# Constants

$code .= rodata_begin() . ".p2align\t4\n";
# byte j of every lane: j << 4, the table index of the byte's position
$code .= ".Lg_pos:\n\t.long\t" . join(',', ('0x30201000') x 4) . "\n";
{
    my (@c2, @c1);
    for my $j (1 .. 16) {
        push @c2, sprintf("0x%08x", ($j * $C2) % 2**32);
        push @c1, sprintf("0x%08x", ($j * $C1) % (2**32 - 1));
    }
    $code .= ".Lg_cnt:\n";
    $code .= "\t.long\t" . join(',', splice(@c2, 0, 8)) . "\n" while @c2;
    $code .= "\t.long\t" . join(',', splice(@c1, 0, 8)) . "\n" while @c1;
}

armv8::finish($code);
