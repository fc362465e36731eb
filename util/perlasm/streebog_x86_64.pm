# SPDX-License-Identifier: Apache-2.0
#
# What the x86-64 Streebog tiers share (asm/streebog-gfni-avx512-x86_64.pl
# today): the standard's constants, written once here as GOST R 34.11-2012
# (RFC 6986, section 6) prints them (pi taken from Kuznyechik's module, the
# same S-box), and what the tiers' tables are computed from: the 8x8 bit
# blocks of L, as GF(2) matrices for VGF2P8AFFINEQB, the byte transpose P,
# the iteration constants in the transposed layout the kernels keep vectors
# in, and the .rodata lines of byte and qword tables.  Nothing here is a
# table copied from another implementation: every one is derived from pi,
# tau, A and C.
#
# Vectors are 64 bytes b[0..63], b[8r+c] byte c (least significant first)
# of the little-endian word r, as src/streebog.h has them.  The standard's
# transforms on that order (RFC 6986 6.2-6.4):
#   S: b[i] = pi(b[i]);  P: b[i] = b[tau(i)], tau(8r+c) = 8c+r;
#   L: each word w becomes XOR over j of A[j] where bit 63-j of w is set.
# L maps byte c of a word to byte i through an 8x8 bit matrix M(i,c)
# (l_block below); the kernels hold a vector transposed, "T layout":
# byte 8c+r of a register is byte c of word r.
package streebog_x86_64;

use strict;
use warnings;
no warnings 'portable';    # 64-bit hex constants
use Exporter qw(import);
use x86_64;
use kuznyechik_x86_64 qw(@KUZ_PI);

our @EXPORT = qw(@PI @A @C tau l_block gf_matrix c_bytes transpose_bytes
                 byte_lines quad_lines);

# pi (RFC 6986 6.1) is GOST R 34.12-2015's S-box, which
# util/perlasm/kuznyechik_x86_64.pm holds (and checks against RFC 7801's
# example): pi(0) .. pi(255).
our @PI = @KUZ_PI;

# A (RFC 6986 6.4): the rows of L's 64x64 bit matrix, A[0] for bit 63.
our @A = map { hex } qw(
    8e20faa72ba0b470 47107ddd9b505a38 ad08b0e0c3282d1c d8045870ef14980e
    6c022c38f90a4c07 3601161cf205268d 1b8e0b0e798c13c8 83478b07b2468764
    a011d380818e8f40 5086e740ce47c920 2843fd2067adea10 14aff010bdd87508
    0ad97808d06cb404 05e23c0468365a02 8c711e02341b2d01 46b60f011a83988e
    90dab52a387ae76f 486dd4151c3dfdb9 24b86a840e90f0d2 125c354207487869
    092e94218d243cba 8a174a9ec8121e5d 4585254f64090fa0 accc9ca9328a8950
    9d4df05d5f661451 c0a878a0a1330aa6 60543c50de970553 302a1e286fc58ca7
    18150f14b9ec46dd 0c84890ad27623e0 0642ca05693b9f70 0321658cba93c138
    86275df09ce8aaa8 439da0784e745554 afc0503c273aa42a d960281e9d1d5215
    e230140fc0802984 71180a8960409a42 b60c05ca30204d21 5b068c651810a89e
    456c34887a3805b9 ac361a443d1c8cd2 561b0d22900e4669 2b838811480723ba
    9bcf4486248d9f5d c3e9224312c8c1a0 effa11af0964ee50 f97d86d98a327728
    e4fa2054a80b329c 727d102a548b194e 39b008152acb8227 9258048415eb419d
    492c024284fbaec0 aa16012142f35760 550b8e9e21f7a530 a48b474f9ef5dc18
    70a6a56e2440598e 3853dc371220a247 1ca76e95091051ad 0edd37c48a08a6d8
    07e095624504536c 8d70c431ac02a736 c83862965601dd1b 641c314b2b8ee083
);

# C_1 .. C_12 (RFC 6986 6.5) as little-endian words, word 0 first.
our @C = map { [ map { hex } split ] } (
    'dd806559f2a64507 05767436cc744d23 a2422a08a460d315 4b7ce09192676901
     714eb88d7585c4fc 2f6a76432e45d016 ebcb2f81c0657c1f b1085bda1ecadae9',
    'e679047021b19bb7 55dda21bd7cbcd56 5cb561c2db0aa7ca 9ab5176b12d69958
     61d55e0f16b50131 f3feea720a232b98 4fe39d460f70b5d7 6fa3b58aa99d2f1a',
    '991e96f50aba0ab2 c2b6f443867adb31 c1c93a376062db09 d3e20fe490359eb1
     f2ea7514b1297b7b 06f15e5f529c1f8b 0a39fc286a3d8435 f574dcac2bce2fc7',
    '220cbebc84e3d12e 3453eaa193e837f1 d8b71333935203be a9d72c82ed03d675
     9d721cad685e353f 488e857e335c3c7d f948e1a05d71e4dd ef1fdfb3e81566d2',
    '601758fd7c6cfe57 7a56a27ea9ea63f5 dfff00b723271a16 bfcd1747253af5a3
     359e35d7800fffbd 7f151c1f1686104a 9a3f410c6ca92363 4bea6bacad474799',
    'fa68407a46647d6e bf71c57236904f35 0af21f66c2bec6b6 cffaa6b71c9ab7b4
     187f9ab49af08ec6 2d66c4f95142a46c 6fa4c33b7a3039c0 ae4faeae1d3ad3d9',
    '8886564d3a14d493 3517454ca23c4af3 06476983284a0504 0992abc52d822c37
     d3473e33197a93c9 399ec6c7e6bf87c9 51ac86febf240954 f4c70e16eeaac5ec',
    'a47f0dd4bf02e71e 36acc2355951a8d9 69d18d2bd1a5c42f f4892bcb929b0690
     89b4443b4ddbc49a 4eb7f8719c36de1e 03e7aa020c6e4141 9b1f5b424d93c9a7',
    '7261445183235adb 0e38dc92cb1f2a60 7b2b8a9aa6079c54 800a440bdbb2ceb1
     3cd955b7e00d0984 3a7d3a1b25894224 944c9ad8ec165fde 378f5a541631229b',
    '74b4c7fb98459ced 3698fad1153bb6c3 7a1e6c303b7652f4 9fe76702af69334b
     1fffe18a1b336103 8941e71cff8a78db 382ae548b2e4f3f3 abbedea680056f52',
    '6bcaa4cd81f32d1b dea2594ac06fd85d efbacd1d7d476e98 8a1d71efea48b9ca
     2001802114846679 d8fa6bbbebab0761 3002c6cd635afe94 7bcd9ed0efc889fb',
    '48bc924af11bd720 faf417d5d9b21b99 e71da4aa88e12852 5d80ef9d1891cc86
     f82012d430219f9b cda43c32bcdf1d77 d21380b00449b17a 378ee767f11631ba',
);

# tau (RFC 6986 6.3): the byte transpose, an involution.
sub tau { my ($i) = @_; return 8 * ($i % 8) + int($i / 8); }

# The block M(i,c) of L: byte c of a word in, byte i out, as 8 row bytes
# (row j: which input bits give output bit j).  Input bit 8c+b selects
# A[63-8c-b].
sub l_block {
    my ($i, $c) = @_;
    my @rows = (0) x 8;
    for my $b (0 .. 7) {
        my $col = ($A[63 - 8 * $c - $b] >> (8 * $i)) & 0xff;
        for my $j (0 .. 7) {
            $rows[$j] |= (($col >> $j) & 1) << $b;
        }
    }
    return @rows;
}

# A matrix as VGF2P8AFFINEQB reads its qword: output bit j is the parity of
# the input byte ANDed with byte 7-j of the qword (Intel SDM, GF2P8AFFINEQB).
sub gf_matrix {
    my (@rows) = @_;
    my $q = 0;
    $q |= $rows[$_] << (8 * (7 - $_)) for 0 .. 7;
    return $q;
}

# A 64-byte vector in T layout (the byte transpose, tau).
sub transpose_bytes {
    my (@b) = @_;
    return map { $b[tau($_)] } 0 .. 63;
}

# The 64 bytes of C_k (k = 1..12) in memory order.
sub c_bytes {
    my ($k) = @_;
    return map { my $w = $_; map { ($w >> (8 * $_)) & 0xff } 0 .. 7 } @{ $C[$k - 1] };
}

# .rodata lines: bytes 16 a line, qwords 4 a line.
sub byte_lines {
    my (@b) = @_;
    my $s = "";
    while (my @l = splice(@b, 0, 16)) {
        $s .= ".byte\t" . join(',', map { sprintf '0x%02x', $_ } @l) . "\n";
    }
    return $s;
}

sub quad_lines {
    my (@q) = @_;
    my $s = "";
    while (my @l = splice(@q, 0, 4)) {
        $s .= ".quad\t" . join(',', map { sprintf '0x%016x', $_ } @l) . "\n";
    }
    return $s;
}

1;
