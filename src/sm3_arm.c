/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 SM3 kernel (asm/sm3-armv8.pl): its kernel table
 * (src/sm3.c lists it with the capabilities it needs, so that
 * OPENSSL_armcap can hide it and force the portable kernel).
 */
#include "sm3_arm.h"

#ifdef SM3_ARM_ASM

const SM3_KERNEL sm3_kernel_ce = { "sm3-ce", sm3_ce_blocks };

#endif
