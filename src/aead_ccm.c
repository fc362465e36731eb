/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CCM (NIST SP 800-38C, RFC 3610; TLS records RFC 6655) over the AEAD
 * layer's shared part (src/aead.h): the nonce and its L, the tag length M,
 * the message length before the AAD, the whole message in one update, and
 * the composition of the kernel's CCM entries.  SP 800-38C defines CCM for
 * 128-bit blocks only (B0's flags, nonce and length fill one).
 *
 * Where OpenSSL's behaviour is an accident of its state machine this mode
 * refuses instead (the update's error, its data saying why): a second AAD
 * update (OpenSSL lets the last one win), AAD after the data, a message
 * length the nonce's L bytes cannot hold (OpenSSL truncates it and fails
 * later).
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
/* AAD blocks the composed CBC-MAC takes per step: its scratch stays on the
 * stack. */
#define CHUNK 32

/*
 * CBC-MAC with its next input pending (kernel.h's smg_ccm_fn): x is
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
    smg_xor_block(x, buf[n - 1], last, BS);
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
            smg_xor_block(b[0], b[0], in, BS);
        smg_xor_block(out, in, b[1], BS);
        if (!enc)
            smg_xor_block(b[0], b[0], out, BS);
    }
    memcpy(mac, b[0], BS);
    OPENSSL_cleanse(b, sizeof(b));
}

static void ccm_blocks(SMG_AEAD_CTX *c, int enc, const unsigned char *in,
                       unsigned char *out, size_t n)
{
    const SMG_CCM_KERNEL *ccm = c->base.kernel->ccm;

    if (n == 0)
        return;
    if (ccm != NULL)
        (enc ? ccm->enc : ccm->dec)(c->base.ks_enc, in, out, n, c->ctr,
                                    c->mac);
    else
        smg_ccm_composed(c->base.kernel, enc, c->base.ks_enc, in, out, n,
                         c->ctr, c->mac);
}

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
        smg_aead_fail(c, "invalid iv length: a %zu-byte nonce, the key was "
                      "set for %zu", ccm_nonce_len(c), 15 - L);
        return 0;
    }
    if (L < 8 && mlen >> (8 * L) != 0) {
        smg_aead_fail(c, "length too large: %llu bytes do not fit a %zu-byte "
                      "CCM length", (unsigned long long)mlen, L);
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
        smg_aead_fail(c, "message length not set: CCM takes the total "
                      "length before the AAD");
        return 0;
    }
    if (c->data_done) {
        smg_aead_fail(c, "aad after data");
        return 0;
    }
    if (c->aad_set) {
        smg_aead_fail(c, "ccm takes the aad and the data in one update "
                      "each");
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
    smg_xor_block(tag, c->mac, b, BS);
    OPENSSL_cleanse(b, sizeof(b));
    OPENSSL_cleanse(c->mac, sizeof(c->mac));
}

/* A new message (nonce given or TLS record). */
static void ccm_reset(SMG_AEAD_CTX *c)
{
    c->len_set = c->aad_set = c->data_done = c->verified = 0;
    c->base.finalised = 0;
}

static int ccm_ready(SMG_AEAD_CTX *c)
{
    if (!c->base.iv_set || c->base.finalised) {
        smg_aead_fail(c, "iv not set: %s", c->base.finalised
                      ? "the message is finished: init with a new nonce"
                      : "no nonce");
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
        smg_aead_fail(c, "ccm takes the aad and the data in one update "
                      "each");
        return 0;
    }
    if (!c->len_set && !ccm_start(c, len))
        return 0;
    if (len != c->msglen) {
        smg_aead_fail(c, "data length differs from the message length set: "
                      "%zu bytes, %llu set", len,
                      (unsigned long long)c->msglen);
        return 0;
    }
    if (!c->base.enc && !c->tag_set)
        return smg_aead_tag_not_set(c);
    if (!c->base.enc && c->ccm_m != c->ccm_mk) {
        smg_aead_fail(c, "invalid tag length: a %zu-byte tag, the key was "
                      "set for %zu", c->ccm_m, c->ccm_mk);
        return 0;
    }
    c->data_done = 1;
    ccm_data(c, in, out, len, tag);
    if (c->base.enc) {
        memcpy(c->tag, tag, BS);
        c->tag_set = 1;
    } else {
        c->tag_set = 0;
        if (smg_aead_tag_mismatch(tag, c->tag, c->ccm_mk)) {
            /* No plaintext of a forgery leaves this call. */
            OPENSSL_cleanse(out, len);
            OPENSSL_cleanse(tag, sizeof(tag));
            smg_aead_fail(c, "tag mismatch");
            return 0;
        }
        c->verified = 1;
    }
    OPENSSL_cleanse(tag, sizeof(tag));
    return 1;
}


/* OpenSSL's defaults: an 8-byte length (7-byte nonce), a 12-byte tag. */
static void ccm_init_ctx(SMG_AEAD_CTX *c)
{
    c->ccm_l = c->ccm_lk = 8;
    c->ccm_m = c->ccm_mk = 12;
}

/* L and M are bound to the key, as OpenSSL binds them. */
static int ccm_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    SMG_AEAD_CTX *c = (SMG_AEAD_CTX *)ctx;

    if (!c->base.alg->family->set_key(&c->base, key))
        return 0;
    c->ccm_lk = c->ccm_l;
    c->ccm_mk = c->ccm_m;
    return 1;
}

static int ccm_iv_len_ok(const SMG_CIPHER_CTX *ctx, size_t ivlen,
                         size_t *want)
{
    *want = ccm_nonce_len((const SMG_AEAD_CTX *)ctx);
    return ivlen == *want;
}

/* A nonce given starts a new message. */
static void ccm_take_iv(SMG_CIPHER_CTX *ctx, const unsigned char *iv,
                        size_t ivlen)
{
    SMG_AEAD_CTX *c = (SMG_AEAD_CTX *)ctx;

    if (iv == NULL)
        return;
    memcpy(c->iv, iv, ivlen);
    ccm_reset(c);
}

static int ccm_update(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                      const unsigned char *in, size_t inl)
{
    if (!ccm_ready(c))
        return 0;
    if (out == NULL && in == NULL) {
        if (c->data_done) {
            smg_aead_fail(c, "ccm takes the aad and the data in one update "
                          "each");
            return 0;
        }
        if (c->aad_set) {
            smg_aead_fail(c, "ccm takes the aad and the data in one update "
                          "each: the message length after the AAD");
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

/* The update did the work; a decryption reports its verdict. */
static int ccm_final(SMG_AEAD_CTX *c)
{
    if (c->base.finalised && c->base.enc)
        return 1;
    c->base.finalised = 1;
    if (!c->base.enc && !c->verified) {
        smg_aead_fail(c, "tag mismatch: no verified message");
        return 0;
    }
    return 1;
}

static size_t ccm_tls_tag_len(const SMG_AEAD_CTX *c)
{
    return c->ccm_m;
}

/* RFC 6655: the nonce is the fixed field and the explicit one. */
static int ccm_tls_record(SMG_AEAD_CTX *c, const unsigned char *in,
                          unsigned char *out, size_t len, unsigned char *tag)
{
    if (c->base.enc)
        memcpy(out, c->tls_aad, SMG_AEAD_TLS_EXPLICIT_IV_LEN);
    memcpy(c->iv + SMG_AEAD_TLS_FIXED_IV_LEN, in,
           SMG_AEAD_TLS_EXPLICIT_IV_LEN);
    ccm_reset(c);
    if (!ccm_start(c, len) || !ccm_aad(c, c->tls_aad, c->tls_aad_len))
        return 0;
    c->data_done = 1;
    ccm_data(c, in + SMG_AEAD_TLS_EXPLICIT_IV_LEN,
             out + SMG_AEAD_TLS_EXPLICIT_IV_LEN, len, tag);
    return 1;
}

/*
 * The tag, with the reasons of ossl_ccm_get_ctx_params: a buffer of another
 * length than the tag's fails with nothing queued.
 */
static int ccm_get_tag(SMG_AEAD_CTX *c, OSSL_PARAM *p)
{
    if (!c->base.enc || !c->tag_set) {
        SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_SET));
        return 0;
    }
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return smg_aead_get_fail(c, p);
    if (p->data_size != c->ccm_mk
        || !OSSL_PARAM_set_octet_string(p, c->tag, c->ccm_mk))
        return 0;
    /* The tag ends the message, as in OpenSSL's CCM. */
    c->tag_set = 0;
    c->base.iv_set = 0;
    ccm_reset(c);
    return 1;
}

/* OpenSSL's CCM lists tlsivgen and iv-generated and answers neither. */
static int ccm_get_param(SMG_AEAD_CTX *c, enum smg_aead_get_param which,
                         OSSL_PARAM *p)
{
    switch (which) {
    case SMG_AEAD_GET_TAGLEN:
        return OSSL_PARAM_set_size_t(p, c->ccm_m) || smg_aead_get_fail(c, p);
    case SMG_AEAD_GET_IV:
    case SMG_AEAD_GET_UPDATED_IV:
        /* the nonce buffer as long as the caller's (at most a block),
         * once that holds the nonce, as OpenSSL's CCM answers */
        return smg_aead_get_iv(c, p, ccm_nonce_len(c),
                               p->data_size < BS ? p->data_size : BS);
    case SMG_AEAD_GET_TAG:
        return ccm_get_tag(c, p);
    default:
        return 1;
    }
}

/* A length alone sets M; with the bytes, the tag to verify. */
static int ccm_set_tag(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n = p->data_size;

    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return smg_aead_set_fail(c, p);
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

static int ccm_set_ivlen(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n;

    if (!OSSL_PARAM_get_size_t(p, &n))
        return smg_aead_set_fail(c, p);
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

/* tlsivfixed: the fixed part of the nonce, exactly 4 bytes. */
static int ccm_set_tls_iv_fixed(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t n = p->data_size;

    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        return smg_aead_set_fail(c, p);
    if (n != SMG_AEAD_TLS_FIXED_IV_LEN) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "a fixed field of %zu bytes, not 4", n);
        return 0;
    }
    memcpy(c->iv, p->data, n);
    return 1;
}

/* OpenSSL's CCM lists tlsivinv and ignores it. */
static int ccm_set_param(SMG_AEAD_CTX *c, enum smg_aead_set_param which,
                         const OSSL_PARAM *p)
{
    switch (which) {
    case SMG_AEAD_SET_TAG:
        return ccm_set_tag(c, p);
    case SMG_AEAD_SET_IVLEN:
        return ccm_set_ivlen(c, p);
    case SMG_AEAD_SET_TLS_IV_FIXED:
        return ccm_set_tls_iv_fixed(c, p);
    default:
        return 1;
    }
}

const SMG_AEAD_MODE smg_aead_ccm = {
    .evp_mode = EVP_CIPH_CCM_MODE,
    .aead = 1,
    .key_parts = 1,
    .gettable = smg_aead_gettable,
    .settable = smg_aead_settable,
    .init_ctx = ccm_init_ctx,
    .init = { .iv_len_ok = ccm_iv_len_ok, .take_iv = ccm_take_iv,
              .key_len = smg_aead_key_len, .set_key = ccm_set_key,
              .set_ctx_params = smg_aead_set_ctx_params },
    .iv_len = ccm_nonce_len,
    .length_update = 1,
    .update = ccm_update,
    .final = ccm_final,
    .tls_tag_len = ccm_tls_tag_len,
    .tls_aad_reason = SMG_PROV(INVALID_DATA),
    .tls_record = ccm_tls_record,
    .get_param = ccm_get_param,
    .set_param = ccm_set_param,
};
