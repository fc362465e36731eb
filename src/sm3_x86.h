/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 SM3 kernel (asm/sm3-x86_64.pl) as src/sm3.c and the tests see
 * it: the assembly entry points, their kernel tables and the schedule choice.
 * Everything here exists only when SM3_X86_ASM is defined.
 */
#ifndef SMGOST_SM3_X86_H
#define SMGOST_SM3_X86_H

#include "sm3.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define SM3_X86_ASM 1

/*
 * Three schedules of one kernel.  sm3-avx-bmi2: AVX (message expansion),
 * BMI1 (ANDN) and BMI2 (RORX) in the rounds, in the orders tuned on Zen 4.
 * sm3-avx512-bmi2: the message expansion with AVX-512VL and the orders
 * tuned on Zen 5.  sm3-avx512-bmi2-glc: the same expansion, one
 * three-operand LEA for a12 + K + E, and the orders tuned on an Intel
 * Golden Cove class core.
 */
void sm3_avx_bmi2_blocks(uint32_t state[8], const unsigned char *p,
                         size_t nblocks);
void sm3_avx512_bmi2_blocks(uint32_t state[8], const unsigned char *p,
                            size_t nblocks);
void sm3_avx512_bmi2_glc_blocks(uint32_t state[8], const unsigned char *p,
                                size_t nblocks);

extern const SM3_KERNEL sm3_kernel_avx_bmi2;
extern const SM3_KERNEL sm3_kernel_avx512_bmi2;
extern const SM3_KERNEL sm3_kernel_avx512_bmi2_glc;
# define SM3_CAPS_AVX_BMI2 (SMG_CAP_AVX | SMG_CAP_BMI1 | SMG_CAP_BMI2)
# define SM3_CAPS_AVX512_BMI2 \
    (SM3_CAPS_AVX_BMI2 | SMG_CAP_AVX512F | SMG_CAP_AVX512VL)

/*
 * The schedule this CPU takes, "zen4", "zen5" or "glc" (sm3_kernel_family's
 * schedule, src/sm3.c).
 */
const char *sm3_schedule_x86(void);
#endif

#endif
