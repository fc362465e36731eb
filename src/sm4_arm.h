/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AArch64 SM4 kernels (asm/sm4-armv8.pl) as src/sm4.c and the tests see
 * them: the assembly entry points and the kernel tables built from them
 * (src/sm4.c lists them).  Everything here exists only when SM4_ARM_ASM is
 * defined.
 */
#ifndef SMGOST_SM4_ARM_H
#define SMGOST_SM4_ARM_H

#include "sm4.h"
#include "kernel_decl.h"

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
# define SM4_ARM_ASM 1

/*
 * GCM, CCM and XTS beside each core (src/kernel.h's SMG_*_KERNEL).  An
 * XTS entry serves both directions: the schedule it is given decides.
 */
# define SM4_ARM_AEAD_DECLARE(tier)                                          \
    void sm4_##tier##_gcm_enc(const void *ks, const void *htable,           \
                              const unsigned char *in, unsigned char *out,  \
                              size_t nblocks, unsigned char ctr[16],        \
                              unsigned char xi[16]);                        \
    void sm4_##tier##_gcm_dec(const void *ks, const void *htable,           \
                              const unsigned char *in, unsigned char *out,  \
                              size_t nblocks, unsigned char ctr[16],        \
                              unsigned char xi[16]);                        \
    void sm4_##tier##_ccm_enc(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char ctr[16], unsigned char mac[16]); \
    void sm4_##tier##_ccm_dec(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char ctr[16], unsigned char mac[16]); \
    void sm4_##tier##_xts_ieee(const void *ks, const unsigned char *in,     \
                               unsigned char *out, size_t nblocks,          \
                               unsigned char tweak[16]);                    \
    void sm4_##tier##_xts_gb(const void *ks, const unsigned char *in,       \
                             unsigned char *out, size_t nblocks,            \
                             unsigned char tweak[16]);

/* SM4E (Armv8.2 SM4 extension): 8 blocks per pass. */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(sm4, sm4e)
SM4_ARM_AEAD_DECLARE(sm4e)
/* Advanced SIMD only, S-box by TBL/TBX: 8 blocks per pass. */
SMG_DECLARE_BLOCK_KERNEL_ENTRIES(sm4, neon)
SM4_ARM_AEAD_DECLARE(neon)

/*
 * The tables and the capabilities each one needs.  Each
 * core has two, the same but for their GCM table (GHASH and GCM): with
 * PMULL and without.
 */
extern const SMG_BLOCK_KERNEL sm4_kernel_sm4e_pmull;
extern const SMG_BLOCK_KERNEL sm4_kernel_sm4e;
extern const SMG_BLOCK_KERNEL sm4_kernel_neon_pmull;
extern const SMG_BLOCK_KERNEL sm4_kernel_neon;
# define SM4_CAPS_SM4E (SMG_CAP_ARM_ASIMD | SMG_CAP_ARM_SM4)
# define SM4_CAPS_NEON SMG_CAP_ARM_ASIMD
# define SM4_CAPS_PMULL (SMG_CAP_ARM_ASIMD | SMG_CAP_ARM_PMULL)


/*
 * The encryption key schedules of asm/sm4-armv8.pl: by SM4EKEY, and
 * through the NEON core's TBL/TBX S-box.
 */
void sm4_sm4e_set_key(const unsigned char key[16], uint32_t rk[32]);
void sm4_neon_set_key(const unsigned char key[16], uint32_t rk[32]);
/*
 * The encryption schedule through the S-box of k's core if k is an sm4e or
 * sm4-neon table; 0 if the caller must expand the key itself (the C
 * schedule).
 */
int sm4_set_key_arm(const SMG_BLOCK_KERNEL *k, const unsigned char key[16],
                    SM4_KEY *enc);
#endif

#endif
