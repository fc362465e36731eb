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
 * One per tier and GHASH: the GHASH is the widest the CPU allows
 * (VPCLMULQDQ on zmm or ymm, PCLMULQDQ on xmm, else the portable one), and
 * the fused GCM and XTS, which need VPCLMULQDQ, come with the first only.
 * CCM needs no multiplier.  NULL entries are composed by the mode layer.
 */
#define SM4_AEAD(var, label, gh, gcm, ccm, xts, gcm_j0)                      \
    static const SMG_AEAD_KERNEL var = {                                    \
        label, smg_ghash_##gh##_init, smg_ghash_##gh, gcm, ccm, xts, gcm_j0 \
    };
#define SM4_GCM(t) sm4_##t##_gcm_enc, sm4_##t##_gcm_dec
#define SM4_GCM_J0(t) sm4_##t##_gcm_enc_j0, sm4_##t##_gcm_dec_j0
#define SM4_CCM(t) sm4_##t##_ccm_enc, sm4_##t##_ccm_dec
#define SM4_XTS(t)                                                           \
    sm4_##t##_xts_ieee, sm4_##t##_xts_ieee, sm4_##t##_xts_gb, sm4_##t##_xts_gb
#define SM4_NO_GCM NULL, NULL
#define SM4_NO_XTS NULL, NULL, NULL, NULL
#define SM4_NO_CCM NULL, NULL
/* E(J0) inside the first GCM call: gfni-avx512 only (the others leave it
 * to the mode layer's one-block ECB call). */
#define SM4_NO_GCM_J0 NULL, NULL

SM4_AEAD(aead_gfni_avx512_zmm, "vpclmul-avx512", vpclmul_avx512,
         SM4_GCM(gfni_avx512), SM4_CCM(gfni_avx512), SM4_XTS(gfni_avx512),
         SM4_GCM_J0(gfni_avx512))
SM4_AEAD(aead_gfni_avx512_xmm, "clmul-avx", clmul_avx, SM4_NO_GCM,
         SM4_CCM(gfni_avx512), SM4_NO_XTS, SM4_NO_GCM_J0)
SM4_AEAD(aead_gfni_avx512_c, "ghash-c", c, SM4_NO_GCM,
         SM4_CCM(gfni_avx512), SM4_NO_XTS, SM4_NO_GCM_J0)
SM4_AEAD(aead_gfni_avx512_glc_zmm, "vpclmul-avx512", vpclmul_avx512,
         SM4_GCM(gfni_avx512), SM4_CCM(gfni_avx512_glc), SM4_XTS(gfni_avx512),
         SM4_GCM_J0(gfni_avx512))
SM4_AEAD(aead_gfni_avx512_glc_xmm, "clmul-avx", clmul_avx, SM4_NO_GCM,
         SM4_CCM(gfni_avx512_glc), SM4_NO_XTS, SM4_NO_GCM_J0)
SM4_AEAD(aead_gfni_avx512_glc_c, "ghash-c", c, SM4_NO_GCM,
         SM4_CCM(gfni_avx512_glc), SM4_NO_XTS, SM4_NO_GCM_J0)
SM4_AEAD(aead_gfni_avx2_ymm, "vpclmul-avx2", vpclmul_avx2,
         SM4_GCM(gfni_avx2), SM4_CCM(gfni_avx2), SM4_XTS(gfni_avx2),
         SM4_NO_GCM_J0)
SM4_AEAD(aead_gfni_avx2_xmm, "clmul-avx", clmul_avx, SM4_NO_GCM,
         SM4_CCM(gfni_avx2), SM4_NO_XTS, SM4_NO_GCM_J0)
SM4_AEAD(aead_gfni_avx2_c, "ghash-c", c, SM4_NO_GCM,
         SM4_CCM(gfni_avx2), SM4_NO_XTS, SM4_NO_GCM_J0)
/*
 * The AES-NI tiers: a table per GHASH width (ymm, xmm, c) and its "-ct"
 * sibling.  XTS is each tier's own (tweaks doubled by shifts: no
 * multiplier needed).  GCM is fused where the tier's CTR passes have a
 * GHASH beside them: vaes-avx2 and aesni-avx2 with the ymm GHASH (between
 * passes), aesni-avx with the xmm one (PCLMULQDQ in the ring core's idle
 * ports); the others compose it, faster than libgcrypt's already.  CCM
 * follows the serial modes: by default the mode layer composes it from the
 * table's CBC encryption (the portable kernel's table rounds: 164 against
 * 96 MB/s for the lean AES-NI pass, Zen 5, 16 KiB messages), and the "-ct"
 * siblings take the constant-time fused entry.
 */
#define SM4_NO_GCM_OF(t) SM4_NO_GCM
#define SM4_NI_AEAD(tier, gcm_ymm, gcm_xmm)                                  \
    SM4_AEAD(aead_##tier##_ymm, "vpclmul-avx2", vpclmul_avx2, gcm_ymm(tier), \
             SM4_NO_CCM, SM4_XTS(tier), SM4_NO_GCM_J0)                      \
    SM4_AEAD(aead_##tier##_xmm, "clmul-avx", clmul_avx, gcm_xmm(tier),      \
             SM4_NO_CCM, SM4_XTS(tier), SM4_NO_GCM_J0)                      \
    SM4_AEAD(aead_##tier##_c, "ghash-c", c, SM4_NO_GCM, SM4_NO_CCM,         \
             SM4_XTS(tier), SM4_NO_GCM_J0)                                  \
    SM4_AEAD(aead_##tier##_ct_ymm, "vpclmul-avx2", vpclmul_avx2,            \
             gcm_ymm(tier), SM4_CCM(ni), SM4_XTS(tier), SM4_NO_GCM_J0)      \
    SM4_AEAD(aead_##tier##_ct_xmm, "clmul-avx", clmul_avx, gcm_xmm(tier),   \
             SM4_CCM(ni), SM4_XTS(tier), SM4_NO_GCM_J0)                     \
    SM4_AEAD(aead_##tier##_ct_c, "ghash-c", c, SM4_NO_GCM, SM4_CCM(ni),     \
             SM4_XTS(tier), SM4_NO_GCM_J0)
SM4_NI_AEAD(vaes_avx2, SM4_GCM, SM4_NO_GCM_OF)
SM4_NI_AEAD(aesni_avx2, SM4_GCM, SM4_NO_GCM_OF)
SM4_NI_AEAD(aesni_avx, SM4_NO_GCM_OF, SM4_GCM)

/* ---- GFNI tiers (a table per GHASH: suffix none = widest, _xmm, _c) ---- */

SM4_CORE_BLOCK_TABLE(sm4_kernel_gfni_avx512, "gfni-avx512", gfni_avx512,
                     aead_gfni_avx512_zmm);
SM4_CORE_BLOCK_TABLE(sm4_kernel_gfni_avx512_xmm, "gfni-avx512", gfni_avx512,
                     aead_gfni_avx512_xmm);
SM4_CORE_BLOCK_TABLE(sm4_kernel_gfni_avx512_c, "gfni-avx512", gfni_avx512,
                     aead_gfni_avx512_c);
/* The glc tables: gfni-avx512's parallel modes, the glc serial ones. */
#define SM4_GLC_BLOCK_TABLE(var, aead)                                      \
    const SMG_BLOCK_KERNEL var = {                                          \
        "gfni-avx512-glc",                                                  \
        sm4_gfni_avx512_ecb,                                                \
        sm4_gfni_avx512_glc_cbc_enc,                                        \
        sm4_gfni_avx512_cbc_dec,                                            \
        sm4_gfni_avx512_glc_cfb_enc,                                        \
        sm4_gfni_avx512_cfb_dec,                                            \
        sm4_gfni_avx512_glc_ofb,                                            \
        sm4_gfni_avx512_ctr,                                                \
        NULL, &(aead), NULL                                                 \
    }
SM4_GLC_BLOCK_TABLE(sm4_kernel_gfni_avx512_glc, aead_gfni_avx512_glc_zmm);
SM4_GLC_BLOCK_TABLE(sm4_kernel_gfni_avx512_glc_xmm, aead_gfni_avx512_glc_xmm);
SM4_GLC_BLOCK_TABLE(sm4_kernel_gfni_avx512_glc_c, aead_gfni_avx512_glc_c);
SM4_CORE_BLOCK_TABLE(sm4_kernel_gfni_avx2, "gfni-avx2", gfni_avx2,
                     aead_gfni_avx2_ymm);
SM4_CORE_BLOCK_TABLE(sm4_kernel_gfni_avx2_xmm, "gfni-avx2", gfni_avx2,
                     aead_gfni_avx2_xmm);
SM4_CORE_BLOCK_TABLE(sm4_kernel_gfni_avx2_c, "gfni-avx2", gfni_avx2,
                     aead_gfni_avx2_c);

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

#define SM4_NI_TABLES(tier, label, v, aead, aead_ct)                        \
    const SMG_BLOCK_KERNEL sm4_kernel_##tier##v = {                         \
        label,                                                              \
        sm4_##tier##_ecb,                                                   \
        sm4_ni_cbc_enc,                                                     \
        sm4_##tier##_cbc_dec,                                               \
        sm4_ni_cfb_enc,                                                     \
        sm4_##tier##_cfb_dec,                                               \
        sm4_ni_ofb,                                                         \
        sm4_##tier##_ctr,                                                   \
        NULL, &aead, sm4_ni_ecb                                             \
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
        NULL, &aead_ct, NULL                                                \
    };
#define SM4_NI_TIER(tier, label)                                            \
    SMG_SERIAL_BY_ECB(sm4_##tier##_ct, sm4_##tier##_ecb, SM4_BLOCK_SIZE)    \
    SM4_NI_TABLES(tier, label, , aead_##tier##_ymm, aead_##tier##_ct_ymm)   \
    SM4_NI_TABLES(tier, label, _xmm, aead_##tier##_xmm, aead_##tier##_ct_xmm) \
    SM4_NI_TABLES(tier, label, _c, aead_##tier##_c, aead_##tier##_ct_c)
SM4_NI_TIER(vaes_avx2, "vaes-avx2")
SM4_NI_TIER(aesni_avx2, "aesni-avx2")
SM4_NI_TIER(aesni_avx, "aesni-avx")

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
