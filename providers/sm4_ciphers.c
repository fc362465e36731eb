/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 cipher algorithms (ECB, CBC, OFB, CFB, CTR; GCM, CCM, XTS): the SM4
 * family hooks for the shared mode layers (src/modes.c, src/aead.h) and one
 * dispatch table per mode, with the names, OIDs and behaviour of OpenSSL's
 * default provider.
 */
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "aead.h"
#include "modes.h"
#include "prov.h"
#include "sm4.h"

_Static_assert(sizeof(SM4_KEY) <= SMG_KS_MAX, "SM4 schedule too large");

/*
 * Only ECB, CBC and XTS decrypt with the block cipher; the other modes
 * never read a decryption schedule, so none is made (ks_dec stays as
 * newctx left it, zero): a GCM key setup is the cost of every message of
 * callers that pass the key with each IV, as openssl speed does.  Unless
 * e0 is NULL, E_K(0^128) goes into it: SM4-GCM's key setup (src/aead.h's
 * smg_gcm_set_key_fn).
 */
static int sm4_set_key_e0(SMG_CIPHER_CTX *ctx, const unsigned char *key,
                          unsigned char e0[16])
{
    smg_mode m = ctx->alg->mode;
    int dec = m == SMG_MODE_ECB || m == SMG_MODE_CBC || m == SMG_MODE_XTS;

    ctx->kernel = sm4_kernel(smg_prov_constant_time(ctx->provctx));
    sm4_set_key_kernel(ctx->kernel, key, (SM4_KEY *)ctx->ks_enc,
                       dec ? (SM4_KEY *)ctx->ks_dec : NULL, e0);
    return 1;
}

static int sm4_family_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    return sm4_set_key_e0(ctx, key, NULL);
}

static const SMG_CIPHER_FAMILY sm4_family = {
    .block_size = SM4_BLOCK_SIZE,
    .key_len = SM4_KEY_SIZE,
    .ctx_size = sizeof(SMG_CIPHER_CTX),
    .restart_counter_on_reinit = 0,
    .set_key = sm4_family_set_key,
    .gettable_ctx_params = smg_cipher_generic_gettable_ctx_params,
    .settable_ctx_params = smg_cipher_generic_settable_ctx_params,
};

static const SMG_CIPHER_ALG sm4_ecb = { &sm4_family, SMG_MODE_ECB, 0, 16, NULL };
static const SMG_CIPHER_ALG sm4_cbc = { &sm4_family, SMG_MODE_CBC, 16, 16, NULL };
static const SMG_CIPHER_ALG sm4_ofb = { &sm4_family, SMG_MODE_OFB, 16, 1, NULL };
static const SMG_CIPHER_ALG sm4_cfb = { &sm4_family, SMG_MODE_CFB, 16, 1, NULL };
static const SMG_CIPHER_ALG sm4_ctr = { &sm4_family, SMG_MODE_CTR, 16, 1, NULL };

SMG_CIPHER_DISPATCH(smg_sm4_ecb, sm4_ecb);
SMG_CIPHER_DISPATCH(smg_sm4_cbc, sm4_cbc);
SMG_CIPHER_DISPATCH(smg_sm4_ofb, sm4_ofb);
SMG_CIPHER_DISPATCH(smg_sm4_cfb, sm4_cfb);
SMG_CIPHER_DISPATCH(smg_sm4_ctr, sm4_ctr);

/* IV lengths as the algorithm reports them: GCM's and CCM's 12 bytes
 * (CCM's context starts at a 7-byte nonce, as OpenSSL's does). */
static const SMG_AEAD_ALG sm4_gcm =
    { { &sm4_family, SMG_MODE_GCM, 12, 1, NULL }, &smg_aead_gcm,
      sm4_set_key_e0 };
static const SMG_AEAD_ALG sm4_ccm =
    { { &sm4_family, SMG_MODE_CCM, 12, 1, NULL }, &smg_aead_ccm, NULL };
static const SMG_AEAD_ALG sm4_xts =
    { { &sm4_family, SMG_MODE_XTS, 16, 1, NULL }, &smg_aead_xts, NULL };

SMG_AEAD_DISPATCH(smg_sm4_gcm, sm4_gcm);
SMG_AEAD_DISPATCH(smg_sm4_ccm, sm4_ccm);
SMG_AEAD_DISPATCH(smg_sm4_xts, sm4_xts);
