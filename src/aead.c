/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AEAD layer's shared part (see aead.h): the context, init, the update
 * and final state machine over the mode's table (src/aead_gcm.c,
 * aead_ccm.c, aead_xts.c, aead_mgm.c), the TLS records' framing and tags,
 * and the params, with the behaviour of OpenSSL 3.5's default provider.
 * Nothing here assumes a block size: the mode files own their blocks.
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
#include "aead.h"
#include "ctgrind.h"
#include "err.h"

/* Param names OpenSSL 3.0's headers lack (3.1's core_names.h has them). */
#ifndef OSSL_CIPHER_PARAM_AEAD_IV_GENERATED
# define OSSL_CIPHER_PARAM_AEAD_IV_GENERATED "iv-generated"
#endif
#ifndef OSSL_CIPHER_PARAM_XTS_STANDARD
# define OSSL_CIPHER_PARAM_XTS_STANDARD "xts_standard"
#endif

/*
 * A failure of a message: no key, no IV, AAD out of order, a tag that
 * differs, a data unit of the wrong length, ...  The default provider
 * raises nothing for these where they happen: its update raises
 * PROV_R_CIPHER_OPERATION_FAILED for any of them, its final and its
 * one-shot cipher raise nothing (ossl_gcm_stream_update/_final/_cipher in
 * providers/implementations/ciphers/ciphercommon_gcm.c, the same in
 * ciphercommon_ccm.c, and the XTS ones of cipher_aes_xts.c and OpenSSL
 * 3.5's cipher_sm4_xts.c), so that a GCM tag mismatch leaves an empty
 * queue.  smg_aead_fail() keeps the reason in the context;
 * smg_aead_update raises that one error with the reason as its data, and
 * the others drop it.  Returns 0.
 */
int smg_aead_fail(SMG_AEAD_CTX *c, const char *fmt, ...)
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
int smg_aead_tag_not_set(SMG_AEAD_CTX *c)
{
    if (OPENSSL_version_major() >= 4)
        SMG_RAISE(c->base.provctx, SMG_PROV(TAG_NOT_SET));
    return smg_aead_fail(c, "tag not set");
}

/*
 * Whether two tags differ, in constant time: that verdict, which the caller
 * learns anyway, is all that leaves the comparison (test/95-ct-modes.t).
 */
int smg_aead_tag_mismatch(const unsigned char *a, const unsigned char *b,
                          size_t n)
{
    int bad = CRYPTO_memcmp(a, b, n) != 0;

    CT_PUBLIC(&bad, sizeof(bad));
    return bad;
}

void *smg_aead_newctx(void *provctx, const SMG_AEAD_ALG *alg)
{
    SMG_AEAD_CTX *c = OPENSSL_zalloc(sizeof(*c));

    if (c == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    c->base.alg = &alg->cipher;
    c->base.provctx = provctx;
    c->base.bs = alg->cipher.family->block_size;
    c->base.pad = 1;
    c->mode = alg->mode;
    c->ivlen = alg->cipher.iv_len;
    if (c->mode->init_ctx != NULL)
        c->mode->init_ctx(c);
    return c;
}

void smg_aead_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(SMG_AEAD_CTX));
}

void *smg_aead_dupctx(void *vctx)
{
    SMG_AEAD_CTX *c = vctx, *d = OPENSSL_malloc(sizeof(*d));

    if (d == NULL) {
        SMG_RAISE(c->base.provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    memcpy(d, c, sizeof(*d));
    if (c->mode->dup != NULL)
        c->mode->dup(d, c);
    return d;
}

static size_t alg_key_len(const SMG_CIPHER_ALG *cipher,
                          const SMG_AEAD_MODE *mode)
{
    return cipher->family->key_len * mode->key_parts;
}

int smg_aead_get_params(const SMG_AEAD_ALG *alg, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    if (((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL
         && !OSSL_PARAM_set_uint(p, alg->mode->evp_mode))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
            && !OSSL_PARAM_set_size_t(p, alg_key_len(&alg->cipher,
                                                     alg->mode)))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
            && !OSSL_PARAM_set_size_t(p, alg->cipher.iv_len))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE))
            != NULL && !OSSL_PARAM_set_size_t(p, 1))
        || ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) != NULL
            && !OSSL_PARAM_set_int(p, alg->mode->aead))
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

size_t smg_aead_key_len(const SMG_CIPHER_CTX *ctx)
{
    return alg_key_len(ctx->alg, ((const SMG_AEAD_CTX *)ctx)->mode);
}

int smg_aead_einit(void *vctx, const unsigned char *key, size_t keylen,
                   const unsigned char *iv, size_t ivlen,
                   const OSSL_PARAM params[])
{
    SMG_AEAD_CTX *c = vctx;

    return smg_cipher_init(&c->base, key, keylen, iv, ivlen, params, 1,
                           &c->mode->init);
}

int smg_aead_dinit(void *vctx, const unsigned char *key, size_t keylen,
                   const unsigned char *iv, size_t ivlen,
                   const OSSL_PARAM params[])
{
    SMG_AEAD_CTX *c = vctx;

    return smg_cipher_init(&c->base, key, keylen, iv, ivlen, params, 0,
                           &c->mode->init);
}

static int check_key(SMG_AEAD_CTX *c)
{
    if (!c->base.initialised) {
        smg_aead_fail(c, "operation not initialised");
        return 0;
    }
    if (!c->base.key_set) {
        smg_aead_fail(c, "no key set");
        return 0;
    }
    return 1;
}

/*
 * One TLS record, in place (RFC 5288 for GCM, RFC 6655 for CCM): the
 * explicit IV, the payload, the tag; the AAD came from tlsaad.
 */
static int tls_record(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                      const unsigned char *in, size_t len)
{
    size_t taglen = c->mode->tls_tag_len(c);
    unsigned char tag[SMG_MAX_BLOCK];
    int ok = 0;

    if (in == NULL || out != in
        || len < SMG_AEAD_TLS_EXPLICIT_IV_LEN + taglen) {
        smg_aead_fail(c, "invalid tls record: a record is processed in "
                      "place and holds the explicit IV and the tag");
        goto end;
    }
    len -= SMG_AEAD_TLS_EXPLICIT_IV_LEN + taglen;
    if (!c->mode->tls_record(c, in, out, len, tag))
        goto end;
    if (c->base.enc) {
        memcpy(out + SMG_AEAD_TLS_EXPLICIT_IV_LEN + len, tag, taglen);
        *outl = len + SMG_AEAD_TLS_EXPLICIT_IV_LEN + taglen;
    } else if (smg_aead_tag_mismatch(tag, in + SMG_AEAD_TLS_EXPLICIT_IV_LEN
                                     + len, taglen)) {
        OPENSSL_cleanse(out + SMG_AEAD_TLS_EXPLICIT_IV_LEN, len);
        smg_aead_fail(c, "tag mismatch");
        goto end;
    } else {
        *outl = len;
    }
    ok = 1;
 end:
    OPENSSL_cleanse(tag, sizeof(tag));
    if (c->mode->tls_end != NULL)
        c->mode->tls_end(c);
    c->tls_aad_len = 0;
    return ok;
}

/*
 * An update: a TLS record when one is pending, else the mode's (AAD when
 * out is NULL, CCM's message length when in is NULL too, else data; XTS:
 * one data unit).
 */
static int aead_update(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                       size_t outsize, const unsigned char *in, size_t inl)
{
    *outl = 0;
    if (!check_key(c))
        return 0;
    /* CCM's length update is the one with no input at all; OpenSSL's GCM
     * takes a NULL input as its final, which smgost does not follow */
    if (in == NULL && inl != 0 && (out != NULL || !c->mode->length_update))
        return smg_aead_fail(c, "%zu bytes from a NULL input", inl);
    if (in != NULL && !smg_length_ok(&c->base, in, out != NULL ? out : in,
                                     inl))
        return 0;
    if (out != NULL && in != NULL
        && !smg_same_length_output_ok(&c->base, out, outsize, in, inl))
        return 0;
    if (c->tls_aad_len != 0)
        return tls_record(c, out, outl, in, inl);
    return c->mode->update(c, out, outl, in, inl);
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
 * Fails with nothing queued (see smg_aead_fail(); but
 * smg_aead_tag_not_set()): a GCM tag that differs leaves an empty queue,
 * as the default provider's does, which callers such as Python's
 * cryptography take for an invalid tag.
 */
static int aead_final(SMG_AEAD_CTX *c)
{
    return check_key(c) && c->mode->final(c);
}

int smg_aead_final(void *vctx, unsigned char *out, size_t *outl,
                   size_t outsize)
{
    (void)out, (void)outsize;
    *outl = 0;
    return aead_final(vctx);
}

/* The one-shot call: an update, or an AEAD's final when in is NULL. */
int smg_aead_cipher(void *vctx, unsigned char *out, size_t *outl,
                    size_t outsize, const unsigned char *in, size_t inl)
{
    SMG_AEAD_CTX *c = vctx;

    if (in == NULL && out != NULL && c->mode->aead && c->tls_aad_len == 0) {
        *outl = 0;
        return aead_final(c);
    }
    return aead_update(c, out, outl, outsize, in, inl);
}

/* ---------------------------------------------------------------- params */

const OSSL_PARAM smg_aead_gettable[] = {
    SMG_AEAD_GETTABLE_CTX,
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_AEAD_IV_GENERATED, NULL),
    OSSL_PARAM_END
};

const OSSL_PARAM smg_aead_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END
};

/*
 * The parameter failures, with the default provider's reasons: it reports
 * a parameter it cannot answer as failing to set one, and one it cannot
 * read as failing to get one.
 */
int smg_aead_get_fail(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    SMG_RAISE_DATA(c->base.provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}

int smg_aead_set_fail(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    SMG_RAISE_DATA(c->base.provctx, SMG_PROV(FAILED_TO_GET_PARAMETER), "%s",
                   p->key);
    return 0;
}

int smg_aead_get_iv(SMG_AEAD_CTX *c, OSSL_PARAM *p, size_t want,
                    size_t give)
{
    if (p->data != NULL && p->data_size < want) {
        SMG_RAISE_DATA(c->base.provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "the IV has %zu bytes, the buffer %zu", want,
                       p->data_size);
        return 0;
    }
    return smg_set_iv_param(p, c->iv, give, 1) || smg_aead_get_fail(c, p);
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
static const char *const get_names[SMG_AEAD_GET_N] = {
    OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_IVLEN,
    OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_PADDING,
    OSSL_CIPHER_PARAM_NUM, OSSL_CIPHER_PARAM_IV,
    OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_CIPHER_PARAM_TLS_MAC,
    OSSL_CIPHER_PARAM_AEAD_TAGLEN, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
    OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN,
    OSSL_CIPHER_PARAM_AEAD_IV_GENERATED
};

/*
 * The gets are answered in one fixed order: keylen and ivlen here, then the
 * mode's in the order below (tls1aadpad here when the mode has TLS
 * records); most calls ask for ivlen or the tag alone.
 */
int smg_aead_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    SMG_AEAD_CTX *c = vctx;
    const SMG_AEAD_MODE *m = c->mode;
    OSSL_PARAM *p;
    uint32_t at[SMG_AEAD_GET_N], found;

    if (params == NULL)
        return 1;
    found = locate_params(params, get_names, SMG_AEAD_GET_N, at);
    if (GOT(SMG_AEAD_GET_KEYLEN)
        && !OSSL_PARAM_set_size_t(p, alg_key_len(c->base.alg, m)))
        return smg_aead_get_fail(c, p);
    if (GOT(SMG_AEAD_GET_IVLEN) && !OSSL_PARAM_set_size_t(p, m->iv_len(c)))
        return smg_aead_get_fail(c, p);
    found &= ~((uint32_t)1 << SMG_AEAD_GET_KEYLEN
               | (uint32_t)1 << SMG_AEAD_GET_IVLEN);
    if (found == 0)
        return 1;
#define ASK(which)                                                           \
    if (GOT(which) && !m->get_param(c, which, p))                            \
        return 0
    ASK(SMG_AEAD_GET_PADDING);
    ASK(SMG_AEAD_GET_NUM);
    ASK(SMG_AEAD_GET_TAGLEN);
    ASK(SMG_AEAD_GET_IV);
    ASK(SMG_AEAD_GET_UPDATED_IV);
    ASK(SMG_AEAD_GET_TLS_MAC);
    if (m->tls_record != NULL) {
        if (GOT(SMG_AEAD_GET_TLS_AAD_PAD)
            && !OSSL_PARAM_set_size_t(p, c->tls_aad_pad))
            return smg_aead_get_fail(c, p);
    } else {
        ASK(SMG_AEAD_GET_TLS_AAD_PAD);
    }
    ASK(SMG_AEAD_GET_TAG);
    ASK(SMG_AEAD_GET_TLS_IV_GEN);
    ASK(SMG_AEAD_GET_IV_GENERATED);
#undef ASK
    return 1;
}

/* tlsaad: the record header; the length it carries loses the explicit IV
 * and, when decrypting, the tag.  Returns the tag's length (the pad). */
static int set_tls_aad(SMG_AEAD_CTX *c, const OSSL_PARAM *p)
{
    size_t taglen = c->mode->tls_tag_len(c);
    /* ossl_gcm_set_ctx_params's and ossl_ccm_set_ctx_params's reasons */
    uint32_t bad = c->mode->tls_aad_reason;
    size_t len;

    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return smg_aead_set_fail(c, p);
    if (p->data_size != SMG_AEAD_TLS_AAD_LEN) {
        SMG_RAISE_DATA(c->base.provctx, bad,
                       "%zu bytes, not %d", p->data_size,
                       SMG_AEAD_TLS_AAD_LEN);
        return 0;
    }
    memcpy(c->tls_aad, p->data, SMG_AEAD_TLS_AAD_LEN);
    len = (size_t)c->tls_aad[11] << 8 | c->tls_aad[12];
    if (len < SMG_AEAD_TLS_EXPLICIT_IV_LEN + (c->base.enc ? 0 : taglen)) {
        SMG_RAISE_DATA(c->base.provctx, bad, "a record of %zu bytes", len);
        return 0;
    }
    len -= SMG_AEAD_TLS_EXPLICIT_IV_LEN + (c->base.enc ? 0 : taglen);
    c->tls_aad[11] = (unsigned char)(len >> 8);
    c->tls_aad[12] = (unsigned char)len;
    c->tls_aad_len = SMG_AEAD_TLS_AAD_LEN;
    c->tls_aad_pad = taglen;
    return 1;
}

static const char *const set_names[SMG_AEAD_SET_N] = {
    OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_IVLEN,
    OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
    OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, OSSL_CIPHER_PARAM_XTS_STANDARD
};

/* The sets are answered in set_names' order, tlsaad here when the mode
 * has TLS records. */
int smg_aead_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    SMG_AEAD_CTX *c = vctx;
    const SMG_AEAD_MODE *m;
    const OSSL_PARAM *p;
    uint32_t at[SMG_AEAD_SET_N], found;

    if (params == NULL)
        return 1;
    m = c->mode;
    found = locate_params(params, set_names, SMG_AEAD_SET_N, at);
#define TELL(which)                                                          \
    if (GOT(which) && !m->set_param(c, which, p))                            \
        return 0
    TELL(SMG_AEAD_SET_TAG);
    TELL(SMG_AEAD_SET_IVLEN);
    if (m->tls_record != NULL) {
        if (GOT(SMG_AEAD_SET_TLS_AAD) && !set_tls_aad(c, p))
            return 0;
    } else {
        TELL(SMG_AEAD_SET_TLS_AAD);
    }
    TELL(SMG_AEAD_SET_TLS_IV_FIXED);
    TELL(SMG_AEAD_SET_TLS_IV_INV);
    TELL(SMG_AEAD_SET_XTS_STANDARD);
#undef TELL
    return 1;
}
