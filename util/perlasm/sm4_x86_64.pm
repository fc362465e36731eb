# SPDX-License-Identifier: Apache-2.0
#
# What the x86-64 SM4 tiers share (asm/sm4-gfni-avx512-x86_64.pl,
# asm/sm4-gfni-avx2-x86_64.pl, asm/sm4-aesni-x86_64.pl): the register
# naming, the constants of more than one tier (sm4_rodata, by name), the
# 4x4 word transpose, the S-box as GF(2) affine maps, the lean one-pass
# rounds of the GFNI tiers (the glc order a parameter) and the cores and
# serial modes around them, the CTR counter and XTS tweak steps, the call
# of a GHASH kernel, CCM's driver and the key schedule's loop.  A tier
# file takes what it needs from here and nothing from another tier.
#
# Layout shared by all tiers: blocks are byte-swapped into native 32-bit
# words and transposed 4x4 inside every 128-bit lane, so that register j of
# a group holds word j of 4/8/16 blocks; a round is then a handful of
# whole-register operations.  The S-box is Sbox(x) = A2 * Inv(A1 * x + c1)
# + c2: one vgf2p8affineqb maps the SM4 field into the AES field (matrix
# 0x34ac259e022dbc52, c1 0x65) and one vgf2p8affineinvqb inverts there and
# maps back (0xd72d8e511e6c8b19, c2 0xd3); constants from libgcrypt's
# sm4-gfni-avx2-amd64.S, checked against the S-box table of GB/T
# 32907-2016 for all 256 inputs.  The AES-NI tiers compute the same S-box
# through AESENCLAST (asm/sm4-aesni-x86_64.pl) and check their tables
# against these maps when generated.
#
# Entry points follow src/kernel.h (SysV: ks=%rdi in=%rsi out=%rdx
# nblocks=%rcx iv=%r8).
package sm4_x86_64;

use strict;
use warnings;
use Exporter qw(import);
use x86_64;

our @EXPORT = qw(R %bpr %bcast sm4_rodata transpose
                 gf_apply gf_k gf_rodata $GF_A1 $GF_A2 $GF_C1 $GF_C2 %GF_L %GF_K
                 lean_body lean_core serial ctr_add
                 %XTS_REGS xts_mulx xts_tv xts_tweaks xts_rodata
                 gh_call ccm key_schedule);

sub R { my ($w, $n) = @_; return "%${w}mm$n"; }

our %bpr   = (z => 4, y => 2, x => 1);      # blocks per register
our %bcast = (z => 16, y => 8, x => 4);     # dwords per register

# ---------------------------------------------------------------------------
# Constants the tiers share, by name: sm4_rodata(NAME...) gives the .rodata
# of the ones a tier reads (label .Lsm4_NAME), each with its alignment.
my %SM4_CONST = (
    # per-lane byte swap of the four 32-bit words (4 lanes, so that zmm,
    # ymm and xmm memory operands can all start here)
    bswap => [ 6, (".byte\t" . join(',', map { my $w = $_; map { 4 * $w + 3 - $_ } 0 .. 3 } 0 .. 3) . "\n") x 4 ],
    # rotations by whole bytes of native words, as byte shuffles (2 lanes)
    (map { my $k = $_;
           ("rol$k" => [ 5, (".byte\t" . join(',', map { my $w = $_; map { 4 * $w + ($_ - $k / 8) % 4 } 0 .. 3 } 0 .. 3) . "\n") x 2 ]) }
         8, 16, 24),
    # CTR: block number of each dword after the 4x4 transpose: dword 4l+k
    # of a group is block k*bpr+l (l = lane, k = source register)
    ctr_idx_z => [ 6, map { my $g = $_; ".long\t" . join(',', map { my $l = $_; map { 16 * $g + 4 * $_ + $l } 0 .. 3 } 0 .. 3) . "\n" } 0 .. 3 ],
    ctr_idx_y => [ 5, map { my $g = $_; ".long\t" . join(',', map { my $l = $_; map { 8 * $g + 2 * $_ + $l } 0 .. 3 } 0 .. 1) . "\n" } 0 .. 2 ],
    ctr_idx_x => [ 4, ".long\t0,1,2,3\n" ],
    # AVX2 tail masks: dword d of a pass is live when d < 4 * blocks
    didx => [ 5, map { ".long\t" . join(",", 8 * $_ .. 8 * $_ + 7) . "\n" } 0 .. 11 ],
    bias => [ 2, ".long\t0x80000000\n" ],
    one  => [ 2, ".long\t1\n" ],
    # A1 and A2 (the S-box's affine maps), one qword, and as ymm memory
    # operands
    aff1   => [ 3, ".quad\t0x34ac259e022dbc52\n" ],
    aff1_y => [ 5, (".quad\t0x34ac259e022dbc52,0x34ac259e022dbc52\n") x 2 ],
    aff2_y => [ 5, (".quad\t0xd72d8e511e6c8b19,0xd72d8e511e6c8b19\n") x 2 ],
);

sub sm4_rodata {
    my $s = rodata_begin();
    for my $n (@_) {
        my ($align, @lines) = @{ $SM4_CONST{$n} or die "sm4_rodata: no constant $n\n" };
        $s .= ".p2align\t$align\n.Lsm4_$n:\n" . join('', @lines);
    }
    return $s . text_begin();
}

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
our ($GF_A1, $GF_A2, $GF_C1, $GF_C2) =
    (0x34ac259e022dbc52, 0xd72d8e511e6c8b19, 0x65, 0xd3);
my $GF_A1INV = gf_inverse($GF_A1);
our %GF_L = (
    a => gf_matrix(sub { ($_[0] ^ ($_[0] << 2)) & 0xff }),
    b => gf_matrix(sub { (($_[0] << 2) | ($_[0] >> 6)) & 0xff }),
    c => gf_matrix(sub { $_[0] ^ ($_[0] >> 6) }),
);
our %GF_M = map { $_ => gf_mul($GF_A1, gf_mul($GF_L{$_}, $GF_A2)) } keys %GF_L;
our %GF_K = map { $_ => gf_apply(gf_mul($GF_A1, $GF_L{$_}), $GF_C2) } keys %GF_L;
sub gf_k { return $GF_K{ $_[0] }; }

# 32 bytes each so that VEX forms (xmm and ymm) can take them as memory
# operands
sub gf_rodata {
    my %gf_out = ((map { ("gf_$_" => $GF_M{$_}) } qw(a b c)), gf_a1inv => $GF_A1INV);
    return rodata_begin() . ".p2align\t5\n"
        . join('', map { sprintf(".Lsm4_%s:\n.quad\t0x%016x,0x%016x,0x%016x,0x%016x\n",
                                 $_, ($gf_out{$_}) x 4) } sort keys %gf_out)
        . text_begin();
}

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
# The glc order (the CCM rounds of Intel cores; src/sm4_x86.c chooses):
# there a GF2P8AFFINE(INV)QB result reaches an integer vector operation 2
# cycles after its 3-cycle latency, and later still when that operation
# also waits for another input (measured on the Xeon family 6 model 207 as
# chains: GFNI to GFNI 3 cycles, GFNI to VPXOR and back 6; a GFNI result
# XORed one cycle after it is ready, 2.6 cycles more), so every result of
# the three affine-inverses that is not consumed at once, one of them a
# cycle late on the two GFNI ports, lengthens the round: 11.9 cycles for an
# 8-cycle path.  As A = B ^ C (x ^ x<<2 = (x<<<2) ^ x ^ x>>6 bitwise),
# a = b ^ c with the constants too, so two affine-inverses suffice:
#   E = (b ^ c) ^ rol8(b) ^ rol16(b) ^ rol24(c),
# and w' = (q ^ b ^ c) ^ (rol8 b ^ rol16 b ^ rol24 c), the rotations on
# VPROLD (ports 0/1) and VPSHUFB (1/5) so that they all start with the
# first XOR: 10.4 cycles a round, timed the same way.  Z_{i+4} = Z_i ^ q ^
# w' (before q takes E).
#
# .Lsm4_<fam>_lean_<w> (glc: .Lsm4_avx512_lean_glc_x, AVX-512, xmm only):
# native words X0..X3 in xmm0..3 (one block per dword lane, any lanes) ->
# X32..X35 in xmm0..3; clobbers xmm4..12.
sub lean_body {
    my ($fam, $wd, $glc) = @_;
    my $evex = $fam eq 'avx512';
    die "the glc rounds are AVX-512's, on xmm\n" if $glc && !($evex && $wd eq 'x');
    my $name = $glc ? ".Lsm4_avx512_lean_glc_x" : ".Lsm4_${fam}_lean_$wd";
    my @Z = map { R($wd, $_) } 0 .. 3;
    my ($w, $q, @r) = map { R($wd, $_) } 4 .. 12;
    my $a = $glc ? undef : shift @r;
    my ($b, $c, $b8, $b16, $c24, $e) = @r;
    my ($ka, $kb, $kc) = map { $GF_K{$_} } qw(a b c);
    die "A != B ^ C\n" if $glc && !($GF_M{a} == ($GF_M{b} ^ $GF_M{c})
                                    && $ka == ($kb ^ $kc));
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
EOT
        $s .= "\tvgf2p8affineinvqb\t\$$ka,$m{gf_a},$w,$a\n" unless $glc;
        $s .= $kmap->($i + 1, $q) . $x3->($q, @Z[0, 2])
            . "\t$xor\t$Z[3],$q,$q\n" if $more;
        if ($glc) {
            $s .= <<"EOT";
	vprold	\$8,$b,$b8
	vpshufb	.Lsm4_rol16(%rip),$b,$b16
	vpshufb	.Lsm4_rol24(%rip),$c,$c24
EOT
            if ($more) {
                $s .= "\tvpxord\t$q,$Z[0],$Z[0]\n" . $x3->($q, $b, $c)
                    . $x3->($b8, $b16, $c24) . "\tvpxord\t$b8,$q,$q\n"
                    . "\tvpxord\t$q,$Z[0],$Z[0]\n";
            } else {
                $s .= $x3->($Z[0], $b, $c) . $x3->($b8, $b16, $c24)
                    . "\tvpxord\t$b8,$Z[0],$Z[0]\n";
            }
        } elsif ($evex) {
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

# The x1, y1 (and z1) cores of a tier (the contract of the word-sliced
# cores: chunk k of the blocks as loaded in register k, or with the "_t"
# entry native words; output chunk k in register 3-k) around the lean body
# of that width (glc: .Lsm4_avx512_glc_core_x1 around the glc body).
sub lean_core {
    my ($fam, $wd, $glc) = @_;
    my $body = $glc ? ".Lsm4_avx512_lean_glc_x" : ".Lsm4_${fam}_lean_$wd";
    my $name = $glc ? ".Lsm4_avx512_glc_core_x1" : ".Lsm4_${fam}_core_${wd}1";
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
our %XTS_REGS = (
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

sub xts_rodata {
    return rodata_begin() . <<'EOT' . text_begin();
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
}

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

# Serial modes: the lean body once per block, the block spread over the
# lanes by VPSHUFD (only lane 0 matters); the chaining value stays in
# xmm15.  xmm registers only: no VZEROUPPER.  avx512_glc runs the glc
# rounds (lean_body), which src/sm4_x86.c gives Intel cores.
sub serial {
    my ($fam, $mode) = @_;
    my $fn = "sm4_gfni_${fam}_$mode";
    my $body = $fam eq 'avx512_glc' ? '.Lsm4_avx512_lean_glc_x' : ".Lsm4_${fam}_lean_x";
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

# ---------------------------------------------------------------------------
# CCM (src/kernel.h's smg_ccm_fn), every tier: the CBC-MAC is serial, so
# each block takes one pass of the tier's lean x1 core with two of its four
# lanes busy, the MAC's pending input in one and a counter block in the
# other: the CTR blocks ride in the MAC's latency and CCM runs at the speed
# of one serial SM4 stream.  Both directions run the same pass (the MAC
# input is pending, so a decryption's keystream is not needed before its
# pass); they differ in the block that goes into the next input.  The
# pending input stays in xmm15 (no lean core touches it); the low eight
# counter bytes count in %r11 (big-endian as a number), the high eight
# stay in %r10.  $core is the tier's x1 core (gfni_avx512_glc: the AVX-512
# tier over the glc rounds, for Intel cores).
#   ks=%rdi in=%rsi out=%rdx nblocks=%rcx ctr=%r8 mac=%r9
sub ccm {
    my ($tier, $dir, $core) = @_;
    my $fn = "sm4_${tier}_ccm_$dir";
    my $L = ".L$fn";
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

# ---------------------------------------------------------------------------
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
# branch.  key_schedule($kind, $setup, $sbox): the function with its
# constants; $setup loads what the S-box reads (registers 1..6 free), and
# $sbox maps dword 0 of xmm0 in place (clobbering xmm1..6 no further than
# $setup's own registers).
sub key_schedule {
    my ($kind, $setup, $sbox) = @_;
    my @ck;
    for my $i (0 .. 31) {
        push @ck, sprintf("0x%02x%02x%02x%02x", map { ((4 * $i + $_) * 7) & 0xff } 0 .. 3);
    }
    my $code = rodata_begin() . ".p2align\t4\n.Lsm4_ks_fk:\n"
        . "\t.long\t0xa3b1bac6,0x56aa3350,0x677d9197,0xb27022dc\n"
        . ".Lsm4_ks_ck:\n\t.long\t" . join(',', @ck) . "\n" . text_begin();
    my $fn = "sm4_${kind}_set_key";
    my @K = map { "%xmm$_" } 8 .. 11;
    my ($ck, $r13, $r19, $r23, $r9) = map { "%xmm$_" } 12 .. 15, 7;
    my $s = function_begin($fn);
    for my $j (0 .. 3) {
        $s .= "\tmov\t" . (4 * $j) . "(%rdi),%eax\n\tbswap\t%eax\n"
            . "\txor\t.Lsm4_ks_fk+" . (4 * $j) . "(%rip),%eax\n"
            . "\tvmovd\t%eax,$K[$j]\n";
    }
    $s .= $setup;
    $s .= "\tlea\t.Lsm4_ks_ck(%rip),%rdx\n\txor\t%ecx,%ecx\n"
        . ".p2align\t4\n.L${fn}_loop:\n";
    for my $r (0 .. 3) {
        my ($k0, $k1, $k2, $k3) = map { $K[($r + $_) % 4] } 0 .. 3;
        $s .= "\tvmovd\t" . (4 * $r) . "(%rdx,%rcx,4),$ck\n"
            . "\tvpxor\t$k1,$ck,$ck\n\tvpxor\t$k2,$ck,$ck\n"
            . "\tvpxor\t$k3,$ck,%xmm0\n";
        $s .= $sbox;
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
    return $code;
}

1;
