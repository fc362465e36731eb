/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AlgorithmIdentifier parameters of the GOST ciphers under both of
 * their names (gost_params.h).
 */
#include <openssl/params.h>
#include "err.h"
#include "gost_params.h"

static const char *const alg_id_names[] = {
    SMG_GOST_PARAM_ALG_ID, SMG_GOST_PARAM_ALG_ID_PARAMS
};
#define NNAMES (sizeof(alg_id_names) / sizeof(alg_id_names[0]))

OSSL_PARAM *smg_alg_id_wanted(OSSL_PARAM params[])
{
    OSSL_PARAM *p = NULL;
    size_t i;

    for (i = 0; i < NNAMES && p == NULL; i++)
        p = OSSL_PARAM_locate(params, alg_id_names[i]);
    return p;
}

int smg_alg_id_given(const OSSL_PARAM params[])
{
    size_t i;

    for (i = 0; i < NNAMES; i++)
        if (OSSL_PARAM_locate_const(params, alg_id_names[i]) != NULL)
            return 1;
    return 0;
}

int smg_alg_id_answer(OSSL_PARAM params[], const unsigned char *der,
                      size_t len, OSSL_PARAM **bad)
{
    OSSL_PARAM *p;
    size_t i;

    for (i = 0; i < NNAMES; i++)
        if ((p = OSSL_PARAM_locate(params, alg_id_names[i])) != NULL
            && !OSSL_PARAM_set_octet_string(p, der, len)) {
            *bad = p;
            return 0;
        }
    return 1;
}

int smg_alg_id_decode(void *provctx, const OSSL_PARAM params[],
                      int (*decode)(void *arg, const unsigned char *der,
                                    size_t len),
                      void *arg)
{
    const OSSL_PARAM *p;
    const void *der;
    size_t i, len;

    for (i = 0; i < NNAMES; i++)
        if ((p = OSSL_PARAM_locate_const(params, alg_id_names[i])) != NULL
            && (!OSSL_PARAM_get_octet_string_ptr(p, &der, &len)
                || !decode(arg, der, len))) {
            SMG_RAISE(provctx, SMG_R_INVALID_ALGORITHM_ID_PARAMS);
            return 0;
        }
    return 1;
}
