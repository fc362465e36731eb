/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 GOST 28147-89 / Magma vector kernel
 * (asm/gost89-armv8.pl): the layout of GOST89_SBOX_TABLES.simd and its
 * builder, the kernel tables (serial modes go to the C kernel but with
 * constant-time = yes; src/gost89.c lists them with the capabilities they
 * need, so OPENSSL_armcap can turn them off), and the choice of the IMIT
 * rounds.
 */
#include "gost89_arm.h"

#ifdef GOST89_ARM_SIMD

#include <stddef.h>
#include "cpu.h"

/* The assembly hard-codes these offsets. */
_Static_assert(offsetof(GOST89_KEY, rk) == 0, "GOST89_KEY.rk offset");
_Static_assert(offsetof(GOST89_KEY, tab) == 128, "GOST89_KEY.tab offset");
_Static_assert(offsetof(GOST89_KEY, big_endian) == 136,
               "GOST89_KEY.big_endian offset");
_Static_assert(offsetof(GOST89_SBOX_TABLES, simd) == 4096,
               "GOST89_SBOX_TABLES.simd offset");
_Static_assert(sizeof(((GOST89_SBOX_TABLES *)0)->simd) >= 128,
               "GOST89_SBOX_TABLES.simd size");

/*
 * simd layout (S[i] is the S-box of nibble i, i = 0 least significant; j
 * is a byte's position in its 32-bit half-block):
 *   [  0.. 63] [16j + x] = S[2j](x)        (low nibble of byte j)
 *   [ 64..127] [16j + x] = S[2j+1](x) << 4 (high nibble of byte j)
 * Four vector registers hold each half, so that one TBL indexed by
 * nibble | j << 4 substitutes one nibble of every byte of a register.
 */
void gost89_arm_tables_build(GOST89_SBOX_TABLES *t, const GOST89_PARAMSET *ps)
{
    unsigned int j, x;

    for (j = 0; j < 4; j++) {
        for (x = 0; x < 16; x++) {
            t->simd[16 * j + x] = ps->sbox[2 * j][x];
            t->simd[64 + 16 * j + x] =
                (unsigned char)(ps->sbox[2 * j + 1][x] << 4);
        }
    }
}

/* The serial modes have no parallelism for the vector unit. */
SMG_CHAIN_FROM(gost89_arm, cbc_enc, gost89_kernel_c)
SMG_CHAIN_FROM(gost89_arm, cfb_enc, gost89_kernel_c)
SMG_CHAIN_FROM(gost89_arm, ofb, gost89_kernel_c)

const SMG_BLOCK_KERNEL gost89_kernel_neon = {
    "gost89-neon",
    gost89_neon_ecb,
    gost89_arm_cbc_enc,
    gost89_neon_cbc_dec,
    gost89_arm_cfb_enc,
    gost89_neon_cfb_dec,
    gost89_arm_ofb,
    gost89_neon_ctr,
    gost89_neon_cnt,
    NULL, NULL, NULL, NULL
};

/* "constant-time = yes": the serial modes through the NEON ECB. */
SMG_SERIAL_BY_ECB(gost89_neon_ct, gost89_neon_ecb, 8)

const SMG_BLOCK_KERNEL gost89_kernel_neon_ct = {
    "gost89-neon-ct",
    gost89_neon_ecb,
    gost89_neon_ct_cbc_enc,
    gost89_neon_cbc_dec,
    gost89_neon_ct_cfb_enc,
    gost89_neon_cfb_dec,
    gost89_neon_ct_ofb,
    gost89_neon_ctr,
    gost89_neon_cnt,
    NULL, NULL, NULL, NULL
};

/*
 * IMIT is serial: each block's 16 rounds wait for the one before, so the
 * NEON one-lane rounds run it only with constant_time.  The C kernel stays
 * the default: real Arm hardware was not available to time the two
 * (qemu-user's speed says nothing about it), and no speed claim is made.
 */
int gost89_imit_blocks_arm(int constant_time, const GOST89_KEY *enc,
                         unsigned char state[8], const unsigned char *in,
                         size_t nblocks)
{
    if (!constant_time || !smg_cpu_has(SMG_CAP_ARM_ASIMD))
        return 0;
    gost89_neon_imit(enc, state, in, nblocks);
    return 1;
}

#endif
