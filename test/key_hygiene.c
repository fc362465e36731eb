/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Key hygiene: no block smgost frees may still hold a key, a key schedule
 * (meshed ones included) or key-derived HMAC state, and a context that was
 * re-keyed, re-initialised or reset may not keep what it no longer uses.
 *
 * The allocator hook (memhook.h) scans every block as it is freed for
 * windows of the secrets registered below: the raw keys, their schedules
 * as src/sm4.h, src/gost89.h and src/kuznyechik.h lay them out (computed
 * with the module's own sm4_set_key, gost89_set_key, gost89_key_mesh and
 * kuznyechik_set_key_kernel from libsmgost.a), SM3's and Streebog's
 * chaining values after HMAC's padded key blocks, secret data hashed with
 * SM3 and Streebog, and SM4-GCM's GHASH tables.
 *
 * A window found must be a copy, never chance, so each carries at least 64
 * bits of a random secret: 8 bytes of a key, of H, of SM3 state, or two
 * round keys (not GOST's rk[23..24], K7 twice: 32 bits); and for a GHASH
 * table 64 bytes every 8 bytes, since its words carry less.  The portable
 * table (src/ghash.c) holds each of H x^-1's halves and their XOR as four
 * masked words of 15 bits and four masks of one bit each, so one word is
 * zero once in 2^15 keys and then matched every cleansed block (the false
 * alarms of issue 24: "held portable GHASH table of key 2" in a block
 * OPENSSL_clear_free had zeroed, or key 1's words in key 2's table after a
 * re-key); any 8 words in a row of it hold 64 independent bits.  The
 * PCLMULQDQ tables hold powers of H, 128 bits each.  A run registers at
 * most 6,275 windows (gost) and scans under 700,000 positions (measured
 * for every group), so a chance match has a probability below
 * 2^13 * 2^20 * 2^-64 = 2^-31 a run.  A GHASH table left whole, or any 72
 * bytes in a row of it, is still found.
 *
 * Whose block it is: OPENSSL_malloc passes OPENSSL_FILE, the __FILE__
 * literal of its caller, which lies in the read-only data of the calling
 * object; dladdr() names that object (mh_from_object).  Only blocks
 * allocated from smgost.so are held to the rule; hits in libcrypto's own
 * blocks (the default provider's HMAC keeps its key, for one) are
 * counted and shown, not failed.
 *
 * Each scenario also scans the live blocks: right after an init the key
 * must be found in one of smgost's blocks (so the scanner and the
 * attribution demonstrably work), and after a re-key, a re-init that
 * undoes key meshing, or a reset, what was retired must be found nowhere.
 *
 * SM4-GCM also registers its hash key H = E_K(0), as bytes and as the
 * GHASH tables lay it out (add_ghash_tables); SM4-XTS the schedules of both
 * halves; magma-ctr-acpkm the keys and schedules of its later ACPKM
 * sections (add_acpkm_magma), which a re-init must drop as it drops
 * CryptoPro's meshed ones, and kuznyechik-ctr-acpkm likewise (its
 * sections set to 1024 bytes); magma-mac and kuznyechik-mac the OMAC
 * subkeys K1 and K2; the CTR-ACPKM-OMAC ciphers the two keys their KDF
 * derives, with K_ctr's schedule and K_mac's OMAC schedule and subkeys.
 *
 * With -plant every registered secret is then leaked on purpose (plant()),
 * and each must be reported: test/87-key-hygiene.t checks that the check
 * sees what it is meant to see.
 *
 *   key_hygiene [-plant] sm4|aead|gost|magma|kuznyechik|omac|mac|hmac|
 *               sm3|hmac-streebog|streebog|gost94 [seed]
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "memhook.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "digest.h"
#include "gost89.h"
#include "kdf_tree.h"
#include "kuznyechik.h"
#include "prov.h"
#include "sm3.h"
#include "gost94.h"
#include "sm4.h"
#include "streebog.h"

#define PROPQ "provider=smgost"
/* Two key meshings (every 1024 bytes), whole SM4 and GOST blocks. */
#define MSG_LEN 2496
#define MAX_OUT (MSG_LEN + 64)
#define MESHES 3

/* ---- Registered secrets: groups of windows in a hash table ---- */

#define MAX_GROUPS 1024
#define TABLE_BITS 17
#define POOL_SIZE (1u << 18)

typedef struct {
    char label[80];
    int key;                    /* the key (or secret) it derives from */
    int retired;                /* nothing may hold it any more */
    size_t off, len;            /* the secret's bytes in pool */
    size_t wlen, step;          /* its windows' length and spacing */
} GROUP;

static GROUP groups[MAX_GROUPS];
static int ngroups, nkeys;
/* Copies of the secrets: windows are compared against them, and -plant
 * leaks them. */
static unsigned char pool[POOL_SIZE];
static size_t pool_used;

/*
 * A window: len bytes of a group's secret at pool + off, found through
 * the 8-byte word at anchor bytes into it (v).
 */
typedef struct {
    uint64_t v;
    int group;                  /* -1: empty */
    unsigned int off, len, anchor;
} SLOT;

static SLOT table[1u << TABLE_BITS];
static size_t nslots;

static uint64_t load64(const unsigned char *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static size_t slot_of(uint64_t v)
{
    return (size_t)((v * 0x9e3779b97f4a7c15ULL) >> (64 - TABLE_BITS));
}

static int new_group(int key, const void *secret, size_t len,
                     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A group for the len bytes of secret, copied; no windows yet. */
static int new_group(int key, const void *secret, size_t len,
                     const char *fmt, ...)
{
    GROUP *g = &groups[ngroups];
    va_list ap;

    if (ngroups == MAX_GROUPS || len > POOL_SIZE - pool_used) {
        fprintf(stderr, "too many secrets\n");
        exit(2);
    }
    va_start(ap, fmt);
    vsnprintf(g->label, sizeof(g->label), fmt, ap);
    va_end(ap);
    g->key = key;
    g->off = pool_used;
    g->len = len;
    memcpy(pool + pool_used, secret, len);
    pool_used += len;
    return ngroups++;
}

/*
 * Windows of len bytes of the group's secret starting at from, from +
 * step, ... up to to; duplicates allowed.  Each is looked up by its first
 * 8-byte word at a multiple of 8 into it that is neither all zeros nor all
 * ones (its last word if none is): memory is full of those two, and the
 * window would be compared at every place they fill.
 */
static void add_windows(int group, size_t from, size_t to, size_t len,
                        size_t step)
{
    const unsigned char *b = pool + groups[group].off;
    size_t i, s, a;

    for (i = from; i + len <= to; i += step) {
        if (nslots + 1 >= (1u << TABLE_BITS) / 2) {
            fprintf(stderr, "secret table full\n");
            exit(2);
        }
        for (a = 0; a + 8 < len; a += 8)
            if (load64(b + i + a) != 0 && load64(b + i + a) != ~0ULL)
                break;
        for (s = slot_of(load64(b + i + a)); table[s].group >= 0;
             s = (s + 1) & ((1u << TABLE_BITS) - 1))
            continue;
        table[s].v = load64(b + i + a);
        table[s].group = group;
        table[s].off = (unsigned int)(groups[group].off + i);
        table[s].len = (unsigned int)len;
        table[s].anchor = (unsigned int)a;
        nslots++;
    }
    groups[group].wlen = len;
    groups[group].step = step;
}

/*
 * Calls found(group) for every window found in p[0, n), once for each place
 * it is found; stops early when found returns 0.
 */
static void scan(const unsigned char *p, size_t n, int (*found)(int, void *),
                 void *arg)
{
    size_t i, s;

    for (i = 0; i + 8 <= n; i++) {
        uint64_t v = load64(p + i);

        for (s = slot_of(v); table[s].group >= 0;
             s = (s + 1) & ((1u << TABLE_BITS) - 1)) {
            const SLOT *t = &table[s];

            if (t->v == v && i >= t->anchor
                && i - t->anchor + t->len <= n
                && memcmp(p + i - t->anchor, pool + t->off, t->len) == 0
                && !found(t->group, arg))
                return;
        }
    }
}

/* ---- The secrets of each algorithm ---- */

typedef struct {
    unsigned char key[100];
    size_t keylen;
    int id;
} KEY;

static KEY new_key(TU_RNG *r, size_t len)
{
    KEY k;

    k.keylen = len;
    k.id = nkeys++;
    tu_rng_bytes(r, k.key, len);
    add_windows(new_group(k.id, k.key, len, "key %d (%zu bytes)", k.id, len),
                0, len, 8, 1);
    return k;
}

static void add_sm4(const KEY *k)
{
    SM4_KEY enc, dec;

    sm4_set_key(k->key, &enc, &dec);
    add_windows(new_group(k->id, enc.rk, sizeof(enc.rk),
                          "SM4 encryption schedule of key %d", k->id),
                0, sizeof(enc.rk), 8, 4);
    add_windows(new_group(k->id, dec.rk, sizeof(dec.rk),
                          "SM4 decryption schedule of key %d", k->id),
                0, sizeof(dec.rk), 8, 4);
}

/*
 * A GOST schedule's windows, pairs of round keys, but for the one over
 * rk[23] and rk[24]: K7 twice (gost89_schedule, src/gost89.c), so 32 bits of
 * the key, not 64.
 */
static void gost89_windows(int g)
{
    add_windows(g, 0, 24 * 4, 8, 4);
    add_windows(g, 24 * 4, 32 * 4, 8, 4);
}

/*
 * Both byte orders' schedules, and for GOST 28147-89 order the schedules
 * after 1..MESHES meshings under every parameter set (meshing encrypts
 * with the S-boxes, so it depends on the set).  Returns the first meshed
 * group; they run to the last group made.
 */
static int add_gost(const KEY *k)
{
    GOST89_KEY enc, dec;
    int be, i, m, first_mesh = -1;

    for (be = 0; be < 2; be++) {
        if (!gost89_set_key(k->key, &gost89_paramset_z, be, &enc, &dec)) {
            fprintf(stderr, "gost89_set_key failed\n");
            exit(2);
        }
        gost89_windows(new_group(k->id, enc.rk, sizeof(enc.rk),
                               "GOST %s schedule of key %d",
                               be ? "Magma-order" : "28147-89", k->id));
    }
    for (i = 0; gost89_paramsets[i] != NULL; i++) {
        gost89_set_key(k->key, gost89_paramsets[i], 0, &enc, &dec);
        for (m = 1; m <= MESHES; m++) {
            int g;

            gost89_key_mesh(&gost89_kernel_c, &enc, &dec, NULL);
            g = new_group(k->id, enc.rk, sizeof(enc.rk),
                          "key %d meshed %d times under %s", k->id, m,
                          gost89_paramsets[i]->short_name);
            gost89_windows(g);
            if (first_mesh < 0)
                first_mesh = g;
        }
    }
    /* The decryption schedule is the encryption one reversed: in the
     * windows above only as pairs of words in the other order. */
    return first_mesh;
}

/*
 * Kuznyechik's schedule (src/kuznyechik.h): the ten round keys, which both
 * schedules hold, and the table kernel's decryption keys L^-1(K_i).
 */
static void add_kuznyechik(const KEY *k)
{
    KUZNYECHIK_KEY enc, dec;

    if (!kuznyechik_set_key_kernel(&kuznyechik_kernel_c, k->key, &enc,
                                   &dec)) {
        fprintf(stderr, "kuznyechik_set_key_kernel failed\n");
        exit(2);
    }
    add_windows(new_group(k->id, enc.rk[0], sizeof(enc.rk),
                          "Kuznyechik round keys of key %d", k->id),
                0, sizeof(enc.rk), 8, 4);
    add_windows(new_group(k->id, dec.drk[0], sizeof(dec.drk),
                          "Kuznyechik decryption keys of key %d", k->id),
                0, sizeof(dec.drk), 8, 4);
}

/*
 * A digest HMAC runs over: its EVP name, smgost's table and portable
 * kernel (to compute the state HMAC's digest contexts keep), and where in
 * that state its chaining value lies.
 */
typedef struct {
    const char *name;
    const SMG_DIGEST *md;
    const void *kernel;
    size_t h_off, h_len;
} HMAC_DIGEST;

static const HMAC_DIGEST hmac_sm3 = {
    "SM3", &smg_sm3_digest, &sm3_kernel_c, offsetof(SM3_STATE, h),
    sizeof(((SM3_STATE *)0)->h)
};
/*
 * Streebog's N and Sigma after the padded key block are 512 and that block
 * (registered as such): its h is the state's secret.
 */
#define STREEBOG_H_SIZE sizeof(((STREEBOG_STATE *)0)->chain.h)
static const HMAC_DIGEST hmac_streebog[2] = {
    { "md_gost12_256", &smg_streebog256_digest, &streebog_kernel_c,
      offsetof(STREEBOG_STATE, chain.h), STREEBOG_H_SIZE },
    { "md_gost12_512", &smg_streebog512_digest, &streebog_kernel_c,
      offsetof(STREEBOG_STATE, chain.h), STREEBOG_H_SIZE },
};
/* md_gost94's init takes the GOST 28147-89 table it runs beside; its
 * Sigma after a padded block is that block itself. */
static const HMAC_DIGEST hmac_gost94 = {
    "md_gost94", &smg_gost94_digest, &gost89_kernel_c,
    offsetof(GOST94_STATE, h), sizeof(((GOST94_STATE *)0)->h)
};

/*
 * HMAC (RFC 2104) over d: K' = K, or d(K) beyond a block; the padded
 * blocks K' ^ ipad and K' ^ opad (where K' reaches); the chaining values
 * after each (d's h_len bytes at h_off: SM3's V, Streebog's h, GOST
 * R 34.11-94's H), which is what the digest contexts inside HMAC keep.
 */
static void add_hmac(const KEY *k, const HMAC_DIGEST *d)
{
    unsigned char kk[SMG_DIGEST_MAX_BLOCK] = { 0 }, pad[SMG_DIGEST_MAX_BLOCK];
    size_t kl = k->keylen, bs = d->md->block_size, i;
    SMG_DIGEST_CTX c;
    const unsigned char *h = (const unsigned char *)smg_digest_state(&c)
                             + d->h_off;
    int which;

    if (kl > bs) {
        smg_digest_init(&c, d->md, d->kernel);
        smg_digest_update(&c, d->md, k->key, kl);
        smg_digest_final(&c, d->md, kk);
        kl = d->md->digest_size;
        add_windows(new_group(k->id, kk, kl, "%s of key %d", d->name,
                              k->id), 0, kl, 8, 1);
    } else {
        memcpy(kk, k->key, kl);
    }
    for (which = 0; which < 2; which++) {
        const char *name = which ? "opad" : "ipad";

        for (i = 0; i < bs; i++)
            pad[i] = kk[i] ^ (which ? 0x5c : 0x36);
        add_windows(new_group(k->id, pad, kl, "key %d ^ %s", k->id, name), 0,
                    kl, 8, 1);
        smg_digest_init(&c, d->md, d->kernel);
        smg_digest_update(&c, d->md, pad, bs);
        add_windows(new_group(k->id, h, d->h_len, "%s state after key %d ^ %s",
                              d->name, k->id, name),
                    0, d->h_len, 8, 4);
    }
}

static void retire(int key)
{
    int g;

    for (g = 0; g < ngroups; g++)
        if (groups[g].key == key)
            groups[g].retired = 1;
}

static void retire_groups(int from, int to)
{
    for (; from < to; from++)
        groups[from].retired = 1;
}

/* ---- What the hook finds ---- */

static unsigned long smgost_freed, smgost_hits, other_hits, control_hits;
static int last_other_hit = -1;

/* Decided at allocation: a leak is looked for after the unload. */
static int from_smgost(const char *file)
{
    return mh_from_object(file, "smgost.so");
}

static int smgost_block(const MH_BLOCK *b)
{
    return b->cls;
}

/* A block being freed: its number, and whether it was found to hold any. */
typedef struct {
    const MH_BLOCK *b;
    unsigned long serial;
    int held;
} FREEING;

/* The number of the last block each group was reported in. */
static unsigned long nfreeing, reported[MAX_GROUPS];

/*
 * A block of smgost's: each secret it holds reported once.  Another's:
 * counted, with the first secret seen.  The report (ERR_print_errors_fp)
 * may free blocks, whose scans run inside this one: hence the number in f.
 */
static int report_freed(int group, void *arg)
{
    FREEING *f = arg;

    if (!smgost_block(f->b)) {
        other_hits++;
        last_other_hit = group;
        return 0;
    }
    if (reported[group] != f->serial) {
        reported[group] = f->serial;
        smgost_hits += !f->held;
        f->held = 1;
        tu_check(0, f->b->where, f->b->line, "a %zu-byte block freed by "
                 "smgost held %s", f->b->size, groups[group].label);
    }
    return 1;
}

static void on_free(const MH_BLOCK *b, const unsigned char *p)
{
    FREEING f = { b, ++nfreeing, 0 };

    if (smgost_block(b))
        smgost_freed++;
    scan(p, b->size, report_freed, &f);
}

typedef struct {
    int key, from, to;          /* count groups of key, or in [from, to) */
    int hit;
} QUERY;

static int match_query(int group, void *arg)
{
    QUERY *q = arg;

    if (q->key >= 0 ? groups[group].key == q->key
                    : group >= q->from && group < q->to) {
        q->hit = 1;
        return 0;
    }
    return 1;
}

/* Number of live smgost blocks holding a secret of the query. */
static int live_blocks_with(QUERY q)
{
    const MH_BLOCK *b;
    int n = 0;

    for (b = mh_live.next; b != &mh_live; b = b->next) {
        if (!smgost_block(b))
            continue;
        q.hit = 0;
        scan((const unsigned char *)(b + 1), b->size, match_query, &q);
        n += q.hit;
    }
    return n;
}

static int live_with_key(int key)
{
    QUERY q = { key, 0, 0, 0 };

    return live_blocks_with(q);
}

static int live_with_groups(int from, int to)
{
    QUERY q = { -1, from, to, 0 };

    return live_blocks_with(q);
}

/* ---- Scenarios ---- */

static OSSL_LIB_CTX *lib;
static unsigned char msg[MSG_LEN];
static TU_RNG rng;

static int cipher_run(EVP_CIPHER_CTX *ctx, unsigned char *out)
{
    int l, l2;

    return EVP_CipherUpdate(ctx, out, &l, msg, MSG_LEN)
           && EVP_CipherFinal_ex(ctx, out + l, &l2);
}

/*
 * ctx initialised for encryption under k: the key must then be found (else
 * the scanner or the attribution is broken and every later check vacuous).
 */
static int init_found(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *ci, const KEY *k,
                      const unsigned char *iv, const char *name)
{
    if (!TU_CHECK(ci != NULL && ctx != NULL
                  && EVP_CipherInit_ex2(ctx, ci, k->key, iv, 1, NULL),
                  "%s: init", name))
        return 0;
    TU_CHECK(live_with_key(k->id) > 0, "%s: right after init no smgost "
             "block holds the key (scanner or attribution broken)", name);
    return 1;
}

/* After a re-key from key 1 to key 2: key 1 held nowhere, key 2 somewhere. */
static void rekeyed(const char *name, int key1, int key2)
{
    retire(key1);
    TU_CHECK(live_with_key(key1) == 0, "%s: key 1 is still held after the "
             "context was re-keyed", name);
    TU_CHECK(live_with_key(key2) > 0, "%s: key 2 not found after re-key",
             name);
}

/* A copy of ctx made and freed; with reset, ctx is reset while it lives. */
static void copy_freed(EVP_CIPHER_CTX *ctx, const char *name,
                       const char *what, int reset)
{
    EVP_CIPHER_CTX *copy = EVP_CIPHER_CTX_new();

    TU_CHECK(copy != NULL && EVP_CIPHER_CTX_copy(copy, ctx), "%s: %s", name,
             what);
    if (reset)
        TU_CHECK(EVP_CIPHER_CTX_reset(ctx), "%s: reset", name);
    EVP_CIPHER_CTX_free(copy);
}

/*
 * A cipher context's end: a copy of ctx made, ctx reset, the copy freed;
 * then nothing may hold key (ctx itself, reset, holds no key either).
 */
static void copy_reset_free(EVP_CIPHER_CTX *ctx, const char *name, int key)
{
    copy_freed(ctx, name, "second copy", 1);
    retire(key);
    TU_CHECK(live_with_key(key) == 0, "%s: key 2 is still held after "
             "reset and free", name);
}

static const char *const sm4_names[] = {
    "SM4-ECB", "SM4-CBC", "SM4-CFB", "SM4-OFB", "SM4-CTR", NULL
};
static const char *const gost89_names[] = {
    "gost89", "gost89-cnt", "gost89-cnt-12", "gost89-cbc", "gost89-ecb", NULL
};
static const char *const magma_names[] = {
    "magma-ecb", "magma-cbc", "magma-ctr", "magma-ofb", "magma-cfb",
    "magma-ctr-acpkm", NULL
};
static const char *const kuznyechik_names[] = {
    "kuznyechik-ecb", "kuznyechik-cbc", "kuznyechik-cfb", "kuznyechik-ofb",
    "kuznyechik-ctr", "kuznyechik-ctr-acpkm", NULL
};

/*
 * magma-ctr-acpkm's section keys past the first under its default
 * 1024-byte sections (R 1323565.1.017-2018: K' = E_K(0x80..0x9f)), as
 * bytes and Magma-order schedules.  Returns the first group; they run to
 * the last group made.
 */
static int add_acpkm_magma(const KEY *k)
{
    unsigned char key[32], d[32];
    GOST89_KEY enc, dec;
    int i, first = -1, g;

    for (i = 0; i < 32; i++)
        d[i] = (unsigned char)(0x80 + i);
    memcpy(key, k->key, 32);
    for (i = 1; i <= MESHES; i++) {
        gost89_set_key(key, &gost89_paramset_z, 1, &enc, &dec);
        gost89_kernel_c.ecb(&enc, d, key, 4);
        g = new_group(k->id, key, 32, "ACPKM section %d key of key %d",
                      i + 1, k->id);
        add_windows(g, 0, 32, 8, 8);
        if (first < 0)
            first = g;
        gost89_set_key(key, &gost89_paramset_z, 1, &enc, &dec);
        gost89_windows(new_group(k->id, enc.rk, sizeof(enc.rk),
                                 "ACPKM section %d schedule of key %d",
                                 i + 1, k->id));
    }
    return first;
}

/* The round keys of a Kuznyechik section key (src/kuznyechik.h). */
static void add_kuz_section(int key, const unsigned char k[32], int section)
{
    KUZNYECHIK_KEY enc;

    kuznyechik_set_key_kernel(&kuznyechik_kernel_c, k, &enc, NULL);
    add_windows(new_group(key, enc.rk[0], sizeof(enc.rk), "Kuznyechik "
                          "section %d round keys of key %d", section, key),
                0, sizeof(enc.rk), 8, 4);
    OPENSSL_cleanse(&enc, sizeof(enc));
}

/*
 * kuznyechik-ctr-acpkm's next MESHES section keys (K' = E_K(0x80..0x9f))
 * with their schedules (add_kuznyechik registers the key's).  Returns the first section's
 * group; they run to the last group made.
 */
static int add_acpkm_kuz(const KEY *k)
{
    unsigned char key[32], d[32];
    KUZNYECHIK_KEY enc;
    int i, first = -1, g;

    for (i = 0; i < 32; i++)
        d[i] = (unsigned char)(0x80 + i);
    memcpy(key, k->key, 32);
    for (i = 1; i <= MESHES; i++) {
        kuznyechik_set_key_kernel(&kuznyechik_kernel_c, key, &enc, NULL);
        kuznyechik_kernel_c.ecb(&enc, d, key, 2);
        g = new_group(k->id, key, 32, "ACPKM section %d key of key %d",
                      i + 1, k->id);
        add_windows(g, 0, 32, 8, 8);
        if (first < 0)
            first = g;
        add_kuz_section(k->id, key, i + 1);
    }
    OPENSSL_cleanse(&enc, sizeof(enc));
    return first;
}

/*
 * A cipher context: init with key 1, a message (meshing for the meshed
 * GOST modes), a copy made and freed, a re-init without a key (undoes the
 * meshing), a re-key with key 2, a decryption with the copy of that, a
 * reset, the context freed.
 */
static void cipher_scenario(const char *name, int family)
{
    EVP_CIPHER *ci = EVP_CIPHER_fetch(lib, name, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    size_t keylen = family == 0 ? SM4_KEY_SIZE : GOST89_KEY_SIZE;
    KEY k1 = new_key(&rng, keylen), k2;
    unsigned char iv[16], *out = tu_malloc(MAX_OUT);
    int acpkm = strcmp(name, "magma-ctr-acpkm") == 0;
    int kacpkm = strcmp(name, "kuznyechik-ctr-acpkm") == 0;
    int mesh_from = -1, mesh_to = -1, meshes = (family == 1
        && strcmp(name, "gost89-cbc") != 0 && strcmp(name, "gost89-ecb") != 0)
        || acpkm || kacpkm;
    size_t section = 1024;
    OSSL_PARAM sp[2];

    /* Kuznyechik's sections made as long as Magma's: two in a message. */
    sp[0] = OSSL_PARAM_construct_size_t("key-mesh", &section);
    sp[1] = OSSL_PARAM_construct_end();
    tu_rng_bytes(&rng, iv, sizeof(iv));
    if (family == 0) {
        add_sm4(&k1);
    } else if (family == 3) {
        add_kuznyechik(&k1);
        if (kacpkm) {
            mesh_from = add_acpkm_kuz(&k1);
            mesh_to = ngroups;
        }
    } else {
        mesh_from = add_gost(&k1);
        if (acpkm)
            mesh_from = add_acpkm_magma(&k1);
        mesh_to = ngroups;
    }
    if (!init_found(ctx, ci, &k1, iv, name))
        goto end;
    if (kacpkm)
        TU_CHECK(EVP_CIPHER_CTX_set_params(ctx, sp), "%s: key-mesh", name);
    TU_CHECK(cipher_run(ctx, out), "%s: encrypting", name);
    if (meshes)
        TU_CHECK(live_with_groups(mesh_from, mesh_to) > 0,
                 "%s: no meshed schedule found after %d bytes", name,
                 MSG_LEN);
    copy_freed(ctx, name, "copy", 0);

    /* A new message under the same key: the meshed schedules go. */
    TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, iv, 1, NULL),
             "%s: re-init", name);
    if (meshes) {
        retire_groups(mesh_from, mesh_to);
        TU_CHECK(live_with_groups(mesh_from, mesh_to) == 0,
                 "%s: a meshed schedule is still held after re-init", name);
    }

    k2 = new_key(&rng, keylen);
    if (family == 0)
        add_sm4(&k2);
    else if (family == 3)
        add_kuznyechik(&k2);
    else
        add_gost(&k2);
    if (kacpkm)
        add_acpkm_kuz(&k2);
    if (acpkm)
        add_acpkm_magma(&k2);
    TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, k2.key, iv, 0, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 0) && cipher_run(ctx, out),
             "%s: re-key and decrypt", name);
    rekeyed(name, k1.id, k2.id);
    copy_reset_free(ctx, name, k2.id);
 end:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ci);
    free(out);
}

/*
 * The GHASH tables of H: the portable one, and those of the GCM tables
 * this level's SM4 kernels (sm4_kernel(), with and without constant-time)
 * carry, each made by its own ghash_init.  What is registered is the span
 * of bytes ghash_init writes (found by running it over two fills: a table
 * the kernel makes in part keeps the rest of the fill), as 64-byte windows
 * every 8 bytes; the header says why.
 */
static void add_ghash_tables(const KEY *k, const unsigned char h[16])
{
    const SMG_GCM_KERNEL *gk[3] = {
        &sm4_gcm_c, sm4_kernel(0)->gcm, sm4_kernel(1)->gcm
    };
    unsigned char t0[SMG_GHASH_TABLE_SIZE] __attribute__((aligned(64)));
    unsigned char t1[SMG_GHASH_TABLE_SIZE] __attribute__((aligned(64)));
    size_t from, to;
    int i;

    for (i = 0; i < 3; i++) {
        if ((i > 0 && gk[i]->ghash_init == gk[0]->ghash_init)
            || (i == 2 && gk[2]->ghash_init == gk[1]->ghash_init))
            continue;
        memset(t0, 0, sizeof(t0));
        memset(t1, 0xff, sizeof(t1));
        gk[i]->ghash_init(t0, h);
        gk[i]->ghash_init(t1, h);
        for (from = 0; from < sizeof(t0) && t0[from] == 0 && t1[from] == 0xff;
             from++)
            continue;
        for (to = sizeof(t0); to > from && t0[to - 1] == 0
                              && t1[to - 1] == 0xff; to--)
            continue;
        add_windows(new_group(k->id, t0 + from, to - from,
                              "GHASH table of key %d (%s)", k->id,
                              gk[i]->name), 0, to - from, 64, 8);
    }
}

/* SM4-GCM, CCM, XTS: the schedules (XTS: of both key halves), GCM's H and
 * its GHASH tables; MGM: its cipher's schedule. */
static void add_aead(const KEY *k, const char *name)
{
    KEY half = *k;
    SM4_KEY enc, dec;
    unsigned char h[16] = { 0 };

    if (strcmp(name, "kuznyechik-mgm") == 0) {
        add_kuznyechik(k);
        return;
    }
    if (strcmp(name, "magma-mgm") == 0) {
        add_gost(k);
        return;
    }
    add_sm4(k);
    if (strcmp(name, "SM4-XTS") == 0) {
        memcpy(half.key, k->key + SM4_KEY_SIZE, SM4_KEY_SIZE);
        add_sm4(&half);
    } else if (strcmp(name, "SM4-GCM") == 0) {
        sm4_set_key(k->key, &enc, &dec);
        sm4_encrypt_block(&enc, h, h);
        add_windows(new_group(k->id, h, sizeof(h), "GHASH key H of key %d",
                              k->id), 0, sizeof(h), 8, 1);
        add_ghash_tables(k, h);
    }
}

/* One whole message: 16 bytes of AAD (not XTS), the data, the tag. */
static int aead_run(EVP_CIPHER_CTX *ctx, const char *name, unsigned char *out)
{
    int xts = strcmp(name, "SM4-XTS") == 0, ccm = strcmp(name, "SM4-CCM") == 0;
    int taglen = ccm ? 12 : strcmp(name, "magma-mgm") == 0 ? 8 : 16;
    unsigned char tag[16];
    int l, l2;

    return (!ccm || EVP_CipherUpdate(ctx, NULL, &l, NULL, MSG_LEN))
           && (xts || EVP_CipherUpdate(ctx, NULL, &l, msg, 16))
           && EVP_CipherUpdate(ctx, out, &l, msg, MSG_LEN)
           && EVP_CipherFinal_ex(ctx, out + l, &l2)
           && (xts || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                          taglen, tag) > 0);
}

/*
 * An AEAD or XTS context: init with key 1, a message, a copy made and
 * freed, a new message under a new IV, a re-key with key 2 and a message,
 * a copy, a reset, the context freed.
 */
static void aead_scenario(const char *name)
{
    EVP_CIPHER *ci = EVP_CIPHER_fetch(lib, name, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    size_t keylen = strncmp(name, "SM4-", 4) != 0 ? GOST89_KEY_SIZE
                    : strcmp(name, "SM4-XTS") == 0 ? 32 : 16;
    KEY k1 = new_key(&rng, keylen), k2;
    unsigned char iv[16], *out = tu_malloc(MAX_OUT);

    tu_rng_bytes(&rng, iv, sizeof(iv));
    add_aead(&k1, name);
    if (!init_found(ctx, ci, &k1, iv, name))
        goto end;
    TU_CHECK(aead_run(ctx, name, out), "%s: encrypting", name);
    copy_freed(ctx, name, "copy", 0);
    iv[0] ^= 1;
    TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, iv, 1, NULL)
             && aead_run(ctx, name, out), "%s: a message under a new IV",
             name);
    k2 = new_key(&rng, keylen);
    add_aead(&k2, name);
    TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, k2.key, iv, 1, NULL)
             && aead_run(ctx, name, out), "%s: re-key", name);
    rekeyed(name, k1.id, k2.id);
    copy_reset_free(ctx, name, k2.id);
 end:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ci);
    free(out);
}

/* Runs mac over msg; out receives up to 64 bytes. */
static int mac_run(EVP_MAC_CTX *ctx, unsigned char *out)
{
    size_t l;

    return EVP_MAC_update(ctx, msg, MSG_LEN)
           && EVP_MAC_final(ctx, out, &l, 64);
}

/*
 * A MAC context (gost-mac, gost-mac-12, or HMAC over smgost's digest d):
 * init with key 1, a message, a dup made and freed, a restart under the same
 * key (GOST: undoes the meshing), a re-key with key 2, the context freed.
 */
/*
 * OMAC over Magma (bs 8) or Kuznyechik (bs 16): the schedule, and K1 and
 * K2 from L = E_K(0) (GOST R 34.13-2015 5.6).
 */
static void add_omac(const KEY *k, size_t bs)
{
    unsigned char l[16] = { 0 }, sub[2][16];
    GOST89_KEY enc, dec;
    KUZNYECHIK_KEY kenc;
    size_t i, j;

    if (bs == 8) {
        gost89_set_key(k->key, &gost89_paramset_z, 1, &enc, &dec);
        gost89_windows(new_group(k->id, enc.rk, sizeof(enc.rk),
                                 "Magma schedule of key %d", k->id));
        gost89_kernel_c.ecb(&enc, l, l, 1);
    } else {
        add_kuznyechik(k);
        kuznyechik_set_key_kernel(&kuznyechik_kernel_c, k->key, &kenc, NULL);
        kuznyechik_kernel_c.ecb(&kenc, l, l, 1);
    }
    for (i = 0; i < 2; i++) {
        const unsigned char *from = i == 0 ? l : sub[0];

        for (j = 0; j < bs; j++)
            sub[i][j] = (unsigned char)(from[j] << 1
                                        | (j + 1 < bs ? from[j + 1] >> 7 : 0));
        sub[i][bs - 1] ^= (unsigned char)(from[0] & 0x80
                                          ? (bs == 16 ? 0x87 : 0x1b) : 0);
        add_windows(new_group(k->id, sub[i], bs, "OMAC subkey K%zu of key %d",
                              i + 1, k->id), 0, bs, 8, 8);
    }
}

/*
 * A CTR-ACPKM-OMAC cipher's secrets beside the key as given (new_key):
 * K_ctr and K_mac, from the key and the ukm's seed through the module's
 * KDF (src/kdf_tree.h), K_ctr's schedule, and K_mac's OMAC schedule and
 * subkeys, all under the key's id.
 */
static void add_ctr_omac(const KEY *k, const unsigned char *seed, size_t bs)
{
    static const unsigned char label[] = "kdf tree";
    unsigned char keys[64];
    GOST89_KEY enc, dec;
    KEY part = *k;
    int i;

    smg_kdf_tree_256(streebog_kernel(0), k->key, 32, label, 8, seed, 8, 1,
                     keys, sizeof(keys));
    for (i = 0; i < 2; i++) {
        memcpy(part.key, keys + 32 * i, 32);
        add_windows(new_group(k->id, part.key, 32, "%s of key %d",
                              i == 0 ? "K_ctr" : "K_mac", k->id),
                    0, 32, 8, 1);
    }
    memcpy(part.key, keys, 32);
    if (bs == 16) {
        add_kuznyechik(&part);
    } else {
        gost89_set_key(part.key, &gost89_paramset_z, 1, &enc, &dec);
        gost89_windows(new_group(k->id, enc.rk, sizeof(enc.rk),
                                 "Magma schedule of K_ctr of key %d",
                                 k->id));
    }
    memcpy(part.key, keys + 32, 32);
    add_omac(&part, bs);
    OPENSSL_cleanse(keys, sizeof(keys));
}

/*
 * kuznyechik-ctr-acpkm-omac (bs 16) or magma-ctr-acpkm-omac (bs 8): the
 * CMS parameters, then key 1; a message, a copy made and freed, a re-init
 * without a key, a re-key with key 2 (the same seed), a reset, the context
 * freed.
 */
static void ctr_omac_scenario(const char *name, size_t bs)
{
    EVP_CIPHER *ci = EVP_CIPHER_fetch(lib, name, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    KEY k1 = new_key(&rng, 32), k2;
    size_t ivlen = bs == 16 ? 8 : 4;
    unsigned char ukm[16 + 8], der[4 + sizeof(ukm)], tag[16];
    unsigned char *out = tu_malloc(MAX_OUT);
    OSSL_PARAM p[2];

    tu_rng_bytes(&rng, ukm, sizeof(ukm));
    p[0] = OSSL_PARAM_construct_octet_string(
        "alg_id_param", der, tu_gost2015_params(der, ukm, ivlen + 8));
    p[1] = OSSL_PARAM_construct_end();
    add_ctr_omac(&k1, ukm + ivlen, bs);
    if (!TU_CHECK(ci != NULL && ctx != NULL
                  && EVP_CipherInit_ex2(ctx, ci, NULL, NULL, 1, p)
                  && EVP_CipherInit_ex2(ctx, NULL, k1.key, NULL, 1, NULL),
                  "%s: init", name))
        goto end;
    TU_CHECK(live_with_key(k1.id) > 0, "%s: right after init no smgost "
             "block holds the key (scanner or attribution broken)", name);
    TU_CHECK(cipher_run(ctx, out)
             && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)bs,
                                    tag) > 0, "%s: encrypting", name);
    copy_freed(ctx, name, "copy", 0);
    TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, 1, NULL),
             "%s: re-init", name);
    k2 = new_key(&rng, 32);
    add_ctr_omac(&k2, ukm + ivlen, bs);
    TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, k2.key, NULL, 1, NULL)
             && cipher_run(ctx, out), "%s: re-key and encrypt", name);
    rekeyed(name, k1.id, k2.id);
    copy_reset_free(ctx, name, k2.id);
 end:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ci);
    free(out);
}

static void mac_scenario(const char *name, const HMAC_DIGEST *d)
{
    int hmac = strcmp(name, "HMAC") == 0;
    size_t omac = strcmp(name, "magma-mac") == 0 ? 8
                  : strcmp(name, "kuznyechik-mac") == 0 ? 16 : 0;
    EVP_MAC *mac = EVP_MAC_fetch(lib, name, hmac ? NULL : PROPQ);
    EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL, *dup;
    OSSL_PARAM params[3], *p = params;
    /* HMAC: a key within one block, then one hashed first. */
    KEY k1 = new_key(&rng, hmac ? d->md->block_size * 5 / 8 : GOST89_KEY_SIZE),
        k2;
    unsigned char out[64], again[64];
    size_t outl = 0, againl = 0;
    int mesh_from = -1, mesh_to = -1;

    if (hmac) {
        add_hmac(&k1, d);
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                (char *)d->name, 0);
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                (char *)PROPQ, 0);
    } else if (omac) {
        add_omac(&k1, omac);
    } else {
        mesh_from = add_gost(&k1);
        mesh_to = ngroups;
    }
    *p = OSSL_PARAM_construct_end();
    if (!TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, k1.key, k1.keylen, params),
                  "%s: init", name))
        goto end;
    TU_CHECK(live_with_key(k1.id) > 0, "%s: right after init no smgost "
             "block holds the key or its HMAC state (scanner or attribution "
             "broken)", name);
    TU_CHECK(EVP_MAC_update(ctx, msg, MSG_LEN), "%s: update", name);
    if (mesh_from >= 0)
        TU_CHECK(live_with_groups(mesh_from, mesh_to) > 0,
                 "%s: no meshed schedule found after %d bytes", name,
                 MSG_LEN);
    TU_CHECK((dup = EVP_MAC_CTX_dup(ctx)) != NULL, "%s: dup", name);
    EVP_MAC_CTX_free(dup);
    TU_CHECK(EVP_MAC_final(ctx, out, &outl, sizeof(out)), "%s: final",
             name);

    /* A new message under the same key: the meshed schedules go. */
    TU_CHECK(EVP_MAC_init(ctx, NULL, 0, NULL), "%s: restart", name);
    if (mesh_from >= 0) {
        retire_groups(mesh_from, mesh_to);
        TU_CHECK(live_with_groups(mesh_from, mesh_to) == 0,
                 "%s: a meshed schedule is still held after restart", name);
    }
    TU_CHECK(EVP_MAC_update(ctx, msg, MSG_LEN)
             && EVP_MAC_final(ctx, again, &againl, sizeof(again)),
             "%s: the message again", name);
    TU_CHECK_MEM("the same MAC after a restart", again, againl, out, outl);

    k2 = new_key(&rng, hmac ? 100 : GOST89_KEY_SIZE);
    if (hmac)
        add_hmac(&k2, d);
    else if (omac)
        add_omac(&k2, omac);
    else
        add_gost(&k2);
    TU_CHECK(EVP_MAC_init(ctx, k2.key, k2.keylen, NULL) && mac_run(ctx, out),
             "%s: re-key", name);
    rekeyed(name, k1.id, k2.id);
    EVP_MAC_CTX_free(ctx);
    ctx = NULL;
    retire(k2.id);
    TU_CHECK(live_with_key(k2.id) == 0, "%s: key 2 is still held after "
             "the context was freed", name);
 end:
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
}

/*
 * A digest (SM3, md_gost94) over len bytes of secret data, a part of a
 * block left in the context's buffer: copies and resets must not leave it
 * behind.
 */
static void digest_scenario(const char *name, size_t len)
{
    EVP_MD *md = EVP_MD_fetch(lib, name, PROPQ);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();
    KEY secret = new_key(&rng, len);
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int l;

    if (!TU_CHECK(md != NULL && ctx != NULL && copy != NULL
                  && EVP_DigestInit_ex2(ctx, md, NULL)
                  && EVP_DigestUpdate(ctx, secret.key, secret.keylen),
                  "%s: hashing a secret", name))
        goto end;
    /* SM3, 100 bytes: the last 36 wait in the context's buffer;
     * md_gost94, 90 bytes: the last 26. */
    TU_CHECK(live_with_key(secret.id) > 0, "%s: the buffered secret is not "
             "found (scanner or attribution broken)", name);
    TU_CHECK(EVP_MD_CTX_copy_ex(copy, ctx)
             && EVP_DigestFinal_ex(copy, out, &l), "%s: copy and final",
             name);
    EVP_MD_CTX_free(copy);
    copy = NULL;
    TU_CHECK(EVP_MD_CTX_reset(ctx), "%s: reset", name);
    retire(secret.id);
    TU_CHECK(live_with_key(secret.id) == 0, "%s: the secret is still held "
             "after reset", name);
 end:
    EVP_MD_CTX_free(copy);
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
}

/*
 * The hook and the scanner at work on a block of this program's own: a
 * key left in it must be seen when it is freed.
 */
static void control(void)
{
    KEY k = new_key(&rng, 32);
    unsigned long before = other_hits;
    unsigned char *p = OPENSSL_malloc(64);

    if (!TU_CHECK(p != NULL, "control block"))
        return;
    memcpy(p + 7, k.key, k.keylen);
    OPENSSL_free(p);
    TU_CHECK(other_hits == before + 1 && last_other_hit >= 0
             && groups[last_other_hit].key == k.id,
             "a key left in a freed block is seen");
    control_hits = other_hits - before;
}

/*
 * Bytes [from, from + len) of group g's secret left in a block smgost
 * frees (one of this program's, marked as smgost's), 5 bytes in.
 */
static void plant_part(int g, size_t from, size_t len)
{
    unsigned char *p = OPENSSL_zalloc(len + 13);

    if (!TU_CHECK(p != NULL, "a block to plant in"))
        return;
    ((MH_BLOCK *)p - 1)->cls = 1;
    memcpy(p + 5, pool + groups[g].off + from, len);
    printf("# planted %zu bytes of %s in a %zu-byte block\n", len,
           groups[g].label, len + 13);
    OPENSSL_free(p);
}

/*
 * -plant: every secret registered is leaked on purpose, whole, and a
 * secret of long windows (a GHASH table) also as the bytes of its second
 * window alone, the least of it the check sees.  Each must be reported as
 * the leak it is; test/87-key-hygiene.t pairs the "planted" lines with the
 * reports.
 */
static void plant(void)
{
    int g;

    for (g = 0; g < ngroups; g++) {
        plant_part(g, 0, groups[g].len);
        if (groups[g].wlen > 8
            && groups[g].step + groups[g].wlen <= groups[g].len)
            plant_part(g, groups[g].step, groups[g].wlen);
    }
}

int main(int argc, char **argv)
{
    int planting = argc > 1 && strcmp(argv[1], "-plant") == 0;
    const char *group = argc > 1 + planting ? argv[1 + planting] : "";
    const char *const *names = NULL;
    size_t i;

    mh_install();
    for (i = 0; i < (1u << TABLE_BITS); i++)
        table[i].group = -1;
    mh_on_free = on_free;
    mh_classify = from_smgost;
    tu_rng_seed(&rng, tu_seed(argc > 2 + planting ? argv[2 + planting]
                                                   : NULL));
    tu_rng_bytes(&rng, msg, sizeof(msg));
    control();
    lib = tu_libctx();
    if (strcmp(group, "sm4") == 0)
        names = sm4_names;
    else if (strcmp(group, "gost") == 0)
        names = gost89_names;
    else if (strcmp(group, "magma") == 0)
        names = magma_names;
    else if (strcmp(group, "kuznyechik") == 0)
        names = kuznyechik_names;
    if (names != NULL) {
        for (i = 0; names[i] != NULL; i++)
            cipher_scenario(names[i], names == sm4_names ? 0
                                      : names == gost89_names ? 1
                                      : names == magma_names ? 2 : 3);
    } else if (strcmp(group, "omac") == 0) {
        ctr_omac_scenario("kuznyechik-ctr-acpkm-omac", 16);
        ctr_omac_scenario("magma-ctr-acpkm-omac", 8);
    } else if (strcmp(group, "aead") == 0) {
        aead_scenario("SM4-GCM");
        aead_scenario("SM4-CCM");
        aead_scenario("SM4-XTS");
        aead_scenario("kuznyechik-mgm");
        aead_scenario("magma-mgm");
    } else if (strcmp(group, "mac") == 0) {
        mac_scenario("gost-mac", NULL);
        mac_scenario("gost-mac-12", NULL);
        mac_scenario("magma-mac", NULL);
        mac_scenario("kuznyechik-mac", NULL);
    } else if (strcmp(group, "hmac") == 0) {
        mac_scenario("HMAC", &hmac_sm3);
    } else if (strcmp(group, "sm3") == 0) {
        digest_scenario("SM3", 100);
    } else if (strcmp(group, "hmac-streebog") == 0) {
        mac_scenario("HMAC", &hmac_streebog[0]);
        mac_scenario("HMAC", &hmac_streebog[1]);
    } else if (strcmp(group, "streebog") == 0) {
        digest_scenario("md_gost12_256", 100);
        digest_scenario("md_gost12_512", 100);
    } else if (strcmp(group, "gost94") == 0) {
        digest_scenario("md_gost94", 90);
        mac_scenario("HMAC", &hmac_gost94);
    } else {
        fprintf(stderr, "usage: %s [-plant] "
                "sm4|aead|gost|magma|kuznyechik|omac|mac|hmac|sm3|"
                "hmac-streebog|streebog|gost94 [seed]\n", argv[0]);
        return 2;
    }
    if (planting)
        plant();
    /* The providers unloaded: whatever they still held is freed now. */
    tu_libctx_free(lib);
    {
        QUERY any = { -1, 0, ngroups, 0 };

        TU_CHECK(live_blocks_with(any) == 0, "smgost blocks with secrets "
                 "still live after the provider was unloaded");
    }
    printf("# %lu blocks freed by smgost scanned, %lu held a secret; "
           "%lu of libcrypto's held one (not smgost's to clear)\n",
           smgost_freed, smgost_hits, other_hits - control_hits);
    TU_CHECK(smgost_freed > 0, "no block freed by smgost was seen");
    return tu_report(group);
}
