/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 Streebog kernel (asm/streebog-armv8.pl): its kernel
 * table, which src/streebog.c lists with the capability it needs (so that
 * OPENSSL_armcap can hide it and force the portable kernels).
 */
#include "streebog_arm.h"

#ifdef STREEBOG_ARM_ASM

#include <stddef.h>

/* The assembly reads h, N and Sigma at these offsets. */
_Static_assert(offsetof(STREEBOG_CHAIN, N) == 64, "STREEBOG_CHAIN.N offset");
_Static_assert(offsetof(STREEBOG_CHAIN, Sigma) == 128,
               "STREEBOG_CHAIN.Sigma offset");

const STREEBOG_KERNEL streebog_kernel_neon = {
    "streebog-neon", streebog_neon_blocks, streebog_neon_g
};

#endif
