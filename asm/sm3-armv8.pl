#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM3 (GB/T 32905-2016) compression for AArch64 with the Armv8.2 SM3
# instructions, generated as GNU assembler text through
# util/perlasm/armv8.pm.  Owns sm3_ce_blocks(state, p, nblocks) behind the
# SM3_KERNEL contract of src/sm3.h; src/sm3_arm.c puts it in a kernel table
# and chooses it when the CPU has SM3.
#
#   perl asm/sm3-armv8.pl elf [inst] > asm/sm3-armv8.S
#
# Real Arm hardware is not available to measure, so speed stands in as
# instructions executed per byte, counted exactly under qemu-user by
# util/arm-icount.pl (the difference between runs of 1 KiB and 9 KiB),
# beside gcc 12 -O3's code for src/sm3.c counted the same way:
#
#   implementation             instructions/byte
#   this kernel (sm3-ce)        5.52
#   src/sm3.c (gcc 12 -O3)     30.39
#
# A block is 64 rounds of SM3SS1 + SM3TT1x + SM3TT2x plus one load of the
# round constant, 13 expansion steps of 5 instructions and 16 EOR for W';
# the rounds form one dependency chain (SS1 -> TT2 -> next SS1), so on
# hardware the latency of those instructions sets the speed.
#
# Semantics used (Arm ARM, SM3SS1, SM3TT1A/B, SM3TT2A/B, SM3PARTW1/2): the
# working state is two vectors, ABCD with A in lane 3 (then B, C, D down to
# lane 0) and EFGH likewise.  A round j is
#   SM3SS1  ss1, abcd, efgh, t        lane 3: rol(rol(A,12) + E + t3, 7)
#   SM3TT1x abcd, ss1, w'.s[j%4]      TT1 with W'_j = W_j ^ W_(j+4); shifts
#                                     the ABCD lanes and rotates B by 9
#   SM3TT2x efgh, ss1, w.s[j%4]       TT2, P0, shifts EFGH, rotates F by 19
# with the x = A forms (XOR boolean functions) in rounds 0-15 and the B
# forms (majority, choice) in 16-63.  The constant rol(T_j, j mod 32) must
# be in lane 3 of t: one unaligned 16-byte load from a table of the 64
# constants (three words of padding in front) puts it there.
#
# Message expansion four words at a time, with s0..s3 = W[j-16..j-1]:
#   SM3PARTW1 s0, ext(s1,s2,#12), s3        P1(W[j-16] ^ W[j-9] ^ rol15(W[j-3]))
#   SM3PARTW2 s0, ext(s2,s3,#8), ext(s0,s1,#12)
#                                           ^ W[j-6] ^ rol7(W[j-13]), lane 3
#                                           fixed for its use of W[j]
# leaves W[j..j+3] in s0's register: a ring of four registers.  Group q
# (rounds 4q..4q+3) needs W[4q..4q+7]; its expansion step produces
# W[4q+16..4q+19], used three groups later, so it runs after the group's
# last read of s0 and overlaps the next groups' rounds.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;

armv8::setup(@ARGV);

my $code = ".arch\tarmv8.2-a+crypto+sm4\n";

my ($state, $inp, $num, $tbl) = map { "x$_" } 0 .. 3;
my ($abcd, $efgh, $abcd0, $efgh0) = map { "v$_" } 0 .. 3;
my @ring = map { "v$_" } 4 .. 7;
my ($wp, $ss1, $tk, $e1, $e2, $e3) = map { "v$_" } 16 .. 21;

# rol(T_j, j mod 32), T_j from GB/T 32905-2016 section 4.2, behind three
# words of padding so that a 16-byte load at 4j ends with it.
my @tj = map {
    my $t = $_ < 16 ? 0x79cc4519 : 0x7a879d8a;
    my $r = $_ % 32;
    $r ? (($t << $r) | ($t >> (32 - $r))) & 0xffffffff : $t;
} 0 .. 63;
$code .= rodata_begin() . ".p2align\t4\n.Lsm3_tj:\n.long\t0,0,0\n";
for my $r (0 .. 15) {
    $code .= ".long\t" . join(',', map { sprintf '0x%08x', $_ } @tj[4 * $r .. 4 * $r + 3]) . "\n";
}
$code .= text_begin();

# Lanes in reverse order (state word 0 to lane 3).
sub lanes_reverse {
    my ($r) = @_;
    return "\trev64\t$r.4s,$r.4s\n\text\t$r.16b,$r.16b,$r.16b,#8\n";
}

my $fn = "sm3_ce_blocks";
$code .= function_begin($fn);
$code .= "\tcbz\t$num,.Lsm3_ret\n";
$code .= "\tld1\t{$abcd.4s,$efgh.4s},[$state]\n";
$code .= lanes_reverse($abcd) . lanes_reverse($efgh);
$code .= adr_label($tbl, ".Lsm3_tj");
$code .= ".Lsm3_loop:\n";
$code .= "\tld1\t{$ring[0].16b-$ring[3].16b},[$inp],#64\n";
$code .= "\trev32\t$_.16b,$_.16b\n" for @ring;
$code .= "\tmov\t$abcd0.16b,$abcd.16b\n\tmov\t$efgh0.16b,$efgh.16b\n";

my @s = @ring;
for my $q (0 .. 15) {
    my $expand = $q < 13;
    my ($s0, $s1, $s2, $s3) = @s;
    $code .= "\teor\t$wp.16b,$s0.16b,$s1.16b\n";
    # the expansion's operands, formed while s0 is still live
    my @pre = $expand ? (
        "ext\t$e1.16b,$s1.16b,$s2.16b,#12",
        "ext\t$e2.16b,$s2.16b,$s3.16b,#8",
        "ext\t$e3.16b,$s0.16b,$s1.16b,#12",
    ) : ();
    for my $k (0 .. 3) {
        my $j = 4 * $q + $k;
        my $x = $j < 16 ? 'a' : 'b';
        $code .= "\tldur\t" . qreg($tk) . ",[$tbl,#" . (4 * $j) . "]\n";
        $code .= "\tsm3ss1\t$ss1.4s,$abcd.4s,$efgh.4s,$tk.4s\n";
        $code .= "\t" . shift(@pre) . "\n" if @pre;
        $code .= "\tsm3tt1$x\t$abcd.4s,$ss1.4s,$wp.s[$k]\n";
        $code .= "\tsm3tt2$x\t$efgh.4s,$ss1.4s,$s0.s[$k]\n";
    }
    if ($expand) {
        $code .= "\tsm3partw1\t$s0.4s,$e1.4s,$s3.4s\n";
        $code .= "\tsm3partw2\t$s0.4s,$e2.4s,$e3.4s\n";
    }
    push @s, shift @s;
}

$code .= "\teor\t$abcd.16b,$abcd.16b,$abcd0.16b\n\teor\t$efgh.16b,$efgh.16b,$efgh0.16b\n";
$code .= "\tsubs\t$num,$num,#1\n\tb.ne\t.Lsm3_loop\n";
$code .= lanes_reverse($abcd) . lanes_reverse($efgh);
$code .= "\tst1\t{$abcd.4s,$efgh.4s},[$state]\n";
$code .= ".Lsm3_ret:\n\tret\n" . function_end($fn);

armv8::finish($code);
