/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4's authenticated and disk modes (see aead.h): GCM (NIST SP 800-38D),
 * CCM (NIST SP 800-38C, RFC 3610) and XTS (IEEE 1619-2018, GB/T
 * 17964-2021), with the behaviour of OpenSSL 3.5's default provider.
 *
 * The file has four parts: the composed kernel entries (what a table leaves
 * NULL, built from its ecb, cbc_enc, ctr and ghash); the GCM and CCM
 * message engines; the one AEAD part (init, update, final, tags, TLS
 * records, params) over both; and XTS.
 *
 * Where OpenSSL's behaviour is an accident of its state machine this layer
 * refuses instead (the update's error, its data saying why; see fail()): a
 * second CCM AAD update (OpenSSL lets the last one win), CCM AAD after the
 * data, a CCM message length the nonce's L bytes cannot hold (OpenSSL
 * truncates it and fails later).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include "aead.h"
#include "byteorder.h"
#include "ctgrind.h"
#include "err.h"

#define BS 16
/* XTS: at most 2^20 blocks per data unit (IEEE 1619-2018, 5.1). */
#define XTS_MAX_UNIT ((size_t)1 << 24)
/* GCM: at most 2^36 - 32 bytes of data and 2^61 - 1 of AAD (SP 800-38D). */
#define GCM_MAX_DATA (((uint64_t)1 << 36) - 32)
#define GCM_MAX_AAD (((uint64_t)1 << 61) - 1)
#define TLS_EXPLICIT_IV_LEN 8       /* EVP_GCM_TLS_EXPLICIT_IV_LEN */
#define TLS_FIXED_IV_LEN 4          /* EVP_GCM_TLS_FIXED_IV_LEN */
#define TLS_GCM_TAG_LEN 16          /* EVP_GCM_TLS_TAG_LEN */
/* Blocks a composed entry handles per step: its scratch stays on the stack. */
#define CHUNK 32
/* GCM: whole or partial data blocks that share the CTR call of E(J0). */
#define GCM_SHORT 3
/* XTS: calls of at most this many blocks take a table's lone-block ECB. */
#define XTS_LONE 4

/* Param names OpenSSL 3.0's headers lack (3.1's core_names.h has them). */
#ifndef OSSL_CIPHER_PARAM_AEAD_IV_GENERATED
# define OSSL_CIPHER_PARAM_AEAD_IV_GENERATED "iv-generated"
#endif
#ifndef OSSL_CIPHER_PARAM_XTS_STANDARD
# define OSSL_CIPHER_PARAM_XTS_STANDARD "xts_standard"
#endif

enum { IV_UNSET, IV_BUFFERED, IV_COPIED, IV_FINISHED };

/*
 * A failure of a message: no key, no IV, AAD out of order, a tag that
 * differs, a data unit of the wrong length, ...  The default provider
 * raises nothing for these where they happen: its update raises
 * PROV_R_CIPHER_OPERATION_FAILED for any of them, its final and its
 * one-shot cipher raise nothing (ossl_gcm_stream_update/_final/_cipher in
 * providers/implementations/ciphers/ciphercommon_gcm.c, the same in
 * ciphercommon_ccm.c, and the XTS ones of cipher_aes_xts.c and OpenSSL
 * 3.5's cipher_sm4_xts.c), so that a GCM tag mismatch leaves an empty
 * queue.  fail() keeps the reason in the context; smg_aead_update raises
 * that one error with the reason as its data, and the others drop it.
 * Returns 0.
 */
static int fail(SMG_AEAD_CTX *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(SMG_AEAD_CTX *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->why, sizeof(c->why), fmt, ap);
    va_end(ap);
    return 0;
}

/*
 * A decryption without the tag to verify (GCM's final, CCM's data): the
 * default provider of OpenSSL 4.0 raises PROV_R_TAG_NOT_SET there, before
 * its update's error, where 3.x raised nothing (test/err_compare.c on
 * 4.0.3 and 3.6.5).  Returns 0.
 */
static int tag_not_set(SMG_AEAD_CTX *c)
{
    if (OPENSSL_version_major() >= 4)
        SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_SET));
    return fail(c, "tag not set");
}

/*
 * Whether two tags differ, in constant time: that verdict, which the caller
 * learns anyway, is all that leaves the comparison (test/95-ct-modes.t).
 */
static int tag_mismatch(const unsigned char *a, const unsigned char *b,
                        size_t n)
{
    int bad = CRYPTO_memcmp(a, b, n) != 0;

    CT_PUBLIC(&bad, sizeof(bad));
    return bad;
}

static int is_mode(const SMG_AEAD_CTX *c, smg_mode m)
{
    return c->base.alg->mode == m;
}

static void xor_block(unsigned char *d, const unsigned char *a,
                      const unsigned char *b)
{
    int i;

    for (i = 0; i < BS; i++)
        d[i] = a[i] ^ b[i];
}

static void *aead_htable(SMG_AEAD_CTX *c)
{
    uintptr_t p = (uintptr_t)c->htable_space;

    return c->htable_space + ((64 - (p & 63)) & 63);
}

/* ------------------------------------------------ composed kernel entries */

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

void smg_gcm_composed(const SMG_BLOCK_KERNEL *k, const SMG_AEAD_KERNEL *ak,
                      int enc, const void *ks, const void *htable,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char ctr[16], unsigned char xi[16])
{
    /* Decryption hashes the ciphertext before an in-place pass replaces it. */
    if (!enc)
        ak->ghash(htable, xi, in, n);
    ctr_narrow(k, ks, in, out, n, ctr, 12);
    if (enc)
        ak->ghash(htable, xi, out, n);
}

/*
 * CCM's CBC-MAC with its next input pending (kernel.h's smg_ccm_fn): x is
 * the chain value XORed with the last block taken in.  Taking in n more
 * blocks is n encryptions, of x and then of the chain over all but the
 * last: one cbc_enc call from a zero IV over x (put into buf[0]) and the
 * n - 1 blocks the caller put into buf[1..], and the last block XORed into
 * its last output.  The caller cleanses buf.
 */
static void ccm_chain(const SMG_BLOCK_KERNEL *k, const void *ks,
                      unsigned char x[16], unsigned char (*buf)[BS], size_t n,
                      const unsigned char last[16])
{
    unsigned char iv[BS] = { 0 };

    memcpy(buf[0], x, BS);
    k->cbc_enc(ks, buf[0], buf[0], n, iv);
    xor_block(x, buf[n - 1], last);
    OPENSSL_cleanse(iv, BS);
}

/*
 * CCM as kernel.h has it, a block at a time: E(mac) and E(ctr) from one
 * two-block ECB call, through the table's lone-block ECB where it has one
 * (a block core takes as long for two blocks as for one; the C kernel runs
 * them in its two-way rounds).  The counter stays in its last eight bytes
 * (a message never reaches that wrap: ccm_start keeps the count inside
 * the L-byte counter).
 */
void smg_ccm_composed(const SMG_BLOCK_KERNEL *k, int enc, const void *ks,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char ctr[16], unsigned char mac[16])
{
    smg_ecb_fn ecb = k->ecb_lone != NULL ? k->ecb_lone : k->ecb;
    unsigned char b[2][BS];
    size_t i;

    if (n == 0)
        return;
    memcpy(b[0], mac, BS);
    for (i = 0; i < n; i++, in += BS, out += BS) {
        memcpy(b[1], ctr, BS);
        ecb(ks, b[0], b[0], 2);
        store_be64(ctr + 8, load_be64(ctr + 8) + 1);
        /* the plaintext into the MAC's next input before an in-place
         * output replaces it */
        if (enc)
            xor_block(b[0], b[0], in);
        xor_block(out, in, b[1]);
        if (!enc)
            xor_block(b[0], b[0], out);
    }
    memcpy(mac, b[0], BS);
    OPENSSL_cleanse(b, sizeof(b));
}

/*
 * T * x: IEEE 1619 takes the block as a little-endian integer (reduction
 * 0x87 into byte 0); GB/T 17964-2021, as OpenSSL's xts_standard=GB does, in
 * GCM's reflected order (shift towards byte 15, 0xe1 into byte 0).
 */
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

/* XTS: the tweaks of a chunk of blocks, then ecb over it. */
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
            xor_block(out + i * BS, in + i * BS, tw[i]);
        }
        ecb(ks, out, out, step);
        for (i = 0; i < step; i++)
            xor_block(out + i * BS, out + i * BS, tw[i]);
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

/* n whole blocks of each mode, through the fused entry or composed. */
static void gcm_blocks(SMG_AEAD_CTX *c, const unsigned char *in,
                       unsigned char *out, size_t n)
{
    smg_gcm_fn fused = c->base.enc ? c->ak->gcm_enc : c->ak->gcm_dec;

    if (n == 0)
        return;
    if (fused != NULL)
        fused(c->base.ks_enc, aead_htable(c), in, out, n, c->ctr, c->xi);
    else
        smg_gcm_composed(c->base.kernel, c->ak, c->base.enc, c->base.ks_enc,
                         aead_htable(c), in, out, n, c->ctr, c->xi);
}

static void ccm_blocks(SMG_AEAD_CTX *c, int enc, const unsigned char *in,
                       unsigned char *out, size_t n)
{
    smg_ccm_fn fused = enc ? c->ak->ccm_enc : c->ak->ccm_dec;

    if (n == 0)
        return;
    if (fused != NULL)
        fused(c->base.ks_enc, in, out, n, c->ctr, c->mac);
    else
        smg_ccm_composed(c->base.kernel, enc, c->base.ks_enc, in, out, n,
                         c->ctr, c->mac);
}

static void xts_blocks(SMG_AEAD_CTX *c, const unsigned char *in,
                       unsigned char *out, size_t n, unsigned char t[16])
{
    const SMG_AEAD_KERNEL *ak = c->ak;
    const void *ks = c->base.enc ? c->base.ks_enc : c->base.ks_dec;
    smg_xts_fn fused = c->xts_ieee
        ? (c->base.enc ? ak->xts_enc_ieee : ak->xts_dec_ieee)
        : (c->base.enc ? ak->xts_enc_gb : ak->xts_dec_gb);

    if (n == 0)
        return;
    /* A few blocks go through the table's lone-block ECB where it has one. */
    if (n <= XTS_LONE && c->base.kernel->ecb_lone != NULL)
        xts_over_ecb(c->base.kernel->ecb_lone, c->xts_ieee, ks, in, out, n,
                     t);
    else if (fused != NULL)
        fused(ks, in, out, n, t);
    else
        smg_xts_composed(c->base.kernel, c->xts_ieee, ks, in, out, n, t);
}

static void encrypt_block(SMG_AEAD_CTX *c, const unsigned char *in,
                          unsigned char *out)
{
    c->base.kernel->ecb(c->base.ks_enc, in, out, 1);
}

/* ------------------------------------------------------------------ GCM */

static void ghash_padded(SMG_AEAD_CTX *c, const unsigned char *p, size_t n)
{
    unsigned char last[BS] = { 0 };

    c->ak->ghash(aead_htable(c), c->xi, p, n / BS);
    if (n % BS != 0) {
        memcpy(last, p + n - n % BS, n % BS);
        c->ak->ghash(aead_htable(c), c->xi, last, 1);
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
        c->ak->ghash(aead_htable(c), c->xi, lens, 1);
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
        fail(c, "aad after data");
        return 0;
    }
    if (len > GCM_MAX_AAD - c->aad_len) {
        fail(c, "length too large: GCM AAD over 2^61 - 1 bytes");
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
        c->ak->ghash(aead_htable(c), c->xi, c->part, 1);
        c->ares = 0;
    }
    c->ak->ghash(aead_htable(c), c->xi, in, len / BS);
    memcpy(c->part, in + len - len % BS, len % BS);
    c->ares = len % BS;
    return 1;
}

/* The AAD's partial last block, zero-padded, before the data or the tag. */
static void gcm_close_aad(SMG_AEAD_CTX *c)
{
    if (c->ares != 0) {
        memset(c->part + c->ares, 0, BS - c->ares);
        c->ak->ghash(aead_htable(c), c->xi, c->part, 1);
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
    smg_gcm_j0_fn j0 = c->base.enc ? c->ak->gcm_enc_j0 : c->ak->gcm_dec_j0;

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
        c->ak->ghash(aead_htable(c), c->xi, in, n);
    memcpy(out, buf[1], n * BS);
    if (c->base.enc)
        c->ak->ghash(aead_htable(c), c->xi, out, n);
    if (len % BS != 0)
        memcpy(c->ks, buf[1 + n], BS);
    OPENSSL_cleanse(buf, nb * BS);
}

static int gcm_data(SMG_AEAD_CTX *c, const unsigned char *in,
                    unsigned char *out, size_t len)
{
    size_t n;

    if (len > GCM_MAX_DATA - c->data_len) {
        fail(c, "length too large: GCM data over 2^36 - 32 bytes");
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
            c->ak->ghash(aead_htable(c), c->xi, c->part, 1);
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
        c->ak->ghash(aead_htable(c), c->xi, c->part, 1);
        c->mres = 0;
        OPENSSL_cleanse(c->ks, sizeof(c->ks));
    }
    store_be64(lens, c->aad_len * 8);
    store_be64(lens + 8, c->data_len * 8);
    c->ak->ghash(aead_htable(c), c->xi, lens, 1);
    gcm_ek0(c);
    xor_block(tag, c->xi, c->ek0);
}

/* ------------------------------------------------------------------ CCM */

static size_t ccm_nonce_len(const SMG_AEAD_CTX *c)
{
    return 15 - c->ccm_l;
}

/*
 * B0 and the counter block A0 for the message length given (NIST SP
 * 800-38C, A.2.1 and A.3), with L and M as bound to the key.
 */
static int ccm_start(SMG_AEAD_CTX *c, uint64_t mlen)
{
    size_t L = c->ccm_lk, i;
    unsigned char b0[BS];

    if (ccm_nonce_len(c) < 15 - L) {
        fail(c, "invalid iv length: a %zu-byte nonce, the key was set for "
             "%zu", ccm_nonce_len(c), 15 - L);
        return 0;
    }
    if (L < 8 && mlen >> (8 * L) != 0) {
        fail(c, "length too large: %llu bytes do not fit a %zu-byte CCM "
             "length", (unsigned long long)mlen, L);
        return 0;
    }
    c->msglen = mlen;
    c->len_set = 1;
    b0[0] = (unsigned char)(((c->ccm_mk - 2) / 2) << 3 | (L - 1));
    memcpy(b0 + 1, c->iv, 15 - L);
    for (i = 0; i < L; i++)
        b0[15 - i] = (unsigned char)(i < 8 ? mlen >> (8 * i) : 0);
    /* The MAC starts at B0 (with its Adata flag if AAD comes). */
    memcpy(c->mac, b0, BS);
    c->ctr[0] = (unsigned char)(L - 1);
    memcpy(c->ctr + 1, c->iv, 15 - L);
    memset(c->ctr + 16 - L, 0, L);
    return 1;
}

/*
 * The AAD as SP 800-38C, A.2.2 formats it (its length's encoding, the AAD,
 * zeros to a whole block), into the MAC CHUNK blocks at a time: formatted
 * into buf[1..] for ccm_chain.
 */
static int ccm_aad(SMG_AEAD_CTX *c, const unsigned char *in, size_t len)
{
    unsigned char buf[CHUNK + 1][BS];
    unsigned char *fmt = buf[1];
    uint64_t v = len;
    size_t fill, used = 0, nb, i;

    if (len == 0)
        return 1;
    if (!c->len_set) {
        fail(c, "message length not set: CCM takes the total length "
             "before the AAD");
        return 0;
    }
    if (c->data_done) {
        fail(c, "aad after data");
        return 0;
    }
    if (c->aad_set) {
        fail(c, "ccm takes the aad and the data in one update each");
        return 0;
    }
    c->aad_set = 1;
    /* B0, still the MAC's pending input, takes its Adata flag. */
    c->mac[0] |= 0x40;
    if (v < 0xff00) {
        fill = 2;
    } else {
        fmt[0] = 0xff;
        fmt[1] = v <= 0xffffffffu ? 0xfe : 0xff;
        fill = v <= 0xffffffffu ? 6 : 10;
    }
    for (i = fill; i > (fill == 2 ? 0 : 2); i--, v >>= 8)
        fmt[i - 1] = (unsigned char)v;
    while (len > 0) {
        size_t take = CHUNK * BS - fill;

        if (take > len)
            take = len;
        memcpy(fmt + fill, in, take);
        fill += take;
        in += take;
        len -= take;
        if (len == 0)
            memset(fmt + fill, 0, (BS - fill % BS) % BS);
        nb = (fill + BS - 1) / BS;
        ccm_chain(c->base.kernel, c->base.ks_enc, c->mac, buf, nb, buf[nb]);
        used = nb + 1 > used ? nb + 1 : used;
        fill = 0;
    }
    OPENSSL_cleanse(buf, used * BS);
    return 1;
}

/*
 * The whole message's data, then the tag into tag (M bytes), all through
 * the table's ccm entries: the whole blocks from A1, a partial block padded
 * with zeros, and the encrypting entry over a zero block from A0 for the
 * MAC's last encryption and the tag's mask E(A0) (beside each other, as
 * every block of the entry).
 */
static void ccm_data(SMG_AEAD_CTX *c, const unsigned char *in,
                     unsigned char *out, size_t len, unsigned char tag[16])
{
    unsigned char b[BS] = { 0 };
    size_t n = len / BS, r = len % BS, i;

    c->ctr[15] = 1;
    ccm_blocks(c, c->base.enc, in, out, n);
    if (r > 0) {
        memcpy(b, in + n * BS, r);
        ccm_blocks(c, c->base.enc, b, b, 1);
        memcpy(out + n * BS, b, r);
        /* Decrypting, the MAC took the padding's keystream for zeros. */
        if (!c->base.enc)
            for (i = r; i < BS; i++)
                c->mac[i] ^= b[i];
        memset(b, 0, BS);
    }
    memset(c->ctr + 16 - c->ccm_lk, 0, c->ccm_lk);
    ccm_blocks(c, 1, b, b, 1);
    xor_block(tag, c->mac, b);
    OPENSSL_cleanse(b, sizeof(b));
    OPENSSL_cleanse(c->mac, sizeof(c->mac));
}

/* ------------------------------------------------------ the AEAD part */

void *smg_aead_newctx(void *provctx, const SMG_CIPHER_ALG *alg)
{
    SMG_AEAD_CTX *c = OPENSSL_zalloc(sizeof(*c));

    if (c == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    c->base.alg = alg;
    c->base.provctx = provctx;
    c->base.bs = alg->family->block_size;
    c->base.pad = 1;
    c->ivlen = alg->iv_len;
    c->taglen = SIZE_MAX;
    /* OpenSSL's CCM defaults: an 8-byte length (7-byte nonce), 12-byte tag. */
    c->ccm_l = c->ccm_lk = 8;
    c->ccm_m = c->ccm_mk = 12;
    return c;
}

void smg_aead_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(SMG_AEAD_CTX));
}

void *smg_aead_dupctx(void *vctx)
{
    SMG_AEAD_CTX *c = vctx, *d = OPENSSL_malloc(sizeof(*d));
    unsigned char *t;
    size_t before;

    if (d == NULL) {
        SMG_RAISE(c->base.provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    memcpy(d, c, sizeof(*d));
    /* The table keeps its 64-byte alignment, wherever the copy landed,
     * and the space around it stays zero (aead_set_key rewrites the table
     * alone). */
    t = aead_htable(d);
    before = (size_t)(t - d->htable_space);
    memmove(t, (unsigned char *)d
            + ((unsigned char *)aead_htable(c) - (unsigned char *)c),
            SMG_GHASH_TABLE_SIZE);
    OPENSSL_cleanse(d->htable_space, before);
    OPENSSL_cleanse(t + SMG_GHASH_TABLE_SIZE,
                    sizeof(d->htable_space) - before - SMG_GHASH_TABLE_SIZE);
    return d;
}

static size_t alg_key_len(const SMG_CIPHER_ALG *alg)
{
    return alg->family->key_len * (alg->mode == SMG_MODE_XTS ? 2 : 1);
}

int smg_aead_get_params(const SMG_CIPHER_ALG *alg, OSSL_PARAM params[])
{
    unsigned int mode = alg->mode == SMG_MODE_GCM ? EVP_CIPH_GCM_MODE
                        : alg->mode == SMG_MODE_CCM ? EVP_CIPH_CCM_MODE
                        : EVP_CIPH_XTS_MODE;
    OSSL_PARAM *p;

    if (((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL
         && !OSSL_PARAM_set_uint(p, mode))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
            && !OSSL_PARAM_set_size_t(p, alg_key_len(alg)))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
            && !OSSL_PARAM_set_size_t(p, alg->iv_len))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE))
            != NULL && !OSSL_PARAM_set_size_t(p, 1))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) != NULL
            && !OSSL_PARAM_set_int(p, alg->mode != SMG_MODE_XTS))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV))
            != NULL && !OSSL_PARAM_set_int(p, 1)))
        return 0;
    for (p = params; p != NULL && p->key != NULL; p++)
        if ((strcmp(p->key, OSSL_CIPHER_PARAM_CTS) == 0
             || strcmp(p->key, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK) == 0
             || strcmp(p->key, OSSL_CIPHER_PARAM_HAS_RAND_KEY) == 0)
            && !OSSL_PARAM_set_int(p, 0))
            return 0;
    return 1;
}

/* Sets the key (XTS: both halves) and derives what the mode needs. */
static int aead_set_key(SMG_AEAD_CTX *c, const unsigned char *key,
                        size_t keylen)
{
    const SMG_CIPHER_FAMILY *fam = c->base.alg->family;
    unsigned char h[BS] = { 0 };

    if (keylen != alg_key_len(c->base.alg)) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_KEY_LENGTH),
                       "got %zu bytes, expected %zu", keylen,
                       alg_key_len(c->base.alg));
        return 0;
    }
    /*
     * The new schedules and table replace the old ones in place: a key
     * setup writes the same bytes each time (one mode, one kernel a
     * context), so nothing of the old key is left to cleanse first.
     */
    c->base.key_set = 0;
    if (is_mode(c, SMG_MODE_XTS)) {
        /* The tweak key's encryption schedule first, then the data key's.
         * Identical halves are taken, as OpenSSL 3.5's SM4-XTS takes them. */
        if (!fam->set_key(&c->base, key + fam->key_len))
            return 0;
        memcpy(c->ks2, c->base.ks_enc, sizeof(c->ks2));
    }
    if (is_mode(c, SMG_MODE_GCM) ? !fam->set_key_e0(&c->base, key, h)
                                 : !fam->set_key(&c->base, key))
        return 0;
    if (c->ak != NULL && c->ak != c->base.kernel->aead)
        OPENSSL_cleanse(c->htable_space, sizeof(c->htable_space));
    c->ak = c->base.kernel->aead;
    if (is_mode(c, SMG_MODE_GCM)) {
        c->ak->ghash_init(aead_htable(c), h);
        OPENSSL_cleanse(h, sizeof(h));
        /* A message begun under the old key starts again under this one. */
        if (c->iv_state == IV_COPIED)
            c->iv_state = IV_BUFFERED;
        c->tls_enc_records = 0;
    } else if (is_mode(c, SMG_MODE_CCM)) {
        c->ccm_lk = c->ccm_l;
        c->ccm_mk = c->ccm_m;
    }
    c->base.key_set = 1;
    return 1;
}

/* A new CCM message (nonce given or TLS record). */
static void ccm_reset(SMG_AEAD_CTX *c)
{
    c->len_set = c->aad_set = c->data_done = c->verified = 0;
    c->base.finalised = 0;
}

static int aead_init(SMG_AEAD_CTX *c, const unsigned char *key,
                     size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[], int enc)
{
    c->base.enc = enc ? 1 : 0;
    c->base.initialised = 1;
    if (iv != NULL) {
        size_t want = is_mode(c, SMG_MODE_CCM) ? ccm_nonce_len(c) : c->ivlen;

        if (is_mode(c, SMG_MODE_GCM) ? ivlen == 0 || ivlen > SMG_GCM_IV_MAX
                                     : ivlen != want) {
            SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                           "%zu bytes", ivlen);
            return 0;
        }
        memcpy(c->iv, iv, ivlen);
        c->base.iv_set = 1;
        if (is_mode(c, SMG_MODE_GCM)) {
            c->ivlen = ivlen;
            c->iv_gen_rand = 0;
            c->iv_state = IV_BUFFERED;
        } else if (is_mode(c, SMG_MODE_CCM)) {
            ccm_reset(c);
        }
    }
    if (key != NULL && !aead_set_key(c, key, keylen))
        return 0;
    return smg_aead_set_ctx_params(c, params);
}

int smg_aead_einit(void *vctx, const unsigned char *key, size_t keylen,
                   const unsigned char *iv, size_t ivlen,
                   const OSSL_PARAM params[])
{
    return aead_init(vctx, key, keylen, iv, ivlen, params, 1);
}

int smg_aead_dinit(void *vctx, const unsigned char *key, size_t keylen,
                   const unsigned char *iv, size_t ivlen,
                   const OSSL_PARAM params[])
{
    return aead_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int check_key(SMG_AEAD_CTX *c)
{
    if (!c->base.initialised) {
        fail(c, "operation not initialised");
        return 0;
    }
    if (!c->base.key_set) {
        fail(c, "no key set");
        return 0;
    }
    return 1;
}

/*
 * GCM's IV before the first byte of a message: the one given, or on
 * encryption without one a random IV of at least 12 bytes (SP 800-38D,
 * 8.2.2), as OpenSSL generates it.
 */
static int gcm_ready(SMG_AEAD_CTX *c)
{
    if (c->iv_state == IV_FINISHED) {
        fail(c, "iv not set: the message is finished: init with a new IV");
        return 0;
    }
    if (c->iv_state == IV_UNSET) {
        if (!c->base.enc) {
            fail(c, "iv not set");
            return 0;
        }
        if (c->ivlen < 12 || RAND_bytes(c->iv, (int)c->ivlen) <= 0) {
            fail(c, "iv generation failed: for a %zu-byte IV", c->ivlen);
            return 0;
        }
        c->iv_gen_rand = 1;
        c->iv_state = IV_BUFFERED;
    }
    if (c->iv_state == IV_BUFFERED) {
        gcm_start(c);
        c->iv_state = IV_COPIED;
    }
    return 1;
}

static int ccm_ready(SMG_AEAD_CTX *c)
{
    if (!c->base.iv_set || c->base.finalised) {
        fail(c, "iv not set: %s", c->base.finalised
             ? "the message is finished: init with a new nonce" : "no nonce");
        return 0;
    }
    return 1;
}

/* CCM data: the whole message in one update, verified when decrypting. */
static int ccm_message(SMG_AEAD_CTX *c, const unsigned char *in,
                       unsigned char *out, size_t len)
{
    unsigned char tag[BS];

    if (c->data_done) {
        fail(c, "ccm takes the aad and the data in one update each");
        return 0;
    }
    if (!c->len_set && !ccm_start(c, len))
        return 0;
    if (len != c->msglen) {
        fail(c, "data length differs from the message length set: %zu "
             "bytes, %llu set", len, (unsigned long long)c->msglen);
        return 0;
    }
    if (!c->base.enc && !c->tag_set)
        return tag_not_set(c);
    if (!c->base.enc && c->ccm_m != c->ccm_mk) {
        fail(c, "invalid tag length: a %zu-byte tag, the key was set for "
             "%zu", c->ccm_m, c->ccm_mk);
        return 0;
    }
    c->data_done = 1;
    ccm_data(c, in, out, len, tag);
    if (c->base.enc) {
        memcpy(c->tag, tag, BS);
        c->tag_set = 1;
    } else {
        c->tag_set = 0;
        if (tag_mismatch(tag, c->tag, c->ccm_mk)) {
            /* No plaintext of a forgery leaves this call. */
            OPENSSL_cleanse(out, len);
            OPENSSL_cleanse(tag, sizeof(tag));
            fail(c, "tag mismatch");
            return 0;
        }
        c->verified = 1;
    }
    OPENSSL_cleanse(tag, sizeof(tag));
    return 1;
}

/*
 * One TLS record, in place (RFC 5288 for GCM, RFC 6655 for CCM): the
 * explicit IV, the payload, the tag; the AAD came from tlsaad.
 */
static int tls_record(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                      const unsigned char *in, size_t len)
{
    size_t taglen = is_mode(c, SMG_MODE_GCM) ? TLS_GCM_TAG_LEN : c->ccm_m;
    unsigned char tag[BS];
    int ok = 0;

    if (in == NULL || out != in || len < TLS_EXPLICIT_IV_LEN + taglen) {
        fail(c, "invalid tls record: a record is processed in place and "
             "holds the explicit IV and the tag");
        goto end;
    }
    len -= TLS_EXPLICIT_IV_LEN + taglen;
    if (is_mode(c, SMG_MODE_GCM)) {
        if (c->base.enc && ++c->tls_enc_records == 0) {
            /* raised where it happens, as gcm_tls_cipher does */
            SMG_RAISE(c->base.provctx, SMG_PROV(TOO_MANY_RECORDS));
            fail(c, "too many records");
            goto end;
        }
        if (!c->iv_gen) {
            fail(c, "tls iv not configured");
            goto end;
        }
        if (c->base.enc) {
            memcpy(out, c->iv + c->ivlen - TLS_EXPLICIT_IV_LEN,
                   TLS_EXPLICIT_IV_LEN);
        } else {
            memcpy(c->iv + c->ivlen - TLS_EXPLICIT_IV_LEN, in,
                   TLS_EXPLICIT_IV_LEN);
        }
        gcm_start(c);
        if (c->base.enc) {
            /* The next record's invocation field (RFC 5288, 3). */
            unsigned char *p = c->iv + c->ivlen - 8;
            int i;

            for (i = 7; i >= 0 && ++p[i] == 0; i--)
                continue;
        }
        if (!gcm_aad(c, c->tls_aad, c->tls_aad_len)
            || !gcm_data(c, in + TLS_EXPLICIT_IV_LEN,
                         out + TLS_EXPLICIT_IV_LEN, len))
            goto end;
        gcm_tag(c, tag);
    } else {
        if (c->base.enc)
            memcpy(out, c->tls_aad, TLS_EXPLICIT_IV_LEN);
        memcpy(c->iv + TLS_FIXED_IV_LEN, in, TLS_EXPLICIT_IV_LEN);
        ccm_reset(c);
        if (!ccm_start(c, len) || !ccm_aad(c, c->tls_aad, c->tls_aad_len))
            goto end;
        c->data_done = 1;
        ccm_data(c, in + TLS_EXPLICIT_IV_LEN, out + TLS_EXPLICIT_IV_LEN, len,
                 tag);
    }
    if (c->base.enc) {
        memcpy(out + TLS_EXPLICIT_IV_LEN + len, tag, taglen);
        *outl = len + TLS_EXPLICIT_IV_LEN + taglen;
    } else if (tag_mismatch(tag, in + TLS_EXPLICIT_IV_LEN + len, taglen)) {
        OPENSSL_cleanse(out + TLS_EXPLICIT_IV_LEN, len);
        fail(c, "tag mismatch");
        goto end;
    } else {
        *outl = len;
    }
    ok = 1;
 end:
    OPENSSL_cleanse(tag, sizeof(tag));
    if (is_mode(c, SMG_MODE_GCM))
        c->iv_state = IV_FINISHED;
    c->tls_aad_len = 0;
    return ok;
}

static int xts_unit(SMG_AEAD_CTX *c, const unsigned char *in,
                    unsigned char *out, size_t len);

/*
 * An update: AAD when out is NULL, CCM's message length when in is NULL
 * too, else data.  XTS: one data unit.
 */
static int aead_update(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                       size_t outsize, const unsigned char *in, size_t inl)
{
    *outl = 0;
    if (!check_key(c))
        return 0;
    if (in != NULL && !smg_length_ok(&c->base, in, out != NULL ? out : in,
                                     inl))
        return 0;
    if (out != NULL && in != NULL
        && !smg_same_length_output_ok(&c->base, out, outsize, in, inl))
        return 0;
    if (is_mode(c, SMG_MODE_XTS)) {
        if (in == NULL || out == NULL) {
            fail(c, "XTS has no AAD");
            return 0;
        }
        if (!xts_unit(c, in, out, inl))
            return 0;
        *outl = inl;
        return 1;
    }
    if (c->tls_aad_len != 0)
        return tls_record(c, out, outl, in, inl);
    if (is_mode(c, SMG_MODE_GCM)) {
        if (inl == 0)
            return 1;
        if (!gcm_ready(c))
            return 0;
        if (out == NULL ? !gcm_aad(c, in, inl) : !gcm_data(c, in, out, inl))
            return 0;
        *outl = inl;
        return 1;
    }
    if (!ccm_ready(c))
        return 0;
    if (out == NULL && in == NULL) {
        if (c->data_done) {
            fail(c, "ccm takes the aad and the data in one update each");
            return 0;
        }
        if (c->aad_set) {
            fail(c, "ccm takes the aad and the data in one update each: the "
                 "message length after the AAD");
            return 0;
        }
        return ccm_start(c, inl);
    }
    if (out == NULL)
        return ccm_aad(c, in, inl);
    if (!ccm_message(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

int smg_aead_update(void *vctx, unsigned char *out, size_t *outl,
                    size_t outsize, const unsigned char *in, size_t inl)
{
    SMG_AEAD_CTX *c = vctx;

    c->why[0] = '\0';
    if (aead_update(c, out, outl, outsize, in, inl))
        return 1;
    if (c->why[0] != '\0')
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(CIPHER_OPERATION_FAILED),
                       "%s", c->why);
    return 0;
}

/*
 * Fails with nothing queued (see fail(); but tag_not_set()): a GCM tag
 * that differs leaves an empty queue, as the default provider's does,
 * which callers such as Python's cryptography take for an invalid tag.
 */
static int aead_final(SMG_AEAD_CTX *c)
{
    if (!check_key(c))
        return 0;
    if (is_mode(c, SMG_MODE_XTS))
        return 1;
    if (is_mode(c, SMG_MODE_GCM)) {
        unsigned char tag[BS];
        int ok = 1;

        if (!c->base.enc && c->taglen == SIZE_MAX)
            return tag_not_set(c);
        if (!gcm_ready(c))
            return 0;
        c->iv_state = IV_FINISHED;
        /* An encryption's tag is the one the tag get answers with. */
        if (c->base.enc) {
            gcm_tag(c, c->tag);
            c->taglen = BS;
            return 1;
        }
        gcm_tag(c, tag);
        if (tag_mismatch(tag, c->tag, c->taglen)) {
            fail(c, "tag mismatch");
            ok = 0;
        }
        OPENSSL_cleanse(tag, sizeof(tag));
        return ok;
    }
    /* CCM: the update did the work; a decryption reports its verdict. */
    if (c->base.finalised && c->base.enc)
        return 1;
    c->base.finalised = 1;
    if (!c->base.enc && !c->verified) {
        fail(c, "tag mismatch: no verified message");
        return 0;
    }
    return 1;
}

int smg_aead_final(void *vctx, unsigned char *out, size_t *outl,
                   size_t outsize)
{
    (void)out, (void)outsize;
    *outl = 0;
    return aead_final(vctx);
}

/* The one-shot call: an update, or the final when in is NULL. */
int smg_aead_cipher(void *vctx, unsigned char *out, size_t *outl,
                    size_t outsize, const unsigned char *in, size_t inl)
{
    SMG_AEAD_CTX *c = vctx;

    if (in == NULL && out != NULL && !is_mode(c, SMG_MODE_XTS)
        && c->tls_aad_len == 0) {
        *outl = 0;
        return aead_final(c);
    }
    return aead_update(c, out, outl, outsize, in, inl);
}

/* ------------------------------------------------------------------ XTS */

/* One data unit with ciphertext stealing (IEEE 1619-2018, 5.3.2 / 5.4.2). */
static int xts_unit(SMG_AEAD_CTX *c, const unsigned char *in,
                    unsigned char *out, size_t len)
{
    unsigned char t[BS], t1[BS], blk[BS];
    size_t m = len / BS, r = len % BS;

    if (!c->base.iv_set) {
        fail(c, "iv not set");
        return 0;
    }
    /* OpenSSL's XTS raises the one reason of its own for too long a unit,
     * before its update's (aes_xts_cipher, sm4_xts_cipher). */
    if (len > XTS_MAX_UNIT)
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(XTS_DATA_UNIT_IS_TOO_LARGE),
                       "%zu bytes, over 2^20 blocks", len);
    if (len < BS || len > XTS_MAX_UNIT)
        return fail(c, "invalid xts data unit length: %zu bytes, not 16 to "
                    "2^24", len);
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

/* ---------------------------------------------------------------- params */

static const OSSL_PARAM aead_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_AEAD_IV_GENERATED, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM aead_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM xts_gettable[] = {
    SMG_CIPHER_GENERIC_GETTABLE_CTX,
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM xts_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_XTS_STANDARD, NULL, 0),
    OSSL_PARAM_END
};

const OSSL_PARAM *smg_aead_gettable_ctx_params(const SMG_CIPHER_ALG *alg)
{
    return alg->mode == SMG_MODE_XTS ? xts_gettable : aead_gettable;
}

const OSSL_PARAM *smg_aead_settable_ctx_params(const SMG_CIPHER_ALG *alg)
{
    return alg->mode == SMG_MODE_XTS ? xts_settable : aead_settable;
}

/*
 * The parameter failures, with the default provider's reasons: it reports
 * a parameter it cannot answer as failing to set one, and one it cannot
 * read as failing to get one.
 */
static int get_fail(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    SMG_RAISE_DATA(c->base.provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}

/*
 * GCM's iv and updated-iv: the IV once there is one, as OpenSSL gives it
 * (before, it fails with nothing queued, as ossl_gcm_get_ctx_params does).
 * CCM's: the nonce buffer as long as the caller's buffer (at most 16),
 * once that holds the nonce, as OpenSSL's CCM answers.
 */
static int get_iv(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    size_t want = is_mode(c, SMG_MODE_CCM) ? ccm_nonce_len(c) : c->ivlen;

    if (is_mode(c, SMG_MODE_GCM) && c->iv_state == IV_UNSET)
        return 0;
    if (p->data != NULL && p->data_size < want) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "the IV has %zu bytes, the buffer %zu", want,
                       p->data_size);
        return 0;
    }
    if (is_mode(c, SMG_MODE_CCM))
        want = p->data_size < BS ? p->data_size : BS;
    return smg_set_iv_param(p, c->iv, want, 1) || get_fail(c, p);
}

/*
 * The tag, with the reasons of ossl_gcm_get_ctx_params (one for every
 * refusal) and ossl_ccm_get_ctx_params (a buffer of another length than
 * the tag's fails with nothing queued).
 */
static int get_tag(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    if (is_mode(c, SMG_MODE_GCM)) {
        if (p->data_size == 0 || p->data_size > BS || !c->base.enc
            || c->taglen == SIZE_MAX) {
            SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_TAG),
                           "%zu bytes%s", p->data_size,
                           c->base.enc && c->taglen != SIZE_MAX ? ""
                           : ", no tag made");
            return 0;
        }
        return OSSL_PARAM_set_octet_string(p, c->tag, p->data_size)
               || get_fail(c, p);
    }
    if (!c->base.enc || !c->tag_set) {
        SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_SET));
        return 0;
    }
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return get_fail(c, p);
    if (p->data_size != c->ccm_mk
        || !OSSL_PARAM_set_octet_string(p, c->tag, c->ccm_mk))
        return 0;
    /* The tag ends the message, as in OpenSSL's CCM. */
    c->tag_set = 0;
    c->base.iv_set = 0;
    ccm_reset(c);
    return 1;
}

/*
 * tlsivgen (GCM): the invocation field of the IV for the next record,
 * which is then counted on (RFC 5288, 3).
 */
static int get_tls_iv_gen(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    size_t n = p->data_size;
    unsigned char *q;
    int i;

    /* Refused with nothing queued, as ossl_gcm_get_ctx_params does. */
    if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING
        || !c->iv_gen || !c->base.key_set)
        return 0;
    if (n == 0 || n > c->ivlen)
        n = c->ivlen;
    gcm_start(c);
    memcpy(p->data, c->iv + c->ivlen - n, n);
    p->return_size = n;
    q = c->iv + c->ivlen - 8;
    for (i = 7; i >= 0 && ++q[i] == 0; i--)
        continue;
    c->iv_state = IV_COPIED;
    return 1;
}

static int same_name(const char *a, const char *b)
{
    while (*a == *b && *a != '\0')
        a++, b++;
    return *a == *b;
}

/*
 * The params a get or set names, found in one pass: bit i of the result
 * says that names[i] is there, at[i] is then the index of the first param
 * of that name (an array of params is far shorter than 2^32).  A message's
 * calls name one or two params, where a locate per known name cost a strcmp
 * per name and param; most names differ from a key in its first byte.  The
 * callers then answer in their fixed order, as before.
 */
static uint32_t locate_params(const OSSL_PARAM *params,
                              const char *const names[], size_t n,
                              uint32_t at[])
{
    uint32_t found = 0, j;
    size_t i;

    for (j = 0; params[j].key != NULL && j < UINT32_MAX; j++)
        for (i = 0; i < n; i++)
            if (params[j].key[0] == names[i][0]
                && same_name(params[j].key, names[i])) {
                if ((found >> i & 1) == 0) {
                    at[i] = j;
                    found |= (uint32_t)1 << i;
                }
                break;
            }
    return found;
}

/* Whether the get or set below was given names[i]; p is then that param. */
#define GOT(i) ((found >> (i) & 1) != 0 ? (p = &params[at[i]], 1) : 0)

/* The names a message's calls ask for (EVP's tag get and IV length) come
 * first: the search stops at the name found. */
enum {
    G_TAG, G_IVLEN, G_KEYLEN, G_PADDING, G_NUM, G_IV, G_UPDATED_IV,
    G_TLS_MAC, G_TAGLEN, G_TLS_AAD_PAD, G_TLS_IV_GEN, G_IV_GENERATED, G_N
};
static const char *const get_names[G_N] = {
    OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_IVLEN,
    OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_PADDING,
    OSSL_CIPHER_PARAM_NUM, OSSL_CIPHER_PARAM_IV,
    OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_CIPHER_PARAM_TLS_MAC,
    OSSL_CIPHER_PARAM_AEAD_TAGLEN, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
    OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN,
    OSSL_CIPHER_PARAM_AEAD_IV_GENERATED
};

int smg_aead_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    SMG_AEAD_CTX *c = vctx;
    OSSL_PARAM *p;
    int gcm = is_mode(c, SMG_MODE_GCM), ccm = is_mode(c, SMG_MODE_CCM);
    size_t ivlen = ccm ? ccm_nonce_len(c) : c->ivlen;
    uint32_t at[G_N], found;

    if (params == NULL)
        return 1;
    found = locate_params(params, get_names, G_N, at);
    if (GOT(G_KEYLEN) && !OSSL_PARAM_set_size_t(p, alg_key_len(c->base.alg)))
        return get_fail(c, p);
    if (GOT(G_IVLEN) && !OSSL_PARAM_set_size_t(p, ivlen))
        return get_fail(c, p);
    if (is_mode(c, SMG_MODE_XTS)) {
        if ((GOT(G_PADDING) && !OSSL_PARAM_set_uint(p, c->base.pad))
            || (GOT(G_NUM) && !OSSL_PARAM_set_uint(p, 0))
            || (GOT(G_IV) && !smg_set_iv_param(p, c->iv, BS, 1))
            || (GOT(G_UPDATED_IV) && !smg_set_iv_param(p, c->iv, BS, 1))
            || (GOT(G_TLS_MAC) && !OSSL_PARAM_set_octet_ptr(p, NULL, 0)))
            return get_fail(c, p);
        return 1;
    }
    if (GOT(G_TAGLEN)
        && !OSSL_PARAM_set_size_t(p, ccm ? c->ccm_m
                                  : c->taglen != SIZE_MAX ? c->taglen : BS))
        return get_fail(c, p);
    if (GOT(G_IV) && !get_iv(c, p))
        return 0;
    if (GOT(G_UPDATED_IV) && !get_iv(c, p))
        return 0;
    if (GOT(G_TLS_AAD_PAD) && !OSSL_PARAM_set_size_t(p, c->tls_aad_pad))
        return get_fail(c, p);
    if (GOT(G_TAG) && !get_tag(c, p))
        return 0;
    /* OpenSSL's CCM lists these two and answers neither. */
    if (gcm && GOT(G_TLS_IV_GEN) && !get_tls_iv_gen(c, p))
        return 0;
    if (gcm && GOT(G_IV_GENERATED) && !OSSL_PARAM_set_uint(p, c->iv_gen_rand))
        return get_fail(c, p);
    return 1;
}

static int set_fail(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    SMG_RAISE_DATA(c->base.provctx, SMG_PROV(FAILED_TO_GET_PARAMETER), "%s",
                   p->key);
    return 0;
}

static int set_tag(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n = p->data_size;

    if (is_mode(c, SMG_MODE_GCM)) {
        /* As ossl_gcm_set_ctx_params reads it: libcrypto's own error
         * (3.2 and later) for a tag too long, then this one. */
        unsigned char tag[BS];
        void *v = tag;

        if (p->data == NULL
            || !OSSL_PARAM_get_octet_string(p, &v, sizeof(tag), &n))
            return set_fail(c, p);
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
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return set_fail(c, p);
    /* CCM: a length alone sets M; with the bytes, the tag to verify. */
    if (n % 2 != 0 || n < 4 || n > 16) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_TAG_LENGTH),
                       "%zu bytes, not an even 4 to 16", n);
        return 0;
    }
    if (p->data != NULL) {
        if (c->base.enc) {
            SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_NEEDED));
            return 0;
        }
        memcpy(c->tag, p->data, n);
        c->tag_set = 1;
    }
    c->ccm_m = n;
    return 1;
}

static int set_ivlen(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n;

    if (!OSSL_PARAM_get_size_t(p, &n))
        return set_fail(c, p);
    if (is_mode(c, SMG_MODE_CCM)) {
        if (n < 7 || n > 13) {
            SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                           "a %zu-byte nonce, not 7 to 13", n);
            return 0;
        }
        if (15 - n != c->ccm_l) {
            /* as OpenSSL's CCM: a nonce of the old length is no nonce */
            c->ccm_l = 15 - n;
            c->base.iv_set = 0;
        }
        return 1;
    }
    if (n == 0 || n > SMG_GCM_IV_MAX) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "%zu bytes, not 1 to %d", n, SMG_GCM_IV_MAX);
        return 0;
    }
    if (n != c->ivlen) {
        /* An IV of the old length is no IV of the new one. */
        if (c->iv_state != IV_UNSET)
            c->iv_state = IV_FINISHED;
        c->ivlen = n;
    }
    return 1;
}

/* tlsaad: the record header; the length it carries loses the explicit IV
 * and, when decrypting, the tag.  Returns the tag's length (the pad). */
static int set_tls_aad(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t taglen = is_mode(c, SMG_MODE_GCM) ? TLS_GCM_TAG_LEN : c->ccm_m;
    /* ossl_gcm_set_ctx_params's and ossl_ccm_set_ctx_params's reasons */
    uint32_t bad = is_mode(c, SMG_MODE_GCM) ? SMG_PROV(INVALID_AAD)
                                            : SMG_PROV(INVALID_DATA);
    size_t len;

    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return set_fail(c, p);
    if (p->data_size != SMG_AEAD_TLS_AAD_LEN) {
        SMG_RAISE_DATA(c->base.provctx, bad,
                       "%zu bytes, not %d", p->data_size,
                       SMG_AEAD_TLS_AAD_LEN);
        return 0;
    }
    memcpy(c->tls_aad, p->data, SMG_AEAD_TLS_AAD_LEN);
    len = (size_t)c->tls_aad[11] << 8 | c->tls_aad[12];
    if (len < TLS_EXPLICIT_IV_LEN + (c->base.enc ? 0 : taglen)) {
        SMG_RAISE_DATA(c->base.provctx, bad, "a record of %zu bytes", len);
        return 0;
    }
    len -= TLS_EXPLICIT_IV_LEN + (c->base.enc ? 0 : taglen);
    c->tls_aad[11] = (unsigned char)(len >> 8);
    c->tls_aad[12] = (unsigned char)len;
    c->tls_aad_len = SMG_AEAD_TLS_AAD_LEN;
    c->tls_aad_pad = taglen;
    return 1;
}

/*
 * tlsivfixed: the fixed part of the IV (GCM: 4 bytes or more, leaving at
 * least 8 for the invocation field, which an encryption draws at random;
 * a length of (size_t)-1 restores the whole IV); CCM: exactly 4 bytes.
 */
static int set_tls_iv_fixed(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n = p->data_size;

    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        return set_fail(c, p);
    if (is_mode(c, SMG_MODE_CCM)) {
        if (n != TLS_FIXED_IV_LEN) {
            SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                           "a fixed field of %zu bytes, not 4", n);
            return 0;
        }
        memcpy(c->iv, p->data, n);
        return 1;
    }
    if (n == SIZE_MAX) {
        memcpy(c->iv, p->data, c->ivlen);
    } else {
        if (n < TLS_FIXED_IV_LEN || n > c->ivlen
            || c->ivlen - n < TLS_EXPLICIT_IV_LEN) {
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
    c->iv_state = IV_BUFFERED;
    return 1;
}

/* tlsivinv (GCM, decrypting): the invocation field the peer sent. */
static int set_tls_iv_inv(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        return set_fail(c, p);
    /* Refused with nothing queued, as ossl_gcm_set_ctx_params does. */
    if (!c->iv_gen || !c->base.key_set || c->base.enc
        || p->data_size > c->ivlen)
        return 0;
    memcpy(c->iv + c->ivlen - p->data_size, p->data, p->data_size);
    gcm_start(c);
    c->iv_state = IV_COPIED;
    return 1;
}

static int set_xts_standard(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    const char *s = NULL;

    if (p->data_type != OSSL_PARAM_UTF8_STRING
        || !OSSL_PARAM_get_utf8_string_ptr(p, &s))
        return set_fail(c, p);
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

enum {
    S_TAG, S_IVLEN, S_TLS_AAD, S_TLS_IV_FIXED, S_TLS_IV_INV, S_N
};
static const char *const set_names[S_N] = {
    OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_IVLEN,
    OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
    OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV
};

int smg_aead_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    SMG_AEAD_CTX *c = vctx;
    const OSSL_PARAM *p;
    uint32_t at[S_N], found;

    if (params == NULL)
        return 1;
    if (is_mode(c, SMG_MODE_XTS)) {
        /* The other generic params are accepted and ignored, as in
         * OpenSSL's SM4-XTS. */
        p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_XTS_STANDARD);
        return p == NULL || set_xts_standard(c, p);
    }
    found = locate_params(params, set_names, S_N, at);
    if (GOT(S_TAG) && !set_tag(c, p))
        return 0;
    if (GOT(S_IVLEN) && !set_ivlen(c, p))
        return 0;
    if (GOT(S_TLS_AAD) && !set_tls_aad(c, p))
        return 0;
    if (GOT(S_TLS_IV_FIXED) && !set_tls_iv_fixed(c, p))
        return 0;
    /* OpenSSL's CCM lists tlsivinv and ignores it. */
    if (is_mode(c, SMG_MODE_GCM) && GOT(S_TLS_IV_INV) && !set_tls_iv_inv(c, p))
        return 0;
    return 1;
}
