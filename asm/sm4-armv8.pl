#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM4 (GB/T 32907-2016) block kernels for AArch64, generated as GNU
# assembler text through util/perlasm/armv8.pm.  Owns two tiers, both
# constant-time (no table lookup indexed by secret data in memory):
#   sm4e  - the Armv8.2 SM4 extension: SM4E runs four rounds on one block;
#   neon  - plain Advanced SIMD for CPUs without it: the S-box is a
#           256-byte table held in sixteen vector registers and read with
#           TBL/TBX, whose timing does not depend on the index values.
# Each tier has the block modes and, beside them, SM4's GCM (CTR fused
# with PMULL GHASH, util/perlasm/armv8_ghash.pm), CCM and XTS (both tweak
# conventions) entries of src/kernel.h's SMG_GCM_KERNEL,
# SMG_CCM_KERNEL and SMG_XTS_KERNEL.
#
#   perl asm/sm4-armv8.pl elf [inst] > asm/sm4-armv8.S
#
# Entry points follow src/kernel.h (AAPCS64: ks=x0 in=x1 out=x2
# nblocks=x3 iv=x4; GCM: ks=x0 htable=x1 in=x2 out=x3 nblocks=x4 ctr=x5
# xi=x6); src/sm4_arm.c puts them into SMG_BLOCK_KERNEL tables.
# The schedules are laid out as the C one (SM4_KEY.rk[32] in application
# order, the decryption schedule reversed), so "ecb" serves both
# directions, and so does each XTS entry; each tier also has its key
# schedule through its own S-box (sm4_sm4e_set_key, sm4_neon_set_key, at
# the end of this file).
#
# Real Arm hardware is not available to measure, so speed stands in as
# instructions executed per byte, counted exactly under qemu-user by
# util/arm-icount.pl (the difference between runs of 1 KiB and 9 KiB, so
# start-up and key setup drop out), beside gcc 12 -O3's code for src/sm4.c
# counted the same way:
#
#   instructions/byte        ECB     CTR   CBC-dec  CFB-dec  CBC-enc CFB-enc OFB
#   sm4e  (8 blocks a pass)  0.68    1.08   0.78     0.79     0.94    0.94   0.94
#   neon  (8 blocks a pass) 10.70   11.10  10.80    10.81    35.12   35.12  35.12
#   src/sm4.c (T-tables)    34.52   35.42  35.70    35.59    35.62   35.69  35.88
#
# (0.08 a byte below the first counts of this table, whose workload also
# counted calloc clearing the buffer.  CTR was 0.83 and 10.85 with a
# shortcut, taken when the counter's low word could not wrap in the pass:
# a branch on the counter, which the static check flags; the six general
# instructions a block that replace it run beside the vector rounds.)  The AEAD entries, one 16 KiB call
# each against an empty run (entry and tails included):
#
#   instructions/byte        GCM-enc GCM-dec XTS-IEEE XTS-GB CCM-enc CCM-dec
#   sm4e + PMULL              1.37    1.37    1.12     1.12   1.80    1.80
#   neon + PMULL             11.53   11.53   11.30    11.30  44.25   44.25
#
# (recounted 2026-12-07 after CCM's pending MAC input, which made its
# decryption the same pass as its encryption.)  Without PMULL
# (OPENSSL_armcap without bit 0x20) the tables keep these XTS and CCM
# entries, and GCM is the mode layer's composition of the core's CTR with
# the portable GHASH (src/ghash.c, 22.8 a byte).
#
# The key schedules, instructions per schedule (util/arm-icount.pl: the
# difference between 10 and 110 schedules through sm4_set_key_kernel,
# the decryption schedule's reversal included), not measured on hardware:
#
#   instructions/key         sm4e (SM4EKEY) 105   neon (TBL/TBX) 675
#   src/sm4.c (S-box bytes)  1262
#
# The NEON schedule is one serial chain of 32 S-box sequences (FMOV to the
# vector unit and back in each), so its time on hardware is latency, not
# this count; it runs once per key.
#
# The aim was at most 1.5 (GCM) and 1.2 (XTS) with SM4E.  A GCM
# pass of 8 blocks is 176 instructions: 9 counter, 64 SM4E, 8 TBL, 12
# loads/XORs/stores, 80 GHASH (8 byte reversals, the Xi XOR, 4 table
# loads, 24 PMULL, 12 TRN1/TRN2/EOR for the Karatsuba middles, 21 EOR
# summing, a 10-instruction reduction), 3 loop; an XTS pass 143: 40 for
# eight tweak doublings of 5, 100 for the blocks, 3 loop.  GHASH is run
# after the pass's SM4E, not interleaved with it: the 32 registers hold
# the blocks, the data, the round keys and half the powers of H, not two
# passes.
#
# SM4E's latency (not modelled by a count) bounds the serial modes: a block
# is a chain of 8 SM4E there, against 8 independent chains in the
# parallel modes.
#
# Design.
#
# sm4e: SM4E Vd.4S, Vn.4S applies four rounds to the block in Vd, the four
# round keys taken from the lanes of Vn (Arm ARM, SM4E), so the 32 round
# keys sit in v16-v23 for the whole call and a block costs 8 SM4E plus the
# byte order fix-ups: REV32 before (lane i = word X_i as a native integer)
# and a full 16-byte reversal after (the output is X35..X32), one TBL.
# SM4E has a latency of several cycles, so the parallel modes run 8
# independent blocks a pass (then one 4-block pass, then single blocks);
# the serial modes (CBC/CFB encryption, OFB) are one chain of 8 SM4E per
# block.
#
# neon: four blocks are transposed so that register j holds word j of each
# of them, and a round is whole-register operations on one 4-lane group:
#   t = X1 ^ X2 ^ X3 ^ rk          3 EOR (rk broadcast by LD1R, shared)
#   s = Sbox(t)                    TBL + 3 x (SUB 64, TBX): 7
#   X0 ^= L(s), L(s) = s ^ rol24(s) ^ rol2(s ^ rol8(s) ^ rol16(s))
#        rol8 and rol24 as byte shuffles (TBL), rol16 as REV32 of halfwords,
#        rol2 as SHL+SRI: 10
# 20 instructions per round and group; two groups (8 blocks) interleave to
# hide the TBX chain's latency.  The alternative, the S-box through AESE
# with affine maps in and out of the AES field (as the x86-64 AES-NI
# kernels do), would cost about 12 instructions per 16 bytes (AESE and
# two nibble-table affine maps of 5) instead of 7 and needs the AES
# extension, so TBL was chosen: it runs on every AArch64 CPU.
# Serial modes keep one block in general registers and use the vector
# unit for the S-box only (neon_one below), which is still constant-time
# and about as many instructions as the table-driven C; tails of the
# parallel modes (fewer than 8 blocks left) go through one pass of 4 or 8
# blocks on a stack copy.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use armv8;
use armv8_ghash;

armv8::setup(@ARGV);

my $code = ".arch\tarmv8.2-a+crypto+sm4\n";

# Arguments and scalar registers shared by both tiers.
my ($ks, $inp, $out, $n, $ivp) = map { "x$_" } 0 .. 4;
my ($hi, $lo) = ("x6", "x7");            # CTR counter, native 64-bit halves
my ($t0, $t1) = ("x10", "x11");
my ($saved_in, $saved_out, $buf) = ("x12", "x13", "x14");
my @v = map { "v$_" } 0 .. 31;
sub wreg { my ($x) = @_; return $x =~ s/^x/w/r; }    # 32-bit view

my $label = 0;
sub L { return ".Lsm4_" . $_[0] . "_" . $label++; }

###########################################################################
# The S-box, from its algebraic form instead of a pasted table:
# Sbox(x) = A2 Inv(A1 x + c1) + c2 with Inv the inverse in GF(2^8) modulo
# x^8+x^4+x^3+x+1 and the affine maps in GFNI's matrix format (row i is
# byte 7-i): A1 0x34ac259e022dbc52, c1 0x65, A2 0xd72d8e511e6c8b19, c2 0xd3
# (libgcrypt's sm4-gfni-avx2-amd64.S).  The
# table is checked below against entries of GB/T 32907-2016, table 1.
no warnings 'portable';
sub gf_affine {
    my ($m, $c, $x) = @_;
    my $y = 0;
    for my $i (0 .. 7) {
        my $row = ($m >> (8 * (7 - $i))) & 0xff;
        my $b = $row & $x;
        $b ^= $b >> 4; $b ^= $b >> 2; $b ^= $b >> 1;
        $y |= ($b & 1) << $i;
    }
    return $y ^ $c;
}
sub gf_mul {
    my ($a, $b) = @_;
    my $p = 0;
    for (0 .. 7) {
        $p ^= $a if $b & 1;
        $a = ($a << 1) ^ ($a & 0x80 ? 0x11b : 0);
        $b >>= 1;
    }
    return $p;
}
my @inv = (0) x 256;
for my $a (1 .. 255) {
    for my $b (1 .. 255) {
        if (gf_mul($a, $b) == 1) { $inv[$a] = $b; last; }
    }
}
my @sbox = map {
    gf_affine(0xd72d8e511e6c8b19, 0xd3,
              $inv[gf_affine(0x34ac259e022dbc52, 0x65, $_)])
} 0 .. 255;
# spot checks: the first, a middle and the last entries of the standard's table
die "sm4-armv8.pl: S-box construction is wrong\n"
    unless $sbox[0x00] == 0xd6 && $sbox[0x01] == 0x90 && $sbox[0x7f] == 0x9e
        && $sbox[0x80] == 0xea && $sbox[0xfe] == 0x39 && $sbox[0xff] == 0x48;

$code .= rodata_begin() . ".p2align\t6\n.Lsm4_sbox:\n";
for my $r (0 .. 15) {
    $code .= ".byte\t" . join(',', map { sprintf '0x%02x', $_ } @sbox[16 * $r .. 16 * $r + 15]) . "\n";
}
# rol8 of each native 32-bit lane as a byte shuffle (lane byte 0 is the
# least significant)
$code .= ".Lsm4_rol8:\n.byte\t3,0,1,2,7,4,5,6,11,8,9,10,15,12,13,14\n";
$code .= ".Lsm4_rev128:\n.byte\t" . join(',', reverse 0 .. 15) . "\n";
# the 32-bit lanes in reverse order: SM4E's result (X32..X35) to the
# output block's native words (X35..X32), for CCM's CBC-MAC
$code .= ".Lsm4_wrev:\n.byte\t" . join(',', map { 4 * (3 - ($_ >> 2)) + ($_ & 3) } 0 .. 15) . "\n";
$code .= text_begin();

###########################################################################
# Tier descriptions.  A tier supplies:
#   setup/teardown   code around the body of every entry point
#   cipher(W, nat)   encrypts blocks v0..v(W-1) in place; nat: the input is
#                    already in native word order (CTR builds it so)
#   scratch          registers free outside cipher() for the mode code
#   keep             a register that survives cipher() (IV, CTR's "one")
#   widths           pass widths of the parallel modes, widest first
#   bounce           tails go through one pass on a stack copy

my %tier;

# ---- sm4e ---------------------------------------------------------------
my @rk = @v[16 .. 23];
my $REV = $v[30];                        # byte reversal of a whole block
$tier{sm4e} = {
    name => 'sm4e',
    setup => sub {
        return "\tld1\t{$rk[0].4s-$rk[3].4s},[$ks],#64\n"
             . "\tld1\t{$rk[4].4s-$rk[7].4s},[$ks]\n"
             . adr_label($t0, ".Lsm4_rev128") . "\tldr\t" . qreg($REV) . ",[$t0]\n";
    },
    teardown => sub { return "\tret\n"; },
    frame => 0,
    cipher => sub {
        my ($W, $nat) = @_;
        my @b = @v[0 .. $W - 1];
        my $s = "";
        $s .= join '', map { "\trev32\t$_.16b,$_.16b\n" } @b unless $nat;
        for my $k (0 .. 7) {
            $s .= "\tsm4e\t$_.4s,$rk[$k].4s\n" for @b;
        }
        # lanes hold X32..X35: reverse the bytes of the whole block
        $s .= "\ttbl\t$_.16b,{$_.16b},$REV.16b\n" for @b;
        return $s;
    },
    scratch => [ @v[24 .. 29] ],
    keep => $v[31],
    widths => [ 8, 4, 1 ],
    bounce => 0,
};

# ---- neon ---------------------------------------------------------------
# v0-v3 group A, v4-v7 group B, v8/v9 temporaries of A, v10/v11 of B,
# v12 the broadcast round key, v13 64 in every byte, v14 the rol8 shuffle,
# v15 free for the modes (kept across the core), v16-v31 the S-box.
my ($RK, $C64, $ROL8) = @v[12 .. 14];
my @SB = @v[16 .. 31];
my $FRAME_D = [ map { "d$_" } 8 .. 15 ];
my $FRAME_BUF = 128;                     # tail copy: 8 blocks
my $BUF_OFF = 16 + 8 * 8;                # after x29/x30 and d8-d15

# Transposes four registers of four 32-bit words (a 4x4 matrix) from
# @src into @dst, with four temporaries.
sub transpose4 {
    my ($src, $dst, $tmp) = @_;
    my ($a, $b, $c, $d) = @$src;
    my ($p, $q, $r, $s) = @$tmp;
    return <<"EOT";
	trn1	$p.4s,$a.4s,$b.4s
	trn2	$q.4s,$a.4s,$b.4s
	trn1	$r.4s,$c.4s,$d.4s
	trn2	$s.4s,$c.4s,$d.4s
	trn1	$dst->[0].2d,$p.2d,$r.2d
	trn1	$dst->[1].2d,$q.2d,$s.2d
	trn2	$dst->[2].2d,$p.2d,$r.2d
	trn2	$dst->[3].2d,$q.2d,$s.2d
EOT
}

# s = Sbox(t) on every byte, t clobbered, with the table in @SB and 64 in
# every byte of $c64: TBL of the first 64 entries (an index past them gives
# 0), then three times "index - 64, TBX of the next 64" (TBX leaves a byte
# whose index is out of range alone).  The one S-box sequence of the core,
# the one-block path and the key schedule, as an instruction list.
sub neon_sbox {
    my ($s, $t, $c64) = @_;
    return (
        "tbl\t$s.16b,{$SB[0].16b-$SB[3].16b},$t.16b",
        map { ("sub\t$t.16b,$t.16b,$c64.16b",
               "tbx\t$s.16b,{$SB[4 * $_].16b-$SB[4 * $_ + 3].16b},$t.16b") } 1 .. 3
    );
}
# The S-box table into @SB (through $t0), for every NEON entry.
sub neon_sbox_load {
    my $s = adr_label($t0, ".Lsm4_sbox");
    $s .= "\tld1\t{$SB[$_ * 4].16b-$SB[$_ * 4 + 3].16b},[$t0],#64\n" for 0 .. 3;
    return $s;
}

# One round of one group: X0 ^= L(Sbox(X1 ^ X2 ^ X3 ^ rk)); returns the
# instructions as a list so that two groups can be interleaved.
sub neon_round {
    my ($x, $t, $s) = @_;
    my ($x0, $x1, $x2, $x3) = @$x;
    return (
        "eor\t$t.16b,$x1.16b,$x2.16b",
        "eor\t$t.16b,$t.16b,$x3.16b",
        "eor\t$t.16b,$t.16b,$RK.16b",
        neon_sbox($s, $t, $C64),
        "eor\t$x0.16b,$x0.16b,$s.16b",
        "tbl\t$t.16b,{$s.16b},$ROL8.16b",
        "eor\t$t.16b,$t.16b,$s.16b",
        "rev32\t$s.8h,$s.8h",
        "eor\t$t.16b,$t.16b,$s.16b",
        "tbl\t$s.16b,{$s.16b},$ROL8.16b",
        "eor\t$x0.16b,$x0.16b,$s.16b",
        "shl\t$s.4s,$t.4s,#2",
        "sri\t$s.4s,$t.4s,#30",
        "eor\t$x0.16b,$x0.16b,$s.16b",
    );
}

# The core on G groups (1 or 2): blocks v0..v(4G-1) in, results in place.
# Entry "<name>" takes block bytes, "<name>_nat" native words.  Uses x9 as
# the round key pointer, v8-v12; returns with bl/ret (no frame).
sub neon_core {
    my ($G) = @_;
    my $name = ".Lsm4_neon_core$G";
    my @grp = map { [ @v[4 * $_ .. 4 * $_ + 3] ] } 0 .. $G - 1;
    my @tmp = map { [ @v[8 + 2 * $_, 9 + 2 * $_] ] } 0 .. $G - 1;
    my $s = local_function_begin($name);
    $s .= join '', map { "\trev32\t$_.16b,$_.16b\n" } map { @$_ } @grp;
    $s .= "${name}_nat:\n\tmov\tx9,$ks\n";
    for my $g (0 .. $G - 1) {
        $s .= transpose4($grp[$g], $grp[$g], [ @v[8 .. 11] ]);
    }
    my @X = map { [ @$_ ] } @grp;
    for my $i (0 .. 31) {
        $s .= "\tld1r\t{$RK.4s},[x9],#4\n";
        my @ops = map { [ neon_round($X[$_], @{ $tmp[$_] }) ] } 0 .. $G - 1;
        for my $k (0 .. $#{ $ops[0] }) {
            $s .= "\t$ops[$_][$k]\n" for 0 .. $G - 1;
        }
        push @{ $X[$_] }, shift @{ $X[$_] } for 0 .. $G - 1;
    }
    # X32..X35 sit in the group's registers 0..3; block words are X35..X32
    for my $g (0 .. $G - 1) {
        my @r = @{ $grp[$g] };
        $s .= transpose4([ reverse @r ], \@r, [ @v[8 .. 11] ]);
        $s .= "\trev32\t$_.16b,$_.16b\n" for @r;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

# One block, for the serial modes: the S-box is the only part that needs
# the vector unit, so the state stays in general registers (w5, w15, w16,
# w17) and each round moves one word over and back:
#   t = rk ^ X1 ^ X2 ^ X3          LDR + 3 EOR, X3 (the newest) last
#   s = Sbox(t)                    FMOV, TBL + 3 x (SUB, TBX), FMOV
#   X0 ^= L(s) with a = s ^ ror(s,8), L(s) = a ^ ror(a,14) ^ ror(s,30)
#                                  4 EOR with shifted operands
# 17 instructions a round against 20 for a 4-lane group with one live
# block.  Block in and out in v0 (bytes); the round keys are read through
# x0, which is restored.  Uses x8, x9, v8, v9.
sub neon_one {
    my $name = ".Lsm4_neon_one";
    my @X = qw(w5 w15 w16 w17);
    my $s = local_function_begin($name);
    $s .= "\trev32\tv0.16b,v0.16b\n";
    $s .= "\tmov\t$X[$_],v0.s[$_]\n" for 0 .. 3;
    for my $i (0 .. 31) {
        my ($x0, $x1, $x2, $x3) = @X;
        $s .= <<"EOT";
	ldr	w8,[$ks],#4
	eor	w8,w8,$x1
	eor	w8,w8,$x2
	eor	w8,w8,$x3
	fmov	s8,w8
@{[ join '', map { "\t$_\n" } neon_sbox('v9', 'v8', $C64) ]}	fmov	w8,s9
	eor	w9,w8,w8,ror #8
	eor	w9,w9,w9,ror #14
	eor	w9,w9,w8,ror #30
	eor	$x0,$x0,w9
EOT
        push @X, shift @X;
    }
    # X32..X35 in the registers of X0..X3; the block is X35..X32
    $s .= "\tfmov\ts0,$X[3]\n\tmov\tv0.s[1],$X[2]\n\tmov\tv0.s[2],$X[1]\n"
        . "\tmov\tv0.s[3],$X[0]\n\trev32\tv0.16b,v0.16b\n";
    $s .= "\tsub\t$ks,$ks,#128\n\tret\n" . local_function_end($name);
    return $s;
}

$code .= neon_core(2) . neon_core(1) . neon_one();

$tier{neon} = {
    name => 'neon',
    setup => sub {
        # .Lsm4_rol8 follows the S-box: $t0 points at it
        my $s = neon_sbox_load();
        $s .= "\tldr\t" . qreg($ROL8) . ",[$t0]\n";
        $s .= "\tmovi\t$C64.16b,#64\n";
        return $s;
    },
    teardown => sub { return frame_leave($FRAME_D, $FRAME_BUF); },
    frame => 1,
    cipher => sub {
        my ($W, $nat) = @_;
        return "\tbl\t.Lsm4_neon_one\n" if $W == 1 && !$nat;
        my $core = $W > 4 ? ".Lsm4_neon_core2" : ".Lsm4_neon_core1";
        return "\tbl\t$core" . ($nat ? "_nat" : "") . "\n";
    },
    scratch => [ @v[8 .. 11] ],
    keep => $v[15],
    widths => [ 8 ],
    bounce => 1,
};

###########################################################################
# Mode passes: W blocks from [in] to [out], both pointers advanced.

sub ld_blocks {      # W blocks into registers @r (consecutive), post-increment
    my ($ptr, @r) = @_;
    my $s = "";
    while (@r) {
        my @g = splice(@r, 0, 4);
        my $list = @g == 1 ? "{$g[0].16b}" : "{$g[0].16b-$g[-1].16b}";
        $s .= "\tld1\t$list,[$ptr],#" . (16 * @g) . "\n";
    }
    return $s;
}
sub st_blocks {
    my ($ptr, @r) = @_;
    my $s = ld_blocks($ptr, @r);
    $s =~ s/\bld1\b/st1/g;
    return $s;
}

# XOR block registers @r with the blocks at [base + off], pairs through
# the scratch registers.
sub xor_mem {
    my ($t, $base, $off, @r) = @_;
    my @scr = @{ $t->{scratch} };
    my $s = "";
    my $k = 0;
    while (@r) {
        my @g = splice(@r, 0, 2);
        my ($a, $b) = @scr[$k % @scr, ($k + 1) % @scr];
        $k += 2;
        if (@g == 2) {
            $s .= "\tldp\t" . qreg($a) . "," . qreg($b) . ",[$base,#$off]\n";
            $s .= "\teor\t$g[0].16b,$g[0].16b,$a.16b\n\teor\t$g[1].16b,$g[1].16b,$b.16b\n";
        } else {
            $s .= "\tldur\t" . qreg($a) . ",[$base,#$off]\n";
            $s .= "\teor\t$g[0].16b,$g[0].16b,$a.16b\n";
        }
        $off += 32;
    }
    return $s;
}

sub pass {
    my ($t, $mode, $W) = @_;
    my @b = @v[0 .. $W - 1];
    my $iv = $t->{keep};
    my $s = "";
    if ($mode eq 'ecb') {
        $s .= ld_blocks($inp, @b) . $t->{cipher}->($W, 0) . st_blocks($out, @b);
    } elsif ($mode eq 'cbc_dec') {
        # out_j = D(c_j) ^ c_(j-1): the ciphertexts are read again after
        # the cipher, before any store (in place they are still intact)
        $s .= ld_blocks($inp, @b) . $t->{cipher}->($W, 0);
        $s .= "\teor\t$b[0].16b,$b[0].16b,$iv.16b\n";
        $s .= xor_mem($t, $inp, -16 * $W, @b[1 .. $W - 1]);
        $s .= "\tldur\t" . qreg($iv) . ",[$inp,#-16]\n";
        $s .= st_blocks($out, @b);
    } elsif ($mode eq 'cfb_dec') {
        # out_j = E(c_(j-1)) ^ c_j with c_(-1) the IV
        $s .= "\tmov\t$b[0].16b,$iv.16b\n";
        $s .= ld_blocks($inp, @b[1 .. $W - 1]) if $W > 1;
        $s .= "\tldr\t" . qreg($iv) . ",[$inp],#16\n";
        $s .= $t->{cipher}->($W, 0);
        $s .= xor_mem($t, $inp, -16 * $W, @b[0 .. $W - 2]) if $W > 1;
        $s .= "\teor\t$b[-1].16b,$b[-1].16b,$iv.16b\n";
        $s .= st_blocks($out, @b);
    } elsif ($mode eq 'ctr') {
        # Native words of block j: d[0] = ror(hi, 32), d[1] = ror(lo, 32),
        # each block built from the 128-bit counter in x6:x7.  No shortcut
        # for passes where the low word cannot wrap: whether it can is a
        # branch on the counter (util/ct-asm-check-arm64.pl flags it).
        $s .= join '', map { <<"EOT" } @b;
	ror	$t0,$hi,#32
	ror	$t1,$lo,#32
	fmov	@{[ dreg($_) ]},$t0
	mov	$_.d[1],$t1
	adds	$lo,$lo,#1
	adc	$hi,$hi,xzr
EOT
        $s .= $t->{cipher}->($W, 1);
        $s .= xor_mem($t, $inp, 0, @b);
        $s .= "\tadd\t$inp,$inp,#" . (16 * $W) . "\n";
        $s .= st_blocks($out, @b);
    } elsif ($mode eq 'cbc_enc') {
        # the chaining block lives in v0 (in and out of the cipher)
        my $p = $t->{scratch}[0];
        $s .= "\tld1\t{$p.16b},[$inp],#16\n\teor\t$b[0].16b,$b[0].16b,$p.16b\n";
        $s .= $t->{cipher}->(1, 0) . st_blocks($out, $b[0]);
    } elsif ($mode eq 'cfb_enc') {
        my $p = $t->{scratch}[0];
        $s .= $t->{cipher}->(1, 0);
        $s .= "\tld1\t{$p.16b},[$inp],#16\n\teor\t$b[0].16b,$b[0].16b,$p.16b\n";
        $s .= st_blocks($out, $b[0]);
    } elsif ($mode eq 'ofb') {
        my $p = $t->{scratch}[0];
        $s .= $t->{cipher}->(1, 0);
        $s .= "\tld1\t{$p.16b},[$inp],#16\n\teor\t$p.16b,$p.16b,$b[0].16b\n";
        $s .= "\tst1\t{$p.16b},[$out],#16\n";
    } else {
        die "unknown mode $mode\n";
    }
    return $s;
}

# Chaining state in and out of the registers.
sub mode_init {
    my ($t, $mode) = @_;
    my $iv = $t->{keep};
    return "\tld1\t{$iv.16b},[$ivp]\n" if $mode =~ /^(cbc_dec|cfb_dec)$/;
    return "\tld1\t{$v[0].16b},[$ivp]\n" if $mode =~ /^(cbc_enc|cfb_enc|ofb)$/;
    return "\tldp\t$hi,$lo,[$ivp]\n\trev\t$hi,$hi\n\trev\t$lo,$lo\n" if $mode eq 'ctr';
    return "";
}
sub mode_fini {
    my ($t, $mode) = @_;
    my $iv = $t->{keep};
    return "\tst1\t{$iv.16b},[$ivp]\n" if $mode =~ /^(cbc_dec|cfb_dec)$/;
    return "\tst1\t{$v[0].16b},[$ivp]\n" if $mode =~ /^(cbc_enc|cfb_enc|ofb)$/;
    return "\trev\t$hi,$hi\n\trev\t$lo,$lo\n\tstp\t$hi,$lo,[$ivp]\n" if $mode eq 'ctr';
    return "";
}

# The last 1..7 blocks through one pass of width W on a stack copy, then
# the chaining state corrected for the blocks that were really there.
sub bounce {
    my ($t, $mode, $W) = @_;
    my $c = $t->{scratch}[0];
    my ($cp1, $cp2) = (L('copy_in'), L('copy_out'));
    my $s = <<"EOT";
	mov	$saved_in,$inp
	mov	$saved_out,$out
	add	$buf,sp,#$BUF_OFF
	mov	$t0,$n
$cp1:
	ldr	@{[ qreg($c) ]},[$inp],#16
	str	@{[ qreg($c) ]},[$buf],#16
	subs	$t0,$t0,#1
	b.ne	$cp1
	add	$inp,sp,#$BUF_OFF
	mov	$out,$inp
EOT
    $s .= pass($t, $mode, $W);
    if ($mode =~ /^(cbc_dec|cfb_dec)$/) {
        # the last real ciphertext block, read before out may overwrite it
        $s .= "\tadd\t$t0,$saved_in,$n,lsl #4\n\tldur\t" . qreg($t->{keep}) . ",[$t0,#-16]\n";
    } elsif ($mode eq 'ctr') {
        $s .= "\tmov\t$t0,#$W\n\tsub\t$t0,$t0,$n\n\tsubs\t$lo,$lo,$t0\n\tsbc\t$hi,$hi,xzr\n";
    }
    $s .= <<"EOT";
	add	$buf,sp,#$BUF_OFF
$cp2:
	ldr	@{[ qreg($c) ]},[$buf],#16
	str	@{[ qreg($c) ]},[$saved_out],#16
	subs	$n,$n,#1
	b.ne	$cp2
EOT
    # the copy held the caller's data: no plaintext is left on the stack
    $s .= "\tmovi\t$c.2d,#0\n";
    $s .= "\tstp\t" . qreg($c) . "," . qreg($c) . ",[sp,#" . ($BUF_OFF + 32 * $_) . "]\n"
        for 0 .. $FRAME_BUF / 32 - 1;
    return $s;
}

sub entry {
    my ($t, $mode) = @_;
    my $fn = "sm4_$t->{name}_$mode";
    my $done = L('done');
    my $s = function_begin($fn);
    # nothing to do: return before any frame exists
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_D, $FRAME_BUF) if $t->{frame};
    $s .= $t->{setup}->() . mode_init($t, $mode);
    if ($mode =~ /^(cbc_enc|cfb_enc|ofb)$/) {
        my $loop = L('loop');
        $s .= "$loop:\n" . pass($t, $mode, 1) . "\tsubs\t$n,$n,#1\n\tb.ne\t$loop\n";
    } else {
        my @w = @{ $t->{widths} };
        my $W = shift @w;
        my ($loop, $tail) = (L('loop'), L('tail'));
        $s .= "\tcmp\t$n,#$W\n\tb.lo\t$tail\n$loop:\n" . pass($t, $mode, $W);
        $s .= "\tsub\t$n,$n,#$W\n\tcmp\t$n,#$W\n\tb.hs\t$loop\n$tail:\n";
        for my $w (@w) {
            if ($w == 1) {
                my $l1 = L('loop1');
                $s .= "\tcbz\t$n,$done\n$l1:\n" . pass($t, $mode, 1)
                    . "\tsubs\t$n,$n,#1\n\tb.ne\t$l1\n";
            } else {
                my $skip = L('skip');
                $s .= "\tcmp\t$n,#$w\n\tb.lo\t$skip\n" . pass($t, $mode, $w)
                    . "\tsub\t$n,$n,#$w\n$skip:\n";
            }
        }
        if ($t->{bounce}) {
            my $b8 = L('bounce8');
            $s .= "\tcbz\t$n,$done\n\tcmp\t$n,#4\n\tb.hi\t$b8\n"
                . bounce($t, $mode, 4) . "\tb\t$done\n$b8:\n" . bounce($t, $mode, 8);
        }
    }
    $s .= "$done:\n" . mode_fini($t, $mode) . $t->{teardown}->();
    $s .= function_end($fn);
    return $s;
}

for my $t (@tier{qw(sm4e neon)}) {
    $code .= entry($t, $_) for qw(ecb ctr cbc_dec cfb_dec cbc_enc cfb_enc ofb);
}

###########################################################################
# SM4's authenticated and disk modes (src/kernel.h: SMG_GCM_KERNEL,
# SMG_CCM_KERNEL, SMG_XTS_KERNEL).

my $FRAME_V = [ map { "d$_" } 8 .. 15 ];   # v8-v15 hold blocks: save d8-d15

# ---- GCM: 32-bit counter CTR fused with PMULL GHASH -----------------------
# Eight counter blocks through SM4E, XORed with the data, then the eight
# ciphertext blocks folded into Xi with one reduction
# (util/perlasm/armv8_ghash.pm).  The counter block is kept as SM4E
# takes its input, native 32-bit words, so the GCM counter (the last word,
# big-endian, mod 2^32) steps by a 4-lane add of (0,0,0,1), wrapping as
# GCM wants with no carry check.  Registers: v0-v7 counter blocks, v8-v15
# the data, v16-v23 round keys, v24 counter, v25 (0,0,0,1), v26 Xi,
# v27-v29 the product, v30 the byte reversal, v31 the reduction constant.
# On encryption GHASH reads the blocks just computed (v0-v7) and uses
# v8-v15 for the table; on decryption the reverse.
sub gcm_sm4e {
    my ($dir) = @_;
    my $t = $tier{sm4e};
    my $fn = "sm4_sm4e_gcm_$dir";
    my ($tab, $ctrp, $xip, $back) = ("x9", "x4", "x5", "x8");
    my ($ctr, $one, $Xi, $lo, $mid, $hi, $K) = @v[24 .. 29, 31];
    my @b = @v[0 .. 7];
    my @d = @v[8 .. 15];
    my ($c, $f) = $dir eq 'enc' ? (\@b, \@d) : (\@d, \@b);
    my ($loop, $tail, $l1, $done) = map { ".Lsm4_gcm_${dir}_$_" } qw(loop tail one done);
    my $s = function_begin($fn);
    # (ks, htable, in, out, n, ctr, xi) to the block entries' registers
    $s .= "\tmov\t$tab,x1\n\tmov\t$inp,x2\n\tmov\t$out,x3\n\tmov\t$n,x4\n"
        . "\tmov\t$ctrp,x5\n\tmov\t$xip,x6\n";
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_V, 0) . $t->{setup}->();
    $s .= <<"EOT";
	ldr	@{[ qreg($K) ]},[$tab,#@{[ GHASH_K ]}]
	ld1	{$ctr.16b},[$ctrp]
	rev32	$ctr.16b,$ctr.16b
	movi	$one.2d,#0
	mov	@{[ wreg($t0) ]},#1
	mov	$one.s[3],@{[ wreg($t0) ]}
	ld1	{$Xi.16b},[$xip]
@{[ ghash_reverse($REV, $Xi) ]}	mov	$back,#-160
	cmp	$n,#8
	b.lo	$tail
$loop:
	mov	$b[0].16b,$ctr.16b
EOT
    $s .= "\tadd\t$b[$_].4s,$b[$_ - 1].4s,$one.4s\n" for 1 .. 7;
    $s .= "\tadd\t$ctr.4s,$b[7].4s,$one.4s\n";
    $s .= $t->{cipher}->(8, 1) . ld_blocks($inp, @d);
    $s .= "\teor\t$b[$_].16b,$b[$_].16b,$d[$_].16b\n" for 0 .. 7;
    $s .= st_blocks($out, @b);
    $s .= ghash_blocks8($c, $f, [ $lo, $mid, $hi ], $Xi, $K, $REV, $tab, $back);
    $s .= <<"EOT";
	sub	$n,$n,#8
	cmp	$n,#8
	b.hs	$loop
$tail:
	cbz	$n,$done
	ldr	@{[ qreg($v[13]) ]},[$tab,#@{[ GHASH_H1 ]}]
	ldr	@{[ qreg($v[14]) ]},[$tab,#@{[ GHASH_M21 ]}]
$l1:
	mov	$b[0].16b,$ctr.16b
	add	$ctr.4s,$ctr.4s,$one.4s
@{[ $t->{cipher}->(1, 1) ]}	ld1	{$d[0].16b},[$inp],#16
	eor	$b[0].16b,$b[0].16b,$d[0].16b
	st1	{$b[0].16b},[$out],#16
@{[ ghash_reverse($REV, $c->[0]) ]}	eor	$c->[0].16b,$c->[0].16b,$Xi.16b
@{[ ghash_mul1($c->[0], $v[13], $v[14], 1, $K, $lo, $mid, $hi, $v[15], $Xi) ]}	subs	$n,$n,#1
	b.ne	$l1
$done:
	rev32	$ctr.16b,$ctr.16b
	st1	{$ctr.16b},[$ctrp]
@{[ ghash_reverse($REV, $Xi) ]}	st1	{$Xi.16b},[$xip]
EOT
    $s .= frame_leave($FRAME_V, 0) . function_end($fn);
    return $s;
}

# ---- XTS: tweaks in vector registers over the parallel core --------------
# T times x, five instructions with the constant in $C (and $ONE):
#   IEEE 1619: T a little-endian 128-bit integer, T << 1, 0x87 into the low
#     byte if bit 127 fell out: the lanes' top bits, swapped, masked by
#     (0x87, 1) (the carry between the halves and the reduction).
#   GB/T 17964-2021 as OpenSSL 3.5's xts128gb computes it: T a big-endian
#     integer, T >> 1, 0xe1 into the top byte (byte 0) if bit 0 fell out:
#     every byte shifted right, the bytes' low bits rotated one byte up,
#     masked by (0xe1, 0x80, ..., 0x80).
sub xts_double {
    my ($std, $dst, $src, $C, $ONE, $tmp) = @_;
    return <<"EOT" if $std eq 'ieee';
	sshr	$tmp.2d,$src.2d,#63
	add	$dst.2d,$src.2d,$src.2d
	ext	$tmp.16b,$tmp.16b,$tmp.16b,#8
	and	$tmp.16b,$tmp.16b,$C.16b
	eor	$dst.16b,$dst.16b,$tmp.16b
EOT
    return <<"EOT";
	cmtst	$tmp.16b,$src.16b,$ONE.16b
	ushr	$dst.16b,$src.16b,#1
	ext	$tmp.16b,$tmp.16b,$tmp.16b,#15
	and	$tmp.16b,$tmp.16b,$C.16b
	eor	$dst.16b,$dst.16b,$tmp.16b
EOT
}
sub xts_constants {
    my ($std, $C, $ONE) = @_;
    return "\tmov\t$t0,#0x87\n\tfmov\t" . dreg($C) . ",$t0\n\tmov\t$t0,#1\n\tmov\t$C.d[1],$t0\n"
        if $std eq 'ieee';
    return "\tmovi\t$C.16b,#0x80\n\tmov\t" . wreg($t0) . ",#0xe1\n\tmov\t$C.b[0],"
        . wreg($t0) . "\n\tmovi\t$ONE.16b,#1\n";
}

# One entry serves both directions (the schedule given decides).  v0-v7
# blocks, v8-v15 their tweaks, v16-v23 round keys, v24-v26 the doubling.
sub xts_sm4e {
    my ($std) = @_;
    my $t = $tier{sm4e};
    my $fn = "sm4_sm4e_xts_$std";
    my ($C, $ONE, $tmp) = @v[24 .. 26];
    my @b = @v[0 .. 7];
    my @T = @v[8 .. 15];
    my ($loop, $tail, $l1, $done) = map { ".Lsm4_xts_${std}_$_" } qw(loop tail one done);
    my $s = function_begin($fn);
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_V, 0) . $t->{setup}->() . xts_constants($std, $C, $ONE);
    $s .= "\tld1\t{$T[0].16b},[$ivp]\n\tcmp\t$n,#8\n\tb.lo\t$tail\n$loop:\n";
    $s .= xts_double($std, $T[$_], $T[$_ - 1], $C, $ONE, $tmp) for 1 .. 7;
    $s .= ld_blocks($inp, @b);
    $s .= "\teor\t$b[$_].16b,$b[$_].16b,$T[$_].16b\n" for 0 .. 7;
    $s .= $t->{cipher}->(8, 0);
    $s .= "\teor\t$b[$_].16b,$b[$_].16b,$T[$_].16b\n" for 0 .. 7;
    $s .= st_blocks($out, @b) . xts_double($std, $T[0], $T[7], $C, $ONE, $tmp);
    $s .= "\tsub\t$n,$n,#8\n\tcmp\t$n,#8\n\tb.hs\t$loop\n$tail:\n\tcbz\t$n,$done\n$l1:\n";
    $s .= "\tld1\t{$b[0].16b},[$inp],#16\n\teor\t$b[0].16b,$b[0].16b,$T[0].16b\n";
    $s .= $t->{cipher}->(1, 0);
    $s .= "\teor\t$b[0].16b,$b[0].16b,$T[0].16b\n\tst1\t{$b[0].16b},[$out],#16\n";
    $s .= xts_double($std, $T[0], $T[0], $C, $ONE, $tmp);
    $s .= "\tsubs\t$n,$n,#1\n\tb.ne\t$l1\n$done:\n\tst1\t{$T[0].16b},[$ivp]\n";
    $s .= frame_leave($FRAME_V, 0) . function_end($fn);
    return $s;
}

# ---- CCM: CBC-MAC with the CTR blocks interleaved -------------------------
# The CBC-MAC is one serial chain of SM4E; each of its blocks runs beside
# one CTR block (two independent chains of 8 SM4E), so CCM costs about one
# serial SM4 stream.  The MAC's input is pending (src/kernel.h), so both
# directions run the same pass: E(input) beside E(counter), then the
# plaintext (in, or the block just decrypted) into the next input, kept as
# native words (the next SM4E input).  CCM's counter is the first 8 bytes'
# native words in v25 and the last 8 bytes as a 64-bit integer in x6.  v0
# counter block, v1 MAC input, v8 data, v24 MAC, v29 the lane reversal.
sub ccm_sm4e {
    my ($dir) = @_;
    my $t = $tier{sm4e};
    my $fn = "sm4_sm4e_ccm_$dir";
    my ($macp, $c64, $tmp) = ("x5", "x6", "x7");
    my ($ks_, $mb, $dat, $mac, $tpl, $WREV) = @v[0, 1, 8, 24, 25, 29];
    my ($loop, $done) = map { ".Lsm4_ccm_${dir}_$_" } qw(loop done);
    my $plain = $dir eq 'enc' ? $dat : $ks_;
    my $sm4e = sub { join '', map { my $k = $_; map { "\tsm4e\t$_.4s,$rk[$k].4s\n" } @_ } 0 .. 7 };
    my $s = function_begin($fn);
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_V, 0) . $t->{setup}->();
    $s .= adr_label($t0, ".Lsm4_wrev") . "\tldr\t" . qreg($WREV) . ",[$t0]\n";
    $s .= <<"EOT";
	ld1	{$mb.16b},[$macp]
	rev32	$mb.16b,$mb.16b
	ld1	{$tpl.16b},[$ivp]
	rev32	$tpl.16b,$tpl.16b
	ldr	$c64,[$ivp,#8]
	rev	$c64,$c64
$loop:
	mov	$ks_.16b,$tpl.16b
	ror	$tmp,$c64,#32
	mov	$ks_.d[1],$tmp
	add	$c64,$c64,#1
EOT
    $s .= $sm4e->($ks_, $mb);
    $s .= <<"EOT";
	tbl	$ks_.16b,{$ks_.16b},$REV.16b
	tbl	$mac.16b,{$mb.16b},$WREV.16b
	ld1	{$dat.16b},[$inp],#16
	eor	$ks_.16b,$ks_.16b,$dat.16b
	st1	{$ks_.16b},[$out],#16
	rev32	$mb.16b,$plain.16b
	eor	$mb.16b,$mb.16b,$mac.16b
	subs	$n,$n,#1
	b.ne	$loop
	rev32	$mb.16b,$mb.16b
	st1	{$mb.16b},[$macp]
	rev	$c64,$c64
	str	$c64,[$ivp,#8]
EOT
    $s .= frame_leave($FRAME_V, 0) . function_end($fn);
    return $s;
}

# ---- the same modes over the NEON core ------------------------------------
# The core (neon_core above) keeps only v15 across a call and needs the
# S-box in v16-v31, so the modes keep their state in v15, in general
# registers or in the frame's scratch, re-make their constants after each
# call, and GCM loads the S-box again after each GHASH pass.  The core's
# 1,400-odd instructions a block dwarf all of that.

# GCM: ctr in v15, Xi in the scratch's first block between passes.
sub gcm_neon {
    my ($dir) = @_;
    my $t = $tier{neon};
    my $fn = "sm4_neon_gcm_$dir";
    my ($tab, $back, $ctrp, $xip) = ("x12", "x13", "x4", "x5");
    my $ctr = $v[15];
    my ($lo, $mid, $hi, $Xi, $K, $R) = @v[24 .. 29];
    my @b = @v[0 .. 7];
    my @d = @v[16 .. 23];
    my ($c, $f) = $dir eq 'enc' ? (\@b, \@d) : (\@d, \@b);
    my ($loop, $tail, $l1, $done) = map { ".Lsm4_neon_gcm_${dir}_$_" } qw(loop tail one done);
    my $one = sub {
        my ($r) = @_;
        return "\tmovi\t$r.2d,#0\n\tmov\t" . wreg($t0) . ",#1\n\tmov\t$r.s[3]," . wreg($t0) . "\n";
    };
    my $rev = sub { return adr_label($t0, ".Lsm4_rev128") . "\tldr\t" . qreg($_[0]) . ",[$t0]\n"; };
    my $xi_at = "[sp,#$BUF_OFF]";
    my $s = function_begin($fn);
    $s .= "\tmov\t$tab,x1\n\tmov\t$inp,x2\n\tmov\t$out,x3\n\tmov\t$n,x4\n"
        . "\tmov\t$ctrp,x5\n\tmov\t$xip,x6\n";
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_D, $FRAME_BUF);
    $s .= "\tld1\t{$ctr.16b},[$ctrp]\n\trev32\t$ctr.16b,$ctr.16b\n";
    $s .= $rev->($R) . "\tld1\t{$Xi.16b},[$xip]\n" . ghash_reverse($R, $Xi);
    $s .= "\tstr\t" . qreg($Xi) . ",$xi_at\n\tmov\t$back,#-160\n";
    $s .= "\tcmp\t$n,#8\n\tb.lo\t$tail\n$loop:\n" . $t->{setup}->() . $one->($v[8]);
    $s .= "\tmov\t$b[0].16b,$ctr.16b\n";
    $s .= "\tadd\t$b[$_].4s,$b[$_ - 1].4s,$v[8].4s\n" for 1 .. 7;
    $s .= "\tadd\t$ctr.4s,$b[7].4s,$v[8].4s\n\tbl\t.Lsm4_neon_core2_nat\n" . ld_blocks($inp, @d);
    $s .= "\teor\t$b[$_].16b,$b[$_].16b,$d[$_].16b\n" for 0 .. 7;
    $s .= st_blocks($out, @b) . $rev->($R) . "\tldr\t" . qreg($K) . ",[$tab,#" . GHASH_K . "]\n";
    $s .= "\tldr\t" . qreg($Xi) . ",$xi_at\n";
    $s .= ghash_blocks8($c, $f, [ $lo, $mid, $hi ], $Xi, $K, $R, $tab, $back);
    $s .= "\tstr\t" . qreg($Xi) . ",$xi_at\n";
    $s .= "\tsub\t$n,$n,#8\n\tcmp\t$n,#8\n\tb.hs\t$loop\n$tail:\n\tcbz\t$n,$done\n";
    # single blocks through the 4-block core; v4-v10 for GHASH
    my ($dat, $h1, $m21, $k, $r, $l, $m, $h, $tt, $x) = @v[1, 2 .. 10];
    my $cc = $dir eq 'enc' ? $v[0] : $dat;
    $s .= $t->{setup}->();
    $s .= "$l1:\n" . $one->($v[8]) . "\tmov\t$v[0].16b,$ctr.16b\n\tadd\t$ctr.4s,$ctr.4s,$v[8].4s\n";
    $s .= "\tbl\t.Lsm4_neon_core1_nat\n\tld1\t{$dat.16b},[$inp],#16\n";
    $s .= "\teor\t$v[0].16b,$v[0].16b,$dat.16b\n\tst1\t{$v[0].16b},[$out],#16\n";
    $s .= "\tldr\t" . qreg($h1) . ",[$tab,#" . GHASH_H1 . "]\n\tldr\t" . qreg($m21) . ",[$tab,#" . GHASH_M21 . "]\n";
    $s .= "\tldr\t" . qreg($k) . ",[$tab,#" . GHASH_K . "]\n" . $rev->($r) . "\tldr\t" . qreg($x) . ",$xi_at\n";
    $s .= ghash_reverse($r, $cc) . "\teor\t$cc.16b,$cc.16b,$x.16b\n";
    $s .= ghash_mul1($cc, $h1, $m21, 1, $k, $l, $m, $h, $tt, $x);
    $s .= "\tstr\t" . qreg($x) . ",$xi_at\n\tsubs\t$n,$n,#1\n\tb.ne\t$l1\n";
    $s .= "$done:\n\trev32\t$ctr.16b,$ctr.16b\n\tst1\t{$ctr.16b},[$ctrp]\n";
    $s .= $rev->($R) . "\tldr\t" . qreg($Xi) . ",$xi_at\n" . ghash_reverse($R, $Xi);
    $s .= "\tst1\t{$Xi.16b},[$xip]\n\tmovi\t$Xi.2d,#0\n\tstr\t" . qreg($Xi) . ",$xi_at\n";
    $s .= frame_leave($FRAME_D, $FRAME_BUF) . function_end($fn);
    return $s;
}

# XTS: T in v15; a pass's eight tweaks in the scratch, cleared at the end.
sub xts_neon {
    my ($std) = @_;
    my $t = $tier{neon};
    my $fn = "sm4_neon_xts_$std";
    my $T = $v[15];
    my ($C, $ONE, $tmp) = @v[8 .. 10];
    my @b = @v[0 .. 7];
    my ($loop, $tail, $l1, $done) = map { ".Lsm4_neon_xts_${std}_$_" } qw(loop tail one done);
    my $tw = sub { my ($j) = @_; return "[sp,#" . ($BUF_OFF + 16 * $j) . "]"; };
    my $xor_tweaks = "";
    for my $j (0, 2, 4, 6) {
        $xor_tweaks .= "\tldp\t" . qreg($v[8]) . "," . qreg($v[9]) . "," . $tw->($j) . "\n"
            . "\teor\t$b[$j].16b,$b[$j].16b,$v[8].16b\n"
            . "\teor\t$b[$j + 1].16b,$b[$j + 1].16b,$v[9].16b\n";
    }
    my $s = function_begin($fn);
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_D, $FRAME_BUF) . $t->{setup}->();
    $s .= "\tld1\t{$T.16b},[$ivp]\n\tcmp\t$n,#8\n\tb.lo\t$tail\n$loop:\n";
    $s .= xts_constants($std, $C, $ONE);
    for my $j (0 .. 7) {
        $s .= "\tstr\t" . qreg($T) . "," . $tw->($j) . "\n" . xts_double($std, $T, $T, $C, $ONE, $tmp);
    }
    $s .= ld_blocks($inp, @b) . $xor_tweaks . "\tbl\t.Lsm4_neon_core2\n" . $xor_tweaks;
    $s .= st_blocks($out, @b);
    $s .= "\tsub\t$n,$n,#8\n\tcmp\t$n,#8\n\tb.hs\t$loop\n$tail:\n\tcbz\t$n,$done\n$l1:\n";
    $s .= "\tld1\t{$b[0].16b},[$inp],#16\n\teor\t$b[0].16b,$b[0].16b,$T.16b\n";
    $s .= "\tbl\t.Lsm4_neon_one\n";
    $s .= "\teor\t$b[0].16b,$b[0].16b,$T.16b\n\tst1\t{$b[0].16b},[$out],#16\n";
    $s .= xts_constants($std, $C, $ONE) . xts_double($std, $T, $T, $C, $ONE, $tmp);
    $s .= "\tsubs\t$n,$n,#1\n\tb.ne\t$l1\n$done:\n\tst1\t{$T.16b},[$ivp]\n";
    $s .= "\tmovi\t$tmp.2d,#0\n";
    $s .= "\tstp\t" . qreg($tmp) . "," . qreg($tmp) . ",[sp,#" . ($BUF_OFF + 32 * $_) . "]\n"
        for 0 .. $FRAME_BUF / 32 - 1;
    $s .= frame_leave($FRAME_D, $FRAME_BUF) . function_end($fn);
    return $s;
}

# CCM: the MAC's pending input (native words) in v15, as ccm_sm4e has it,
# the data in v4 (the 4-block core leaves v4-v7 alone), the counter's first
# 8 bytes as native words in x11 and its last 8 as an integer in x6.  The
# CTR and the MAC block are two lanes of one 4-block core call.
sub ccm_neon {
    my ($dir) = @_;
    my $t = $tier{neon};
    my $fn = "sm4_neon_ccm_$dir";
    my ($macp, $c64, $tmp, $tpl) = ("x5", "x6", "x7", "x11");
    my ($ks_, $mb, $dat, $mac) = @v[0, 1, 4, 15];
    my ($loop, $done) = map { ".Lsm4_neon_ccm_${dir}_$_" } qw(loop done);
    my $plain = $dir eq 'enc' ? $dat : $ks_;
    my $s = function_begin($fn);
    $s .= "\tcbnz\t$n,${done}_go\n\tret\n${done}_go:\n";
    $s .= frame_enter($FRAME_D, $FRAME_BUF) . $t->{setup}->();
    $s .= <<"EOT";
	ld1	{$mac.16b},[$macp]
	rev32	$mac.16b,$mac.16b
	ld1	{$ks_.16b},[$ivp]
	rev32	$ks_.16b,$ks_.16b
	fmov	$tpl,@{[ dreg($ks_) ]}
	ldr	$c64,[$ivp,#8]
	rev	$c64,$c64
$loop:
	mov	$mb.16b,$mac.16b
	fmov	@{[ dreg($ks_) ]},$tpl
	ror	$tmp,$c64,#32
	mov	$ks_.d[1],$tmp
	add	$c64,$c64,#1
	bl	.Lsm4_neon_core1_nat
	rev32	$mb.16b,$mb.16b
	ld1	{$dat.16b},[$inp],#16
	eor	$ks_.16b,$ks_.16b,$dat.16b
	st1	{$ks_.16b},[$out],#16
	rev32	$mac.16b,$plain.16b
	eor	$mac.16b,$mac.16b,$mb.16b
	subs	$n,$n,#1
	b.ne	$loop
	rev32	$mac.16b,$mac.16b
	st1	{$mac.16b},[$macp]
	rev	$c64,$c64
	str	$c64,[$ivp,#8]
EOT
    $s .= frame_leave($FRAME_D, $FRAME_BUF) . function_end($fn);
    return $s;
}

$code .= gcm_neon($_) . ccm_neon($_) for qw(enc dec);
$code .= xts_neon($_) for qw(ieee gb);

$code .= gcm_sm4e($_) for qw(enc dec);
$code .= ccm_sm4e($_) for qw(enc dec);
$code .= xts_sm4e($_) for qw(ieee gb);

###########################################################################
# Key schedules (GB/T 32907-2016, 7.3), for the tables of their tier, so
# that no SM4 path looks a table up by key bytes where either tier runs
# (src/sm4.c keeps the C schedule for the C kernel):
#   void sm4_sm4e_set_key(const unsigned char key[16], uint32_t rk[32])
#   void sm4_neon_set_key(const unsigned char key[16], uint32_t rk[32])
# The key words are big-endian in memory and native in the schedule, which
# is the encryption one (src/sm4.c reverses it for decryption).
{
    my @ck;
    for my $i (0 .. 31) {
        push @ck, sprintf("0x%02x%02x%02x%02x", map { ((4 * $i + $_) * 7) & 0xff } 0 .. 3);
    }
    $code .= rodata_begin() . ".p2align\t4\n.Lsm4_ks_fk:\n"
        . "\t.word\t0xa3b1bac6,0x56aa3350,0x677d9197,0xb27022dc\n"
        . ".Lsm4_ks_ck:\n\t.word\t" . join(',', @ck) . "\n.text\n";

    # sm4e: SM4EKEY, four round keys an instruction.
    my $fn = "sm4_sm4e_set_key";
    my $s = function_begin($fn);
    $s .= <<"EOT";
	ld1	{v0.16b},[x0]
	rev32	v0.16b,v0.16b
	adrp	x2,.Lsm4_ks_fk
	add	x2,x2,:lo12:.Lsm4_ks_fk
	ld1	{v1.4s},[x2],#16
	eor	v0.16b,v0.16b,v1.16b
	ld1	{v16.4s-v19.4s},[x2],#64
	ld1	{v20.4s-v23.4s},[x2]
EOT
    for my $r (0 .. 7) {
        $s .= "\tsm4ekey\tv0.4s,v0.4s,v" . (16 + $r) . ".4s\n\tst1\t{v0.4s},[x1],#16\n";
    }
    # the key leaves no copy in the registers
    $s .= "\teor\tv0.16b,v0.16b,v0.16b\n\teor\tv1.16b,v1.16b,v1.16b\n\tret\n";
    $code .= $s . function_end($fn);

    # neon: round i is K_{i+4} = K_i ^ T'(K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i)
    # = rk_i, with T'(B) = L'(Sbox(B)), L'(B) = B ^ rol(B,13) ^ rol(B,23):
    # the K_j rotate through w4-w7 (unrolled by four), the word goes to
    # lane 0 of v0 for the S-box sequence of the rounds (neon_sbox, the
    # table in v16-v31, 64 in v2) and back.  The schedule is serial, so one
    # lane is all there is to do.  Only caller-saved registers are used:
    # no frame.  The round count is the only branch.
    $fn = "sm4_neon_set_key";
    my @K = qw(w4 w5 w6 w7);
    $s = function_begin($fn) . neon_sbox_load() . "\tmovi\tv2.16b,#64\n";
    $s .= <<"EOT";
	ldp	w4,w5,[x0]
	ldp	w6,w7,[x0,#8]
	rev	w4,w4
	rev	w5,w5
	rev	w6,w6
	rev	w7,w7
	adrp	x2,.Lsm4_ks_fk
	add	x2,x2,:lo12:.Lsm4_ks_fk
	ldp	w8,w9,[x2]
	eor	w4,w4,w8
	eor	w5,w5,w9
	ldp	w8,w9,[x2,#8]
	eor	w6,w6,w8
	eor	w7,w7,w9
	add	x2,x2,#16
	mov	x3,#8
.Lsm4_neon_set_key_loop:
EOT
    for my $r (0 .. 3) {
        my ($k0, $k1, $k2, $k3) = map { $K[($r + $_) % 4] } 0 .. 3;
        $s .= <<"EOT";
	ldr	w8,[x2],#4
	eor	w8,w8,$k1
	eor	w8,w8,$k2
	eor	w8,w8,$k3
	fmov	s0,w8
@{[ join '', map { "\t$_\n" } neon_sbox('v1', 'v0', 'v2') ]}	fmov	w8,s1
	eor	$k0,$k0,w8
	eor	$k0,$k0,w8,ror #19
	eor	$k0,$k0,w8,ror #9
	str	$k0,[x1],#4
EOT
    }
    $s .= "\tsubs\tx3,x3,#1\n\tb.ne\t.Lsm4_neon_set_key_loop\n";
    # the key words and the S-box results leave no copy behind
    $s .= join('', map { "\tmov\tw$_,wzr\n" } 4 .. 9)
        . "\tmovi\tv0.2d,#0\n\tmovi\tv1.2d,#0\n\tret\n";
    $code .= $s . function_end($fn);
}

armv8::finish($code);
