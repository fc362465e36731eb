/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GHASH, GCM's hash (src/kernel.h's smg_ghash_init_fn and smg_ghash_fn),
 * whatever cipher's GCM a kernel table serves: the portable, constant-time
 * one (src/ghash.c) for tables without their own, and the assembly ones
 * with the CPU capabilities each needs.
 */
#ifndef SMGOST_GHASH_H
#define SMGOST_GHASH_H

#include "kernel.h"

void smg_ghash_c_init(void *htable, const unsigned char h[16]);
void smg_ghash_c(const void *htable, unsigned char xi[16],
                 const unsigned char *in, size_t nblocks);

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
/*
 * asm/ghash-x86_64.pl: PCLMULQDQ on xmm, VPCLMULQDQ on ymm and zmm, each
 * with its own htable layout; SMG_CAPS_GHASH_* (src/cpu.h's bits) are what
 * each needs.
 */
# define SMG_GHASH_DECLARE(v)                                                \
    void smg_ghash_##v##_init(void *htable, const unsigned char h[16]);     \
    void smg_ghash_##v(const void *htable, unsigned char xi[16],            \
                       const unsigned char *in, size_t nblocks);
SMG_GHASH_DECLARE(clmul_avx)
SMG_GHASH_DECLARE(vpclmul_avx2)
SMG_GHASH_DECLARE(vpclmul_avx512)
# define SMG_CAPS_GHASH_XMM (SMG_CAP_PCLMUL | SMG_CAP_AVX)
# define SMG_CAPS_GHASH_YMM                                                  \
    (SMG_CAPS_GHASH_XMM | SMG_CAP_AVX2 | SMG_CAP_VPCLMULQDQ)
# define SMG_CAPS_GHASH_ZMM                                                  \
    (SMG_CAPS_GHASH_XMM | SMG_CAP_VPCLMULQDQ | SMG_CAP_AVX512F              \
     | SMG_CAP_AVX512BW | SMG_CAP_AVX512VL)
#endif

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
/* asm/ghash-armv8.pl: PMULL. */
void ghash_pmull_init(void *htable, const unsigned char h[16]);
void ghash_pmull(const void *htable, unsigned char xi[16],
                 const unsigned char *in, size_t nblocks);
#endif

#endif
