/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reference GF(2^128) multiply that the GCM checks build on: the test
 * programs' (test/aead_test.c) and the fuzz harness's (fuzz/aead.c).  Bit by
 * bit, as written in the standard, so that it shares nothing with the
 * kernels under test.  Self-contained (no testutil.h), since the fuzz
 * harnesses include it too.
 */
#ifndef SMGOST_GF128_REF_H
#define SMGOST_GF128_REF_H

#include <string.h>

/*
 * z = x * y in GF(2^128), in SP 800-38D's bit order (its algorithm 1); z
 * may be x or y.
 */
static inline void ref_gf128_mul(unsigned char z[16],
                                 const unsigned char x[16],
                                 const unsigned char y[16])
{
    unsigned char v[16], r[16] = { 0 };
    int i, j, lsb;

    memcpy(v, y, 16);
    for (i = 0; i < 128; i++) {
        if (x[i / 8] >> (7 - i % 8) & 1)
            for (j = 0; j < 16; j++)
                r[j] ^= v[j];
        lsb = v[15] & 1;
        for (j = 15; j > 0; j--)
            v[j] = (unsigned char)(v[j] >> 1 | v[j - 1] << 7);
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1;
    }
    memcpy(z, r, 16);
}

#endif
