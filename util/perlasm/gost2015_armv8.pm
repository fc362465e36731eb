# SPDX-License-Identifier: Apache-2.0
#
# What the AArch64 kernels of Kuznyechik (asm/kuznyechik-armv8.pl) and
# Streebog (asm/streebog-armv8.pl) share: the 256-entry S-box pi of GOST R
# 34.12-2015 (RFC 7801 section 4.1; GOST R 34.11-2012 / RFC 6986 section
# 6.2 uses the same permutation), as data for the rodata section, and the
# constant-time lookup that applies it to the 16 bytes of a vector
# register from the table held in 16 registers.
#
#   use gost2015_armv8;
#   $code .= sbox_rodata(".Lpi", @PI);          # 256 bytes, 16-aligned
#   $code .= bytes_rodata(@bytes);              # .byte rows of 16
#   $code .= pi_load($ptr, @T);                 # 4 x LD1 into @T (16 regs)
#   $code .= pi_lookup($dst, $idx, $c40, @T);   # dst = pi(idx) per byte
package gost2015_armv8;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT = qw(@PI @PI_INV bytes_rodata sbox_rodata pi_load pi_lookup);

# pi (RFC 7801 section 4.1, GOST R 34.12-2015 section 4.1.1).
our @PI = (
    252, 238, 221,  17, 207, 110,  49,  22, 251, 196, 250, 218,  35, 197,   4,  77,
    233, 119, 240, 219, 147,  46, 153, 186,  23,  54, 241, 187,  20, 205,  95, 193,
    249,  24, 101,  90, 226,  92, 239,  33, 129,  28,  60,  66, 139,   1, 142,  79,
      5, 132,   2, 174, 227, 106, 143, 160,   6,  11, 237, 152, 127, 212, 211,  31,
    235,  52,  44,  81, 234, 200,  72, 171, 242,  42, 104, 162, 253,  58, 206, 204,
    181, 112,  14,  86,   8,  12, 118,  18, 191, 114,  19,  71, 156, 183,  93, 135,
     21, 161, 150,  41,  16, 123, 154, 199, 243, 145, 120, 111, 157, 158, 178, 177,
     50, 117,  25,  61, 255,  53, 138, 126, 109,  84, 198, 128, 195, 189,  13,  87,
    223, 245,  36, 169,  62, 168,  67, 201, 215, 121, 214, 246, 124,  34, 185,   3,
    224,  15, 236, 222, 122, 148, 176, 188, 220, 232,  40,  80,  78,  51,  10,  74,
    167, 151,  96, 115,  30,   0,  98,  68,  26, 184,  56, 130, 100, 159,  38,  65,
    173,  69,  70, 146,  39,  94,  85,  47, 140, 163, 165, 125, 105, 213, 149,  59,
      7,  88, 179,  64, 134, 172,  29, 247,  48,  55, 107, 228, 136, 217, 231, 137,
    225,  27, 131,  73,  76,  63, 248, 254, 141,  83, 170, 144, 202, 216, 133,  97,
     32, 113, 103, 164,  45,  43,   9,  91, 203, 155,  37, 208, 190, 229, 108,  82,
     89, 166, 116, 210, 230, 244, 180, 192, 209, 102, 175, 194,  57,  75,  99, 182,
);

# pi^-1, for decryption.
our @PI_INV;
$PI_INV[$PI[$_]] = $_ for 0 .. 255;

# Byte rows of a rodata table.
sub bytes_rodata {
    my @b = @_;
    my $s = "";
    while (@b) {
        $s .= "\t.byte\t" . join(',', map { sprintf '0x%02x', $_ } splice(@b, 0, 16)) . "\n";
    }
    return $s;
}

# A 256-entry S-box (pi or pi^-1) as a 16-aligned table.
sub sbox_rodata {
    my ($label, @sbox) = @_;
    die "gost2015_armv8.pm: an S-box has 256 entries\n" unless @sbox == 256;
    return ".p2align\t4\n$label:\n" . bytes_rodata(@sbox);
}

# The table (pi or pi^-1) into 16 registers (four groups of four consecutive ones, as
# TBL takes them); $ptr is left past the table.
sub pi_load {
    my ($ptr, @t) = @_;
    die "gost2015_armv8.pm: pi needs 16 registers\n" unless @t == 16;
    my $s = "";
    for my $g (0 .. 3) {
        my @r = @t[4 * $g .. 4 * $g + 3];
        $s .= "\tld1\t{$r[0].16b-$r[3].16b},[$ptr],#64\n";
    }
    return $s;
}

# dst = pi(idx) (or pi^-1, by the table loaded) in every byte: TBL over the first 64 entries, then TBX
# over each next 64 with the index lowered by 64 ($c40 holds 0x40 in every
# byte), so each byte takes exactly the entry of its group and the
# indices never choose an address.  idx is destroyed; dst != idx.
sub pi_lookup {
    my ($dst, $idx, $c40, @t) = @_;
    my $s = "\ttbl\t$dst.16b,{$t[0].16b-$t[3].16b},$idx.16b\n";
    for my $g (1 .. 3) {
        $s .= "\tsub\t$idx.16b,$idx.16b,$c40.16b\n";
        $s .= "\ttbx\t$dst.16b,{$t[4 * $g].16b-$t[4 * $g + 3].16b},$idx.16b\n";
    }
    return $s;
}

1;
