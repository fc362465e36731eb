# SPDX-License-Identifier: Apache-2.0
#
# Shared helpers for the test recipes (test/*.t): where the module, the test
# programs and the openssl CLI are, how to run a program (through
# SMGOST_RUNNER, e.g. qemu for cross builds), the -provider-path arguments,
# and run_env(), the one place that says what a run's environment adds
# (a capability mask, for running the suite once per kernel).  Which
# variables force a kernel level, and with what, it reads from
# util/KernelLevels.pm.
#
# The environment comes from `make test` (see Makefile.in): SMGOST_MODULES,
# SMGOST_TOP, SMGOST_OPENSSL, SMGOST_RUNNER, SMGOST_SANITIZE, SMGOST_PRELOAD,
# SMGOST_GOSTPROV, SMGOST_MODULE_OBJS.
package SmgostTest;

use strict;
use warnings;
use Exporter 'import';
use File::Basename qw(dirname);
use File::Spec;
use File::Temp qw(tempfile);
use Cwd qw(abs_path);
use POSIX qw(_exit WNOHANG);
use Time::HiRes qw(time);
use Test::More;
use lib File::Spec->catdir(dirname(abs_path(__FILE__)), '..', '..', 'util');
use KernelLevels;

our @EXPORT = qw(top_dir modules_dir openssl_cli gostprov_dir program level_env
                 provider_args run_arch cap_variable forced_level run_env run_cmd run_program
                 run_openssl program_ok kat_file_ok data_file write_config
                 tables_checked_ok);

sub top_dir {
    return $ENV{SMGOST_TOP} if $ENV{SMGOST_TOP};
    return abs_path(File::Spec->catdir(dirname(__FILE__), '..', '..'));
}

# The folder holding smgost.so.
sub modules_dir {
    return $ENV{SMGOST_MODULES} || File::Spec->catdir(top_dir(), 'providers');
}

# The openssl program to drive, or '' when the build has none (recipes then
# skip what needs it).
sub openssl_cli {
    return $ENV{SMGOST_OPENSSL} // 'openssl';
}

# The folder holding gostprov.so, or '' when it is not installed or
# Configure left it out (one that fails with this openssl).
sub gostprov_dir {
    return $ENV{SMGOST_GOSTPROV} // '';
}

# Writes an openssl.cnf into folder dir that activates smgost from the build
# tree and the default provider, and returns its path.  Options: name (file
# name), smgost => { more keys of smgost's section, e.g. constant-time },
# properties => default_properties for the EVP algorithm section,
# providers => [ the providers to activate, in order; default: smgost,
# default ], module => smgost's module path (default: the build's),
# random => the properties the RANDOM section gives the DRBGs (a query of
# its own, so default_properties that name smgost still leave them on
# the default provider).  Node.js reads the section nodejs_conf rather
# than openssl_conf: both name the same one.
sub write_config {
    my ($dir, %opt) = @_;
    my $file = File::Spec->catfile($dir, $opt{name} // 'openssl.cnf');
    my $module = $opt{module} // File::Spec->catfile(modules_dir(), 'smgost.so');
    my @provs = @{ $opt{providers} // ['smgost', 'default'] };
    my %keys = %{ $opt{smgost} // {} };
    my $keys = join '', map { "$_ = $keys{$_}\n" } sort keys %keys;
    my ($props, $random) = @opt{qw(properties random)};
    open(my $fh, '>', $file) or die "$file: $!";
    print $fh "openssl_conf = openssl_init\nnodejs_conf = openssl_init\n\n"
        . "[openssl_init]\nproviders = provider_sect\n"
        . (defined $props ? "alg_section = evp_properties\n" : '')
        . (defined $random ? "random = random_sect\n" : '')
        . "\n[provider_sect]\n" . join('', map { "$_ = ${_}_sect\n" } @provs)
        . join('', map { "\n[${_}_sect]\n"
                         . ($_ eq 'smgost' ? "module = $module\n" : '')
                         . "activate = 1\n" . ($_ eq 'smgost' ? $keys : '') } @provs)
        . (defined $props ? "\n[evp_properties]\ndefault_properties = $props\n" : '')
        . (defined $random ? "\n[random_sect]\nproperties = $random\n" : '');
    close $fh or die "$file: $!";
    return $file;
}

sub data_file {
    return File::Spec->catfile(top_dir(), 'test', 'data', @_);
}

# A test program built from test/<name>.c.
sub program {
    my ($name) = @_;
    return File::Spec->catfile(top_dir(), 'test', $name);
}

# Arguments that make the openssl CLI load the given providers (default:
# smgost, then default) from the build tree.
sub provider_args {
    my @provs = @_ ? @_ : ('smgost', 'default');
    return ('-provider-path', modules_dir(), map { ('-provider', $_) } @provs);
}

sub runner {
    return grep { $_ ne '' } split ' ', $ENV{SMGOST_RUNNER} // '';
}

# The machine the programs run on (the runner's, under qemu-user).
sub run_machine {
    return KernelLevels::run_machine($ENV{SMGOST_RUNNER});
}

# The architecture the programs run on, as util/KernelLevels.pm keys it:
# "x86_64", "aarch64" or "other".
sub run_arch {
    return KernelLevels::arch_key(run_machine());
}

# The variable libcrypto and smgost read capability masks from, for the
# architecture the programs run on.
sub cap_variable {
    return KernelLevels::cap_variable(run_machine());
}

# What forces the kernel level called $name (util/KernelLevels.pm), as an
# environment { VARIABLE => value }, or undef where the programs run has no
# such level.  The unmasked level gives an empty one.
sub level_env {
    my ($name) = @_;
    my $l = KernelLevels::level(run_machine(), $name) or return undef;
    return defined $l->{mask} ? { $l->{var} => $l->{mask} } : {};
}

# What forces this run's kernels, as 'VARIABLE=value' (a capability mask,
# an SM3 schedule or a set of SM4 serial rounds, as util/test-levels.pl
# sets them), or undef at the unmasked level.  Recipes that reach every
# kernel table themselves run at the unmasked level only.
sub forced_level {
    for my $v (KernelLevels::forcing_variables(run_machine())) {
        return "$v=$ENV{$v}" if defined $ENV{$v};
    }
    return undef;
}

# What a run adds to the recipe's environment.  caps => MASK sets the
# capability mask (OPENSSL_ia32cap / OPENSSL_armcap syntax); an empty mask is
# refused because libcrypto reads a set but empty variable as "no features".
sub run_env {
    my (%opt) = @_;
    my %env;
    if (defined $opt{caps}) {
        die "run_env: empty capability mask\n" if $opt{caps} eq '';
        $env{cap_variable()} = $opt{caps};
    }
    return \%env;
}

# Runs argv (through the runner) and returns { exit, signal, timed_out,
# out, err, cmd }.  Options: env => { extra variables }, stdin => file name,
# timeout => seconds after which the program is killed, plain => 1 for a
# program not built here (the openssl CLI), which then gets the sanitizer
# runtime preloaded when the module is sanitized; host => 1 for a tool of
# the build machine (perl, the compiler): no runner, no preload.
sub run_cmd {
    my ($argv, %opt) = @_;
    my %env = %{ $opt{env} // run_env() };
    my @pre = $opt{host} ? () : runner();
    my $preload = $ENV{SMGOST_PRELOAD} // '';
    if ($opt{plain} && !$opt{host} && $preload ne '') {
        # Under qemu the host LD_PRELOAD would hit qemu itself.
        if (@pre) { push @pre, '-E', "LD_PRELOAD=$preload" }
        else { $env{LD_PRELOAD} = $preload }
    }
    my @cmd = (@pre, @$argv);
    my ($ofh, $ofile) = tempfile(UNLINK => 1);
    my ($efh, $efile) = tempfile(UNLINK => 1);
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open(STDIN, '<', $opt{stdin} // '/dev/null') or _exit(126);
        open(STDOUT, '>&', $ofh) or _exit(126);
        open(STDERR, '>&', $efh) or _exit(126);
        @ENV{ keys %env } = values %env;
        exec { $cmd[0] } @cmd or do { print STDERR "exec $cmd[0]: $!\n"; _exit(127) };
    }
    my $timed_out = 0;
    if (defined $opt{timeout}) {
        my $deadline = time + $opt{timeout};
        while (waitpid($pid, WNOHANG) == 0) {
            if (time >= $deadline) {
                kill 'KILL', $pid;
                waitpid($pid, 0);
                $timed_out = 1;
                last;
            }
            select(undef, undef, undef, 0.05);
        }
    } else {
        waitpid($pid, 0);
    }
    my $status = $?;
    local $/;
    seek($ofh, 0, 0);
    seek($efh, 0, 0);
    my ($out, $err) = (scalar <$ofh> // '', scalar <$efh> // '');
    close $ofh;
    close $efh;
    my $envs = join ' ', map { "$_=$env{$_}" } sort keys %env;
    return { exit => $status >> 8, signal => $status & 127,
             timed_out => $timed_out, out => $out, err => $err,
             cmd => join(' ', ($envs ne '' ? $envs : ()), @cmd) };
}

sub run_program {
    my ($name, $args, %opt) = @_;
    return run_cmd([program($name), @{ $args // [] }], %opt);
}

sub run_openssl {
    my ($args, %opt) = @_;
    return run_cmd([openssl_cli(), @$args], %opt, plain => 1);
}

# One test: runs a test program that ends with testutil.h's tally line and
# passes if it exited 0, made at least one check and reported no failure.
# Returns the run for further checks.
sub program_ok {
    my ($name, $args, $title, %opt) = @_;
    my $r = run_program($name, $args, %opt);
    my ($checks, $fails) = $r->{out} =~ /: (\d+) checks, (\d+) failures$/m;
    my $ok = $r->{exit} == 0 && $r->{signal} == 0 && defined $checks
        && $checks > 0 && $fails == 0;
    ok($ok, $title) or diag("command: $r->{cmd}\nexit $r->{exit}, signal "
                            . "$r->{signal}"
                            . ($r->{timed_out} ? " (killed after $opt{timeout} s)" : '')
                            . "\nstdout:\n$r->{out}stderr:\n$r->{err}");
    return $r;
}

# One test: the tables of $family's list that a kernel test program ($r,
# program_ok's result) says it checked ("# checked NAME" lines) are those
# test/kernels lists as running at this level, the chosen one ("# kernels:
# NAME") among them.  $what names the family in the title.
sub tables_checked_ok {
    my ($r, $family, $what) = @_;
    note($_) for $r->{out} =~ /^# (.*)$/mg;
    my %checked = map { $_ => 1 } $r->{out} =~ /^# checked (\S+)$/mg;
    my ($chosen) = $r->{out} =~ /^# kernels: (\S+)$/m;
    my $l = run_program('kernels');
    my @runs = $l->{out} =~ /^table \Q$family\E (\S+) .*\bruns=1\b/mg;
    my @unchecked = grep { !$checked{$_} } @runs;
    my %runs = map { $_ => 1 } @runs;
    my @extra = grep { !$runs{$_} } sort keys %checked;
    return ok($l->{exit} == 0 && @runs > 0 && !@unchecked && !@extra && defined $chosen
              && $checked{$chosen},
              "every $what table the CPU runs was checked (" . scalar(@runs) . ', the chosen '
              . ($chosen // '?') . ' among them)')
        || diag("$l->{cmd}: exit $l->{exit}\n$l->{err}\nnot checked: @unchecked\n"
                . "checked, not listed as running: @extra");
}

# Two tests: test/evp_kat runs the evp_test file test/data/<file>, and
# every entry of it for an algorithm that $algs matches (a regex on the
# Cipher, Digest or MAC line, counted here apart from the C parser, so that
# a parser that silently skips entries fails) ran or was left for a larger
# SMGOST_TEST_SCALE.  %opt goes to program_ok.
sub kat_file_ok {
    my ($file, $algs, $title, %opt) = @_;
    my $path = data_file($file);
    open(my $fh, '<', $path) or die "$path: $!";
    my $want = grep { /^\s*(?:Cipher|Digest|MAC)\s*=\s*(\S+)/ && $1 =~ $algs } <$fh>;
    close $fh;
    my $r = program_ok('evp_kat', ['file', $path], $title, %opt);
    my ($c, $d, $m, $left) = $r->{out}
        =~ /(\d+) cipher, (\d+) digest and (\d+) MAC entries run, \d+ skipped, (\d+) left/;
    is(($c // 0) + ($d // 0) + ($m // 0) + ($left // 0), $want,
       $left ? "$file: all $want entries ran but the $left left for SMGOST_TEST_SCALE >= 100"
             : "$file: all $want entries ran");
    return $r;
}

1;
