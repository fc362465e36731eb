#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM3 (GB/T 32905-2016) compression for x86-64 with AVX, BMI1 and BMI2,
# generated as AT&T text through util/perlasm/x86_64.pm.  Owns
# sm3_avx_bmi2_blocks(state, p, nblocks) behind the SM3_KERNEL contract of
# src/sm3.h; src/sm3_x86.c puts it in a kernel table and chooses it.
#
#   perl asm/sm3-x86_64.pl elf > asm/sm3-x86_64.S
#
# Measured on the development VM (AMD EPYC, Zen 4 class, 2 shared cores,
# ~3.8 GHz under load), 16 KiB calls through EVP, one process alternating
# the implementations; core cycles/byte derived from MB/s at 3.85 GHz:
#
#   implementation                  MB/s    c/B    instructions/byte
#   this kernel                     TBD
#   libgcrypt 1.10 (AVX/BMI2)       TBD
#   OpenSSL 3.0 default provider    TBD
#   src/sm3.c (gcc 12 -O3)          TBD
#
# Why it is shaped this way.  SM3 is one long dependency chain per message,
# so the speed is set by the latency of a round, not by its width.  With
# a12 = rol(A,12) and SS1 = rol(a12 + E + K, 7) the E word of round n+1 is
#   P0(GG(E,F,G) + H + W + SS1)
# whose E-to-E path is: add (a12 + K was formed as soon as A was known,
# which is earlier, see below), rotate, the sum of three terms that depend
# on E (E&F, ~E&G via ANDN, SS1) into H + W, and P0 as two independent
# RORX and two XORs: 7 cycles a round (6 in rounds 0-15, where GG is a
# plain XOR).  A is ready 3 cycles before E (TT1 waits only for SS2), so
# rol(A,12) + K sits off the path.  BMI2's RORX rotates without a copy and
# without touching the flags, BMI1's ANDN gives ~E&G in one operation.
#
# The state words are never moved: of the standard's eight assignments only
# D <- TT1, H <- P0(TT2), B <- rol(B,9) and F <- rol(F,19) write a register,
# and the rest is a renaming of the perl variables (period four rounds).
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
# first use, so the vector work fills the issue slots the round chain
# leaves idle.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;

x86_64::setup(@ARGV);

my $code = "";

# ---------------------------------------------------------------------------
# Register map.  %rdi state, %rsi input; nblocks becomes an end pointer on
# the stack.  Eight state words, four round temporaries.
my ($ctx, $inp) = ("%rdi", "%rsi");
my @state = qw(ax bx cx dx r8 r9 r10 r11);
my ($a12, $ss, $t, $u) = qw(r12 r13 r14 r15);

sub r32 {   # 32-bit name
    my ($r) = @_;
    return $r =~ /^r\d+$/ ? "%${r}d" : "%e$r";
}

sub r64 {   # 64-bit name
    my ($r) = @_;
    return $r =~ /^r\d+$/ ? "%$r" : "%r$r";
}

# xmm: ring of five message registers, temporaries, two shuffle masks.
my @ring = map { "%xmm$_" } 0 .. 4;
my ($xc, $xt, $xy, $xd, $xe, $xw) = map { "%xmm$_" } 5 .. 10;
my ($ROL8, $BSWAP) = ("%xmm14", "%xmm15");

# Stack frame: W[0..67] at 0, W'[0..63] at WP, the end pointer at ENDP.
# Six pushes and the return address leave %rsp at 8 mod 16, so FRAME = 8 mod
# 16 aligns the vector stores.
my $WP    = 4 * 68;
my $ENDP  = $WP + 4 * 64;
my $FRAME = $ENDP + 8;
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

# One round as a list of instructions.  Comments give the cycle at which a
# value is ready, counted from the arrival of E (see the header).
sub round {
    my ($j, $A, $B, $C, $D, $E, $F, $G, $H) = map { $_ =~ /^\d+$/ ? $_ : r32($_) } @_;
    my ($x12, $s, $x, $y) = map { r32($_) } $a12, $ss, $t, $u;
    my $k = kj($j);
    my @i = (
        "rorx\t\$20,$A,$x12",                       # rol(A,12)
        "lea\t$k(" . r64($a12) . "),$s",              # + K, before E arrives
        "add\t" . ($WP + 4 * $j) . "(%rsp),$D",     # D + W'
        "add\t$E,$s",                               # E+1
        "add\t" . (4 * $j) . "(%rsp),$H",           # H + W
        "rorx\t\$25,$s,$s",                         # SS1, E+2
    );
    if ($j < 16) {
        push @i,
            "mov\t$B,$x", "xor\t$C,$x", "xor\t$A,$x", "add\t$x,$D",
            "xor\t$s,$x12", "add\t$x12,$D",         # TT1 = D + FF + SS2 + W'
            "mov\t$F,$y", "xor\t$G,$y", "xor\t$E,$y", "add\t$y,$H",
            "add\t$s,$H";                           # TT2, E+3
    } else {
        # FF1 = (B & C) + (A & (B ^ C)): the two parts have no common bit.
        push @i,
            "mov\t$B,$x", "and\t$C,$x", "add\t$x,$D",
            "mov\t$B,$y", "xor\t$C,$y", "and\t$A,$y", "add\t$y,$D",
            "xor\t$s,$x12", "add\t$x12,$D",         # TT1, E+4
            # GG1 = (E & F) + (~E & G), likewise disjoint
            "andn\t$G,$E,$x", "mov\t$F,$y", "and\t$E,$y",
            "add\t$x,$H", "add\t$y,$H", "add\t$s,$H";   # TT2, E+4
    }
    push @i,
        "rorx\t\$23,$B,$B",                         # rol(B,9)
        "rorx\t\$13,$F,$F",                         # rol(F,19)
        "rorx\t\$23,$H,$x",                         # P0: rol 9 and 17 side
        "rorx\t\$15,$H,$y",                         # by side, then two XORs
        "xor\t$x,$H", "xor\t$y,$H";
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

my $fn = "sm3_avx_bmi2_blocks";
$code .= rodata_begin() . <<'EOT';
.p2align	4
.Lsm3_bswap:
.byte	3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12
.Lsm3_rol8:
.byte	3,0,1,2,7,4,5,6,11,8,9,10,15,12,13,14
EOT
$code .= text_begin() . function_begin($fn);
$code .= "\ttest\t%rdx,%rdx\n\tjz\t.Lsm3_ret\n";
$code .= frame_push($_) for qw(%rbx %rbp %r12 %r13 %r14 %r15);
$code .= <<"EOT";
	sub	\$$FRAME,%rsp
.cfi_adjust_cfa_offset	$FRAME
	shl	\$6,%rdx
	add	$inp,%rdx
	mov	%rdx,$ENDP(%rsp)
	vmovdqa	.Lsm3_bswap(%rip),$BSWAP
	vmovdqa	.Lsm3_rol8(%rip),$ROL8
EOT
for my $i (0 .. 7) {
    $code .= "\tmov\t" . (4 * $i) . "($ctx)," . r32($state[$i]) . "\n";
}
$code .= ".p2align\t4\n.Lsm3_loop:\n";
for my $i (0 .. 3) {
    $code .= "\tvmovdqu\t" . (16 * $i) . "($inp),$ring[$i]\n";
    $code .= "\tvpshufb\t$BSWAP,$ring[$i],$ring[$i]\n";
    $code .= "\tvmovdqa\t$ring[$i]," . (16 * $i) . "(%rsp)\n";
}
for my $i (0 .. 2) {
    $code .= "\tvpxor\t$ring[$i],$ring[$i + 1],$xw\n";
    $code .= "\tvmovdqa\t$xw," . ($WP + 16 * $i) . "(%rsp)\n";
}
{
    my @s = @state;
    for my $grp (0 .. 15) {
        my @sc;
        for my $j (4 * $grp .. 4 * $grp + 3) {
            push @sc, round($j, @s);
            @s = @s[3, 0, 1, 2, 7, 4, 5, 6];
        }
        my @vec;
        if ($grp + 4 <= 16) {
            @vec = expand($grp + 4);
            @ring = (@ring[1 .. 4], $ring[0]);
        }
        $code .= "# rounds " . (4 * $grp) . ".." . (4 * $grp + 3) . "\n";
        $code .= interleave(\@sc, \@vec);
    }
}
for my $i (0 .. 7) {
    my $r = r32($state[$i]);
    $code .= "\txor\t" . (4 * $i) . "($ctx),$r\n\tmov\t$r," . (4 * $i) . "($ctx)\n";
}
$code .= <<"EOT";
	add	\$64,$inp
	cmp	$ENDP(%rsp),$inp
	jb	.Lsm3_loop
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
$code .= ".Lsm3_ret:\n\tret\n" . function_end($fn);

x86_64::finish($code);
