/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AArch64 Streebog kernel (asm/streebog-armv8.pl) as src/streebog.c and
 * the tests see it: the assembly entry points, their kernel table and its
 * row of the family's list.  Everything here exists only when
 * STREEBOG_ARM_ASM is defined.
 */
#ifndef SMGOST_STREEBOG_ARM_H
#define SMGOST_STREEBOG_ARM_H

#include "cpu.h"
#include "streebog.h"

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
# define STREEBOG_ARM_ASM 1

/*
 * Advanced SIMD only: S by TBL/TBX over pi held in registers, P and L by
 * TBL nibble tables, the key schedule and the state in one pass.
 */
void streebog_neon_blocks(STREEBOG_CHAIN *c, const unsigned char *in,
                          size_t nblocks);
void streebog_neon_g(uint64_t h[8], const uint64_t N[8],
                     const unsigned char m[64]);

extern const STREEBOG_KERNEL streebog_kernel_neon;

/* Its row of src/streebog.c's list (src/kernel_list.h), constant-time. */
# define STREEBOG_ARM_KERNELS                                               \
    { &streebog_kernel_neon, SMG_CAP_ARM_ASIMD, SMG_KERNEL_CT, NULL },

#endif

#endif
