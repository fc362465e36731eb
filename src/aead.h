/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AEAD layer: authenticated and disk modes over a block cipher of any
 * block size, as one shared part (src/aead.c: the context, the AAD, data
 * and tag state machine, the TLS records and the params) over one table of
 * mode operations per mode, each mode a file: GCM (src/aead_gcm.c), CCM
 * (src/aead_ccm.c), XTS (src/aead_xts.c), which is here for its two keys
 * and its one-unit updates, and MGM (src/aead_mgm.c, 8- and 16-byte
 * blocks).  The behaviour, names and parameter tables are those of OpenSSL
 * 3.5's default provider, MGM's those of gost-engine's gostprov.  Kernels see whole
 * blocks only, through the block table's table of their mode (src/kernel.h);
 * the mode files compose what a table leaves NULL.  An algorithm is an
 * SMG_CIPHER_ALG (its family, IV length, ...) with its mode's table.
 */
#ifndef SMGOST_AEAD_H
#define SMGOST_AEAD_H

#include <stdint.h>
#include "modes.h"

#define SMG_GCM_IV_MAX 128          /* bytes, as OpenSSL's GCM allows */
#define SMG_AEAD_TLS_AAD_LEN 13     /* EVP_AEAD_TLS1_AAD_LEN */
#define SMG_AEAD_TLS_EXPLICIT_IV_LEN 8  /* EVP_GCM_TLS_EXPLICIT_IV_LEN */
#define SMG_AEAD_TLS_FIXED_IV_LEN 4     /* EVP_GCM_TLS_FIXED_IV_LEN */

/* GCM's IV through a message (iv_state). */
enum { SMG_IV_UNSET, SMG_IV_BUFFERED, SMG_IV_COPIED, SMG_IV_FINISHED };

typedef struct smg_aead_ctx {
    /* ks_enc/ks_dec (XTS: the data key), kernel, bs, enc, key_set, iv_set */
    SMG_CIPHER_CTX base;
    const struct smg_aead_mode *mode;
    /* XTS: the tweak key's schedule */
    unsigned char ks2[SMG_KS_MAX] __attribute__((aligned(16)));
    /* GCM's GHASH table, 64-byte aligned somewhere inside (aead_gcm.c). */
    unsigned char htable_space[SMG_GHASH_TABLE_SIZE + 64];
    /* GCM: the kernel table its GHASH table was made by */
    const SMG_GCM_KERNEL *gcm;
    /* MGM: the multiply-accumulate kernel (src/aead_mgm.c) */
    const SMG_MGM_KERNEL *mgm;
    unsigned char iv[SMG_GCM_IV_MAX];  /* GCM IV, CCM nonce, XTS tweak */
    size_t ivlen;
    int iv_state;               /* GCM: SMG_IV_* */
    unsigned int iv_gen : 1;    /* TLS: IV from tlsivfixed/tlsivgen */
    unsigned int iv_gen_rand : 1;  /* GCM: the IV was generated here */
    unsigned int xts_ieee : 1;  /* xts_standard = IEEE (else GB) */
    /* CCM message state */
    unsigned int len_set : 1, aad_set : 1, data_done : 1, tag_set : 1,
                 verified : 1;
    unsigned int ek0_ready : 1; /* GCM: ek0 holds E(J0) of this message */
    unsigned char tag[SMG_MAX_BLOCK]; /* decrypt: the expected tag;
                                         encrypt: ours */
    size_t taglen;              /* GCM: SIZE_MAX until set or computed */
    /* CCM: L and M as set, and as bound to the key (OpenSSL binds them at
     * key setup; changing them later takes effect at the next key). */
    size_t ccm_l, ccm_m, ccm_lk, ccm_mk;
    uint64_t msglen;            /* CCM: the message length given */
    /* GCM running state */
    unsigned char j0[SMG_MAX_BLOCK], ctr[SMG_MAX_BLOCK], xi[SMG_MAX_BLOCK];
    unsigned char ek0[SMG_MAX_BLOCK];  /* GCM: E(J0) */
    unsigned char ks[SMG_MAX_BLOCK];   /* keystream of the partial block */
    unsigned char part[SMG_MAX_BLOCK]; /* the partial AAD or data block */
    size_t ares, mres;          /* bytes in part: AAD / data */
    uint64_t aad_len, data_len;
    /* CCM running state: the MAC's pending input (src/kernel.h) */
    unsigned char mac[SMG_MAX_BLOCK];
    /* TLS records */
    unsigned char tls_aad[SMG_AEAD_TLS_AAD_LEN];
    size_t tls_aad_len;         /* 0: no TLS record pending */
    size_t tls_aad_pad;
    uint64_t tls_enc_records;
    char why[128];              /* why this call fails (smg_aead_fail) */
} SMG_AEAD_CTX;

/*
 * The params the shared part hands to a mode, by name: it finds them in one
 * pass and asks in a fixed order (keylen, ivlen and tls1aadpad, and the
 * setter tlsaad, it answers itself).
 */
enum smg_aead_get_param {
    SMG_AEAD_GET_TAG, SMG_AEAD_GET_IVLEN, SMG_AEAD_GET_KEYLEN,
    SMG_AEAD_GET_PADDING, SMG_AEAD_GET_NUM, SMG_AEAD_GET_IV,
    SMG_AEAD_GET_UPDATED_IV, SMG_AEAD_GET_TLS_MAC, SMG_AEAD_GET_TAGLEN,
    SMG_AEAD_GET_TLS_AAD_PAD, SMG_AEAD_GET_TLS_IV_GEN,
    SMG_AEAD_GET_IV_GENERATED, SMG_AEAD_GET_N
};
enum smg_aead_set_param {
    SMG_AEAD_SET_TAG, SMG_AEAD_SET_IVLEN, SMG_AEAD_SET_TLS_AAD,
    SMG_AEAD_SET_TLS_IV_FIXED, SMG_AEAD_SET_TLS_IV_INV,
    SMG_AEAD_SET_XTS_STANDARD, SMG_AEAD_SET_N
};

/*
 * A mode's operations, which the shared part calls where the mode makes a
 * difference.  Each returns 1 on success; a failure of the message is
 * smg_aead_fail()'s (the update's error), a failure of a call raises its
 * own reason.
 */
typedef struct smg_aead_mode {
    unsigned int evp_mode;      /* the mode param: EVP_CIPH_*_MODE */
    int aead;                   /* the aead param; a one-shot cipher call
                                   without input is then the final */
    size_t key_parts;           /* keys of the family's length in the key */
    const OSSL_PARAM *gettable, *settable;
    /* newctx: the mode's defaults over a zeroed context. */
    void (*init_ctx)(SMG_AEAD_CTX *c);
    /* dupctx: after the copy of src into dst, what a copy cannot keep;
     * NULL if nothing. */
    void (*dup)(SMG_AEAD_CTX *dst, const SMG_AEAD_CTX *src);
    /*
     * Init (smg_cipher_init, src/modes.h): the IV lengths it takes and
     * what a new IV restarts, the key's length (smg_aead_key_len) and the
     * schedules from it with what the mode derives from them (setting
     * c->gcm), and smg_aead_set_ctx_params.  The functions take the context
     * as its SMG_CIPHER_CTX base.  A key setup rewrites the schedules and
     * tables in place, the same bytes each time (one mode, one kernel a
     * context), so nothing of the old key is left to cleanse first.
     */
    SMG_INIT_STEPS init;
    /* The IV or nonce length: the ivlen param. */
    size_t (*iv_len)(const SMG_AEAD_CTX *c);
    /* Whether an update with neither input nor output gives the message
     * length (CCM's); without, a NULL input of some bytes is refused. */
    int length_update;
    /* An update, key and buffers checked: AAD when out is NULL (CCM's
     * length when in is NULL too), else data; *outl is 0 at entry. */
    int (*update)(SMG_AEAD_CTX *c, unsigned char *out, size_t *outl,
                  const unsigned char *in, size_t inl);
    int (*final)(SMG_AEAD_CTX *c);
    /*
     * TLS records, NULL in a mode without: the tag length (also the
     * tls1aadpad answer) and the reason a bad tlsaad raises; the record's
     * payload of len bytes between the explicit IV and the tag, with its
     * full tag into tag; what a record ends, whether it failed or not.
     */
    size_t (*tls_tag_len)(const SMG_AEAD_CTX *c);
    uint32_t tls_aad_reason;
    int (*tls_record)(SMG_AEAD_CTX *c, const unsigned char *in,
                      unsigned char *out, size_t len, unsigned char *tag);
    void (*tls_end)(SMG_AEAD_CTX *c);
    /* One param of the enums above; a param the mode does not answer
     * returns 1. */
    int (*get_param)(SMG_AEAD_CTX *c, enum smg_aead_get_param which,
                     OSSL_PARAM *p);
    int (*set_param)(SMG_AEAD_CTX *c, enum smg_aead_set_param which,
                     const OSSL_PARAM *p);
} SMG_AEAD_MODE;

extern const SMG_AEAD_MODE smg_aead_gcm, smg_aead_ccm, smg_aead_xts,
    smg_aead_mgm;

/*
 * GCM's key setup (src/aead_gcm.c): the family's set_key that also makes
 * GCM's hash key H = E_K(0^128) into h beside the schedule, where that
 * block's latency hides in the schedule's own work.
 */
typedef int (*smg_gcm_set_key_fn)(SMG_CIPHER_CTX *ctx,
                                  const unsigned char *key,
                                  unsigned char h[16]);

typedef struct smg_aead_alg {
    SMG_CIPHER_ALG cipher;      /* first: the context's base.alg */
    const SMG_AEAD_MODE *mode;
    smg_gcm_set_key_fn gcm_set_key;    /* GCM's; NULL in the other modes */
} SMG_AEAD_ALG;

void *smg_aead_newctx(void *provctx, const SMG_AEAD_ALG *alg);
OSSL_FUNC_cipher_freectx_fn smg_aead_freectx;
OSSL_FUNC_cipher_dupctx_fn smg_aead_dupctx;
int smg_aead_get_params(const SMG_AEAD_ALG *alg, OSSL_PARAM params[]);
OSSL_FUNC_cipher_encrypt_init_fn smg_aead_einit;
OSSL_FUNC_cipher_decrypt_init_fn smg_aead_dinit;
OSSL_FUNC_cipher_update_fn smg_aead_update;
OSSL_FUNC_cipher_final_fn smg_aead_final;
OSSL_FUNC_cipher_cipher_fn smg_aead_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn smg_aead_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn smg_aead_set_ctx_params;

/* What the shared part gives the mode files. */

/*
 * A failure of a message: no key, no IV, AAD out of order, a tag that
 * differs, ... kept as the reason (printf-style) that the update raises;
 * the final and the one-shot cipher drop it.  Returns 0.
 */
int smg_aead_fail(SMG_AEAD_CTX *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A decryption without the tag to verify.  Returns 0. */
int smg_aead_tag_not_set(SMG_AEAD_CTX *c);
/* Whether two tags of n bytes differ, in constant time. */
int smg_aead_tag_mismatch(const unsigned char *a, const unsigned char *b,
                          size_t n);
/* The key's length: the family's times the mode's key_parts. */
size_t smg_aead_key_len(const SMG_CIPHER_CTX *ctx);
/* A param the mode cannot answer (get) or read (set), with the default
 * provider's reasons.  Returns 0. */
int smg_aead_get_fail(SMG_AEAD_CTX *c, const OSSL_PARAM *p);
int smg_aead_set_fail(SMG_AEAD_CTX *c, const OSSL_PARAM *p);
/*
 * An iv or updated-iv get of the IV's first give bytes, once the caller's
 * buffer holds want (else INVALID_IV_LENGTH).
 */
int smg_aead_get_iv(SMG_AEAD_CTX *c, OSSL_PARAM *p, size_t want,
                    size_t give);
/* The param tables of the AEAD modes with TLS records (GCM, CCM). */
extern const OSSL_PARAM smg_aead_gettable[], smg_aead_settable[];
/* What every AEAD mode's context answers (MGM's table is only this). */
#define SMG_AEAD_GETTABLE_CTX                                                \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),                       \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),                        \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),                  \
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),                  \
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),          \
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0)

static inline void smg_xor_block(unsigned char *d, const unsigned char *a,
                                 const unsigned char *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        d[i] = a[i] ^ b[i];
}

/*
 * The mode files' composition of the mode tables or entries a block table
 * leaves NULL (src/kernel.h gives their contracts), from the block table
 * k's ctr, cbc_enc and ecb and gcm's ghash; test/ct_check.c runs them
 * directly.
 * enc selects the direction; ieee the XTS tweak convention.
 */
void smg_gcm_composed(const SMG_BLOCK_KERNEL *k, const SMG_GCM_KERNEL *gcm,
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
    SMG_LAYER_DISPATCH(sym, algvar, smg_aead, (algvar).mode->gettable,      \
                       (algvar).mode->settable)

#endif
