/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 SM4 kernels (asm/sm4-*-x86_64.pl): the kernel tables
 * (src/sm4.c lists them with the CPU capabilities each needs, so that
 * OPENSSL_ia32cap can force every tier) and the schedule the CPU takes.
 */
#include <stddef.h>
#include <string.h>

#include "sm4_x86.h"

#ifdef SM4_X86_ASM

#include "cpu.h"
#include "ghash.h"

/* The assembly reads the 32 round keys at offset 0, 4 bytes apart, and
 * gfni-avx512's e_table the key constants at 128 and 272. */
_Static_assert(offsetof(SM4_KEY, rk) == 0 && offsetof(SM4_KEY, ws) == 128
               && offsetof(SM4_KEY, bs) == 272, "SM4_KEY layout");
/* The GHASH kernels keep 32 powers of H, 16 bytes each. */
_Static_assert(SMG_GHASH_TABLE_SIZE >= 32 * 16, "GHASH table size");

/*
 * ---- AEAD tables ----
 *
 * A tier has a block table per GHASH the CPU may have, the widest it allows
 * (VPCLMULQDQ on zmm or ymm, PCLMULQDQ on xmm, else the portable one), each
 * pointing to a GCM table with that GHASH.  The GFNI tiers' fused GCM and
 * XTS, which need VPCLMULQDQ, come with the first only; CCM needs no
 * multiplier.  A NULL table or entry is composed by the mode layer.
 */
#define SM4_GCM_TABLE(var, label, gh, enc, dec, enc_j0, dec_j0)             \
    static const SMG_GCM_KERNEL var = {                                     \
        label, smg_ghash_##gh##_init, smg_ghash_##gh, enc, dec, enc_j0,     \
        dec_j0                                                              \
    };
#define SM4_GCM_FUSED(var, label, gh, t)                                    \
    SM4_GCM_TABLE(var, label, gh, sm4_##t##_gcm_enc, sm4_##t##_gcm_dec,     \
                  NULL, NULL)
#define SM4_CCM_TABLE(t)                                                    \
    static const SMG_CCM_KERNEL sm4_ccm_##t = {                             \
        sm4_##t##_ccm_enc, sm4_##t##_ccm_dec                                \
    };
#define SM4_XTS_TABLE(t)                                                    \
    static const SMG_XTS_KERNEL sm4_xts_##t = {                             \
        sm4_##t##_xts_ieee, sm4_##t##_xts_ieee, sm4_##t##_xts_gb,           \
        sm4_##t##_xts_gb                                                    \
    };

/* The GHASHes alone, for the tables that compose GCM from them. */
SM4_GCM_TABLE(sm4_gcm_vpclmul_avx2, "vpclmul-avx2", vpclmul_avx2,
              NULL, NULL, NULL, NULL)
SM4_GCM_TABLE(sm4_gcm_clmul_avx, "clmul-avx", clmul_avx,
              NULL, NULL, NULL, NULL)
/* E(J0) inside the first GCM call: gfni-avx512 only (the others leave it
 * to the mode layer's one-block ECB call). */
SM4_GCM_TABLE(sm4_gcm_gfni_avx512, "vpclmul-avx512", vpclmul_avx512,
              sm4_gfni_avx512_gcm_enc, sm4_gfni_avx512_gcm_dec,
              sm4_gfni_avx512_gcm_enc_j0, sm4_gfni_avx512_gcm_dec_j0)
SM4_GCM_FUSED(sm4_gcm_gfni_avx2, "vpclmul-avx2", vpclmul_avx2, gfni_avx2)
SM4_CCM_TABLE(gfni_avx512)
SM4_CCM_TABLE(gfni_avx512_glc)
SM4_CCM_TABLE(gfni_avx2)
SM4_XTS_TABLE(gfni_avx512)
SM4_XTS_TABLE(gfni_avx2)
/*
 * The AES-NI tiers.  XTS is each tier's own (tweaks doubled by shifts: no
 * multiplier needed).  GCM is fused where the tier's CTR passes have a
 * GHASH beside them: vaes-avx2 and aesni-avx2 with the ymm GHASH (between
 * passes), aesni-avx with the xmm one (PCLMULQDQ in the ring core's idle
 * ports); the others compose it, faster than libgcrypt's already.  CCM
 * follows the serial modes: by default the mode layer composes it from the
 * table's CBC encryption (the portable kernel's table rounds: 164 against
 * 96 MB/s for the lean AES-NI pass, Zen 5, 16 KiB messages), and the "-ct"
 * siblings take the constant-time fused entry.
 */
SM4_GCM_FUSED(sm4_gcm_vaes_avx2, "vpclmul-avx2", vpclmul_avx2, vaes_avx2)
SM4_GCM_FUSED(sm4_gcm_aesni_avx2, "vpclmul-avx2", vpclmul_avx2, aesni_avx2)
SM4_GCM_FUSED(sm4_gcm_aesni_avx, "clmul-avx", clmul_avx, aesni_avx)
SM4_CCM_TABLE(ni)
SM4_XTS_TABLE(vaes_avx2)
SM4_XTS_TABLE(aesni_avx2)
SM4_XTS_TABLE(aesni_avx)

/* ---- GFNI tiers (a table per GHASH: suffix none = widest, _xmm, _c) ---- */

#define SM4_GFNI_TIER(tier, label, gcm_widest, ccm)                         \
    SM4_CORE_BLOCK_TABLE(sm4_kernel_##tier, label, tier, &(gcm_widest),     \
                         &(ccm), &sm4_xts_##tier);                          \
    SM4_CORE_BLOCK_TABLE(sm4_kernel_##tier##_xmm, label, tier,              \
                         &sm4_gcm_clmul_avx, &(ccm), NULL);                 \
    SM4_CORE_BLOCK_TABLE(sm4_kernel_##tier##_c, label, tier, &sm4_gcm_c,    \
                         &(ccm), NULL);
SM4_GFNI_TIER(gfni_avx512, "gfni-avx512", sm4_gcm_gfni_avx512,
              sm4_ccm_gfni_avx512)
/* The glc tables: gfni-avx512's parallel modes, the glc serial ones. */
#define SM4_GLC_BLOCK_TABLE(var, gcm, xts)                                  \
    const SMG_BLOCK_KERNEL var = {                                          \
        "gfni-avx512-glc",                                                  \
        sm4_gfni_avx512_ecb,                                                \
        sm4_gfni_avx512_glc_cbc_enc,                                        \
        sm4_gfni_avx512_cbc_dec,                                            \
        sm4_gfni_avx512_glc_cfb_enc,                                        \
        sm4_gfni_avx512_cfb_dec,                                            \
        sm4_gfni_avx512_glc_ofb,                                            \
        sm4_gfni_avx512_ctr,                                                \
        NULL, gcm, &sm4_ccm_gfni_avx512_glc, xts, NULL                      \
    }
SM4_GLC_BLOCK_TABLE(sm4_kernel_gfni_avx512_glc, &sm4_gcm_gfni_avx512,
                    &sm4_xts_gfni_avx512);
SM4_GLC_BLOCK_TABLE(sm4_kernel_gfni_avx512_glc_xmm, &sm4_gcm_clmul_avx, NULL);
SM4_GLC_BLOCK_TABLE(sm4_kernel_gfni_avx512_glc_c, &sm4_gcm_c, NULL);
SM4_GFNI_TIER(gfni_avx2, "gfni-avx2", sm4_gcm_gfni_avx2, sm4_ccm_gfni_avx2)

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
/*
 * Lone ECB blocks likewise (XTS's tweak and its short data units): one block
 * 317 TSC ticks through the tables against 474 through the AES-NI core, two
 * 364 against 470, four 396 against 468 (Intel Xeon family 6 model 207).
 */
SMG_ECB_FROM(sm4_ni, ecb, sm4_kernel_c)

#define SM4_NI_TABLES(tier, label, v, gcm)                                  \
    const SMG_BLOCK_KERNEL sm4_kernel_##tier##v = {                         \
        label,                                                              \
        sm4_##tier##_ecb,                                                   \
        sm4_ni_cbc_enc,                                                     \
        sm4_##tier##_cbc_dec,                                               \
        sm4_ni_cfb_enc,                                                     \
        sm4_##tier##_cfb_dec,                                               \
        sm4_ni_ofb,                                                         \
        sm4_##tier##_ctr,                                                   \
        NULL, &(gcm), NULL, &sm4_xts_##tier, sm4_ni_ecb                     \
    };                                                                      \
    const SMG_BLOCK_KERNEL sm4_kernel_##tier##_ct##v = {                    \
        label "-ct",                                                        \
        sm4_##tier##_ecb,                                                   \
        sm4_##tier##_ct_cbc_enc,                                            \
        sm4_##tier##_cbc_dec,                                               \
        sm4_##tier##_ct_cfb_enc,                                            \
        sm4_##tier##_cfb_dec,                                               \
        sm4_##tier##_ct_ofb,                                                \
        sm4_##tier##_ctr,                                                   \
        NULL, &(gcm), &sm4_ccm_ni, &sm4_xts_##tier, NULL                    \
    };
#define SM4_NI_TIER(tier, label, gcm_ymm, gcm_xmm)                          \
    SMG_SERIAL_BY_ECB(sm4_##tier##_ct, sm4_##tier##_ecb, SM4_BLOCK_SIZE)    \
    SM4_NI_TABLES(tier, label, , gcm_ymm)                                   \
    SM4_NI_TABLES(tier, label, _xmm, gcm_xmm)                               \
    SM4_NI_TABLES(tier, label, _c, sm4_gcm_c)
SM4_NI_TIER(vaes_avx2, "vaes-avx2", sm4_gcm_vaes_avx2, sm4_gcm_clmul_avx)
SM4_NI_TIER(aesni_avx2, "aesni-avx2", sm4_gcm_aesni_avx2, sm4_gcm_clmul_avx)
SM4_NI_TIER(aesni_avx, "aesni-avx", sm4_gcm_vpclmul_avx2, sm4_gcm_aesni_avx)

/* ---- Key schedules ---- */

int sm4_set_key_x86(const SMG_BLOCK_KERNEL *k,
                    const unsigned char key[16], SM4_KEY *enc)
{
    /* a tier's tables (one per GHASH width, and -ct) share its ECB */
    if (k->ecb == sm4_gfni_avx512_ecb || k->ecb == sm4_gfni_avx2_ecb) {
        sm4_gfni_set_key(key, enc->rk);
        return 1;
    }
    if (k->ecb == sm4_vaes_avx2_ecb || k->ecb == sm4_aesni_avx2_ecb
        || k->ecb == sm4_aesni_avx_ecb) {
        sm4_aesni_set_key(key, enc->rk);
        return 1;
    }
    return 0;
}

int sm4_reads_tables_x86(const SMG_BLOCK_KERNEL *k)
{
    return k->ecb == sm4_gfni_avx512_ecb;
}

/* ---- Schedule ---- */

/*
 * Which CCM rounds the gfni-avx512 tables carry depends on the core: on an
 * Intel Xeon of family 6 model 207 (Sapphire/Emerald Rapids class, Golden
 * Cove class cores) a GFNI result reaches the integer vector ALUs late, and
 * the glc rounds (two affine-inverses a round, util/perlasm/sm4_x86_64.pm)
 * take CCM at 16 KiB from 1.36x to 1.54x libgcrypt 1.12 in one make bench
 * run, so Intel CPUs take them (no other Intel core was measured); the Zen
 * 4 ones stay on every other CPU.  SMGOST_SM4_CCM=zen4 or glc overrides the vendor
 * (for tests and measurements; any other value is ignored).
 */
const char *sm4_schedule_x86(void)
{
    const struct smg_cpu_id *id = smg_cpu_id();

    if (strcmp(id->sm4_ccm, "zen4") == 0)
        return "zen4";
    if (strcmp(id->sm4_ccm, "glc") == 0)
        return "glc";
    return strcmp(id->vendor, "GenuineIntel") == 0 ? "glc" : "zen4";
}

#endif
