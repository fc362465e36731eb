/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Concurrency: eight threads load smgost and run random operations (every
 * cipher, SM4-GCM/CCM/XTS and the CTR-ACPKM-OMAC ciphers with their tags,
 * SM3, Streebog, md_gost94, the
 * GOST MACs, HMAC over our SM3 and Streebog) on their own contexts,
 * copying and duplicating them mid-stream, and compare each result with a
 * reference computed single-threaded beforehand.  Meant to run under
 * ThreadSanitizer (./Configure enable-tsan) as well as natively.
 *
 * Nothing of the module is warm when the threads start: the reference
 * comes from a second copy of the module (libsmgost.a, linked into this
 * program, registered as a built-in provider in its own library context),
 * whose CPU probe, GOST S-box tables and kernel description are separate
 * statics.  The threads wait on a barrier, then load providers/smgost.so
 * themselves.
 *
 *   threads shared    all threads load the provider into one library
 *                     context (racing loads each init a provider object,
 *                     libcrypto keeps one), then run their operations
 *                     once all have loaded
 *   threads separate  each thread loads it into its own library context
 *   threads init      each thread calls the module's OSSL_provider_init
 *                     itself, then asks for its kernels and tears it down
 *
 * The module builds its lazy state (CPU probe, S-box tables, kernel
 * description) in OSSL_provider_init, through the self-test.  Loads through
 * libcrypto turned out to run those inits one after the other (timestamps
 * in the init showed no overlap: something on libcrypto's load path
 * serialises them), so "init" is the mode where that state is really
 * first touched by eight threads at once.
 */
#include <dlfcn.h>
#include <pthread.h>

#include "testutil.h"
#include "kernel_list.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

#define NTHREADS 8
#define MAX_KEY 100
#define MAX_MSG 3000
#define MAX_OUT (MAX_MSG + 32)

/* The name the static copy is registered under, beside smgost.so. */
#define REF_PROVIDER "smgost-ref"
#define PROPQ "provider=smgost"

enum kind { K_CIPHER, K_DIGEST, K_MAC, K_HMAC, K_AEAD, K_OMAC };

static const struct alg {
    enum kind kind;
    const char *name;
} algs[] = {
    { K_CIPHER, "SM4-ECB" }, { K_CIPHER, "SM4-CBC" }, { K_CIPHER, "SM4-CFB" },
    { K_CIPHER, "SM4-OFB" }, { K_CIPHER, "SM4-CTR" },
    { K_AEAD, "SM4-GCM" }, { K_AEAD, "SM4-CCM" }, { K_AEAD, "SM4-XTS" },
    { K_AEAD, "kuznyechik-mgm" }, { K_AEAD, "magma-mgm" },
    { K_CIPHER, "gost89" }, { K_CIPHER, "gost89-cnt" },
    { K_CIPHER, "gost89-cnt-12" }, { K_CIPHER, "gost89-cbc" },
    { K_CIPHER, "gost89-ecb" }, { K_CIPHER, "magma-ecb" },
    { K_CIPHER, "magma-cbc" }, { K_CIPHER, "magma-ctr" },
    { K_CIPHER, "kuznyechik-ecb" }, { K_CIPHER, "kuznyechik-cbc" },
    { K_CIPHER, "kuznyechik-cfb" }, { K_CIPHER, "kuznyechik-ofb" },
    { K_CIPHER, "kuznyechik-ctr" },
    { K_CIPHER, "magma-ofb" }, { K_CIPHER, "magma-cfb" },
    { K_CIPHER, "magma-ctr-acpkm" }, { K_CIPHER, "kuznyechik-ctr-acpkm" },
    { K_OMAC, "magma-ctr-acpkm-omac" }, { K_OMAC, "kuznyechik-ctr-acpkm-omac" },
    { K_DIGEST, "SM3" }, { K_DIGEST, "md_gost94" },
    { K_DIGEST, "md_gost12_256" }, { K_DIGEST, "md_gost12_512" },
    { K_MAC, "gost-mac" }, { K_MAC, "gost-mac-12" },
    { K_MAC, "magma-mac" }, { K_MAC, "kuznyechik-mac" },
    { K_MAC, "magma-ctr-acpkm-omac" }, { K_MAC, "kuznyechik-ctr-acpkm-omac" },
    { K_HMAC, "HMAC" },
    { K_HMAC, "HMAC:md_gost12_256" }, { K_HMAC, "HMAC:md_gost12_512" },
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

typedef struct {
    const struct alg *alg;
    unsigned char key[MAX_KEY], iv[16], msg[MAX_MSG], ref[MAX_OUT];
    size_t keylen, ivlen, msglen, reflen;
    size_t macsize;             /* gost-mac: the "size" parameter */
} CASE;

static CASE *cases;
static size_t ncases;
static int ops_per_thread;
static uint64_t seed;
/* as long as the provider's report (src/provctx.h) */
static char ref_kernels[SMG_NFAMILIES * 64];

static pthread_barrier_t start;
/*
 * In one shared library context, no thread fetches while another loads or
 * unloads a provider: libcrypto's fetches then fail now and then with
 * "unsupported" for an algorithm of another provider (seen here, 1 run in
 * 400: the default provider's HMAC; OpenSSL issue #17633, "Concurrent
 * OSSL_PROVIDER_try_load and EVP_MD_fetch calls race").  The loads still
 * race each other, and the operations each other.
 */
static pthread_barrier_t loaded, finished;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * testutil's tally is not thread-safe: threads report under a lock.  The
 * condition is computed before, so that no EVP call runs under the lock.
 */
#define T_CHECK(ok, ...)                                                     \
    do {                                                                     \
        int t_ok_ = (ok);                                                    \
        pthread_mutex_lock(&report_lock);                                    \
        TU_CHECK(t_ok_, __VA_ARGS__);                                        \
        pthread_mutex_unlock(&report_lock);                                  \
    } while (0)
#define T_CHECK_MEM(...)                                                     \
    do {                                                                     \
        pthread_mutex_lock(&report_lock);                                    \
        TU_CHECK_MEM(__VA_ARGS__);                                           \
        pthread_mutex_unlock(&report_lock);                                  \
    } while (0)

/* Where the next chunk ends: all at once without an rng, else anywhere. */
static size_t chunk(TU_RNG *rng, size_t left)
{
    if (rng == NULL || left == 0)
        return left;
    switch (tu_rng_below(rng, 4)) {
    case 0:
        return left;
    case 1:
        return tu_rng_below(rng, left < 17 ? left + 1 : 17);
    default:
        return tu_rng_below(rng, left + 1);
    }
}

static int coin(TU_RNG *rng, unsigned n)
{
    return rng != NULL && tu_rng_below(rng, n) == 0;
}

static const char *prov_of_cipher(const EVP_CIPHER *c)
{
    return tu_prov_name(EVP_CIPHER_get0_provider(c));
}

/*
 * Encrypts (enc) or decrypts in with the case's key and IV.  With an rng:
 * random chunks, a copy of the context at random points (the original is
 * freed and the copy goes on), and sometimes a throw-away message first,
 * after which a re-init (same key, or the key again) starts the real one.
 * A K_OMAC cipher gets the CMS parameters with the key (ukm = the case's
 * IV and the next 8 bytes as the seed); its tag follows the output.
 */
static int run_cipher(OSSL_LIB_CTX *lib, const char *want_prov, const CASE *c,
                      int enc, const unsigned char *in, size_t inlen,
                      unsigned char *out, size_t *outlen, TU_RNG *rng)
{
    EVP_CIPHER *ci = EVP_CIPHER_fetch(lib, c->alg->name, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dup;
    const unsigned char *iv = c->ivlen ? c->iv : NULL;
    unsigned char junk[64], der[4 + sizeof(c->iv)];
    size_t off = 0, n = 0, k, taglen = 0, ul = c->ivlen + 8;
    int l, ok = ci != NULL && ctx != NULL
        && strcmp(prov_of_cipher(ci), want_prov) == 0;
    OSSL_PARAM ukm[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    OSSL_PARAM *p = NULL;

    if (c->alg->kind == K_OMAC) {
        ukm[0] = OSSL_PARAM_construct_octet_string(
            "alg_id_param", der, tu_gost2015_params(der, c->iv, ul));
        p = ukm;
        taglen = c->ivlen == 8 ? 16 : 8;
        if (!enc) {
            ok = ok && inlen >= taglen;
            inlen -= ok ? taglen : 0;
        }
    }
    if (ok && coin(rng, 3)) {
        /* A message to throw away, then a new one under the same key. */
        ok = EVP_CipherInit_ex2(ctx, ci, c->key, iv, enc, p)
             && EVP_CipherUpdate(ctx, junk, &l, c->msg,
                                 1 + (int)tu_rng_below(rng, 40));
        if (ok && coin(rng, 2))
            ok = EVP_CipherInit_ex2(ctx, NULL, NULL, iv, enc, NULL);
        else if (ok)
            ok = EVP_CipherInit_ex2(ctx, NULL, c->key, iv, enc, p);
    } else if (ok) {
        ok = EVP_CipherInit_ex2(ctx, ci, c->key, iv, enc, p);
    }
    if (ok && taglen != 0 && !enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                 (void *)(in + inlen)) > 0;
    while (ok && off < inlen) {
        k = chunk(rng, inlen - off);
        if (coin(rng, 4)) {
            ok = (dup = EVP_CIPHER_CTX_new()) != NULL
                 && EVP_CIPHER_CTX_copy(dup, ctx);
            EVP_CIPHER_CTX_free(ok ? ctx : dup);
            if (ok)
                ctx = dup;
        }
        ok = ok && EVP_CipherUpdate(ctx, out + n, &l, in + off, (int)k);
        off += k;
        n += ok ? (size_t)l : 0;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + n, &l);
    n += ok ? (size_t)l : 0;
    if (ok && taglen != 0 && enc) {
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen,
                                 out + n) > 0;
        n += taglen;
    }
    *outlen = n;
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ci);
    return ok;
}

static int run_digest(OSSL_LIB_CTX *lib, const char *want_prov, const CASE *c,
                      unsigned char *out, size_t *outlen, TU_RNG *rng)
{
    EVP_MD *md = EVP_MD_fetch(lib, c->alg->name, PROPQ);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *dup;
    size_t off = 0, k;
    unsigned int l = 0;
    int ok = md != NULL && ctx != NULL
        && strcmp(tu_prov_name(EVP_MD_get0_provider(md)), want_prov) == 0
        && EVP_DigestInit_ex2(ctx, md, NULL);

    while (ok && off < c->msglen) {
        k = chunk(rng, c->msglen - off);
        if (coin(rng, 4)) {
            ok = (dup = EVP_MD_CTX_new()) != NULL
                 && EVP_MD_CTX_copy_ex(dup, ctx);
            EVP_MD_CTX_free(ok ? ctx : dup);
            if (ok)
                ctx = dup;
        }
        ok = ok && EVP_DigestUpdate(ctx, c->msg + off, k);
        off += k;
    }
    ok = ok && EVP_DigestFinal_ex(ctx, out, &l);
    *outlen = l;
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
    return ok;
}

/* The digest of a K_HMAC row: "HMAC" is over SM3, "HMAC:<digest>" over it. */
static const char *hmac_digest(const struct alg *a)
{
    const char *colon = strchr(a->name, ':');

    return colon != NULL ? colon + 1 : "SM3";
}

/*
 * gost-mac / gost-mac-12 from smgost, or HMAC (the default provider's)
 * over SM3 or Streebog fetched from smgost.  The provider check is on the
 * MAC for the GOST ones; for HMAC it is the digest HMAC was told to fetch.
 */
static int run_mac(OSSL_LIB_CTX *lib, const char *want_prov, const CASE *c,
                   unsigned char *out, size_t *outlen, TU_RNG *rng)
{
    int hmac = c->alg->kind == K_HMAC;
    EVP_MAC *mac = EVP_MAC_fetch(lib, hmac ? "HMAC" : c->alg->name,
                                 hmac ? NULL : PROPQ);
    EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL, *dup;
    OSSL_PARAM params[3], *p = params;
    size_t off = 0, k, macsize = c->macsize;
    int ok = ctx != NULL;

    if (hmac) {
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                (char *)hmac_digest(c->alg),
                                                0);
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                (char *)PROPQ, 0);
    } else {
        ok = ok && strcmp(tu_prov_name(EVP_MAC_get0_provider(mac)),
                          want_prov) == 0;
        *p++ = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &macsize);
    }
    *p = OSSL_PARAM_construct_end();
    ok = ok && EVP_MAC_init(ctx, c->key, c->keylen, params);
    while (ok && off < c->msglen) {
        k = chunk(rng, c->msglen - off);
        if (coin(rng, 4)) {
            ok = (dup = EVP_MAC_CTX_dup(ctx)) != NULL;
            if (ok) {
                EVP_MAC_CTX_free(ctx);
                ctx = dup;
            }
        }
        ok = ok && EVP_MAC_update(ctx, c->msg + off, k);
        off += k;
    }
    ok = ok && EVP_MAC_final(ctx, out, outlen, MAX_OUT);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok;
}

/*
 * SM4-GCM, CCM, XTS or MGM: one message with the first 16 key bytes as AAD
 * (not XTS), the output followed by the tag (16 bytes GCM, CCM's default
 * 12, MGM's block).  GCM's and MGM's data goes in random chunks with
 * context copies between them; CCM and XTS take it in one update, after a
 * copy sometimes.
 */
static int run_aead(OSSL_LIB_CTX *lib, const char *want_prov, const CASE *c,
                    int enc, const unsigned char *in, size_t inlen,
                    unsigned char *out, size_t *outlen, TU_RNG *rng)
{
    EVP_CIPHER *ci = EVP_CIPHER_fetch(lib, c->alg->name, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dup;
    int mgm = strstr(c->alg->name, "-mgm") != NULL;
    int chunked = strcmp(c->alg->name, "SM4-GCM") == 0 || mgm;
    int xts = strcmp(c->alg->name, "SM4-XTS") == 0;
    size_t taglen = xts ? 0 : mgm ? c->ivlen : chunked ? 16 : 12, off = 0, k;
    int l, ok = ci != NULL && ctx != NULL
        && strcmp(prov_of_cipher(ci), want_prov) == 0 && inlen >= taglen;

    if (!enc)
        inlen -= ok ? taglen : 0;
    ok = ok && EVP_CipherInit_ex2(ctx, ci, c->key, c->iv, enc, NULL)
         && (enc || xts
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                    (void *)(in + inlen)) > 0)
         && (chunked || xts || EVP_CipherUpdate(ctx, NULL, &l, NULL, (int)inlen))
         && (xts || EVP_CipherUpdate(ctx, NULL, &l, c->key, 16));
    do {
        k = chunked ? chunk(rng, inlen - off) : inlen;
        if (ok && coin(rng, 4)) {
            ok = (dup = EVP_CIPHER_CTX_new()) != NULL
                 && EVP_CIPHER_CTX_copy(dup, ctx);
            EVP_CIPHER_CTX_free(ok ? ctx : dup);
            if (ok)
                ctx = dup;
        }
        ok = ok && EVP_CipherUpdate(ctx, out + off, &l, in + off, (int)k)
             && (size_t)l == k;
        off += k;
    } while (ok && off < inlen);
    ok = ok && EVP_CipherFinal_ex(ctx, out + inlen, &l)
         && (!enc || xts
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen,
                                    out + inlen) > 0);
    *outlen = inlen + (enc ? taglen : 0);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ci);
    return ok;
}

static int run_case(OSSL_LIB_CTX *lib, const char *want_prov, const CASE *c,
                    unsigned char *out, size_t *outlen, TU_RNG *rng)
{
    switch (c->alg->kind) {
    case K_AEAD:
        return run_aead(lib, want_prov, c, 1, c->msg, c->msglen, out, outlen,
                        rng);
    case K_CIPHER:
    case K_OMAC:
        return run_cipher(lib, want_prov, c, 1, c->msg, c->msglen, out,
                          outlen, rng);
    case K_DIGEST:
        return run_digest(lib, want_prov, c, out, outlen, rng);
    default:
        return run_mac(lib, want_prov, c, out, outlen, rng);
    }
}

/* The kernels the provider reports ("sm4=... sm3=... gost=..."). */
static int get_kernels(OSSL_PROVIDER *prov, char *buf, size_t len)
{
    const char *k = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr("kernels", (char **)&k, 0),
        OSSL_PARAM_END
    };

    if (!OSSL_PROVIDER_get_params(prov, params) || k == NULL)
        return 0;
    snprintf(buf, len, "%s", k);
    return 1;
}

/* Random lengths, with the 1024-byte key meshing boundaries well covered. */
static size_t random_length(TU_RNG *r)
{
    switch (tu_rng_below(r, 4)) {
    case 0:
        return tu_rng_below(r, 40);
    case 1:
        return 1000 + tu_rng_below(r, 60);
    case 2:
        return 2040 + tu_rng_below(r, 20);
    default:
        return tu_rng_below(r, MAX_MSG + 1);
    }
}

/* Builds the cases and their single-threaded reference results. */
static void make_reference(const char *modules)
{
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *ref = NULL, *dflt = NULL;
    TU_RNG r;
    size_t i;

    if (lib == NULL || !OSSL_PROVIDER_set_default_search_path(lib, modules)
        || !OSSL_PROVIDER_add_builtin(lib, REF_PROVIDER, OSSL_provider_init)
        || (ref = OSSL_PROVIDER_load(lib, REF_PROVIDER)) == NULL
        || (dflt = OSSL_PROVIDER_load(lib, "default")) == NULL
        || !get_kernels(ref, ref_kernels, sizeof(ref_kernels))) {
        fprintf(stderr, "cannot set up the reference library context\n");
        ERR_print_errors_fp(stderr);
        exit(2);
    }
    tu_rng_seed(&r, seed);
    cases = tu_malloc(ncases * sizeof(*cases));
    for (i = 0; i < ncases; i++) {
        CASE *c = &cases[i];
        EVP_CIPHER *ci;

        memset(c, 0, sizeof(*c));
        c->alg = &algs[i % NALGS];
        c->msglen = random_length(&r);
        tu_rng_bytes(&r, c->msg, c->msglen);
        tu_rng_bytes(&r, c->iv, sizeof(c->iv));
        c->macsize = 1 + tu_rng_below(&r, 8);
        switch (c->alg->kind) {
        case K_AEAD:
            /* an XTS data unit has 16 bytes or more */
            if (c->msglen < 16)
                c->msglen += 16;
            /* fall through */
        case K_CIPHER:
        case K_OMAC:
            ci = EVP_CIPHER_fetch(lib, c->alg->name, PROPQ);
            if (ci == NULL) {
                fprintf(stderr, "reference: no %s\n", c->alg->name);
                ERR_print_errors_fp(stderr);
                exit(2);
            }
            c->keylen = (size_t)EVP_CIPHER_get_key_length(ci);
            c->ivlen = (size_t)EVP_CIPHER_get_iv_length(ci);
            EVP_CIPHER_free(ci);
            break;
        case K_DIGEST:
            break;
        case K_MAC:
            c->keylen = 32;
            break;
        case K_HMAC:
            c->keylen = 1 + tu_rng_below(&r, MAX_KEY);
            break;
        }
        tu_rng_bytes(&r, c->key, c->keylen);
        TU_CHECK(run_case(lib, REF_PROVIDER, c, c->ref, &c->reflen, NULL),
                 "reference %s, %zu bytes", c->alg->name, c->msglen);
    }
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(ref);
    OSSL_LIB_CTX_free(lib);
}

typedef struct {
    int index;
    OSSL_LIB_CTX *shared;       /* NULL: the thread makes its own */
    const char *modules;
} THREAD_ARG;

static void thread_ops(OSSL_LIB_CTX *lib, int index)
{
    TU_RNG r;
    unsigned char *out = tu_malloc(MAX_OUT), *back = tu_malloc(MAX_OUT);
    size_t outlen, backlen;
    int i, ok;

    tu_rng_seed(&r, seed + 1 + (uint64_t)index);
    for (i = 0; i < ops_per_thread; i++) {
        const CASE *c = &cases[tu_rng_below(&r, ncases)];

        ok = run_case(lib, "smgost", c, out, &outlen, &r);
        T_CHECK(ok, "thread %d: %s, %zu bytes", index, c->alg->name,
                c->msglen);
        if (!ok)
            continue;
        T_CHECK_MEM(c->alg->name, out, outlen, c->ref, c->reflen);
        if (c->alg->kind != K_CIPHER && c->alg->kind != K_AEAD
            && c->alg->kind != K_OMAC)
            continue;
        ok = c->alg->kind == K_AEAD
             ? run_aead(lib, "smgost", c, 0, out, outlen, back, &backlen, &r)
             : run_cipher(lib, "smgost", c, 0, out, outlen, back, &backlen,
                          &r);
        T_CHECK(ok, "thread %d: %s decryption", index, c->alg->name);
        if (ok)
            T_CHECK_MEM(c->alg->name, back, backlen, c->msg, c->msglen);
    }
    free(out);
    free(back);
}

/*
 * OSSL_provider_init of the module as libcrypto would find it, called
 * without a core: an empty dispatch table (smgost then raises no errors)
 * and a handle nothing dereferences.
 */
static OSSL_provider_init_fn *module_init;

static void *thread_init_main(void *varg)
{
    static const OSSL_DISPATCH no_core[] = { { 0, NULL } };
    static const char handle_stand_in = 0;
    const THREAD_ARG *arg = varg;
    const OSSL_DISPATCH *out = NULL, *d;
    OSSL_FUNC_provider_get_params_fn *get_params = NULL;
    OSSL_FUNC_provider_teardown_fn *teardown = NULL;
    const char *k = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr("kernels", (char **)&k, 0),
        OSSL_PARAM_END
    };
    void *provctx = NULL;
    int ok;

    pthread_barrier_wait(&start);
    ok = module_init((const OSSL_CORE_HANDLE *)&handle_stand_in, no_core,
                     &out, &provctx);
    for (d = ok ? out : no_core; d->function_id != 0; d++) {
        if (d->function_id == OSSL_FUNC_PROVIDER_GET_PARAMS)
            get_params = OSSL_FUNC_provider_get_params(d);
        else if (d->function_id == OSSL_FUNC_PROVIDER_TEARDOWN)
            teardown = OSSL_FUNC_provider_teardown(d);
    }
    T_CHECK(ok && get_params != NULL && teardown != NULL,
            "thread %d: OSSL_provider_init", arg->index);
    if (get_params != NULL) {
        ok = get_params(provctx, params) && k != NULL;
        T_CHECK(ok && strcmp(k, ref_kernels) == 0,
                "thread %d: kernels \"%s\", the reference copy chose \"%s\"",
                arg->index, ok ? k : "(none)", ref_kernels);
    }
    if (teardown != NULL)
        teardown(provctx);
    OPENSSL_thread_stop();
    return NULL;
}

static void *thread_main(void *varg)
{
    const THREAD_ARG *arg = varg;
    OSSL_LIB_CTX *lib = arg->shared;
    OSSL_PROVIDER *ours = NULL, *dflt = NULL;
    char kernels[sizeof(ref_kernels)] = "";
    int ok;

    if (lib == NULL && (lib = OSSL_LIB_CTX_new()) != NULL
        && !OSSL_PROVIDER_set_default_search_path(lib, arg->modules)) {
        OSSL_LIB_CTX_free(lib);
        lib = NULL;
    }
    pthread_barrier_wait(&start);
    ok = lib != NULL && (ours = OSSL_PROVIDER_load(lib, "smgost")) != NULL
         && (dflt = OSSL_PROVIDER_load(lib, "default")) != NULL;
    T_CHECK(ok, "thread %d: loading smgost and default", arg->index);
    if (arg->shared != NULL)
        pthread_barrier_wait(&loaded);
    if (ok) {
        ok = get_kernels(ours, kernels, sizeof(kernels));
        T_CHECK(ok && strcmp(kernels, ref_kernels) == 0,
                "thread %d: kernels \"%s\", the reference copy chose \"%s\"",
                arg->index, kernels, ref_kernels);
        thread_ops(lib, arg->index);
    }
    if (arg->shared != NULL)
        pthread_barrier_wait(&finished);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(ours);
    if (arg->shared == NULL)
        OSSL_LIB_CTX_free(lib);
    /* Each thread's error state, freed here rather than at exit. */
    OPENSSL_thread_stop();
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *modules = getenv("SMGOST_MODULES");
    pthread_t tid[NTHREADS];
    THREAD_ARG args[NTHREADS];
    OSSL_LIB_CTX *shared = NULL;
    void *module = NULL;
    char path[4096];
    int i, separate, init;

    if (strcmp(mode, "shared") != 0 && strcmp(mode, "separate") != 0
        && strcmp(mode, "init") != 0) {
        fprintf(stderr, "usage: %s shared|separate|init [seed]\n", argv[0]);
        return 2;
    }
    separate = strcmp(mode, "separate") == 0;
    init = strcmp(mode, "init") == 0;
    if (modules == NULL || *modules == '\0')
        modules = getenv("OPENSSL_MODULES");
    if (modules == NULL || *modules == '\0') {
        fprintf(stderr, "SMGOST_MODULES is not set\n");
        return 2;
    }
    seed = tu_seed(argc > 2 ? argv[2] : NULL);
    ncases = (size_t)(3 * NALGS * tu_scale());
    ops_per_thread = (int)(60 * tu_scale());
    make_reference(modules);

    if (init) {
        snprintf(path, sizeof(path), "%s/smgost.so", modules);
        if ((module = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL
            || (module_init = (OSSL_provider_init_fn *)
                    dlsym(module, "OSSL_provider_init")) == NULL) {
            fprintf(stderr, "%s: %s\n", path, dlerror());
            return 2;
        }
    } else if (!separate && ((shared = OSSL_LIB_CTX_new()) == NULL
                      || !OSSL_PROVIDER_set_default_search_path(shared,
                                                                modules))) {
        fprintf(stderr, "cannot make the shared library context\n");
        return 2;
    }
    pthread_barrier_init(&start, NULL, NTHREADS);
    pthread_barrier_init(&loaded, NULL, NTHREADS);
    pthread_barrier_init(&finished, NULL, NTHREADS);
    for (i = 0; i < NTHREADS; i++) {
        args[i].index = i;
        args[i].shared = shared;
        args[i].modules = modules;
        if (pthread_create(&tid[i], NULL,
                           init ? thread_init_main : thread_main,
                           &args[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < NTHREADS; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&start);
    pthread_barrier_destroy(&loaded);
    pthread_barrier_destroy(&finished);
    OSSL_LIB_CTX_free(shared);
    if (module != NULL)
        dlclose(module);
    free(cases);
    return tu_report(init ? "threads, OSSL_provider_init at once"
                     : separate ? "threads, one library context each"
                                : "threads, one shared library context");
}
