/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the AArch64 SM4 kernels (asm/sm4-armv8.pl, with GHASH from
 * asm/ghash-armv8.pl): the kernel tables (src/sm4.c lists them with the CPU
 * capabilities each needs, so that OPENSSL_armcap can force every tier,
 * PMULL included).
 */
#include <stddef.h>

#include "sm4_arm.h"

#ifdef SM4_ARM_ASM

#include "ghash.h"

/* The assembly reads the 32 round keys at offset 0, 4 bytes apart. */
_Static_assert(offsetof(SM4_KEY, rk) == 0, "SM4_KEY layout");
/* GHASH_TABLE_BYTES of util/perlasm/armv8_ghash.pm */
_Static_assert(SMG_GHASH_TABLE_SIZE >= 208, "GHASH table size");

/*
 * A core's two tables, the same but for their GCM table: CCM and XTS are
 * the core's in both; with PMULL, GHASH is asm/ghash-armv8.pl's and GCM the
 * core's fused kernel, without it GHASH is the portable one and the mode
 * layer composes GCM from it and the core's ctr.
 */
#define SM4_ARM_TABLES(tier, name)                                           \
    static const SMG_GCM_KERNEL sm4_gcm_##tier##_pmull = {                   \
        "pmull", ghash_pmull_init, ghash_pmull,                              \
        sm4_##tier##_gcm_enc, sm4_##tier##_gcm_dec, NULL, NULL               \
    };                                                                       \
    static const SMG_CCM_KERNEL sm4_ccm_##tier = {                           \
        sm4_##tier##_ccm_enc, sm4_##tier##_ccm_dec                           \
    };                                                                       \
    static const SMG_XTS_KERNEL sm4_xts_##tier = {                           \
        sm4_##tier##_xts_ieee, sm4_##tier##_xts_ieee,                        \
        sm4_##tier##_xts_gb, sm4_##tier##_xts_gb                             \
    };                                                                       \
    SM4_CORE_BLOCK_TABLE(sm4_kernel_##tier##_pmull, name, tier,              \
                         &sm4_gcm_##tier##_pmull, &sm4_ccm_##tier,           \
                         &sm4_xts_##tier);                                   \
    SM4_CORE_BLOCK_TABLE(sm4_kernel_##tier, name, tier, &sm4_gcm_c,          \
                         &sm4_ccm_##tier, &sm4_xts_##tier);

SM4_ARM_TABLES(sm4e, "sm4e")
SM4_ARM_TABLES(neon, "sm4-neon")

int sm4_set_key_arm(const SMG_BLOCK_KERNEL *k, const unsigned char key[16],
                    SM4_KEY *enc)
{
    /* a core's tables (with PMULL and without) share its ECB */
    if (k->ecb == sm4_sm4e_ecb) {
        sm4_sm4e_set_key(key, enc->rk);
        return 1;
    }
    if (k->ecb == sm4_neon_ecb) {
        sm4_neon_set_key(key, enc->rk);
        return 1;
    }
    return 0;
}

#endif
