/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parameter names gostprov gives the GOST ciphers and MACs, one set for
 * every family, and the AlgorithmIdentifier parameters, which libcrypto
 * passes under OpenSSL 3.0's name (3.4's
 * OSSL_CIPHER_PARAM_ALGORITHM_ID_PARAMS_OLD) and, from 3.4, under the new
 * name too, the same DER under both.  Spelled out here: the macros' meaning
 * depends on the headers built against, and the module must answer both
 * names on every OpenSSL.
 */
#ifndef SMGOST_GOST_PARAMS_H
#define SMGOST_GOST_PARAMS_H

#include <stddef.h>
#include <openssl/core.h>

#define SMG_GOST_PARAM_KEY_MESH "key-mesh"
#define SMG_GOST_PARAM_CIPHER_KEY_MESH "cipher-key-mesh"
#define SMG_GOST_PARAM_ALG_ID "alg_id_param"
#define SMG_GOST_PARAM_ALG_ID_PARAMS "algorithm-id-params"
/* OpenSSL 3.4's whole AlgorithmIdentifier */
#define SMG_GOST_PARAM_ALGORITHM_ID "algorithm-id"

/* The AlgorithmIdentifier parameters asked for under either name, or NULL. */
OSSL_PARAM *smg_alg_id_wanted(OSSL_PARAM params[]);
/* Whether params give them under either name. */
int smg_alg_id_given(const OSSL_PARAM params[]);
/*
 * Answers each name asked for with der (len bytes); 0 with *bad the
 * parameter that could not take it.
 */
int smg_alg_id_answer(OSSL_PARAM params[], const unsigned char *der,
                      size_t len, OSSL_PARAM **bad);
/*
 * Gives the DER under each name given to decode(arg, der, len), all of
 * them before anything applies; 0, raising "invalid algorithm id
 * parameters", if one is no octet string or decode refuses it.
 */
int smg_alg_id_decode(void *provctx, const OSSL_PARAM params[],
                      int (*decode)(void *arg, const unsigned char *der,
                                    size_t len),
                      void *arg);

#endif
