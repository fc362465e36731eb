/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AArch64 SM4 kernels (asm/sm4-armv8.pl) as src/sm4.c and the tests see
 * them: the assembly entry points, the kernel tables built from them and
 * the chooser.  Everything here exists only when SM4_ARM_ASM is defined.
 */
#ifndef SMGOST_SM4_ARM_H
#define SMGOST_SM4_ARM_H

#include "sm4.h"

#if defined(__aarch64__) && !defined(SMG_NO_ASM)
# define SM4_ARM_ASM 1

# define SM4_ARM_DECLARE(tier)                                               \
    void sm4_##tier##_ecb(const void *ks, const unsigned char *in,          \
                          unsigned char *out, size_t nblocks);              \
    void sm4_##tier##_ctr(const void *ks, const unsigned char *in,          \
                          unsigned char *out, size_t nblocks,               \
                          unsigned char *iv);                               \
    void sm4_##tier##_cbc_dec(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char *iv);                           \
    void sm4_##tier##_cfb_dec(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char *iv);                           \
    void sm4_##tier##_cbc_enc(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char *iv);                           \
    void sm4_##tier##_cfb_enc(const void *ks, const unsigned char *in,      \
                              unsigned char *out, size_t nblocks,           \
                              unsigned char *iv);                           \
    void sm4_##tier##_ofb(const void *ks, const unsigned char *in,          \
                          unsigned char *out, size_t nblocks,               \
                          unsigned char *iv);

/* SM4E (Armv8.2 SM4 extension): 8 blocks per pass. */
SM4_ARM_DECLARE(sm4e)
/* Advanced SIMD only, S-box by TBL/TBX: 8 blocks per pass. */
SM4_ARM_DECLARE(neon)

/* The tables, fastest first, and the capabilities each one needs. */
extern const SMG_BLOCK_KERNEL sm4_kernel_sm4e;
extern const SMG_BLOCK_KERNEL sm4_kernel_neon;
# define SM4_CAPS_SM4E (SMG_CAP_ARM_ASIMD | SMG_CAP_ARM_SM4)
# define SM4_CAPS_NEON SMG_CAP_ARM_ASIMD

/* The best assembly kernel the (masked) CPU capabilities allow, or NULL. */
const SMG_BLOCK_KERNEL *sm4_kernel_arm(void);
#endif

#endif
