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
# The form.  Blocks stay in their memory layout, one per 128-bit lane, in
# the image of the isomorphism of Kuznyechik's field onto AES's (mapped on
# load, back on store, one VGF2P8AFFINEQB each), where multiplying by a
# constant is a VGF2P8MULB.  L is a 16x16 matrix over the field, so L(x) =
# sum over j of column j times x_j: x_j spread over the lane by one
# VPSHUFB, times the column's images by one VGF2P8MULB (none where the
# column's entry is 1), the sixteen products and the next round key folded
# by VPTERNLOGQ.  The sixteen columns are independent, so a round's
# latency is the S-box, a shuffle, a multiply and the fold: the serial
# modes take one block through xmm-wide L steps and a tree-shaped fold,
# the parallel ones four zmm registers (16 blocks) at a time with their
# folds interleaved.  Decryption is X[K_10], then L^-1, pi^-1 and X[K_i]
# for i = 9 .. 1, the same steps with L^-1's columns and pi^-1.  The
# round keys are mapped into the field image once per call (ten
# VGF2P8AFFINEQB), so there is no key setup of the tier's own.
#
# Entry points follow src/kernel.h (SysV: ks=%rdi in=%rsi out=%rdx
# nblocks=%rcx iv=%r8); ks is a KUZNYECHIK_KEY (src/kuznyechik.h): the ten
# round keys at 0, 16 bytes apart, and at 160 the direction ECB takes.
#
# Measured on the 2-vCPU AMD EPYC (Zen 4, family 25 model 17) KVM guest:
# see the table at the end of this comment once measured.

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
# taken where the index's top bit was set.
sub sbox {
    my ($dir, $x, $y, $k) = @_;
    my ($X, $Y) = (R('z', $x), R('z', $y));
    return [
        "\tvmovdqa64\t" . R('z', $TQ0) . ",$Y\n",
        "\tvpermt2b\t.Lkuz_pi_${dir}1(%rip),$X,$Y\n",
        "\tvpmovb2m\t$X,%k$k\n",
        "\tvpermi2b\t.Lkuz_pi_${dir}3(%rip)," . R('z', $TQ2) . ",$X\n",
        "\tvmovdqu8\t$X,$Y\{%k$k\}\n",
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
    my ($dir, $r, $w, $tree, @lanes) = @_;
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
        if ($tree) {
            # all products at once, then a ternary tree
            my @terms = @tmp[0 .. 15];
            push @ins, product($dir, $w, $_, $lin_in, $terms[$_]) for 0 .. 15;
            my @t = map { R($w, $_) } @terms;
            push @t, $next_key if defined $next_key;
            while (@t > 1) {
                my @n;
                while (@t >= 3) {
                    my ($a, $b, $c) = splice @t, 0, 3;
                    push @ins, "\tvpternlogq\t\$0x96,$c,$b,$a\n";
                    push @n, $a;
                }
                if (@t == 2) {
                    my ($a, $b) = splice @t, 0, 2;
                    push @ins, "\tvpxorq\t$b,$a,$a\n";
                    push @n, $a;
                }
                push @n, @t;
                @t = @n;
            }
            push @ins, "\tvmovdqa64\t$t[0]," . R($w, $acc) . "\n";
        } else {
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

# The cores: the state registers from the image of the input to the image
# of the output (keys included), nothing else read or written but temps.
# core4 (zmm0..3, 16 blocks) interleaves four running sums; core1 (one
# block in xmm0) folds by a tree for latency, its S-box zmm-wide (the
# table's halves are zmm) and its L xmm-wide.
sub core {
    my ($dir, $name, $n) = @_;
    my $s = local_function_begin($name);
    my @lanes;
    if ($n == 1) {
        @lanes = ([ 0, 1, 4 .. 19 ]);
    } else {
        @lanes = map { [ $_, 4 + 3 * $_, 5 + 3 * $_, 6 + 3 * $_ ] } 0 .. $n - 1;
    }
    my $w = $n == 1 ? 'x' : 'z';
    for my $r (0 .. 8) {
        $s .= interleave(round_streams($dir, $r, $w, $n == 1, @lanes));
    }
    return $s . "\tret\n" . local_function_end($name);
}

my $code = rodata();
for my $dir (qw(e d)) {
    $code .= core($dir, ".Lkuz_core4_$dir", 4);
    $code .= core($dir, ".Lkuz_core1_$dir", 1);
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

my $FRAME = 16 + 256 + 8;

# ECB in one direction (a local function; the entry chooses)
sub ecb_dir {
    my ($dir) = @_;
    my $name = ".Lkuz_ecb_$dir";
    my $s = local_function_begin($name) . setup_keys($dir);
    $s .= "$name.loop:\n" . pass_mask() . load_regs('%rsi', 0, 0 .. 3)
        . map_in('z', 0 .. 3) . "\tcall\t.Lkuz_core4_$dir\n" . map_out('z', 0 .. 3)
        . store_regs('%rdx', 0 .. 3) . pass_next("$name.loop");
    return $s . "\tvzeroupper\n\tret\n" . local_function_end($name);
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
        . frame_push('%rbx') . frame_alloc($FRAME) . setup_keys('e') . <<'EOT';
	mov	(%r8),%r10
	mov	8(%r8),%rbx
	bswap	%r10
	bswap	%rbx
.Lkuz_ctr_loop:
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
    $s .= store_regs('%rdx', 0 .. 3) . pass_next(".Lkuz_ctr_loop") . <<'EOT';
	bswap	%r10
	bswap	%rbx
	mov	%r10,(%r8)
	mov	%rbx,8(%r8)
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
        . frame_alloc($FRAME) . setup_keys($dir) . <<"EOT";
	vmovdqu	(%r8),%xmm4
	vmovdqu	%xmm4,(%rsp)
.Lkuz_${mode}_dec_loop:
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
    $s .= pass_next(".Lkuz_${mode}_dec_loop") . <<'EOT';
	vmovdqu	(%rsp),%xmm4
	vmovdqu	%xmm4,(%r8)
	vzeroupper
EOT
    return $s . frame_free($FRAME) . ".Lkuz_${mode}_dec_none:\n\tret\n" . function_end($name);
}
$code .= chain_dec('cbc') . chain_dec('cfb');

# ---------------------------------------------------------------------------
# Serial modes, one block at a time through core1, the chaining value kept
# in the field image in xmm0 from block to block.
sub serial {
    my ($mode) = @_;
    my $name = "kuznyechik_gfni_avx512_$mode";
    my $s = function_begin($name) . "\ttest\t%rcx,%rcx\n\tjz\t.Lkuz_${mode}_none\n"
        . setup_keys('e') . "\tvmovdqu\t(%r8),%xmm0\n" . map_in('x', 0)
        . ".Lkuz_${mode}_loop:\n";
    if ($mode eq 'cbc_enc') {
        $s .= "\tvmovdqu\t(%rsi),%xmm4\n" . map_in('x', 4) . "\tvpxorq\t%xmm4,%xmm0,%xmm0\n"
            . "\tcall\t.Lkuz_core1_e\n"
            . "\tvgf2p8affineqb\t\$0,.Lkuz_aes_unmap(%rip){1to2},%xmm0,%xmm4\n";
    } elsif ($mode eq 'cfb_enc') {
        $s .= "\tcall\t.Lkuz_core1_e\n"
            . "\tvmovdqu\t(%rsi),%xmm4\n" . map_in('x', 4) . "\tvpxorq\t%xmm4,%xmm0,%xmm0\n"
            . "\tvgf2p8affineqb\t\$0,.Lkuz_aes_unmap(%rip){1to2},%xmm0,%xmm4\n";
    } else {
        $s .= "\tcall\t.Lkuz_core1_e\n"
            . "\tvgf2p8affineqb\t\$0,.Lkuz_aes_unmap(%rip){1to2},%xmm0,%xmm4\n"
            . "\tvpxorq\t(%rsi),%xmm4,%xmm4\n";
    }
    $s .= <<"EOT";
	vmovdqu	%xmm4,(%rdx)
	add	\$16,%rsi
	add	\$16,%rdx
	dec	%rcx
	jnz	.Lkuz_${mode}_loop
EOT
    $s .= map_out('x', 0) . "\tvmovdqu\t%xmm0,(%r8)\n\tvzeroupper\n";
    return $s . ".Lkuz_${mode}_none:\n\tret\n" . function_end($name);
}
$code .= serial('cbc_enc') . serial('cfb_enc') . serial('ofb');

# map_in/map_out on xmm take the qword broadcast as {1to2}
$code =~ s/(vgf2p8affineqb\t\$0,\.Lkuz_aes_(?:un)?map\(%rip\))\{1to8\}(,%xmm)/$1\{1to2\}$2/g;

x86_64::finish($code);
