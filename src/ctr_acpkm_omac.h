/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CTR-ACPKM-OMAC ciphers (R 1323565.1.026-2019 5.1, the CMS content
 * encryption of RFC 9337-era GOST CMS; gost-engine's
 * kuznyechik-ctr-acpkm-omac and magma-ctr-acpkm-omac) as one mode over two
 * layers: the block-mode layer's CTR-ACPKM cipher of the family
 * (src/modes.h, acpkm.h) runs the keystream, with its sections, key-mesh and
 * CMS parameters; the MAC layer's OMAC of the family (src/mac.h) the tag.
 * The mode adds what joins them: the two keys from the key as given,
 * K_ctr || K_mac = KDF_TREE_GOSTR3411_2012_256(K, "kdf tree", seed) with
 * the 8-byte seed of the CMS ukm (src/kdf_tree.h), and the tag, the OMAC
 * of the plaintext under K_mac encrypted by the keystream that follows the
 * message (gost-engine's gost2015_acpkm_omac_init and
 * gost2015_final_call).
 */
#ifndef SMGOST_CTR_ACPKM_OMAC_H
#define SMGOST_CTR_ACPKM_OMAC_H

#include "acpkm.h"
#include "mac.h"
#include "modes.h"

typedef struct smg_ctr_omac_alg {
    const SMG_CIPHER_ALG *ctr;  /* the family's CTR-ACPKM cipher */
    const SMG_MAC *omac;        /* the family's OMAC; its size is the tag's */
    /* The ukm seed in a context of ctr (acpkm.h). */
    SMG_ACPKM *(*acpkm)(SMG_CIPHER_CTX *ctx);
} SMG_CTR_OMAC_ALG;

void *smg_ctr_omac_newctx(void *provctx, const SMG_CTR_OMAC_ALG *alg);
OSSL_FUNC_cipher_freectx_fn smg_ctr_omac_freectx;
OSSL_FUNC_cipher_dupctx_fn smg_ctr_omac_dupctx;
int smg_ctr_omac_get_params(const SMG_CTR_OMAC_ALG *alg,
                            OSSL_PARAM params[]);
OSSL_FUNC_cipher_encrypt_init_fn smg_ctr_omac_einit;
OSSL_FUNC_cipher_decrypt_init_fn smg_ctr_omac_dinit;
OSSL_FUNC_cipher_update_fn smg_ctr_omac_update;
OSSL_FUNC_cipher_final_fn smg_ctr_omac_final;
OSSL_FUNC_cipher_cipher_fn smg_ctr_omac_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn smg_ctr_omac_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn smg_ctr_omac_set_ctx_params;

extern const OSSL_PARAM smg_ctr_omac_gettable[], smg_ctr_omac_settable[];

#define SMG_CTR_OMAC_DISPATCH(sym, algvar)                                   \
    SMG_LAYER_DISPATCH(sym, algvar, smg_ctr_omac, smg_ctr_omac_gettable,     \
                       smg_ctr_omac_settable)

#endif
