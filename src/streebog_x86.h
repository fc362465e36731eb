/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 Streebog kernels (asm/streebog-*-x86_64.pl) as src/streebog.c
 * and the tests see them: the assembly entry points, their kernel tables
 * and the rows of the family's list (STREEBOG_X86_KERNELS), fastest first.
 * Everything here exists only when STREEBOG_X86_ASM is defined.
 */
#ifndef SMGOST_STREEBOG_X86_H
#define SMGOST_STREEBOG_X86_H

#include "cpu.h"
#include "kernel_list.h"
#include "streebog.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define STREEBOG_X86_ASM 1

/*
 * streebog-gfni-avx512: one zmm register a vector, S by VPERMT2B, L by
 * VGF2P8AFFINEQB, P folded into L's byte gathers (VPERMB).
 */
void streebog_gfni_avx512_blocks(STREEBOG_CHAIN *c, const unsigned char *in,
                                 size_t nblocks);
void streebog_gfni_avx512_g(uint64_t h[8], const uint64_t N[8],
                            const unsigned char m[64]);

extern const STREEBOG_KERNEL streebog_kernel_gfni_avx512;

/*
 * streebog-gfni-avx2 (asm/streebog-avx2-x86_64.pl): two ymm registers a
 * vector, S by the decomposition of pi in VPSHUFB, L by VGF2P8AFFINEQB
 * after a byte transpose (P).
 */
void streebog_gfni_avx2_blocks(STREEBOG_CHAIN *c, const unsigned char *in,
                               size_t nblocks);
void streebog_gfni_avx2_g(uint64_t h[8], const uint64_t N[8],
                          const unsigned char m[64]);

extern const STREEBOG_KERNEL streebog_kernel_gfni_avx2;

/*
 * streebog-avx2 (the same file, AVX2 alone): both chains in four ymm
 * registers, S by the decomposition of pi in VPSHUFB, P and L by 64
 * VPSHUFB nibble tables a round (pi's output map and L merged) and a
 * byte transpose.
 */
void streebog_avx2_blocks(STREEBOG_CHAIN *c, const unsigned char *in,
                          size_t nblocks);
void streebog_avx2_g(uint64_t h[8], const uint64_t N[8],
                     const unsigned char m[64]);

extern const STREEBOG_KERNEL streebog_kernel_avx2;

# define STREEBOG_CAPS_GFNI_AVX512 \
    (SMG_CAP_AVX512F | SMG_CAP_AVX512BW | SMG_CAP_AVX512VBMI | SMG_CAP_GFNI)

# define STREEBOG_CAPS_GFNI_AVX2 (SMG_CAP_AVX2 | SMG_CAP_GFNI)

# define STREEBOG_CAPS_AVX2 SMG_CAP_AVX2

/* Every one constant-time (no table in memory indexed by data). */
# define STREEBOG_X86_KERNELS \
    { &streebog_kernel_gfni_avx512, STREEBOG_CAPS_GFNI_AVX512, \
      SMG_KERNEL_CT, NULL }, \
    { &streebog_kernel_gfni_avx2, STREEBOG_CAPS_GFNI_AVX2, \
      SMG_KERNEL_CT, NULL }, \
    { &streebog_kernel_avx2, STREEBOG_CAPS_AVX2, SMG_KERNEL_CT, NULL },
#endif

#endif
