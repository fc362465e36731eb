/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 SM4 kernels (asm/sm4-*-x86_64.pl) as src/sm4.c and the tests
 * see them: the assembly entry points, the kernel tables built from them
 * (src/sm4.c lists them) and the CPU's schedule.  Everything here exists
 * only when SM4_X86_ASM is defined.
 */
#ifndef SMGOST_SM4_X86_H
#define SMGOST_SM4_X86_H

#include "sm4.h"
#include "kernel_decl.h"

#if defined(__x86_64__) && !defined(SMG_NO_ASM)
# define SM4_X86_ASM 1

/* GFNI + AVX-512 (F, BW, VL): 128-block passes
 * (asm/sm4-gfni-avx512-x86_64.pl). */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(sm4, gfni_avx512)
/* Its serial modes over the CCM rounds of Intel cores (below). */
SMG_DECLARE_SERIAL_ENTRIES(sm4, gfni_avx512_glc)
/* GFNI + AVX2: 24-block passes. */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(sm4, gfni_avx2)

/* The tables (src/sm4.c lists them) and the capabilities each needs. */
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512;
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx2;
/* The same tiers with the narrower GHASH (src/sm4_x86.c): PCLMULQDQ on xmm,
 * the portable one. */
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512_xmm;
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512_c;
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx2_xmm;
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx2_c;
/* gfni-avx512 with the serial rounds (CCM, CBC/CFB encryption, OFB) tuned
 * on Golden Cove cores (_glc kernels, util/perlasm/sm4_x86_64.pm), which
 * Intel CPUs take (src/sm4_x86.c). */
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512_glc;
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512_glc_xmm;
extern const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512_glc_c;
# define SM4_CAPS_GFNI_AVX512 \
    (SMG_CAP_AVX512F | SMG_CAP_AVX512BW | SMG_CAP_AVX512VL | SMG_CAP_GFNI)
# define SM4_CAPS_GFNI_AVX2 (SMG_CAP_AVX | SMG_CAP_AVX2 | SMG_CAP_GFNI)

/*
 * AES-NI tiers (S-box through AESENCLAST): the parallel modes in assembly;
 * their tables take the serial modes from sm4_kernel_c, their "-ct"
 * siblings run them through the assembly ECB (see sm4_x86.c).
 */
/* VAES + AVX2 (ymm VAESENCLAST): 32 blocks per pass. */
SMG_DECLARE_PARALLEL_ENTRIES(sm4, vaes_avx2)
/* AES-NI + AVX2 (two xmm AESENCLAST per ymm): 32 blocks per pass. */
SMG_DECLARE_PARALLEL_ENTRIES(sm4, aesni_avx2)
/* AES-NI + AVX (xmm): 16 blocks per pass. */
SMG_DECLARE_PARALLEL_ENTRIES(sm4, aesni_avx)

extern const SMG_BLOCK_KERNEL sm4_kernel_vaes_avx2;
extern const SMG_BLOCK_KERNEL sm4_kernel_aesni_avx2;
extern const SMG_BLOCK_KERNEL sm4_kernel_aesni_avx;
extern const SMG_BLOCK_KERNEL sm4_kernel_vaes_avx2_ct;
extern const SMG_BLOCK_KERNEL sm4_kernel_aesni_avx2_ct;
extern const SMG_BLOCK_KERNEL sm4_kernel_aesni_avx_ct;
# define SM4_X86_NI_NARROW(t)                                                \
    extern const SMG_BLOCK_KERNEL sm4_kernel_##t##_xmm;                     \
    extern const SMG_BLOCK_KERNEL sm4_kernel_##t##_c;                       \
    extern const SMG_BLOCK_KERNEL sm4_kernel_##t##_ct_xmm;                  \
    extern const SMG_BLOCK_KERNEL sm4_kernel_##t##_ct_c;
SM4_X86_NI_NARROW(vaes_avx2)
SM4_X86_NI_NARROW(aesni_avx2)
SM4_X86_NI_NARROW(aesni_avx)
# define SM4_CAPS_VAES_AVX2 \
    (SMG_CAP_AVX | SMG_CAP_AVX2 | SMG_CAP_AESNI | SMG_CAP_VAES)
# define SM4_CAPS_AESNI_AVX2 (SMG_CAP_AVX | SMG_CAP_AVX2 | SMG_CAP_AESNI)
# define SM4_CAPS_AESNI_AVX (SMG_CAP_AVX | SMG_CAP_AESNI)

/*
 * SM4's AEAD entries (src/kernel.h's SMG_GCM_KERNEL, SMG_CCM_KERNEL and
 * SMG_XTS_KERNEL); their GHASH is src/ghash.h's.
 */
/* Fused GCM of a tier (asm/sm4-*-x86_64.pl). */
# define SM4_X86_DECLARE_GCM(tier)                                           \
    void sm4_##tier##_gcm_enc(const void *ks, const void *htable,           \
                              const unsigned char *in, unsigned char *out,  \
                              size_t nblocks, unsigned char ctr[16],        \
                              unsigned char xi[16]);                        \
    void sm4_##tier##_gcm_dec(const void *ks, const void *htable,           \
                              const unsigned char *in, unsigned char *out,  \
                              size_t nblocks, unsigned char ctr[16],        \
                              unsigned char xi[16]);
/* gfni_avx512: the same with E(J0) in it (src/kernel.h's smg_gcm_j0_fn). */
# define SM4_X86_DECLARE_GCM_J0(tier)                                        \
    void sm4_##tier##_gcm_enc_j0(const void *ks, const void *htable,        \
                                 const unsigned char *in,                   \
                                 unsigned char *out, size_t nblocks,        \
                                 unsigned char ctr[16], unsigned char xi[16], \
                                 unsigned char ek0[16]);                    \
    void sm4_##tier##_gcm_dec_j0(const void *ks, const void *htable,        \
                                 const unsigned char *in,                   \
                                 unsigned char *out, size_t nblocks,        \
                                 unsigned char ctr[16], unsigned char xi[16], \
                                 unsigned char ek0[16]);
SM4_X86_DECLARE_GCM_J0(gfni_avx512)
/* aesni_avx: PCLMULQDQ on xmm inside the ring core, the clmul-avx htable. */
SM4_X86_DECLARE_GCM(aesni_avx)
/* vaes_avx2, aesni_avx2: VPCLMULQDQ GHASH between CTR passes, the
 * vpclmul-avx2 htable. */
SM4_X86_DECLARE_GCM(vaes_avx2)
SM4_X86_DECLARE_GCM(aesni_avx2)
/* XTS of a tier, both tweak conventions (src/kernel.h's smg_xts_fn). */
# define SM4_X86_DECLARE_XTS(tier)                                           \
    void sm4_##tier##_xts_ieee(const void *ks, const unsigned char *in,     \
                               unsigned char *out, size_t nblocks,          \
                               unsigned char tweak[16]);                    \
    void sm4_##tier##_xts_gb(const void *ks, const unsigned char *in,       \
                             unsigned char *out, size_t nblocks,            \
                             unsigned char tweak[16]);
/* The GFNI tiers' fused GCM and XTS need VPCLMULQDQ; the AES-NI tiers'
 * XTS doubles its tweaks by shifts. */
SM4_X86_DECLARE_GCM(gfni_avx512)
SM4_X86_DECLARE_XTS(gfni_avx512)
SM4_X86_DECLARE_GCM(gfni_avx2)
SM4_X86_DECLARE_XTS(gfni_avx2)
SM4_X86_DECLARE_XTS(vaes_avx2)
SM4_X86_DECLARE_XTS(aesni_avx2)
SM4_X86_DECLARE_XTS(aesni_avx)

/* CCM, one lean pass a block (gfni_avx512, gfni_avx2; ni for every AES-NI
 * tier). */
# define SM4_X86_DECLARE_CCM(tier)                                           \
    void sm4_##tier##_ccm_enc(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char ctr[16], unsigned char mac[16]);\
    void sm4_##tier##_ccm_dec(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char ctr[16], unsigned char mac[16]);
SM4_X86_DECLARE_CCM(gfni_avx512)
SM4_X86_DECLARE_CCM(gfni_avx512_glc)
SM4_X86_DECLARE_CCM(gfni_avx2)
SM4_X86_DECLARE_CCM(ni)

/*
 * The core the gfni-avx512 tables' serial rounds are taken for, "glc" or
 * "zen4" (sm4_kernel_family's schedule, src/sm4.c).
 */
const char *sm4_schedule_x86(void);

/* Key schedules through a tier's S-box (asm/sm4-gfni-avx2-x86_64.pl,
 * asm/sm4-aesni-x86_64.pl). */
void sm4_gfni_set_key(const unsigned char key[16], uint32_t rk[32]);
void sm4_aesni_set_key(const unsigned char key[16], uint32_t rk[32]);
/*
 * The encryption schedule through the S-box of k's tier if k is one of
 * the tables above; 0 if the caller must expand the key itself.
 */
int sm4_set_key_x86(const SMG_BLOCK_KERNEL *k,
                    const unsigned char key[16], SM4_KEY *enc);
/* SM4_KEY.ws and bs from ks->rk (asm/sm4-gfni-avx512-x86_64.pl; AVX-512
 * and GFNI). */
void sm4_gfni_avx512_key_tables(SM4_KEY *ks);
/* Whether k is one of the gfni-avx512 tables, whose cores read them. */
int sm4_reads_tables_x86(const SMG_BLOCK_KERNEL *k);
#endif

#endif
