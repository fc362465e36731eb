#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Writes the seed corpora fuzz/corpus/{sm4,digest,gost,aead,ctr_omac,mgm}/ that make fuzz starts
# from: a few dozen small inputs per harness, each spelling out one
# ordinary use in the harness's input format (see the comment at the top of
# each fuzz/<harness>.c), so that the fuzzer starts from every algorithm,
# mode, direction and parameter path rather than having to find them.
# Deterministic: rerunning it rewrites the same files.  Inputs the fuzzer
# found are kept beside them as corpus/<harness>/found-*.
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Path qw(make_path);

my $top = dirname(__FILE__);
my %corpus;

sub u16 { pack 'n', $_[0] }
# fz_len(): below 300 as is, else the long form with the top bit set.
sub len16 { my ($l) = @_; die "length $l" if $l > 0x3fff; u16($l < 300 ? $l : 0x8000 | $l) }
sub bytes { my ($n, $seed) = @_; join '', map { chr(($seed * 37 + $_ * 11 + 3) & 0xff) } 0 .. $n - 1 }
# The first byte value 0..255 for which cond holds.
sub find_byte {
    my ($cond) = @_;
    for my $b (0 .. 255) { local $_ = $b; return chr $b if $cond->($b) }
    die "no byte satisfies the condition";
}
sub add { my ($h, $name, $data) = @_; push @{ $corpus{$h} }, [ $name, $data ] }

# ------------------------------------------------------------------- sm4
# mode, key(16), iv(16), steps-1, steps; op: 0 init, 1 update, 2 final,
# 3 padding, 4 num, 5 keylen/ivlen, 6 copy, 7 get, 8 EVP_Cipher.
{
    my @modes = qw(ecb cbc ofb cfb ctr);
    my $tail = bytes(64, 9);
    my %st = (
        init => sub { chr(0) . chr($_[0]) },
        upd  => sub { chr(1) . chr($_[1] // 0) . len16($_[0]) },
        fin  => sub { chr(2) . chr(0) },
        pad  => sub { chr(3) . chr(0) . chr($_[0]) },
        num  => sub { chr(4) . chr(0) . chr($_[0]) },
        lens => sub { chr(5) . chr($_[0]) . chr($_[1]) },
        copy => sub { chr(6) . chr(0) },
        get  => sub { chr(7) . chr(0) },
        ciph => sub { chr(8) . chr($_[1] // 0) . len16($_[0]) },
    );
    my %progs = (
        enc => [ [init => 7], [upd => 37], [fin => ()] ],
        enc_long => [ [init => 7], [upd => 1100], [upd => 3000], [fin => ()] ],
        dec => [ [init => 6], [upd => 64], [get => ()], [fin => ()] ],
        pieces => [ [init => 7], [upd => 7], [upd => 300], [upd => 1], [upd => 600],
                    [get => ()], [fin => ()] ],
        reinit => [ [init => 7], [upd => 40], [init => 1], [upd => 40], [fin => ()],
                    [init => 15], [upd => 33], [fin => ()], [get => ()] ],
        copy => [ [init => 7], [upd => 20], [copy => ()], [upd => 50], [get => ()], [fin => ()] ],
        oneshot => [ [init => 7], [ciph => 64], [ciph => 1024], [get => ()] ],
        params => [ [init => 7], [pad => 0], [num => 0], [lens => 0, 16], [lens => 1, 16],
                    [upd => 32], [fin => ()] ],
        inplace => [ [init => 6], [upd => 5, 1], [upd => 27, 1], [upd => 512, 1], [fin => ()] ],
        num => [ [init => 7], [num => 5], [upd => 40], [get => ()], [fin => ()] ],
        nokey => [ [init => 5], [upd => 16], [init => 7], [upd => 16], [fin => ()] ],
        pad_in_init => [ [init => 0x17], [upd => 48], [fin => ()] ],
    );
    for my $m (0 .. $#modes) {
        for my $p (sort keys %progs) {
            my @steps = @{ $progs{$p} };
            my $prog = join '', map { my ($op, @a) = @$_; $st{$op}->(@a) } @steps;
            add('sm4', "$modes[$m]-$p", chr($m) . bytes(16, $m) . bytes(16, $m + 7)
                . chr(@steps - 1) . $prog . $tail);
        }
    }
}

# ---------------------------------------------------------------- digest
# kind (bit 0 HMAC, the rest the digest: 0 SM3, 1 md_gost12_256, 2
# md_gost12_512, 3 md_gost94), key length, key, steps-1, steps; op: 0 init,
# 1 update, 2 final, 3 XOF, 4 copy, 5 one-shot.
{
    my %st = (
        init => sub { chr(0) . chr($_[0]) },
        upd  => sub { chr(1) . chr(0) . len16($_[0]) },
        fin  => sub { chr(2) . chr(0) },
        xof  => sub { chr(3) . chr(31) },
        copy => sub { chr(4) . chr(0) },
        one  => sub { chr(5) . chr(0) . len16($_[0]) },
    );
    my %progs = (
        abc => [ "abc", [init => 0], [upd => 3], [fin => ()] ],
        abcd16 => [ "abcd" x 16, [init => 0], [upd => 64], [fin => ()] ],
        pieces => [ bytes(200, 1), [init => 0], [upd => 1], [upd => 63], [upd => 64],
                    [upd => 100], [upd => 2000], [fin => ()] ],
        copy => [ bytes(100, 2), [init => 0], [upd => 70], [copy => ()], [upd => 70], [fin => ()] ],
        reinit => [ bytes(100, 3), [init => 0], [upd => 70], [init => 1], [upd => 55],
                    [fin => ()], [fin => ()] ],
        xof => [ "", [init => 0], [upd => 10], [xof => ()] ],
        oneshot => [ bytes(30, 4), [init => 0], [one => 1000], [one => 0] ],
        # the 32- and 64-byte blocks' edges, and Streebog's 512-bit counter
        # carried over several blocks
        edges => [ bytes(90, 6), [init => 0], [upd => 31], [upd => 1], [upd => 32],
                   [upd => 63], [copy => ()], [upd => 129], [fin => ()], [one => 64],
                   [one => 32] ],
    );
    my @digests = qw(sm3 streebog256 streebog512 gost94);
    for my $d (0 .. $#digests) {
        for my $p (sort keys %progs) {
            my ($tail, @steps) = @{ $progs{$p} };
            add('digest', "$digests[$d]-$p", chr(2 * $d) . chr(0) . chr(@steps - 1)
                . join('', map { my ($op, @a) = @$_; $st{$op}->(@a) } @steps) . $tail);
        }
        # HMAC: keys shorter than, equal to and longer than the block (32
        # or 64 bytes); the re-init reuses the key, then one re-keys with a
        # prefix of it.
        for my $kl (0, 16, 32, 33, 64, 65, 200) {
            my @steps = ([init => 3], [upd => 50], [fin => ()], [init => 0], [upd => 50],
                         [copy => ()], [upd => 200], [fin => ()],
                         [init => 1 | 4 | (17 << 3)], [upd => 5], [fin => ()], [one => 100]);
            add('digest', "hmac-$digests[$d]-key$kl", chr(2 * $d + 1) . chr($kl)
                . bytes($kl, $kl) . chr(@steps - 1)
                . join('', map { my ($op, @a) = @$_; $st{$op}->(@a) } @steps) . bytes(80, 5));
        }
    }
}

# ------------------------------------------------------------------ gost
# alg, f1..f4, key(32), iv(8; Kuznyechik 16), prelude length, set spelling or
# encoding (3 bytes), key-mesh value (ACPKM: N and T bytes), odd value,
# length, pieces, pieces' lengths, copy position, message (see pick_case in
# gost.c).
{
    # Newer algorithms after the others, whose inputs keep their first byte
    my @algs = qw(gost89 gost89-cnt gost89-cnt-12 gost89-cbc gost89-ecb magma-ecb
                  magma-cbc magma-ctr gost-mac gost-mac-12 kuznyechik-ecb kuznyechik-cbc
                  kuznyechik-cfb kuznyechik-ofb kuznyechik-ctr magma-ofb magma-cfb
                  magma-ctr-acpkm kuznyechik-ctr-acpkm magma-mac kuznyechik-mac
                  magma-ctr-acpkm-omac kuznyechik-ctr-acpkm-omac);
    my %kind = ('gost89' => 'stream', 'gost89-cnt' => 'stream', 'gost89-cnt-12' => 'stream',
                'gost89-cbc' => 'block', 'gost89-ecb' => 'block', 'magma-ecb' => 'block',
                'magma-cbc' => 'block', 'magma-ctr' => 'stream', 'gost-mac' => 'mac',
                'gost-mac-12' => 'mac', 'kuznyechik-ecb' => 'block',
                'kuznyechik-cbc' => 'block', 'kuznyechik-cfb' => 'stream',
                'kuznyechik-ofb' => 'stream', 'kuznyechik-ctr' => 'stream',
                'magma-ofb' => 'stream', 'magma-cfb' => 'stream',
                'magma-ctr-acpkm' => 'stream', 'kuznyechik-ctr-acpkm' => 'stream',
                'magma-mac' => 'mac', 'kuznyechik-mac' => 'mac',
                'magma-ctr-acpkm-omac' => 'mac', 'kuznyechik-ctr-acpkm-omac' => 'mac');
    my @odd = qw(none num keylen ivlen key-mesh padding size key);
    my %oddno = map { $odd[$_] => $_ } 0 .. $#odd;

    # o: enc, roundtrip, nopad, inplace, prelude, same_iv, reinit_key;
    # set (0..5 or undef), way (1..4), spell (3 bytes), mesh (undef or value),
    # ACPKM: sec (N and T bytes, see pick_case), mesh_after; z (IV blocks),
    # odd name and value, macsize, len, pieces, copy_at.
    my $case = sub {
        my ($a, %o) = @_;
        my $alg = $algs[$a];
        my $magma = $alg =~ /^(?:magma|kuznyechik)/;    # no sets
        my $mac = $kind{$alg} eq 'mac';
        my $f1 = ($o{enc} // 1) | ($o{roundtrip} ? 2 : 0) | ($o{nopad} ? 4 : 0)
                 | ($o{inplace} ? 8 : 0) | ($o{prelude} ? 16 : 0)
                 | ($o{same_iv} ? 32 : 0) | ($o{reinit_key} ? 64 : 0);
        my $plen = $o{prelude_len} // 10;
        $f1 |= 0x80 if $plen >= 40;
        my $set = $magma ? undef : $o{set};
        my $way = $o{way} // 1;
        my $acpkm = $alg =~ /acpkm/;
        my $f2 = $acpkm ? chr(6 | ($o{sec} ? 0x40 : 0) | ($o{mesh_after} ? 0x80 : 0))
            : find_byte(sub {
            my $b = shift;
            return 0 if defined $set ? $b % 7 != $set : $b % 7 < 6;
            return 0 if defined $set && 1 + ($b >> 3) % ($mac ? 2 : 4) != $way;
            return 0 if (($b >> 6) & 1) != (defined $o{mesh} ? 1 : 0);
            return 0 if (($b >> 7) & 1) != (defined $o{mesh} && $o{mesh} ? 1 : 0);
            1;
        });
        my $oddn = $oddno{ $o{odd} // 'none' };
        my $macsize = $o{macsize} // 4;
        my $f3 = chr($oddn | (($o{z} // 1) - 1) << 4);
        my $wide = $alg =~ /^kuznyechik/;
        my $f4 = chr(($wide ? $macsize / 2 - 1 : $macsize - 1) | ($o{size_at_init} ? 8 : 0)
                     | ($o{key_as_param} ? 16 : 0) | ($o{set_before_init} ? 32 : 0)
                     | ($o{oneshot} ? 64 : 0));
        my $s = chr($a) . chr($f1) . $f2 . $f3 . $f4 . bytes(32, $a + 1) . bytes(8, $a + 2);
        $s .= bytes(8, $a + 4) if $alg =~ /^kuznyechik/;
        $s .= $plen >= 40 ? u16($plen) : chr($plen);
        $s .= $o{spell} // "\0\0\0" if defined $set;
        $s .= chr($o{mesh}) if defined $o{mesh} && $o{mesh};
        $s .= join '', map { chr } @{ $o{sec} } if $o{sec};
        $s .= chr($o{odd_val} // 0);
        my $len = $o{len} // 40;
        $s .= len16($len);
        my @pieces = @{ $o{pieces} // [] };
        $s .= chr(@pieces + 1) . join('', map { len16($_) } @pieces);
        $s .= chr($o{copy_at} // 255);
        return $s . bytes(48, $a + 3);
    };

    my %n;
    my $add = sub {
        my ($a, @o) = @_;
        add('gost', sprintf('%s-%02d', $algs[$a], $n{$a}++), $case->($a, @o));
    };
    my @newer = grep { $algs[$_] =~ /^magma-(?:ofb|cfb)|acpkm|^(?:magma|kuznyechik)-mac/ }
        0 .. $#algs;
    my %is_newer = map { $_ => 1 } @newer;
    my @kuz = grep { $algs[$_] =~ /^kuznyechik/ && !$is_newer{$_} } 0 .. $#algs;
    my %is_kuz = map { $_ => 1 } @kuz;
    my @ciphers = grep { $kind{$algs[$_]} ne 'mac' && !$is_kuz{$_} && !$is_newer{$_} }
        0 .. $#algs;
    my @gost89 = grep { $algs[$_] =~ /^gost89/ } @ciphers;
    my @meshed = grep { $kind{$algs[$_]} eq 'stream' && $algs[$_] !~ /^magma/ } @ciphers;
    # Every algorithm: plain, empty, across meshing periods in pieces with
    # a copy, and after a stretch of other data and a re-init.
    for my $a (grep { !$is_kuz{$_} && !$is_newer{$_} } 0 .. $#algs) {
        $add->($a, len => 100);
        $add->($a, len => 0);
        $add->($a, len => 2100, pieces => [1000, 30, 1070], copy_at => 1);
        $add->($a, len => 300, prelude => 1, reinit_key => 1, prelude_len => 1500);
        $add->($a, len => 300, prelude => 1, same_iv => 1, prelude_len => 20);
    }
    for my $a (@ciphers) {
        $add->($a, enc => 0, roundtrip => 1, len => 50, pieces => [3, 5]);
        $add->($a, len => 64, inplace => 1, pieces => [1, 9, 17]);
    }
    # One odd parameter each, spread over the ciphers.
    my @odds = ([num => 3], [num => 9], [keylen => 31], [ivlen => 8], [ivlen => 4],
                ['key-mesh' => 1], ['key-mesh' => 0], [padding => 0]);
    for my $i (0 .. $#odds) {
        my ($odd, $v) = @{ $odds[$i] };
        $add->($ciphers[$i % @ciphers], odd => $odd, odd_val => $v, len => 24);
        $add->($ciphers[($i + 3) % @ciphers], odd => $odd, odd_val => $v, len => 24);
    }
    $add->($_, nopad => 1, len => 32) for 3, 4, 5, 6;
    # EVP_Cipher instead of updates: any pieces in the stream modes, whole
    # blocks without padding in ECB/CBC.
    for my $a (@ciphers) {
        my $block = $kind{$algs[$a]} eq 'block';
        $add->($a, oneshot => 1, nopad => $block, len => 2064,
               pieces => $block ? [8, 1024, 16] : [3, 1030, 17], copy_at => 2);
    }
    # Every set, by every way of giving it, spread over the GOST 28147-89
    # ciphers; names spelled long, short, as an OID or "TC26-Z" in turn.
    for my $set (0 .. 5) {
        for my $way (1 .. 4) {
            $add->($gost89[($set + $way) % @gost89], len => 1100, set => $set, way => $way,
                   pieces => [500],
                   spell => $way <= 2 ? chr(($set + $way) % 4) . "\0\0" : "\0\0\0");
        }
    }
    # Mangled names and encodings.
    $add->(0, set => 1, way => 1, spell => "\x05\x03\x41");      # a changed letter
    $add->(1, set => 2, way => 2, spell => "\x10\x00\x00");      # another case
    $add->(2, set => 0, way => 1, spell => "\x08\x02\x00");      # cut short
    $add->(3, set => 3, way => 3, spell => "\x03\x05\x77");      # a changed IV byte
    $add->(4, set => 4, way => 4, spell => "\x05\x00\x00");      # trailing byte
    $add->(0, set => 5, way => 4, spell => "\x06\x00\x00");      # long-form length
    $add->(1, set => 0, way => 3, spell => "\x07\x02\x00");      # unknown OID
    $add->(3, set => 1, way => 3, spell => "\x04\x09\x00");      # cut short
    # Key meshing switched off, and on with an encoding after the init.
    for my $a (@meshed) {
        $add->($a, len => 2100, mesh => 0);
        $add->($a, len => 2100, mesh => 1, set => 0, way => 4);
    }
    # MACs: sizes, key as a parameter, every set by name, odd values.
    for my $a (8, 9) {
        $add->($a, len => 16, macsize => 8, size_at_init => 1, key_as_param => 1);
        $add->($a, len => 8, macsize => 1, pieces => [3]);
        $add->($a, len => 7, macsize => 5);
        $add->($a, odd => 'size', odd_val => 9);
        $add->($a, odd => 'key', odd_val => 31);
        $add->($a, len => 20, set => 2, way => 1, spell => "\x05\x03\x41");
    }
    $add->(8 + $_ % 2, len => 1030, set => $_, way => 1 + $_ % 2, set_before_init => $_ % 3 == 0,
           spell => chr($_ % 4) . "\0\0")
        for 0 .. 5;
    # Kuznyechik: as the others, in 16-byte blocks, and its odd parameters.
    for my $a (@kuz) {
        my $block = $kind{$algs[$a]} eq 'block';
        $add->($a, len => 100);
        $add->($a, len => 0);
        $add->($a, len => 2100, pieces => [1000, 30, 1070], copy_at => 1);
        $add->($a, len => 300, prelude => 1, reinit_key => 1, prelude_len => 1500);
        $add->($a, len => 300, prelude => 1, same_iv => 1, prelude_len => 20);
        $add->($a, enc => 0, roundtrip => 1, len => 50, pieces => [3, 5]);
        $add->($a, len => 64, inplace => 1, pieces => [1, 15, 17]);
        $add->($a, oneshot => 1, nopad => $block, len => 2064,
               pieces => $block ? [16, 1024, 32] : [3, 1030, 17], copy_at => 2);
        $add->($a, odd => 'num', odd_val => 9, len => 48);
        $add->($a, odd => 'ivlen', odd_val => 8, len => 48);
        $add->($a, odd => 'key-mesh', odd_val => 1, len => 48);
        $add->($a, nopad => 1, len => 48);
    }
    # The newer algorithms: as the others, and their own parameters.
    my %idx = map { $algs[$_] => $_ } 0 .. $#algs;
    for my $a (grep { $kind{$algs[$_]} ne 'mac' } @newer) {
        $add->($a, len => 100);
        $add->($a, len => 0);
        $add->($a, len => 5000, pieces => [1000, 30, 3000],
               copy_at => 1);
        $add->($a, len => 300, prelude => 1, reinit_key => 1, prelude_len => 1500);
        $add->($a, len => 300, prelude => 1, same_iv => 1, prelude_len => 20);
        $add->($a, enc => 0, roundtrip => 1, len => 50, pieces => [3, 5]);
        $add->($a, len => 64, inplace => 1, pieces => [1, 15, 17]);
        $add->($a, oneshot => 1, len => 2064, pieces => [3, 1030, 17], copy_at => 2);
        $add->($a, odd => 'num', odd_val => 5, len => 48);
        $add->($a, odd => 'ivlen', odd_val => 16, len => 48);
    }
    # GOST R 34.13-2015's register of z = 2..4 blocks, and ivlen after it
    for my $name (qw(magma-cbc magma-ofb magma-cfb kuznyechik-cbc kuznyechik-cfb
                     kuznyechik-ofb)) {
        my $a = $idx{$name};
        my $block = $kind{$name} eq 'block';
        for my $z (2 .. 4) {
            $add->($a, z => $z, len => 300 + $z, nopad => $block && $z == 3,
                   pieces => [7, 64, 33], copy_at => 2);
            $add->($a, z => $z, enc => 0, roundtrip => 1, len => 200, pieces => [17],
                   prelude => $z == 2, same_iv => 1, prelude_len => 30);
        }
        $add->($a, z => 2, odd => 'ivlen', odd_val => $name =~ /^magma/ ? 16 : 32,
               len => 40);
        $add->($a, z => 3, odd => 'ivlen', odd_val => 20, len => 40);
    }
    # ACPKM sections: 2 blocks, 48 blocks after the init, a raw 5 (refused),
    # key-mesh after the init as the odd parameter, the default crossed
    for my $name (qw(magma-ctr-acpkm kuznyechik-ctr-acpkm)) {
        my $a = $idx{$name};
        $add->($a, sec => [1, 0], len => 1000, pieces => [13, 500], copy_at => 1);
        $add->($a, sec => [47, 0], mesh_after => 1, len => 3000, prelude => 1,
               prelude_len => 700);
        $add->($a, sec => [0x85, 0], len => 40);
        $add->($a, odd => 'key-mesh', odd_val => 64, len => 600, pieces => [100]);
        $add->($a, len => 9000, pieces => [4095, 2], enc => 0);
    }
    # OMAC: sizes, key as a parameter, pieces, copies, re-inits; OMAC-ACPKM
    # with N and T (T a multiple of key and block, then of the block only)
    for my $name (qw(magma-mac kuznyechik-mac magma-ctr-acpkm-omac
                     kuznyechik-ctr-acpkm-omac)) {
        my $a = $idx{$name};
        my $bs = $name =~ /^kuznyechik/ ? 16 : 8;
        $add->($a, len => 100, macsize => $bs);
        $add->($a, len => 0, macsize => 2);
        $add->($a, len => $bs, macsize => $bs, size_at_init => 1, key_as_param => 1);
        $add->($a, len => 2100, pieces => [1000, 30], copy_at => 1, macsize => 8);
        $add->($a, len => 300, prelude => 1, reinit_key => 1, prelude_len => 100);
        $add->($a, odd => 'size', odd_val => $bs + 1);
        $add->($a, odd => 'key', odd_val => 16);
        next if $name !~ /acpkm/;
        $add->($a, sec => [1, 1], len => 500, pieces => [17], macsize => $bs);
        $add->($a, sec => [9, 3], len => 3000, size_at_init => 1, macsize => $bs);
        $add->($a, sec => [3, 0x81], len => 700, copy_at => 0);
        $add->($a, sec => [0x83, 0], len => 70);
    }
}

# ------------------------------------------------------------------ aead
# mode (0 GCM, 1 CCM, 2 XTS), key(32), ivlen byte, iv(64), taglen byte,
# flags (1 in place, 2 IEEE), aad chunk, data chunk (x7), aad len, data len.
{
    my $tail = bytes(80, 5);
    my $seed = sub {
        my ($name, $mode, %o) = @_;
        add('aead', "aead-$name",
            chr($mode) . bytes(32, 3 + $mode) . chr($o{iv} // 0) . bytes(64, 7)
            . chr($o{tag} // 15) . chr($o{flags} // 0) . chr($o{ac} // 0)
            . chr($o{dc} // 0) . len16($o{aad} // 16) . len16($o{len} // 64) . $tail);
    };
    # GCM: ivlen 1 + v % 64, taglen 1 + v % 16
    $seed->('gcm-12', 0, iv => 11);
    $seed->('gcm-iv1-empty', 0, iv => 0, aad => 0, len => 0);
    $seed->('gcm-iv64-chunks', 0, iv => 63, ac => 5, dc => 3, aad => 40, len => 2100);
    $seed->('gcm-tag4-inplace', 0, iv => 11, tag => 3, flags => 1, len => 257);
    $seed->('gcm-long', 0, iv => 15, len => 5000, dc => 40);
    # CCM: nonce 7 + v % 7, tag 4 + 2 (v % 7)
    $seed->('ccm-7-4', 1, iv => 0, tag => 0, aad => 0, len => 0);
    $seed->('ccm-13-16', 1, iv => 6, tag => 6, aad => 24, len => 100);
    $seed->('ccm-12-16-inplace', 1, iv => 5, tag => 6, flags => 1, len => 2049);
    # XTS: GB and IEEE, a 17-byte unit, stealing in long units
    $seed->('xts-gb-17', 2, aad => 0, len => 17);
    $seed->('xts-ieee-17', 2, flags => 2, aad => 0, len => 17);
    $seed->('xts-gb-long', 2, aad => 0, len => 4111);
    $seed->('xts-ieee-inplace', 2, flags => 3, aad => 0, len => 2085);
}

# -------------------------------------------------------------- ctr_omac
# cipher (0 Kuznyechik, 1 Magma), flags (way 0..2, 4 in place, 8 copy,
# 16 prelude), key(32), ukm(16), section byte (0 CMS default, odd refused,
# else (v >> 1) blocks), tamper byte, length, pieces (0 ends), tail.
{
    my $tail = bytes(90, 8);
    my $seed = sub {
        my ($name, $a, %o) = @_;
        add('ctr_omac', "ctr_omac-$name",
            chr($a) . chr($o{flags} // 1) . bytes(32, 4 + $a) . bytes(16, 6)
            . chr($o{sec} // 0) . chr($o{tamper} // 0x13) . len16($o{len} // 100)
            . join('', map { len16($_) } @{ $o{pieces} // [] }) . u16(0) . $tail);
    };
    for my $a (0, 1) {
        my $n = $a ? 'magma' : 'kuz';
        $seed->("$n-plain", $a);
        $seed->("$n-empty", $a, len => 0);
        $seed->("$n-before", $a, flags => 0, len => 37, pieces => [5, 16]);
        $seed->("$n-after-inplace", $a, flags => 2 | 4, len => 257);
        $seed->("$n-copy-prelude", $a, flags => 1 | 8 | 16, len => 600, pieces => [100, 1]);
        $seed->("$n-sections", $a, sec => 2, len => 1000, pieces => [7]);
        $seed->("$n-sections-long", $a, sec => 64, len => 5000, pieces => [1023, 3]);
        $seed->("$n-section-refused", $a, sec => 9, len => 40);
    }
}

# ------------------------------------------------------------------- mgm
# cipher (0 kuznyechik-mgm, 1 magma-mgm), key(32), nonce(16), tag length
# byte (1 + v % n), flags (1 in place, 2 decryption on the encryption's
# context, 4 its tag late, bits 3-4 the flip: 0 tag, 1 AAD, 2 ciphertext),
# aad chunk, data chunk (x7), flip position (2), flip bit, aad len, data len.
{
    my $tail = bytes(80, 11);
    my $seed = sub {
        my ($name, $alg, %o) = @_;
        add('mgm', "mgm-$name",
            chr($alg) . bytes(32, 5 + $alg) . bytes(16, 9 + $alg) . chr($o{tag} // 15)
            . chr(($o{flags} // 0) | ($o{flip} // 0) << 3) . chr($o{ac} // 0)
            . chr($o{dc} // 0) . u16($o{at} // 3) . chr($o{bit} // 0)
            . len16($o{aad} // 16) . len16($o{len} // 64) . $tail);
    };
    for my $alg (0, 1) {
        my $c = $alg ? 'magma' : 'kuznyechik';
        my $bs = $alg ? 8 : 16;
        $seed->("$c-plain", $alg);
        $seed->("$c-empty", $alg, aad => 0, len => 0);
        $seed->("$c-aad-only", $alg, aad => 41, len => 0, flip => 1);
        $seed->("$c-data-only", $alg, aad => 0, len => 37, flip => 2, bit => 7);
        $seed->("$c-tag1-inplace", $alg, tag => 0, flags => 1, len => 257, flip => 2);
        $seed->("$c-chunks-reinit", $alg, ac => 5, dc => 3, aad => 40, len => 2100,
                flags => 2, flip => 1, at => 17);
        $seed->("$c-tag-late", $alg, tag => $bs - 2, flags => 4 | 1, aad => $bs + 1,
                len => 3 * $bs - 1, at => $bs - 1, bit => 5);
        $seed->("$c-long", $alg, aad => 1000, len => 5000, dc => 40, flags => 6, flip => 2);
    }
}

for my $h (sort keys %corpus) {
    my $dir = "$top/corpus/$h";
    # Inputs the fuzzer found (found-*) stay; the rest is rewritten.
    make_path($dir);
    unlink grep { !m{/found-[^/]*$} } glob "$dir/*";
    for my $e (@{ $corpus{$h} }) {
        open my $fh, '>:raw', "$dir/$e->[0]" or die "$dir/$e->[0]: $!\n";
        print $fh $e->[1];
        close $fh or die "$dir/$e->[0]: $!\n";
    }
    printf "%-5s %3d seeds in %s\n", $h, scalar @{ $corpus{$h} }, $dir;
}
