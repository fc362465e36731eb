/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 SM3 kernel (asm/sm3-x86_64.pl): its two schedules'
 * kernel tables and the choice between them, from the CPU capabilities
 * (src/cpu.h, so that OPENSSL_ia32cap can hide them and force the portable
 * kernel) and the CPU's vendor and family.
 */
#include <stdlib.h>
#include <string.h>

#include "sm3_x86.h"

#ifdef SM3_X86_ASM

#include "cpu.h"

const SM3_KERNEL sm3_kernel_avx_bmi2 = { "sm3-avx-bmi2", sm3_avx_bmi2_blocks };
const SM3_KERNEL sm3_kernel_avx512_bmi2 = {
    "sm3-avx512-bmi2", sm3_avx512_bmi2_blocks
};

/*
 * Which schedule is faster depends on the core, not on the features: on
 * Zen 5 (AMD family 26) every vector operation takes two cycles and the
 * AVX-512VL expansion with its orders is 1.1 times faster; on an Intel
 * Xeon of family 6 model 207 (Sapphire/Emerald Rapids class), whose
 * vector operations share ports 0, 1 and 5 with the integer ALUs, the
 * kernel alone takes 7.89 cycles a byte with it against 8.48 with the AVX
 * one, so Intel CPUs take it too wherever AVX-512VL is there (no other
 * Intel core was measured).  On Zen 4 the AVX one was tuned and is kept,
 * and so on every other CPU.  SMGOST_SM3_SCHEDULE=zen4 or zen5 overrides
 * the vendor and family (for tests and measurements; any other value is
 * ignored); the capability mask still applies.
 */
static int zen5_schedule(void)
{
    const char *env = getenv("SMGOST_SM3_SCHEDULE");
    const struct smg_cpu_id *id = smg_cpu_id();

    if (env != NULL && strcmp(env, "zen4") == 0)
        return 0;
    if (env != NULL && strcmp(env, "zen5") == 0)
        return 1;
    return (strcmp(id->vendor, "AuthenticAMD") == 0 && id->family == 0x1a)
        || strcmp(id->vendor, "GenuineIntel") == 0;
}

const SM3_KERNEL *sm3_kernel_x86(void)
{
    if (smg_cpu_has(SM3_CAPS_AVX512_BMI2) && zen5_schedule())
        return &sm3_kernel_avx512_bmi2;
    if (smg_cpu_has(SM3_CAPS_AVX_BMI2))
        return &sm3_kernel_avx_bmi2;
    return NULL;
}

#endif
