/* SPDX-License-Identifier: Apache-2.0 */
/*
 * smgost's error reasons and the one way the module raises them: through
 * the core's error upcalls.  A failure the default provider has too raises
 * the default provider's own reason (SMG_PROV below), so that a program
 * that maps OpenSSL's reasons sees the same error from either provider;
 * the rest raise smgost's reasons, which ERR_reason_error_string() shows
 * under smgost's library code (see get_reason_strings in
 * providers/smgost_prov.c).  test/err_compare.c compares the two providers.
 */
#ifndef SMGOST_ERR_H
#define SMGOST_ERR_H

#include <stdint.h>
#include <openssl/core.h>
#include <openssl/err.h>
#include <openssl/proverr.h>

/*
 * The default provider's reason PROV_R_<r> (include/openssl/proverr.h) as
 * the default provider raises it, in library ERR_LIB_PROV.  The core's
 * core_vset_error (crypto/provider_core.c, OpenSSL 3.0 to 4.0) raises a
 * reason whose library field, ERR_GET_LIB (include/openssl/err.h), is not
 * zero as that library's error, and only a reason without one as the
 * provider's own; ERR_PACK puts the library in bits 23 to 30 (ERR_LIB_OFFSET
 * 23, ERR_LIB_MASK 0xff, the same from 3.0 to 4.0), where smgost's own
 * reasons below have zeros.
 */
#define SMG_PROV(r) ((uint32_t)ERR_PACK(ERR_LIB_PROV, 0, PROV_R_##r))

/*
 * smgost's own reasons: misuse the default provider goes ahead with or
 * never meets, and the GOST parameters.  The numbers are those released;
 * the gaps were reasons now raised as the default provider's.
 */
#define SMG_R_NOT_INITIALISED             103
#define SMG_R_UPDATE_AFTER_FINAL          104
#define SMG_R_LENGTH_TOO_LARGE            108
#define SMG_R_UNKNOWN_PARAMETER_SET       112
#define SMG_R_INVALID_ALGORITHM_ID_PARAMS 113
#define SMG_R_INVALID_MAC_SIZE            114
#define SMG_R_SELF_TEST_FAILED            115
#define SMG_R_OUT_OF_MEMORY               116
#define SMG_R_NOT_A_MULTIPLE_OF_BLOCK     117
#define SMG_R_INVALID_KEY_MESH            119
#define SMG_R_ALREADY_FINALISED           120
#define SMG_R_PARTIALLY_OVERLAPPING       121
#define SMG_R_INVALID_CONFIG_VALUE        122

/* The reason table handed to the core, terminated by {0, NULL}. */
extern const OSSL_ITEM smg_reason_strings[];

/* Takes the core's error upcalls; called once from OSSL_provider_init. */
void smg_err_init(const OSSL_DISPATCH *in);

/*
 * Raises reason (SMG_R_... or SMG_PROV(...)) against the core handle of
 * provctx (an SMG_PROV_CTX), with optional printf-style detail.  The
 * file/line/function of the caller are recorded as ERR_raise does.
 */
#define SMG_RAISE(provctx, reason) \
    smg_raise((provctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, NULL)
#define SMG_RAISE_DATA(provctx, reason, ...) \
    smg_raise((provctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, __VA_ARGS__)
void smg_raise(void *provctx, uint32_t reason, const char *file, int line,
               const char *func, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
