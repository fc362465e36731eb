/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 Kuznyechik kernel (asm/kuznyechik-armv8.pl): its
 * two kernel tables (src/kuznyechik.c lists them with the capability they
 * need, so that OPENSSL_armcap can hide them).
 */
#include "kuznyechik_arm.h"

#ifdef KUZNYECHIK_ARM_ASM

#include <stddef.h>

/* The assembly reads the round keys and the direction at these offsets. */
_Static_assert(offsetof(KUZNYECHIK_KEY, rk) == 0, "KUZNYECHIK_KEY.rk offset");
_Static_assert(offsetof(KUZNYECHIK_KEY, decrypt) == 160,
               "KUZNYECHIK_KEY.decrypt offset");

/* The serial modes: one block at a time has no lanes to fill. */
SMG_CHAIN_FROM(kuznyechik_arm, cbc_enc, kuznyechik_kernel_c)
SMG_CHAIN_FROM(kuznyechik_arm, cfb_enc, kuznyechik_kernel_c)
SMG_CHAIN_FROM(kuznyechik_arm, ofb, kuznyechik_kernel_c)

const SMG_BLOCK_KERNEL kuznyechik_kernel_neon = {
    "kuznyechik-neon",
    kuznyechik_neon_ecb,
    kuznyechik_arm_cbc_enc,
    kuznyechik_neon_cbc_dec,
    kuznyechik_arm_cfb_enc,
    kuznyechik_neon_cfb_dec,
    kuznyechik_arm_ofb,
    kuznyechik_neon_ctr,
    NULL,
    NULL, NULL, NULL,
    NULL
};

const SMG_BLOCK_KERNEL kuznyechik_kernel_neon_ct = {
    "kuznyechik-neon-ct",
    kuznyechik_neon_ecb,
    kuznyechik_neon_cbc_enc,
    kuznyechik_neon_cbc_dec,
    kuznyechik_neon_cfb_enc,
    kuznyechik_neon_cfb_dec,
    kuznyechik_neon_ofb,
    kuznyechik_neon_ctr,
    NULL,
    NULL, NULL, NULL,
    NULL
};

#endif
