/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The digest layer (digest.h): the OSSL_FUNC_digest_* entries that are
 * the same for every digest (contexts, parameters) and the errors; the
 * streaming core and the per-message entries are digest.h's, instantiated
 * per digest.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "digest.h"
#include "err.h"

void *(*const volatile smg_digest_wipe)(void *, int, size_t) = memset;

/* ---- the provider entries ---- */

/*
 * Not zeroed: nothing reads the state before init writes it, and EVP
 * (libcrypto 3.0) makes and frees a context for every message, so each
 * short message would pay for clearing it.
 */
void *smg_digest_newctx(void *provctx)
{
    SMG_DIGEST_CTX *ctx = OPENSSL_malloc(sizeof(*ctx));

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
void smg_digest_freectx(void *vctx)
{
    SMG_DIGEST_CTX *ctx = vctx;

    if (ctx != NULL && ctx->initialised && !ctx->finalised)
        OPENSSL_clear_free(ctx, sizeof(*ctx));
    else
        OPENSSL_free(ctx);
}

/* What HMAC, and any caller copying a context mid-stream, relies on. */
void *smg_digest_dupctx(void *vctx)
{
    SMG_DIGEST_CTX *ctx = vctx, *dup = OPENSSL_memdup(ctx, sizeof(*ctx));

    if (dup == NULL)
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
    return dup;
}

int smg_digest_refuse(const SMG_DIGEST_CTX *ctx)
{
    if (!ctx->initialised)
        SMG_RAISE(ctx->provctx, SMG_R_NOT_INITIALISED);
    else if (ctx->finalised)
        SMG_RAISE(ctx->provctx, SMG_R_ALREADY_FINALISED);
    return 0;
}

static const OSSL_PARAM digest_known_gettable_params[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL),
    OSSL_PARAM_END
};

const OSSL_PARAM *smg_digest_gettable_params(void *provctx)
{
    (void)provctx;
    return digest_known_gettable_params;
}

int smg_digest_get_params(OSSL_PARAM params[], const SMG_DIGEST *md)
{
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, md->block_size))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, md->digest_size))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) != NULL
        && !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != NULL
        && !OSSL_PARAM_set_int(p, md->algid_absent))
        return 0;
    return 1;
}
