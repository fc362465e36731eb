#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM4 (GB/T 32907-2016) block kernels for x86-64, generated as AT&T text
# through util/perlasm/x86_64.pm.  Owns the GFNI tiers; every kernel is
# constant-time: the S-box is computed by GF(2^8) affine/inverse
# instructions, never looked up in a table indexed by secret data.
#
#   perl asm/sm4-x86_64.pl elf [bytes] > asm/sm4-x86_64.S
#
# Entry points follow src/kernel.h (SysV: ks=%rdi in=%rsi out=%rdx
# nblocks=%rcx iv=%r8).  src/sm4_x86.c puts them into SMG_BLOCK_KERNEL tables.
#
# Layout shared by all tiers: blocks are byte-swapped into native 32-bit
# words and transposed 4x4 inside every 128-bit lane, so that register j of
# a group holds word j of 4/8/16 blocks; a round is then a handful of
# whole-register operations.  The S-box is Sbox(x) = A2 * Inv(A1 * x + c1)
# + c2: one vgf2p8affineqb maps the SM4 field into the AES field (matrix
# 0x34ac259e022dbc52, c1 0x65) and one vgf2p8affineinvqb inverts there and
# maps back (0xd72d8e511e6c8b19, c2 0xd3); constants from libgcrypt's
# sm4-gfni-avx2-amd64.S, checked against the S-box table of GB/T
# 32907-2016 for all 256 inputs.
#
# Batches: calls of 1..4, 5..8 and (AVX-512) 9..16 blocks take one masked
# pass of a lean core (xmm, ymm, zmm; below), which needs no setup at all.
# Longer calls run the widest pass in a loop (AVX-512: 128 blocks through
# the byte-sliced core, then at most one 64-block and one 32-block pass of
# the word-sliced one; AVX2: 24 blocks); the remainder goes to ONE pass of the
# narrowest width that holds it, with masked loads and stores (AVX-512: 32
# blocks in two zmm groups, then the lean cores; AVX2: 24/16 blocks, then
# the lean cores), never a per-block loop.  Serial modes (CBC/CFB
# encryption, OFB) run the lean body once per block.
#
# Measured on the 2-core AMD EPYC (Zen 4) KVM guest at ~3.69 GHz (clock
# taken from a dependent-add loop; no PMU in the guest), 16 KiB in-place
# calls, best of 3000 single calls, cycles/byte:
#
#   kernel                  ECB    CTR    CBC-dec  CFB-dec  CBC-enc  OFB
#   gfni-avx512 (128 blk)   0.64   0.66   0.66     0.65     17.0     17.0
#    64-blk word-sliced     0.89   0.87   0.87     0.87
#   gfni-avx2   (24 blk)    1.66   1.64   1.66     1.69     20.1     20.1
#   sm4-c (src/sm4.c, -O3)  9.6    9.6    9.8      9.7      23.8     24.1
#   OpenSSL 3.0 default     27.5   31.1   27.8     27.8     29.9     29.5
#
# (the second row: the same calls with the 64-block word-sliced loop the
# byte-sliced core replaced, alternated with it in one process), i.e.
# against OpenSSL in one make bench run: gfni-avx512 40.1x ECB, 44.0x CTR,
# 40.6x CBC-dec, 40.6x CFB-dec (before: 28.0x, 31.5x, 27.9x, 28.1x); in an
# earlier run gfni-avx2 16.2x, 18.7x, 16.4x, 16.2x.
#
# Short calls and serial modes are latency-bound.  The lean body keeps the
# state in the A1 image so that each S-box costs one affine-inverse on the
# loop-carried path (about 8 cycles a round), and maps the round keys as it
# goes, so a call of up to 16 blocks costs one pass of 32 such rounds and
# nothing else; it beats the C kernel's table rounds at every length, and
# it is constant-time.  TSC ticks (2.6 GHz) per call, in place, best of
# 6000 (before: the table-building passes these replaced):
#
#   blocks                 1      4      8      16     before: 1 / 16
#   gfni-avx512  ECB       212    208    220    285    335 / 390
#                CTR       183    183    185    256    352 / 410
#   gfni-avx2    ECB       230    295    294    477    412 / 462
#                CTR       217    217    247    428    342 / 429
#   sm4-c        ECB       299    446    880    1754
#                CTR       318    463    896    1760
#
# (ECB in place runs each call's loads behind the previous call's masked
# stores.)  Serial modes at 16 KiB, TSC ticks per byte: CBC-enc and OFB
# 12.0 (AVX-512), 13.8 (AVX2), sm4-c 16.8; before 12.3 and 14.2.
#
# AES-NI tiers (their section is at the end of the file), same guest and
# 16 KiB calls, cycles/byte from the fastest of 400 calls timed by the TSC
# (2.6 GHz; 1.43 core cycles per tick, calibrated with a chain of adds);
# "x" = speed relative to OpenSSL's default provider in the same run:
#
#   kernel                 ECB          CTR          CBC-dec      CFB-dec
#   vaes-avx2   (32 blk)   2.54 10.6x   2.51 12.3x   2.55 10.7x   2.55 10.7x
#   aesni-avx2  (32 blk)   2.91  9.3x   2.88 10.7x   2.92  9.3x   2.94  9.3x
#   aesni-avx   (16 blk)   5.07  5.3x   5.02  6.1x   5.09  5.4x   5.10  5.4x
#   OpenSSL 3.0 default    27.0         30.7         27.2         27.4
#
# XTS of the AES-NI tiers (tweaks doubled by shifts in xmm registers,
# ni_xts_tweaks), Intel Xeon family 6 model 207 (Sapphire/Emerald Rapids
# class) KVM guest, one make bench run, MB/s of CPU time at 16 KiB (1 KiB),
# beside the tier's ECB and the XTS the mode layer composed before (tweaks
# in C around the ECB) in the same run:
#
#   kernel        ECB           XTS           composed XTS
#   vaes-avx2     1355 (1338)   1220 (1052)   602 (547)
#   aesni-avx2    1172 (1154)   1066 (935)    564 (515)
#   aesni-avx      687 (684)     654 (603)    421 (394)
#
# Their CBC/CFB encryption and OFB are the portable kernel's (CBC-enc 23.9
# against OpenSSL's 29.7).  callgrind: aesni-avx2 8.9, aesni-avx 16.2,
# portable C 43.5 instructions per byte (ECB).
#
# Their calls of 1..4 blocks take the lean AES-NI core: 407 TSC ticks per
# CTR call whatever the count (before: 558), against the C kernel's 318 for
# one block, 588 for two and 857 for three.  No constant-time path found
# here matches the C kernel's table rounds for a lone block on Zen 4: the
# lean round's loop-carried path is 13 cycles (AESENCLAST 4, the nibble
# split 2, a lookup 2, an XOR, a shuffle 2, two XORs) and the round's ~30
# other vector ops stretch it to ~17; the same rounds would make the serial
# modes ~1.4 times slower than the C kernel, so those stay there.

#
# AEAD and disk modes (src/kernel.h's smg_gcm_fn, smg_ccm_fn, smg_xts_fn;
# their sections are after the parallel modes of each tier and at the end
# of the file), on the 2-core AMD EPYC family 26 model 2 (Zen 5 class) KVM
# guest, 16 KiB in-place calls, best of 2000, TSC ticks (2.6 GHz) per byte
# (about 1.1 core cycles a tick, from a chain of dependent adds), with the
# other vCPU busy:
#
#   kernel        CTR    GCM-enc  GCM-dec  XTS (IEEE, GB)  CCM-enc  CCM-dec
#   gfni-avx512   0.26   0.29     0.28     0.29            13.8     14.3
#   gfni-avx2     1.22   1.34     1.34     1.28-1.30       14.7     15.1
#   aesni-avx     3.33   3.58     3.55
#   AES-NI (-ct)                                           27.4     27.8
#
# aesni-avx's GCM (with the clmul-avx table) runs the PCLMULQDQ work of
# each 16-block pass inside the ring core's rounds (ni_gcm, below); the
# same calls composed (its CTR, then smg_ghash_clmul_avx) take 3.71, and
# 64-block calls 3.63-3.71 composed against 3.53-3.66 fused.  The ring core
# is bound by issue, not by its chains, so the hash is only partly hidden:
# the interleaved products cost ~0.18 ticks/B and the per-pass reductions
# ~0.12, against 0.33 for the separate GHASH.  In one make bench run
# (README) that took SM4-GCM at 16 KiB from 0.97x to 1.00-1.02x
# libgcrypt 1.10; at 1 KiB (0.90-0.92x, unchanged) the message's fixed
# costs dominate: E(J0), one block through the lean core, is ~390 ticks of
# ~4,800.
#
# GCM on gfni-avx512 runs the GHASH of each 128-block pass inside the
# byte-sliced rounds (before that, calling smg_ghash_vpclmul_avx512 after
# each pass: 0.36 encrypting, 0.38 decrypting); the other passes and the
# AVX2 tiers (GFNI, VAES, AES-NI) call it (or smg_ghash_vpclmul_avx2)
# between passes.  XTS computes each pass's tweaks in vector registers
# first.  CCM runs at the speed of one serial stream (the CBC encryption
# above); AES-NI's default tables leave CCM to the C kernel's serial rounds
# (see src/sm4_x86.c).
#
# The rows above were measured before the changes below.  On the 2-vCPU
# Intel Xeon family 6 model 207 (Sapphire/Emerald Rapids class, Golden
# Cove cores) KVM guest, TSC 2.3 GHz (1.30 core cycles a tick from a chain
# of dependent register adds; immediate adds are folded at rename there),
# 16 KiB in-place calls, best of 2500 alternating with the kernels before,
# TSC ticks per byte, others' jobs on the machine:
#
#   gfni-avx512             ECB    CTR    GCM-enc  GCM-dec  XTS IEEE  XTS GB
#   before                  0.510  0.526  0.581    0.579    0.554     0.554
#   then                    0.451  0.467  0.485    0.479    0.498     0.494
#   1 KiB calls (word-sliced 64-block pass, unchanged then):
#                           0.682  0.668  0.742    0.748    0.727     0.740
#   16 KiB, 2026-12-03:
#   before                  0.446  0.446  0.472    0.475    0.472     0.478
#   with the four-way sum   0.435  0.437  0.456    0.462    0.462     0.468
#
# (the last two rows: best of 2000 calls in each of 4-5 processes
# alternating old and new; GCM-dec through the J0 entry, whose E(J0), one
# block through the lean core, adds ~320 ticks to a 1024-block call).
#
# XTS's tweaks by whole-byte and 64-bit steps (xts_tweaks_z), against the
# kernel before in one process (objcopy-renamed), in-place calls, best of
# 4000 (16 KiB) or 30000 (1 KiB) alternating, others' jobs on the machine:
#
#   gfni-avx512             ECB    XTS IEEE  XTS GB
#   16 KiB, before          0.450  0.494     0.502
#   16 KiB, now                    0.484     0.491
#   1 KiB, before           0.619  0.682     0.695
#   1 KiB, now                     0.671     0.685
#
# What XTS still adds to ECB is what it computes, not where: a pass's
# tweak operations moved into the byte-sliced rounds (in issue slots
# between the rounds' own, as GCM's GHASH is, into a second buffer)
# measured no faster than computed before the pass, since the rounds keep
# both zmm ports busy; so the 112 tweak operations and 64 XORs of a
# 128-block pass (~90 cycles of its ~1,300) are its cost over ECB.
#
# What bounds the byte-sliced core there (loops of independent zmm ops):
# two zmm ports, GF2P8AFFINE(INV)QB on one of them only (port 0),
# VPCLMULQDQ, VPSHUFB, the unpacks and the byte shifts on the other only
# (port 5), the ternary XOR on either; a GFNI result feeding the integer
# ALU costs 2 cycles more than its 3-cycle latency.  Its rounds were 56 zmm
# operations a 128-block round, 24 of them GFNI, and ran at ~33 cycles a
# round (port-bound would be 28); removing the 8 key XORs alone took 0.06
# ticks/B off, so every operation counted.  Now: 44 a round, 16 GFNI
# (b_round; 48 before its sums shared one four-way sum); GCM's GHASH
# inside the rounds costs 8 operations a 4-block chunk instead of 12
# (gh_group), and its counter blocks are built from word 3 alone
# (b_gcm_in): GCM is 0.018 ticks/B over CTR, against 0.055.  A
# 64-block pass through one half of the byte-sliced core measured slower
# than the word-sliced one there (0.748 against 0.707 ticks/B for CTR at
# 64 blocks: one half is bound by its round's latency, ~24 cycles), and
# the interleaved GHASH's position in the rounds (from round 0 to 28)
# made no difference.  CCM, one serial stream, takes the glc rounds there
# (lean_body_glc below: two affine-inverses a round instead of three):
# 10.4 cycles a round timed as a 32-round chain, against 11.9, and in one
# make bench run 16.5 against 18.7 TSC ticks a byte at 16 KiB (1.54x
# libgcrypt 1.12, against 1.36x).  A 1 KiB SM4-GCM message spends ~230 of its ~1,300
# ticks in E(J0), one block through the lean core (32 rounds of a ~9-cycle
# chain), which out-of-order execution does not hide behind the init
# plumbing or the data pass (measured with it moved to the init, and
# without it).  The J0 entries (src/kernel.h's smg_gcm_j0_fn, a message's
# first call) now run J0 as a fifth, xmm group of the 64-block pass where
# the call has one (e_core_j0), else through the lean core at the call's
# start; same CPU, best of 3000 calls, TSC ticks:
#
#   gcm_enc call of             alone   E(J0) by ecb first   J0 entry
#   64 blocks                   722     998                  862
#   65 blocks                   1032    1358                 1200
#   1024 blocks (lean at start) 8176    8246                 8296
#
# and a whole 1 KiB message (set IV, 16 bytes of AAD, data, tag) 1,294 ->
# 1,142 ticks encrypting, 1,310 -> 1,172 decrypting, against libgcrypt
# 1.12's 1,446 / 1,438 in the same process (1.14x / 1.13x -> 1.27x /
# 1.23x).  From 128 blocks up that lone block cost ~320 ticks a call
# (measured by leaving it out): its ~420 dependent instructions fill the
# reorder buffer long before they end, so nothing after them overlaps.
# The byte-sliced rounds are now a loop of 8 rounds (b_rounds; ~6 KB of
# code a copy, against 15-18 KB unrolled, at the same speed), so that a
# call's first 128-block pass has its own copy with E(J0)'s rounds in
# them (j0_round: 9 operations a round beside the pass's ~50), and an
# encryption's first pass runs the plain rounds again instead of hashing
# into a dummy xi.  Same CPU, best of 2000 calls in each of 4 processes
# alternating with the kernel before, TSC ticks:
#
#   J0 entry, blocks        128          256          1024
#   gcm_enc before / now    1364 / 1164  2360 / 2052  7730 / 7414
#   gcm_dec before / now    1320 / 1136  2284 / 2126  7542 / 7380
#
# The word-sliced rounds now keep the state in the A1 image too (e_round:
# 9 operations a round instead of 10, one affine map a word in and out),
# their key constants coming from the keys in that image, which are the
# byte-sliced core's: the key setup makes both tables (src/sm4.c) and a
# wide call copies them.  Same CPU and method, TSC ticks a call:
#
#   blocks                  64           127          1024
#   ECB before / now        660 / 586    1570 / 1368  7134 / 7084
#   CTR                     638 / 544    1544 / 1370  7158 / 7116
#   XTS IEEE                666 / 586    1598 / 1414  7580 / 7504
#   gcm_enc J0 entry        838 / 774                 7416 / 7360
#   gcm_dec J0 entry        824 / 796                 7370 / 7314

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use clmul_x86_64;

x86_64::setup(@ARGV);

my $code = "";

sub R { my ($w, $n) = @_; return "%${w}mm$n"; }

my %bpr   = (z => 4, y => 2, x => 1);      # blocks per register
my %bcast = (z => 16, y => 8, x => 4);     # dwords per register

# ---------------------------------------------------------------------------
# Constants shared by every tier.
$code .= rodata_begin() . <<'EOT';
.p2align	6
# per-lane byte swap of the four 32-bit words (4 lanes, so that zmm, ymm
# and xmm memory operands can all start here)
.Lsm4_bswap:
.byte	3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12
.byte	3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12
.byte	3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12
.byte	3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12
# rotations by whole bytes of native words, as byte shuffles (AVX2 tier)
.Lsm4_rol8:
.byte	3,0,1,2,7,4,5,6,11,8,9,10,15,12,13,14
.byte	3,0,1,2,7,4,5,6,11,8,9,10,15,12,13,14
.Lsm4_rol16:
.byte	2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13
.byte	2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13
.Lsm4_rol24:
.byte	1,2,3,0,5,6,7,4,9,10,11,8,13,14,15,12
.byte	1,2,3,0,5,6,7,4,9,10,11,8,13,14,15,12
# CTR: block number of each dword after the 4x4 transpose: dword 4l+k of a
# group is block k*bpr+l (l = lane, k = source register)
.p2align	6
.Lsm4_ctr_idx_z:
.long	0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15
.long	16,20,24,28,17,21,25,29,18,22,26,30,19,23,27,31
.long	32,36,40,44,33,37,41,45,34,38,42,46,35,39,43,47
.long	48,52,56,60,49,53,57,61,50,54,58,62,51,55,59,63
.Lsm4_ctr_idx_y:
.long	0,2,4,6,1,3,5,7
.long	8,10,12,14,9,11,13,15
.long	16,18,20,22,17,19,21,23
.Lsm4_ctr_idx_x:
.long	0,1,2,3
# AVX2 tail masks: dword d of a pass is live when d < 4 * blocks
.Lsm4_didx:
EOT
$code .= ".long\t" . join(",", 8 * $_ .. 8 * $_ + 7) . "\n"
    for 0 .. 11;
$code .= <<'EOT';
.Lsm4_bias:
.long	0x80000000
.Lsm4_one:
.long	1
.p2align	3
.Lsm4_aff1:
.quad	0x34ac259e022dbc52
# the same matrices as ymm memory operands (AVX2 tier)
.p2align	5
.Lsm4_aff1_y:
.quad	0x34ac259e022dbc52,0x34ac259e022dbc52
.quad	0x34ac259e022dbc52,0x34ac259e022dbc52
.Lsm4_aff2_y:
.quad	0xd72d8e511e6c8b19,0xd72d8e511e6c8b19
.quad	0xd72d8e511e6c8b19,0xd72d8e511e6c8b19
.text
EOT

# 4x4 transpose of 32-bit words inside each 128-bit lane: afterwards
# register k holds what was word k of the four source registers.
sub transpose {
    my ($x0, $x1, $x2, $x3, $t1, $t2) = @_;
    return <<"EOT";
	vpunpckhdq	$x1,$x0,$t2
	vpunpckldq	$x1,$x0,$x0
	vpunpckldq	$x3,$x2,$t1
	vpunpckhdq	$x3,$x2,$x2
	vpunpckhqdq	$t1,$x0,$x1
	vpunpcklqdq	$t1,$x0,$x0
	vpunpckhqdq	$x2,$t2,$x3
	vpunpcklqdq	$x2,$t2,$x2
EOT
}

###########################################################################
# GFNI + AVX-512 tier (AVX512F, AVX512BW for vpshufb/kshift on 64-bit masks,
# AVX512VL for the ymm/xmm passes, GFNI).
#
# Register map: group g (0..3) data zmm4g..4g+3, running parity zmm16+g,
# round temps zmm20..23 shared by the groups (renaming keeps them
# independent), driver scratch zmm24, CBC/CFB chaining blocks zmm25/26,
# constants zmm28 (rol24 shuffle), zmm29 (A1), zmm31 (bswap); the
# rounds' matrices are memory operands.  The byte-sliced core uses
# zmm0..23, zmm27/28 (its matrices) and (CTR) zmm31, its first GCM pass
# zmm30 (j0_round); the 128-block loop reloads the constants when it ends.
# k1..k4: tail masks of the last group's four registers; k6/k7: CTR carries.
#
# These word-sliced rounds serve the passes of 16 to 64 blocks (calls of
# 17..127 blocks and the remainders of longer ones; the byte-sliced core
# below takes 128 at a time).  A round of a group is 9 zmm ops: 2
# affine-inverses, 2 rotates, rol24 as a shuffle, and 4 logic ops:
#  - the state is the A1 image of the words, Z_j = A1 X_j, as in the lean
#    cores, so that the S-box leaves L's parts already mapped (b = A1 B
#    s, c = A1 C s, L(s) in that image = b ^ c ^ rol8 b ^ rol16 b ^ rol24
#    c: lean_body_glc);
#  - the round keys are folded into the state: with Y_j = Z_j ^ c_j, where
#    c_0 = c_1 = c_2 = 0 and c_{i+3} = K_i ^ c_{i+1} ^ c_{i+2} for the keys
#    in that image, K_i = A1 rk_i + c1, the S-box input of round i is just
#    Y_{i+1} ^ Y_{i+2} ^ Y_{i+3}, kept as a running parity (one ternlog
#    per round), and the update becomes Y_{i+4} = Y_i ^ L(S(.)) ^ d_i with
#    d_i = c_i ^ c_{i+4}.
# (Before, in the plain image: 10 ops, an affine map and an affine-inverse
# for the S-box and L from s by three rotates and a shuffle.)
# The key setup makes the table of c_3, d_0..d_31, c_32..c_34 with the
# schedule (SM4_KEY.ws, src/sm4.c); the mode functions copy it onto the
# stack (e_table) and pass it to the core in %rdi.
my ($R24, $A1, $BSW) = (28, 29, 31);
# chaining block of CBC/CFB decryption (all lanes) and the next one
my ($IVB, $IVN) = (25, 26);
my $TBL_BYTES = 4 * 36;

sub e_data { my ($g) = @_; return map { 4 * $g + $_ } 0 .. 3; }
sub e_par  { my ($g) = @_; return 16 + $g; }
my @e_tmp = (20 .. 23);
# GCM's J0 group (e_core_j0): its words and its parity
my @J0_DATA = (24 .. 27);
my $J0_PAR = 31;

sub e_round {
    my ($w, $i, $X, $p) = @_;
    my ($y0, $y1) = map { R($w, $_) } @$X[0, 1];
    my ($b, $c, $t, $u) = map { R($w, $_) } @e_tmp;
    my $r24 = R($w, $R24);
    my $par = R($w, $p);
    my $n = $bcast{$w};
    my $q = $n / 2;
    my $d = 4 * (1 + $i);
    my ($kb, $kc) = map { gf_k($_) } qw(b c);
    my $r = <<"EOT";
	vgf2p8affineinvqb	\$$kb,.Lsm4_gf_b(%rip){1to$q},$par,$b
	vgf2p8affineinvqb	\$$kc,.Lsm4_gf_c(%rip){1to$q},$par,$c
	vprold	\$8,$b,$t
	vprold	\$16,$b,$u
	vpternlogd	\$0x96,$u,$t,$y0
	vpshufb	$r24,$c,$t
	vpternlogd	\$0x96,$c,$b,$y0
	vpternlogd	\$0x96,$d(%rdi){1to$n},$t,$y0
EOT
    $r .= "\tvpternlogd\t\$0x96,$y0,$y1,$par\n" if $i < 31;
    return $r;
}

# Where SM4_KEY keeps that table and the byte-sliced core's (src/sm4.h).
my ($KS_WS, $KS_BS) = (128, 272);

# Frame of the wide path (64-byte aligned, %rdi points at it): the table
# above (c_3, d_0..d_31, c_32..c_34), the schedule pointer (kept at
# $TBL_BYTES(%rsp) for the lean tail passes), then for the byte-sliced
# core (below) its table with every byte of its slots replicated over a
# dword (B_KEY, 16 bytes a slot), the output constants of b_out's blocks
# (B_P, b_pass) and the state of the two halves (B_STATE).
my ($B_KEY, $B_P, $B_STATE) = (192, 768, 832);
my $FRAME = $B_STATE + 2048;
# GCM's frame goes on: GHASH's xi and middle sum ($B_XI, $B_MID), the
# counter's constant words ($B_CW, 768 bytes), then J0 (for e_core_j0 and
# j0_init), the ek0 pointer, and E(J0)'s state in a first pass ($B_J0Y).
my $B_J0 = $FRAME + 128 + 768;

sub e_table {
    my ($L, $framed) = @_;
    my $s = ($framed ? "" : frame_align_begin($FRAME, 64))
        . "\tmov\t%rdi,$TBL_BYTES(%rsp)\n";
    # the table itself the key setup made (SM4_KEY.ws, src/sm4.c):
    # copied, 36 dwords, instead of a serial chain of ~170 scalar
    # operations a call
    $s .= "\tvmovdqu64\t$KS_WS(%rdi),%zmm16\n\tvmovdqu64\t@{[$KS_WS + 64]}(%rdi),%zmm17\n"
        . "\tvmovdqu64\t@{[$KS_WS + 128]}(%rdi),%xmm18\n\tvmovdqa64\t%zmm16,(%rsp)\n"
        . "\tvmovdqa64\t%zmm17,64(%rsp)\n\tvmovdqa64\t%xmm18,128(%rsp)\n";
    # the byte-sliced core's table (SM4_KEY.bs), for calls that reach its
    # 128-block loop
    $s .= "\tcmp\t\$128,%rcx\n\tjb\t${L}_nobs\n";
    $s .= "\tvmovdqu64\t" . ($KS_BS + 64 * $_) . "(%rdi),%zmm17\n"
        . "\tvmovdqa64\t%zmm17," . ($B_KEY + 64 * $_) . "(%rsp)\n" for 0 .. 8;
    # Output byte c of a block is byte 3-(c&3) of X_{35-(c>>2)}, which is
    # A1^-1 (Y ^ the slot of c_{35-(c>>2)}) for c >= 4 (b_out): the affine
    # map is linear, so A1^-1 of those slot bytes, in block order and in
    # every lane, is what each output block still needs XORed in.  xmm18
    # holds slots 32..35.
    $s .= "\tvshufi32x4\t\$0,%zmm18,%zmm18,%zmm17\n"
        . "\tvbroadcasti32x4\t.Lsm4_bs_pfold(%rip),%zmm16\n"
        . "\tvpshufb\t%zmm16,%zmm17,%zmm17\n"
        . "\tvpbroadcastq\t.Lsm4_gf_a1inv(%rip),%zmm16\n"
        . "\tvgf2p8affineqb\t\$0,%zmm16,%zmm17,%zmm17\n"
        . "\tvmovdqa64\t%zmm17,$B_P(%rsp)\n";
    $s .= "${L}_nobs:\n\tmov\t%rsp,%rdi\n";
    return $s;
}

sub e_table_free {
    return frame_align_end();
}

# Core: encrypts G groups of width w held in the data registers.  The "raw"
# entry takes block bytes as loaded; the "_t" entry takes words already
# transposed (CTR builds them in place).  On return register 4g+3-k holds
# the output bytes of chunk k of group g (the final word order is reversed).
sub e_core_in {
    my ($w, $g) = @_;
    my @d = map { R($w, $_) } e_data($g);
    my $bsw = R($w, $BSW);
    my $s = join '', map { "\tvpshufb\t$bsw,$_,$_\n" } @d;
    return $s . transpose(@d, map { R($w, $_) } @e_tmp[0, 1]);
}

sub e_core_init {
    my ($w, $g, $regs, $par) = @_;
    my ($y0, $y1, $y2, $y3) = map { R($w, $_) } @{ $regs // [ e_data($g) ] };
    my $p = R($w, $par // e_par($g));
    my $n = $bcast{$w};
    my $a1 = R($w, $A1);
    return join('', map { "\tvgf2p8affineqb\t\$0,$a1,$_,$_\n" } $y0, $y1, $y2, $y3)
        . "\tvpxord\t(%rdi){1to$n},$y3,$y3\n"
        . "\tvpxord\t$y2,$y1,$p\n\tvpxord\t$y3,$p,$p\n";
}

sub e_core_out {
    my ($w, $g, $regs) = @_;
    my @y = map { R($w, $_) } @{ $regs // [ e_data($g) ] };
    my $n = $bcast{$w};
    my $s = join '', map {
        "\tvpxord\t" . (4 * (33 + $_)) . "(%rdi){1to$n},$y[$_],$y[$_]\n"
    } 0 .. 2;
    my $q = $n / 2;
    $s .= "\tvgf2p8affineqb\t\$0,.Lsm4_gf_a1inv(%rip){1to$q},$_,$_\n" for @y;
    my @d = reverse @y;
    $s .= transpose(@d, map { R($w, $_) } @e_tmp[0, 1]);
    $s .= join '', map { "\tvpshufb\t" . R($w, $BSW) . ",$_,$_\n" } @d;
    return $s;
}

# The round stream of G groups, interleaved round by round.  Given a mode,
# each group's output is finished (XOR, store) as soon as it is transposed,
# which lets that work overlap the other groups' shuffles.  CBC finishes
# from the last chunk back so that, in place, every chunk still finds the
# ciphertext block before it unmodified.
sub e_core_body {
    my ($w, $G, $mode, $j0) = @_;
    my $s = "";
    $s .= e_core_init($w, $_) for 0 .. $G - 1;
    $s .= e_core_init('x', 0, [ @J0_DATA ], $J0_PAR) if $j0;
    my @X = map { [ e_data($_) ] } 0 .. $G - 1;
    my @XJ = @J0_DATA;
    for my $i (0 .. 31) {
        for my $g (0 .. $G - 1) {
            $s .= e_round($w, $i, $X[$g], e_par($g));
            push @{ $X[$g] }, shift @{ $X[$g] };
        }
        next unless $j0;
        $s .= e_round('x', $i, \@XJ, $J0_PAR);
        push @XJ, shift @XJ;
    }
    # the lone group's parity register held the byte swap's constant
    $s .= "\tvbroadcasti32x4\t.Lsm4_bswap(%rip),%zmm$BSW\n" if $j0;
    my $rev = defined $mode && $mode eq 'cbc_dec';
    for my $g ($rev ? reverse(0 .. $G - 1) : 0 .. $G - 1) {
        $s .= e_core_out($w, $g);
        next unless defined $mode;
        $s .= e_finish($mode, $w, $G, 0, $g, $_) for $rev ? (3, 2, 1, 0) : 0 .. 3;
    }
    $s .= e_core_out('x', 0, [ @J0_DATA ]) if $j0;
    return $s;
}

# Without a mode: the shared core, results left in registers.  With one
# (ECB, CBC decryption, where it measured faster): the full-width pass of
# that mode, finishing inside.
sub e_core {
    my ($w, $G, $mode) = @_;
    my $name = ".Lsm4_avx512_core_$w$G" . (defined $mode ? "_$mode" : "");
    my $s = local_function_begin($name);
    $s .= e_core_in($w, $_) for 0 .. $G - 1;
    $s .= "${name}_t:\n" unless defined $mode;
    $s .= e_core_body($w, $G, $mode);
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# GCM's E(J0) (src/kernel.h's smg_gcm_j0_fn) inside a 64-block pass: J0 as
# a fifth group, one xmm register a word (all four lanes J0), its rounds
# beside the four zmm groups' (9 operations a round more than their 36,
# where one block through the lean core is 32 rounds of its ~9-cycle
# chain: cheaper in a loop-bound pass than after it).  Its registers are
# the ones the CTR passes leave free (the chaining ones among them) and,
# for its parity, zmm31, which the rounds do not read (the byte swap's
# constant, reloaded after them).  J0 is read from the frame ($B_J0(%rdi)
# of the GCM driver); the output block is left in xmm27 (chunk 0 of the
# group, e_core_out's order).
sub e_core_j0 {
    my $name = ".Lsm4_avx512_core_z4j0_t";
    my @y = map { R('x', $_) } @J0_DATA;
    my $s = local_function_begin($name);
    $s .= "\tvmovdqa64\t$B_J0(%rdi),$y[3]\n\tvpshufb\t" . R('x', $BSW)
        . ",$y[3],$y[3]\n";
    $s .= "\tvpshufd\t\$" . (0x55 * $_) . ",$y[3],$y[$_]\n" for 0 .. 3;
    $s .= e_core_body('z', 4, undef, 1);
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# ---------------------------------------------------------------------------
# GF(2) 8x8 matrices in the GF2P8AFFINEQB operand format: row i (output bit
# i) is byte 7-i of the qword (Intel SDM, GF2P8AFFINEQB).
sub gf_rows {
    my ($q) = @_;
    return map { ($q >> (8 * (7 - $_))) & 0xff } 0 .. 7;
}

sub gf_qword {
    my @r = @_;
    my $q = 0;
    $q |= $r[$_] << (8 * (7 - $_)) for 0 .. 7;
    return $q;
}

sub gf_parity {
    my ($x) = @_;
    $x ^= $x >> 4;
    $x ^= $x >> 2;
    $x ^= $x >> 1;
    return $x & 1;
}

# y = M x on one byte
sub gf_apply {
    my ($q, $x) = @_;
    my @r = gf_rows($q);
    my $y = 0;
    $y |= gf_parity($r[$_] & $x) << $_ for 0 .. 7;
    return $y;
}
# the matrix of a linear byte map given as a perl function
sub gf_matrix {
    my ($f) = @_;
    my @r = (0) x 8;
    for my $j (0 .. 7) {
        my $col = $f->(1 << $j);
        $r[$_] |= (($col >> $_) & 1) << $j for 0 .. 7;
    }
    return gf_qword(@r);
}
# M N (apply N, then M)
sub gf_mul {
    my ($m, $n) = @_;
    return gf_matrix(sub { gf_apply($m, gf_apply($n, $_[0])) });
}
sub gf_inverse {
    my ($m) = @_;
    my %inv;
    $inv{ gf_apply($m, $_) } = $_ for 0 .. 255;
    die "singular matrix\n" unless keys %inv == 256;
    return gf_matrix(sub { $inv{ $_[0] } });
}

# The S-box is A2 inv(A1 x + c1) + c2.  One-block rounds keep the state in
# the A1 image (Z = A1 Y, bytewise), so the S-box input needs no first
# affine step: w = Z_{i+1} ^ Z_{i+2} ^ Z_{i+3} ^ c1.  L splits into
# bytewise maps: L(s) = A(s) ^ rol8(B(s)) ^ rol16(B(s)) ^ rol24(C(s)) with
# A(x) = x ^ x<<2, B(x) = x<<<2 (within the byte), C(x) = x ^ x>>6, so the
# A1 image of L(S(.)) comes from three VGF2P8AFFINEINVQB of w with the
# matrices A1 A A2, A1 B A2, A1 C A2 and constants A1 A c2 etc.
no warnings 'portable';    # 64-bit matrices need a 64-bit perl
my ($GF_A1, $GF_A2, $GF_C1, $GF_C2) =
    (0x34ac259e022dbc52, 0xd72d8e511e6c8b19, 0x65, 0xd3);
my $GF_A1INV = gf_inverse($GF_A1);
my %GF_L = (
    a => gf_matrix(sub { ($_[0] ^ ($_[0] << 2)) & 0xff }),
    b => gf_matrix(sub { (($_[0] << 2) | ($_[0] >> 6)) & 0xff }),
    c => gf_matrix(sub { $_[0] ^ ($_[0] >> 6) }),
);
my %GF_M = map { $_ => gf_mul($GF_A1, gf_mul($GF_L{$_}, $GF_A2)) } keys %GF_L;
my %GF_K = map { $_ => gf_apply(gf_mul($GF_A1, $GF_L{$_}), $GF_C2) } keys %GF_L;
sub gf_k { return $GF_K{ $_[0] }; }

# 32 bytes each so that VEX forms (xmm and ymm) can take them as memory
# operands
$code .= rodata_begin() . ".p2align\t5\n";
my %gf_out = ((map { ("gf_$_" => $GF_M{$_}) } qw(a b c)), gf_a1inv => $GF_A1INV);
$code .= sprintf(".Lsm4_%s:\n.quad\t0x%016x,0x%016x,0x%016x,0x%016x\n", $_,
                 ($gf_out{$_}) x 4)
    for sort keys %gf_out;
$code .= text_begin();

# ---------------------------------------------------------------------------
# Lean cores, for calls of 1..4 blocks and for the serial modes: no table,
# no constant in a register, nothing to set up, only xmm0..13 (VEX/EVEX.128
# forms, so no VZEROUPPER is owed either).
#
# The state is kept in the A1 image (Z = A1 X, bytewise), so the S-box
# input needs no first affine step: w_i = Z_{i+1} ^ Z_{i+2} ^ Z_{i+3} ^ K_i
# with K_i = A1 rk_i ^ c1, mapped from the schedule at (%rdi) by one
# VGF2P8AFFINEQB as the rounds go (off the loop-carried path).  L splits
# into bytewise maps: L(s) = A(s) ^ rol8(B(s)) ^ rol16(B(s)) ^ rol24(C(s))
# with A(x) = x ^ x<<2, B(x) = x<<<2 (within the byte), C(x) = x ^ x>>6, so
# E_i, the A1 image of L(S(.)), is a ^ rol8(b) ^ rol16(b) ^ rol24(c) with
# a, b, c three VGF2P8AFFINEINVQB of w_i (matrices A1 A A2, A1 B A2,
# A1 C A2, constants A1 A c2 etc.).  Then Z_{i+4} = Z_i ^ E_i, and with
# q_i = Z_i ^ Z_{i+2} ^ Z_{i+3} ^ K_{i+1} computed beside the S-box,
# w_{i+1} = q_i ^ E_i: the loop-carried path is one affine-inverse, one
# rotate and two three-way XORs (AVX-512) or three XORs (AVX2).
#
# .Lsm4_<fam>_lean: native words X0..X3 in xmm0..3 (one block per dword
# lane, any lanes) -> X32..X35 in xmm0..3; clobbers xmm4..12.

sub lean_body {
    my ($fam, $wd) = @_;
    my $evex = $fam eq 'avx512';
    my $name = ".Lsm4_${fam}_lean_$wd";
    my @Z = map { R($wd, $_) } 0 .. 3;
    my ($w, $q, $a, $b, $c, $b8, $b16, $c24, $e) = map { R($wd, $_) } 4 .. 12;
    my ($ka, $kb, $kc) = map { $GF_K{$_} } qw(a b c);
    my $xor = $evex ? 'vpxord' : 'vpxor';
    # the matrices: VEX memory operands, or (zmm, EVEX only) registers
    # 16..20 loaded here
    my %m = map { $_ => ".Lsm4_$_(%rip)" } qw(gf_a gf_b gf_c gf_a1inv);
    $m{aff1} = ".Lsm4_aff1_y(%rip)";
    my $s = local_function_begin($name);
    if ($wd eq 'z') {
        my @k = qw(gf_a gf_b gf_c gf_a1inv aff1);
        for my $i (0 .. $#k) {
            my $src = $m{ $k[$i] } =~ s/_y\(/(/r;
            $s .= "\tvpbroadcastq\t$src,%zmm" . (16 + $i) . "\n";
            $m{ $k[$i] } = "%zmm" . (16 + $i);
        }
    }
    my $x3 = sub {    # d ^= s1 ^ s2
        my ($d, $s1, $s2) = @_;
        return "\tvpternlogd\t\$0x96,$s2,$s1,$d\n" if $evex;
        return "\tvpxor\t$s1,$d,$d\n\tvpxor\t$s2,$d,$d\n";
    };
    my $kmap = sub {  # K_j into $d
        my ($j, $d) = @_;
        return "\tvpbroadcastd\t" . (4 * $j) . "(%rdi),$d\n"
            . "\tvgf2p8affineqb\t\$$GF_C1,$m{aff1},$d,$d\n";
    };
    $s .= "\tvgf2p8affineqb\t\$0,$m{aff1},$_,$_\n" for @Z;
    $s .= $kmap->(0, $w) . $x3->($w, @Z[2, 3]) . "\t$xor\t$Z[1],$w,$w\n";
    for my $i (0 .. 31) {
        my $more = $i < 31;
        $s .= <<"EOT";
	vgf2p8affineinvqb	\$$kb,$m{gf_b},$w,$b
	vgf2p8affineinvqb	\$$kc,$m{gf_c},$w,$c
	vgf2p8affineinvqb	\$$ka,$m{gf_a},$w,$a
EOT
        $s .= $kmap->($i + 1, $q) . $x3->($q, @Z[0, 2])
            . "\t$xor\t$Z[3],$q,$q\n" if $more;
        if ($evex) {
            $s .= "\tvprold\t\$8,$b,$b8\n\tvprold\t\$16,$b,$b16\n"
                . "\tvprold\t\$24,$c,$c24\n";
            $s .= $x3->($q, $a, $b8) . $x3->($q, $b16, $c24) if $more;
            $s .= $x3->($Z[0], $a, $b8) . $x3->($Z[0], $b16, $c24);
        } else {
            $s .= <<"EOT";
	vpshufb	.Lsm4_rol8(%rip),$b,$b8
	vpshufb	.Lsm4_rol16(%rip),$b,$b16
	vpshufb	.Lsm4_rol24(%rip),$c,$c24
	vpxor	$c24,$b16,$e
EOT
            $s .= $x3->($q, $a, $b8) . "\tvpxor\t$e,$q,$q\n" if $more;
            $s .= $x3->($Z[0], $a, $b8) . "\tvpxor\t$e,$Z[0],$Z[0]\n";
        }
        ($w, $q) = ($q, $w) if $more;
        push @Z, shift @Z;
    }
    $s .= "\tvgf2p8affineqb\t\$0,$m{gf_a1inv},$_,$_\n" for @Z;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# The x1, y1 (and z1) cores of a tier (the contract of e_core: chunk k of the
# blocks as loaded in register k, or with the "_t" entry native words;
# output chunk k in register 3-k) around the lean body of that width.
sub lean_core {
    my ($fam, $wd, $body) = @_;
    $body //= ".Lsm4_${fam}_lean_$wd";
    my $name = ".Lsm4_${fam}_core_${wd}1";
    $name = ".Lsm4_avx512_glc_core_x1" if $body =~ /glc/;
    my @x = map { R($wd, $_) } 0 .. 3;
    my $s = local_function_begin($name);
    $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @x;
    $s .= transpose(@x, R($wd, 4), R($wd, 5));
    $s .= "${name}_t:\n\tcall\t$body\n";
    $s .= transpose(reverse(@x), R($wd, 4), R($wd, 5));
    $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @x;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= e_core('z', 4, $_) for qw(ecb cbc_dec);
$code .= e_core('z', 4) . e_core('z', 2) . e_core_j0();

for my $fam (qw(avx512 avx2)) {
    $code .= lean_body($fam, $_) . lean_core($fam, $_) for qw(x y);
}

# The same rounds for CCM on Intel cores (src/sm4_x86.c chooses).  There a
# GF2P8AFFINE(INV)QB result reaches an integer vector operation 2 cycles
# after its 3-cycle latency, and later still when that operation also
# waits for another input (measured on the Xeon family 6 model 207 as
# chains: GFNI to GFNI 3 cycles, GFNI to VPXOR and back 6; a GFNI result
# XORed one cycle after it is ready, 2.6 cycles more), so every result of
# the three affine-inverses above that is not consumed at once, one of them
# a cycle late on the two GFNI ports, lengthens the round: 11.9 cycles for
# an 8-cycle path.  As A = B ^ C (x ^ x<<2 = (x<<<2) ^ x ^ x>>6 bitwise),
# a = b ^ c with the constants too, so two affine-inverses suffice:
#   E = (b ^ c) ^ rol8(b) ^ rol16(b) ^ rol24(c),
# and w' = (q ^ b ^ c) ^ (rol8 b ^ rol16 b ^ rol24 c), the rotations on
# VPROLD (ports 0/1) and VPSHUFB (1/5) so that they all start with the
# first XOR: 10.4 cycles a round, timed the same way.  Z_{i+4} = Z_i ^ q ^
# w' (before q takes E).
sub lean_body_glc {
    my $name = ".Lsm4_avx512_lean_glc_x";
    my @Z = map { R('x', $_) } 0 .. 3;
    my ($w, $q, $b, $c, $b8, $b16, $c24) = map { R('x', $_) } 4 .. 10;
    my ($kb, $kc) = map { $GF_K{$_} } qw(b c);
    die "A != B ^ C\n" unless $GF_M{a} == ($GF_M{b} ^ $GF_M{c})
        && $GF_K{a} == ($kb ^ $kc);
    my %m = map { $_ => ".Lsm4_$_(%rip)" } qw(gf_b gf_c gf_a1inv);
    $m{aff1} = ".Lsm4_aff1_y(%rip)";
    my $x3 = sub { "\tvpternlogd\t\$0x96,$_[2],$_[1],$_[0]\n" };
    my $kmap = sub {
        my ($j, $d) = @_;
        return "\tvpbroadcastd\t" . (4 * $j) . "(%rdi),$d\n"
            . "\tvgf2p8affineqb\t\$$GF_C1,$m{aff1},$d,$d\n";
    };
    my $s = local_function_begin($name);
    $s .= "\tvgf2p8affineqb\t\$0,$m{aff1},$_,$_\n" for @Z;
    $s .= $kmap->(0, $w) . $x3->($w, @Z[2, 3]) . "\tvpxord\t$Z[1],$w,$w\n";
    for my $i (0 .. 31) {
        my $more = $i < 31;
        $s .= <<"EOT";
	vgf2p8affineinvqb	\$$kb,$m{gf_b},$w,$b
	vgf2p8affineinvqb	\$$kc,$m{gf_c},$w,$c
EOT
        $s .= $kmap->($i + 1, $q) . $x3->($q, @Z[0, 2])
            . "\tvpxord\t$Z[3],$q,$q\n" if $more;
        $s .= <<"EOT";
	vprold	\$8,$b,$b8
	vpshufb	.Lsm4_rol16(%rip),$b,$b16
	vpshufb	.Lsm4_rol24(%rip),$c,$c24
EOT
        if ($more) {
            $s .= "\tvpxord\t$q,$Z[0],$Z[0]\n" . $x3->($q, $b, $c)
                . $x3->($b8, $b16, $c24) . "\tvpxord\t$b8,$q,$q\n"
                . "\tvpxord\t$q,$Z[0],$Z[0]\n";
            ($w, $q) = ($q, $w);
        } else {
            $s .= $x3->($Z[0], $b, $c) . $x3->($b8, $b16, $c24)
                . "\tvpxord\t$b8,$Z[0],$Z[0]\n";
        }
        push @Z, shift @Z;
    }
    $s .= "\tvgf2p8affineqb\t\$0,$m{gf_a1inv},$_,$_\n" for @Z;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= lean_body_glc()
    . lean_core('avx512', 'x', '.Lsm4_avx512_lean_glc_x');
$code .= lean_body('avx512', 'z') . lean_core('avx512', 'z');

# ---------------------------------------------------------------------------
# Byte-sliced core: the 128-block passes of the parallel modes (calls of 128
# blocks or more).  What bounds the word-sliced rounds above, measured on
# Zen 4 with loops of independent zmm ops: every zmm op takes two of the
# four 256-bit pipes for a cycle, and none is free of the others: GFNI,
# VPROLD/VPROLVD and VPMULTISHIFTQB share one pair (1 a cycle together),
# VPSLLD and VPSRLD another, VPSHUFB and the unpacks straddle them, the
# ternary XOR goes anywhere (1.7 a cycle, 2 for two-source XORs).  So 10
# ops a group of 16 blocks is 5 cycles at best (5.3 measured without
# dependencies, 6.6 with them, 7.2 in the 64-block pass): only fewer ops
# help.  Here register (j, k) of a half holds byte k of native word j of
# 64 blocks, so that the rotations by whole bytes are a choice of
# register, and with s_k the S-box output bytes
#   L(s)_k = A(a_k) ^ C(a_{k-1}),  a_k = s_k ^ s_{k-1} ^ s_{k-2}
# (A(x) = x ^ x<<2 and C(x) = x ^ x>>6 within the byte, indices mod 4; from
# rol 2, 10, 18, 24 written byte by byte).  As in the lean cores the state
# is the A1 image Z = A1 X, and the S-box leaves its output already
# through A1 A and through A1 C (two VGF2P8AFFINEINVQB a byte); with the
# keys folded as in the word-sliced core (K_i = A1 rk_i ^ c1 in place of
# rk_i) a round of 64 blocks is 24 zmm ops, 6 a byte (two S-boxes, b_k
# with its key byte, the three-way sum, Y_i, the running parity; b_round),
# against 40 above.
# The state lives in the frame (read twice and written once a round, the
# reads as memory operands of the ternary XORs), so that two halves of 64
# blocks fit in registers and overlap their dependency chains: 4.2 cycles a
# 16-block round in a loop of rounds (4.0 without dependencies), against
# 6.6 above.  Entry and exit are one 16x16 byte transpose of each half
# (64 unpacks), the A1 map and the folded constants.
$code .= rodata_begin() . ".p2align\t6\n";
# byte k of dword slot l of the table replicated over dword k of lane l
$code .= ".Lsm4_bs_rep:\n";
$code .= ".byte\t" . join(",", map { my $l = $_; map { (4 * $l + $_) x 4 } 0 .. 3 } 0 .. 3) . "\n";
# CTR's entry: in a lane, dword k gathers byte k of the four native words
my @bs_t   = map { my $k = $_; map { 4 * $_ + $k } 0 .. 3 } 0 .. 3;
$code .= ".Lsm4_bs_t:\n.byte\t" . join(",", @bs_t) . "\n";
# e_table's output constants: zero, then bytes 3..0 of slots 35, 34, 33
$code .= ".Lsm4_bs_pfold:\n.byte\t" . join(",", (0x80) x 4, reverse 4 .. 15) . "\n";
$code .= text_begin();

# State slot of word j, byte k of half h (words j and j+4 share a slot).
sub b_y { my ($h, $j, $k) = @_; return ($B_STATE + 1024 * $h + 256 * ($j % 4) + 64 * $k) . "(%rdi)"; }
# d/c constant of table slot t, byte k, broadcast
# (inside the rounds' loop, b_rounds, off %rax = %rdi + 128 (m - 3) in
# iteration m, the rounds named as in iteration 0)
our $B_KEY_LOOP;
sub b_key {
    my ($t, $k) = @_;
    my $o = $B_KEY + 16 * $t + 4 * $k;
    return ($o + $B_KEY_LOOP) . "(%rax){1to16}" if defined $B_KEY_LOOP;
    return "$o(%rdi){1to16}";
}

# 16x16 byte transpose inside every 128-bit lane: zmm $rows->[r] holds row
# r (byte c of its lanes is element (r, c)); afterwards $out[c] holds row c
# of the transpose.  Four levels of unpacks (bytes, words, dwords, qwords),
# each pairing the rows that differ in one bit; one spare register.
sub bt16 {
    my ($rows, $spare) = @_;
    my @x = @$rows;
    my $s = "";
    my @u = qw(bw wd dq qdq);
    for my $l (0 .. 3) {
        for my $lo (grep { !($_ & (1 << $l)) } 0 .. 15) {
            my $hi = $lo | (1 << $l);
            my ($ra, $rb, $rt) = map { "%zmm$_" } $x[$lo], $x[$hi], $spare;
            $s .= "\tvpunpckl$u[$l]\t$rb,$ra,$rt\n\tvpunpckh$u[$l]\t$rb,$ra,$rb\n";
            ($x[$lo], $spare) = ($spare, $x[$lo]);
        }
    }
    # position p now holds column c = p with its four bits reversed
    my @out = map { my $c = $_; $x[ oct("0b" . reverse sprintf("%04b", $c)) ] } 0 .. 15;
    return ($s, \@out);
}

# Half h of a pass in: chunk k of group g in zmm 4g+k (raw blocks) ->
# state, byte-sliced and in the A1 image, word 3 with c_3 folded in.  Byte
# c of a raw block is byte 3-(c&3) of native word c>>2, so the byte
# transpose leaves the state registers with the byte swap done by their
# naming.  The "_t" entry (CTR) takes native words instead, word j of
# group g in zmm 4g+j, and gets the same layout from a byte shuffle and a
# dword transpose across the groups.
sub b_in {
    my ($h) = @_;
    my $name = ".Lsm4_bs_in$h";
    my $s = local_function_begin($name);
    my ($t, $out) = bt16([ 0 .. 15 ], 16);
    $s .= $t;
    my @reg;    # $reg[j][k]: register of word j, byte k
    $reg[ $_ >> 2 ][ 3 - ($_ & 3) ] = $out->[$_] for 0 .. 15;
    $s .= "\tjmp\t${name}_store\n${name}_t:\n";
    $s .= "\tvbroadcasti32x4\t.Lsm4_bs_t(%rip),%zmm16\n";
    $s .= "\tvpshufb\t%zmm16,%zmm$_,%zmm$_\n" for 0 .. 15;
    for my $j (0 .. 3) {
        $s .= transpose((map { R('z', 4 * $_ + $j) } 0 .. 3), '%zmm17', '%zmm18');
    }
    # now zmm 4k+j = word j, byte k: moved where the raw entry has them
    # (a permutation of 16 registers, through zmm31)
    my %dst = map { my $j = $_; map { (4 * $_ + $j => $reg[$j][$_]) } 0 .. 3 } 0 .. 3;
    $s .= b_permute(\%dst, 31);
    $s .= "${name}_store:\n";
    $s .= "\tvgf2p8affineqb\t\$0,%zmm$A1,%zmm$_,%zmm$_\n" for sort { $a <=> $b } values %dst;
    $s .= "\tvpxord\t" . b_key(0, $_) . ",%zmm$reg[3][$_],%zmm$reg[3][$_]\n" for 0 .. 3;
    for my $j (0 .. 3) {
        $s .= "\tvmovdqa64\t%zmm$reg[$j][$_]," . b_y($h, $j, $_) . "\n" for 0 .. 3;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# Register moves realizing src -> dst (a permutation), cycles through $tmp.
sub b_permute {
    my ($dst, $tmp) = @_;
    my %d = map { $_ => $dst->{$_} } grep { $_ != $dst->{$_} } keys %$dst;
    my $s = "";
    while (%d) {
        # a source whose destination is no longer needed as a source
        my ($src) = grep { !exists $d{ $d{$_} } } sort { $a <=> $b } keys %d;
        if (defined $src) {
            $s .= "\tvmovdqa64\t%zmm$src,%zmm$d{$src}\n";
            delete $d{$src};
            next;
        }
        # only cycles left: break one through $tmp
        my ($c) = sort { $a <=> $b } keys %d;
        $s .= "\tvmovdqa64\t%zmm$c,%zmm$tmp\n";
        $d{$tmp} = delete $d{$c};
    }
    return $s;
}

# The inverse: state (X_32..X_35 in the A1 image) -> output chunk k of
# group g in zmm 4g+3-k, as the word-sliced cores leave it.  Output byte c
# is byte 3-(c&3) of X_{35-(c>>2)}; the registers are named so that the
# transpose leaves every chunk where it belongs.  The key constants of
# X_32..X_34 are left out: the finish adds them with what the mode XORs
# in ($B_P, b_pass), one ternary XOR a chunk instead of 12 XORs here
# (measured 0.3-0.7% off 16 KiB calls).
sub b_out {
    my ($h) = @_;
    my $name = ".Lsm4_bs_out$h";
    my $s = local_function_begin($name);
    my (undef, $f) = bt16([ 0 .. 15 ], 16);
    my %pi;
    $pi{ $f->[$_] } = 4 * ($_ >> 2) + 3 - ($_ & 3) for 0 .. 15;
    my ($left) = grep { !exists $pi{$_} } 0 .. 16;
    $pi{$left} = 16;
    my ($t) = bt16([ map { $pi{$_} } 0 .. 15 ], $pi{16});
    $s .= "\tvpbroadcastq\t.Lsm4_gf_a1inv(%rip),%zmm17\n";
    for my $c (0 .. 15) {
        my ($j, $k) = (3 - ($c >> 2), 3 - ($c & 3));
        my $r = "%zmm$pi{$c}";
        $s .= "\tvmovdqa64\t" . b_y($h, $j, $k) . ",$r\n"
            . "\tvgf2p8affineqb\t\$0,%zmm17,$r,$r\n";
    }
    $s .= $t . "\tret\n" . local_function_end($name);
    return $s;
}

# One round i of half h: running parity p_k in zmm 12h+k, temporaries u, v
# in zmm 12h+4+k, 12h+8+k; the matrices A1 A A2 (zmm27) and A1 C A2
# (zmm28).  Y_{i+4} = Y_i ^ A1 A a_k ^ A1 C a_{k-1} ^ d_i is stored over
# Y_i; p_{i+1} = p_i ^ Y_{i+1} ^ Y_{i+4}.  Since A1 A a_k ^ A1 C a_{k-1} is
# b_k ^ b_{k-1} ^ b_{k-2} with b_k = A1 A s_k ^ A1 C s_{k-1}, the S-box
# leaves its output in both images (u_k = A1 A s_k, v_k = A1 C s_k, one
# VGF2P8AFFINEINVQB each, as in the lean cores), and b_k takes z_k, the
# bytes of the key table's slot, for which z_k ^ z_{k-1} ^ z_{k-2} = d_k
# (e_table): 8 affine maps and 14 XORs a round of 64 blocks, against 12
# and 16 with one S-box output and the affine maps after its three-way
# XORs, which left Golden Cove's only GFNI port the critical one (24 of
# the round's 56 operations).  The three-way sums share one four-way sum
# (b_k ^ b_{k-1} ^ b_{k-2} = (b_0 ^ b_1 ^ b_2 ^ b_3) ^ b_{k+1}): 2 XORs
# and no register copies for the four sums, against 4 and 4 copies.
# Returned in four steps (S-box, b, the sums, parity and store) for the
# interleaving of the halves.
sub b_round {
    my ($h, $i) = @_;
    my @p = map { "%zmm" . (12 * $h + $_) } 0 .. 3;
    my @u = map { "%zmm" . (12 * $h + 4 + $_) } 0 .. 3;
    my @v = map { "%zmm" . (12 * $h + 8 + $_) } 0 .. 3;
    my @s = ("") x 4;
    $s[0] .= "\tvgf2p8affineinvqb\t\$$GF_K{a},%zmm27,$p[$_],$u[$_]\n"
        . "\tvgf2p8affineinvqb\t\$$GF_K{c},%zmm28,$p[$_],$v[$_]\n" for 0 .. 3;
    # b_k over u_k
    $s[1] .= "\tvpternlogd\t\$0x96," . b_key(1 + $i, $_) . ",$v[($_ + 3) % 4],$u[$_]\n"
        for 0 .. 3;
    # the sum of all four b in v_0; b_k ^ b_{k-1} ^ b_{k-2} is that sum
    # ^ b_{k+1}, so Y_{i+4} byte k goes over u_{k+1}, its only other use
    $s[2] .= "\tvpxord\t$u[1],$u[0],$v[0]\n"
        . "\tvpternlogd\t\$0x96,$u[3],$u[2],$v[0]\n";
    $s[2] .= "\tvpternlogd\t\$0x96," . b_y($h, $i, $_) . ",$v[0],$u[($_ + 1) % 4]\n"
        for 0 .. 3;
    for my $k (0 .. 3) {
        my $y = $u[($k + 1) % 4];
        $s[3] .= "\tvpternlogd\t\$0x96," . b_y($h, $i + 1, $k) . ",$y,$p[$k]\n" if $i < 31;
        $s[3] .= "\tvmovdqa64\t$y," . b_y($h, $i + 4, $k) . "\n";
    }
    return @s;
}

# GCM's GHASH inside the rounds: 128 blocks at $off($base) (encryption: the
# previous pass's ciphertext; decryption: this pass's, read before the pass
# stores over it), as four groups of 32 blocks, each summed against the 32
# powers of H at (%r12) and reduced once, xi at (%r13) in and out.  The
# rounds leave five zmm registers free (24, 25, 26, 29, 31): a chunk, its
# power of H, one product, and the low and high sums of its group; the
# middle sum waits in the frame at $B_MID(%rdi) (a memory operand of the
# ternary XOR that adds each chunk's two middle products) and is folded
# into the others once a group; xi waits between groups at $B_XI(%rdi)
# (upper lanes zero); A1 is reloaded into zmm29 at the end.  Every
# operation here takes an issue slot from the rounds, which fill both zmm
# ports on Intel's Golden Cove (GFNI on one, VPCLMULQDQ and the shuffles on
# the other; measured on the family 6 model 207 Xeon), so a chunk costs
# its four multiplications, its byte swap and three XORs, no more (before:
# the middle product folded into the other sums per chunk, 12 operations).
# The arithmetic is util/perlasm/clmul_x86_64.pm's (with the
# representation), as asm/ghash-x86_64.pl's is.
my $B_XI = $FRAME;
my $B_MID = $FRAME + 64;

my $GH_BSWAP = ".Lsm4_gh_bswap(%rip)";

# xi into the frame, before the first group
sub gh_start {
    return ("vmovdqu64\t(%r13),%xmm24", "vpshufb\t$GH_BSWAP,%xmm24,%xmm24",
            "vmovdqa64\t%zmm24,$B_XI(%rdi)");
}

# Group g of the 128 blocks, chunk q at $at->($q), summed and reduced into
# xi: in the frame after groups 0..2, at (%r13) after group 3.
sub gh_group {
    my ($g, $at, $gap) = @_;    # $gap->($q): a block after chunk q (q = 7: the group)
    my ($d, $h, $t, $lo, $hi) = map { "%zmm$_" } 24, 25, 26, 29, 31;
    my $lx = "%xmm29";
    my $bsw = $GH_BSWAP;
    my @ops;
    for my $q (0 .. 7) {
        push @ops, "vmovdqu64\t" . $at->($q) . ",$d", "vpshufb\t$bsw,$d,$d";
        push @ops, "vpxorq\t$B_XI(%rdi),$d,$d" if $q == 0;
        push @ops, "vmovdqu64\t" . (64 * $q) . "(%r12),$h";
        # the middle sum in $t, added to the one in the frame
        push @ops, clmul_mul(h => $h, d => $d, lo => $lo, hi => $hi, hi_first => 1,
                             $q == 0 ? (mid => $t, t => [ $d ], first => 1)
                                     : (mid => "$B_MID(%rdi)", t => [ $t, $d ], mid_in_t => 1));
        # the last chunk's sum stays in $t for the fold
        push @ops, "vmovdqa64\t$t,$B_MID(%rdi)" if $q < 7;
        push @ops, $gap->($q) if $gap && $q < 7;
    }
    push @ops, clmul_fold($lo, $t, $hi, $d),
        "vbroadcasti32x4\t.Lsm4_gh_poly(%rip),$h",
        clmul_reduce(\%GHASH_FIELD, lo => $lo, hi => $hi, t => $t, p => $h, ternary => 1),
        clmul_lanes_sum($lo, $d, $lx);
    push @ops, $g < 3 ? "vmovdqa64\t$lo,$B_XI(%rdi)"
        : ("vpshufb\t$bsw,$lx,$lx", "vmovdqu64\t$lx,(%r13)",
           # zmm29 held A1, which the next pass's entry maps the state with
           "vpbroadcastq\t.Lsm4_aff1(%rip),%zmm$A1");
    push @ops, $gap->(7) if $gap;
    return @ops;
}

$code .= rodata_begin() . ".p2align\t6\n"
    . clmul_rodata(\%GHASH_FIELD, bswap => [ '.Lsm4_gh_bswap', 4 ],
                   fold => [ '.Lsm4_gh_poly', 1 ])
    . text_begin();

# GCM's E(J0) inside the rounds of a call's first pass (b_rounds with
# $j0): J0 as one block of the word-sliced core (e_round's operations,
# xmm, all four lanes J0), its words in the frame ($B_J0Y(%rdi), word i
# of round i in slot i mod 4), its parity in xmm30, which the rounds leave
# free, and xmm24..26, free between GHASH chunks, for its temporaries.
# One of its rounds rides in each of the pass's: 9 operations a round
# against the ~400 cycles of one block through the lean core, where the
# reorder buffer fills long before the block's dependency chain ends
# (measured on the family 6 model 207 Xeon: ~320 TSC ticks of a 1024-block
# call).  Its round keys are the word-sliced table's, at (%rbx) in the
# rounds' loop (%rdi + 32 m in iteration m).
my $B_J0Y = $B_J0 + 64;
sub j0_round {
    my ($i) = @_;
    my ($b, $c, $t, $p) = map { "%xmm$_" } 24, 25, 26, 30;
    my $y = sub { ($B_J0Y + 16 * ($_[0] % 4)) . "(%rdi)" };
    my $key = defined $B_KEY_LOOP ? (4 * (1 + $i)) . "(%rbx){1to4}"
        : (4 * (1 + $i)) . "(%rdi){1to4}";
    my ($kb, $kc) = map { gf_k($_) } qw(b c);
    # e_round's sum in three registers: b ^ c ^ rol8 b ^ rol16 b ^ rol24 c
    my @o = ("vgf2p8affineinvqb\t\$$kb,.Lsm4_gf_b(%rip),$p,$b",
        "vgf2p8affineinvqb\t\$$kc,.Lsm4_gf_c(%rip),$p,$c",
        "vprold\t\$8,$b,$t", "vpternlogd\t\$0x96,$c,$b,$t",
        "vprold\t\$16,$b,$b", "vpternlogd\t\$0x96," . $y->($i) . ",$b,$t",
        "vpshufb\t.Lsm4_rol24(%rip),$c,$c",
        "vpternlogd\t\$0x96,$key,$c,$t",
        "vmovdqa64\t$t," . $y->($i));
    push @o, "vpternlogd\t\$0x96," . $y->($i + 1) . ",$t,$p" if $i < 31;
    return join "\n\t", @o;
}

# J0 ($B_J0(%rdi)) into the word-sliced state above, before the rounds,
# as e_core_j0 and e_core_init take it.
sub j0_init {
    my ($t, $p) = ("%xmm24", "%xmm30");
    my $s = "\tvmovdqa64\t$B_J0(%rdi),$t\n\tvpshufb\t.Lsm4_bswap(%rip),$t,$t\n";
    for my $j (0 .. 3) {
        my $r = "%xmm" . (25 + ($j & 1));
        $s .= "\tvpshufd\t\$" . (0x55 * $j) . ",$t,$r\n"
            . "\tvgf2p8affineqb\t\$0,.Lsm4_aff1_y(%rip),$r,$r\n";
        $s .= "\tvpxord\t(%rdi){1to4},$r,$r\n" if $j == 3;
        $s .= "\tvmovdqa64\t$r," . ($B_J0Y + 16 * $j) . "(%rdi)\n";
        $s .= $j == 1 ? "\tvmovdqa64\t$r,$p\n" : "\tvpxord\t$r,$p,$p\n" if $j >= 1;
    }
    return $s;
}

# After the rounds: E(J0) out of the state (e_core_out) to ek0.
sub j0_out {
    my $s = "\tvbroadcasti32x4\t.Lsm4_bswap(%rip),%zmm$BSW\n";
    $s .= "\tvmovdqa64\t" . ($B_J0Y + 16 * $_) . "(%rdi),%xmm" . (24 + $_) . "\n" for 0 .. 3;
    return $s . e_core_out('x', 0, [ @J0_DATA ])
        . "\tmov\t@{[$B_J0 + 16]}(%rdi),%rax\n\tvmovdqu64\t%xmm27,(%rax)\n";
}

# The 32 rounds of both halves as a loop of 8 rounds (3 iterations, then
# the last 8 written out, where round 31 skips the parity), so that a copy
# is ~6 KB of code.  With $gh, GCM's GHASH of 128 blocks at (%r11) rides
# in them, one group of 32 blocks an iteration (%r11 moves on); with $j0,
# E(J0) (j0_round).
sub b_rounds {
    my ($gh, $j0) = @_;
    my $name = ".Lsm4_bs_rounds" . ($gh ? "_gh" : "") . ($j0 ? "_j0" : "");
    my $s = local_function_begin($name);
    $s .= "\tpush\t%rbx\n\tmov\t%rdi,%rbx\n" if $j0;
    $s .= "\tvpbroadcastq\t.Lsm4_gf_a(%rip),%zmm27\n";
    $s .= "\tvpbroadcastq\t.Lsm4_gf_c(%rip),%zmm28\n";
    for my $h (0 .. 1) {
        for my $k (0 .. 3) {
            my $p = "%zmm" . (12 * $h + $k);
            $s .= "\tvmovdqa64\t" . b_y($h, 1, $k) . ",$p\n"
                . "\tvpxord\t" . b_y($h, 2, $k) . ",$p,$p\n"
                . "\tvpxord\t" . b_y($h, 3, $k) . ",$p,$p\n";
        }
    }
    $s .= join '', map { "\t$_\n" } gh_start() if $gh;
    # the second half runs one step behind the first (measured: 4.2 cycles
    # a 16-block round against 4.4 with whole rounds alternating); step t
    # of the 129 is part t of the first half's rounds and part t - 1 of
    # the second's
    my $steps = sub {
        my ($first, $n, $ops) = @_;    # rounds from $first, steps 4 * $first + 1 ...
        my @h0 = map { b_round(0, $_) } $first .. $first + $n;
        my @h1 = map { b_round(1, $_) } $first .. $first + $n - 1;
        my $last = $first + $n == 32 ? 4 * $n - 1 : 4 * $n;
        my @st = map { ($_ <= $last ? $h0[$_] : '') . $h1[$_ - 1] } 1 .. 4 * $n;
        if (@$ops) {
            my $per = int((@$ops + @st - 1) / @st);
            $st[$_] .= join '', map { "\t$_\n" } grep { $_ ne '' } splice(@$ops, 0, $per)
                for 0 .. $#st;
        }
        return join '', @st;
    };
    # what rides in the 8 rounds from $first: GHASH group $g, E(J0)'s
    # rounds (one after each chunk, or spread evenly without GHASH)
    my $ops = sub {
        my ($g, $first) = @_;
        my $gap = $j0 ? sub { j0_round($first + $_[0]) } : undef;
        return gh_group($g, sub { (64 * $_[0]) . "(%r11)" }, $gap) if $gh;
        return () unless $j0;
        return map { $_ % 4 == 0 ? $gap->($_ / 4) : '' } 0 .. 31;
    };
    $s .= (b_round(0, 0))[0];
    {
        local $B_KEY_LOOP = 384;
        my @ops = $ops->(0, 0);
        $s .= "\tlea\t-384(%rdi),%rax\n.p2align\t4\n${name}_loop:\n"
            . $steps->(0, 8, \@ops) . ($gh ? "\tadd\t\$512,%r11\n" : "")
            . ($j0 ? "\tadd\t\$32,%rbx\n" : "")
            . "\tsub\t\$-128,%rax\n\tcmp\t%rdi,%rax\n\tjne\t${name}_loop\n";
    }
    my @ops = $ops->(3, 24);
    $s .= $steps->(24, 8, \@ops);
    $s .= "\tpop\t%rbx\n" if $j0;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= b_in(0) . b_in(1) . b_out(0) . b_out(1) . b_rounds() . b_rounds(1)
    . b_rounds(undef, 1) . b_rounds(1, 1);

# GCM's counter blocks into the state of half h: words 0..2 are the same
# in every block of a call (a 32-bit counter), so their 12 registers are
# constants, mapped and spread once a call (b_gcm_setup, into the frame at
# $B_CW(%rdi)) and copied in; only word 3 goes through the CTR entry's
# shuffle, transpose and A1 map (24 zmm operations a half instead of 72).
my $B_CW = $FRAME + 128;

sub b_gcm_in {
    my ($h) = @_;
    my @w = map { R('z', 4 * $_ + 3) } 0 .. 3;
    my $s = "\tvpbroadcastd\t%r10d,%zmm23\n";
    $s .= "\tvpaddd\t.Lsm4_ctr_idx_z+" . (64 * $_) . "(%rip),%zmm23,$w[$_]\n" for 0 .. 3;
    $s .= "\tvbroadcasti32x4\t.Lsm4_bs_t(%rip),%zmm16\n";
    $s .= "\tvpshufb\t%zmm16,$_,$_\n" for @w;
    # afterwards $w[k] holds byte k of word 3 (as in .Lsm4_bs_in${h}_t)
    $s .= transpose(@w, '%zmm17', '%zmm18');
    for my $k (0 .. 3) {
        $s .= "\tvgf2p8affineqb\t\$0,%zmm$A1,$w[$k],$w[$k]\n"
            . "\tvpxord\t" . b_key(0, $k) . ",$w[$k],$w[$k]\n"
            . "\tvmovdqa64\t$w[$k]," . b_y($h, 3, $k) . "\n";
    }
    for my $j (0 .. 2) {
        for my $k (0 .. 3) {
            my $r = "%zmm" . (16 + $k);
            $s .= "\tvmovdqa64\t" . ($B_CW + 64 * (4 * $j + $k)) . "(%rdi),$r\n"
                . "\tvmovdqa64\t$r," . b_y($h, $j, $k) . "\n";
        }
    }
    return $s;
}

# The constants of b_gcm_in from the counter in %r9:%r10 (A1 in zmm29).
sub b_gcm_setup {
    my $s = "\tvpbroadcastd\t%r9d,%zmm21\n\tmov\t%r9,%rax\n\tshr\t\$32,%rax\n"
        . "\tvpbroadcastd\t%eax,%zmm20\n\tmov\t%r10,%rax\n\tshr\t\$32,%rax\n"
        . "\tvpbroadcastd\t%eax,%zmm22\n";
    for my $j (0 .. 2) {
        my $c = "%zmm" . (20 + $j);
        $s .= "\tvgf2p8affineqb\t\$0,%zmm$A1,$c,$c\n";
        for my $k (0 .. 3) {
            $s .= "\tvpbroadcastd\t.Lsm4_bs_k+" . (4 * $k) . "(%rip),%zmm16\n"
                . "\tvpshufb\t%zmm16,$c,%zmm17\n"
                . "\tvmovdqa64\t%zmm17," . ($B_CW + 64 * (4 * $j + $k)) . "(%rdi)\n";
        }
    }
    return $s;
}
$code .= rodata_begin() . ".p2align\t4\n# byte k of every dword\n.Lsm4_bs_k:\n"
    . ".byte\t" . join(',', map { ($_) x 4 } 0 .. 3) . "\n" . text_begin();

# A 128-block pass of a parallel mode through the byte-sliced core: each
# half loads as the word-sliced 64-block pass does, goes into the state,
# and comes out into the same registers for the same finishing code (CBC
# finishes the second half first, so that in place every chunk still finds
# the ciphertext block before it).
sub b_pass {
    my ($mode, $gh, $j0) = @_;
    my $gcm = $mode eq 'gcm';
    my $xts = $mode =~ /^xts/;
    my $ctr = $mode eq 'ctr' || $gcm;
    my $s = $xts ? xts_tweaks_z($mode, 32) : "";
    my @chunks = map { my $g = $_; map { [ $g, $_ ] } 0 .. 3 } 0 .. 3;
    for my $h (0 .. 1) {
        my $base = 1024 * $h;
        if ($gcm) {
            $s .= b_gcm_in($h) . ctr_add(64, 1);
            next;
        }
        if ($ctr) {
            $s .= ctr_words('z', 4, 0) . "\tcall\t.Lsm4_bs_in${h}_t\n";
            $s .= ctr_add(64, 0);
            next;
        }
        for my $c (@chunks) {
            my ($g, $k) = @$c;
            my $r = R('z', 4 * $g + $k);
            my $o = $base + 64 * (4 * $g + $k);
            if ($mode eq 'cfb_dec') {
                $s .= $o == 0 ? e_chain0('z', $r)
                    : "\tvmovdqu32\t" . ($o - 16) . "(%rsi),$r\n";
            } else {
                $s .= "\tvmovdqu32\t$o(%rsi),$r\n";
                $s .= "\tvpxord\t$o(%r12),$r,$r\n" if $xts;
            }
        }
        $s .= "\tcall\t.Lsm4_bs_in$h\n";
    }
    my $chain = !($mode eq 'ecb' || $ctr || $xts);
    $s .= e_save_last(0, 128, 'z') if $chain;
    $s .= "\tmov\t%rsi,%r11\n" if ($gh // '') eq 'dec';
    $s .= j0_init() if $j0;
    $s .= "\tcall\t.Lsm4_bs_rounds" . ($gh ? "_gh" : "") . ($j0 ? "_j0" : "") . "\n";
    $s .= j0_out() if $j0;
    # the output's key constants (b_out), XORed in with what the mode adds
    my $fold = '%zmm18';
    $s .= "\tvmovdqa64\t$B_P(%rdi),$fold\n";
    for my $h ($mode eq 'cbc_dec' ? (1, 0) : (0, 1)) {
        my $base = 1024 * $h;
        $s .= "\tcall\t.Lsm4_bs_out$h\n";
        if ($ctr || $mode eq 'cfb_dec') {
            my $fm = $ctr ? 'ctr' : $mode;
            $s .= e_finish($fm, 'z', 4, 0, @$_, 'x', $base, $fold) for @chunks;
            $s .= e_finish($fm, 'z', 4, 0, @$_, 's', $base) for @chunks;
        } else {
            my @order = $mode eq 'cbc_dec' ? reverse @chunks : @chunks;
            $s .= e_finish($mode, 'z', 4, 0, @$_, 'xs', $base, $fold) for @order;
        }
    }
    $s .= "\tvmovdqa64\t" . R('z', $IVN) . "," . R('z', $IVB) . "\n"
        if $chain;
    return $s;
}

# Output register of chunk (g, k) after a core call.
sub e_out { my ($g, $k) = @_; return 4 * $g + 3 - $k; }

# The masked-tail state of a pass: which chunks take which k register.
sub e_mask {
    my ($masked, $G, $g, $k, $w) = @_;
    # chunk 0 of an x1 pass is block 0, which always exists
    return "" unless $masked && $g == $G - 1
        && ($w ne 'x' || $G > 1 || $k > 0);
    return "{%k" . (1 + $k) . "}";
}

# k1..k4 = live dwords of the last group's four registers; n in %rcx.
sub e_mask_setup {
    my ($w, $G) = @_;
    my $base = 64 + 16 * $bpr{$w} * ($G - 1);
    my $step = 4 * $bpr{$w};
    my $s = <<"EOT";
	mov	%rcx,%r11
	lea	(,%rcx,4),%rax
	mov	\$$base,%ecx
	sub	%eax,%ecx
	mov	\$-1,%rax
	shr	%cl,%rax
	mov	%r11,%rcx
	kmovq	%rax,%k1
EOT
    $s .= "\tkshiftrq\t\$" . ($step * $_) . ",%k1,%k" . (1 + $_) . "\n"
        for 1 .. 3;
    return $s;
}

# Saves the last input block of the pass (the next chaining value) in
# %rax:%r11 before any store can overwrite it in place.
sub save_last_block {
    my ($masked, $P) = @_;
    if ($masked) {
        return <<'EOT';
	mov	%rcx,%rax
	shl	$4,%rax
	mov	-16(%rsi,%rax),%r11
	mov	-8(%rsi,%rax),%rax
EOT
    }
    my ($o0, $o1) = (16 * ($P - 1), 16 * ($P - 1) + 8);
    return "\tmov\t$o0(%rsi),%r11\n\tmov\t$o1(%rsi),%rax\n";
}

sub store_iv {
    return "\tmov\t%r11,(%r8)\n\tmov\t%rax,8(%r8)\n";
}

# The chaining vector of chunk 0: (iv, c0, c1, ...) of width w into $dst.
sub e_chain0 {
    my ($w, $dst) = @_;
    my $ivb = R($w, $IVB);
    return "\tvmovdqa32\t$ivb,$dst\n" if $w eq 'x';
    my $sh = $w eq 'z' ? 6 : 2;
    return "\tvmovdqu32\t(%rsi),$dst\n\tvalignq\t\$$sh,$ivb,$dst,$dst\n";
}

# The next chaining block (the last input block of the pass), broadcast to
# every lane, taken before any store can overwrite it in place.
sub e_save_last {
    my ($masked, $P, $w) = @_;
    # the lean (xmm) pass keeps the upper halves clean
    my $ld = $w eq 'x' ? "vmovdqu32" : "vbroadcasti32x4";
    my $r = R($w eq 'x' ? 'x' : 'z', $IVN);
    return "\t$ld\t" . (16 * ($P - 1)) . "(%rsi),$r\n" unless $masked;
    return "\tmov\t%rcx,%rax\n\tshl\t\$4,%rax\n"
        . "\t$ld\t-16(%rsi,%rax),$r\n";
}

# Output of chunk (g, k) after the rounds: XOR with what the mode needs
# and store (masked for the last group of a tail pass).  $part 'x' emits
# only the XOR, 's' only the store: CTR and CFB load all their input before
# the first store, so that no load waits behind a store to an address that
# matches it in the low 12 bits (out = in + 64 mod 4096 cost 10%).
sub e_finish {
    my ($mode, $w, $G, $masked, $g, $k, $part, $base, $fold) = @_;
    $part //= 'xs';
    my $r = R($w, e_out($g, $k));
    my $m = e_mask($masked, $G, $g, $k, $w);
    my $o = ($base // 0) + 16 * $bpr{$w} * (4 * $g + $k);
    my $tmp = R($w, 24);
    # what the output is XORed with: previous ciphertext (CBC) or input
    my $src = $mode eq 'cbc_dec' ? $o - 16 : $o;
    my $s = "";
    # $r ^= $x, and ^ $fold (a register) when given
    my $xor = sub {
        my ($x) = @_;
        return "\tvpxord\t$x,$r,$r\n" unless $fold;
        return "\tvpternlogd\t\$0x96,$x,$fold,$r\n";
    };
    if ($part =~ /x/ && $mode =~ /^xts/) {
        # the whole tweak buffer is valid, masked lanes included
        $s .= $xor->("$o(%r12)");
    } elsif ($part =~ /x/ && $mode ne 'ecb') {
        if ($mode eq 'cbc_dec' && $o == 0) {
            $s .= e_chain0($w, $tmp) . $xor->($tmp);
        } elsif ($m) {
            $s .= "\tvmovdqu32\t$src(%rsi),$tmp$m\{z}\n" . $xor->($tmp);
        } else {
            $s .= $xor->("$src(%rsi)");
        }
    } elsif ($part =~ /x/ && $fold) {
        $s .= "\tvpxord\t$fold,$r,$r\n";
    }
    $s .= "\tvmovdqu32\t$r,$o(%rdx)$m\n" if $part =~ /s/;
    return $s;
}

# CTR: the counter blocks of a pass of G groups, as native words already
# transposed (the cores' "_t" entry), from the counter in %r9:%r10.
sub ctr_words {
    my ($w, $G, $c32) = @_;
    my $n = $bcast{$w};
    my $s = "";
    # counter words (big-endian word 0 first) from %r9:%r10
    my ($c0, $c1, $c2, $c3) = map { R($w, $_) } 20 .. 23;
    $s .= <<"EOT";
	vpbroadcastd	%r10d,$c3
	mov	%r10,%rax
	shr	\$32,%rax
	vpbroadcastd	%eax,$c2
	vpbroadcastd	%r9d,$c1
	mov	%r9,%rax
	shr	\$32,%rax
	vpbroadcastd	%eax,$c0
EOT
    my ($w0, $w1, $w2, $w3) = map { R($w, $_) } 20 .. 23;
    for my $g (0 .. $G - 1) {
        my ($x0, $x1, $x2, $x3) = map { R($w, $_) } e_data($g);
        my $io = 4 * $n * $g;
        if ($c32) {
            # GCM: word 3 alone counts, mod 2^32
            $s .= "\tvpaddd\t.Lsm4_ctr_idx_$w+$io(%rip),$w3,$x3\n"
                . "\tvmovdqa32\t$w2,$x2\n\tvmovdqa32\t$w1,$x1\n"
                . "\tvmovdqa32\t$w0,$x0\n";
            next;
        }
        # 128-bit increment: a carry leaves word 3 where the sum wrapped
        # below the base, and moves on while the next word wraps to 0
        $s .= <<"EOT";
	vpaddd	.Lsm4_ctr_idx_$w+$io(%rip),$w3,$x3
	vpcmpud	\$1,$w3,$x3,%k6
	vmovdqa32	$w2,$x2
	vpaddd	.Lsm4_one(%rip){1to$n},$w2,$x2\{%k6}
	vptestnmd	$x2,$x2,%k7{%k6}
	vmovdqa32	$w1,$x1
	vpaddd	.Lsm4_one(%rip){1to$n},$w1,$x1\{%k7}
	vptestnmd	$x1,$x1,%k6{%k7}
	vmovdqa32	$w0,$x0
	vpaddd	.Lsm4_one(%rip){1to$n},$w0,$x0\{%k6}
EOT
    }
    return $s;
}

# The counter after a pass of $n blocks (an immediate or %rcx): 128-bit,
# or (GCM) its last word alone, mod 2^32.
sub ctr_add {
    my ($n, $c32) = @_;
    my $reg = $n =~ /^%/;
    return ($reg ? "\tadd\t$n,%r10\n" : "\tadd\t\$$n,%r10\n") . "\tadc\t\$0,%r9\n"
        unless $c32;
    return "\tlea\t" . ($reg ? "(%r10,$n)" : "$n(%r10)") . ",%eax\n"
        . "\tshr\t\$32,%r10\n\tshl\t\$32,%r10\n\tor\t%rax,%r10\n";
}

# XTS tweaks.  The running tweak vector TV (zmm25) holds the tweaks of the
# next four blocks, T x^0..T x^3, as 128-bit little-endian integers
# (IEEE 1619's order; GB/T 17964-2021's reflected order is the same
# multiplication on the tweak with every byte's bits reversed, so the GB
# entries convert at the buffer by one bit-reversing affine map).  A tweak
# times x^k (k < 57) in every lane: the 128-bit shift left by k, the k bits
# leaving the low qword enter the high one, and the k bits leaving the high
# qword come back times 0x87 (one carry-less multiplication).
# The registers of the tweak code: eight tweak registers, two temporaries,
# the 0x87 and bit-reversal constants and TV (AVX2: kept in the frame at
# tv_mem between passes); evex: ternary XORs.
my %XTS_REGS = (
    avx512 => { vec => [ 0 .. 7 ], t1 => 24, t2 => 26, p => 27, brev => 16,
                tv => 25, evex => 1 },
    avx2 => { vec => [ 0 .. 7 ], t1 => 12, t2 => 13, p => 14, brev => 15,
              tv => 8, tv_mem => '448(%r12)', evex => 0 },
);

sub xts_mulx {
    my ($x, $w, $dst, $src, $k) = @_;
    my ($t1, $t2, $p) = map { R($w, $x->{$_}) } qw(t1 t2 p);
    return "\tvmovdqa\t$src,$dst\n" if $k == 0 && !$x->{evex};
    return "\tvmovdqa64\t$src,$dst\n" if $k == 0;
    my $s = <<"EOT";
	vpsrlq	\$@{[64 - $k]},$src,$t1
	vpsllq	\$$k,$src,$dst
	vpslldq	\$8,$t1,$t2
	vpclmulqdq	\$0x01,$p,$t1,$t1
EOT
    return $s . "\tvpternlogq\t\$0x96,$t2,$t1,$dst\n" if $x->{evex};
    return $s . "\tvpxor\t$t2,$dst,$dst\n\tvpxor\t$t1,$dst,$dst\n";
}

# TV = T x^0..3 from T at (%r8) (GB: bit-reflected first), for the family
sub xts_tv {
    my ($fam, $gb) = @_;
    my $x = $XTS_REGS{$fam};
    my $w = $fam eq 'avx512' ? 'z' : 'y';
    my ($tv, $t1, $t2, $p, $br) = map { R($w, $x->{$_}) } qw(tv t1 t2 p brev);
    my $xt = R('x', $x->{tv});
    my $s = ($x->{evex} ? "\tvmovdqu64" : "\tvmovdqu") . "\t(%r8),$xt\n";
    $s .= "\tvpbroadcastq\t.Lsm4_xts_brev(%rip),$br\n"
        . "\tvgf2p8affineqb\t\$0," . R('x', $x->{brev}) . ",$xt,$xt\n" if $gb;
    $s .= $x->{evex} ? "\tvshufi64x2\t\$0,$tv,$tv,$tv\n" : "\tvpermq\t\$0x44,$tv,$tv\n";
    $s .= "\tvpbroadcastq\t.Lsm4_xts_poly(%rip),$p\n";
    $s .= <<"EOT";
	vpsrlvq	.Lsm4_xts_sr(%rip),$tv,$t1
	vpsllvq	.Lsm4_xts_sl(%rip),$tv,$tv
	vpslldq	\$8,$t1,$t2
	vpclmulqdq	\$0x01,$p,$t1,$t1
EOT
    $s .= $x->{evex} ? "\tvpternlogq\t\$0x96,$t2,$t1,$tv\n"
                     : "\tvpxor\t$t2,$tv,$tv\n\tvpxor\t$t1,$tv,$tv\n";
    $s .= "\tvmovdqu\t$tv,$x->{tv_mem}\n" if $x->{tv_mem};
    return $s;
}

# The tweaks of a pass of $C registers of width w ($P blocks) into the
# buffer at %r12, block i at 16 i, each register of tweaks from one of the
# eight before it (at most eight steps in a chain), then TV for the next
# pass (also stored after them).  %rbx gets the address of the tweak after
# the pass's last block (masked: the %rcx-th).  Clobbers zmm0..7, 16, 24,
# 26, 27.
sub xts_tweaks {
    my ($mode, $w, $C, $P, $masked, $fam) = @_;
    my $x = $XTS_REGS{$fam // 'avx512'};
    my $gb = $mode eq 'xts_gb';
    my $bp = $P / $C;
    my $tv = R($w, $x->{tv});
    my $wide = $x->{evex} ? 'z' : 'y';
    my $mov = $x->{evex} ? 'vmovdqu64' : 'vmovdqu';
    my $s = "\tvpbroadcastq\t.Lsm4_xts_poly(%rip)," . R($wide, $x->{p}) . "\n";
    $s .= "\tvpbroadcastq\t.Lsm4_xts_brev(%rip)," . R($wide, $x->{brev}) . "\n" if $gb;
    $s .= "\t$mov\t$x->{tv_mem},$tv\n" if $x->{tv_mem};
    my $store = sub {
        my ($r, $c) = @_;
        my $o = 16 * $bp * $c;
        return "\t$mov\t$r,$o(%r12)\n" unless $gb;
        my $t = R($w, $x->{t2});
        return "\tvgf2p8affineqb\t\$0," . R($w, $x->{brev}) . ",$r,$t\n"
            . "\t$mov\t$t,$o(%r12)\n";
    };
    for my $c (0 .. $C - 1) {
        my $r = R($w, $x->{vec}[$c % 8]);
        $s .= $c < 8 ? xts_mulx($x, $w, $r, $tv, $bp * $c)
                     : xts_mulx($x, $w, $r, $r, 8 * $bp);
        $s .= $store->($r, $c);
    }
    $s .= xts_mulx($x, $w, $tv, R($w, $x->{vec}[($C - 1) % 8]), $bp)
        . $store->($tv, $C);
    $s .= "\t$mov\t$tv,$x->{tv_mem}\n" if $x->{tv_mem};
    $s .= $masked ? "\tmov\t%rcx,%rax\n\tshl\t\$4,%rax\n\tlea\t(%r12,%rax),%rbx\n"
                  : "\tlea\t@{[16 * $P]}(%r12),%rbx\n";
    return $s;
}

# The tweaks of a whole zmm pass of C = 8, 16 or 32 registers (32, 64 or
# 128 blocks) in fewer operations than xts_tweaks' five a register (same
# buffer, TV and %rbx; clobbers zmm0..7, 16..19, 24, 26, 27).  A shift by
# whole bytes needs no carry between the qwords: T x^8a (a < 8) is T
# shifted left by a bytes (VPSLLDQ) plus the top 8a bits times 0x87, one
# multiplication of the high qword shifted right (four operations); and T
# x^64 is the low qword moved up plus the high qword times 0x87, which
# lands below bit 71 and needs no second reduction (three).  So registers
# 0..15 of the pass come from TV (even ones) or TV x^4 (odd ones, one
# xts_mulx), each in one step, and registers 16..31 from those 16 before
# them times x^64: 112 operations for 128 blocks instead of 160, measured
# 0.010 TSC ticks a byte faster at 16 KiB on the family 6 model 207 Xeon.
sub xts_tweaks_z {
    my ($mode, $C) = @_;
    my $x = $XTS_REGS{avx512};
    my $gb = $mode eq 'xts_gb';
    my ($tv, $p, $t) = map { "%zmm$_" } $x->{tv}, $x->{p}, $x->{t1};
    my ($tv4, $r16, $g, $br) = map { "%zmm$_" } 19, 17, 18, $x->{brev};
    my $s = "\tvpbroadcastq\t.Lsm4_xts_poly(%rip),$p\n";
    $s .= "\tvpbroadcastq\t.Lsm4_xts_brev(%rip),$br\n" if $gb;
    my $store = sub {
        my ($r, $c) = @_;
        my $o = 64 * $c;
        return "\tvmovdqu64\t$r,$o(%r12)\n" unless $gb;
        return "\tvgf2p8affineqb\t\$0,$br,$r,$g\n\tvmovdqu64\t$g,$o(%r12)\n";
    };
    # times x^8a from src into dst, or x^64 (a = 8)
    my $bytes = sub {
        my ($dst, $src, $a) = @_;
        return "\tvpclmulqdq\t\$0x01,$p,$src,$t\n\tvpslldq\t\$8,$src,$dst\n"
            . "\tvpxorq\t$t,$dst,$dst\n" if $a == 8;
        return "\tvpsrlq\t\$@{[64 - 8 * $a]},$src,$t\n"
            . "\tvpclmulqdq\t\$0x01,$p,$t,$t\n\tvpslldq\t\$$a,$src,$dst\n"
            . "\tvpxorq\t$t,$dst,$dst\n";
    };
    $s .= xts_mulx($x, 'z', $tv4, $tv, 4);
    for my $c (0 .. ($C < 16 ? $C : 16) - 1) {
        my $base = $c & 1 ? $tv4 : $tv;
        my $r = $c < 2 ? $base : R('z', $x->{vec}[$c % 8]);
        $s .= $bytes->($r, $base, $c >> 1) if $c >= 2;
        $s .= $store->($r, $c);
        next if $C < 32;
        my $d = $c == 0 ? $r16 : R('z', $x->{vec}[$c % 8]);
        $s .= $bytes->($d, $r, 8) . $store->($d, $c + 16);
    }
    # TV x^4C for the next pass
    $s .= $C == 32 ? $bytes->($tv, $r16, 8) : $bytes->($tv, $tv, $C / 2);
    $s .= $store->($tv, $C) . "\tlea\t@{[64 * $C]}(%r12),%rbx\n";
    return $s;
}

# One pass of G groups of width w; masked: the last group holds the
# remaining %rcx blocks (at least one).
sub e_pass {
    my ($mode, $w, $G, $masked, $j0) = @_;
    my $bp = $bpr{$w};
    my $P = 4 * $bp * $G;
    my $core = ".Lsm4_avx512_core_$w$G";
    my $n = $bcast{$w};
    my $s = "";
    $s .= e_mask_setup($w, $G) if $masked;
    my @chunks = map { my $g = $_; map { [ $g, $_ ] } 0 .. 3 } 0 .. $G - 1;
    my $off = sub { my ($g, $k) = @_; return 16 * $bp * (4 * $g + $k); };

    my $xts = $mode =~ /^xts/;
    if ($mode eq 'ctr' || $mode eq 'gcm') {
        $s .= ctr_words($w, $G, $mode eq 'gcm');
        # GCM's J0 entries: E(J0) from the fifth group to ek0 (in the
        # frame after J0)
        $s .= $j0 ? "\tcall\t.Lsm4_avx512_core_z4j0_t\n\tmov\t@{[$B_J0 + 16]}(%rdi),%rax\n"
                    . "\tvmovdqu64\t%xmm27,(%rax)\n"
                  : "\tcall\t${core}_t\n";
        $s .= e_finish('ctr', $w, $G, $masked, @$_, 'x') for @chunks;
        $s .= e_finish('ctr', $w, $G, $masked, @$_, 's') for @chunks;
        $s .= ctr_add($masked ? '%rcx' : $P, $mode eq 'gcm');
        return $s;
    }
    $s .= $w eq 'z' && !$masked ? xts_tweaks_z($mode, 4 * $G)
        : xts_tweaks($mode, $w, 4 * $G, $P, $masked) if $xts;

    if ($mode eq 'cfb_dec') {
        # cipher input of block i is c[i-1] (c[-1] = iv)
        for my $c (@chunks) {
            my ($g, $k) = @$c;
            my $r = R($w, 4 * $g + $k);
            my $o = $off->($g, $k);
            if ($o == 0) {
                $s .= e_chain0($w, $r);
            } else {
                my $m = e_mask($masked, $G, $g, $k, $w);
                $s .= "\tvmovdqu32\t" . ($o - 16) . "(%rsi),$r$m"
                    . ($m ? "{z}" : "") . "\n";
            }
        }
    } else {
        for my $c (@chunks) {
            my ($g, $k) = @$c;
            my $r = R($w, 4 * $g + $k);
            my $m = e_mask($masked, $G, $g, $k, $w);
            $s .= "\tvmovdqu32\t" . $off->($g, $k) . "(%rsi),$r$m"
                . ($m ? "{z}" : "") . "\n";
            $s .= "\tvpxord\t" . $off->($g, $k) . "(%r12),$r,$r\n" if $xts;
        }
    }
    $s .= e_save_last($masked, $P, $w) if $mode ne 'ecb' && !$xts;
    if ($G == 4 && ($mode eq 'ecb' || $mode eq 'cbc_dec')) {
        $s .= "\tcall\t${core}_$mode\n";
    } else {
        $s .= "\tcall\t$core\n";
        if ($mode eq 'cfb_dec') {
            $s .= e_finish($mode, $w, $G, $masked, @$_, 'x') for @chunks;
            $s .= e_finish($mode, $w, $G, $masked, @$_, 's') for @chunks;
        } else {
            my @order = $mode eq 'cbc_dec' ? reverse @chunks : @chunks;
            $s .= e_finish($mode, $w, $G, $masked, @$_) for @order;
        }
    }
    my $wv = $w eq 'x' ? 'x' : 'z';
    $s .= "\tvmovdqa64\t" . R($wv, $IVN) . "," . R($wv, $IVB) . "\n"
        if $mode ne 'ecb' && !$xts;
    return $s;
}

sub e_consts {
    return <<"EOT";
	vpbroadcastq	.Lsm4_aff1(%rip),%zmm$A1
	vbroadcasti32x4	.Lsm4_bswap(%rip),%zmm$BSW
	vbroadcasti32x4	.Lsm4_rol24(%rip),%zmm$R24
EOT
}

# Parallel modes: 1..16 blocks take one masked pass of a lean core (x1 for
# 1..4, y1 for 5..8, z1 for 9..16) with nothing else set up; longer calls
# build the key table, then a 64-block loop, a 32-block pass and one masked
# pass for the remainder (the lean cores again for 1..16 blocks).
#
# The same drivers run GCM (src/kernel.h's smg_gcm_fn: CTR with a 32-bit
# counter, GHASH of each pass's ciphertext by smg_ghash_vpclmul_avx512,
# after the pass on encryption and before it on decryption, so that in
# place the ciphertext is read before it is overwritten) and XTS (ECB
# between two XORs with tweaks that each pass computes first, in vector
# registers, into a buffer in the frame).  Both keep an aligned frame from
# the start, so that the GHASH calls may push the driver's registers.
my $XTS_BUF = 16 * 128 + 64;
$code .= rodata_begin() . <<'EOT' . text_begin();
.p2align	6
# TV's lanes from T: shifted left by 0..3 bits, the bits that leave
.Lsm4_xts_sl:
.quad	0,0,1,1,2,2,3,3
.Lsm4_xts_sr:
.quad	64,64,63,63,62,62,61,61
# x^128 = x^7 + x^2 + x + 1 (IEEE 1619)
.Lsm4_xts_poly:
.quad	0x87
# GF2P8AFFINEQB matrix reversing the bits of every byte
.Lsm4_xts_brev:
.quad	0x8040201008040201
EOT

sub gh_call {
    my ($ptr, $cnt, $gh) = @_;
    $gh //= 'vpclmul_avx512';
    my @save = qw(%rdi %rsi %rdx %rcx %r8 %r9 %r10);
    my $s = join '', map { "\tpush\t$_\n" } @save;
    $s .= "\tmov\t$ptr,%rdx\n" if $ptr ne '%rdx';
    $s .= "\tmov\t$cnt,%rcx\n" if $cnt ne '%rcx';
    $s .= "\tmov\t%r12,%rdi\n\tmov\t%r13,%rsi\n\tcall\tsmg_ghash_$gh\n";
    $s .= join '', map { "\tpop\t$_\n" } reverse @save;
    return $s;
}

sub e_parallel {
    my ($mode) = @_;
    my $fn = "sm4_gfni_avx512_$mode";
    my $L = ".L${fn}";
    my ($iv_in, $iv_out) = ("", "");
    my $gcm = $mode =~ /^gcm_(enc|dec)/ ? $1 : '';
    my $j0 = $mode =~ /_j0$/;
    my $xts = $mode =~ /^xts/;
    my $pm = $gcm ? 'gcm' : $mode;            # what the passes do
    my $ctr = $mode eq 'ctr' || $gcm;
    my $chain = !($mode eq 'ecb' || $ctr || $xts);
    my @saved = $gcm ? qw(%r12 %r13) : $xts ? qw(%r12 %rbx) : ();
    my $framed = @saved > 0;
    # a pass of $cnt blocks (immediate or %rcx) with GCM's hashing around it
    my $pass = sub {
        my ($body, $cnt) = @_;
        $cnt = "\$$cnt" unless $cnt =~ /^%/;
        return ($gcm eq 'dec' ? gh_call('%rsi', $cnt) : '') . $body
            . ($gcm eq 'enc' ? gh_call('%rdx', $cnt) : '');
    };
    my $ret = $framed ? "\tjmp\t${L}_out\n" : "\tret\n";
    my $s = function_begin($fn);
    if ($gcm) {
        # (ks, htable, in, out, nblocks, ctr, xi) -> the CTR registers
        # (xi, the stack argument, read before the frame is aligned)
        # (the J0 entries run for no blocks too: they still owe E(J0))
        $s .= "\ttest\t%r8,%r8\n\tjz\t${L}_ret\n" unless $j0;
        $s .= "\tmov\t8(%rsp),%rax\n";
        $s .= "\tmov\t16(%rsp),%r11\n" if $j0;
        $s .= frame_align_begin($B_J0 + 128, 64, @saved);
        $s .= "\tmov\t%rsi,%r12\n\tmov\t%rax,%r13\n\tmov\t%rdx,%rsi\n"
            . "\tmov\t%rcx,%rdx\n\tmov\t%r8,%rcx\n\tmov\t%r9,%r8\n";
        # E(J0) (to ek0, the eighth argument, kept in the frame after J0)
        # rides in the 64-block pass where the call has one (bit 6 of the
        # count), else in the first 128-block pass (b_pass, j0_round);
        # under 64 blocks it is one block through the lean core now.  Then
        # the counter moves on to J0 + 1.
        $s .= <<"EOT" if $j0;
	mov	%r11,@{[$B_J0 + 16]}(%rsp)
	vmovdqu64	(%r8),%xmm0
	cmp	\$64,%rcx
	jb	${L}_j0_lean
	vmovdqa64	%xmm0,$B_J0(%rsp)
	jmp	${L}_j0_next
${L}_j0_lean:
	call	.Lsm4_avx512_core_x1
	vmovdqu64	%xmm3,(%r11)
${L}_j0_next:
	mov	12(%r8),%eax
	bswap	%eax
	add	\$1,%eax
	bswap	%eax
	mov	%eax,12(%r8)
	test	%rcx,%rcx
	jz	${L}_out
EOT
    } else {
        $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
        # %rbx is set by every pass; the start value only keeps the
        # write-back address defined on paths that run none
        $s .= frame_align_begin($FRAME + $XTS_BUF, 64, @saved)
            . "\tlea\t$FRAME(%rsp),%r12\n\tmov\t%r12,%rbx\n" if $xts;
    }
    if ($ctr) {
        # after e_table, which uses %r9 and %r10
        $iv_in = "\tmov\t(%r8),%r9\n\tmov\t8(%r8),%r10\n"
            . "\tbswap\t%r9\n\tbswap\t%r10\n";
        $iv_out = "\tbswap\t%r9\n\tbswap\t%r10\n"
            . "\tmov\t%r9,(%r8)\n\tmov\t%r10,8(%r8)\n";
    } elsif ($xts) {
        $iv_in = xts_tv('avx512', $mode eq 'xts_gb');
        # the buffer holds the tweaks in the caller's order already
        $iv_out = "\tvmovdqu64\t(%rbx),%xmm0\n\tvmovdqu64\t%xmm0,(%r8)\n";
    } elsif ($mode ne 'ecb') {
        $iv_out = "\tvmovdqu32\t%xmm$IVB,(%r8)\n";
    }
    # the x1 pass touches xmm registers only: no VZEROUPPER
    $s .= "\tcmp\t\$16,%rcx\n\tja\t${L}_wide\n" . $iv_in;
    $s .= "\tcmp\t\$4,%rcx\n\tja\t${L}_lean_y\n";
    $s .= "\tvmovdqu32\t(%r8),%xmm$IVB\n" if $chain;
    $s .= $pass->(e_pass($pm, 'x', 1, 1), '%rcx') . $iv_out
        . ($xts ? "\tvzeroupper\n" : "") . $ret . "${L}_lean_y:\n";
    $s .= "\tvbroadcasti32x4\t(%r8),%zmm$IVB\n" if $chain;
    $s .= "\tcmp\t\$8,%rcx\n\tja\t${L}_lean_z\n";
    $s .= $pass->(e_pass($pm, 'y', 1, 1), '%rcx') . $iv_out
        . "\tvzeroupper\n" . $ret . "${L}_lean_z:\n";
    $s .= $pass->(e_pass($pm, 'z', 1, 1), '%rcx') . $iv_out
        . "\tvzeroupper\n" . $ret;
    $s .= "${L}_wide:\n" . e_table($L, $framed) . e_consts() . $iv_in;
    $s .= "\tvbroadcasti32x4\t(%r8),%zmm$IVB\n" if $chain;
    $s .= "\tcmp\t\$128,%rcx\n\tjb\t${L}_64\n";
    $s .= b_gcm_setup() if $gcm;
    my $next = "\tadd\t\$2048,%rsi\n\tadd\t\$2048,%rdx\n\tsub\t\$128,%rcx\n"
        . "\tcmp\t\$128,%rcx\n";
    if ($gcm eq 'enc') {
        # Each pass hashes the one before in its rounds (from %r11), the
        # last one's ciphertext is hashed after the loop.  The first pass
        # runs the plain rounds: both copies fit in the 32 KB L1
        # instruction cache since the rounds are a loop (b_rounds).
        $s .= "\ttest\t\$64,%cl\n\tjnz\t${L}_first\n" . b_pass($pm, undef, 1)
            . "\tjmp\t${L}_first_done\n${L}_first:\n" if $j0;
        $s .= b_pass($pm) . ($j0 ? "${L}_first_done:\n" : "") . $next
            . "\tjb\t${L}_flush\n";
        $s .= ".p2align\t5\n${L}_loop:\n\tlea\t-2048(%rdx),%r11\n"
            . b_pass($pm, 'enc') . $next
            . "\tjae\t${L}_loop\n${L}_flush:\n\tlea\t-2048(%rdx),%rax\n"
            . gh_call('%rax', '$128');
    } elsif ($gcm eq 'dec') {
        $s .= "\ttest\t\$64,%cl\n\tjnz\t${L}_loop\n" . b_pass($pm, 'dec', 1) . $next
            . "\tjb\t${L}_bs_done\n" if $j0;
        $s .= ".p2align\t5\n${L}_loop:\n" . b_pass($pm, 'dec') . $next
            . "\tjae\t${L}_loop\n${L}_bs_done:\n";
    } else {
        $s .= ".p2align\t5\n${L}_loop:\n" . b_pass($pm) . $next
            . "\tjae\t${L}_loop\n";
    }
    # the byte-sliced core took zmm27/28 for its matrices
    $s .= e_consts() . "${L}_64:\n\tcmp\t\$64,%rcx\n\tjb\t${L}_32\n";
    $s .= $pass->(e_pass($pm, 'z', 4, 0, $j0), 64);
    $s .= <<"EOT";
	add	\$1024,%rsi
	add	\$1024,%rdx
	sub	\$64,%rcx
${L}_32:
	cmp	\$32,%rcx
	jb	${L}_tail
EOT
    $s .= $pass->(e_pass($pm, 'z', 2, 0), 32);
    $s .= <<"EOT";
	add	\$512,%rsi
	add	\$512,%rdx
	sub	\$32,%rcx
${L}_tail:
	test	%rcx,%rcx
	jz	${L}_done
	cmp	\$16,%rcx
	ja	${L}_z2
	mov	$TBL_BYTES(%rdi),%rdi
	cmp	\$8,%rcx
	ja	${L}_z1
	cmp	\$4,%rcx
	ja	${L}_y1
EOT
    $s .= $pass->(e_pass($pm, 'x', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y1:\n" . $pass->(e_pass($pm, 'y', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_z1:\n" . $pass->(e_pass($pm, 'z', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_z2:\n" . $pass->(e_pass($pm, 'z', 2, 1), '%rcx');
    $s .= "${L}_done:\n" . $iv_out . "\tvzeroupper\n";
    if ($framed) {
        $s .= "${L}_out:\n" . frame_align_end(@saved);
    } else {
        $s .= e_table_free();
    }
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

# Serial modes: the lean body once per block, the block spread over the
# lanes by VPSHUFD (only lane 0 matters); the chaining value stays in
# xmm15.  xmm registers only: no VZEROUPPER.  avx512_glc runs the glc
# rounds (lean_body_glc), which src/sm4_x86.c gives Intel cores.
my %serial_body = (avx512 => '.Lsm4_avx512_lean_x',
                   avx512_glc => '.Lsm4_avx512_lean_glc_x',
                   avx2 => '.Lsm4_avx2_lean_x');
sub serial {
    my ($fam, $mode) = @_;
    my $fn = "sm4_gfni_${fam}_$mode";
    my $body = $serial_body{$fam};
    my $L = ".L${fn}";
    my $s = function_begin($fn);
    $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    $s .= "\tvmovdqu\t(%r8),%xmm15\n.p2align\t4\n${L}_loop:\n";
    $s .= $mode eq 'cbc_enc' ? "\tvpxor\t(%rsi),%xmm15,%xmm0\n"
                             : "\tvmovdqa\t%xmm15,%xmm0\n";
    $s .= <<"EOT";
	vpshufb	.Lsm4_bswap(%rip),%xmm0,%xmm0
	vpshufd	\$0x55,%xmm0,%xmm1
	vpshufd	\$0xaa,%xmm0,%xmm2
	vpshufd	\$0xff,%xmm0,%xmm3
	call	$body
	vpunpckldq	%xmm2,%xmm3,%xmm4
	vpunpckldq	%xmm0,%xmm1,%xmm5
	vpunpcklqdq	%xmm5,%xmm4,%xmm3
	vpshufb	.Lsm4_bswap(%rip),%xmm3,%xmm3
EOT
    if ($mode eq 'cbc_enc') {
        $s .= "\tvmovdqa\t%xmm3,%xmm15\n\tvmovdqu\t%xmm15,(%rdx)\n";
    } elsif ($mode eq 'cfb_enc') {
        $s .= "\tvpxor\t(%rsi),%xmm3,%xmm15\n\tvmovdqu\t%xmm15,(%rdx)\n";
    } else {
        $s .= "\tvmovdqa\t%xmm3,%xmm15\n\tvpxor\t(%rsi),%xmm3,%xmm0\n"
            . "\tvmovdqu\t%xmm0,(%rdx)\n";
    }
    $s .= <<"EOT";
	add	\$16,%rsi
	add	\$16,%rdx
	dec	%rcx
	jnz	${L}_loop
	vmovdqu	%xmm15,(%r8)
${L}_ret:
	ret
EOT
    $s .= function_end($fn);
    return $s;
}

###########################################################################
# GFNI + AVX2 tier (AVX2 and the VEX forms of GFNI).
#
# Only 16 vector registers: the main pass keeps 24 blocks in flight (three
# groups in ymm0..11) because the round is latency-bound with fewer; round
# temps ymm12..14 are shared by the groups (renaming keeps them
# independent), ymm15 holds the round key; every other constant is a memory
# operand.  No rotate instruction: rol by 8/16/24 is a byte shuffle and
# L(t) = t ^ rol24(t) ^ rol2(t ^ rol8(t) ^ rol16(t)).
my ($VT, $VA, $VB, $VRK) = (12, 13, 14, 15);

sub a_data { my ($g) = @_; return map { 4 * $g + $_ } 0 .. 3; }

sub a_round {
    my ($w, $X) = @_;
    my ($x0, $x1, $x2, $x3) = map { R($w, $_) } @$X;
    my ($t, $a, $b, $rk) = map { R($w, $_) } $VT, $VA, $VB, $VRK;
    return <<"EOT";
	vpxor	$x2,$x1,$t
	vpxor	$rk,$t,$t
	vpxor	$x3,$t,$t
	vgf2p8affineqb	\$0x65,.Lsm4_aff1_y(%rip),$t,$t
	vgf2p8affineinvqb	\$0xd3,.Lsm4_aff2_y(%rip),$t,$t
	vpshufb	.Lsm4_rol8(%rip),$t,$a
	vpshufb	.Lsm4_rol16(%rip),$t,$b
	vpxor	$b,$a,$a
	vpxor	$t,$a,$a
	vpshufb	.Lsm4_rol24(%rip),$t,$b
	vpxor	$t,$x0,$x0
	vpxor	$b,$x0,$x0
	vpslld	\$2,$a,$b
	vpsrld	\$30,$a,$a
	vpxor	$b,$x0,$x0
	vpxor	$a,$x0,$x0
EOT
}

# Same contract as e_core: raw entry and "_t" entry; chunk k of group g
# comes back in register 4g+3-k.
sub a_core {
    my ($w, $G) = @_;
    my $name = ".Lsm4_avx2_core_$w$G";
    my $s = local_function_begin($name);
    my ($t1, $t2) = map { R($w, $_) } $VA, $VB;
    for my $g (0 .. $G - 1) {
        my @d = map { R($w, $_) } a_data($g);
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @d;
        $s .= transpose(@d, $t1, $t2);
    }
    $s .= "${name}_t:\n";
    my @X = map { [ a_data($_) ] } 0 .. $G - 1;
    my $rk = R($w, $VRK);
    for my $i (0 .. 31) {
        $s .= "\tvpbroadcastd\t" . (4 * $i) . "(%rdi),$rk\n";
        for my $g (0 .. $G - 1) {
            $s .= a_round($w, $X[$g]);
            push @{ $X[$g] }, shift @{ $X[$g] };
        }
    }
    for my $g (0 .. $G - 1) {
        my @d = map { R($w, $_) } reverse a_data($g);
        $s .= transpose(@d, $t1, $t2);
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @d;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= a_core('y', 3) . a_core('y', 2);


# Tail masks: vpmaskmovd (faults are suppressed for masked-out dwords);
# dword d of the pass is live when 4 * blocks > d.  LIM = 4 * blocks is
# rebuilt from %rcx whenever needed, so no register is held across a core.
sub a_lim {
    my ($w) = @_;
    my $l = R($w, $VRK);
    return "\tvmovd\t%ecx,%xmm$VRK\n\tvpbroadcastd\t%xmm$VRK,$l\n"
        . "\tvpslld\t\$2,$l,$l\n";
}

sub a_pass {
    my ($mode, $w, $G, $masked) = @_;
    my $bp = $bpr{$w};
    my $P = 4 * $bp * $G;
    my $core = ".Lsm4_avx2_core_$w$G";
    my ($mk, $tmp, $lim) = map { R($w, $_) } $VT, $VA, $VRK;
    my $s = "";
    my @chunks = map { my $g = $_; map { [ $g, $_ ] } 0 .. 3 } 0 .. $G - 1;
    my $off = sub { my ($g, $k) = @_; return 16 * $bp * (4 * $g + $k); };
    # chunk 0 of an x1 pass is block 0, which always exists: it needs no
    # mask (and a plain store forwards to the next call's plain load)
    my $is_masked = sub {
        my ($g, $k) = @_;
        return $masked && $g == $G - 1 && ($w ne 'x' || $G > 1 || $k > 0);
    };
    # load of $o(%rsi) into $r; $c is the chunk whose mask applies
    my $load = sub {
        my ($g, $k, $o, $r) = @_;
        return "\tvmovdqu\t$o(%rsi),$r\n" unless $is_masked->($g, $k);
        my $m = 4 * $off->($g, $k) / 16;
        return "\tvpcmpgtd\t.Lsm4_didx+" . (4 * $m) . "(%rip),$lim,$mk\n"
            . "\tvpmaskmovd\t$o(%rsi),$mk,$r\n";
    };
    my $store = sub {
        my ($g, $k, $o, $r) = @_;
        return "\tvmovdqu\t$r,$o(%rdx)\n" unless $is_masked->($g, $k);
        my $m = 4 * $off->($g, $k) / 16;
        return "\tvpcmpgtd\t.Lsm4_didx+" . (4 * $m) . "(%rip),$lim,$mk\n"
            . "\tvpmaskmovd\t$r,$mk,$o(%rdx)\n";
    };
    my $chain0 = sub {
        my ($dst) = @_;
        return "\tvmovdqu\t(%r8),$dst\n" if $w eq 'x';
        my $x = $dst =~ s/ymm/xmm/r;
        return "\tvmovdqu\t(%r8),$x\n\tvinserti128\t\$1,(%rsi),$dst,$dst\n";
    };

    my ($gcm, $xts) = ($mode eq 'gcm', $mode =~ /^xts/);
    if ($mode eq 'ctr' || $gcm) {
        # counter words (big-endian word 0 first) are stored at 0..12(%rsp),
        # word 3 biased by 2^31 at 16(%rsp) so that a signed compare finds
        # the unsigned wrap; a carry moves on while the next word wraps to 0
        $s .= <<'EOT';
	mov	%r10d,12(%rsp)
	mov	%r10d,%eax
	xor	$0x80000000,%eax
	mov	%eax,16(%rsp)
	mov	%r10,%rax
	shr	$32,%rax
	mov	%eax,8(%rsp)
	mov	%r9d,4(%rsp)
	mov	%r9,%rax
	shr	$32,%rax
	mov	%eax,(%rsp)
EOT
        my ($t, $c) = map { R($w, $_) } $VT, $VA;
        for my $g (0 .. $G - 1) {
            my ($x0, $x1, $x2, $x3) = map { R($w, $_) } a_data($g);
            my $io = 4 * 4 * $bp * $g;
            if ($gcm) {
                # word 3 alone counts, mod 2^32
                $s .= "\tvpbroadcastd\t12(%rsp),$x3\n"
                    . "\tvpaddd\t.Lsm4_ctr_idx_$w+$io(%rip),$x3,$x3\n";
                $s .= "\tvpbroadcastd\t" . (4 * $_) . "(%rsp),"
                    . R($w, 4 * $g + $_) . "\n" for 0 .. 2;
                next;
            }
            $s .= <<"EOT";
	vpbroadcastd	12(%rsp),$x3
	vpaddd	.Lsm4_ctr_idx_$w+$io(%rip),$x3,$x3
	vpbroadcastd	.Lsm4_bias(%rip),$t
	vpxor	$x3,$t,$t
	vpbroadcastd	16(%rsp),$c
	vpcmpgtd	$t,$c,$c
	vpbroadcastd	8(%rsp),$x2
	vpsubd	$c,$x2,$x2
	vpxor	$t,$t,$t
	vpcmpeqd	$t,$x2,$t
	vpand	$t,$c,$c
	vpbroadcastd	4(%rsp),$x1
	vpsubd	$c,$x1,$x1
	vpxor	$t,$t,$t
	vpcmpeqd	$t,$x1,$t
	vpand	$t,$c,$c
	vpbroadcastd	(%rsp),$x0
	vpsubd	$c,$x0,$x0
EOT
        }
        $s .= "\tcall\t${core}_t\n";
        $s .= a_lim($w) if $masked;
        for my $ch (@chunks) {
            my ($g, $k) = @$ch;
            my $r = R($w, 4 * $g + 3 - $k);
            my $o = $off->($g, $k);
            if ($is_masked->($g, $k)) {
                $s .= $load->($g, $k, $o, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t$o(%rsi),$r,$r\n";
            }
            $s .= $store->($g, $k, $o, $r);
        }
        $s .= ctr_add($masked ? '%rcx' : $P, $gcm);
        return $s;
    }

    $s .= xts_tweaks($mode, $w, 4 * $G, $P, $masked, 'avx2') if $xts;
    $s .= a_lim($w) if $masked;
    for my $ch (@chunks) {
        my ($g, $k) = @$ch;
        my $r = R($w, 4 * $g + $k);
        my $o = $off->($g, $k);
        if ($mode eq 'cfb_dec') {
            $s .= $o == 0 ? $chain0->($r) : $load->($g, $k, $o - 16, $r);
        } else {
            $s .= $load->($g, $k, $o, $r);
        }
        # the whole tweak buffer is valid, masked lanes included
        $s .= "\tvpxor\t$o(%r12),$r,$r\n" if $xts;
    }
    $s .= save_last_block($masked, $P) if $mode ne 'ecb' && !$xts;
    $s .= "\tcall\t$core\n";
    $s .= a_lim($w) if $masked;
    my @order = $mode eq 'cbc_dec' ? reverse @chunks : @chunks;
    for my $ch (@order) {
        my ($g, $k) = @$ch;
        my $r = R($w, 4 * $g + 3 - $k);
        my $o = $off->($g, $k);
        my $m = $is_masked->($g, $k);
        if ($mode eq 'cbc_dec') {
            if ($o == 0) {
                $s .= $chain0->($tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } elsif ($m) {
                $s .= $load->($g, $k, $o - 16, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t" . ($o - 16) . "(%rsi),$r,$r\n";
            }
        } elsif ($mode eq 'cfb_dec') {
            if ($m) {
                $s .= $load->($g, $k, $o, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t$o(%rsi),$r,$r\n";
            }
        } elsif ($xts) {
            $s .= "\tvpxor\t$o(%r12),$r,$r\n";
        }
        $s .= $store->($g, $k, $o, $r);
    }
    $s .= store_iv() if $mode ne 'ecb' && !$xts;
    return $s;
}

# Parallel modes: a 24-block loop, then one masked pass for the remainder.
# GCM and XTS as in the AVX-512 tier (GHASH: smg_ghash_vpclmul_avx2; the
# tweak buffer and TV in the aligned frame).
sub a_parallel {
    my ($mode) = @_;
    my $fn = "sm4_gfni_avx2_$mode";
    my $L = ".L${fn}";
    my $gcm = $mode =~ /^gcm_(enc|dec)$/ ? $1 : '';
    my $xts = $mode =~ /^xts/;
    my $pm = $gcm ? 'gcm' : $mode;
    my $ctr = $mode eq 'ctr' || $gcm;
    my $frame = $mode eq 'ctr' ? 24 : 0;
    my @saved = $gcm ? qw(%r12 %r13) : $xts ? qw(%r12 %rbx) : ();
    my $pass = sub {
        my ($body, $cnt) = @_;
        $cnt = "\$$cnt" unless $cnt =~ /^%/;
        return ($gcm eq 'dec' ? gh_call('%rsi', $cnt, 'vpclmul_avx2') : '') . $body
            . ($gcm eq 'enc' ? gh_call('%rdx', $cnt, 'vpclmul_avx2') : '');
    };
    my $s = function_begin($fn);
    if ($gcm) {
        $s .= "\ttest\t%r8,%r8\n\tjz\t${L}_ret\n\tmov\t8(%rsp),%rax\n";
        $s .= frame_align_begin(64, 64, @saved);
        $s .= "\tmov\t%rsi,%r12\n\tmov\t%rax,%r13\n\tmov\t%rdx,%rsi\n"
            . "\tmov\t%rcx,%rdx\n\tmov\t%r8,%rcx\n\tmov\t%r9,%r8\n";
    } else {
        $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    }
    if ($xts) {
        $s .= frame_align_begin(512, 64, @saved)
            . "\tmov\t%rsp,%r12\n\tmov\t%r12,%rbx\n"
            . xts_tv('avx2', $mode eq 'xts_gb');
    }
    $s .= frame_alloc($frame) if $frame;
    if ($ctr) {
        $s .= "\tmov\t(%r8),%r9\n\tmov\t8(%r8),%r10\n"
            . "\tbswap\t%r9\n\tbswap\t%r10\n";
    }
    $s .= "\tcmp\t\$24,%rcx\n\tjb\t${L}_tail\n";
    $s .= "${L}_loop:\n";
    $s .= $pass->(a_pass($pm, 'y', 3, 0), 24);
    $s .= <<"EOT";
	add	\$384,%rsi
	add	\$384,%rdx
	sub	\$24,%rcx
	cmp	\$24,%rcx
	jae	${L}_loop
${L}_tail:
	test	%rcx,%rcx
	jz	${L}_done
	cmp	\$16,%rcx
	ja	${L}_y3
	cmp	\$8,%rcx
	ja	${L}_y2
	cmp	\$4,%rcx
	ja	${L}_y1
EOT
    $s .= $pass->(a_pass($pm, 'x', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y1:\n" . $pass->(a_pass($pm, 'y', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y2:\n" . $pass->(a_pass($pm, 'y', 2, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y3:\n" . $pass->(a_pass($pm, 'y', 3, 1), '%rcx');
    $s .= "${L}_done:\n";
    if ($ctr) {
        $s .= "\tbswap\t%r9\n\tbswap\t%r10\n"
            . "\tmov\t%r9,(%r8)\n\tmov\t%r10,8(%r8)\n";
    }
    # the buffer holds the tweaks in the caller's order already
    $s .= "\tvmovdqu\t(%rbx),%xmm0\n\tvmovdqu\t%xmm0,(%r8)\n" if $xts;
    $s .= "\tvzeroupper\n";
    $s .= frame_free($frame) if $frame;
    $s .= frame_align_end(@saved) if @saved;
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

for my $mode (qw(ecb ctr cbc_dec cfb_dec)) {
    $code .= e_parallel($mode);
    $code .= a_parallel($mode);
}
for my $mode (qw(gcm_enc gcm_dec xts_ieee xts_gb)) {
    $code .= e_parallel($mode);
    $code .= a_parallel($mode);
}
$code .= e_parallel($_) for qw(gcm_enc_j0 gcm_dec_j0);
for my $mode (qw(cbc_enc cfb_enc ofb)) {
    $code .= serial($_, $mode) for qw(avx512 avx512_glc avx2);
}

###########################################################################
# AES-NI tiers, for CPUs without GFNI.  This section keeps to its own
# constants, cores and drivers; from the shared part above it uses only
# R(), transpose(), %bpr and the constants .Lsm4_bswap and .Lsm4_didx.
#
#   aesni_avx   AES-NI + AVX, xmm: 16-block passes; 8- and 4-block tails
#   aesni_avx2  AES-NI + AVX2, ymm: 32-block passes, each ymm S-box layer
#               as two xmm AESENCLAST; 16-, 8- (ymm) and 4-block tails
#   vaes_avx2   VAES + AVX2: as aesni_avx2 with one ymm VAESENCLAST
#
# Every tier sends calls of 1..4 blocks to the lean AES-NI core (after the
# cores below), which needs no key table and has a shorter round.
#
# S-box (M.-J. Saarinen's sm4ni, https://github.com/mjosaarinen/sm4ni):
# the SM4 and AES fields are isomorphic, so Sbox(x) = Post(SubBytes(Pre(x)))
# with Pre and Post affine maps over GF(2)^8.  Each affine map is two
# 16-entry VPSHUFB lookups, one by the low and one by the high nibble,
# XORed; the four tables are those of libgcrypt's sm4-aesni-avx-amd64.S
# (.Lpre_tf_lo_s, .Lpre_tf_hi_s, .Lpost_tf_lo_s, .Lpost_tf_hi_s), checked
# at generation time against the GFNI tiers' S-box formula for all 256
# inputs (in the lean section).  AESENCLAST computes
# ShiftRows(SubBytes(x)) ^ key.  The key is the nibble mask 0x0f.. (no
# zero register needed): Post takes the low nibble as ~y & 0x0f (VPANDN),
# which undoes the XOR, and the high nibble does not see it.  ShiftRows is
# left in the S-box output and undone by the four byte shuffles that L
# needs anyway, which keeps a shuffle off the round's dependency chain.
#
# Round on the word-sliced state (a register holds word j of 4 or 8
# blocks, as in the GFNI tiers), 28 vector ops:
#   t = x1 ^ x2 ^ x3 ^ rk; s = Sbox(t);
#   x0 ^= s ^ rol24(s) ^ rol2(s ^ rol8(s) ^ rol16(s))
#
# A round is a chain of ~22 cycles (VPSHUFB 2, AESENCLAST 4 on Zen 4), so
# a core needs several independent groups of blocks in flight, more than
# 16 registers hold.  Two kinds of core:
#  - register cores (1 or 2 groups, the tail passes): every word in a
#    register;
#  - ring cores (4 groups, the main loop): per group only the newest word
#    lives in a register, and the round's result replaces it; the other
#    three words sit in a 32-byte-aligned ring in the driver's frame and
#    enter the round as memory operands.  Slot j of group g holds word
#    j mod 4.
# Round keys come from a table of broadcast keys (32 bytes apart) that the
# driver builds in its frame; %rdi points to it in every core.
my @ni_pre_lo  = qw(9197E2E474720701 C7C1B4B222245157);
my @ni_pre_hi  = qw(E240AB09EB49A200 F052B91BF95BB012);
my @ni_post_lo = qw(5B67F2CEA19D0834 EDD14478172BBE82);
my @ni_post_hi = qw(AE7201DD73AFDC00 11CDBE62CC1063BF);
my @ni_tables  = qw(pre_lo pre_hi post_lo post_hi);

{
    # AES state byte 4c+r is row r of column c; ShiftRows moves it to
    # column c-r, so its inverse takes byte 4c+r from column c-r.
    my @isr = map { my ($r, $c) = ($_ % 4, int($_ / 4));
                    $r + 4 * (($c - $r) % 4) } 0 .. 15;
    # InvShiftRows, then rotation of each 32-bit word left by 8k bits
    my $isr_rol = sub {
        my ($k) = @_;
        my @b = map { $isr[ ($_ & ~3) | (($_ - $k) & 3) ] } 0 .. 15;
        return (".byte\t" . join(',', @b) . "\n") x 2;
    };
    my $lane = sub {
        my ($q) = @_;
        my $l = ".quad\t0x$q->[0],0x$q->[1]\n";
        return $l . $l;
    };
    # CTR: the block each dword of group g holds after the transpose (xmm:
    # block 4g+k in dword k; ymm: block 8g+2k+l in dword 4l+k)
    my @cx = (0 .. 15);
    my @cy = map { my $g = $_; map { 8 * $g + $_ } 0, 2, 4, 6, 1, 3, 5, 7 }
        0 .. 3;
    $code .= rodata_begin() . ".p2align\t5\n"
        . ".Lsm4_ni_pre_lo:\n" . $lane->(\@ni_pre_lo)
        . ".Lsm4_ni_pre_hi:\n" . $lane->(\@ni_pre_hi)
        . ".Lsm4_ni_post_lo:\n" . $lane->(\@ni_post_lo)
        . ".Lsm4_ni_post_hi:\n" . $lane->(\@ni_post_hi)
        . join('', map { ".Lsm4_ni_isr$_:\n" . $isr_rol->($_ / 8) }
               0, 8, 16, 24)
        . ".Lsm4_ni_ctr_x:\n.long\t" . join(',', @cx) . "\n"
        . ".Lsm4_ni_ctr_y:\n.long\t" . join(',', @cy) . "\n"
        . ".Lsm4_ni_nib:\n.long\t0x0f0f0f0f\n"
        # GCM (ni_gcm): byte reversal of a block, GHASH's folding constant
        . clmul_rodata(\%GHASH_FIELD, bswap => [ '.Lsm4_ni_gh_rev', 1 ],
                       fold => [ '.Lsm4_ni_gh_poly', 1 ])
        # XTS (ni_xts_tweaks): what a doubling adds where a bit leaves a
        # qword, IEEE 1619's and GB/T 17964's
        . ".Lsm4_ni_xts_ieee:\n.long\t0x87,0,1,0\n"
        . ".Lsm4_ni_xts_gb:\n.long\t0,0x80000000,0,0xe1000000\n"
        . text_begin();
}

# Passes of each tier, widest first: [width, groups].  The widest runs in
# the loop; a remainder takes one masked pass of the narrowest that holds
# it.  More than 2 groups means a ring core (unmasked only).
my %ni_passes = (
    aesni_avx  => [ [ 'x', 4 ], [ 'x', 2 ], [ 'x', 1 ] ],
    aesni_avx2 => [ [ 'y', 4 ], [ 'y', 2 ], [ 'y', 1 ], [ 'x', 1 ] ],
    vaes_avx2  => [ [ 'y', 4 ], [ 'y', 2 ], [ 'y', 1 ], [ 'x', 1 ] ],
);
my %ni_aes_of = (aesni_avx => 'ni', aesni_avx2 => 'split',
                 vaes_avx2 => 'vaes');

# The drivers' frame: broadcast round keys, the CTR words, the ring of the
# 4 groups.
my $NI_CTR   = 32 * 32;
my $NI_RING  = $NI_CTR + 32;
my $NI_FRAME = $NI_RING + 32 * 4 * 4;
# XTS's frame adds the tweaks of the widest pass and the one after it
my $NI_XTS = $NI_FRAME;

sub ni_slot {
    my ($g, $j) = @_;
    return ($NI_RING + 32 * (4 * $g + $j % 4)) . "(%rdi)";
}

# Register layout of a register core: data 0..4G-1, nibble mask, tables,
# temps.
sub ni_layout {
    return { m => 8, pre_lo => 9, pre_hi => 10, post_lo => 11,
             post_hi => 12, t => 13, h => 14, k => 15 };
}

# Register layout of member q of a ring core's interleaved pair: group g
# in register g (0..3), each member its own temps, the nibble mask and the
# tables; register 15 is spare.
sub ni_ring_layout {
    my ($q) = @_;
    my $n = 4 + 3 * $q;
    my %l = (t => $n, h => $n + 1, k => $n + 2, m => 10);
    $l{ $ni_tables[$_] } = 11 + $_ for 0 .. 3;
    return \%l;
}

# The 32 rounds as a loop of NI_UNROLL rounds (the register and ring-slot
# rotation repeats every 4): fully unrolled, a 4-group core is ~20 KB of
# code that runs from the decoders instead of the op cache.  %rax walks the
# round-key table, %r11 marks its end.
my $NI_UNROLL = 4;
# GCM's frame adds the nibble mask and the hash's area (ni_ring_core)
my $NI_MASK  = $NI_FRAME;
my $NI_GH    = $NI_MASK + 32;
my $NI_GCM_FRAME = $NI_GH + 128 * 32 / $NI_UNROLL;

sub ni_loop_begin {
    my ($name) = @_;
    return "\tmov\t%rdi,%rax\n\tlea\t1024(%rdi),%r11\n"
        . ".p2align\t4\n${name}_loop:\n";
}

sub ni_loop_end {
    my ($name) = @_;
    return "\tadd\t\$" . (32 * $NI_UNROLL) . ",%rax\n\tcmp\t%r11,%rax\n"
        . "\tjne\t${name}_loop\n";
}

# How a core computes SubBytes: 'ni' (xmm AESENCLAST), 'split' (a ymm as
# two xmm AESENCLAST) or 'vaes' (ymm VAESENCLAST).
sub ni_core_name {
    my ($aes, $w, $G) = @_;
    return ".Lsm4_ni_${aes}_core_$w$G";
}

sub ni_aes {
    my ($aes, $t, $h, $m) = @_;
    return "\tvaesenclast\t" . ($m =~ /\(/ ? $m : "%xmm$m")
        . ",%xmm$t,%xmm$t\n" if $aes eq 'ni';
    return "\tvaesenclast\t%ymm$m,%ymm$t,%ymm$t\n" if $aes eq 'vaes';
    # the VEX.128 AESENCLAST clears the upper lane of %ymm$t
    return <<"EOT";
	vextracti128	\$1,%ymm$t,%xmm$h
	vaesenclast	%xmm$m,%xmm$t,%xmm$t
	vaesenclast	%xmm$m,%xmm$h,%xmm$h
	vinserti128	\$1,%xmm$h,%ymm$t,%ymm$t
EOT
}

# t = Sbox(t), ShiftRows-permuted; clobbers h.  The nibble mask is a
# register, or (xmm, $lay->{mm}) a memory operand that frees it.
sub ni_sbox {
    my ($aes, $w, $lay) = @_;
    my ($t, $h, $m, $pl, $ph, $ql, $qh) =
        map { R($w, $lay->{$_}) } qw(t h m), @ni_tables;
    $m = $lay->{mm} if $lay->{mm};
    return <<"EOT" . ni_aes($aes, $lay->{t}, $lay->{h}, $lay->{mm} // $lay->{m}) . <<"EOT";
	vpsrld	\$4,$t,$h
	vpand	$m,$t,$t
	vpand	$m,$h,$h
	vpshufb	$t,$pl,$t
	vpshufb	$h,$ph,$h
	vpxor	$h,$t,$t
EOT
	vpandn	$m,$t,$h
	vpsrld	\$4,$t,$t
	vpand	$m,$t,$t
	vpshufb	$h,$ql,$h
	vpshufb	$t,$qh,$t
	vpxor	$h,$t,$t
EOT
}

# dst = x0 ^ L(s) for the S-box output in t (ShiftRows-permuted); x0 is a
# register or a memory operand; a = s ^ rol8(s) ^ rol16(s).
sub ni_lin {
    my ($w, $lay, $x0, $dst) = @_;
    my ($t, $h, $k) = map { R($w, $lay->{$_}) } qw(t h k);
    return <<"EOT";
	vpshufb	.Lsm4_ni_isr0(%rip),$t,$h
	vpshufb	.Lsm4_ni_isr8(%rip),$t,$k
	vpxor	$x0,$h,$dst
	vpxor	$h,$k,$k
	vpshufb	.Lsm4_ni_isr16(%rip),$t,$h
	vpxor	$h,$k,$k
	vpshufb	.Lsm4_ni_isr24(%rip),$t,$t
	vpxor	$t,$dst,$dst
	vpslld	\$2,$k,$h
	vpsrld	\$30,$k,$k
	vpxor	$h,$dst,$dst
	vpxor	$k,$dst,$dst
EOT
}

sub ni_consts {
    my ($w, $lay) = @_;
    my $s = $lay->{mm} ? ""
        : "\tvbroadcastss\t.Lsm4_ni_nib(%rip)," . R($w, $lay->{m}) . "\n";
    $s .= "\tvmovdqa\t.Lsm4_ni_$_(%rip)," . R($w, $lay->{$_}) . "\n"
        for @ni_tables;
    return $s;
}

# Register core: G <= 2 groups of width w in registers 0..4G-1, chunk k of
# group g in register 4g+k.  The plain entry takes the blocks as loaded,
# the "_t" entry words already transposed (CTR).  On return register
# 4g+3-k holds chunk k of group g.  Clobbers every vector register.
sub ni_core {
    my ($aes, $w, $G) = @_;
    my $name = ni_core_name($aes, $w, $G);
    my $lay = ni_layout();
    my ($t, $h) = map { R($w, $lay->{$_}) } qw(t h);
    my $s = local_function_begin($name);
    for my $g (0 .. $G - 1) {
        my @d = map { R($w, 4 * $g + $_) } 0 .. 3;
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @d;
        $s .= transpose(@d, $t, $h);
    }
    $s .= "${name}_t:\n" . ni_consts($w, $lay) . ni_loop_begin($name);
    my @X = map { my $g = $_; [ map { 4 * $g + $_ } 0 .. 3 ] } 0 .. $G - 1;
    for my $i (0 .. $NI_UNROLL - 1) {
        for my $g (0 .. $G - 1) {
            my ($x0, $x1, $x2, $x3) = map { R($w, $_) } @{ $X[$g] };
            $s .= "\tvpxor\t$x2,$x1,$t\n\tvpxor\t" . (32 * $i)
                . "(%rax),$t,$t\n\tvpxor\t$x3,$t,$t\n";
            $s .= ni_sbox($aes, $w, $lay) . ni_lin($w, $lay, $x0, $x0);
            push @{ $X[$g] }, shift @{ $X[$g] };
        }
    }
    $s .= ni_loop_end($name);
    for my $g (0 .. $G - 1) {
        my @d = map { R($w, 4 * $g + 3 - $_) } 0 .. 3;
        $s .= transpose(@d, $t, $h);
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @d;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# Ring core: 4 groups of width w with chunk k of group g in ring slot k of
# the group (the "_t" entry: word j in slot j); on return slot k holds
# output chunk k.  Group g's newest word lives in register g, and the
# round's result replaces it (their lifetimes do not overlap).  The groups
# run in pairs whose rounds are interleaved instruction by instruction,
# each member with its own temps: a round is a serial chain, and
# interleaving keeps ready work inside the scheduler's window (measured on
# Zen 4: 4 groups in pairs beat 3 or 4 groups one after another by 4-15%;
# 6 groups gained 2% more at a 48-block batch).
#
# With $gh (aesni_avx's GCM, xmm) the core also hashes 16 ciphertext
# blocks at (%r14), two a loop iteration: the PCLMULQDQ work runs in the
# ports the round chains leave idle.  The nibble mask moves to the frame
# (NI_MASK) to free xmm10; xmm10 and xmm15 are the hash's temporaries, and
# iteration i's two powers of H and its unreduced products (lo, hi, mid)
# live at NI_GH + 128 i of the frame, so that %rax (which walks the round
# keys 128 bytes an iteration) addresses them (ni_gcm sums and reduces).
sub ni_ring_core {
    my ($aes, $w, $G, $gh) = @_;
    my $name = ni_core_name($aes, $w, $G) . ($gh ? '_gh' : '');
    die "ring cores hold 4 groups\n" unless $G == 4;
    my $P = 2;
    my @lay = map { ni_ring_layout($_) } 0 .. $P - 1;
    if ($gh) {
        $_->{mm} = "$NI_MASK(%rdi)" for @lay;
    }
    my @r = map { R($w, $_) } 0 .. 5;
    my $s = local_function_begin($name);
    for my $g (0 .. $G - 1) {
        $s .= "\tvmovdqa\t" . ni_slot($g, $_) . ",$r[$_]\n" for 0 .. 3;
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$r[$_],$r[$_]\n" for 0 .. 3;
        $s .= transpose(@r);
        $s .= "\tvmovdqa\t$r[$_]," . ni_slot($g, $_) . "\n" for 0 .. 3;
    }
    $s .= "${name}_t:\n" . ni_consts($w, $lay[0]);
    $s .= "\tvmovdqa\t" . ni_slot($_, 3) . "," . R($w, $_) . "\n"
        for 0 .. $G - 1;
    $s .= ni_loop_begin($name);
    my @gh = $gh ? split /^/, ni_gh_lines() : ();
    my $per = int((@gh + $NI_UNROLL * $G / $P - 1) / ($NI_UNROLL * $G / $P));
    for my $i (0 .. $NI_UNROLL - 1) {
        for my $set (0 .. $G / $P - 1) {
            my @lines = @gh ? ([ splice @gh, 0, $per ]) : ();
            for my $q (0 .. $P - 1) {
                my $g = $P * $set + $q;
                my $W = R($w, $g);
                my $t = R($w, $lay[$q]{t});
                my $c = "\tvmovdqa\t" . ni_slot($g, $i + 1) . ",$t\n"
                    . "\tvpxor\t" . ni_slot($g, $i + 2) . ",$t,$t\n"
                    . "\tvpxor\t" . (32 * $i) . "(%rax),$t,$t\n"
                    . "\tvpxor\t$W,$t,$t\n"
                    . "\tvmovdqa\t$W," . ni_slot($g, $i + 3) . "\n"
                    . ni_sbox($aes, $w, $lay[$q])
                    . ni_lin($w, $lay[$q], ni_slot($g, $i), $W);
                push @lines, [ split /^/, $c ];
            }
            while (grep { @$_ } @lines) {
                $s .= shift @$_ // '' for @lines;
            }
        }
    }
    $s .= "\tadd\t\$32,%r14\n" if $gh;
    $s .= ni_loop_end($name);
    # words 32..35: slots 0..2 and the register; output chunk k =
    # transposed (w35, w34, w33, w32) after the byte swap
    $s .= "\tvmovdqa\t" . R($w, $_) . "," . ni_slot($_, 3) . "\n"
        for 0 .. $G - 1;
    for my $g (0 .. $G - 1) {
        $s .= "\tvmovdqa\t" . ni_slot($g, 3 - $_) . ",$r[$_]\n" for 0 .. 3;
        $s .= transpose(@r);
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$r[$_],$r[$_]\n" for 0 .. 3;
        $s .= "\tvmovdqa\t$r[$_]," . ni_slot($g, $_) . "\n" for 0 .. 3;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# One loop iteration's hashing in the GCM ring core: blocks (%r14) and
# 16(%r14), byte-reversed, times their powers at NI_GH + 16 b (%rax), into
# the iteration's lo, hi, mid at NI_GH + 32, 48, 64; the first block
# writes them, the second adds (util/perlasm/clmul_x86_64.pm).
sub ni_gh_lines {
    my ($d, $t) = ('%xmm15', '%xmm10');
    my $s = "";
    for my $b (0, 1) {
        my $h = ($NI_GH + 16 * $b) . "(%rax)";
        my @acc = map { ($NI_GH + $_) . "(%rax)" } 32, 48, 64;
        $s .= "\tvmovdqu\t" . (16 * $b) . "(%r14),$d\n"
            . "\tvpshufb\t.Lsm4_ni_gh_rev(%rip),$d,$d\n";
        $s .= clmul_text(clmul_mul(h => $h, d => $d, lo => $acc[0], hi => $acc[1],
                                   mid => $acc[2], t => [ $t, $d ], mem => 1,
                                   first => !$b));
    }
    return $s;
}

sub ni_pass_core {
    my ($tier, $w, $G) = @_;
    return ni_core_name($w eq 'x' ? 'ni' : $ni_aes_of{$tier}, $w, $G);
}

# Counter words of group g into registers x0..x3 (scratch T): the 128-bit
# counter from the native words at CTR..CTR+12 of the frame (w3, w2, w1,
# w0) plus each dword's block number; a carry out of word j moves into
# word j-1 only where word j became zero; with $c32 (GCM) no carry leaves
# word 3.
sub ni_ctr_words {
    my ($w, $g, $X, $T, $base, $c32) = @_;
    my ($x0, $x1, $x2, $x3) = map { R($w, $_) } @$X;
    $T = R($w, $T);
    my $tab = ($w eq 'x' ? '.Lsm4_ni_ctr_x' : '.Lsm4_ni_ctr_y')
        . '+' . (16 * $bpr{$w} * $g);
    my @c = map { ($base ? 4 * $_ . "($base)" : ($NI_CTR + 4 * $_) . "(%rdi)") }
        0 .. 3;
    return <<"EOT" if $c32;
	vbroadcastss	$c[0],$T
	vpaddd	$tab(%rip),$T,$x3
	vbroadcastss	$c[1],$x2
	vbroadcastss	$c[2],$x1
	vbroadcastss	$c[3],$x0
EOT
    return <<"EOT";
	vbroadcastss	$c[0],$T
	vpaddd	$tab(%rip),$T,$x3
	vpmaxud	$T,$x3,$x2
	vpcmpeqd	$x3,$x2,$x2
	vpcmpeqd	$x1,$x1,$x1
	vpxor	$x1,$x2,$x2
	vbroadcastss	$c[1],$T
	vpsubd	$x2,$T,$T
	vpxor	$x1,$x1,$x1
	vpcmpeqd	$x1,$T,$x1
	vpand	$x2,$x1,$x1
	vmovdqa	$T,$x2
	vbroadcastss	$c[2],$T
	vpsubd	$x1,$T,$T
	vpxor	$x0,$x0,$x0
	vpcmpeqd	$x0,$T,$x0
	vpand	$x1,$x0,$x0
	vmovdqa	$T,$x1
	vbroadcastss	$c[3],$T
	vpsubd	$x0,$T,$x0
EOT
}

# XTS (src/kernel.h's smg_xts_fn): the tweaks of a pass's P blocks, an
# xmm each, into the buffer at $at->(16 i), each the one before it times x,
# by shifts and masks (VPCLMULQDQ is not among these tiers' features);
# then the tweak after the last block (masked: after the %rcx-th) back to
# (%r8).  IEEE 1619 doubles the block as a little-endian integer (the
# top bit of each qword, its sign, picks what goes in: 0x87, or the carry);
# GB/T 17964 halves it as a big-endian one (src/aead.c's xts_mul_x), here
# on the byte-reversed block, whose low bit of each qword picks 0xe1 at
# the top or the carry.  One chain of 5 (IEEE) or 6 operations a block,
# beside the ~220 of its rounds.  Clobbers xmm13..15 and %rax.
sub ni_xts_tweaks {
    my ($gb, $P, $masked, $at) = @_;
    my ($t, $u, $o) = map { "%xmm$_" } 13 .. 15;
    my $rev = ".Lsm4_ni_gh_rev(%rip)";
    my $s = "\tvmovdqu\t(%r8),$t\n";
    $s .= "\tvpshufb\t$rev,$t,$t\n" if $gb;
    my $out = $gb ? $o : $t;
    for my $i (0 .. $P) {
        $s .= "\tvpshufb\t$rev,$t,$o\n" if $gb;
        $s .= "\tvmovdqu\t$out," . $at->(16 * $i) . "\n" if $masked || $i < $P;
        last if $i == $P;
        $s .= $gb ? <<"EOT" : <<"EOT";
	vpslld	\$31,$t,$u
	vpsrad	\$31,$u,$u
	vpshufd	\$0x08,$u,$u
	vpand	.Lsm4_ni_xts_gb(%rip),$u,$u
	vpsrlq	\$1,$t,$t
	vpxor	$u,$t,$t
EOT
	vpsrad	\$31,$t,$u
	vpaddq	$t,$t,$t
	vpshufd	\$0x13,$u,$u
	vpand	.Lsm4_ni_xts_ieee(%rip),$u,$u
	vpxor	$u,$t,$t
EOT
    }
    return $s . "\tvmovdqu\t$out,(%r8)\n" unless $masked;
    my $base = $at->(0);
    $base =~ s/\)$/,%rax)/;
    return $s . "\tmov\t%rcx,%rax\n\tshl\t\$4,%rax\n"
        . "\tvmovdqu\t$base,$t\n\tvmovdqu\t$t,(%r8)\n";
}

# One pass of G groups of width w over the blocks at (%rsi) -> (%rdx);
# masked: only the first %rcx blocks exist (the last group is partial).
# Around the core calls registers 12..15 are free.
# GCM ($mode 'gcm') is CTR with the 32-bit counter; $gh takes the ring
# core that hashes (%r14) as it goes.
sub ni_pass {
    my ($tier, $mode, $w, $G, $masked, $lean, $gh) = @_;
    my $bp = $bpr{$w};
    my $P = 4 * $bp * $G;
    my $ring = $G > 2;
    die "ring cores take no masked passes\n" if $ring && $masked;
    my $core = $lean ? ".Lsm4_ni_lean_core_x1" : ni_pass_core($tier, $w, $G);
    $core .= '_gh' if $gh;
    # the CTR words: in the frame at %rdi, or (lean pass) at %rsp
    my $ctr_at = $lean ? "0(%rsp)" : "$NI_CTR(%rdi)";
    my $ctr_hi = $lean ? "8(%rsp)" : ($NI_CTR + 8) . "(%rdi)";
    my ($lim, $mk, $tmp) = map { R($w, $_) } 12 .. 14;
    my $mov = $tier eq 'aesni_avx' ? 'vmaskmovps' : 'vpmaskmovd';
    my $lim_setup = "";
    if ($masked) {
        # dwords of the last group that hold live blocks: 4n - 16*bp*(G-1)
        my $sub = 16 * $bp * ($G - 1);
        my $x = R('x', 12);
        $lim_setup = "\tlea\t-$sub(,%rcx,4),%eax\n\tvmovd\t%eax,$x\n"
            . ($w eq 'x' ? "\tvpshufd\t\$0,$x,$x\n"
                         : "\tvpbroadcastd\t$x,$lim\n");
    }
    # chunk 0 of an x1 pass is block 0, which always exists: it needs no
    # mask (and a plain store forwards to the next call's plain load)
    my $is_masked = sub {
        my ($g, $k) = @_;
        return $masked && $g == $G - 1 && ($w ne 'x' || $G > 1 || $k > 0);
    };
    my $mask = sub {
        my ($k) = @_;
        return "\tvpcmpgtd\t.Lsm4_didx+" . (16 * $bp * $k) . "(%rip),"
            . "$lim,$mk\n";
    };
    my $load = sub {
        my ($g, $k, $o, $r) = @_;
        return "\tvmovdqu\t$o(%rsi),$r\n" unless $is_masked->($g, $k);
        return $mask->($k) . "\t$mov\t$o(%rsi),$mk,$r\n";
    };
    my $store = sub {
        my ($g, $k, $o, $r) = @_;
        return "\tvmovdqu\t$r,$o(%rdx)\n" unless $is_masked->($g, $k);
        return $mask->($k) . "\t$mov\t$r,$mk,$o(%rdx)\n";
    };
    # (iv, c0, ...) of the first chunk
    my $chain0 = sub {
        my ($r) = @_;
        return "\tvmovdqu\t(%r8),$r\n" if $w eq 'x';
        my $x = $r =~ s/ymm/xmm/r;
        return "\tvmovdqu\t(%r8),$x\n\tvinserti128\t\$1,(%rsi),$r,$r\n";
    };
    # where the core takes chunk (g, k) and leaves its output
    my $in_reg = sub {
        my ($g, $k) = @_;
        return R($w, $ring ? $k : 4 * $g + $k);
    };
    my $out_reg = sub {
        my ($g, $k) = @_;
        return R($w, $ring ? $k : 4 * $g + 3 - $k);
    };
    my $stage_in = sub {
        my ($g, $k) = @_;
        return "" unless $ring;
        return "\tvmovdqa\t" . $in_reg->($g, $k) . ","
            . ni_slot($g, $k) . "\n";
    };
    my $fetch_out = sub {
        my ($g, $k) = @_;
        return "" unless $ring;
        return "\tvmovdqa\t" . ni_slot($g, $k) . ","
            . $out_reg->($g, $k) . "\n";
    };
    my @chunks = map { my $g = $_; map { [ $g, $_ ] } 0 .. 3 } 0 .. $G - 1;
    my $off = sub { my ($g, $k) = @_; return 16 * $bp * (4 * $g + $k); };
    my $s = "";

    if ($mode eq 'ctr' || $mode eq 'gcm') {
        $s .= "\tmov\t%r10,$ctr_at\n\tmov\t%r9,$ctr_hi\n";
        for my $g (0 .. $G - 1) {
            my @x = map { $ring ? $_ : 4 * $g + $_ } 0 .. 3;
            $s .= ni_ctr_words($w, $g, \@x, 15, $lean ? "%rsp" : undef,
                               $mode eq 'gcm');
            next unless $ring;
            $s .= "\tvmovdqa\t" . R($w, $_) . "," . ni_slot($g, $_) . "\n"
                for 0 .. 3;
        }
        $s .= "\tcall\t${core}_t\n" . $lim_setup;
        for my $ch (@chunks) {
            my ($g, $k) = @$ch;
            my $r = $out_reg->($g, $k);
            my $o = $off->($g, $k);
            $s .= $fetch_out->($g, $k);
            if ($is_masked->($g, $k)) {
                $s .= $load->($g, $k, $o, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t$o(%rsi),$r,$r\n";
            }
            $s .= $store->($g, $k, $o, $r);
        }
        return $s . ctr_add($masked ? '%rcx' : $P, 1) if $mode eq 'gcm';
        $s .= $masked ? "\tadd\t%rcx,%r10\n" : "\tadd\t\$$P,%r10\n";
        $s .= "\tadc\t\$0,%r9\n";
        return $s;
    }

    # XTS: the pass's tweaks in the frame (lean pass: on the stack)
    my $xts = $mode =~ /^xts_/;
    my $tweak = sub {
        my ($o) = @_;
        return $lean ? "$o(%rsp)" : ($NI_XTS + $o) . "(%rdi)";
    };
    $s .= ni_xts_tweaks($mode eq 'xts_gb', $P, $masked, $tweak) if $xts;
    $s .= $lim_setup;
    for my $ch (@chunks) {
        my ($g, $k) = @$ch;
        my $r = $in_reg->($g, $k);
        my $o = $off->($g, $k);
        if ($mode eq 'cfb_dec') {
            $s .= $o == 0 ? $chain0->($r) : $load->($g, $k, $o - 16, $r);
        } else {
            $s .= $load->($g, $k, $o, $r);
        }
        # every tweak of the pass is in the buffer, masked lanes' included
        $s .= "\tvpxor\t" . $tweak->($o) . ",$r,$r\n" if $xts;
        $s .= $stage_in->($g, $k);
    }
    if ($mode ne 'ecb' && !$xts) {
        # the next chaining value (in %r9:%r10), before an in-place store
        # overwrites it
        $s .= $masked
            ? "\tmov\t%rcx,%rax\n\tshl\t\$4,%rax\n"
              . "\tmov\t-16(%rsi,%rax),%r9\n\tmov\t-8(%rsi,%rax),%r10\n"
            : "\tmov\t" . (16 * $P - 16) . "(%rsi),%r9\n"
              . "\tmov\t" . (16 * $P - 8) . "(%rsi),%r10\n";
    }
    $s .= "\tcall\t$core\n" . $lim_setup;
    # CBC stores from the last chunk back so that, in place, every chunk
    # still finds the ciphertext before it unmodified.
    my @order = $mode eq 'cbc_dec' ? reverse @chunks : @chunks;
    for my $ch (@order) {
        my ($g, $k) = @$ch;
        my $r = $out_reg->($g, $k);
        my $o = $off->($g, $k);
        $s .= $fetch_out->($g, $k);
        if ($mode eq 'cbc_dec') {
            if ($o == 0) {
                $s .= $chain0->($tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } elsif ($is_masked->($g, $k)) {
                $s .= $load->($g, $k, $o - 16, $tmp)
                    . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t" . ($o - 16) . "(%rsi),$r,$r\n";
            }
        } elsif ($mode eq 'cfb_dec') {
            if ($is_masked->($g, $k)) {
                $s .= $load->($g, $k, $o, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t$o(%rsi),$r,$r\n";
            }
        } elsif ($xts) {
            $s .= "\tvpxor\t" . $tweak->($o) . ",$r,$r\n";
        }
        $s .= $store->($g, $k, $o, $r);
    }
    $s .= "\tmov\t%r9,(%r8)\n\tmov\t%r10,8(%r8)\n" if $mode ne 'ecb' && !$xts;
    return $s;
}

# ---------------------------------------------------------------------------
# Lean AES-NI core, for calls of 1..4 blocks: no key table, no frame (CTR
# keeps its counter in 16 bytes of stack), xmm registers of AVX only.
#
# As in the GFNI lean body, the state lives in the image of the S-box's
# input map, here P, the linear part of Pre (Pre(x) = P x ^ Pre(0)):
# Z = P X bytewise, so the AESENCLAST input of round i is just
# w_i = Z_{i+1} ^ Z_{i+2} ^ Z_{i+3} ^ K_i with K_i = Pre(rk_i), two nibble
# lookups of the broadcast round key, off the loop-carried path.  On the
# way out, the P image of L(Post(u)) for the SubBytes output u is
# T_A(u) ^ rol8(T_B(u)) ^ rol16(T_B(u)) ^ rol24(T_C(u)) with the bytewise
# affine maps T_X = P X Post (X = A, B, C as in the GFNI tiers), each two
# nibble lookups; the four byte shuffles undo ShiftRows and rotate.  The
# loop-carried path: AESENCLAST, the high-nibble split, one lookup, one
# XOR, one shuffle and three XORs (the pre-lookup and its XOR are gone).
{
    my $hexb = sub {    # the 16 table bytes of two little-endian quads
        return map { my $q = $_; reverse map { hex } unpack '(A2)*', $q } @_;
    };
    my @pre_lo  = $hexb->(@ni_pre_lo);
    my @pre_hi  = $hexb->(@ni_pre_hi);
    my @post_lo = $hexb->(@ni_post_lo);
    my @post_hi = $hexb->(@ni_post_hi);
    my $pre  = sub { $pre_lo[ $_[0] & 15 ] ^ $pre_hi[ $_[0] >> 4 ] };
    my $post = sub { $post_lo[ $_[0] & 15 ] ^ $post_hi[ $_[0] >> 4 ] };
    # GF(2^8) mod x^8 + x^4 + x^3 + x + 1 (the field of AES and of the GFNI
    # instructions), for a check of the sm4ni tables at generation time
    my $mul = sub {
        my ($x, $y) = @_;
        my $r = 0;
        for (1 .. 8) {
            $r ^= $x if $y & 1;
            $y >>= 1;
            $x <<= 1;
            $x ^= 0x11b if $x & 0x100;
        }
        return $r;
    };
    my @inv = (0);
    for my $x (1 .. 255) {
        for my $y (1 .. 255) { if ($mul->($x, $y) == 1) { $inv[$x] = $y; last } }
    }
    my $rotb = sub { (($_[0] << $_[1]) | ($_[0] >> (8 - $_[1]))) & 0xff };
    # FIPS-197 section 5.1.1: SubBytes is the inverse, then an affine map
    my $aes_sb = sub {
        my $b = $inv[ $_[0] ];
        return $b ^ $rotb->($b, 1) ^ $rotb->($b, 2) ^ $rotb->($b, 3)
            ^ $rotb->($b, 4) ^ 0x63;
    };
    # the S-box as the GFNI tiers compute it, against sm4ni's composition
    for my $x (0 .. 255) {
        my $g = gf_apply($GF_A2, $inv[ gf_apply($GF_A1, $x) ^ $GF_C1 ]) ^ $GF_C2;
        die "sm4ni tables disagree with the GFNI S-box at $x\n"
            unless $post->($aes_sb->($pre->($x))) == $g;
    }
    my $p = sub { $pre->($_[0]) ^ $pre->(0) };
    my %pinv;
    $pinv{ $p->($_) } = $_ for 0 .. 255;
    die "Pre is not invertible\n" unless keys %pinv == 256;
    my %tab = (
        p    => $p,
        pinv => sub { $pinv{ $_[0] } },
        # T_X = P X Post, X the bytewise maps of L's split (gf section)
        map { my $m = $GF_L{$_}; ("t$_" => sub { $p->(gf_apply($m, $post->($_[0]))) }) }
            qw(a b c),
    );
    $code .= rodata_begin() . ".p2align\t4\n";
    for my $t (sort keys %tab) {
        my $f = $tab{$t};
        my @lo = map { $f->($_) } 0 .. 15;
        my @hi = map { $f->($_ << 4) ^ $f->(0) } 0 .. 15;
        $code .= ".Lsm4_nl_${t}_lo:\n.byte\t" . join(',', @lo) . "\n"
            . ".Lsm4_nl_${t}_hi:\n.byte\t" . join(',', @hi) . "\n";
    }
    # ShiftRows as a byte shuffle: the inverse of .Lsm4_ni_isr0
    my @sr;
    for my $b (0 .. 15) {
        my ($r, $c) = ($b % 4, int($b / 4));
        $sr[ $r + 4 * (($c - $r) % 4) ] = $b;
    }
    $code .= ".Lsm4_nl_sr:\n.byte\t" . join(',', @sr) . "\n";
    $code .= ".Lsm4_nl_nib:\n.byte\t" . join(',', (15) x 16) . "\n"
        . text_begin();
}

# $d = lo[$x & 15] ^ hi[$x >> 4] bytewise through tables .Lsm4_<$tab>_lo/hi
# ($x may be $d; clobbers $t1, $t2).
sub nl_map {
    my ($tab, $x, $d, $t1, $t2) = @_;
    return <<"EOT";
	vpsrld	\$4,$x,$t1
	vpand	.Lsm4_nl_nib(%rip),$x,$t2
	vpand	.Lsm4_nl_nib(%rip),$t1,$t1
	vmovdqa	.Lsm4_${tab}_lo(%rip),$d
	vpshufb	$t2,$d,$d
	vmovdqa	.Lsm4_${tab}_hi(%rip),$t2
	vpshufb	$t1,$t2,$t2
	vpxor	$t2,$d,$d
EOT
}

# .Lsm4_ni_lean: native words X0..X3 in xmm0..3 -> X32..X35; clobbers
# xmm4..14.  Round i with r = Z_{i+2} ^ Z_{i+3} ^ K_{i+1} (ready early):
# w_{i+1} = r ^ Z_i ^ E_i and Z_{i+4} = w_{i+1} ^ r.  The first term of
# E_i is isr0(A(u)); q = r ^ Z_i enters as isr0^-1(q) XORed into A(u)
# before that shuffle, which takes one XOR off the loop-carried path.
sub nl_body {
    my $name = ".Lsm4_ni_lean";
    my @Z = map { "%xmm$_" } 0 .. 3;
    my ($w, $r, $lo, $hi, $A, $B, $C, $t, $t1, $t2) =
        map { "%xmm$_" } 4 .. 13;
    my $nib = ".Lsm4_nl_nib(%rip)";
    my $s = local_function_begin($name);
    $s .= nl_map('nl_p', $_, $_, $t1, $t2) for @Z;
    # K_j ^ the registers given into $d; the keys are mapped four at a
    # time into xmm14 (K_j..K_j+3 when j % 4 == 0), then spread by VPSHUFD
    my $kv = "%xmm14";
    my $key = sub {
        my ($j, $d, @z) = @_;
        my $k = "";
        $k .= "\tvmovdqu\t" . (4 * $j) . "(%rdi),$kv\n"
            . nl_map('ni_pre', $kv, $kv, $t1, $t2) if $j % 4 == 0;
        return $k . "\tvpshufd\t\$" . (0x55 * ($j % 4)) . ",$kv,$d\n"
            . join('', map { "\tvpxor\t$_,$d,$d\n" } @z);
    };
    $s .= $key->(0, $w, @Z[1 .. 3]);
    for my $i (0 .. 31) {
        my $more = $i < 31;
        # the critical path first: the scheduler favours older work
        $s .= <<"EOT";
	vaesenclast	$nib,$w,$w
	vpsrld	\$4,$w,$hi
	vpandn	$nib,$w,$lo
	vpand	$nib,$hi,$hi
EOT
        # t = isr0^-1(q), q = r ^ Z_i (the last round: q = Z_i)
        if ($more) {
            $s .= $key->($i + 1, $r, @Z[2, 3]) . "\tvpxor\t$Z[0],$r,$t\n";
        } else {
            $s .= "\tvmovdqa\t$Z[0],$t\n";
        }
        $s .= <<"EOT";
	vpshufb	.Lsm4_nl_sr(%rip),$t,$t1
	vmovdqa	.Lsm4_nl_ta_lo(%rip),$A
	vpshufb	$lo,$A,$A
	vpxor	$t1,$A,$A
EOT
        for my $m ([ 'a', $A ], [ 'b', $B ], [ 'c', $C ]) {
            my ($x, $d) = @$m;
            $s .= "\tvmovdqa\t.Lsm4_nl_t${x}_lo(%rip),$d\n\tvpshufb\t$lo,$d,$d\n"
                if $x ne 'a';
            $s .= <<"EOT";
	vmovdqa	.Lsm4_nl_t${x}_hi(%rip),$t
	vpshufb	$hi,$t,$t
	vpxor	$t,$d,$d
EOT
        }
        # A = q ^ a, lo = b8, B = b16, C = c24; hi = b16 ^ c24
        $s .= <<"EOT";
	vpshufb	.Lsm4_ni_isr0(%rip),$A,$A
	vpshufb	.Lsm4_ni_isr8(%rip),$B,$lo
	vpshufb	.Lsm4_ni_isr16(%rip),$B,$B
	vpshufb	.Lsm4_ni_isr24(%rip),$C,$C
	vpxor	$C,$B,$hi
	vpxor	$lo,$A,$A
EOT
        if ($more) {
            $s .= "\tvpxor\t$hi,$A,$w\n\tvpxor\t$r,$w,$Z[0]\n";
        } else {
            $s .= "\tvpxor\t$hi,$A,$Z[0]\n";
        }
        push @Z, shift @Z;
    }
    $s .= nl_map('nl_pinv', $_, $_, $t1, $t2) for @Z;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# The x1 core contract (chunk k in xmm k, "_t": native words; output
# chunk k in xmm 3-k) around the lean body.
sub nl_core_x1 {
    my $name = ".Lsm4_ni_lean_core_x1";
    my @x = map { "%xmm$_" } 0 .. 3;
    my $s = local_function_begin($name);
    $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @x;
    $s .= transpose(@x, '%xmm4', '%xmm5');
    $s .= "${name}_t:\n\tcall\t.Lsm4_ni_lean\n";
    $s .= transpose(reverse(@x), '%xmm4', '%xmm5');
    $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @x;
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= nl_body() . nl_core_x1();

# The parallel modes of an AES-NI tier; gcm_enc and gcm_dec (src/kernel.h's
# smg_gcm_fn, with the 32-bit counter) are its CTR passes with
# smg_ghash_vpclmul_avx2 over each pass's ciphertext, before the pass
# decrypting and after it encrypting, as the GFNI+AVX2 tier's (a_parallel).
sub ni_parallel {
    my ($tier, $mode) = @_;
    my @p = @{ $ni_passes{$tier} };
    my @cap = map { 4 * $bpr{ $_->[0] } * $_->[1] } @p;
    my $fn = "sm4_${tier}_$mode";
    my $L = ".L$fn";
    my $gcm = $mode =~ /^gcm_(enc|dec)$/ ? $1 : '';
    my $pm = $gcm ? 'gcm' : $mode;
    my $ctr = $mode eq 'ctr' || $gcm;
    my $xts = $mode =~ /^xts_/;
    my @saved = $gcm ? qw(%r12 %r13) : ();
    my $pass = sub {
        my ($body, $cnt) = @_;
        $cnt = "\$$cnt" unless $cnt =~ /^%/;
        return ($gcm eq 'dec' ? gh_call('%rsi', $cnt, 'vpclmul_avx2') : '') . $body
            . ($gcm eq 'enc' ? gh_call('%rdx', $cnt, 'vpclmul_avx2') : '');
    };
    my $ctr_in = "\tmov\t(%r8),%r9\n\tmov\t8(%r8),%r10\n\tbswap\t%r9\n\tbswap\t%r10\n";
    my $ctr_out = "\tbswap\t%r9\n\tbswap\t%r10\n\tmov\t%r9,(%r8)\n\tmov\t%r10,8(%r8)\n";
    my $s = function_begin($fn);
    if ($gcm) {
        # (ks, htable, in, out, n, ctr, xi) -> ks, in, out, n, ctr in the
        # CTR passes' registers, htable in %r12, xi in %r13; one frame for
        # both paths (the lean pass's counter words at its start)
        $s .= "\ttest\t%r8,%r8\n\tjz\t${L}_ret\n\tmov\t8(%rsp),%rax\n";
        $s .= frame_align_begin($NI_FRAME, 32, @saved);
        $s .= "\tmov\t%rsi,%r12\n\tmov\t%rax,%r13\n\tmov\t%rdx,%rsi\n"
            . "\tmov\t%rcx,%rdx\n\tmov\t%r8,%rcx\n\tmov\t%r9,%r8\n";
    } else {
        $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    }
    # 1..4 blocks: one masked pass of the lean core (xmm only, no
    # VZEROUPPER owed but after a GHASH call; CTR's counter words in 16
    # bytes of stack)
    $s .= "\tcmp\t\$4,%rcx\n\tja\t${L}_wide\n";
    $s .= frame_alloc(24) . $ctr_in if $mode eq 'ctr';
    $s .= frame_alloc(88) if $xts;
    $s .= $ctr_in if $gcm;
    $s .= $pass->(ni_pass($tier, $pm, 'x', 1, 1, 1), '%rcx');
    $s .= $ctr_out . frame_free(24) if $mode eq 'ctr';
    $s .= frame_free(88) if $xts;
    $s .= $gcm ? $ctr_out . "\tjmp\t${L}_out\n" : "\tret\n";
    $s .= "${L}_wide:\n";
    $s .= frame_align_begin($xts ? $NI_XTS + 16 * ($cap[0] + 2) : $NI_FRAME, 32)
        unless $gcm;
    # the round keys as the cores read them: broadcast, 32 bytes apart
    my $v = R($tier eq 'aesni_avx' ? 'x' : 'y', 0);
    for my $i (0 .. 31) {
        $s .= "\tvbroadcastss\t" . (4 * $i) . "(%rdi),$v\n"
            . "\tvmovdqa\t$v," . (32 * $i) . "(%rsp)\n";
    }
    $s .= "\tmov\t%rsp,%rdi\n";
    $s .= $ctr_in if $ctr;
    # unmasked passes while they fit: the widest, and after a ring core
    # the next one (ring cores take no masked tails)
    my $first = $p[0][1] > 2 ? 1 : 0;
    for my $i (0 .. $first) {
        my $c = $cap[$i];
        $s .= "\tcmp\t\$$c,%rcx\n\tjb\t${L}_tail$i\n${L}_loop$i:\n";
        $s .= $pass->(ni_pass($tier, $pm, @{ $p[$i] }, 0), $c);
        $s .= <<"EOT";
	add	\$@{[16 * $c]},%rsi
	add	\$@{[16 * $c]},%rdx
	sub	\$$c,%rcx
	cmp	\$$c,%rcx
	jae	${L}_loop$i
${L}_tail$i:
EOT
    }
    $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_done\n";
    for my $i ($first .. $#p - 1) {
        $s .= "\tcmp\t\$$cap[$i + 1],%rcx\n\tja\t${L}_p$i\n";
    }
    $s .= $pass->(ni_pass($tier, $pm, @{ $p[-1] }, 1), '%rcx') . "\tjmp\t${L}_done\n";
    for my $i ($first .. $#p - 1) {
        $s .= "${L}_p$i:\n" . $pass->(ni_pass($tier, $pm, @{ $p[$i] }, 1), '%rcx')
            . "\tjmp\t${L}_done\n";
    }
    $s .= "${L}_done:\n";
    $s .= $ctr_out if $ctr;
    $s .= "${L}_out:\n" if $gcm;
    $s .= "\tvzeroupper\n" . frame_align_end(@saved);
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

# GCM on aesni_avx (src/kernel.h's smg_gcm_fn): 16-block passes whose ring
# core hashes 16 ciphertext blocks as it runs: decrypting, the pass's own
# input; encrypting, the previous pass's output (the first pass hashes
# nothing, the last one's output goes to smg_ghash_clmul_avx).  After each
# such pass the eight iterations' products are summed into two groups of
# eight (the xmm table holds H^1..H^8) and reduced: the running xi times
# H^8 joins the first, whose reduction times H^8 joins the second.  The
# 1..15 blocks after the loop take the CTR passes' tails with the GHASH
# call before (decrypting) or after (encrypting).
sub ni_gh_finish {
    my ($lo, $hi, $mid, $t, $xi, $h8, $poly, $rev) = map { "%xmm$_" } 0 .. 7;
    my $mul = clmul_text(
        clmul_mul(h => $h8, d => $xi, lo => $lo, mid => $mid, hi => $hi, t => [ $t ],
                  mid_split => 1),
        clmul_fold($lo, $mid, $hi, $t),
        clmul_reduce(\%GHASH_FIELD, lo => $lo, hi => $hi, t => $t, p => $poly));
    my $sum = sub {
        my ($first) = @_;
        my $s = "";
        for my $i ($first .. $first + 3) {
            my @a = map { ($NI_GH + 128 * $i + $_) . "(%rdi)" } 32, 48, 64;
            my @r = ($lo, $hi, $mid);
            for my $k (0 .. 2) {
                $s .= $i == $first ? "\tvmovdqa\t$a[$k],$r[$k]\n"
                                   : "\tvpxor\t$a[$k],$r[$k],$r[$k]\n";
            }
        }
        return $s;
    };
    return "\tvmovdqu\t.Lsm4_ni_gh_rev(%rip),$rev\n"
        . "\tvmovdqu\t.Lsm4_ni_gh_poly(%rip),$poly\n"
        . "\tvmovdqu\t384(%r12),$h8\n"
        . "\tvmovdqu\t(%r13),$xi\n\tvpshufb\t$rev,$xi,$xi\n"
        . $sum->(0) . $mul . "\tvmovdqa\t$lo,$xi\n"
        . $sum->(4) . $mul
        . "\tvpshufb\t$rev,$lo,$lo\n\tvmovdqu\t$lo,(%r13)\n";
}

sub ni_gcm {
    my ($tier, $dir) = @_;
    my $fn = "sm4_${tier}_gcm_$dir";
    my $L = ".L$fn";
    my $enc = $dir eq 'enc';
    my @saved = qw(%r12 %r13 %r14);
    my $gh = sub { return gh_call($_[0], $_[1], 'clmul_avx'); };
    my $s = function_begin($fn);
    # (ks, htable, in, out, n, ctr, xi) -> ks, in, out, n, ctr in the
    # CTR drivers' registers, htable in %r12, xi in %r13
    $s .= "\ttest\t%r8,%r8\n\tjz\t${L}_ret\n\tmov\t8(%rsp),%rax\n";
    $s .= frame_align_begin($NI_GCM_FRAME, 32, @saved);
    $s .= "\tmov\t%rsi,%r12\n\tmov\t%rax,%r13\n\tmov\t%rdx,%rsi\n"
        . "\tmov\t%rcx,%rdx\n\tmov\t%r8,%rcx\n\tmov\t%r9,%r8\n";
    for my $i (0 .. 31) {
        $s .= "\tvbroadcastss\t" . (4 * $i) . "(%rdi),%xmm0\n"
            . "\tvmovdqa\t%xmm0," . (32 * $i) . "(%rsp)\n";
    }
    $s .= "\tvbroadcastss\t.Lsm4_ni_nib(%rip),%xmm0\n"
        . "\tvmovdqa\t%xmm0,$NI_MASK(%rsp)\n";
    # iteration i hashes blocks 2i, 2i+1: powers H^(8-j), j = 2i+b mod 8,
    # table entries 24 + j
    for my $i (0 .. 32 / $NI_UNROLL - 1) {
        for my $b (0, 1) {
            my $j = (2 * $i + $b) % 8;
            $s .= "\tvmovdqu\t" . (16 * (24 + $j)) . "(%r12),%xmm0\n"
                . "\tvmovdqa\t%xmm0," . ($NI_GH + 128 * $i + 16 * $b)
                . "(%rsp)\n";
        }
    }
    $s .= "\tmov\t%rsp,%rdi\n\tmov\t(%r8),%r9\n\tmov\t8(%r8),%r10\n"
        . "\tbswap\t%r9\n\tbswap\t%r10\n";
    my $adv = "\tadd\t\$256,%rsi\n\tadd\t\$256,%rdx\n\tsub\t\$16,%rcx\n";
    $s .= "\tcmp\t\$16,%rcx\n\tjb\t${L}_tail\n";
    if ($enc) {
        $s .= ni_pass($tier, 'gcm', 'x', 4, 0) . $adv;
    }
    $s .= "${L}_loop:\n\tcmp\t\$16,%rcx\n\tjb\t${L}_last\n";
    $s .= $enc ? "\tlea\t-256(%rdx),%r14\n" : "\tmov\t%rsi,%r14\n";
    $s .= ni_pass($tier, 'gcm', 'x', 4, 0, 0, 1) . ni_gh_finish() . $adv
        . "\tjmp\t${L}_loop\n${L}_last:\n";
    $s .= "\tlea\t-256(%rdx),%r14\n" . $gh->('%r14', '$16') if $enc;
    $s .= "${L}_tail:\n\ttest\t%rcx,%rcx\n\tjz\t${L}_done\n";
    my $tail = sub {
        my ($pass, $cnt) = @_;
        return $enc ? $pass . $gh->('%rdx', $cnt) : $gh->('%rsi', $cnt) . $pass;
    };
    $s .= "\tcmp\t\$8,%rcx\n\tjb\t${L}_t8\n";
    $s .= $tail->(ni_pass($tier, 'gcm', 'x', 2, 0), '$8')
        . "\tadd\t\$128,%rsi\n\tadd\t\$128,%rdx\n\tsub\t\$8,%rcx\n"
        . "\tjz\t${L}_done\n${L}_t8:\n\tcmp\t\$4,%rcx\n\tja\t${L}_t2\n";
    $s .= $tail->(ni_pass($tier, 'gcm', 'x', 1, 1), '%rcx')
        . "\tjmp\t${L}_done\n${L}_t2:\n";
    $s .= $tail->(ni_pass($tier, 'gcm', 'x', 2, 1), '%rcx');
    $s .= "${L}_done:\n\tbswap\t%r9\n\tbswap\t%r10\n"
        . "\tmov\t%r9,(%r8)\n\tmov\t%r10,8(%r8)\n";
    $s .= "\tvzeroupper\n" . frame_align_end(@saved);
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

{
    my %cores;
    for my $tier (sort keys %ni_passes) {
        for my $p (@{ $ni_passes{$tier} }) {
            my $aes = $p->[0] eq 'x' ? 'ni' : $ni_aes_of{$tier};
            $cores{ ni_core_name($aes, @$p) } = [ $aes, @$p ];
        }
    }
    for my $c (sort keys %cores) {
        my ($aes, $w, $G) = @{ $cores{$c} };
        $code .= $G > 2 ? ni_ring_core($aes, $w, $G) : ni_core($aes, $w, $G);
    }
    $code .= ni_ring_core('ni', 'x', 4, 1);
    $code .= ni_gcm('aesni_avx', $_) for qw(enc dec);
    for my $tier (sort keys %ni_passes) {
        $code .= ni_parallel($tier, $_) for qw(ecb ctr cbc_dec cfb_dec xts_ieee xts_gb);
    }
    $code .= ni_parallel($_, 'gcm_enc') . ni_parallel($_, 'gcm_dec')
        for qw(aesni_avx2 vaes_avx2);
}

##########################################################################
# Key schedules (GB/T 32907-2016, 7.3) through the S-box of a tier, for
# the tables of that tier, so that no SM4 path looks a table up by key
# bytes where such a tier runs (src/sm4.c keeps the C schedule for the C
# kernel):
#   void sm4_gfni_set_key(const unsigned char key[16], uint32_t rk[32])
#   void sm4_aesni_set_key(const unsigned char key[16], uint32_t rk[32])
# Round i: t = K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i, the Sbox of its four
# bytes (GFNI: the two affine steps; AES-NI: the word in every column, so
# that ShiftRows leaves column 0 whole, through ni_sbox), then K_{i+4} =
# K_i ^ t ^ rol(t, 13) ^ rol(t, 23) = rk_i, all in dword 0 of xmm
# registers: the loop-carried path has no move between general and vector
# registers (with two a round, sm4_gfni_set_key took 228 TSC ticks a key
# and sm4_aesni_set_key 396; 220 and 352 without, Intel Xeon family 6
# model 207, best of 20000: the S-box steps are the chain).  The K_j
# rotate through xmm8..11, unrolled by four; K_{i+1} ^ K_{i+2} ^ CK_i is
# ready before K_{i+3}.  Runs once per key; the round count is the only
# branch.
{
    my @ck;
    for my $i (0 .. 31) {
        push @ck, sprintf("0x%02x%02x%02x%02x", map { ((4 * $i + $_) * 7) & 0xff } 0 .. 3);
    }
    $code .= rodata_begin() . ".p2align\t4\n.Lsm4_ks_fk:\n"
        . "\t.long\t0xa3b1bac6,0x56aa3350,0x677d9197,0xb27022dc\n"
        . ".Lsm4_ks_ck:\n\t.long\t" . join(',', @ck) . "\n" . text_begin();
    my $lay = { t => 0, h => 1, m => 2, pre_lo => 3, pre_hi => 4,
                post_lo => 5, post_hi => 6 };
    for my $kind ('gfni', 'aesni') {
        my $fn = "sm4_${kind}_set_key";
        my @K = map { "%xmm$_" } 8 .. 11;
        my ($ck, $r13, $r19, $r23, $r9) = map { "%xmm$_" } 12 .. 15, 7;
        my $s = function_begin($fn);
        for my $j (0 .. 3) {
            $s .= "\tmov\t" . (4 * $j) . "(%rdi),%eax\n\tbswap\t%eax\n"
                . "\txor\t.Lsm4_ks_fk+" . (4 * $j) . "(%rip),%eax\n"
                . "\tvmovd\t%eax,$K[$j]\n";
        }
        if ($kind eq 'gfni') {
            $s .= "\tvmovdqa\t.Lsm4_aff1_y(%rip),%xmm1\n\tvmovdqa\t.Lsm4_aff2_y(%rip),%xmm2\n";
        } else {
            $s .= "\tvbroadcastss\t.Lsm4_ni_nib(%rip),%xmm2\n";
            $s .= "\tvmovdqa\t.Lsm4_ni_$ni_tables[$_](%rip),%xmm" . (3 + $_) . "\n" for 0 .. 3;
        }
        $s .= "\tlea\t.Lsm4_ks_ck(%rip),%rdx\n\txor\t%ecx,%ecx\n"
            . ".p2align\t4\n.L${fn}_loop:\n";
        for my $r (0 .. 3) {
            my ($k0, $k1, $k2, $k3) = map { $K[($r + $_) % 4] } 0 .. 3;
            $s .= "\tvmovd\t" . (4 * $r) . "(%rdx,%rcx,4),$ck\n"
                . "\tvpxor\t$k1,$ck,$ck\n\tvpxor\t$k2,$ck,$ck\n"
                . "\tvpxor\t$k3,$ck,%xmm0\n";
            if ($kind eq 'gfni') {
                $s .= "\tvgf2p8affineqb\t\$0x65,%xmm1,%xmm0,%xmm0\n"
                    . "\tvgf2p8affineinvqb\t\$0xd3,%xmm2,%xmm0,%xmm0\n";
            } else {
                $s .= "\tvpshufd\t\$0,%xmm0,%xmm0\n" . ni_sbox('ni', 'x', $lay);
            }
            $s .= "\tvpslld\t\$13,%xmm0,$r13\n\tvpsrld\t\$19,%xmm0,$r19\n"
                . "\tvpslld\t\$23,%xmm0,$r23\n\tvpsrld\t\$9,%xmm0,$r9\n"
                . "\tvpxor\t%xmm0,$k0,$k0\n\tvpxor\t$r19,$r13,$r13\n"
                . "\tvpxor\t$r9,$r23,$r23\n\tvpxor\t$r13,$k0,$k0\n"
                . "\tvpxor\t$r23,$k0,$k0\n"
                . "\tvmovd\t$k0," . (4 * $r) . "(%rsi,%rcx,4)\n";
        }
        $s .= "\tadd\t\$4,%ecx\n\tcmp\t\$32,%ecx\n\tjb\t.L${fn}_loop\n";
        # the key words and the S-box results leave no copy behind
        $s .= "\txor\t%eax,%eax\n";
        $s .= "\tvpxor\t%xmm$_,%xmm$_,%xmm$_\n" for 0 .. 15;
        $s .= "\tret\n" . function_end($fn);
        $code .= $s;
    }
}

###########################################################################
# The gfni-avx512 cores' tables from a schedule's round keys (what
# sm4_key_constants makes in src/sm4.c, byte for byte; the same slots):
#   void sm4_gfni_avx512_key_tables(SM4_KEY *ks)
# The A1 image of all 32 round keys is two affine maps.  With U[0..3] = 0,
# U[i+4] = K_i ^ U[i+2] ^ U[i+3] (U[n+1] = c_n) and U[36..39] = 0, slot j
# of ws is U[j] ^ U[j+4], so the serial part is one XOR a key on its
# critical path; bs is z = ws ^ ws<<<16 ^ ws<<<24 (slots 1..32, by mask),
# every byte spread over its dword by one lane broadcast and one shuffle per
# four slots.  The image and U wait in bs, which its own stores then
# overwrite: no copy of key material is left anywhere else.  About 200
# instructions, against ~1,500 in C: a GCM key and IV took 880 TSC ticks
# with the C tables, 645 with these (best of 20,000, Intel Xeon family 6
# model 207).
{
    my $fn = 'sm4_gfni_avx512_key_tables';
    my $U = $KS_BS + 128;        # U[0..39], 160 bytes of bs's 576
    my $s = rodata_begin() . ".p2align\t6\n.Lsm4_ks_bsx:\n";
    $s .= "\t.byte\t" . join(',', map { my $j = $_; map { my $b = $_; (4 * $j + $b) x 4 } 0 .. 3 } 0 .. 3) . "\n";
    $s .= text_begin() . function_begin($fn);
    $s .= <<"EOT";
	vpbroadcastq	.Lsm4_aff1(%rip),%zmm2
	vmovdqu64	(%rdi),%zmm0
	vmovdqu64	64(%rdi),%zmm1
	vgf2p8affineqb	\$0x65,%zmm2,%zmm0,%zmm0
	vgf2p8affineqb	\$0x65,%zmm2,%zmm1,%zmm1
	vmovdqu64	%zmm0,$KS_BS(%rdi)
	vmovdqu64	%zmm1,@{[$KS_BS + 64]}(%rdi)
	vpxor	%xmm3,%xmm3,%xmm3
	vmovdqu	%xmm3,$U(%rdi)
	vmovdqu	%xmm3,@{[$U + 144]}(%rdi)
	xor	%eax,%eax
	xor	%edx,%edx
EOT
    # a holds U[i+2], b U[i+3]; the new word goes into a, and they swap
    my ($a, $b) = ('%eax', '%edx');
    for my $i (0 .. 31) {
        $s .= "\txor\t" . ($KS_BS + 4 * $i) . "(%rdi),$a\n\txor\t$b,$a\n"
            . "\tmov\t$a," . ($U + 4 * ($i + 4)) . "(%rdi)\n";
        ($a, $b) = ($b, $a);
    }
    $s .= <<"EOT";
	vmovdqu64	$U(%rdi),%zmm3
	vmovdqu64	@{[$U + 64]}(%rdi),%zmm4
	vmovdqu	@{[$U + 128]}(%rdi),%xmm5
	vpxord	@{[$U + 16]}(%rdi),%zmm3,%zmm3
	vpxord	@{[$U + 80]}(%rdi),%zmm4,%zmm4
	vpxor	@{[$U + 144]}(%rdi),%xmm5,%xmm5
	vmovdqu64	%zmm3,$KS_WS(%rdi)
	vmovdqu64	%zmm4,@{[$KS_WS + 64]}(%rdi)
	vmovdqu	%xmm5,@{[$KS_WS + 128]}(%rdi)
	mov	\$0xfffe,%eax
	kmovw	%eax,%k1
	mov	\$0xffff,%eax
	kmovw	%eax,%k2
	mov	\$1,%eax
	kmovw	%eax,%k3
EOT
    my @w = ('%zmm3', '%zmm4', '%zmm5');
    for my $g (0 .. 2) {
        $s .= "\tvprold\t\$16,$w[$g],%zmm6\n\tvprold\t\$24,$w[$g],%zmm7\n"
            . "\tvpternlogd\t\$0x96,%zmm6,%zmm7,$w[$g]\{%k" . ($g + 1) . "}\n";
    }
    $s .= "\tvmovdqa64\t.Lsm4_ks_bsx(%rip),%zmm2\n";
    for my $m (0 .. 8) {
        my $src = $w[int($m / 4)];
        $s .= "\tvshufi32x4\t\$" . (0x55 * ($m % 4)) . ",$src,$src,%zmm6\n"
            . "\tvpshufb\t%zmm2,%zmm6,%zmm6\n"
            . "\tvmovdqu64\t%zmm6," . ($KS_BS + 64 * $m) . "(%rdi)\n";
    }
    # no key material left in registers
    $s .= "\txor\t%eax,%eax\n\txor\t%edx,%edx\n";
    $s .= "\tvpxord\t%zmm$_,%zmm$_,%zmm$_\n" for 0 .. 7;
    $s .= "\tvzeroupper\n\tret\n" . function_end($fn);
    $code .= $s;
}

###########################################################################
# CCM (src/kernel.h's smg_ccm_fn), every tier: the CBC-MAC is serial, so
# each block takes one pass of the tier's lean x1 core with two of its four
# lanes busy, the MAC's pending input in one and a counter block in the
# other: the CTR blocks ride in the MAC's latency and CCM runs at the speed
# of one serial SM4 stream.  Both directions run the same pass (the MAC
# input is pending, so a decryption's keystream is not needed before its
# pass); they differ in the block that goes into the next input.  The
# pending input stays in xmm15 (no lean core touches it); the low eight
# counter bytes count in %r11 (big-endian as a number), the high eight
# stay in %r10.  gfni_avx512_glc is the AVX-512 tier over the glc rounds
# (lean_body_glc, for Intel cores).
#   ks=%rdi in=%rsi out=%rdx nblocks=%rcx ctr=%r8 mac=%r9
my %ccm_core = (gfni_avx512 => '.Lsm4_avx512_core_x1',
                gfni_avx512_glc => '.Lsm4_avx512_glc_core_x1',
                gfni_avx2 => '.Lsm4_avx2_core_x1',
                ni => '.Lsm4_ni_lean_core_x1');

sub ccm {
    my ($tier, $dir) = @_;
    my $fn = "sm4_${tier}_ccm_$dir";
    my $L = ".L$fn";
    my $core = $ccm_core{$tier};
    # E(xmm15) came out in xmm3, E(counter) in xmm2; the plaintext goes
    # into the next input (read before an in-place store overwrites it)
    my $out = "\tvpxor\t(%rsi),%xmm2,%xmm2\n\tvmovdqu\t%xmm2,(%rdx)\n";
    my $after = $dir eq 'enc' ? "\tvpxor\t(%rsi),%xmm3,%xmm15\n$out"
                              : "$out\tvpxor\t%xmm2,%xmm3,%xmm15\n";
    my $s = function_begin($fn);
    $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    $s .= <<"EOT";
	vmovdqu	(%r9),%xmm15
	mov	(%r8),%r10
	mov	8(%r8),%r11
	bswap	%r11
.p2align	4
${L}_loop:
	vmovdqa	%xmm15,%xmm0
	mov	%r11,%rax
	bswap	%rax
	vmovq	%r10,%xmm1
	vpinsrq	\$1,%rax,%xmm1,%xmm1
	add	\$1,%r11
	call	$core
$after	add	\$16,%rsi
	add	\$16,%rdx
	dec	%rcx
	jnz	${L}_loop
	bswap	%r11
	mov	%r11,8(%r8)
	vmovdqu	%xmm15,(%r9)
${L}_ret:
	ret
EOT
    $s .= function_end($fn);
    return $s;
}

for my $tier (sort keys %ccm_core) {
    $code .= ccm($tier, $_) for qw(enc dec);
}

x86_64::finish($code);
