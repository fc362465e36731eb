/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XTS (IEEE 1619-2018, GB/T 17964-2021) over the AEAD layer's shared part
 * (src/aead.h): two keys, one data unit per update with ciphertext
 * stealing, the xts_standard param, and the composition of the kernel's
 * XTS entries.  XTS as OpenSSL defines it for SM4 is a 16-byte-block mode:
 * its tweak arithmetic is GF(2^128)'s.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "aead.h"
#include "byteorder.h"
#include "err.h"

#define BS 16
/* At most 2^20 blocks per data unit (IEEE 1619-2018, 5.1). */
#define XTS_MAX_UNIT ((size_t)1 << 24)
/* Blocks a composed call handles per step: its scratch stays on the stack. */
#define CHUNK 32
/* Calls of at most this many blocks take a table's lone-block ECB. */
#define XTS_LONE 4

/* A name OpenSSL 3.0's headers lack (3.1's core_names.h has it). */
#ifndef OSSL_CIPHER_PARAM_XTS_STANDARD
# define OSSL_CIPHER_PARAM_XTS_STANDARD "xts_standard"
#endif

static void xts_mul_x(unsigned char t[16], int ieee)
{
    uint64_t hi, lo, carry;

    if (ieee) {
        lo = load_le64(t);
        hi = load_le64(t + 8);
        carry = hi >> 63;
        store_le64(t + 8, hi << 1 | lo >> 63);
        store_le64(t, lo << 1 ^ (0x87 & (0 - carry)));
    } else {
        hi = load_be64(t);
        lo = load_be64(t + 8);
        carry = lo & 1;
        store_be64(t + 8, lo >> 1 | hi << 63);
        store_be64(t, hi >> 1 ^ ((uint64_t)0xe1 << 56 & (0 - carry)));
    }
}

/* The tweaks of a chunk of blocks, then ecb over it. */
static void xts_over_ecb(smg_ecb_fn ecb, int ieee, const void *ks,
                         const unsigned char *in, unsigned char *out,
                         size_t n, unsigned char tweak[16])
{
    unsigned char tw[CHUNK][BS];
    /* The tweaks were written to the first `used` blocks only. */
    size_t i, used = n < CHUNK ? n : CHUNK;

    while (n > 0) {
        size_t step = n < CHUNK ? n : CHUNK;

        for (i = 0; i < step; i++) {
            memcpy(tw[i], tweak, BS);
            xts_mul_x(tweak, ieee);
            smg_xor_block(out + i * BS, in + i * BS, tw[i], BS);
        }
        ecb(ks, out, out, step);
        for (i = 0; i < step; i++)
            smg_xor_block(out + i * BS, out + i * BS, tw[i], BS);
        in += step * BS;
        out += step * BS;
        n -= step;
    }
    OPENSSL_cleanse(tw, used * BS);
}

void smg_xts_composed(const SMG_BLOCK_KERNEL *k, int ieee, const void *ks,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char tweak[16])
{
    xts_over_ecb(k->ecb, ieee, ks, in, out, n, tweak);
}

/* The table's ECB for a lone block or a few (kernel.h). */
static smg_ecb_fn lone_ecb(const SMG_BLOCK_KERNEL *k)
{
    return k->ecb_lone != NULL ? k->ecb_lone : k->ecb;
}

static void xts_blocks(SMG_AEAD_CTX *c, const unsigned char *in,
                       unsigned char *out, size_t n, unsigned char t[16])
{
    const SMG_XTS_KERNEL *xts = c->base.kernel->xts;
    const void *ks = c->base.enc ? c->base.ks_enc : c->base.ks_dec;

    if (n == 0)
        return;
    /* A few blocks go through the table's lone-block ECB where it has one. */
    if (n <= XTS_LONE && c->base.kernel->ecb_lone != NULL)
        xts_over_ecb(c->base.kernel->ecb_lone, c->xts_ieee, ks, in, out, n,
                     t);
    else if (xts != NULL)
        (c->xts_ieee ? (c->base.enc ? xts->enc_ieee : xts->dec_ieee)
                     : (c->base.enc ? xts->enc_gb : xts->dec_gb))(ks, in, out,
                                                                   n, t);
    else
        smg_xts_composed(c->base.kernel, c->xts_ieee, ks, in, out, n, t);
}


/* One data unit with ciphertext stealing (IEEE 1619-2018, 5.3.2 / 5.4.2). */
static int xts_unit(SMG_AEAD_CTX *c, const unsigned char *in,
                    unsigned char *out, size_t len)
{
    unsigned char t[BS], t1[BS], blk[BS];
    size_t m = len / BS, r = len % BS;

    if (!c->base.iv_set) {
        smg_aead_fail(c, "iv not set");
        return 0;
    }
    /* OpenSSL's XTS raises the one reason of its own for too long a unit,
     * before its update's (aes_xts_cipher, sm4_xts_cipher). */
    if (len > XTS_MAX_UNIT)
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(XTS_DATA_UNIT_IS_TOO_LARGE),
                       "%zu bytes, over 2^20 blocks", len);
    if (len < BS || len > XTS_MAX_UNIT)
        return smg_aead_fail(c, "invalid xts data unit length: %zu bytes, "
                             "not 16 to 2^24", len);
    lone_ecb(c->base.kernel)(c->ks2, c->iv, t, 1);
    if (r == 0 || c->base.enc) {
        xts_blocks(c, in, out, m, t);
        if (r != 0) {
            /* The last whole block's output gives its head to the partial
             * block and is replaced by the stolen block's encryption. */
            unsigned char *last = out + (m - 1) * BS;

            memcpy(blk, in + m * BS, r);
            memcpy(blk + r, last + r, BS - r);
            memcpy(out + m * BS, last, r);
            xts_blocks(c, blk, last, 1, t);
        }
    } else {
        const unsigned char *lastin = in + (m - 1) * BS;
        unsigned char *last = out + (m - 1) * BS;

        xts_blocks(c, in, out, m - 1, t);
        memcpy(t1, t, BS);
        xts_mul_x(t1, c->xts_ieee);
        /* The last whole block was made with the next tweak. */
        xts_blocks(c, lastin, blk, 1, t1);
        memcpy(t1, in + m * BS, r);
        memcpy(t1 + r, blk + r, BS - r);
        memcpy(out + m * BS, blk, r);
        xts_blocks(c, t1, last, 1, t);
    }
    OPENSSL_cleanse(t, sizeof(t));
    /* t1 and blk hold tweaks and data only where a partial block was
     * stolen. */
    if (r != 0) {
        OPENSSL_cleanse(t1, sizeof(t1));
        OPENSSL_cleanse(blk, sizeof(blk));
    }
    return 1;
}

static int set_xts_standard(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    const char *s = NULL;

    if (p->data_type != OSSL_PARAM_UTF8_STRING
        || !OSSL_PARAM_get_utf8_string_ptr(p, &s))
        return smg_aead_set_fail(c, p);
    if (OPENSSL_strcasecmp(s, "GB") == 0) {
        c->xts_ieee = 0;
    } else if (OPENSSL_strcasecmp(s, "IEEE") == 0) {
        c->xts_ieee = 1;
    } else {
        /* OpenSSL 3.5's SM4-XTS: "failed to set parameter" */
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(FAILED_TO_SET_PARAMETER),
                       "\"%s\", not GB or IEEE", s);
        return 0;
    }
    return 1;
}

static const OSSL_PARAM xts_gettable[] = {
    SMG_CIPHER_GENERIC_GETTABLE_CTX,
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM xts_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_XTS_STANDARD, NULL, 0),
    OSSL_PARAM_END
};

static int xts_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    SMG_AEAD_CTX *c = (SMG_AEAD_CTX *)ctx;
    const SMG_CIPHER_FAMILY *fam = c->base.alg->family;

    /* The tweak key's encryption schedule first, then the data key's.
     * Identical halves are taken, as OpenSSL 3.5's SM4-XTS takes them. */
    if (!fam->set_key(&c->base, key + fam->key_len))
        return 0;
    memcpy(c->ks2, c->base.ks_enc, sizeof(c->ks2));
    if (!fam->set_key(&c->base, key))
        return 0;
    return 1;
}

static size_t xts_iv_len(const SMG_AEAD_CTX *c)
{
    return c->ivlen;
}

static int xts_iv_len_ok(const SMG_CIPHER_CTX *ctx, size_t ivlen,
                         size_t *want)
{
    *want = ((const SMG_AEAD_CTX *)ctx)->ivlen;
    return ivlen == *want;
}

/* The tweak of the data units to come. */
static void xts_take_iv(SMG_CIPHER_CTX *ctx, const unsigned char *iv,
                        size_t ivlen)
{
    if (iv != NULL)
        memcpy(((SMG_AEAD_CTX *)ctx)->iv, iv, ivlen);
}

/* One data unit an update. */
static int xts_update(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                      const unsigned char *in, size_t inl)
{
    if (in == NULL || out == NULL)
        return smg_aead_fail(c, "XTS has no AAD");
    if (!xts_unit(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int xts_final(SMG_AEAD_CTX *c)
{
    (void)c;
    return 1;
}

/* The generic params, as OpenSSL's SM4-XTS answers them. */
static int xts_get_param(SMG_AEAD_CTX *c, enum smg_aead_get_param which,
                         OSSL_PARAM *p)
{
    int ok;

    switch (which) {
    case SMG_AEAD_GET_PADDING:
        ok = OSSL_PARAM_set_uint(p, c->base.pad);
        break;
    case SMG_AEAD_GET_NUM:
        ok = OSSL_PARAM_set_uint(p, 0);
        break;
    case SMG_AEAD_GET_IV:
    case SMG_AEAD_GET_UPDATED_IV:
        ok = smg_set_iv_param(p, c->iv, BS, 1);
        break;
    case SMG_AEAD_GET_TLS_MAC:
        ok = OSSL_PARAM_set_octet_ptr(p, NULL, 0);
        break;
    default:
        return 1;
    }
    return ok || smg_aead_get_fail(c, p);
}

/* The other generic params are accepted and ignored, as in OpenSSL's
 * SM4-XTS. */
static int xts_set_param(SMG_AEAD_CTX *c, enum smg_aead_set_param which,
                         const OSSL_PARAM *p)
{
    return which != SMG_AEAD_SET_XTS_STANDARD || set_xts_standard(c, p);
}

const SMG_AEAD_MODE smg_aead_xts = {
    .evp_mode = EVP_CIPH_XTS_MODE,
    .aead = 0,
    .key_parts = 2,
    .gettable = xts_gettable,
    .settable = xts_settable,
    .init = { .iv_len_ok = xts_iv_len_ok, .take_iv = xts_take_iv,
              .key_len = smg_aead_key_len, .set_key = xts_set_key,
              .set_ctx_params = smg_aead_set_ctx_params },
    .iv_len = xts_iv_len,
    .update = xts_update,
    .final = xts_final,
    .get_param = xts_get_param,
    .set_param = xts_set_param,
};
