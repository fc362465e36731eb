/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The vectorised GOST 28147-89 / Magma kernels for x86-64
 * (asm/gost89-x86_64.pl) as src/gost89.c sees them: the builder of the
 * per-parameter-set SIMD tables and the kernel chooser.  Both exist only
 * when GOST_X86_SIMD is defined.
 */
#ifndef SMGOST_GOST89_X86_H
#define SMGOST_GOST89_X86_H

#include "gost89.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM) && !defined(SMG_NO_GOST_SIMD)
# define GOST_X86_SIMD 1

/* Fills t->simd for the parameter set ps (layout at the definition). */
void gost_simd_tables_build(GOST_SBOX_TABLES *t, const GOST_PARAMSET *ps);
/* The vector kernel tables (for the chooser and for tests, as for SM4). */
extern const SMG_BLOCK_KERNEL gost_kernel_avx512;
extern const SMG_BLOCK_KERNEL gost_kernel_avx2;
extern const SMG_BLOCK_KERNEL gost_kernel_avx2_ct;
/*
 * The best vector kernel the CPU allows, or NULL; with constant_time, the
 * best whose every entry is constant-time.
 */
const SMG_BLOCK_KERNEL *gost_kernel_x86(int constant_time);
#endif

#endif
