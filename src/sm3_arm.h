/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AArch64 SM3 kernel (asm/sm3-armv8.pl) as src/sm3.c and the tests see
 * it: the assembly entry point and its kernel table.
 * Everything here exists only when SM3_ARM_ASM is defined.
 */
#ifndef SMGOST_SM3_ARM_H
#define SMGOST_SM3_ARM_H

#include "sm3.h"

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
# define SM3_ARM_ASM 1

/* The Armv8.2 SM3 instructions (SM3SS1, SM3TT1A/B, SM3TT2A/B, SM3PARTW1/2). */
void sm3_ce_blocks(uint32_t state[8], const unsigned char *p, size_t nblocks);

extern const SM3_KERNEL sm3_kernel_ce;
# define SM3_CAPS_CE (SMG_CAP_ARM_ASIMD | SMG_CAP_ARM_SM3)

#endif

#endif
