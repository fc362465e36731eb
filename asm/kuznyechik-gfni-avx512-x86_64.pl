#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Kuznyechik (GOST R 34.12-2015, RFC 7801) kernels of the GFNI + AVX-512
# (F, BW, VL, VBMI) tier for x86-64, generated as AT&T text through
# util/perlasm/x86_64.pm:
#
#   perl asm/kuznyechik-gfni-avx512-x86_64.pl elf [bytes] > asm/kuznyechik-gfni-avx512-x86_64.S
#
# Owns the tier's cores and every block mode over them (ECB both ways,
# CTR, CBC and CFB both ways, OFB); src/kuznyechik_x86.c puts the entry
# points into its kernel table.  The cipher's constants come from
# util/perlasm/kuznyechik_x86_64.pm.  Every kernel is constant-time: pi is
# looked up in vector registers (VPERMT2B/VPERMI2B over the whole 256-byte
# table, a blend on the index's top bit), never in memory indexed by data,
# and nothing branches on data.
#
# Two forms of the rounds, both over registers only:
#  - byte-sliced, for 64 blocks a pass (ECB, CTR, CBC and CFB decryption
#    from 64 blocks on): the loads transposed 16x16 inside every 128-bit
#    lane so that zmm j holds byte j of 64 blocks, L run as R^16 whose
#    shift is a renaming of registers; each step's new byte is l of the
#    sixteen, 7 VGF2P8AFFINEQB by broadcast matrices after adding the bytes
#    that share a coefficient (l's are symmetric), so 112 GF(2) matrix
#    products a round for 64 blocks (the 16x16 matrix form needs 251, and
#    GFNI is the port that binds).  bs_core below has the details.
#  - lane form, blocks in their memory layout in the image of the
#    isomorphism of Kuznyechik's field onto AES's (mapped on load and back
#    on store, one VGF2P8AFFINEQB each), where a product by a constant is
#    one VGF2P8MULB: L(x) = sum over j of column j times x_j, x_j spread
#    by a VPSHUFB.  Four zmm (16 blocks) a pass with interleaved running
#    sums take what the byte-sliced passes leave from 5 blocks on; the
#    serial modes, and calls or remainders of 1..4 blocks, take one block
#    at a time through a one-block core (core_serial), whose two lanes each
#    take half the columns, for latency; the serial modes' own core keeps
#    the block in a split layout whose two halves of L add inside the
#    lanes (serial_core).
# Decryption is X[K_10], then L^-1, pi^-1 and X[K_i] for i = 9 .. 1 in
# both forms.  The round keys are mapped or spread as each call needs
# them (ten VGF2P8AFFINEQB; the byte-sliced passes' key table, 30
# instructions), so the tier has no key setup of its own.
#
# Entry points follow src/kernel.h (SysV: ks=%rdi in=%rsi out=%rdx
# nblocks=%rcx iv=%r8); ks is a KUZNYECHIK_KEY (src/kuznyechik.h): the ten
# round keys at 0, 16 bytes apart, and at 160 the direction ECB takes.
#
# Measured on the 2-vCPU AMD EPYC (Zen 4, family 25 model 17) KVM guest,
# one make bench run (-l native,c -t 150, 2026-12-07), MB/s through EVP
# and the ratio to gostprov (gost-engine 3.0.1) in the same run:
#
#   bytes  mode      gfni-avx512         kuznyechik-c   gostprov
#   16384  ECB       1856  17.2x          154  1.43x     108
#   16384  CTR       1727  16.2x          157  1.47x     107
#   16384  CBC-dec   1858  19.0x          136  1.39x      98
#   16384  CFB-dec   1852  17.9x          153  1.48x     104
#   16384  CBC-enc    254   2.36x         151  1.41x     108  *
#   16384  CFB-enc    255   2.56x         151  1.52x     100  *
#   16384  OFB        254   2.51x         155  1.53x     101  *
#   16     CBC-enc    223   2.35x         128  1.35x      95  *
#   16     ECB        249   2.00x         179  1.44x     124
#   16     CTR        189   2.09x         132  1.46x      91
#
# (* another run: -a kuznyechik-cbc,kuznyechik-cfb,kuznyechik-ofb,
# kuznyechik-mac -s 16,16384 -l native,c -t 150, 2026-12-08, where the
# build before serial_core ran CBC-enc 240, CFB-enc 239 and OFB 240 MB/s
# at 16 KiB: 2.23x, 2.40x, 2.37x), and in TSC ticks (2.6 GHz) a byte,
# 16 KiB in place, best of 200 calls: ECB 1.36 (decryption 1.38), CTR
# 1.47, CBC-dec 1.39, CBC-enc 10.2, CFB-enc 10.1, OFB 10.2 (10.8 before
# serial_core); about 1.42 core cycles a tick.  A serial round is ~25
# cycles, measured by taking each step out: pi ~8 (the VPERMT2B/VPERMI2B
# zmm lookups' latency; a ymm form of four 64-entry lookups and two
# levels of selects, a VPBLENDVB or a ternlog select in place of the
# masked move, and a VPCMPGTB or VPTESTMB mask all measured the same or
# slower), L ~16 (8 gathers and 8 multiplies sharing three pipes, the
# tree and the fold).  The xmm form of L (16 shuffles, 16 multiplies, no
# fold) measured 10% slower, a zmm form has a longer fold.

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use kuznyechik_x86_64;

x86_64::setup(@ARGV);

sub R { my ($w, $n) = @_; return "%${w}mm$n"; }

# ---------------------------------------------------------------------------
# Constants, all in the AES field's image.
my %unmap;
$unmap{ kuz_to_aes($_) } = $_ for 0 .. 255;
# the S-box and its inverse on images: y -> image of pi(preimage of y)
my %SBOX = (
    e => [ map { kuz_to_aes($KUZ_PI[ $unmap{$_} ]) } 0 .. 255 ],
    d => [ map { kuz_to_aes($KUZ_PI_INV[ $unmap{$_} ]) } 0 .. 255 ],
);
# L's and L^-1's matrices, entries mapped
my %LMAT = (e => \@KUZ_L, d => \@KUZ_L_INV);

sub bytes_line { return ".byte\t" . join(',', map { sprintf '0x%02x', $_ } @_) . "\n"; }

sub rodata {
    my $s = rodata_begin() . ".p2align\t6\n";
    for my $dir (qw(e d)) {
        # the 256-byte table as four 64-byte registers
        for my $q (0 .. 3) {
            $s .= ".Lkuz_pi_$dir$q:\n";
            $s .= bytes_line(@{ $SBOX{$dir} }[64 * $q + 16 * $_ .. 64 * $q + 16 * $_ + 15]) for 0 .. 3;
        }
        # column j of the matrix, in all four lanes
        for my $j (0 .. 15) {
            my @col = map { kuz_to_aes($LMAT{$dir}[$_][$j]) } 0 .. 15;
            $s .= ".Lkuz_l_$dir$j:\n" . bytes_line(@col) x 4;
        }
    }
    # the serial core's pairs of columns: lane 0 column m, lane 1 m + 8
    for my $m (0 .. 7) {
        $s .= ".Lkuz_spread2_$m:\n" . bytes_line(($m) x 16) . bytes_line(($m + 8) x 16);
        for my $dir (qw(e d)) {
            $s .= ".Lkuz_l2_$dir$m:\n" . join '', map { my $j = $_; bytes_line(map { kuz_to_aes($LMAT{$dir}[$_][$j]) } 0 .. 15) } $m, $m + 8;
        }
    }
    # the serial modes' core in the split layout (see serial_core): pair m
    # of VPERMB controls (x_m over the low qword of each lane, x_{m+8}
    # over the high one) and of columns (lane 0 rows 0..7, lane 1 rows
    # 8..15; column m in the low qwords, m + 8 in the high ones)
    for my $m (0 .. 7) {
        $s .= ".Lkuz_splitctl_$m:\n" . bytes_line((($m) x 8, ($m + 16) x 8) x 2);
        $s .= ".Lkuz_splitcol_$m:\n";
        for my $rows ([0 .. 7], [8 .. 15]) {
            $s .= bytes_line(map { my $j = $_; map { kuz_to_aes($KUZ_L[$_][$j]) } @$rows } $m, $m + 8);
        }
    }
    # VPSHUFB controls spreading byte j over its lane
    $s .= ".Lkuz_spread$_:\n" . bytes_line(($_) x 16) x 4 for 0 .. 15;
    $s .= sprintf(".Lkuz_aes_map:\n.quad\t0x%016x\n.Lkuz_aes_unmap:\n.quad\t0x%016x\n",
                  $KUZ_AES_MAP, $KUZ_AES_UNMAP);
    return $s . text_begin();
}

# ---------------------------------------------------------------------------
# Register map: state zmm0..3 (the serial core: zmm0), round temps
# zmm4..19, the S-box's first and third 64-byte quarters zmm20/21 (the
# others are memory operands), the round keys' images K_1..K_10 in
# zmm22..31 (every lane the same key).  k1..k4: the S-box's blends;
# k5..k7: the drivers' tail masks.
my ($TQ0, $TQ2) = (20, 21);
sub key_reg { my ($i) = @_; return 21 + $i; }    # K_i, i = 1..10

# Keys and S-box quarters of a direction into their registers.
sub setup_keys {
    my ($dir) = @_;
    my $s = "";
    for my $i (1 .. 10) {
        my $k = R('z', key_reg($i));
        $s .= "\tvbroadcasti32x4\t" . 16 * ($i - 1) . "(%rdi),$k\n";
        $s .= "\tvgf2p8affineqb\t\$0,.Lkuz_aes_map(%rip){1to8},$k,$k\n";
    }
    return $s . "\tvmovdqa64\t.Lkuz_pi_${dir}0(%rip)," . R('z', $TQ0) . "\n"
        . "\tvmovdqa64\t.Lkuz_pi_${dir}2(%rip)," . R('z', $TQ2) . "\n";
}

# Into and out of the field image, in place.
sub map_in {
    my ($w, @r) = @_;
    return join '', map { "\tvgf2p8affineqb\t\$0,.Lkuz_aes_map(%rip){1to8}," . R($w, $_) . "," . R($w, $_) . "\n" } @r;
}
sub map_out {
    my ($w, @r) = @_;
    return join '', map { "\tvgf2p8affineqb\t\$0,.Lkuz_aes_unmap(%rip){1to8}," . R($w, $_) . "," . R($w, $_) . "\n" } @r;
}

# The S-box on every byte of zmm $x, result in zmm $y ($x is lost): the
# low half of the table by VPERMT2B into a copy of quarter 0 (index kept),
# the high half by VPERMI2B into the index register, the high result
# taken where the index's top bit was set.  The lookups are zmm-wide (the
# table's halves are), the mask and the blend only $w-wide (default zmm):
# the serial cores' ymm blend measured 1-2% faster a block.
sub sbox {
    my ($dir, $x, $y, $k, $w) = @_;
    $w //= 'z';
    my ($X, $Y) = (R('z', $x), R('z', $y));
    return [
        "\tvmovdqa64\t" . R('z', $TQ0) . ",$Y\n",
        "\tvpermt2b\t.Lkuz_pi_${dir}1(%rip),$X,$Y\n",
        "\tvpmovb2m\t" . R($w, $x) . ",%k$k\n",
        "\tvpermi2b\t.Lkuz_pi_${dir}3(%rip)," . R('z', $TQ2) . ",$X\n",
        "\tvmovdqu8\t" . R($w, $x) . "," . R($w, $y) . "\{%k$k\}\n",
    ];
}

# Column j's product from the linear step's input $s into $p ($w-wide).
sub product {
    my ($dir, $w, $j, $s, $p) = @_;
    return "\tvpshufb\t.Lkuz_spread$j(%rip)," . R($w, $s) . "," . R($w, $p) . "\n"
        . "\tvgf2p8mulb\t.Lkuz_l_$dir$j(%rip)," . R($w, $p) . "," . R($w, $p) . "\n";
}

# Round r (0..8) of a direction on the state registers in @x, each with
# its temps: returns one instruction list per state register, to be
# interleaved.  After the round each state register holds the next
# round's input, the round key already added.
sub round_streams {
    my ($dir, $r, $w, @lanes) = @_;
    my @streams;
    for my $g (0 .. $#lanes) {
        my ($x, $s, @tmp) = @{ $lanes[$g] };
        my @ins;
        if ($r == 0) {
            my $k = key_reg($dir eq 'e' ? 1 : 10);
            push @ins, "\tvpxorq\t" . R('z', $k) . "," . R('z', $x) . "," . R('z', $x) . "\n";
        }
        push @ins, @{ sbox($dir, $x, $s, $g + 1) } if $dir eq 'e';
        # decryption: L^-1 first, its input in $x; the S-box after
        my $lin_in = $dir eq 'e' ? $s : $x;
        my $acc = $dir eq 'e' ? $x : $s;
        # the key after this round's linear step (encryption) folds in;
        # decryption adds K_{9-r} after its S-box
        my $next_key = $dir eq 'e' ? R($w, key_reg($r + 2)) : undef;
        {
            # a running sum, two products folded at a time
            my ($pa, $pb) = @tmp;
            push @ins, product($dir, $w, 0, $lin_in, $acc);
            for (my $j = 1; $j < 16; $j += 2) {
                push @ins, product($dir, $w, $j, $lin_in, $pa);
                if ($j + 1 < 16) {
                    push @ins, product($dir, $w, $j + 1, $lin_in, $pb);
                    push @ins, "\tvpternlogq\t\$0x96," . R($w, $pb) . "," . R($w, $pa) . "," . R($w, $acc) . "\n";
                } elsif (defined $next_key) {
                    push @ins, "\tvpternlogq\t\$0x96,$next_key," . R($w, $pa) . "," . R($w, $acc) . "\n";
                } else {
                    push @ins, "\tvpxorq\t" . R($w, $pa) . "," . R($w, $acc) . "," . R($w, $acc) . "\n";
                }
            }
        }
        if ($dir eq 'd') {
            push @ins, @{ sbox($dir, $acc, $x, $g + 1) };
            my $k = R('z', key_reg(9 - $r));
            push @ins, "\tvpxorq\t$k," . R('z', $x) . "," . R('z', $x) . "\n";
        }
        push @streams, \@ins;
    }
    return @streams;
}

sub interleave {
    my @streams = @_;
    my $s = "";
    while (grep { @$_ } @streams) {
        for my $st (@streams) {
            $s .= shift @$st if @$st;
        }
    }
    return $s;
}

# The lane cores: the state registers from the image of the input to the
# image of the output (keys included), nothing else read or written but
# temps.  core4 (zmm0..3, 16 blocks) interleaves four running sums.
sub core4 {
    my ($dir) = @_;
    my $name = ".Lkuz_core4_$dir";
    my $s = local_function_begin($name);
    my @lanes = map { [ $_, 4 + 3 * $_, 5 + 3 * $_, 6 + 3 * $_ ] } 0 .. 3;
    for my $r (0 .. 8) {
        $s .= interleave(round_streams($dir, $r, 'z', @lanes));
    }
    return $s . "\tret\n" . local_function_end($name);
}

# The serial core, for latency: one block in both 128-bit lanes of ymm0
# (the S-box zmm-wide, the table's quarters being zmm), each L step
# taking two columns at once (lane 0 column m, lane 1 column m + 8):
# 8 VPSHUFB and 8 VGF2P8MULB where an xmm form needs 16 of each, which is
# what bound it (the shuffle and GFNI ports, not their latency), then a
# tree of ternlogs, and the two lanes' sums added across by a lane swap
# and a ternlog with the round key, which leaves the full sum in both.
# The rounds rename their registers instead of moving the result.
# Decryption: L^-1 the same way, then pi^-1 and the round key.
# $src says where the operands are: spread($m) and col($m) the L step's
# pair m of shuffle controls and columns, key($i) K_i (ymm, both lanes),
# free the temps; with first, K_1 (K_10 decrypting) is added on entry;
# with split, the block is in the split layout (see serial_core).
sub core_serial {
    my ($dir, $name, $src) = @_;
    my $s = local_function_begin($name);
    my $x = 0;
    my @free = @{ $src->{free} };
    $s .= "\tvpxorq\t" . $src->{key}->($dir eq 'e' ? 1 : 10) . ",%ymm0,%ymm0\n" if $src->{first};
    for my $r (0 .. 8) {
        if ($dir eq 'e') {
            my $y = shift @free;
            $s .= join '', @{ sbox('e', $x, $y, 1, 'y') };
            push @free, $x;
            $x = $y;
        }
        my @p = splice @free, 0, 8;
        for my $m (0 .. 7) {
            $s .= ($src->{split} ? "\tvpermb\t%ymm$x," . $src->{spread}->($m) . ",%ymm$p[$m]\n"
                                 : "\tvpshufb\t" . $src->{spread}->($m) . ",%ymm$x,%ymm$p[$m]\n")
                . "\tvgf2p8mulb\t" . $src->{col}->($m) . ",%ymm$p[$m],%ymm$p[$m]\n";
        }
        my @t = map { "%ymm$_" } @p;
        while (@t > 1) {
            my @n;
            while (@t >= 3) {
                my ($a, $b, $c) = splice @t, 0, 3;
                $s .= "\tvpternlogq\t\$0x96,$c,$b,$a\n";
                push @n, $a;
            }
            if (@t == 2) {
                $s .= "\tvpxorq\t$t[1],$t[0],$t[0]\n";
                push @n, $t[0];
                @t = ();
            }
            push @n, @t;
            @t = @n;
        }
        my ($sum) = $t[0] =~ /(\d+)/;
        my $sw = shift @free;
        $s .= $src->{split} ? "\tvpshufd\t\$0x4e,%ymm$sum,%ymm$sw\n"
                            : "\tvshufi64x2\t\$1,%ymm$sum,%ymm$sum,%ymm$sw\n";
        push @free, $x;
        if ($dir eq 'e') {
            # the lanes' sums and the round key
            $s .= "\tvpternlogq\t\$0x96," . $src->{key}->($r + 2) . ",%ymm$sw,%ymm$sum\n";
            $x = $sum;
        } else {
            $s .= "\tvpxorq\t%ymm$sw,%ymm$sum,%ymm$sum\n";
            my $y = shift @free;
            $s .= join '', @{ sbox('d', $sum, $y, 1, 'y') };
            $s .= "\tvpxorq\t" . $src->{key}->(9 - $r) . ",%ymm$y,%ymm$y\n";
            push @free, $sum;
            @p = grep { $_ != $sum } @p;
            $x = $y;
        }
        push @free, grep { $_ != $x } @p, $sw;
    }
    $s .= "\tvmovdqa64\t%ymm$x,%ymm0\n" if $x != 0;
    return $s . "\tret\n" . local_function_end($name);
}

# core1: the lane cores' registers (keys in zmm22..31, the L step's
# constants memory operands), for the calls and remainders of 1..4 blocks.
sub core1 {
    my ($dir) = @_;
    return core_serial($dir, ".Lkuz_core1_$dir", {
        spread => sub { ".Lkuz_spread2_$_[0](%rip)" },
        col    => sub { ".Lkuz_l2_$dir$_[0](%rip)" },
        key    => sub { R('y', key_reg($_[0])) },
        first  => 1,
        free   => [ 1 .. 19 ],
    });
}

my $code = rodata() . core4('e') . core4('d') . core1('e') . core1('d');


# ---------------------------------------------------------------------------
# The byte-sliced core: 64 blocks, zmm j holding byte j of each (the
# loads transposed 16x16 inside every 128-bit lane), so that every
# register of a round is multiplied by one constant.  L is run as R^16
# (L^-1 as R^-16), the LFSR form in which R's shift is only a renaming of
# registers: a step computes one new byte as l of the sixteen, whose
# coefficients are symmetric (c_k = c_{14-k}), so the bytes that share a
# coefficient are added first: 6 XORs, 7 VGF2P8AFFINEQB (broadcast
# matrices) and 5 VPTERNLOGD.  That is 112 multiplications a round for 64
# blocks where the matrix form needs 251, and GFNI is the port that
# binds; the steps' chain (an XOR, a multiply and a ternlog a step) is
# short beside a round's ~400 instructions.  The round key is added after
# the sixteen steps (each step reads the bytes the steps before it made),
# byte j of it broadcast from a dword: the caller spreads the round keys
# over a table in its frame (bs_keys), addressed by %rax.  pi as in the
# lane cores, here in the plain field.

# 16x16 byte transpose inside every 128-bit lane by four rounds of
# unpacks, simulated here byte by byte so that the pairing and the output
# order come out of the simulation and are checked: afterwards register
# c of the result holds what was byte c of the sixteen inputs (row r at
# byte r).  The same network transposes back.  Returns the code; the
# result is moved to zmm0..15 (input: zmm0..15 as rows), zmm16..31 free.
sub transpose16 {
    # each byte labelled [row, column]
    my @regs;
    for my $i (0 .. 15) {
        push @regs, { r => $i, lab => [ map { [ $i, $_ ] } 0 .. 15 ] };
    }
    my @pool = (16 .. 31);
    my $s = "";
    for my $e (1, 2, 4, 8) {
        my $sfx = { 1 => 'bw', 2 => 'wd', 4 => 'dq', 8 => 'qdq' }->{$e};
        # pair registers holding the same columns, lower rows first
        my %by;
        for my $g (@regs) {
            my %c = map { $_->[1] => 1 } @{ $g->{lab} };
            my $key = join ',', sort { $a <=> $b } keys %c;
            push @{ $by{$key} }, $g;
        }
        my @next;
        for my $key (sort keys %by) {
            my @grp = sort { $a->{lab}[0][0] <=> $b->{lab}[0][0] } @{ $by{$key} };
            while (@grp) {
                my ($A, $B) = splice @grp, 0, 2;
                my $n = 16 / $e / 2;    # elements in a half
                my (@lo, @hi);
                for my $i (0 .. $n - 1) {
                    push @lo, @{ $A->{lab} }[$e * $i .. $e * $i + $e - 1],
                              @{ $B->{lab} }[$e * $i .. $e * $i + $e - 1];
                    push @hi, @{ $A->{lab} }[8 + $e * $i .. 8 + $e * $i + $e - 1],
                              @{ $B->{lab} }[8 + $e * $i .. 8 + $e * $i + $e - 1];
                }
                my $t = shift @pool;
                $s .= "\tvpunpckh$sfx\t%zmm$B->{r},%zmm$A->{r},%zmm$t\n";
                $s .= "\tvpunpckl$sfx\t%zmm$B->{r},%zmm$A->{r},%zmm$A->{r}\n";
                push @pool, $B->{r};
                push @next, { r => $A->{r}, lab => \@lo }, { r => $t, lab => \@hi };
            }
        }
        @regs = @next;
    }
    my %col;
    for my $g (@regs) {
        my $c = $g->{lab}[0][1];
        for my $i (0 .. 15) {
            die "transpose16: not a transpose\n"
                unless $g->{lab}[$i][1] == $c && $g->{lab}[$i][0] == $i;
        }
        $col{$c} = $g->{r};
    }
    return $s . move_to_order(map { $col{$_} } 0 .. 15);
}

# Moves so that zmm j holds what register $src[j] holds (a permutation of
# registers, zmm16..31 free apart from those in @src).
sub move_to_order {
    my @src = @_;
    my %used = map { $_ => 1 } @src;
    my @free = grep { !$used{$_} } 16 .. 31;
    my $s = "";
    my @via;
    for my $j (0 .. 15) {
        next if $src[$j] == $j;
        if ($src[$j] >= 16) { $via[$j] = $src[$j]; next; }
        my $t = shift @free;
        $s .= "\tvmovdqa64\t%zmm$src[$j],%zmm$t\n";
        $via[$j] = $t;
    }
    for my $j (0 .. 15) {
        $s .= "\tvmovdqa64\t%zmm$via[$j],%zmm$j\n" if defined $via[$j];
    }
    return $s;
}

my %BS_COEFS = map { $_ => 1 } grep { $_ != 1 } @KUZ_L_COEF;

sub bs_rodata {
    my $s = rodata_begin() . ".p2align\t6\n";
    for my $dir (qw(e d)) {
        my @t = $dir eq 'e' ? @KUZ_PI : @KUZ_PI_INV;
        for my $q (0 .. 3) {
            $s .= ".Lkuz_bspi_$dir$q:\n";
            $s .= bytes_line(@t[64 * $q + 16 * $_ .. 64 * $q + 16 * $_ + 15]) for 0 .. 3;
        }
    }
    $s .= sprintf(".Lkuz_mul%d:\n.quad\t0x%016x\n", $_, kuz_mul_matrix($_))
        for sort { $a <=> $b } keys %BS_COEFS;
    $s .= ".Lkuz_rep4:\n.long\t0x01010101\n";
    return $s . text_begin();
}

# The frame's key table: key i (1..10), byte j as a dword at
# 64 (i - 1) + 4 j from $at.
sub bs_keys {
    my ($at) = @_;
    my $s = "";
    for my $i (0 .. 9) {
        $s .= "\tvpmovzxbd\t" . 16 * $i . "(%rdi),%zmm16\n"
            . "\tvpmulld\t.Lkuz_rep4(%rip){1to16},%zmm16,%zmm16\n"
            . "\tvmovdqu64\t%zmm16," . ($at + 64 * $i) . "(%rsp)\n";
    }
    return $s;
}

sub bs_key_op {
    my ($i, $j) = @_;
    return (64 * ($i - 1) + 4 * $j) . "(%rax){1to16}";
}

# One step of R (forward) or R^-1 on the positions @$P (register numbers,
# memory order), temps from @$pool.
sub bs_step {
    my ($P, $pool, $inv) = @_;
    # the coefficient of each position; the newest byte's product is
    # folded last, so that the rest waits for nothing
    my @coef = $inv ? (1, @KUZ_L_COEF[0 .. 14]) : @KUZ_L_COEF;
    my $newest = $inv ? 15 : 0;
    my (%grp, @ones);
    for my $p (0 .. 15) {
        if ($coef[$p] == 1) { push @ones, $p; } else { push @{ $grp{ $coef[$p] } }, $p; }
    }
    my $has_newest = sub { scalar grep { $_ == $newest } @{ $grp{ $_[0] } } };
    my @order = sort { $has_newest->($a) <=> $has_newest->($b) || $a <=> $b } keys %grp;
    my $s = "";
    my @prod;
    for my $c (@order) {
        my @ps = @{ $grp{$c} };
        my $t = shift @$pool;
        if (@ps == 2) {
            $s .= "\tvpxord\t%zmm$P->[$ps[1]],%zmm$P->[$ps[0]],%zmm$t\n";
            $s .= "\tvgf2p8affineqb\t\$0,.Lkuz_mul$c(%rip){1to8},%zmm$t,%zmm$t\n";
        } else {
            $s .= "\tvgf2p8affineqb\t\$0,.Lkuz_mul$c(%rip){1to8},%zmm$P->[$ps[0]],%zmm$t\n";
        }
        push @prod, $t;
    }
    my $acc = shift @prod;
    my @terms = map { "%zmm$_" } @prod[0 .. $#prod - 1], (map { $P->[$_] } @ones), $prod[-1];
    while (@terms) {
        if (@terms >= 2) {
            my ($a, $b) = splice @terms, 0, 2;
            $s .= "\tvpternlogd\t\$0x96,$b,$a,%zmm$acc\n";
        } else {
            $s .= "\tvpxord\t$terms[0],%zmm$acc,%zmm$acc\n";
            shift @terms;
        }
    }
    push @$pool, @prod;
    if ($inv) {
        push @$pool, $P->[0];
        @$P = (@$P[1 .. 15], $acc);
    } else {
        push @$pool, $P->[15];
        @$P = ($acc, @$P[0 .. 14]);
    }
    return $s;
}

sub bs_sbox {
    my ($dir, $P, $pool, $kk) = @_;
    my $s = "";
    for my $j (0 .. 15) {
        my $x = $P->[$j];
        my $y = shift @$pool;
        my $k = 1 + ($$kk++ % 7);
        $s .= "\tvmovdqa64\t%zmm30,%zmm$y\n"
            . "\tvpermt2b\t.Lkuz_bspi_${dir}1(%rip),%zmm$x,%zmm$y\n"
            . "\tvpmovb2m\t%zmm$x,%k$k\n"
            . "\tvpermi2b\t.Lkuz_bspi_${dir}3(%rip),%zmm31,%zmm$x\n"
            . "\tvmovdqu8\t%zmm$x,%zmm$y\{%k$k\}\n";
        push @$pool, $x;
        $P->[$j] = $y;
    }
    return $s;
}

sub bs_core {
    my ($dir) = @_;
    my $name = ".Lkuz_bs_$dir";
    my $s = local_function_begin($name)
        . "\tvmovdqa64\t.Lkuz_bspi_${dir}0(%rip),%zmm30\n"
        . "\tvmovdqa64\t.Lkuz_bspi_${dir}2(%rip),%zmm31\n";
    my @P = (0 .. 15);
    my @pool = (16 .. 29);
    my $kk = 0;
    my $first = $dir eq 'e' ? 1 : 10;
    $s .= "\tvpxord\t" . bs_key_op($first, $_) . ",%zmm$_,%zmm$_\n" for 0 .. 15;
    for my $r (0 .. 8) {
        if ($dir eq 'e') {
            $s .= bs_sbox('e', \@P, \@pool, \$kk);
            # the key after all sixteen steps: each step reads the bytes
            # the steps before it made
            $s .= bs_step(\@P, \@pool, 0) for 0 .. 15;
            $s .= "\tvpxord\t" . bs_key_op($r + 2, $_) . ",%zmm$P[$_],%zmm$P[$_]\n" for 0 .. 15;
        } else {
            # R^-1 step t makes the byte that ends at position t
            $s .= bs_step(\@P, \@pool, 1) for 0 .. 15;
            $s .= bs_sbox('d', \@P, \@pool, \$kk);
            $s .= "\tvpxord\t" . bs_key_op(9 - $r, $_) . ",%zmm$P[$_],%zmm$P[$_]\n" for 0 .. 15;
        }
    }
    $s .= move_to_order(@P);
    return $s . "\tret\n" . local_function_end($name);
}

$code .= bs_rodata() . bs_core('e') . bs_core('d');
my $TRANSPOSE = transpose16();

# The byte-sliced passes of a parallel mode, while 64 blocks or more are
# left: the chaining value or counter is kept at (%r8) between passes, so
# that the lane passes after them start from it.  $KT: the key table's
# place in the frame; the CTR blocks are built at 0..1023.
my $KT = 1024;
sub bulk {
    my ($mode, $dir) = @_;
    my $L = ".Lkuz_${mode}_bulk";
    my $s = "\tcmp\t\$64,%rcx\n\tjb\t$L.done\n" . bs_keys($KT) . "$L.loop:\n";
    if ($mode eq 'ctr') {
        $s .= <<"EOT";
	mov	(%r8),%r10
	mov	8(%r8),%r11
	bswap	%r10
	bswap	%r11
	xor	%r9d,%r9d
$L.gen:
	mov	%r10,%rax
	bswap	%rax
	mov	%rax,(%rsp,%r9)
	mov	%r11,%rax
	bswap	%rax
	mov	%rax,8(%rsp,%r9)
	add	\$1,%r11
	adc	\$0,%r10
	add	\$16,%r9
	cmp	\$1024,%r9
	jb	$L.gen
	bswap	%r10
	bswap	%r11
	mov	%r10,(%r8)
	mov	%r11,8(%r8)
EOT
        $s .= "\tvmovdqu64\t" . 64 * $_ . "(%rsp),%zmm$_\n" for 0 .. 15;
    } elsif ($mode eq 'cfb_dec') {
        # the cipher's inputs: the chaining value, then the ciphertext
        $s .= "\tvbroadcasti32x4\t(%r8),%zmm16\n\tvmovdqu64\t(%rsi),%zmm0\n"
            . "\tvalignq\t\$6,%zmm16,%zmm0,%zmm0\n";
        $s .= "\tvmovdqu64\t" . (64 * $_ - 16) . "(%rsi),%zmm$_\n" for 1 .. 15;
    } else {
        $s .= "\tvmovdqu64\t" . 64 * $_ . "(%rsi),%zmm$_\n" for 0 .. 15;
    }
    $s .= $TRANSPOSE . "\tlea\t$KT(%rsp),%rax\n\tcall\t.Lkuz_bs_$dir\n" . $TRANSPOSE;
    if ($mode eq 'ctr' || $mode eq 'cfb_dec') {
        $s .= "\tvpxorq\t" . 64 * $_ . "(%rsi),%zmm$_,%zmm$_\n" for 0 .. 15;
    } elsif ($mode eq 'cbc_dec') {
        $s .= "\tvbroadcasti32x4\t(%r8),%zmm16\n\tvmovdqu64\t(%rsi),%zmm17\n"
            . "\tvalignq\t\$6,%zmm16,%zmm17,%zmm17\n\tvpxorq\t%zmm17,%zmm0,%zmm0\n";
        $s .= "\tvpxorq\t" . (64 * $_ - 16) . "(%rsi),%zmm$_,%zmm$_\n" for 1 .. 15;
    }
    if ($mode eq 'cbc_dec' || $mode eq 'cfb_dec') {
        # the last ciphertext block chains on (read before the stores: in
        # place they overwrite it)
        $s .= "\tvmovdqu64\t1008(%rsi),%xmm16\n\tvmovdqu64\t%xmm16,(%r8)\n";
    }
    $s .= "\tvmovdqu64\t%zmm$_," . 64 * $_ . "(%rdx)\n" for 0 .. 15;
    $s .= <<"EOT";
	add	\$1024,%rsi
	add	\$1024,%rdx
	sub	\$64,%rcx
	cmp	\$64,%rcx
	jae	$L.loop
$L.done:
EOT
    return $s;
}

# ---------------------------------------------------------------------------
# Parallel modes: 16 blocks (four zmm) a pass; the last pass masked to the
# blocks left (qword masks, two bits a block), loads zeroing the rest.
# %r9 = blocks in this pass, %rax = its qword mask.
sub pass_mask {
    return <<'EOT';
	mov	$16,%r9d
	cmp	%r9,%rcx
	cmovb	%rcx,%r9
	mov	%rcx,%r11
	lea	(%r9,%r9),%ecx
	mov	$1,%eax
	shl	%cl,%rax
	dec	%rax
	mov	%r11,%rcx
	kmovq	%rax,%k5
EOT
}

# the mask of register g of the pass into %k6
sub reg_mask {
    my ($g) = @_;
    return $g ? "\tkshiftrq\t\$" . 8 * $g . ",%k5,%k6\n" : "\tkmovq\t%k5,%k6\n";
}

sub load_regs {
    my ($base, $off, @r) = @_;
    my $s = "";
    for my $g (0 .. $#r) {
        $s .= reg_mask($g) . "\tvmovdqu64\t" . ($off + 64 * $g) . "($base)," . R('z', $r[$g]) . "{%k6}{z}\n";
    }
    return $s;
}

sub store_regs {
    my ($base, @r) = @_;
    my $s = "";
    for my $g (0 .. $#r) {
        $s .= reg_mask($g) . "\tvmovdqu64\t" . R('z', $r[$g]) . "," . 64 * $g . "($base){%k6}\n";
    }
    return $s;
}

sub pass_next {
    my ($label) = @_;
    return <<"EOT";
	add	\$256,%rsi
	add	\$256,%rdx
	sub	%r9,%rcx
	jnz	$label
EOT
}

my $FRAME = $KT + 640 + 8;

# Calls (or what the passes leave) of 1..4 blocks take the serial core a
# block at a time: a lane pass costs the same for 1 block as for 16.  The
# mode's $pre puts the cipher's input block in both lanes of ymm0 (see
# core_serial), its $post takes the output from xmm0.
sub one_block_loop {
    my ($L, $dir, $pre, $post) = @_;
    return "$L.one:\n" . $pre . map_in('y', 0) . "\tcall\t.Lkuz_core1_$dir\n" . map_out('x', 0)
        . $post . <<"EOT";
	add	\$16,%rsi
	add	\$16,%rdx
	dec	%rcx
	jnz	$L.one
EOT
}

# ECB in one direction (a local function; the entry chooses)
sub ecb_dir {
    my ($dir) = @_;
    my $name = ".Lkuz_ecb_$dir";
    my $s = local_function_begin($name) . frame_alloc($FRAME) . bulk("ecb_$dir", $dir)
        . "\ttest\t%rcx,%rcx\n\tjz\t$name.done\n" . setup_keys($dir);
    $s .= "$name.loop:\n\tcmp\t\$5,%rcx\n\tjb\t$name.one\n" . pass_mask() . load_regs('%rsi', 0, 0 .. 3)
        . map_in('z', 0 .. 3) . "\tcall\t.Lkuz_core4_$dir\n" . map_out('z', 0 .. 3)
        . store_regs('%rdx', 0 .. 3) . pass_next("$name.loop") . "\tjmp\t$name.done\n"
        . one_block_loop($name, $dir, "\tvbroadcasti32x4\t(%rsi),%ymm0\n", "\tvmovdqu\t%xmm0,(%rdx)\n");
    return $s . "$name.done:\n\tvzeroupper\n" . frame_free($FRAME) . "\tret\n"
        . local_function_end($name);
}
$code .= ecb_dir('e') . ecb_dir('d');

$code .= function_begin("kuznyechik_gfni_avx512_ecb") . <<'EOT' . function_end("kuznyechik_gfni_avx512_ecb");
	test	%rcx,%rcx
	jz	.Lkuz_ecb_none
	cmpl	$0,160(%rdi)
	jne	.Lkuz_ecb_d
	jmp	.Lkuz_ecb_e
.Lkuz_ecb_none:
	ret
EOT

# CTR: the pass's counter blocks written to the frame by the integer
# unit (the whole block one big-endian counter), then enciphered.
{
    my $name = "kuznyechik_gfni_avx512_ctr";
    my $s = function_begin($name) . "\ttest\t%rcx,%rcx\n\tjz\t.Lkuz_ctr_none\n"
        . frame_push('%rbx') . frame_alloc($FRAME) . bulk('ctr', 'e')
        . "\ttest\t%rcx,%rcx\n\tjz\t.Lkuz_ctr_done\n" . setup_keys('e') . <<'EOT';
	mov	(%r8),%r10
	mov	8(%r8),%rbx
	bswap	%r10
	bswap	%rbx
.Lkuz_ctr_loop:
	cmp	$5,%rcx
	jb	.Lkuz_ctr.one
EOT
    $s .= pass_mask() . <<'EOT';
	xor	%r11d,%r11d
.Lkuz_ctr_gen:
	mov	%r10,%rax
	bswap	%rax
	mov	%rax,(%rsp,%r11)
	mov	%rbx,%rax
	bswap	%rax
	mov	%rax,8(%rsp,%r11)
	add	$1,%rbx
	adc	$0,%r10
	add	$16,%r11
	mov	%r9,%rax
	shl	$4,%rax
	cmp	%rax,%r11
	jb	.Lkuz_ctr_gen
EOT
    $s .= load_regs('%rsp', 0, 0 .. 3) . map_in('z', 0 .. 3) . "\tcall\t.Lkuz_core4_e\n"
        . map_out('z', 0 .. 3);
    for my $g (0 .. 3) {
        $s .= reg_mask($g) . "\tvpxorq\t" . 64 * $g . "(%rsi),%zmm$g,%zmm$g\{%k6\}\{z\}\n";
    }
    $s .= store_regs('%rdx', 0 .. 3) . pass_next(".Lkuz_ctr_loop") . "\tjmp\t.Lkuz_ctr_end\n"
        . one_block_loop(".Lkuz_ctr", 'e', <<'EOT', "\tvpxorq\t(%rsi),%xmm0,%xmm0\n\tvmovdqu\t%xmm0,(%rdx)\n");
	mov	%r10,%rax
	bswap	%rax
	mov	%rax,(%rsp)
	mov	%rbx,%rax
	bswap	%rax
	mov	%rax,8(%rsp)
	add	$1,%rbx
	adc	$0,%r10
	vbroadcasti32x4	(%rsp),%ymm0
EOT
    $s .= <<'EOT';
.Lkuz_ctr_end:
	bswap	%r10
	bswap	%rbx
	mov	%r10,(%r8)
	mov	%rbx,8(%r8)
.Lkuz_ctr_done:
	vzeroupper
EOT
    $s .= frame_free($FRAME) . frame_pop('%rbx') . ".Lkuz_ctr_none:\n\tret\n" . function_end($name);
    $code .= $s;
}

# CBC and CFB decryption: the pass's ciphertext copied to the frame after
# the chaining block, so that the blocks before each (the chaining value
# or the previous ciphertext) are one unaligned load away, in place too.
sub chain_dec {
    my ($mode) = @_;
    my $name = "kuznyechik_gfni_avx512_${mode}_dec";
    my $dir = $mode eq 'cbc' ? 'd' : 'e';
    my $s = function_begin($name) . "\ttest\t%rcx,%rcx\n\tjz\t.Lkuz_${mode}_dec_none\n"
        . frame_alloc($FRAME) . bulk("${mode}_dec", $dir)
        . "\ttest\t%rcx,%rcx\n\tjz\t.Lkuz_${mode}_dec_done\n" . setup_keys($dir) . <<"EOT";
	vmovdqu	(%r8),%xmm4
	vmovdqu	%xmm4,(%rsp)
.Lkuz_${mode}_dec_loop:
	cmp	\$5,%rcx
	jb	.Lkuz_${mode}_dec.one
EOT
    $s .= pass_mask() . load_regs('%rsi', 0, 4 .. 7);
    $s .= "\tvmovdqu64\t%zmm" . (4 + $_) . "," . (16 + 64 * $_) . "(%rsp)\n" for 0 .. 3;
    if ($mode eq 'cbc') {
        $s .= "\tvmovdqa64\t%zmm" . (4 + $_) . ",%zmm$_\n" for 0 .. 3;
    } else {
        $s .= "\tvmovdqu64\t" . 64 * $_ . "(%rsp),%zmm$_\n" for 0 .. 3;
    }
    $s .= map_in('z', 0 .. 3) . "\tcall\t.Lkuz_core4_$dir\n" . map_out('z', 0 .. 3);
    my $other = $mode eq 'cbc' ? 0 : 16;
    $s .= "\tvpxorq\t" . ($other + 64 * $_) . "(%rsp),%zmm$_,%zmm$_\n" for 0 .. 3;
    $s .= store_regs('%rdx', 0 .. 3) . <<"EOT";
	mov	%r9,%rax
	shl	\$4,%rax
	vmovdqu	(%rsp,%rax),%xmm4
	vmovdqu	%xmm4,(%rsp)
EOT
    $s .= pass_next(".Lkuz_${mode}_dec_loop") . "\tjmp\t.Lkuz_${mode}_dec_end\n";
    # the previous ciphertext block stays at (%rsp); the current one is
    # read before the store (in place, the store overwrites it)
    if ($mode eq 'cbc') {
        $s .= one_block_loop(".Lkuz_cbc_dec", 'd', "\tvbroadcasti32x4\t(%rsi),%ymm0\n", <<'EOT');
	vmovdqu	(%rsi),%xmm1
	vpxorq	(%rsp),%xmm0,%xmm0
	vmovdqu	%xmm0,(%rdx)
	vmovdqu	%xmm1,(%rsp)
EOT
    } else {
        $s .= one_block_loop(".Lkuz_cfb_dec", 'e', "\tvbroadcasti32x4\t(%rsp),%ymm0\n", <<'EOT');
	vmovdqu	(%rsi),%xmm1
	vpxorq	%xmm1,%xmm0,%xmm0
	vmovdqu	%xmm0,(%rdx)
	vmovdqu	%xmm1,(%rsp)
EOT
    }
    $s .= ".Lkuz_${mode}_dec_end:\n" . <<'EOT';
	vmovdqu	(%rsp),%xmm4
	vmovdqu	%xmm4,(%r8)
EOT
    $s .= ".Lkuz_${mode}_dec_done:\n\tvzeroupper\n";
    return $s . frame_free($FRAME) . ".Lkuz_${mode}_dec_none:\n\tret\n" . function_end($name);
}
$code .= chain_dec('cbc') . chain_dec('cfb');

# ---------------------------------------------------------------------------
# Serial modes (CBC and CFB encryption, OFB; OMAC is CBC's), one block at a
# time through core_serial, for latency, in the split layout: lane 0 holds
# bytes 0..7 of the block in both qwords, lane 1 bytes 8..15.  Each of the
# L step's 8 products takes column m for the block's byte m in the low
# qwords and column m + 8 for byte m + 8 in the high ones, gathered across
# the lanes by a VPERMB (4 cycles where the VPSHUFB of core1 takes 2), so
# that the two halves of the sum are added by a VPSHUFD inside the lanes
# (1 cycle where core1's lane swap takes 3): one cycle a round less,
# measured.  The constants live in registers (VPERMB controls ymm12..19,
# columns ymm22..29), K_2..K_9 in the frame at (%rax), so that a round
# loads only the S-box's quarters 1 and 3 and its key.  The chaining value
# is kept in the field image and the split layout with K_1 already added
# (ymm0); the last round adds ymm30 = K_10 + K_1 (+ the plaintext block,
# CFB) in its ternlog, so that the core's output is the next block's
# input: CFB and OFB then wait for no XOR between blocks, CBC for one
# (its plaintext).  K_1 stays in ymm31 for the outputs.  Layouts are
# changed by VPERMQ, off the chain: to split 0x50, back 0x88.
my $SFRAME = 8 * 32 + 32 + 8;
sub serial_core {
    return core_serial('e', ".Lkuz_core1s_e", {
        spread => sub { "%ymm" . (12 + $_[0]) },
        col    => sub { "%ymm" . (22 + $_[0]) },
        key    => sub { $_[0] == 10 ? "%ymm30" : 32 * ($_[0] - 2) . "(%rax)" },
        free   => [ 1 .. 11 ],
        split  => 1,
    });
}
$code .= serial_core();

# block ($at) into ymm $r, in the field image and the split layout
sub split_in {
    my ($at, $r) = @_;
    return "\tvbroadcasti32x4\t$at,%ymm$r\n" . map_in('y', $r) . "\tvpermq\t\$0x50,%ymm$r,%ymm$r\n";
}

# ymm $r (split layout, keyed by K_1) to the plain block in xmm $o
sub split_out {
    my ($r, $o) = @_;
    return "\tvpxorq\t%ymm31,%ymm$r,%ymm$o\n\tvpermq\t\$0x88,%ymm$o,%ymm$o\n" . map_out('x', $o);
}

sub serial {
    my ($mode) = @_;
    my $name = "kuznyechik_gfni_avx512_$mode";
    my $s = function_begin($name) . "\ttest\t%rcx,%rcx\n\tjz\t.Lkuz_${mode}_none\n"
        . frame_alloc($SFRAME) . "\tmov\t%rsp,%rax\n";
    # K_1 (ymm31), K_2..K_9 to the frame, K_10 + K_1 after them
    for my $i (1 .. 10) {
        my $k = $i == 1 ? 31 : 4;
        $s .= split_in(16 * ($i - 1) . "(%rdi)", $k);
        $s .= "\tvmovdqu64\t%ymm4," . 32 * ($i - 2) . "(%rax)\n" if $i > 1 && $i < 10;
    }
    $s .= "\tvpxorq\t%ymm31,%ymm4,%ymm30\n\tvmovdqu64\t%ymm30,256(%rax)\n";
    $s .= "\tvmovdqu64\t.Lkuz_splitctl_$_(%rip),%ymm" . (12 + $_) . "\n" for 0 .. 7;
    $s .= "\tvmovdqu64\t.Lkuz_splitcol_$_(%rip),%ymm" . (22 + $_) . "\n" for 0 .. 7;
    $s .= "\tvmovdqa64\t.Lkuz_pi_e0(%rip)," . R('z', $TQ0) . "\n"
        . "\tvmovdqa64\t.Lkuz_pi_e2(%rip)," . R('z', $TQ2) . "\n"
        . split_in('(%r8)', 0) . "\tvpxorq\t%ymm31,%ymm0,%ymm0\n"
        . ".Lkuz_${mode}_loop:\n";
    if ($mode eq 'cbc_enc') {
        $s .= split_in('(%rsi)', 4) . "\tvpxorq\t%ymm4,%ymm0,%ymm0\n"
            . "\tcall\t.Lkuz_core1s_e\n" . split_out(0, 4);
    } elsif ($mode eq 'cfb_enc') {
        $s .= split_in('(%rsi)', 4) . "\tvpxorq\t256(%rax),%ymm4,%ymm30\n"
            . "\tcall\t.Lkuz_core1s_e\n" . split_out(0, 4);
    } else {
        $s .= "\tcall\t.Lkuz_core1s_e\n" . split_out(0, 4) . "\tvpxorq\t(%rsi),%xmm4,%xmm4\n";
    }
    $s .= <<"EOT";
	vmovdqu	%xmm4,(%rdx)
	add	\$16,%rsi
	add	\$16,%rdx
	dec	%rcx
	jnz	.Lkuz_${mode}_loop
EOT
    $s .= split_out(0, 0) . "\tvmovdqu\t%xmm0,(%r8)\n\tvzeroupper\n" . frame_free($SFRAME);
    return $s . ".Lkuz_${mode}_none:\n\tret\n" . function_end($name);
}
$code .= serial('cbc_enc') . serial('cfb_enc') . serial('ofb');

# map_in/map_out on xmm take the qword broadcast as {1to2}
$code =~ s/(vgf2p8affineqb\t\$0,\.Lkuz_aes_(?:un)?map\(%rip\))\{1to8\}(,%xmm)/$1\{1to2\}$2/g;
$code =~ s/(vgf2p8affineqb\t\$0,\.Lkuz_aes_(?:un)?map\(%rip\))\{1to8\}(,%ymm)/$1\{1to4\}$2/g;

x86_64::finish($code);
