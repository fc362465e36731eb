/* SPDX-License-Identifier: Apache-2.0 */
/*
 * smgost's reason strings and error raising through the core upcalls
 * (core_new_error, core_set_error_debug, core_vset_error), as OpenSSL's own
 * external providers do: an error of smgost's own reasons carries the
 * library code the core assigned to smgost, so the reason strings below
 * resolve; one of SMG_PROV's carries ERR_LIB_PROV, whose strings libcrypto
 * holds.
 */
#include <stdarg.h>
#include <openssl/core_dispatch.h>
#include <openssl/err.h>
#include "err.h"
#include "provctx.h"

const OSSL_ITEM smg_reason_strings[] = {
    { SMG_R_NOT_INITIALISED, "operation not initialised" },
    { SMG_R_UPDATE_AFTER_FINAL, "update after final" },
    { SMG_R_LENGTH_TOO_LARGE, "length too large" },
    { SMG_R_UNKNOWN_PARAMETER_SET, "unknown parameter set" },
    { SMG_R_INVALID_ALGORITHM_ID_PARAMS, "invalid algorithm id parameters" },
    { SMG_R_INVALID_MAC_SIZE, "invalid mac size" },
    { SMG_R_SELF_TEST_FAILED, "self test failed" },
    { SMG_R_OUT_OF_MEMORY, "out of memory" },
    { SMG_R_NOT_A_MULTIPLE_OF_BLOCK, "input not a multiple of the block length" },
    { SMG_R_INVALID_KEY_MESH, "invalid key meshing period" },
    { SMG_R_ALREADY_FINALISED, "operation already finalised" },
    { SMG_R_PARTIALLY_OVERLAPPING, "partially overlapping buffers" },
    { SMG_R_INVALID_CONFIG_VALUE, "invalid configuration value" },
    { 0, NULL }
};

/*
 * Every OSSL_provider_init stores these, and loads run concurrently (one per
 * library context, and racing loads into one context each init a provider
 * object); smg_raise reads them from any thread.  Hence atomic accesses:
 * each store writes the same libcrypto functions, so relaxed order is
 * enough.  test/threads.c under ThreadSanitizer reported the plain ones.
 */
static OSSL_FUNC_core_new_error_fn *core_new_error;
static OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *core_vset_error;

void smg_err_init(const OSSL_DISPATCH *in)
{
    for (; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            __atomic_store_n(&core_new_error, OSSL_FUNC_core_new_error(in),
                             __ATOMIC_RELAXED);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            __atomic_store_n(&core_set_error_debug,
                             OSSL_FUNC_core_set_error_debug(in),
                             __ATOMIC_RELAXED);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            __atomic_store_n(&core_vset_error, OSSL_FUNC_core_vset_error(in),
                             __ATOMIC_RELAXED);
            break;
        }
    }
}

void smg_raise(void *provctx, uint32_t reason, const char *file, int line,
               const char *func, const char *fmt, ...)
{
    const OSSL_CORE_HANDLE *handle =
        provctx != NULL ? ((SMG_PROV_CTX *)provctx)->handle : NULL;
    OSSL_FUNC_core_new_error_fn *new_error =
        __atomic_load_n(&core_new_error, __ATOMIC_RELAXED);
    OSSL_FUNC_core_set_error_debug_fn *set_debug =
        __atomic_load_n(&core_set_error_debug, __ATOMIC_RELAXED);
    OSSL_FUNC_core_vset_error_fn *vset_error =
        __atomic_load_n(&core_vset_error, __ATOMIC_RELAXED);
    va_list ap;

    if (new_error == NULL || set_debug == NULL || vset_error == NULL)
        return;
    new_error(handle);
    set_debug(handle, file, line, func);
    va_start(ap, fmt);
    vset_error(handle, reason, fmt, ap);
    va_end(ap);
}
