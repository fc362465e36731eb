/* SPDX-License-Identifier: Apache-2.0 */
/*
 * KDF_TREE_GOSTR3411_2012_256 (kdf_tree.h) and the HMAC-Streebog-256 it is
 * made of, over the digest layer's streaming core.
 */
#include <string.h>
#include <openssl/crypto.h>
#include "digest.h"
#include "kdf_tree.h"
#include "prov.h"
#include "streebog.h"

typedef struct hmac_part {
    const unsigned char *p;
    size_t len;
} HMAC_PART;

/* HMAC (RFC 2104) of the parts' concatenation under key (<= 64 bytes). */
static void hmac_streebog256(const void *kernel, const unsigned char *key,
                             size_t keylen, const HMAC_PART *parts,
                             size_t nparts, unsigned char out[32])
{
    const SMG_DIGEST *md = &smg_streebog256_digest;
    SMG_DIGEST_CTX c;
    unsigned char pad[STREEBOG_BLOCK_SIZE], inner[32];
    size_t i;

    memset(pad, 0x36, sizeof(pad));
    for (i = 0; i < keylen; i++)
        pad[i] ^= key[i];
    smg_digest_init(&c, md, kernel);
    smg_digest_update(&c, md, pad, sizeof(pad));
    for (i = 0; i < nparts; i++)
        smg_digest_update(&c, md, parts[i].p, parts[i].len);
    smg_digest_final(&c, md, inner);
    for (i = 0; i < sizeof(pad); i++)
        pad[i] ^= 0x36 ^ 0x5c;
    smg_digest_init(&c, md, kernel);
    smg_digest_update(&c, md, pad, sizeof(pad));
    smg_digest_update(&c, md, inner, sizeof(inner));
    smg_digest_final(&c, md, out);
    OPENSSL_cleanse(pad, sizeof(pad));
    OPENSSL_cleanse(inner, sizeof(inner));
}

void smg_kdf_tree_256(const void *kernel, const unsigned char *key,
                      size_t keylen, const unsigned char *label,
                      size_t labellen, const unsigned char *seed,
                      size_t seedlen, size_t r, unsigned char *out,
                      size_t outlen)
{
    static const unsigned char zero = 0;
    unsigned char ctr[4], len[sizeof(size_t)];
    size_t bits = outlen * 8, nlen = 0, i, n;

    /* [L]_b: the bit length big-endian, its leading zero bytes dropped */
    for (n = bits; n != 0; n >>= 8)
        nlen++;
    for (i = 0; i < nlen; i++)
        len[nlen - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (n = 1; n <= outlen / SMG_KDF_TREE_BLOCK; n++) {
        HMAC_PART parts[5] = {
            { ctr + 4 - r, r }, { label, labellen }, { &zero, 1 },
            { seed, seedlen }, { len, nlen }
        };

        for (i = 0; i < 4; i++)
            ctr[3 - i] = (unsigned char)(n >> (8 * i));
        hmac_streebog256(kernel, key, keylen, parts, 5,
                         out + (n - 1) * SMG_KDF_TREE_BLOCK);
    }
}
