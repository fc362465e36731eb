#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Checks a translator's fallback encoder (x86_64.pm's .byte, armv8.pm's
# .inst) against the assembler, which must know the mnemonics:
# - random operands of every form the encoder writes (x86-64: xmm/ymm/zmm,
#   registers 0-31, opmask and zeroing, RIP-relative constants; AArch64:
#   every SM3/SM4 instruction), and
# - every kernel of the tree (asm/*-x86_64.pl or asm/*-armv8.pl),
# each generated once with mnemonics and once with the encoder, must
# disassemble alike (with relocations).
#
#   perl util/perlasm/encoder-check.pl x86_64|armv8 [count-per-form] [tool-prefix]
use strict;
use warnings;
use FindBin qw($Bin);
use File::Temp qw(tempdir);

my $arch = shift // '';
my $per  = shift // 40;
my %scheme = (x86_64 => 'bytes', armv8 => 'inst');
die "usage: $0 x86_64|armv8 [count-per-form] [tool-prefix]\n"
    unless exists $scheme{$arch};
my $pfx = shift // ($arch eq 'armv8' ? 'aarch64-linux-gnu-' : '');
my $dir = tempdir(CLEANUP => 1);

sub random_forms_x86_64 {
    srand(20261130);
    my $src = "";
    for my $mn (qw(vgf2p8affineqb vgf2p8affineinvqb vgf2p8mulb vaesenc
                   vaesenclast vaesdec vaesdeclast vpclmulqdq)) {
        for my $w (qw(x y z)) {
            for my $i (1 .. $per) {
                my @r = map { int(rand(32)) } 1 .. 3;
                @r = map { $_ & 15 } @r if $i % 3 == 0;
                my $imm = $mn =~ /affine|clmul/
                    ? sprintf($i % 2 ? '$0x%x, ' : '$%d, ', int(rand(256)))
                    : '';
                my $mask = '';
                if ($mn =~ /^vgf2p8/ && $i % 4 == 1) {
                    $mask = '{%k' . (1 + $i % 7) . '}'
                        . ($i % 8 == 1 ? '{z}' : '');
                }
                $src .= "\t$mn\t$imm%${w}mm$r[0],%${w}mm$r[1],"
                    . "%${w}mm$r[2]$mask\n";
            }
        }
    }
    # VEX forms with a RIP-relative constant, and the VEX.128 forms with a
    # general memory operand that are left to the assembler
    $src .= ".section\t.rodata\n.Lk0:\n.quad\t0,0,0,0\n"
        . ".Lk1:\n.quad\t0,0,0,0\n.text\n";
    for my $i (1 .. $per) {
        my ($w, $k) = ($i % 2 ? 'y' : 'x', $i % 3 ? 'Lk1' : 'Lk0');
        my ($v, $d) = map { int(rand(16)) } 1 .. 2;
        my $mn = $i % 2 ? 'vgf2p8affineqb' : 'vgf2p8affineinvqb';
        $src .= "\t$mn\t\$$i,.$k(%rip),%${w}mm$v,%${w}mm$d\n";
        $mn = $i % 2 ? 'vpclmulqdq' : 'vaesenc';
        my $imm = $i % 2 ? "\$$i," : '';
        $src .= "\t$mn\t$imm" . (16 * $i) . "(%rax),%xmm$v,%xmm$d\n";
    }
    # EVEX forms with a RIP-relative constant: registers 0-31, every width,
    # whole or broadcast (one qword), opmask and zeroing
    for my $i (1 .. 3 * $per) {
        my $wd = (qw(x y z))[$i % 3];
        my ($v, $d) = map { int(rand(32)) } 1 .. 2;
        my $mn = $i % 2 ? 'vgf2p8affineqb' : 'vgf2p8affineinvqb';
        my $k = $i % 4 ? '.Lk1(%rip)' : '.Lk0(%rip)';
        $k .= '{1to' . { x => 2, y => 4, z => 8 }->{$wd} . '}' if $i % 5 < 3;
        my $mask = $i % 7 == 1
            ? '{%k' . (1 + int($i / 7) % 7) . '}' . ($i % 14 == 1 ? '{z}' : '') : '';
        $src .= "\t$mn\t\$$i,$k,%${wd}mm$v,%${wd}mm$d$mask\n";
    }
    return $src;
}

sub random_forms_armv8 {
    srand(20261201);
    my $src = ".arch\tarmv8.2-a+crypto+sm4\n";
    my %form = (sm4e => 2, sm4ekey => 3, sm3partw1 => 3, sm3partw2 => 3,
                sm3ss1 => 4, sm3tt1a => 'i', sm3tt1b => 'i',
                sm3tt2a => 'i', sm3tt2b => 'i');
    for my $mn (sort keys %form) {
        for (1 .. $per) {
            my @r = map { int(rand(32)) } 1 .. 4;
            my $ops = $form{$mn} eq 'i'
                ? "v$r[0].4s, v$r[1].4s, v$r[2].s[" . int(rand(4)) . "]"
                : join(', ', map { "v$_.4s" } @r[0 .. $form{$mn} - 1]);
            $src .= "\t$mn\t$ops\n";
        }
    }
    return $src;
}

# The disassembly of what a generator writes in one scheme.
sub disassemble {
    my ($gen, $mode, $tag) = @_;
    system("$^X $gen elf $mode > $dir/$tag.S") == 0
        or die "generating $tag failed\n";
    system("${pfx}gcc -c -o $dir/$tag.o $dir/$tag.S") == 0
        or die "assembling $tag failed\n";
    my @lines = grep { /^\s+[0-9a-f]+:/ } `${pfx}objdump -dr $dir/$tag.o`;
    s/^\s+[0-9a-f]+:\s*// for @lines;
    return \@lines;
}

sub compare {
    my ($what, $gen) = @_;
    my $a = disassemble($gen, '', 'mnemonic');
    my $b = disassemble($gen, $scheme{$arch}, $scheme{$arch});
    my $bad = 0;
    for my $i (0 .. $#$a) {
        next if defined $b->[$i] && $a->[$i] eq $b->[$i];
        print "$what differs: ", $a->[$i], "   vs: ",
            ($b->[$i] // "(missing)\n");
        last if ++$bad == 10;
    }
    $bad ||= @$a != @$b;
    printf "%s %s: %d instructions compared\n", $bad ? "FAIL" : "ok", $what,
        scalar @$a;
    return !$bad;
}

my $forms = $arch eq 'x86_64' ? random_forms_x86_64() : random_forms_armv8();
open(my $fh, '>', "$dir/gen.pl") or die "$dir/gen.pl: $!\n";
print $fh "use lib '$Bin'; use $arch; ${arch}::setup(\@ARGV);\n"
    . "${arch}::finish(<<'EOT');\n${forms}EOT\n";
close($fh) or die "$dir/gen.pl: $!\n";
my $ok = compare('random forms', "$dir/gen.pl");
for my $pl (sort glob("$Bin/../../asm/*-$arch.pl")) {
    $ok = compare($pl =~ s{.*/}{}r, $pl) && $ok;
}
exit($ok ? 0 : 1);
