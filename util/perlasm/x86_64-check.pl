#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Checks x86_64.pm's .byte encoder against the assembler: random register
# forms of every instruction it encodes (xmm/ymm/zmm, registers 0-31, opmask
# and zeroing) and GFNI forms with a RIP-relative constant, assembled once
# as mnemonics and once as .byte, must disassemble (with relocations)
# identically.  Needs an assembler that knows the mnemonics.
#
#   perl util/perlasm/x86_64-check.pl [count-per-form]
use strict;
use warnings;
use FindBin qw($Bin);
use File::Temp qw(tempdir);

my $per = shift // 40;
my $dir = tempdir(CLEANUP => 1);
srand(20261130);

my $src = "";
for my $mn (qw(vgf2p8affineqb vgf2p8affineinvqb vgf2p8mulb vaesenc
               vaesenclast vaesdec vaesdeclast vpclmulqdq)) {
    for my $w (qw(x y z)) {
        for my $i (1 .. $per) {
            my @r = map { int(rand(32)) } 1 .. 3;
            @r = map { $_ & 15 } @r if $i % 3 == 0;
            my $imm = $mn =~ /affine|clmul/
                ? sprintf($i % 2 ? '$0x%x, ' : '$%d, ', int(rand(256))) : '';
            my $mask = '';
            if ($mn =~ /^vgf2p8/ && $i % 4 == 1) {
                $mask = '{%k' . (1 + $i % 7) . '}' . ($i % 8 == 1 ? '{z}' : '');
            }
            $src .= "\t$mn\t$imm%${w}mm$r[0],%${w}mm$r[1],%${w}mm$r[2]$mask\n";
        }
    }
}
# VEX forms with a RIP-relative constant (relocated: compared with -r)
$src .= ".section\t.rodata\n.Lk0:\n.quad\t0,0,0,0\n.Lk1:\n.quad\t0,0,0,0\n.text\n";
for my $i (1 .. $per) {
    my ($w, $k) = ($i % 2 ? 'y' : 'x', $i % 3 ? 'Lk1' : 'Lk0');
    my ($v, $d) = map { int(rand(16)) } 1 .. 2;
    my $mn = $i % 2 ? 'vgf2p8affineqb' : 'vgf2p8affineinvqb';
    $src .= "\t$mn\t\$$i,.$k(%rip),%${w}mm$v,%${w}mm$d\n";
}
open(my $fh, '>', "$dir/gen.pl") or die "$dir/gen.pl: $!\n";
print $fh "use lib '$Bin'; use x86_64; x86_64::setup(\@ARGV);\n"
    . "x86_64::finish(<<'EOT');\n${src}EOT\n";
close($fh) or die "$dir/gen.pl: $!\n";

my %dis;
for my $mode ('', 'bytes') {
    my $tag = $mode || 'mnemonic';
    system("$^X $dir/gen.pl elf $mode > $dir/$tag.s") == 0
        or die "generating the $tag form failed\n";
    system("as -o $dir/$tag.o $dir/$tag.s") == 0
        or die "assembling the $tag form failed\n";
    my @lines = grep { /^\s+[0-9a-f]+:/ } `objdump -dr $dir/$tag.o`;
    s/^\s+[0-9a-f]+:\s*// for @lines;
    $dis{$tag} = \@lines;
}
my ($a, $b) = @dis{qw(mnemonic bytes)};
my $bad = 0;
for my $i (0 .. $#$a) {
    next if defined $b->[$i] && $a->[$i] eq $b->[$i];
    print "differs: ", $a->[$i], "   vs: ", ($b->[$i] // "(missing)\n");
    last if ++$bad == 10;
}
$bad ||= @$a != @$b;
printf "%s: %d instructions compared\n", $bad ? "FAIL" : "ok", scalar @$a;
exit($bad ? 1 : 0);
