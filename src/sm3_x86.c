/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 SM3 kernel (asm/sm3-x86_64.pl): its kernel table and
 * the choice from the CPU capabilities (src/cpu.h, so that OPENSSL_ia32cap
 * can hide it and force the portable kernel).
 */
#include "sm3_x86.h"

#ifdef SM3_X86_ASM

#include "cpu.h"

const SM3_KERNEL sm3_kernel_avx_bmi2 = { "sm3-avx-bmi2", sm3_avx_bmi2_blocks };

const SM3_KERNEL *sm3_kernel_x86(void)
{
    if (smg_cpu_has(SM3_CAPS_AVX_BMI2))
        return &sm3_kernel_avx_bmi2;
    return NULL;
}

#endif
