/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider context every algorithm context points back to: the core
 * handle, which error upcalls need, what this instance's configuration
 * asked for, and the kernels chosen for it.
 */
#ifndef SMGOST_PROVCTX_H
#define SMGOST_PROVCTX_H

#include <openssl/core.h>
#include "kernel_list.h"

typedef struct smg_prov_ctx {
    const OSSL_CORE_HANDLE *handle;
    /* "constant-time = yes": kernels whose every entry is constant-time. */
    int constant_time;
    /*
     * Each family's kernel table (src/kernel_list.h), chosen once at load
     * for this instance's configuration: EVP builds a digest context afresh
     * for every message, and choosing again there would be part of every
     * short message's cost.
     */
    const void *kernel[SMG_NFAMILIES];
    /*
     * "sm4=<kernel> sm3=<kernel> gost=<kernel> ...", a family each, as
     * chosen for this one: room for 64 characters a family (the longest,
     * SM4's table and GHASH's, is 37).
     */
    char kernels[SMG_NFAMILIES * 64];
    char buildinfo[512];
} SMG_PROV_CTX;

/* The kernel table of family f chosen for the instance provctx. */
static inline const void *smg_prov_kernel(const void *provctx, smg_family f)
{
    return ((const SMG_PROV_CTX *)provctx)->kernel[f];
}

#endif
