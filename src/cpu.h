/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU capabilities as smgost's kernel choosers see them: probed once,
 * thread-safely, then masked by the override variable (OPENSSL_ia32cap on
 * x86-64, OPENSSL_armcap on aarch64, with libcrypto's syntax) so that every
 * kernel can be forced on one machine.
 */
#ifndef SMGOST_CPU_H
#define SMGOST_CPU_H

#include <stdint.h>

/* One bit per feature a kernel may need; meaning is per architecture. */
enum {
    SMG_CAP_SSSE3      = 1u << 0,
    SMG_CAP_AESNI      = 1u << 1,
    SMG_CAP_PCLMUL     = 1u << 2,
    SMG_CAP_AVX        = 1u << 3,
    SMG_CAP_AVX2       = 1u << 4,
    SMG_CAP_BMI1       = 1u << 5,
    SMG_CAP_BMI2       = 1u << 6,
    SMG_CAP_AVX512F    = 1u << 7,
    SMG_CAP_AVX512BW   = 1u << 8,
    SMG_CAP_AVX512VL   = 1u << 9,
    SMG_CAP_AVX512DQ   = 1u << 10,
    SMG_CAP_AVX512VBMI = 1u << 11,
    SMG_CAP_GFNI       = 1u << 12,
    SMG_CAP_VAES       = 1u << 13,
    SMG_CAP_VPCLMULQDQ = 1u << 14,
    SMG_CAP_X86_SM3    = 1u << 15,   /* CPUID.7.1 EAX bit 1, reported only */
    SMG_CAP_X86_SM4    = 1u << 16,   /* CPUID.7.1 EAX bit 2, reported only */

    SMG_CAP_ARM_ASIMD  = 1u << 20,
    SMG_CAP_ARM_AES    = 1u << 21,
    SMG_CAP_ARM_PMULL  = 1u << 22,
    SMG_CAP_ARM_SHA2   = 1u << 23,
    SMG_CAP_ARM_SM3    = 1u << 24,
    SMG_CAP_ARM_SM4    = 1u << 25
};

/* Probed and masked capabilities (SMG_CAP_* bits). */
uint32_t smg_cpu_caps(void);
/* True if every bit of need is available. */
static inline int smg_cpu_has(uint32_t need)
{
    return (smg_cpu_caps() & need) == need;
}
/* Human-readable list of the capabilities seen, for the provider params. */
const char *smg_cpu_caps_string(void);

/*
 * Who made the CPU and which core it is, for choosing among schedules of
 * one kernel that differ only in speed, and for naming the CPU beside
 * measurements.  x86-64: CPUID leaf 0's vendor, the display family and
 * model of leaf 1 (extended fields folded in, as the vendors' manuals
 * define them), and the brand string of leaves 0x80000002-4.  Elsewhere
 * all empty or zero.  Never masked: it selects no feature.
 */
struct smg_cpu_id {
    char vendor[13];
    unsigned int family, model;
    char name[49];
    /*
     * The overrides of those choices, SMGOST_SM3_SCHEDULE and SMGOST_SM4_CCM,
     * as the environment had them at the probe (empty if unset or too long
     * for any value they take): read once, as OPENSSL_ia32cap is, since
     * the choosers run per key and per context.
     */
    char sm3_schedule[8], sm4_ccm[8];
};
const struct smg_cpu_id *smg_cpu_id(void);

#endif
