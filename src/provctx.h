/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider context every algorithm context points back to: the core
 * handle, which error upcalls need.
 */
#ifndef SMGOST_PROVCTX_H
#define SMGOST_PROVCTX_H

#include <openssl/core.h>

typedef struct smg_prov_ctx {
    const OSSL_CORE_HANDLE *handle;
} SMG_PROV_CTX;

#endif
