# SPDX-License-Identifier: Apache-2.0
#
# Differential tests of smgost's GOST 28147-89, Magma and Kuznyechik
# (test/evp_diff.c) against gost-engine's provider gostprov and (but
# Kuznyechik) against libgcrypt 1.10, and of the CTR-ACPKM-OMAC ciphers
# (test/ctr_omac_test.c) against a model and gost-engine's engine:
# random keys, IVs, lengths (past several key meshing periods), update
# chunkings, in place and out of place, context copies, re-inits with a new
# IV only (also right after whole meshing periods, a meshing due), every
# parameter set, chosen every way; updated-iv after every
# update against gostprov's.  Seeded: the seed is printed (and shown on
# failure); SMGOST_TEST_SEED replays it, SMGOST_TEST_SCALE scales the case
# counts.  A part is skipped only when its reference is truly missing:
# gostprov not installed or left out by Configure, as one built for
# another OpenSSL release (SMGOST_GOSTPROV empty), or the programs built
# without libgcrypt.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);

plan tests => 12;

sub run_group {
    my ($group, $title, %opt) = @_;
    my $family = delete $opt{family} // 'gost89';
    my $r = program_ok('evp_diff', [$family, $group], $title, %opt);
    my ($seed) = $r->{out} =~ /^# seed (\d+)/m;
    note("$group: seed " . ($seed // '?'));
}

SKIP: {
    # Debian 13 has no gost-engine package; with OpenSSL 4.0, Debian
    # unstable's gostprov (built for 3.6) is left out by Configure.  Said
    # with diag too, as prove shows no skip reason unless verbose.
    if (gostprov_dir() eq '') {
        my $why = 'gostprov is not installed, or Configure left it out (SMGOST_GOSTPROV '
            . 'is empty; Configure says why): every GOST '
            . 'cipher and MAC is still compared with libgcrypt below; the CMS '
            . "decoders' flow and updated-iv, whose reference only gostprov "
            . 'gives, go unchecked';
        diag("skipped: $why");
        skip($why, 2);
    }
    run_group('gostprov', 'against gostprov: gost89, gost89-cnt, gost89-cnt-12, '
              . 'gost89-cbc, magma-cbc, magma-ctr, the CTR-ACPKM ciphers '
              . '(output and updated-iv)');
    run_group('gostprov-mac', 'against gostprov: gost-mac, gost-mac-12, magma-mac, '
              . 'kuznyechik-mac, kuznyechik-ctr-acpkm-omac');
}

# Kuznyechik has gostprov as its only reference: its ciphers against it,
# by default and with constant-time = yes (the constant-time C kernel).
SKIP: {
    skip('gostprov is not installed, or Configure left it out: Kuznyechik '
         . 'is checked by its known answers only', 2)
        if gostprov_dir() eq '';
    run_group('gostprov', 'Kuznyechik against gostprov: kuznyechik-ecb, -cbc, '
              . '-cfb, -ofb, -ctr (output and updated-iv)', family => 'kuznyechik');
    my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
    run_group('gostprov', 'Kuznyechik against gostprov with constant-time = yes',
              family => 'kuznyechik',
              env => { %{ run_env() }, SMGOST_TEST_CONF => $ct });
}

# md_gost94 (GOST R 34.11-94) against gostprov's, non-empty messages only
# (gostprov's empty message hashes an extra zero block; smgost gives the
# standard's answer, as libgcrypt does).
SKIP: {
    skip('gostprov is not installed, or Configure left it out', 1)
        if gostprov_dir() eq '';
    run_group('gost94-gostprov', 'md_gost94 against gostprov (non-empty messages)');
}

# The CTR-ACPKM-OMAC ciphers (test/ctr_omac_test.c): against a model made
# of the test's own KDF over HMAC and smgost's CTR-ACPKM and OMAC (their
# known answers are 60-gost-kat's), also with constant-time = yes; and
# against gost-engine, through its engine gost.so (gostprov 3.0.1's ciphers
# fail their key init through the provider and then crash), which comes
# with gostprov in the same package.
{
    my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
    program_ok('ctr_omac_test', ['model'], 'CTR-ACPKM-OMAC against the model: random '
               . 'keys, ukm, sections, lengths, chunkings, parameter orders, copies, '
               . 're-inits, tampering');
    program_ok('ctr_omac_test', ['model'], 'CTR-ACPKM-OMAC against the model with '
               . 'constant-time = yes', env => { %{ run_env() }, SMGOST_TEST_CONF => $ct });
}
SKIP: {
    skip('gostprov is not installed, or Configure left it out: gost-engine\'s '
         . 'engine, from the same package, is taken to be missing too', 1)
        if gostprov_dir() eq '';
    # gost-engine's EVP_CTRL_PROCESS_UNPROTECTED leaks the ASN1_OBJECT its
    # OBJ_txt2obj makes, once a decryption (3.0.1, seen under
    # LeakSanitizer): this process's leaks are not checked in an ASan
    # build; the model group runs smgost's same code under it.
    program_ok('ctr_omac_test', ['engine'], 'CTR-ACPKM-OMAC against gost-engine\'s '
               . 'engine: each opens what the other seals, a wrong tag refused',
               (($ENV{SMGOST_SANITIZE} // '') =~ /\basan\b/
                ? (env => { %{ run_env() }, ASAN_OPTIONS => 'detect_leaks=0' }) : ()));
}

# Then the same with smgost configured for "constant-time = yes", which
# swaps in the "-ct" kernel tables where the CPU has them.
SKIP: {
    my $has = run_program('evp_diff', ['has-gcrypt']);
    skip('test programs built without libgcrypt (no HAVE_GCRYPT)', 4)
        if $has->{exit} != 0 || $has->{signal} != 0;
    run_group('gcrypt', 'against libgcrypt: GOST28147 ECB/CBC/CFB/CNT, '
              . 'GOST28147_MESH, IMIT, Magma ECB/CBC/CTR, every parameter set');
    my $ct = write_config(tempdir(CLEANUP => 1), smgost => { 'constant-time' => 'yes' });
    run_group('gcrypt', 'against libgcrypt with constant-time = yes',
              env => { %{ run_env() }, SMGOST_TEST_CONF => $ct });
    run_group('gost94-gcrypt', 'md_gost94 against libgcrypt GOSTR3411_CP');
    run_group('gost94-gcrypt', 'md_gost94 against libgcrypt GOSTR3411_CP with '
              . 'constant-time = yes', env => { %{ run_env() }, SMGOST_TEST_CONF => $ct });
}
