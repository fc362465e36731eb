/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 GOST 28147-89 / Magma kernels as src/gost89.c sees them: the
 * scalar serial-mode kernel (asm/gost89-serial-x86_64.pl, GOST89_X86_ASM:
 * any x86-64 build with assembly) and the vectorised kernels
 * (asm/gost89-x86_64.pl, GOST89_X86_SIMD: not with no-gost-simd), the
 * builders of their per-parameter-set tables and the kernel tables.
 */
#ifndef SMGOST_GOST89_X86_H
#define SMGOST_GOST89_X86_H

#include "gost89.h"
#include "kernel_decl.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define GOST89_X86_ASM 1

/* Fills t->t0x from t->t (layout at the field). */
void gost89_scalar_tables_build(GOST89_SBOX_TABLES *t);
/*
 * The IMIT rounds in assembly if the CPU has what it needs: by default the
 * scalar table kernel (BMI1), with constant_time the AVX-512 or AVX2 lean
 * rounds; 0 if the caller must run them itself.
 */
int gost89_imit_blocks_x86(int constant_time, const GOST89_KEY *enc,
                         unsigned char state[8], const unsigned char *in,
                         size_t nblocks);
/* The scalar kernel's entries: the serial modes and IMIT (for the chooser
 * above and for tests). */
SMG_DECLARE_SERIAL_ENTRIES(gost89, scalar)
void gost89_scalar_imit(const GOST89_KEY *ks, unsigned char state[8],
                        const unsigned char *in, size_t nblocks);
/*
 * Whether k has entries that run a side pass (src/gost89.c,
 * gost89_period_ahead), and the whole meshing period (nblocks, a multiple of
 * 64) of CNT (cnt) or of CFB decryption through them, side's five blocks
 * alongside.
 */
int gost89_side_able_x86(const SMG_BLOCK_KERNEL *k);
void gost89_side_x86(const SMG_BLOCK_KERNEL *k, int cnt, const GOST89_KEY *ks,
                   const unsigned char *in, unsigned char *out, size_t nblocks,
                   unsigned char *iv, GOST89_SIDE *side);
/*
 * The table whose ECB meshes for table k: k itself, but the C kernel for
 * gost89-avx2 (its lone passes are slower than the C tables': 0.87 times
 * the speed of CNT at 16 KiB meshing through them, Zen 5), whose "-ct"
 * sibling meshes through the AVX2 ECB, constant-time.
 */
const SMG_BLOCK_KERNEL *gost89_mesh_kernel_x86(const SMG_BLOCK_KERNEL *k);
/* The C parallel modes with the scalar serial modes (CPUs without AVX2). */
extern const SMG_BLOCK_KERNEL gost89_kernel_scalar;

# if !defined(SMG_NO_GOST_SIMD)
#  define GOST89_X86_SIMD 1

/* Fills t->simd for the parameter set ps (layout at the definition). */
void gost89_x86_simd_tables_build(GOST89_SBOX_TABLES *t,
                                  const GOST89_PARAMSET *ps);
/* The vector kernels' entries: the parallel modes and CNT in both,
 * AVX-512 the serial modes too (the lean rounds once per block). */
SMG_DECLARE_PARALLEL_ENTRIES(gost89, avx512)
SMG_DECLARE_CHAIN(gost89, avx512, cnt)
SMG_DECLARE_SERIAL_ENTRIES(gost89, avx512)
SMG_DECLARE_PARALLEL_ENTRIES(gost89, avx2)
SMG_DECLARE_CHAIN(gost89, avx2, cnt)
/* The vector kernel tables (src/gost89.c lists them) and what they need:
 * VL for the lean path on ymm registers. */
extern const SMG_BLOCK_KERNEL gost89_kernel_avx512;
extern const SMG_BLOCK_KERNEL gost89_kernel_avx512_ct;
extern const SMG_BLOCK_KERNEL gost89_kernel_avx2;
extern const SMG_BLOCK_KERNEL gost89_kernel_avx2_ct;
#  define GOST89_CAPS_AVX512                                                 \
    (SMG_CAP_AVX512F | SMG_CAP_AVX512BW | SMG_CAP_AVX512VL                  \
     | SMG_CAP_AVX512VBMI)
void gost89_avx512_imit(const GOST89_KEY *ks, unsigned char state[8],
                        const unsigned char *in, size_t nblocks);
void gost89_avx2_imit(const GOST89_KEY *ks, unsigned char state[8],
                      const unsigned char *in, size_t nblocks);
/*
 * GOST R 34.11-94's four encryptions (src/gost94.h, gost94_encrypt4_fn):
 * four blocks, each under its own key (kw[j][i]: word j of key i), through
 * the lean rounds of each tier; constant-time.
 */
void gost89_avx512_ecb4k(const GOST89_SBOX_TABLES *tab,
                         const uint32_t kw[8][4], const uint64_t in[4],
                         uint64_t out[4]);
void gost89_avx2_ecb4k(const GOST89_SBOX_TABLES *tab,
                       const uint32_t kw[8][4], const uint64_t in[4],
                       uint64_t out[4]);
# endif
#endif

#endif
