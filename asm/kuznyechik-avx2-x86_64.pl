#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Kuznyechik (GOST R 34.12-2015, RFC 7801) kernels for x86-64 without
# AVX-512, two tiers from one core, generated as AT&T text through
# util/perlasm/x86_64.pm:
#
#   perl asm/kuznyechik-avx2-x86_64.pl elf [bytes] > asm/kuznyechik-avx2-x86_64.S
#
#   kuznyechik_gfni_avx2_*   AVX2 and the VEX forms of GFNI
#   kuznyechik_avx2_*        AVX2 alone
#
# Owns both tiers' byte-sliced 32-block cores (encryption and
# decryption); their one-block cores (the serial modes, short calls two
# blocks at a time, and the key schedule, kuznyechik_TIER_schedule); the
# parallel modes (ECB both ways, CTR, CBC and CFB decryption) and the
# serial ones (CBC and CFB encryption, OFB).  What every x86-64 Kuznyechik
# tier shares (pi, L, the field) is util/perlasm/kuznyechik_x86_64.pm's.
# Every kernel is constant-time: no table is indexed by data in memory
# (VPSHUFB looks 16-entry tables up inside registers) and no branch
# depends on data.
#
# Why this form.  The tables every public Kuznyechik uses (S and L merged,
# 64 KiB indexed by data) are not constant-time.  Here:
#  - pi by the decomposition of Biryukov, Perrin and Udovenko (Eurocrypt
#    2016, IACR eprint 2015/812): a linear map alpha, two 4-bit halves
#    (l, r), l' = nu0(l) if r = 0 else nu1(l * r^-1), r' = sigma(r *
#    phi(l')) in GF(2^4) mod x^4+x^3+1, then a linear map omega of
#    (l', r').  The GF(2^4) products are logarithms added mod 15 and an
#    exponential, each a VPSHUFB; a 4-bit S-box is a VPSHUFB; the zero
#    cases ride on VPSHUFB's zeroing of indices >= 0x80 and one blend.
#    alpha and omega^-1 are one VGF2P8AFFINEQB per nibble with GFNI, two
#    VPSHUFB nibble tables without.  pi^-1 inverts each step.  About 20
#    vector operations per 32 bytes against 64 for a 16-way VPSHUFB
#    selection over the high nibble.
#  - 32 blocks byte-sliced (register lane n of slot k holds byte k of block
#    n): the 16 slots of a block's bytes live in a stack buffer.  A round
#    is two passes.  The S pass takes two slots at a time (five registers
#    each), so that each of pi's tables is loaded once for both.  The L
#    pass: L is R^16 run as the LFSR it is, the 16 bytes of a block and
#    the 16 produced bytes one sequence u_0..u_31, each step one byte of
#    l(), whose coefficients are symmetric (148 32 133 16 194 192 1 251 1
#    192 ...), so a step is 6 sums of pairs, 7 products by constants and 9
#    XORs.  L^-1 is the same sequence run backwards.  A product by a
#    constant is one VGF2P8AFFINEQB with GFNI (l's seven matrices stay in
#    registers through the pass), two VPSHUFB nibble tables without; the
#    registers left keep the last values made (7 with GFNI, 11 without),
#    so that a step loads 9 of its 16 terms or fewer.  The passes apart
#    take half the loads of the round that interleaved them (matrices and
#    tables from memory at every use): 5.95 -> 7.7 times gostprov (GFNI),
#    3.35 -> 4.5 (AVX2), at 16 KiB.
#  - One block (the serial modes, two blocks in a ymm register for the
#    short calls, and the key schedule's Feistel): with GFNI,
#    L (L^-1) as its 16 columns, each a VGF2P8MULB of a broadcast byte by
#    a column of constants, after moving the whole cipher into the AES
#    field's representation through a field isomorphism (VGF2P8MULB
#    multiplies modulo x^8+x^4+x^3+x+1).  Without GFNI, the products by a
#    column of different constants are done bit by bit: x^k * y for k =
#    0..7 (doublings), masked per diagonal of the matrix, each diagonal
#    rotated into place by a VPSHUFB.  A call of a few blocks takes these
#    (one block of GFNI CTR ~0.1 us) rather than the 32-block core (~0.7
#    us however few blocks it holds).
#
# Measured on the 2-core AMD EPYC family 25 model 17 (Zen 4 class) KVM
# guest, shared with other jobs (load average ~10; no PMU): 16 KiB
# in-place calls, best of 300, TSC ticks (2.6 GHz) per byte (before this
# form of the round: gfni-avx2 CTR 3.96, CBC-dec 3.56; avx2 6.93, 6.17);
# ticks of a call of one block, and of the key schedule:
#
#   kernel        CTR    ECB    CBC-dec  CBC-enc | CTR 1 blk  schedule
#   gfni-avx2     3.14   3.08   3.05     19.4    |   260       1330
#   avx2          5.36   5.31   5.26     44.1    |   680       2780
#
# util/bench (-l no-avx512,no-gfni), ratio to gostprov 3.0.1 in the same
# run, 16 KiB / 16 bytes a call (MAC: keyed init, update, final a call;
# before: gfni-avx2 ECB 6.11 / 0.15, CTR 6.07 / 0.23, CBC-dec 7.43 / 0.19,
# MAC 2.26 / 0.52, CTR-ACPKM 4.90 / 0.38):
#
#                ECB          CTR          CBC-dec      MAC          CTR-ACPKM
#   gfni-avx2    7.69 / 1.08  7.68 / 1.60  8.59 / 1.36  2.47 / 6.41  13.8 / 2.75
#   avx2         4.45 / 0.47  4.48 / 0.66  5.04 / 0.56  1.12 / 3.12   7.8 / 1.17
#
# The 32-block core takes about as long for 1 block as for 32 (1770
# ticks), hence the one-block cores for short calls.  Under callgrind the
# avx2 tier's 16 KiB CTR makes 150 data reads a block (190 with the round
# that interleaved S with L from memory) and 520 instructions (564).

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use kuznyechik_x86_64;
use gost2015_pi_x86_64;

x86_64::setup(@ARGV);

# pi, its tables and its code: util/perlasm/gost2015_pi_x86_64.pm
pi_setup('.Lkuz_', 'kuznyechik-avx2');
pi_tables();

# The AES field's representation for the one-block GFNI core:
# kuz_to_aes (util/perlasm/kuznyechik_x86_64.pm) and its inverse.
my $PHI_MAP = \&kuz_to_aes;
my $PHI_INV = inverse_of($PHI_MAP);

my $IDENTITY = sub { return $_[0]; };
linear_ends('', $IDENTITY, $IDENTITY);
linear_ends('p', $PHI_MAP, $PHI_INV, 'gfni');
matrix4('phi_m', $KUZ_AES_MAP);
matrix4('phiinv_m', $KUZ_AES_UNMAP);

# l's coefficients in pairs: c_k = c_{14-k} for k < 7 (RFC 7801 section 2)
my @C = @KUZ_L_COEF;
die "kuznyechik-avx2: l's coefficients are not symmetric\n"
    if grep { $C[$_] != $C[ 14 - $_ ] } 0 .. 6;
die "kuznyechik-avx2: l's unit coefficients moved\n"
    unless $C[6] == 1 && $C[15] == 1 && $C[7] != 1;
my @PAIR_COEF = @C[0 .. 5];
for my $c (@PAIR_COEF, $C[7]) {
    matrix4("m$c", kuz_mul_matrix($c));
    nibble_tables("t$c", sub { kuz_gf_mul($c, $_[0]) });
}

# ---------------------------------------------------------------------------
# The scratch frame.  %r10 points at a 32-byte aligned
# scratch area; the 32-block cores clobber %rax, %r9, %r11 and every
# vector register.

my $U_OFF = 0;          # u_0 .. u_31, 32 bytes each
my $T1_OFF = 1024;      # transpose stages
my $T2_OFF = 1536;
my $ROWS_OFF = 2048;    # row i: blocks i and 16 + i of the batch
my $MISC_OFF = 2560;    # chaining values, the one-block core's keys
my $KB_OFF = 2816;      # the round keys' bytes, each broadcast to 32
my $FRAME = $KB_OFF + 160 * 32;
sub U { return ($U_OFF + 32 * $_[0]) . '(%r10)'; }
sub T1 { return ($T1_OFF + 32 * $_[0]) . '(%r10)'; }
sub T2 { return ($T2_OFF + 32 * $_[0]) . '(%r10)'; }
sub ROW { return ($ROWS_OFF + 32 * $_[0]) . '(%r10)'; }
sub MISC { return ($MISC_OFF + $_[0]) . '(%r10)'; }


# ---------------------------------------------------------------------------
# The 32-block cores.

# The L passes' registers: acc and p (the sum and a term), then, with
# GFNI, l's seven constants as VGF2P8AFFINEQB matrices (loaded once a
# pass); without, the two temporaries of a product.  The rest are the
# window: the last values the pass produced, kept in registers as well as
# in memory, so that the next steps read most of their terms from there.
my %MAT;
@MAT{ @PAIR_COEF, $C[7] } = map { R('y', $_) } 9 .. 15;
my %WINDOW = (gfni_avx2 => [ map { R('y', $_) } 2 .. 8 ],
              avx2      => [ map { R('y', $_) } 4 .. 13, 15 ]);
my ($MUL_H, $MUL_T) = map { R('y', $_) } 2, 3;
my $AVX2_NIB = R('y', $NIB);

# $dst = c * $src ($src a register or memory)
sub mul_const {
    my ($gfni, $c, $src, $dst) = @_;
    # A source in memory is loaded first: VPSRLW by an immediate takes no
    # memory source under VEX (the assembler would emit the EVEX form,
    # which faults without AVX-512), and VGF2P8AFFINEQB takes its data
    # from a register.
    my $s = "";
    if ($src =~ /\(/) { $s = "\tvmovdqa\t$src,$dst\n"; $src = $dst; }
    return $s . "\tvgf2p8affineqb\t\$0,$MAT{$c},$src,$dst\n" if $gfni;
    my ($h, $t, $n) = ($MUL_H, $MUL_T, $AVX2_NIB);
    return $s . <<"EOT";
	vpsrlw	\$4,$src,$h
	vpand	$n,$h,$h
	vpand	$src,$n,$dst
	vmovdqa	.Lkuz_t${c}_h(%rip),$t
	vpshufb	$h,$t,$h
	vmovdqa	.Lkuz_t${c}_l(%rip),$t
	vpshufb	$dst,$t,$dst
	vpxor	$h,$dst,$dst
EOT
}

# $dst = $a ^ $b, each a register or memory
sub xor2 {
    my ($a, $b, $dst) = @_;
    ($a, $b) = ($b, $a) if $b =~ /\(/;
    return "\tvpxor\t$a,$b,$dst\n" unless $b =~ /\(/;
    return "\tvmovdqa\t$b,$dst\n\tvpxor\t$a,$dst,$dst\n";
}

# One step of the LFSR: u_dst = sum over pairs (k, 14-k) of
# c_k (u_{15+t-k} ^ u_{1+t+k}), + 251 u_{8+t} + u_{9+t} + u_{7+t} + u_$u3
# (u_t going forward, u_{16+t} backward); $win maps the window's indices
# to registers, the new value takes register $wreg.  The term with the
# newest value is added last, so that a step waits for the previous one by
# a XOR, a product and a XOR only.
sub lfsr_step {
    my ($gfni, $t, $u3, $dst, $win, $wreg) = @_;
    my $src = sub { return $win->{ $_[0] } // U($_[0]); };
    my ($acc, $p) = map { R('y', $_) } 0, 1;
    my $s = xor2($src->(9 + $t), $src->(7 + $t), $acc);
    $s .= xor2($src->($u3), $acc, $acc);
    $s .= mul_const($gfni, $C[7], $src->(8 + $t), $p) . "\tvpxor\t$p,$acc,$acc\n";
    # pairs 5..1, then pair 0, whose first term is the newest value
    for my $k (5, 4, 3, 2, 1, 0) {
        my ($a, $b) = ($src->(15 + $t - $k), $src->(1 + $t + $k));
        ($a, $b) = ($b, $a) if $dst >= 16 && $k == 0;    # no matter which
        $s .= xor2($a, $b, $p) . mul_const($gfni, $PAIR_COEF[$k], $p, $p);
        $s .= "\tvpxor\t$p,$acc," . ($k ? $acc : $wreg) . "\n";
    }
    $s .= "\tvmovdqa\t$wreg," . U($dst) . "\n";
    delete $win->{$_} for grep { $win->{$_} eq $wreg } keys %$win;
    $win->{$dst} = $wreg;
    return $s;
}

# 16x16 byte transpose in each 128-bit lane, four stages of byte
# interleaves: out[2i+h] = unpack_h(in[i], in[i+8]).  Indexing a byte by
# (register, position) as 8 bits, a stage rotates them left by one, so
# four exchange the two nibbles: the transpose, its own inverse.
# $in->(i, reg) emits the load of input i; $out->(k, reg) the store of
# output k; the stages between go through T1 and T2.
sub transpose16 {
    my ($in, $out) = @_;
    my $s = "";
    my @mid = (\&T1, \&T2, \&T1);
    my ($a, $b, $lo, $hi) = map { R('y', $_) } 0 .. 3;
    for my $stage (0 .. 3) {
        for my $i (0 .. 7) {
            my $src_b;
            if ($stage == 0) {
                $s .= $in->($i, $a) . $in->($i + 8, $b);
                $src_b = $b;
            } else {
                my $m = $mid[ $stage - 1 ];
                $s .= "\tvmovdqa\t" . $m->($i) . ",$a\n";
                $src_b = $m->($i + 8);
            }
            $s .= "\tvpunpcklbw\t$src_b,$a,$lo\n\tvpunpckhbw\t$src_b,$a,$hi\n";
            if ($stage == 3) {
                $s .= $out->(2 * $i, $lo) . $out->(2 * $i + 1, $hi);
            } else {
                my $m = $mid[$stage];
                $s .= "\tvmovdqa\t$lo," . $m->(2 * $i) . "\n\tvmovdqa\t$hi," . $m->(2 * $i + 1) . "\n";
            }
        }
    }
    return $s;
}

sub row_in {
    my ($i, $r) = @_;
    my $x = $r =~ s/ymm/xmm/r;
    my $o = $ROWS_OFF + 32 * $i;
    return "\tvmovdqa\t$o(%r10),$x\n\tvinserti128\t\$1," . ($o + 16) . "(%r10),$r,$r\n";
}
sub row_out { my ($i, $r) = @_; return "\tvmovdqa\t$r," . ROW($i) . "\n"; }

# $dst = $src ^ byte k of the round key whose broadcast bytes %r11
# points at ($src a register)
sub keyed {
    my ($k, $src, $dst) = @_;
    return "\tvpxor\t" . (32 * $k) . "(%r11),$src,$dst\n";
}

# The parallel modes broadcast every round key byte once a call, into the
# frame (a VPBROADCASTB per byte and round would take the shuffle ports
# the S-boxes need), and wipe them at the end.
sub key_broadcast {
    my $s = "";
    for my $i (0 .. 159) {
        $s .= "\tvpbroadcastb\t$i(%rdi),%ymm0\n\tvmovdqa\t%ymm0,"
            . ($KB_OFF + 32 * $i) . "(%r10)\n";
    }
    return $s;
}
sub key_wipe {
    my $s = "\tvpxor\t%xmm0,%xmm0,%xmm0\n";
    $s .= "\tvmovdqa\t%ymm0," . ($KB_OFF + 32 * $_) . "(%r10)\n" for 0 .. 159;
    return $s;
}

# The S passes take two slots at once (gost2015_pi_x86_64.pm's lanes,
# registers 0..4 and 5..9, each table loaded into register 10 once for
# both); the L passes keep l's matrices in registers (GFNI) and their last
# values in the window.  Encryption: nine rounds of the S pass (K_i, then
# pi; slot 15-t into slot t) and the L pass (slots 0..15 into 16..31),
# then K_10 with the output's transpose.  Decryption: K_10 with the
# input's transpose, then nine rounds of the L^-1 pass (slots 16..31 into
# 0..15) and the S^-1 pass (pi^-1, then K_i; slot t into slot 16+t).
my @LANES = ([ map { R('y', $_) } 0 .. 4 ], [ map { R('y', $_) } 5 .. 9 ]);
my $TBL = R('y', 10);

sub s_pass {
    my ($gfni, $dir) = @_;
    my $s = load_consts('y');
    for (my $t = 0; $t < 16; $t += 2) {
        my @l = map { $LANES[$_ - $t] } $t, $t + 1;
        if ($dir eq 'enc') {
            $s .= "\tvmovdqa\t" . U(16 + $_) . ",$LANES[$_ - $t][2]\n"
                . keyed(15 - $_, $LANES[$_ - $t][2], $LANES[$_ - $t][2]) for $t, $t + 1;
            $s .= sbox_lanes('y', $gfni, '', $TBL, \@l);
            $s .= "\tvmovdqa\t$LANES[$_ - $t][0]," . U($_) . "\n" for $t, $t + 1;
        } else {
            $s .= "\tvmovdqa\t" . U($_) . ",$LANES[$_ - $t][2]\n" for $t, $t + 1;
            $s .= sbox_inv_lanes('y', $gfni, '', $TBL, \@l);
            $s .= keyed(15 - $_, $LANES[$_ - $t][0], $LANES[$_ - $t][0])
                . "\tvmovdqa\t$LANES[$_ - $t][0]," . U(16 + $_) . "\n" for $t, $t + 1;
        }
    }
    return $s;
}

sub l_pass {
    my ($tier, $dir) = @_;
    my $gfni = $tier eq 'gfni_avx2';
    my $s = "";
    $s .= $gfni ? join('', map { "\tvmovdqa\t.Lkuz_m$_(%rip),$MAT{$_}\n" } sort keys %MAT)
                : "\tvmovdqa\t.Lkuz_nib(%rip),$AVX2_NIB\n";
    my @win = @{ $WINDOW{$tier} };
    my %win;
    for my $i (0 .. 15) {
        my $wreg = $win[ $i % @win ];
        $s .= $dir eq 'enc' ? lfsr_step($gfni, $i, $i, 16 + $i, \%win, $wreg)
                            : lfsr_step($gfni, 15 - $i, 31 - $i, 15 - $i, \%win, $wreg);
    }
    return $s;
}

sub core {
    my ($tier, $dir) = @_;
    my $gfni = $tier eq 'gfni_avx2';
    my $name = ".Lkuz_${tier}_core_$dir";
    my $s = local_function_begin($name);
    my $in_rows = transpose16(\&row_in, sub {
        my ($k, $r) = @_;
        return ($dir eq 'dec' ? keyed($k, $r, $r) : "")
            . "\tvmovdqa\t$r," . U(31 - $k) . "\n";
    });
    my $out_rows = transpose16(sub {
        my ($k, $r) = @_;
        return "\tvmovdqa\t" . U(31 - $k) . ",$r\n" if $dir eq 'dec';
        return "\tvmovdqa\t" . U(31 - $k) . ",$r\n" . keyed($k, $r, $r);
    }, \&row_out);
    if ($dir eq 'enc') {
        $s .= "\tlea\t$KB_OFF(%r10),%r11\n" . $in_rows
            . "\tmov\t\$9,%r9d\n.p2align\t4\n${name}_round:\n" . s_pass($gfni, 'enc')
            . "\tadd\t\$512,%r11\n" . l_pass($tier, 'enc')
            . "\tdec\t%r9d\n\tjnz\t${name}_round\n" . $out_rows;
    } else {
        $s .= "\tlea\t" . ($KB_OFF + 9 * 512) . "(%r10),%r11\n" . $in_rows
            . "\tmov\t\$9,%r9d\n.p2align\t4\n${name}_round:\n\tsub\t\$512,%r11\n"
            . l_pass($tier, 'dec') . s_pass($gfni, 'dec')
            . "\tdec\t%r9d\n\tjnz\t${name}_round\n" . $out_rows;
    }
    return $s . "\tret\n" . local_function_end($name);
}

# ---------------------------------------------------------------------------
# One-block cores (encryption): %xmm0 in and out, %rdi the key, %r10 the
# frame; clobber %r9, %r11 and every vector register.

# GFNI: the AES field's representation.  phi(K_i) at MISC(0..159), made
# by lean_keys at the entry; L's (L^-1's) column j times byte j of the
# block, a broadcast and a VGF2P8MULB, summed in four chains.
for my $j (0 .. 15) {
    table16("bc$j", ($j) x 16);
    table16("pcol$j", map { kuz_to_aes($KUZ_L[$_][$j]) } 0 .. 15);
    table16("pcolinv$j", map { kuz_to_aes($KUZ_L_INV[$_][$j]) } 0 .. 15);
}
sub lean_keys {
    my $s = "\tvmovdqa\t.Lkuz_phi_m(%rip),%xmm1\n";
    for my $i (0 .. 9) {
        $s .= "\tvmovdqu\t" . (16 * $i) . "(%rdi),%xmm0\n"
            . "\tvgf2p8affineqb\t\$0,%xmm1,%xmm0,%xmm0\n"
            . "\tvmovdqa\t%xmm0," . MISC(16 * $i) . "\n";
    }
    return $s;
}

# The matrix of the columns $cols times %xmm12 into %xmm0
sub lean_l_gfni {
    my ($cols) = @_;
    my $s = "";
    my @acc = map { R('x', $_) } 0 .. 3;
    for my $j (0 .. 15) {
        my $t = $j < 4 ? $acc[$j] : R('x', 4 + ($j % 4));
        $s .= "\tvpshufb\t.Lkuz_bc$j(%rip),%xmm12,$t\n"
            . "\tvgf2p8mulb\t.Lkuz_$cols$j(%rip),$t,$t\n";
        $s .= "\tvpxor\t$t,$acc[$j % 4],$acc[$j % 4]\n" if $j >= 4;
    }
    return $s . "\tvpxor\t%xmm1,%xmm0,%xmm0\n\tvpxor\t%xmm3,%xmm2,%xmm2\n"
        . "\tvpxor\t%xmm2,%xmm0,%xmm0\n";
}

# L S (enc) or S^-1 L^-1 (dec) of %xmm0 into %xmm0, in the representation
# phi
sub lean_round_gfni {
    my ($dir) = @_;
    return sbox('x', 1, 'p', '%xmm0') . "\tvmovdqa\t%xmm1,%xmm12\n" . lean_l_gfni('pcol')
        if $dir eq 'enc';
    return "\tvmovdqa\t%xmm0,%xmm12\n" . lean_l_gfni('pcolinv')
        . sbox_inv('x', 1, 'p', '%xmm0') . "\tvmovdqa\t%xmm1,%xmm0\n";
}

# AVX2: L(y)_j = sum_d L[j][j+d] y_{j+d} (indices mod 16), and
# L[j][j+d] y = sum_k bit k of L[j][j+d] times x^k y: with Y_k = x^k y
# (doublings mod 0x1C3), L(y) = sum_d rot_d(sum_k M_{d,k} & Y_k) where
# rot_d(z)_j = z_{j+d} and M_{d,k} has byte i set where bit k of
# L[i-d][i] is.  L^-1 the same way, its masks named dmi.
table16('c3', (0xc3) x 16);
my %diag_mask;
for my $d (1 .. 15) {
    table16("rot$d", map { ($_ + $d) % 16 } 0 .. 15);
}
for my $m ([ 'dm', \@KUZ_L ], [ 'dmi', \@KUZ_L_INV ]) {
    my ($name, $mat) = @$m;
    for my $d (0 .. 15) {
        for my $k (0 .. 7) {
            my @m = map { (($mat->[ ($_ - $d) % 16 ][$_] >> $k) & 1) ? 0xff : 0 } 0 .. 15;
            next unless grep { $_ } @m;
            table16("$name${d}_$k", @m);
            push @{ $diag_mask{$name}{$d} }, $k;
        }
    }
}

# The matrix of the masks $name times %xmm0 into %xmm0
sub lean_l_avx2 {
    my ($name) = @_;
    # Y_0..Y_7 in xmm0..7
    my @Y = map { R('x', $_) } 0 .. 7;
    my ($acc, $z, $t, $m, $zero) = map { R('x', $_) } 8, 9, 10, 11, $ZERO;
    my $s = "\tvmovdqa\t.Lkuz_c3(%rip),%xmm12\n";
    for my $k (1 .. 7) {
        $s .= <<"EOT";
	vpaddb	$Y[$k-1],$Y[$k-1],$Y[$k]
	vpcmpgtb	$Y[$k-1],$zero,$m
	vpand	%xmm12,$m,$m
	vpxor	$m,$Y[$k],$Y[$k]
EOT
    }
    for my $d (0 .. 15) {
        my @ks = @{ $diag_mask{$name}{$d} || [] };
        next unless @ks;
        my $dst = $d ? $z : $acc;
        my $first = shift @ks;
        $s .= "\tvpand\t.Lkuz_$name${d}_$first(%rip),$Y[$first],$dst\n";
        $s .= "\tvpand\t.Lkuz_$name${d}_$_(%rip),$Y[$_],$t\n\tvpxor\t$t,$dst,$dst\n" for @ks;
        $s .= "\tvpshufb\t.Lkuz_rot$d(%rip),$z,$z\n\tvpxor\t$z,$acc,$acc\n" if $d;
    }
    return $s . "\tvmovdqa\t$acc,%xmm0\n";
}

# L S (enc) or S^-1 L^-1 (dec) of %xmm0 into %xmm0
sub lean_round_avx2 {
    my ($dir) = @_;
    return sbox('x', 0, '', '%xmm0') . "\tvmovdqa\t%xmm1,%xmm0\n" . lean_l_avx2('dm')
        if $dir eq 'enc';
    return lean_l_avx2('dmi') . sbox_inv('x', 0, '', '%xmm0') . "\tvmovdqa\t%xmm1,%xmm0\n";
}

# The one-block cores: .Lkuz_TIER_lean_DIR on %xmm0 (the serial modes),
# .Lkuz_TIER_lean2_DIR on the two blocks of %ymm0 (the parallel modes'
# calls of a few blocks): the same rounds, the round key broadcast to both
# halves.  With GFNI the round keys are phi's images that lean_keys made.
sub lean {
    my ($tier, $w, $dir) = @_;
    my $gfni = $tier eq 'gfni_avx2';
    my $name = ".Lkuz_${tier}_lean" . ($w eq 'y' ? '2' : '') . "_$dir";
    my $key = $w eq 'y' ? "\tvbroadcasti128\t(%r11),%ymm1\n\tvpxor\t%ymm1,%ymm0,%ymm0\n"
                        : "\tvpxor\t(%r11),%xmm0,%xmm0\n";
    my $phi = sub { return $gfni ? "\tvgf2p8affineqb\t\$0,.Lkuz_$_[0](%rip),%xmm0,%xmm0\n" : ""; };
    my $round = $gfni ? lean_round_gfni($dir) : lean_round_avx2($dir);
    my $keys = sub { return $gfni ? MISC($_[0]) : "$_[0](%rdi)"; };
    my $b = load_consts('x') . $phi->('phi_m');
    if ($dir eq 'enc') {
        $b .= "\tlea\t" . $keys->(0) . ",%r11\n\tmov\t\$9,%r9d\n.p2align\t4\n${name}_round:\n"
            . $key . $round . "\tadd\t\$16,%r11\n\tdec\t%r9d\n\tjnz\t${name}_round\n" . $key;
    } else {
        $b .= "\tlea\t" . $keys->(144) . ",%r11\n" . $key . "\tmov\t\$9,%r9d\n.p2align\t4\n${name}_round:\n"
            . "\tsub\t\$16,%r11\n" . $round . $key . "\tdec\t%r9d\n\tjnz\t${name}_round\n";
    }
    $b .= $phi->('phiinv_m') . "\tret\n";
    $b =~ s/%xmm/%ymm/g if $w eq 'y';
    return local_function_begin($name) . $b . local_function_end($name);
}

# ---------------------------------------------------------------------------
# The key schedule (GOST R 34.12-2015 4.3), kuznyechik_TIER_schedule(key,
# rk): K_1 || K_2 is the key, then four times eight rounds of the Feistel
# F[C_i](a1, a0) = (L S X[C_i](a1) ^ a0, a1), each through the one-block
# L S above, the pair after each eight being the next two round keys.
# (a1, a0) lives in the round keys it becomes (rk[2i+2], rk[2i+3]), in
# the representation phi with GFNI (the constants C_i too), converted at
# the ends of each eight.  Every vector register is cleared at the end.

my $kc_rodata = "";
for my $rep ([ 'kc', sub { $_[0] } ], [ 'pkc', \&kuz_to_aes ]) {
    my ($name, $f) = @$rep;
    $kc_rodata .= ".p2align\t4\n.Lkuz_$name:\n";
    for my $i (1 .. 32) {
        my @c = map { $f->($_) } kuznyechik_x86_64::kuz_l_block((0) x 15, $i);
        $kc_rodata .= "\t.byte\t" . join(',', map { sprintf '0x%02x', $_ } @c) . "\n";
    }
}

sub schedule {
    my ($tier) = @_;
    my $gfni = $tier eq 'gfni_avx2';
    my $fn = "kuznyechik_${tier}_schedule";
    my $L = ".L$fn";
    my $map = sub {
        my ($m, $reg) = @_;
        return $gfni ? "\tvgf2p8affineqb\t\$0,.Lkuz_$m(%rip),$reg,$reg\n" : "";
    };
    my $s = function_begin($fn) . <<"EOT";
	vmovdqu	(%rdi),%xmm0
	vmovdqu	16(%rdi),%xmm1
	vmovdqu	%xmm0,(%rsi)
	vmovdqu	%xmm1,16(%rsi)
	lea	.Lkuz_@{[ $gfni ? 'pkc' : 'kc' ]}(%rip),%r11
	mov	\$4,%ecx
${L}_eight:
	vmovdqu	(%rsi),%xmm0
	vmovdqu	16(%rsi),%xmm1
@{[ $map->('phi_m', '%xmm0') . $map->('phi_m', '%xmm1') ]}	vmovdqu	%xmm0,32(%rsi)
	vmovdqu	%xmm1,48(%rsi)
@{[ load_consts('x') ]}	mov	\$8,%edx
${L}_round:
	vmovdqu	32(%rsi),%xmm0
	vpxor	(%r11),%xmm0,%xmm0
@{[ $gfni ? lean_round_gfni('enc') : lean_round_avx2('enc') ]}	vmovdqu	32(%rsi),%xmm1
	vpxor	48(%rsi),%xmm0,%xmm0
	vmovdqu	%xmm1,48(%rsi)
	vmovdqu	%xmm0,32(%rsi)
	add	\$16,%r11
	dec	%edx
	jnz	${L}_round
	add	\$32,%rsi
@{[ $gfni ? "\tvmovdqu\t(%rsi),%xmm0\n\tvmovdqu\t16(%rsi),%xmm1\n"
            . $map->('phiinv_m', '%xmm0') . $map->('phiinv_m', '%xmm1')
            . "\tvmovdqu\t%xmm0,(%rsi)\n\tvmovdqu\t%xmm1,16(%rsi)\n" : "" ]}	dec	%ecx
	jnz	${L}_eight
	vzeroall
	ret
EOT
    return $s . function_end($fn);
}

# ---------------------------------------------------------------------------
# Entry points.  Arguments: %rdi key, %rsi in, %rdx out, %rcx blocks,
# %r8 chaining value.  The parallel modes run batches of up to 32 blocks:
# the mode gathers a batch into the rows, the core encrypts or decrypts
# them in place, the mode scatters them; the serial modes call the
# one-block core per block.

my @SAVED = qw(%rbx %r12 %r13);

# byte offset in the rows of block %rax of the batch -> %r9
sub row_offset {
    return <<'EOT';
	mov	%rax,%r9
	and	$15,%r9
	shl	$5,%r9
	mov	%rax,%r11
	shr	$4,%r11
	shl	$4,%r11
	add	%r11,%r9
EOT
}

# CTR: the counter from (%r8) as numbers, %r12 high and %r13 low
# (ctr_store: back)
sub ctr_load { return "\tmov\t(%r8),%r12\n\tmov\t8(%r8),%r13\n\tbswap\t%r12\n\tbswap\t%r13\n"; }
sub ctr_store { return "\tbswap\t%r12\n\tbswap\t%r13\n\tmov\t%r12,(%r8)\n\tmov\t%r13,8(%r8)\n"; }

# CTR: the counter block (%r12 high, %r13 low, as numbers) into $x, and
# the counter's step
sub ctr_next {
    my ($x) = @_;
    return <<"EOT";
	mov	%r12,%r11
	bswap	%r11
	vmovq	%r11,$x
	mov	%r13,%r11
	bswap	%r11
	vpinsrq	\$1,%r11,$x,$x
	add	\$1,%r13
	adc	\$0,%r12
EOT
}

# Calls of $SMALL{TIER} blocks or fewer run the one-block cores two blocks
# at a time, without the 32-block frame's round key broadcast: up to here
# that takes less time than the 32-block core, whose time hardly depends
# on the blocks it holds (ticks for CTR, 1 / 8 / 12 / 16 blocks: GFNI
# 260 / 1092 / ~1600 by pairs, 1768 for 16 in the core; AVX2 676 / 2782,
# 3042 in the core).  The chaining value is at
# MISC(160), above the GFNI cores' round keys.  $L.$dir: the labels.
my %SMALL = (gfni_avx2 => 12, avx2 => 8);
sub small {
    my ($tier, $mode, $L, $dir) = @_;
    $L .= "_$dir";
    my $prev = MISC(160);
    my $s = $tier eq 'gfni_avx2' ? lean_keys() : "";
    $s .= "\tvmovdqu\t(%r8),%xmm0\n\tvmovdqa\t%xmm0,$prev\n" if $mode =~ /_dec$/;
    $s .= ctr_load() if $mode eq 'ctr';
    my $lean = ".Lkuz_${tier}_lean2_$dir";
    # $n blocks (1 or 2) into %ymm0, through the core, out; the chaining
    # value and the blocks the output needs are read before it is written
    my $blocks = sub {
        my ($n) = @_;
        my ($v, $v1) = $n == 2 ? ('%ymm0', '%ymm1') : ('%xmm0', '%xmm1');
        my $r = "";
        if ($mode eq 'ecb' || $mode eq 'cbc_dec') {
            $r .= "\tvmovdqu\t(%rsi),$v\n";
        } elsif ($mode eq 'ctr') {
            $r .= ctr_next('%xmm0');
            $r .= ctr_next('%xmm1') . "\tvinserti128\t\$1,%xmm1,%ymm0,%ymm0\n" if $n == 2;
        } else {
            $r .= "\tvmovdqa\t$prev,%xmm0\n";
            $r .= "\tvinserti128\t\$1,(%rsi),%ymm0,%ymm0\n" if $n == 2;
        }
        $r .= "\tcall\t$lean\n";
        if ($mode eq 'cbc_dec') {
            $r .= "\tvmovdqa\t$prev,%xmm1\n";
            $r .= "\tvinserti128\t\$1,(%rsi),%ymm1,%ymm1\n" if $n == 2;
            $r .= "\tvpxor\t$v1,$v,$v\n";
        } elsif ($mode ne 'ecb') {
            $r .= "\tvpxor\t(%rsi),$v,$v\n";
        }
        $r .= "\tvmovdqu\t" . (16 * ($n - 1)) . "(%rsi),%xmm1\n\tvmovdqa\t%xmm1,$prev\n"
            if $mode =~ /_dec$/;
        return $r . "\tvmovdqu\t$v,(%rdx)\n";
    };
    $s .= "${L}_pair:\n\tcmp\t\$2,%rcx\n\tjb\t${L}_one\n" . $blocks->(2) . <<"EOT";
	add	\$32,%rsi
	add	\$32,%rdx
	sub	\$2,%rcx
	jmp	${L}_pair
${L}_one:
	test	%rcx,%rcx
	jz	${L}_end
@{[ $blocks->(1) ]}${L}_end:
EOT
    if ($mode eq 'ctr') {
        $s .= ctr_store();
    } elsif ($mode =~ /_dec$/) {
        $s .= "\tvmovdqa\t$prev,%xmm0\n\tvmovdqu\t%xmm0,(%r8)\n";
    }
    if ($tier eq 'gfni_avx2') {
        $s .= "\tvpxor\t%xmm0,%xmm0,%xmm0\n";
        $s .= "\tvmovdqa\t%xmm0," . MISC(16 * $_) . "\n" for 0 .. 9;
    }
    return $s;
}

# A whole batch: row i is blocks i and 16 + i
sub fast_gather {
    my ($mode, $prev) = @_;
    my $s = "";
    if ($mode eq 'ctr') {
        for my $j (0 .. 31) {
            my $o = $ROWS_OFF + 32 * ($j % 16) + 16 * int($j / 16);
            $s .= ctr_next('%xmm0') . "\tvmovdqa\t%xmm0,$o(%r10)\n";
        }
        return $s;
    }
    for my $i (0 .. 15) {
        # CFB decryption: block j's input is ciphertext j-1
        my ($lo, $hi) = $mode eq 'cfb_dec' ? ($i - 1, $i + 15) : ($i, $i + 16);
        $s .= $lo < 0 ? "\tvmovdqa\t$prev,%xmm0\n" : "\tvmovdqu\t" . (16 * $lo) . "(%rsi),%xmm0\n";
        $s .= "\tvinserti128\t\$1," . (16 * $hi) . "(%rsi),%ymm0,%ymm0\n"
            . "\tvmovdqa\t%ymm0," . ROW($i) . "\n";
    }
    $s .= "\tvmovdqu\t496(%rsi),%xmm0\n\tvmovdqa\t%xmm0,$prev\n" if $mode eq 'cfb_dec';
    return $s;
}

# CBC decryption: ciphertext 15 is read before row 15 writes it, and the
# last one is the next chaining value
sub fast_scatter {
    my ($mode, $prev) = @_;
    my $s = "";
    $s .= "\tvmovdqu\t240(%rsi),%xmm2\n\tvmovdqu\t496(%rsi),%xmm3\n" if $mode eq 'cbc_dec';
    for my $i ($mode eq 'cbc_dec' ? reverse(0 .. 15) : (0 .. 15)) {
        $s .= "\tvmovdqa\t" . ROW($i) . ",%ymm0\n";
        if ($mode eq 'cbc_dec') {
            $s .= $i ? "\tvmovdqu\t" . (16 * ($i - 1)) . "(%rsi),%xmm1\n"
                     . "\tvinserti128\t\$1," . (16 * ($i + 15)) . "(%rsi),%ymm1,%ymm1\n"
                     : "\tvmovdqa\t$prev,%xmm1\n\tvinserti128\t\$1,%xmm2,%ymm1,%ymm1\n";
            $s .= "\tvpxor\t%ymm1,%ymm0,%ymm0\n";
        } elsif ($mode ne 'ecb') {
            $s .= "\tvmovdqu\t" . (16 * $i) . "(%rsi),%xmm1\n"
                . "\tvinserti128\t\$1," . (16 * ($i + 16)) . "(%rsi),%ymm1,%ymm1\n"
                . "\tvpxor\t%ymm1,%ymm0,%ymm0\n";
        }
        $s .= "\tvmovdqu\t%xmm0," . (16 * $i) . "(%rdx)\n"
            . "\tvextracti128\t\$1,%ymm0," . (16 * ($i + 16)) . "(%rdx)\n";
    }
    $s .= "\tvmovdqa\t%xmm3,$prev\n" if $mode eq 'cbc_dec';
    return $s;
}

sub parallel {
    my ($tier, $mode) = @_;
    my $fn = "kuznyechik_${tier}_$mode";
    my $L = ".L${fn}";
    my $s = function_begin($fn) . "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n"
        . frame_align_begin($FRAME, 32, @SAVED) . "\tmov\t%rsp,%r10\n";
    $s .= "\tcmp\t\$$SMALL{$tier},%rcx\n\tja\t${L}_big\n";
    if ($mode eq 'ecb') {
        $s .= "\tcmpl\t\$0,160(%rdi)\n\tjne\t${L}_small_dec\n"
            . small($tier, $mode, $L, 'enc') . "\tjmp\t${L}_done\n${L}_small_dec:\n"
            . small($tier, $mode, $L, 'dec');
    } else {
        $s .= small($tier, $mode, $L, $mode eq 'cbc_dec' ? 'dec' : 'enc');
    }
    $s .= "\tjmp\t${L}_done\n${L}_big:\n";
    $s .= key_broadcast();
    my $prev = MISC(0);
    if ($mode eq 'ctr') {
        $s .= ctr_load();
    } elsif ($mode ne 'ecb') {
        $s .= "\tvmovdqu\t(%r8),%xmm0\n\tvmovdqa\t%xmm0,$prev\n";
    }
    # %rbx: blocks in this batch; a whole one (32) takes the unrolled
    # gather and scatter
    $s .= <<"EOT" . fast_gather($mode, $prev) . <<"EOT";
${L}_batch:
	mov	\$32,%ebx
	cmp	%rbx,%rcx
	cmovb	%rcx,%rbx
	cmp	\$32,%rbx
	jne	${L}_gather0
EOT
	jmp	${L}_gathered
${L}_gather0:
	xor	%eax,%eax
${L}_gather:
@{[ row_offset() ]}
EOT
    if ($mode eq 'ctr') {
        $s .= ctr_next('%xmm0');
    } elsif ($mode eq 'cfb_dec') {
        # block j's input is ciphertext j-1 (the chaining value for j = 0)
        $s .= <<"EOT";
	vmovdqa	$prev,%xmm0
	mov	%rax,%r11
	shl	\$4,%r11
	vmovdqu	(%rsi,%r11),%xmm1
	vmovdqa	%xmm1,$prev
EOT
    } else {
        $s .= "\tmov\t%rax,%r11\n\tshl\t\$4,%r11\n\tvmovdqu\t(%rsi,%r11),%xmm0\n";
    }
    $s .= <<"EOT";
	vmovdqa	%xmm0,$ROWS_OFF(%r10,%r9)
	inc	%rax
	cmp	%rbx,%rax
	jb	${L}_gather
${L}_gathered:
EOT
    if ($mode eq 'ecb') {
        $s .= "\tcmpl\t\$0,160(%rdi)\n\tjne\t${L}_dec\n\tcall\t.Lkuz_${tier}_core_enc\n"
            . "\tjmp\t${L}_cored\n${L}_dec:\n\tcall\t.Lkuz_${tier}_core_dec\n${L}_cored:\n";
    } else {
        $s .= "\tcall\t.Lkuz_${tier}_core_" . ($mode eq 'cbc_dec' ? 'dec' : 'enc') . "\n";
    }
    $s .= "\tcmp\t\$32,%rbx\n\tjne\t${L}_scatter0\n" . fast_scatter($mode, $prev)
        . "\tjmp\t${L}_scattered\n${L}_scatter0:\n";
    if ($mode eq 'cbc_dec') {
        # last to first, so that ciphertext j-1 is read before block j-1
        # is written in place; the last ciphertext is the next chaining
        # value
        $s .= <<"EOT";
	mov	%rbx,%rax
	shl	\$4,%rax
	vmovdqu	-16(%rsi,%rax),%xmm2
	mov	%rbx,%rax
${L}_scatter:
	dec	%rax
@{[ row_offset() ]}
	vmovdqa	$ROWS_OFF(%r10,%r9),%xmm0
	mov	%rax,%r11
	shl	\$4,%r11
	jz	${L}_first
	vpxor	-16(%rsi,%r11),%xmm0,%xmm0
	vmovdqu	%xmm0,(%rdx,%r11)
	jmp	${L}_scatter
${L}_first:
	vpxor	$prev,%xmm0,%xmm0
	vmovdqu	%xmm0,(%rdx)
	vmovdqa	%xmm2,$prev
EOT
    } else {
        $s .= "\txor\t%eax,%eax\n${L}_scatter:\n" . row_offset()
            . "\tvmovdqa\t$ROWS_OFF(%r10,%r9),%xmm0\n\tmov\t%rax,%r11\n\tshl\t\$4,%r11\n";
        $s .= "\tvpxor\t(%rsi,%r11),%xmm0,%xmm0\n" if $mode ne 'ecb';
        $s .= <<"EOT";
	vmovdqu	%xmm0,(%rdx,%r11)
	inc	%rax
	cmp	%rbx,%rax
	jb	${L}_scatter
EOT
    }
    $s .= <<"EOT";
${L}_scattered:
	mov	%rbx,%rax
	shl	\$4,%rax
	add	%rax,%rsi
	add	%rax,%rdx
	sub	%rbx,%rcx
	jnz	${L}_batch
EOT
    if ($mode eq 'ctr') {
        $s .= ctr_store();
    } elsif ($mode ne 'ecb') {
        $s .= "\tvmovdqa\t$prev,%xmm0\n\tvmovdqu\t%xmm0,(%r8)\n";
    }
    $s .= key_wipe() . "${L}_done:\n\tvzeroupper\n" . frame_align_end(@SAVED) . "${L}_ret:\n\tret\n"
        . function_end($fn);
    return $s;
}

sub serial {
    my ($tier, $mode) = @_;
    my $fn = "kuznyechik_${tier}_$mode";
    my $L = ".L${fn}";
    my $lean = ".Lkuz_${tier}_lean_enc";
    my $s = function_begin($fn) . "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n"
        . frame_align_begin($FRAME, 32, @SAVED) . "\tmov\t%rsp,%r10\n";
    $s .= lean_keys() if $tier eq 'gfni_avx2';
    # the chaining value lives at MISC(160) between blocks
    my $chain = MISC(160);
    $s .= "\tvmovdqu\t(%r8),%xmm0\n\tvmovdqa\t%xmm0,$chain\n${L}_loop:\n";
    if ($mode eq 'cbc_enc') {
        $s .= "\tvmovdqa\t$chain,%xmm0\n\tvpxor\t(%rsi),%xmm0,%xmm0\n\tcall\t$lean\n"
            . "\tvmovdqa\t%xmm0,$chain\n\tvmovdqu\t%xmm0,(%rdx)\n";
    } elsif ($mode eq 'cfb_enc') {
        $s .= "\tvmovdqa\t$chain,%xmm0\n\tcall\t$lean\n\tvpxor\t(%rsi),%xmm0,%xmm0\n"
            . "\tvmovdqa\t%xmm0,$chain\n\tvmovdqu\t%xmm0,(%rdx)\n";
    } else {
        $s .= "\tvmovdqa\t$chain,%xmm0\n\tcall\t$lean\n\tvmovdqa\t%xmm0,$chain\n"
            . "\tvpxor\t(%rsi),%xmm0,%xmm0\n\tvmovdqu\t%xmm0,(%rdx)\n";
    }
    $s .= <<"EOT";
	add	\$16,%rsi
	add	\$16,%rdx
	dec	%rcx
	jnz	${L}_loop
	vmovdqa	$chain,%xmm0
	vmovdqu	%xmm0,(%r8)
EOT
    # the round keys' images leave the stack with the call
    if ($tier eq 'gfni_avx2') {
        $s .= "\tvpxor\t%xmm0,%xmm0,%xmm0\n";
        $s .= "\tvmovdqa\t%xmm0," . MISC(16 * $_) . "\n" for 0 .. 9;
    }
    $s .= "\tvzeroupper\n" . frame_align_end(@SAVED) . "${L}_ret:\n\tret\n"
        . function_end($fn);
    return $s;
}

my $code = rodata_begin() . pi_rodata() . $kc_rodata . text_begin();
for my $tier (qw(gfni_avx2 avx2)) {
    $code .= core($tier, $_) for qw(enc dec);
    $code .= parallel($tier, $_) for qw(ecb ctr cbc_dec cfb_dec);
    $code .= serial($tier, $_) for qw(cbc_enc cfb_enc ofb);
    $code .= schedule($tier);
}
for my $tier (qw(gfni_avx2 avx2)) {
    $code .= lean($tier, 'x', 'enc');
    $code .= lean($tier, 'y', $_) for qw(enc dec);
}

x86_64::finish($code);
