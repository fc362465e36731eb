/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared helpers for the C test programs: a library context holding smgost
 * and the default provider, checks that count failures instead of aborting,
 * hex conversion, a seeded PRNG for reproducible random cases, error queue
 * assertions on reason strings (smgost's own and the default provider's,
 * which smgost raises for the failures the two share), and the choice of a
 * program's group from its command line.
 *
 * In test/lib/ with the other shared helpers (make gives the programs
 * -I test/lib).  Header-only so that each test program stays one .c file
 * linked with -lcrypto; every function is static.
 */
#ifndef SMGOST_TESTUTIL_H
#define SMGOST_TESTUTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "gost2015_params.h"

static unsigned long tu_checks, tu_failures;

/* Counts a check; on failure reports the message and goes on. */
static inline int tu_check(int ok, const char *file, int line,
                           const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static inline int tu_check(int ok, const char *file, int line,
                           const char *fmt, ...)
{
    va_list ap;

    tu_checks++;
    if (ok)
        return 1;
    tu_failures++;
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    /* Whatever OpenSSL queued explains the failure best right here. */
    ERR_print_errors_fp(stderr);
    return 0;
}

/* Evaluates to 1 if cond holds, else reports the message and gives 0. */
#define TU_CHECK(cond, ...)                                                  \
    tu_check((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)

static inline void tu_hexdump(FILE *f, const char *label,
                              const unsigned char *p, size_t n)
{
    size_t i;

    fprintf(f, "  %s (%zu):", label, n);
    for (i = 0; i < n; i++)
        fprintf(f, "%s%02x", i % 32 == 0 ? "\n    " : "", p[i]);
    fputc('\n', f);
}

/* Compares two byte strings; on mismatch reports both and the first diff. */
#define TU_CHECK_MEM(what, got, gotlen, exp, explen)                         \
    tu_check_mem(__FILE__, __LINE__, (what), (got), (gotlen), (exp), (explen))

static inline int tu_check_mem(const char *file, int line, const char *what,
                               const unsigned char *got, size_t gotlen,
                               const unsigned char *exp, size_t explen)
{
    size_t i;

    if (gotlen == explen && (explen == 0 || memcmp(got, exp, explen) == 0))
        return tu_check(1, file, line, "%s", what);
    for (i = 0; i < gotlen && i < explen && got[i] == exp[i]; i++)
        continue;
    tu_check(0, file, line, "%s: mismatch (got %zu bytes, expected %zu, "
             "first difference at byte %zu)", what, gotlen, explen, i);
    if (gotlen <= 256 && explen <= 256) {
        tu_hexdump(stderr, "got", got, gotlen);
        tu_hexdump(stderr, "expected", exp, explen);
    }
    return 0;
}

/*
 * n bytes from a seed, the same for the same seed: a linear congruential
 * generator's high bits, for inputs a check can make again, not for keys
 * an attacker must not guess.
 */
static inline void tu_fill(unsigned char *p, size_t n, uint32_t seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

static inline void *tu_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static inline int tu_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/*
 * Decodes hex (whitespace ignored) into a new buffer; returns NULL on a
 * malformed string.  *len receives the byte count.
 */
static inline unsigned char *tu_unhex(const char *hex, size_t *len)
{
    unsigned char *out = tu_malloc(strlen(hex) / 2 + 1);
    size_t n = 0;
    int hi = -1, v;

    for (; *hex != '\0'; hex++) {
        if (*hex == ' ' || *hex == '\t' || *hex == '\n' || *hex == '\r')
            continue;
        if ((v = tu_hexval((unsigned char)*hex)) < 0) {
            free(out);
            return NULL;
        }
        if (hi < 0) {
            hi = v;
        } else {
            out[n++] = (unsigned char)(hi << 4 | v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        free(out);
        return NULL;
    }
    *len = n;
    return out;
}

/* tu_unhex for the hex a program holds itself (NULL reads as empty): a
 * malformed string is a bug in the program, which stops it. */
static inline unsigned char *tu_unhex_or_die(const char *hex, size_t *len)
{
    unsigned char *p = tu_unhex(hex != NULL ? hex : "", len);

    if (p == NULL) {
        fprintf(stderr, "malformed hex in the program's own tables: %s\n",
                hex);
        exit(2);
    }
    return p;
}

/*
 * The provider under test: smgost, unless SMGOST_TEST_PROVIDER names
 * another one (e.g. "default", to check a test program against the
 * reference implementation).
 */
static inline const char *tu_target(void)
{
    const char *t = getenv("SMGOST_TEST_PROVIDER");

    return t != NULL && *t != '\0' ? t : "smgost";
}

/* "provider=<target>", the property query that selects the target. */
static inline const char *tu_target_propq(void)
{
    static char q[128];

    snprintf(q, sizeof(q), "provider=%s", tu_target());
    return q;
}

/* A cipher the checks that follow cannot go on without; exits if absent. */
static inline EVP_CIPHER *tu_fetch_cipher_or_die(OSSL_LIB_CTX *libctx,
                                                 const char *name,
                                                 const char *propq)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, propq);

    if (!TU_CHECK(c != NULL, "fetch %s (%s)", name, propq)) {
        fprintf(stderr, "cannot go on without %s\n", name);
        exit(1);
    }
    return c;
}

/*
 * A cipher's own dispatch functions, as the core sees them, for tests that
 * must call the provider directly (output sizes and lengths EVP never
 * passes).  Functions the implementation lacks stay NULL.
 */
typedef struct tu_raw_cipher {
    OSSL_FUNC_cipher_newctx_fn *newctx;
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_encrypt_init_fn *einit;
    OSSL_FUNC_cipher_decrypt_init_fn *dinit;
    OSSL_FUNC_cipher_update_fn *update;
    OSSL_FUNC_cipher_final_fn *final;
    OSSL_FUNC_cipher_cipher_fn *cipher;
    OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
    OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
    void *provctx;
} TU_RAW_CIPHER;

/*
 * Whether word is one of the entries of list that sep separates, ignoring
 * case if fold: a provider's colon-separated algorithm names, or
 * '|'-separated alternatives.
 */
static inline int tu_list_has(const char *list, int sep, const char *word,
                              int fold)
{
    size_t n = strlen(word);

    for (;;) {
        const char *end = strchr(list, sep);
        size_t len = end != NULL ? (size_t)(end - list) : strlen(list);

        if (len == n && (fold ? strncasecmp(list, word, n)
                              : strncmp(list, word, n)) == 0)
            return 1;
        if (end == NULL)
            return 0;
        list = end + 1;
    }
}

/* A digest's own dispatch functions, as tu_raw_cipher finds a cipher's. */
typedef struct tu_raw_md {
    OSSL_FUNC_digest_newctx_fn *newctx;
    OSSL_FUNC_digest_freectx_fn *freectx;
    OSSL_FUNC_digest_init_fn *init;
    OSSL_FUNC_digest_update_fn *update;
    OSSL_FUNC_digest_final_fn *final;
    void *provctx;
} TU_RAW_MD;

/*
 * Calls take(d, r) for each function of the dispatch table that prov
 * registers for the algorithm name under operation op; 0 if it has none.
 */
static inline int tu_each_function(const OSSL_PROVIDER *prov, int op,
                                   const char *name,
                                   void (*take)(const OSSL_DISPATCH *, void *),
                                   void *r)
{
    const OSSL_ALGORITHM *algs, *a;
    const OSSL_DISPATCH *d;
    int no_cache = 0, found = 0;

    algs = OSSL_PROVIDER_query_operation(prov, op, &no_cache);
    for (a = algs; a != NULL && a->algorithm_names != NULL; a++) {
        if (!tu_list_has(a->algorithm_names, ':', name, 1))
            continue;
        for (d = a->implementation; d->function_id != 0; d++)
            take(d, r);
        found = 1;
        break;
    }
    OSSL_PROVIDER_unquery_operation(prov, op, algs);
    return found;
}

static inline void tu_take_md_function(const OSSL_DISPATCH *d, void *vr)
{
    TU_RAW_MD *r = vr;

    switch (d->function_id) {
    case OSSL_FUNC_DIGEST_NEWCTX:
        r->newctx = OSSL_FUNC_digest_newctx(d);
        break;
    case OSSL_FUNC_DIGEST_FREECTX:
        r->freectx = OSSL_FUNC_digest_freectx(d);
        break;
    case OSSL_FUNC_DIGEST_INIT:
        r->init = OSSL_FUNC_digest_init(d);
        break;
    case OSSL_FUNC_DIGEST_UPDATE:
        r->update = OSSL_FUNC_digest_update(d);
        break;
    case OSSL_FUNC_DIGEST_FINAL:
        r->final = OSSL_FUNC_digest_final(d);
        break;
    }
}

/* Fills r from the provider of md for the algorithm name; 0 unless it
 * has all five functions. */
static inline int tu_raw_md(const EVP_MD *md, const char *name, TU_RAW_MD *r)
{
    const OSSL_PROVIDER *prov = EVP_MD_get0_provider(md);

    memset(r, 0, sizeof(*r));
    if (prov == NULL)
        return 0;
    r->provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    tu_each_function(prov, OSSL_OP_DIGEST, name, tu_take_md_function, r);
    return r->newctx && r->freectx && r->init && r->update && r->final;
}

static inline void tu_take_cipher_function(const OSSL_DISPATCH *d, void *vr)
{
    TU_RAW_CIPHER *r = vr;

    switch (d->function_id) {
    case OSSL_FUNC_CIPHER_NEWCTX:
        r->newctx = OSSL_FUNC_cipher_newctx(d);
        break;
    case OSSL_FUNC_CIPHER_FREECTX:
        r->freectx = OSSL_FUNC_cipher_freectx(d);
        break;
    case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
        r->einit = OSSL_FUNC_cipher_encrypt_init(d);
        break;
    case OSSL_FUNC_CIPHER_DECRYPT_INIT:
        r->dinit = OSSL_FUNC_cipher_decrypt_init(d);
        break;
    case OSSL_FUNC_CIPHER_UPDATE:
        r->update = OSSL_FUNC_cipher_update(d);
        break;
    case OSSL_FUNC_CIPHER_FINAL:
        r->final = OSSL_FUNC_cipher_final(d);
        break;
    case OSSL_FUNC_CIPHER_CIPHER:
        r->cipher = OSSL_FUNC_cipher_cipher(d);
        break;
    case OSSL_FUNC_CIPHER_GET_CTX_PARAMS:
        r->get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(d);
        break;
    case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
        r->set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(d);
        break;
    }
}

/* Fills r from the provider of c for the algorithm name; 0 if not found. */
static inline int tu_raw_cipher(const EVP_CIPHER *c, const char *name,
                                TU_RAW_CIPHER *r)
{
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(c);

    memset(r, 0, sizeof(*r));
    if (prov == NULL)
        return 0;
    r->provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
    return tu_each_function(prov, OSSL_OP_CIPHER, name,
                            tu_take_cipher_function, r);
}

/* What tu_libctx() loaded, for tu_libctx_free(). */
static OSSL_PROVIDER *tu_provs[2];

/*
 * A library context with the target and the default provider loaded from
 * SMGOST_MODULES (or OPENSSL_MODULES), independent of OPENSSL_CONF; when
 * SMGOST_TEST_CONF names a configuration file, it is loaded first, so the
 * providers it activates (e.g. smgost with "constant-time = yes") are the
 * ones used.  Exits on failure: nothing can be tested without it.
 */
static inline OSSL_LIB_CTX *tu_libctx(void)
{
    const char *dir = getenv("SMGOST_MODULES");
    const char *conf = getenv("SMGOST_TEST_CONF");
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();

    if (dir == NULL || *dir == '\0')
        dir = getenv("OPENSSL_MODULES");
    if (libctx == NULL
        || (dir != NULL && !OSSL_PROVIDER_set_default_search_path(libctx, dir))
        || (conf != NULL && *conf != '\0'
            && (!OSSL_LIB_CTX_load_config(libctx, conf)
                /* a failed activation there is silent in libcrypto 3.0 */
                || !OSSL_PROVIDER_available(libctx, tu_target())))
        || (tu_provs[0] = OSSL_PROVIDER_load(libctx, tu_target())) == NULL
        || (tu_provs[1] = OSSL_PROVIDER_load(libctx, "default")) == NULL) {
        fprintf(stderr, "cannot load providers %s and default from %s%s%s\n",
                tu_target(), dir != NULL ? dir : "(default module directory)",
                conf != NULL ? " with " : "", conf != NULL ? conf : "");
        ERR_print_errors_fp(stderr);
        exit(2);
    }
    return libctx;
}

/*
 * Frees a library context and the two providers loaded into it.
 * OSSL_LIB_CTX_free() alone leaves the providers OSSL_PROVIDER_load()
 * returned (LeakSanitizer reports them with libcrypto 3.0.22): they are
 * unloaded first.
 */
static inline void tu_unload_free(OSSL_LIB_CTX *libctx,
                                  OSSL_PROVIDER *provs[2])
{
    OSSL_PROVIDER_unload(provs[1]);
    OSSL_PROVIDER_unload(provs[0]);
    provs[0] = provs[1] = NULL;
    OSSL_LIB_CTX_free(libctx);
}

/* Frees a tu_libctx() context. */
static inline void tu_libctx_free(OSSL_LIB_CTX *libctx)
{
    tu_unload_free(libctx, tu_provs);
}

/* Name of the provider an algorithm came from, or "(none)". */
static inline const char *tu_prov_name(const OSSL_PROVIDER *prov)
{
    return prov != NULL ? OSSL_PROVIDER_get0_name(prov) : "(none)";
}

/*
 * The library names libcrypto gives its own errors: the default provider's
 * (which smgost raises for the failures the two share, src/err.h) and
 * EVP's.  A provider's own errors come under the provider's name.
 */
#define TU_LIB_PROV "Provider routines"
#define TU_LIB_EVP "digital envelope routines"

/*
 * True if the error queue holds an error of library lib (a provider's name
 * or one of the above) whose reason string is reasons, or one of its
 * '|'-separated alternatives.  TU_CHECK_ERR_DATA also wants the error's
 * data to contain data (the detail smgost adds).  Prints the queue when it
 * does not.  Always leaves the queue empty.
 */
#define TU_CHECK_ERR(lib, reasons)                                           \
    tu_check_err(__FILE__, __LINE__, (lib), (reasons), NULL)
#define TU_CHECK_ERR_DATA(lib, reasons, data)                                \
    tu_check_err(__FILE__, __LINE__, (lib), (reasons), (data))

static inline int tu_check_err(const char *file, int line,
                               const char *want_lib, const char *reasons,
                               const char *want_data)
{
    unsigned long e;
    const char *lib, *rs, *data;
    int found = 0, flags;
    char seen[1024] = "";
    size_t used = 0;

    while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
        lib = ERR_lib_error_string(e);
        rs = ERR_reason_error_string(e);
        if (data == NULL || (flags & ERR_TXT_STRING) == 0)
            data = "";
        if (lib != NULL && rs != NULL && strcmp(lib, want_lib) == 0
            && tu_list_has(reasons, '|', rs, 0)
            && (want_data == NULL || strstr(data, want_data) != NULL))
            found = 1;
        if (used < sizeof(seen))
            used += (size_t)snprintf(seen + used, sizeof(seen) - used,
                                     " [%s: %s%s%s]", lib ? lib : "?",
                                     rs ? rs : "?", *data ? ": " : "", data);
    }
    return tu_check(found, file, line, "expected error \"%s: %s%s%s\", "
                    "queue held:%s", want_lib, reasons,
                    want_data != NULL ? ": ..." : "",
                    want_data != NULL ? want_data : "",
                    used ? seen : " nothing");
}

/*
 * True if the error queue is empty, as the default provider leaves it for
 * some failures (a GCM tag that differs); else prints and empties it.
 */
#define TU_CHECK_NO_ERR(what)                                                \
    tu_check_no_err(__FILE__, __LINE__, (what))

static inline int tu_check_no_err(const char *file, int line,
                                  const char *what)
{
    /* tu_check prints the queue on failure, which empties it */
    return tu_check(ERR_peek_error() == 0, file, line, "%s: errors queued",
                    what);
}

/*
 * xoshiro256** (Blackman and Vigna), seeded through splitmix64: small,
 * fast and identical everywhere, so a printed seed reproduces a run.
 */
typedef struct { uint64_t s[4]; } TU_RNG;

static inline uint64_t tu_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline void tu_rng_seed(TU_RNG *r, uint64_t seed)
{
    int i;

    for (i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t tu_rng_next(TU_RNG *r)
{
    uint64_t *s = r->s, res = tu_rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = tu_rotl64(s[3], 45);
    return res;
}

/* Uniform in [0, n); n > 0.  The modulo bias is irrelevant for tests. */
static inline size_t tu_rng_below(TU_RNG *r, size_t n)
{
    return (size_t)(tu_rng_next(r) % n);
}

static inline void tu_rng_bytes(TU_RNG *r, unsigned char *p, size_t n)
{
    while (n > 0) {
        uint64_t v = tu_rng_next(r);
        size_t k = n < 8 ? n : 8;

        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

/*
 * A message length for a random case, from a table of bands that say
 * which lengths matter to a family (its block edges, its periods): band b
 * is chosen percent times in 100 (the percents add up to 100) and gives
 * base + unit * r(count) + r(jitter), where r(n) is uniform in [0, n) and
 * 0 for n <= 1.
 */
typedef struct {
    unsigned percent;
    size_t base, unit, count, jitter;
} TU_LEN_BAND;

static inline size_t tu_rng_upto(TU_RNG *r, size_t n)
{
    return n > 1 ? tu_rng_below(r, n) : 0;
}

static inline size_t tu_pick_len(TU_RNG *r, const TU_LEN_BAND *bands,
                                 size_t nbands)
{
    size_t i = 0, roll = tu_rng_below(r, 100), below = bands[0].percent;
    size_t len;

    while (roll >= below && i + 1 < nbands)
        below += bands[++i].percent;
    /* in this order, so that a seed gives the same lengths everywhere */
    len = bands[i].base + bands[i].unit * tu_rng_upto(r, bands[i].count);
    return len + tu_rng_upto(r, bands[i].jitter);
}

/*
 * How tu_chunks() cuts a message into update sizes, for a family: one
 * style in pieces of 1 to small bytes, one of 1 to most bytes, one of 1 to
 * blocks whole blocks with now and then a piece shorter than a block and,
 * if period is not 0, one of period +- block bytes (a key meshing period).
 */
typedef struct {
    size_t small, most, block, blocks, period;
} TU_CHUNKING;

/*
 * Splits len into at most max update sizes (the last takes what is left),
 * in one of the styles above, all at once, or (up to 4 KiB) byte by byte.
 */
static inline size_t tu_chunks(TU_RNG *r, const TU_CHUNKING *how, size_t len,
                               size_t *chunks, size_t max)
{
    size_t nstyles = 4 + (how->period != 0) + (len <= 4096);
    size_t n = 0, left = len, style = tu_rng_below(r, nstyles), c;

    while (left > 0 && n < max - 1) {
        if (style == 0)
            c = left;
        else if (style == 1)
            c = 1 + tu_rng_below(r, how->small);
        else if (style == 2)
            c = 1 + tu_rng_below(r, left < how->most ? left : how->most);
        else if (style == 3)
            c = tu_rng_below(r, 4) == 0
                ? 1 + tu_rng_below(r, how->block - 1)
                : how->block * (1 + tu_rng_below(r, how->blocks));
        else if (style == 4 && how->period != 0)
            c = how->period - how->block
                + tu_rng_below(r, 2 * how->block + 1);
        else
            c = 1;
        chunks[n++] = c < left ? c : left;
        left -= chunks[n - 1];
    }
    if (left > 0)
        chunks[n++] = left;
    return n;
}

/*
 * The seed for a run: argument, else SMGOST_TEST_SEED, else derived from the
 * clock; printed so that a failure can be replayed.
 */
static inline uint64_t tu_seed(const char *arg)
{
    const char *s = arg != NULL ? arg : getenv("SMGOST_TEST_SEED");
    uint64_t seed;

    if (s != NULL && *s != '\0')
        seed = strtoull(s, NULL, 0);
    else
        seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    printf("# seed %llu (replay with SMGOST_TEST_SEED=%llu)\n",
           (unsigned long long)seed, (unsigned long long)seed);
    return seed;
}

/* SMGOST_TEST_SCALE: multiplies the number of random cases (default 1). */
static inline double tu_scale(void)
{
    const char *s = getenv("SMGOST_TEST_SCALE");
    double v = s != NULL ? strtod(s, NULL) : 1.0;

    return v > 0 ? v : 1.0;
}

/* Prints the tally the recipes parse and returns the exit status. */
static inline int tu_report(const char *group)
{
    printf("# %s: %lu checks, %lu failures\n", group, tu_checks, tu_failures);
    return tu_failures == 0 && tu_checks > 0 ? 0 : 1;
}

/* One group of a test program's checks, which its command line names. */
typedef struct {
    const char *name;
    void (*run)(void);
} TU_GROUP;

/* A family's groups, in a program that tests several: argv[1] names it. */
typedef struct {
    const char *name;
    const TU_GROUP *groups;
    size_t n;
} TU_FAMILY;

static inline const TU_GROUP *tu_find_group(const TU_GROUP *groups, size_t n,
                                            const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < n; i++)
        if (strcmp(name, groups[i].name) == 0)
            return &groups[i];
    return NULL;
}

static inline void tu_usage_groups(const TU_GROUP *groups, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i > 0 ? "|" : "", groups[i].name);
}

/*
 * Runs group g with *libctx a fresh library context (given first to
 * prepare, if not NULL) and returns the exit status.
 */
static inline int tu_run_group(const TU_GROUP *g, OSSL_LIB_CTX **libctx,
                               void (*prepare)(OSSL_LIB_CTX *))
{
    *libctx = tu_libctx();
    if (prepare != NULL)
        prepare(*libctx);
    g->run();
    tu_libctx_free(*libctx);
    return tu_report(g->name);
}

/*
 * The main of a program made of groups: runs the group argv[1] names (see
 * tu_run_group), or prints a usage line listing every group from the table
 * itself and returns 2.
 */
static inline int tu_main(int argc, char **argv, const TU_GROUP *groups,
                          size_t n, OSSL_LIB_CTX **libctx,
                          void (*prepare)(OSSL_LIB_CTX *))
{
    const TU_GROUP *g = tu_find_group(groups, n, argc > 1 ? argv[1] : NULL);

    if (g != NULL)
        return tu_run_group(g, libctx, prepare);
    fprintf(stderr, "usage: %s ", argv[0]);
    tu_usage_groups(groups, n);
    fputc('\n', stderr);
    return 2;
}

/* The same for a program whose groups come by family: argv[1] names the
 * family, argv[2] one of its groups. */
static inline int tu_main_families(int argc, char **argv,
                                   const TU_FAMILY *families, size_t n,
                                   OSSL_LIB_CTX **libctx,
                                   void (*prepare)(OSSL_LIB_CTX *))
{
    const TU_GROUP *g = NULL;
    size_t i;

    for (i = 0; argc > 2 && i < n; i++)
        if (strcmp(argv[1], families[i].name) == 0)
            g = tu_find_group(families[i].groups, families[i].n, argv[2]);
    if (g != NULL)
        return tu_run_group(g, libctx, prepare);
    fprintf(stderr, "usage:");
    for (i = 0; i < n; i++) {
        fprintf(stderr, "%s %s %s ", i > 0 ? "\n      " : "", argv[0],
                families[i].name);
        tu_usage_groups(families[i].groups, families[i].n);
    }
    fputc('\n', stderr);
    return 2;
}

#endif
