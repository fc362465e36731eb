/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kuznyechik cipher algorithms (GOST R 34.12-2015 128-bit in the modes of
 * GOST R 34.13-2015) over the shared mode layer, under the names and
 * conventions of gost-engine's provider gostprov:
 *   kuznyechik-ecb, -cbc   block ciphers, PKCS#7 padding on by default
 *   kuznyechik-cfb, -ofb   full-block feedback, a one-block IV, block size 1
 *   kuznyechik-ctr         an 8-byte IV; the counter block is IV || 0^64,
 *                          incremented as one 128-bit big-endian integer
 *   kuznyechik-ctr-acpkm   CTR with ACPKM re-keying (R 1323565.1.017-2018),
 *                          1.2.643.7.1.1.5.2.1, section `key-mesh` (4096
 *                          bytes by default; src/acpkm.h)
 *   kuznyechik-ctr-acpkm-omac  kuznyechik-ctr-acpkm with an OMAC tag, keys
 *                          from the KDF (src/ctr_acpkm_omac.h),
 *                          1.2.643.7.1.1.5.2.2, 16-byte tag
 *   kuznyechik-mgm         MGM (RFC 9058)
 * CBC, CFB and OFB also take an IV of 2 to SMG_MAX_IV_BLOCKS blocks (GOST
 * R 34.13-2015's register of m = z*n bits).  gostprov gives none of them
 * but kuznyechik-ctr-acpkm an OID.  Unlike gostprov, a re-init with the
 * same key and IV restarts the CTR counter whole, and the `mode` parameter
 * is the mode.
 */
#include <string.h>
#include <openssl/crypto.h>
#include "kuznyechik.h"
#include "acpkm.h"
#include "aead.h"
#include "ctr_acpkm_omac.h"
#include "err.h"
#include "mac.h"
#include "modes.h"
#include "prov.h"

_Static_assert(sizeof(KUZNYECHIK_KEY) <= SMG_KS_MAX,
               "Kuznyechik schedule too large");

/* Whether ctx decrypts with the block cipher: ECB and CBC decryption. */
static int decrypts(const SMG_CIPHER_CTX *ctx)
{
    smg_mode m = ctx->alg->mode;

    return !ctx->enc && (m == SMG_MODE_ECB || m == SMG_MODE_CBC);
}

/*
 * The decryption schedule is made only for a context that decrypts with
 * the block cipher (ks_dec stays as the mode layer left it, zero,
 * otherwise): CTR, OFB, CFB and CBC encryption never read one.
 */
static int kuznyechik_family_set_key(SMG_CIPHER_CTX *ctx,
                                     const unsigned char *key)
{
    int dec = decrypts(ctx);

    ctx->kernel = kuznyechik_kernel(smg_prov_constant_time(ctx->provctx));
    if (!kuznyechik_set_key_kernel(ctx->kernel, key,
                                   (KUZNYECHIK_KEY *)ctx->ks_enc,
                                   dec ? (KUZNYECHIK_KEY *)ctx->ks_dec
                                       : NULL)) {
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    return 1;
}

/*
 * A re-init that keeps the key: one that turns an encrypting ECB or CBC
 * context into a decrypting one makes the decryption schedule now, from
 * the encryption one (its decrypt flag is 0 until it is made).
 */
static int kuznyechik_restore_key(SMG_CIPHER_CTX *ctx)
{
    KUZNYECHIK_KEY *dec = (KUZNYECHIK_KEY *)ctx->ks_dec;

    if (decrypts(ctx) && !dec->decrypt)
        kuznyechik_decryption_schedule((KUZNYECHIK_KEY *)ctx->ks_enc, dec);
    return 1;
}

/* The GOST family's conventions (src/modes.h), as gostprov behaves. */
static const SMG_CIPHER_FAMILY kuznyechik_family = {
    .block_size = KUZNYECHIK_BLOCK_SIZE,
    .key_len = KUZNYECHIK_KEY_SIZE,
    .ctx_size = sizeof(SMG_CIPHER_CTX),
    .restart_counter_on_reinit = 1,
    .whole_block_iv = 1,
    .evp_final_errors = 1,
    .max_iv_blocks = SMG_MAX_IV_BLOCKS,
    .set_key = kuznyechik_family_set_key,
    .restore_key = kuznyechik_restore_key,
    .gettable_ctx_params = smg_cipher_generic_gettable_ctx_params,
    .settable_ctx_params = smg_cipher_generic_settable_ctx_params,
};

static const SMG_CIPHER_ALG kuznyechik_ecb =
    { &kuznyechik_family, SMG_MODE_ECB, 0, 16, NULL };
static const SMG_CIPHER_ALG kuznyechik_cbc =
    { &kuznyechik_family, SMG_MODE_CBC, 16, 16, NULL };
static const SMG_CIPHER_ALG kuznyechik_cfb =
    { &kuznyechik_family, SMG_MODE_CFB, 16, 1, NULL };
static const SMG_CIPHER_ALG kuznyechik_ofb =
    { &kuznyechik_family, SMG_MODE_OFB, 16, 1, NULL };
/* GOST R 34.13-2015 5.2: an 8-byte IV, the counter block is IV || 0^64. */
static const SMG_CIPHER_ALG kuznyechik_ctr =
    { &kuznyechik_family, SMG_MODE_CTR, 8, 1, NULL };

/*
 * kuznyechik-ctr-acpkm: the key as given kept to restart from, the CMS
 * seed (acpkm.h); gostprov's sections, 4 KiB, 256 KiB under CMS.
 */
typedef struct kuznyechik_acpkm_ctx {
    SMG_CIPHER_CTX base;
    unsigned char key[KUZNYECHIK_KEY_SIZE];
    int rekeyed;                /* the schedule is a later section's */
    SMG_ACPKM acpkm;
} KUZNYECHIK_ACPKM_CTX;

static const SMG_ACPKM_ALG kuznyechik_acpkm = { 4096, 256 * 1024 };

static void kuznyechik_acpkm_init_ctx(SMG_CIPHER_CTX *ctx)
{
    ctx->mesh_period = kuznyechik_acpkm.section;
}

static int kuznyechik_acpkm_set_key(SMG_CIPHER_CTX *ctx,
                                    const unsigned char *key)
{
    KUZNYECHIK_ACPKM_CTX *a = (KUZNYECHIK_ACPKM_CTX *)ctx;

    memcpy(a->key, key, sizeof(a->key));
    a->rekeyed = 0;
    return kuznyechik_family_set_key(ctx, key);
}

static int kuznyechik_acpkm_restore_key(SMG_CIPHER_CTX *ctx)
{
    KUZNYECHIK_ACPKM_CTX *a = (KUZNYECHIK_ACPKM_CTX *)ctx;

    return !a->rekeyed || kuznyechik_acpkm_set_key(ctx, a->key);
}

/* ACPKM: the next section's key, E_K(0x80..0x9f), as the key. */
static void kuznyechik_acpkm_mesh(SMG_CIPHER_CTX *ctx)
{
    unsigned char key[SMG_ACPKM_KEY_LEN];

    smg_acpkm_next_key(ctx->kernel, ctx->ks_enc, KUZNYECHIK_BLOCK_SIZE, key);
    /* The tables exist since the first key: this cannot fail. */
    kuznyechik_set_key_kernel(ctx->kernel, key,
                              (KUZNYECHIK_KEY *)ctx->ks_enc, NULL);
    OPENSSL_cleanse(key, sizeof(key));
    ((KUZNYECHIK_ACPKM_CTX *)ctx)->rekeyed = 1;
}

static int kuznyechik_acpkm_get_ctx_params(SMG_CIPHER_CTX *ctx,
                                           OSSL_PARAM params[])
{
    return smg_acpkm_get_ctx_params(ctx,
                                    &((KUZNYECHIK_ACPKM_CTX *)ctx)->acpkm,
                                    &kuznyechik_acpkm, params);
}

static int kuznyechik_acpkm_set_ctx_params(SMG_CIPHER_CTX *ctx,
                                           const OSSL_PARAM params[])
{
    return smg_acpkm_set_ctx_params(ctx,
                                    &((KUZNYECHIK_ACPKM_CTX *)ctx)->acpkm,
                                    &kuznyechik_acpkm, params);
}

static const SMG_CIPHER_FAMILY kuznyechik_acpkm_family = {
    .block_size = KUZNYECHIK_BLOCK_SIZE,
    .key_len = KUZNYECHIK_KEY_SIZE,
    .ctx_size = sizeof(KUZNYECHIK_ACPKM_CTX),
    .restart_counter_on_reinit = 1,
    .whole_block_iv = 1,
    .evp_final_errors = 1,
    .init_ctx = kuznyechik_acpkm_init_ctx,
    .set_key = kuznyechik_acpkm_set_key,
    .restore_key = kuznyechik_acpkm_restore_key,
    .mesh = kuznyechik_acpkm_mesh,
    .get_ctx_params = kuznyechik_acpkm_get_ctx_params,
    .set_ctx_params = kuznyechik_acpkm_set_ctx_params,
    .gettable_ctx_params = smg_acpkm_gettable_ctx_params,
    .settable_ctx_params = smg_acpkm_settable_ctx_params,
};

static const SMG_CIPHER_ALG kuznyechik_ctr_acpkm =
    { &kuznyechik_acpkm_family, SMG_MODE_CTR, 8, 1, NULL };

/* kuznyechik-ctr-acpkm-omac: kuznyechik-ctr-acpkm and kuznyechik-mac. */
static SMG_ACPKM *kuznyechik_acpkm_of(SMG_CIPHER_CTX *ctx)
{
    return &((KUZNYECHIK_ACPKM_CTX *)ctx)->acpkm;
}

static const SMG_CTR_OMAC_ALG kuznyechik_ctr_acpkm_omac =
    { &kuznyechik_ctr_acpkm, &smg_kuznyechik_omac, kuznyechik_acpkm_of };

SMG_CIPHER_DISPATCH(smg_kuznyechik_ecb, kuznyechik_ecb);
SMG_CIPHER_DISPATCH(smg_kuznyechik_cbc, kuznyechik_cbc);
SMG_CIPHER_DISPATCH(smg_kuznyechik_cfb, kuznyechik_cfb);
SMG_CIPHER_DISPATCH(smg_kuznyechik_ofb, kuznyechik_ofb);
SMG_CIPHER_DISPATCH(smg_kuznyechik_ctr, kuznyechik_ctr);
SMG_CIPHER_DISPATCH(smg_kuznyechik_ctr_acpkm, kuznyechik_ctr_acpkm);
SMG_CTR_OMAC_DISPATCH(smg_kuznyechik_ctr_acpkm_omac_cipher,
                      kuznyechik_ctr_acpkm_omac);

/* MGM (RFC 9058): a 16-byte nonce, as gostprov's kuznyechik-mgm. */
static const SMG_AEAD_ALG kuznyechik_mgm =
    { { &kuznyechik_family, SMG_MODE_CTR, 16, 1, NULL }, &smg_aead_mgm,
      NULL };

SMG_AEAD_DISPATCH(smg_kuznyechik_mgm, kuznyechik_mgm);
