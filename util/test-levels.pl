#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Runs the test recipes with prove once per kernel level this machine can
# run, each level forced through the capability mask smgost shares with
# libcrypto (OPENSSL_ia32cap on x86-64, OPENSSL_armcap on aarch64), and
# on x86-64 once more per SM3 schedule (SMGOST_SM3_SCHEDULE) and per set
# of SM4 serial rounds (SMGOST_SM4_CCM).  A candidate that selects the
# same kernels as an earlier one is skipped, so every distinct kernel set
# is tested once.  `make test` calls this with
# the recipes as arguments; SMGOST_LEVELS (make test LEVELS="native c")
# picks levels by name.  HARNESS_JOBS=N (as in OpenSSL's make test) runs N
# recipes of a level at once; the recipes share no files.
use strict;
use warnings;
use FindBin ();
use lib $FindBin::Bin;
use KernelLevels;

my @runner = grep { $_ ne '' } split ' ', $ENV{SMGOST_RUNNER} // '';
my $arch = KernelLevels::run_machine($ENV{SMGOST_RUNNER});

# [level name, variable, mask, emulated CPU] from util/KernelLevels.pm,
# make test's levels there; undef mask: the CPU as probed.
my @candidates = map { [ @$_{qw(name var mask cpu)} ] }
    grep { $_->{test} // 1 } KernelLevels::levels($arch);
@candidates = grep { !defined $_->[3] || grep { $_ eq '-cpu' } @runner } @candidates;
if (my @only = split ' ', $ENV{SMGOST_LEVELS} // '') {
    my %want = map { $_ => 1 } @only;
    @candidates = grep { $want{ $_->[0] } } @candidates;
    die "no kernel level named @only here\n" unless @candidates;
}

# The runner with another emulated CPU, if one is given.
sub runner_for {
    my ($cpu) = @_;
    my @r = @runner;
    if (defined $cpu) {
        for my $i (0 .. $#r - 1) { $r[$i + 1] = $cpu if $r[$i] eq '-cpu' }
    }
    return @r;
}

# The kernels a mask selects, as the provider reports them: to the openssl
# program, or, in a build without one (a cross build not given
# --openssl-cli), to test/config_check.
sub kernels_for {
    my ($var, $mask, $cpu) = @_;
    local %ENV = %ENV;
    delete $ENV{$var};
    $ENV{$var} = $mask if defined $mask;
    my @pre = runner_for($cpu);
    my $cli = $ENV{SMGOST_OPENSSL} // '';
    my @cmd;
    if ($cli ne '') {
        if (my $preload = $ENV{SMGOST_PRELOAD}) {
            if (@pre) { push @pre, '-E', "LD_PRELOAD=$preload" }
            else { $ENV{LD_PRELOAD} = $preload }
        }
        @cmd = (@pre, $cli, 'list', '-providers', '-verbose', '-provider-path',
                $ENV{SMGOST_MODULES}, '-provider', 'smgost');
    } else {
        @cmd = (@pre, "$ENV{SMGOST_TOP}/test/config_check", 'kernels');
    }
    open(my $fh, '-|', @cmd) or die "cannot run @cmd: $!\n";
    my $out = do { local $/; <$fh> } // '';
    close $fh;
    my ($k) = $cli ne '' ? $out =~ /kernels: ([^;]+);/
        : $? == 0 ? $out =~ /^# kernels: (.+)$/m : ();
    die "smgost did not load with $var=" . ($mask // '(unset)')
        . ($cli ne '' ? '' : " (test/config_check kernels:\n$out)") . "\n" unless $k;
    return $k;
}

my $jobs = $ENV{HARNESS_JOBS} // 1;
die "HARNESS_JOBS must be a positive number, not '$jobs'\n" unless $jobs =~ /^[1-9][0-9]*$/;
my @prove = ('prove', '-I', 'test/lib', $jobs > 1 ? ('-j', $jobs) : ());

# Runs prove, copying what it prints (both streams) as it goes; returns
# its exit status and those lines.
sub prove_level {
    my $pid = open(my $fh, '-|');
    die "cannot fork: $!\n" unless defined $pid;
    if (!$pid) {
        open(STDERR, '>&', \*STDOUT) or die "cannot redirect stderr: $!\n";
        exec(@prove, @ARGV) or die "cannot run prove: $!\n";
    }
    local $| = 1;
    my @lines;
    while (my $l = <$fh>) {
        print $l;
        push @lines, $l;
    }
    close $fh;
    return ($?, @lines);
}

# The CPU, as /proc/cpuinfo names it (vendor, family, model): which
# machine a failure was on, since the kernels chosen can depend on it.
sub cpu_name {
    open(my $fh, '<', '/proc/cpuinfo') or return 'unknown';
    my %f;
    while (<$fh>) {
        last if /^$/;
        $f{$1} //= $2 if /^(vendor_id|cpu family|model|model name|CPU implementer|CPU part)\s*:\s*(.*?)\s*$/;
    }
    return join(' ', map { $f{$_} // () } 'vendor_id', 'cpu family', 'model', 'model name')
        || join(' ', map { defined $f{$_} ? "$_ $f{$_}" : () } 'CPU implementer', 'CPU part')
        || 'unknown';
}
my $host_cpu = @runner ? "@runner" : cpu_name();
print "=== CPU: $host_cpu\n";

# A failing level's diagnostics and the recipes that failed: printed again
# at the end, where a log cut to its last lines (CI's) still shows them.
my (%seen, @failed, %failure);
for my $c (@candidates) {
    my ($name, $var, $mask, $cpu) = @$c;
    my $kernels = kernels_for($var, $mask, $cpu);
    next if $seen{ $kernels . (defined $cpu ? " on $cpu" : '') }++;
    print "=== level $name: $kernels", defined $mask ? " ($var=$mask)" : '',
        defined $cpu ? " (CPU $cpu)" : '', "\n";
    local %ENV = %ENV;
    delete $ENV{$var};
    $ENV{$var} = $mask if defined $mask;
    $ENV{SMGOST_RUNNER} = join ' ', runner_for($cpu) if defined $cpu;
    my ($status, @lines) = prove_level();
    next if $status == 0;
    push @failed, $name;
    my @recipes = map { /^(\S+\.t)\s+\(Wstat/ ? $1 : () } @lines;
    $failure{$name} = join('', grep { /^#/ } @lines)
        . "=== level $name failed in: " . (@recipes ? "@recipes" : 'prove itself') . "\n";
}
if (@failed) {
    print $failure{$_} for @failed;
    print "=== FAILED at level(s): @failed (CPU: $host_cpu)\n";
    exit 1;
}
print "=== every level passed\n";
exit 0;
