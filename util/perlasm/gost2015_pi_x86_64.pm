# SPDX-License-Identifier: Apache-2.0
#
# GOST R 34.12-2015's S-box pi (also Streebog's, RFC 6986 6.1) computed
# constant-time in xmm/ymm registers by the x86-64 AVX2 tiers
# (asm/kuznyechik-avx2-x86_64.pl, asm/streebog-avx2-x86_64.pl): the
# decomposition of Biryukov, Perrin and Udovenko (Eurocrypt 2016, IACR
# eprint 2015/812), checked at load against util/perlasm/kuznyechik_x86_64.pm's
# pi; its 16-byte VPSHUFB tables and VGF2P8AFFINEQB matrices (collected
# into pi_rodata(), with the caller's own tables, under the label prefix
# pi_setup names); the code of pi and pi^-1 (sbox, sbox_inv) over
# registers 0..7 as temporaries and $ZERO, $NIB, $C15 as constants.
package gost2015_pi_x86_64;

use strict;
use warnings;
use Exporter qw(import);
use kuznyechik_x86_64 qw(@KUZ_PI);

our @EXPORT = qw(pi_setup pi_tables pi_rodata linear_ends inverse_of
                 table16 matrix4 nibble_tables R $ZERO $NIB $C15
                 load_consts lookup split_map sbox sbox_core sbox_inv
                 sbox_lanes sbox_inv_lanes pi_alpha pi_out_h pi_out_sig);

# The label prefix of every table (".Lkuz_" for Kuznyechik's file, whose
# generated text this module must leave as it was) and the name in errors.
my ($LBL, $WHO) = (".Lpi_", "gost2015_pi_x86_64");
sub pi_setup { ($LBL, $WHO) = @_; }

# ---------------------------------------------------------------------------
# pi's decomposition: GF(2^4) mod x^4 + x^3 + 1 and the paper's components
# (Biryukov, Perrin, Udovenko, eprint 2015/812, section 3.2), checked below
# against pi itself.

sub gf16_mul {
    my ($a, $b) = @_;
    my $r = 0;
    while ($b) {
        $r ^= $a if $b & 1;
        $a <<= 1;
        $a ^= 0x19 if $a & 0x10;
        $b >>= 1;
    }
    return $r;
}

# x is a generator of GF(2^4)^*: logarithms to base x
my (@EXP16, @LOG16);
{
    my $v = 1;
    for my $k (0 .. 14) {
        die "$WHO: x is not primitive mod x^4+x^3+1\n"
            if defined $LOG16[$v];
        ($EXP16[$k], $LOG16[$v]) = ($v, $k);
        $v = gf16_mul($v, 2);
    }
}
sub gf16_inv { my ($a) = @_; return $a ? $EXP16[(15 - $LOG16[$a]) % 15] : 0; }

my @NU0 = map { hex } qw(2 5 3 b 6 9 e a 0 4 f 1 8 d c 7);
my @NU1 = map { hex } qw(7 6 c 9 0 f 8 1 4 5 b e d 2 3 a);
my @SIGMA = map { hex } qw(c d 0 4 8 b a e 3 9 5 2 f 1 6 7);
my @PHI = map { hex } qw(b 2 b 8 c 4 1 c 6 3 5 8 e 3 6 b);

# 8x8 GF(2) matrices, row i giving output bit 7-i, column j input bit 7-j
sub bit_matrix {
    my @rows = map { [ split // ] } @_;
    return sub {
        my ($x) = @_;
        my $y = 0;
        for my $i (0 .. 7) {
            my $p = 0;
            $p ^= $rows[$i][$_] & ($x >> (7 - $_)) for 0 .. 7;
            $y |= ($p & 1) << (7 - $i);
        }
        return $y;
    };
}
my $ALPHA = bit_matrix(qw(00001000 01000001 01000011 11101111
                          10001010 01000100 00011010 00100000));
my $OMEGA = bit_matrix(qw(00001010 00000100 00100000 10011010
                          00001000 01000100 10000010 00000001));

sub inverse_of {
    my ($f) = @_;
    my @t;
    $t[ $f->($_) ] = $_ for 0 .. 255;
    die "$WHO: map is not a bijection\n" if grep { !defined } @t[0 .. 255];
    return sub { return $t[ $_[0] ]; };
}
my ($ALPHA_INV, $OMEGA_INV) = map { inverse_of($_) } $ALPHA, $OMEGA;

for my $x (0 .. 255) {
    my $y = $ALPHA->($x);
    my ($l, $r) = ($y >> 4, $y & 15);
    $l = $r ? $NU1[ gf16_mul($l, gf16_inv($r)) ] : $NU0[$l];
    $r = $SIGMA[ gf16_mul($r, $PHI[$l]) ];
    die "$WHO: the decomposition misses pi($x)\n"
        unless $OMEGA->($l << 4 | $r) == $KUZ_PI[$x];
}

# ---------------------------------------------------------------------------
# Constants.  Every one is 32 bytes (a 16-byte table twice, or a qword
# four times), so that ymm and xmm forms read the same label.

# VGF2P8AFFINEQB's matrix of a linear map of bytes, from its columns
sub affine_matrix {
    my ($f) = @_;
    return kuznyechik_x86_64::affine_matrix(map { $f->(1 << $_) } 0 .. 7);
}

my $rodata = "";
sub table16 {
    my ($name, @t) = @_;
    die "$WHO: table $name has " . @t . " entries\n" unless @t == 16;
    my $b = join ',', map { sprintf '0x%02x', $_ } @t;
    $rodata .= ".p2align\t5\n${LBL}$name:\n\t.byte\t$b\n\t.byte\t$b\n";
}
sub matrix4 {
    my ($name, $q) = @_;
    my $h = sprintf '0x%016x', $q;
    $rodata .= ".p2align\t5\n${LBL}$name:\n" . "\t.quad\t$h\n" x 4;
}
sub nibble_tables {
    my ($name, $f) = @_;    # f: byte -> byte, linear; tables of nibbles
    table16("${name}_h", map { $f->($_ << 4) } 0 .. 15);
    table16("${name}_l", map { $f->($_) } 0 .. 15);
}


# The tables of the forward and inverse cores, in this order.
my $NU1_0 = $NU1[0];      # l'' = l' ^ nu1(0) in the forward S-box
my $SIGMA_0 = $SIGMA[0];  # r'' = r' ^ sigma(0)
my $LOG_ZERO = 0xf0;      # log(0): any sum with it keeps bit 7 set
my (@SIGMA_INV, @NU1_INV, @NU0_INV);
$SIGMA_INV[ $SIGMA[$_] ] = $_ for 0 .. 15;
$NU1_INV[ $NU1[$_] ] = $_ for 0 .. 15;
$NU0_INV[ $NU0[$_] ] = $_ for 0 .. 15;

# The 16-entry tables of the forward and inverse cores, first in .rodata;
# $no_inverse: only pi's
sub pi_tables {
    my ($no_inverse) = @_;
    table16('nib', (0x0f) x 16);
    table16('c15', (15) x 16);
    table16('log', map { $_ ? $LOG16[$_] : $LOG_ZERO } 0 .. 15);
    table16('loginv', map { $_ ? $LOG16[ gf16_inv($_) ] : 0 } 0 .. 15);
    table16('nu1exp', (map { $NU1[ $EXP16[$_] ] ^ $NU1_0 } 0 .. 14), 0);
    table16('nu0x', map { $NU0[$_] ^ $NU1_0 } 0 .. 15);
    table16('logphix', map { $LOG16[ $PHI[ $_ ^ $NU1_0 ] ] } 0 .. 15);
    return if $no_inverse;
    table16('logsiginv', map { $SIGMA_INV[$_] ? $LOG16[ $SIGMA_INV[$_] ] : $LOG_ZERO } 0 .. 15);
    table16('logphi', map { $LOG16[ $PHI[$_] ] } 0 .. 15);
    table16('lognu1inv', map { $NU1_INV[$_] ? $LOG16[ $NU1_INV[$_] ] : $LOG_ZERO } 0 .. 15);
}

# pi's ends as maps of bytes: alpha, whose output's nibbles are sbox_core's
# inputs l and r, and the two parts of pi(x) = pi_out_h(l'') ^
# pi_out_sig(s) from sbox_core's outputs (l'' in 0..15, s in 0..14 or
# with bit 7 set, where the part is 0 as VPSHUFB gives it): omega(l' ||
# r'') with s = log(r * phi(l')), r'' = sigma(exp s) ^ sigma(0) looked up
# through omega in the same table, the constants in the l'' part.
sub pi_alpha { return $ALPHA->($_[0]); }
sub pi_out_h { return $OMEGA->(($_[0] ^ $NU1_0) << 4 | $SIGMA_0); }
sub pi_out_sig { return $_[0] < 15 ? $OMEGA->($SIGMA[ $EXP16[ $_[0] ] ] ^ $SIGMA_0) : 0; }

# The linear ends of pi and pi^-1 in a representation: $to maps the
# cipher's bytes into it (identity, or phi for the one-block GFNI core,
# by matrices only).  $forms: 'all' (undefined: the same), the matrices
# and the nibble tables; 'gfni', the matrices of pi and pi^-1; 'pi', pi's.
sub linear_ends {
    my ($p, $to, $from, $forms) = @_;
    $forms //= 'all';
    my $alpha = sub { return $ALPHA->($from->($_[0])); };
    my $omega_inv = sub { return $OMEGA_INV->($from->($_[0])); };
    # forward: l and r of alpha(x), each in a byte's low nibble
    matrix4("${p}ahi_m", affine_matrix(sub { $alpha->($_[0]) >> 4 }));
    matrix4("${p}alo_m", affine_matrix(sub { $alpha->($_[0]) & 15 }));
    table16("${p}omh", map { $to->(pi_out_h($_)) } 0 .. 15);
    table16("${p}omsig", map { $to->(pi_out_sig($_)) } 0 .. 15);
    return if $forms eq 'pi';
    if ($forms eq 'all') {
        nibble_tables("${p}ah", sub { $alpha->($_[0]) >> 4 });
        nibble_tables("${p}al", sub { $alpha->($_[0]) & 15 });
    }
    # inverse: l' and r' of omega^-1(y), then alpha^-1(l || r)
    matrix4("${p}whi_m", affine_matrix(sub { $omega_inv->($_[0]) >> 4 }));
    matrix4("${p}wlo_m", affine_matrix(sub { $omega_inv->($_[0]) & 15 }));
    if ($forms eq 'all') {
        nibble_tables("${p}wh", sub { $omega_inv->($_[0]) >> 4 });
        nibble_tables("${p}wl", sub { $omega_inv->($_[0]) & 15 });
    }
    # alpha^-1(l || r) = aih[l] ^ ail[r], l and r from logarithms (s, a)
    # or nu0^-1: aih(exp a) or aih(nu0^-1(l')), ail(exp s)
    my $aih = sub { return $to->($ALPHA_INV->($_[0] << 4)); };
    table16("${p}aihexp", (map { $aih->($EXP16[$_]) } 0 .. 14), 0);
    table16("${p}aihnu0", map { $aih->($NU0_INV[$_]) } 0 .. 15);
    table16("${p}ailexp", (map { $to->($ALPHA_INV->($EXP16[$_])) } 0 .. 14), 0);
}

sub R { my ($w, $n) = @_; return "%${w}mm$n"; }
our ($ZERO, $NIB, $C15) = (15, 14, 13);

sub load_consts {
    my ($w) = @_;
    my ($z, $n, $c) = map { R($w, $_) } $ZERO, $NIB, $C15;
    return "\tvpxor\t$z,$z,$z\n\tvmovdqa\t${LBL}nib(%rip),$n\n"
        . "\tvmovdqa\t${LBL}c15(%rip),$c\n";
}

# ---------------------------------------------------------------------------
# pi and pi^-1 on every byte of register $x, the result in register 1;
# registers 0..7 are the temporaries (7 holds each table), so that 8..12
# keep values across.  $p names the representation's linear ends ('' or
# 'p'), $gfni whether they are VGF2P8AFFINEQB.

sub lookup {
    my ($w, $tbl, $idx, $dst) = @_;
    my $t = R($w, 7);
    return "\tvmovdqa\t${LBL}$tbl(%rip),$t\n\tvpshufb\t$idx,$t,$dst\n";
}

# (hi, lo) of a linear map of $x: by two matrices, or by the nibbles of
# $x (in registers 4 and 5) and four tables
sub split_map {
    my ($w, $gfni, $name, $x, $hi, $lo) = @_;
    my ($a, $b, $t) = map { R($w, $_) } 4, 5, 7;
    return "\tvgf2p8affineqb\t\$0,${LBL}${name}hi_m(%rip),$x,$hi\n"
        . "\tvgf2p8affineqb\t\$0,${LBL}${name}lo_m(%rip),$x,$lo\n" if $gfni;
    my $n = R($w, $NIB);
    my $s = "\tvpsrlw\t\$4,$x,$a\n\tvpand\t$n,$a,$a\n\tvpand\t$n,$x,$b\n";
    for ([ 'h', $hi ], [ 'l', $lo ]) {
        my ($half, $dst) = @$_;
        $s .= lookup($w, "${name}${half}_h", $a, $dst)
            . lookup($w, "${name}${half}_l", $b, $t) . "\tvpxor\t$t,$dst,$dst\n";
    }
    return $s;
}

# pi's core from l in 1 and r in 2 (alpha's nibbles): r == 0 in 3,
# logarithms in 4 and 5, their sum mod 15 in 6 (4 the reduction's
# temporary), l'' in 0; s stays in 6
sub sbox_core {
    my ($w) = @_;
    my ($ll, $l, $r, $z, $a, $b, $s) = map { R($w, $_) } 0 .. 6;
    my ($zero, $c15) = map { R($w, $_) } $ZERO, $C15;
    return <<"EOT";
	vpcmpeqb	$zero,$r,$z
@{[ lookup($w, 'loginv', $r, $a) . lookup($w, 'log', $l, $b) ]}	vpaddb	$b,$a,$s
	vpsubb	$c15,$s,$a
	vpminub	$a,$s,$s
@{[ lookup($w, 'nu1exp', $s, $a) . lookup($w, 'nu0x', $l, $b) ]}	vpblendvb	$z,$b,$a,$ll
@{[ lookup($w, 'logphix', $ll, $a) . lookup($w, 'log', $r, $b) ]}	vpaddb	$b,$a,$s
	vpsubb	$c15,$s,$a
	vpminub	$a,$s,$s
EOT
}

# pi of register $x into 1: its core between alpha's split and the two
# parts of omega
sub sbox {
    my ($w, $gfni, $p, $x) = @_;
    my ($ll, $l, $r, $b, $s) = map { R($w, $_) } 0, 1, 2, 5, 6;
    return split_map($w, $gfni, "${p}a", $x, $l, $r) . sbox_core($w)
        . lookup($w, "${p}omh", $ll, $l) . lookup($w, "${p}omsig", $s, $b)
        . "\tvpxor\t$b,$l,$l\n";
}

# l' = 1, r' = 2, log r in 6 (r = 0 where it has bit 7 set: mask in 2),
# log l in 4; the two ways of l looked up through alpha^-1 at once
sub sbox_inv {
    my ($w, $gfni, $p, $x) = @_;
    my ($ll, $l, $r, $a, $b, $s) = map { R($w, $_) } 0, 1, 2, 4, 5, 6;
    my ($zero, $c15) = map { R($w, $_) } $ZERO, $C15;
    return split_map($w, $gfni, "${p}w", $x, $l, $r) . <<"EOT"
@{[ lookup($w, 'logsiginv', $r, $a) . lookup($w, 'logphi', $l, $b) ]}	vpsubb	$b,$a,$s
	vpaddb	$c15,$s,$a
	vpminub	$a,$s,$s
	vpcmpgtb	$s,$zero,$r
@{[ lookup($w, 'lognu1inv', $l, $a) ]}	vpaddb	$s,$a,$a
	vpsubb	$c15,$a,$b
	vpminub	$b,$a,$a
@{[ lookup($w, "${p}aihexp", $a, $ll) . lookup($w, "${p}aihnu0", $l, $b) ]}	vpblendvb	$r,$b,$ll,$ll
@{[ lookup($w, "${p}ailexp", $s, $l) ]}	vpxor	$ll,$l,$l
EOT
}

# ---------------------------------------------------------------------------
# pi and pi^-1 on several registers at once (the lanes), each table loaded
# once into $tbl for all of them.  A lane is five registers [l, r, z, a,
# b]: the input in z, the output in l.  The steps are sbox's and
# sbox_inv's, with s kept in a (pi) or z (pi^-1).

sub lanes_code {
    my ($w, $gfni, $p, $name, $tbl, $lanes, @steps) = @_;
    my ($zero, $c15, $n) = map { R($w, $_) } $ZERO, $C15, $NIB;
    my $s = "";
    my $each = sub {
        my ($f) = @_;
        $s .= $f->(@$_) for @$lanes;
    };
    # the split: l and r of the map $name of z
    if ($gfni) {
        for ([ 'hi', 0 ], [ 'lo', 1 ]) {
            my ($half, $k) = @$_;
            $s .= "\tvmovdqa\t${LBL}${name}${half}_m(%rip),$tbl\n";
            $each->(sub { "\tvgf2p8affineqb\t\$0,$tbl,$_[2],$_[$k]\n" });
        }
    } else {
        $each->(sub {
            my ($l, $r, $z, $a, $b) = @_;
            "\tvpsrlw\t\$4,$z,$a\n\tvpand\t$n,$a,$a\n\tvpand\t$n,$z,$b\n";
        });
        for ([ 'h', 0 ], [ 'l', 1 ]) {
            my ($half, $k) = @$_;
            $s .= "\tvmovdqa\t${LBL}${name}${half}_h(%rip),$tbl\n";
            $each->(sub { "\tvpshufb\t$_[3],$tbl,$_[$k]\n" });
            $s .= "\tvmovdqa\t${LBL}${name}${half}_l(%rip),$tbl\n";
            $each->(sub { "\tvpshufb\t$_[4],$tbl,$_[2]\n\tvpxor\t$_[2],$_[$k],$_[$k]\n" });
        }
    }
    # then the steps: a table name and the lane's index and destination
    # (a lookup), or the code of a lane
    for my $st (@steps) {
        if (ref $st eq 'ARRAY') {
            my ($t, $f) = @$st;
            $s .= "\tvmovdqa\t${LBL}$t(%rip),$tbl\n";
            $each->(sub { my ($i, $d) = $f->(@_); "\tvpshufb\t$i,$tbl,$d\n" });
        } else {
            $each->(sub { $st->(@_, $zero, $c15) });
        }
    }
    return $s;
}

sub sbox_lanes {
    my ($w, $gfni, $p, $tbl, $lanes) = @_;
    # a = (a + b) mod 15, logarithms (b the temporary)
    my $add_logs = sub {
        my ($a, $b, $c15) = @_[3, 4, 6];
        "\tvpaddb\t$b,$a,$a\n\tvpsubb\t$c15,$a,$b\n\tvpminub\t$b,$a,$a\n";
    };
    return lanes_code($w, $gfni, $p, "${p}a", $tbl, $lanes,
        sub { "\tvpcmpeqb\t$_[5],$_[1],$_[2]\n" },
        [ 'loginv', sub { ($_[1], $_[3]) } ],
        [ 'log', sub { ($_[0], $_[4]) } ],
        $add_logs,
        [ 'nu1exp', sub { ($_[3], $_[4]) } ],
        [ 'nu0x', sub { ($_[0], $_[3]) } ],
        sub { "\tvpblendvb\t$_[2],$_[3],$_[4],$_[0]\n" },
        [ 'logphix', sub { ($_[0], $_[3]) } ],
        [ 'log', sub { ($_[1], $_[4]) } ],
        $add_logs,
        [ "${p}omh", sub { ($_[0], $_[4]) } ],
        [ "${p}omsig", sub { ($_[3], $_[0]) } ],
        sub { "\tvpxor\t$_[4],$_[0],$_[0]\n" });
}

sub sbox_inv_lanes {
    my ($w, $gfni, $p, $tbl, $lanes) = @_;
    return lanes_code($w, $gfni, $p, "${p}w", $tbl, $lanes,
        [ 'logsiginv', sub { ($_[1], $_[3]) } ],
        [ 'logphi', sub { ($_[0], $_[4]) } ],
        sub {
            my ($l, $r, $z, $a, $b, $zero, $c15) = @_;
            "\tvpsubb\t$b,$a,$z\n\tvpaddb\t$c15,$z,$a\n\tvpminub\t$a,$z,$z\n"
            . "\tvpcmpgtb\t$z,$zero,$r\n";
        },
        [ 'lognu1inv', sub { ($_[0], $_[3]) } ],
        sub {
            my ($l, $r, $z, $a, $b, $zero, $c15) = @_;
            "\tvpaddb\t$z,$a,$a\n\tvpsubb\t$c15,$a,$b\n\tvpminub\t$b,$a,$a\n";
        },
        [ "${p}aihexp", sub { ($_[3], $_[4]) } ],
        [ "${p}aihnu0", sub { ($_[0], $_[3]) } ],
        sub { "\tvpblendvb\t$_[1],$_[3],$_[4],$_[4]\n" },
        [ "${p}ailexp", sub { ($_[2], $_[0]) } ],
        sub { "\tvpxor\t$_[4],$_[0],$_[0]\n" });
}

sub pi_rodata { return $rodata; }

1;
