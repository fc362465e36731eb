/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AArch64 Kuznyechik kernel (asm/kuznyechik-armv8.pl) as
 * src/kuznyechik.c and the tests see it: the assembly entry points, the
 * kernel tables built from them and their rows of the family's list.
 * Everything here exists only when KUZNYECHIK_ARM_ASM is defined.
 */
#ifndef SMGOST_KUZNYECHIK_ARM_H
#define SMGOST_KUZNYECHIK_ARM_H

#include "kuznyechik.h"
#include "cpu.h"
#include "kernel_decl.h"

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
# define KUZNYECHIK_ARM_ASM 1

/*
 * Advanced SIMD only, 16 blocks a pass byte-sliced: pi by TBL/TBX over
 * the table in registers, L as sixteen LFSR steps by PMULL.  The serial
 * modes run a pass a block.
 */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(kuznyechik, neon)

/*
 * kuznyechik-neon: the parallel modes in NEON, the serial ones (a pass a
 * block there costs about ten times the table kernel's instructions) in
 * the table kernel; kuznyechik-neon-ct, with constant-time = yes: every
 * mode in NEON.
 */
extern const SMG_BLOCK_KERNEL kuznyechik_kernel_neon;
extern const SMG_BLOCK_KERNEL kuznyechik_kernel_neon_ct;

/* Their rows of src/kuznyechik.c's list (src/kernel_list.h). */
# define KUZNYECHIK_ARM_KERNELS                                             \
    { &kuznyechik_kernel_neon, SMG_CAP_ARM_ASIMD, 0, NULL },                \
    { &kuznyechik_kernel_neon_ct, SMG_CAP_ARM_ASIMD,                        \
      SMG_KERNEL_CT | SMG_KERNEL_CT_ONLY, NULL },

#endif

#endif
