#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM4 (GB/T 32907-2016) kernels of the AES-NI tiers for x86-64, for CPUs
# without GFNI, generated as AT&T text through util/perlasm/x86_64.pm:
#
#   perl asm/sm4-aesni-x86_64.pl elf [bytes] > asm/sm4-aesni-x86_64.S
#
#   aesni_avx   AES-NI + AVX, xmm: 16-block passes; 8- and 4-block tails
#   aesni_avx2  AES-NI + AVX2, ymm: 32-block passes, each ymm S-box layer
#               as two xmm AESENCLAST; 16-, 8- (ymm) and 4-block tails
#   vaes_avx2   VAES + AVX2: as aesni_avx2 with one ymm VAESENCLAST
#
# The three tiers are generated from one ring core (ni_ring_core) and one
# register core (ni_core), which differ only in how a core computes
# SubBytes (ni_aes).  Owns their parallel modes (ECB, CTR, CBC and CFB
# decryption, XTS), GCM (aesni_avx's with the PCLMULQDQ work inside the
# ring core's rounds, the AVX2 tiers' with smg_ghash_vpclmul_avx2 between
# passes), the lean AES-NI core for calls of 1..4 blocks and for CCM, and
# sm4_aesni_set_key, the key schedule through this S-box.  From the
# shared module (util/perlasm/sm4_x86_64.pm) it takes the register naming,
# the transposes, the shared constants, the GF(2) maps (to check its
# tables at generation time), the CTR step, the GHASH call and CCM's
# driver; GHASH's arithmetic is util/perlasm/clmul_x86_64.pm's.  Their
# CBC/CFB encryption and OFB are the portable kernel's: the same rounds
# would make the serial modes ~1.4 times slower than the C kernel's tables
# (the lean round's loop-carried path is ~13 cycles, its ~30 other vector
# ops stretch it to ~17 on Zen 4).
#
# Measured on the 2-core AMD EPYC (Zen 4) KVM guest, 16 KiB calls,
# cycles/byte from the fastest of 400 calls timed by the TSC (2.6 GHz;
# 1.43 core cycles per tick, calibrated with a chain of adds); "x" = speed
# relative to OpenSSL's default provider in the same run:
#
#   kernel                 ECB          CTR          CBC-dec      CFB-dec
#   vaes-avx2   (32 blk)   2.54 10.6x   2.51 12.3x   2.55 10.7x   2.55 10.7x
#   aesni-avx2  (32 blk)   2.91  9.3x   2.88 10.7x   2.92  9.3x   2.94  9.3x
#   aesni-avx   (16 blk)   5.07  5.3x   5.02  6.1x   5.09  5.4x   5.10  5.4x
#   OpenSSL 3.0 default    27.0         30.7         27.2         27.4
#
# Calls of 1..4 blocks: 407 TSC ticks per CTR call whatever the count,
# against the C kernel's 318 for one block, 588 for two and 857 for three.
# callgrind: aesni-avx2 8.9, aesni-avx 16.2, portable C 43.5 instructions
# per byte (ECB).
#
# XTS (tweaks doubled by shifts in xmm registers, ni_xts_tweaks), Intel
# Xeon family 6 model 207 (Sapphire/Emerald Rapids class) KVM guest, one
# make bench run, MB/s of CPU time at 16 KiB (1 KiB), beside the tier's ECB:
#
#   kernel        ECB           XTS
#   vaes-avx2     1355 (1338)   1220 (1052)
#   aesni-avx2    1172 (1154)   1066 (935)
#   aesni-avx      687 (684)     654 (603)
#
# aesni-avx's GCM on the 2-core AMD EPYC family 26 model 2 (Zen 5 class)
# KVM guest, 16 KiB in-place calls, best of 2000, TSC ticks (2.6 GHz) per
# byte: CTR 3.33, GCM 3.58 encrypting, 3.55 decrypting.  The ring core is
# bound by issue, not by its chains, so the hash is only partly hidden:
# the interleaved products cost ~0.18 ticks/B and the per-pass reductions
# ~0.12, against 0.33 for the separate GHASH.  CCM over the lean AES-NI
# core (the -ct tables; the default tables leave CCM to the C kernel, see
# src/sm4_x86.c): 27.4 encrypting, 27.8 decrypting.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use sm4_x86_64;
use clmul_x86_64;

x86_64::setup(@ARGV);

my $code = sm4_rodata(qw(bswap didx));

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
# inputs (below, with the lean core's tables).  AESENCLAST computes
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
# GB/T 17964 halves it as a big-endian one (src/aead_xts.c's xts_mul_x), here
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
        # T_X = P X Post, X the bytewise maps of L's split (%GF_L)
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
# decrypting and after it encrypting, as the GFNI+AVX2 tier's.
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
$code .= ccm('ni', $_, '.Lsm4_ni_lean_core_x1') for qw(enc dec);
{
    my $lay = { t => 0, h => 1, m => 2, pre_lo => 3, pre_hi => 4,
                post_lo => 5, post_hi => 6 };
    $code .= key_schedule('aesni',
        "\tvbroadcastss\t.Lsm4_ni_nib(%rip),%xmm2\n"
        . join('', map { "\tvmovdqa\t.Lsm4_ni_$ni_tables[$_](%rip),%xmm" . (3 + $_) . "\n" } 0 .. 3),
        "\tvpshufd\t\$0,%xmm0,%xmm0\n" . ni_sbox('ni', 'x', $lay));
}

x86_64::finish($code);
