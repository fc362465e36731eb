/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The vectorised GOST 28147-89 / Magma kernel for AArch64
 * (asm/gost89-armv8.pl) as src/gost89.c and the tests see it: the builder
 * of its per-parameter-set tables and the kernel tables.  All
 * of it exists only when GOST89_ARM_SIMD is defined.
 */
#ifndef SMGOST_GOST89_ARM_H
#define SMGOST_GOST89_ARM_H

#include "gost89.h"
#include "kernel_decl.h"

#if defined(__aarch64__) && !defined(SMG_NO_ASM) && !defined(SMG_NO_GOST_SIMD)
# define GOST89_ARM_SIMD 1

/* Fills t->simd for the parameter set ps (layout at the definition). */
void gost89_arm_tables_build(GOST89_SBOX_TABLES *t, const GOST89_PARAMSET *ps);
/* Advanced SIMD, S-boxes by TBL: 16 blocks per pass; the parallel modes
 * and CNT (the serial ones are the C kernel's). */
SMG_DECLARE_PARALLEL_ENTRIES(gost89, neon)
SMG_DECLARE_CHAIN(gost89, neon, cnt)
extern const SMG_BLOCK_KERNEL gost89_kernel_neon;
extern const SMG_BLOCK_KERNEL gost89_kernel_neon_ct;
/*
 * The IMIT rounds through the NEON S-box if constant_time and the CPU has
 * NEON; 0 if the caller must run them itself (the C kernel).
 */
int gost89_imit_blocks_arm(int constant_time, const GOST89_KEY *enc,
                         unsigned char state[8], const unsigned char *in,
                         size_t nblocks);
/* The IMIT entry (for the chooser above and for tests). */
void gost89_neon_imit(const GOST89_KEY *ks, unsigned char state[8],
                      const unsigned char *in, size_t nblocks);
#endif

#endif
