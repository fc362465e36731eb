# SPDX-License-Identifier: Apache-2.0
#
# x86-64 perlasm support for smgost's kernels (CRYPTOGAMS style): a kernel
# script builds AT&T-syntax text with registers held in perl variables and
# hands it to this module, which adds the ELF boilerplate (symbol
# visibility, CET/IBT landing pads, the GNU property and non-executable
# stack notes, CFI for stack frames) and, for assemblers that predate them,
# rewrites GFNI / VAES / VPCLMULQDQ register forms and RIP-relative
# constant forms into .byte sequences.
#
# Usage from asm/NAME-x86_64.pl:
#   use FindBin qw($Bin); use lib "$Bin/../util/perlasm"; use x86_64;
#   x86_64::setup(@ARGV);            # flavour "elf" [+ "bytes"] [+ output]
#   $code .= function_begin("name"); ... $code .= function_end("name");
#   x86_64::finish($code);
#
# Instruction encoding as .byte is chosen by the argument "bytes" or by
# SMG_PERLASM_BYTES=1 in the environment (Configure passes it when the
# assembler cannot assemble vgf2p8affineqb); by default the mnemonics are
# left to the assembler (binutils >= 2.30 knows them).
package x86_64;

use strict;
use warnings;
use Exporter qw(import);
use elf;

our @EXPORT = qw(function_begin function_end local_function_begin
                 local_function_end frame_push frame_pop frame_alloc
                 frame_free frame_align_begin frame_align_end rodata_begin
                 text_begin);

my %arch = (
    name => 'x86_64', encode => 'bytes', encode_env => 'SMG_PERLASM_BYTES',
    # endbr64: a valid IBT landing pad for every indirect-call target
    type => '@function', pad => 'endbr64', local_align => 6,
    comment => '#', progbits => '@progbits', property => '0xc0000002',
);
my $output;
my $encode_bytes = 0;

sub setup { $encode_bytes = elf::parse_scheme(\%arch, \$output, @_); }

# function_begin, function_end, local_function_begin, local_function_end,
# rodata_begin and text_begin, bound to this architecture
elf::install_brackets(\%arch, __PACKAGE__);

# Saving a callee-saved register: push with the matching unwind info.
sub frame_push {
    my ($reg) = @_;
    return "\tpush\t$reg\n.cfi_adjust_cfa_offset\t8\n.cfi_rel_offset\t$reg,0\n";
}

sub frame_pop {
    my ($reg) = @_;
    return "\tpop\t$reg\n.cfi_adjust_cfa_offset\t-8\n.cfi_restore\t$reg\n";
}

# A scratch area of $bytes at (%rsp), 8-byte aligned.
sub frame_alloc {
    my ($bytes) = @_;
    return "\tsub\t\$$bytes,%rsp\n.cfi_adjust_cfa_offset\t$bytes\n";
}

sub frame_free {
    my ($bytes) = @_;
    return "\tadd\t\$$bytes,%rsp\n.cfi_adjust_cfa_offset\t-$bytes\n";
}

# An over-aligned scratch area of $bytes at (%rsp), with %rbp as the frame
# pointer so that the unwinder does not depend on the alignment done; the
# callee-saved registers listed after it are saved below %rbp (and
# restored by frame_align_end given the same list).
sub frame_align_begin {
    my ($bytes, $align, @saved) = @_;
    my $s = <<"EOT";
	push	%rbp
.cfi_adjust_cfa_offset	8
.cfi_offset	%rbp,-16
	mov	%rsp,%rbp
.cfi_def_cfa_register	%rbp
EOT
    for my $i (0 .. $#saved) {
        $s .= "\tpush\t$saved[$i]\n.cfi_offset\t$saved[$i]," . (-24 - 8 * $i) . "\n";
    }
    return $s . "\tsub\t\$$bytes,%rsp\n\tand\t\$-$align,%rsp\n";
}

sub frame_align_end {
    my (@saved) = @_;
    my $s = "";
    for my $i (0 .. $#saved) {
        $s .= "\tmov\t" . (-8 - 8 * $i) . "(%rbp),$saved[$i]\n.cfi_restore\t$saved[$i]\n";
    }
    return $s . <<"EOT";
	mov	%rbp,%rsp
	pop	%rbp
.cfi_def_cfa	%rsp,8
.cfi_restore	%rbp
EOT
}

# ---------------------------------------------------------------------------
# Encoder for the instructions newer than the oldest assembler we support:
# register forms (VEX or EVEX) and forms with a RIP-relative constant (VEX,
# or EVEX with registers above 15, a mask or a {1toN} broadcast).  Opcode
# facts: Intel SDM vol. 2 (GF2P8AFFINEQB, GF2P8AFFINEINVQB, GF2P8MULB,
# AESENC*, AESDEC*, PCLMULQDQ) and its EVEX prefix (section 2.7).
# The last column marks the instructions whose VEX.128 forms came with AVX
# (binutils 2.19), which every assembler we support knows: those forms with
# a general memory operand are left to it.
my %insn = (
    # name               map  W  opcode  has-imm8  VEX.128 known
    vgf2p8affineqb    => [3, 1, 0xce, 1, 0],
    vgf2p8affineinvqb => [3, 1, 0xcf, 1, 0],
    vgf2p8mulb        => [2, 0, 0xcf, 0, 0],
    vaesenc           => [2, 0, 0xdc, 0, 1],
    vaesenclast       => [2, 0, 0xdd, 0, 1],
    vaesdec           => [2, 0, 0xde, 0, 1],
    vaesdeclast       => [2, 0, 0xdf, 0, 1],
    vpclmulqdq        => [3, 0, 0x44, 1, 1],
);

sub parse_vreg {
    my ($r) = @_;
    $r =~ /^%([xyz])mm(\d+)$/ or return;
    return ({ x => 0, y => 1, z => 2 }->{$1}, 0 + $2);
}

sub parse_imm {
    my ($s) = @_;
    $s =~ /^\$(0x[0-9a-fA-F]+|\d+)$/ or die "x86_64.pm: bad immediate '$s'\n";
    my $lit = $1;
    my $v = $lit =~ /^0x/ ? hex($lit) : 0 + $lit;
    die "x86_64.pm: immediate '$s' exceeds a byte\n" if $v > 255;
    return $v;
}

# Every form here takes pp = 66.  VEX when gas would choose it (no mask, no
# register above 15), EVEX otherwise, so the bytes match what gas emits.
sub encode {
    my ($mn, $ops) = @_;
    my ($map, $w, $opc, $has_imm, $vex128_known) = @{ $insn{$mn} };
    my @o = map { s/^\s+|\s+$//gr } split /,/, $ops;
    my $imm;
    $imm = parse_imm(shift @o) if $has_imm;
    die "x86_64.pm: $mn takes three register operands here: '$ops'\n"
        unless @o == 3;
    my ($rm_s, $v_s, $dst_s) = @o;
    my ($kreg, $zero) = (0, 0);
    if ($dst_s =~ s/\{%k([1-7])\}//) { $kreg = $1; }
    if ($dst_s =~ s/\{z\}//) { $zero = 1; }
    # the second source may also be a RIP-relative constant, broadcast
    # (EVEX.b: one element of the instruction's size, a qword for W1)
    my ($sym, $bcast) = (undef, 0);
    $bcast = 1 if $rm_s =~ s/\{1to\d+\}$//;
    $sym = $1 if $rm_s =~ /^([.\w]+)\(%rip\)$/;
    die "x86_64.pm: $mn broadcasts a memory operand only: '$ops'\n"
        if $bcast && !defined $sym;
    my ($lr, $rm) = defined $sym ? (undef, 0) : parse_vreg($rm_s);
    my ($lv, $vv) = parse_vreg($v_s);
    my ($ld, $rg) = parse_vreg($dst_s);
    return undef
        if $vex128_known && !defined $sym && !defined $rm && $rm_s =~ /\(/
        && defined $ld && $ld == 0 && $lv == 0 && !$kreg && !$zero
        && $vv < 16 && $rg < 16;
    die "x86_64.pm: unsupported operands of $mn: '$ops'\n"
        unless defined $rm && defined $vv && defined $rg;
    $lr = $ld if defined $sym;
    die "x86_64.pm: mixed vector widths in $mn '$ops'\n"
        unless $lr == $lv && $lv == $ld;
    die "x86_64.pm: $mn has no broadcast form: '$ops'\n" if $bcast && !$w;
    # A RIP-relative constant has $rm = 0: its prefix bits for rm (VEX.B,
    # EVEX.X and EVEX.B, all inverted) come out as "unused".
    my @b;
    if ($ld < 2 && !$kreg && !$zero && !$bcast && $rm < 16 && $vv < 16
        && $rg < 16) {
        push @b, 0xc4,
            ((~$rg >> 3) & 1) << 7 | 1 << 6 | ((~$rm >> 3) & 1) << 5 | $map,
            $w << 7 | ((~$vv) & 15) << 3 | $ld << 2 | 1;
    } else {
        push @b, 0x62,
            ((~$rg >> 3) & 1) << 7 | ((~$rm >> 4) & 1) << 6
                | ((~$rm >> 3) & 1) << 5 | ((~$rg >> 4) & 1) << 4 | $map,
            $w << 7 | ((~$vv) & 15) << 3 | 1 << 2 | 1,
            $zero << 7 | $ld << 5 | $bcast << 4 | ((~$vv >> 4) & 1) << 3
                | $kreg;
    }
    if (defined $sym) {
        # ModRM mod=00 rm=101: disp32 from the end of the instruction (a
        # disp32 is never scaled, EVEX or not)
        push @b, $opc, ($rg & 7) << 3 | 5;
        my $tail = $has_imm ? 5 : 4;
        my $s = ".byte\t" . join(',', map { sprintf '0x%02x', $_ } @b)
            . "\n\t.long\t$sym-.-$tail";
        $s .= "\n\t.byte\t" . sprintf('0x%02x', $imm) if $has_imm;
        return $s;
    }
    push @b, $opc, 0xc0 | ($rg & 7) << 3 | ($rm & 7);
    push @b, $imm if $has_imm;
    return ".byte\t" . join(',', map { sprintf '0x%02x', $_ } @b);
}

sub translate_line {
    my ($line) = @_;
    return $line unless $encode_bytes;
    if ($line =~ /^(\s*)([a-z0-9]+)\s+(.*?)\s*(#.*)?$/ && exists $insn{$2}) {
        my ($lead, $mn, $ops) = ($1, $2, $3);
        my $bytes = encode($mn, $ops);
        return "$lead$bytes\t# $mn\t$ops" if defined $bytes;
    }
    return $line;
}

sub finish { elf::finish(\%arch, $output, \&translate_line, @_); }

1;
