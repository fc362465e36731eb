/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The MAC layer (mac.h): contexts, the settable parameters and the errors,
 * for every block-chained MAC over its SMG_MAC_OPS; what a message passes
 * through (init, update, final, reading the size) is mac.h's, instantiated
 * per algorithm.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "err.h"
#include "mac.h"

static size_t mac_ctx_size(const SMG_MAC *mac)
{
    return sizeof(SMG_MAC_CTX) + mac->ops->state_size;
}

void *smg_mac_newctx(void *provctx, const SMG_MAC *mac)
{
    SMG_MAC_CTX *ctx = OPENSSL_zalloc(mac_ctx_size(mac));

    if (ctx == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    ctx->mac = mac;
    ctx->provctx = provctx;
    ctx->size = mac->default_size;
    mac->ops->setup(ctx);
    return ctx;
}

/* Keys, schedules and any message state go with the context. */
void smg_mac_freectx(void *vctx)
{
    SMG_MAC_CTX *ctx = vctx;

    if (ctx != NULL)
        OPENSSL_clear_free(ctx, mac_ctx_size(ctx->mac));
}

void *smg_mac_dupctx(void *vctx)
{
    SMG_MAC_CTX *ctx = vctx, *dup;

    dup = OPENSSL_memdup(ctx, mac_ctx_size(ctx->mac));
    if (dup == NULL)
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
    return dup;
}

int smg_mac_restart(SMG_MAC_CTX *ctx)
{
    return smg_mac_restart_with(ctx->mac, ctx);
}

/* In this order: size, the construction's own, then the key. */
int smg_mac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    SMG_MAC_CTX *ctx = vctx;
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
        if (size < 1 || size > ctx->mac->block_size) {
            SMG_RAISE_DATA(ctx->provctx, SMG_R_INVALID_MAC_SIZE,
                           "%zu is not in 1..%zu", size, ctx->mac->block_size);
            return 0;
        }
        ctx->size = size;
    }
    if (ctx->mac->ops->set_params != NULL
        && !ctx->mac->ops->set_params(ctx, params))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY)) != NULL) {
        const void *key;
        size_t keylen;

        if (!OSSL_PARAM_get_octet_string_ptr(p, &key, &keylen)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        if (!smg_mac_set_key_with(ctx->mac, ctx, key, keylen))
            return 0;
    }
    return 1;
}

int smg_mac_refuse(const SMG_MAC_CTX *ctx)
{
    if (!ctx->key_set)
        SMG_RAISE(ctx->provctx, SMG_PROV(NO_KEY_SET));
    else if (ctx->finalised)
        SMG_RAISE(ctx->provctx, SMG_R_ALREADY_FINALISED);
    return 0;
}

int smg_mac_refuse_size(const SMG_MAC_CTX *ctx, size_t outsize)
{
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(OUTPUT_BUFFER_TOO_SMALL),
                   "need %zu bytes, have %zu", ctx->size, outsize);
    return 0;
}

int smg_mac_refuse_key(const SMG_MAC_CTX *ctx, size_t keylen)
{
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(INVALID_KEY_LENGTH),
                   "got %zu bytes, expected %zu", keylen, ctx->mac->key_size);
    return 0;
}

int smg_mac_refuse_param(const SMG_MAC_CTX *ctx, const OSSL_PARAM *p)
{
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}
