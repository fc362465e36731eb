/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GOST 28147-89 MAC (IMIT, "imitovstavka") as EVP_MACs with gostprov's
 * names and conventions: `gost-mac` (1.2.643.2.2.22, CryptoPro-A) and
 * `gost-mac-12` (TC26 Z), a 4-byte MAC by default (`size` 1..8), CryptoPro
 * key meshing every 1024 bytes, zero padding of the last block and, as the
 * standard asks for at least two blocks, a zero block after a message of
 * one block or less (gost-engine's gost89_imit_final, libgcrypt's IMIT).
 * The parameter set can be changed with `paramset`, as for the ciphers.
 */
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "err.h"
#include "gost89.h"
#include "prov.h"

#define GOST89_MAC_DEFAULT_SIZE 4
#define GOST89_MAC_MESH_PERIOD 1024

typedef struct gost89_mac_ctx {
    void *provctx;
    const GOST89_PARAMSET *paramset;
    GOST89_KEY enc, dec;
    unsigned char key[GOST89_KEY_SIZE];
    unsigned char state[GOST89_BLOCK_SIZE];
    /* The last 1..8 bytes are held back so final knows the length. */
    unsigned char pending[GOST89_BLOCK_SIZE];
    size_t npending;
    size_t nbytes;              /* bytes folded into state so far */
    size_t size;                /* MAC bytes to output */
    int key_set;
    int finalised;
    /* the provider's "constant-time" setting, and the kernel that meshes */
    int constant_time;
    const SMG_BLOCK_KERNEL *kernel;
} GOST89_MAC_CTX;

static void *gost89_mac_newctx_with(void *provctx, const GOST89_PARAMSET *ps)
{
    GOST89_MAC_CTX *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    ctx->provctx = provctx;
    ctx->paramset = ps;
    ctx->size = GOST89_MAC_DEFAULT_SIZE;
    ctx->constant_time = smg_prov_constant_time(provctx);
    ctx->kernel = gost89_kernel(ctx->constant_time);
    return ctx;
}

static void *gost89_mac_newctx(void *provctx)
{
    return gost89_mac_newctx_with(provctx, &gost89_paramset_cpa);
}

static void *gost89_mac_12_newctx(void *provctx)
{
    return gost89_mac_newctx_with(provctx, &gost89_paramset_z);
}

static void gost89_mac_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(GOST89_MAC_CTX));
}

static void *gost89_mac_dupctx(void *vctx)
{
    GOST89_MAC_CTX *ctx = vctx, *dup = OPENSSL_memdup(ctx, sizeof(*ctx));

    if (dup == NULL)
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
    return dup;
}

/* A new message under the key as given (meshing undone). */
static int gost89_mac_restart(GOST89_MAC_CTX *ctx)
{
    if (ctx->key_set
        && !gost89_set_key(ctx->key, ctx->paramset, 0, &ctx->enc, &ctx->dec)) {
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    memset(ctx->state, 0, sizeof(ctx->state));
    OPENSSL_cleanse(ctx->pending, sizeof(ctx->pending));
    ctx->npending = 0;
    ctx->nbytes = 0;
    ctx->finalised = 0;
    return 1;
}

static int gost89_mac_set_key(GOST89_MAC_CTX *ctx, const unsigned char *key,
                            size_t keylen)
{
    if (keylen != GOST89_KEY_SIZE) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(INVALID_KEY_LENGTH),
                       "got %zu bytes, expected %d", keylen, GOST89_KEY_SIZE);
        return 0;
    }
    memcpy(ctx->key, key, GOST89_KEY_SIZE);
    ctx->key_set = 1;
    return gost89_mac_restart(ctx);
}

static int gost89_mac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    GOST89_MAC_CTX *ctx = vctx;
    const OSSL_PARAM *p;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_SIZE)) != NULL) {
        size_t size;

        if (!OSSL_PARAM_get_size_t(p, &size)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        if (size < 1 || size > GOST89_BLOCK_SIZE) {
            SMG_RAISE_DATA(ctx->provctx, SMG_R_INVALID_MAC_SIZE,
                           "%zu is not in 1..8", size);
            return 0;
        }
        ctx->size = size;
    }
    if ((p = OSSL_PARAM_locate_const(params, GOST89_PARAM_PARAMSET)) != NULL) {
        if (!smg_gost89_paramset_param(ctx->provctx, p, &ctx->paramset))
            return 0;
        if (ctx->key_set && !gost89_mac_restart(ctx))
            return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY)) != NULL) {
        const void *key;
        size_t keylen;

        if (!OSSL_PARAM_get_octet_string_ptr(p, &key, &keylen)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        if (!gost89_mac_set_key(ctx, key, keylen))
            return 0;
    }
    return 1;
}

static int gost89_mac_init(void *vctx, const unsigned char *key, size_t keylen,
                         const OSSL_PARAM params[])
{
    GOST89_MAC_CTX *ctx = vctx;

    if (!gost89_mac_set_ctx_params(ctx, params))
        return 0;
    if (key != NULL)
        return gost89_mac_set_key(ctx, key, keylen);
    if (!ctx->key_set) {
        SMG_RAISE(ctx->provctx, SMG_PROV(NO_KEY_SET));
        return 0;
    }
    return gost89_mac_restart(ctx);
}

/* Folds whole blocks, meshing the key before every 1024-byte boundary. */
static void gost89_mac_blocks(GOST89_MAC_CTX *ctx, const unsigned char *in,
                            size_t nblocks)
{
    while (nblocks > 0) {
        size_t room, n;

        if (ctx->nbytes != 0 && ctx->nbytes % GOST89_MAC_MESH_PERIOD == 0)
            gost89_key_mesh(ctx->kernel, &ctx->enc, &ctx->dec, NULL);
        room = (GOST89_MAC_MESH_PERIOD - ctx->nbytes % GOST89_MAC_MESH_PERIOD)
               / GOST89_BLOCK_SIZE;
        n = nblocks < room ? nblocks : room;
        gost89_imit_blocks(ctx->constant_time, &ctx->enc, ctx->state, in, n);
        ctx->nbytes += n * GOST89_BLOCK_SIZE;
        in += n * GOST89_BLOCK_SIZE;
        nblocks -= n;
    }
}

static int gost89_mac_check_open(GOST89_MAC_CTX *ctx)
{
    if (!ctx->key_set) {
        SMG_RAISE(ctx->provctx, SMG_PROV(NO_KEY_SET));
        return 0;
    }
    if (ctx->finalised) {
        SMG_RAISE(ctx->provctx, SMG_R_ALREADY_FINALISED);
        return 0;
    }
    return 1;
}

static int gost89_mac_update(void *vctx, const unsigned char *in, size_t inl)
{
    GOST89_MAC_CTX *ctx = vctx;
    size_t take, nblocks;

    if (!gost89_mac_check_open(ctx))
        return 0;
    if (inl == 0)
        return 1;
    if (ctx->npending == GOST89_BLOCK_SIZE) {
        gost89_mac_blocks(ctx, ctx->pending, 1);
        ctx->npending = 0;
    }
    take = GOST89_BLOCK_SIZE - ctx->npending;
    if (take > inl)
        take = inl;
    memcpy(ctx->pending + ctx->npending, in, take);
    ctx->npending += take;
    in += take;
    inl -= take;
    if (inl == 0)
        return 1;
    /* More follows, so the pending block is not the last one. */
    gost89_mac_blocks(ctx, ctx->pending, 1);
    nblocks = (inl - 1) / GOST89_BLOCK_SIZE;
    gost89_mac_blocks(ctx, in, nblocks);
    in += nblocks * GOST89_BLOCK_SIZE;
    inl -= nblocks * GOST89_BLOCK_SIZE;
    memcpy(ctx->pending, in, inl);
    ctx->npending = inl;
    return 1;
}

static int gost89_mac_final(void *vctx, unsigned char *out, size_t *outl,
                          size_t outsize)
{
    static const unsigned char zero_block[GOST89_BLOCK_SIZE];
    GOST89_MAC_CTX *ctx = vctx;

    *outl = 0;
    if (!gost89_mac_check_open(ctx))
        return 0;
    if (outsize < ctx->size) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(OUTPUT_BUFFER_TOO_SMALL),
                       "need %zu bytes, have %zu", ctx->size, outsize);
        return 0;
    }
    if (ctx->npending > 0) {
        memset(ctx->pending + ctx->npending, 0,
               GOST89_BLOCK_SIZE - ctx->npending);
        gost89_mac_blocks(ctx, ctx->pending, 1);
        if (ctx->nbytes == GOST89_BLOCK_SIZE)
            gost89_mac_blocks(ctx, zero_block, 1);
    }
    memcpy(out, ctx->state, ctx->size);
    *outl = ctx->size;
    ctx->finalised = 1;
    OPENSSL_cleanse(ctx->state, sizeof(ctx->state));
    OPENSSL_cleanse(ctx->pending, sizeof(ctx->pending));
    return 1;
}

static const OSSL_PARAM gost89_mac_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t("keylen", NULL),
    OSSL_PARAM_utf8_string(GOST89_PARAM_PARAMSET, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM gost89_mac_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_utf8_string(GOST89_PARAM_PARAMSET, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *gost89_mac_gettable_ctx_params(void *vctx, void *prov)
{
    (void)vctx, (void)prov;
    return gost89_mac_gettable;
}

static const OSSL_PARAM *gost89_mac_settable_ctx_params(void *vctx, void *prov)
{
    (void)vctx, (void)prov;
    return gost89_mac_settable;
}

static int gost89_mac_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    GOST89_MAC_CTX *ctx = vctx;
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, ctx->size))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, "keylen")) != NULL
        && !OSSL_PARAM_set_size_t(p, GOST89_KEY_SIZE))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, GOST89_PARAM_PARAMSET)) != NULL
        && !OSSL_PARAM_set_utf8_string(p, ctx->paramset->name))
        goto fail;
    return 1;
 fail:
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}

#define GOST89_MAC_DISPATCH(sym, newctx)                                       \
    const OSSL_DISPATCH sym[] = {                                            \
        { OSSL_FUNC_MAC_NEWCTX, (void (*)(void))newctx },                    \
        { OSSL_FUNC_MAC_DUPCTX, (void (*)(void))gost89_mac_dupctx },           \
        { OSSL_FUNC_MAC_FREECTX, (void (*)(void))gost89_mac_freectx },         \
        { OSSL_FUNC_MAC_INIT, (void (*)(void))gost89_mac_init },               \
        { OSSL_FUNC_MAC_UPDATE, (void (*)(void))gost89_mac_update },           \
        { OSSL_FUNC_MAC_FINAL, (void (*)(void))gost89_mac_final },             \
        { OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS,                                 \
          (void (*)(void))gost89_mac_gettable_ctx_params },                    \
        { OSSL_FUNC_MAC_GET_CTX_PARAMS,                                      \
          (void (*)(void))gost89_mac_get_ctx_params },                         \
        { OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS,                                 \
          (void (*)(void))gost89_mac_settable_ctx_params },                    \
        { OSSL_FUNC_MAC_SET_CTX_PARAMS,                                      \
          (void (*)(void))gost89_mac_set_ctx_params },                         \
        { 0, NULL }                                                          \
    }

GOST89_MAC_DISPATCH(smg_gost89_mac_functions, gost89_mac_newctx);
GOST89_MAC_DISPATCH(smg_gost89_mac_12_functions, gost89_mac_12_newctx);
