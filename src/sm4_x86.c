/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 SM4 kernels (asm/sm4-x86_64.pl): the kernel tables
 * and the choice among them from the CPU capabilities (src/cpu.h, so that
 * OPENSSL_ia32cap can force every tier).
 */
#include "sm4_x86.h"

#ifdef SM4_X86_ASM

#include "cpu.h"

/* The assembly reads the 32 round keys at offset 0, 4 bytes apart. */
_Static_assert(sizeof(SM4_KEY) == 128, "SM4_KEY layout");

/* ---- GFNI tiers ---- */

const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx512 = {
    "gfni-avx512",
    sm4_gfni_avx512_ecb,
    sm4_gfni_avx512_cbc_enc,
    sm4_gfni_avx512_cbc_dec,
    sm4_gfni_avx512_cfb_enc,
    sm4_gfni_avx512_cfb_dec,
    sm4_gfni_avx512_ofb,
    sm4_gfni_avx512_ctr,
    NULL,
    &sm4_aead_c
};

const SMG_BLOCK_KERNEL sm4_kernel_gfni_avx2 = {
    "gfni-avx2",
    sm4_gfni_avx2_ecb,
    sm4_gfni_avx2_cbc_enc,
    sm4_gfni_avx2_cbc_dec,
    sm4_gfni_avx2_cfb_enc,
    sm4_gfni_avx2_cfb_dec,
    sm4_gfni_avx2_ofb,
    sm4_gfni_avx2_ctr,
    NULL,
    &sm4_aead_c
};

/* ---- AES-NI tiers ---- */

/*
 * Only the parallel modes are in assembly.  The serial ones (CBC/CFB
 * encryption, OFB) stay with the portable kernel's table rounds by default:
 * a lone block through the AESENCLAST S-box waits on the whole round chain
 * 32 times, measured 46 cycles/byte on Zen 4 against 24 for the tables.
 * With "constant-time = yes" the "-ct" siblings run them one block at a
 * time through the tier's constant-time ECB core instead (src/kernel.h).
 */
SMG_CHAIN_FROM(sm4_ni, cbc_enc, sm4_kernel_c)
SMG_CHAIN_FROM(sm4_ni, cfb_enc, sm4_kernel_c)
SMG_CHAIN_FROM(sm4_ni, ofb, sm4_kernel_c)

#define SM4_NI_TABLES(tier, label)                                          \
    const SMG_BLOCK_KERNEL sm4_kernel_##tier = {                            \
        label,                                                              \
        sm4_##tier##_ecb,                                                   \
        sm4_ni_cbc_enc,                                                     \
        sm4_##tier##_cbc_dec,                                               \
        sm4_ni_cfb_enc,                                                     \
        sm4_##tier##_cfb_dec,                                               \
        sm4_ni_ofb,                                                         \
        sm4_##tier##_ctr,                                                   \
        NULL, &sm4_aead_c                                                   \
    };                                                                      \
    SMG_SERIAL_BY_ECB(sm4_##tier##_ct, sm4_##tier##_ecb, SM4_BLOCK_SIZE)    \
    const SMG_BLOCK_KERNEL sm4_kernel_##tier##_ct = {                       \
        label "-ct",                                                        \
        sm4_##tier##_ecb,                                                   \
        sm4_##tier##_ct_cbc_enc,                                            \
        sm4_##tier##_cbc_dec,                                               \
        sm4_##tier##_ct_cfb_enc,                                            \
        sm4_##tier##_cfb_dec,                                               \
        sm4_##tier##_ct_ofb,                                                \
        sm4_##tier##_ctr,                                                   \
        NULL, &sm4_aead_c                                                   \
    };
SM4_NI_TABLES(vaes_avx2, "vaes-avx2")
SM4_NI_TABLES(aesni_avx2, "aesni-avx2")
SM4_NI_TABLES(aesni_avx, "aesni-avx")

/* ---- Key schedules ---- */

int sm4_set_key_x86(const SMG_BLOCK_KERNEL *k,
                    const unsigned char key[16], SM4_KEY *enc)
{
    if (k == &sm4_kernel_gfni_avx512 || k == &sm4_kernel_gfni_avx2) {
        sm4_gfni_set_key(key, enc->rk);
        return 1;
    }
    if (k == &sm4_kernel_vaes_avx2 || k == &sm4_kernel_vaes_avx2_ct
        || k == &sm4_kernel_aesni_avx2 || k == &sm4_kernel_aesni_avx2_ct
        || k == &sm4_kernel_aesni_avx || k == &sm4_kernel_aesni_avx_ct) {
        sm4_aesni_set_key(key, enc->rk);
        return 1;
    }
    return 0;
}

/* ---- Choice (tiers in speed order; the AES-NI tiers rank below GFNI) ---- */

const SMG_BLOCK_KERNEL *sm4_kernel_x86(int constant_time)
{
    if (smg_cpu_has(SM4_CAPS_GFNI_AVX512))
        return &sm4_kernel_gfni_avx512;
    if (smg_cpu_has(SM4_CAPS_GFNI_AVX2))
        return &sm4_kernel_gfni_avx2;
    if (smg_cpu_has(SM4_CAPS_VAES_AVX2))
        return constant_time ? &sm4_kernel_vaes_avx2_ct : &sm4_kernel_vaes_avx2;
    if (smg_cpu_has(SM4_CAPS_AESNI_AVX2))
        return constant_time ? &sm4_kernel_aesni_avx2_ct
                             : &sm4_kernel_aesni_avx2;
    if (smg_cpu_has(SM4_CAPS_AESNI_AVX))
        return constant_time ? &sm4_kernel_aesni_avx_ct : &sm4_kernel_aesni_avx;
    return NULL;
}

#endif
