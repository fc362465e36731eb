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
 * gost89-keysched, which mark the raw key and run only the schedule.  gost89-imit-* are the IMIT implementations; each GOST table
 * also has the entry "mesh", key meshing through its ECB (twice, so that
 * the second runs under a meshed key).
 */
#include "testutil.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gost89.h"
#include "gost89_x86.h"
#include "sm3.h"
#include "sm3_x86.h"
#include "sm4.h"
#include "sm4_x86.h"

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

static unsigned char in_buf[MAX_BLOCKS * 64], out_buf[SWEEP_BLOCKS * 16],
    ref_buf[SWEEP_BLOCKS * 16];
/* The sweep runs each entry in place too. */
static int also_in_place;

static void fill(unsigned char *p, size_t n, uint32_t seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

/* ---- the tables ---- */

typedef enum {
    T_SM4, T_GOST, T_SM3, T_SM4_KEYSCHED, T_GOST_KEYSCHED, T_GOST_IMIT
} target_kind;

typedef struct {
    target_kind kind;
    const SMG_BLOCK_KERNEL *k;       /* T_SM4, T_GOST */
    const SM3_KERNEL *k3;            /* T_SM3 */
    const char *name;                /* pseudo tables only */
    size_t max;                      /* largest block count (or key count) */
    /* T_GOST_IMIT: the implementation */
    void (*imit)(const GOST_KEY *, unsigned char *, const unsigned char *,
                 size_t);
} target;

static const target targets[] = {
    { T_SM4, &sm4_kernel_c, NULL, NULL, MAX_BLOCKS, NULL },
#ifdef SM4_X86_ASM
    { T_SM4, &sm4_kernel_gfni_avx512, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_gfni_avx2, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_vaes_avx2, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_aesni_avx2, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_aesni_avx, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_vaes_avx2_ct, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_aesni_avx2_ct, NULL, NULL, MAX_BLOCKS, NULL },
    { T_SM4, &sm4_kernel_aesni_avx_ct, NULL, NULL, MAX_BLOCKS, NULL },
#endif
    { T_GOST, &gost_kernel_c, NULL, NULL, MAX_BLOCKS, NULL },
#ifdef GOST_X86_ASM
    { T_GOST, &gost_kernel_scalar, NULL, NULL, MAX_BLOCKS, NULL },
#endif
#ifdef GOST_X86_SIMD
    { T_GOST, &gost_kernel_avx512, NULL, NULL, MAX_BLOCKS, NULL },
    { T_GOST, &gost_kernel_avx512_ct, NULL, NULL, MAX_BLOCKS, NULL },
    { T_GOST, &gost_kernel_avx2, NULL, NULL, MAX_BLOCKS, NULL },
    { T_GOST, &gost_kernel_avx2_ct, NULL, NULL, MAX_BLOCKS, NULL },
#endif
    { T_SM3, NULL, &sm3_kernel_c, NULL, 6, NULL },
#ifdef SM3_X86_ASM
    { T_SM3, NULL, &sm3_kernel_avx_bmi2, NULL, 6, NULL },
#endif
    { T_SM4_KEYSCHED, &sm4_kernel_c, NULL, "sm4-keysched-c", 3, NULL },
#ifdef SM4_X86_ASM
    { T_SM4_KEYSCHED, &sm4_kernel_gfni_avx2, NULL, "sm4-keysched-gfni", 3,
      NULL },
    { T_SM4_KEYSCHED, &sm4_kernel_aesni_avx, NULL, "sm4-keysched-aesni", 3,
      NULL },
#endif
    { T_GOST_KEYSCHED, NULL, NULL, "gost89-keysched", 3, NULL },
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-c", 20, gost_imit_blocks_c },
#ifdef GOST_X86_ASM
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-scalar", 20, gost89_imit_scalar },
#endif
#ifdef GOST_X86_SIMD
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-avx512", 20, gost89_imit_avx512 },
    { T_GOST_IMIT, NULL, NULL, "gost89-imit-avx2", 20, gost89_imit_avx2 },
#endif
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

static const char *target_name(const target *t)
{
    switch (t->kind) {
    case T_SM4:
    case T_GOST:
        return t->k->name;
    case T_SM3:
        return t->k3->name;
    default:
        return t->name;
    }
}

static const char *const block_entries[] = {
    "ecb", "cbc_enc", "cbc_dec", "cfb_enc", "cfb_dec", "ofb", "ctr", "cnt"
};
#define NBLOCK_ENTRIES (sizeof(block_entries) / sizeof(block_entries[0]))

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
        if (t->kind == T_GOST && e == MESH_ENTRY)
            return "mesh";
        if (e >= NBLOCK_ENTRIES)
            return NULL;
        if (e > 0 && chain_entry(t->k, e) == NULL)
            return "";
        return block_entries[e];
    case T_SM3:
        return e == 0 ? "blocks" : NULL;
    case T_SM4_KEYSCHED:
    case T_GOST_KEYSCHED:
        return e == 0 ? "set_key" : NULL;
    case T_GOST_IMIT:
        return e == 0 ? "imit" : NULL;
    }
    return NULL;
}

/* ---- one run of one entry over n blocks, secrets marked ---- */

/*
 * The reference result comes from the portable kernel on public data; then
 * kernel k runs with the schedule (its first ks_len bytes), the chaining
 * block and the input secret.  ECB runs both directions; CBC decryption is
 * the only entry that takes the decryption schedule.
 */
/* Entry e of k (0: ECB) over n blocks; iv is not touched by ECB. */
static void call_entry(const SMG_BLOCK_KERNEL *k, size_t e, const void *ks,
                       const unsigned char *in, unsigned char *out, size_t n,
                       unsigned char *iv)
{
    if (e == 0)
        k->ecb(ks, in, out, n);
    else
        chain_entry(k, e)(ks, in, out, n, iv);
}

static void run_block_entry(const SMG_BLOCK_KERNEL *k,
                            const SMG_BLOCK_KERNEL *ref, size_t e,
                            const void *enc, const void *dec, size_t ks_len,
                            size_t bs, size_t n)
{
    unsigned char iv[16], iv_ref[16], iv0[16];
    int dir;

    fill(in_buf, n * bs, (uint32_t)(n * 31 + e));
    fill(iv0, bs, (uint32_t)n + 7u);
    for (dir = 0; dir < (e == 0 ? 2 : 1); dir++) {
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
        if (e != 0)
            TU_CHECK_MEM("chaining block matches the portable kernel", iv, bs,
                         iv_ref, bs);
        if (!also_in_place)
            continue;
        memcpy(out_buf, in_buf, n * bs);
        memcpy(iv, iv0, bs);
        call_entry(k, e, ks, out_buf, out_buf, n, iv);
        TU_CHECK_MEM("in place: output matches the portable kernel",
                     out_buf, n * bs, ref_buf, n * bs);
        if (e != 0)
            TU_CHECK_MEM("in place: chaining block matches", iv, bs, iv_ref,
                         bs);
    }
}

static const unsigned char sm4_key0[SM4_KEY_SIZE] = "ctgrind-sm4-key";
static const unsigned char gost_key0[GOST_KEY_SIZE] =
    "ctgrind-gost-key-of-32-bytes-xx";

/* GOST runs in both byte orders: GOST 28147-89 and Magma. */
static void run_gost(const target *t, size_t e, size_t n)
{
    unsigned char key[GOST_KEY_SIZE], state[8], iv[8];
    GOST_KEY enc, dec;
    int be;

    memcpy(key, gost_key0, sizeof(key));
    for (be = 0; be < 2; be++) {
        if (t->kind == T_GOST_KEYSCHED) {
            key[0] = (unsigned char)n;
            CT_SECRET(key, sizeof(key));
            TU_CHECK(gost_set_key(key, &gost_paramset_z, be, &enc, &dec),
                     "gost_set_key");
            CT_PUBLIC(key, sizeof(key));
            CT_PUBLIC(&enc, sizeof(enc));
            CT_PUBLIC(&dec, sizeof(dec));
            continue;
        }
        TU_CHECK(gost_set_key(key, &gost_paramset_z, be, &enc, &dec),
                 "gost_set_key");
        /* Only rk is secret: the table pointer and byte order are public. */
        if (t->kind == T_GOST_IMIT) {
            unsigned char ref[8];

            fill(in_buf, n * GOST_BLOCK_SIZE, (uint32_t)n);
            fill(state, sizeof(state), (uint32_t)n + 3u);
            memcpy(ref, state, sizeof(ref));
            gost_imit_blocks_c(&enc, ref, in_buf, n);
            CT_SECRET(enc.rk, sizeof(enc.rk));
            CT_SECRET(in_buf, n * GOST_BLOCK_SIZE);
            CT_SECRET(state, sizeof(state));
            t->imit(&enc, state, in_buf, n);
            CT_PUBLIC(enc.rk, sizeof(enc.rk));
            CT_PUBLIC(in_buf, n * GOST_BLOCK_SIZE);
            CT_PUBLIC(state, sizeof(state));
            TU_CHECK_MEM("IMIT state matches the portable one", state,
                         sizeof(state), ref, sizeof(ref));
            continue;
        }
        if (e == MESH_ENTRY) {
            GOST_KEY renc, rdec;
            unsigned char riv[8];

            /* a key of its own per count, meshed twice */
            key[0] = (unsigned char)n;
            TU_CHECK(gost_set_key(key, &gost_paramset_z, be, &enc, &dec),
                     "gost_set_key");
            renc = enc;
            rdec = dec;
            fill(iv, sizeof(iv), (uint32_t)n);
            memcpy(riv, iv, sizeof(riv));
            gost_key_mesh(&gost_kernel_c, &renc, &rdec, riv);
            gost_key_mesh(&gost_kernel_c, &renc, &rdec, riv);
            CT_SECRET(enc.rk, sizeof(enc.rk));
            CT_SECRET(dec.rk, sizeof(dec.rk));
            CT_SECRET(iv, sizeof(iv));
            gost_key_mesh(t->k, &enc, &dec, iv);
            gost_key_mesh(t->k, &enc, &dec, iv);
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
            /* rk is first in GOST_KEY (src/gost89_x86.c asserts it) */
            run_block_entry(t->k, &gost_kernel_c, e, &enc, &dec,
                            sizeof(enc.rk), GOST_BLOCK_SIZE, n);
        }
    }
}

static void check_sm4_schedules(const SM4_KEY *enc, const SM4_KEY *dec,
                                const SM4_KEY *ref_enc, const SM4_KEY *ref_dec)
{
    TU_CHECK_MEM("SM4 encryption schedule matches the C one",
                 (const unsigned char *)enc->rk, sizeof(enc->rk),
                 (const unsigned char *)ref_enc->rk, sizeof(ref_enc->rk));
    TU_CHECK_MEM("SM4 decryption schedule matches the C one",
                 (const unsigned char *)dec->rk, sizeof(dec->rk),
                 (const unsigned char *)ref_dec->rk, sizeof(ref_dec->rk));
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
        sm4_set_key_kernel(t->k, key, &enc, &dec);
        CT_PUBLIC(key, sizeof(key));
        CT_PUBLIC(&enc, sizeof(enc));
        CT_PUBLIC(&dec, sizeof(dec));
        check_sm4_schedules(&enc, &dec, &ref_enc, &ref_dec);
        break;
    case T_SM4:
        sm4_set_key(sm4_key0, &enc, &dec);
        run_block_entry(t->k, &sm4_kernel_c, e, &enc, &dec, sizeof(enc),
                        SM4_BLOCK_SIZE, n);
        break;
    case T_SM3:
        fill(in_buf, n * SM3_BLOCK_SIZE, (uint32_t)n);
        fill((unsigned char *)st, sizeof(st), 99u);
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
 * The SM4 key schedule of this level's table, over random keys, against the
 * C one.
 */
static int sweep_sm4_keysched(int ct)
{
    const SMG_BLOCK_KERNEL *k = sm4_kernel(ct);
    unsigned char key[SM4_KEY_SIZE];
    SM4_KEY enc, dec, ref_enc, ref_dec;
    size_t n;

    for (n = 1; n <= SWEEP_BLOCKS && tu_failures == 0; n++) {
        fill(key, sizeof(key), (uint32_t)n * 2654435761u);
        sm4_set_key(key, &ref_enc, &ref_dec);
        sm4_set_key_kernel(k, key, &enc, &dec);
        check_sm4_schedules(&enc, &dec, &ref_enc, &ref_dec);
    }
    if (tu_failures != 0) {
        printf("# %s key schedule: first failure at key %zu\n", k->name,
               n - 1);
        return 0;
    }
    printf("# %s key schedule: %d keys\n", k->name, SWEEP_BLOCKS);
    return 1;
}

/* IMIT as the provider runs it at this level, against the portable one. */
static int sweep_imit(int ct)
{
    unsigned char state[8], ref[8];
    GOST_KEY enc, dec;
    size_t n;
    int be;

    for (be = 0; be < 2; be++) {
        TU_CHECK(gost_set_key(gost_key0, &gost_paramset_cpa, be, &enc, &dec),
                 "gost_set_key");
        for (n = 1; n <= SWEEP_BLOCKS && tu_failures == 0; n++) {
            fill(in_buf, n * GOST_BLOCK_SIZE, (uint32_t)n * 7u);
            fill(state, sizeof(state), (uint32_t)n);
            memcpy(ref, state, sizeof(ref));
            gost_imit_blocks_c(&enc, ref, in_buf, n);
            gost_imit_blocks(ct, &enc, state, in_buf, n);
            TU_CHECK_MEM("IMIT matches the portable one", state,
                         sizeof(state), ref, sizeof(ref));
        }
        if (tu_failures != 0) {
            printf("# IMIT (constant-time %d, byte order %d): first failure "
                   "at %zu blocks\n", ct, be, n - 1);
            return 0;
        }
    }
    printf("# IMIT (constant-time %d): 1..%d blocks\n", ct, SWEEP_BLOCKS);
    return 1;
}

static int sweep(void)
{
    int ct;
    size_t e, n, j;
    const char *en;

    also_in_place = 1;
    for (ct = 0; ct < 2; ct++) {
        const target tables[] = {
            { T_SM4, sm4_kernel(ct), NULL, NULL, SWEEP_BLOCKS, NULL },
            { T_GOST, gost_kernel(ct), NULL, NULL, SWEEP_BLOCKS, NULL },
        };

        for (j = 0; j < sizeof(tables) / sizeof(tables[0]); j++) {
            for (e = 0; (en = entry_name(&tables[j], e)) != NULL; e++) {
                if (*en == '\0')
                    continue;
                for (n = 1; n <= SWEEP_BLOCKS && tu_failures == 0; n++)
                    run_one(&tables[j], e, n);
                if (tu_failures != 0) {
                    printf("# %s %s: first failure at %zu blocks\n",
                           target_name(&tables[j]), en, n - 1);
                    return tu_report("sweep");
                }
            }
            printf("# %s: every entry, 1..%d blocks\n",
                   target_name(&tables[j]), SWEEP_BLOCKS);
        }
        if (!sweep_sm4_keysched(ct) || !sweep_imit(ct))
            return tu_report("sweep");
    }
    return tu_report("sweep");
}

int main(int argc, char **argv)
{
    size_t i, e;
    const char *en;

    if (argc == 2 && strcmp(argv[1], "targets") == 0) {
        for (i = 0; i < NTARGETS; i++) {
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
