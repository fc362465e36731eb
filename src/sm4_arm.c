/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 SM4 kernels (asm/sm4-armv8.pl): the kernel tables
 * and the choice among them from the CPU capabilities (src/cpu.h, so that
 * OPENSSL_armcap can force every tier).
 */
#include "sm4_arm.h"

#ifdef SM4_ARM_ASM

#include "cpu.h"

/* The assembly reads the 32 round keys at offset 0, 4 bytes apart. */
_Static_assert(sizeof(SM4_KEY) == 128, "SM4_KEY layout");

const SMG_BLOCK_KERNEL sm4_kernel_sm4e = {
    "sm4e",
    sm4_sm4e_ecb,
    sm4_sm4e_cbc_enc,
    sm4_sm4e_cbc_dec,
    sm4_sm4e_cfb_enc,
    sm4_sm4e_cfb_dec,
    sm4_sm4e_ofb,
    sm4_sm4e_ctr,
    NULL,
    &sm4_aead_c
};

const SMG_BLOCK_KERNEL sm4_kernel_neon = {
    "sm4-neon",
    sm4_neon_ecb,
    sm4_neon_cbc_enc,
    sm4_neon_cbc_dec,
    sm4_neon_cfb_enc,
    sm4_neon_cfb_dec,
    sm4_neon_ofb,
    sm4_neon_ctr,
    NULL,
    &sm4_aead_c
};

const SMG_BLOCK_KERNEL *sm4_kernel_arm(void)
{
    if (smg_cpu_has(SM4_CAPS_SM4E))
        return &sm4_kernel_sm4e;
    if (smg_cpu_has(SM4_CAPS_NEON))
        return &sm4_kernel_neon;
    return NULL;
}

#endif
