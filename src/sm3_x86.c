/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 SM3 kernel (asm/sm3-x86_64.pl): its three schedules'
 * kernel tables and which schedule the CPU's vendor and family take (the
 * capabilities each needs are in src/sm3.c's list).
 */
#include <string.h>

#include "sm3_x86.h"

#ifdef SM3_X86_ASM

#include "cpu.h"

const SM3_KERNEL sm3_kernel_avx_bmi2 = { "sm3-avx-bmi2", sm3_avx_bmi2_blocks };
const SM3_KERNEL sm3_kernel_avx512_bmi2 = {
    "sm3-avx512-bmi2", sm3_avx512_bmi2_blocks
};
const SM3_KERNEL sm3_kernel_avx512_bmi2_glc = {
    "sm3-avx512-bmi2-glc", sm3_avx512_bmi2_glc_blocks
};

/*
 * Which schedule is faster depends on the core, not on the features: on
 * Zen 5 (AMD family 26) every vector operation takes two cycles and the
 * AVX-512VL expansion with its orders is 1.1 times faster; on an Intel
 * Xeon of family 6 model 207 (Sapphire/Emerald Rapids class, Golden Cove
 * class cores), where a three-operand LEA takes one cycle, the kernel
 * alone takes 6.96 to 7.15 cycles a byte with the glc schedule, 7.81 to
 * 7.86 with the Zen 5 one and 8.40 to 8.42 with the Zen 4 one, so Intel
 * CPUs take it wherever AVX-512VL is there (no other Intel core was
 * measured).  On Zen 4 the AVX one was tuned and is kept, and so on every
 * other CPU.  SMGOST_SM3_SCHEDULE=zen4, zen5 or glc overrides the vendor
 * and family (for tests and measurements; any other value is ignored); the
 * capability mask still applies.
 */
const char *sm3_schedule_x86(void)
{
    const struct smg_cpu_id *id = smg_cpu_id();

    if (strcmp(id->sm3_schedule, "zen4") == 0
        || strcmp(id->sm3_schedule, "zen5") == 0
        || strcmp(id->sm3_schedule, "glc") == 0)
        return id->sm3_schedule;
    if (strcmp(id->vendor, "AuthenticAMD") == 0 && id->family == 0x1a)
        return "zen5";
    if (strcmp(id->vendor, "GenuineIntel") == 0)
        return "glc";
    return "zen4";
}

#endif
