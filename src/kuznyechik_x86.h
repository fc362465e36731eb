/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 Kuznyechik kernels (asm/kuznyechik-*-x86_64.pl) as
 * src/kuznyechik.c and the tests see them: the assembly entry points, the
 * kernel tables built from them (src/kuznyechik.c lists them) and the CPU
 * capabilities each needs.  Everything here exists only when
 * KUZNYECHIK_X86_ASM is defined.
 */
#ifndef SMGOST_KUZNYECHIK_X86_H
#define SMGOST_KUZNYECHIK_X86_H

#include "kuznyechik.h"
#include "kernel_decl.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define KUZNYECHIK_X86_ASM 1
# include "cpu.h"

/* GFNI + AVX-512 (F, BW, VL, VBMI): every block mode
 * (asm/kuznyechik-gfni-avx512-x86_64.pl). */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(kuznyechik, gfni_avx512)
extern const SMG_BLOCK_KERNEL kuznyechik_kernel_gfni_avx512;
# define KUZNYECHIK_CAPS_GFNI_AVX512                                         \
    (SMG_CAP_AVX512F | SMG_CAP_AVX512BW | SMG_CAP_AVX512VL                  \
     | SMG_CAP_AVX512VBMI | SMG_CAP_GFNI)

/* Without AVX-512: GFNI + AVX2, and AVX2 alone; every block mode
 * (asm/kuznyechik-avx2-x86_64.pl, both tiers). */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(kuznyechik, gfni_avx2)
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(kuznyechik, avx2)
extern const SMG_BLOCK_KERNEL kuznyechik_kernel_gfni_avx2,
    kuznyechik_kernel_avx2;
# define KUZNYECHIK_CAPS_GFNI_AVX2 (SMG_CAP_AVX2 | SMG_CAP_GFNI)
# define KUZNYECHIK_CAPS_AVX2 SMG_CAP_AVX2

/* The key schedule (GOST R 34.12-2015 4.3) through the AVX2 tiers'
 * one-block cores, constant-time: rk[0..9] from the 32-byte key. */
void kuznyechik_gfni_avx2_schedule(const unsigned char key[32],
                                   unsigned char rk[10][16]);
void kuznyechik_avx2_schedule(const unsigned char key[32],
                              unsigned char rk[10][16]);
/* The schedule for kernel k by one of those, where k is an x86-64 tier:
 * 1, else 0 (nothing written). */
int kuznyechik_x86_schedule(const SMG_BLOCK_KERNEL *k,
                            const unsigned char key[32],
                            unsigned char rk[10][16]);
#endif

#endif
