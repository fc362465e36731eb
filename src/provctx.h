/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider context every algorithm context points back to: the core
 * handle, which error upcalls need, and what this instance's configuration
 * asked for.
 */
#ifndef SMGOST_PROVCTX_H
#define SMGOST_PROVCTX_H

#include <openssl/core.h>

typedef struct smg_prov_ctx {
    const OSSL_CORE_HANDLE *handle;
    /* "constant-time = yes": kernels whose every entry is constant-time. */
    int constant_time;
    /*
     * The SM3 kernel, chosen once at load: EVP builds a digest context
     * afresh for every message, and choosing again there would be part of
     * every short message's cost.
     */
    const struct sm3_kernel *sm3;
    /* "sm4=<kernel> sm3=<kernel> gost=<kernel>", as chosen for this one. */
    char kernels[160];
    char buildinfo[512];
} SMG_PROV_CTX;

#endif
