/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `make bench`: smgost's throughput through EVP, as users get it, beside
 * OpenSSL's default provider, gostprov and libgcrypt, in one run.
 *
 * smgost picks its kernels once, when the module loads, from CPUID masked
 * by OPENSSL_ia32cap (OPENSSL_armcap on aarch64).  So every capability
 * level runs in its own process: the program re-executes itself with
 * --serve and the mask set, and that child measures on request over a
 * pipe.  The parent measures the other implementations itself, unmasked,
 * and asks the children in turn, so each table cell is a set of short
 * alternating rounds (A B C A B C ...) over every implementation and the
 * best round of each is kept (a round's figure is its fastest batch of
 * calls, measure()): a noisy neighbour slows all of them alike, and only
 * ever slows.  Levels that end up with the same kernel as an
 * earlier level are measured once.
 *
 * Other libgcrypt builds are measured the same way: `make bench GCRYPT=DIR`
 * links this file against DIR's libgcrypt as util/bench-gcrypt, named to
 * this process in SMGOST_BENCH_GCRYPT, and that binary serves with
 * --serve-gcrypt: one more column per family, titled with its version,
 * beside the libgcrypt this binary is linked with.
 *
 * With -m each libgcrypt also runs once per chosen level but the first,
 * with the features that level hides from smgost hidden from libgcrypt
 * too (GCRYCTL_DISABLE_HWF, through SMGOST_BENCH_GCRYPT_HIDE in its
 * child's environment), so that a level is compared with what libgcrypt
 * does on a CPU that has only that level.
 *
 * Another build of smgost too: `make bench BASE=DIR` (SMGOST_BENCH_BASE,
 * DIR the providers folder of, say, a worktree of an older commit) runs
 * each selected level once more with DIR's smgost.so, in columns titled
 * "base <kernel>" beside this build's, so that a change is measured
 * before and after in one run.
 */
#define _GNU_SOURCE     /* FNM_CASEFOLD, pipe2, environ */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "cpu.h"

#ifdef HAVE_GCRYPT
# include <gcrypt.h>
# define GC(algo, mode) algo, mode
#else
# define GC(algo, mode) 0, 0
#endif

#define MAX_SIZE 16384
#define DEFAULT_SECONDS 150.0
#define QUICK_SECONDS 20.0

enum family { F_SM4, F_SM3, F_GOST, N_FAMILY };
/* K_AEAD: GCM, CCM, XTS, timed as whole messages (IV, 16 bytes of AAD but
 * for XTS, the data, the tag). */
enum kind { K_CIPHER, K_DIGEST, K_MAC, K_AEAD };
/* Who computes: smgost (in a child per level) or a reference. */
enum impl { I_SMG, I_OSSL, I_GOSTPROV, I_GCRYPT, N_IMPL };

static const char *const family_name[N_FAMILY] = { "sm4", "sm3", "gost" };
static const char *const impl_name[N_IMPL] = {
    "smgost", "openssl", "gostprov", "gcrypt"
};
/* The provider each EVP implementation must come from. */
static const char *const impl_provider[N_IMPL] = {
    "smgost", "default", "gostprov", NULL
};

/*
 * One table row.  Names are smgost's; ossl and gostprov name the same
 * algorithm in those providers; the libgcrypt pair is (algorithm, mode)
 * for ciphers, the algorithm alone for digests and MACs.
 */
struct alg {
    const char *name;
    enum family family;
    enum kind kind;
    int dec;
    const char *ossl, *gostprov;
    int gc_algo, gc_mode;
};

static const struct alg algs[] = {
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
};
#define N_ALGS (sizeof(algs) / sizeof(algs[0]))

/*
 * A capability level: the value of CAP_VAR that forces it, NULL to inherit;
 * alias another name -l takes for it.
 */
struct level {
    const char *name, *alias, *value, *what;
    const char *gcrypt_hide;    /* libgcrypt's names of what it hides */
};

/* util/KernelLevels.pm's levels for make bench, made by make: CAP_VAR,
 * N_LEVELS and LEVELS_INIT for this architecture */
#include "bench-levels.h"
static const struct level levels[N_LEVELS] = { LEVELS_INIT };

static const size_t default_sizes[] = { 16, 64, 256, 1024, 8192, 16384 };

/* --- measuring one implementation ------------------------------------ */

static OSSL_LIB_CTX *impl_libctx[N_IMPL];
static const char *impl_propq[N_IMPL];
static int impl_loaded[N_IMPL];
/* EVP_CIPHER, EVP_MD or EVP_MAC per implementation and row */
static void *fetched[N_IMPL][N_ALGS];

static unsigned char *inbuf, *outbuf;
static unsigned char key[64], iv[32];

/* Everything one timed loop needs, made afresh for each measurement. */
struct job {
    const struct alg *a;
    enum impl impl;
    size_t n;
    EVP_CIPHER_CTX *cctx;
    EVP_MD_CTX *mdctx;
    EVP_MAC_CTX *macctx;
    /* K_AEAD decryption: a message the encryption made, and its tag */
    unsigned char *ct, tag[16];
#ifdef HAVE_GCRYPT
    gcry_cipher_hd_t gch;
    gcry_md_hd_t gmd;
    gcry_mac_hd_t gmac;
#endif
};

/* The same key, IV and input in every process. */
static int make_data(void)
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

#ifdef HAVE_GCRYPT
static int gcrypt_init(void)
{
    const char *hide = getenv("SMGOST_BENCH_GCRYPT_HIDE");
    char buf[512], *tok, *save = NULL;

    /* before gcry_check_version, which probes the CPU */
    snprintf(buf, sizeof(buf), "%s", hide != NULL ? hide : "");
    for (tok = strtok_r(buf, " ", &save); tok != NULL;
         tok = strtok_r(NULL, " ", &save))
        gcry_control(GCRYCTL_DISABLE_HWF, tok, NULL);
    if (gcry_check_version(NULL) == NULL)
        return 0;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return 1;
}

static int gcrypt_has(const struct alg *a)
{
    if (a->gc_algo == 0)
        return 0;
    switch (a->kind) {
    case K_CIPHER: case K_AEAD: return gcry_cipher_test_algo(a->gc_algo) == 0;
    case K_DIGEST: return gcry_md_test_algo(a->gc_algo) == 0;
    case K_MAC: return gcry_mac_test_algo(a->gc_algo) == 0;
    }
    return 0;
}

/* gcry_cipher_set_sbox() is a macro ending in a semicolon */
static gcry_error_t gcry_set_sbox(gcry_cipher_hd_t h, const char *oid)
{
    return gcry_cipher_ctl(h, GCRYCTL_SET_SBOX, (void *)oid, 0);
}

/* One whole AEAD or XTS message, as aead_message() below. */
static int gcrypt_message(struct job *j, int dec, const unsigned char *in,
                          unsigned char *tag)
{
    int mode = j->a->gc_mode;
    uint64_t lens[3] = { j->n, 16, 16 };

    if (gcry_cipher_setiv(j->gch, iv, mode == GCRY_CIPHER_MODE_XTS ? 16 : 12)
        || (mode == GCRY_CIPHER_MODE_CCM
            && gcry_cipher_ctl(j->gch, GCRYCTL_SET_CCM_LENGTHS, lens,
                               sizeof(lens)))
        || (mode != GCRY_CIPHER_MODE_XTS
            && gcry_cipher_authenticate(j->gch, iv + 16, 16))
        || (dec ? gcry_cipher_decrypt : gcry_cipher_encrypt)
               (j->gch, outbuf, j->n, in, j->n))
        return 0;
    if (mode == GCRY_CIPHER_MODE_XTS)
        return 1;
    return (dec ? gcry_cipher_checktag(j->gch, tag, 16)
                : gcry_cipher_gettag(j->gch, tag, 16)) == 0;
}

static int gcrypt_setup(struct job *j)
{
    const struct alg *a = j->a;

    switch (a->kind) {
    case K_AEAD:
        if (gcry_cipher_open(&j->gch, a->gc_algo, a->gc_mode, 0) != 0
            || gcry_cipher_setkey(j->gch, key,
                                  a->gc_mode == GCRY_CIPHER_MODE_XTS ? 32
                                  : 16) != 0)
            return 0;
        if (!a->dec)
            return 1;
        if ((j->ct = OPENSSL_malloc(MAX_SIZE)) == NULL
            || !gcrypt_message(j, 0, inbuf, j->tag))
            return 0;
        memcpy(j->ct, outbuf, j->n);
        return 1;
    case K_CIPHER:
        if (gcry_cipher_open(&j->gch, a->gc_algo, a->gc_mode, 0) != 0)
            return 0;
        /*
         * gostprov's gost89 defaults to TC26 Z (gost-engine 3.0.1, as
         * smgost's gost89 after it: README's GOST table); libgcrypt
         * 1.10 meshes only for the CryptoPro sets, its default being Test.
         */
        if (a->family == F_GOST
            && gcry_set_sbox(j->gch, "1.2.643.7.1.2.5.1.1") != 0
            && gcry_set_sbox(j->gch, "1.2.643.2.2.31.1") != 0)
            return 0;
        if (gcry_cipher_setkey(j->gch, key,
                               gcry_cipher_get_algo_keylen(a->gc_algo)) != 0)
            return 0;
        if (a->gc_mode == GCRY_CIPHER_MODE_CTR)
            return gcry_cipher_setctr(j->gch, iv,
                       gcry_cipher_get_algo_blklen(a->gc_algo)) == 0;
        if (a->gc_mode != GCRY_CIPHER_MODE_ECB)
            return gcry_cipher_setiv(j->gch, iv,
                       gcry_cipher_get_algo_blklen(a->gc_algo)) == 0;
        return 1;
    case K_DIGEST:
        return gcry_md_open(&j->gmd, a->gc_algo, 0) == 0;
    case K_MAC:
        return gcry_mac_open(&j->gmac, a->gc_algo, 0, NULL) == 0;
    }
    return 0;
}

static int gcrypt_call(struct job *j)
{
    unsigned char mac[64];
    size_t maclen = 4;

    switch (j->a->kind) {
    case K_AEAD:
        return gcrypt_message(j, j->a->dec, j->a->dec ? j->ct : inbuf,
                              j->a->dec ? j->tag : mac);
    case K_CIPHER:
        return (j->a->dec ? gcry_cipher_decrypt : gcry_cipher_encrypt)
                   (j->gch, outbuf, j->n, inbuf, j->n) == 0;
    case K_DIGEST:
        gcry_md_reset(j->gmd);
        gcry_md_write(j->gmd, inbuf, j->n);
        return gcry_md_read(j->gmd, 0) != NULL;
    case K_MAC:
        /* a keyed init per message, as with the EVP_MACs */
        return gcry_mac_reset(j->gmac) == 0
               && gcry_mac_setkey(j->gmac, key, 32) == 0
               && gcry_mac_write(j->gmac, inbuf, j->n) == 0
               && gcry_mac_read(j->gmac, mac, &maclen) == 0;
    }
    return 0;
}
#endif

static void job_free(struct job *j)
{
    OPENSSL_free(j->ct);
    EVP_CIPHER_CTX_free(j->cctx);
    EVP_MD_CTX_free(j->mdctx);
    EVP_MAC_CTX_free(j->macctx);
#ifdef HAVE_GCRYPT
    if (j->gch != NULL)
        gcry_cipher_close(j->gch);
    if (j->gmd != NULL)
        gcry_md_close(j->gmd);
    if (j->gmac != NULL)
        gcry_mac_close(j->gmac);
#endif
}

static int is_xts(const struct alg *a)
{
    return strcmp(a->name, "SM4-XTS") == 0;
}

/*
 * One whole message: the IV (GCM 12 bytes, CCM a 12-byte nonce, XTS the
 * 16-byte tweak), CCM's length, 16 bytes of AAD (not XTS), the data, the
 * final and the tag (16 bytes; set before a decryption's data).
 */
static int aead_message(struct job *j, int dec, const unsigned char *in,
                        unsigned char *tag)
{
    EVP_CIPHER_CTX *c = j->cctx;
    int outl, xts = is_xts(j->a), ccm = !xts && strcmp(j->a->name, "SM4-CCM") == 0;

    return EVP_CipherInit_ex2(c, NULL, NULL, iv, !dec, NULL)
           && (!dec || xts
               || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0)
           && (!ccm || EVP_CipherUpdate(c, NULL, &outl, NULL, (int)j->n))
           && (xts || EVP_CipherUpdate(c, NULL, &outl, iv + 16, 16))
           && EVP_CipherUpdate(c, outbuf, &outl, in, (int)j->n)
           && EVP_CipherFinal_ex(c, outbuf + j->n, &outl)
           && (dec || xts
               || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0);
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

static double wall_now(void)
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
static double measure(enum impl impl, const struct alg *a, size_t n,
                      double secs)
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

static OSSL_PROVIDER *load_from(OSSL_LIB_CTX *ctx, const char *dir,
                                const char *name)
{
    if (!OSSL_PROVIDER_set_default_search_path(ctx, dir))
        return NULL;
    return OSSL_PROVIDER_load(ctx, name);
}

static void fetch_all(enum impl impl)
{
    size_t i;

    for (i = 0; i < N_ALGS; i++)
        fetched[impl][i] = fetch(impl, &algs[i]);
}

/* --- the child: smgost at one capability level ----------------------- */

/*
 * Protocol on stdin/stdout: first "K <kernels>" (libgcrypt: "K <version>
 * <one 0/1 per row: has it>") or "E <why>", then for each "M <row> <bytes>
 * <seconds>" one "R <bytes per second>".
 */
static int serve_requests(enum impl impl)
{
    char line[128];
    unsigned int row;
    size_t n;
    double secs;

    while (fgets(line, sizeof(line), stdin) != NULL
           && sscanf(line, "M %u %zu %lf", &row, &n, &secs) == 3
           && row < N_ALGS && n <= MAX_SIZE) {
        printf("R %.6e\n", measure(impl, &algs[row], n, secs));
        fflush(stdout);
    }
    return 0;
}

static int serve_gcrypt(void)
{
#ifdef HAVE_GCRYPT
    size_t i;

    if (!gcrypt_init()) {
        printf("E libgcrypt did not initialise\n");
        return 1;
    }
    printf("K %s ", gcry_check_version(NULL));
    for (i = 0; i < N_ALGS; i++)
        putchar(gcrypt_has(&algs[i]) ? '1' : '0');
    printf("\n");
    fflush(stdout);
    return serve_requests(I_GCRYPT);
#else
    printf("E built without libgcrypt\n");
    return 1;
#endif
}

/*
 * The default provider in a child, so that the capability mask of the
 * level it runs at (-m) hides from libcrypto's own kernels what the level
 * hides from smgost's: the same CPU for both.
 */
static int serve_default(void)
{
    size_t i;

    impl_propq[I_OSSL] = "provider=default";
    fetch_all(I_OSSL);
    printf("K openssl ");
    for (i = 0; i < N_ALGS; i++)
        putchar(fetched[I_OSSL][i] != NULL ? '1' : '0');
    printf("\n");
    fflush(stdout);
    return serve_requests(I_OSSL);
}

static int serve(void)
{
    const char *dir = getenv("SMGOST_MODULES");
    OSSL_PROVIDER *prov = NULL;
    char *kernels = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr("kernels", &kernels, 0), OSSL_PARAM_END
    };

    if (dir == NULL || *dir == '\0')
        dir = "providers";
    impl_libctx[I_SMG] = OSSL_LIB_CTX_new();
    impl_propq[I_SMG] = "provider=smgost";
    if (impl_libctx[I_SMG] != NULL)
        prov = load_from(impl_libctx[I_SMG], dir, "smgost");
    if (prov == NULL || !OSSL_PROVIDER_get_params(prov, params)
        || kernels == NULL) {
        printf("E cannot load smgost from %s\n", dir);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    fetch_all(I_SMG);
    printf("K %s\n", kernels);
    fflush(stdout);
    return serve_requests(I_SMG);
}

/* --- the parent ------------------------------------------------------ */

/* A child process: smgost at a level, or another libgcrypt build. */
struct child {
    enum impl impl;             /* I_SMG, I_OSSL (-m) or I_GCRYPT */
    const struct level *lv;     /* smgost's level */
    const char *prog;           /* libgcrypt's: the binary */
    const char *hide;           /* libgcrypt's: its features hidden */
    pid_t pid;
    FILE *to, *from;
    char kernels[300];          /* smgost's kernels param; libgcrypt's version */
    /* this level's kernel per family, and whether an earlier level had it */
    char kernel[N_FAMILY][64];
    int dup[N_FAMILY];
    char has[N_ALGS + 1];       /* libgcrypt's: '1' per row it can run */
    char title[40];             /* libgcrypt's column title */
    const char *modules;        /* I_SMG: another build's folder, or NULL */
    char btitle[N_FAMILY][72];  /* its columns' titles */
};

#define MAX_GCRYPT_CHILDREN (4 * N_LEVELS)
/* smgost and its base build at each level, the default provider at each
 * masked level (-m), the libgcrypts */
#define MAX_CHILDREN (3 * N_LEVELS + MAX_GCRYPT_CHILDREN)
static struct child children[MAX_CHILDREN];
static size_t nchildren;

static void child_stop(struct child *c)
{
    int status;

    if (c->to != NULL)
        fclose(c->to);
    if (c->from != NULL)
        fclose(c->from);
    c->to = c->from = NULL;
    if (c->pid > 0)
        waitpid(c->pid, &status, 0);
    c->pid = 0;
}

/*
 * This process's environment with each of the n entries of set ("NAME=..."),
 * where not NULL, in place of that variable.
 */
static char **child_environ(char *const set[], size_t n_set)
{
    size_t n = 0, k = 0, i;
    char **env;

    while (environ[n] != NULL)
        n++;
    if ((env = calloc(n + n_set + 1, sizeof(*env))) == NULL)
        return NULL;
    for (n = 0; environ[n] != NULL; n++) {
        int replaced = 0;

        for (i = 0; i < n_set; i++)
            replaced |= set[i] != NULL
                && strncmp(environ[n], set[i],
                           strcspn(set[i], "=") + 1) == 0;
        if (!replaced)
            env[k++] = environ[n];
    }
    for (i = 0; i < n_set; i++)
        if (set[i] != NULL)
            env[k++] = set[i];
    return env;
}

/* Runs self arg with stdin/stdout on new pipes; 0 or an errno. */
static int child_spawn(struct child *c, const char *self, char *arg,
                       char **env, int *to, int *from)
{
    int down[2], up[2], err;
    const char *runner = getenv("SMGOST_RUNNER");
    /* a cross build runs under the same emulator as the parent */
    int emulated = runner != NULL && *runner != '\0';
    char *argv_direct[] = { (char *)self, arg, NULL };
    char *argv_runner[] = { "sh", "-c", "exec $SMGOST_RUNNER \"$0\" \"$1\"",
                            (char *)self, arg, NULL };
    posix_spawn_file_actions_t fa;

    /* close-on-exec: a later child must not hold this one's pipes open */
    if (pipe2(down, O_CLOEXEC) != 0)
        return errno;
    if (pipe2(up, O_CLOEXEC) != 0) {
        err = errno;
        close(down[0]);
        close(down[1]);
        return err;
    }
    /* posix_spawn, not fork: a forked child hangs under qemu-user 7.2 */
    if ((err = posix_spawn_file_actions_init(&fa)) == 0) {
        if ((err = posix_spawn_file_actions_adddup2(&fa, down[0], 0)) == 0
            && (err = posix_spawn_file_actions_adddup2(&fa, up[1], 1)) == 0)
            err = posix_spawn(&c->pid, emulated ? "/bin/sh" : self, &fa,
                              NULL, emulated ? argv_runner : argv_direct, env);
        posix_spawn_file_actions_destroy(&fa);
    }
    close(down[0]);
    close(up[1]);
    if (err != 0) {
        close(down[1]);
        close(up[0]);
        return err;
    }
    *to = down[1];
    *from = up[0];
    return 0;
}

static int child_start(struct child *c, const char *self)
{
    char line[300] = "", entry[128], modules[4200], hide[600], **env;
    const char *value = c->lv != NULL ? c->lv->value : NULL;
    const char *what = c->lv != NULL ? c->lv->name : self;
    char *set[3] = { NULL, NULL, NULL };
    int to = -1, from = -1, err = ENOMEM;

    if (value != NULL && (c->impl == I_SMG || c->impl == I_OSSL)) {
        snprintf(entry, sizeof(entry), CAP_VAR "=%s", value);
        set[0] = entry;
    }
    if (c->modules != NULL) {
        snprintf(modules, sizeof(modules), "SMGOST_MODULES=%s", c->modules);
        set[1] = modules;
    }
    if (c->hide != NULL) {
        snprintf(hide, sizeof(hide), "SMGOST_BENCH_GCRYPT_HIDE=%s", c->hide);
        set[2] = hide;
    }
    env = child_environ(set, 3);
    if (env != NULL)
        err = child_spawn(c, self,
                          c->impl == I_SMG ? "--serve"
                          : c->impl == I_OSSL ? "--serve-default"
                          : "--serve-gcrypt",
                          env, &to, &from);
    free(env);
    if (err != 0) {
        fprintf(stderr, "bench: %s: cannot start %s: %s\n", what, self,
                strerror(err));
        c->pid = 0;
        return 0;
    }
    if ((c->to = fdopen(to, "w")) == NULL)
        close(to);
    if ((c->from = fdopen(from, "r")) == NULL)
        close(from);
    if (c->to == NULL || c->from == NULL
        || fgets(line, sizeof(line), c->from) == NULL
        || strncmp(line, "K ", 2) != 0) {
        fprintf(stderr, "bench: %s: %s", what,
                line[0] == 'E' ? line + 2 : "the child did not start\n");
        child_stop(c);
        return 0;
    }
    line[strcspn(line, "\n")] = '\0';
    snprintf(c->kernels, sizeof(c->kernels), "%s", line + 2);
    return 1;
}

/* "sm4=gfni-avx512 sm3=sm3-c gost=..." -> this family's kernel name */
static void kernel_of(const char *kernels, enum family f, char *out,
                      size_t outsz)
{
    size_t len = strlen(family_name[f]);
    const char *p = kernels;

    while ((p = strstr(p, family_name[f])) != NULL) {
        if ((p == kernels || p[-1] == ' ') && p[len] == '=') {
            p += len + 1;
            snprintf(out, outsz, "%.*s", (int)strcspn(p, " "), p);
            return;
        }
        p += len;
    }
    snprintf(out, outsz, "?");
}

static double child_measure(struct child *c, size_t row, size_t n,
                            double secs)
{
    char line[64];
    double r;

    fprintf(c->to, "M %zu %zu %.6f\n", row, n, secs);
    fflush(c->to);
    if (fgets(line, sizeof(line), c->from) == NULL
        || sscanf(line, "R %lf", &r) != 1)
        return -1;
    return r;
}

/* A column of a family's table: a distinct smgost kernel or a reference. */
struct column {
    enum impl impl;
    struct child *c;            /* NULL: measured in this process */
    const char *title;
    int width;
};

/* libgcrypt's column title: the version it reports. */
static char gcrypt_title[40];

/* The implementation ratios are taken against, or N_IMPL if none. */
static enum impl reference(const struct alg *a)
{
    size_t row = (size_t)(a - algs);

    /* the default provider, gostprov for GOST, else libgcrypt (SM4-GCM,
     * CCM and XTS under OpenSSL 3.0) */
    if (a->family != F_GOST && fetched[I_OSSL][row] != NULL)
        return I_OSSL;
    if (a->family == F_GOST && fetched[I_GOSTPROV][row] != NULL)
        return I_GOSTPROV;
#ifdef HAVE_GCRYPT
    if (gcrypt_has(a))
        return I_GCRYPT;
#endif
    return N_IMPL;
}

static int ref_available(enum impl impl, const struct alg *a)
{
#ifdef HAVE_GCRYPT
    if (impl == I_GCRYPT)
        return gcrypt_has(a);
#endif
    return fetched[impl][a - algs] != NULL;
}

/* Whether child c measures row a: a new smgost kernel, or libgcrypt has it. */
static int child_has(const struct child *c, const struct alg *a)
{
    if (c->impl == I_SMG)
        return !c->dup[a->family];
    return c->has[a - algs] == '1';
}

static int selected(const char *patterns, const struct alg *a)
{
    char buf[256], *tok, *save = NULL;

    if (patterns == NULL)
        return 1;
    snprintf(buf, sizeof(buf), "%s", patterns);
    for (tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save))
        if (fnmatch(tok, a->name, FNM_CASEFOLD) == 0
            || fnmatch(tok, family_name[a->family], FNM_CASEFOLD) == 0)
            return 1;
    return 0;
}

/* Whether tok names lv, by its name or its alias. */
static int level_named(const struct level *lv, const char *tok)
{
    return strcmp(tok, lv->name) == 0
           || (lv->alias != NULL && strcmp(tok, lv->alias) == 0);
}

static int level_selected(const char *names, const struct level *lv)
{
    char buf[256], *tok, *save = NULL;

    if (names == NULL)
        return 1;
    snprintf(buf, sizeof(buf), "%s", names);
    for (tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save))
        if (level_named(lv, tok))
            return 1;
    return 0;
}

static void usage(FILE *f)
{
    size_t i;

    fprintf(f,
"usage: bench [-q] [-t SECONDS] [-r ROUNDS] [-a ALGS] [-s SIZES] [-l LEVELS]\n"
"             [-m]\n"
"  -q          quick run (%.0f s, 3 rounds)\n"
"  -t SECONDS  total time to spread over the measurements (default\n"
"              $BENCH_SECONDS, else %.0f)\n"
"  -r ROUNDS   alternating rounds per table cell, best kept (default 5)\n"
"  -a ALGS     comma-separated globs on smgost names or families (sm4, sm3,\n"
"              gost), e.g. -a 'SM4-C*,gost89'\n"
"  -s SIZES    comma-separated bytes per call, multiples of 16 (default\n"
"              16,64,256,1024,8192,16384)\n"
"  -m          also each libgcrypt at each chosen level, with the features\n"
"              the level hides from smgost hidden from it (GCRYCTL_DISABLE_HWF),\n"
"              and the default provider under the level's " CAP_VAR "\n"
"  -l LEVELS   comma-separated smgost capability levels (default: each):\n",
            QUICK_SECONDS, DEFAULT_SECONDS);
    for (i = 0; i < N_LEVELS; i++)
        fprintf(f, "    %-15s %s%s%s%s%s%s\n", levels[i].name, levels[i].what,
                levels[i].value != NULL ? ": " CAP_VAR "=" : "",
                levels[i].value != NULL ? levels[i].value : "",
                levels[i].alias != NULL ? " (or " : "",
                levels[i].alias != NULL ? levels[i].alias : "",
                levels[i].alias != NULL ? ")" : "");
    fprintf(f, "SMGOST_MODULES names smgost.so's folder, SMGOST_GOSTPROV "
               "gostprov.so's (empty: no gostprov).\n"
               "SMGOST_BENCH_GCRYPT: space-separated bench binaries linked "
               "with other libgcrypt\nbuilds (make bench GCRYPT=DIR builds "
               "util/bench-gcrypt), measured as more columns.\n"
               "SMGOST_BENCH_BASE: another build's smgost.so folder (make "
               "bench BASE=DIR),\nmeasured at the same levels in \"base\" "
               "columns.\n");
}

/* What the run was asked for, and how far its time budget has gone. */
struct run {
    const char *algsel, *levelsel;
    int match;                  /* -m: libgcrypt at each level too */
    size_t sizes[16], nsizes;
    int rounds;
    double total;               /* wall-clock seconds for all of it */
    double wall_start;
    double asked;               /* CPU seconds asked of measurements so far */
    size_t left;                /* measurements still to make */
    double secs_min, secs_max;
};

/* Returns -1 to go on, else the exit status. */
static int parse_args(struct run *r, int argc, char **argv)
{
    const char *env = getenv("BENCH_SECONDS");
    char buf[256], *tok, *save = NULL;
    size_t s;
    int opt;

    r->total = env != NULL && *env != '\0' ? atof(env) : DEFAULT_SECONDS;
    r->rounds = 5;
    while ((opt = getopt(argc, argv, "qt:r:a:s:l:mh")) != -1) {
        switch (opt) {
        case 'q':
            r->total = QUICK_SECONDS;
            r->rounds = 3;
            break;
        case 't':
            r->total = atof(optarg);
            break;
        case 'r':
            r->rounds = atoi(optarg);
            break;
        case 'a':
            r->algsel = optarg;
            break;
        case 'l':
            r->levelsel = optarg;
            break;
        case 'm':
            r->match = 1;
            break;
        case 's':
            snprintf(buf, sizeof(buf), "%s", optarg);
            for (tok = strtok_r(buf, ",", &save); tok != NULL
                 && r->nsizes < sizeof(r->sizes) / sizeof(r->sizes[0]);
                 tok = strtok_r(NULL, ",", &save))
                r->sizes[r->nsizes++] = strtoul(tok, NULL, 0);
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc || r->total <= 0 || r->rounds < 1) {
        usage(stderr);
        return 2;
    }
    if (r->nsizes == 0) {
        r->nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
        memcpy(r->sizes, default_sizes, sizeof(default_sizes));
    }
    for (s = 0; s < r->nsizes; s++)
        if (r->sizes[s] == 0 || r->sizes[s] > MAX_SIZE
            || r->sizes[s] % 16 != 0) {
            fprintf(stderr, "bench: sizes must be multiples of 16 up to %d\n",
                    MAX_SIZE);
            return 2;
        }
    if (r->levelsel != NULL) {
        char buf[256], *tok, *save = NULL;
        size_t i;

        snprintf(buf, sizeof(buf), "%s", r->levelsel);
        for (tok = strtok_r(buf, ", ", &save); tok != NULL;
             tok = strtok_r(NULL, ", ", &save)) {
            for (i = 0; i < N_LEVELS && !level_named(&levels[i], tok); i++)
                ;
            if (i == N_LEVELS) {
                fprintf(stderr, "bench: no level %s (bench -h lists them)\n",
                        tok);
                return 2;
            }
        }
    }
    return -1;
}

/* The references, in this unmasked process. */
static void load_references(void)
{
    const char *gpdir = getenv("SMGOST_GOSTPROV");

    impl_propq[I_OSSL] = "provider=default";
    impl_loaded[I_OSSL] = 1;
    fetch_all(I_OSSL);
    if (gpdir != NULL && *gpdir != '\0') {
        /* only gostprov and default: its names must resolve to gostprov */
        OSSL_LIB_CTX *gp = impl_libctx[I_GOSTPROV] = OSSL_LIB_CTX_new();

        if (gp != NULL && load_from(gp, gpdir, "gostprov") != NULL
            && OSSL_PROVIDER_load(gp, "default") != NULL) {
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

/*
 * One child per selected level, except that a level whose kernels all
 * match an earlier one's is noted in skipped and stopped.
 */
static void start_levels(const char *levelsel, const char *base,
                         char *skipped, size_t size)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    size_t i, k, used;
    int f;

    if (len <= 0) {
        perror("bench: /proc/self/exe");
        return;
    }
    self[len] = '\0';
    signal(SIGPIPE, SIG_IGN);
    for (i = 0; i < N_LEVELS; i++) {
        struct child *c = &children[nchildren];

        if (!level_selected(levelsel, &levels[i]))
            continue;
        c->impl = I_SMG;
        c->lv = &levels[i];
        c->modules = base;
        if (!child_start(c, self))
            continue;
        for (k = 0; k < nchildren; k++)
            if (children[k].impl == I_SMG && children[k].modules == base
                && strcmp(children[k].kernels, c->kernels) == 0)
                break;
        if (k < nchildren) {
            used = strlen(skipped);
            snprintf(skipped + used, size - used,
                     "  %s%-15s %-34s as %s: not measured\n",
                     base != NULL ? "base " : "", c->lv->name,
                     c->lv->value != NULL ? c->lv->value : "",
                     children[k].lv->name);
            child_stop(c);
            continue;
        }
        for (f = 0; f < N_FAMILY; f++) {
            kernel_of(c->kernels, f, c->kernel[f], sizeof(c->kernel[f]));
            snprintf(c->btitle[f], sizeof(c->btitle[f]), "base %s",
                     c->kernel[f]);
            for (k = 0; k < nchildren; k++)
                if (children[k].impl == I_SMG && children[k].modules == base
                    && strcmp(children[k].kernel[f], c->kernel[f]) == 0)
                    c->dup[f] = 1;
        }
        nchildren++;
    }
}

/* One libgcrypt child: prog serving, with lv's features hidden if lv. */
static void start_gcrypt(const char *prog, const struct level *lv)
{
    struct child *c = &children[nchildren];
    char *sp, version[24];

    if (nchildren == sizeof(children) / sizeof(children[0]))
        return;
    memset(c, 0, sizeof(*c));
    c->impl = I_GCRYPT;
    c->prog = prog;
    c->lv = lv;
    c->hide = lv != NULL ? lv->gcrypt_hide : NULL;
    if (!child_start(c, prog))
        return;
    sp = strrchr(c->kernels, ' ');
    if (sp == NULL || strlen(sp + 1) != N_ALGS) {
        fprintf(stderr, "bench: %s: built from another bench.c\n", prog);
        child_stop(c);
        return;
    }
    memcpy(c->has, sp + 1, N_ALGS + 1);
    *sp = '\0';
    snprintf(version, sizeof(version), "%.23s", c->kernels);
    snprintf(c->title, sizeof(c->title), "gcrypt %s%s%.10s", version,
             lv != NULL ? " " : "", lv != NULL ? lv->name : "");
    nchildren++;
}

/*
 * One child per binary in SMGOST_BENCH_GCRYPT (space-separated), each
 * linked with another libgcrypt, unmasked; with match (-m), each of them
 * and this binary's libgcrypt once more per chosen level that hides
 * something.
 */
static void start_gcrypts(const char *levelsel, int match)
{
    const char *env = getenv("SMGOST_BENCH_GCRYPT");
    static char list[1024], self[4096];
    const char *progs[MAX_GCRYPT_CHILDREN];
    char *tok, *save = NULL;
    size_t n = 0, p, i;
    ssize_t len;

#ifdef HAVE_GCRYPT
    /* this binary's libgcrypt runs unmasked in this process */
    if (match && (len = readlink("/proc/self/exe", self,
                                 sizeof(self) - 1)) > 0) {
        self[len] = '\0';
        progs[n++] = self;
    }
#endif
    (void)len;
    snprintf(list, sizeof(list), "%s", env != NULL ? env : "");
    for (tok = strtok_r(list, " ", &save); tok != NULL && n < MAX_GCRYPT_CHILDREN;
         tok = strtok_r(NULL, " ", &save))
        progs[n++] = tok;
    for (p = 0; p < n; p++) {
        if (progs[p] != self)
            start_gcrypt(progs[p], NULL);
        for (i = 0; match && i < N_LEVELS; i++)
            if (levels[i].gcrypt_hide != NULL
                && level_selected(levelsel, &levels[i]))
                start_gcrypt(progs[p], &levels[i]);
    }
}

/*
 * With match (-m), the default provider once more per chosen level that
 * hides something, in a child under that level's mask.
 */
static void start_defaults(const char *levelsel, int match)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    size_t i;

    if (!match || len <= 0)
        return;
    self[len] = '\0';
    for (i = 0; i < N_LEVELS && nchildren < MAX_CHILDREN; i++) {
        struct child *c = &children[nchildren];
        char *sp;

        if (levels[i].value == NULL || !level_selected(levelsel, &levels[i]))
            continue;
        memset(c, 0, sizeof(*c));
        c->impl = I_OSSL;
        c->lv = &levels[i];
        if (!child_start(c, self))
            continue;
        sp = strrchr(c->kernels, ' ');
        if (sp == NULL || strlen(sp + 1) != N_ALGS) {
            child_stop(c);
            continue;
        }
        memcpy(c->has, sp + 1, N_ALGS + 1);
        snprintf(c->title, sizeof(c->title), "openssl %s", levels[i].name);
        nchildren++;
    }
}

static size_t count_measurements(const struct run *r)
{
    size_t i, k, n = 0;

    for (i = 0; i < N_ALGS; i++) {
        if (!selected(r->algsel, &algs[i]))
            continue;
        for (k = 0; k < nchildren; k++)
            n += child_has(&children[k], &algs[i]);
        for (k = I_OSSL; k < N_IMPL; k++)
            n += impl_loaded[k] && ref_available(k, &algs[i]);
    }
    return n * r->nsizes * (size_t)r->rounds;
}

static void print_header(const struct run *r, const char *skipped)
{
    const struct smg_cpu_id *id = smg_cpu_id();
    const char *v;
    size_t k;

    printf("smgost benchmark: %s", OpenSSL_version(OPENSSL_VERSION));
#ifdef HAVE_GCRYPT
    printf(", libgcrypt %s", gcry_check_version(NULL));
#endif
    for (k = 0; k < nchildren; k++)
        if (children[k].impl == I_GCRYPT)
            printf(", libgcrypt %s (%s)", children[k].kernels,
                   children[k].prog);
    printf(", gostprov %s\n", impl_loaded[I_GOSTPROV] ? "loaded" : "absent");
    if (id->vendor[0] != '\0')
        printf("CPU: %s family %u (0x%x) model %u (0x%x), \"%s\"\n",
               id->vendor, id->family, id->family, id->model, id->model,
               id->name);
    else
        printf("CPU: not identified (no CPUID on this architecture)\n");
    printf("MB/s (10^6 bytes per second of the measuring thread's CPU time) "
           "through EVP,\nthe fastest batch of calls (about 1/64 of a "
           "measurement) in the best of %d\nalternating rounds; about %.0f s "
           "in all (-t, BENCH_SECONDS).\n", r->rounds, r->total);
    printf("Ciphers: one update per call on one context (padding off); "
           "SM4-GCM, CCM, XTS: a\nwhole message per call (IV, 16 bytes of "
           "AAD but XTS, the data, the 16-byte tag);\nSM3: init+update+final "
           "per call; gost-mac: keyed init+update+final per call.\n\n"
           "smgost levels (" CAP_VAR "):\n");
    for (k = 0; k < nchildren; k++) {
        if (children[k].impl != I_SMG)
            continue;
        v = children[k].lv->value;
        if (v == NULL)
            v = getenv(CAP_VAR) != NULL ? getenv(CAP_VAR) : "unset";
        printf("  %s%-15s %-34s %s\n",
               children[k].modules != NULL ? "base " : "",
               children[k].lv->name, v, children[k].kernels);
    }
    for (k = 0; k < nchildren; k++)
        if (children[k].impl == I_SMG && children[k].modules != NULL) {
            printf("base: smgost.so from %s\n", children[k].modules);
            break;
        }
    fputs(skipped, stdout);
    fflush(stdout);
}

/*
 * CPU seconds for each of the next m measurements so that the run ends on
 * time: what is left of the wall-clock budget, shared among the measurements
 * left at the rate of wall time per second asked seen so far (warm-ups,
 * overheads, and waiting for a core on a busy machine).
 */
static double pace(struct run *r, size_t m)
{
    double spent = wall_now() - r->wall_start;
    double rate = r->asked > 0 ? spent / r->asked : 1.125;
    double secs = (r->total - spent) / rate
                  / (double)(r->left > 0 ? r->left : 1);

    if (secs < 0.002)
        secs = 0.002;
    if (secs > 1.0)
        secs = 1.0;
    r->asked += secs * (double)m;
    r->left -= m < r->left ? m : r->left;
    if (secs < r->secs_min)
        r->secs_min = secs;
    if (secs > r->secs_max)
        r->secs_max = secs;
    return secs;
}

/* The columns of family f's table; returns how many. */
static size_t family_columns(enum family f, struct column *cols)
{
    size_t i, k, n = 0;
    int has;

    for (k = 0; k < nchildren; k++)
        if (children[k].impl == I_SMG && !children[k].dup[f]) {
            cols[n].impl = I_SMG;
            cols[n].c = &children[k];
            cols[n].title = children[k].modules != NULL
                            ? children[k].btitle[f] : children[k].kernel[f];
            cols[n].width = (int)strlen(cols[n].title) + 1;
            if (cols[n].width < 16)
                cols[n].width = 16;
            n++;
        }
    for (k = I_OSSL; k < N_IMPL; k++) {
        has = 0;
        for (i = 0; i < N_ALGS; i++)
            has |= algs[i].family == f && ref_available(k, &algs[i]);
        if (impl_loaded[k] && has) {
            cols[n].impl = k;
            cols[n].c = NULL;
            cols[n].title = k == I_GCRYPT ? gcrypt_title : impl_name[k];
            cols[n].width = (int)strlen(cols[n].title) + 2;
            if (cols[n].width < 10)
                cols[n].width = 10;
            n++;
        }
    }
    for (k = 0; k < nchildren; k++) {
        has = 0;
        for (i = 0; i < N_ALGS; i++)
            has |= algs[i].family == f && children[k].impl != I_SMG
                   && child_has(&children[k], &algs[i]);
        if (has) {
            cols[n].impl = children[k].impl;
            cols[n].c = &children[k];
            cols[n].title = children[k].title;
            cols[n].width = (int)strlen(cols[n].title) + 2;
            n++;
        }
    }
    return n;
}

/* One table cell set: the rounds over every column, then the row. */
static void bench_row(struct run *r, const struct column *cols, size_t ncols,
                      const struct alg *a, const char *label, size_t n)
{
    double best[MAX_CHILDREN + N_IMPL], v, refv = -1, secs;
    enum impl ref = reference(a);
    size_t k, m = 0;
    int round;

    for (k = 0; k < ncols; k++) {
        best[k] = -1;
        m += cols[k].c != NULL ? child_has(cols[k].c, a)
                               : ref_available(cols[k].impl, a);
    }
    secs = pace(r, m * (size_t)r->rounds);
    for (round = 0; round < r->rounds; round++)
        for (k = 0; k < ncols; k++) {
            if (cols[k].c != NULL && child_has(cols[k].c, a))
                v = child_measure(cols[k].c, (size_t)(a - algs), n, secs);
            else if (cols[k].c == NULL && ref_available(cols[k].impl, a))
                v = measure(cols[k].impl, a, n, secs);
            else
                continue;
            if (v > best[k])
                best[k] = v;
        }
    /* the reference measured here (libgcrypt: the one linked in) */
    for (k = 0; k < ncols; k++)
        if (cols[k].impl == ref && cols[k].c == NULL)
            refv = best[k];
    printf("%-18s %6zu", label, n);
    for (k = 0; k < ncols; k++) {
        if (best[k] < 0)
            printf("%*s", cols[k].width, "-");
        else if (cols[k].impl != I_SMG)
            printf("%*.1f", cols[k].width, best[k] / 1e6);
        else if (refv > 0)
            printf("%*.1f %5.2fx", cols[k].width - 7, best[k] / 1e6,
                   best[k] / refv);
        else
            printf("%*.1f %6s", cols[k].width - 7, best[k] / 1e6, "");
    }
    printf("\n");
    fflush(stdout);
}

static void bench_family(struct run *r, enum family f)
{
    struct column cols[MAX_CHILDREN + N_IMPL];
    size_t i, k, s, ncols;
    char label[40];
    int any = 0;

    for (i = 0; i < N_ALGS; i++)
        any |= algs[i].family == f && selected(r->algsel, &algs[i]);
    if (!any)
        return;
    ncols = family_columns(f, cols);
    printf("\n%s: smgost MB/s and ratio to %s\n",
           f == F_SM4 ? "SM4" : f == F_SM3 ? "SM3" : "GOST 28147-89/Magma",
           f == F_GOST ? "gostprov (* to libgcrypt: gostprov lacks it)"
           : f == F_SM4 ? "the OpenSSL default provider (GCM, CCM, XTS: to "
                          "libgcrypt if it lacks them)"
           : "the OpenSSL default provider");
    printf("%-18s %6s", "algorithm", "bytes");
    for (k = 0; k < ncols; k++)
        printf("%*s", cols[k].width, cols[k].title);
    printf("\n");
    for (i = 0; i < N_ALGS; i++) {
        const struct alg *a = &algs[i];

        if (a->family != f || !selected(r->algsel, a))
            continue;
        snprintf(label, sizeof(label), "%s%s%s", a->name,
                 a->kind != K_CIPHER && a->kind != K_AEAD ? ""
                 : a->dec ? " dec" : " enc",
                 f == F_GOST && reference(a) == I_GCRYPT ? " *" : "");
        for (s = 0; s < r->nsizes; s++)
            bench_row(r, cols, ncols, a, label, r->sizes[s]);
    }
}

int main(int argc, char **argv)
{
    struct run r = { .secs_min = 1e9 };
    char skipped[N_LEVELS * 80] = "";
    size_t k;
    int f, rc;

    if (!make_data())
        return 1;
    if (argc == 2 && strcmp(argv[1], "--serve") == 0)
        return serve();
    if (argc == 2 && strcmp(argv[1], "--serve-default") == 0)
        return serve_default();
    if (argc == 2 && strcmp(argv[1], "--serve-gcrypt") == 0)
        return serve_gcrypt();
    if ((rc = parse_args(&r, argc, argv)) >= 0)
        return rc;
    load_references();
    start_levels(r.levelsel, NULL, skipped, sizeof(skipped));
    if (nchildren == 0) {
        fprintf(stderr, "bench: smgost did not load at any level\n");
        return 1;
    }
    if (getenv("SMGOST_BENCH_BASE") != NULL
        && *getenv("SMGOST_BENCH_BASE") != '\0')
        start_levels(r.levelsel, getenv("SMGOST_BENCH_BASE"), skipped,
                     sizeof(skipped));
    start_gcrypts(r.levelsel, r.match);
    start_defaults(r.levelsel, r.match);
    if ((r.left = count_measurements(&r)) == 0) {
        fprintf(stderr, "bench: nothing selected\n");
        return 2;
    }
    print_header(&r, skipped);
    r.wall_start = wall_now();
    for (f = 0; f < N_FAMILY; f++)
        bench_family(&r, f);
    printf("\n%.0f s; %.1f to %.1f ms of CPU time per measurement\n",
           wall_now() - r.wall_start, r.secs_min * 1e3, r.secs_max * 1e3);
    for (k = 0; k < nchildren; k++)
        child_stop(&children[k]);
    return 0;
}
