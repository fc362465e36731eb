/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GCM (NIST SP 800-38D; TLS records RFC 5288) over the AEAD layer's shared
 * part (src/aead.h): the IV and its state through a message, GHASH over
 * the AAD and the ciphertext, E(J0) riding in the data's first CTR call,
 * the TLS IV fields, and the composition of the kernel's GCM entries.  GCM
 * is a 128-bit-block mode (its GHASH is GF(2^128)'s).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include "aead.h"
#include "byteorder.h"
#include "err.h"

#define BS 16
/* At most 2^36 - 32 bytes of data and 2^61 - 1 of AAD (SP 800-38D). */
#define GCM_MAX_DATA (((uint64_t)1 << 36) - 32)
#define GCM_MAX_AAD (((uint64_t)1 << 61) - 1)
#define TLS_GCM_TAG_LEN 16          /* EVP_GCM_TLS_TAG_LEN */
/* Whole or partial data blocks that share the CTR call of E(J0). */
#define GCM_SHORT 3

/* Param names OpenSSL 3.0's headers lack (3.1's core_names.h has them). */
#ifndef OSSL_CIPHER_PARAM_AEAD_IV_GENERATED
# define OSSL_CIPHER_PARAM_AEAD_IV_GENERATED "iv-generated"
#endif

static void *aead_htable(SMG_AEAD_CTX *c)
{
    uintptr_t p = (uintptr_t)c->htable_space;

    return c->htable_space + ((64 - (p & 63)) & 63);
}

static void ctr32_add(unsigned char ctr[16], uint32_t n)
{
    uint32_t v = ((uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16
                  | (uint32_t)ctr[14] << 8 | ctr[15]) + n;

    ctr[12] = (unsigned char)(v >> 24);
    ctr[13] = (unsigned char)(v >> 16);
    ctr[14] = (unsigned char)(v >> 8);
    ctr[15] = (unsigned char)v;
}

/*
 * A narrower counter from the block table's 128-bit one: the first `fixed`
 * bytes never change (GCM: 12, kernel.h's CCM entries: 8).  Each call stops
 * where the counter part wraps, and the carry the 128-bit counter took
 * into the fixed bytes is undone.  Where the split falls depends on the
 * counter, which is public (it comes from the IV or nonce; GCM's J0 is
 * GHASH-derived only for IVs other than 12 bytes, which never wrap).
 */
static void ctr_narrow(const SMG_BLOCK_KERNEL *k, const void *ks,
                       const unsigned char *in, unsigned char *out, size_t n,
                       unsigned char ctr[16], size_t fixed)
{
    unsigned char keep[12];
    uint64_t low, room;
    size_t i, step;

    memcpy(keep, ctr, fixed);
    while (n > 0) {
        for (low = 0, i = fixed; i < 16; i++)
            low = low << 8 | ctr[i];
        /* blocks to the wrap; 0 stands for 2^64, more than any call */
        room = fixed == 12 ? ((uint64_t)1 << 32) - low : 0 - low;
        step = room == 0 || (uint64_t)n < room ? n : (size_t)room;
        k->ctr(ks, in, out, step, ctr);
        memcpy(ctr, keep, fixed);
        in += step * BS;
        out += step * BS;
        n -= step;
    }
}

void smg_gcm_composed(const SMG_BLOCK_KERNEL *k, const SMG_GCM_KERNEL *gcm,
                      int enc, const void *ks, const void *htable,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char ctr[16], unsigned char xi[16])
{
    /* Decryption hashes the ciphertext before an in-place pass replaces it. */
    if (!enc)
        gcm->ghash(htable, xi, in, n);
    ctr_narrow(k, ks, in, out, n, ctr, 12);
    if (enc)
        gcm->ghash(htable, xi, out, n);
}

/* n whole blocks through the fused entry or composed. */
static void gcm_blocks(SMG_AEAD_CTX *c, const unsigned char *in,
                       unsigned char *out, size_t n)
{
    smg_gcm_fn fused = c->base.enc ? c->gcm->enc : c->gcm->dec;

    if (n == 0)
        return;
    if (fused != NULL)
        fused(c->base.ks_enc, aead_htable(c), in, out, n, c->ctr, c->xi);
    else
        smg_gcm_composed(c->base.kernel, c->gcm, c->base.enc, c->base.ks_enc,
                         aead_htable(c), in, out, n, c->ctr, c->xi);
}

static void encrypt_block(SMG_AEAD_CTX *c, const unsigned char *in,
                          unsigned char *out)
{
    c->base.kernel->ecb(c->base.ks_enc, in, out, 1);
}

static void ghash_padded(SMG_AEAD_CTX *c, const unsigned char *p, size_t n)
{
    unsigned char last[BS] = { 0 };

    c->gcm->ghash(aead_htable(c), c->xi, p, n / BS);
    if (n % BS != 0) {
        memcpy(last, p + n - n % BS, n % BS);
        c->gcm->ghash(aead_htable(c), c->xi, last, 1);
    }
}

/*
 * Starts a message with the IV given (SP 800-38D, 7.1 steps 2 and 3).  ks
 * holds keystream only while a partial data block is open (mres != 0): it
 * is cleansed when that block closes, at the tag, or here if a message was
 * left open, not once per message.
 */
static void gcm_start(SMG_AEAD_CTX *c)
{
    if (c->mres != 0)
        OPENSSL_cleanse(c->ks, sizeof(c->ks));
    memset(c->xi, 0, BS);
    if (c->ivlen == 12) {
        memcpy(c->j0, c->iv, 12);
        memset(c->j0 + 12, 0, 3);
        c->j0[15] = 1;
    } else {
        unsigned char lens[BS] = { 0 };

        ghash_padded(c, c->iv, c->ivlen);
        store_be64(lens + 8, (uint64_t)c->ivlen * 8);
        c->gcm->ghash(aead_htable(c), c->xi, lens, 1);
        memcpy(c->j0, c->xi, BS);
        memset(c->xi, 0, BS);
    }
    /* E(J0) waits for the data or the tag (gcm_short). */
    c->ek0_ready = 0;
    memcpy(c->ctr, c->j0, BS);
    ctr32_add(c->ctr, 1);
    c->ares = c->mres = 0;
    c->aad_len = c->data_len = 0;
}

static int gcm_aad(SMG_AEAD_CTX *c, const unsigned char *in, size_t len)
{
    size_t take;

    if (c->data_len != 0) {
        smg_aead_fail(c, "aad after data");
        return 0;
    }
    if (len > GCM_MAX_AAD - c->aad_len) {
        smg_aead_fail(c, "length too large: GCM AAD over 2^61 - 1 bytes");
        return 0;
    }
    c->aad_len += len;
    if (c->ares != 0) {
        take = len < BS - c->ares ? len : BS - c->ares;
        memcpy(c->part + c->ares, in, take);
        c->ares += take;
        in += take;
        len -= take;
        if (c->ares < BS)
            return 1;
        c->gcm->ghash(aead_htable(c), c->xi, c->part, 1);
        c->ares = 0;
    }
    c->gcm->ghash(aead_htable(c), c->xi, in, len / BS);
    memcpy(c->part, in + len - len % BS, len % BS);
    c->ares = len % BS;
    return 1;
}

/* The AAD's partial last block, zero-padded, before the data or the tag. */
static void gcm_close_aad(SMG_AEAD_CTX *c)
{
    if (c->ares != 0) {
        memset(c->part + c->ares, 0, BS - c->ares);
        c->gcm->ghash(aead_htable(c), c->xi, c->part, 1);
        c->ares = 0;
    }
}

/* E(J0), the tag's mask, unless a short message's CTR call made it. */
static void gcm_ek0(SMG_AEAD_CTX *c)
{
    if (!c->ek0_ready) {
        encrypt_block(c, c->j0, c->ek0);
        c->ek0_ready = 1;
    }
}

/*
 * A message's first whole blocks with E(J0) in the same call, through the
 * table's J0 entry (kernel.h); 0 if it has none.
 */
static int gcm_first_blocks(SMG_AEAD_CTX *c, const unsigned char *in,
                            unsigned char *out, size_t n)
{
    smg_gcm_j0_fn j0 = c->base.enc ? c->gcm->enc_j0 : c->gcm->dec_j0;

    if (c->ek0_ready || j0 == NULL)
        return 0;
    memcpy(c->ctr, c->j0, BS);
    j0(c->base.ks_enc, aead_htable(c), in, out, n, c->ctr, c->xi, c->ek0);
    c->ek0_ready = 1;
    return 1;
}

/*
 * A message's first data when it is short: E(J0), the whole blocks' and the
 * partial block's keystream in one CTR call from J0 (a block core takes as
 * long for one block as for GCM_SHORT + 1), then GHASH over the whole
 * blocks.  The partial block's keystream is left in ks.
 */
static void gcm_short(SMG_AEAD_CTX *c, const unsigned char *in,
                      unsigned char *out, size_t len)
{
    unsigned char buf[GCM_SHORT + 1][BS];
    size_t n = len / BS, nb = 1 + n + (len % BS != 0);

    memset(buf[0], 0, BS);
    memcpy(buf[1], in, n * BS);
    if (len % BS != 0)
        memset(buf[1 + n], 0, BS);
    memcpy(c->ctr, c->j0, BS);
    ctr_narrow(c->base.kernel, c->base.ks_enc, buf[0], buf[0], nb, c->ctr,
               12);
    memcpy(c->ek0, buf[0], BS);
    c->ek0_ready = 1;
    /* Decryption hashes the ciphertext before an in-place copy replaces
     * it. */
    if (!c->base.enc)
        c->gcm->ghash(aead_htable(c), c->xi, in, n);
    memcpy(out, buf[1], n * BS);
    if (c->base.enc)
        c->gcm->ghash(aead_htable(c), c->xi, out, n);
    if (len % BS != 0)
        memcpy(c->ks, buf[1 + n], BS);
    OPENSSL_cleanse(buf, nb * BS);
}

static int gcm_data(SMG_AEAD_CTX *c, const unsigned char *in,
                    unsigned char *out, size_t len)
{
    size_t n;

    if (len > GCM_MAX_DATA - c->data_len) {
        smg_aead_fail(c, "length too large: GCM data over 2^36 - 32 bytes");
        return 0;
    }
    gcm_close_aad(c);
    c->data_len += len;
    /* The partial block left by the last update: part collects its
     * ciphertext for GHASH. */
    for (; c->mres != 0 && len > 0; len--) {
        unsigned char x = *in++, y = x ^ c->ks[c->mres];

        *out++ = y;
        c->part[c->mres++] = c->base.enc ? y : x;
        if (c->mres == BS) {
            c->gcm->ghash(aead_htable(c), c->xi, c->part, 1);
            c->mres = 0;
            OPENSSL_cleanse(c->ks, sizeof(c->ks));
        }
    }
    n = len / BS;
    if (!c->ek0_ready && len <= GCM_SHORT * BS) {
        gcm_short(c, in, out, len);
    } else {
        if (!gcm_first_blocks(c, in, out, n)) {
            gcm_ek0(c);
            gcm_blocks(c, in, out, n);
        }
        if (len % BS != 0) {
            encrypt_block(c, c->ctr, c->ks);
            ctr32_add(c->ctr, 1);
        }
    }
    in += n * BS;
    out += n * BS;
    len -= n * BS;
    if (len > 0) {
        for (; len > 0; len--) {
            unsigned char x = *in++, y = x ^ c->ks[c->mres];

            *out++ = y;
            c->part[c->mres++] = c->base.enc ? y : x;
        }
    }
    return 1;
}

/* The full tag into tag (SP 800-38D, 7.1 steps 5 and 6). */
static void gcm_tag(SMG_AEAD_CTX *c, unsigned char tag[16])
{
    unsigned char lens[BS];

    gcm_close_aad(c);
    if (c->mres != 0) {
        memset(c->part + c->mres, 0, BS - c->mres);
        c->gcm->ghash(aead_htable(c), c->xi, c->part, 1);
        c->mres = 0;
        OPENSSL_cleanse(c->ks, sizeof(c->ks));
    }
    store_be64(lens, c->aad_len * 8);
    store_be64(lens + 8, c->data_len * 8);
    c->gcm->ghash(aead_htable(c), c->xi, lens, 1);
    gcm_ek0(c);
    smg_xor_block(tag, c->xi, c->ek0, BS);
}

/*
 * GCM's IV before the first byte of a message: the one given, or on
 * encryption without one a random IV of at least 12 bytes (SP 800-38D,
 * 8.2.2), as OpenSSL generates it.
 */
static int gcm_ready(SMG_AEAD_CTX *c)
{
    if (c->iv_state == SMG_IV_FINISHED) {
        smg_aead_fail(c, "iv not set: the message is finished: init with "
                      "a new IV");
        return 0;
    }
    if (c->iv_state == SMG_IV_UNSET) {
        if (!c->base.enc) {
            smg_aead_fail(c, "iv not set");
            return 0;
        }
        if (c->ivlen < 12 || RAND_bytes(c->iv, (int)c->ivlen) <= 0) {
            smg_aead_fail(c, "iv generation failed: for a %zu-byte IV",
                          c->ivlen);
            return 0;
        }
        c->iv_gen_rand = 1;
        c->iv_state = SMG_IV_BUFFERED;
    }
    if (c->iv_state == SMG_IV_BUFFERED) {
        gcm_start(c);
        c->iv_state = SMG_IV_COPIED;
    }
    return 1;
}

/* Before a key, the tag is unset (taglen SIZE_MAX). */
static void gcm_init_ctx(SMG_AEAD_CTX *c)
{
    c->taglen = SIZE_MAX;
}

/*
 * The table keeps its 64-byte alignment, wherever the copy landed, and the
 * space around it stays zero (gcm_set_key rewrites the table alone).
 */
static void gcm_dup(SMG_AEAD_CTX *d, const SMG_AEAD_CTX *c)
{
    unsigned char *t = aead_htable(d);
    size_t before = (size_t)(t - d->htable_space);

    memmove(t, (const unsigned char *)d
            + ((unsigned char *)aead_htable((SMG_AEAD_CTX *)c)
               - (const unsigned char *)c),
            SMG_GHASH_TABLE_SIZE);
    OPENSSL_cleanse(d->htable_space, before);
    OPENSSL_cleanse(t + SMG_GHASH_TABLE_SIZE,
                    sizeof(d->htable_space) - before - SMG_GHASH_TABLE_SIZE);
}

/* The schedule with E_K(0^128) beside it, and the GHASH table from that. */
static int gcm_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    SMG_AEAD_CTX *c = (SMG_AEAD_CTX *)ctx;
    unsigned char h[BS] = { 0 };

    if (!((const SMG_AEAD_ALG *)c->base.alg)->gcm_set_key(&c->base, key, h))
        return 0;
    if (c->gcm != NULL && c->gcm != c->base.kernel->gcm)
        OPENSSL_cleanse(c->htable_space, sizeof(c->htable_space));
    c->gcm = c->base.kernel->gcm;
    c->gcm->ghash_init(aead_htable(c), h);
    OPENSSL_cleanse(h, sizeof(h));
    /* A message begun under the old key starts again under this one. */
    if (c->iv_state == SMG_IV_COPIED)
        c->iv_state = SMG_IV_BUFFERED;
    c->tls_enc_records = 0;
    return 1;
}

static size_t gcm_iv_len(const SMG_AEAD_CTX *c)
{
    return c->ivlen;
}

static int gcm_iv_len_ok(const SMG_CIPHER_CTX *ctx, size_t ivlen,
                         size_t *want)
{
    (void)ctx;
    *want = 0;
    return ivlen != 0 && ivlen <= SMG_GCM_IV_MAX;
}

static void gcm_take_iv(SMG_CIPHER_CTX *ctx, const unsigned char *iv,
                        size_t ivlen)
{
    SMG_AEAD_CTX *c = (SMG_AEAD_CTX *)ctx;

    if (iv == NULL)
        return;
    memcpy(c->iv, iv, ivlen);
    c->ivlen = ivlen;
    c->iv_gen_rand = 0;
    c->iv_state = SMG_IV_BUFFERED;
}

static int gcm_update(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                      const unsigned char *in, size_t inl)
{
    if (inl == 0)
        return 1;
    if (!gcm_ready(c))
        return 0;
    if (out == NULL ? !gcm_aad(c, in, inl) : !gcm_data(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int gcm_final(SMG_AEAD_CTX *c)
{
    unsigned char tag[BS];
    int ok = 1;

    if (!c->base.enc && c->taglen == SIZE_MAX)
        return smg_aead_tag_not_set(c);
    if (!gcm_ready(c))
        return 0;
    c->iv_state = SMG_IV_FINISHED;
    /* An encryption's tag is the one the tag get answers with. */
    if (c->base.enc) {
        gcm_tag(c, c->tag);
        c->taglen = BS;
        return 1;
    }
    gcm_tag(c, tag);
    if (smg_aead_tag_mismatch(tag, c->tag, c->taglen)) {
        smg_aead_fail(c, "tag mismatch");
        ok = 0;
    }
    OPENSSL_cleanse(tag, sizeof(tag));
    return ok;
}

static size_t gcm_tls_tag_len(const SMG_AEAD_CTX *c)
{
    (void)c;
    return TLS_GCM_TAG_LEN;
}

/* The invocation field, the IV's last eight bytes, counted on (RFC 5288,
 * 3). */
static void next_invocation(SMG_AEAD_CTX *c)
{
    unsigned char *q = c->iv + c->ivlen - 8;
    int i;

    for (i = 7; i >= 0 && ++q[i] == 0; i--)
        continue;
}

/* RFC 5288: the explicit IV is the invocation field. */
static int gcm_tls_record(SMG_AEAD_CTX *c, const unsigned char *in,
                          unsigned char *out, size_t len, unsigned char *tag)
{
    if (c->base.enc && ++c->tls_enc_records == 0) {
        /* raised where it happens, as gcm_tls_cipher does */
        SMG_RAISE(c->base.provctx, SMG_PROV(TOO_MANY_RECORDS));
        return smg_aead_fail(c, "too many records");
    }
    if (!c->iv_gen)
        return smg_aead_fail(c, "tls iv not configured");
    if (c->base.enc)
        memcpy(out, c->iv + c->ivlen - SMG_AEAD_TLS_EXPLICIT_IV_LEN,
               SMG_AEAD_TLS_EXPLICIT_IV_LEN);
    else
        memcpy(c->iv + c->ivlen - SMG_AEAD_TLS_EXPLICIT_IV_LEN, in,
               SMG_AEAD_TLS_EXPLICIT_IV_LEN);
    gcm_start(c);
    if (c->base.enc)
        next_invocation(c);
    if (!gcm_aad(c, c->tls_aad, c->tls_aad_len)
        || !gcm_data(c, in + SMG_AEAD_TLS_EXPLICIT_IV_LEN,
                     out + SMG_AEAD_TLS_EXPLICIT_IV_LEN, len))
        return 0;
    gcm_tag(c, tag);
    return 1;
}

/* A record spends its IV, whether it failed or not. */
static void gcm_tls_end(SMG_AEAD_CTX *c)
{
    c->iv_state = SMG_IV_FINISHED;
}

/* The tag, with the reasons of ossl_gcm_get_ctx_params (one for every
 * refusal). */
static int gcm_get_tag(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    if (p->data_size == 0 || p->data_size > BS || !c->base.enc
        || c->taglen == SIZE_MAX) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_TAG),
                       "%zu bytes%s", p->data_size,
                       c->base.enc && c->taglen != SIZE_MAX ? ""
                       : ", no tag made");
        return 0;
    }
    return OSSL_PARAM_set_octet_string(p, c->tag, p->data_size)
           || smg_aead_get_fail(c, p);
}

/*
 * tlsivgen: the invocation field of the IV for the next record, which is
 * then counted on.
 */
static int gcm_get_tls_iv_gen(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    size_t n = p->data_size;

    /* Refused with nothing queued, as ossl_gcm_get_ctx_params does. */
    if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING
        || !c->iv_gen || !c->base.key_set)
        return 0;
    if (n == 0 || n > c->ivlen)
        n = c->ivlen;
    gcm_start(c);
    memcpy(p->data, c->iv + c->ivlen - n, n);
    p->return_size = n;
    next_invocation(c);
    c->iv_state = SMG_IV_COPIED;
    return 1;
}

static int gcm_get_param(SMG_AEAD_CTX *c, enum smg_aead_get_param which,
                         OSSL_PARAM *p)
{
    switch (which) {
    case SMG_AEAD_GET_TAGLEN:
        return OSSL_PARAM_set_size_t(p, c->taglen != SIZE_MAX ? c->taglen
                                                              : BS)
               || smg_aead_get_fail(c, p);
    case SMG_AEAD_GET_IV:
    case SMG_AEAD_GET_UPDATED_IV:
        /* The IV once there is one, as OpenSSL gives it (before, it fails
         * with nothing queued, as ossl_gcm_get_ctx_params does). */
        if (c->iv_state == SMG_IV_UNSET)
            return 0;
        return smg_aead_get_iv(c, p, c->ivlen, c->ivlen);
    case SMG_AEAD_GET_TAG:
        return gcm_get_tag(c, p);
    case SMG_AEAD_GET_TLS_IV_GEN:
        return gcm_get_tls_iv_gen(c, p);
    case SMG_AEAD_GET_IV_GENERATED:
        return OSSL_PARAM_set_uint(p, c->iv_gen_rand)
               || smg_aead_get_fail(c, p);
    default:
        return 1;
    }
}

static int gcm_set_tag(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    /* As ossl_gcm_set_ctx_params reads it: libcrypto's own error (3.2 and
     * later) for a tag too long, then this one. */
    unsigned char tag[BS];
    void *v = tag;
    size_t n = p->data_size;

    if (p->data == NULL
        || !OSSL_PARAM_get_octet_string(p, &v, sizeof(tag), &n))
        return smg_aead_set_fail(c, p);
    if (n == 0 || c->base.enc) {
        OPENSSL_cleanse(tag, sizeof(tag));
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_TAG), "%s",
                       n == 0 ? "an empty tag"
                       : "no tag is taken when encrypting");
        return 0;
    }
    memcpy(c->tag, tag, n);
    OPENSSL_cleanse(tag, sizeof(tag));
    c->taglen = n;
    return 1;
}

static int gcm_set_ivlen(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n;

    if (!OSSL_PARAM_get_size_t(p, &n))
        return smg_aead_set_fail(c, p);
    if (n == 0 || n > SMG_GCM_IV_MAX) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "%zu bytes, not 1 to %d", n, SMG_GCM_IV_MAX);
        return 0;
    }
    if (n != c->ivlen) {
        /* An IV of the old length is no IV of the new one. */
        if (c->iv_state != SMG_IV_UNSET)
            c->iv_state = SMG_IV_FINISHED;
        c->ivlen = n;
    }
    return 1;
}

/*
 * tlsivfixed: the fixed part of the IV, 4 bytes or more, leaving at least
 * 8 for the invocation field, which an encryption draws at random; a
 * length of (size_t)-1 restores the whole IV.
 */
static int gcm_set_tls_iv_fixed(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n = p->data_size;

    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        return smg_aead_set_fail(c, p);
    if (n == SIZE_MAX) {
        memcpy(c->iv, p->data, c->ivlen);
    } else {
        if (n < SMG_AEAD_TLS_FIXED_IV_LEN || n > c->ivlen
            || c->ivlen - n < SMG_AEAD_TLS_EXPLICIT_IV_LEN) {
            /* ossl_gcm_set_ctx_params's reason, unlike CCM's */
            SMG_RAISE_DATA(c->base.provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "a fixed field of %zu bytes in a %zu-byte IV", n,
                           c->ivlen);
            return 0;
        }
        memcpy(c->iv, p->data, n);
        if (c->base.enc) {
            if (RAND_bytes(c->iv + n, (int)(c->ivlen - n)) <= 0) {
                SMG_RAISE_DATA(c->base.provctx,
                               SMG_PROV(FAILED_TO_GET_PARAMETER),
                               "iv generation failed");
                return 0;
            }
            c->iv_gen_rand = 1;
        }
    }
    c->iv_gen = 1;
    c->iv_state = SMG_IV_BUFFERED;
    return 1;
}

/* tlsivinv (decrypting): the invocation field the peer sent. */
static int gcm_set_tls_iv_inv(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        return smg_aead_set_fail(c, p);
    /* Refused with nothing queued, as ossl_gcm_set_ctx_params does. */
    if (!c->iv_gen || !c->base.key_set || c->base.enc
        || p->data_size > c->ivlen)
        return 0;
    memcpy(c->iv + c->ivlen - p->data_size, p->data, p->data_size);
    gcm_start(c);
    c->iv_state = SMG_IV_COPIED;
    return 1;
}

static int gcm_set_param(SMG_AEAD_CTX *c, enum smg_aead_set_param which,
                         const OSSL_PARAM *p)
{
    switch (which) {
    case SMG_AEAD_SET_TAG:
        return gcm_set_tag(c, p);
    case SMG_AEAD_SET_IVLEN:
        return gcm_set_ivlen(c, p);
    case SMG_AEAD_SET_TLS_IV_FIXED:
        return gcm_set_tls_iv_fixed(c, p);
    case SMG_AEAD_SET_TLS_IV_INV:
        return gcm_set_tls_iv_inv(c, p);
    default:
        return 1;
    }
}

const SMG_AEAD_MODE smg_aead_gcm = {
    .evp_mode = EVP_CIPH_GCM_MODE,
    .aead = 1,
    .key_parts = 1,
    .gettable = smg_aead_gettable,
    .settable = smg_aead_settable,
    .init_ctx = gcm_init_ctx,
    .dup = gcm_dup,
    .init = { .iv_len_ok = gcm_iv_len_ok, .take_iv = gcm_take_iv,
              .key_len = smg_aead_key_len, .set_key = gcm_set_key,
              .set_ctx_params = smg_aead_set_ctx_params },
    .iv_len = gcm_iv_len,
    .update = gcm_update,
    .final = gcm_final,
    .tls_tag_len = gcm_tls_tag_len,
    .tls_aad_reason = SMG_PROV(INVALID_AAD),
    .tls_record = gcm_tls_record,
    .tls_end = gcm_tls_end,
    .get_param = gcm_get_param,
    .set_param = gcm_set_param,
};
