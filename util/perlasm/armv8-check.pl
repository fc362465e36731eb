#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Checks armv8.pm's .inst encoder against the assembler: random register
# operands of every SM3/SM4 instruction it encodes, passed through
# armv8::finish() once as mnemonics and once as .inst words, must
# disassemble identically.  Needs a cross assembler that knows them.
#
#   perl util/perlasm/armv8-check.pl [count-per-form] [tool-prefix]
use strict;
use warnings;
use FindBin qw($Bin);
use File::Temp qw(tempdir);

my $per = shift // 40;
my $pfx = shift // 'aarch64-linux-gnu-';
my $dir = tempdir(CLEANUP => 1);
srand(20261201);

my $src = ".arch\tarmv8.2-a+crypto+sm4\n";
my %form = (sm4e => 2, sm4ekey => 3, sm3partw1 => 3, sm3partw2 => 3,
            sm3ss1 => 4, sm3tt1a => 'i', sm3tt1b => 'i', sm3tt2a => 'i',
            sm3tt2b => 'i');
for my $mn (sort keys %form) {
    for (1 .. $per) {
        my @r = map { int(rand(32)) } 1 .. 4;
        my $ops = $form{$mn} eq 'i'
            ? "v$r[0].4s, v$r[1].4s, v$r[2].s[" . int(rand(4)) . "]"
            : join(', ', map { "v$_.4s" } @r[0 .. $form{$mn} - 1]);
        $src .= "\t$mn\t$ops\n";
    }
}
open(my $fh, '>', "$dir/gen.pl") or die "$dir/gen.pl: $!\n";
print $fh "use lib '$Bin'; use armv8; armv8::setup(\@ARGV);\n",
    "armv8::finish(<<'EOT');\n$src", "EOT\n";
close $fh;

my %dis;
for my $mode ('', 'inst') {
    my $tag = $mode || 'mnemonic';
    system("$^X $dir/gen.pl elf $mode > $dir/$tag.S") == 0
        or die "generating the $tag form failed\n";
    system("${pfx}gcc -c -o $dir/$tag.o $dir/$tag.S") == 0
        or die "assembling the $tag form failed\n";
    my @lines = grep { /^\s+[0-9a-f]+:/ } `${pfx}objdump -d $dir/$tag.o`;
    s/^\s+[0-9a-f]+:\s*// for @lines;
    $dis{$tag} = \@lines;
}
my ($a, $b) = @dis{qw(mnemonic inst)};
my $bad = 0;
for my $i (0 .. $#$a) {
    next if defined $b->[$i] && $a->[$i] eq $b->[$i];
    print "differs: ", $a->[$i], "   vs: ", ($b->[$i] // "(missing)\n");
    last if ++$bad == 10;
}
$bad ||= @$a != @$b;
printf "%s: %d instructions compared\n", $bad ? "FAIL" : "ok", scalar @$a;
exit($bad ? 1 : 0);
