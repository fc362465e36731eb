/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM3 digest algorithm: dispatch entries over src/sm3.c, with dupctx so
 * that HMAC (and any caller copying a context mid-stream) works.
 */
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "err.h"
#include "prov.h"
#include "provctx.h"
#include "sm3.h"

typedef struct sm3_prov_ctx {
    SM3_CTX sm3;
    void *provctx;
    int initialised;
    int finalised;
} SM3_PROV_CTX;

/*
 * Not zeroed: nothing reads the SM3 state before init writes it, and EVP
 * (libcrypto 3.0) makes and frees a context for every message, so each
 * short message would pay for clearing it.
 */
static void *sm3_newctx(void *provctx)
{
    SM3_PROV_CTX *ctx = OPENSSL_malloc(sizeof(*ctx));

    if (ctx == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    ctx->provctx = provctx;
    ctx->initialised = 0;
    ctx->finalised = 0;
    return ctx;
}

/* Final has wiped the state already; a context left mid-message is wiped. */
static void sm3_freectx(void *vctx)
{
    SM3_PROV_CTX *ctx = vctx;

    if (ctx != NULL && ctx->initialised && !ctx->finalised)
        OPENSSL_clear_free(ctx, sizeof(*ctx));
    else
        OPENSSL_free(ctx);
}

static void *sm3_dupctx(void *vctx)
{
    SM3_PROV_CTX *ctx = vctx, *dup = OPENSSL_memdup(ctx, sizeof(*ctx));

    if (dup == NULL)
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
    return dup;
}

static int sm3_prov_init(void *vctx, const OSSL_PARAM params[])
{
    SM3_PROV_CTX *ctx = vctx;

    (void)params;               /* SM3 has no settable parameters */
    sm3_init(&ctx->sm3, smg_prov_kernel(ctx->provctx, SMG_FAMILY_SM3));
    ctx->initialised = 1;
    ctx->finalised = 0;
    return 1;
}

static int sm3_check_open(SM3_PROV_CTX *ctx)
{
    /*
     * libcrypto 3.0 can hand a digest a NULL context: HMAC_Final again after
     * its internal copy failed for memory.  Fail rather than crash.
     */
    if (ctx == NULL)
        return 0;
    if (!ctx->initialised) {
        SMG_RAISE(ctx->provctx, SMG_R_NOT_INITIALISED);
        return 0;
    }
    if (ctx->finalised) {
        SMG_RAISE(ctx->provctx, SMG_R_ALREADY_FINALISED);
        return 0;
    }
    return 1;
}

static int sm3_prov_update(void *vctx, const unsigned char *in, size_t inl)
{
    SM3_PROV_CTX *ctx = vctx;

    if (!sm3_check_open(ctx))
        return 0;
    sm3_update(&ctx->sm3, in, inl);
    return 1;
}

static int sm3_prov_final(void *vctx, unsigned char *out, size_t *outl,
                          size_t outsz)
{
    SM3_PROV_CTX *ctx = vctx;

    *outl = 0;
    if (!sm3_check_open(ctx))
        return 0;
    /* Refused with nothing queued, as the default provider's digests do
     * (providers/implementations/include/prov/digestcommon.h); EVP never
     * offers less room. */
    if (outsz < SM3_DIGEST_LENGTH)
        return 0;
    sm3_final(&ctx->sm3, out);
    ctx->finalised = 1;
    *outl = SM3_DIGEST_LENGTH;
    return 1;
}

static const OSSL_PARAM sm3_known_gettable_params[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *sm3_gettable_params(void *provctx)
{
    (void)provctx;
    return sm3_known_gettable_params;
}

static int sm3_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, SM3_BLOCK_SIZE))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, SM3_DIGEST_LENGTH))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) != NULL
        && !OSSL_PARAM_set_int(p, 0))
        return 0;
    /* As the default provider, which sets no ALGID_ABSENT flag for SM3. */
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != NULL
        && !OSSL_PARAM_set_int(p, 0))
        return 0;
    return 1;
}

const OSSL_DISPATCH smg_sm3_functions[] = {
    { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))sm3_newctx },
    { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))sm3_freectx },
    { OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))sm3_dupctx },
    { OSSL_FUNC_DIGEST_INIT, (void (*)(void))sm3_prov_init },
    { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))sm3_prov_update },
    { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))sm3_prov_final },
    { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))sm3_get_params },
    { OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))sm3_gettable_params },
    { 0, NULL }
};
