/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one block-cipher mode layer: every cipher smgost offers (SM4 and
 * Kuznyechik with 16-byte blocks, GOST 28147-89 and Magma with 8-byte
 * blocks) is an SMG_CIPHER_ALG handled by the functions below, which
 * implement the OSSL_FUNC_cipher_* dispatch entries.  The layer owns
 * buffering, PKCS#7
 * padding, IV and counter bookkeeping, partial blocks carried across
 * updates (`num`), key meshing boundaries and the generic parameters; the
 * kernels (src/kernel.h) only see whole blocks.  A family (SM4, GOST)
 * contributes its key setup and its extra parameters through
 * SMG_CIPHER_FAMILY.
 */
#ifndef SMGOST_MODES_H
#define SMGOST_MODES_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include "kernel.h"

typedef enum {
    SMG_MODE_ECB, SMG_MODE_CBC, SMG_MODE_CFB, SMG_MODE_OFB, SMG_MODE_CTR,
    SMG_MODE_CNT,
    /* The AEAD layer's (src/aead.h), not this one's. */
    SMG_MODE_GCM, SMG_MODE_CCM, SMG_MODE_XTS
} smg_mode;

/* Room for one key schedule of any family, kernels' extras included. */
#define SMG_KS_MAX 848

/*
 * GOST R 34.13-2015 lets OFB, CBC and CFB run on a shift register of
 * m = z*n bits, an IV of z blocks (z = 1 is every other standard's mode);
 * we take z up to this bound, which covers the standard's examples (z = 2
 * and 3) with room to spare.
 */
#define SMG_MAX_IV_BLOCKS 4
#define SMG_MAX_IV (SMG_MAX_IV_BLOCKS * SMG_MAX_BLOCK)

typedef struct smg_cipher_ctx SMG_CIPHER_CTX;

typedef struct smg_cipher_family {
    size_t block_size;
    size_t key_len;
    size_t ctx_size;            /* the family's context; SMG_CIPHER_CTX first */
    /*
     * Whether a re-init that gives no IV restarts a CTR/CNT stream from the
     * IV last given.  OpenSSL's default provider restarts CBC/CFB/OFB but
     * lets CTR run on; SM4 keeps that for compatibility, GOST restarts.
     */
    int restart_counter_on_reinit;
    /*
     * What `updated-iv` is between blocks.  0: OpenSSL's register (CFB: the
     * encrypted register with the ciphertext bytes so far written over it;
     * CBC decryption with padding: the block before the one held back for
     * final), as the default provider gives it for SM4.  1: gost-engine's,
     * the last whole ciphertext block taken in or given out (CFB's register
     * as the next block starts from it, meshed if meshing came first).
     */
    int whole_block_iv;
    /*
     * The reasons of a bad final block of ECB or CBC.  0: the default
     * provider's (PROV_R_WRONG_FINAL_BLOCK_LENGTH, PROV_R_BAD_DECRYPT),
     * for SM4.  1: those gostprov raises, gost-engine's EVP layer's
     * (EVP_R_WRONG_FINAL_BLOCK_LENGTH, EVP_R_DATA_NOT_MULTIPLE_OF_BLOCK_LENGTH
     * without padding, EVP_R_BAD_DECRYPT), for GOST.
     */
    int evp_final_errors;
    /*
     * The most blocks an OFB, CBC or CFB IV may hold (GOST R 34.13-2015's
     * register of z blocks; at most SMG_MAX_IV_BLOCKS), set through the
     * init's IV length or the `ivlen` parameter; 0 or 1: one block only.
     */
    size_t max_iv_blocks;
    /* Called once by newctx after the generic fields are set. */
    void (*init_ctx)(SMG_CIPHER_CTX *ctx);
    /* Expands key into ctx->ks_enc / ctx->ks_dec and sets ctx->kernel. */
    int (*set_key)(SMG_CIPHER_CTX *ctx, const unsigned char *key);
    /*
     * An init that keeps the key starts a new message: undo what the last
     * one did to the schedules (key meshing), or NULL if nothing can.
     */
    int (*restore_key)(SMG_CIPHER_CTX *ctx);
    /*
     * Re-keying at a period boundary, or NULL: CryptoPro key meshing
     * (GOST 28147-89), ACPKM (R 1323565.1.017-2018, smg_acpkm_next_key).
     */
    void (*mesh)(SMG_CIPHER_CTX *ctx);
    /*
     * The whole blocks of one whole meshing period, from its start, with
     * the next meshing prepared alongside; 0 to leave them to the kernel
     * entry (or NULL).
     */
    int (*period_blocks)(SMG_CIPHER_CTX *ctx, const unsigned char *in,
                         unsigned char *out, size_t nblocks);
    /* Family parameters beyond the generic ones, or NULL. */
    int (*get_ctx_params)(SMG_CIPHER_CTX *ctx, OSSL_PARAM params[]);
    int (*set_ctx_params)(SMG_CIPHER_CTX *ctx, const OSSL_PARAM params[]);
    const OSSL_PARAM *gettable_ctx_params;  /* complete tables, generic */
    const OSSL_PARAM *settable_ctx_params;  /* ones included */
} SMG_CIPHER_FAMILY;

typedef struct smg_cipher_alg {
    const SMG_CIPHER_FAMILY *family;
    smg_mode mode;
    size_t iv_len;              /* 0 for ECB; the default for z blocks */
    size_t reported_block_size; /* 1 for the stream modes, as OpenSSL does */
    const void *variant;        /* family data: e.g. GOST defaults */
} SMG_CIPHER_ALG;

struct smg_cipher_ctx {
    /* Key schedules first: 16-byte aligned as the allocator gives. */
    unsigned char ks_enc[SMG_KS_MAX] __attribute__((aligned(16)));
    unsigned char ks_dec[SMG_KS_MAX] __attribute__((aligned(16)));
    const SMG_CIPHER_ALG *alg;
    void *provctx;
    const SMG_BLOCK_KERNEL *kernel;
    size_t bs;                  /* block size, from the family */
    unsigned int enc : 1;
    unsigned int key_set : 1;
    unsigned int iv_set : 1;
    unsigned int initialised : 1;
    unsigned int finalised : 1;
    unsigned int pad : 1;
    unsigned int cnt_started : 1; /* CNT: (N3,N4) = E(IV) done */
    size_t ivlen;               /* the IV's bytes: alg->iv_len, or z blocks */
    unsigned char oiv[SMG_MAX_IV];     /* the IV as last given */
    /*
     * Chaining value / counter.  With an IV of z > 1 blocks, the register
     * R of GOST R 34.13-2015 rotated right by a block: the newest block
     * first, then the rest of R from its oldest, the block the next one
     * takes (so that iv[0..bs) is always the current block, as for z = 1).
     */
    unsigned char iv[SMG_MAX_IV];
    unsigned char buf[SMG_MAX_BLOCK];  /* ECB/CBC: pending input;
                                          CTR/CNT: keystream block;
                                          CFB with whole_block_iv: the
                                          register of the partial block */
    size_t bufsz;               /* ECB/CBC: bytes pending in buf */
    size_t num;                 /* stream modes: bytes used of the block */
    size_t mesh_period;         /* bytes between re-keyings; 0: none */
    size_t mesh_count;          /* keystream bytes since the last meshing */
};

/* Generic dispatch entries; the per-algorithm newctx comes from the
 * SMG_CIPHER_DISPATCH macro. */
void *smg_cipher_newctx(void *provctx, const SMG_CIPHER_ALG *alg);
OSSL_FUNC_cipher_freectx_fn smg_cipher_freectx;
OSSL_FUNC_cipher_dupctx_fn smg_cipher_dupctx;
OSSL_FUNC_cipher_encrypt_init_fn smg_cipher_einit;
OSSL_FUNC_cipher_decrypt_init_fn smg_cipher_dinit;
OSSL_FUNC_cipher_update_fn smg_cipher_update;
OSSL_FUNC_cipher_final_fn smg_cipher_final;
OSSL_FUNC_cipher_cipher_fn smg_cipher_cipher;
OSSL_FUNC_cipher_get_ctx_params_fn smg_cipher_get_ctx_params;
OSSL_FUNC_cipher_set_ctx_params_fn smg_cipher_set_ctx_params;
OSSL_FUNC_cipher_gettable_params_fn smg_cipher_gettable_params;
int smg_cipher_get_params(const SMG_CIPHER_ALG *alg, OSSL_PARAM params[]);

/*
 * The init both mode layers run (encrypt_init, decrypt_init): the
 * direction, the IV and its length (an algorithm without an IV ignores
 * one), the key and its length, with key_set clear until the key is set,
 * the family's restore_key on a re-init without a key, initialised, then
 * the params; a layer gives the steps that differ.
 */
typedef struct smg_init_steps {
    /* What any init restarts, before the IV is looked at; or NULL. */
    void (*restart)(SMG_CIPHER_CTX *ctx);
    /* Whether init takes an IV of ivlen bytes; *want is the one length
     * it takes, or 0 if it takes several. */
    int (*iv_len_ok)(const SMG_CIPHER_CTX *ctx, size_t ivlen, size_t *want);
    /* The IV given (iv_set already set), or NULL when none is. */
    void (*take_iv)(SMG_CIPHER_CTX *ctx, const unsigned char *iv,
                    size_t ivlen);
    size_t (*key_len)(const SMG_CIPHER_CTX *ctx);
    /* The schedules from a key of key_len bytes, and ctx->kernel. */
    int (*set_key)(SMG_CIPHER_CTX *ctx, const unsigned char *key);
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
} SMG_INIT_STEPS;

int smg_cipher_init(SMG_CIPHER_CTX *ctx, const unsigned char *key,
                    size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc,
                    const SMG_INIT_STEPS *steps);

/*
 * Checks the mode layers share (raising what is wrong): a NULL input or
 * output of some bytes, a length no object can have, and an output of inl
 * bytes that does not fit or that partially overlaps the input.
 */
int smg_length_ok(SMG_CIPHER_CTX *ctx, const unsigned char *in,
                  const unsigned char *out, size_t inl);
int smg_same_length_output_ok(SMG_CIPHER_CTX *ctx, unsigned char *out,
                              size_t outsize, const unsigned char *in,
                              size_t inl);

/*
 * ACPKM (R 1323565.1.017-2018, 4.1): the key of the next section, the first
 * SMG_ACPKM_KEY_LEN bytes of E_K(D_1 || D_2 || ...), D the bytes 0x80,
 * 0x81, ..., 0x9f, through k's ECB under the encryption schedule ks of
 * blocks of bs bytes.  The caller expands key and cleanses it.
 */
#define SMG_ACPKM_KEY_LEN 32
void smg_acpkm_next_key(const SMG_BLOCK_KERNEL *k, const void *ks, size_t bs,
                        unsigned char key[SMG_ACPKM_KEY_LEN]);

/*
 * Answers an iv or updated-iv parameter with len bytes of iv as the running
 * libcrypto's default provider answers it, since libcrypto 3.2 and later
 * queue an error for a setter of the wrong type (an octet string parameter
 * then holds that error, on success too): up to 3.5 its ciphercommon.c
 * tries an octet pointer, then a string, and ciphercommon_gcm.c and
 * ciphercommon_ccm.c a string, then an octet pointer (string_first); from
 * 3.6 both set the parameter by its type (test/err_compare.c, "updated-iv
 * into 4 bytes", on 3.5 and 3.6).
 */
int smg_set_iv_param(OSSL_PARAM *p, const unsigned char *iv, size_t len,
                     int string_first);

/*
 * The generic parameter tables: as entries for families that add their
 * own, and whole for those that add none.  keylen is not settable, as in
 * the default provider's fixed-key ciphers: EVP_CIPHER_CTX_set_key_length
 * of another length then fails in libcrypto with EVP_R_INVALID_KEY_LENGTH,
 * as it does there (CMAC passes its key's length through it).  A keylen
 * parameter set all the same must still be the key's length.
 */
#define SMG_CIPHER_GENERIC_GETTABLE_CTX                                      \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),                       \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),                        \
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),                        \
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),                            \
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),                  \
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0)
#define SMG_CIPHER_GENERIC_SETTABLE_CTX                                      \
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),                        \
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),                        \
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL)
extern const OSSL_PARAM smg_cipher_generic_gettable_ctx_params[];
extern const OSSL_PARAM smg_cipher_generic_settable_ctx_params[];


/*
 * One dispatch table per algorithm name: the newctx and get_params entries
 * bind the algorithm; everything else is the layer named by prefix
 * (smg_cipher here, smg_aead in aead.h), whose entry points share their
 * names after the prefix.  gettable / settable give the ctx param tables
 * of the algorithm.
 */
#define SMG_LAYER_DISPATCH(sym, algvar, prefix, gettable, settable)          \
    static void *sym##_newctx(void *provctx)                                 \
    {                                                                        \
        return prefix##_newctx(provctx, &(algvar));                          \
    }                                                                        \
    static int sym##_get_params(OSSL_PARAM params[])                         \
    {                                                                        \
        return prefix##_get_params(&(algvar), params);                       \
    }                                                                        \
    static const OSSL_PARAM *sym##_gettable_ctx_params(void *cctx,           \
                                                       void *provctx)        \
    {                                                                        \
        (void)cctx, (void)provctx;                                           \
        return (gettable);                                                   \
    }                                                                        \
    static const OSSL_PARAM *sym##_settable_ctx_params(void *cctx,           \
                                                       void *provctx)        \
    {                                                                        \
        (void)cctx, (void)provctx;                                           \
        return (settable);                                                   \
    }                                                                        \
    const OSSL_DISPATCH sym##_functions[] = {                                \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))sym##_newctx },           \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))prefix##_freectx },      \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))prefix##_dupctx },        \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))prefix##_einit },   \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))prefix##_dinit },   \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))prefix##_update },        \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))prefix##_final },          \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))prefix##_cipher },        \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))sym##_get_params },   \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS,                                  \
          (void (*)(void))smg_cipher_gettable_params },                      \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS,                                   \
          (void (*)(void))prefix##_get_ctx_params },                         \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS,                                   \
          (void (*)(void))prefix##_set_ctx_params },                         \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,                              \
          (void (*)(void))sym##_gettable_ctx_params },                       \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,                              \
          (void (*)(void))sym##_settable_ctx_params },                       \
        { 0, NULL }                                                          \
    }

#define SMG_CIPHER_DISPATCH(sym, algvar)                                     \
    SMG_LAYER_DISPATCH(sym, algvar, smg_cipher,                              \
                       (algvar).family->gettable_ctx_params,                 \
                       (algvar).family->settable_ctx_params)

#endif
