# SPDX-License-Identifier: Apache-2.0
#
# Real clients of libcrypto driving smgost from openssl.cnf, without a line
# of their own changed: Python's hashlib, Debian's python3-cryptography and
# Debian's nodejs (linked to the system's libcrypto), each through a script
# in test/clients/ that prints one line per case ("name: result": output
# in hex, or the exception or error code the client raised).
#
# Each script runs with the default provider alone, and then with smgost:
# every line must be what the default provider gave (cryptography's
# ValueError on a partial block and InvalidTag on a tampered tag, node's
# err.code and err.reason), and the standard vectors must come out.  Proof
# that smgost did the work: hashlib runs with smgost and the base provider
# only; cryptography and node load the default provider (cryptography loads
# it itself, node needs its DRBG), so they run once more with
# default_properties = provider=smgost (the DRBG keeping its own query), and
# that configuration with smgost's module path missing must fail.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Spec;
use File::Temp qw(tempdir);

plan skip_all => 'the module is built for the runner\'s machine (SMGOST_RUNNER), '
    . 'which this machine\'s clients cannot load'
    if ($ENV{SMGOST_RUNNER} // '') ne '';

my $dir = tempdir(CLEANUP => 1);
my $clients = File::Spec->catdir(top_dir(), 'test', 'clients');

# Known answers: GB/T 32907 appendix A.1 and GB/T 32905 appendix A.
my %known = (
    'sm4-ecb known answer' => '681edf34d206965e86b3e94f536e4246',
    'sm3 abc' => '66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0',
    'sm3 abcd x 16' => 'debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732',
);

my %config = (
    default => write_config($dir, name => 'default.cnf', providers => ['default']),
    base => write_config($dir, name => 'base.cnf', providers => ['smgost', 'base']),
    preferred => write_config($dir, name => 'preferred.cnf', properties => '?provider=smgost'),
    required => write_config($dir, name => 'required.cnf', properties => 'provider=smgost',
                              random => 'provider=default'),
);
my $missing = File::Spec->catfile($dir, 'no-such-folder', 'smgost.so');
$config{'base, module missing'} = write_config($dir, name => 'base-missing.cnf',
                                               providers => ['smgost', 'base'], module => $missing);
$config{'required, module missing'} = write_config(
    $dir, name => 'required-missing.cnf', properties => 'provider=smgost',
    random => 'provider=default', module => $missing);

# Runs a client (argv) under the named configuration; returns the run and
# its lines as name -> result.
# In an ASan build the client gets the sanitizer runtime preloaded, and
# LeakSanitizer would report what the interpreter leaves at exit: Python
# with cryptography never frees libcrypto's state (54 KB in 206 blocks with
# the default provider alone, on Debian 12).  smgost's own leaks are the C
# programs' to find (86-alloc-fail, and every program under LeakSanitizer).
my %client_env = (($ENV{SMGOST_SANITIZE} // '') =~ /\basan\b/
                  ? (ASAN_OPTIONS => 'detect_leaks=0') : ());

sub client {
    my ($argv, $cnf) = @_;
    my $r = run_cmd($argv, env => { %{ run_env() }, %client_env,
                                    OPENSSL_CONF => $config{$cnf} },
                    plain => 1, timeout => 120);
    my %res = $r->{out} =~ /^([^:\n]+): (.*)$/mg;
    return ($r, \%res);
}

sub ran_ok {
    my ($r, $title) = @_;
    ok($r->{exit} == 0 && $r->{signal} == 0 && !$r->{timed_out}, $title)
        or diag("$r->{cmd}\nexit $r->{exit}, signal $r->{signal}\nstdout:\n$r->{out}"
                . "stderr:\n$r->{err}");
}

# The cases of one client: a run on the default provider alone, then each
# of the smgost configurations compared with it line by line, then the
# control run.  $opt{required_lacks} = [case pattern, result pattern, why]
# names what a client cannot have with default_properties = provider=smgost
# (an algorithm it fetches that only the default provider has), compared
# in the preferred run only.  $opt{expect} turns the default run's lines into the
# expected ones, as case -> [result or undef, a note]; by default each
# case as it is, without the lines named "reference ...".
sub compare_client {
    my ($what, $argv, %opt) = @_;
    my ($dr, $def) = client([@$argv, @{ $opt{default_args} // [] }], 'default');
    ran_ok($dr, "$what, default provider alone: runs");
    ok(scalar(keys %$def) > 0, "$what, default provider alone: prints its cases")
        or diag($dr->{out});
    my %want = $opt{expect} ? $opt{expect}->($def)
        : map { $_ => [$def->{$_}, ''] } grep { !/^reference / } keys %$def;
    for my $cnf (@{ $opt{smgost} }) {
        my ($r, $res) = client($argv, $cnf);
        ran_ok($r, "$what, $cnf: runs");
        is(join(' | ', sort keys %$res), join(' | ', sort keys %want),
           "$what, $cnf: the cases of the default provider's run");
        for my $k (sort keys %want) {
            my ($v, $how) = @{ $want{$k} };
            if (!defined $v) {
                note("$what, $cnf: $k: $how");
                next;
            }
            if ($cnf eq 'required' && $opt{required_lacks}
                && $k =~ $opt{required_lacks}[0] && $res->{$k} =~ $opt{required_lacks}[1]) {
                note("$what, $cnf: $k: $opt{required_lacks}[2]: $res->{$k}");
                next;
            }
            is($res->{$k}, $v, "$what, $cnf: $k: as with the default provider$how");
        }
        for my $k (sort grep { exists $res->{$_} } keys %known) {
            is($res->{$k}, $known{$k}, "$what, $cnf: $k is the standard's");
        }
    }
    my $control = $opt{control};
    my ($r) = client($argv, $control);
    ok($r->{exit} != 0 && $r->{signal} == 0 && !$r->{timed_out},
       "$what, $control: fails, so the runs above had SM4 and SM3 from smgost")
        or diag("$r->{cmd}\nexit $r->{exit}, signal $r->{signal}\nstdout:\n$r->{out}"
                . "stderr:\n$r->{err}");
}

# Debian's python3 (python3-cryptography is for it; a python3 earlier in
# PATH may be another build), isolated from the user's site and PYTHON*.
my $python = '/usr/bin/python3';

sub python_has {
    my ($module) = @_;
    return 0 unless -x $python;
    my $r = run_cmd([$python, '-I', '-c', "import $module"], plain => 1);
    return $r->{exit} == 0 && $r->{signal} == 0;
}

subtest 'hashlib' => sub {
    plan skip_all => "no $python with hashlib's OpenSSL module (_hashlib)"
        unless python_has('_hashlib');
    compare_client('hashlib', [$python, '-I', "$clients/hashlib_sm3.py"],
                   smgost => ['base'], control => 'base, module missing');
};

subtest 'python3-cryptography' => sub {
    plan skip_all => "python3-cryptography is not installed for $python"
        unless python_has('cryptography');
    # cryptography 38 has no SM4-GCM (the script offers it to the backend)
    # and OpenSSL 3.0's default provider has none: there, the tampered tag
    # and the decryption are compared with the default provider's AES-GCM
    # through the same code path, and the ciphertext is left to the
    # known-answer recipes.
    my $expect = sub {
        my ($def) = @_;
        my %want = map { $_ => [$def->{$_}, ''] } grep { !/^(reference|sm4-gcm) / } keys %$def;
        if (($def->{'sm4-gcm encrypt'} // '') !~ /^UnsupportedAlgorithm/) {
            $want{$_} = [$def->{$_}, ''] for grep { /^sm4-gcm / } keys %$def;
            return %want;
        }
        for my $k (grep { /^reference aes-gcm / } keys %$def) {
            (my $case = $k) =~ s/^reference aes-gcm /sm4-gcm /;
            $want{$case} = $case eq 'sm4-gcm encrypt'
                ? [undef, 'its OpenSSL has no SM4-GCM to compare the ciphertext with']
                : [$def->{$k}, ' (its AES-GCM: it has no SM4-GCM)'];
        }
        return %want;
    };
    compare_client('python3-cryptography', [$python, '-I', "$clients/pyca_sm.py"],
                   default_args => ['reference'], expect => $expect,
                   smgost => ['preferred', 'required'], control => 'required, module missing');
};

subtest 'nodejs' => sub {
    my ($node) = grep { -x } map { ("$_/nodejs", "$_/node") } split /:/, $ENV{PATH} // '';
    plan skip_all => 'nodejs is not installed' unless defined $node;
    # Preloaded into node, ThreadSanitizer reports races between V8's own
    # worker threads (libnode is not built for it), not in smgost.
    plan skip_all => 'node under ThreadSanitizer reports races inside V8 itself'
        if ($ENV{SMGOST_SANITIZE} // '') =~ /\btsan\b/;
    # Debian's nodejs uses the system's libcrypto; another build (e.g.
    # nodesource's) carries its own OpenSSL, which is not the one smgost is
    # for.
    my $r = run_cmd([$node, "$clients/node_sm.js", 'libcrypto'], plain => 1);
    my ($lib) = $r->{out} =~ /^libcrypto: (\S+)$/m;
    plan skip_all => "$node does not use the system's libcrypto.so.3 ("
        . ($lib // "it printed nothing: $r->{err}") . '): it carries its own OpenSSL'
        unless defined $lib && $lib ne 'none';
    note("$node: node ", $r->{out} =~ /^openssl: (.*)$/m ? "built against OpenSSL $1, " : '',
         "runs on $lib");
    compare_client('nodejs', [$node, "$clients/node_sm.js"],
                   required_lacks => [qr/^hmac-sm3 /, qr/^code=ERR_OSSL_EVP_UNSUPPORTED /,
                                      'this node fetches HMAC itself (EVP_MAC), which only '
                                      . 'the default provider has'],
                   smgost => ['preferred', 'required'], control => 'required, module missing');
};

done_testing();
