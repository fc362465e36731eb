# SPDX-License-Identifier: Apache-2.0
#
# The instruction sets of the x86-64 assembly tiers, read from the built
# module: a tier's code may use only what the CPU features it is chosen on
# give (each family's list, src/kernel_list.h).  An EVEX instruction in a
# tier chosen without AVX-512 faults on the CPUs that tier is for (commit
# d1fcb09: vmovdqu64 in sm4_gfni_avx2_ccm_dec), and no test that runs on an
# AVX-512 machine sees it.  The tiers, by the name of each code symbol of asm/*-x86_64.S:
#
#  - AVX-512 (EVEX allowed, not checked): sm4_gfni_avx512_* (and _glc_*),
#    smg_ghash_vpclmul_avx512*, smg_mgm_vpclmul_avx512_*, gost89_avx512_*,
#    sm3_avx512_*, kuznyechik_gfni_avx512_*, streebog_gfni_avx512_*.
#  - AVX2, no AVX-512 (no EVEX, no mask register): sm4_gfni_avx2_* (GFNI),
#    sm4_vaes_avx2_* (VAES, AES-NI), sm4_aesni_avx2_* (AES-NI),
#    smg_ghash_vpclmul_avx2* (VPCLMULQDQ), gost89 avx2 (gost89_avx2_*),
#    kuznyechik_gfni_avx2_*, kuznyechik_avx2_*, streebog_gfni_avx2_*,
#    streebog_avx2_*, and sm4_gfni_set_key, which gfni-avx2 shares.
#  - AVX, no AVX2 (no EVEX, no mask register, no ymm register):
#    sm4_aesni_avx_* (AES-NI), sm4_aesni_set_key, which aesni-avx shares,
#    sm4_ni_* (the AES-NI tiers' CCM, aesni-avx's included),
#    smg_ghash_clmul_avx* and smg_mgm_clmul_avx_* (PCLMULQDQ),
#    sm3_avx_bmi2_* (BMI2) and the scalar GOST kernel gost89_scalar_*
#    (BMI1).
# Every code symbol must be in exactly one tier, so that a new function
# cannot go unchecked.  The kernel tables say it first: each family's list
# (src/kernel_list.h, read through test/kernels) gives the capabilities a
# table needs, and so the tier of the functions it holds (AVX-512F: the
# AVX-512 tier; AVX2: AVX2; any other: AVX), the narrowest of every table
# that holds one; a table added to a list has its functions checked with
# no edit here.  The names above classify the rest (key schedules, IMIT,
# the meshing side passes) and must agree with the lists where both speak.
#
# What a function runs is what is reachable from its symbol: the
# disassembly (objdump -d of providers/smgost.so) is followed from the
# entry through fall-through, every direct jump and branch target and
# every call target (and on after the call).  objdump files the local
# helpers (.L labels, no symbol) under whichever symbol precedes them, so a
# check of each symbol's own range would both miss a helper placed after
# another tier's function and blame a function for a helper it never
# calls; reachability does neither.  An indirect jump or call, or a target
# that is not an instruction, fails the check: it cannot be followed.
#
# An instruction is EVEX if its first byte after the legacy prefixes (66,
# 67, F2, F3, F0, segment overrides) is 0x62, read from the raw bytes, so
# that the verdict does not hang on objdump's names (an instruction with
# both forms, vpaddd, is EVEX only by its encoding; the "bytes" perlasm
# scheme writes GFNI and VAES as .byte).  The mask instructions (kmov,
# kortest, ...) are VEX-encoded: a %k register operand is flagged too, and
# a ymm operand in the AVX tier.  Planted snippets, assembled here, must be
# flagged (an EVEX helper lying under another symbol, an EVEX form, a
# kmov, a ymm behind a jump) and a clean one passed, and every AVX-512
# entry point must be seen to reach EVEX: the check can fail.
#
# Skipped, with the reason, for a build that is not x86-64 (the aarch64
# cross build runs the suite too), one without assembly (no-asm), and when
# objdump (binutils) is absent.  Static: it runs once, at the unmasked
# level.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Spec;
use File::Temp qw(tempdir);

if (my $forced = forced_level()) {
    plan skip_all => "a static check of the module: it runs at the unmasked level only, not with $forced";
}

my $top = top_dir();
my $so = File::Spec->catfile(modules_dir(), 'smgost.so');

# The ELF machine of the module (62 x86-64, 183 aarch64), or undef.
sub elf_machine {
    my ($file) = @_;
    open(my $fh, '<:raw', $file) or return undef;
    my $n = read($fh, my $h, 20);
    return undef unless $n == 20 && substr($h, 0, 4) eq "\x7fELF";
    return unpack(ord(substr($h, 5, 1)) == 2 ? 'n' : 'v', substr($h, 18, 2));
}

my $machine = elf_machine($so);
die "$so: not an ELF module\n" unless defined $machine;
plan skip_all => "not an x86-64 build (ELF machine $machine): the tiers checked are x86-64's"
    unless $machine == 62;
# The build's assembly, as the Makefile takes it: asm/*-ASM_ARCH.pl but
# ASM_EXCLUDE (no-gost-simd), each generated into its .S.
my %mk;
if (open(my $fh, '<', File::Spec->catfile($top, 'Makefile'))) {
    while (<$fh>) { $mk{$1} = $2 if /^(\w+)\s*=\s*(.*?)\s*$/ }
}
plan skip_all => 'no x86-64 assembly in this build (no-asm)' if ($mk{ASM_ARCH} // '') ne 'x86_64';
my %excluded = map { $_ => 1 } split ' ', $mk{ASM_EXCLUDE} // '';
my @asm = map { s/\.pl$/.S/r } grep { !$excluded{ File::Spec->abs2rel($_, $top) } }
    glob(File::Spec->catfile($top, 'asm', '*-x86_64.pl'));
die "no asm/*-x86_64.pl in $top\n" unless @asm;
my $objdump = '';
for my $d (split /:/, $ENV{PATH} // '') {
    $objdump = "$d/objdump" if $objdump eq '' && -x "$d/objdump";
}
plan skip_all => 'objdump is not installed (Debian package binutils)' if $objdump eq '';

my $nm = $objdump =~ s{objdump$}{nm}r;
plan skip_all => 'nm is not installed (Debian package binutils)' unless -x $nm;

my @tiers = (
    [ avx512 => qr/^(?:sm4_gfni_avx512_\w+|smg_ghash_vpclmul_avx512\w*|smg_mgm_vpclmul_avx512_\w+|gost89_avx512_\w+|sm3_avx512_\w+
                  |(?:kuznyechik|streebog)_gfni_avx512_\w+)$/x ],
    [ avx2 => qr/^(?:sm4_(?:gfni|vaes|aesni)_avx2_\w+|smg_ghash_vpclmul_avx2\w*|gost89_avx2_\w+|sm4_gfni_set_key
                |(?:kuznyechik|streebog)_(?:gfni_)?avx2_\w+)$/x ],
    [ avx => qr/^(?:sm4_aesni_avx_\w+|sm4_aesni_set_key|sm4_ni_\w+|smg_ghash_clmul_avx\w*|smg_mgm_clmul_avx_\w+|sm3_avx_bmi2_\w+|gost89_scalar_\w+)$/ ],
);

# objdump -d -w of file: { ins => { address => [ [bytes], text ] },
# sym => { name => address } }, or a string saying why not.
sub disassemble {
    my ($file) = @_;
    my $r = run_cmd([ $objdump, '-d', '-w', $file ], host => 1);
    return "$r->{cmd}: exit $r->{exit}\n$r->{err}" if $r->{exit} != 0;
    my (%ins, %sym);
    for (split /\n/, $r->{out}) {
        if (/^([0-9a-f]+) <([^>]+)>:$/) {
            $sym{$2} = hex $1;
        } elsif (/^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)$/) {
            $ins{hex $1} = [ [ map { hex } split ' ', $2 ], $3 ];
        }
    }
    return "no instructions in $r->{cmd}" unless %ins;
    return { ins => \%ins, sym => \%sym };
}

my %legacy = map { $_ => 1 } (0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67, 0xf0, 0xf2, 0xf3);

# What an instruction uses that its tier may not have: a list of reasons.
sub forbidden {
    my ($bytes, $text, $tier) = @_;
    my @why;
    my $i = 0;
    $i++ while $i < @$bytes && $legacy{ $bytes->[$i] };
    push @why, 'EVEX (0x62)' if $i < @$bytes && $bytes->[$i] == 0x62;
    push @why, 'mask register' if $text =~ /%k[0-7]\b/;
    push @why, 'ymm register' if $tier eq 'avx' && $text =~ /%ymm\d/;
    push @why, 'undecodable' if $text =~ /\(bad\)/;
    return @why;
}

# The findings in the code reachable from the symbol fn, for its tier:
# ("address: instruction: reasons", ...).
sub check_function {
    my ($d, $fn, $tier) = @_;
    my $ins = $d->{ins};
    my @work = ($d->{sym}{$fn});
    my (%seen, @found);
    while (@work) {
        my $at = pop @work;
        next if $seen{$at}++;
        my $i = $ins->{$at};
        if (!$i) {
            push @found, sprintf('%x: a branch target that is no instruction', $at);
            next;
        }
        my ($bytes, $text) = @$i;
        my @why = forbidden($bytes, $text, $tier);
        push @found, sprintf('%x: %s: %s', $at, $text, join(', ', @why)) if @why;
        (my $bare = $text) =~ s/^(?:(?:data16|addr32|[c-gs]s|rex\S*|lock|rep\w*|bnd|notrack|\{\w+\})\s+)*//;
        my ($mn, $op) = $bare =~ /^(\S+)\s*(.*)$/ ? ($1, $2) : ('', '');
        my $next = $at + @$bytes;
        my $target = $op =~ /^([0-9a-f]+) </ ? hex $1 : undef;
        if ($mn =~ /^(?:ret|iret|ud2|int3|hlt)/) {
            next;
        } elsif ($mn =~ /^(?:j|call|loop)/) {
            if (!defined $target) {
                push @found, sprintf('%x: %s: an indirect branch, not followed', $at, $text);
                next;
            }
            push @work, $target;
            push @work, $next unless $mn =~ /^jmp/;
        } else {
            push @work, $next;
        }
    }
    return \@found, scalar keys %seen;
}

sub write_file {
    my ($dir, $name, $text) = @_;
    my $f = File::Spec->catfile($dir, $name);
    open(my $fh, '>', $f) or die "$f: $!";
    print $fh $text;
    close $fh or die "$f: $!";
    return $f;
}

# ---- 1. planted snippets: the check catches what it must ----

# [function, tier, the reason expected (undef: must pass)]
my @planted = (
    [ 'plant_call', 'avx2', 'EVEX' ],
    [ 'plant_avx512_other', 'avx512', undef ],
    [ 'plant_evex_form', 'avx2', 'EVEX' ],
    [ 'plant_kmov', 'avx2', 'mask register' ],
    [ 'plant_jump', 'avx', 'ymm register' ],
    [ 'plant_clean', 'avx', undef ],
);
my $snippets = <<'EOS';
	.text
	.globl	plant_call
plant_call:
	vpxor	%ymm0,%ymm0,%ymm0
	call	.Lplant_helper
	vzeroupper
	ret
	.globl	plant_avx512_other
plant_avx512_other:
	vmovdqu64	%zmm0,%zmm1
	ret
.Lplant_helper:
	vmovdqu64	%xmm0,%xmm1
	ret
	.globl	plant_evex_form
plant_evex_form:
	{evex} vpaddd	%xmm1,%xmm2,%xmm3
	ret
	.globl	plant_kmov
plant_kmov:
	kmovw	%k1,%eax
	ret
	.globl	plant_jump
plant_jump:
	test	%rdi,%rdi
	jnz	.Lplant_far
	ret
	.globl	plant_clean
plant_clean:
	vpxor	%xmm0,%xmm0,%xmm0
	ret
.Lplant_far:
	vpaddd	%ymm1,%ymm1,%ymm1
	vzeroupper
	ret
EOS
{
    my $tmp = tempdir(CLEANUP => 1);
    my $src = write_file($tmp, 'plant.S', $snippets);
    my $obj = File::Spec->catfile($tmp, 'plant.o');
    my $c = run_cmd([ split(' ', $mk{CC} // 'cc'), '-c', '-o', $obj, $src ], host => 1);
    my $d = $c->{exit} == 0 ? disassemble($obj) : "$c->{cmd}\n$c->{err}";
    for my $p (@planted) {
        my ($fn, $tier, $want) = @$p;
        if (!ref $d || !defined $d->{sym}{$fn}) {
            fail("planted $fn");
            diag(ref $d ? "no symbol $fn" : $d);
            next;
        }
        my ($found) = check_function($d, $fn, $tier);
        if ($tier eq 'avx512') {
            ok(grep({ /EVEX/ } @$found) > 0, "planted $fn: EVEX seen in the AVX-512 tier (allowed there)")
                or diag(join("\n", @$found));
        } elsif (defined $want) {
            ok(@$found == 1 && index($found->[0], $want) >= 0,
               "planted $fn ($tier tier) flagged: $want (expected failure)")
                or diag("findings:\n" . join("\n", @$found));
        } else {
            ok(!@$found, "planted $fn ($tier tier) passes, though a ymm helper lies in its range")
                or diag(join("\n", @$found));
        }
    }
}

# ---- 2. the module ----

# The tier of each function a kernel table holds, from the families' lists:
# { function => tier }, the narrowest of the tables holding it.
my %rank = (avx512 => 0, avx2 => 1, avx => 2);
my (%list_tier, %list_tables);
{
    my $r = run_program('kernels', [], host => 1);
    my $sy = run_cmd([ $nm, program('kernels') ], host => 1);
    my %at;
    for (split /\n/, $sy->{out}) {
        $at{ hex $1 } //= $2 if /^([0-9a-f]+) [Tt] (\w+)$/;
    }
    my ($main) = grep { $at{$_} eq 'main' } keys %at;
    my %isa;
    for (split /\n/, $r->{out}) {
        if (/^table \S+ (\S+) isa=(\S+)/) {
            $isa{$1} = $2;
        } elsif (/^entry (\S+) \S+ ([0-9a-f]+)$/ && defined $main && $isa{$1} ne '-') {
            my $fn = $at{ $main + hex $2 } // next;
            my $t = $isa{$1};
            $list_tier{$fn} = $t if !defined $list_tier{$fn} || $rank{$t} > $rank{ $list_tier{$fn} };
            $list_tables{$1} = 1;
        }
    }
    ok($r->{exit} == 0 && $sy->{exit} == 0 && defined $main && keys %list_tier > 0,
       'the kernel lists name the functions of ' . scalar(keys %list_tables) . ' x86-64 tables ('
       . scalar(keys %list_tier) . ' functions)')
        or diag("$r->{cmd}: exit $r->{exit}\n$r->{err}\n$sy->{cmd}: exit $sy->{exit}\n$sy->{err}");
}

my $d = disassemble($so);
die "$d\n" unless ref $d;
my %tier;
my (@unclassified, @missing, @disagree);
for my $f (@asm) {
    open(my $fh, '<', $f) or die "$f: $! (the assembly is generated by make)";
    while (<$fh>) {
        push @missing, $1 if /^\s*\.type\s+(\w+)\s*,\s*\@function/ && !defined $d->{sym}{$1};
        next unless /^([A-Za-z_]\w*):/ && defined $d->{sym}{$1};
        my $fn = $1;
        my @in = grep { $fn =~ $_->[1] } @tiers;
        if (defined $list_tier{$fn}) {
            $tier{$fn} = $list_tier{$fn};
            push @disagree, "$fn: $list_tier{$fn} by the kernel lists, "
                . (@in ? join(' ', map { $_->[0] } @in) : 'no tier') . ' by its name'
                if @in != 1 || $in[0][0] ne $list_tier{$fn};
        }
        elsif (@in == 1) { $tier{$fn} = $in[0][0] }
        else { push @unclassified, "$fn (" . (@in ? join(' ', map { $_->[0] } @in) : 'no tier') . ')' }
    }
}
my %count;
$count{$_}++ for values %tier;
ok(!@unclassified && !@missing && keys %tier > 0,
   'every code symbol of ' . join(' ', map { s{.*/}{}r } @asm) . ' is in one tier ('
   . join(', ', map { "$_ " . ($count{$_} // 0) } map { $_->[0] } @tiers) . ')')
    or diag(join("\n", (map { "in the module's code: $_" } @unclassified),
                 (map { "a function of the assembly not in the module's code: $_" } @missing)));
ok(!@disagree, 'the tier of each function a kernel table holds, by the kernel lists, is the one its name gives')
    or diag(join("\n", @disagree));

my $what = {
    avx2 => 'AVX2 tiers: no EVEX instruction, no mask register',
    avx => 'AVX tiers (no AVX2): no EVEX instruction, no mask register, no ymm register',
};
for my $t (qw(avx2 avx)) {
    my ($n, $insns, @bad) = (0, 0);
    for my $fn (sort grep { $tier{$_} eq $t } keys %tier) {
        my ($found, $seen) = check_function($d, $fn, $t);
        $n++;
        $insns += $seen;
        push @bad, map { "$fn: $_" } @$found;
    }
    ok($n > 0 && !@bad, "$what->{$t} in what $n functions reach ($insns instructions, helpers counted with each caller)")
        or diag(join("\n", @bad[0 .. ($#bad < 40 ? $#bad : 39)]) . (@bad > 40 ? "\n... " . (@bad - 40) . ' more' : ''));
}

# The entry points (.globl) of the AVX-512 tier all reach EVEX code: the
# check sees what these tiers are made of.
my %globl;
for my $f (@asm) {
    open(my $fh, '<', $f) or die "$f: $!";
    while (<$fh>) { $globl{$1} = 1 if /^\s*\.globl\s+(\w+)/ }
}
my @entries = sort grep {
    $tier{$_} eq 'avx512' && $globl{$_}
} keys %tier;
my @quiet = grep {
    my ($found) = check_function($d, $_, 'avx512');
    !grep { /EVEX/ } @$found;
} @entries;
ok(@entries > 0 && !@quiet,
   'every one of ' . scalar(@entries) . ' AVX-512 entry points is seen to reach EVEX instructions (expected findings)')
    or diag("no EVEX found from: @quiet");

done_testing();
