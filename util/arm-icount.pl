#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Instructions per byte of the AArch64 kernels, counted under qemu-user:
# with "-d in_asm,exec,nochain" qemu logs every translated block's
# instructions once and every execution of a block, so the executed
# instruction count is exact without a TCG plugin (Debian's qemu-user ships
# none).  Each kernel entry runs (util/arm-icount.c) on two buffer sizes;
# the difference over the size difference is its cost per byte, free of
# process start-up and key setup.  Real Arm hardware is not available here:
# these counts stand in for speed (the asm/*-armv8.pl tables quote them).
#
# Run in a tree configured with --cross-compile-prefix=aarch64-linux-gnu-
# after make (it links util/arm-icount.c with libsmgost.a):
#   perl util/arm-icount.pl [sm4|sm3|aead|imit|kuznyechik|streebog|mgm ...]
# The SM4 and Kuznyechik block modes, SM3, GOST IMIT and Streebog's
# blocks are counted between 1 KiB and
# 9 KiB, the SM4 key schedules between 10 and 110 of them; the AEAD
# entries (GCM, CCM, XTS, GHASH) as a whole 16 KiB call, entry and tails
# included, against an empty run; MGM's multiply-accumulate between 1 KiB
# and 9 KiB of blocks.
use strict;
use warnings;
use File::Temp qw(tempdir);

my %mk;
open(my $mf, '<', 'Makefile') or die "arm-icount.pl: run it in a configured tree\n";
while (<$mf>) { $mk{$1} = $2 if /^(\w+)\s*=\s*(.*?)\s*$/; }
close $mf;
die "arm-icount.pl: the build is not for aarch64 (TARGET=$mk{TARGET})\n"
    unless ($mk{TARGET} // '') eq 'aarch64';
system('make', '-s', 'libsmgost.a') == 0 or die "arm-icount.pl: make failed\n";
my $dir = tempdir(CLEANUP => 1);
my $prog = "$dir/arm-icount";
my $cc = "$mk{CC} -O2 -Wall -Wextra -I src $mk{DEFINES} $mk{OPENSSL_CFLAGS}";
system("$cc -o $prog util/arm-icount.c libsmgost.a $mk{OPENSSL_LIBS}") == 0
    or die "arm-icount.pl: cannot build the workload\n";

# Instructions executed by one run; undef if the entry is not in the table.
sub icount {
    my @args = @_;
    my $log = "$dir/q.log";
    unlink $log;
    my $rc = system("qemu-aarch64 -cpu max -d in_asm,exec,nochain -D $log $prog @args >/dev/null");
    return undef if $rc >> 8 == 3;
    $rc == 0 or die "arm-icount.pl: $prog @args failed\n";
    open(my $fh, '<', $log) or die "arm-icount.pl: no log\n";
    my (%size, %runs, $pc);
    while (my $l = <$fh>) {
        if ($l =~ /^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+\/([0-9a-f]+)\//) {
            $runs{ $1 =~ s/^0+//r }++;
        } elsif ($l =~ /^IN:/) {
            $pc = undef;
        } elsif ($l =~ /^0x([0-9a-f]+):\s+[0-9a-f]{8}\s/) {
            if (!defined $pc) { $pc = $1 =~ s/^0+//r; $size{$pc} = 0; }
            $size{$pc}++;
        }
    }
    close $fh;
    my $n = 0;
    for my $b (keys %runs) {
        die "arm-icount.pl: block at $b was never translated\n" unless exists $size{$b};
        $n += $runs{$b} * $size{$b};
    }
    return $n;
}

sub per_byte {
    my ($small, $big, @args) = @_;
    my $a = icount(@args, $small);
    my $b = icount(@args, $big);
    return undef unless defined $a && defined $b;
    return ($b - $a) / ($big - $small);
}

my @what = @ARGV ? @ARGV : qw(sm4 sm3 aead imit kuznyechik streebog mgm);
for my $w (@what) {
    if ($w eq 'sm4') {
        my @modes = qw(ecb ctr cbc_dec cfb_dec cbc_enc cfb_enc ofb);
        printf "%-10s" . (" %8s" x @modes) . "\n", 'sm4', @modes;
        for my $k (qw(sm4e sm4-neon sm4-c)) {
            printf "%-10s", $k;
            printf " %8.2f", per_byte(1024, 9216, 'sm4', $k, $_) for @modes;
            print "\n";
        }
        # instructions per key schedule (encryption and its reversal)
        printf "%-10s %8s\n", 'sm4', 'set_key';
        printf "%-10s %8.1f\n", $_, per_byte(10, 110, 'sm4', $_, 'set_key')
            for qw(sm4e sm4-neon sm4-c);
    } elsif ($w eq 'sm3') {
        printf "%-10s %8s\n", 'sm3', 'blocks';
        printf "%-10s %8.2f\n", $_, per_byte(1024, 9216, 'sm3', $_) for qw(sm3-ce sm3-c);
    } elsif ($w eq 'aead') {
        my @modes = qw(gcm_enc gcm_dec xts_ieee xts_gb ccm_enc ccm_dec ghash);
        printf "%-18s" . (" %8s" x @modes) . "\n", 'aead (16 KiB)', @modes;
        for my $k (qw(sm4e+pmull sm4e+ghash-c sm4-neon+pmull sm4-neon+ghash-c sm4-c+ghash-c)) {
            printf "%-18s", $k;
            for my $m (@modes) {
                my $c = per_byte(0, 16384, 'aead', $k, $m);
                printf " %8s", defined $c ? sprintf('%.2f', $c) : '-';
            }
            print "\n";
        }
    } elsif ($w eq 'imit') {
        printf "%-10s %8s\n", 'imit', 'blocks';
        printf "%-10s %8.2f\n", $_, per_byte(1024, 9216, 'imit', $_) for qw(neon c);
    } elsif ($w eq 'kuznyechik') {
        my @modes = qw(ecb ctr cbc_dec cfb_dec cbc_enc cfb_enc ofb);
        printf "%-18s" . (" %8s" x @modes) . "\n", 'kuznyechik', @modes;
        for my $k (qw(kuznyechik-neon kuznyechik-neon-ct kuznyechik-c kuznyechik-c-ct)) {
            my @c = map { per_byte(1024, 9216, 'kuznyechik', $k, $_) } @modes;
            next unless defined $c[0];
            printf "%-18s" . (" %8.2f" x @modes) . "\n", $k, @c;
        }
    } elsif ($w eq 'streebog') {
        printf "%-14s %8s\n", 'streebog', 'blocks';
        for my $k (qw(streebog-neon streebog-c streebog-c-ct)) {
            my $c = per_byte(1024, 9216, 'streebog', $k);
            printf "%-14s %8.2f\n", $k, $c if defined $c;
        }
    } elsif ($w eq 'mgm') {
        printf "%-10s %8s %8s\n", 'mgm', 'mac128', 'mac64';
        for my $k (qw(pmull mgm-c)) {
            printf "%-10s %8.2f %8.2f\n", $k,
                map { per_byte(1024, 9216, 'mgm', $k, $_) } qw(128 64);
        }
    } else {
        die "arm-icount.pl: unknown '$w' (sm4, sm3, aead, imit, kuznyechik, streebog, mgm)\n";
    }
}
