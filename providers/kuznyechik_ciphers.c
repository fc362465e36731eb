/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kuznyechik cipher algorithms (GOST R 34.12-2015 128-bit in the modes of
 * GOST R 34.13-2015) over the shared mode layer, under the names and
 * conventions of gost-engine's provider gostprov:
 *   kuznyechik-ecb, -cbc   block ciphers, PKCS#7 padding on by default
 *   kuznyechik-cfb, -ofb   full-block feedback, a one-block IV, block size 1
 *   kuznyechik-ctr         an 8-byte IV; the counter block is IV || 0^64,
 *                          incremented as one 128-bit big-endian integer
 * gostprov gives none of them an OID.  Unlike gostprov, a re-init with the
 * same key and IV restarts the CTR counter whole, and the `mode` parameter
 * is the mode.
 */
#include "kuznyechik.h"
#include "err.h"
#include "modes.h"
#include "prov.h"

_Static_assert(sizeof(KUZNYECHIK_KEY) <= SMG_KS_MAX,
               "Kuznyechik schedule too large");

/*
 * Only ECB and CBC decrypt with the block cipher; the other modes never
 * read a decryption schedule, so none is made (ks_dec stays as newctx left
 * it, zero).
 */
static int kuznyechik_family_set_key(SMG_CIPHER_CTX *ctx,
                                     const unsigned char *key)
{
    smg_mode m = ctx->alg->mode;
    int dec = m == SMG_MODE_ECB || m == SMG_MODE_CBC;

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

/* The GOST family's conventions (src/modes.h), as gostprov behaves. */
static const SMG_CIPHER_FAMILY kuznyechik_family = {
    .block_size = KUZNYECHIK_BLOCK_SIZE,
    .key_len = KUZNYECHIK_KEY_SIZE,
    .ctx_size = sizeof(SMG_CIPHER_CTX),
    .restart_counter_on_reinit = 1,
    .whole_block_iv = 1,
    .evp_final_errors = 1,
    .set_key = kuznyechik_family_set_key,
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

SMG_CIPHER_DISPATCH(smg_kuznyechik_ecb, kuznyechik_ecb);
SMG_CIPHER_DISPATCH(smg_kuznyechik_cbc, kuznyechik_cbc);
SMG_CIPHER_DISPATCH(smg_kuznyechik_cfb, kuznyechik_cfb);
SMG_CIPHER_DISPATCH(smg_kuznyechik_ofb, kuznyechik_ofb);
SMG_CIPHER_DISPATCH(smg_kuznyechik_ctr, kuznyechik_ctr);
