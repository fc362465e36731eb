/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MGM's multiply-accumulate kernels (src/kernel.h's SMG_MGM_KERNEL): the
 * portable, constant-time one (src/mgm_mac.c) and the assembly ones
 * (asm/mgm-x86_64.pl, asm/mgm-armv8.pl) with the CPU capabilities each
 * needs.  src/mgm_mac.c lists them.
 */
#ifndef SMGOST_MGM_MAC_H
#define SMGOST_MGM_MAC_H

#include "kernel.h"

void smg_mgm_c_mac128(unsigned char *sum, const unsigned char *h,
                      const unsigned char *x, size_t nblocks);
void smg_mgm_c_mac64(unsigned char *sum, const unsigned char *h,
                     const unsigned char *x, size_t nblocks);
extern const SMG_MGM_KERNEL smg_mgm_kernel_c;

/* The family's choice for this CPU (every table is constant-time). */
const SMG_MGM_KERNEL *smg_mgm_kernel(int constant_time);

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define SMG_MGM_X86_ASM 1
# include "cpu.h"
/* PCLMULQDQ on xmm (VEX), VPCLMULQDQ on zmm (EVEX): the capabilities are
 * those of GHASH's tiers of the same width (src/ghash.h). */
# define SMG_MGM_DECLARE(v)                                                  \
    void smg_mgm_##v##_mac128(unsigned char *sum, const unsigned char *h,   \
                              const unsigned char *x, size_t nblocks);      \
    void smg_mgm_##v##_mac64(unsigned char *sum, const unsigned char *h,    \
                             const unsigned char *x, size_t nblocks);       \
    extern const SMG_MGM_KERNEL smg_mgm_kernel_##v;
SMG_MGM_DECLARE(clmul_avx)
SMG_MGM_DECLARE(vpclmul_avx512)
# define SMG_CAPS_MGM_XMM (SMG_CAP_PCLMUL | SMG_CAP_AVX)
# define SMG_CAPS_MGM_ZMM                                                    \
    (SMG_CAPS_MGM_XMM | SMG_CAP_VPCLMULQDQ | SMG_CAP_AVX512F                \
     | SMG_CAP_AVX512BW | SMG_CAP_AVX512VL)
#endif

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
# define SMG_MGM_ARM_ASM 1
# include "cpu.h"
/* PMULL/PMULL2 (asm/mgm-armv8.pl). */
void smg_mgm_pmull_mac128(unsigned char *sum, const unsigned char *h,
                          const unsigned char *x, size_t nblocks);
void smg_mgm_pmull_mac64(unsigned char *sum, const unsigned char *h,
                         const unsigned char *x, size_t nblocks);
extern const SMG_MGM_KERNEL smg_mgm_kernel_pmull;
# define SMG_CAPS_MGM_PMULL (SMG_CAP_ARM_ASIMD | SMG_CAP_ARM_PMULL)
#endif

#endif
