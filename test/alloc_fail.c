/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allocation failure: for each algorithm and each step of its use, the Nth
 * allocation counted from the start of the step fails, for N = 1, 2, ...
 * until the step runs without reaching the failure.  A step that fails
 * must say so (never crash, never report success with wrong output), the
 * same step retried at once with working memory must succeed, and the
 * operation completed with working memory must give the result computed
 * before any failure.  At the end everything is freed, the providers
 * unloaded and OPENSSL_cleanup() called: no block may be left once
 * libcrypto has freed its own (a leak is reported with the file and line
 * that allocated it, and the step and N).
 *
 *   alloc_fail sm4|gost|magma|kuznyechik|sm3|gost94|mac|streebog
 *       context new, init, update, final, copy/dup, re-init and the
 *       one-shot digest and MACs of each algorithm in the group, every
 *       allocation made during the step a candidate (libcrypto's and ours);
 *       SM4-GCM, SM4-CCM, SM4-XTS and the CTR-ACPKM-OMAC ciphers each
 *       encrypting and decrypting
 *   alloc_fail load
 *       loading smgost, the allocations smgost makes itself failing
 *   alloc_fail core
 *       loading smgost and fetching each algorithm into a fresh library
 *       context, every allocation a candidate.  libcrypto 3.0 does not
 *       recover from all of these (see fail_in_core), so here the checks
 *       are: no crash, failure reported, right results, and a fresh
 *       context works; the blocks left at the end are listed, not failed.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "memhook.h"

#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <unistd.h>

#define PROPQ "provider=smgost"
#define MSG_LEN 1500            /* crosses the 1024-byte meshing boundary */
#define SPLIT 700               /* where copies are made */
#define MAX_OUT (MSG_LEN + 64)
/* Far beyond any step's allocation count; stops a runaway loop. */
#define MAX_N 100000

enum kind { K_CIPHER, K_DIGEST, K_MAC, K_HMAC };
/* How a cipher takes a message (see ctx_begin and ctx_update). */
enum mode { M_STREAM, M_GCM, M_CCM, M_XTS, M_OMAC };

#define AAD_LEN 37

typedef struct {
    enum kind kind;
    const char *name;
    const char *label;          /* in reports: the name, and "decrypt" */
    const char *group;
    size_t keylen;
    enum mode mode;
    int dec;                    /* decrypts what the entry before it gave */
    size_t taglen;              /* GCM, CCM: the tag after the data */
    const char *digest;         /* HMAC's digest; NULL: SM3 */
    /* Filled in by main.  in: msg, or a decrypting entry's ciphertext;
     * tag: the tag it verifies. */
    unsigned char key[32], iv[16], ref[MAX_OUT];
    const unsigned char *in, *tag;
    size_t ivlen, reflen;
    EVP_CIPHER *ci;
    EVP_MD *md;
    EVP_MAC *mac;
} ALG;

#define ALG_ENTRY(k, n, g, kl)                                               \
    { .kind = k, .name = n, .label = n, .group = g, .keylen = kl }
/* HMAC over smgost's digest d. */
#define HMAC_ENTRY(d, g)                                                     \
    { .kind = K_HMAC, .name = "HMAC", .label = "HMAC-" d, .group = g,        \
      .keylen = 32, .digest = d }
#define AEAD_ENTRY(n, l, g, kl, m, d, tl)                                    \
    { .kind = K_CIPHER, .name = n, .label = l, .group = g, .keylen = kl,     \
      .mode = m, .dec = d, .taglen = tl }
/* A CTR-ACPKM-OMAC cipher: the CMS parameters with the key, the tag. */
#define OMAC_ENTRY(n, l, g, d, tl)                                           \
    { .kind = K_CIPHER, .name = n, .label = l, .group = g, .keylen = 32,    \
      .mode = M_OMAC, .dec = d, .taglen = tl }
static ALG algs[] = {
    ALG_ENTRY(K_CIPHER, "SM4-ECB", "sm4", 16),
    ALG_ENTRY(K_CIPHER, "SM4-CBC", "sm4", 16),
    ALG_ENTRY(K_CIPHER, "SM4-CFB", "sm4", 16),
    ALG_ENTRY(K_CIPHER, "SM4-OFB", "sm4", 16),
    ALG_ENTRY(K_CIPHER, "SM4-CTR", "sm4", 16),
    /*
     * The AEAD context (src/aead.c), with its aligned GHASH table, through
     * a whole message each way: GCM's AAD, data and tag (got after the
     * final, set before it); CCM's length, AAD, data and tag (got after the
     * final, set before the data, which it verifies).  CCM takes its data
     * in one update, so its copies and re-inits are made after the length
     * and the AAD (split_at); XTS takes a data unit per update, so its
     * message is two units of one tweak, cut where the copies are made.
     * A decrypting entry takes the result of the encrypting one before it.
     */
    AEAD_ENTRY("SM4-GCM", "SM4-GCM", "sm4", 16, M_GCM, 0, 16),
    AEAD_ENTRY("SM4-GCM", "SM4-GCM decrypt", "sm4", 16, M_GCM, 1, 16),
    AEAD_ENTRY("SM4-CCM", "SM4-CCM", "sm4", 16, M_CCM, 0, 12),
    AEAD_ENTRY("SM4-CCM", "SM4-CCM decrypt", "sm4", 16, M_CCM, 1, 12),
    AEAD_ENTRY("SM4-XTS", "SM4-XTS", "sm4", 32, M_XTS, 0, 0),
    AEAD_ENTRY("SM4-XTS", "SM4-XTS decrypt", "sm4", 32, M_XTS, 1, 0),
    ALG_ENTRY(K_CIPHER, "gost89", "gost", 32),
    ALG_ENTRY(K_CIPHER, "gost89-cnt", "gost", 32),
    ALG_ENTRY(K_CIPHER, "gost89-cnt-12", "gost", 32),
    ALG_ENTRY(K_CIPHER, "gost89-cbc", "gost", 32),
    ALG_ENTRY(K_CIPHER, "gost89-ecb", "gost", 32),
    ALG_ENTRY(K_CIPHER, "magma-ecb", "magma", 32),
    ALG_ENTRY(K_CIPHER, "magma-cbc", "magma", 32),
    ALG_ENTRY(K_CIPHER, "magma-ctr", "magma", 32),
    ALG_ENTRY(K_CIPHER, "magma-ofb", "magma", 32),
    ALG_ENTRY(K_CIPHER, "magma-cfb", "magma", 32),
    ALG_ENTRY(K_CIPHER, "magma-ctr-acpkm", "magma", 32),
    /* MGM takes its message as GCM does: AAD, data, the tag after it */
    AEAD_ENTRY("magma-mgm", "magma-mgm", "magma", 32, M_GCM, 0, 8),
    AEAD_ENTRY("magma-mgm", "magma-mgm decrypt", "magma", 32, M_GCM, 1, 8),
    OMAC_ENTRY("magma-ctr-acpkm-omac", "magma-ctr-acpkm-omac", "magma", 0, 8),
    OMAC_ENTRY("magma-ctr-acpkm-omac", "magma-ctr-acpkm-omac decrypt", "magma",
               1, 8),
    ALG_ENTRY(K_CIPHER, "kuznyechik-ecb", "kuznyechik", 32),
    ALG_ENTRY(K_CIPHER, "kuznyechik-cbc", "kuznyechik", 32),
    ALG_ENTRY(K_CIPHER, "kuznyechik-cfb", "kuznyechik", 32),
    ALG_ENTRY(K_CIPHER, "kuznyechik-ofb", "kuznyechik", 32),
    ALG_ENTRY(K_CIPHER, "kuznyechik-ctr", "kuznyechik", 32),
    OMAC_ENTRY("kuznyechik-ctr-acpkm-omac", "kuznyechik-ctr-acpkm-omac",
               "kuznyechik", 0, 16),
    OMAC_ENTRY("kuznyechik-ctr-acpkm-omac",
               "kuznyechik-ctr-acpkm-omac decrypt", "kuznyechik", 1, 16),
    ALG_ENTRY(K_CIPHER, "kuznyechik-ctr-acpkm", "kuznyechik", 32),
    AEAD_ENTRY("kuznyechik-mgm", "kuznyechik-mgm", "kuznyechik", 32, M_GCM,
               0, 16),
    AEAD_ENTRY("kuznyechik-mgm", "kuznyechik-mgm decrypt", "kuznyechik", 32,
               M_GCM, 1, 16),
    ALG_ENTRY(K_DIGEST, "SM3", "sm3", 0),
    ALG_ENTRY(K_DIGEST, "md_gost94", "gost94", 0),
    ALG_ENTRY(K_MAC, "gost-mac", "mac", 32),
    ALG_ENTRY(K_MAC, "gost-mac-12", "mac", 32),
    ALG_ENTRY(K_MAC, "magma-mac", "mac", 32),
    ALG_ENTRY(K_MAC, "kuznyechik-mac", "mac", 32),
    ALG_ENTRY(K_MAC, "magma-ctr-acpkm-omac", "mac", 32),
    ALG_ENTRY(K_MAC, "kuznyechik-ctr-acpkm-omac", "mac", 32),
    ALG_ENTRY(K_HMAC, "HMAC", "mac", 32),
    ALG_ENTRY(K_DIGEST, "md_gost12_256", "streebog", 0),
    ALG_ENTRY(K_DIGEST, "md_gost12_512", "streebog", 0),
    HMAC_ENTRY("md_gost12_256", "streebog"),
    HMAC_ENTRY("md_gost12_512", "streebog"),
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

enum step { S_FETCH, S_NEW, S_INIT, S_UPDATE, S_FINAL, S_COPY, S_REINIT,
            S_ONESHOT, NSTEPS };
static const char *const step_names[NSTEPS] = {
    "fetch", "ctx new", "init", "update", "final", "copy/dup", "re-init",
    "one-shot"
};

static unsigned char msg[MSG_LEN], aad[AAD_LEN];
static OSSL_LIB_CTX *lib;       /* smgost and default, algorithms fetched */
static const char *modules;

/* One trial: what prepare made and step used, for verify and cleanup. */
typedef struct {
    ALG *a;
    OSSL_LIB_CTX *flib;         /* fetch: a fresh library context */
    OSSL_PROVIDER *fprov[2];
    EVP_CIPHER *ci;
    EVP_MD *md;
    EVP_MAC *mac;
    EVP_CIPHER_CTX *cc, *cc2;
    EVP_MD_CTX *mc, *mc2;
    EVP_MAC_CTX *xc, *xc2;
    unsigned char out[MAX_OUT], out2[MAX_OUT];
    size_t outlen, out2len;
    int begun[2];               /* CCM's length and the AAD given to cc, cc2 */
} TRIAL;

/* Where copies and re-inits are made: CCM's data comes in one update. */
static size_t split_at(const ALG *a)
{
    return a->mode == M_CCM ? 0 : SPLIT;
}

/* HMAC's digest: SM3 unless the entry names another. */
static const char *hmac_digest(const ALG *a)
{
    return a->digest != NULL ? a->digest : "SM3";
}

/* HMAC's digest comes from smgost; the GOST MACs take their default size. */
static OSSL_PARAM *mac_params(const ALG *a, OSSL_PARAM params[3])
{
    OSSL_PARAM *p = params;

    if (a->kind == K_HMAC) {
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                (char *)hmac_digest(a), 0);
        *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                (char *)PROPQ, 0);
    }
    *p = OSSL_PARAM_construct_end();
    return params;
}

static int ctx_new(TRIAL *t, int second)
{
    switch (t->a->kind) {
    case K_CIPHER:
        return (*(second ? &t->cc2 : &t->cc) = EVP_CIPHER_CTX_new()) != NULL;
    case K_DIGEST:
        return (*(second ? &t->mc2 : &t->mc) = EVP_MD_CTX_new()) != NULL;
    default:
        return (t->xc = EVP_MAC_CTX_new(t->mac)) != NULL;
    }
}

static int ctx_init(TRIAL *t, int with_alg)
{
    OSSL_PARAM params[3];
    const ALG *a = t->a;
    unsigned char der[4 + sizeof(a->iv)];

    switch (a->kind) {
    case K_CIPHER:
        t->begun[0] = 0;
        /* CTR-ACPKM-OMAC: ukm = the IV and the next 8 bytes as the seed */
        params[0] = OSSL_PARAM_construct_end();
        if (a->mode == M_OMAC)
            params[0] = OSSL_PARAM_construct_octet_string(
                "alg_id_param", der,
                tu_gost2015_params(der, a->iv, a->ivlen + 8));
        params[1] = OSSL_PARAM_construct_end();
        if (!EVP_CipherInit_ex2(t->cc, with_alg ? t->ci : NULL, a->key,
                                a->ivlen ? a->iv : NULL, !a->dec, params))
            return 0;
        /* CCM verifies in its data update: the tag comes first. */
        return a->mode != M_CCM || !a->dec
               || EVP_CIPHER_CTX_ctrl(t->cc, EVP_CTRL_AEAD_SET_TAG,
                                      (int)a->taglen, (void *)a->tag) > 0;
    case K_DIGEST:
        return EVP_DigestInit_ex2(t->mc, with_alg ? t->md : NULL, NULL);
    default:
        return EVP_MAC_init(t->xc, a->key, a->keylen, mac_params(a, params));
    }
}

/* A message's start before its data: CCM's length, GCM's and CCM's AAD. */
static int ctx_begin(TRIAL *t, EVP_CIPHER_CTX *c)
{
    enum mode m = t->a->mode;
    int l;

    return (m != M_CCM || EVP_CipherUpdate(c, NULL, &l, NULL, MSG_LEN))
           && ((m != M_GCM && m != M_CCM)
               || EVP_CipherUpdate(c, NULL, &l, aad, AAD_LEN));
}

/*
 * Feeds the algorithm's input [from, to) into the first (second == 0) or
 * second context, after the message's start if it has not had it; XTS's
 * data units end at SPLIT and at the end.
 */
static int ctx_update(TRIAL *t, int second, size_t from, size_t to)
{
    unsigned char *out = second ? t->out2 : t->out;
    size_t *outlen = second ? &t->out2len : &t->outlen;
    const unsigned char *in = t->a->in != NULL ? t->a->in : msg;
    EVP_CIPHER_CTX *c = second ? t->cc2 : t->cc;
    size_t end;
    int l;

    switch (t->a->kind) {
    case K_CIPHER:
        if (!t->begun[second] && !ctx_begin(t, c))
            return 0;
        t->begun[second] = 1;
        for (; from < to; from = end) {
            end = t->a->mode == M_XTS && from < SPLIT && to > SPLIT ? SPLIT
                                                                    : to;
            if (!EVP_CipherUpdate(c, out + *outlen, &l, in + from,
                                  (int)(end - from)))
                return 0;
            *outlen += (size_t)l;
        }
        return 1;
    case K_DIGEST:
        return EVP_DigestUpdate(second ? t->mc2 : t->mc, msg + from,
                                to - from);
    default:
        return EVP_MAC_update(second ? t->xc2 : t->xc, msg + from, to - from);
    }
}

static int ctx_final(TRIAL *t, int second)
{
    unsigned char *out = second ? t->out2 : t->out;
    size_t *outlen = second ? &t->out2len : &t->outlen;
    EVP_CIPHER_CTX *c;
    unsigned int ml;
    size_t xl;
    int l;

    switch (t->a->kind) {
    case K_CIPHER:
        c = second ? t->cc2 : t->cc;
        if ((t->a->mode == M_GCM || t->a->mode == M_OMAC) && t->a->dec
            && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG,
                                   (int)t->a->taglen, (void *)t->a->tag) <= 0)
            return 0;
        if (!EVP_CipherFinal_ex(c, out + *outlen, &l))
            return 0;
        *outlen += (size_t)l;
        /* The tag after the data, where the output has room for it. */
        if (t->a->taglen != 0 && !t->a->dec) {
            if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG,
                                    (int)t->a->taglen, out + *outlen) <= 0)
                return 0;
            *outlen += t->a->taglen;
        }
        return 1;
    case K_DIGEST:
        if (!EVP_DigestFinal_ex(second ? t->mc2 : t->mc, out, &ml))
            return 0;
        *outlen = ml;
        return 1;
    default:
        if (!EVP_MAC_final(second ? t->xc2 : t->xc, out, &xl, MAX_OUT))
            return 0;
        *outlen = xl;
        return 1;
    }
}

/* The algorithm object a trial uses: its own after a fetch trial. */
static void use_alg(TRIAL *t)
{
    if (t->ci == NULL)
        t->ci = t->a->ci;
    if (t->md == NULL)
        t->md = t->a->md;
    if (t->mac == NULL)
        t->mac = t->a->mac;
}

/*
 * The stores every fetch and load share (names, methods, properties),
 * made before a trial by a fetch of nothing: libcrypto 3.0 creates them on
 * first use and, when an allocation fails there, leaves the context
 * without them for good (evp_fetch.c: "passed invalid argument").
 */
static void warm_stores(OSSL_LIB_CTX *l)
{
    EVP_KDF_free(EVP_KDF_fetch(l, "no such algorithm", PROPQ));
    ERR_clear_error();
}

/* With working memory: the state just before step s. */
static int prepare(TRIAL *t, enum step s)
{
    const ALG *a = t->a;

    if (s == S_FETCH) {
        /* A fresh context, so that the fetch constructs the methods. */
        if ((t->flib = OSSL_LIB_CTX_new()) == NULL
            || !OSSL_PROVIDER_set_default_search_path(t->flib, modules)
            || (t->fprov[0] = OSSL_PROVIDER_load(t->flib, "smgost")) == NULL
            || (a->kind == K_HMAC
                && (t->fprov[1] = OSSL_PROVIDER_load(t->flib, "default"))
                   == NULL))
            return 0;
        warm_stores(t->flib);
        return 1;
    }
    use_alg(t);
    if (s == S_NEW || s == S_ONESHOT)
        return 1;
    if (!ctx_new(t, 0))
        return 0;
    if (s == S_INIT)
        return 1;
    if (!ctx_init(t, 1))
        return 0;
    if (s == S_UPDATE)
        return 1;
    if (s == S_FINAL)
        return ctx_update(t, 0, 0, MSG_LEN);
    /* copy and re-init: in the middle of a message */
    if (!ctx_update(t, 0, 0, split_at(a)))
        return 0;
    return s != S_COPY || a->kind == K_MAC || a->kind == K_HMAC
           || ctx_new(t, 1);
}

static int step(TRIAL *t, enum step s)
{
    const ALG *a = t->a;
    OSSL_PARAM params[3];
    unsigned int ml;

    switch (s) {
    case S_FETCH:
        switch (a->kind) {
        case K_CIPHER:
            return (t->ci = EVP_CIPHER_fetch(t->flib, a->name, PROPQ)) != NULL;
        case K_DIGEST:
            return (t->md = EVP_MD_fetch(t->flib, a->name, PROPQ)) != NULL;
        default:
            return (t->mac = EVP_MAC_fetch(t->flib, a->name,
                                           a->kind == K_HMAC ? NULL : PROPQ))
                   != NULL;
        }
    case S_NEW:
        return ctx_new(t, 0);
    case S_INIT:
        return ctx_init(t, 1);
    case S_UPDATE:
        t->outlen = 0;
        return ctx_update(t, 0, 0, MSG_LEN);
    case S_FINAL:
        return ctx_final(t, 0);
    case S_COPY:
        switch (a->kind) {
        case K_CIPHER:
            t->begun[1] = t->begun[0];
            return EVP_CIPHER_CTX_copy(t->cc2, t->cc);
        case K_DIGEST:
            return EVP_MD_CTX_copy_ex(t->mc2, t->mc);
        default:
            return (t->xc2 = EVP_MAC_CTX_dup(t->xc)) != NULL;
        }
    case S_REINIT:
        t->outlen = 0;
        return ctx_init(t, 0);
    case S_ONESHOT:
        if (a->kind == K_DIGEST) {
            if (!EVP_Digest(msg, MSG_LEN, t->out, &ml, t->md, NULL))
                return 0;
            t->outlen = ml;
            return 1;
        }
        /* The HMAC's digest is fetched with the properties given: prefer. */
        return EVP_Q_mac(lib, a->name,
                         a->kind == K_HMAC ? "?" PROPQ : PROPQ,
                         a->kind == K_HMAC ? hmac_digest(a) : NULL,
                         a->kind == K_HMAC ? NULL : mac_params(a, params),
                         a->key, a->keylen, msg, MSG_LEN, t->out, MAX_OUT,
                         &t->outlen) != NULL;
    default:
        return 0;
    }
}

/* With working memory: the rest of the operation, then the comparison. */
static int finish(TRIAL *t, enum step s, const char *when)
{
    const ALG *a = t->a;
    int ok = 1;

    switch (s) {
    case S_FETCH:
    case S_NEW:
        if (s == S_FETCH) {
            const OSSL_PROVIDER *p =
                a->kind == K_CIPHER ? EVP_CIPHER_get0_provider(t->ci)
                : a->kind == K_DIGEST ? EVP_MD_get0_provider(t->md)
                : EVP_MAC_get0_provider(t->mac);

            if (!TU_CHECK(strcmp(tu_prov_name(p), a->kind == K_HMAC
                                 ? "default" : "smgost") == 0,
                          "%s fetched from %s", a->label, tu_prov_name(p)))
                return 0;
            ok = ctx_new(t, 0);
        }
        ok = ok && ctx_init(t, 1);
        /* fall through */
    case S_INIT:
    case S_REINIT:
        t->outlen = 0;
        ok = ok && ctx_update(t, 0, 0, MSG_LEN);
        /* fall through */
    case S_UPDATE:
        ok = ok && ctx_final(t, 0);
        break;
    case S_COPY:
        t->out2len = t->outlen;
        memcpy(t->out2, t->out, t->outlen);
        ok = ctx_update(t, 0, split_at(a), MSG_LEN) && ctx_final(t, 0)
             && ctx_update(t, 1, split_at(a), MSG_LEN) && ctx_final(t, 1);
        if (ok && !TU_CHECK_MEM("the copy's result", t->out2, t->out2len,
                                a->ref, a->reflen))
            return 0;
        break;
    case S_FINAL:
    case S_ONESHOT:
    default:
        break;
    }
    if (!TU_CHECK(ok, "%s, %s %s: completing with working memory", a->label,
                  step_names[s], when))
        return 0;
    return TU_CHECK_MEM(a->label, t->out, t->outlen, a->ref, a->reflen);
}

static void cleanup(TRIAL *t)
{
    EVP_CIPHER_CTX_free(t->cc);
    EVP_CIPHER_CTX_free(t->cc2);
    EVP_MD_CTX_free(t->mc);
    EVP_MD_CTX_free(t->mc2);
    EVP_MAC_CTX_free(t->xc);
    EVP_MAC_CTX_free(t->xc2);
    if (t->flib != NULL) {
        EVP_CIPHER_free(t->ci);
        EVP_MD_free(t->md);
        EVP_MAC_free(t->mac);
        OSSL_PROVIDER_unload(t->fprov[1]);
        OSSL_PROVIDER_unload(t->fprov[0]);
        OSSL_LIB_CTX_free(t->flib);
    }
    ERR_clear_error();
}

/* Which allocations a trial's N counts. */
enum scope { ALL_ALLOCATIONS, SMGOST_ALLOCATIONS };

static int from_smgost(const char *file)
{
    return mh_from_object(file, "smgost.so");
}

static void set_scope(enum scope sc)
{
    mh_counts = sc == SMGOST_ALLOCATIONS ? from_smgost : NULL;
}

/*
 * Whether a failed step is retried at once on the same state.  Not update
 * and final: EVP promises nothing about a context after they fail (when
 * HMAC_Final cannot copy its outer digest context, it leaves its working
 * one without a provider context, and a second final hands the digest a
 * NULL one).  Not fetch: libcrypto 3.0 marks the provider's operation as
 * queried even when building its methods failed, so only a fresh library
 * context can fetch again.
 */
static int retry_in_place(enum step s)
{
    return s != S_UPDATE && s != S_FINAL && s != S_FETCH;
}

/* Runs step s of algorithm a with the Nth allocation failing, N = 1, ... */
static void fail_each_allocation(ALG *a, enum step s)
{
    unsigned long n;
    int ok, hit, failures_before = (int)tu_failures;

    for (n = 1; n <= MAX_N; n++) {
        TRIAL t = { .a = a };

        mh_tag = (int)(a - algs) * NSTEPS + (int)s;
        mh_tag2 = (long)n;
        if (!TU_CHECK(prepare(&t, s), "%s, %s: preparing", a->label,
                      step_names[s])) {
            cleanup(&t);
            return;
        }
        mh_fail_at(n);
        ok = step(&t, s);
        hit = mh_fail_off();
        if (!ok) {
            TU_CHECK(hit, "%s, %s failed with working memory", a->label,
                     step_names[s]);
            ERR_clear_error();
            if (retry_in_place(s))
                TU_CHECK(ok = step(&t, s), "%s, %s with allocation %lu "
                         "failing, then retried: failed", a->label,
                         step_names[s], n);
        }
        if (ok)
            finish(&t, s, hit ? "after an allocation failed" : "");
        cleanup(&t);
        if (!hit)
            break;
        /* A few reports per step are enough to go on. */
        if ((int)tu_failures > failures_before + 3)
            return;
    }
    TU_CHECK(n <= MAX_N, "%s, %s: still allocating after %d", a->label,
             step_names[s], MAX_N);
    printf("# %s, %s: %lu allocation%s\n", a->label, step_names[s], n - 1,
           n == 2 ? "" : "s");
}

/* With working memory: p answers and serves. */
static void check_loaded(OSSL_LIB_CTX *l, OSSL_PROVIDER *p, int hit)
{
    const char *name = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
        OSSL_PARAM_END
    };
    EVP_CIPHER *c = EVP_CIPHER_fetch(l, "gost89", PROPQ);

    TU_CHECK(OSSL_PROVIDER_get_params(p, params) && name != NULL && c != NULL,
             "smgost loaded%s: parameters, fetch",
             hit ? " after an allocation failed" : "");
    EVP_CIPHER_free(c);
}

/* Loading the provider: smgost's init and provider context, the core's. */
static void fail_load(enum scope sc)
{
    unsigned long n;
    int hit;

    for (n = 1; n <= MAX_N; n++) {
        OSSL_LIB_CTX *l = OSSL_LIB_CTX_new();
        OSSL_PROVIDER *p;

        mh_tag = -1;
        mh_tag2 = (long)n;
        if (!TU_CHECK(l != NULL
                      && OSSL_PROVIDER_set_default_search_path(l, modules),
                      "new library context")) {
            OSSL_LIB_CTX_free(l);
            return;
        }
        warm_stores(l);
        set_scope(sc);
        mh_fail_at(n);
        p = OSSL_PROVIDER_load(l, "smgost");
        hit = mh_fail_off();
        set_scope(ALL_ALLOCATIONS);
        TU_CHECK(p != NULL || hit, "load failed with working memory");
        ERR_clear_error();
        /* After a failure inside the core, only a fresh context is sure. */
        if (p == NULL && sc == SMGOST_ALLOCATIONS)
            TU_CHECK((p = OSSL_PROVIDER_load(l, "smgost")) != NULL, "load "
                     "with allocation %lu failing, then retried: failed", n);
        if (p != NULL)
            check_loaded(l, p, hit);
        OSSL_PROVIDER_unload(p);
        OSSL_LIB_CTX_free(l);
        ERR_clear_error();
        if (!hit)
            break;
    }
    printf("# provider load, %s: %lu allocation%s\n",
           sc == SMGOST_ALLOCATIONS ? "smgost's own allocations failing"
                                    : "every allocation failing",
           n - 1, n == 2 ? "" : "s");
}

/*
 * References and the algorithm objects, with working memory, for the
 * algorithms of group (NULL: all).
 */
static void setup(const char *group)
{
    TU_RNG r;
    size_t i;

    tu_rng_seed(&r, tu_seed(NULL));
    tu_rng_bytes(&r, msg, sizeof(msg));
    tu_rng_bytes(&r, aad, sizeof(aad));
    lib = tu_libctx();
    for (i = 0; i < NALGS; i++) {
        ALG *a = &algs[i];
        TRIAL t = { .a = a };

        if (group != NULL && strcmp(a->group, group) != 0)
            continue;
        tu_rng_bytes(&r, a->key, sizeof(a->key));
        tu_rng_bytes(&r, a->iv, sizeof(a->iv));
        a->in = msg;
        if (a->dec) {
            /* The ciphertext and tag of the encrypting entry before (the
             * first entry stands for none: it is this one). */
            const ALG *e = &algs[i > 0 ? i - 1 : i];

            if (!TU_CHECK(e != a && strcmp(e->name, a->name) == 0 && !e->dec
                          && e->reflen == MSG_LEN + a->taglen,
                          "%s: no encryption before it", a->label))
                continue;
            memcpy(a->key, e->key, sizeof(a->key));
            memcpy(a->iv, e->iv, sizeof(a->iv));
            a->in = e->ref;
            a->tag = e->ref + MSG_LEN;
        }
        switch (a->kind) {
        case K_CIPHER:
            a->ci = EVP_CIPHER_fetch(lib, a->name, PROPQ);
            a->ivlen = a->ci != NULL ? (size_t)EVP_CIPHER_get_iv_length(a->ci)
                                     : 0;
            break;
        case K_DIGEST:
            a->md = EVP_MD_fetch(lib, a->name, PROPQ);
            break;
        default:
            a->mac = EVP_MAC_fetch(lib, a->name,
                                   a->kind == K_HMAC ? NULL : PROPQ);
            break;
        }
        use_alg(&t);
        if (!TU_CHECK((t.ci != NULL || t.md != NULL || t.mac != NULL)
                      && ctx_new(&t, 0) && ctx_init(&t, 1)
                      && ctx_update(&t, 0, 0, MSG_LEN) && ctx_final(&t, 0),
                      "%s: reference", a->label)) {
            cleanup(&t);
            continue;
        }
        if (a->dec && !TU_CHECK_MEM(a->label, t.out, t.outlen, msg, MSG_LEN)) {
            cleanup(&t);
            continue;
        }
        memcpy(a->ref, t.out, t.outlen);
        a->reflen = t.outlen;
        cleanup(&t);
    }
}

static void teardown(void)
{
    size_t i;

    for (i = 0; i < NALGS; i++) {
        EVP_CIPHER_free(algs[i].ci);
        EVP_MD_free(algs[i].md);
        EVP_MAC_free(algs[i].mac);
    }
    tu_libctx_free(lib);
}

/*
 * After libcrypto's cleanup nothing allocated through the hooks may remain
 * (strict), or what remains is listed (the core group).  Reports without
 * ERR calls: the library is gone.
 */
static void check_no_leaks(int strict)
{
    const MH_BLOCK *b;

    tu_checks++;
    if (mh_nlive == 0)
        return;
    if (strict)
        tu_failures++;
    fprintf(strict ? stderr : stdout, "%s%lu blocks left after "
            "libcrypto's cleanup:\n", strict ? "FAIL: " : "# ", mh_nlive);
    for (b = mh_live.next; b != &mh_live; b = b->next) {
        fprintf(strict ? stderr : stdout, "%s  %zu bytes from %s:%d, ",
                strict ? "" : "#", b->size, b->where, b->line);
        if (b->tag < 0)
            fprintf(strict ? stderr : stdout, "%s, N=%ld\n",
                    b->tag == -1 ? "provider load" : "outside the trials",
                    b->tag2);
        else
            fprintf(strict ? stderr : stdout, "%s %s, N=%ld\n",
                    algs[b->tag / NSTEPS].label, step_names[b->tag % NSTEPS],
                    b->tag2);
    }
}

/*
 * Fetch and load with every allocation failing.  What libcrypto 3.0.x
 * itself leaves behind here, found with this group: a name that fails to
 * be added to the name map (core_namemap.c), a provider store entry
 * (property.c, sparse_array.c, threads_pthread.c), and when the core's
 * copy of the reason strings cannot be allocated (provider_core.c), it
 * never calls the provider's teardown, so smgost's provider context stays.
 * OpenSSL 3.6.5 and 4.0.3 leave only smgost's provider context, from one
 * allocation failing in the load.
 */
static void fail_in_core(void)
{
    /* A fetch builds every method of its operation the provider offers. */
    static const char *const fetched[] = { "gost89", "SM3", "gost-mac",
                                           "HMAC" };
    size_t i, j;

    fail_load(ALL_ALLOCATIONS);
    for (i = 0; i < NALGS; i++)
        for (j = 0; j < sizeof(fetched) / sizeof(fetched[0]); j++)
            if (strcmp(algs[i].name, fetched[j]) == 0 && algs[i].reflen != 0)
                fail_each_allocation(&algs[i], S_FETCH);
}

/* What main leaves to the report: the group, and whether leaks fail it. */
static const char *report_group;
static int report_strict;

/* The leak check and the summary line; the program's exit status. */
static int report(void)
{
    check_no_leaks(report_strict);
    return tu_report(report_group);
}

/* Run by exit() after libcrypto's destructor: see arm_report. */
static void report_at_exit(void)
{
    int status = report();

    fflush(stdout);
    fflush(stderr);
    if (status != 0)
        _exit(status);
}

/*
 * OpenSSL 4.0's OPENSSL_cleanup() only asks for the cleanup, which
 * libcrypto's destructor does after main has returned (CHANGES.md of
 * OpenSSL 4.0: "OPENSSL_cleanup() now runs in a global destructor").  The
 * first block freed after main is freed by that destructor, which glibc's
 * exit() runs from an exit handler (the dynamic linker's _dl_fini); a
 * handler registered while another runs is run after that one returns
 * (the order of C11 7.22.4.4), so the leak check sees what the destructor
 * left.  A handler registered by main would not do: it runs before the
 * libraries' destructors.  Were a block freed earlier in exit, the check
 * would come too soon and list libcrypto's own blocks: a failure, never a
 * leak missed; were none freed, no summary line would be printed, and the
 * recipe fails on that.
 */
static void arm_report(const MH_BLOCK *b, const unsigned char *p)
{
    (void)b, (void)p;
    mh_on_free = NULL;
    if (atexit(report_at_exit) != 0) {
        fprintf(stderr, "FAIL: atexit refused the leak check\n");
        _exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";
    int core = strcmp(group, "core") == 0, load = strcmp(group, "load") == 0;
    unsigned long total;
    size_t i;
    int s, known = core || load;

    mh_install();
    for (i = 0; i < NALGS; i++)
        known |= strcmp(algs[i].group, group) == 0;
    if (!known) {
        fprintf(stderr, "usage: %s "
                "sm4|gost|magma|kuznyechik|sm3|gost94|mac|streebog|load|core\n",
                argv[0]);
        return 2;
    }
    modules = getenv("SMGOST_MODULES");
    if (modules == NULL || *modules == '\0')
        modules = getenv("OPENSSL_MODULES");
    mh_tag = -2;
    setup(core ? NULL : group);
    total = mh_nallocs;
    if (load)
        fail_load(SMGOST_ALLOCATIONS);
    else if (core)
        fail_in_core();
    for (i = 0; !core && i < NALGS; i++) {
        if (strcmp(algs[i].group, group) != 0 || algs[i].reflen == 0)
            continue;
        for (s = S_NEW; s < NSTEPS; s++)
            if (s != S_ONESHOT || algs[i].kind != K_CIPHER)
                fail_each_allocation(&algs[i], (enum step)s);
    }
    printf("# %lu allocations made under test\n", mh_nallocs - total);
    mh_tag = -2;
    mh_tag2 = 0;
    teardown();
    report_group = group;
    report_strict = !core;
    OPENSSL_cleanup();
    if (mh_nlive == 0 || OPENSSL_version_major() < 4)
        return report();
    printf("# %lu blocks outstanding after OPENSSL_cleanup(): libcrypto %u "
           "frees its own in its destructor, the leak check follows it\n",
           mh_nlive, OPENSSL_version_major());
    mh_on_free = arm_report;
    return 0;
}
