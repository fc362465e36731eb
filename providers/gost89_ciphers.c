/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GOST 28147-89 and Magma cipher algorithms over the shared mode layer, under
 * the names, OIDs and conventions of gost-engine's provider gostprov (so a
 * user can swap one for the other), plus gost89-ecb and magma-ecb, which
 * gostprov lacks:
 *   gost89 / "GOST 28147-89"   CFB-64, CryptoPro key meshing, default set Z
 *   gost89-cnt                 RFC 5830 CNT, meshing, CryptoPro-A
 *   gost89-cnt-12              CNT, meshing, TC26 Z
 *   gost89-cbc, gost89-ecb     no meshing, default set Z
 *   magma-ecb/-cbc/-ctr        GOST R 34.12/34.13-2015, big-endian, Z only
 *   magma-ofb/-cfb             the same standard's OFB and CFB (gostprov
 *                              lacks them); CBC, OFB and CFB take an IV of
 *                              1 to SMG_MAX_IV_BLOCKS blocks (its register
 *                              of m = z*n bits)
 *   magma-ctr-acpkm            CTR with ACPKM re-keying (R 1323565.1.017-
 *                              2018), 1.2.643.7.1.1.5.1.1, section
 *                              `key-mesh` (1024 bytes by default; acpkm.h)
 *   magma-ctr-acpkm-omac       magma-ctr-acpkm with an OMAC tag, keys from
 *                              the KDF (src/ctr_acpkm_omac.h),
 *                              1.2.643.7.1.1.5.1.2, 8-byte tag
 *   magma-mgm                  MGM (RFC 9058)
 * The parameter set can be chosen through gostprov's `alg_id_param` (DER of
 * RFC 4357's Gost28147-89-Parameters, which also switches meshing on, as in
 * gost-engine; OpenSSL 3.4 renamed it `algorithm-id-params`, and both are
 * answered, since that is what EVP_CIPHER_param_to_asn1/asn1_to_param ask
 * for) or through the plain `paramset` string (a name or an OID);
 * `key-mesh` switches CryptoPro meshing off (0) or on (any other value:
 * RFC 4357 defines only the 1024-byte period, which is what gost-engine
 * applies whatever non-zero value it is given).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "acpkm.h"
#include "aead.h"
#include "ctr_acpkm_omac.h"
#include "err.h"
#include "gost89.h"
#include "gost_params.h"
#include "mac.h"
#include "modes.h"
#include "prov.h"

#define GOST89_MESH_PERIOD 1024

_Static_assert(sizeof(GOST89_KEY) <= SMG_KS_MAX, "GOST schedule too large");

typedef struct gost89_variant {
    const GOST89_PARAMSET *paramset;   /* default parameter set */
    int big_endian;                  /* Magma */
    int mesh;                        /* CryptoPro meshing by default */
    const char *oid;                 /* the algorithm's OID, or NULL */
} GOST89_VARIANT;

typedef struct gost89_cipher_ctx {
    SMG_CIPHER_CTX base;
    const GOST89_PARAMSET *paramset;
    unsigned char key[GOST89_KEY_SIZE];  /* to undo meshing at re-init */
    int meshed;                        /* schedules differ from key */
    GOST89_MESH_AHEAD ahead;             /* the next meshing, prepared */
    SMG_ACPKM acpkm;                     /* magma-ctr-acpkm's CMS seed */
} GOST89_CIPHER_CTX;

static const GOST89_VARIANT *variant_of(const SMG_CIPHER_CTX *ctx)
{
    return ctx->alg->variant;
}

static void gost89_init_ctx(SMG_CIPHER_CTX *ctx)
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;

    g->paramset = variant_of(ctx)->paramset;
    ctx->mesh_period = variant_of(ctx)->mesh ? GOST89_MESH_PERIOD : 0;
}

static int gost89_expand(GOST89_CIPHER_CTX *g)
{
    if (!gost89_set_key(g->key, g->paramset, variant_of(&g->base)->big_endian,
                      (GOST89_KEY *)g->base.ks_enc, (GOST89_KEY *)g->base.ks_dec)) {
        SMG_RAISE(g->base.provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    g->meshed = 0;
    gost89_mesh_ahead_reset(&g->ahead);
    return 1;
}

static int gost89_family_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;

    memcpy(g->key, key, sizeof(g->key));
    ctx->kernel = gost89_kernel(smg_prov_constant_time(ctx->provctx));
    return gost89_expand(g);
}

static int gost89_restore_key(SMG_CIPHER_CTX *ctx)
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;

    if (g->meshed)
        return gost89_expand(g);
    gost89_mesh_ahead_rewind(&g->ahead);
    return 1;
}

static void gost89_mesh(SMG_CIPHER_CTX *ctx)
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;

    gost89_key_mesh_ahead(ctx->kernel, &g->ahead, (GOST89_KEY *)ctx->ks_enc,
                        (GOST89_KEY *)ctx->ks_dec, ctx->iv);
    g->meshed = 1;
}

/* CNT and CFB decryption: a period with the next meshing alongside. */
static int gost89_period_blocks(SMG_CIPHER_CTX *ctx, const unsigned char *in,
                              unsigned char *out, size_t nblocks)
{
    smg_mode m = ctx->alg->mode;

    if (m != SMG_MODE_CNT && (m != SMG_MODE_CFB || ctx->enc))
        return 0;
    return gost89_period_ahead(ctx->kernel, m == SMG_MODE_CNT,
                             &((GOST89_CIPHER_CTX *)ctx)->ahead,
                             (GOST89_KEY *)ctx->ks_enc, (GOST89_KEY *)ctx->ks_dec,
                             in, out, nblocks, ctx->iv);
}

static int use_paramset(GOST89_CIPHER_CTX *g, const GOST89_PARAMSET *ps)
{
    g->paramset = ps;
    gost89_mesh_ahead_reset(&g->ahead);
    if (g->base.key_set
        && !gost89_set_paramset((GOST89_KEY *)g->base.ks_enc,
                              (GOST89_KEY *)g->base.ks_dec, ps)) {
        SMG_RAISE(g->base.provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    return 1;
}

/* The content octets of a dotted OID's DER encoding; 0 if over max. */
static size_t oid_der_body(const char *dotted, unsigned char *out, size_t max)
{
    unsigned long arcs[16];
    size_t narcs = 0, len = 0, i;
    const char *p = dotted;
    char *end;

    for (;;) {
        arcs[narcs++] = strtoul(p, &end, 10);
        if (*end != '.' || narcs == 16)
            break;
        p = end + 1;
    }
    if (narcs < 2)
        return 0;
    arcs[1] += arcs[0] * 40;        /* the first two arcs share one */
    for (i = 1; i < narcs; i++) {
        unsigned char tmp[10];
        unsigned long v = arcs[i];
        size_t n = 0;

        do
            tmp[n++] = (unsigned char)(v & 0x7f);
        while ((v >>= 7) != 0);
        if (len + n > max)
            return 0;
        while (n-- > 0)
            out[len++] = (unsigned char)(tmp[n] | (n > 0 ? 0x80 : 0));
    }
    return len;
}

/*
 * RFC 4357 10.1: Gost28147-89-Parameters ::= SEQUENCE { iv OCTET STRING
 * (SIZE (8)), encryptionParamSet OBJECT IDENTIFIER }.  Every encoding we
 * meet is short-form, 14 bytes plus the OID.
 */
#define ALG_ID_MAX 48

static size_t alg_id_encode(const GOST89_PARAMSET *ps, const unsigned char *iv,
                            unsigned char *out)
{
    size_t oidlen = oid_der_body(ps->oid, out + 14, ALG_ID_MAX - 14);

    out[0] = 0x30;
    out[1] = (unsigned char)(12 + oidlen);
    out[2] = 0x04;
    out[3] = 0x08;
    memcpy(out + 4, iv, 8);
    out[12] = 0x06;
    out[13] = (unsigned char)oidlen;
    return 14 + oidlen;
}

/*
 * X.509's AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER,
 * parameters }: the algorithm's OID (short, as ours are) and the above.
 */
#define ALGORITHM_ID_MAX (ALG_ID_MAX + 20)

static size_t algorithm_id_encode(const char *oid, const GOST89_PARAMSET *ps,
                                  const unsigned char *iv,
                                  unsigned char out[ALGORITHM_ID_MAX])
{
    size_t oidlen = oid_der_body(oid, out + 4, ALGORITHM_ID_MAX - 4
                                               - ALG_ID_MAX);
    size_t plen = alg_id_encode(ps, iv, out + 4 + oidlen);

    out[0] = 0x30;
    out[1] = (unsigned char)(2 + oidlen + plen);
    out[2] = 0x06;
    out[3] = (unsigned char)oidlen;
    return 4 + oidlen + plen;
}

/* What an encoding of RFC 4357's parameters gives. */
typedef struct {
    const GOST89_PARAMSET *ps;
    const unsigned char *iv;
} ALG_ID;

/* Decodes der into arg, an ALG_ID (smg_alg_id_decode's decoder). */
static int alg_id_decode(void *arg, const unsigned char *der, size_t len)
{
    ALG_ID *a = arg;
    unsigned char oid[ALG_ID_MAX];
    size_t i, n;

    if (len < 14 || len > ALG_ID_MAX || der[0] != 0x30 || der[1] != len - 2
        || der[2] != 0x04 || der[3] != 0x08 || der[12] != 0x06
        || der[13] != len - 14)
        return 0;
    for (i = 0; gost89_paramsets[i] != NULL; i++) {
        n = oid_der_body(gost89_paramsets[i]->oid, oid, sizeof(oid));
        if (n == len - 14 && memcmp(oid, der + 14, n) == 0) {
            a->ps = gost89_paramsets[i];
            a->iv = der + 4;
            return 1;
        }
    }
    return 0;
}

int smg_gost89_paramset_param(void *provctx, const OSSL_PARAM *p,
                            const GOST89_PARAMSET **ps)
{
    const GOST89_PARAMSET *found;
    const char *name;

    if (!OSSL_PARAM_get_utf8_string_ptr(p, &name)) {
        SMG_RAISE_DATA(provctx, SMG_PROV(FAILED_TO_GET_PARAMETER), "%s",
                       p->key);
        return 0;
    }
    if ((found = gost89_paramset_lookup(name)) == NULL) {
        SMG_RAISE_DATA(provctx, SMG_R_UNKNOWN_PARAMETER_SET, "%s", name);
        return 0;
    }
    *ps = found;            /* only on success: callers pass live state */
    return 1;
}

static int gost89_get_ctx_params(SMG_CIPHER_CTX *ctx, OSSL_PARAM params[])
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;
    const char *oid = variant_of(ctx)->oid;
    unsigned char der[ALGORITHM_ID_MAX];
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, GOST89_PARAM_PARAMSET)) != NULL
        && !OSSL_PARAM_set_utf8_string(p, g->paramset->name))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, SMG_GOST_PARAM_KEY_MESH)) != NULL
        && !OSSL_PARAM_set_size_t(p, ctx->mesh_period))
        goto fail;
    if (smg_alg_id_wanted(params) != NULL
        && !smg_alg_id_answer(params, der,
                              alg_id_encode(g->paramset, ctx->oiv, der), &p))
        goto fail;
    /*
     * Only an algorithm with an OID has an AlgorithmIdentifier; the others
     * leave the param unanswered, and EVP_CIPHER_CTX_get_algor() says
     * "getting AlgorithmIdentifier not supported".
     */
    if (oid != NULL
        && (p = OSSL_PARAM_locate(params, SMG_GOST_PARAM_ALGORITHM_ID)) != NULL
        && !OSSL_PARAM_set_octet_string(p, der,
                                        algorithm_id_encode(oid, g->paramset,
                                                            ctx->oiv, der)))
        goto fail;
    return 1;
 fail:
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}

static int gost89_set_ctx_params(SMG_CIPHER_CTX *ctx, const OSSL_PARAM params[])
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;
    ALG_ID algid = { NULL, NULL };
    const OSSL_PARAM *p;

    /* RFC 4357's parameters: each name's must decode before any applies */
    if (!smg_alg_id_decode(ctx->provctx, params, alg_id_decode, &algid))
        return 0;
    if (algid.ps != NULL) {
        if (!use_paramset(g, algid.ps))
            return 0;
        /*
         * The IV of the encoding, and meshing on, as gost-engine's
         * gost89_set_asn1_parameters.  The IV takes effect at once
         * (gostprov keeps it for the next init only; a CMS decoder, which
         * sets this before the init that gives the key, sees no
         * difference).
         */
        memcpy(ctx->oiv, algid.iv, 8);
        memcpy(ctx->iv, algid.iv, 8);
        ctx->iv_set = 1;
        ctx->mesh_period = GOST89_MESH_PERIOD;
    }
    if ((p = OSSL_PARAM_locate_const(params, GOST89_PARAM_PARAMSET)) != NULL) {
        const GOST89_PARAMSET *ps;

        if (!smg_gost89_paramset_param(ctx->provctx, p, &ps)
            || !use_paramset(g, ps))
            return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, SMG_GOST_PARAM_KEY_MESH))
        != NULL) {
        size_t v;

        if (!OSSL_PARAM_get_size_t(p, &v)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        if (v != 0 && (ctx->alg->mode == SMG_MODE_ECB
                       || ctx->alg->mode == SMG_MODE_CBC)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_R_INVALID_KEY_MESH,
                           "CryptoPro meshing applies to CFB and CNT only");
            return 0;
        }
        ctx->mesh_period = v != 0 ? GOST89_MESH_PERIOD : 0;
    }
    return 1;
}

/*
 * Every GOST 28147-89 family parameter but algorithm-id (which only
 * gost89, the one with an OID, answers) can be both read and set.
 * libcrypto takes a cipher's AlgorithmIdentifier parameters from the
 * provider (rather than as a bare IV) when the gettable table lists
 * alg_id_param (OpenSSL 3.0 to 3.3) or algorithm-id-params (3.4 and later).
 */
#define GOST89_CTX_PARAMS                                                    \
    OSSL_PARAM_utf8_string(GOST89_PARAM_PARAMSET, NULL, 0),                  \
    OSSL_PARAM_octet_string(SMG_GOST_PARAM_ALG_ID, NULL, 0),                 \
    OSSL_PARAM_octet_string(SMG_GOST_PARAM_ALG_ID_PARAMS, NULL, 0),          \
    OSSL_PARAM_size_t(SMG_GOST_PARAM_KEY_MESH, NULL)

static const OSSL_PARAM gost89_gettable_ctx_params[] = {
    SMG_CIPHER_GENERIC_GETTABLE_CTX,
    GOST89_CTX_PARAMS,
    OSSL_PARAM_octet_string(SMG_GOST_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM gost89_settable_ctx_params[] = {
    SMG_CIPHER_GENERIC_SETTABLE_CTX,
    GOST89_CTX_PARAMS,
    OSSL_PARAM_END
};

static const SMG_CIPHER_FAMILY gost89_family = {
    .block_size = GOST89_BLOCK_SIZE,
    .key_len = GOST89_KEY_SIZE,
    .ctx_size = sizeof(GOST89_CIPHER_CTX),
    .restart_counter_on_reinit = 1,
    .whole_block_iv = 1,
    .evp_final_errors = 1,
    .init_ctx = gost89_init_ctx,
    .set_key = gost89_family_set_key,
    .restore_key = gost89_restore_key,
    .mesh = gost89_mesh,
    .period_blocks = gost89_period_blocks,
    .get_ctx_params = gost89_get_ctx_params,
    .set_ctx_params = gost89_set_ctx_params,
    .gettable_ctx_params = gost89_gettable_ctx_params,
    .settable_ctx_params = gost89_settable_ctx_params,
};

/*
 * Magma has one fixed S-box (TC26 Z) and no CryptoPro meshing: no family
 * params; GOST R 34.13-2015's register of z blocks.
 */
static const SMG_CIPHER_FAMILY magma_family = {
    .block_size = GOST89_BLOCK_SIZE,
    .key_len = GOST89_KEY_SIZE,
    .ctx_size = sizeof(GOST89_CIPHER_CTX),
    .restart_counter_on_reinit = 1,
    .whole_block_iv = 1,
    .evp_final_errors = 1,
    .max_iv_blocks = SMG_MAX_IV_BLOCKS,
    .init_ctx = gost89_init_ctx,
    .set_key = gost89_family_set_key,
    .gettable_ctx_params = smg_cipher_generic_gettable_ctx_params,
    .settable_ctx_params = smg_cipher_generic_settable_ctx_params,
};

/* gostprov's magma-ctr-acpkm: 1 KiB sections, 8 KiB under CMS. */
static const SMG_ACPKM_ALG magma_acpkm = { 1024, 8192 };

static void magma_acpkm_init_ctx(SMG_CIPHER_CTX *ctx)
{
    gost89_init_ctx(ctx);
    ctx->mesh_period = magma_acpkm.section;
}

/* ACPKM: the next section's key, E_K(0x80..0x9f), as the key. */
static void magma_acpkm_mesh(SMG_CIPHER_CTX *ctx)
{
    GOST89_CIPHER_CTX *g = (GOST89_CIPHER_CTX *)ctx;
    unsigned char key[SMG_ACPKM_KEY_LEN];

    smg_acpkm_next_key(ctx->kernel, ctx->ks_enc, GOST89_BLOCK_SIZE, key);
    /* The set's tables exist since the first key: this cannot fail. */
    gost89_set_key(key, g->paramset, 1, (GOST89_KEY *)ctx->ks_enc,
                   (GOST89_KEY *)ctx->ks_dec);
    OPENSSL_cleanse(key, sizeof(key));
    g->meshed = 1;
}

static int magma_acpkm_get_ctx_params(SMG_CIPHER_CTX *ctx,
                                      OSSL_PARAM params[])
{
    return smg_acpkm_get_ctx_params(ctx, &((GOST89_CIPHER_CTX *)ctx)->acpkm,
                                    &magma_acpkm, params);
}

static int magma_acpkm_set_ctx_params(SMG_CIPHER_CTX *ctx,
                                      const OSSL_PARAM params[])
{
    return smg_acpkm_set_ctx_params(ctx, &((GOST89_CIPHER_CTX *)ctx)->acpkm,
                                    &magma_acpkm, params);
}

static const SMG_CIPHER_FAMILY magma_acpkm_family = {
    .block_size = GOST89_BLOCK_SIZE,
    .key_len = GOST89_KEY_SIZE,
    .ctx_size = sizeof(GOST89_CIPHER_CTX),
    .restart_counter_on_reinit = 1,
    .whole_block_iv = 1,
    .evp_final_errors = 1,
    .init_ctx = magma_acpkm_init_ctx,
    .set_key = gost89_family_set_key,
    .restore_key = gost89_restore_key,
    .mesh = magma_acpkm_mesh,
    .get_ctx_params = magma_acpkm_get_ctx_params,
    .set_ctx_params = magma_acpkm_set_ctx_params,
    .gettable_ctx_params = smg_acpkm_gettable_ctx_params,
    .settable_ctx_params = smg_acpkm_settable_ctx_params,
};

/* Of the GOST ciphers only gost89 (CFB) has an OID, RFC 4357's. */
static const GOST89_VARIANT gost89_cfb_z =
    { &gost89_paramset_z, 0, 1, "1.2.643.2.2.21" };
static const GOST89_VARIANT gost89_meshed_z = { &gost89_paramset_z, 0, 1, NULL };
static const GOST89_VARIANT gost89_meshed_cpa =
    { &gost89_paramset_cpa, 0, 1, NULL };
static const GOST89_VARIANT gost89_plain_z = { &gost89_paramset_z, 0, 0, NULL };
static const GOST89_VARIANT magma = { &gost89_paramset_z, 1, 0, NULL };

static const SMG_CIPHER_ALG gost89_cfb =
    { &gost89_family, SMG_MODE_CFB, 8, 1, &gost89_cfb_z };
static const SMG_CIPHER_ALG gost89_cnt =
    { &gost89_family, SMG_MODE_CNT, 8, 1, &gost89_meshed_cpa };
static const SMG_CIPHER_ALG gost89_cnt_12 =
    { &gost89_family, SMG_MODE_CNT, 8, 1, &gost89_meshed_z };
static const SMG_CIPHER_ALG gost89_cbc =
    { &gost89_family, SMG_MODE_CBC, 8, 8, &gost89_plain_z };
static const SMG_CIPHER_ALG gost89_ecb =
    { &gost89_family, SMG_MODE_ECB, 0, 8, &gost89_plain_z };
static const SMG_CIPHER_ALG magma_ecb =
    { &magma_family, SMG_MODE_ECB, 0, 8, &magma };
static const SMG_CIPHER_ALG magma_cbc =
    { &magma_family, SMG_MODE_CBC, 8, 8, &magma };
/* GOST R 34.13-2015: a 4-byte IV, the counter block is IV || 0^32. */
static const SMG_CIPHER_ALG magma_ctr =
    { &magma_family, SMG_MODE_CTR, 4, 1, &magma };
static const SMG_CIPHER_ALG magma_ofb =
    { &magma_family, SMG_MODE_OFB, 8, 1, &magma };
static const SMG_CIPHER_ALG magma_cfb =
    { &magma_family, SMG_MODE_CFB, 8, 1, &magma };
static const SMG_CIPHER_ALG magma_ctr_acpkm =
    { &magma_acpkm_family, SMG_MODE_CTR, 4, 1, &magma };
/*
 * magma-mgm's family: the AEAD layer's context (src/aead.h) holds the
 * schedule alone, so its key setup is Magma's schedule (TC26 Z,
 * big-endian) without GOST89_CIPHER_CTX's meshing state.
 */
static int magma_aead_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    ctx->kernel = gost89_kernel(smg_prov_constant_time(ctx->provctx));
    if (!gost89_set_key(key, magma.paramset, magma.big_endian,
                        (GOST89_KEY *)ctx->ks_enc,
                        (GOST89_KEY *)ctx->ks_dec)) {
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    return 1;
}

static const SMG_CIPHER_FAMILY magma_aead_family = {
    .block_size = GOST89_BLOCK_SIZE,
    .key_len = GOST89_KEY_SIZE,
    .ctx_size = sizeof(SMG_CIPHER_CTX),
    .set_key = magma_aead_set_key,
};

/* MGM (RFC 9058): an 8-byte nonce, as gostprov's magma-mgm. */
static const SMG_AEAD_ALG magma_mgm =
    { { &magma_aead_family, SMG_MODE_CTR, 8, 1, &magma }, &smg_aead_mgm,
      NULL };

/* magma-ctr-acpkm-omac: magma-ctr-acpkm and magma-mac. */
static SMG_ACPKM *magma_acpkm_of(SMG_CIPHER_CTX *ctx)
{
    return &((GOST89_CIPHER_CTX *)ctx)->acpkm;
}

static const SMG_CTR_OMAC_ALG magma_ctr_acpkm_omac =
    { &magma_ctr_acpkm, &smg_magma_omac, magma_acpkm_of };

SMG_CIPHER_DISPATCH(smg_gost89, gost89_cfb);
SMG_CIPHER_DISPATCH(smg_gost89_cnt, gost89_cnt);
SMG_CIPHER_DISPATCH(smg_gost89_cnt_12, gost89_cnt_12);
SMG_CIPHER_DISPATCH(smg_gost89_cbc, gost89_cbc);
SMG_CIPHER_DISPATCH(smg_gost89_ecb, gost89_ecb);
SMG_CIPHER_DISPATCH(smg_magma_ecb, magma_ecb);
SMG_CIPHER_DISPATCH(smg_magma_cbc, magma_cbc);
SMG_CIPHER_DISPATCH(smg_magma_ctr, magma_ctr);
SMG_CIPHER_DISPATCH(smg_magma_ofb, magma_ofb);
SMG_CIPHER_DISPATCH(smg_magma_cfb, magma_cfb);
SMG_CIPHER_DISPATCH(smg_magma_ctr_acpkm, magma_ctr_acpkm);
SMG_AEAD_DISPATCH(smg_magma_mgm, magma_mgm);
SMG_CTR_OMAC_DISPATCH(smg_magma_ctr_acpkm_omac_cipher, magma_ctr_acpkm_omac);
