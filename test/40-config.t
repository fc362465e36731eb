# SPDX-License-Identifier: Apache-2.0
#
# smgost activated from an openssl.cnf next to the default provider, with
# default_properties = ?provider=smgost: programs that ask for nothing in
# particular get smgost's SM4 and SM3, and the default provider's AES
# (test/config_check.c); the openssl CLI lists smgost and speed runs on it.
# The section's "constant-time" key chooses the kernels.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Spec;
use File::Temp qw(tempdir);

plan tests => 8;

my $dir = tempdir(CLEANUP => 1);
my $cnf = write_config($dir, properties => '?provider=smgost');
my $env = { %{ run_env() }, OPENSSL_CONF => $cnf };
program_ok('config_check', ['file', $cnf],
           'OSSL_LIB_CTX_load_config: SM4 and SM3 from smgost, AES from default');
program_ok('config_check', ['env'],
           'OPENSSL_CONF: the same, plus EVP_sm4_ctr()', env => $env);

# constant-time = yes gives the constant-time kernels where the CPU has
# them (config_check compares the kernels param with the choosers'); a
# value that is neither yes nor no fails the load and says why.
for my $v (qw(yes off)) {
    my $f = write_config($dir, name => "ct-$v.cnf", properties => '?provider=smgost',
                         smgost => { 'constant-time' => $v });
    program_ok('config_check', ['file', $f, $v eq 'yes' ? ('constant-time') : ()],
               "constant-time = $v: the kernels it asks for");
}
program_ok('config_check',
           ['refused', write_config($dir, name => 'ct-bad.cnf',
                                    smgost => { 'constant-time' => 'maybe' })],
           'constant-time = maybe: the load fails with "invalid configuration value"');

SKIP: {
    skip 'no openssl program for this build', 3 if openssl_cli() eq '';
    my $r = run_openssl(['list', '-providers'], env => $env);
    ok($r->{exit} == 0, 'openssl list -providers with the configuration')
        or diag("$r->{cmd}\n$r->{err}");
    like($r->{out}, qr/^  smgost\n(?:    .*\n)*    status: active$/m,
         'smgost is listed and active');
    # speed -evp ignores -propquery in 3.0, so only the configuration puts
    # it on smgost.
    skip 'speed never ends under ThreadSanitizer (see 30-cli.t)', 1
        if ($ENV{SMGOST_SANITIZE} // '') =~ /\btsan\b/;
    $r = run_openssl(['speed', '-evp', 'sm4-ctr', '-seconds', '1', '-bytes', '16384'],
                     env => $env);
    ok($r->{exit} == 0 && $r->{out} =~ /^SM4-CTR\s+\d+\.\d+k\s*$/mi,
       'speed -evp sm4-ctr on smgost prints its result line')
        or diag("$r->{cmd}\n$r->{out}$r->{err}");
}
