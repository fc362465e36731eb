/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The serial modes over a one-block ECB entry (src/kernel.h): what the
 * constant-time siblings of the kernel tables run for CBC and CFB
 * encryption and OFB, where a table's own serial entries are faster but
 * look up tables indexed by secret bytes.  Every step is a whole-block XOR
 * or copy, so the timing is the ECB entry's; the blocks held on the stack
 * are cleansed before return.
 */
#include <string.h>
#include <openssl/crypto.h>
#include "kernel.h"

static void xor_block(unsigned char *r, const unsigned char *a,
                      const unsigned char *b, size_t bs)
{
    size_t i;

    for (i = 0; i < bs; i++)
        r[i] = a[i] ^ b[i];
}

/*
 * CBC: C_i = E(P_i ^ C_{i-1}); CFB: C_i = P_i ^ E(C_{i-1}); OFB: O_i =
 * E(O_{i-1}), C_i = P_i ^ O_i.  In place works: P_i is read before C_i
 * lands.
 */
void smg_serial_by_ecb(smg_serial_mode mode, smg_ecb_fn ecb, size_t bs,
                       const void *ks, const unsigned char *in,
                       unsigned char *out, size_t nblocks, unsigned char *iv)
{
    unsigned char v[SMG_MAX_BLOCK];

    memcpy(v, iv, bs);
    for (; nblocks > 0; nblocks--, in += bs, out += bs) {
        switch (mode) {
        case SMG_SERIAL_CBC_ENC:
            xor_block(v, v, in, bs);
            ecb(ks, v, v, 1);
            memcpy(out, v, bs);
            break;
        case SMG_SERIAL_CFB_ENC:
            ecb(ks, v, v, 1);
            xor_block(v, v, in, bs);
            memcpy(out, v, bs);
            break;
        case SMG_SERIAL_OFB:
            ecb(ks, v, v, 1);
            xor_block(out, in, v, bs);
            break;
        }
    }
    memcpy(iv, v, bs);
    OPENSSL_cleanse(v, sizeof(v));
}
