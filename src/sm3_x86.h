/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 SM3 kernel (asm/sm3-x86_64.pl) as src/sm3.c and the tests see
 * it: the assembly entry point, its kernel table and the chooser.
 * Everything here exists only when SM3_X86_ASM is defined.
 */
#ifndef SMGOST_SM3_X86_H
#define SMGOST_SM3_X86_H

#include "sm3.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define SM3_X86_ASM 1

/* AVX (message expansion), BMI1 (ANDN) and BMI2 (RORX) in the rounds. */
void sm3_avx_bmi2_blocks(uint32_t state[8], const unsigned char *p,
                         size_t nblocks);

extern const SM3_KERNEL sm3_kernel_avx_bmi2;
# define SM3_CAPS_AVX_BMI2 (SMG_CAP_AVX | SMG_CAP_BMI1 | SMG_CAP_BMI2)

/* The best assembly kernel the (masked) CPU capabilities allow, or NULL. */
const SM3_KERNEL *sm3_kernel_x86(void);
#endif

#endif
