# SPDX-License-Identifier: Apache-2.0
#
# Differential tests against OpenSSL's default provider (test/evp_diff.c):
# SM4 in every mode, SM3, and HMAC-SM3 through the default HMAC with
# smgost's SM3; Streebog (md_gost12_256/512, and HMAC over them) against
# gostprov, libgcrypt and Botan (python3-botan, through
# test/streebog_botan.py), also with constant-time = yes.  Seeded: the
# seed is printed (and shown on failure); SMGOST_TEST_SEED replays it,
# SMGOST_TEST_SCALE scales the case counts.  A Streebog reference is
# skipped only when it is missing: gostprov not installed or left out by
# Configure, the programs built without libgcrypt, python3-botan absent.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);
use File::Spec;

plan tests => 8;

# The last run repeats the SM4 cases with smgost configured for
# "constant-time = yes", which swaps in the "-ct" kernel tables on the
# AES-NI levels.
my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
for my $g (['sm4', 'SM4: every mode, random cases, copies, re-inits, CTR wraps'],
           ['sm3', 'SM3: random messages and chunkings, copies'],
           ['hmac', 'HMAC-SM3 with properties provider=smgost'],
           ['sm4', 'SM4 with constant-time = yes: every mode', $ct]) {
    my ($group, $title, $conf) = @$g;
    my $r = program_ok('evp_diff', ['sm', $group], $title,
                       defined $conf ? (env => { %{ run_env() }, SMGOST_TEST_CONF => $conf }) : ());
    my ($seed) = $r->{out} =~ /^# seed (\d+)/m;
    note("$title: seed " . ($seed // '?'));
}

# Streebog.
sub streebog_group {
    my ($group, $title, %opt) = @_;
    my $r = program_ok('evp_diff', ['streebog', $group], $title, %opt);
    my ($seed) = $r->{out} =~ /^# seed (\d+)/m;
    note("$title: seed " . ($seed // '?'));
}
SKIP: {
    if (gostprov_dir() eq '') {
        my $why = 'gostprov is not installed, or Configure left it out (SMGOST_GOSTPROV '
            . 'is empty): Streebog is still compared with libgcrypt and Botan below';
        diag("skipped: $why");
        skip($why, 1);
    }
    streebog_group('gostprov', 'Streebog against gostprov: both digests, HMAC over them');
}
SKIP: {
    my $has = run_program('evp_diff', ['has-gcrypt']);
    skip('test programs built without libgcrypt (no HAVE_GCRYPT)', 2)
        if $has->{exit} != 0 || $has->{signal} != 0;
    streebog_group('gcrypt', 'Streebog against libgcrypt: STRIBOG256/512, HMAC');
    # streebog-c-ct runs at a tenth of streebog-c's speed: fewer cases
    my $scale = ($ENV{SMGOST_TEST_SCALE} // 1) * 0.4;
    streebog_group('gcrypt', 'Streebog against libgcrypt with constant-time = yes',
                   env => { %{ run_env() }, SMGOST_TEST_CONF => $ct,
                            SMGOST_TEST_SCALE => $scale });
}
# Botan through python3-botan: the first python3 that imports it.
SKIP: {
    my $dir = tempdir(CLEANUP => 1);
    my $ref = File::Spec->catfile($dir, 'botan.txt');
    my $script = File::Spec->catfile(top_dir(), 'test', 'streebog_botan.py');
    my $seed = $ENV{SMGOST_TEST_SEED} // time;
    my $count = int(1000 * ($ENV{SMGOST_TEST_SCALE} // 1)) || 1;
    my $made;
    for my $py ('python3', '/usr/bin/python3') {
        my $r = run_cmd([$py, $script, $seed, $count], host => 1);
        if ($r->{exit} == 0 && $r->{signal} == 0 && $r->{out} ne '') {
            open(my $fh, '>', $ref) or die "$ref: $!";
            print $fh $r->{out};
            close $fh;
            $made = 1;
            last;
        }
    }
    unless ($made) {
        my $why = 'no python3 here imports botan3 or botan2 (Debian package python3-botan)';
        diag("skipped: $why");
        skip($why, 1);
    }
    note("Botan's cases: seed $seed");
    streebog_group('file', "Streebog against Botan ($count messages, seed $seed)",
                   env => { %{ run_env() }, SMGOST_STREEBOG_REF => $ref });
}
