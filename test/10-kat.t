# SPDX-License-Identifier: Apache-2.0
#
# Known-answer tests of smgost's SM4 and SM3 through EVP (test/evp_kat.c):
# OpenSSL's evp_test vector files, GB/T 32907 examples 1 and 2,
# draft-ribose-cfrg-sm4, GB/T 32905, and names/OIDs/metadata against the
# default provider.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

# How many entries each vector file holds for the algorithms smgost offers,
# counted here independently of the C parser so that a parser that silently
# skips entries fails.
sub count_entries {
    my ($file, $re) = @_;
    open(my $fh, '<', $file) or die "$file: $!";
    my $n = grep { /^\s*(?:Cipher|Digest)\s*=\s*(\S+)/ && $1 =~ $re } <$fh>;
    return $n;
}

my %files = (
    'evpciph_sm4.txt' => qr/^SM4-(?:ECB|CBC|OFB|CFB|CTR|GCM|CCM|XTS)$/i,
    'evpmd_sm3.txt'   => qr/^SM3$/i,
);

plan tests => 4 + 2 * keys %files;

for my $f (sort keys %files) {
    my $path = data_file($f);
    my $want = count_entries($path, $files{$f});
    my $r = program_ok('evp_kat', ['file', $path], "vectors from $f");
    my ($c, $d) = $r->{out} =~ /(\d+) cipher entries, (\d+) digest entries run/;
    is(($c // 0) + ($d // 0), $want, "$f: all $want SM4/SM3 entries ran");
}
program_ok('evp_kat', ['names'], 'names, OIDs and metadata match the default provider');
program_ok('evp_kat', ['gbt'], 'GB/T 32907-2016 examples 1 and 2 (1,000,000 encryptions)');
program_ok('evp_kat', ['ribose'], 'draft-ribose-cfrg-sm4 ECB, CBC and CTR examples');
program_ok('evp_kat', ['sm3'], 'GB/T 32905-2016 SM3 examples');
