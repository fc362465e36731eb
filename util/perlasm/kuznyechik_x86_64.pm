# SPDX-License-Identifier: Apache-2.0
#
# What the x86-64 Kuznyechik tiers share (asm/kuznyechik-*-x86_64.pl): the
# cipher's constants generated in perl from the definitions of GOST R
# 34.12-2015 (RFC 7801), so that no tier holds a second copy of them:
#
#   @KUZ_PI, @KUZ_PI_INV   pi (5.1.1, RFC 7801 section 2) and its inverse
#   @KUZ_L_COEF            the linear step's coefficients (5.1.2), in the
#                          block's memory order
#   kuz_gf_mul             multiplication in GF(2^8) mod x^8+x^7+x^6+x+1
#                          (0x1C3, 5.1.2)
#   kuz_mul_matrix         the 8x8 GF(2) matrix of y = c * x in the operand
#                          layout of VGF2P8AFFINEQB, as a 64-bit integer
#   @KUZ_L, @KUZ_L_INV     L = R^16 and L^-1 as 16x16 matrices over the
#                          field: row i, column j is the coefficient of
#                          memory byte j of the input in memory byte i of
#                          the output
#   kuz_encrypt_model      a slow one-block model (key schedule included)
#   $KUZ_AES_MAP, $KUZ_AES_UNMAP
#                          an isomorphism of the field onto AES's (mod
#                          0x11B, where VGF2P8MULB multiplies) and back,
#                          as VGF2P8AFFINEQB matrices: in its image c * x
#                          is one VGF2P8MULB by the image of c
#   kuz_to_aes             that isomorphism on one byte
#
# Memory order: byte 0 of a block in memory is a_15 of the standard, the
# first byte RFC 7801 prints; R(a_15..a_0) = l(a_15..a_0) || a_15..a_1,
# so in memory R shifts every byte one place up and puts l at byte 0.
# Loading the module checks the model against RFC 7801 section 5's
# example and L^-1 against L, so a tier never builds on a wrong table.
package kuznyechik_x86_64;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT = qw(@KUZ_PI @KUZ_PI_INV @KUZ_L_COEF @KUZ_L @KUZ_L_INV
                 $KUZ_AES_MAP $KUZ_AES_UNMAP
                 kuz_gf_mul kuz_mul_matrix kuz_encrypt_model kuz_to_aes);

# pi, GOST R 34.12-2015 5.1.1 (RFC 7801 section 2), pi(0), pi(1), ...
our @KUZ_PI = map { hex } qw(
    fc ee dd 11 cf 6e 31 16 fb c4 fa da 23 c5 04 4d
    e9 77 f0 db 93 2e 99 ba 17 36 f1 bb 14 cd 5f c1
    f9 18 65 5a e2 5c ef 21 81 1c 3c 42 8b 01 8e 4f
    05 84 02 ae e3 6a 8f a0 06 0b ed 98 7f d4 d3 1f
    eb 34 2c 51 ea c8 48 ab f2 2a 68 a2 fd 3a ce cc
    b5 70 0e 56 08 0c 76 12 bf 72 13 47 9c b7 5d 87
    15 a1 96 29 10 7b 9a c7 f3 91 78 6f 9d 9e b2 b1
    32 75 19 3d ff 35 8a 7e 6d 54 c6 80 c3 bd 0d 57
    df f5 24 a9 3e a8 43 c9 d7 79 d6 f6 7c 22 b9 03
    e0 0f ec de 7a 94 b0 bc dc e8 28 50 4e 33 0a 4a
    a7 97 60 73 1e 00 62 44 1a b8 38 82 64 9f 26 41
    ad 45 46 92 27 5e 55 2f 8c a3 a5 7d 69 d5 95 3b
    07 58 b3 40 86 ac 1d f7 30 37 6b e4 88 d9 e7 89
    e1 1b 83 49 4c 3f f8 fe 8d 53 aa 90 ca d8 85 61
    20 71 67 a4 2d 2b 09 5b cb 9b 25 d0 be e5 6c 52
    59 a6 74 d2 e6 f4 b4 c0 d1 66 af c2 39 4b 63 b6);
our @KUZ_PI_INV;
$KUZ_PI_INV[ $KUZ_PI[$_] ] = $_ for 0 .. 255;
die "kuznyechik_x86_64.pm: pi is not a permutation\n"
    if grep { !defined } @KUZ_PI_INV[0 .. 255];

# l's coefficients, GOST R 34.12-2015 5.1.2: l(a_15..a_0) = 148 a_15 +
# 32 a_14 + ... + 1 a_0, listed here by memory byte (byte 0 = a_15).
our @KUZ_L_COEF = (148, 32, 133, 16, 194, 192, 1, 251,
                   1, 192, 194, 16, 133, 32, 148, 1);

# GF(2^8) with p(x) = x^8 + x^7 + x^6 + x + 1 (5.1.2)
sub kuz_gf_mul {
    my ($a, $b) = @_;
    my $r = 0;
    while ($b) {
        $r ^= $a if $b & 1;
        $a <<= 1;
        $a ^= 0x1c3 if $a & 0x100;
        $b >>= 1;
    }
    return $r;
}

# The VGF2P8AFFINEQB matrix of a linear byte map given by its columns
# (the images of 1, 2, 4, ...): bit i of each result byte is the parity of
# (byte 7-i of the matrix qword) AND x (Intel SDM, GF2P8AFFINEQB).  For
# y = c x column j is c * 2^j.
no warnings 'portable';    # 64-bit matrices need a 64-bit perl
sub affine_matrix {
    my @col = @_;
    my $q = 0;
    for my $j (0 .. 7) {
        for my $i (0 .. 7) {
            $q |= (($col[$j] >> $i) & 1) << (8 * (7 - $i) + $j);
        }
    }
    return $q;
}

sub kuz_mul_matrix {
    my ($c) = @_;
    return affine_matrix(map { kuz_gf_mul($c, 1 << $_) } 0 .. 7);
}

# The AES field (FIPS 197 4.2, modulus 0x11B) is isomorphic to this one:
# with beta a root of 0x1C3 there, x^k -> beta^k extends linearly to the
# isomorphism.  The first such root from 2 upwards is taken.
sub aes_mul {
    my ($a, $b) = @_;
    my $r = 0;
    while ($b) {
        $r ^= $a if $b & 1;
        $a <<= 1;
        $a ^= 0x11b if $a & 0x100;
        $b >>= 1;
    }
    return $r;
}

my @beta_pow;
for my $beta (2 .. 255) {
    my @pw = (1);
    push @pw, aes_mul($pw[-1], $beta) for 1 .. 8;
    # beta^8 + beta^7 + beta^6 + beta + 1 = 0
    next if $pw[8] ^ $pw[7] ^ $pw[6] ^ $pw[1] ^ $pw[0];
    @beta_pow = @pw[0 .. 7];
    last;
}

sub kuz_to_aes {
    my ($x) = @_;
    my $y = 0;
    for my $k (0 .. 7) {
        $y ^= $beta_pow[$k] if ($x >> $k) & 1;
    }
    return $y;
}

our $KUZ_AES_MAP = affine_matrix(@beta_pow);
our $KUZ_AES_UNMAP;
{
    my %back;
    $back{ kuz_to_aes($_) } = $_ for 0 .. 255;
    die "kuznyechik_x86_64.pm: the field map is not a bijection\n"
        unless keys %back == 256;
    $KUZ_AES_UNMAP = affine_matrix(map { $back{ 1 << $_ } } 0 .. 7);
    for my $i (0 .. 7) {
        for my $k (0 .. 7) {
            die "kuznyechik_x86_64.pm: the field map is no isomorphism\n"
                unless kuz_to_aes(kuz_gf_mul(1 << $i, 1 << $k))
                    == aes_mul($beta_pow[$i], $beta_pow[$k]);
        }
    }
}

# R and its inverse on a block in memory order (a list of 16 bytes)
sub kuz_r {
    my @a = @_;
    my $l = 0;
    $l ^= kuz_gf_mul($KUZ_L_COEF[$_], $a[$_]) for 0 .. 15;
    return ($l, @a[0 .. 14]);
}

sub kuz_r_inv {
    my @a = @_;
    my @b = (@a[1 .. 15], 0);
    # l(b) with a_0 still missing: a_0 has coefficient 1
    my $l = 0;
    $l ^= kuz_gf_mul($KUZ_L_COEF[$_], $b[$_]) for 0 .. 14;
    $b[15] = $a[0] ^ $l;
    return @b;
}

sub kuz_l_block {
    my @a = @_;
    @a = kuz_r(@a) for 1 .. 16;
    return @a;
}

sub kuz_l_inv_block {
    my @a = @_;
    @a = kuz_r_inv(@a) for 1 .. 16;
    return @a;
}

# The matrices, column by column from the images of unit vectors (L is
# linear over the field, so column j is L(e_j)).
sub l_matrix {
    my ($f) = @_;
    my @m;
    for my $j (0 .. 15) {
        my @e = (0) x 16;
        $e[$j] = 1;
        my @col = $f->(@e);
        $m[$_][$j] = $col[$_] for 0 .. 15;
    }
    return @m;
}
our @KUZ_L = l_matrix(\&kuz_l_block);
our @KUZ_L_INV = l_matrix(\&kuz_l_inv_block);

sub xor_block { my ($a, $b) = @_; return map { $a->[$_] ^ $b->[$_] } 0 .. 15; }

# One block through the whole cipher: key (32 bytes) and block as lists
# of bytes in memory order; the schedule is 5.4's Feistel over C_i =
# L(Vec_128(i)).
sub kuz_encrypt_model {
    my ($key, $block) = @_;
    my ($a1, $a0) = ([ @$key[0 .. 15] ], [ @$key[16 .. 31] ]);
    my @k = ($a1, $a0);
    for my $i (1 .. 32) {
        my @c = kuz_l_block((0) x 15, $i);
        my @f = kuz_l_block(map { $KUZ_PI[$_] } xor_block($a1, \@c));
        ($a1, $a0) = ([ xor_block(\@f, $a0) ], $a1);
        push @k, $a1, $a0 if $i % 8 == 0;
    }
    my @b = @$block;
    for my $r (0 .. 8) {
        @b = kuz_l_block(map { $KUZ_PI[$_] } xor_block(\@b, $k[$r]));
    }
    return xor_block(\@b, $k[9]);
}

# RFC 7801 section 5 (GOST R 34.12-2015 A.1), bytes as printed
{
    my @key = map { hex } unpack '(A2)*',
        '8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef';
    my @pt = map { hex } unpack '(A2)*', '1122334455667700ffeeddccbbaa9988';
    my $ct = join '', map { sprintf '%02x', $_ } kuz_encrypt_model(\@key, \@pt);
    die "kuznyechik_x86_64.pm: model gives $ct for RFC 7801's example\n"
        unless $ct eq '7f679d90bebc24305a468d42b9d4edcd';
    for my $x ([ 0 .. 15 ], [ map { 17 * $_ ^ 0xa5 } 0 .. 15 ]) {
        my $y = join ',', kuz_l_inv_block(kuz_l_block(@$x));
        die "kuznyechik_x86_64.pm: L^-1 L is not the identity\n"
            unless $y eq join ',', @$x;
    }
}

1;
