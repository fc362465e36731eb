#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Shows a freshly built smgost at work through the real openssl CLI: the
# provider listed with the kernels it chose, a file encrypted, decrypted and
# hashed, and a short speed table beside OpenSSL's default provider (and
# gostprov for GOST, when installed).  Run from the top of the build tree
# after make; `make demo` does.
set -eu
OPENSSL=${OPENSSL:-openssl}
MODDIR=$(cd "$(dirname "$0")/../providers" && pwd)
# Providers must come before -evp on the speed command line: openssl fetches
# the cipher while it parses -evp, with the providers loaded so far.
SMG="-provider-path $MODDIR -provider smgost -provider default"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== openssl list -providers -verbose (smgost)"
$OPENSSL list -providers -verbose $SMG | sed -n '/^  smgost/,/gettable/p' | sed '$d'

echo
echo "== a 1 MiB file encrypted and decrypted with SM4-CTR and gost89 through smgost"
head -c 1048576 /dev/urandom > "$work/plain"
for cipher in sm4-ctr gost89; do
    $OPENSSL enc -e -$cipher -pbkdf2 -pass pass:demo $SMG -propquery provider=smgost \
        -in "$work/plain" -out "$work/enc"
    $OPENSSL enc -d -$cipher -pbkdf2 -pass pass:demo $SMG -propquery provider=smgost \
        -in "$work/enc" -out "$work/dec"
    if cmp -s "$work/plain" "$work/dec"; then
        echo "$cipher: encrypted $(wc -c < "$work/enc") bytes, decrypted back: identical"
    else
        echo "$cipher: round trip FAILED"; exit 1
    fi
done

echo
echo "== SM3 of that file, smgost beside the default provider"
$OPENSSL dgst -sm3 $SMG -propquery provider=smgost "$work/plain" | sed 's/^/smgost:  /'
$OPENSSL dgst -sm3 -provider default "$work/plain" | sed 's/^/default: /'

speed() {   # speed <provider options...> -- <algorithm>: MB/s at 16 KiB
    alg=$1; shift
    $OPENSSL speed "$@" -seconds 1 -bytes 16384 -evp "$alg" 2>/dev/null \
        | awk -v a="$alg" 'tolower($1) == tolower(a) { sub(/k$/, "", $2); printf "%.0f", $2 * 1000 / 1e6 }'
}

echo
echo "== openssl speed, 16 KiB blocks, MB/s (one second each; a shared machine is noisy)"
ratio() { echo "$1 $2" | awk '{ printf "%.1fx", ($2 > 0 ? $1 / $2 : 0) }'; }
printf '%-12s %8s %10s %-9s %7s\n' algorithm smgost reference "" ratio
for alg in sm4-ctr sm4-ecb sm4-cbc sm3; do
    ours=$(speed $alg $SMG -propquery provider=smgost)
    ref=$(speed $alg -provider default)
    printf '%-12s %8s %10s %-9s %7s\n' "$alg" "$ours" "$ref" "(default)" \
        "$(ratio "$ours" "$ref")"
done
if $OPENSSL list -providers -provider gostprov >/dev/null 2>&1; then
    for alg in gost89-cnt gost89 magma-ctr; do
        ours=$(speed $alg $SMG -propquery provider=smgost)
        ref=$(speed $alg -provider gostprov -provider default)
        printf '%-12s %8s %10s %-9s %7s\n' "$alg" "$ours" "$ref" "(gostprov)" \
            "$(ratio "$ours" "$ref")"
    done
fi
