/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload for util/arm-icount.pl: runs one kernel entry of this build on
 * a buffer of the given size, nothing else, so that the difference of the
 * instruction counts of two sizes (counted by qemu-user's execution log) is
 * the kernel's cost per byte.
 *
 *   arm-icount sm4 KERNEL MODE BYTES    KERNEL: sm4-c sm4e sm4-neon
 *                                      MODE: ecb ctr cbc_enc cbc_dec
 *                                            cfb_enc cfb_dec ofb
 *   arm-icount sm4 KERNEL set_key N    N key schedules of KERNEL's table
 *   arm-icount sm3 KERNEL BYTES        KERNEL: sm3-c sm3-ce
 *   arm-icount imit IMPL BYTES         IMPL: c neon (GOST IMIT rounds)
 *   arm-icount kuznyechik KERNEL MODE BYTES
 *                                      KERNEL: a table of the Kuznyechik
 *                                      family's list (kuznyechik-c,
 *                                      kuznyechik-neon-ct, ...); MODE as
 *                                      for sm4
 *   arm-icount streebog KERNEL BYTES   KERNEL: a table of the Streebog
 *                                      family's list (streebog-c,
 *                                      streebog-neon)
 *   arm-icount aead KERNELS MODE BYTES KERNELS: an SM4 table as the
 *                                      kernels param names it (sm4e+pmull,
 *                                      sm4-neon+ghash-c, sm4-c+ghash-c)
 *                                      MODE: ghash gcm_enc gcm_dec
 *                                            ccm_enc ccm_dec xts_ieee xts_gb
 *   arm-icount mgm KERNEL BITS BYTES   KERNEL: a table of MGM's list (pmull,
 *                                      mgm-c); BITS 128 or 64: its mac128
 *                                      or mac64 over BYTES of blocks, the
 *                                      H_i the same buffer
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gost89.h"
#include "mgm_mac.h"
#include "gost89_arm.h"
#include "kernel_list.h"
#include "kuznyechik.h"
#include "sm3.h"
#include "sm3_arm.h"
#include "sm4.h"
#include "sm4_arm.h"
#include "streebog.h"

/*
 * The data, the same for every size: a buffer allocated per run would add
 * the cost of clearing it (calloc's memset) to the difference.  Static
 * storage starts as zero pages, touched only as far as the run reads.
 */
#define MAX_BYTES (1u << 20)
static unsigned char buf[MAX_BYTES];

static const SMG_BLOCK_KERNEL *const sm4_all[] = {
    &sm4_kernel_c,
#ifdef SM4_ARM_ASM
    &sm4_kernel_sm4e_pmull, &sm4_kernel_sm4e,
    &sm4_kernel_neon_pmull, &sm4_kernel_neon,
#endif
};

static const SMG_BLOCK_KERNEL *sm4_by_name(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(sm4_all) / sizeof(sm4_all[0]); i++)
        if (strcmp(sm4_all[i]->name, name) == 0)
            return sm4_all[i];
    return NULL;
}

/* The table named BLOCK+GHASH, as the provider's kernels param shows it. */
static const SMG_BLOCK_KERNEL *sm4_by_kernels(const char *name)
{
    char both[128];
    size_t i;

    for (i = 0; i < sizeof(sm4_all) / sizeof(sm4_all[0]); i++) {
        snprintf(both, sizeof(both), "%s+%s", sm4_all[i]->name,
                 sm4_all[i]->gcm->name);
        if (strcmp(both, name) == 0)
            return sm4_all[i];
    }
    return NULL;
}

static const SM3_KERNEL *sm3_by_name(const char *name)
{
    static const SM3_KERNEL *const all[] = {
        &sm3_kernel_c,
#ifdef SM3_ARM_ASM
        &sm3_kernel_ce,
#endif
    };
    size_t i;

    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

static int run_sm4(const char *kname, const char *mode, size_t len)
{
    const SMG_BLOCK_KERNEL *k = sm4_by_name(kname);
    static const unsigned char key[16] = "0123456789abcdef";
    unsigned char iv[16] = { 0 };
    SM4_KEY enc, dec;
    smg_chain_fn f = NULL;

    if (k == NULL)
        return 2;
    if (strcmp(mode, "set_key") == 0) {
        /* len counts schedules here, each keyed by the last one's rk */
        unsigned char kb[16];

        memcpy(kb, key, sizeof(kb));
        for (; len > 0; len--) {
            sm4_set_key_kernel(k, kb, &enc, &dec, NULL);
            memcpy(kb, enc.rk, sizeof(kb));
        }
        printf("%08x\n", (unsigned int)enc.rk[0]);
        return 0;
    }
    sm4_set_key(key, &enc, &dec);
    if (len > MAX_BYTES)
        return 2;
    if (strcmp(mode, "ecb") == 0)
        k->ecb(&enc, buf, buf, len / 16);
    else if (strcmp(mode, "ctr") == 0)
        f = k->ctr;
    else if (strcmp(mode, "cbc_enc") == 0)
        f = k->cbc_enc;
    else if (strcmp(mode, "cbc_dec") == 0)
        f = k->cbc_dec;
    else if (strcmp(mode, "cfb_enc") == 0)
        f = k->cfb_enc;
    else if (strcmp(mode, "cfb_dec") == 0)
        f = k->cfb_dec;
    else if (strcmp(mode, "ofb") == 0)
        f = k->ofb;
    else
        return 2;
    if (f != NULL)
        f(strcmp(mode, "cbc_dec") == 0 ? &dec : &enc, buf, buf, len / 16, iv);
    printf("%02x\n", buf[0]);
    return 0;
}

/* One AEAD entry on len bytes; 3 if the table leaves it to the mode layer. */
static int run_aead(const char *kname, const char *mode, size_t len)
{
    const SMG_BLOCK_KERNEL *k = sm4_by_kernels(kname);
    const SMG_GCM_KERNEL *g;
    const SMG_CCM_KERNEL *c;
    const SMG_XTS_KERNEL *x;
    static const unsigned char key[16] = "0123456789abcdef";
    static unsigned char htable[SMG_GHASH_TABLE_SIZE]
        __attribute__((aligned(64)));
    unsigned char ctr[16] = { 0 }, acc[16] = { 0 }, h[16] = { 0 };
    SM4_KEY enc, dec;
    size_t n = len / 16;

    if (k == NULL)
        return 2;
    g = k->gcm;
    c = k->ccm;
    x = k->xts;
    sm4_set_key(key, &enc, &dec);
    if (len > MAX_BYTES)
        return 2;
    k->ecb(&enc, h, h, 1);
    g->ghash_init(htable, h);
    if (strcmp(mode, "ghash") == 0)
        g->ghash(htable, acc, buf, n);
    else if (strcmp(mode, "gcm_enc") == 0 && g->enc != NULL)
        g->enc(&enc, htable, buf, buf, n, ctr, acc);
    else if (strcmp(mode, "gcm_dec") == 0 && g->dec != NULL)
        g->dec(&enc, htable, buf, buf, n, ctr, acc);
    else if (strcmp(mode, "ccm_enc") == 0 && c != NULL)
        c->enc(&enc, buf, buf, n, ctr, acc);
    else if (strcmp(mode, "ccm_dec") == 0 && c != NULL)
        c->dec(&enc, buf, buf, n, ctr, acc);
    else if (strcmp(mode, "xts_ieee") == 0 && x != NULL)
        x->enc_ieee(&enc, buf, buf, n, ctr);
    else if (strcmp(mode, "xts_gb") == 0 && x != NULL)
        x->enc_gb(&enc, buf, buf, n, ctr);
    else
        return 3;
    printf("%02x%02x\n", buf[0], acc[0]);
    return 0;
}

static int run_sm3(const char *kname, size_t len)
{
    const SM3_KERNEL *k = sm3_by_name(kname);
    uint32_t state[8] = { 0 };

    if (k == NULL)
        return 2;
    if (len > MAX_BYTES)
        return 2;
    k->blocks(state, buf, len / 64);
    printf("%08x\n", (unsigned int)state[0]);
    return 0;
}

static int run_imit(const char *impl, size_t len)
{
    static const unsigned char key[GOST89_KEY_SIZE] =
        "0123456789abcdef0123456789abcde";
    unsigned char state[8] = { 0 };
    GOST89_KEY enc, dec;

    if (len > MAX_BYTES
        || !gost89_set_key(key, &gost89_paramset_cpa, 0, &enc, &dec))
        return 2;
    if (strcmp(impl, "c") == 0)
        gost89_c_imit(&enc, state, buf, len / 8);
#ifdef GOST89_ARM_SIMD
    else if (strcmp(impl, "neon") == 0)
        gost89_neon_imit(&enc, state, buf, len / 8);
#endif
    else
        return 3;
    printf("%02x\n", state[0]);
    return 0;
}

/* The table of family f named name, from the family's list. */
static const void *family_table(const SMG_KERNEL_FAMILY *f, const char *name)
{
    char desc[128];
    size_t i;

    for (i = 0; i < f->nkernels; i++) {
        f->describe(f->kernels[i].table, desc, sizeof(desc));
        if (strcmp(desc, name) == 0)
            return f->kernels[i].table;
    }
    return NULL;
}

static int run_streebog(const char *kname, size_t len)
{
    const STREEBOG_KERNEL *k = family_table(&streebog_kernel_family, kname);
    STREEBOG_CHAIN c = { { 0 }, { 0 }, { 0 } };

    if (k == NULL)
        return 3;
    if (len > MAX_BYTES)
        return 2;
    k->blocks(&c, buf, len / STREEBOG_BLOCK_SIZE);
    printf("%02x\n", (unsigned int)(c.h[0] & 0xff));
    return 0;
}

static int run_kuznyechik(const char *kname, const char *mode, size_t len)
{
    const SMG_BLOCK_KERNEL *k = family_table(&kuznyechik_kernel_family,
                                             kname);
    static const unsigned char key[KUZNYECHIK_KEY_SIZE] =
        "0123456789abcdef0123456789abcde";
    unsigned char iv[16] = { 0 };
    KUZNYECHIK_KEY enc, dec;
    smg_chain_fn f = NULL;
    int decrypt = 0;

    if (k == NULL)
        return 3;
    if (len > MAX_BYTES || !kuznyechik_set_key_kernel(k, key, &enc, &dec))
        return 2;
    if (strcmp(mode, "ecb") == 0) {
        k->ecb(&enc, buf, buf, len / 16);
        printf("%02x\n", buf[0]);
        return 0;
    }
    if (strcmp(mode, "ctr") == 0)
        f = k->ctr;
    else if (strcmp(mode, "cbc_enc") == 0)
        f = k->cbc_enc;
    else if (strcmp(mode, "cbc_dec") == 0)
        f = k->cbc_dec, decrypt = 1;
    else if (strcmp(mode, "cfb_enc") == 0)
        f = k->cfb_enc;
    else if (strcmp(mode, "cfb_dec") == 0)
        f = k->cfb_dec;
    else if (strcmp(mode, "ofb") == 0)
        f = k->ofb;
    else
        return 2;
    f(decrypt ? &dec : &enc, buf, buf, len / 16, iv);
    printf("%02x\n", buf[0]);
    return 0;
}

static int run_mgm(const char *kname, const char *bits, size_t len)
{
    const SMG_MGM_KERNEL *k = family_table(&mgm_kernel_family, kname);
    unsigned char sum[16] = { 0 };

    if (k == NULL)
        return 3;
    if (len > MAX_BYTES)
        return 2;
    if (strcmp(bits, "128") == 0)
        k->mac128(sum, buf, buf, len / 16);
    else if (strcmp(bits, "64") == 0)
        k->mac64(sum, buf, buf, len / 8);
    else
        return 2;
    printf("%02x\n", sum[0]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "sm4") == 0)
        return run_sm4(argv[2], argv[3], strtoul(argv[4], NULL, 0));
    if (argc == 4 && strcmp(argv[1], "sm3") == 0)
        return run_sm3(argv[2], strtoul(argv[3], NULL, 0));
    if (argc == 5 && strcmp(argv[1], "aead") == 0)
        return run_aead(argv[2], argv[3], strtoul(argv[4], NULL, 0));
    if (argc == 4 && strcmp(argv[1], "imit") == 0)
        return run_imit(argv[2], strtoul(argv[3], NULL, 0));
    if (argc == 5 && strcmp(argv[1], "kuznyechik") == 0)
        return run_kuznyechik(argv[2], argv[3], strtoul(argv[4], NULL, 0));
    if (argc == 4 && strcmp(argv[1], "streebog") == 0)
        return run_streebog(argv[2], strtoul(argv[3], NULL, 0));
    if (argc == 5 && strcmp(argv[1], "mgm") == 0)
        return run_mgm(argv[2], argv[3], strtoul(argv[4], NULL, 0));
    fprintf(stderr, "usage: %s sm4 KERNEL MODE BYTES | sm3 KERNEL BYTES | "
            "aead KERNELS MODE BYTES | imit IMPL BYTES | "
            "kuznyechik KERNEL MODE BYTES | streebog KERNEL BYTES | "
            "mgm KERNEL BITS BYTES\n", argv[0]);
    return 2;
}
