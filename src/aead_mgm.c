/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MGM, the Multilinear Galois Mode (RFC 9058; R 1323565.1.026-2019), over
 * the AEAD layer's shared part (src/aead.h), for 128-bit blocks
 * (Kuznyechik) and 64-bit blocks (Magma) alike: n = the block size.
 *
 * The nonce is n bytes, as gostprov takes it; its top bit is cleared
 * (gostprov does the same), so that Y_1 = E(0 || nonce') and
 * Z_1 = E(1 || nonce').  Y counts in its right half mod 2^(n/2), Z in its
 * left half; the keystream is E(Y_i), the hash keys H_i = E(Z_i); the tag
 * is E(sum H_i (x) A_i), over the AAD blocks, the ciphertext blocks (each
 * last one zero-padded) and the block len(A) || len(C) in bits, in
 * GF(2^128) mod x^128 + x^7 + x^2 + x + 1 or GF(2^64) mod
 * x^64 + x^4 + x^3 + x + 1 (RFC 9058, 4), blocks as big-endian integers.
 *
 * AAD comes by updates with a NULL output before the data.  The tag: an
 * encryption's is read after the final (1 to n bytes); a decryption's is
 * set before the final, the whole block (as gostprov requires).  A tag
 * that differs fails the final as GCM's does (src/aead_gcm.c).  A re-init
 * with a new nonce starts a new message.
 *
 * The products are the MGM kernel's (src/kernel.h's SMG_MGM_KERNEL,
 * src/mgm_mac.c: chosen by the CPU when the provider loads, constant-time
 * every one), a chunk of blocks a call, so that a kernel sums the chunk's
 * products and reduces once.  The encryptions are the block table's ECB:
 * the data's keystream blocks E(Y_i) and hash keys H_i = E(Z_i) in one call
 * of 2 CHUNK blocks, the full width of the byte-sliced kernels
 * (kuznyechik-gfni-avx512 runs 64 blocks a pass).
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "aead.h"
#include "byteorder.h"
#include "err.h"
#include "provctx.h"

/* Blocks of data (or AAD) a chunk: the data's ECB call is twice that. */
#define CHUNK 64

/*
 * The sum's running state in the context: c->ctr is Y_i, c->j0 is Z_i,
 * c->xi the sum, c->part the pending AAD or ciphertext block (ares / mres
 * bytes), c->ks the keystream of a partial data block; len_set marks a
 * message whose Y_1 and Z_1 are made, data_done that the data began.
 */

/*
 * A counting half's bytes, cnt as a big-endian integer, in its host-order
 * word: byteorder.h's byte-by-byte stores, which gcc 12 vectorizes byte by
 * byte in mgm_counters' loop, took 39% of magma-mgm's time (perf, 16 KiB
 * calls, Zen 4); a byte swap and one store take 10%.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define BE64(v) __builtin_bswap64(v)
# define BE32(v) __builtin_bswap32(v)
#else
# define BE64(v) (v)
# define BE32(v) (v)
#endif

/*
 * The counter blocks of the next n blocks into buf: Y's (keystream) when
 * y, else Z's (hash keys); the counter runs on.  Y counts in its right
 * half, Z in its left, each mod 2^(n/2) as a big-endian integer: each
 * block the counter block, its counting half then written over.
 */
static void mgm_counters(SMG_AEAD_CTX *c, int y, unsigned char *buf,
                         size_t n)
{
    size_t bs = c->base.bs, at = y ? bs / 2 : 0, i;
    unsigned char *ctr = y ? c->ctr : c->j0;

    if (bs == 16) {
        uint64_t cnt = load_be64(ctr + at), w;

        for (i = 0; i < n; i++, buf += 16) {
            w = BE64(cnt + i);
            memcpy(buf, ctr, 16);
            memcpy(buf + at, &w, 8);
        }
        store_be64(ctr + at, cnt + n);
    } else {
        uint32_t cnt = load_be32(ctr + at), w;

        for (i = 0; i < n; i++, buf += 8) {
            w = BE32(cnt + (uint32_t)i);
            memcpy(buf, ctr, 8);
            memcpy(buf + at, &w, 4);
        }
        store_be32(ctr + at, cnt + (uint32_t)n);
    }
}

/* sum ^= H_i (x) blk_i, the kernel of the block size */
static void mgm_mac(SMG_AEAD_CTX *c, const unsigned char *h,
                    const unsigned char *blk, size_t n)
{
    (c->base.bs == 16 ? c->mgm->mac128 : c->mgm->mac64)(c->xi, h, blk, n);
}

/* sum ^= H_i (x) block_i over n <= CHUNK whole blocks: the H_i from one
 * ECB call over the Z_i */
static void mgm_hash(SMG_AEAD_CTX *c, const unsigned char *blk, size_t n)
{
    unsigned char h[CHUNK * SMG_MAX_BLOCK];

    mgm_counters(c, 0, h, n);
    c->base.kernel->ecb(c->base.ks_enc, h, h, n);
    mgm_mac(c, h, blk, n);
    OPENSSL_cleanse(h, n * c->base.bs);
}

/* A new message: Y_1 and Z_1 wait for the first update (the key may come
 * after the nonce). */
static void mgm_reset(SMG_AEAD_CTX *c)
{
    c->len_set = c->data_done = c->tag_set = 0;
    c->ares = c->mres = 0;
    c->aad_len = c->data_len = 0;
    c->base.finalised = 0;
    memset(c->xi, 0, sizeof(c->xi));
}

static int mgm_ready(SMG_AEAD_CTX *c)
{
    size_t bs = c->base.bs;

    if (!c->base.iv_set || c->base.finalised) {
        smg_aead_fail(c, "iv not set: %s", c->base.finalised
                      ? "the message is finished: init with a new nonce"
                      : "no nonce");
        return 0;
    }
    if (!c->len_set) {
        unsigned char yz[2 * SMG_MAX_BLOCK];

        /* Y_1 and Z_1 in one call */
        memcpy(yz, c->iv, bs);
        yz[0] &= 0x7f;
        memcpy(yz + bs, c->iv, bs);
        yz[bs] |= 0x80;
        c->base.kernel->ecb(c->base.ks_enc, yz, yz, 2);
        memcpy(c->ctr, yz, bs);
        memcpy(c->j0, yz + bs, bs);
        OPENSSL_cleanse(yz, sizeof(yz));
        c->len_set = 1;
    }
    return 1;
}

static int mgm_aad(SMG_AEAD_CTX *c, const unsigned char *in, size_t inl)
{
    size_t bs = c->base.bs, take, n;

    if (c->data_done) {
        smg_aead_fail(c, "aad after the data");
        return 0;
    }
    if ((c->aad_len + inl) < c->aad_len
        || c->aad_len + inl > (bs == 8 ? UINT32_MAX / 8 : UINT64_MAX / 8)) {
        smg_aead_fail(c, "aad too long");
        return 0;
    }
    c->aad_len += inl;
    while (inl > 0) {
        if (c->ares == 0 && inl >= bs) {
            n = inl / bs < CHUNK ? inl / bs : CHUNK;
            mgm_hash(c, in, n);
            in += n * bs;
            inl -= n * bs;
            continue;
        }
        take = bs - c->ares < inl ? bs - c->ares : inl;
        memcpy(c->part + c->ares, in, take);
        c->ares += take;
        in += take;
        inl -= take;
        if (c->ares == bs) {
            mgm_hash(c, c->part, 1);
            c->ares = 0;
        }
    }
    return 1;
}

/* The AAD's last block, zero-padded, before the data (mgm_tag takes it
 * when no data came). */
static void mgm_aad_end(SMG_AEAD_CTX *c)
{
    if (c->ares > 0) {
        memset(c->part + c->ares, 0, c->base.bs - c->ares);
        mgm_hash(c, c->part, 1);
        c->ares = 0;
    }
}

/*
 * n <= CHUNK whole data blocks: Y_i and Z_i in one ECB call, into e (the
 * caller's, 2 CHUNK blocks, cleansed by it once its data is done), the
 * ciphertext hashed (a decryption's before an in-place output replaces
 * it).
 */
static void mgm_blocks(SMG_AEAD_CTX *c, const unsigned char *in,
                       unsigned char *out, size_t n, unsigned char *e)
{
    size_t bs = c->base.bs;
    unsigned char *h = e + n * bs;

    mgm_counters(c, 1, e, n);
    mgm_counters(c, 0, h, n);
    c->base.kernel->ecb(c->base.ks_enc, e, e, 2 * n);
    if (!c->base.enc)
        mgm_mac(c, h, in, n);
    smg_xor_block(out, in, e, n * bs);
    if (c->base.enc)
        mgm_mac(c, h, out, n);
}

static int mgm_data(SMG_AEAD_CTX *c, const unsigned char *in,
                    unsigned char *out, size_t inl)
{
    size_t bs = c->base.bs, n, used = 0;
    unsigned char b, e[2 * CHUNK * SMG_MAX_BLOCK];

    if (c->data_len + inl < c->data_len
        || c->data_len + inl > (bs == 8 ? UINT32_MAX / 8 : UINT64_MAX / 8)) {
        smg_aead_fail(c, "data too long");
        return 0;
    }
    if (!c->data_done) {
        mgm_aad_end(c);
        c->data_done = 1;
    }
    c->data_len += inl;
    while (inl > 0) {
        if (c->mres == 0 && inl >= bs) {
            n = inl / bs < CHUNK ? inl / bs : CHUNK;
            mgm_blocks(c, in, out, n, e);
            used = used > 2 * n * bs ? used : 2 * n * bs;
            in += n * bs;
            out += n * bs;
            inl -= n * bs;
            continue;
        }
        if (c->mres == 0) {
            mgm_counters(c, 1, c->ks, 1);
            c->base.kernel->ecb(c->base.ks_enc, c->ks, c->ks, 1);
        }
        b = *in++;
        *out = b ^ c->ks[c->mres];
        c->part[c->mres++] = c->base.enc ? *out : b;
        out++;
        inl--;
        if (c->mres == bs) {
            mgm_hash(c, c->part, 1);
            c->mres = 0;
        }
    }
    if (used > 0)
        OPENSSL_cleanse(e, used);
    return 1;
}

static int mgm_update(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                      const unsigned char *in, size_t inl)
{
    if (inl == 0)
        return 1;
    if (!mgm_ready(c))
        return 0;
    if (out == NULL ? !mgm_aad(c, in, inl) : !mgm_data(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

/* The tag of the message: the last blocks, the lengths block, E(sum). */
static void mgm_tag(SMG_AEAD_CTX *c, unsigned char *tag)
{
    size_t bs = c->base.bs, pend = c->ares + c->mres, n = 0;
    unsigned char last[2 * SMG_MAX_BLOCK];

    /*
     * The pending partial block (the AAD's when no data came, else the
     * data's: the data's start flushed the AAD's), zero-padded, and the
     * lengths block take consecutive Z_i: one ECB call for both.
     */
    if (pend > 0) {
        memcpy(last, c->part, pend);
        memset(last + pend, 0, bs - pend);
        n = 1;
        c->ares = c->mres = 0;
    }
    if (bs == 16) {
        store_be64(last + n * bs, c->aad_len * 8);
        store_be64(last + n * bs + 8, c->data_len * 8);
    } else {
        store_be32(last + n * bs, (uint32_t)(c->aad_len * 8));
        store_be32(last + n * bs + 4, (uint32_t)(c->data_len * 8));
    }
    mgm_hash(c, last, n + 1);
    c->base.kernel->ecb(c->base.ks_enc, c->xi, tag, 1);
    OPENSSL_cleanse(last, sizeof(last));
    OPENSSL_cleanse(c->part, sizeof(c->part));
    OPENSSL_cleanse(c->ks, sizeof(c->ks));
    OPENSSL_cleanse(c->xi, sizeof(c->xi));
}

static int mgm_final(SMG_AEAD_CTX *c)
{
    unsigned char tag[SMG_MAX_BLOCK];
    int ok = 1;

    if (!c->base.enc && !c->tag_set)
        return smg_aead_tag_not_set(c);
    if (!mgm_ready(c))
        return 0;
    c->base.finalised = 1;
    if (c->base.enc) {
        mgm_tag(c, c->tag);
        c->tag_set = 1;
        return 1;
    }
    mgm_tag(c, tag);
    if (smg_aead_tag_mismatch(tag, c->tag, c->base.bs)) {
        smg_aead_fail(c, "tag mismatch");
        ok = 0;
    }
    OPENSSL_cleanse(tag, sizeof(tag));
    return ok;
}

static int mgm_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    return ctx->alg->family->set_key(ctx, key);
}

static int mgm_iv_len_ok(const SMG_CIPHER_CTX *ctx, size_t ivlen,
                         size_t *want)
{
    *want = ctx->bs;
    return ivlen == ctx->bs;
}

/* A nonce given starts a new message. */
static void mgm_take_iv(SMG_CIPHER_CTX *ctx, const unsigned char *iv,
                        size_t ivlen)
{
    SMG_AEAD_CTX *c = (SMG_AEAD_CTX *)ctx;

    if (iv == NULL)
        return;
    memcpy(c->iv, iv, ivlen);
    mgm_reset(c);
}

static size_t mgm_nonce_len(const SMG_AEAD_CTX *c)
{
    return c->base.bs;
}

static void mgm_init_ctx(SMG_AEAD_CTX *c)
{
    c->ivlen = c->base.bs;
    c->mgm = smg_prov_kernel(c->base.provctx, SMG_FAMILY_MGM);
}

/* An encryption's tag after its final, 1 to n bytes (its first ones). */
static int mgm_get_tag(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    if (!c->base.enc || !c->tag_set || !c->base.finalised) {
        SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_SET));
        return 0;
    }
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return smg_aead_get_fail(c, p);
    if (p->data_size == 0 || p->data_size > c->base.bs) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_TAG_LENGTH),
                       "%zu bytes, not 1 to %zu", p->data_size, c->base.bs);
        return 0;
    }
    return OSSL_PARAM_set_octet_string(p, c->tag, p->data_size);
}

static int mgm_get_param(SMG_AEAD_CTX *c, enum smg_aead_get_param which,
                         OSSL_PARAM *p)
{
    switch (which) {
    case SMG_AEAD_GET_TAGLEN:
        return OSSL_PARAM_set_size_t(p, c->base.bs)
               || smg_aead_get_fail(c, p);
    case SMG_AEAD_GET_IV:
    case SMG_AEAD_GET_UPDATED_IV:
        return smg_aead_get_iv(c, p, c->base.bs, c->base.bs);
    case SMG_AEAD_GET_TAG:
        return mgm_get_tag(c, p);
    default:
        return 1;
    }
}

/* A decryption's tag: the whole block, as gostprov requires. */
static int mgm_set_tag(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return smg_aead_set_fail(c, p);
    if (p->data_size != c->base.bs) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_TAG_LENGTH),
                       "%zu bytes, not the %zu of a block", p->data_size,
                       c->base.bs);
        return 0;
    }
    if (c->base.enc) {
        SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_NEEDED));
        return 0;
    }
    if (p->data == NULL)
        return smg_aead_set_fail(c, p);
    memcpy(c->tag, p->data, c->base.bs);
    c->tag_set = 1;
    return 1;
}

/* ivlen: only the block's length. */
static int mgm_set_ivlen(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n;

    if (!OSSL_PARAM_get_size_t(p, &n))
        return smg_aead_set_fail(c, p);
    if (n != c->base.bs) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "a %zu-byte nonce, not %zu", n, c->base.bs);
        return 0;
    }
    return 1;
}

static int mgm_set_param(SMG_AEAD_CTX *c, enum smg_aead_set_param which,
                         const OSSL_PARAM *p)
{
    switch (which) {
    case SMG_AEAD_SET_TAG:
        return mgm_set_tag(c, p);
    case SMG_AEAD_SET_IVLEN:
        return mgm_set_ivlen(c, p);
    case SMG_AEAD_SET_TLS_AAD:
    case SMG_AEAD_SET_TLS_IV_FIXED:
    case SMG_AEAD_SET_TLS_IV_INV:
        /* TLS 1.3's GOST suites (RFC 9367) run MGM as a plain AEAD; a TLS
         * 1.2 record asked of it must not pass as data */
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_AAD),
                       "MGM has no TLS 1.2 records");
        return 0;
    default:
        return 1;
    }
}

static const OSSL_PARAM mgm_gettable[] = {
    SMG_AEAD_GETTABLE_CTX,
    OSSL_PARAM_END
};

static const OSSL_PARAM mgm_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};

const SMG_AEAD_MODE smg_aead_mgm = {
    /* OpenSSL has no MGM mode number; gostprov reports a stream mode */
    .evp_mode = EVP_CIPH_STREAM_CIPHER,
    .aead = 1,
    .key_parts = 1,
    .gettable = mgm_gettable,
    .settable = mgm_settable,
    .init_ctx = mgm_init_ctx,
    .init = { .iv_len_ok = mgm_iv_len_ok, .take_iv = mgm_take_iv,
              .key_len = smg_aead_key_len, .set_key = mgm_set_key,
              .set_ctx_params = smg_aead_set_ctx_params },
    .iv_len = mgm_nonce_len,
    .update = mgm_update,
    .final = mgm_final,
    .get_param = mgm_get_param,
    .set_param = mgm_set_param,
};
