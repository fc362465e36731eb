#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Scalar GOST 28147-89 / Magma kernels for the serial modes on x86-64: CBC
# encryption, CFB encryption, OFB and the IMIT MAC rounds, where one block
# depends on the one before and a round's latency is the speed.  Table
# lookups, not SIMD (so no-gost-simd keeps this file), and NOT constant-time:
# addresses depend on the key and the data (README, "Constant time").  Needs
# BMI1 (BEXTR); src/gost89_x86.c wires the entries.
#
# A round is n2 ^= f(n1 + k), f(x) = T0[x0] ^ T1[x1] ^ T2[x2] ^ T3[x3] over
# GOST89_SBOX_TABLES.t (the S-box pairs of byte j with the rotation by 11
# folded in).  Measured on the development VM (Zen 4 class, core 3.7 GHz,
# TSC 2.6 GHz), load-to-use latency is 4 cycles from [base] but 5 from
# [base + index*4 + disp], and MOVZX (also from %ah), BEXTR and SHR take 1.
# So the straightforward round is ADD 1 + extract 1 + load 5 + a tree of
# three XORs (four lookups and n2) = 10 cycles.  This kernel takes one cycle
# off by looking byte 0 up before the addition: the low byte of n1 + k is
# (n1 & 255) + (k & 255) modulo 256, so T0X, T0 written twice (512 entries,
# GOST89_SBOX_TABLES.t0x), read at &T0X[k & 255] (one pointer per round,
# computed per call on the stack) with index n1 & 255 gives T0[x0] without
# waiting for the ADD.  n2 ^= T0[x0] then lands as the other three lookups
# arrive, and the two XORs left make 9 cycles, the floor for four lookups:
# a second early lookup would need a 16-bit index (512 KiB tables, L2).
# Byte 1 comes from %ah, byte 2 from BEXTR, byte 3 from SHR: BEXTR for
# bytes 1 and 2 measured 5% slower, SHR+MOVZX for byte 2 as slow.
#
# The chaining XORs between blocks stay off the critical path: a block's
# first round reads n1, which the previous block finished in its round 30,
# and the half finished last is only needed at the end of round 0.
#
# Core cycles per round in a microbenchmark of one-block chains (rdtsc,
# best of 60; the variants differ only in the round):
#   plain round (ADD first; best of 24 orders and extractions)   9.91
#   early byte 0, BEXTR for bytes 1 and 2                          9.85
#   early byte 0, %ah for byte 1, BEXTR for byte 2                 9.40
#   the same, best of 504 instruction orders (this file)           9.20
#   the same with every lookup at one address (zero tables, key)   9.04
# So the order of issue matters (the worst orders take 10.9: the ALU
# queues an op lands in), and with random data about 0.2 cycles a round
# go to the lookups themselves (L1 bank conflicts, presumably), over the
# 9-cycle chain.  In the kernels a block costs a few cycles more (9.3 a
# round for CBC, 9.5 for IMIT's 16); moving the XOR of a late chaining
# half to the end of a block's first round, or the round pointers off
# %rsp, measured no gain.
#
# TSC cycles per byte (2.6 GHz TSC, core 3.7 GHz), kernel calls of 16 KiB
# (2048 blocks), best of 200:
#
#   kernel                      CBC-enc   CFB-enc   OFB     IMIT
#   this file                   26.2      26.2      26.2    13.4
#   C kernel (gcc 12 -O3)       30.9      31.0      30.9    15.3
#   AVX-512 lean rounds (CT)    30.8      30.7      30.8    -
#
# Through EVP (`make bench`, 16 KiB calls, MB/s and ratio to gostprov in
# the same run; gostprov 58.8 / 61.3 / 59.6 / 105.3 MB/s):
#
#                       gost89 (CFB-enc)  gost89-cbc enc  magma-cbc enc  gost-mac
#   this file (avx2)    95.1  1.62x       97.5  1.59x     97.4  1.63x    175.7  1.67x
#   C kernel            81.2  1.38x       83.1  1.36x     83.3  1.40x    159.2  1.51x
#   AVX-512 lean (CT)   79.2  1.35x       80.7  1.32x     80.7  1.35x    (IMIT: this file)
#
# At 16-byte calls: gost89 86 MB/s (1.60x), gost89-cbc 89 (1.53x).  Where
# the rest goes at 16 KiB: CBC runs at 98% of the kernel alone; gost89
# (CFB) meshes the key every 1 KiB (about 570 TSC cycles, 2%), gost-mac
# too (340), and its kernel calls stop at each 1 KiB boundary.
#
# The IMIT loop runs 16 rounds a block, the others 32.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;

x86_64::setup(@ARGV);

# Offsets fixed by src/gost89.h; src/gost89_x86.c checks them at compile time.
my $KEY_TAB = 128;      # offsetof(GOST89_KEY, tab)
my $KEY_BE  = 136;      # offsetof(GOST89_KEY, big_endian)
my $TAB_T0X = 4416;     # offsetof(GOST89_SBOX_TABLES, t0x)

# Frame: the per-round T0X pointers at 8r(%rsp), the chaining-value (or
# IMIT state) pointer after them.
my $IVSLOT = 256;
my $FRAME  = 264;

my ($ks, $in, $out, $n) = ("%rdi", "%rsi", "%r8", "%rcx");
my ($N1, $N2) = ("%r9d", "%r10d");
my %low = ("%r9d" => "%r9b", "%r10d" => "%r10b");
my ($TAB, $CTL, $PTR) = ("%r14", "%r12d", "%r15");

my $code = text_begin();

# $dst ^= f($src + rk[$r]).
sub round {
    my ($r, $src, $dst) = @_;
    my $k = 4 * $r;
    my $p = 8 * $r;
    return <<"EOT";
	movzbl	$low{$src},%edx
	mov	$src,%eax
	add	$k($ks),%eax
	mov	$p(%rsp),$PTR
	movzbl	%ah,%ebp
	bextr	$CTL,%eax,%r13d
	shr	\$24,%eax
	xor	($PTR,%rdx,4),$dst
	mov	1024($TAB,%rbp,4),%r11d
	xor	2048($TAB,%r13,4),%r11d
	xor	3072($TAB,%rax,4),$dst
	xor	%r11d,$dst
EOT
}

sub rounds {
    my ($nr) = @_;
    my $s = "";
    for (my $r = 0; $r < $nr; $r += 2) {
        $s .= round($r, $N1, $N2) . round($r + 1, $N2, $N1);
    }
    return $s;
}

# The 64-bit block at $p as two 32-bit halves, lo the half the cipher calls
# n1: little-endian for GOST 28147-89, big-endian for Magma (src/gost89.c).
sub load_halves {
    my ($p, $lo, $hi, $be) = @_;
    return "\tmov\t($p),$lo\n\tmov\t4($p),$hi\n" unless $be;
    return "\tmov\t4($p),$lo\n\tbswap\t$lo\n\tmov\t($p),$hi\n\tbswap\t$hi\n";
}

# Stores lo/hi, through %eax and %edx if the bytes need swapping.
sub store_halves {
    my ($p, $lo, $hi, $be) = @_;
    return "\tmov\t$lo,($p)\n\tmov\t$hi,4($p)\n" unless $be;
    return "\tmov\t$hi,%eax\n\tbswap\t%eax\n\tmov\t%eax,($p)\n"
        . "\tmov\t$lo,%edx\n\tbswap\t%edx\n\tmov\t%edx,4($p)\n";
}

# After 32 rounds the block E has E.lo in $N2 and E.hi in $N1 (the last
# round does not swap).  Each mode's block, with the chaining value v in
# ($N1, $N2) = (v.lo, v.hi) before and after, is built from these pieces:
# v ^= in
sub xor_in_into_v {
    my ($be) = @_;
    return load_halves($in, "%ebx", "%r11d", $be)
        . "\txor\t%ebx,$N1\n\txor\t%r11d,$N2\n";
}

# E = E(v); out = (%ebx, %r11d) = E ^ in
sub encrypt_v_xor_in_to_out {
    my ($be) = @_;
    return rounds(32) . load_halves($in, "%ebx", "%r11d", $be)
        . "\txor\t$N2,%ebx\n\txor\t$N1,%r11d\n"
        . store_halves($out, "%ebx", "%r11d", $be);
}

# v = E, the halves swapped back into place
my $v_from_e = "\tmov\t$N1,%ebx\n\tmov\t$N2,$N1\n\tmov\t%ebx,$N2\n";

my %block = (
    # out = v = E(v ^ in)
    cbc_enc => sub {
        my ($be) = @_;
        return xor_in_into_v($be) . rounds(32)
            . store_halves($out, $N2, $N1, $be) . $v_from_e;
    },
    # out = v = E(v) ^ in
    cfb_enc => sub {
        my ($be) = @_;
        return encrypt_v_xor_in_to_out($be)
            . "\tmov\t%ebx,$N1\n\tmov\t%r11d,$N2\n";
    },
    # v = E(v), out = v ^ in
    ofb => sub {
        my ($be) = @_;
        return encrypt_v_xor_in_to_out($be) . $v_from_e;
    },
    # s = the first 16 rounds of s ^ in, no swap: s.lo stays in $N1
    imit => sub {
        my ($be) = @_;
        return xor_in_into_v($be) . rounds(16);
    },
);

# void gost89_scalar_<mode>(const GOST89_KEY *ks, const unsigned char *in,
#                           unsigned char *out, size_t n, unsigned char *iv)
# void gost89_scalar_imit(const GOST89_KEY *ks, unsigned char state[8],
#                         const unsigned char *in, size_t n)
for my $mode (qw(cbc_enc cfb_enc ofb imit)) {
    my $fn = "gost89_scalar_${mode}";
    my $nr = $mode eq 'imit' ? 16 : 32;
    $code .= function_begin($fn);
    $code .= "\ttest\t$n,$n\n\tjz\t.L${mode}_none\n";
    $code .= frame_push($_) for qw(%rbx %rbp %r12 %r13 %r14 %r15);
    $code .= frame_alloc($FRAME);
    if ($mode eq 'imit') {
        # the state pointer to its slot; in (%rdx) to $in
        $code .= "\tmov\t%rsi,$IVSLOT(%rsp)\n\tmov\t%rdx,$in\n";
    } else {
        $code .= "\tmov\t%r8,$IVSLOT(%rsp)\n\tmov\t%rdx,$out\n";
    }
    $code .= "\tmov\t$KEY_TAB($ks),$TAB\n\tlea\t$TAB_T0X($TAB),%rax\n";
    for my $r (0 .. $nr - 1) {
        $code .= "\tmovzbl\t" . (4 * $r) . "($ks),%ebx\n"
            . "\tlea\t(%rax,%rbx,4),%rbx\n\tmov\t%rbx," . (8 * $r) . "(%rsp)\n";
    }
    $code .= "\tmov\t\$0x0810,$CTL\n";    # BEXTR: 8 bits from bit 16
    $code .= "\tmov\t$IVSLOT(%rsp),%rax\n";
    $code .= "\ttestl\t\$1,$KEY_BE($ks)\n\tjnz\t.L${mode}_be\n";
    for my $be (0, 1) {
        my $l = ".L${mode}_" . ($be ? 'be' : 'le');
        $code .= "$l:\n" . load_halves("%rax", $N1, $N2, $be);
        $code .= ".p2align\t4\n${l}_loop:\n" . $block{$mode}->($be);
        $code .= "\tadd\t\$8,$in\n";
        $code .= "\tadd\t\$8,$out\n" unless $mode eq 'imit';
        $code .= "\tdec\t$n\n\tjnz\t${l}_loop\n";
        $code .= "\tmov\t$IVSLOT(%rsp),%rcx\n" . store_halves("%rcx", $N1, $N2, $be);
        $code .= "\tjmp\t.L${mode}_done\n" unless $be;
    }
    $code .= ".L${mode}_done:\n";
    # the round-key pointers are key material: leave none on the stack
    $code .= "\tpxor\t%xmm0,%xmm0\n";
    for (my $o = 0; $o < 8 * $nr; $o += 16) {
        $code .= "\tmovdqu\t%xmm0,$o(%rsp)\n";
    }
    $code .= frame_free($FRAME);
    $code .= frame_pop($_) for qw(%r15 %r14 %r13 %r12 %rbp %rbx);
    $code .= ".L${mode}_none:\n\tret\n" . function_end($fn);
}

x86_64::finish($code);
