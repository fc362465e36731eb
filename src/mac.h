/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The MAC layer: the OSSL_FUNC_mac_* entries (contexts, key, the `size`
 * and `keylen` parameters, the update/final state machine) over a table of
 * a block-chained MAC's operations (SMG_MAC_OPS).  The layer holds back the
 * last 1..block_size bytes of the message, so a construction only folds
 * blocks it knows are not the last and then finishes the last one as its
 * rule says: IMIT's zero padding (providers/gost89_mac.c), or CMAC/OMAC's
 * subkeys.  A MAC algorithm (SMG_MAC) is such a table with its block and
 * key sizes and its argument (a parameter set, a block cipher); its
 * provider entry is one SMG_MAC_FUNCTIONS line, which instantiates the
 * per-message paths below with the algorithm's table.
 */
#ifndef SMGOST_MAC_H
#define SMGOST_MAC_H

#include <stddef.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

/* The largest block of the MACs below; 16 for a 128-bit cipher's OMAC. */
#define SMG_MAC_MAX_BLOCK 16
/* The longest key of the MACs below. */
#define SMG_MAC_MAX_KEY 32
/* The key length, named as the ciphers' (OSSL_CIPHER_PARAM_KEYLEN). */
#define SMG_MAC_PARAM_KEYLEN "keylen"

typedef struct smg_mac_ctx SMG_MAC_CTX;

typedef struct smg_mac_ops {
    size_t state_size;              /* bytes of smg_mac_state */
    /* A new context: its defaults (zeroed before). */
    void (*setup)(SMG_MAC_CTX *c);
    /* A new message under c->key (if key_set), as given; 0 having raised. */
    int (*restart)(SMG_MAC_CTX *c);
    /* Folds len bytes, whole blocks none of them the message's last. */
    void (*blocks)(SMG_MAC_CTX *c, const unsigned char *in, size_t len);
    /*
     * Folds the last nlast bytes (0 only for the empty message) held in
     * last, which has room for a block, writes c->size bytes to out and
     * wipes the construction's message state.
     */
    void (*final)(SMG_MAC_CTX *c, unsigned char *last, size_t nlast,
                  unsigned char *out);
    /* Parameters beyond key and size (NULL: none); set raises. */
    int (*set_params)(SMG_MAC_CTX *c, const OSSL_PARAM params[]);
    /* Returns the parameter it could not set, else NULL. */
    OSSL_PARAM *(*get_params)(SMG_MAC_CTX *c, OSSL_PARAM params[]);
    /* Every parameter, the layer's included. */
    const OSSL_PARAM *gettable;
    const OSSL_PARAM *settable;
} SMG_MAC_OPS;

typedef struct smg_mac {
    const SMG_MAC_OPS *ops;
    size_t block_size;              /* a power of two; the largest `size` */
    size_t key_size;
    size_t default_size;
    const void *arg;                /* IMIT's parameter set; OMAC's cipher */
} SMG_MAC;

struct smg_mac_ctx {
    const SMG_MAC *mac;
    void *provctx;
    size_t size;                    /* MAC bytes to output */
    int key_set;
    int finalised;
    /* The key as given, which a restart keys from (IMIT undoes meshing). */
    unsigned char key[SMG_MAC_MAX_KEY];
    /* The last 1..block_size bytes are held back so final knows them. */
    size_t npending;
    unsigned char pending[SMG_MAC_MAX_BLOCK];
    /* mac->ops->state_size bytes of the construction's state. */
    _Alignas(16) unsigned char state[];
};

static inline void *smg_mac_state(SMG_MAC_CTX *c)
{
    return c->state;
}

/* A new message under the key as set; for a construction's parameters
 * that change what the key means (IMIT's parameter set). */
int smg_mac_restart(SMG_MAC_CTX *c);

void *smg_mac_newctx(void *provctx, const SMG_MAC *mac);
void smg_mac_freectx(void *vctx);
void *smg_mac_dupctx(void *vctx);
int smg_mac_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
/*
 * Raise, out of the way of the paths below, and return 0: why ctx takes
 * no data now, that out is too small, that the key is not key_size bytes,
 * that parameter p could not be set.
 */
int smg_mac_refuse(const SMG_MAC_CTX *ctx);
int smg_mac_refuse_size(const SMG_MAC_CTX *ctx, size_t outsize);
int smg_mac_refuse_key(const SMG_MAC_CTX *ctx, size_t keylen);
int smg_mac_refuse_param(const SMG_MAC_CTX *ctx, const OSSL_PARAM *p);

/*
 * What a message passes through, which SMG_MAC_FUNCTIONS instantiates for
 * each algorithm with its table: the construction's operations are then
 * direct calls and its sizes constants, and a short message costs what it
 * did before the layer (the calls and the key copy were a few percent of
 * a 16-byte IMIT).
 */
static inline int smg_mac_restart_with(const SMG_MAC *mac, SMG_MAC_CTX *ctx)
{
    if (!mac->ops->restart(ctx))
        return 0;
    OPENSSL_cleanse(ctx->pending, sizeof(ctx->pending));
    ctx->npending = 0;
    ctx->finalised = 0;
    return 1;
}

static inline int smg_mac_set_key_with(const SMG_MAC *mac, SMG_MAC_CTX *ctx,
                                       const unsigned char *key,
                                       size_t keylen)
{
    if (keylen != mac->key_size)
        return smg_mac_refuse_key(ctx, keylen);
    memcpy(ctx->key, key, mac->key_size);
    ctx->key_set = 1;
    return smg_mac_restart_with(mac, ctx);
}

static inline int smg_mac_init_with(const SMG_MAC *mac, void *vctx,
                                    const unsigned char *key, size_t keylen,
                                    const OSSL_PARAM params[])
{
    SMG_MAC_CTX *ctx = vctx;

    if (params != NULL && !smg_mac_set_ctx_params(ctx, params))
        return 0;
    if (key != NULL)
        return smg_mac_set_key_with(mac, ctx, key, keylen);
    if (!ctx->key_set)
        return smg_mac_refuse(ctx);
    return smg_mac_restart_with(mac, ctx);
}

static inline int smg_mac_update_with(const SMG_MAC *mac, void *vctx,
                                      const unsigned char *in, size_t inl)
{
    SMG_MAC_CTX *ctx = vctx;
    size_t bs = mac->block_size, take, whole;

    if (!ctx->key_set || ctx->finalised)
        return smg_mac_refuse(ctx);
    if (inl == 0)
        return 1;
    if (ctx->npending == bs) {
        mac->ops->blocks(ctx, ctx->pending, bs);
        ctx->npending = 0;
    }
    take = bs - ctx->npending;
    if (take > inl)
        take = inl;
    memcpy(ctx->pending + ctx->npending, in, take);
    ctx->npending += take;
    in += take;
    inl -= take;
    if (inl == 0)
        return 1;
    /* More follows, so the pending block is not the last one. */
    mac->ops->blocks(ctx, ctx->pending, bs);
    whole = (inl - 1) & ~(bs - 1);
    if (whole > 0) {
        mac->ops->blocks(ctx, in, whole);
        in += whole;
        inl -= whole;
    }
    memcpy(ctx->pending, in, inl);
    ctx->npending = inl;
    return 1;
}

static inline int smg_mac_final_with(const SMG_MAC *mac, void *vctx,
                                     unsigned char *out, size_t *outl,
                                     size_t outsize)
{
    SMG_MAC_CTX *ctx = vctx;

    *outl = 0;
    if (!ctx->key_set || ctx->finalised)
        return smg_mac_refuse(ctx);
    if (outsize < ctx->size)
        return smg_mac_refuse_size(ctx, outsize);
    mac->ops->final(ctx, ctx->pending, ctx->npending, out);
    *outl = ctx->size;
    ctx->finalised = 1;
    OPENSSL_cleanse(ctx->pending, sizeof(ctx->pending));
    return 1;
}

static inline int smg_mac_get_ctx_params_with(const SMG_MAC *mac,
                                              void *vctx, OSSL_PARAM params[])
{
    SMG_MAC_CTX *ctx = vctx;
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, ctx->size))
        return smg_mac_refuse_param(ctx, p);
    if ((p = OSSL_PARAM_locate(params, SMG_MAC_PARAM_KEYLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, mac->key_size))
        return smg_mac_refuse_param(ctx, p);
    if (mac->ops->get_params != NULL
        && (p = mac->ops->get_params(ctx, params)) != NULL)
        return smg_mac_refuse_param(ctx, p);
    return 1;
}

/*
 * const OSSL_DISPATCH smg_<name>_functions[] for the MAC algorithm mac.  The
 * parameter lists are the algorithm's, not the context's: libcrypto asks
 * for them without one (EVP_MAC_gettable_ctx_params).
 */
#define SMG_MAC_FUNCTIONS(name, mac)                                         \
    static void *name##_newctx(void *provctx)                                \
    {                                                                        \
        return smg_mac_newctx(provctx, &(mac));                              \
    }                                                                        \
    static int name##_init(void *vctx, const unsigned char *key,             \
                           size_t keylen, const OSSL_PARAM params[])         \
    {                                                                        \
        return smg_mac_init_with(&(mac), vctx, key, keylen, params);         \
    }                                                                        \
    static int name##_update(void *vctx, const unsigned char *in,            \
                             size_t inl)                                     \
    {                                                                        \
        return smg_mac_update_with(&(mac), vctx, in, inl);                   \
    }                                                                        \
    static int name##_final(void *vctx, unsigned char *out, size_t *outl,    \
                            size_t outsize)                                  \
    {                                                                        \
        return smg_mac_final_with(&(mac), vctx, out, outl, outsize);         \
    }                                                                        \
    static int name##_get_ctx_params(void *vctx, OSSL_PARAM params[])        \
    {                                                                        \
        return smg_mac_get_ctx_params_with(&(mac), vctx, params);            \
    }                                                                        \
    static const OSSL_PARAM *name##_gettable(void *vctx, void *provctx)      \
    {                                                                        \
        (void)vctx, (void)provctx;                                           \
        return (mac).ops->gettable;                                          \
    }                                                                        \
    static const OSSL_PARAM *name##_settable(void *vctx, void *provctx)      \
    {                                                                        \
        (void)vctx, (void)provctx;                                           \
        return (mac).ops->settable;                                          \
    }                                                                        \
    const OSSL_DISPATCH smg_##name##_functions[] = {                         \
        { OSSL_FUNC_MAC_NEWCTX, (void (*)(void))name##_newctx },             \
        { OSSL_FUNC_MAC_DUPCTX, (void (*)(void))smg_mac_dupctx },            \
        { OSSL_FUNC_MAC_FREECTX, (void (*)(void))smg_mac_freectx },          \
        { OSSL_FUNC_MAC_INIT, (void (*)(void))name##_init },                 \
        { OSSL_FUNC_MAC_UPDATE, (void (*)(void))name##_update },             \
        { OSSL_FUNC_MAC_FINAL, (void (*)(void))name##_final },               \
        { OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS,                                 \
          (void (*)(void))name##_gettable },                                 \
        { OSSL_FUNC_MAC_GET_CTX_PARAMS,                                      \
          (void (*)(void))name##_get_ctx_params },                           \
        { OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS,                                 \
          (void (*)(void))name##_settable },                                 \
        { OSSL_FUNC_MAC_SET_CTX_PARAMS,                                      \
          (void (*)(void))smg_mac_set_ctx_params },                          \
        { 0, NULL }                                                          \
    }

/*
 * OMAC (GOST R 34.13-2015 5.6; NIST SP 800-38B's CMAC) and OMAC-ACPKM
 * (R 1323565.1.017-2018 4.2) over a 32-byte-key block cipher of 8- or
 * 16-byte blocks (src/mac_omac.c): an SMG_MAC with one of these tables
 * and an SMG_MAC_CIPHER as its argument.
 */
struct smg_block_kernel;

typedef struct smg_mac_cipher {
    size_t block_size;
    /* The kernel table the family's ciphers use in this provider. */
    const struct smg_block_kernel *(*kernel)(const void *provctx);
    /*
     * The encryption schedule (SMG_KS_MAX bytes) of a key for kernel k
     * (what kernel() gave); 0 on failure.
     */
    int (*set_key)(const struct smg_block_kernel *k, void *ks,
                   const unsigned char *key);
    /* OMAC-ACPKM's defaults as gostprov's: N, and T, the family's
     * CTR-ACPKM section. */
    size_t section, master_section;
} SMG_MAC_CIPHER;

extern const SMG_MAC_OPS smg_omac_ops;
extern const SMG_MAC_OPS smg_omac_acpkm_ops;


#endif
