# SPDX-License-Identifier: Apache-2.0
#
# The mode layer under ctgrind (test/ct_modes): every cipher's init,
# update and final through the real provider under valgrind's memcheck,
# with the key, IV and data marked secret, at a level whose kernels
# valgrind runs and 80-ct.t proves constant-time (no-vaes-vpclmul of
# util/KernelLevels.pm hides AVX-512, GFNI, VAES and VPCLMULQDQ: SM4
# aesni-avx2-ct, GOST gost89-avx2-ct, with "constant-time = yes", and the
# xmm PCLMULQDQ GHASH and MGM kernel clmul-avx, which valgrind runs, not
# the ymm or zmm ones), SM4-GCM, SM4-CCM, SM4-XTS, magma-mgm and
# magma-ctr-acpkm-omac (its KDF over the Streebog kernel too) included.
# memcheck must report nothing: the one
# outcome allowed out (good or bad padding and the length left, a tag that
# matches or not) the module marks public itself.  Then the recipe must
# catch a leak: it builds the module again with a PKCS#7 check that
# branches on the pad bytes in place of src/modes.c's, and memcheck must
# flag that check.  That module is linked from the objects make links
# smgost.so from (SMGOST_MODULE_OBJS), src/modes.o replaced, so it is the
# real module with that one function changed, whatever else an earlier
# build left in the tree.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);
use File::Spec;

my $top = top_dir();
my $valgrind = '';
for my $d (split /:/, $ENV{PATH} // '') {
    $valgrind = "$d/valgrind" if $valgrind eq '' && -x "$d/valgrind";
}
if (my $forced = forced_level()) {
    plan skip_all => "the recipe runs at the unmasked level only (it sets its own mask), not with $forced";
}
plan skip_all => 'valgrind is not installed (Debian package valgrind)' if $valgrind eq '';
plan skip_all => 'programs run through an emulator' if ($ENV{SMGOST_RUNNER} // '') ne '';
plan skip_all => 'valgrind does not run sanitized programs' if ($ENV{SMGOST_SANITIZE} // '') ne '';
my $level = level_env('no-vaes-vpclmul');
plan skip_all => 'the AES-NI level it needs is an x86-64 one' unless $level;
my @module_objs = split ' ', $ENV{SMGOST_MODULE_OBJS} // '';
die "SMGOST_MODULE_OBJS is not set: run the recipe through make test-ct or make test\n"
    unless @module_objs;
plan skip_all => 'no assembly in this build (no-asm): no constant-time kernels to run on'
    unless grep { m{^asm/} } @module_objs;

my $tmp = tempdir(CLEANUP => 1);
my $code = 99;

# memcheck over ct_modes with the module of config $cnf: [exit, output, log]
sub ctgrind {
    my ($cnf, $tag) = @_;
    my $log = File::Spec->catfile($tmp, "vg-$tag.log");
    my $r = run_cmd([ $valgrind, '-q', '--tool=memcheck', "--error-exitcode=$code",
                      "--log-file=$log", program('ct_modes'), $cnf ], env => $level);
    my $l = do { local (@ARGV, $/) = ($log); <> } // '';
    return ($r, $l);
}

my $cnf = write_config($tmp, name => 'real.cnf', smgost => { 'constant-time' => 'yes' });
my ($r, $log) = ctgrind($cnf, 'real');
SKIP: {
    skip('this CPU lacks the AES-NI and AVX2 level (' . ($r->{out} =~ /^kernels: (.*)$/m ? $1 : '?') . ')', 2)
        unless $r->{out} =~ /^kernels: sm4=aesni-avx2-ct[+ ].*gost=gost89-avx2-ct.* mgm=clmul-avx/m;
    ok($r->{exit} == 0 && $r->{out} =~ /ct_modes: \d+ checks, 0 failures/ && $log !~ /uninitialised/,
       'ctgrind over every mode through the provider: no branch or address from the secrets ('
       . ($r->{out} =~ /^kernels: (.*)$/m)[0] . ')')
        or diag("exit $r->{exit}\n$r->{out}$r->{err}\n$log");

    # the planted variant: src/modes.c with a branching PKCS#7 check
    my %mk;
    if (open(my $fh, '<', File::Spec->catfile($top, 'Makefile'))) {
        while (<$fh>) { $mk{$1} = $2 if /^(\w+)\s*=\s*(.*?)\s*$/ }
    }
    my $src = do { local (@ARGV, $/) = (File::Spec->catfile($top, 'src', 'modes.c')); <> };
    my $planted = <<'EOC';
static size_t pkcs7_pad_length(const unsigned char *block, size_t bs)
{
    size_t pad = block[bs - 1], i;

    if (pad == 0 || pad > bs)
        return 0;
    for (i = bs - pad; i < bs; i++)
        if (block[i] != pad)
            return 0;
    return pad;
}
EOC
    my $n = $src =~ s/^static size_t pkcs7_pad_length\(.*?^\}\n/$planted/ms;
    my $pc = File::Spec->catfile($tmp, 'modes.c');
    open(my $out, '>', $pc) or die "$pc: $!";
    print $out $src;
    close $out;
    my @objs = map { File::Spec->catfile($top, $_) } grep { $_ ne 'src/modes.o' } @module_objs;
    my $po = File::Spec->catfile($tmp, 'modes.o');
    my $so = File::Spec->catfile($tmp, 'smgost.so');
    my @cc = (split(' ', $mk{CC} // 'cc'),
              split(' ', join ' ', map { $mk{$_} // '' } qw(OPTFLAGS DEFINES OPENSSL_CFLAGS CFLAGS)),
              '-fPIC', '-fvisibility=hidden', '-g', '-I', File::Spec->catdir($top, 'src'),
              '-I', File::Spec->catdir($top, 'providers'));
    my $c1 = run_cmd([ @cc, '-c', '-o', $po, $pc ], host => 1);
    my $c2 = $c1->{exit} == 0
        ? run_cmd([ @cc, '-shared', '-Wl,--version-script=' . File::Spec->catfile($top, 'providers', 'smgost.map'),
                    '-o', $so, $po, @objs, split(' ', $mk{OPENSSL_LIBS} // '-lcrypto') ], host => 1)
        : $c1;
    ok($n == 1 && @objs == @module_objs - 1 && $c2->{exit} == 0,
       'build the module with a PKCS#7 check that branches on the pad bytes')
        or diag("replaced $n, linked " . scalar(@objs) . ' of the ' . scalar(@module_objs)
                . " module objects\n$c2->{cmd}\n$c2->{err}");
    my $pcnf = File::Spec->catfile($tmp, 'planted.cnf');
    {
        my $t = do { local (@ARGV, $/) = ($cnf); <> };
        $t =~ s/^module = .*$/module = $so/m;
        open(my $fh, '>', $pcnf) or die "$pcnf: $!";
        print $fh $t;
        close $fh;
    }
    my ($pr, $plog) = ctgrind($pcnf, 'planted');
    ok($pr->{exit} == $code && $plog =~ /Conditional jump or move depends on uninitialised value.*?\n(?:==\d+==\s+(?:at|by) .*\n)*?==\d+==\s+(?:at|by) .*\((?:\S*\/)?modes\.c:\d+\)/,
       'ctgrind flags the planted padding check (expected failure)')
        or diag("exit $pr->{exit}\n$pr->{out}$pr->{err}\n$plog");
}

done_testing();
