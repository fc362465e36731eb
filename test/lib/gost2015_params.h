/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests (testutil.h includes it) and the fuzz harness
 * fuzz/ctr_omac.c share: the GOST 2015 ciphers' CMS parameters.
 */
#ifndef SMGOST_GOST2015_PARAMS_H
#define SMGOST_GOST2015_PARAMS_H

#include <stddef.h>
#include <string.h>

/*
 * The CMS parameters of the GOST 2015 ciphers (gost-engine's
 * GOST2015_CIPHER_PARAMS ::= SEQUENCE { ukm OCTET STRING }, ukm = IV ||
 * the 8-byte KDF seed) into der (4 + ul bytes), as their alg_id_param
 * takes it; returns its length.
 */
static inline size_t tu_gost2015_params(unsigned char *der,
                                        const unsigned char *ukm, size_t ul)
{
    der[0] = 0x30;
    der[1] = (unsigned char)(2 + ul);
    der[2] = 0x04;
    der[3] = (unsigned char)ul;
    memcpy(der + 4, ukm, ul);
    return 4 + ul;
}

#endif
