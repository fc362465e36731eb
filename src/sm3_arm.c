/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 SM3 kernel (asm/sm3-armv8.pl): its kernel table and
 * the choice from the CPU capabilities (src/cpu.h, so that OPENSSL_armcap
 * can hide it and force the portable kernel).
 */
#include "sm3_arm.h"

#ifdef SM3_ARM_ASM

#include "cpu.h"

const SM3_KERNEL sm3_kernel_ce = { "sm3-ce", sm3_ce_blocks };

const SM3_KERNEL *sm3_kernel_arm(void)
{
    if (smg_cpu_has(SM3_CAPS_CE))
        return &sm3_kernel_ce;
    return NULL;
}

#endif
