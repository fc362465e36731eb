#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM3 (GB/T 32905-2016) compression for x86-64 with BMI1 and BMI2 and the
# message expansion in AVX or AVX-512VL, generated as AT&T text through
# util/perlasm/x86_64.pm.  Owns three schedules of one kernel behind the
# SM3_KERNEL contract of src/sm3.h: sm3_avx_bmi2_blocks (AVX expansion,
# round orders searched on Zen 4), sm3_avx512_bmi2_blocks (AVX-512VL
# expansion, orders searched on Zen 5) and sm3_avx512_bmi2_glc_blocks
# (AVX-512VL expansion, a12 + K + E in one three-operand LEA, orders
# searched on an Intel Golden Cove class core), all (state, p, nblocks);
# src/sm3_x86.c puts them in kernel tables and chooses among them from
# CPUID's vendor and family.
#
#   perl asm/sm3-x86_64.pl elf > asm/sm3-x86_64.S
#
# Cycles/byte per CPU, each measured on the development VM of its session
# (2 shared cores).  MB/s: 16 KiB messages through EVP (make bench, which
# alternates the implementations and keeps the best round).  The kernel
# alone: 256-block calls timed in CPU time, the clock from an ADD chain
# timed in the same process (one cycle an ADD).
#
# AMD EPYC, Zen 4 class (2026-11-30; 3.7 GHz by the ADD chain):
#   implementation                  MB/s    c/B   instructions/byte
#   sm3-avx-bmi2                     554    6.68   32.4
#   libgcrypt 1.10 (AVX/BMI2)        490    7.55   34.4
#   OpenSSL 3.0 default provider     382    9.68   51.2
# The kernel alone takes 6.53 c/B with the orders chosen per round parity
# (see @orders_16_zen4); one order for every round took 6.70, and 6.74 with
# a MOV a round in rounds 16-63.  Its form with the 7-cycle E loop below
# took 6.92 (526 MB/s).  sm3-avx512-bmi2 was not measured there.
#
# AMD EPYC, family 25 model 17, Zen 4 class (2026-12-02), make bench
# GCRYPT=DIR, -a sm3 -s 16,16384 -l all,no-avx512 -r 7, four runs on the
# shared machine (load average 1.2 to 3.7 while they ran), and a fifth,
# the last below, with -l all at load 1.1 (README's row); 16 KiB MB/s,
# then smgost's ratio to the default provider, libgcrypt 1.10.1 and
# 1.12.3-beta66; then the ratio to the default provider at 16 bytes:
#   sm3-avx-bmi2   492.3  1.41x 1.04x 1.09x   16 B 1.50x
#                  516.8  1.55x 1.21x 1.21x        1.50x
#                  537.8  1.56x 1.13x 1.14x        1.49x
#                  542.2  1.51x 1.15x 1.15x        1.50x
#                  519.6  1.61x 1.11x 1.11x        1.42x
# Short alternating timings (best of 200, 20 calls each) give 1.13x both
# libgcrypt builds at 16 KiB and 1.55x the default provider at 16 bytes:
# the spread above is the machine's.  The kernel alone (best of 150
# alternating 256-block timings, the clock from ADD chains either side):
# sm3-avx-bmi2 6.23 c/B with the machine idle (6.35 to 6.40 under load),
# sm3-avx512-bmi2 7.28 to 7.45, 1.17 to 1.19 times slower here, so Zen 4
# keeps the AVX schedule.  6.23 c/B is 398.8 cycles a block, and the
# block's 1,594 ALU operations at four a cycle take 398.5: the kernel is
# at the ALU floor.  That is below the 411 cycles derived below for this
# core, whose model kept rounds 0-15 at their latency with ALUs idle: the
# out-of-order window evidently fills those slots with the later rounds'
# operations, so the floor on Zen 4 is the operation count alone, max(384
# cycles of latency, 1,594 / 4) = 6.23 c/B.  Re-measured there (loops of
# 50 copies, best of 30, against an ADD chain): VPROLD 2 cycles of latency,
# VPTERNLOGD and VPXOR 1, three-operand LEA 2 (two a cycle), base + index
# LEA 1, RORX two a cycle, four ADDs a cycle, a MOV beside an XOR
# eliminated (six operations a cycle dispatched).
#
# AMD EPYC, family 26 model 2, Zen 5 class (2026-12-02), one make bench run
# (make bench GCRYPT=DIR, -a sm3 -s 16,16384 -l all,no-avx512 -r 7):
#   implementation                  MB/s   16 B MB/s   instructions/byte
#   sm3-avx512-bmi2                 645.1      118.6      29.5
#   sm3-avx-bmi2 (the Zen 4 order)  573.2       90.1      32.4
#   libgcrypt 1.10.1 (AVX/BMI2)     583.8      117.7
#   libgcrypt 1.12.3-beta66         586.6      119.0
#   OpenSSL 3.0 default provider    502.4       66.6
# At 16 KiB sm3-avx512-bmi2 is 1.28x the default provider, 1.105x libgcrypt
# 1.10 and 1.10x libgcrypt 1.12 (1.78x the default provider at 16 bytes).
# An earlier run, with orders of the search that timed the same, gave 1.34x,
# 1.13x and 1.12x: the default provider's ratio moves most between runs on
# the shared machine.  The kernel alone: sm3-avx512-bmi2 6.32 c/B,
# sm3-avx-bmi2 6.99 to 7.08 (three runs, each the best of 40 alternating
# timings, the clock from ADD chains either side of each), 0.89 to 0.91 of
# its time.  The floor there is the rounds' latency, 6 cycles (both loops
# below), 6.0 c/B: six ALUs carry the 26 operations of a round in 4.3
# cycles.  The 21-operation form of rounds 0-15, generated for all 64
# rounds for timing only and without the vector work, ran at 6.13: a round
# whose two loops are 6 cycles gets within 2% of that floor on this core.  The kernel is
# 5.3% above it (orders of the search timed from 6.26 to 6.34, within the
# noise of one another); libgcrypt's own bench-slope gives libgcrypt 7.08
# c/B there.
#
# Intel Xeon, family 6 model 207, Sapphire/Emerald Rapids class, Golden
# Cove class cores (2026-12-02; 2.95 to 2.99 GHz by the ADD chain).  The
# kernel alone, in c/B, three runs each the 10th percentile of 300
# alternating 256-block timings, the clock the median of ADD chains timed
# between them, the last run with the machine quietest:
#   sm3-avx512-bmi2-glc                 7.15   6.96
#   sm3-avx512-bmi2 (the Zen 5 orders)  7.86   7.81
#   sm3-avx-bmi2 (the Zen 4 orders)     8.42   8.40
#   libgcrypt (AVX/BMI2)                8.10   7.97
# libgcrypt's function is byte for byte the same in 1.10.1 and 1.12.3-
# beta66 (its one relocation aside), so one timing serves both: the glc
# schedule is 1.13 to 1.15 times libgcrypt's kernel and takes 0.89 of the
# Zen 5 schedule's time, which was itself 1.07 times faster than the Zen 4
# one here.  Through EVP (make bench GCRYPT=DIR, -a sm3 -s 16,1024,16384
# -l all -r 9): an earlier run with the Zen 5 schedule gave
# 341.9 MB/s against libgcrypt 1.10's 338.6 (1.01x), the Zen 4 one 295.6
# against 327.8 (0.90x), on a loaded machine.  README's run: 382.1 MB/s at
# 16 KiB, 1.46x the default provider, 1.103x libgcrypt 1.10 (346.4) and
# 1.150x libgcrypt 1.12 (332.2); at 1 KiB 1.136x and 1.056x; at 16 bytes
# 1.33x the default provider but 0.92x libgcrypt 1.10 (64.7 against 70.6
# MB/s: the EVP path's cost, not the kernel's).
# What differs from Zen: a three-operand LEA takes one cycle (five a
# cycle), so s = a12 + K + E is one LEA once E is there (lea3 below): 25
# ALU operations in rounds 16-63, 20 in rounds 0-15, and the A loop 5
# cycles (the E loop stays 6).  Vector operations issue on ports 0, 1 and
# 5, which are integer ALU ports too (Intel's optimization manual, Golden
# Cove): the AVX expansion cost 5% (the Zen 4 orders ran 8.06 c/B with it
# left out, 8.47 with it) and the AVX-512VL one nothing measurable.  25
# operations and the expansion's 17 a step (4.25 a round) over five ALUs
# take 5.85 cycles a round against the 6 of the E loop; the kernel is at
# 7.0, 16% above, and the orders decide how much of that is lost.  They
# were searched from the Zen 5 ones turned to lea3 (some 29,000 candidate
# orders, batches of eight timed in alternation with the current orders, a
# gain kept when a timing of three rounds against it confirmed it; the
# accepted orders timed again together, the best seven of them within
# 0.6% of one another).  Spreading the vector work over a part of the
# four rounds instead of all of them did not help (seven spreads tried).
# Facts measured there (loops of 50 copies, in CPU time, against an ADD
# chain): RORX 1 cycle, two a cycle; ANDN three a cycle; VPROLD and VPSLLD 1 cycle;
# VPALIGNR one a cycle, VPSHUFB two; ADD with a memory operand three a
# cycle; six chains of dependent XORs four a cycle; a chain of ADDs of an
# immediate ran at 15.7 GHz (the renamer folds them), so the clock here
# comes from a chain of register ADDs.

# SM3 is one dependency chain per message.  With a12 = rol(A,12),
# s = a12 + K + E and SS1 = rol(s,7) the round has two loops:
#   A: a12, + K, + E, SS1, SS2 = SS1 ^ a12, TT1 = (D + W' + FF) + SS2:
#      6 cycles;
#   E: s, SS1, TT2 = (H + W + GG) + SS1, P0 as two RORX side by side and
#      two XORs: 6 cycles if H + W + GG is ready with SS1, two cycles after
#      E.  GG0 = E ^ F ^ G is one XOR after E.  GG1 = (E & F) + (~E & G)
#      is two operations after E whichever way it is written, which makes
#      TT2 a cycle late and the loop 7 cycles.  So from round 16 on the
#      round takes E as T ^ R, T being the previous TT2 and R = rol9(T) ^
#      rol17(T), which is ready a cycle before E: with M = F ^ G and
#      X = bitselect(T; G, F), GG1 = X ^ (~R & M), two operations after R
#      and so one after E.
# That costs three operations (M, X's two) for one ADD saved: rounds 16-63
# have 26 ALU operations (rounds 0-15: 21), and Zen 4's four ALUs, to whose
# queues operations are bound at dispatch, carry them at 6.9 cycles a round
# (94% busy) against a latency floor of 6; rounds 0-15, where both loops are
# 6 cycles and in step, take 6.4 (each kind timed alone, 64 rounds of it a
# block, one order for every round; mixed as in SM3 the block took 6.70
# cycles a round, and takes 6.53 with the orders per parity).  The 7-cycle
# form (24 operations) ran rounds 16-63 at 7.1.  Floors: 6 cycles a round is
# 6.0 c/B; the ALU operations of a block are 1,594 (rounds 0-15: 335, rounds
# 16-63: 1,248, the block's end: 11), and with rounds 0-15 held to 6 cycles
# by their loops the other 1,259 take 315 cycles at every ALU busy every
# cycle: 411 cycles a block (6.42 c/B), which the bound queues do not reach.
# The kernel takes 418 (its calls timed in ns beside an ADD chain timing the
# clock at 3.68 GHz).  1.15 times libgcrypt through EVP, which adds 0.9% at
# 16 KiB with the padding block, is 1.7% past that: the floor itself.  So it
# needs fewer operations than any form found here.  The 26 are at their floor
# for this form: TT1 sums five terms (D, W', the two disjoint parts of FF1,
# SS2: four ADDs, the memory ones included), FF1 takes three (B ^ C, ANDN,
# AND; no two parts of MAJ that add up are each one operation), s two (the LEA
# adding K is also the copy of a12), TT2 three, the six rotations, SS2, P0's
# two XORs, and GG1 five (M, X, ~R & M and the XOR).  Mixing forms does not
# help either: rounds 16-63 alternating 6- and 7-cycle forms ran 3.2% slower
# than all 6-cycle rounds, two 6-cycle to one 7-cycle 5.7%; rounds 1-15 taking
# E as T ^ R (GG0 then one XOR after R) 3.3% slower.
#
# Facts measured on Zen 4 that ruled out other ways: 4 ALU operations a
# cycle, RORX 2 a cycle; a three-operand LEA has 2 cycles of latency (so
# K + a12 + E stays two ADDs); a register MOV is eliminated (no ALU) and
# dispatch takes 6 operations a cycle; VPROLD has 2 cycles of latency (so
# a round in vector registers, where VPTERNLOGD would make P0 and GG single
# operations, is no shorter); VMOVD between general and xmm registers
# takes integer issue slots (4 ADDs and one VMOVD to a general register:
# 2 cycles), and a word through the stack to xmm and back takes 16 cycles.
# Moving H + W and D + W' (both ready three rounds ahead) to the vector
# unit through the stack would leave 24 ALU operations a round, but the
# two stores and six vector operations it adds made rounds 16-63 slower
# (7.4 cycles) in a timed model of the loop.  D + W' alone (25 ALU
# operations: A stored, rol9 and + W' in xmm, TT1 adding the result from
# the stack) made the kernel 10% slower; without the vector work, the
# store and the new order cost 5.5%, and the 25 operations alone, in the
# order of the 26 less one, 3.6%.  Taking D from the store of rol9(B) two
# rounds ahead (no vector rotation; 22 cycles for the trip through xmm)
# and starting TT1 with a load of D + W', orders searched for the two
# parities (3,100 orders tried), was still 4.4% slower, and the 25
# operations in that order without the store and the vector work 6.9%.
#
# Facts measured on Zen 5 (family 26 model 2; loops of 50 copies of the
# instruction, in CPU time, the clock from an ADD chain): every vector
# operation tried, VPROLD and VPTERNLOGD but also VPXOR, VPADDD and VPSLLD,
# has 2 cycles of latency (xmm and ymm), so a round in vector registers is
# still no shorter; a three-operand LEA has 2 cycles of latency (two a
# cycle), base + index or base + displacement 1; RORX 1 cycle, three a
# cycle; six independent ALU operations a cycle (ANDN, or XOR after an
# eliminated MOV), but chains of ADD or XOR that each need the result of
# the cycle before issue fewer: 3 chains 1.00 cycle an iteration, 4 1.05,
# 5 1.19, 6 1.32; ADD with a memory operand four a cycle; VMOVD from a
# general register to xmm and back 7 cycles; a 16-byte vector store
# forwards to a 4-byte load at every offset.  So the ALU count no longer
# binds (26 operations, 4.3 cycles), but the AVX message expansion does:
# its chain from one step to the next is 20 operations, 40 cycles against
# the 24 of its four rounds, and the rounds without any vector work ran 5%
# faster than with it.  The AVX-512VL step (expand_vl) is 10 deep and costs
# nothing measurable; its kernel with the Zen 4 orders took 6.67 c/B, and
# the orders searched there (below) brought it to the figure above.
#
# BMI2's RORX rotates into a fresh register without a copy; BMI1's ANDN
# gives ~T & M, ~R & M and B & C = ~(B ^ C) & C in one operation each.  Rotating
# B and F into fresh registers leaves the old ones free as temporaries;
# the register allocation is done while generating the rounds, and the
# block ends with the moves that undo its permutation.
#
# Message expansion runs in xmm registers, four words of W a step:
#   W[j..j+3] = P1(W[j-16..] ^ W[j-9..] ^ rol15(W[j-3..])) ^ rol7(W[j-13..])
#               ^ W[j-6..]
# The fourth lane needs W[j] of the same step, so the step first computes
# lane 3 with rol15(0) for that term and then XORs in P1(rol15(W[j])) (P1
# is linear over XOR).  P1(x) = x ^ rol15(x ^ rol8(x)), rol8 being a byte
# shuffle.  W and W' = W[j] ^ W[j+4] go to the stack, where the rounds read
# them as memory operands of their ADDs.  The step for words 4q+16.. is
# interleaved with rounds 4q..4q+3, three groups of rounds ahead of its
# first use; the vector work then costs no time at all (the rounds
# generated without it run no faster).

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;

x86_64::setup(@ARGV);

my $code = "";

# ---------------------------------------------------------------------------
# Register map.  %rsi is the input; the state pointer and the end pointer
# live on the stack.  The other fourteen registers hold the eight state
# words and the round temporaries, allocated while the rounds are generated:
# a rotation writes a fresh register and the old value dies as a temporary,
# so the rounds have no MOV.  %S (below) names the registers of the state
# words.
my $inp = "%rsi";
my @canon = qw(ax bx cx dx r8 r9 r10 r11);
my @free;

sub alloc {
    die "sm3-x86_64.pl: out of registers\n" unless @free;
    return shift @free;
}

sub release { push @free, @_; }

sub r32 {
    my ($r) = @_;
    return $r =~ /^r\d+$/ ? "%${r}d" : "%e$r";
}

sub r64 {
    my ($r) = @_;
    return $r =~ /^r\d+$/ ? "%$r" : "%r$r";
}

# xmm: ring of five message registers, temporaries, two shuffle masks.
my @ring;
my ($xc, $xt, $xy, $xd, $xe, $xw) = map { "%xmm$_" } 5 .. 10;
my ($ROL8, $BSWAP) = ("%xmm14", "%xmm15");

# Stack frame: W[0..67] at 0, W'[0..63] at WP, the end pointer at ENDP, the
# state pointer at CTXP.  Six pushes and the return address leave %rsp at
# 8 mod 16, so FRAME = 8 mod 16 aligns the vector stores.
my $WP    = 4 * 68;
my $ENDP  = $WP + 4 * 64;
my $CTXP  = $ENDP + 8;
my $FRAME = $CTXP + 16;
die "frame misaligned\n" unless $FRAME % 16 == 8;

# rol(T_j, j mod 32) (GB/T 32905-2016, 4.2 and 5.3.3) as a signed 32-bit
# displacement for LEA.
sub kj {
    my ($j) = @_;
    my $tj = $j < 16 ? 0x79cc4519 : 0x7a879d8a;
    my $n = $j % 32;
    my $k = $n ? (($tj << $n) | ($tj >> (32 - $n))) & 0xffffffff : $tj;
    return $k >= 0x80000000 ? $k - 2**32 : $k;
}

# The operations of a round, name => [instruction, value it creates]; the
# @order_* lists give their issue order.  Placeholders:
# {A}..{H} the state words, {K} the round constant, {W}/{WP} the stack
# offsets of W[j]/W'[j], other names temporaries; "x<B" creates x in the
# register of B, whose value dies there.
#
# From round 16 on, E does not arrive whole: the previous round hands over
# T = its TT2 and R = rol9(T) ^ rol17(T), and E = T ^ R.  R is ready one
# cycle before E, and GG1 = bitselect(E; F, G) is taken from it (see the
# header), so with R arriving at cycle 0: E and R & M at 1, GG1 and s at 2,
# H + W + GG1 and SS1 at 3, TT2 at 4, the next R at 6.  Rounds 0-15 keep E
# whole (their GG0 is one XOR after E) and round 15 hands over T and R.
#
# The order inside a round is not the dependency order but the one that ran
# fastest (a search over the orders, timed on 16 KiB calls; on Zen 4 and
# again on Zen 5, whose orders differ): on Zen 4 each
# operation is bound to one ALU's queue when it is dispatched and a queue
# issues its oldest ready operation, so the order decides which of the
# round's two loops (A -> a12 -> s -> SS1 -> SS2 -> TT1 and R -> E -> s ->
# SS1 -> TT2 -> R) loses a cycle when the ALUs are busy.
my @round_common = (
    a12 => ['rorx $20,{A},{a12}', 'a12'],           # rol(A,12)
    lk  => ['lea {K}({a12}q),{s}', 's'],            # + K, before E arrives
    sE  => ['add {E},{s}'],
    sr  => ['rorx $25,{s},{s}'],                    # SS1
    wD  => ['add {WP}(%rsp),{D}'],                  # D + W'
    wH  => ['add {W}(%rsp),{H}'],                   # H + W
    rB  => ['rorx $23,{B},{nB}', 'nB'],             # rol(B,9)
    rF  => ['rorx $13,{F},{nF}', 'nF'],             # rol(F,19)
    t1  => ['xor {s},{a12}'],                       # SS2
    t2  => ['add {a12},{D}'],
    p1  => ['rorx $23,{H},{p}', 'p'],               # P0: two rotations side
    p2  => ['rorx $15,{H},{q}', 'q'],               # by side
);
my %round_00 = (
    @round_common,
    f1  => ['xor {C},{b}', 'b<B'],                  # FF0 = A ^ B ^ C
    f2  => ['xor {A},{b}'],
    f4  => ['add {b},{D}'],
    g1  => ['xor {G},{f}', 'f<F'],                  # GG0 = E ^ F ^ G
    g2  => ['xor {E},{f}'],
    g3  => ['add {f},{H}'],
    g5  => ['add {s},{H}'],
    p3  => ['xor {p},{H}'],                         # E' = P0(TT2)
    p4  => ['xor {q},{H}'],
);
my %round_16 = (
    @round_common,
    e0  => ['xor {R},{E}', 'E<T'],                  # E = T ^ R
    # FF1 = (B & C) + (A & (B ^ C)), B & C = ~(B ^ C) & C: the two parts
    # have no common bit, so they are added to D one by one
    f1  => ['xor {C},{b}', 'b<B'],
    f2  => ['andn {C},{b},{z}', 'z'],
    f3  => ['and {A},{b}'],
    f4  => ['add {z},{D}'],
    f5  => ['add {b},{D}'],
    # GG1 = X ^ (~R & M): M = F ^ G, X = bitselect(T; G, F) = G ^ (~T & M).
    # G lives on as the next H but F dies once rotated, so M is built in
    # F's register and the round needs no MOV
    m1  => ['xor {G},{m}', 'm<F'],
    g1  => ['andn {m},{T},{v}', 'v'],
    g2  => ['xor {G},{v}'],
    g3  => ['andn {m},{R},{u}', 'u'],
    g4  => ['xor {v},{u}'],
    g5  => ['add {u},{H}'],
    g6  => ['add {s},{H}'],
    p3  => ['xor {q},{p}'],                         # R' (T' stays in H)
);

# Where a three-operand LEA takes one cycle (Golden Cove, measured), s is
# a12 + K + E in one operation once E is there, one fewer a round; the
# schedules that take it (lea3) have these tables.
my %lea3 = (ls => ['lea {K}({a12}q,{E}q),{s}', 's']);
my %round_00_lea3 = (%round_00, %lea3);
my %round_16_lea3 = (%round_16, %lea3);
delete @$_{qw(lk sE)} for \%round_00_lea3, \%round_16_lea3;

# Even and odd rounds take different orders: a round of rounds 16-63 has
# 26 operations, two more than a multiple of the four queues, and orders
# searched for the two parities apart ran 2.6% faster than the best single
# order.  Orders by round mod 4, or of their own for rounds 0-3, 13-18 and
# 61-63, gained nothing more (some 1,700 and 900 valid orders timed).
my @orders_00_zen4 = ([qw(rB a12 lk sE wH sr f1 f2 wD f4 t1 rF t2 g1 g2 g3 g5
                     p2 p1 p3 p4)],
                 [qw(rB a12 wH lk sE sr wD f1 f2 t1 f4 rF g1 g2 t2 g3 g5
                     p2 p1 p3 p4)]);
my @orders_16_zen4 = ([qw(a12 rF m1 g1 rB f1 g2 f2 wD f4 f3 g3 lk e0 sE sr t1
                     g4 f5 wH g5 g6 t2 p1 p2 p3)],
                 [qw(rF m1 g1 rB f1 f2 wD a12 f4 f3 g3 lk g2 e0 sE sr g4
                     g5 wH f5 t1 g6 t2 p1 p2 p3)]);

# Zen 5 (AMD family 26), with the AVX-512VL message expansion (expand_vl):
# orders searched there from the Zen 4 ones, by moves of one to three
# operations, each batch of eight candidates timed in alternation with the
# current orders and a gain kept only when a second timing confirmed it
# (some 8,000 candidate orders tried; orders by round mod 4 did no better than
# by parity).
my @orders_00_zen5 = ([qw(rB a12 lk wH sE sr f1 f2 wD rF t1 g1 f4 g2 t2 g3 g5
                          p2 p1 p3 p4)],
                      [qw(a12 rB wH lk sE f1 sr wD f2 t1 f4 rF g1 t2 g2 g3 g5
                          p2 p1 p4 p3)]);
my @orders_16_zen5 = ([qw(rB a12 rF m1 g1 f1 g2 f2 wD f4 g3 e0 lk sE f3 sr t1
                          g4 f5 wH g5 g6 t2 p1 p2 p3)],
                      [qw(rF m1 g1 rB f1 g3 f2 wD a12 e0 f4 f3 lk g2 sE wH sr
                          t1 g4 f5 g5 g6 t2 p1 p2 p3)]);

# Golden Cove class (Intel family 6 model 207), with the AVX-512VL message
# expansion and the one-LEA s (lea3): orders searched there from the Zen 5
# ones turned to lea3, as on Zen 5 (moves of one to three operations; see
# the header).
my @orders_00_glc = ([qw(rF wH rB a12 g1 g2 ls wD sr f1 g3 g5 t1 p1 f2 p2 f4
                         p4 t2 p3)],
                     [qw(a12 rF wH ls wD g1 rB f1 sr f2 g2 t1 g3 g5 p2 t2 p1
                         f4 p3 p4)]);
my @orders_16_glc = ([qw(rB f1 rF m1 g1 e0 wD a12 g3 wH g2 ls g4 sr f2 g5 g6
                         p2 f3 p1 f4 p3 t1 f5 t2)],
                     [qw(rB rF f1 m1 g3 g1 a12 e0 g2 g4 ls wD wH f2 f3 g5 sr
                         g6 p1 p2 f5 p3 f4 t1 t2)]);

# Register of each state word: A..H in rounds 0-15, then A..D, F..H, T, R.
my %S;
# The schedule being generated (see the end of the file).
my ($orders_00, $orders_16, $ops_00, $ops_16);

sub round {
    my ($j) = @_;
    my ($ops, $order) = $j < 16 ? ($ops_00, $orders_00->[$j % 2])
                                 : ($ops_16, $orders_16->[$j % 2]);
    die "sm3-x86_64.pl: the order of round $j misses operations\n"
        unless join(',', sort @$order) eq join(',', sort keys %$ops);
    my %op = %$ops;
    my @ord = @$order;
    if ($j == 15) {
        $op{p3} = $round_16{p3};
        @ord = grep { $_ ne 'p4' } @ord;
    }
    my $split = $j >= 15;       # this round hands over T and R
    my %reg = %S;
    my %last;                   # position of each value's last use
    for my $n (0 .. $#ord) {
        $last{$_} = $n for $op{ $ord[$n] }[0] =~ /\{(\w+)\}/g;
    }
    my @i;
    for my $n (0 .. $#ord) {
        my ($t, $def) = @{ $op{ $ord[$n] } };
        if (defined $def && $def =~ /^(\w+)<(\w+)$/) {
            die "sm3-x86_64.pl: round $j overwrites $2 before its last use\n"
                if ($last{$2} // -1) > $n;
            $reg{$1} = delete $reg{$2};
        } elsif (defined $def) {
            $reg{$def} = alloc();
        }
        my $line = $t;
        $line =~ s/\{K\}/kj($j)/e;
        $line =~ s/\{WP\}/$WP + 4 * $j/e;
        $line =~ s/\{W\}/4 * $j/e;
        $line =~ s/\{(\w+)\}(q?)/$2 ? r64($reg{$1}) : r32($reg{$1})/ge;
        push @i, $line =~ s/ /\t/r;
        for my $v ($t =~ /\{(\w+)\}/g) {
            next if $v =~ /^([A-H]|T|nB|nF)$/ || ($v eq 'p' && $split)
                || $last{$v} != $n;
            release(delete $reg{$v}) if exists $reg{$v};
        }
    }
    # B and F died as temporaries unless an order left them unused
    release(delete $reg{$_}) for grep { exists $reg{$_} } qw(B F);
    %S = (A => $reg{D}, B => $reg{A}, C => $reg{nB}, D => $reg{C},
          F => $reg{E}, G => $reg{nF}, H => $reg{G});
    if ($split) {
        @S{qw(T R)} = @reg{qw(H p)};
    } else {
        $S{E} = $reg{H};
    }
    return @i;
}

# rol(x, n) of every dword, XORed into acc; x is destroyed.
sub xor_rol {
    my ($acc, $x, $n) = @_;
    return ("vpslld\t\$$n,$x,$xt", "vpsrld\t\$" . (32 - $n) . ",$x,$x",
            "vpxor\t$xt,$acc,$acc", "vpxor\t$x,$acc,$acc");
}

# Expansion step g (g = 4..16): W[4g..4g+3] from the four previous groups in
# $ring[0..3] into $ring[4], stored with W'[4g-4..4g-1].  The caller rotates
# the ring.
sub expand {
    my ($g) = @_;
    my ($p, $q, $r, $s, $n) = @ring;
    return (
        "vpalignr\t\$12,$q,$r,$n",                  # W[j-9..j-6]
        "vpsrldq\t\$4,$s,$xc",                      # W[j-3..j-1], 0
        "vpxor\t$p,$n,$n",                          # ^ W[j-16..j-13]
        xor_rol($n, $xc, 15),                       # X, lane 3 short
        "vpshufb\t$ROL8,$n,$xy",
        "vpxor\t$n,$xy,$xy",                        # X ^ rol8(X)
        xor_rol($n, $xy, 15),                       # P1(X)
        "vpalignr\t\$12,$p,$q,$xd",                 # W[j-13..j-10]
        xor_rol($n, $xd, 7),
        "vpalignr\t\$8,$r,$s,$xe",                  # W[j-6..j-3]
        "vpxor\t$xe,$n,$n",                         # lanes 0-2 done
        "vpslldq\t\$12,$n,$xy",                     # W[j] into lane 3
        "vpslld\t\$15,$xy,$xt",
        "vpsrld\t\$17,$xy,$xy",
        "vpxor\t$xt,$xy,$xy",                       # z = rol15(W[j])
        "vpxor\t$xy,$n,$n",
        "vpshufb\t$ROL8,$xy,$xc",
        "vpxor\t$xy,$xc,$xc",
        xor_rol($n, $xc, 15),                       # lane 3 ^= P1(z)
        "vmovdqa\t$n," . (16 * $g) . "(%rsp)",
        "vpxor\t$s,$n,$xw",
        "vmovdqa\t$xw," . ($WP + 16 * ($g - 1)) . "(%rsp)",
    );
}

# The same step with AVX-512VL, for cores where every vector operation
# takes two cycles (Zen 5, measured): VPROLD rotates in one operation and
# VPTERNLOGD XORs three terms in one, so the step is 20 operations instead
# of 36 and its dependency chain, which runs from one step to the next
# through W[j-3], 10 operations deep (20 cycles, less than the 24 of its
# four rounds) instead of 20 (40 cycles: the AVX step, three groups ahead
# of its first use, falls behind the rounds and holds them up, 5% on Zen 5).  The fourth lane: P1(rol15(w)) = rol15(w) ^
# rol30(w) ^ rol6(w).
sub expand_vl {
    my ($g) = @_;
    my ($p, $q, $r, $s, $n) = @ring;
    return (
        "vpalignr\t\$12,$q,$r,$n",                  # W[j-9..j-6]
        "vpsrldq\t\$4,$s,$xc",                      # W[j-3..j-1], 0
        "vprold\t\$15,$xc,$xc",
        "vpternlogd\t\$0x96,$xc,$p,$n",             # X, lane 3 short
        "vprold\t\$15,$n,$xy",
        "vprold\t\$23,$n,$xt",
        "vpternlogd\t\$0x96,$xt,$xy,$n",            # P1(X)
        "vpalignr\t\$12,$p,$q,$xd",                 # W[j-13..j-10]
        "vprold\t\$7,$xd,$xd",
        "vpalignr\t\$8,$r,$s,$xe",                  # W[j-6..j-3]
        "vpternlogd\t\$0x96,$xd,$xe,$n",            # lanes 0-2 done
        "vpslldq\t\$12,$n,$xy",                     # W[j] into lane 3
        "vprold\t\$15,$xy,$xt",
        "vprold\t\$30,$xy,$xc",
        "vprold\t\$6,$xy,$xy",
        "vpternlogd\t\$0x96,$xt,$xc,$xy",           # P1(rol15(W[j]))
        "vpxor\t$xy,$n,$n",
        "vmovdqa\t$n," . (16 * $g) . "(%rsp)",
        "vpxor\t$s,$n,$xw",
        "vmovdqa\t$xw," . ($WP + 16 * ($g - 1)) . "(%rsp)",
    );
}

# Register moves after which $to->[i] holds what $from->[i] held; a cycle
# goes through the spare register $tmp.
sub permute {
    my ($from, $to, $tmp) = @_;
    my %src;
    for my $i (0 .. $#$to) {
        $src{ $to->[$i] } = $from->[$i] if $to->[$i] ne $from->[$i];
    }
    my $out = "";
    while (%src) {
        my %pending = map { $_ => 1 } values %src;
        my ($d) = grep { !$pending{$_} } sort keys %src;
        if (defined $d) {
            $out .= "\tmov\t" . r32($src{$d}) . "," . r32($d) . "\n";
            delete $src{$d};
        } else {
            ($d) = sort keys %src;
            $out .= "\tmov\t" . r32($d) . "," . r32($tmp) . "\n";
            for my $k (keys %src) {
                $src{$k} = $tmp if $src{$k} eq $d;
            }
        }
    }
    return $out;
}

# Spreads the vector list evenly over the scalar list.
sub interleave {
    my ($sc, $vec) = @_;
    my ($ns, $nv, $out, $v) = (scalar @$sc, scalar @$vec, "", 0);
    for my $i (0 .. $ns - 1) {
        $out .= "\t$sc->[$i]\n";
        while ($v < $nv && $v * $ns < ($i + 1) * $nv) {
            $out .= "\t$vec->[$v++]\n";
        }
    }
    return $out;
}

$code .= rodata_begin() . <<'EOT';
.p2align	4
.Lsm3_bswap:
.byte	3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12
.Lsm3_rol8:
.byte	3,0,1,2,7,4,5,6,11,8,9,10,15,12,13,14
EOT
$code .= text_begin();

# One kernel function: $fn, local labels .L$tag_*, the rounds in the orders
# of $sched, the message expansion by $sched->{expand}.
sub kernel {
    my ($fn, $tag, $sched) = @_;
    my $code = "";
    my $rol8 = $sched->{expand} == \&expand;
    @free = qw(r12 r13 r14 r15 di bp);
    @ring = map { "%xmm$_" } 0 .. 4;
    %S = ();
    ($orders_00, $orders_16) = @$sched{qw(orders_00 orders_16)};
    ($ops_00, $ops_16) = $sched->{lea3} ? (\%round_00_lea3, \%round_16_lea3)
                                        : (\%round_00, \%round_16);
    $code .= function_begin($fn);
    $code .= "\ttest\t%rdx,%rdx\n\tjz\t.L${tag}_ret\n";
    $code .= frame_push($_) for qw(%rbx %rbp %r12 %r13 %r14 %r15);
    $code .= <<"EOT";
	sub	\$$FRAME,%rsp
.cfi_adjust_cfa_offset	$FRAME
	shl	\$6,%rdx
	add	$inp,%rdx
	mov	%rdx,$ENDP(%rsp)
	mov	%rdi,$CTXP(%rsp)
	vmovdqa	.Lsm3_bswap(%rip),$BSWAP
EOT
    $code .= "\tvmovdqa\t.Lsm3_rol8(%rip),$ROL8\n" if $rol8;
    for my $i (0 .. 7) {
        $code .= "\tmov\t" . (4 * $i) . "(%rdi)," . r32($canon[$i]) . "\n";
    }
    @S{qw(A B C D E F G H)} = @canon;
    $code .= ".p2align\t4\n.L${tag}_loop:\n";
    for my $i (0 .. 3) {
        $code .= "\tvmovdqu\t" . (16 * $i) . "($inp),$ring[$i]\n";
        $code .= "\tvpshufb\t$BSWAP,$ring[$i],$ring[$i]\n";
        $code .= "\tvmovdqa\t$ring[$i]," . (16 * $i) . "(%rsp)\n";
    }
    for my $i (0 .. 2) {
        $code .= "\tvpxor\t$ring[$i],$ring[$i + 1],$xw\n";
        $code .= "\tvmovdqa\t$xw," . ($WP + 16 * $i) . "(%rsp)\n";
    }
    for my $grp (0 .. 15) {
        my @sc = map { round($_) } 4 * $grp .. 4 * $grp + 3;
        my @vec;
        if ($grp + 4 <= 16) {
            @vec = $sched->{expand}->($grp + 4);
            @ring = (@ring[1 .. 4], $ring[0]);
        }
        $code .= "# rounds " . (4 * $grp) . ".." . (4 * $grp + 3) . "\n";
        $code .= interleave(\@sc, \@vec);
    }
    # V(i+1) = ABCDEFGH ^ V(i), E formed from T and R first; then the words
    # go back to the registers the loop starts with (the allocation has
    # permuted them).
    $code .= "\txor\t" . r32($S{R}) . "," . r32($S{T}) . "\n";
    release($S{R});
    my @S = @S{qw(A B C D T F G H)};
    my $c = r64($free[0]);
    $code .= "\tmov\t$CTXP(%rsp),$c\n";
    for my $i (0 .. 7) {
        my $r = r32($S[$i]);
        $code .= "\txor\t" . (4 * $i) . "($c),$r\n\tmov\t$r," . (4 * $i) . "($c)\n";
    }
    # the spare register of a move cycle must not be one the moves fill
    my %canon = map { $_ => 1 } @canon;
    my ($tmp) = grep { !$canon{$_} } @free;
    die "sm3-x86_64.pl: no spare register for the final moves\n"
        unless defined $tmp;
    $code .= permute(\@S, \@canon, $tmp);
    $code .= <<"EOT";
	add	\$64,$inp
	cmp	$ENDP(%rsp),$inp
	jb	.L${tag}_loop
EOT
    # The frame held message words and the registers still do: clear both
    # (VZEROALL also leaves the upper halves clean for SSE code).
    $code .= "\tvzeroall\n";
    for my $o (0 .. $ENDP / 16 - 1) {
        $code .= "\tvmovdqa\t%xmm0," . (16 * $o) . "(%rsp)\n";
    }
    $code .= <<"EOT";
	add	\$$FRAME,%rsp
.cfi_adjust_cfa_offset	-$FRAME
EOT
    $code .= frame_pop($_) for qw(%r15 %r14 %r13 %r12 %rbp %rbx);
    $code .= ".L${tag}_ret:\n\tret\n" . function_end($fn);
    return $code;
}

$code .= kernel("sm3_avx_bmi2_blocks", "sm3",
                { expand => \&expand, orders_00 => \@orders_00_zen4,
                  orders_16 => \@orders_16_zen4 });
$code .= kernel("sm3_avx512_bmi2_blocks", "sm3z5",
                { expand => \&expand_vl, orders_00 => \@orders_00_zen5,
                  orders_16 => \@orders_16_zen5 });
$code .= kernel("sm3_avx512_bmi2_glc_blocks", "sm3glc",
                { expand => \&expand_vl, lea3 => 1,
                  orders_00 => \@orders_00_glc, orders_16 => \@orders_16_glc });

x86_64::finish($code);
