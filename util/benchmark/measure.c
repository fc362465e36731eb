/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The measurements: the rows (algs[]), the key, IV and input every process
 * uses, one implementation's fetch, setup and call as a user makes it
 * through EVP (libgcrypt's in gcrypt.c), and measure(), which times a row
 * in this process, a child's or the parent's.  Also the references the
 * parent measures itself (load_references).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/err.h>

#include "bench.h"

#ifdef HAVE_GCRYPT
# define GC(algo, mode) algo, mode
#else
# define GC(algo, mode) 0, 0
#endif

const char *const family_name[N_FAMILY] = {
    "sm4", "sm3", "gost", "kuznyechik", "streebog"
};
const char *const impl_name[N_IMPL] = {
    "smgost", "openssl", "gostprov", "gcrypt"
};
/* The provider each EVP implementation must come from. */
static const char *const impl_provider[N_IMPL] = {
    "smgost", "default", "gostprov", NULL
};

/* The rows, in the order the tables print them. */
static const struct alg rows[] = {
    { "SM4-ECB", F_SM4, K_CIPHER, 0, "SM4-ECB", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_ECB) },
    { "SM4-CBC", F_SM4, K_CIPHER, 0, "SM4-CBC", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC) },
    { "SM4-CBC", F_SM4, K_CIPHER, 1, "SM4-CBC", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC) },
    { "SM4-CTR", F_SM4, K_CIPHER, 0, "SM4-CTR", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CTR) },
    { "SM4-CFB", F_SM4, K_CIPHER, 0, "SM4-CFB", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CFB) },
    { "SM4-CFB", F_SM4, K_CIPHER, 1, "SM4-CFB", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CFB) },
    { "SM4-OFB", F_SM4, K_CIPHER, 0, "SM4-OFB", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_OFB) },
    { "SM4-GCM", F_SM4, K_AEAD, 0, "SM4-GCM", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_GCM) },
    { "SM4-GCM", F_SM4, K_AEAD, 1, "SM4-GCM", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_GCM) },
    { "SM4-CCM", F_SM4, K_AEAD, 0, "SM4-CCM", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CCM) },
    { "SM4-CCM", F_SM4, K_AEAD, 1, "SM4-CCM", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CCM) },
    { "SM4-XTS", F_SM4, K_AEAD, 0, "SM4-XTS", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_XTS) },
    { "SM4-XTS", F_SM4, K_AEAD, 1, "SM4-XTS", NULL,
      GC(GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_XTS) },
    { "SM3", F_SM3, K_DIGEST, 0, "SM3", NULL, GC(GCRY_MD_SM3, 0) },
    /* gostprov's gost89 is CFB with CryptoPro key meshing */
    { "gost89", F_GOST, K_CIPHER, 0, NULL, "gost89",
      GC(GCRY_CIPHER_GOST28147_MESH, GCRY_CIPHER_MODE_CFB) },
    { "gost89", F_GOST, K_CIPHER, 1, NULL, "gost89",
      GC(GCRY_CIPHER_GOST28147_MESH, GCRY_CIPHER_MODE_CFB) },
    { "gost89-cnt", F_GOST, K_CIPHER, 0, NULL, "gost89-cnt", 0, 0 },
    { "gost89-cnt-12", F_GOST, K_CIPHER, 0, NULL, "gost89-cnt-12", 0, 0 },
    /* gost-engine does not mesh in CBC, nor does plain GOST28147 */
    { "gost89-cbc", F_GOST, K_CIPHER, 0, NULL, "gost89-cbc",
      GC(GCRY_CIPHER_GOST28147, GCRY_CIPHER_MODE_CBC) },
    { "gost89-cbc", F_GOST, K_CIPHER, 1, NULL, "gost89-cbc",
      GC(GCRY_CIPHER_GOST28147, GCRY_CIPHER_MODE_CBC) },
    { "gost89-ecb", F_GOST, K_CIPHER, 0, NULL, NULL,
      GC(GCRY_CIPHER_GOST28147, GCRY_CIPHER_MODE_ECB) },
    { "magma-ecb", F_GOST, K_CIPHER, 0, NULL, NULL, 0, 0 },
    { "magma-cbc", F_GOST, K_CIPHER, 0, NULL, "magma-cbc", 0, 0 },
    { "magma-cbc", F_GOST, K_CIPHER, 1, NULL, "magma-cbc", 0, 0 },
    { "magma-ctr", F_GOST, K_CIPHER, 0, NULL, "magma-ctr", 0, 0 },
    { "gost-mac", F_GOST, K_MAC, 0, NULL, "gost-mac",
      GC(GCRY_MAC_GOST28147_IMIT, 0) },
    /* ACPKM and OMAC (GOST R 34.13-2015, R 1323565.1.017-2018) */
    { "magma-ctr-acpkm", F_GOST, K_CIPHER, 0, NULL, "magma-ctr-acpkm",
      0, 0 },
    { "magma-mac", F_GOST, K_MAC, 0, NULL, "magma-mac", 0, 0 },
    /* MGM (RFC 9058): gostprov 3.0.2 and later have it */
    { "magma-mgm", F_GOST, K_AEAD, 0, NULL, "magma-mgm", 0, 0 },
    { "magma-mgm", F_GOST, K_AEAD, 1, NULL, "magma-mgm", 0, 0 },
    /* gostprov 3.0.1 has no MAC of this name (3.0.2 and later do) */
    { "magma-ctr-acpkm-omac", F_GOST, K_MAC, 0, NULL,
      "magma-ctr-acpkm-omac", 0, 0 },
    /* no libgcrypt has Kuznyechik: gostprov is the only reference */
    { "kuznyechik-ecb", F_KUZ, K_CIPHER, 0, NULL, "kuznyechik-ecb", 0, 0 },
    { "kuznyechik-cbc", F_KUZ, K_CIPHER, 0, NULL, "kuznyechik-cbc", 0, 0 },
    { "kuznyechik-cbc", F_KUZ, K_CIPHER, 1, NULL, "kuznyechik-cbc", 0, 0 },
    { "kuznyechik-ctr", F_KUZ, K_CIPHER, 0, NULL, "kuznyechik-ctr", 0, 0 },
    { "kuznyechik-cfb", F_KUZ, K_CIPHER, 0, NULL, "kuznyechik-cfb", 0, 0 },
    { "kuznyechik-cfb", F_KUZ, K_CIPHER, 1, NULL, "kuznyechik-cfb", 0, 0 },
    { "kuznyechik-ofb", F_KUZ, K_CIPHER, 0, NULL, "kuznyechik-ofb", 0, 0 },
    { "kuznyechik-ctr-acpkm", F_KUZ, K_CIPHER, 0, NULL,
      "kuznyechik-ctr-acpkm", 0, 0 },
    /* MGM (RFC 9058): gostprov 3.0.2 and later have it */
    { "kuznyechik-mgm", F_KUZ, K_AEAD, 0, NULL, "kuznyechik-mgm", 0, 0 },
    { "kuznyechik-mgm", F_KUZ, K_AEAD, 1, NULL, "kuznyechik-mgm", 0, 0 },
    { "kuznyechik-mac", F_KUZ, K_MAC, 0, NULL, "kuznyechik-mac", 0, 0 },
    { "kuznyechik-ctr-acpkm-omac", F_KUZ, K_MAC, 0, NULL,
      "kuznyechik-ctr-acpkm-omac", 0, 0 },
    /* GOST R 34.11-94, CryptoPro set: libgcrypt's GOSTR3411_CP */
    { "md_gost94", F_GOST, K_DIGEST, 0, NULL, "md_gost94",
      GC(GCRY_MD_GOSTR3411_CP, 0) },
    { "md_gost12_256", F_STREEBOG, K_DIGEST, 0, NULL, "md_gost12_256",
      GC(GCRY_MD_STRIBOG256, 0) },
    { "md_gost12_512", F_STREEBOG, K_DIGEST, 0, NULL, "md_gost12_512",
      GC(GCRY_MD_STRIBOG512, 0) },
};
_Static_assert(sizeof(rows) / sizeof(rows[0]) == N_ALGS,
               "N_ALGS (bench.h) is the number of rows");
const struct alg *const algs = rows;

OSSL_LIB_CTX *impl_libctx[N_IMPL];
const char *impl_propq[N_IMPL];
int impl_loaded[N_IMPL];
void *fetched[N_IMPL][N_ALGS];
char gcrypt_title[40];

unsigned char *inbuf, *outbuf;
unsigned char key[64], iv[32];

/* The same key, IV and input in every process. */
int make_data(void)
{
    size_t i;

    inbuf = OPENSSL_malloc(MAX_SIZE);
    outbuf = OPENSSL_malloc(MAX_SIZE);
    if (inbuf == NULL || outbuf == NULL)
        return 0;
    for (i = 0; i < MAX_SIZE; i++)
        inbuf[i] = (unsigned char)(i * 131 + 7);
    for (i = 0; i < sizeof(key); i++)
        key[i] = (unsigned char)(i * 29 + 1);
    for (i = 0; i < sizeof(iv); i++)
        iv[i] = (unsigned char)(i * 17 + 3);
    return 1;
}

static void *fetch(enum impl impl, const struct alg *a)
{
    const char *name = impl == I_SMG ? a->name
                       : impl == I_OSSL ? a->ossl : a->gostprov;
    OSSL_LIB_CTX *ctx = impl_libctx[impl];
    const char *pq = impl_propq[impl];
    const OSSL_PROVIDER *prov = NULL;
    void *p = NULL;

    if (name == NULL)
        return NULL;
    ERR_set_mark();
    switch (a->kind) {
    case K_CIPHER:
    case K_AEAD:
        if ((p = EVP_CIPHER_fetch(ctx, name, pq)) != NULL)
            prov = EVP_CIPHER_get0_provider(p);
        break;
    case K_DIGEST:
        if ((p = EVP_MD_fetch(ctx, name, pq)) != NULL)
            prov = EVP_MD_get0_provider(p);
        break;
    case K_MAC:
        if ((p = EVP_MAC_fetch(ctx, name, pq)) != NULL)
            prov = EVP_MAC_get0_provider(p);
        break;
    }
    ERR_pop_to_mark();
    /* gostprov's algorithms carry no provider= property: check the owner */
    if (p != NULL
        && strcmp(OSSL_PROVIDER_get0_name(prov), impl_provider[impl]) != 0) {
        fprintf(stderr, "bench: %s from %s, not %s: ignored\n", name,
                OSSL_PROVIDER_get0_name(prov), impl_provider[impl]);
        switch (a->kind) {
        case K_CIPHER: case K_AEAD: EVP_CIPHER_free(p); break;
        case K_DIGEST: EVP_MD_free(p); break;
        case K_MAC: EVP_MAC_free(p); break;
        }
        p = NULL;
    }
    return p;
}

static void job_free(struct job *j)
{
    OPENSSL_free(j->ct);
    EVP_CIPHER_CTX_free(j->cctx);
    EVP_MD_CTX_free(j->mdctx);
    EVP_MAC_CTX_free(j->macctx);
#ifdef HAVE_GCRYPT
    gcrypt_job_free(j);
#endif
}

static int is_xts(const struct alg *a)
{
    return strcmp(a->name, "SM4-XTS") == 0;
}

/*
 * The tag's length: MGM's is its block (the nonce's length: 16 bytes for
 * Kuznyechik, 8 for Magma), the whole of which a decryption must set
 * (gostprov requires it); SM4's AEADs' 16 bytes.
 */
static int aead_tag_len(const struct job *j)
{
    return strstr(j->a->name, "-mgm") != NULL
           ? EVP_CIPHER_CTX_get_iv_length(j->cctx) : 16;
}

/*
 * One whole message: the IV (GCM 12 bytes, CCM a 12-byte nonce, XTS the
 * 16-byte tweak, MGM a block), CCM's length, 16 bytes of AAD (not XTS),
 * the data, the final and the tag (aead_tag_len; set before a
 * decryption's data).
 */
static int aead_message(struct job *j, int dec, const unsigned char *in,
                        unsigned char *tag)
{
    EVP_CIPHER_CTX *c = j->cctx;
    int outl, xts = is_xts(j->a), ccm = !xts && strcmp(j->a->name, "SM4-CCM") == 0;
    int taglen = aead_tag_len(j);

    return EVP_CipherInit_ex2(c, NULL, NULL, iv, !dec, NULL)
           && (!dec || xts
               || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, taglen, tag) > 0)
           && (!ccm || EVP_CipherUpdate(c, NULL, &outl, NULL, (int)j->n))
           && (xts || EVP_CipherUpdate(c, NULL, &outl, iv + 16, 16))
           && EVP_CipherUpdate(c, outbuf, &outl, in, (int)j->n)
           && EVP_CipherFinal_ex(c, outbuf + j->n, &outl)
           && (dec || xts
               || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, taglen, tag) > 0);
}

static int job_setup(struct job *j, enum impl impl, const struct alg *a,
                     size_t n)
{
    void *f = fetched[impl][a - algs];

    memset(j, 0, sizeof(*j));
    j->a = a;
    j->impl = impl;
    j->n = n;
#ifdef HAVE_GCRYPT
    if (impl == I_GCRYPT)
        return gcrypt_setup(j);
#endif
    if (f == NULL)
        return 0;
    switch (a->kind) {
    case K_AEAD:
        /* CCM's nonce and tag lengths go before the key */
        if ((j->cctx = EVP_CIPHER_CTX_new()) == NULL
            || !EVP_CipherInit_ex2(j->cctx, f, NULL, NULL, !a->dec, NULL)
            || (strcmp(a->name, "SM4-CCM") == 0
                && (EVP_CIPHER_CTX_ctrl(j->cctx, EVP_CTRL_AEAD_SET_IVLEN, 12,
                                        NULL) <= 0
                    || EVP_CIPHER_CTX_ctrl(j->cctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                           NULL) <= 0))
            || !EVP_CipherInit_ex2(j->cctx, NULL, key, NULL, !a->dec, NULL))
            return 0;
        if (!a->dec)
            return 1;
        /* the encryption's context makes the message to decrypt */
        if ((j->ct = OPENSSL_malloc(MAX_SIZE)) == NULL
            || !EVP_CipherInit_ex2(j->cctx, NULL, NULL, NULL, 1, NULL)
            || !aead_message(j, 0, inbuf, j->tag))
            return 0;
        memcpy(j->ct, outbuf, n);
        return EVP_CipherInit_ex2(j->cctx, NULL, NULL, NULL, 0, NULL);
    case K_CIPHER:
        /* padding off so that ECB/CBC give exactly n bytes per call */
        return (j->cctx = EVP_CIPHER_CTX_new()) != NULL
               && EVP_CipherInit_ex2(j->cctx, f, key, iv, !a->dec, NULL)
               && EVP_CIPHER_CTX_set_padding(j->cctx, 0);
    case K_DIGEST:
        return (j->mdctx = EVP_MD_CTX_new()) != NULL;
    case K_MAC:
        return (j->macctx = EVP_MAC_CTX_new(f)) != NULL;
    }
    return 0;
}

/* One call as a user makes it: an update, or a whole message. */
static int job_call(struct job *j)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen;
    size_t maclen;
    int outl;

#ifdef HAVE_GCRYPT
    if (j->impl == I_GCRYPT)
        return gcrypt_call(j);
#endif
    switch (j->a->kind) {
    case K_AEAD:
        return aead_message(j, j->a->dec, j->a->dec ? j->ct : inbuf,
                            j->a->dec ? j->tag : md);
    case K_CIPHER:
        return EVP_CipherUpdate(j->cctx, outbuf, &outl, inbuf, (int)j->n)
               && (size_t)outl == j->n;
    case K_DIGEST:
        return EVP_DigestInit_ex(j->mdctx, fetched[j->impl][j->a - algs],
                                 NULL)
               && EVP_DigestUpdate(j->mdctx, inbuf, j->n)
               && EVP_DigestFinal_ex(j->mdctx, md, &mdlen);
    case K_MAC:
        /* a keyed init per message: gostprov has no key-less re-init */
        return EVP_MAC_init(j->macctx, key, 32, NULL)
               && EVP_MAC_update(j->macctx, inbuf, j->n)
               && EVP_MAC_final(j->macctx, md, &maclen, sizeof(md));
    }
    return 0;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Measurements count this thread's CPU time: on a shared machine the time
 * spent waiting for a core would otherwise land on whoever was unlucky.
 */
static double cpu_now(void)
{
    return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

double wall_now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/*
 * Bytes per CPU second of impl on row a with n-byte calls, timed for about
 * secs after a warm-up of secs/8 (clock, caches, lazily built tables);
 * negative if the implementation lacks it or fails.  Calls go in batches
 * of about secs/64 so that reading the clock costs nothing next to even
 * 16-byte calls, and the fastest batch is the measurement: on a shared
 * machine a neighbour's burst (another guest on the core's sibling, say)
 * slows some batches by tens of per cent, and which implementation it
 * lands on is chance, while no batch runs faster than the code can.
 */
double measure(enum impl impl, const struct alg *a, size_t n, double secs)
{
    struct job j;
    size_t batch = 1, i, calls = 0;
    double t0, t1, start, best = 0;

    if (!job_setup(&j, impl, a, n)) {
        job_free(&j);
        return -1;
    }
    start = t0 = cpu_now();
    do {
        for (i = 0; i < batch; i++)
            if (!job_call(&j)) {
                job_free(&j);
                return -1;
            }
        t1 = cpu_now();
        if (t1 - t0 < secs / 64)
            batch *= 2;
        t0 = t1;
    } while (t1 - start < secs / 8);
    start = t0 = cpu_now();
    do {
        for (i = 0; i < batch; i++)
            job_call(&j);
        calls += batch;
        t1 = cpu_now();
        if (t1 > t0) {
            double rate = (double)batch * (double)n / (t1 - t0);

            if (rate > best)
                best = rate;
        }
        t0 = t1;
    } while (t1 - start < secs);
    job_free(&j);
    /* no batch measurable at this clock's resolution: the mean */
    return best > 0 ? best : (double)calls * (double)n / (t1 - start);
}

OSSL_PROVIDER *load_from(OSSL_LIB_CTX *ctx, const char *dir,
                         const char *name)
{
    if (!OSSL_PROVIDER_set_default_search_path(ctx, dir))
        return NULL;
    return OSSL_PROVIDER_load(ctx, name);
}

void fetch_all(enum impl impl)
{
    size_t i;

    for (i = 0; i < N_ALGS; i++)
        fetched[impl][i] = fetch(impl, &algs[i]);
}

/* The references, in this unmasked process. */
void load_references(void)
{
    const char *gpdir = getenv("SMGOST_GOSTPROV");

    impl_propq[I_OSSL] = "provider=default";
    impl_loaded[I_OSSL] = 1;
    fetch_all(I_OSSL);
    if (gpdir != NULL && *gpdir != '\0') {
        /* only gostprov and default: its names must resolve to gostprov */
        OSSL_LIB_CTX *gp = impl_libctx[I_GOSTPROV] = OSSL_LIB_CTX_new();
        char path[4096];

        /*
         * gostprov's OMAC MACs fetch their cipher from the default library
         * context whatever context they run in: it goes there too.
         */
        snprintf(path, sizeof(path), "%s/gostprov.so", gpdir);
        if (gp != NULL && load_from(gp, gpdir, "gostprov") != NULL
            && OSSL_PROVIDER_load(gp, "default") != NULL
            && OSSL_PROVIDER_load(NULL, path) != NULL) {
            impl_loaded[I_GOSTPROV] = 1;
            fetch_all(I_GOSTPROV);
        } else {
            fprintf(stderr, "bench: cannot load gostprov from %s\n", gpdir);
            ERR_print_errors_fp(stderr);
        }
    }
#ifdef HAVE_GCRYPT
    impl_loaded[I_GCRYPT] = gcrypt_init();
    if (impl_loaded[I_GCRYPT])
        snprintf(gcrypt_title, sizeof(gcrypt_title), "gcrypt %s",
                 gcry_check_version(NULL));
#endif
}
