# SPDX-License-Identifier: Apache-2.0
#
# The kernel levels, defined once: per architecture, each level's name,
# the variable and value that force it, and what make test and make bench
# need of it.  util/test-levels.pl reads them with levels(); make bench's
# table util/benchmark/levels.h is written from them by c_header() at build
# time (`perl util/KernelLevels.pm`), never committed.  The test recipes
# (test/lib/SmgostTest.pm) read which variables force a level here too, and
# make fuzz what forces its FUZZ_LEVEL (env_word).
#
# A level is a hash:
#   name      what LEVELS= (make test) and -l (make bench) call it
#   alias     another name make bench -l accepts for it (its name there
#             before make bench and make test shared this list)
#   var       the environment variable that forces it
#   mask      its value; undef: the variable unset, the CPU as probed
#   cpu       an emulated CPU replacing the runner's "-cpu" (qemu only)
#   bench     make bench's one-line description (bench -h); a level
#             without one is make test's only
#   gcrypt    libgcrypt's names of the features the level hides
#             (GCRYCTL_DISABLE_HWF), for make bench -m
#   test      0: make bench's only
package KernelLevels;

use strict;
use warnings;
use POSIX ();

# libgcrypt's feature names are those of its src/hwfeatures.c (1.10 lacks
# intel-avx512 and intel-gfni; a name it lacks is ignored).
my $gc_no_avx512 = 'intel-avx512 intel-sm3 intel-sm4 intel-sha512';
my $gc_no_gfni = "$gc_no_avx512 intel-gfni";
my $gc_no_avx2 = "$gc_no_gfni intel-avx2 intel-vaes-vpclmul";
my $gc_no_sm = 'arm-sm3 arm-sm4';
my $gc_neon = "$gc_no_sm arm-aes arm-pmull arm-sha1 arm-sha2 arm-sha3"
    . ' arm-sha512 arm-sve arm-sve2';

# The variable libcrypto and smgost read a capability mask from, per
# architecture; with no kernels to mask, x86-64's name.
my %cap_variable = (x86_64 => 'OPENSSL_ia32cap', aarch64 => 'OPENSSL_armcap',
                    other => 'OPENSSL_ia32cap');
my ($ia32cap, $armcap) = @cap_variable{qw(x86_64 aarch64)};
# smgost's own: the x86-64 SM3 schedule and SM4 serial rounds, chosen from
# the CPU's vendor and family rather than masked
my $sm3_schedule = 'SMGOST_SM3_SCHEDULE';
my $sm4_ccm = 'SMGOST_SM4_CCM';

my %levels = (
    # libcrypto's armcap bits (crypto/arm_arch.h); a value replaces the
    # probe: libcrypto takes the value as it is, so it names only bits to
    # keep.
    aarch64 => [
        { name => 'native', alias => 'all', var => $armcap,
          bench => 'what the CPU has' },
        # SM3 and SM4 without PMULL: SM4E with the portable GHASH
        { name => 'no-pmull', var => $armcap, mask => '0x601' },
        # make bench's: every bit up to RNG kept, SM3 and SM4 not
        { name => 'no-sm', var => $armcap, mask => '0x1ff', test => 0,
          bench => 'SM3/SM4 instructions hidden', gcrypt => $gc_no_sm },
        { name => 'neon', var => $armcap, mask => '0x1',     # ASIMD only
          bench => 'crypto extensions hidden: NEON', gcrypt => $gc_neon },
        { name => 'c', var => $armcap, mask => '0x0',
          bench => 'everything hidden: C', gcrypt => "$gc_neon arm-neon" },
        # a CPU without SM3/SM4: the probe alone must keep every kernel that
        # needs them away (qemu stops the run with SIGILL otherwise)
        { name => 'cortex-a57', var => $armcap, cpu => 'cortex-a57' },
    ],
    # libcrypto's OPENSSL_ia32cap syntax and bit positions
    # (OPENSSL_ia32cap(3)): A = CPUID.1 EDX | ECX << 32, B = CPUID.7.0
    # EBX | ECX << 32.
    x86_64 => [
        { name => 'native', alias => 'all', var => $ia32cap,
          bench => 'what the CPU has' },
        # the narrower GHASH kernels under the widest SM4 tier
        { name => 'no-vpclmul', var => $ia32cap,
          mask => ':~0x40000000000' },                      # VPCLMULQDQ
        { name => 'no-pclmul', var => $ia32cap,
          mask => '~0x200000000:~0' },                      # PCLMULQDQ
        { name => 'no-avx512', var => $ia32cap,
          mask => ':~0x10000',                              # AVX-512F
          bench => 'AVX-512F hidden: GFNI+AVX2', gcrypt => $gc_no_avx512 },
        { name => 'no-gfni', var => $ia32cap,
          mask => ':~0x10000010000',                        # + GFNI
          bench => 'AVX-512F, GFNI hidden: VAES+AVX2', gcrypt => $gc_no_gfni },
        { name => 'no-vaes', var => $ia32cap,
          mask => ':~0x30000010000',                        # + VAES
          bench => 'AVX-512F, GFNI, VAES hidden: AES-NI+AVX2',
          gcrypt => "$gc_no_gfni intel-vaes-vpclmul" },
        # + VPCLMULQDQ: AVX2 and AES-NI with PCLMULQDQ alone, as Intel's cores
        # from Haswell to Comet Lake and AMD's Zen 1 and 2 have them
        { name => 'no-vaes-vpclmul', var => $ia32cap,
          mask => ':~0x70000010000',
          bench => 'AVX-512F, GFNI, VAES, VPCLMULQDQ hidden: AES-NI+AVX2,'
              . ' PCLMULQDQ',
          gcrypt => "$gc_no_gfni intel-vaes-vpclmul" },
        { name => 'no-avx2', var => $ia32cap,
          mask => ':~0x10000010020',                        # + AVX2
          bench => 'AVX-512F, GFNI, AVX2 hidden: AES-NI+AVX',
          gcrypt => $gc_no_avx2 },
        # AES-NI, AVX, SSSE3, PCLMULQDQ off (A), and every CPUID.7 feature (B
        # replaced by 0: BMI1/2, AVX2, AVX-512 F/DQ/BW/VL/VBMI, GFNI, VAES,
        # VPCLMULQDQ among them, and those no kernel reads, so that
        # libcrypto's own code under this mask, make bench -m's default
        # provider, runs without them too)
        { name => 'c', var => $ia32cap, mask => '~0x1200020200000000:0',
          bench => 'SIMD, AES-NI hidden: C',
          gcrypt => "$gc_no_avx2 intel-avx intel-aesni intel-pclmul"
              . ' intel-ssse3 intel-sse4.1 intel-bmi2 intel-shaext' },
        # each SM3 schedule on every CPU that can run it, not only where the
        # CPUID choice (vendor, family) would take it
        { name => 'sm3-zen4', var => $sm3_schedule, mask => 'zen4' },
        { name => 'sm3-zen5', var => $sm3_schedule, mask => 'zen5' },
        { name => 'sm3-glc', var => $sm3_schedule, mask => 'glc' },
        # both sets of gfni-avx512 serial rounds (CCM, CBC/CFB encryption,
        # OFB), not only the one the CPU's vendor takes
        { name => 'sm4-zen4', var => $sm4_ccm, mask => 'zen4' },
        { name => 'sm4-glc', var => $sm4_ccm, mask => 'glc' },
    ],
    # no kernels to choose from: the C code as it is
    other => [
        { name => 'native', alias => 'all', var => $cap_variable{other},
          bench => 'no kernels to choose from' },
    ],
);

# The machine the programs run on: qemu's name for it when they run through
# qemu-user (the runner, SMGOST_RUNNER), else uname's.
sub run_machine {
    my ($runner) = @_;
    return ($runner // '') =~ /qemu-(\S+)/ ? $1 : (POSIX::uname())[4];
}

# The architecture's key above, from uname's machine or qemu's name for it.
sub arch_key {
    my ($machine) = @_;
    return $machine =~ /^(aarch64|arm64)/ ? 'aarch64'
        : $machine =~ /^(x86_64|amd64)$/ ? 'x86_64' : 'other';
}

# The levels of the architecture uname or qemu calls $machine, in order:
# where two select the same kernels, the first is the one kept.
sub levels {
    my ($machine) = @_;
    return @{ $levels{ arch_key($machine) } };
}

# The capability mask's variable on $machine.
sub cap_variable {
    my ($machine) = @_;
    return $cap_variable{ arch_key($machine) };
}

# Every variable that forces one of $machine's levels, the capability
# mask's first.
sub forcing_variables {
    my ($machine) = @_;
    my %seen;
    return grep { !$seen{$_}++ } cap_variable($machine),
        map { $_->{var} } levels($machine);
}

# $machine's level called $name, or undef.
sub level {
    my ($machine, $name) = @_;
    my ($l) = grep { $_->{name} eq $name } levels($machine);
    return $l;
}

# What forces $machine's level $name, as a shell word VARIABLE=value for
# env(1) (make fuzz's FUZZ_LEVEL), or "" for the level that leaves the CPU
# as probed; dies naming the levels if $machine has none called $name.
sub env_word {
    my ($machine, $name) = @_;
    my $l = level($machine, $name)
        or die "KernelLevels: no level '$name' on $machine: "
            . join(' ', map { $_->{name} } levels($machine)) . "\n";
    return '' unless defined $l->{mask};
    die "KernelLevels: '$l->{mask}' is not one shell word\n"
        if $l->{mask} =~ /[\s'"\\\$`*?\[]/;
    return "$l->{var}=$l->{mask}";
}

sub c_string {
    my ($s) = @_;
    return 'NULL' unless defined $s;
    die "KernelLevels: '$s' needs escaping in C\n" if $s =~ /["\\]/;
    return "\"$s\"";
}

# make bench's levels as C, for util/benchmark/levels.h: per architecture, the
# one variable they are forced through (CAP_VAR), their count and their
# struct level initialisers (util/benchmark/bench.h).
sub c_header {
    my @out = ("/* Written by make from util/KernelLevels.pm: not to be"
               . " edited or committed. */\n");
    my @arch = ([ 'x86_64', '#if defined(__x86_64__)' ],
                [ 'aarch64', '#elif defined(__aarch64__)' ],
                [ 'other', '#else' ]);
    for my $a (@arch) {
        my ($key, $cond) = @$a;
        my @bench = grep { defined $_->{bench} } @{ $levels{$key} };
        my $var = $key eq 'other' ? '(none)' : $cap_variable{$key};
        for (grep { $key ne 'other' && $_->{var} ne $var } @bench) {
            die "KernelLevels: bench level $_->{name} is forced through"
                . " $_->{var}, not $var\n";
        }
        push @out, "$cond\n", "# define CAP_VAR \"$var\"\n",
            '# define N_LEVELS ' . scalar(@bench) . "\n",
            "# define LEVELS_INIT \\\n";
        push @out, join(", \\\n", map {
            '    { ' . join(', ', map { c_string($_) }
                @$_{qw(name alias mask bench gcrypt)}) . ' }' } @bench), "\n";
    }
    push @out, "#endif\n";
    return join '', @out;
}

print c_header() unless caller;

1;
