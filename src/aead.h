/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The mode layer of SM4's authenticated and disk modes (src/aead.c): GCM
 * and CCM, which share one AEAD part (IV or nonce, AAD, tag and length
 * rules, the TLS record params), and XTS, one data unit per update.  The
 * behaviour, names and parameter tables are those of OpenSSL 3.5's default
 * provider.  Kernels see whole blocks only, through the block table's aead
 * entry (src/kernel.h); this layer composes the entries a table leaves NULL.
 * The algorithms are SMG_CIPHER_ALGs of a 16-byte-block family, whose
 * set_key this layer calls (XTS: once per key half).
 */
#ifndef SMGOST_AEAD_H
#define SMGOST_AEAD_H

#include "modes.h"

#define SMG_GCM_IV_MAX 128          /* bytes, as OpenSSL's GCM allows */
#define SMG_AEAD_TLS_AAD_LEN 13     /* EVP_AEAD_TLS1_AAD_LEN */

typedef struct smg_aead_ctx {
    /* ks_enc/ks_dec (XTS: the data key), kernel, enc, key_set, iv_set */
    SMG_CIPHER_CTX base;
    unsigned char ks2[SMG_KS_MAX] __attribute__((aligned(16))); /* XTS tweak key */
    /* The GHASH table, 64-byte aligned somewhere inside (aead_htable()). */
    unsigned char htable_space[SMG_GHASH_TABLE_SIZE + 64];
    const SMG_AEAD_KERNEL *ak;
    unsigned char iv[SMG_GCM_IV_MAX];  /* GCM IV, CCM nonce, XTS tweak */
    size_t ivlen;
    int iv_state;               /* GCM: enum in aead.c */
    unsigned int iv_gen : 1;    /* TLS: IV from tlsivfixed/tlsivgen */
    unsigned int iv_gen_rand : 1;  /* GCM: the IV was generated here */
    unsigned int xts_ieee : 1;  /* xts_standard = IEEE (else GB) */
    /* CCM message state */
    unsigned int len_set : 1, aad_set : 1, data_done : 1, tag_set : 1,
                 verified : 1;
    unsigned int ek0_ready : 1; /* GCM: ek0 holds E(J0) of this message */
    unsigned char tag[16];      /* decrypt: the expected tag; encrypt: ours */
    size_t taglen;              /* GCM: SIZE_MAX until set or computed */
    /* CCM: L and M as set, and as bound to the key (OpenSSL binds them at
     * key setup; changing them later takes effect at the next key). */
    size_t ccm_l, ccm_m, ccm_lk, ccm_mk;
    uint64_t msglen;            /* CCM: the message length given */
    /* GCM running state */
    unsigned char j0[16], ctr[16], xi[16];
    unsigned char ek0[16];      /* GCM: E(J0) */
    unsigned char ks[16];       /* keystream of the partial data block */
    unsigned char part[16];     /* the partial AAD or ciphertext block */
    size_t ares, mres;          /* bytes in part: AAD / data */
    uint64_t aad_len, data_len;
    /* CCM running state: the MAC's pending input (src/kernel.h) */
    unsigned char mac[16];
    /* TLS records */
    unsigned char tls_aad[SMG_AEAD_TLS_AAD_LEN];
    size_t tls_aad_len;         /* 0: no TLS record pending */
    size_t tls_aad_pad;
    uint64_t tls_enc_records;
    char why[128];              /* why this call fails (fail() in aead.c) */
} SMG_AEAD_CTX;

void *smg_aead_newctx(void *provctx, const SMG_CIPHER_ALG *alg);
OSSL_FUNC_cipher_freectx_fn smg_aead_freectx;
OSSL_FUNC_cipher_dupctx_fn smg_aead_dupctx;
int smg_aead_get_params(const SMG_CIPHER_ALG *alg, OSSL_PARAM params[]);
OSSL_FUNC_cipher_encrypt_init_fn smg_aead_einit;
OSSL_FUNC_cipher_decrypt_init_fn smg_aead_dinit;
OSSL_FUNC_cipher_update_fn smg_aead_update;
OSSL_FUNC_cipher_final_fn smg_aead_final;
OSSL_FUNC_cipher_cipher_fn smg_aead_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn smg_aead_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn smg_aead_set_ctx_params;
const OSSL_PARAM *smg_aead_gettable_ctx_params(const SMG_CIPHER_ALG *alg);
const OSSL_PARAM *smg_aead_settable_ctx_params(const SMG_CIPHER_ALG *alg);

/*
 * The mode layer's composition of the aead entries a table leaves NULL
 * (src/kernel.h gives their contracts), from the block table k's ctr,
 * cbc_enc and ecb and ak's ghash; test/ct_check.c runs them directly.
 * enc selects the direction; ieee the XTS tweak convention.
 */
void smg_gcm_composed(const SMG_BLOCK_KERNEL *k, const SMG_AEAD_KERNEL *ak,
                      int enc, const void *ks, const void *htable,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char ctr[16], unsigned char xi[16]);
void smg_ccm_composed(const SMG_BLOCK_KERNEL *k, int enc, const void *ks,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char ctr[16], unsigned char mac[16]);
void smg_xts_composed(const SMG_BLOCK_KERNEL *k, int ieee, const void *ks,
                      const unsigned char *in, unsigned char *out, size_t n,
                      unsigned char tweak[16]);

/* One dispatch table per algorithm, over this layer's entry points. */
#define SMG_AEAD_DISPATCH(sym, algvar)                                       \
    SMG_LAYER_DISPATCH(sym, algvar, smg_aead,                                \
                       smg_aead_gettable_ctx_params(&(algvar)),              \
                       smg_aead_settable_ctx_params(&(algvar)))

#endif
