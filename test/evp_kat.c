/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known answers for every smgost family through EVP, as users call them:
 * vectors in OpenSSL's evp_test format under test/data/ (OpenSSL's SM4
 * file with its GCM, CCM and XTS entries: RFC 8998, GB/T 17964-2021, IEEE
 * 1619, and its SM3 file; the GB/T 32907-2016, draft-ribose-cfrg-sm4 and
 * GB/T 32905-2016 examples; GOST 28147-89 and Magma ciphers and the GOST
 * MAC, with the keys GOST adds, documented at the top of their files; the
 * Streebog digests and HMAC over them, with HMAC's Algorithm key;
 * Kuznyechik's RFC 7801 and GOST R 34.13-2015 A.1 examples),
 * GB/T 32907-2016's example of 1,000,000 encryptions, and each family's
 * names, aliases, OIDs and metadata.
 *
 * An entry goes to its family's runner by its algorithm (the case tables
 * sm_algs, gost89_algs, streebog_algs, kuznyechik_algs): SM4 one-shot, in
 * chunks and in place, with the tag flipped for GCM and CCM; SM3 and
 * Streebog one-shot and byte by byte, HMAC-Streebog in pieces with a copy;
 * GOST with the parameter set chosen every way the module offers, fed in
 * pieces of 1 to 1025 bytes, in place, through EVP_Cipher, MACs of size 4
 * and 8 copied mid-message; Kuznyechik fed as GOST, with no parameter set.
 *
 * Groups (arguments):
 *   file <path>     every entry of an evp_test file
 *   allsets <path>  the parameter set of each gost89-ecb entry (two blocks
 *                   or more) chosen every way (paramset by long name, short
 *                   name or OID, alg_id_param; in the init call or after
 *                   it), the first block of CFB and CBC under that set,
 *                   alg_id_param's IV replacing the init's, the set and
 *                   encoding read back; every parameter set must be there
 *   names sm|gost89|streebog|kuznyechik
 *                   names, aliases, OIDs, lengths, modes and flags (SM: as
 *                   the default provider has them)
 *   gbt             GB/T 32907-2016 example 2 (1,000,000 rounds), both
 *                   ways
 * Driven by test/10-kat.t and test/60-gost-kat.t; prints a tally line and
 * exits non-zero on failure.
 */
#include "gost89_test.h"

#include <ctype.h>
#include <strings.h>
#include <openssl/objects.h>

static OSSL_LIB_CTX *libctx;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Checks that a fetch from the target (alg, NULL if it failed) succeeded
 * and that the target really answered.
 */
static void from_target(const void *alg, const OSSL_PROVIDER *prov,
                        const char *kind, const char *name)
{
    if (TU_CHECK(alg != NULL, "fetch %s %s from %s", kind, name, tu_target()))
        TU_CHECK(strcmp(tu_prov_name(prov), tu_target()) == 0,
                 "%s came from %s", name, tu_prov_name(prov));
}

static EVP_CIPHER *fetch_cipher(const char *name)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, tu_target_propq());

    from_target(c, c != NULL ? EVP_CIPHER_get0_provider(c) : NULL, "cipher",
                name);
    return c;
}

static EVP_MD *fetch_md(const char *name)
{
    EVP_MD *md = EVP_MD_fetch(libctx, name, tu_target_propq());

    from_target(md, md != NULL ? EVP_MD_get0_provider(md) : NULL, "digest",
                name);
    return md;
}

static EVP_MAC *fetch_mac(const char *name)
{
    EVP_MAC *m = EVP_MAC_fetch(libctx, name, tu_target_propq());

    from_target(m, m != NULL ? EVP_MAC_get0_provider(m) : NULL, "MAC", name);
    return m;
}

/* ------------------------------------------------------- a vector entry */

/* One "Key = value" block of an evp_test file; values decoded. */
enum kat_kind { KAT_CIPHER, KAT_DIGEST, KAT_MAC };
enum {
    F_KEY, F_IV, F_PT, F_CT, F_IN, F_OUT, F_AAD, F_TAG, F_CT_TAIL, F_UKM,
    NFIELDS
};
static const char *const fields[NFIELDS] = {
    "Key", "IV", "Plaintext", "Ciphertext", "Input", "Output", "AAD", "Tag",
    "CiphertextTail", "UKM"
};

typedef struct {
    char where[300];                    /* file:line, for messages */
    char alg[64];
    enum kat_kind kind;
    unsigned char *v[NFIELDS];
    size_t len[NFIELDS];
    char xts_std[8];                    /* XTSStandard, if given */
    char paramset[64];                  /* ParamSet (GOST), if given */
    char digest[64];                    /* Algorithm: HMAC's digest */
    uint64_t zeros;                     /* Zeros (GOST): the message */
    int has_zeros;
    size_t key_mesh;                    /* KeyMesh (ACPKM), 0: none */
    size_t cipher_key_mesh;             /* CipherKeyMesh (OMAC-ACPKM) */
    int bad;                            /* a field we cannot honour */
} KAT_ENTRY;

/* ------------------------------------------------------------- SM4, SM3 */

/*
 * Runs a whole message through a cipher, padding off, feeding it chunk
 * bytes per update (0: all at once).  inplace: one update whose input and
 * output are the same buffer.  Returns the output length, or -1 on failure.
 */
static long run_cipher(const EVP_CIPHER *c, int enc, const unsigned char *key,
                       const unsigned char *iv, const unsigned char *in,
                       size_t inlen, size_t chunk, int inplace,
                       unsigned char *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    size_t pos = 0, done = 0, n;
    int outl, ok;

    if (ctx == NULL)
        return -1;
    ok = EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL)
        && EVP_CIPHER_CTX_set_padding(ctx, 0);
    if (inplace) {
        memcpy(out, in, inlen);
        in = out;
        chunk = 0;
    }
    while (ok && pos < inlen) {
        n = chunk == 0 || inlen - pos < chunk ? inlen - pos : chunk;
        ok = EVP_CipherUpdate(ctx, out + done, &outl, in + pos, (int)n);
        done += ok ? (size_t)outl : 0;
        pos += n;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + done, &outl);
    if (ok)
        done += (size_t)outl;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? (long)done : -1;
}

/* Every way of running one vector: one-shot, byte by byte, in place. */
static void cipher_vector(const char *name, const unsigned char *key,
                          size_t keylen, const unsigned char *iv, size_t ivlen,
                          const unsigned char *pt, size_t ptlen,
                          const unsigned char *ct, size_t ctlen)
{
    EVP_CIPHER *c = fetch_cipher(name);
    unsigned char *out = tu_malloc(ptlen + ctlen + 32);
    static const size_t chunks[] = { 0, 1, 7, 16, 17 };
    size_t i;
    long n;
    char what[96];

    if (c == NULL)
        goto end;
    if (!TU_CHECK((int)keylen == EVP_CIPHER_get_key_length(c)
                  && (int)ivlen == EVP_CIPHER_get_iv_length(c),
                  "%s: vector key/iv lengths %zu/%zu, cipher says %d/%d",
                  name, keylen, ivlen, EVP_CIPHER_get_key_length(c),
                  EVP_CIPHER_get_iv_length(c)))
        goto end;
    for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        snprintf(what, sizeof(what), "%s encrypt, chunk %zu", name, chunks[i]);
        n = run_cipher(c, 1, key, iv, pt, ptlen, chunks[i], 0, out);
        if (TU_CHECK(n >= 0, "%s failed", what))
            TU_CHECK_MEM(what, out, (size_t)n, ct, ctlen);
        snprintf(what, sizeof(what), "%s decrypt, chunk %zu", name, chunks[i]);
        n = run_cipher(c, 0, key, iv, ct, ctlen, chunks[i], 0, out);
        if (TU_CHECK(n >= 0, "%s failed", what))
            TU_CHECK_MEM(what, out, (size_t)n, pt, ptlen);
    }
    /* In place, one shot: output never runs ahead of input then. */
    n = run_cipher(c, 1, key, iv, pt, ptlen, 0, 1, out);
    if (TU_CHECK(n >= 0, "%s in-place encrypt failed", name))
        TU_CHECK_MEM("in-place encrypt", out, (size_t)n, ct, ctlen);
    n = run_cipher(c, 0, key, iv, ct, ctlen, 0, 1, out);
    if (TU_CHECK(n >= 0, "%s in-place decrypt failed", name))
        TU_CHECK_MEM("in-place decrypt", out, (size_t)n, pt, ptlen);
 end:
    free(out);
    EVP_CIPHER_free(c);
}

/*
 * An authenticated or XTS entry, every way: GCM with the AAD and the data
 * in chunks of 1, 7, 16 and 17 bytes too, CCM (one update each, the length
 * first), XTS with its standard; in place as well; and a decryption with
 * the tag's first byte flipped, which must fail and (CCM) leave no
 * plaintext.
 */
static int run_aead(const EVP_CIPHER *c, int enc, const unsigned char *key,
                    const unsigned char *iv, size_t ivlen,
                    const unsigned char *aad, size_t aadlen,
                    const char *xts_std, const unsigned char *in,
                    size_t inlen, size_t chunk, unsigned char *tag,
                    size_t taglen, unsigned char *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int mode = EVP_CIPHER_get_mode(c), outl, ok;
    /* MGM (RFC 9058): an AEAD with no EVP mode number; its tag is set
     * after the init, as GCM's, and its updates take any chunking */
    int mgm = mode == EVP_CIPH_STREAM_CIPHER
              && (EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0;
    size_t pos, n;
    OSSL_PARAM xp[2] = { OSSL_PARAM_END, OSSL_PARAM_END };

    if (xts_std != NULL)
        xp[0] = OSSL_PARAM_construct_utf8_string("xts_standard",
                                                 (char *)xts_std, 0);
    ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL);
    if (ok && mode != EVP_CIPH_XTS_MODE)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen,
                                 NULL) > 0;
    if (ok && mode == EVP_CIPH_CCM_MODE)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                 enc ? NULL : tag) > 0;
    ok = ok && EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, xp);
    if (ok && (mode == EVP_CIPH_GCM_MODE || mgm) && !enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                 tag) > 0;
    if (ok && mode == EVP_CIPH_CCM_MODE)
        ok = EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)inlen);
    if (mode != EVP_CIPH_GCM_MODE && !mgm)
        chunk = 0;
    for (pos = 0; ok && pos < aadlen; pos += n) {
        n = chunk == 0 || aadlen - pos < chunk ? aadlen - pos : chunk;
        ok = EVP_CipherUpdate(ctx, NULL, &outl, aad + pos, (int)n);
    }
    for (pos = 0; ok && pos < inlen; pos += n) {
        n = chunk == 0 || inlen - pos < chunk ? inlen - pos : chunk;
        ok = EVP_CipherUpdate(ctx, out + pos, &outl, in + pos, (int)n)
             && (size_t)outl == n;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + inlen, &outl) && outl == 0;
    if (ok && enc && mode != EVP_CIPH_XTS_MODE)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen,
                                 tag) > 0;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void aead_vector(const char *name, const unsigned char *key,
                        size_t keylen, const unsigned char *iv, size_t ivlen,
                        const unsigned char *aad, size_t aadlen,
                        const unsigned char *tag, size_t taglen,
                        const char *xts_std, const unsigned char *pt,
                        size_t ptlen, const unsigned char *ct, size_t ctlen)
{
    EVP_CIPHER *c = fetch_cipher(name);
    unsigned char *out = tu_malloc(ptlen + 16), *buf = tu_malloc(ptlen + 16);
    unsigned char t[16], bad[16];
    static const size_t chunks[] = { 0, 1, 7, 16, 17 };
    size_t i;
    char what[128];

    if (c == NULL || !TU_CHECK(ptlen == ctlen && taglen <= 16,
                               "%s: malformed entry", name))
        goto end;
    TU_CHECK((int)keylen == EVP_CIPHER_get_key_length(c), "%s key length",
             name);
    for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        snprintf(what, sizeof(what), "%s%s%s encrypt, chunk %zu", name,
                 xts_std ? " " : "", xts_std ? xts_std : "", chunks[i]);
        if (TU_CHECK(run_aead(c, 1, key, iv, ivlen, aad, aadlen, xts_std, pt,
                              ptlen, chunks[i], t, taglen, out),
                     "%s failed", what)) {
            TU_CHECK_MEM(what, out, ptlen, ct, ctlen);
            if (taglen > 0)
                TU_CHECK_MEM("tag", t, taglen, tag, taglen);
        }
        snprintf(what, sizeof(what), "%s decrypt, chunk %zu", name,
                 chunks[i]);
        if (taglen > 0)
            memcpy(t, tag, taglen);
        if (TU_CHECK(run_aead(c, 0, key, iv, ivlen, aad, aadlen, xts_std, ct,
                              ctlen, chunks[i], t, taglen, out),
                     "%s failed", what))
            TU_CHECK_MEM(what, out, ptlen, pt, ptlen);
    }
    memcpy(buf, pt, ptlen);
    if (TU_CHECK(run_aead(c, 1, key, iv, ivlen, aad, aadlen, xts_std, buf,
                          ptlen, 0, t, taglen, buf), "%s in place", name))
        TU_CHECK_MEM("in-place encrypt", buf, ptlen, ct, ctlen);
    if (taglen > 0) {
        memcpy(bad, tag, taglen);
        bad[0] ^= 1;
        memset(out, 0xa5, ptlen);
        TU_CHECK(!run_aead(c, 0, key, iv, ivlen, aad, aadlen, NULL, ct, ctlen,
                           0, bad, taglen, out),
                 "%s: a wrong tag was accepted", name);
        ERR_clear_error();
        if (EVP_CIPHER_get_mode(c) == EVP_CIPH_CCM_MODE)
            for (i = 0; i < ptlen; i++)
                if (!TU_CHECK(out[i] == 0, "%s: plaintext left after a wrong "
                              "tag", name))
                    break;
    }
 end:
    free(out);
    free(buf);
    EVP_CIPHER_free(c);
}

static void digest_vector(const char *name, const unsigned char *msg,
                          size_t len, const unsigned char *md, size_t mdlen)
{
    EVP_MD *d = fetch_md(name);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int outl = 0;
    size_t i;
    int ok;

    if (d == NULL || ctx == NULL)
        goto end;
    if (TU_CHECK(EVP_Digest(msg, len, out, &outl, d, NULL),
                 "%s one-shot digest failed", name))
        TU_CHECK_MEM("digest, one shot", out, outl, md, mdlen);
    ok = EVP_DigestInit_ex2(ctx, d, NULL);
    for (i = 0; ok && i < len; i++)
        ok = EVP_DigestUpdate(ctx, msg + i, 1);
    outl = 0;
    if (TU_CHECK(ok && EVP_DigestFinal_ex(ctx, out, &outl),
                 "%s byte-by-byte digest failed", name))
        TU_CHECK_MEM("digest, byte by byte", out, outl, md, mdlen);
 end:
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(d);
}

/* The SM4 block and stream modes' runner; 1 if the entry ran. */
static int sm4_entry(const KAT_ENTRY *e)
{
    if (!TU_CHECK(e->v[F_KEY] != NULL && e->v[F_PT] != NULL
                  && e->v[F_CT] != NULL, "%s: cipher entry incomplete",
                  e->where))
        return 0;
    cipher_vector(e->alg, e->v[F_KEY], e->len[F_KEY], e->v[F_IV],
                  e->len[F_IV], e->v[F_PT], e->len[F_PT], e->v[F_CT],
                  e->len[F_CT]);
    return 1;
}

/* SM4-GCM, CCM and XTS; kuznyechik-mgm and magma-mgm. */
static int sm4_aead_entry(const KAT_ENTRY *e)
{
    if (!TU_CHECK(e->v[F_KEY] != NULL && e->v[F_PT] != NULL
                  && e->v[F_CT] != NULL, "%s: cipher entry incomplete",
                  e->where))
        return 0;
    aead_vector(e->alg, e->v[F_KEY], e->len[F_KEY], e->v[F_IV],
                e->len[F_IV], e->v[F_AAD], e->len[F_AAD], e->v[F_TAG],
                e->len[F_TAG], e->xts_std[0] ? e->xts_std : NULL,
                e->v[F_PT], e->len[F_PT], e->v[F_CT], e->len[F_CT]);
    return 1;
}

/*
 * The CTR-ACPKM-OMAC ciphers: the CMS parameters (UKM = IV || seed, as
 * alg_id_param) and KeyMesh after them, given before the key, in the init
 * call with it, or after it (the keys are then derived again); the data
 * in chunks of 1, 7, 16, 17 and 64 bytes too, in place; decryption with
 * the tag; a wrong tag fails the final with nothing queued and no output;
 * every shorter tag read is its prefix.  0 if a call failed.
 */
static int run_ctr_omac(const EVP_CIPHER *c, int enc, int order,
                        const KAT_ENTRY *e, const unsigned char *in,
                        size_t len, size_t chunk, unsigned char *tag,
                        unsigned char *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char der[4 + 32];
    size_t ul = e->len[F_UKM], km = e->key_mesh, taglen = e->len[F_TAG];
    size_t pos, n;
    OSSL_PARAM p[4] = { OSSL_PARAM_END, OSSL_PARAM_END, OSSL_PARAM_END,
                        OSSL_PARAM_END };
    int outl = -1, ok;

    if (ctx == NULL || ul > 32)
        return 0;
    p[0] = OSSL_PARAM_construct_octet_string(
        "alg_id_param", der, tu_gost2015_params(der, e->v[F_UKM], ul));
    if (km != 0)
        p[1] = OSSL_PARAM_construct_size_t("key-mesh", &km);
    if (!enc)
        p[km != 0 ? 2 : 1] =
            OSSL_PARAM_construct_octet_string("tag", tag, taglen);
    ok = order == 0
         ? EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL)
           && EVP_CIPHER_CTX_set_params(ctx, p)
           && EVP_CipherInit_ex2(ctx, NULL, e->v[F_KEY], NULL, enc, NULL)
         : order == 1
         ? EVP_CipherInit_ex2(ctx, c, e->v[F_KEY], NULL, enc, p)
         : EVP_CipherInit_ex2(ctx, c, e->v[F_KEY], NULL, enc, NULL)
           && EVP_CIPHER_CTX_set_params(ctx, p);
    /* order 0 re-inits without the tag: it is set again */
    if (ok && order == 0 && !enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                 tag) > 0;
    for (pos = 0; ok && pos < len; pos += n) {
        n = chunk == 0 || len - pos < chunk ? len - pos : chunk;
        ok = EVP_CipherUpdate(ctx, out + pos, &outl, in + pos, (int)n)
             && (size_t)outl == n;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + len, &outl) && outl == 0;
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen,
                                 tag) > 0;
    for (n = 1; ok && enc && n < taglen; n++) {
        unsigned char t[16];

        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)n, t) > 0
             && memcmp(t, tag, n) == 0;
    }
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static int ctr_omac_entry(const KAT_ENTRY *e)
{
    static const size_t chunks[] = { 0, 1, 7, 16, 17, 64 };
    EVP_CIPHER *c = fetch_cipher(e->alg);
    size_t len = e->len[F_PT], taglen = e->len[F_TAG], i;
    unsigned char *out = tu_malloc(len + 16), *buf = tu_malloc(len + 16);
    unsigned char t[16];
    char what[400];
    int order;

    if (c == NULL || !TU_CHECK(e->v[F_KEY] != NULL && e->v[F_UKM] != NULL
                               && e->v[F_PT] != NULL && e->v[F_CT] != NULL
                               && e->len[F_CT] == len && taglen > 0
                               && taglen <= 16, "%s: entry incomplete",
                               e->where))
        goto end;
    TU_CHECK((int)taglen == (EVP_CIPHER_get_iv_length(c) == 8 ? 16 : 8),
             "%s: a tag of the whole block", e->where);
    for (order = 0; order < 3; order++)
        for (i = 0; i < NELEM(chunks); i++) {
            snprintf(what, sizeof(what), "%s encrypt, params way %d, chunk "
                     "%zu", e->where, order, chunks[i]);
            if (TU_CHECK(run_ctr_omac(c, 1, order, e, e->v[F_PT], len,
                                      chunks[i], t, out), "%s failed",
                         what)) {
                TU_CHECK_MEM(what, out, len, e->v[F_CT], len);
                TU_CHECK_MEM("tag", t, taglen, e->v[F_TAG], taglen);
            }
            snprintf(what, sizeof(what), "%s decrypt, params way %d, chunk "
                     "%zu", e->where, order, chunks[i]);
            memcpy(t, e->v[F_TAG], taglen);
            if (TU_CHECK(run_ctr_omac(c, 0, order, e, e->v[F_CT], len,
                                      chunks[i], t, out), "%s failed",
                         what))
                TU_CHECK_MEM(what, out, len, e->v[F_PT], len);
        }
    memcpy(buf, e->v[F_PT], len);
    if (TU_CHECK(run_ctr_omac(c, 1, 1, e, buf, len, 0, t, buf),
                 "%s in place", e->where))
        TU_CHECK_MEM("in-place encrypt", buf, len, e->v[F_CT], len);
    memcpy(t, e->v[F_TAG], taglen);
    t[taglen - 1] ^= 0x80;
    ERR_clear_error();
    TU_CHECK(!run_ctr_omac(c, 0, 1, e, e->v[F_CT], len, 0, t, out),
             "%s: a wrong tag was accepted", e->where);
    TU_CHECK(ERR_peek_error() == 0, "%s: a wrong tag queued an error",
             e->where);
    ERR_clear_error();
 end:
    free(out);
    free(buf);
    EVP_CIPHER_free(c);
    return 1;
}

static int sm3_entry(const KAT_ENTRY *e)
{
    if (!TU_CHECK(e->v[F_IN] != NULL && e->v[F_OUT] != NULL,
                  "%s: digest entry without Input/Output", e->where))
        return 0;
    digest_vector(e->alg, e->v[F_IN], e->len[F_IN], e->v[F_OUT],
                  e->len[F_OUT]);
    return 1;
}

/* Collects an algorithm's names, sorted and joined, for comparison. */
static void add_name(const char *name, void *arg)
{
    char *buf = arg;
    size_t used = strlen(buf);

    if (used + strlen(name) + 2 < 512)
        snprintf(buf + used, 512 - used, "%s ", name);
}

static int cmp_str(const void *a, const void *b)
{
    return strcasecmp(*(char *const *)a, *(char *const *)b);
}

/* Normalises "b a c " into "a b c" so that name order does not matter. */
static void sort_names(char *buf)
{
    char *words[32], *p, out[512] = "";
    size_t n = 0, i;

    for (p = strtok(buf, " "); p != NULL && n < 32; p = strtok(NULL, " "))
        words[n++] = p;
    qsort(words, n, sizeof(words[0]), cmp_str);
    for (i = 0; i < n; i++)
        snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
                 i ? " " : "", words[i]);
    strcpy(buf, out);
}

struct cipher_id {
    const char *name, *aliases[3];
    int mode;
};

static void names_ciphers(void)
{
    static const struct cipher_id ids[] = {
        { "SM4-ECB", { "1.2.156.10197.1.104.1" }, EVP_CIPH_ECB_MODE },
        { "SM4-CBC", { "SM4", "1.2.156.10197.1.104.2" }, EVP_CIPH_CBC_MODE },
        { "SM4-OFB", { "SM4-OFB128", "1.2.156.10197.1.104.3" },
          EVP_CIPH_OFB_MODE },
        { "SM4-CFB", { "SM4-CFB128", "1.2.156.10197.1.104.4" },
          EVP_CIPH_CFB_MODE },
        { "SM4-CTR", { "1.2.156.10197.1.104.7" }, EVP_CIPH_CTR_MODE },
        /* The default provider has these from OpenSSL 3.2 on. */
        { "SM4-GCM", { "1.2.156.10197.1.104.8" }, EVP_CIPH_GCM_MODE },
        { "SM4-CCM", { "1.2.156.10197.1.104.9" }, EVP_CIPH_CCM_MODE },
        { "SM4-XTS", { "1.2.156.10197.1.104.10" }, EVP_CIPH_XTS_MODE },
    };
    size_t i, j;
    char ours[512], theirs[512];

    for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        EVP_CIPHER *c = fetch_cipher(ids[i].name);
        EVP_CIPHER *ref = EVP_CIPHER_fetch(libctx, ids[i].name,
                                           "provider=default");

        if (c == NULL)
            goto next;
        if (ref == NULL && ids[i].mode >= EVP_CIPH_GCM_MODE) {
            /* OpenSSL 3.0: what can be checked without the default's */
            TU_CHECK(EVP_CIPHER_is_a(c, ids[i].aliases[0])
                     && EVP_CIPHER_get_mode(c) == ids[i].mode
                     && EVP_CIPHER_get_block_size(c) == 1
                     && EVP_CIPHER_get_key_length(c)
                        == (ids[i].mode == EVP_CIPH_XTS_MODE ? 32 : 16)
                     && EVP_CIPHER_get_iv_length(c)
                        == (ids[i].mode == EVP_CIPH_XTS_MODE ? 16 : 12)
                     && (EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER)
                        == (ids[i].mode == EVP_CIPH_XTS_MODE ? 0
                            : EVP_CIPH_FLAG_AEAD_CIPHER),
                     "%s: OID, mode, lengths or flags", ids[i].name);
            goto next;
        }
        if (!TU_CHECK(ref != NULL, "default lacks %s", ids[i].name))
            goto next;
        for (j = 0; j < 3 && ids[i].aliases[j] != NULL; j++) {
            EVP_CIPHER *a = fetch_cipher(ids[i].aliases[j]);

            TU_CHECK(a != NULL && EVP_CIPHER_is_a(a, ids[i].name),
                     "%s does not name %s", ids[i].aliases[j], ids[i].name);
            EVP_CIPHER_free(a);
        }
        ours[0] = theirs[0] = '\0';
        EVP_CIPHER_names_do_all(c, add_name, ours);
        EVP_CIPHER_names_do_all(ref, add_name, theirs);
        sort_names(ours);
        sort_names(theirs);
        TU_CHECK(strcmp(ours, theirs) == 0, "%s names: %s \"%s\", "
                 "default \"%s\"", ids[i].name, tu_target(), ours, theirs);
        /* OpenSSL 3.5 gives its SM4-GCM, CCM and XTS no NID (0) through
         * EVP_CIPHER_get_nid, though obj_mac.h has them: as the default
         * provider's, then. */
        TU_CHECK((EVP_CIPHER_get_nid(c) == OBJ_sn2nid(ids[i].name)
                  || ids[i].mode >= EVP_CIPH_GCM_MODE)
                 && EVP_CIPHER_get_nid(c) == EVP_CIPHER_get_nid(ref),
                 "%s nid %d, default %d", ids[i].name, EVP_CIPHER_get_nid(c),
                 EVP_CIPHER_get_nid(ref));
        TU_CHECK(EVP_CIPHER_get_mode(c) == ids[i].mode, "%s mode %d",
                 ids[i].name, EVP_CIPHER_get_mode(c));
        TU_CHECK(EVP_CIPHER_get_key_length(c)
                 == EVP_CIPHER_get_key_length(ref), "%s key length %d",
                 ids[i].name, EVP_CIPHER_get_key_length(c));
        TU_CHECK(EVP_CIPHER_get_iv_length(c) == EVP_CIPHER_get_iv_length(ref),
                 "%s iv length %d, default %d", ids[i].name,
                 EVP_CIPHER_get_iv_length(c), EVP_CIPHER_get_iv_length(ref));
        TU_CHECK(EVP_CIPHER_get_block_size(c)
                 == EVP_CIPHER_get_block_size(ref),
                 "%s block size %d, default %d", ids[i].name,
                 EVP_CIPHER_get_block_size(c), EVP_CIPHER_get_block_size(ref));
        TU_CHECK(EVP_CIPHER_get_flags(c) == EVP_CIPHER_get_flags(ref),
                 "%s flags %#lx, default %#lx", ids[i].name,
                 EVP_CIPHER_get_flags(c), EVP_CIPHER_get_flags(ref));
 next:
        EVP_CIPHER_free(c);
        EVP_CIPHER_free(ref);
    }
}

static void names_sm3(void)
{
    EVP_MD *md = fetch_md("SM3"), *byoid = fetch_md("1.2.156.10197.1.401");
    EVP_MD *ref = EVP_MD_fetch(libctx, "SM3", "provider=default");
    char ours[512] = "", theirs[512] = "";

    if (md == NULL || byoid == NULL || !TU_CHECK(ref != NULL,
                                                  "default lacks SM3"))
        goto end;
    TU_CHECK(EVP_MD_is_a(byoid, "SM3"), "the SM3 OID does not name SM3");
    EVP_MD_names_do_all(md, add_name, ours);
    EVP_MD_names_do_all(ref, add_name, theirs);
    sort_names(ours);
    sort_names(theirs);
    TU_CHECK(strcmp(ours, theirs) == 0, "SM3 names: %s \"%s\", "
             "default \"%s\"", tu_target(), ours, theirs);
    TU_CHECK(EVP_MD_get_type(md) == NID_sm3, "SM3 nid %d",
             EVP_MD_get_type(md));
    TU_CHECK(EVP_MD_get_size(md) == 32 && EVP_MD_get_block_size(md) == 64,
             "SM3 size %d, block size %d", EVP_MD_get_size(md),
             EVP_MD_get_block_size(md));
    TU_CHECK(EVP_MD_get_flags(md) == EVP_MD_get_flags(ref),
             "SM3 flags %#lx, default %#lx", EVP_MD_get_flags(md),
             EVP_MD_get_flags(ref));
 end:
    EVP_MD_free(md);
    EVP_MD_free(byoid);
    EVP_MD_free(ref);
}

/* ------------------------------------------------------------- Streebog */

/*
 * HMAC over the target's digest e->digest: the default provider's HMAC
 * with the digest fetched by "properties", as users run HMAC-Streebog.
 * One shot, then fed 1, 7 and 64 bytes at a time with the context copied
 * halfway; both copies must give the entry's output.
 */
static int streebog_hmac_entry(const KAT_ENTRY *e)
{
    static const size_t chunks[] = { 0, 1, 7, 64 };
    EVP_MAC *m = NULL;
    EVP_MD *md;
    OSSL_PARAM params[3];
    unsigned char out[EVP_MAX_MD_SIZE], out2[EVP_MAX_MD_SIZE];
    char props[160];
    size_t c, pos, n, outl, outl2;

    if (!TU_CHECK(e->v[F_KEY] != NULL && e->v[F_IN] != NULL
                  && e->v[F_OUT] != NULL && e->digest[0] != '\0',
                  "%s: HMAC entry without Algorithm/Key/Input/Output",
                  e->where))
        return 0;
    /* the digest HMAC will fetch must be the target's */
    if ((md = fetch_md(e->digest)) == NULL)
        return 1;
    EVP_MD_free(md);
    m = EVP_MAC_fetch(libctx, "HMAC", NULL);
    if (!TU_CHECK(m != NULL, "fetch HMAC"))
        return 1;
    snprintf(props, sizeof(props), "%s", tu_target_propq());
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 (char *)e->digest, 0);
    params[1] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                 props, 0);
    params[2] = OSSL_PARAM_construct_end();
    for (c = 0; c < NELEM(chunks); c++) {
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(m), *dup = NULL;
        int ok = ctx != NULL
            && EVP_MAC_init(ctx, e->v[F_KEY], e->len[F_KEY], params);

        for (pos = 0; ok && pos < e->len[F_IN]; pos += n) {
            n = chunks[c] == 0 ? e->len[F_IN] : chunks[c];
            if (n > e->len[F_IN] - pos)
                n = e->len[F_IN] - pos;
            if (dup == NULL && chunks[c] != 0 && pos >= e->len[F_IN] / 2)
                ok = (dup = EVP_MAC_CTX_dup(ctx)) != NULL
                    && EVP_MAC_update(dup, e->v[F_IN] + pos,
                                      e->len[F_IN] - pos);
            ok = ok && EVP_MAC_update(ctx, e->v[F_IN] + pos, n);
        }
        if (TU_CHECK(ok && EVP_MAC_final(ctx, out, &outl, sizeof(out)),
                     "%s: HMAC-%s in pieces of %zu failed", e->where,
                     e->digest, chunks[c]))
            TU_CHECK_MEM("HMAC", out, outl, e->v[F_OUT], e->len[F_OUT]);
        if (dup != NULL
            && TU_CHECK(EVP_MAC_final(dup, out2, &outl2, sizeof(out2)),
                        "%s: the copy's final failed", e->where))
            TU_CHECK_MEM("HMAC of the copy", out2, outl2, e->v[F_OUT],
                         e->len[F_OUT]);
        EVP_MAC_CTX_free(dup);
        EVP_MAC_CTX_free(ctx);
    }
    EVP_MAC_free(m);
    return 1;
}

/*
 * The Streebog digests' names (OpenSSL's object table's and gostprov's),
 * OIDs and sizes.  No NID: libcrypto 3 gives a provided digest the NID of
 * its own implementation of that name, and it has none of Streebog
 * (gostprov's are NID 0 too).
 */
static void names_streebog(void)
{
    static const struct {
        const char *names[5];
        int size;
    } ids[] = {
        { { "md_gost12_256", "GOST R 34.11-2012 with 256 bit hash",
            "id-tc26-gost3411-12-256", "streebog256", "1.2.643.7.1.1.2.2" },
          32 },
        { { "md_gost12_512", "GOST R 34.11-2012 with 512 bit hash",
            "id-tc26-gost3411-12-512", "streebog512", "1.2.643.7.1.1.2.3" },
          64 },
    };
    size_t i, j;

    for (i = 0; i < NELEM(ids); i++) {
        EVP_MD *md = fetch_md(ids[i].names[0]);

        if (md == NULL)
            continue;
        for (j = 1; j < NELEM(ids[i].names); j++) {
            EVP_MD *a = fetch_md(ids[i].names[j]);

            TU_CHECK(a != NULL && EVP_MD_is_a(a, ids[i].names[0]),
                     "%s does not name %s", ids[i].names[j], ids[i].names[0]);
            EVP_MD_free(a);
        }
        TU_CHECK(EVP_MD_get_size(md) == ids[i].size
                 && EVP_MD_get_block_size(md) == 64,
                 "%s size %d, block size %d", ids[i].names[0],
                 EVP_MD_get_size(md), EVP_MD_get_block_size(md));
        EVP_MD_free(md);
    }
}

/*
 * GB/T 32907-2016 appendix A, example 2: one block encrypted 1,000,000
 * times under the same key, and the reverse chain, which exercises
 * decryption as hard (example 1 is in evpciph_sm4_std.txt).
 */
static void gbt(void)
{
    static const char k[] = "0123456789abcdeffedcba9876543210";
    EVP_CIPHER *c = fetch_cipher("SM4-ECB");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *key = NULL, *exp2 = NULL, buf[16];
    size_t kl, el;
    long i, bad = 0;
    int enc;

    if (c == NULL || ctx == NULL)
        goto end;
    key = tu_unhex_or_die(k, &kl);
    exp2 = tu_unhex_or_die("595298c7c6fd271f0402f804c33d3f66", &el);
    for (enc = 1; enc >= 0; enc--) {
        if (!TU_CHECK(EVP_CipherInit_ex2(ctx, c, key, NULL, enc, NULL)
                      && EVP_CIPHER_CTX_set_padding(ctx, 0),
                      "init SM4-ECB"))
            goto end;
        memcpy(buf, enc ? key : exp2, 16);
        for (i = 0; i < 1000000; i++)
            bad += EVP_Cipher(ctx, buf, buf, 16) != 16;
        TU_CHECK(bad == 0, "EVP_Cipher failed %ld times", bad);
        TU_CHECK_MEM(enc ? "GB/T 32907 example 2, encryption"
                     : "GB/T 32907 example 2 reversed", buf, 16,
                     enc ? exp2 : key, 16);
    }
 end:
    free(key);
    free(exp2);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

/* ---------------------------------------------------- GOST 28147-89, Magma */

/* The parameter set an algorithm uses when none is chosen (as gostprov). */
static const GOST89_SET *default_set(const char *alg)
{
    if (strcmp(alg, "gost89-cnt") == 0 || strcmp(alg, "gost-mac") == 0)
        return gost89_set("CryptoPro-A");
    if (strncmp(alg, "gost", 4) == 0)
        return gost89_set("Z");
    return NULL;
}

static void gost89_names(void)
{
    static const struct {
        const char *name, *alias;
        int keylen, ivlen, blocksize;
        unsigned long mode;
    } ciphers[] = {
        { "gost89", "GOST 28147-89", 32, 8, 1, EVP_CIPH_CFB_MODE },
        { "gost89", "1.2.643.2.2.21", 32, 8, 1, EVP_CIPH_CFB_MODE },
        /* gost-engine declares CNT as OFB, a stream mode of block size 1 */
        { "gost89-cnt", NULL, 32, 8, 1, EVP_CIPH_OFB_MODE },
        { "gost89-cnt-12", NULL, 32, 8, 1, EVP_CIPH_OFB_MODE },
        { "gost89-cbc", NULL, 32, 8, 8, EVP_CIPH_CBC_MODE },
        { "gost89-ecb", NULL, 32, 0, 8, EVP_CIPH_ECB_MODE },
        { "magma-ecb", NULL, 32, 0, 8, EVP_CIPH_ECB_MODE },
        { "magma-cbc", NULL, 32, 8, 8, EVP_CIPH_CBC_MODE },
        { "magma-ctr", NULL, 32, 4, 1, EVP_CIPH_CTR_MODE },
        { "magma-ofb", NULL, 32, 8, 1, EVP_CIPH_OFB_MODE },
        { "magma-cfb", NULL, 32, 8, 1, EVP_CIPH_CFB_MODE },
        { "magma-ctr-acpkm", NULL, 32, 4, 1, EVP_CIPH_CTR_MODE },
        { "magma-ctr-acpkm", "1.2.643.7.1.1.5.1.1", 32, 4, 1,
          EVP_CIPH_CTR_MODE },
        { "kuznyechik-ctr-acpkm", "1.2.643.7.1.1.5.2.1", 32, 8, 1,
          EVP_CIPH_CTR_MODE },
        /* the CTR-ACPKM-OMAC ciphers share their OIDs with the MACs */
        { "magma-ctr-acpkm-omac", "1.2.643.7.1.1.5.1.2", 32, 4, 1,
          EVP_CIPH_CTR_MODE },
        { "kuznyechik-ctr-acpkm-omac", "1.2.643.7.1.1.5.2.2", 32, 8, 1,
          EVP_CIPH_CTR_MODE },
    };
    static const struct {
        const char *name, *alias;
    } macs[] = {
        { "gost-mac", "1.2.643.2.2.22" },
        { "gost-mac-12", NULL },
        { "magma-mac", NULL },
        { "magma-ctr-acpkm-omac", "1.2.643.7.1.1.5.1.2" },
        { "kuznyechik-mac", NULL },
        { "kuznyechik-ctr-acpkm-omac", "1.2.643.7.1.1.5.2.2" },
    };
    size_t i;

    for (i = 0; i < NELEM(ciphers); i++) {
        const char *n = ciphers[i].alias != NULL ? ciphers[i].alias
                                                 : ciphers[i].name;
        EVP_CIPHER *c = fetch_cipher(n);

        if (c == NULL)
            continue;
        TU_CHECK(EVP_CIPHER_is_a(c, ciphers[i].name), "%s is %s", n,
                 ciphers[i].name);
        TU_CHECK(EVP_CIPHER_get_key_length(c) == ciphers[i].keylen,
                 "%s: key length %d", n, EVP_CIPHER_get_key_length(c));
        TU_CHECK(EVP_CIPHER_get_iv_length(c) == ciphers[i].ivlen,
                 "%s: IV length %d", n, EVP_CIPHER_get_iv_length(c));
        TU_CHECK(EVP_CIPHER_get_block_size(c) == ciphers[i].blocksize,
                 "%s: block size %d", n, EVP_CIPHER_get_block_size(c));
        TU_CHECK((unsigned long)EVP_CIPHER_get_mode(c) == ciphers[i].mode,
                 "%s: mode %lu", n, (unsigned long)EVP_CIPHER_get_mode(c));
        /* the OMAC ciphers are authenticated: a tag to read or give */
        TU_CHECK(((EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0)
                 == (strstr(ciphers[i].name, "-omac") != NULL),
                 "%s: AEAD flag", n);
        EVP_CIPHER_free(c);
    }
    for (i = 0; i < NELEM(macs); i++) {
        EVP_MAC *m = fetch_mac(macs[i].name);
        EVP_MAC *a = macs[i].alias != NULL ? fetch_mac(macs[i].alias) : NULL;

        if (a != NULL)
            TU_CHECK(EVP_MAC_is_a(a, macs[i].name), "%s is %s",
                     macs[i].alias, macs[i].name);
        EVP_MAC_free(m);
        EVP_MAC_free(a);
    }
}

/* -------------------------------------------------------- cipher runner */

/* How a test chooses the parameter set. */
enum set_way {
    SET_DEFAULT,        /* not at all: the algorithm's default */
    SET_NAME_INIT,      /* paramset in the init call */
    SET_NAME_AFTER,     /* paramset after the init */
    SET_ALGID_INIT,     /* alg_id_param in the init call */
    SET_ALGID_AFTER,    /* alg_id_param after the init */
    SET_NAME_BEFORE,    /* MACs: paramset before the first init */
    NWAYS
};

static const char *const way_names[NWAYS] = {
    "default set", "paramset in init", "paramset after init",
    "alg_id_param in init", "alg_id_param after init",
    "paramset before init"
};

/* How the input is fed. */
typedef struct {
    size_t piece;       /* update size; 0: all at once */
    int inplace;
    int oneshot;        /* EVP_Cipher instead of update/final */
} FEED;

typedef struct {
    const char *alg;
    const GOST89_SET *set;
    enum set_way way;
    unsigned spelling;  /* which name of the set paramset uses */
    const unsigned char *key, *iv;
    size_t ivlen;
    const unsigned char *algid_iv;  /* the encoding's IV if not iv */
    size_t key_mesh;    /* ACPKM's section: in the init call or after it
                           as spelling is even or odd; 0: the default */
} CIPHER_SETUP;

static void describe_setup(const CIPHER_SETUP *s, int enc, const FEED *f)
{
    fprintf(stderr, "  %s %s, set %s (%s, \"%s\"), ", s->alg,
            enc ? "encrypt" : "decrypt",
            s->set != NULL ? s->set->short_name : "-", way_names[s->way],
            s->set != NULL ? gost89_set_spelling(s->set, s->spelling) : "");
    if (f->oneshot)
        fprintf(stderr, "EVP_Cipher");
    else
        fprintf(stderr, "pieces of %zu", f->piece);
    fprintf(stderr, "%s\n", f->inplace ? ", in place" : "");
}

/*
 * Fills params (room for 3) with the set as s->way chooses it at this
 * moment (init: 1, after: 0), and the ACPKM section where it goes then; the
 * DER encoding goes to der.
 */
static void set_params(const CIPHER_SETUP *s, int at_init, OSSL_PARAM *p,
                       unsigned char der[GOST89_ALG_ID_MAX])
{
    static const unsigned char zero_iv[8];
    size_t n = 0;

    switch (s->way) {
    case SET_NAME_INIT:
    case SET_NAME_AFTER:
        if ((s->way == SET_NAME_INIT) == at_init)
            p[n++] = OSSL_PARAM_construct_utf8_string(
                "paramset", (char *)gost89_set_spelling(s->set, s->spelling),
                0);
        break;
    case SET_ALGID_INIT:
    case SET_ALGID_AFTER:
        if ((s->way == SET_ALGID_INIT) == at_init)
            p[n++] = OSSL_PARAM_construct_octet_string(
                "alg_id_param", der,
                gost89_alg_id(s->set, s->algid_iv != NULL ? s->algid_iv
                                    : s->ivlen == 8 ? s->iv : zero_iv,
                            der));
        break;
    default:
        break;
    }
    if (s->key_mesh != 0 && (s->spelling % 2 == 0) == at_init)
        p[n++] = OSSL_PARAM_construct_size_t("key-mesh",
                                             (size_t *)&s->key_mesh);
    p[n] = OSSL_PARAM_construct_end();
}

/*
 * Runs the cipher over len bytes of in into out (room for len + 8); 1 if
 * every call succeeded, *outl the total output.
 */
static int cipher_run(const CIPHER_SETUP *s, int enc, const FEED *f,
                      const unsigned char *in, size_t len, unsigned char *out,
                      size_t *outl)
{
    EVP_CIPHER *c = fetch_cipher(s->alg);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM init_p[3], after_p[3], ivlen_p[2];
    unsigned char der_init[GOST89_ALG_ID_MAX], der_after[GOST89_ALG_ID_MAX];
    size_t done = 0, rd = 0, ivlen = s->ivlen;
    int ok = 0, l;

    *outl = 0;
    set_params(s, 1, init_p, der_init);
    set_params(s, 0, after_p, der_after);
    /* An IV of z > 1 blocks (GOST R 34.13-2015): its length first. */
    ivlen_p[0] = OSSL_PARAM_construct_size_t("ivlen", &ivlen);
    ivlen_p[1] = OSSL_PARAM_construct_end();
    if (c == NULL || ctx == NULL)
        goto end;
    if (s->iv != NULL && (int)s->ivlen > EVP_CIPHER_get_iv_length(c)
        && (!EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL)
            || !EVP_CIPHER_CTX_set_params(ctx, ivlen_p)))
        goto end;
    if (!EVP_CipherInit_ex2(ctx, EVP_CIPHER_CTX_get0_cipher(ctx) != NULL
                                 ? NULL : c, s->key, s->iv, enc, init_p)
        || !EVP_CIPHER_CTX_set_params(ctx, after_p)
        || !EVP_CIPHER_CTX_set_padding(ctx, 0))
        goto end;
    if (f->inplace && len > 0)
        memmove(out, in, len);
    if (f->oneshot) {
        l = EVP_Cipher(ctx, out, f->inplace ? out : in, (unsigned int)len);
        if (l < 0)
            goto end;
        done = (size_t)l;
    } else {
        while (rd < len) {
            size_t n = f->piece == 0 || f->piece > len - rd ? len - rd
                                                            : f->piece;

            if (!EVP_CipherUpdate(ctx, out + done, &l,
                                  f->inplace ? out + rd : in + rd, (int)n))
                goto end;
            done += (size_t)l;
            rd += n;
        }
        if (!EVP_CipherFinal_ex(ctx, out + done, &l))
            goto end;
        done += (size_t)l;
    }
    *outl = done;
    ok = 1;
 end:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok;
}

/* Both directions of one vector under setup s, fed as f. */
static void cipher_check(const CIPHER_SETUP *s, const FEED *f,
                         const char *source, const unsigned char *pt,
                         const unsigned char *ct, size_t len)
{
    unsigned char *out = tu_malloc(len + 8);
    size_t outl;
    int enc;

    for (enc = 1; enc >= 0; enc--) {
        int ok = cipher_run(s, enc, f, enc ? pt : ct, len, out, &outl);

        if (!TU_CHECK(ok, "%s: EVP calls failed", source)
            || !TU_CHECK_MEM(source, out, outl, enc ? ct : pt, len))
            describe_setup(s, enc, f);
        ERR_clear_error();
    }
    free(out);
}

/* The feeds every vector goes through. */
static const FEED feeds[] = {
    { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0, 1, 1 },
    { 1, 0, 0 }, { 3, 1, 0 }, { 7, 0, 0 }, { 8, 1, 0 }, { 9, 0, 0 },
    { 13, 1, 0 }, { 1023, 0, 0 }, { 1025, 1, 0 },
};

static int is_block_mode(const char *alg)
{
    return strstr(alg, "-ecb") != NULL || strstr(alg, "-cbc") != NULL;
}

/* One vector under every way of choosing its set and every feed. */

/* Keeps the last 16 bytes of everything appended. */
static void tail_append(unsigned char tail[16], const unsigned char *p,
                        size_t n)
{
    if (n >= 16) {
        memcpy(tail, p + n - 16, 16);
    } else {
        memmove(tail, tail + n, 16 - n);
        memcpy(tail + 16 - n, p, n);
    }
}

/* Entries past 2^31 bytes left for SMGOST_TEST_SCALE >= 100. */
static unsigned long deferred;

/*
 * An entry of Zeros: that many zero bytes encrypted (the last 16 bytes of
 * ciphertext checked) or MACed, in 1 MiB updates.
 */
static int gost89_long_entry(const KAT_ENTRY *e)
{
    enum { CHUNK = 1 << 20 };
    int is_mac = e->kind == KAT_MAC;
    const unsigned char *exp = e->v[is_mac ? F_OUT : F_CT_TAIL];
    size_t explen = e->len[is_mac ? F_OUT : F_CT_TAIL], outl;
    const GOST89_SET *set = gost89_set(e->paramset);
    unsigned char *zeros, *out, tail[16];
    uint64_t left = e->zeros;
    OSSL_PARAM p[2];
    int ok = 0, l;

    if (!TU_CHECK(set != NULL && e->len[F_KEY] == 32 && exp != NULL
                  && explen <= 16, "%s: long entry", e->where))
        return 0;
    if (e->zeros > ((uint64_t)1 << 32) / 2 && tu_scale() < 100) {
        printf("# %s: %llu bytes, skipped below SMGOST_TEST_SCALE=100\n",
               e->where, (unsigned long long)e->zeros);
        deferred++;
        return 0;
    }
    zeros = calloc(1, CHUNK);
    out = tu_malloc(CHUNK + 16);
    if (zeros == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(tail, 0, sizeof(tail));
    p[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)set->name,
                                            0);
    p[1] = OSSL_PARAM_construct_end();
    if (is_mac) {
        EVP_MAC *m = fetch_mac(e->alg);
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

        ok = ctx != NULL && EVP_MAC_init(ctx, e->v[F_KEY], 32, p);
        for (; ok && left > 0; left -= outl) {
            outl = left < CHUNK ? (size_t)left : CHUNK;
            ok = EVP_MAC_update(ctx, zeros, outl);
        }
        ok = ok && EVP_MAC_final(ctx, tail, &outl, sizeof(tail));
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(m);
    } else {
        EVP_CIPHER *c = fetch_cipher(e->alg);
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

        ok = c != NULL && ctx != NULL
             && EVP_EncryptInit_ex2(ctx, c, e->v[F_KEY], e->v[F_IV], p);
        for (; ok && left > 0; left -= outl) {
            outl = left < CHUNK ? (size_t)left : CHUNK;
            ok = EVP_EncryptUpdate(ctx, out, &l, zeros, (int)outl);
            tail_append(tail, out, (size_t)l);
        }
        ok = ok && EVP_EncryptFinal_ex(ctx, out, &l);
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
    if (TU_CHECK(ok, "%s: EVP calls failed", e->where))
        TU_CHECK_MEM(e->where, tail, explen, exp, explen);
    free(zeros);
    free(out);
    return 1;
}

/* The parameter set an entry names, else its algorithm's default. */
static const GOST89_SET *entry_set(const KAT_ENTRY *e)
{
    const GOST89_SET *s = gost89_set(e->paramset);

    if (e->paramset[0] == '\0')
        return default_set(e->alg);
    TU_CHECK(s != NULL, "%s: unknown ParamSet %s", e->where, e->paramset);
    return s;
}

/* One cipher vector under every way of choosing its set and every feed. */
static int gost89_cipher_entry(const KAT_ENTRY *e)
{
    const unsigned char *pt = e->v[F_PT], *ct = e->v[F_CT];
    size_t len = e->len[F_PT], ivlen = e->len[F_IV], i;
    CIPHER_SETUP s;
    int way;

    if (e->has_zeros)
        return gost89_long_entry(e);
    if (!TU_CHECK(pt != NULL && ct != NULL && len == e->len[F_CT]
                  && e->len[F_KEY] == 32, "%s: cipher entry", e->where))
        return 0;
    memset(&s, 0, sizeof(s));
    s.alg = e->alg;
    s.set = entry_set(e);
    s.key = e->v[F_KEY];
    s.iv = ivlen > 0 ? e->v[F_IV] : NULL;
    s.ivlen = ivlen;
    s.key_mesh = e->key_mesh;
    for (way = SET_DEFAULT; way <= SET_ALGID_AFTER; way++) {
        /* Magma has no sets; the default only where it is the vector's. */
        if (s.set == NULL ? way != SET_DEFAULT
                          : way == SET_DEFAULT && s.set != default_set(s.alg))
            continue;
        s.way = (enum set_way)way;
        for (i = 0; i < NELEM(feeds); i++) {
            /* EVP_Cipher on ECB/CBC takes whole blocks only. */
            if (feeds[i].oneshot && is_block_mode(s.alg) && len % 8 != 0)
                continue;
            s.spelling = (unsigned)i;
            cipher_check(&s, &feeds[i], e->where, pt, ct, len);
        }
    }
    return 1;
}

/*
 * One context encrypts, then a re-init without the key turns it to
 * decryption (an ECB or CBC context has made no decryption schedule
 * until then), and back.
 */
static void kuznyechik_turned(const CIPHER_SETUP *s, const char *where,
                              const unsigned char *pt,
                              const unsigned char *ct, size_t len)
{
    EVP_CIPHER *c = fetch_cipher(s->alg);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *out = tu_malloc(len + 16);
    int l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0;
    size_t ivlen = s->ivlen;
    OSSL_PARAM ivlen_p[2];

    /* An IV of z blocks: its length first, as cipher_check sets it. */
    ivlen_p[0] = OSSL_PARAM_construct_size_t("ivlen", &ivlen);
    ivlen_p[1] = OSSL_PARAM_construct_end();
    if (TU_CHECK(c != NULL && ctx != NULL
                 && EVP_CipherInit_ex2(ctx, c, NULL, NULL, 1, NULL)
                 && (s->iv == NULL
                     || (int)ivlen <= EVP_CIPHER_get_iv_length(c)
                     || EVP_CIPHER_CTX_set_params(ctx, ivlen_p))
                 && EVP_CipherInit_ex2(ctx, NULL, s->key, s->iv, 1, NULL)
                 && EVP_CIPHER_CTX_set_padding(ctx, 0)
                 && EVP_CipherUpdate(ctx, out, &l1, pt, (int)len)
                 && EVP_CipherFinal_ex(ctx, out + l1, &l2),
                 "%s: %s encryption", where, s->alg))
        TU_CHECK_MEM(where, out, (size_t)(l1 + l2), ct, len);
    if (TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, s->iv, 0, NULL)
                 && EVP_CIPHER_CTX_set_padding(ctx, 0)
                 && EVP_CipherUpdate(ctx, out, &l3, ct, (int)len)
                 && EVP_CipherFinal_ex(ctx, out + l3, &l4),
                 "%s: %s turned to decryption without a key", where, s->alg))
        TU_CHECK_MEM(where, out, (size_t)(l3 + l4), pt, len);
    if (TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, s->iv, 1, NULL)
                 && EVP_CIPHER_CTX_set_padding(ctx, 0)
                 && EVP_CipherUpdate(ctx, out, &l5, pt, (int)len)
                 && EVP_CipherFinal_ex(ctx, out + l5, &l6),
                 "%s: %s turned back to encryption", where, s->alg))
        TU_CHECK_MEM(where, out, (size_t)(l5 + l6), ct, len);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    free(out);
}

/*
 * A Kuznyechik cipher vector (no parameter sets): both ways, every feed
 * (EVP_Cipher on ECB/CBC only over whole 16-byte blocks); an ECB or CBC
 * context turned from one direction to the other without its key.
 */
static int kuznyechik_cipher_entry(const KAT_ENTRY *e)
{
    const unsigned char *pt = e->v[F_PT], *ct = e->v[F_CT];
    size_t len = e->len[F_PT], i;
    CIPHER_SETUP s;

    if (!TU_CHECK(pt != NULL && ct != NULL && len == e->len[F_CT]
                  && e->len[F_KEY] == 32, "%s: cipher entry", e->where))
        return 0;
    memset(&s, 0, sizeof(s));
    s.alg = e->alg;
    s.way = SET_DEFAULT;
    s.key = e->v[F_KEY];
    s.iv = e->len[F_IV] > 0 ? e->v[F_IV] : NULL;
    s.ivlen = e->len[F_IV];
    s.key_mesh = e->key_mesh;
    for (i = 0; i < NELEM(feeds); i++) {
        if (feeds[i].oneshot && is_block_mode(s.alg) && len % 16 != 0)
            continue;
        s.spelling = (unsigned)i;   /* ACPKM's key-mesh: init or after */
        cipher_check(&s, &feeds[i], e->where, pt, ct, len);
    }
    /* ECB and CBC: the modes with a decryption schedule to make late. */
    if (is_block_mode(s.alg))
        kuznyechik_turned(&s, e->where, pt, ct, len);
    return 1;
}

typedef struct {
    const char *alg;
    const GOST89_SET *set;
    enum set_way way;
    unsigned spelling;
    const unsigned char *key;
    size_t size;        /* 0: the default (4) */
    int key_as_param;
} MAC_SETUP;

static void describe_mac(const MAC_SETUP *s, size_t piece, int dup)
{
    fprintf(stderr, "  %s, set %s (%s), size %zu, key %s, pieces of %zu%s\n",
            s->alg, s->set != NULL ? s->set->short_name : "-",
            way_names[s->way], s->size, s->key_as_param ? "as param"
                                                        : "in init",
            piece, dup ? ", copied mid-message" : "");
}

/*
 * Computes the MAC of msg; with dup, copies the context halfway and
 * finishes both, which must agree.  Returns the MAC length, 0 on failure.
 */
static size_t mac_run(const MAC_SETUP *s, const unsigned char *msg,
                      size_t len, size_t piece, int dup, unsigned char *mac)
{
    EVP_MAC *m = fetch_mac(s->alg);
    EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL, *copy = NULL;
    OSSL_PARAM p[4], after[2];
    size_t n = 0, rd = 0, outl = 0, copyl = 0, size = s->size;
    unsigned char copymac[8];
    const char *name = s->set != NULL
                       ? gost89_set_spelling(s->set, s->spelling) : NULL;
    int ok = 0;

    after[0] = OSSL_PARAM_construct_end();
    if (ctx == NULL)
        goto end;
    if (s->way == SET_NAME_BEFORE) {
        OSSL_PARAM before[2];

        before[0] = OSSL_PARAM_construct_utf8_string("paramset",
                                                     (char *)name, 0);
        before[1] = OSSL_PARAM_construct_end();
        if (!EVP_MAC_CTX_set_params(ctx, before))
            goto end;
    }
    if (s->way == SET_NAME_INIT)
        p[n++] = OSSL_PARAM_construct_utf8_string("paramset", (char *)name,
                                                  0);
    if (s->way == SET_NAME_AFTER) {
        after[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)name,
                                                    0);
        after[1] = OSSL_PARAM_construct_end();
    }
    if (size != 0)
        p[n++] = OSSL_PARAM_construct_size_t("size", &size);
    if (s->key_as_param)
        p[n++] = OSSL_PARAM_construct_octet_string("key",
                                                   (void *)s->key, 32);
    p[n] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(ctx, s->key_as_param ? NULL : s->key,
                      s->key_as_param ? 0 : 32, p)
        || !EVP_MAC_CTX_set_params(ctx, after))
        goto end;
    while (rd < len) {
        size_t k = piece == 0 || piece > len - rd ? len - rd : piece;

        if (dup && copy == NULL && rd >= len / 2
            && (copy = EVP_MAC_CTX_dup(ctx)) == NULL)
            goto end;
        if (!EVP_MAC_update(ctx, msg + rd, k)
            || (copy != NULL && !EVP_MAC_update(copy, msg + rd, k)))
            goto end;
        rd += k;
    }
    if (dup && copy == NULL && (copy = EVP_MAC_CTX_dup(ctx)) == NULL)
        goto end;
    if (!EVP_MAC_final(ctx, mac, &outl, 8)
        || (copy != NULL && !EVP_MAC_final(copy, copymac, &copyl, 8)))
        goto end;
    ok = copy == NULL
         || TU_CHECK_MEM("the copy's MAC", copymac, copyl, mac, outl);
 end:
    EVP_MAC_CTX_free(copy);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(m);
    return ok ? outl : 0;
}

static int gost89_mac_entry(const KAT_ENTRY *e)
{
    static const size_t pieces[] = { 0, 1, 3, 7, 8, 9, 1023, 1025 };
    const unsigned char *msg = e->v[F_IN], *exp = e->v[F_OUT];
    size_t len = e->len[F_IN], maclen = e->len[F_OUT], i, outl;
    unsigned char mac[8];
    MAC_SETUP s;
    int way;

    if (e->has_zeros)
        return gost89_long_entry(e);
    if (!TU_CHECK(e->len[F_KEY] == 32 && msg != NULL && exp != NULL
                  && maclen <= 4, "%s: MAC entry", e->where))
        return 0;
    memset(&s, 0, sizeof(s));
    s.alg = e->alg;
    s.set = entry_set(e);
    s.key = e->v[F_KEY];
    for (way = SET_DEFAULT; way < NWAYS; way++) {
        if (way == SET_ALGID_INIT || way == SET_ALGID_AFTER
            || (way == SET_DEFAULT && s.set != default_set(e->alg)))
            continue;
        s.way = (enum set_way)way;
        for (i = 0; i < NELEM(pieces); i++) {
            int dup = (int)(i % 2);

            s.spelling = (unsigned)i;
            s.key_as_param = (int)(i % 3 == 1);
            /* No size, 4, or 8 of which the vector is the start. */
            s.size = i % 3 == 0 ? 0 : (i % 3 == 1 ? 4 : 8);
            outl = mac_run(&s, msg, len, pieces[i], dup, mac);
            if (!TU_CHECK(outl == (s.size != 0 ? s.size : 4),
                          "%s: MAC length %zu", e->where, outl)
                || !TU_CHECK_MEM(e->where, mac, maclen, exp, maclen))
                describe_mac(&s, pieces[i], dup);
            ERR_clear_error();
        }
    }
    return 1;
}

/*
 * An OMAC or OMAC-ACPKM MAC of msg, size bytes (0: the default), N and T
 * (KeyMesh, CipherKeyMesh) in the init call or after it, fed in pieces;
 * with dup, a copy made halfway finishes too and must agree.  Returns the
 * MAC length, 0 on failure.
 */
static size_t omac_run(const KAT_ENTRY *e, size_t size, int in_init,
                       size_t piece, int dup, unsigned char mac[16])
{
    EVP_MAC *m = fetch_mac(e->alg);
    EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL, *copy = NULL;
    size_t n = 0, rd = 0, len = e->len[F_IN], outl = 0, copyl = 0;
    size_t sections[2] = { e->key_mesh, e->cipher_key_mesh };
    unsigned char copymac[16];
    OSSL_PARAM p[4];
    int ok;

    if (size != 0)
        p[n++] = OSSL_PARAM_construct_size_t("size", &size);
    if (sections[0] != 0)
        p[n++] = OSSL_PARAM_construct_size_t("key-mesh", &sections[0]);
    if (sections[1] != 0)
        p[n++] = OSSL_PARAM_construct_size_t("cipher-key-mesh",
                                             &sections[1]);
    p[n] = OSSL_PARAM_construct_end();
    ok = ctx != NULL
         && EVP_MAC_init(ctx, e->v[F_KEY], e->len[F_KEY],
                         in_init ? p : NULL)
         && (in_init || EVP_MAC_CTX_set_params(ctx, p));
    while (ok && rd < len) {
        n = piece == 0 || piece > len - rd ? len - rd : piece;
        if (dup && copy == NULL && rd >= len / 2)
            ok = (copy = EVP_MAC_CTX_dup(ctx)) != NULL;
        ok = ok && EVP_MAC_update(ctx, e->v[F_IN] + rd, n)
             && (copy == NULL || EVP_MAC_update(copy, e->v[F_IN] + rd, n));
        rd += n;
    }
    ok = ok && EVP_MAC_final(ctx, mac, &outl, 16)
         && (copy == NULL || EVP_MAC_final(copy, copymac, &copyl, 16));
    ok = TU_CHECK(ok, "%s: EVP calls failed", e->where)
         && (copy == NULL
             || TU_CHECK_MEM("the copy's MAC", copymac, copyl, mac, outl));
    EVP_MAC_CTX_free(copy);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(m);
    return ok ? outl : 0;
}

/*
 * An OMAC entry: Output is the MAC's start (the standards print truncated
 * MACs), checked at the default size and at Output's length, every way.
 */
static int omac_mac_entry(const KAT_ENTRY *e)
{
    static const size_t pieces[] = { 0, 1, 3, 7, 8, 9, 15, 16, 17, 1025 };
    size_t maclen = e->len[F_OUT], i, outl;
    unsigned char mac[16];

    if (!TU_CHECK(e->len[F_KEY] == 32 && e->v[F_IN] != NULL
                  && e->v[F_OUT] != NULL && maclen <= 16,
                  "%s: MAC entry", e->where))
        return 0;
    for (i = 0; i < 2 * NELEM(pieces); i++) {
        size_t size = i % 2 == 0 ? 0 : maclen;

        outl = omac_run(e, size, (int)(i / 2 % 2), pieces[i / 2],
                        (int)(i % 3 == 0), mac);
        if (!TU_CHECK(outl >= maclen && (size == 0 || outl == size),
                      "%s: MAC length %zu", e->where, outl)
            || !TU_CHECK_MEM(e->where, mac, maclen, e->v[F_OUT], maclen))
            fprintf(stderr, "  %s, size %zu, sections %s, pieces of %zu\n",
                    e->alg, size, i / 2 % 2 ? "in init" : "after init",
                    pieces[i / 2]);
        ERR_clear_error();
    }
    return 1;
}

/* Reads paramset and alg_id_param back from a keyed gost89 context. */
static void check_readback(const CIPHER_SETUP *s)
{
    EVP_CIPHER *c = fetch_cipher(s->alg);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM init_p[2], after_p[2], get[4];
    unsigned char der_i[GOST89_ALG_ID_MAX], der_a[GOST89_ALG_ID_MAX];
    unsigned char got[GOST89_ALG_ID_MAX], want[GOST89_ALG_ID_MAX];
    char name[80] = "";
    size_t mesh = 0, wantlen = gost89_alg_id(s->set, s->iv, want);

    set_params(s, 1, init_p, der_i);
    set_params(s, 0, after_p, der_a);
    get[0] = OSSL_PARAM_construct_utf8_string("paramset", name,
                                              sizeof(name));
    get[1] = OSSL_PARAM_construct_octet_string("alg_id_param", got,
                                               sizeof(got));
    get[2] = OSSL_PARAM_construct_size_t("key-mesh", &mesh);
    get[3] = OSSL_PARAM_construct_end();
    if (TU_CHECK(c != NULL && ctx != NULL
                 && EVP_EncryptInit_ex2(ctx, c, s->key, s->iv, init_p)
                 && EVP_CIPHER_CTX_set_params(ctx, after_p)
                 && EVP_CIPHER_CTX_get_params(ctx, get),
                 "%s with %s (%s): set and read back", s->alg,
                 s->set->short_name, way_names[s->way])) {
        TU_CHECK(strcmp(name, s->set->name) == 0,
                 "%s, %s (%s): paramset reads \"%s\"", s->alg,
                 s->set->short_name, way_names[s->way], name);
        TU_CHECK_MEM("alg_id_param read back", got, get[1].return_size,
                     want, wantlen);
        /* gost89 meshes by default, and alg_id_param switches it on. */
        TU_CHECK(mesh != 0, "%s, %s (%s): key-mesh reads %zu", s->alg,
                 s->set->short_name, way_names[s->way], mesh);
    }
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

/* Bit i: an allsets entry under gost89_sets[i] ran. */
static unsigned allsets_seen;

/*
 * A gost89-ecb entry of two blocks or more under its set, the set chosen
 * every way: ECB, the first CFB and CBC blocks, alg_id_param's IV, read
 * back.
 */
static int gost89_allsets_entry(const KAT_ENTRY *e)
{
    static const unsigned char zeros[16];
    const unsigned char *pt = e->v[F_PT], *ct = e->v[F_CT];
    size_t ptlen = e->len[F_PT];
    const GOST89_SET *set;
    CIPHER_SETUP s;
    FEED f = { 0, 0, 0 };
    unsigned sp;
    int way;

    if (strcasecmp(e->alg, "gost89-ecb") != 0 || e->paramset[0] == '\0'
        || e->has_zeros || pt == NULL || ptlen < 16)
        return 0;
    set = entry_set(e);
    if (!TU_CHECK(set != NULL && ct != NULL && e->len[F_CT] == ptlen
                  && e->len[F_KEY] == 32, "%s: cipher entry", e->where))
        return 0;
    allsets_seen |= 1u << (set - gost89_sets);
    memset(&s, 0, sizeof(s));
    s.set = set;
    s.key = e->v[F_KEY];
    for (way = SET_DEFAULT; way <= SET_ALGID_AFTER; way++) {
        if (way == SET_DEFAULT && s.set != default_set("gost89-ecb"))
            continue;
        s.way = (enum set_way)way;
        for (sp = 0; sp < 3; sp++) {
            s.spelling = sp;
            s.alg = "gost89-ecb";
            s.iv = NULL;
            s.ivlen = 0;
            cipher_check(&s, &f, e->where, pt, ct, ptlen);
            /* CFB of zeros from IV = P1 is E(P1), as is CBC of P1
             * from a zero IV: the set reaches the other modes. */
            s.iv = pt;
            s.ivlen = 8;
            s.alg = "gost89";
            cipher_check(&s, &f, "first CFB block = E(IV)", zeros, ct, 8);
            s.iv = zeros;
            s.alg = "gost89-cbc";
            cipher_check(&s, &f, "first CBC block = E(P ^ 0)", pt, ct, 8);
            if (way == SET_ALGID_INIT || way == SET_ALGID_AFTER) {
                /* The encoding's IV replaces the init's. */
                s.iv = zeros;
                s.algid_iv = pt;
                s.alg = "gost89";
                cipher_check(&s, &f, "alg_id_param's IV = P1: first CFB "
                             "block = E(P1)", zeros, ct, 8);
                s.algid_iv = NULL;
            }
            if (way != SET_DEFAULT) {
                s.iv = pt + 8;
                s.alg = "gost89";
                check_readback(&s);
            }
        }
    }
    return 1;
}

/* ------------------------------------------------------------ families */

/* What a family runs for an entry of one of its algorithms. */
typedef struct {
    const char *alg;
    enum kat_kind kind;
    int (*run)(const KAT_ENTRY *e);     /* 1 if the entry ran */
} KAT_ALG;

/* By canonical name, as the default provider has them. */
static const KAT_ALG sm_algs[] = {
    { "SM4-ECB", KAT_CIPHER, sm4_entry },
    { "SM4-CBC", KAT_CIPHER, sm4_entry },
    { "SM4-OFB", KAT_CIPHER, sm4_entry },
    { "SM4-CFB", KAT_CIPHER, sm4_entry },
    { "SM4-CTR", KAT_CIPHER, sm4_entry },
    { "SM4-GCM", KAT_CIPHER, sm4_aead_entry },
    { "SM4-CCM", KAT_CIPHER, sm4_aead_entry },
    { "SM4-XTS", KAT_CIPHER, sm4_aead_entry },
    { "SM3", KAT_DIGEST, sm3_entry },
};

static const KAT_ALG gost89_algs[] = {
    { "gost89", KAT_CIPHER, gost89_cipher_entry },
    { "gost89-cnt", KAT_CIPHER, gost89_cipher_entry },
    { "gost89-cnt-12", KAT_CIPHER, gost89_cipher_entry },
    { "gost89-cbc", KAT_CIPHER, gost89_cipher_entry },
    { "gost89-ecb", KAT_CIPHER, gost89_cipher_entry },
    { "magma-ecb", KAT_CIPHER, gost89_cipher_entry },
    { "magma-cbc", KAT_CIPHER, gost89_cipher_entry },
    { "magma-ctr", KAT_CIPHER, gost89_cipher_entry },
    { "magma-ofb", KAT_CIPHER, gost89_cipher_entry },
    { "magma-cfb", KAT_CIPHER, gost89_cipher_entry },
    { "magma-ctr-acpkm", KAT_CIPHER, gost89_cipher_entry },
    { "magma-mgm", KAT_CIPHER, sm4_aead_entry },
    { "magma-ctr-acpkm-omac", KAT_CIPHER, ctr_omac_entry },
    { "gost-mac", KAT_MAC, gost89_mac_entry },
    { "gost-mac-12", KAT_MAC, gost89_mac_entry },
    { "md_gost94", KAT_DIGEST, sm3_entry },
    { "magma-mac", KAT_MAC, omac_mac_entry },
    { "magma-ctr-acpkm-omac", KAT_MAC, omac_mac_entry },
    { "kuznyechik-mac", KAT_MAC, omac_mac_entry },
    { "kuznyechik-ctr-acpkm-omac", KAT_MAC, omac_mac_entry },
};

/* Digest entries run as SM3's do: one shot and byte by byte. */
static const KAT_ALG streebog_algs[] = {
    { "md_gost12_256", KAT_DIGEST, sm3_entry },
    { "md_gost12_512", KAT_DIGEST, sm3_entry },
    { "HMAC", KAT_MAC, streebog_hmac_entry },
};

static const KAT_ALG kuznyechik_algs[] = {
    { "kuznyechik-ecb", KAT_CIPHER, kuznyechik_cipher_entry },
    { "kuznyechik-cbc", KAT_CIPHER, kuznyechik_cipher_entry },
    { "kuznyechik-cfb", KAT_CIPHER, kuznyechik_cipher_entry },
    { "kuznyechik-ofb", KAT_CIPHER, kuznyechik_cipher_entry },
    { "kuznyechik-ctr", KAT_CIPHER, kuznyechik_cipher_entry },
    { "kuznyechik-ctr-acpkm", KAT_CIPHER, kuznyechik_cipher_entry },
    { "kuznyechik-mgm", KAT_CIPHER, sm4_aead_entry },
    { "kuznyechik-ctr-acpkm-omac", KAT_CIPHER, ctr_omac_entry },
};

/* gostprov's names, lengths and modes (the mode, not gostprov's flags). */
static void kuznyechik_names(void)
{
    static const struct {
        const char *name;
        int ivlen, blocksize;
        unsigned long mode;
    } ciphers[] = {
        { "kuznyechik-ecb", 0, 16, EVP_CIPH_ECB_MODE },
        { "kuznyechik-cbc", 16, 16, EVP_CIPH_CBC_MODE },
        { "kuznyechik-cfb", 16, 1, EVP_CIPH_CFB_MODE },
        { "kuznyechik-ofb", 16, 1, EVP_CIPH_OFB_MODE },
        { "kuznyechik-ctr", 8, 1, EVP_CIPH_CTR_MODE },
    };
    size_t i;

    for (i = 0; i < NELEM(ciphers); i++) {
        const char *n = ciphers[i].name;
        EVP_CIPHER *c = fetch_cipher(n);

        if (c == NULL)
            continue;
        TU_CHECK(EVP_CIPHER_get_key_length(c) == 32, "%s: key length %d", n,
                 EVP_CIPHER_get_key_length(c));
        TU_CHECK(EVP_CIPHER_get_iv_length(c) == ciphers[i].ivlen,
                 "%s: IV length %d", n, EVP_CIPHER_get_iv_length(c));
        TU_CHECK(EVP_CIPHER_get_block_size(c) == ciphers[i].blocksize,
                 "%s: block size %d", n, EVP_CIPHER_get_block_size(c));
        TU_CHECK((unsigned long)EVP_CIPHER_get_mode(c) == ciphers[i].mode,
                 "%s: mode %lu", n, (unsigned long)EVP_CIPHER_get_mode(c));
        EVP_CIPHER_free(c);
    }
}

static void sm_names(void)
{
    names_ciphers();
    names_sm3();
}

static const struct {
    const char *name;
    const KAT_ALG *algs;
    size_t nalgs;
    void (*names)(void);
} families[] = {
    { "sm", sm_algs, NELEM(sm_algs), sm_names },
    { "gost89", gost89_algs, NELEM(gost89_algs), gost89_names },
    { "streebog", streebog_algs, NELEM(streebog_algs), names_streebog },
    { "kuznyechik", kuznyechik_algs, NELEM(kuznyechik_algs),
      kuznyechik_names },
};

/* ------------------------------------------------------ evp_test files */

static unsigned long ran[3], skipped;

/* An entry of any family, through its family's runner. */
static int run_entry(const KAT_ENTRY *e)
{
    size_t f, i;

    for (f = 0; !e->bad && f < NELEM(families); f++)
        for (i = 0; i < families[f].nalgs; i++)
            if (families[f].algs[i].kind == e->kind
                && strcasecmp(families[f].algs[i].alg, e->alg) == 0) {
                ran[e->kind] += families[f].algs[i].run(e);
                return 1;
            }
    skipped++;
    return 0;
}

static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

static void set_field(KAT_ENTRY *e, const char *key, const char *val)
{
    size_t i, n;
    char *end;

    if (strcmp(key, "Cipher") == 0 || strcmp(key, "Digest") == 0
        || strcmp(key, "MAC") == 0) {
        snprintf(e->alg, sizeof(e->alg), "%s", val);
        e->kind = key[0] == 'C' ? KAT_CIPHER
                  : key[0] == 'D' ? KAT_DIGEST : KAT_MAC;
        return;
    }
    if (strcmp(key, "Title") == 0)
        return;
    if (strcmp(key, "XTSStandard") == 0) {
        snprintf(e->xts_std, sizeof(e->xts_std), "%s", val);
        return;
    }
    if (strcmp(key, "Algorithm") == 0) {
        snprintf(e->digest, sizeof(e->digest), "%s", val);
        return;
    }
    if (strcmp(key, "ParamSet") == 0) {
        snprintf(e->paramset, sizeof(e->paramset), "%s", val);
        return;
    }
    if (strcmp(key, "KeyMesh") == 0 || strcmp(key, "CipherKeyMesh") == 0) {
        *(key[0] == 'K' ? &e->key_mesh : &e->cipher_key_mesh)
            = strtoul(val, &end, 10);
        TU_CHECK(*val != '\0' && *end == '\0', "%s: %s = %s",
                 e->where, key, val);
        return;
    }
    if (strcmp(key, "Zeros") == 0) {
        e->zeros = strtoull(val, &end, 10);
        e->has_zeros = TU_CHECK(*val != '\0' && *end == '\0',
                                "%s: Zeros = %s", e->where, val);
        return;
    }
    for (i = 0; i < NFIELDS; i++) {
        if (strcmp(key, fields[i]) != 0)
            continue;
        n = strlen(val);
        if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
            e->v[i] = tu_malloc(n);
            memcpy(e->v[i], val + 1, n - 2);
            e->len[i] = n - 2;
        } else {
            e->v[i] = tu_unhex(val, &e->len[i]);
            TU_CHECK(e->v[i] != NULL, "%s: bad hex in %s", e->where, key);
        }
        return;
    }
    /* Anything else (e.g. Operation, Result) is beyond this runner. */
    e->bad = 1;
}

/* Gives each entry of the file at path to each, then frees it. */
static void read_file(const char *path, int (*each)(const KAT_ENTRY *e))
{
    FILE *f = fopen(path, "r");
    char line[8192], *p, *eq;
    unsigned long lineno = 0;
    KAT_ENTRY e;
    int i;

    if (!TU_CHECK(f != NULL, "cannot open %s", path))
        return;
    memset(&e, 0, sizeof(e));
    for (;;) {
        int more = fgets(line, sizeof(line), f) != NULL;

        lineno++;
        if (more && !TU_CHECK(strchr(line, '\n') != NULL || feof(f),
                              "%s:%lu: line too long", path, lineno))
            break;
        p = more ? trim(line) : line;
        if (more && *p == '#')
            continue;
        if (!more || *p == '\0') {
            if (e.alg[0] != '\0')
                each(&e);
            for (i = 0; i < NFIELDS; i++)
                free(e.v[i]);
            memset(&e, 0, sizeof(e));
            if (!more)
                break;
            continue;
        }
        if (e.where[0] == '\0')
            snprintf(e.where, sizeof(e.where), "%s:%lu", path, lineno);
        if (!TU_CHECK((eq = strchr(p, '=')) != NULL, "%s:%lu: no '='", path,
                      lineno))
            continue;
        *eq = '\0';
        set_field(&e, trim(p), trim(eq + 1));
    }
    fclose(f);
}

/* ---------------------------------------------------------------- groups */

static void run_file(const char *path)
{
    read_file(path, run_entry);
    printf("# %s: %lu cipher, %lu digest and %lu MAC entries run, "
           "%lu skipped, %lu left for SMGOST_TEST_SCALE >= 100\n", path,
           ran[KAT_CIPHER], ran[KAT_DIGEST], ran[KAT_MAC], skipped,
           deferred);
}

static void run_allsets(const char *path)
{
    size_t i;

    read_file(path, gost89_allsets_entry);
    for (i = 0; i < GOST89_NSETS; i++)
        TU_CHECK(allsets_seen >> i & 1, "%s: no gost89-ecb entry of two "
                 "blocks under %s", path, gost89_sets[i].short_name);
}

static void run_names(const char *family)
{
    size_t i;

    for (i = 0; i < NELEM(families); i++)
        if (strcmp(family, families[i].name) == 0) {
            families[i].names();
            return;
        }
    TU_CHECK(0, "no family %s", family);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name, *arg;
        void (*with_arg)(const char *arg);
        void (*run)(void);
    } groups[] = {
        { "file", "<path>", run_file, NULL },
        { "allsets", "<path>", run_allsets, NULL },
        { "names", "sm|gost89|streebog|kuznyechik", run_names, NULL },
        { "gbt", NULL, NULL, gbt },
    };
    size_t i;

    for (i = 0; argc > 1 && i < NELEM(groups); i++)
        if (strcmp(argv[1], groups[i].name) == 0
            && (groups[i].arg == NULL) == (argc == 2))
            break;
    if (argc < 2 || i == NELEM(groups)) {
        fprintf(stderr, "usage: %s", argv[0]);
        for (i = 0; i < NELEM(groups); i++)
            fprintf(stderr, "%s %s%s%s", i > 0 ? " |" : "", groups[i].name,
                    groups[i].arg != NULL ? " " : "",
                    groups[i].arg != NULL ? groups[i].arg : "");
        fputc('\n', stderr);
        return 2;
    }
    libctx = tu_libctx();
    gost89_note_kernels(libctx);
    if (groups[i].arg != NULL)
        groups[i].with_arg(argv[2]);
    else
        groups[i].run();
    tu_libctx_free(libctx);
    return tu_report(argv[1]);
}
