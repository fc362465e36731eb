/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known-answer tests for smgost's SM4 and SM3 through EVP, as users call
 * them: OpenSSL's evp_test vector files (GCM, CCM and XTS entries included:
 * RFC 8998, GB/T 17964-2021, IEEE 1619), the GB/T 32907-2016 examples, the
 * draft-ribose-cfrg-sm4 vectors, the GB/T 32905-2016 SM3 examples, and the
 * names, OIDs and metadata compared with OpenSSL's default provider.
 *
 * Usage: evp_kat file <vector file> | names | gbt | ribose | sm3
 * Driven by test/10-kat.t; prints a tally line and exits non-zero on failure.
 */
#include "testutil.h"

#include <ctype.h>
#include <strings.h>
#include <openssl/objects.h>

static OSSL_LIB_CTX *libctx;

/* Fetches from the target and checks that the target really answered. */
static EVP_CIPHER *fetch_cipher(const char *name)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, tu_target_propq());

    if (!TU_CHECK(c != NULL, "fetch cipher %s from %s", name, tu_target()))
        return NULL;
    TU_CHECK(strcmp(tu_prov_name(EVP_CIPHER_get0_provider(c)), tu_target())
             == 0,
             "%s came from %s", name,
             tu_prov_name(EVP_CIPHER_get0_provider(c)));
    return c;
}

static EVP_MD *fetch_md(const char *name)
{
    EVP_MD *md = EVP_MD_fetch(libctx, name, tu_target_propq());

    if (!TU_CHECK(md != NULL, "fetch digest %s from %s", name, tu_target()))
        return NULL;
    TU_CHECK(strcmp(tu_prov_name(EVP_MD_get0_provider(md)), tu_target())
             == 0,
             "%s came from %s", name, tu_prov_name(EVP_MD_get0_provider(md)));
    return md;
}

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
    if (ok && mode == EVP_CIPH_GCM_MODE && !enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                 tag) > 0;
    if (ok && mode == EVP_CIPH_CCM_MODE)
        ok = EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)inlen);
    if (mode != EVP_CIPH_GCM_MODE)
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

/* Our algorithms by canonical name, as the default provider has them. */
static const char *const cipher_names[] = {
    "SM4-ECB", "SM4-CBC", "SM4-OFB", "SM4-CFB", "SM4-CTR", "SM4-GCM",
    "SM4-CCM", "SM4-XTS"
};

static int supported_cipher(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof(cipher_names) / sizeof(cipher_names[0]); i++)
        if (strcasecmp(name, cipher_names[i]) == 0)
            return 1;
    return 0;
}

/* One "Key = value" block of an evp_test file; values decoded. */
struct entry {
    char alg[64];
    int is_digest;
    unsigned char *v[8];
    size_t len[8];
    char xts_std[8];                    /* XTSStandard, if given */
    int bad;                            /* a field we cannot honour */
};
enum { F_KEY, F_IV, F_PT, F_CT, F_IN, F_OUT, F_AAD, F_TAG, NFIELDS };
static const char *const fields[NFIELDS] = {
    "Key", "IV", "Plaintext", "Ciphertext", "Input", "Output", "AAD", "Tag"
};

static unsigned long ran_ciphers, ran_digests, skipped;

static void run_entry(struct entry *e)
{
    int i;

    if (e->alg[0] == '\0')
        return;
    if (e->is_digest) {
        if (strcasecmp(e->alg, "SM3") != 0 || e->bad) {
            skipped++;
        } else if (TU_CHECK(e->v[F_IN] != NULL && e->v[F_OUT] != NULL,
                            "digest entry without Input/Output")) {
            digest_vector(e->alg, e->v[F_IN], e->len[F_IN], e->v[F_OUT],
                          e->len[F_OUT]);
            ran_digests++;
        }
    } else if (!supported_cipher(e->alg) || e->bad) {
        skipped++;
    } else if (!TU_CHECK(e->v[F_KEY] != NULL && e->v[F_PT] != NULL
                         && e->v[F_CT] != NULL, "cipher entry incomplete")) {
        ;
    } else if (strncasecmp(e->alg, "SM4-GCM", 7) == 0
               || strncasecmp(e->alg, "SM4-CCM", 7) == 0
               || strncasecmp(e->alg, "SM4-XTS", 7) == 0) {
        aead_vector(e->alg, e->v[F_KEY], e->len[F_KEY], e->v[F_IV],
                    e->len[F_IV], e->v[F_AAD], e->len[F_AAD], e->v[F_TAG],
                    e->len[F_TAG], e->xts_std[0] ? e->xts_std : NULL,
                    e->v[F_PT], e->len[F_PT], e->v[F_CT], e->len[F_CT]);
        ran_ciphers++;
    } else {
        cipher_vector(e->alg, e->v[F_KEY], e->len[F_KEY], e->v[F_IV],
                      e->len[F_IV], e->v[F_PT], e->len[F_PT], e->v[F_CT],
                      e->len[F_CT]);
        ran_ciphers++;
    }
    for (i = 0; i < NFIELDS; i++)
        free(e->v[i]);
    memset(e, 0, sizeof(*e));
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

static void set_field(struct entry *e, const char *key, const char *val,
                      unsigned long lineno)
{
    size_t i, n;

    if (strcmp(key, "Cipher") == 0 || strcmp(key, "Digest") == 0) {
        snprintf(e->alg, sizeof(e->alg), "%s", val);
        e->is_digest = key[0] == 'D';
        return;
    }
    if (strcmp(key, "Title") == 0)
        return;
    if (strcmp(key, "XTSStandard") == 0) {
        snprintf(e->xts_std, sizeof(e->xts_std), "%s", val);
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
            TU_CHECK(e->v[i] != NULL, "line %lu: bad hex", lineno);
        }
        return;
    }
    /* Anything else (e.g. Operation, Result) is beyond this runner. */
    e->bad = 1;
}

static void run_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[8192], *p, *eq;
    unsigned long lineno = 0;
    struct entry e;

    if (!TU_CHECK(f != NULL, "cannot open %s", path))
        return;
    memset(&e, 0, sizeof(e));
    while (fgets(line, sizeof(line), f) != NULL) {
        lineno++;
        if (!TU_CHECK(strchr(line, '\n') != NULL || feof(f),
                      "%s:%lu: line too long", path, lineno))
            break;
        p = trim(line);
        if (*p == '#')
            continue;
        if (*p == '\0') {
            run_entry(&e);
            continue;
        }
        if (!TU_CHECK((eq = strchr(p, '=')) != NULL, "%s:%lu: no '='", path,
                      lineno))
            continue;
        *eq = '\0';
        set_field(&e, trim(p), trim(eq + 1), lineno);
    }
    run_entry(&e);
    fclose(f);
    printf("# %s: %lu cipher entries, %lu digest entries run, %lu skipped\n",
           path, ran_ciphers, ran_digests, skipped);
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

/* Runs a built-in vector given in hex (iv may be NULL). */
static void cipher_hex(const char *name, const char *k, const char *iv,
                       const char *p, const char *c)
{
    size_t kl, il = 0, pl, cl;
    unsigned char *kb = tu_unhex_or_die(k, &kl);
    unsigned char *ib = iv ? tu_unhex_or_die(iv, &il) : NULL;
    unsigned char *pb = tu_unhex_or_die(p, &pl), *cb = tu_unhex_or_die(c, &cl);

    cipher_vector(name, kb, kl, ib, il, pb, pl, cb, cl);
    free(kb);
    free(ib);
    free(pb);
    free(cb);
}

/*
 * GB/T 32907-2016 appendix A: example 1 (one block), example 2 (the same
 * block encrypted 1,000,000 times under the same key), and the reverse
 * chain, which exercises decryption as hard.
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

    cipher_hex("SM4-ECB", k, NULL, k, "681edf34d206965e86b3e94f536e4246");
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

/* draft-ribose-cfrg-sm4-10 appendix A.2 (ECB, CBC, CTR examples). */
static void ribose(void)
{
    static const char k[] = "0123456789abcdeffedcba9876543210";
    static const char p[] = "aaaaaaaabbbbbbbbccccccccdddddddd"
                            "eeeeeeeeffffffffaaaaaaaabbbbbbbb";
    static const char pctr[] =
        "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccdddddddddddddddd"
        "eeeeeeeeeeeeeeeeffffffffffffffffeeeeeeeeeeeeeeeeaaaaaaaaaaaaaaaa";

    cipher_hex("SM4-ECB", k, NULL, p,
               "5ec8143de509cff7b5179f8f474b8619"
               "2f1d305a7fb17df985f81c8482192304");
    cipher_hex("SM4-CBC", k, "000102030405060708090a0b0c0d0e0f", p,
               "78ebb11cc40b0a48312aaeb2040244cb"
               "4cb7016951909226979b0d15dc6a8f6d");
    cipher_hex("SM4-CTR", k, k, pctr,
               "c2b4759e78ac3cf43d0852f4e8d5f9fd7256e8a5fcb65a35"
               "0ee00630912e44492a0b17e1b85b060d0fba612d8a958316"
               "38b361fd5ffacd942f081485a83ca35d");
}

/* GB/T 32905-2016 appendix A: "abc" and "abcd" x 16. */
static void sm3(void)
{
    static const char abcd16[] =
        "abcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcd";
    unsigned char *md;
    size_t n;

    md = tu_unhex_or_die("66c7f0f462eeedd9d1f2d46bdc10e4e2"
             "4167c4875cf2f7a2297da02b8f4ba8e0", &n);
    digest_vector("SM3", (const unsigned char *)"abc", 3, md, n);
    free(md);
    md = tu_unhex_or_die("debe9ff92275b8a138604889c18e5a4d"
             "6fdb70e5387e5765293dcba39c0c5732", &n);
    digest_vector("SM3", (const unsigned char *)abcd16, 64, md, n);
    free(md);
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";

    libctx = tu_libctx();
    if (strcmp(group, "file") == 0 && argc > 2) {
        run_file(argv[2]);
    } else if (strcmp(group, "names") == 0) {
        names_ciphers();
        names_sm3();
    } else if (strcmp(group, "gbt") == 0) {
        gbt();
    } else if (strcmp(group, "ribose") == 0) {
        ribose();
    } else if (strcmp(group, "sm3") == 0) {
        sm3();
    } else {
        fprintf(stderr, "usage: %s file <path> | names | gbt | ribose | sm3\n",
                argv[0]);
        return 2;
    }
    tu_libctx_free(libctx);
    return tu_report(group);
}
