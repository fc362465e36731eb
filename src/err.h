/* SPDX-License-Identifier: Apache-2.0 */
/*
 * smgost's own error reasons and the one way the module raises them: through
 * the core's error upcalls, so that ERR_reason_error_string() shows our
 * reason strings under our library code (see get_reason_strings in
 * providers/smgost_prov.c).
 */
#ifndef SMGOST_ERR_H
#define SMGOST_ERR_H

#include <openssl/core.h>

#define SMG_R_INVALID_KEY_LENGTH          100
#define SMG_R_INVALID_IV_LENGTH           101
#define SMG_R_NO_KEY_SET                  102
#define SMG_R_NOT_INITIALISED             103
#define SMG_R_UPDATE_AFTER_FINAL          104
#define SMG_R_WRONG_FINAL_BLOCK_LENGTH    105
#define SMG_R_BAD_DECRYPT                 106
#define SMG_R_OUTPUT_BUFFER_TOO_SMALL     107
#define SMG_R_LENGTH_TOO_LARGE            108
#define SMG_R_FAILED_TO_GET_PARAMETER     109
#define SMG_R_FAILED_TO_SET_PARAMETER     110
#define SMG_R_INVALID_PARAMETER_VALUE     111
#define SMG_R_UNKNOWN_PARAMETER_SET       112
#define SMG_R_INVALID_ALGORITHM_ID_PARAMS 113
#define SMG_R_INVALID_MAC_SIZE            114
#define SMG_R_SELF_TEST_FAILED            115
#define SMG_R_OUT_OF_MEMORY               116
#define SMG_R_NOT_A_MULTIPLE_OF_BLOCK     117
#define SMG_R_INVALID_NUM                 118
#define SMG_R_INVALID_KEY_MESH            119
#define SMG_R_ALREADY_FINALISED           120
#define SMG_R_PARTIALLY_OVERLAPPING       121
#define SMG_R_INVALID_CONFIG_VALUE        122
/* The authenticated and disk modes (src/aead.c). */
#define SMG_R_INVALID_TAG_LENGTH          140
#define SMG_R_TAG_NOT_SET                 141
#define SMG_R_TAG_NOT_NEEDED              142
#define SMG_R_TAG_MISMATCH                143
#define SMG_R_IV_NOT_SET                  144
#define SMG_R_AAD_AFTER_DATA              145
#define SMG_R_MESSAGE_LENGTH_NOT_SET      146
#define SMG_R_MESSAGE_LENGTH_MISMATCH     147
#define SMG_R_CCM_ONE_UPDATE              148
#define SMG_R_INVALID_DATA_UNIT_LENGTH    149
#define SMG_R_INVALID_XTS_STANDARD        150
#define SMG_R_INVALID_TLS_AAD             151
#define SMG_R_INVALID_TLS_RECORD          152
#define SMG_R_TLS_IV_NOT_CONFIGURED       153
#define SMG_R_TOO_MANY_RECORDS            154
#define SMG_R_IV_GENERATION_FAILED        155

/* The reason table handed to the core, terminated by {0, NULL}. */
extern const OSSL_ITEM smg_reason_strings[];

/* Takes the core's error upcalls; called once from OSSL_provider_init. */
void smg_err_init(const OSSL_DISPATCH *in);

/*
 * Raises reason against the core handle of provctx (an SMG_PROV_CTX), with
 * optional printf-style detail.  The file/line/function of the caller are
 * recorded as ERR_raise does.
 */
#define SMG_RAISE(provctx, reason) \
    smg_raise((provctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, NULL)
#define SMG_RAISE_DATA(provctx, reason, ...) \
    smg_raise((provctx), (reason), OPENSSL_FILE, OPENSSL_LINE, OPENSSL_FUNC, __VA_ARGS__)
void smg_raise(void *provctx, int reason, const char *file, int line,
               const char *func, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
