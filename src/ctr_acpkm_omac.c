/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CTR-ACPKM-OMAC mode (ctr_acpkm_omac.h): a context holds a context
 * of the family's CTR-ACPKM cipher and one of its OMAC, keyed from the
 * key as given through the KDF; this file owns the derivation, the order
 * of the two over a message and the tag.
 *
 * As gost-engine: the seed of an encryption is drawn afresh at each key,
 * unless the CMS parameters (`alg_id_param`, `algorithm-id-params`) gave
 * one; a decryption's is the one they give, zero without.  Unlike it,
 * parameters that give a seed after the key derive the keys again (and
 * start the message again), so that their order does not matter.  The
 * plaintext goes to the OMAC before an encryption's keystream and after a
 * decryption's (the output may be the input).  The final encrypts the
 * OMAC of the message (the whole block) with the keystream that follows;
 * that is the tag: an encryption's read with `tag` after the final (1 to
 * n bytes, its first ones), a decryption's set before it (the whole n
 * bytes), a tag that differs failing the final with nothing queued, as
 * GCM's and MGM's do (src/aead.c).  gostprov offers the tag only to CMS
 * (EVP_CTRL_PROCESS_UNPROTECTED); the `tag` parameter here is the AEAD
 * one, which EVP_CTRL_AEAD_GET_TAG and SET_TAG reach.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include "aead.h"
#include "ctr_acpkm_omac.h"
#include "err.h"
#include "digest.h"
#include "kdf_tree.h"
#include "prov.h"

#define KEY_LEN 32

typedef struct ctr_omac_ctx {
    const SMG_CTR_OMAC_ALG *alg;
    void *provctx;
    SMG_CIPHER_CTX *ctr;
    SMG_MAC_CTX *mac;
    unsigned char key[KEY_LEN];         /* the key as given: the KDF's */
    unsigned char tag[SMG_MAC_MAX_BLOCK];  /* encrypted: ours or expected */
    unsigned int enc : 1, key_set : 1, seed_given : 1, tag_set : 1,
                 finalised : 1;
} CTR_OMAC_CTX;

static size_t tag_len(const CTR_OMAC_CTX *c)
{
    return c->alg->omac->block_size;
}

void smg_ctr_omac_freectx(void *vctx)
{
    CTR_OMAC_CTX *c = vctx;

    if (c == NULL)
        return;
    smg_cipher_freectx(c->ctr);
    smg_mac_freectx(c->mac);
    OPENSSL_clear_free(c, sizeof(*c));
}

void *smg_ctr_omac_newctx(void *provctx, const SMG_CTR_OMAC_ALG *alg)
{
    CTR_OMAC_CTX *c = OPENSSL_zalloc(sizeof(*c));

    if (c == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    c->alg = alg;
    c->provctx = provctx;
    if ((c->ctr = smg_cipher_newctx(provctx, alg->ctr)) == NULL
        || (c->mac = smg_mac_newctx(provctx, alg->omac)) == NULL) {
        smg_ctr_omac_freectx(c);
        return NULL;
    }
    return c;
}

void *smg_ctr_omac_dupctx(void *vctx)
{
    CTR_OMAC_CTX *c = vctx, *d = OPENSSL_malloc(sizeof(*d));

    if (d == NULL) {
        SMG_RAISE(c->provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    memcpy(d, c, sizeof(*d));
    d->ctr = NULL;
    d->mac = NULL;
    if ((d->ctr = smg_cipher_dupctx(c->ctr)) == NULL
        || (d->mac = smg_mac_dupctx(c->mac)) == NULL) {
        smg_ctr_omac_freectx(d);
        return NULL;
    }
    return d;
}

/*
 * K_ctr || K_mac from the key and the seed; the cipher takes K_ctr (and
 * the IV, if one is given), the OMAC K_mac: both start a message.
 */
static int derive(CTR_OMAC_CTX *c, const unsigned char *iv, size_t ivlen)
{
    static const unsigned char label[] = "kdf tree";
    const SMG_ACPKM *a = c->alg->acpkm(c->ctr);
    unsigned char keys[2 * KEY_LEN];
    int ok;

    smg_kdf_tree_256(smg_streebog256_digest.kernel(c->provctx), c->key,
                     KEY_LEN, label, sizeof(label) - 1, a->seed,
                     SMG_ACPKM_SEED_LEN, 1, keys, sizeof(keys));
    ok = smg_cipher_einit(c->ctr, keys, KEY_LEN, iv, ivlen, NULL)
         && smg_mac_init_with(c->alg->omac, c->mac, keys + KEY_LEN, KEY_LEN,
                              NULL);
    OPENSSL_cleanse(keys, sizeof(keys));
    return ok;
}

static int ctr_omac_init(CTR_OMAC_CTX *c, const unsigned char *key,
                         size_t keylen, const unsigned char *iv,
                         size_t ivlen, const OSSL_PARAM params[], int enc)
{
    c->enc = enc ? 1 : 0;
    c->tag_set = 0;
    c->finalised = 0;
    if (key != NULL) {
        SMG_ACPKM *a = c->alg->acpkm(c->ctr);

        if (keylen != KEY_LEN) {
            SMG_RAISE_DATA(c->provctx, SMG_PROV(INVALID_KEY_LENGTH),
                           "got %zu bytes, expected %d", keylen, KEY_LEN);
            return 0;
        }
        if (!c->seed_given) {
            if (!c->enc)
                memset(a->seed, 0, sizeof(a->seed));
            else if (RAND_bytes(a->seed, SMG_ACPKM_SEED_LEN) <= 0) {
                SMG_RAISE_DATA(c->provctx, SMG_PROV(FAILED_TO_GENERATE_KEY),
                               "the KDF seed");
                return 0;
            }
            a->seed_set = 1;
        }
        c->key_set = 0;
        memcpy(c->key, key, KEY_LEN);
        if (!derive(c, iv, ivlen))
            return 0;
        c->key_set = 1;
    } else if (!smg_cipher_einit(c->ctr, NULL, 0, iv, ivlen, NULL)
               || (c->key_set
                   && !smg_mac_init_with(c->alg->omac, c->mac, NULL, 0,
                                         NULL))) {
        return 0;
    }
    return smg_ctr_omac_set_ctx_params(c, params);
}

int smg_ctr_omac_einit(void *vctx, const unsigned char *key, size_t keylen,
                       const unsigned char *iv, size_t ivlen,
                       const OSSL_PARAM params[])
{
    return ctr_omac_init(vctx, key, keylen, iv, ivlen, params, 1);
}

int smg_ctr_omac_dinit(void *vctx, const unsigned char *key, size_t keylen,
                       const unsigned char *iv, size_t ivlen,
                       const OSSL_PARAM params[])
{
    return ctr_omac_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/*
 * Why c takes no data now: a finished message (reason), or no key, which
 * the cipher's refusal explains (not initialised, no key set), or a key
 * whose derivation failed.  Returns 0.
 */
static int refuse(CTR_OMAC_CTX *c, uint32_t finished)
{
    size_t l;

    if (c->finalised || smg_cipher_update(c->ctr, NULL, &l, 0, NULL, 0))
        SMG_RAISE(c->provctx, c->finalised ? finished
                                           : SMG_R_NOT_INITIALISED);
    return 0;
}

int smg_ctr_omac_update(void *vctx, unsigned char *out, size_t *outl,
                        size_t outsize, const unsigned char *in, size_t inl)
{
    CTR_OMAC_CTX *c = vctx;

    *outl = 0;
    if (!c->key_set || c->finalised)
        return refuse(c, SMG_R_UPDATE_AFTER_FINAL);
    if (inl == 0)
        return 1;
    /* An AEAD's update without an output is AAD elsewhere: none here. */
    if (out == NULL) {
        SMG_RAISE_DATA(c->provctx, SMG_PROV(CIPHER_OPERATION_FAILED),
                       "no additional authenticated data in this mode");
        return 0;
    }
    if (!smg_length_ok(c->ctr, in, out, inl)
        || !smg_same_length_output_ok(c->ctr, out, outsize, in, inl))
        return 0;
    if (c->enc && !smg_mac_update_with(c->alg->omac, c->mac, in, inl))
        return 0;
    if (!smg_cipher_update(c->ctr, out, outl, outsize, in, inl))
        return 0;
    return c->enc || smg_mac_update_with(c->alg->omac, c->mac, out, inl);
}

int smg_ctr_omac_final(void *vctx, unsigned char *out, size_t *outl,
                       size_t outsize)
{
    CTR_OMAC_CTX *c = vctx;
    unsigned char mac[SMG_MAC_MAX_BLOCK], tag[SMG_MAC_MAX_BLOCK];
    size_t n = tag_len(c), l;
    int ok;

    (void)out, (void)outsize;
    *outl = 0;
    if (!c->key_set || c->finalised)
        return refuse(c, SMG_R_ALREADY_FINALISED);
    if (!c->enc && !c->tag_set) {
        SMG_RAISE(c->provctx, SMG_PROV(TAG_NOT_SET));
        return 0;
    }
    ok = smg_mac_final_with(c->alg->omac, c->mac, mac, &l, sizeof(mac))
         && smg_cipher_update(c->ctr, tag, &l, sizeof(tag), mac, n);
    c->finalised = 1;
    if (ok && c->enc)
        memcpy(c->tag, tag, n);
    else if (ok)
        ok = !smg_aead_tag_mismatch(tag, c->tag, n);
    OPENSSL_cleanse(mac, sizeof(mac));
    OPENSSL_cleanse(tag, sizeof(tag));
    return ok;
}

/* The one-shot call: an update, or the final when in is NULL. */
int smg_ctr_omac_cipher(void *vctx, unsigned char *out, size_t *outl,
                        size_t outsize, const unsigned char *in, size_t inl)
{
    if (in == NULL)
        return smg_ctr_omac_final(vctx, out, outl, outsize);
    return smg_ctr_omac_update(vctx, out, outl, outsize, in, inl);
}

/* ---------------------------------------------------------------- params */

int smg_ctr_omac_get_params(const SMG_CTR_OMAC_ALG *alg, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    if (!smg_cipher_get_params(alg->ctr, params))
        return 0;
    /* An authenticated cipher: a tag to read or give. */
    return (p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) == NULL
           || OSSL_PARAM_set_int(p, 1);
}

/* An encryption's tag after its final, 1 to n bytes (its first ones). */
static int get_tag(CTR_OMAC_CTX *c, OSSL_PARAM *p)
{
    if (!c->enc || !c->finalised) {
        SMG_RAISE(c->provctx, SMG_PROV(TAG_NOT_SET));
        return 0;
    }
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0
        || p->data_size > tag_len(c)) {
        SMG_RAISE_DATA(c->provctx, SMG_PROV(INVALID_TAG_LENGTH),
                       "%zu bytes, not 1 to %zu", p->data_size, tag_len(c));
        return 0;
    }
    return OSSL_PARAM_set_octet_string(p, c->tag, p->data_size);
}

int smg_ctr_omac_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    CTR_OMAC_CTX *c = vctx;
    OSSL_PARAM *p;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, tag_len(c))) {
        SMG_RAISE_DATA(c->provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                       p->key);
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL
        && !get_tag(c, p))
        return 0;
    return smg_cipher_get_ctx_params(c->ctr, params);
}

/* A decryption's tag: the whole n bytes, as gost-engine compares it. */
static int set_tag(CTR_OMAC_CTX *c, const OSSL_PARAM *p)
{
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL
        || p->data_size != tag_len(c)) {
        SMG_RAISE_DATA(c->provctx, SMG_PROV(INVALID_TAG_LENGTH),
                       "%zu bytes, not the %zu of a block", p->data_size,
                       tag_len(c));
        return 0;
    }
    if (c->enc) {
        SMG_RAISE(c->provctx, SMG_PROV(TAG_NOT_NEEDED));
        return 0;
    }
    memcpy(c->tag, p->data, tag_len(c));
    c->tag_set = 1;
    return 1;
}

int smg_ctr_omac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    CTR_OMAC_CTX *c = vctx;
    const OSSL_PARAM *p;
    int seed;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG))
        != NULL && !set_tag(c, p))
        return 0;
    seed = smg_alg_id_given(params);
    if (!smg_cipher_set_ctx_params(c->ctr, params))
        return 0;
    if (!seed)
        return 1;
    c->seed_given = 1;
    if (!c->key_set)
        return 1;
    c->key_set = 0;
    c->finalised = 0;
    if (!derive(c, NULL, 0))
        return 0;
    c->key_set = 1;
    return 1;
}

const OSSL_PARAM smg_ctr_omac_gettable[] = {
    SMG_CIPHER_GENERIC_GETTABLE_CTX,
    SMG_ACPKM_CTX_PARAMS,
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};

const OSSL_PARAM smg_ctr_omac_settable[] = {
    SMG_CIPHER_GENERIC_SETTABLE_CTX,
    SMG_ACPKM_CTX_PARAMS,
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};
