# SPDX-License-Identifier: Apache-2.0
#
# Carry-less multiply-and-reduce in GF(2^n) for the x86-64 kernels: the one
# generator that asm/ghash-x86_64.pl (GHASH alone), the fused GCM kernels
# of asm/sm4-gfni-avx512-x86_64.pl and asm/sm4-aesni-x86_64.pl, and MGM's
# multiply-accumulate (asm/mgm-x86_64.pl) share, with the constants it
# reads.  Instructions come back as lists of
# operations without tab or newline, so that a kernel can interleave them
# with its own (clmul_text makes them lines); registers are perl strings
# ("%zmm3") or memory operands where an operation takes one.
#
# A multiplication is three steps, each a function, so that a kernel sums
# many products (a group of blocks times descending powers of H) before it
# folds and reduces once, and puts its own work between the steps:
#   clmul_mul     the four 64x64 products of every 128-bit lane, into or
#                 onto the accumulators lo, mid, hi (schoolbook; the middle
#                 products summed), with the issue order and temporaries
#                 the kernel chose;
#   clmul_fold    the middle sum into lo and hi: a 256-bit product;
#   clmul_reduce  the 256-bit product to 128 bits modulo the field's
#                 polynomial.
# Only the last depends on the field and on its bit order, which a field
# descriptor names:
#   %GHASH_FIELD  GCM (NIST SP 800-38D): x^128 + x^7 + x^2 + x + 1 with
#                 x^0 at the top bit of byte 0, worked "reflected": a block
#                 loaded byte-reversed is a 128-bit integer whose bit 127
#                 is the coefficient of x^0 (Gueron and Kounavis, "Intel
#                 Carry-Less Multiplication Instruction and its Usage for
#                 Computing the GCM Mode", 2010).  The product of two
#                 reflections is the reflection of the product shifted by
#                 one bit; keeping H premultiplied by x^-1 (R(H) << 1,
#                 reduced by the twist below) absorbs the shift, and the
#                 low 128 bits of the 256-bit product fold into the high
#                 ones by two multiplications by 0xc2 << 56, each followed
#                 by a swap of the 64-bit halves.
#   %MGM128_FIELD, %MGM64_FIELD  MGM (RFC 9058): the natural bit order,
#                 a block loaded byte-reversed is the 128-bit (or, each
#                 64-bit half reversed on its own, the 64-bit) integer whose
#                 bit j is the coefficient of x^j, so the carry-less product
#                 of two blocks is the product itself, with no shift and no
#                 premultiplied operand.  GF(2^128) mod x^128 + x^7 + x^2 +
#                 x + 1: the high 128 bits' top qword times 0x87 folds into
#                 the two qwords below it, then the next one the same way
#                 (two multiplications, the 7-bit overflow of the first
#                 carried by the second).  GF(2^64) mod x^64 + x^4 + x^3 +
#                 x + 1: a product is one 0x00 (or 0x11) multiplication, a
#                 127-bit lane with no middle fold; its high qword times
#                 0x1b, and the 3-bit overflow of that once more.
# clmul_mul and clmul_fold do not depend on the bit order: the
# schoolbook products and the middle fold are the same for any field of
# 128-bit blocks.
package clmul_x86_64;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT = qw(%GHASH_FIELD %MGM128_FIELD %MGM64_FIELD clmul_rodata
                 clmul_mul clmul_fold clmul_reduce clmul_lanes_sum clmul_text);

no warnings 'portable';    # 64-bit constants need a 64-bit perl
our %GHASH_FIELD = (
    name  => 'GHASH',
    bits  => 128,
    order => 'reflected',
    # the folding constant, in both qwords of a lane
    fold  => 0xc200000000000000,
    # R(x^-1): what the bit shifted out of R(H) << 1 stands for
    twist => [ 0x0000000000000001, 0xc200000000000000 ],
);
# RFC 9058's fields: fold is the polynomial's terms below x^bits
our %MGM128_FIELD = (name => 'MGM128', bits => 128, order => 'natural',
                     fold => 0x87);
our %MGM64_FIELD = (name => 'MGM64', bits => 64, order => 'natural',
                    fold => 0x1b);

# The lines a list of operations makes.
sub clmul_text { return join '', map { "\t$_\n" } grep { $_ ne '' } @_; }

sub vreg_num { return $_[0] =~ /^%[xyz]mm(\d+)$/ ? $1 : 0; }
sub wide_of  { return $_[0] =~ /^%([xyz])mm/ ? $1 : 'x'; }

# XOR of two registers of the width of $d (EVEX's vpxorq for zmm).
sub xor2 {
    my ($d, $a, $b) = @_;
    my $op = wide_of($d) eq 'z' ? 'vpxorq' : 'vpxor';
    return "$op\t$a,$b,$d";
}

# The field's constants as .rodata text: labels given, each lane count a
# copy of the 16-byte pattern (so that memory operands of that many lanes
# may start there).  bswap: byte reversal of a block, for loading it in the
# reflected order (a field in the natural order needs it as well, as a
# big-endian load; a 64-bit field's reverses each qword); fold: the
# reduction constant; twist: x^-1's (GHASH's H premultiplication, one lane;
# the reflected order only).
sub clmul_rodata {
    my ($field, %o) = @_;
    die "clmul_rodata: no twist in the $field->{order} order\n"
        if $o{twist} && $field->{order} ne 'reflected';
    my $s = "";
    if ($o{bswap}) {
        my ($label, $lanes) = @{ $o{bswap} };
        my @rev = $field->{bits} == 64 ? ((reverse 0 .. 7), (reverse 8 .. 15))
                                       : reverse 0 .. 15;
        $s .= "$label:\n" . (".byte\t" . join(',', @rev) . "\n") x $lanes;
    }
    if ($o{fold}) {
        my ($label, $lanes) = @{ $o{fold} };
        my $q = sprintf '0x%016x', $field->{fold};
        $s .= "$label:\n" . (".quad\t$q,$q\n") x $lanes;
    }
    if ($o{twist}) {
        $s .= "$o{twist}:\n.quad\t"
            . join(',', map { sprintf '0x%016x', $_ } @{ $field->{twist} }) . "\n";
    }
    return $s;
}

# The products of the lanes of $h and $d (registers; $h may be a memory
# operand) into the accumulators of %o:
#   lo, hi, mid   registers, or (mem => 1) memory slots read and written
#                 through the temporary;
#   t             temporaries: [t0] or [t0, t1] (t1 may be $d itself once
#                 its last product is issued);
#   first         write the accumulators instead of adding to them;
#   hi_first      issue the 0x11 product before the 0x00 one;
#   pair          (adding) both outer products before their two XORs, and
#                 the middle ones summed by one three-way XOR;
#   mid_in_t      (adding) leave the middle sum in t0: t0 = m0 ^ m1 ^ mid,
#                 mid read, not written (the kernel stores it when it wants);
#   mid_split     (adding) add the two middle products one at a time.
# Memory accumulators (mem): each product through t0, added to the slot
# (unless first) and stored back, the middle ones summed in t0 first.
sub clmul_mul {
    my (%o) = @_;
    my ($h, $d) = @o{qw(h d)};
    my ($t0, $t1) = @{ $o{t} };
    my ($lo, $mid, $hi) = @o{qw(lo mid hi)};
    my @outer = $o{hi_first} ? ([ '0x11', $hi ], [ '0x00', $lo ])
                             : ([ '0x00', $lo ], [ '0x11', $hi ]);
    my @ops;
    my $mul = sub { "vpclmulqdq\t\$$_[0],$h,$d,$_[1]" };
    if ($o{mem}) {
        for my $p (@outer, [ 'mid' ]) {
            my ($imm, $acc) = @$p;
            if ($imm eq 'mid') {
                $acc = $mid;
                push @ops, $mul->('0x01', $t0), $mul->('0x10', $t1), xor2($t0, $t1, $t0);
            } else {
                push @ops, $mul->($imm, $t0);
            }
            push @ops, xor2($t0, $acc, $t0) unless $o{first};
            push @ops, "vmovdqa\t$t0,$acc";
        }
        return @ops;
    }
    if ($o{first}) {
        push @ops, $mul->(@$_) for @outer;
        return @ops, $mul->('0x01', $mid), $mul->('0x10', $t0), xor2($mid, $t0, $mid);
    }
    if ($o{pair}) {
        my ($x0, $x1) = $o{hi_first} ? ($t1, $t0) : ($t0, $t1);
        push @ops, $mul->($outer[0][0], $x0), $mul->($outer[1][0], $x1),
            xor2($outer[0][1], $x0, $outer[0][1]), xor2($outer[1][1], $x1, $outer[1][1]),
            $mul->('0x01', $t0), $mul->('0x10', $t1);
        return @ops, three_way($mid, $t0, $t1);
    }
    push @ops, $mul->($_->[0], $t0), xor2($_->[1], $t0, $_->[1]) for @outer;
    if ($o{mid_in_t}) {
        return @ops, $mul->('0x01', $t0), $mul->('0x10', $t1),
            three_way($t0, $t1, $mid);
    }
    die "clmul_mul: the middle products need mid_in_t or mid_split\n"
        unless $o{mid_split};
    return @ops, $mul->('0x01', $t0), xor2($mid, $t0, $mid),
        $mul->('0x10', $t0), xor2($mid, $t0, $mid);
}

# $d ^= $a ^ $b: one ternary XOR on zmm (or when a register is above 15),
# else two XORs; $b may be a memory operand (the ternary form's source).
sub three_way {
    my ($d, $a, $b) = @_;
    my $evex = wide_of($d) eq 'z' || grep { vreg_num($_) > 15 } $d, $a;
    return "vpternlogq\t\$0x96,$b,$a,$d" if $evex;
    return xor2($d, $a, $d), xor2($d, $b, $d);
}

# The middle sum into lo and hi (the 256-bit product lo + hi x^128), by
# the temporary $t; the middle register is clobbered.
sub clmul_fold {
    my ($lo, $mid, $hi, $t) = @_;
    return "vpslldq\t\$8,$mid,$t", "vpsrldq\t\$8,$mid,$mid",
        xor2($lo, $t, $lo), xor2($hi, $mid, $hi);
}

# lo + hi x^128 modulo the field's polynomial into $dst (default lo), the
# reduction constant in every lane of $p, $t a temporary; lo is clobbered.
# ternary: the last two XORs as one (zmm).  The natural order takes a
# second temporary u (and clobbers hi); a 64-bit field has no hi: lo is
# the 128-bit product (or sum of products) of each lane, reduced into the
# low qword of $dst's lane (its high qword is left undefined).
sub clmul_reduce {
    my ($field, %o) = @_;
    my ($lo, $hi, $t, $p) = @o{qw(lo hi t p)};
    my $dst = $o{dst} // $lo;
    my @ops;
    if ($field->{order} eq 'natural') {
        my $u = $o{u};
        if ($field->{bits} == 64) {
            return "vpclmulqdq\t\$0x01,$p,$lo,$t", "vpclmulqdq\t\$0x01,$p,$t,$u",
                xor2($lo, $t, $lo), xor2($dst, $u, $lo);
        }
        # hi's top qword times the constant: its low qword at x^192 - 128
        # = x^64 of lo, its overflow at x^128, onto hi's low qword
        push @ops, "vpclmulqdq\t\$0x01,$p,$hi,$t", "vpsrldq\t\$8,$t,$u",
            "vpslldq\t\$8,$t,$t", xor2($hi, $u, $hi),
            "vpclmulqdq\t\$0x00,$p,$hi,$u";
        die "clmul_reduce: ternary reduces into lo\n" if $o{ternary} && $dst ne $lo;
        return @ops, three_way($lo, $t, $u) if $o{ternary};
        return @ops, xor2($lo, $t, $lo), xor2($dst, $u, $lo);
    }
    for my $i (0, 1) {
        push @ops, "vpclmulqdq\t\$0x00,$p,$lo,$t", "vpshufd\t\$0x4e,$lo,$lo";
        push @ops, xor2($lo, $t, $lo) if $i == 0;
    }
    return @ops, three_way($lo, $t, $hi) if $o{ternary};
    return @ops, xor2($lo, $t, $lo), xor2($dst, $hi, $lo);
}

# The 128-bit lanes of $r (ymm or zmm) summed into lane 0 of $dst (an xmm;
# default $r's), through $t (reduction is linear, so lanes reduced apart
# sum to the hash of their blocks together).  EVEX forms when a register
# is above 15.
sub clmul_lanes_sum {
    my ($r, $t, $dst) = @_;
    my $n = vreg_num($r);
    my $tn = vreg_num($t);
    my $evex = $n > 15 || $tn > 15;
    my ($ry, $rx, $ty, $tx) = ("%ymm$n", "%xmm$n", "%ymm$tn", "%xmm$tn");
    $dst //= $rx;
    my @ops;
    push @ops, "vextracti64x4\t\$1,$r,$ty", "vpxorq\t$ty,$ry,$ry"
        if wide_of($r) eq 'z';
    return @ops, "vextracti32x4\t\$1,$ry,$tx", "vpxorq\t$tx,$rx,$dst" if $evex;
    return @ops, "vextracti128\t\$1,$ry,$tx", "vpxor\t$tx,$rx,$dst";
}

1;
