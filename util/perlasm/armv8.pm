# SPDX-License-Identifier: Apache-2.0
#
# AArch64 perlasm support for smgost's kernels (CRYPTOGAMS style): a kernel
# script builds GNU assembler text with registers held in perl variables
# and hands it to this module, which adds the ELF boilerplate (symbol
# visibility, BTI landing pads, PAC-signed frames with CFI, the GNU
# property and non-executable stack notes) and, for assemblers that predate
# them, rewrites the SM3/SM4 instructions into .inst words.
#
# Usage from asm/NAME-armv8.pl:
#   use FindBin qw($Bin); use lib "$Bin/../util/perlasm"; use armv8;
#   armv8::setup(@ARGV);             # flavour "elf" [+ "inst"] [+ output]
#   $code .= ".arch\tarmv8.2-a+crypto+sm4\n";   # each kernel names its ISA
#   $code .= function_begin("name"); ... $code .= function_end("name");
#   armv8::finish($code);
#
# The output is a .S file: it goes through the C preprocessor, so comments
# in kernel text must be "//" (a "#" at the start of a line would be a
# preprocessor directive); finish() turns lines that start with "#" into
# "//" comments.  Vector registers are plain perl strings ("v3") with the
# arrangement appended in the text ("$x.16b"); qreg()/dreg() give the
# scalar names of the same register.
#
# Encoding as .inst is chosen by the argument "inst" or by
# SMG_PERLASM_INST=1 in the environment (Configure passes it when the
# assembler cannot assemble sm4e); it then also drops "+sm4" from .arch.
package armv8;

use strict;
use warnings;
use Exporter qw(import);
use elf;

our @EXPORT = qw(function_begin function_end local_function_begin
                 local_function_end frame_enter frame_leave adr_label
                 rodata_begin text_begin qreg dreg);

my %arch = (
    name => 'armv8', encode => 'inst', encode_env => 'SMG_PERLASM_INST',
    # BTI "c" (hint #34, a NOP before Armv8.5): every indirect-call target
    type => '%function', pad => "hint\t#34\t\t// bti c", local_align => 5,
    comment => '//', progbits => '%progbits', property => '0xc0000000',
);
my $output;
my $encode_inst = 0;

sub setup { $encode_inst = elf::parse_scheme(\%arch, \$output, @_); }

sub qreg { my ($v) = @_; return $v =~ s/^v/q/r; }
sub dreg { my ($v) = @_; return $v =~ s/^v/d/r; }

# function_begin, function_end, local_function_begin, local_function_end,
# rodata_begin and text_begin, bound to this architecture
elf::install_brackets(\%arch, __PACKAGE__);

# A frame for functions that call a local helper or use the callee-saved
# vector registers: the link register is signed (PACIASP, hint #25, a NOP
# without FEAT_PAuth) before it is stored, x29/x30 go to the bottom of the
# frame, then the listed d-registers (their low 64 bits are callee-saved,
# AAPCS64 6.1.2) in pairs.  $extra bytes of 16-aligned scratch follow at
# [sp, #16 * (1 + pairs)].  frame_leave undoes it and ends in RET.
sub frame_layout {
    my ($dregs, $extra) = @_;
    my @d = @{ $dregs // [] };
    die "armv8.pm: frame d-registers come in pairs\n" if @d % 2;
    $extra //= 0;
    die "armv8.pm: frame scratch must be a multiple of 16\n" if $extra % 16;
    my $size = 16 + 8 * @d + $extra;
    die "armv8.pm: frame too large for one stp\n" if $size > 504;
    return ($size, @d);
}

sub frame_enter {
    my ($dregs, $extra) = @_;
    my ($size, @d) = frame_layout($dregs, $extra);
    my $s = <<"EOT";
	hint	#25		// paciasp
.cfi_negate_ra_state
	stp	x29,x30,[sp,#-$size]!
.cfi_def_cfa_offset	$size
.cfi_offset	x29,-$size
.cfi_offset	x30,-@{[$size - 8]}
	mov	x29,sp
EOT
    for (my $i = 0; $i < @d; $i += 2) {
        my $off = 16 + 8 * $i;
        $s .= "\tstp\t$d[$i],$d[$i + 1],[sp,#$off]\n"
            . ".cfi_offset\t$d[$i],-" . ($size - $off) . "\n"
            . ".cfi_offset\t$d[$i + 1],-" . ($size - $off - 8) . "\n";
    }
    return $s;
}

sub frame_leave {
    my ($dregs, $extra) = @_;
    my ($size, @d) = frame_layout($dregs, $extra);
    my $s = "";
    for (my $i = 0; $i < @d; $i += 2) {
        $s .= "\tldp\t$d[$i],$d[$i + 1],[sp,#" . (16 + 8 * $i) . "]\n";
    }
    # The unwind state after the final RET does not matter: CFI ends with
    # the function.
    $s .= <<"EOT";
	ldp	x29,x30,[sp],#$size
	hint	#29		// autiasp
	ret
EOT
    return $s;
}

# Address of a local label in any section of this object (PC-relative,
# +-4 GiB, no relocation left for the dynamic linker).
sub adr_label {
    my ($reg, $label) = @_;
    return "\tadrp\t$reg,$label\n\tadd\t$reg,$reg,:lo12:$label\n";
}


# ---------------------------------------------------------------------------
# .inst encoder for the SM3/SM4 instructions (Arm ARM, A64 "Cryptographic
# three-register, imm2", "three-register SM3", "two-register SM4" groups).
# Checked bit for bit against gas 2.40 by util/perlasm/encoder-check.pl.
my %insn = (
    # name        base         form
    sm4e      => [0xcec08400, 'dn'],
    sm4ekey   => [0xce60c800, 'dnm'],
    sm3partw1 => [0xce60c000, 'dnm'],
    sm3partw2 => [0xce60c400, 'dnm'],
    sm3ss1    => [0xce400000, 'dnma'],
    sm3tt1a   => [0xce408000, 'dnmi'],
    sm3tt1b   => [0xce408400, 'dnmi'],
    sm3tt2a   => [0xce408800, 'dnmi'],
    sm3tt2b   => [0xce408c00, 'dnmi'],
);

sub encode {
    my ($mn, $ops) = @_;
    my ($base, $form) = @{ $insn{$mn} };
    my @o = map { s/^\s+|\s+$//gr } split /,/, $ops;
    my $nops = length($form) - ($form =~ /i/ ? 1 : 0);
    die "armv8.pm: $mn takes $nops operands: '$ops'\n" unless @o == $nops;
    my %f;
    my @names = split //, $form;
    for my $k (0 .. $#o) {
        my $n = $names[$k];
        if ($n eq 'm' && $form =~ /i/) {
            $o[$k] =~ /^v(\d+)\.s\[([0-3])\]$/i
                or die "armv8.pm: $mn wants Vm.s[imm2]: '$ops'\n";
            ($f{m}, $f{i}) = ($1, $2);
        } else {
            $o[$k] =~ /^v(\d+)\.4s$/i
                or die "armv8.pm: $mn wants .4s registers: '$ops'\n";
            $f{$n} = $1;
        }
    }
    for (values %f) { die "armv8.pm: bad register in '$ops'\n" if $_ > 31; }
    my $w = $base | $f{d} | $f{n} << 5;
    $w |= $f{m} << 16 if defined $f{m};
    $w |= $f{a} << 10 if defined $f{a};
    $w |= $f{i} << 12 if defined $f{i};
    return sprintf(".inst\t0x%08x", $w);
}

sub translate_line {
    my ($line) = @_;
    $line =~ s{^(\s*)#}{$1//};
    return $line unless $encode_inst;
    if ($line =~ /^(\s*)\.arch\s+(\S+)(.*)$/) {
        my ($lead, $arch, $rest) = ($1, $2, $3);
        $arch =~ s/\+sm4\b//;
        return "$lead.arch\t$arch$rest";
    }
    if ($line =~ m{^(\s*)([a-z0-9]+)\s+(.*?)\s*(//.*)?$} && exists $insn{$2}) {
        my ($lead, $mn, $ops) = ($1, $2, $3);
        return "$lead" . encode($mn, $ops) . "\t// $mn\t$ops";
    }
    return $line;
}

# Its property note marks the object BTI and PAC compatible: every
# exported entry is a landing pad and every stored link register signed.
sub finish { elf::finish(\%arch, $output, \&translate_line, @_); }

1;
