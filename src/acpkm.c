/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CTR-ACPKM ciphers' parameters (acpkm.h): key-mesh and the CMS
 * parameters GOST2015_CIPHER_PARAMS.
 */
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include "acpkm.h"
#include "err.h"

/* The longest ukm: Kuznyechik's 8-byte IV and the seed. */
#define UKM_MAX (8 + SMG_ACPKM_SEED_LEN)
#define DER_MAX (4 + UKM_MAX)

/* SEQUENCE { OCTET STRING ukm }, short-form lengths. */
static size_t encode(const SMG_CIPHER_CTX *ctx, const SMG_ACPKM *a,
                     unsigned char der[DER_MAX])
{
    size_t ivlen = ctx->alg->iv_len, ukmlen = ivlen + SMG_ACPKM_SEED_LEN;

    der[0] = 0x30;
    der[1] = (unsigned char)(2 + ukmlen);
    der[2] = 0x04;
    der[3] = (unsigned char)ukmlen;
    memcpy(der + 4, ctx->oiv, ivlen);
    memcpy(der + 4 + ivlen, a->seed, SMG_ACPKM_SEED_LEN);
    return 4 + ukmlen;
}

/* The ukm of an encoding of exactly this algorithm's length, or NULL. */
static const unsigned char *decode(const SMG_CIPHER_CTX *ctx,
                                   const unsigned char *der, size_t len)
{
    size_t ukmlen = ctx->alg->iv_len + SMG_ACPKM_SEED_LEN;

    if (len != 4 + ukmlen || der[0] != 0x30 || der[1] != 2 + ukmlen
        || der[2] != 0x04 || der[3] != ukmlen)
        return NULL;
    return der + 4;
}

typedef struct {
    const SMG_CIPHER_CTX *ctx;
    const unsigned char *ukm;
} UKM_OF;

static int decode_ukm(void *arg, const unsigned char *der, size_t len)
{
    UKM_OF *u = arg;

    return (u->ukm = decode(u->ctx, der, len)) != NULL;
}

int smg_acpkm_get_ctx_params(SMG_CIPHER_CTX *ctx, SMG_ACPKM *a,
                             const SMG_ACPKM_ALG *alg, OSSL_PARAM params[])
{
    unsigned char der[DER_MAX];
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, SMG_GOST_PARAM_KEY_MESH)) != NULL
        && !OSSL_PARAM_set_size_t(p, ctx->mesh_period))
        goto fail;
    if ((p = smg_alg_id_wanted(params)) == NULL)
        return 1;
    if (!a->seed_set) {
        if (RAND_bytes(a->seed, SMG_ACPKM_SEED_LEN) <= 0) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GENERATE_KEY),
                           "the KDF seed of %s", p->key);
            return 0;
        }
        a->seed_set = 1;
    }
    if (!smg_alg_id_answer(params, der, encode(ctx, a, der), &p))
        goto fail;
    if (ctx->mesh_count == 0)
        ctx->mesh_period = alg->cms_section;
    return 1;
 fail:
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}

static int set_section(SMG_CIPHER_CTX *ctx, size_t v)
{
    if (v == 0 || v % ctx->bs != 0) {
        SMG_RAISE_DATA(ctx->provctx, SMG_R_INVALID_KEY_MESH,
                       "%zu is not a non-zero multiple of the %zu-byte block",
                       v, ctx->bs);
        return 0;
    }
    if (v != ctx->mesh_period && ctx->mesh_count != 0) {
        SMG_RAISE_DATA(ctx->provctx, SMG_R_INVALID_KEY_MESH,
                       "a message has begun under sections of %zu bytes",
                       ctx->mesh_period);
        return 0;
    }
    ctx->mesh_period = v;
    return 1;
}

int smg_acpkm_set_ctx_params(SMG_CIPHER_CTX *ctx, SMG_ACPKM *a,
                             const SMG_ACPKM_ALG *alg,
                             const OSSL_PARAM params[])
{
    UKM_OF u = { ctx, NULL };
    const unsigned char *ukm;
    const OSSL_PARAM *p;

    if (!smg_alg_id_decode(ctx->provctx, params, decode_ukm, &u))
        return 0;
    ukm = u.ukm;
    /* The CMS section first: a key-mesh beside it wins, as in gostprov,
     * which reads alg_id_param before key-mesh. */
    if (ukm != NULL) {
        if (!set_section(ctx, alg->cms_section))
            return 0;
        /* The IV takes effect at once, as gost89's alg_id_param. */
        memcpy(ctx->oiv, ukm, ctx->alg->iv_len);
        memcpy(ctx->iv, ctx->oiv, SMG_MAX_BLOCK);
        ctx->iv_set = 1;
        memcpy(a->seed, ukm + ctx->alg->iv_len, SMG_ACPKM_SEED_LEN);
        a->seed_set = 1;
    }
    if ((p = OSSL_PARAM_locate_const(params, SMG_GOST_PARAM_KEY_MESH))
        != NULL) {
        size_t v;

        if (!OSSL_PARAM_get_size_t(p, &v)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        if (!set_section(ctx, v))
            return 0;
    }
    return 1;
}

const OSSL_PARAM smg_acpkm_gettable_ctx_params[] = {
    SMG_CIPHER_GENERIC_GETTABLE_CTX,
    SMG_ACPKM_CTX_PARAMS,
    OSSL_PARAM_END
};

const OSSL_PARAM smg_acpkm_settable_ctx_params[] = {
    SMG_CIPHER_GENERIC_SETTABLE_CTX,
    SMG_ACPKM_CTX_PARAMS,
    OSSL_PARAM_END
};
