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
    NULL
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
    NULL
};

/* ---- Choice (tiers in speed order; the AES-NI tiers rank below GFNI) ---- */

const SMG_BLOCK_KERNEL *sm4_kernel_x86(void)
{
    if (smg_cpu_has(SM4_CAPS_GFNI_AVX512))
        return &sm4_kernel_gfni_avx512;
    if (smg_cpu_has(SM4_CAPS_GFNI_AVX2))
        return &sm4_kernel_gfni_avx2;
    return NULL;
}

#endif
