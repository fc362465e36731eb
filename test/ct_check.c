/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctgrind driver for test/80-ct.t.  Under valgrind's memcheck it runs every
 * entry of a kernel table with the secrets (key schedule, IV/counter, data)
 * marked undefined, so that memcheck reports each branch ("Conditional jump
 * or move depends on uninitialised value(s)") and each address ("Use of
 * uninitialised value of size N") computed from them.
 *
 *   ct_check targets             the tables this build has, with entries
 *   ct_check scan TABLE CODE     ctgrind every entry of TABLE
 *   ct_check sweep               natively, no valgrind: every entry of the
 *                                tables this CPU's choosers give (for both
 *                                constant-time settings) at every block
 *                                count up to SWEEP_BLOCKS, out of place and
 *                                in place, against the portable kernel
 *                                (Streebog's up to MAX_BLOCKS); the SM4
 *                                and Kuznyechik key schedules of those
 *                                tables against the portable ones
 *
 * Tables are taken by name, not through the choosers, so that the ones a
 * CPU (or valgrind's virtual CPU) would not choose are checked too.
 *
 * scan must run under valgrind with --exit-on-first-error=yes and
 * --error-exitcode=CODE.  Each run of an entry over a range of block counts
 * happens in a forked child, which memcheck ends at its first error with
 * exit status CODE; a page shared with the child says at which count.  So
 * every child proves one thing: "counts a..b clean", "count n leaks", or
 * "count n raised SIGILL" (an instruction valgrind cannot run).  The parent
 * first tries all counts at once, and only when that leaks does it look for
 * the counts where the leak stops: a table may hand short calls to the
 * portable kernel.  It prints one line per child:
 *
 *   child PID TABLE ENTRY A-B clean|leak N|sigill N|mismatch N|died N
 *
 * Key schedules are built before the marks, except in the pseudo tables
 * sm4-keysched-* (one per implementation: C, GFNI, AES-NI) and
 * gost89-keysched, and kuznyechik-keysched-c, -ct, -gfni-avx2 and -avx2,
 * which mark the raw key and run only the schedule.  gost89-imit-* are the IMIT
 * implementations; each GOST table also has the entry "mesh", key meshing
 * through its ECB (twice, so that the second runs under a meshed key).
 * composed-* run GCM, CCM and XTS as the mode layer composes them from a
 * block table's entries and the portable GHASH (src/aead_gcm.c,
 * aead_ccm.c, aead_xts.c).  gost94-* run md_gost94's compression
 * (src/gost94.c: key generation, the shuffle, the sum) over each kernel of
 * its four encryptions, then its finishing rule, with the chaining state
 * and the message secret.
 */
#include "testutil.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aead.h"
#include "byteorder.h"
#include "cpu.h"
#include "ghash.h"
#include "gost89.h"
#include "gost89_x86.h"
#include "gost94.h"
#include "kernel_list.h"
#include "kuznyechik.h"
#include "mgm_mac.h"
#if __has_include("kuznyechik_x86.h")
# include "kuznyechik_x86.h"
#endif
#include "sm3.h"
#include "sm3_x86.h"
#include "sm4.h"
#include "sm4_x86.h"
#include "streebog.h"

#include "ctgrind.h"

/*
 * Block counts: every count from 1 to the table's largest, which covers
 * several whole passes of the loops valgrind can run (the AES-NI tiers: 32
 * blocks) and each tail; the GFNI tiers' wider loops (up to 128 blocks) are
 * the static check's, and the native sweep below checks their results.
 */
#define MAX_BLOCKS 130
/* Below this many blocks a table may route a call elsewhere. */
#define SMALL_COUNTS 16
/*
 * The sweep goes past two whole passes of the widest loop (SM4 GFNI+AVX-512:
 * 128 blocks) and the tails after them.
 */
#define SWEEP_BLOCKS 300
/*
 * Kuznyechik's portable kernels take up to 4 blocks a pass, its
 * constant-time one at about a microsecond a block: under valgrind it
 * stops sooner.
 */
#define KUZ_SCAN_BLOCKS 10

static unsigned char in_buf[MAX_BLOCKS * 64], out_buf[SWEEP_BLOCKS * 16],
    ref_buf[SWEEP_BLOCKS * 16];
/* The sweep runs each entry in place too. */
static int also_in_place;

/* ---- the tables ---- */

typedef enum {
    T_SM4, T_GOST, T_SM3, T_SM4_KEYSCHED, T_GOST_KEYSCHED, T_GOST_IMIT,
    T_SM4_AEAD, T_GOST_AHEAD, T_SM4_COMPOSED, T_STREEBOG, T_KUZ,
    T_KUZ_KEYSCHED, T_GOST94, T_MGM
} target_kind;

typedef struct {
    target_kind kind;
    /* T_SM4, T_GOST, T_KUZ, T_SM4_AEAD (k's gcm, ccm and xts tables),
     * T_SM4_COMPOSED (k's entries), T_KUZ_KEYSCHED (the schedule made for
     * k) */
    const SMG_BLOCK_KERNEL *k;
    const SM3_KERNEL *k3;            /* T_SM3 */
    const char *name;                /* pseudo tables, T_SM4_AEAD (block
                                        table's name + gcm table's name),
                                        T_STREEBOG and T_MGM (the
                                        table's) */
    size_t max;                      /* largest block count (or key count) */
    /* T_GOST_IMIT: the implementation */
    void (*imit)(const GOST89_KEY *, unsigned char *, const unsigned char *,
                 size_t);
} target;

/*
 * What the families' lists of kernel tables (src/kernel_list.h) do not
 * hold: GCM, CCM and XTS as the mode layer composes them (src/aead_gcm.c,
 * aead_ccm.c, aead_xts.c) from a block table and the portable GHASH, over
 * the C kernel and over a constant-time table valgrind runs; the key
 * schedules, one per implementation; the IMIT rounds; GOST's meshing a
 * period ahead.
 */
static const target pseudo_targets[] = {
    { T_SM4_COMPOSED, &sm4_kernel_c, NULL, "composed-sm4-c", MAX_BLOCKS,
      NULL },
#ifdef SM4_X86_ASM
    { T_SM4_COMPOSED, &sm4_kernel_aesni_avx_ct, NULL, "composed-aesni-avx-ct",
      MAX_BLOCKS, NULL },
#endif
    { T_SM4_KEYSCHED, &sm4_kernel_c, NULL, "sm4-keysched-c", 3, NULL },
#ifdef SM4_X86_ASM
    { T_SM4_KEYSCHED, &sm4_kernel_gfni_avx2, NULL, "sm4-keysched-gfni", 3,
      NULL },
    /* the gfni-avx512 tables' schedules carry their cores' tables too */
    { T_SM4_KEYSCHED, &sm4_kernel_gfni_avx512, NULL,
      "sm4-keysched-gfni-avx512", 3, NULL },
    { T_SM4_KEYSCHED, &sm4_kernel_aesni_avx, NULL, "sm4-keysched-aesni", 3,
      NULL },
#endif
    { T_GOST_KEYSCHED, NULL, NULL, "gost89-keysched", 3, NULL },
    /* the table round's schedule, and the constant-time round's */
    { T_KUZ_KEYSCHED, &kuznyechik_kernel_c, NULL, "kuznyechik-keysched-c", 3,
      NULL },
    { T_KUZ_KEYSCHED, &kuznyechik_kernel_ct, NULL, "kuznyechik-keysched-ct",
      3, NULL },
#ifdef KUZNYECHIK_X86_ASM
    /* the x86-64 tiers' (src/kuznyechik_x86.c: the AVX-512 tier's is the
     * GFNI one) */
    { T_KUZ_KEYSCHED, &kuznyechik_kernel_gfni_avx2, NULL,
      "kuznyechik-keysched-gfni-avx2", 3, NULL },
    { T_KUZ_KEYSCHED, &kuznyechik_kernel_avx2, NULL,
      "kuznyechik-keysched-avx2", 3, NULL },
#endif
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-c", 20, gost89_c_imit },
#ifdef GOST89_X86_ASM
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-scalar", 20, gost89_scalar_imit },
#endif
#ifdef GOST89_X86_SIMD
    { T_GOST_AHEAD, &gost89_kernel_avx512, NULL, "gost89-mesh-ahead", 3, NULL },
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-avx512", 20, gost89_avx512_imit },
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-avx2", 20, gost89_avx2_imit },
#endif
    /* named as src/gost94.c names its kernels */
    { T_GOST94, NULL, NULL, "gost94-c", 5, NULL },
#ifdef GOST89_X86_SIMD
    { T_GOST94, NULL, NULL, "gost94-avx512vbmi", 5, NULL },
    { T_GOST94, NULL, NULL, "gost94-avx2", 5, NULL },
#endif
};
#define NPSEUDO (sizeof(pseudo_targets) / sizeof(pseudo_targets[0]))

/* The tables of the lists and the pseudo tables (build_targets()). */
#define MAX_TARGETS 128
static target targets[MAX_TARGETS];
static char aead_names[MAX_TARGETS][64];
static size_t ntargets;
#define NTARGETS ntargets

static const char *target_name(const target *t)
{
    switch (t->kind) {
    case T_SM4:
    case T_GOST:
    case T_KUZ:
        return t->k->name;
    case T_SM3:
        return t->k3->name;
    default:
        return t->name;
    }
}

static const char *const aead_entries[] = {
    "ghash_init", "ghash", "gcm_enc", "gcm_dec", "ccm_enc", "ccm_dec",
    "xts_enc_ieee", "xts_dec_ieee", "xts_enc_gb", "xts_dec_gb",
    "gcm_enc_j0", "gcm_dec_j0"
};
#define NAEAD_ENTRIES (sizeof(aead_entries) / sizeof(aead_entries[0]))

/* Entry e of block table k's GCM, CCM and XTS tables, as a generic pointer
 * (NULL: composed). */
static const void *aead_entry(const SMG_BLOCK_KERNEL *k, size_t e)
{
    const SMG_GCM_KERNEL *g = k->gcm;
    const SMG_CCM_KERNEL *c = k->ccm;
    const SMG_XTS_KERNEL *x = k->xts;
    const void *p[NAEAD_ENTRIES] = { NULL };

    if (g != NULL) {
        p[0] = (const void *)g->ghash_init;
        p[1] = (const void *)g->ghash;
        p[2] = (const void *)g->enc;
        p[3] = (const void *)g->dec;
        p[10] = (const void *)g->enc_j0;
        p[11] = (const void *)g->dec_j0;
    }
    if (c != NULL) {
        p[4] = (const void *)c->enc;
        p[5] = (const void *)c->dec;
    }
    if (x != NULL) {
        p[6] = (const void *)x->enc_ieee;
        p[7] = (const void *)x->dec_ieee;
        p[8] = (const void *)x->enc_gb;
        p[9] = (const void *)x->dec_gb;
    }
    return e < NAEAD_ENTRIES ? p[e] : NULL;
}

static const char *const block_entries[] = {
    "ecb", "cbc_enc", "cbc_dec", "cfb_enc", "cfb_dec", "ofb", "ctr", "cnt",
    "ecb_lone"
};
#define NBLOCK_ENTRIES (sizeof(block_entries) / sizeof(block_entries[0]))
/* The lone-block ECB (kernel.h): run as ECB, absent where NULL. */
#define LONE_ENTRY 8

static smg_chain_fn chain_entry(const SMG_BLOCK_KERNEL *k, size_t e)
{
    switch (e) {
    case 1: return k->cbc_enc;
    case 2: return k->cbc_dec;
    case 3: return k->cfb_enc;
    case 4: return k->cfb_dec;
    case 5: return k->ofb;
    case 6: return k->ctr;
    case 7: return k->cnt;
    }
    return NULL;
}

/* GOST tables have one more entry: key meshing through their ECB. */
#define MESH_ENTRY NBLOCK_ENTRIES

/* The name of entry e of t, or NULL past the last one or for an absent one. */
static const char *entry_name(const target *t, size_t e)
{
    switch (t->kind) {
    case T_SM4:
    case T_GOST:
    case T_KUZ:
        if (t->kind == T_GOST && e == MESH_ENTRY)
            return "mesh";
        if (e >= NBLOCK_ENTRIES)
            return NULL;
        if (e == LONE_ENTRY ? t->k->ecb_lone == NULL
                            : e > 0 && chain_entry(t->k, e) == NULL)
            return "";
        return block_entries[e];
    case T_SM3:
        return e == 0 ? "blocks" : NULL;
    case T_STREEBOG:
        return e == 0 ? "blocks" : e == 1 ? "g" : NULL;
    case T_MGM:
        return e == 0 ? "mac128" : e == 1 ? "mac64" : NULL;
    case T_SM4_KEYSCHED:
    case T_GOST_KEYSCHED:
    case T_KUZ_KEYSCHED:
        return e == 0 ? "set_key" : NULL;
    case T_GOST_IMIT:
        return e == 0 ? "imit" : NULL;
    case T_GOST94:
        return e == 0 ? "hash" : NULL;
    case T_SM4_AEAD:
        if (e >= NAEAD_ENTRIES)
            return NULL;
        return aead_entry(t->k, e) == NULL ? "" : aead_entries[e];
    case T_GOST_AHEAD:
        return e == 0 ? "cnt" : e == 1 ? "cfb_dec" : NULL;
    case T_SM4_COMPOSED:
        if (e >= NAEAD_ENTRIES)
            return NULL;
        /* the mode layer has no composition of the J0 entries */
        return e < 2 || e >= 10 ? "" : aead_entries[e];
    }
    return NULL;
}

/* ---- one run of one entry over n blocks, secrets marked ---- */

/*
 * Entry e of k (0: ECB) over n blocks; iv is not touched by ECB.  The
 * lone-block ECB falls back to ecb as the mode layer's does (the portable
 * reference has none).
 */
static void call_entry(const SMG_BLOCK_KERNEL *k, size_t e, const void *ks,
                       const unsigned char *in, unsigned char *out, size_t n,
                       unsigned char *iv)
{
    if (e == LONE_ENTRY)
        (k->ecb_lone != NULL ? k->ecb_lone : k->ecb)(ks, in, out, n);
    else if (e == 0)
        k->ecb(ks, in, out, n);
    else
        chain_entry(k, e)(ks, in, out, n, iv);
}

/*
 * The reference result comes from the portable kernel on public data; then
 * kernel k runs with the schedule (its first ks_len bytes), the chaining
 * block and the input secret.  ECB runs both directions; CBC decryption is
 * the only entry that takes the decryption schedule.
 */
static void run_block_entry(const SMG_BLOCK_KERNEL *k,
                            const SMG_BLOCK_KERNEL *ref, size_t e,
                            const void *enc, const void *dec, size_t ks_len,
                            size_t bs, size_t n)
{
    unsigned char iv[16], iv_ref[16], iv0[16];
    int dir, ecb = e == 0 || e == LONE_ENTRY;

    tu_fill(in_buf, n * bs, (uint32_t)(n * 31 + e));
    tu_fill(iv0, bs, (uint32_t)n + 7u);
    for (dir = 0; dir < (ecb ? 2 : 1); dir++) {
        const void *ks = (dir == 1 || e == 2) ? dec : enc;

        memcpy(iv_ref, iv0, bs);
        memcpy(iv, iv0, bs);
        call_entry(ref, e, ks, in_buf, ref_buf, n, iv_ref);

        CT_SECRET(ks, ks_len);
        CT_SECRET(in_buf, n * bs);
        CT_SECRET(iv, bs);
        call_entry(k, e, ks, in_buf, out_buf, n, iv);
        CT_PUBLIC(ks, ks_len);
        CT_PUBLIC(in_buf, n * bs);
        CT_PUBLIC(out_buf, n * bs);
        CT_PUBLIC(iv, bs);

        TU_CHECK_MEM("output matches the portable kernel", out_buf, n * bs,
                     ref_buf, n * bs);
        if (!ecb)
            TU_CHECK_MEM("chaining block matches the portable kernel", iv, bs,
                         iv_ref, bs);
        if (!also_in_place)
            continue;
        memcpy(out_buf, in_buf, n * bs);
        memcpy(iv, iv0, bs);
        call_entry(k, e, ks, out_buf, out_buf, n, iv);
        TU_CHECK_MEM("in place: output matches the portable kernel",
                     out_buf, n * bs, ref_buf, n * bs);
        if (!ecb)
            TU_CHECK_MEM("in place: chaining block matches", iv, bs, iv_ref,
                         bs);
    }
}

static const unsigned char sm4_key0[SM4_KEY_SIZE] = "ctgrind-sm4-key";
static const unsigned char gost89_key0[GOST89_KEY_SIZE] =
    "ctgrind-gost-key-of-32-bytes-xx";

/*
 * n whole meshing periods of CNT (e 0) or CFB decryption (e 1) through k
 * with the next meshing alongside, each meshed at its end, against the
 * portable kernel and gost89_key_mesh; 0 if k cannot run them.
 */
#define PERIOD_BLOCKS (1024 / GOST89_BLOCK_SIZE)

static int run_ahead(const SMG_BLOCK_KERNEL *k, size_t e, size_t n)
{
    static unsigned char in[PERIOD_BLOCKS * 8], out[PERIOD_BLOCKS * 8],
        ref[PERIOD_BLOCKS * 8];
    unsigned char key[GOST89_KEY_SIZE], iv[8], riv[8];
    GOST89_KEY enc, dec, renc, rdec;
    GOST89_MESH_AHEAD a;
    size_t i;
    int ran = 1;

    memcpy(key, gost89_key0, sizeof(key));
    key[1] = (unsigned char)n;
    TU_CHECK(gost89_set_key(key, &gost89_paramset_cpa, 0, &enc, &dec),
             "gost89_set_key");
    renc = enc;
    rdec = dec;
    gost89_mesh_ahead_reset(&a);
    tu_fill(iv, sizeof(iv), (uint32_t)n * 5u);
    memcpy(riv, iv, sizeof(riv));
    for (i = 0; i < n && ran; i++) {
        tu_fill(in, sizeof(in), (uint32_t)(n * 17 + i + e));
        (e == 0 ? gost89_kernel_c.cnt : gost89_kernel_c.cfb_dec)(&renc, in, ref,
                                                            PERIOD_BLOCKS, riv);
        gost89_key_mesh(&gost89_kernel_c, &renc, &rdec, riv);
        CT_SECRET(enc.rk, sizeof(enc.rk));
        CT_SECRET(dec.rk, sizeof(dec.rk));
        CT_SECRET(iv, sizeof(iv));
        CT_SECRET(in, sizeof(in));
        /* what was prepared is secret, whether it was is not */
        CT_SECRET(a.next[0].rk, sizeof(a.next[0].rk));
        CT_SECRET(a.next[1].rk, sizeof(a.next[1].rk));
        CT_SECRET(a.next_iv, sizeof(a.next_iv));
        ran = gost89_period_ahead(k, e == 0, &a, &enc, &dec, in, out,
                                PERIOD_BLOCKS, iv);
        if (ran)
            gost89_key_mesh_ahead(k, &a, &enc, &dec, iv);
        CT_PUBLIC(enc.rk, sizeof(enc.rk));
        CT_PUBLIC(dec.rk, sizeof(dec.rk));
        CT_PUBLIC(iv, sizeof(iv));
        CT_PUBLIC(in, sizeof(in));
        CT_PUBLIC(out, sizeof(out));
        CT_PUBLIC(&a, sizeof(a));
        if (!ran)
            break;
        TU_CHECK_MEM("period output matches the portable kernel", out,
                     sizeof(out), ref, sizeof(ref));
        TU_CHECK_MEM("meshed iv matches", iv, sizeof(iv), riv, sizeof(riv));
        TU_CHECK_MEM("meshed schedule matches", (unsigned char *)enc.rk,
                     sizeof(enc.rk), (unsigned char *)renc.rk,
                     sizeof(renc.rk));
        TU_CHECK_MEM("meshed decryption schedule matches",
                     (unsigned char *)dec.rk, sizeof(dec.rk),
                     (unsigned char *)rdec.rk, sizeof(rdec.rk));
    }
    gost89_mesh_ahead_reset(&a);
    return ran;
}

/* GOST runs in both byte orders: GOST 28147-89 and Magma. */
static void run_gost(const target *t, size_t e, size_t n)
{
    unsigned char key[GOST89_KEY_SIZE], state[8], iv[8];
    GOST89_KEY enc, dec;
    int be;

    memcpy(key, gost89_key0, sizeof(key));
    for (be = 0; be < 2; be++) {
        if (t->kind == T_GOST_KEYSCHED) {
            key[0] = (unsigned char)n;
            CT_SECRET(key, sizeof(key));
            TU_CHECK(gost89_set_key(key, &gost89_paramset_z, be, &enc, &dec),
                     "gost89_set_key");
            CT_PUBLIC(key, sizeof(key));
            CT_PUBLIC(&enc, sizeof(enc));
            CT_PUBLIC(&dec, sizeof(dec));
            continue;
        }
        TU_CHECK(gost89_set_key(key, &gost89_paramset_z, be, &enc, &dec),
                 "gost89_set_key");
        /* Only rk is secret: the table pointer and byte order are public. */
        if (t->kind == T_GOST_IMIT) {
            unsigned char ref[8];

            tu_fill(in_buf, n * GOST89_BLOCK_SIZE, (uint32_t)n);
            tu_fill(state, sizeof(state), (uint32_t)n + 3u);
            memcpy(ref, state, sizeof(ref));
            gost89_c_imit(&enc, ref, in_buf, n);
            CT_SECRET(enc.rk, sizeof(enc.rk));
            CT_SECRET(in_buf, n * GOST89_BLOCK_SIZE);
            CT_SECRET(state, sizeof(state));
            t->imit(&enc, state, in_buf, n);
            CT_PUBLIC(enc.rk, sizeof(enc.rk));
            CT_PUBLIC(in_buf, n * GOST89_BLOCK_SIZE);
            CT_PUBLIC(state, sizeof(state));
            TU_CHECK_MEM("IMIT state matches the portable one", state,
                         sizeof(state), ref, sizeof(ref));
            continue;
        }
        if (e == MESH_ENTRY) {
            GOST89_KEY renc, rdec;
            unsigned char riv[8];

            /* a key of its own per count, meshed twice */
            key[0] = (unsigned char)n;
            TU_CHECK(gost89_set_key(key, &gost89_paramset_z, be, &enc, &dec),
                     "gost89_set_key");
            renc = enc;
            rdec = dec;
            tu_fill(iv, sizeof(iv), (uint32_t)n);
            memcpy(riv, iv, sizeof(riv));
            gost89_key_mesh(&gost89_kernel_c, &renc, &rdec, riv);
            gost89_key_mesh(&gost89_kernel_c, &renc, &rdec, riv);
            CT_SECRET(enc.rk, sizeof(enc.rk));
            CT_SECRET(dec.rk, sizeof(dec.rk));
            CT_SECRET(iv, sizeof(iv));
            gost89_key_mesh(t->k, &enc, &dec, iv);
            gost89_key_mesh(t->k, &enc, &dec, iv);
            CT_PUBLIC(enc.rk, sizeof(enc.rk));
            CT_PUBLIC(dec.rk, sizeof(dec.rk));
            CT_PUBLIC(iv, sizeof(iv));
            TU_CHECK_MEM("meshed schedule matches the portable kernel's",
                         (unsigned char *)enc.rk, sizeof(enc.rk),
                         (unsigned char *)renc.rk, sizeof(renc.rk));
            TU_CHECK_MEM("meshed decryption schedule matches",
                         (unsigned char *)dec.rk, sizeof(dec.rk),
                         (unsigned char *)rdec.rk, sizeof(rdec.rk));
            TU_CHECK_MEM("meshed iv matches", iv, sizeof(iv), riv,
                         sizeof(riv));
            continue;
        }
        switch (t->kind) {
        default:
            /* rk is first in GOST89_KEY (src/gost89_x86.c asserts it) */
            run_block_entry(t->k, &gost89_kernel_c, e, &enc, &dec,
                            sizeof(enc.rk), GOST89_BLOCK_SIZE, n);
        }
    }
}

/* k's schedules against the C ones: the round keys, and the tables k reads. */
static void check_sm4_schedules(const SMG_BLOCK_KERNEL *k, const SM4_KEY *enc,
                                const SM4_KEY *dec, const SM4_KEY *ref_enc,
                                const SM4_KEY *ref_dec)
{
    size_t n = sm4_kernel_reads_tables(k) ? sizeof(*enc) : sizeof(enc->rk);

    TU_CHECK_MEM("SM4 encryption schedule matches the C one",
                 (const unsigned char *)enc, n,
                 (const unsigned char *)ref_enc, n);
    TU_CHECK_MEM("SM4 decryption schedule matches the C one",
                 (const unsigned char *)dec, n,
                 (const unsigned char *)ref_dec, n);
}

/* ---- the AEAD entries, against references built from the portable
 * kernel's ECB and GHASH one block at a time ---- */

static void ref_gcm(const SM4_KEY *ks, const void *ht, const unsigned char *in,
                    unsigned char *out, size_t n, unsigned char ctr[16],
                    unsigned char xi[16], int enc)
{
    unsigned char k[16];
    size_t i;
    int j;

    for (i = 0; i < n; i++, in += 16, out += 16) {
        sm4_kernel_c.ecb(ks, ctr, k, 1);
        if (!enc)
            sm4_gcm_c.ghash(ht, xi, in, 1);
        for (j = 0; j < 16; j++)
            out[j] = in[j] ^ k[j];
        if (enc)
            sm4_gcm_c.ghash(ht, xi, out, 1);
        for (j = 15; j >= 12 && ++ctr[j] == 0; j--)
            ;
    }
}

static void ref_ccm(const SM4_KEY *ks, const unsigned char *in,
                    unsigned char *out, size_t n, unsigned char ctr[16],
                    unsigned char mac[16], int enc)
{
    unsigned char k[16];
    size_t i;
    int j;

    /* mac is the MAC's pending input (src/kernel.h): E(mac), then the
     * plaintext block XORed in */
    for (i = 0; i < n; i++, in += 16, out += 16) {
        sm4_kernel_c.ecb(ks, ctr, k, 1);
        sm4_kernel_c.ecb(ks, mac, mac, 1);
        for (j = 0; j < 16; j++) {
            unsigned char p = enc ? in[j] : (unsigned char)(in[j] ^ k[j]);

            out[j] = in[j] ^ k[j];
            mac[j] ^= p;
        }
        for (j = 15; j >= 8 && ++ctr[j] == 0; j--)
            ;
    }
}

/* T times x: IEEE 1619 (little-endian, 0x87) or GB (reflected, 0xe1). */
static void ref_xts_mulx(unsigned char t[16], int gb)
{
    int j, c;

    if (gb) {
        c = t[15] & 1;
        for (j = 15; j > 0; j--)
            t[j] = (unsigned char)(t[j] >> 1 | t[j - 1] << 7);
        t[0] = (unsigned char)(t[0] >> 1 ^ (c ? 0xe1 : 0));
    } else {
        c = t[15] >> 7;
        for (j = 15; j > 0; j--)
            t[j] = (unsigned char)(t[j] << 1 | t[j - 1] >> 7);
        t[0] = (unsigned char)(t[0] << 1 ^ (c ? 0x87 : 0));
    }
}

static void ref_xts(const SM4_KEY *ks, const unsigned char *in,
                    unsigned char *out, size_t n, unsigned char t[16], int gb)
{
    unsigned char b[16];
    size_t i;
    int j;

    for (i = 0; i < n; i++, in += 16, out += 16) {
        for (j = 0; j < 16; j++)
            b[j] = in[j] ^ t[j];
        sm4_kernel_c.ecb(ks, b, b, 1);
        for (j = 0; j < 16; j++)
            out[j] = b[j] ^ t[j];
        ref_xts_mulx(t, gb);
    }
}

static _Alignas(64) unsigned char ht_buf[SMG_GHASH_TABLE_SIZE],
    ht_ref[SMG_GHASH_TABLE_SIZE];

/* Entry e of the AEAD table over n blocks (in place too in the sweep):
 * the key schedule, H and its table, the counter, MAC, tweak, xi and the
 * data are secret. */
static void run_aead(const target *t, size_t e, size_t n)
{
    /* a composition takes the portable GHASH: that is proved on its own */
    int composed = t->kind == T_SM4_COMPOSED;
    const SMG_GCM_KERNEL *g = composed ? &sm4_gcm_c : t->k->gcm;
    static const unsigned char zero[16];
    unsigned char h[16], st[16], st_ref[16], st0[16], xi[16], xi_ref[16],
        xi0[16], ek[16], ek_ref[16];
    SM4_KEY enc, dec;
    const SM4_KEY *ks;
    const void *fn = composed ? NULL : aead_entry(t->k, e);
    size_t len = n * 16;
    int pass;

    sm4_set_key(sm4_key0, &enc, &dec);
    ks = (e == 7 || e == 9) ? &dec : &enc;
    sm4_encrypt_block(&enc, zero, h);
    if (e == 0)
        tu_fill(h, 16, (uint32_t)n * 5u + 1u);
    sm4_gcm_c.ghash_init(ht_ref, h);
    tu_fill(in_buf, len, (uint32_t)(n * 131 + e));
    tu_fill(st0, 16, (uint32_t)n + 3u);
    tu_fill(xi0, 16, (uint32_t)n + 11u);
    /* counters that wrap inside the call */
    if (e == 2 || e == 3 || e >= 10)
        memset(st0 + 12, 0xff, 4), st0[15] = (unsigned char)(0xff - n % 9);
    if (e == 4 || e == 5)
        memset(st0 + 8, 0xff, 8), st0[15] = (unsigned char)(0xff - n % 9);
    memcpy(st_ref, st0, 16);
    memcpy(xi_ref, xi0, 16);
    switch (e) {
    case 0:
    case 1:
        sm4_gcm_c.ghash(ht_ref, xi_ref, in_buf, n);
        break;
    case 2:
    case 3:
        ref_gcm(&enc, ht_ref, in_buf, ref_buf, n, st_ref, xi_ref, e == 2);
        break;
    case 4:
    case 5:
        ref_ccm(&enc, in_buf, ref_buf, n, st_ref, xi_ref, e == 4);
        break;
    case 10:
    case 11:
        /* st0 is J0: E(J0), then GCM from J0 + 1 */
        sm4_kernel_c.ecb(&enc, st_ref, ek_ref, 1);
        store_be32(st_ref + 12, load_be32(st_ref + 12) + 1);
        ref_gcm(&enc, ht_ref, in_buf, ref_buf, n, st_ref, xi_ref, e == 10);
        break;
    default:
        ref_xts(ks, in_buf, ref_buf, n, st_ref, e >= 8);
    }
    if (e == 0) {
        CT_SECRET(h, sizeof(h));
        g->ghash_init(ht_buf, h);
        CT_PUBLIC(h, sizeof(h));
        CT_PUBLIC(ht_buf, sizeof(ht_buf));
    } else {
        g->ghash_init(ht_buf, h);
    }
    for (pass = 0; pass < (also_in_place && e >= 2 ? 2 : 1); pass++) {
        unsigned char *out = pass ? in_buf : out_buf;

        memcpy(st, st0, 16);
        memcpy(xi, xi0, 16);
        CT_SECRET(&enc, sizeof(enc));
        CT_SECRET(&dec, sizeof(dec));
        CT_SECRET(ht_buf, sizeof(ht_buf));
        CT_SECRET(in_buf, len);
        CT_SECRET(st, 16);
        CT_SECRET(xi, 16);
        /*
         * The compositions split a call where the counter wraps (GCM: 32
         * bits, CCM: 64): their counter counts as public, as the IV or
         * nonce it comes from (README says so).
         */
        if (composed && e >= 2 && e <= 5)
            CT_PUBLIC(st, 16);
        if (composed && (e == 2 || e == 3))
            smg_gcm_composed(t->k, g, e == 2, &enc, ht_buf, in_buf, out, n,
                             st, xi);
        else if (composed && (e == 4 || e == 5))
            smg_ccm_composed(t->k, e == 4, &enc, in_buf, out, n, st, xi);
        else if (composed)
            smg_xts_composed(t->k, e < 8, ks, in_buf, out, n, st);
        else switch (e) {
        case 0:
            g->ghash(ht_buf, xi, in_buf, n);
            break;
        case 1:
            ((smg_ghash_fn)fn)(ht_buf, xi, in_buf, n);
            break;
        case 2:
        case 3:
            ((smg_gcm_fn)fn)(&enc, ht_buf, in_buf, out, n, st, xi);
            break;
        case 4:
        case 5:
            ((smg_ccm_fn)fn)(&enc, in_buf, out, n, st, xi);
            break;
        case 10:
        case 11:
            ((smg_gcm_j0_fn)fn)(&enc, ht_buf, in_buf, out, n, st, xi, ek);
            CT_PUBLIC(ek, 16);
            TU_CHECK_MEM("E(J0) matches the reference", ek, 16, ek_ref, 16);
            break;
        default:
            ((smg_xts_fn)fn)(ks, in_buf, out, n, st);
        }
        CT_PUBLIC(&enc, sizeof(enc));
        CT_PUBLIC(&dec, sizeof(dec));
        CT_PUBLIC(ht_buf, sizeof(ht_buf));
        CT_PUBLIC(in_buf, len);
        CT_PUBLIC(out_buf, len);
        CT_PUBLIC(st, 16);
        CT_PUBLIC(xi, 16);
        if (e >= 2) {
            TU_CHECK_MEM(pass ? "in place: output matches the reference"
                              : "output matches the reference",
                         out, len, ref_buf, len);
            TU_CHECK_MEM("counter, tweak or MAC matches the reference", st,
                         16, st_ref, 16);
        }
        if (e <= 5 || e >= 10)
            TU_CHECK_MEM("xi or MAC matches the reference", xi, 16, xi_ref,
                         16);
        /* the in-place pass overwrote the input: bring it back */
        if (pass)
            tu_fill(in_buf, len, (uint32_t)(n * 131 + e));
    }
}

/*
 * Streebog's blocks over n blocks (e 0), or its g n times over the blocks
 * (e 1), with the chain (h, N, Sigma: an HMAC key's hash) and the message
 * secret, against the table kernel on public data.  N and Sigma start just
 * below word boundaries so that their additions carry.
 */
static void run_streebog(const STREEBOG_KERNEL *k, size_t e, size_t n)
{
    STREEBOG_CHAIN c, ref;
    size_t i;

    tu_fill(in_buf, n * STREEBOG_BLOCK_SIZE, (uint32_t)(n * 7 + e));
    tu_fill((unsigned char *)&c, sizeof(c), (uint32_t)n + 5u);
    c.N[0] = ~(uint64_t)0 - 511;
    c.Sigma[1] = ~(uint64_t)0;
    ref = c;
    if (e == 0)
        streebog_kernel_c.blocks(&ref, in_buf, n);
    else
        for (i = 0; i < n; i++)
            streebog_kernel_c.g(ref.h, ref.N, in_buf + 64 * i);
    CT_SECRET(&c, sizeof(c));
    CT_SECRET(in_buf, n * STREEBOG_BLOCK_SIZE);
    if (e == 0)
        k->blocks(&c, in_buf, n);
    else
        for (i = 0; i < n; i++)
            k->g(c.h, c.N, in_buf + 64 * i);
    CT_PUBLIC(&c, sizeof(c));
    CT_PUBLIC(in_buf, n * STREEBOG_BLOCK_SIZE);
    TU_CHECK_MEM("chain matches the table kernel", (unsigned char *)&c,
                 sizeof(c), (unsigned char *)&ref, sizeof(ref));
}

/* The table of f's list named name (a T_STREEBOG or T_MGM target's), as
 * the family describes it; the last one if none is. */
static const void *named_table(const SMG_KERNEL_FAMILY *f, const char *name)
{
    char buf[96];
    size_t i;

    for (i = 0; i + 1 < f->nkernels; i++) {
        f->describe(f->kernels[i].table, buf, sizeof(buf));
        if (strcmp(buf, name) == 0)
            break;
    }
    return f->kernels[i].table;
}

/*
 * MGM's multiply-accumulate: entry e (0: GF(2^128), 1: GF(2^64)) over n
 * pairs of blocks, the H_i, the blocks and the running sum secret, against
 * the portable kernel.
 */
static void run_mgm(const SMG_MGM_KERNEL *k, size_t e, size_t n)
{
    static unsigned char h[MAX_BLOCKS * 16], x[MAX_BLOCKS * 16];
    size_t bs = e == 0 ? 16 : 8;
    smg_mgm_mac_fn mac = e == 0 ? k->mac128 : k->mac64;
    unsigned char sum[16], ref[16];

    tu_fill(h, n * bs, (uint32_t)(n * 3 + e));
    tu_fill(x, n * bs, (uint32_t)(n * 5 + e + 1));
    tu_fill(sum, sizeof(sum), (uint32_t)n + 11u);
    memcpy(ref, sum, sizeof(sum));
    (e == 0 ? smg_mgm_kernel_c.mac128 : smg_mgm_kernel_c.mac64)(ref, h, x, n);
    CT_SECRET(h, n * bs);
    CT_SECRET(x, n * bs);
    CT_SECRET(sum, bs);
    mac(sum, h, x, n);
    CT_PUBLIC(h, n * bs);
    CT_PUBLIC(x, n * bs);
    CT_PUBLIC(sum, bs);
    TU_CHECK_MEM("sum matches the portable kernel", sum, bs, ref, bs);
}

static const unsigned char kuz_key0[KUZNYECHIK_KEY_SIZE] =
    "ctgrind-kuznyechik-key-32-bytes";

/*
 * Kuznyechik: a table's entries with the round keys (rk, first in
 * KUZNYECHIK_KEY; the decrypt flag is public, and drk is the table
 * kernel's, which leaks anyway) secret; the schedule made for a table from
 * a secret key, against the table kernel's.
 */
static void run_kuz(const target *t, size_t e, size_t n)
{
    unsigned char key[KUZNYECHIK_KEY_SIZE];
    KUZNYECHIK_KEY enc, dec, ref_enc, ref_dec;

    memcpy(key, kuz_key0, sizeof(key));
    key[0] = (unsigned char)n;
    /* the padding after decrypt too: the schedules are compared whole */
    memset(&ref_enc, 0, sizeof(ref_enc));
    memset(&ref_dec, 0, sizeof(ref_dec));
    memset(&enc, 0, sizeof(enc));
    memset(&dec, 0, sizeof(dec));
    if (t->kind == T_KUZ) {
        TU_CHECK(kuznyechik_set_key_kernel(t->k, key, &enc, &dec),
                 "kuznyechik_set_key_kernel");
        run_block_entry(t->k, &kuznyechik_kernel_c, e, &enc, &dec,
                        sizeof(enc.rk), KUZNYECHIK_BLOCK_SIZE, n);
        return;
    }
    TU_CHECK(kuznyechik_set_key_kernel(&kuznyechik_kernel_c, key, &ref_enc,
                                       &ref_dec), "kuznyechik_set_key_kernel");
    CT_SECRET(key, sizeof(key));
    TU_CHECK(kuznyechik_set_key_kernel(t->k, key, &enc, &dec),
             "kuznyechik_set_key_kernel");
    CT_PUBLIC(key, sizeof(key));
    CT_PUBLIC(&enc, sizeof(enc));
    CT_PUBLIC(&dec, sizeof(dec));
    TU_CHECK_MEM("schedule matches the table kernel's", (unsigned char *)&enc,
                 sizeof(enc), (unsigned char *)&ref_enc, sizeof(ref_enc));
    TU_CHECK_MEM("decryption schedule matches", (unsigned char *)&dec,
                 sizeof(dec), (unsigned char *)&ref_dec, sizeof(ref_dec));
}

/*
 * md_gost94's path: n blocks and a partial one of n * 5 mod 32 bytes
 * through gost94_blocks and gost94_final over the kernel named t->name,
 * from a random chaining state and sum, against the C kernel on public
 * data.
 */
static void run_gost94(const target *t, size_t n)
{
    const GOST89_SBOX_TABLES *tab = gost94_tables(&gost94_paramset_cryptopro);
    const GOST94_KERNEL *k = NULL;
    GOST94_STATE s, r;
    unsigned char buf[GOST94_BLOCK_SIZE], out[32], ref[32];
    size_t part = n * 5 % GOST94_BLOCK_SIZE, len = n * GOST94_BLOCK_SIZE;
    size_t i;

    for (i = 0; gost94_kernels[i] != NULL; i++)
        if (strcmp(gost94_kernels[i]->name, t->name) == 0)
            k = gost94_kernels[i];
    if (!TU_CHECK(k != NULL && tab != NULL, "no GOST R 34.11-94 kernel %s",
                  t->name))
        return;
    tu_fill(in_buf, len + part, (uint32_t)n * 13u);
    gost94_init(&r, tab, &gost94_kernel_c);
    tu_fill((unsigned char *)r.h, sizeof(r.h), (uint32_t)n + 5u);
    tu_fill((unsigned char *)r.sigma, sizeof(r.sigma), (uint32_t)n + 9u);
    gost94_init(&s, tab, k);
    memcpy(s.h, r.h, sizeof(s.h));
    memcpy(s.sigma, r.sigma, sizeof(s.sigma));
    gost94_blocks(&r, in_buf, n);
    memcpy(buf, in_buf + len, part);
    gost94_final(&r, buf, part, len + part, ref);
    CT_SECRET(s.h, sizeof(s.h));
    CT_SECRET(s.sigma, sizeof(s.sigma));
    CT_SECRET(in_buf, len + part);
    gost94_blocks(&s, in_buf, n);
    memcpy(buf, in_buf + len, part);
    gost94_final(&s, buf, part, len + part, out);
    CT_PUBLIC(s.h, sizeof(s.h));
    CT_PUBLIC(s.sigma, sizeof(s.sigma));
    CT_PUBLIC(in_buf, len + part);
    CT_PUBLIC(buf, sizeof(buf));
    CT_PUBLIC(out, sizeof(out));
    TU_CHECK_MEM("GOST R 34.11-94 digest matches the C kernel's", out,
                 sizeof(out), ref, sizeof(ref));
}

static void run_one(const target *t, size_t e, size_t n)
{
    unsigned char key[SM4_KEY_SIZE];
    SM4_KEY enc, dec, ref_enc, ref_dec;
    uint32_t st[8], st_ref[8];

    switch (t->kind) {
    case T_SM4_KEYSCHED:
        memcpy(key, sm4_key0, sizeof(key));
        key[0] = (unsigned char)n;
        sm4_set_key(key, &ref_enc, &ref_dec);
        CT_SECRET(key, sizeof(key));
        sm4_set_key_kernel(t->k, key, &enc, &dec, NULL);
        CT_PUBLIC(key, sizeof(key));
        CT_PUBLIC(&enc, sizeof(enc));
        CT_PUBLIC(&dec, sizeof(dec));
        check_sm4_schedules(t->k, &enc, &dec, &ref_enc, &ref_dec);
        break;
    case T_SM4:
        sm4_set_key(sm4_key0, &enc, &dec);
        run_block_entry(t->k, &sm4_kernel_c, e, &enc, &dec, sizeof(enc),
                        SM4_BLOCK_SIZE, n);
        break;
    case T_SM4_AEAD:
    case T_SM4_COMPOSED:
        run_aead(t, e, n);
        break;
    case T_SM3:
        tu_fill(in_buf, n * SM3_BLOCK_SIZE, (uint32_t)n);
        tu_fill((unsigned char *)st, sizeof(st), 99u);
        memcpy(st_ref, st, sizeof(st));
        sm3_kernel_c.blocks(st_ref, in_buf, n);
        CT_SECRET(st, sizeof(st));
        CT_SECRET(in_buf, n * SM3_BLOCK_SIZE);
        t->k3->blocks(st, in_buf, n);
        CT_PUBLIC(st, sizeof(st));
        CT_PUBLIC(in_buf, n * SM3_BLOCK_SIZE);
        TU_CHECK_MEM("state matches the portable kernel",
                     (unsigned char *)st, sizeof(st),
                     (unsigned char *)st_ref, sizeof(st_ref));
        break;
    case T_GOST_AHEAD:
        TU_CHECK(run_ahead(t->k, e, n), "%s runs periods with meshing ahead",
                 t->k->name);
        break;
    case T_STREEBOG:
        run_streebog(named_table(&streebog_kernel_family, t->name), e, n);
        break;
    case T_MGM:
        run_mgm(named_table(&mgm_kernel_family, t->name), e, n);
        break;
    case T_KUZ:
    case T_KUZ_KEYSCHED:
        run_kuz(t, e, n);
        break;
    case T_GOST94:
        run_gost94(t, n);
        break;
    default:
        run_gost(t, e, n);
    }
}

/* ---- the scan ---- */

typedef enum { R_CLEAN, R_LEAK, R_SIGILL, R_MISMATCH, R_DIED } result;

static const char *const result_names[] = {
    "clean", "leak", "sigill", "mismatch", "died"
};

/* Where a child is: the count it runs now, in memory shared with the parent. */
static volatile size_t *progress;

static result child(const target *t, size_t e, size_t a, size_t b, int code,
                    size_t *at)
{
    pid_t pid;
    int st;
    size_t n;
    result r;

    fflush(NULL);
    *progress = 0;
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        for (n = a; n <= b; n++) {
            *progress = n;
            run_one(t, e, n);
            if (tu_failures != 0)
                _exit(3);
        }
        _exit(0);
    }
    if (waitpid(pid, &st, 0) != pid) {
        perror("waitpid");
        exit(2);
    }
    *at = *progress;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        r = R_CLEAN;
    else if (WIFEXITED(st) && WEXITSTATUS(st) == code)
        r = R_LEAK;
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
        r = R_MISMATCH;
    else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGILL)
        r = R_SIGILL;
    else
        r = R_DIED;
    printf("child %ld %s %s %zu-%zu %s", (long)pid, target_name(t),
           entry_name(t, e), a, b, result_names[r]);
    if (r != R_CLEAN)
        printf(" %zu", *at);
    printf("\n");
    return r;
}

/*
 * All counts at once; if that leaks at n, the largest count alone tells
 * whether long calls leak too.  Only if they do not are the counts after n
 * followed, each leak ending a child, while the leaks stay below
 * SMALL_COUNTS: so the short calls that a table hands to another kernel
 * show up one by one.  Returns 0 if a child failed otherwise.
 */
static int scan_entry(const target *t, size_t e, int code)
{
    size_t at, at2;
    result r;

    r = child(t, e, 1, t->max, code, &at);
    if (r == R_LEAK && at < t->max) {
        result r2 = child(t, e, t->max, t->max, code, &at2);

        if (r2 == R_LEAK)
            return 1;
        if (r2 == R_MISMATCH || r2 == R_DIED)
            return 0;
    }
    while (r == R_LEAK && at < t->max && at < SMALL_COUNTS)
        r = child(t, e, at + 1, t->max, code, &at);
    return r != R_MISMATCH && r != R_DIED;
}

static int scan(const char *name, int code)
{
    size_t i, e;
    const char *en;
    int ok = 1;

    for (i = 0; i < NTARGETS; i++)
        if (strcmp(target_name(&targets[i]), name) == 0)
            break;
    if (i == NTARGETS) {
        fprintf(stderr, "ct_check: no table %s in this build\n", name);
        return 2;
    }
    if (!CT_UNDER_VALGRIND()) {
        fprintf(stderr, "ct_check: scan needs valgrind's memcheck and "
                "<valgrind/memcheck.h>\n");
        return 2;
    }
    progress = mmap(NULL, sizeof(*progress), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (progress == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    for (e = 0; (en = entry_name(&targets[i], e)) != NULL; e++)
        if (*en != '\0')
            ok &= scan_entry(&targets[i], e, code);
    printf("ct_check: scan of %s %s\n", name, ok ? "complete" : "FAILED");
    return ok ? 0 : 1;
}

/*
 * The SM4 key schedule of this level's table: the round keys of GB/T
 * 32907-2016 appendix A (example 1), then random keys against the C one.
 */
static int sweep_sm4_keysched(int ct)
{
    static const unsigned char std_key[SM4_KEY_SIZE] = {
        0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10
    };
    const SMG_BLOCK_KERNEL *k = sm4_kernel(ct);
    unsigned char key[SM4_KEY_SIZE];
    SM4_KEY enc, dec, ref_enc, ref_dec;
    size_t n;

    sm4_set_key_kernel(k, std_key, &enc, &dec, NULL);
    TU_CHECK(enc.rk[0] == 0xf12186f9u && enc.rk[31] == 0x9124a012u,
             "%s key schedule: rk0 %08x rk31 %08x, GB/T 32907-2016 "
             "appendix A gives f12186f9 and 9124a012", k->name,
             (unsigned)enc.rk[0], (unsigned)enc.rk[31]);
    TU_CHECK(dec.rk[0] == 0x9124a012u && dec.rk[31] == 0xf12186f9u,
             "%s decryption schedule: the appendix A round keys reversed",
             k->name);
    for (n = 1; n <= SWEEP_BLOCKS && tu_failures == 0; n++) {
        tu_fill(key, sizeof(key), (uint32_t)n * 2654435761u);
        sm4_set_key(key, &ref_enc, &ref_dec);
        sm4_set_key_kernel(k, key, &enc, &dec, NULL);
        check_sm4_schedules(k, &enc, &dec, &ref_enc, &ref_dec);
    }
    if (tu_failures != 0) {
        printf("# %s key schedule: first failure at key %zu\n", k->name,
               n - 1);
        return 0;
    }
    printf("# %s key schedule: GB/T 32907-2016 appendix A, %d keys\n",
           k->name, SWEEP_BLOCKS);
    return 1;
}

/*
 * The Kuznyechik key schedule of this level's table: K_3 and K_10 of RFC
 * 7801 section 5.4 (GOST R 34.12-2015 A.1.4), then random keys against the
 * table kernel's schedules, whole (rk, decrypt and drk).
 */
static int sweep_kuz_keysched(int ct)
{
    static const unsigned char std_key[KUZNYECHIK_KEY_SIZE] = {
        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
        0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef
    };
    static const unsigned char k3[16] = {
        0xdb, 0x31, 0x48, 0x53, 0x15, 0x69, 0x43, 0x43,
        0x22, 0x8d, 0x6a, 0xef, 0x8c, 0xc7, 0x8c, 0x44
    }, k10[16] = {
        0x72, 0xe9, 0xdd, 0x74, 0x16, 0xbc, 0xf4, 0x5b,
        0x75, 0x5d, 0xba, 0xa8, 0x8e, 0x4a, 0x40, 0x43
    };
    const SMG_BLOCK_KERNEL *k = kuznyechik_kernel(ct);
    unsigned char key[KUZNYECHIK_KEY_SIZE];
    KUZNYECHIK_KEY enc, dec, ref_enc, ref_dec;
    size_t n;

    TU_CHECK(kuznyechik_set_key_kernel(k, std_key, &enc, NULL),
             "kuznyechik_set_key_kernel");
    TU_CHECK_MEM("K_3, RFC 7801 5.4", enc.rk[2], 16, k3, 16);
    TU_CHECK_MEM("K_10, RFC 7801 5.4", enc.rk[9], 16, k10, 16);
    for (n = 1; n <= SWEEP_BLOCKS && tu_failures == 0; n++) {
        tu_fill(key, sizeof(key), (uint32_t)n * 2654435761u);
        memset(&enc, 0, sizeof(enc));
        memset(&dec, 0, sizeof(dec));
        memset(&ref_enc, 0, sizeof(ref_enc));
        memset(&ref_dec, 0, sizeof(ref_dec));
        TU_CHECK(kuznyechik_set_key_kernel(&kuznyechik_kernel_c, key,
                                           &ref_enc, &ref_dec)
                 && kuznyechik_set_key_kernel(k, key, &enc, &dec),
                 "kuznyechik_set_key_kernel");
        TU_CHECK_MEM("schedule against the table kernel's",
                     (unsigned char *)&enc, sizeof(enc),
                     (unsigned char *)&ref_enc, sizeof(ref_enc));
        TU_CHECK_MEM("decryption schedule against the table kernel's",
                     (unsigned char *)&dec, sizeof(dec),
                     (unsigned char *)&ref_dec, sizeof(ref_dec));
    }
    if (tu_failures != 0) {
        printf("# %s key schedule: first failure at key %zu\n", k->name,
               n - 1);
        return 0;
    }
    printf("# %s key schedule: RFC 7801 5.4, %d keys\n", k->name,
           SWEEP_BLOCKS);
    return 1;
}

/*
 * Meshing ahead (gost89_period_ahead) with this level's GOST table, where it
 * runs, over 1..6 periods of CNT and CFB decryption.
 */
static int sweep_ahead(int ct)
{
    const SMG_BLOCK_KERNEL *k = gost89_kernel(ct);
    size_t e, n;

    for (e = 0; e < 2; e++)
        for (n = 1; n <= 6 && tu_failures == 0; n++)
            if (!run_ahead(k, e, n)) {
                printf("# %s: no meshing ahead\n", k->name);
                return 1;
            }
    if (tu_failures != 0) {
        printf("# %s meshing ahead: failed\n", k->name);
        return 0;
    }
    printf("# %s meshing ahead: CNT and CFB decryption, 1..6 periods\n",
           k->name);
    return 1;
}

/*
 * IMIT as the provider runs it at this level (gost89_imit_blocks; gost-mac's
 * meshing every 1024 bytes through this level's table's ECB) against the
 * portable IMIT and meshing: a random key per length, both byte orders,
 * CryptoPro-A and TC26 Z, every length up to SWEEP_BLOCKS blocks in one
 * call without meshing, then in periods meshed between them.
 */
static int sweep_imit(int ct)
{
    const SMG_BLOCK_KERNEL *k = gost89_kernel(ct);
    unsigned char key[GOST89_KEY_SIZE], state[8], ref[8];
    GOST89_KEY enc, dec, renc, rdec;
    size_t n, done, m;
    int be, mesh;

    for (mesh = 0; mesh < 2; mesh++) {
        for (be = 0; be < 2; be++) {
            for (n = 1; n <= SWEEP_BLOCKS && tu_failures == 0; n++) {
                const GOST89_PARAMSET *ps =
                    n & 1 ? &gost89_paramset_cpa : &gost89_paramset_z;

                tu_fill(key, sizeof(key), (uint32_t)(n * 977 + 2 * be + mesh));
                TU_CHECK(gost89_set_key(key, ps, be, &enc, &dec),
                         "gost89_set_key");
                renc = enc;
                rdec = dec;
                tu_fill(in_buf, n * GOST89_BLOCK_SIZE, (uint32_t)n * 7u);
                tu_fill(state, sizeof(state), (uint32_t)n);
                memcpy(ref, state, sizeof(ref));
                for (done = 0; done < n; done += m) {
                    m = n - done;
                    if (mesh && m > PERIOD_BLOCKS)
                        m = PERIOD_BLOCKS;
                    if (done > 0) {
                        gost89_key_mesh(&gost89_kernel_c, &renc, &rdec, NULL);
                        gost89_key_mesh(k, &enc, &dec, NULL);
                    }
                    gost89_c_imit(&renc, ref,
                                  in_buf + done * GOST89_BLOCK_SIZE, m);
                    gost89_imit_blocks(ct, &enc, state,
                                     in_buf + done * GOST89_BLOCK_SIZE, m);
                }
                TU_CHECK_MEM("IMIT matches the portable one", state,
                             sizeof(state), ref, sizeof(ref));
            }
            if (tu_failures != 0) {
                printf("# IMIT (constant-time %d, byte order %d, meshing %d):"
                       " first failure at %zu blocks\n", ct, be, mesh, n - 1);
                return 0;
            }
        }
    }
    printf("# IMIT (constant-time %d, %s meshing): 1..%d blocks, meshed and "
           "not\n", ct, k->name, SWEEP_BLOCKS);
    return 1;
}

/*
 * Streebog's table at this level (streebog_kernel(ct)) against the table
 * kernel: blocks and g over every count up to MAX_BLOCKS (its message
 * buffer's), the chain secret-free here.
 */
static int sweep_streebog(int ct)
{
    const STREEBOG_KERNEL *k = streebog_kernel(ct);
    size_t e, n;

    for (e = 0; e < 2; e++)
        for (n = 1; n <= MAX_BLOCKS && tu_failures == 0; n++)
            run_streebog(k, e, n);
    if (tu_failures != 0) {
        printf("# %s: first failure at %zu blocks\n", k->name, n - 1);
        return 0;
    }
    printf("# %s: blocks and g, 1..%d blocks\n", k->name, MAX_BLOCKS);
    return 1;
}

static int sweep(void)
{
    int ct;
    size_t e, n, j;
    const char *en;

    also_in_place = 1;
    for (ct = 0; ct < 2; ct++) {
        char aead_name[64];
        const target tables[] = {
            { T_SM4, sm4_kernel(ct), NULL, NULL, SWEEP_BLOCKS, NULL },
            { T_SM4_AEAD, sm4_kernel(ct), NULL, aead_name, SWEEP_BLOCKS,
              NULL },
            { T_SM4_COMPOSED, sm4_kernel(ct), NULL, "composed", SWEEP_BLOCKS,
              NULL },
            { T_GOST, gost89_kernel(ct), NULL, NULL, SWEEP_BLOCKS, NULL },
            { T_KUZ, kuznyechik_kernel(ct), NULL, NULL, SWEEP_BLOCKS, NULL },
            { T_MGM, NULL, NULL, smg_mgm_kernel(ct)->name, MAX_BLOCKS, NULL },
        };

        snprintf(aead_name, sizeof(aead_name), "%s+%s", sm4_kernel(ct)->name,
                 sm4_kernel(ct)->gcm->name);

        for (j = 0; j < sizeof(tables) / sizeof(tables[0]); j++) {
            for (e = 0; (en = entry_name(&tables[j], e)) != NULL; e++) {
                if (*en == '\0')
                    continue;
                for (n = 1; n <= tables[j].max && tu_failures == 0; n++)
                    run_one(&tables[j], e, n);
                if (tu_failures != 0) {
                    printf("# %s %s: first failure at %zu blocks\n",
                           target_name(&tables[j]), en, n - 1);
                    return tu_report("sweep");
                }
            }
            printf("# %s: every entry, 1..%zu blocks\n",
                   target_name(&tables[j]), tables[j].max);
        }
        if (!sweep_sm4_keysched(ct) || !sweep_kuz_keysched(ct)
            || !sweep_imit(ct) || !sweep_ahead(ct) || !sweep_streebog(ct))
            return tu_report("sweep");
    }
    return tu_report("sweep");
}

/* ---- the targets, from the families' lists ---- */

/*
 * aarch64's tables run here only under emulation, where valgrind does not;
 * util/ct-asm-check-arm64.pl proves them (80-ct.t).
 */
#define ARM_CAPS                                                             \
    (SMG_CAP_ARM_ASIMD | SMG_CAP_ARM_AES | SMG_CAP_ARM_PMULL                 \
     | SMG_CAP_ARM_SHA2 | SMG_CAP_ARM_SM3 | SMG_CAP_ARM_SM4)

static int ctgrind_table(const SMG_KERNEL_ENTRY *ke)
{
    return (ke->caps & ARM_CAPS) == 0;
}

static int same_block_entries(const SMG_BLOCK_KERNEL *a,
                              const SMG_BLOCK_KERNEL *b)
{
    size_t e;

    if (a->ecb != b->ecb || a->ecb_lone != b->ecb_lone)
        return 0;
    for (e = 1; e < LONE_ENTRY; e++)
        if (chain_entry(a, e) != chain_entry(b, e))
            return 0;
    return 1;
}

static int add_target(const target *t)
{
    if (ntargets == MAX_TARGETS) {
        fprintf(stderr, "ct_check: more than %d targets\n", MAX_TARGETS);
        return 0;
    }
    targets[ntargets++] = *t;
    return 1;
}

/* Whether the AEAD entries of SM4 table i of the list are scanned. */
static int aead_scanned(size_t i)
{
    const SMG_KERNEL_ENTRY *ke = &sm4_kernel_family.kernels[i];

    return ctgrind_table(ke) && ((ke->flags & SMG_KERNEL_CT) != 0
                                 || i + 1 == sm4_kernel_family.nkernels);
}

/*
 * Every table of the SM4, GOST, SM3, Streebog, Kuznyechik and MGM lists
 * that ctgrind is for:
 *  - SM4 block entries once per table name (a tier's tables, one per
 *    GHASH, share them: checked);
 *  - SM4 AEAD entries of every constant-time table and of the portable
 *    one; any other table's (an AES-NI tier's default table: its "-ct"
 *    sibling's but CCM) must each be some scanned table's (checked);
 *  - every GOST, SM3, Streebog, Kuznyechik and MGM table;
 * then the pseudo tables.  0 (said why) if the lists break those rules.
 */
static int build_targets(void)
{
    const SMG_KERNEL_FAMILY *sm4 = &sm4_kernel_family,
        *gost = &gost89_kernel_family, *sm3 = &sm3_kernel_family,
        *stb = &streebog_kernel_family, *kuz = &kuznyechik_kernel_family,
        *mgm = &mgm_kernel_family;
    size_t i, j, e, first_aead;

    for (i = 0; i < sm4->nkernels; i++) {
        const SMG_BLOCK_KERNEL *k = sm4->kernels[i].table;
        const target t = { T_SM4, k, NULL, NULL, MAX_BLOCKS, NULL };

        if (!ctgrind_table(&sm4->kernels[i]))
            continue;
        for (j = 0; j < ntargets && strcmp(targets[j].k->name, k->name); j++)
            continue;
        if (j == ntargets) {
            if (!add_target(&t))
                return 0;
        } else if (!same_block_entries(targets[j].k, k)) {
            fprintf(stderr, "ct_check: the tables named %s differ in their "
                    "block entries\n", k->name);
            return 0;
        }
    }
    first_aead = ntargets;
    for (i = 0; i < sm4->nkernels; i++) {
        target t = { T_SM4_AEAD, sm4->kernels[i].table, NULL, NULL,
                     MAX_BLOCKS, NULL };

        if (!aead_scanned(i) || ntargets == MAX_TARGETS)
            continue;
        sm4->describe(t.k, aead_names[ntargets], sizeof(aead_names[0]));
        t.name = aead_names[ntargets];
        if (!add_target(&t))
            return 0;
    }
    for (i = 0; i < sm4->nkernels; i++) {
        const SMG_BLOCK_KERNEL *k = sm4->kernels[i].table;

        if (aead_scanned(i) || !ctgrind_table(&sm4->kernels[i]))
            continue;
        for (e = 0; e < NAEAD_ENTRIES; e++) {
            const void *fn = aead_entry(k, e);

            for (j = first_aead; fn != NULL && j < ntargets
                 && aead_entry(targets[j].k, e) != fn; j++)
                continue;
            if (fn != NULL && j == ntargets) {
                fprintf(stderr, "ct_check: %s+%s: %s is no scanned table's\n",
                        k->name, k->gcm->name, aead_entries[e]);
                return 0;
            }
        }
    }
    for (i = 0; i < gost->nkernels; i++) {
        const target t = { T_GOST, gost->kernels[i].table, NULL, NULL,
                           MAX_BLOCKS, NULL };

        if (ctgrind_table(&gost->kernels[i]) && !add_target(&t))
            return 0;
    }
    for (i = 0; i < sm3->nkernels; i++) {
        const target t = { T_SM3, NULL, sm3->kernels[i].table, NULL, 6,
                           NULL };

        if (ctgrind_table(&sm3->kernels[i]) && !add_target(&t))
            return 0;
    }
    for (i = 0; i < stb->nkernels; i++) {
        const STREEBOG_KERNEL *k = stb->kernels[i].table;
        const target t = { T_STREEBOG, NULL, NULL, k->name, 4, NULL };

        if (ctgrind_table(&stb->kernels[i]) && !add_target(&t))
            return 0;
    }
    for (i = 0; i < kuz->nkernels; i++) {
        const target t = { T_KUZ, kuz->kernels[i].table, NULL, NULL,
                           KUZ_SCAN_BLOCKS, NULL };

        if (ctgrind_table(&kuz->kernels[i]) && !add_target(&t))
            return 0;
    }
    for (i = 0; i < mgm->nkernels; i++) {
        const SMG_MGM_KERNEL *k = mgm->kernels[i].table;
        const target t = { T_MGM, NULL, NULL, k->name, MAX_BLOCKS, NULL };

        if (ctgrind_table(&mgm->kernels[i]) && !add_target(&t))
            return 0;
    }
    for (i = 0; i < NPSEUDO; i++)
        if (!add_target(&pseudo_targets[i]))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    size_t i, e;
    const char *en;

    if (!build_targets())
        return 1;
    if (argc == 2 && strcmp(argv[1], "targets") == 0) {
        for (i = 0; i < NTARGETS; i++) {
            const target *t = &targets[i];
            char want[64];

            /* an AEAD target is named after its two tables */
            if (t->kind == T_SM4_AEAD) {
                snprintf(want, sizeof(want), "%s+%s", t->k->name,
                         t->k->gcm->name);
                if (strcmp(want, t->name) != 0) {
                    fprintf(stderr, "ct_check: target %s holds %s\n",
                            t->name, want);
                    return 1;
                }
            }
            printf("%s", target_name(&targets[i]));
            for (e = 0; (en = entry_name(&targets[i], e)) != NULL; e++)
                if (*en != '\0')
                    printf(" %s", en);
            printf("\n");
        }
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "scan") == 0)
        return scan(argv[2], atoi(argv[3]));
    if (argc == 2 && strcmp(argv[1], "sweep") == 0)
        return sweep();
    fprintf(stderr, "usage: ct_check targets | scan TABLE CODE | sweep\n");
    return 2;
}
