/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 SM4 kernels (asm/sm4-armv8.pl, with GHASH from
 * asm/ghash-armv8.pl): the kernel tables and the choice among them from the
 * CPU capabilities (src/cpu.h, so that OPENSSL_armcap can force every tier,
 * PMULL included).
 */
#include "sm4_arm.h"

#ifdef SM4_ARM_ASM

#include "cpu.h"

/* The assembly reads the 32 round keys at offset 0, 4 bytes apart. */
_Static_assert(sizeof(SM4_KEY) == 128, "SM4_KEY layout");
/* GHASH_TABLE_BYTES of util/perlasm/armv8_ghash.pm */
_Static_assert(SMG_GHASH_TABLE_SIZE >= 208, "GHASH table size");

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

/*
 * With PMULL as well: the same block entries, and AEAD entries of the core's
 * own (GHASH by PMULL, GCM fused with it, CCM, XTS).
 */
#define SM4_ARM_PMULL_TABLES(tier, name)                                     \
    static const SMG_AEAD_KERNEL sm4_aead_##tier##_pmull = {                 \
        name "-pmull",                                                       \
        ghash_pmull_init, ghash_pmull,                                       \
        sm4_##tier##_gcm_enc, sm4_##tier##_gcm_dec,                          \
        sm4_##tier##_ccm_enc, sm4_##tier##_ccm_dec,                          \
        sm4_##tier##_xts_ieee, sm4_##tier##_xts_ieee,                        \
        sm4_##tier##_xts_gb, sm4_##tier##_xts_gb                             \
    };                                                                      \
    const SMG_BLOCK_KERNEL sm4_kernel_##tier##_pmull = {                     \
        name,                                                                \
        sm4_##tier##_ecb,                                                    \
        sm4_##tier##_cbc_enc,                                                \
        sm4_##tier##_cbc_dec,                                                \
        sm4_##tier##_cfb_enc,                                                \
        sm4_##tier##_cfb_dec,                                                \
        sm4_##tier##_ofb,                                                    \
        sm4_##tier##_ctr,                                                    \
        NULL,                                                                \
        &sm4_aead_##tier##_pmull                                             \
    };
SM4_ARM_PMULL_TABLES(sm4e, "sm4e")
SM4_ARM_PMULL_TABLES(neon, "sm4-neon")

const SMG_BLOCK_KERNEL *sm4_kernel_arm(void)
{
    int pmull = smg_cpu_has(SM4_CAPS_PMULL);

    if (smg_cpu_has(SM4_CAPS_SM4E))
        return pmull ? &sm4_kernel_sm4e_pmull : &sm4_kernel_sm4e;
    if (smg_cpu_has(SM4_CAPS_NEON))
        return pmull ? &sm4_kernel_neon_pmull : &sm4_kernel_neon;
    return NULL;
}

#endif
