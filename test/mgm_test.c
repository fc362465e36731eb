/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kuznyechik-mgm and magma-mgm (src/aead_mgm.c) against the model in
 * test/lib/mgm_ref.h (a bit-by-bit product in GF(2^128) / GF(2^64) and MGM
 * written straight from RFC 9058 section 4, shared with fuzz/mgm.c), here
 * over the provider's ECB of the same cipher (whose known answers
 * test/60-gost-kat.t checks).  Groups:
 *   model  random keys, nonces (top bit set or not), AAD and data lengths,
 *          update chunkings, in place or not, tags of every length read;
 *          decryption, and tampering of the tag, AAD, ciphertext and the
 *          lengths, which must fail the final
 *   bad    wrong nonce, ivlen and tag lengths, a decryption without its
 *          tag, AAD after the data, a tag set when encrypting
 *   gostprov  the same random cases against gostprov's MGM (3.0.2 and
 *          later; the recipe skips it where gostprov lacks MGM); every
 *          decryption there makes an AAD update, for gostprov 3.0.3's
 *          defect (gost2015 facts: its tag check fails without one)
 * Seeded: SMGOST_TEST_SEED replays, SMGOST_TEST_SCALE scales.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "mgm_ref.h"
#include "testutil.h"

#define MAXLEN 2600

static OSSL_LIB_CTX *libctx;

typedef struct {
    const char *mgm, *ecb;
    size_t bs;
} MGM_ALG;

static const MGM_ALG algs[] = {
    { "kuznyechik-mgm", "kuznyechik-ecb", 16 },
    { "magma-mgm", "magma-ecb", 8 },
};

/* ------------------------------------------------------------- model */

/* The model's block cipher (mgm_ref.h): the provider's ECB under a key. */
typedef struct {
    EVP_CIPHER *ecb;
    const unsigned char *key;
    size_t bs;
} MODEL_KEY;

static void model_ecb(void *arg, const unsigned char *in, unsigned char *out)
{
    const MODEL_KEY *mk = arg;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l = 0;

    if (!TU_CHECK(c != NULL
                  && EVP_EncryptInit_ex2(c, mk->ecb, mk->key, NULL, NULL)
                  && EVP_CIPHER_CTX_set_padding(c, 0)
                  && EVP_EncryptUpdate(c, out, &l, in, (int)mk->bs)
                  && (size_t)l == mk->bs, "model: ecb"))
        memset(out, 0, mk->bs);
    EVP_CIPHER_CTX_free(c);
}

/* --------------------------------------------------------- the cipher */

static const TU_CHUNKING chunking = { 20, 200, 16, 6, 0 };

/*
 * One message through an MGM cipher, AAD and data in random chunks; tag
 * (taglen bytes) read after an encryption's final, set before a
 * decryption's.  out may be in.  Returns whether every call succeeded.
 */
static int run_mgm(TU_RNG *r, EVP_CIPHER *c, int enc,
                   const unsigned char *key, const unsigned char *nonce,
                   const unsigned char *aad, size_t alen,
                   const unsigned char *in, unsigned char *out, size_t len,
                   unsigned char *tag, size_t taglen)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    size_t chunks[64], n, i, pos;
    int ok, outl;

    ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, nonce, enc, NULL);
    if (ok && !enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
                                 tag) > 0;
    n = tu_chunks(r, &chunking, alen, chunks, 64);
    for (i = 0, pos = 0; ok && i < n; pos += chunks[i++])
        ok = EVP_CipherUpdate(ctx, NULL, &outl, aad + pos, (int)chunks[i]);
    n = tu_chunks(r, &chunking, len, chunks, 64);
    for (i = 0, pos = 0; ok && i < n; pos += chunks[i++])
        ok = EVP_CipherUpdate(ctx, out + pos, &outl, in + pos,
                              (int)chunks[i])
             && (size_t)outl == chunks[i];
    ok = ok && EVP_CipherFinal_ex(ctx, out + len, &outl) && outl == 0;
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen,
                                 tag) > 0;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/*
 * Random cases of alg: ours against the model (oracle NULL) or against
 * oracle, another provider's MGM, whose decryption always gets an AAD
 * update (gostprov 3.0.3 fails without one).
 */
static void random_cases(const MGM_ALG *alg, EVP_CIPHER *oracle, int cases)
{
    static const TU_LEN_BAND lens[] = {
        { 30, 0, 1, 40, 0 }, { 40, 0, 16, 20, 17 }, { 30, 0, 1, MAXLEN, 0 }
    };
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, alg->mgm, tu_target_propq());
    EVP_CIPHER *ecb = EVP_CIPHER_fetch(libctx, alg->ecb, tu_target_propq());
    unsigned char key[32], nonce[16], aad[MAXLEN], pt[MAXLEN + 16];
    unsigned char ct[MAXLEN + 16], want[MAXLEN + 16], back[MAXLEN + 16];
    unsigned char tag[16], wtag[16], bad[16];
    size_t bs = alg->bs, alen, len, taglen, at;
    int i, inplace, what;
    TU_RNG r;

    tu_rng_seed(&r, tu_seed(NULL) ^ bs);
    if (!TU_CHECK(c != NULL && ecb != NULL, "fetch %s", alg->mgm))
        goto end;
    for (i = 0; i < cases; i++) {
        tu_rng_bytes(&r, key, sizeof(key));
        tu_rng_bytes(&r, nonce, bs);
        alen = tu_pick_len(&r, lens, 3);
        len = tu_pick_len(&r, lens, 3);
        if (oracle != NULL && alen == 0)
            alen = 1;
        alen = alen > MAXLEN ? MAXLEN : alen;
        len = len > MAXLEN ? MAXLEN : len;
        tu_rng_bytes(&r, aad, alen);
        tu_rng_bytes(&r, pt, len);
        taglen = 1 + tu_rng_below(&r, bs);
        inplace = (int)tu_rng_below(&r, 2);
        if (oracle == NULL) {
            MODEL_KEY mk = { ecb, key, bs };

            ref_mgm(bs, model_ecb, &mk, nonce, aad, alen, pt, len, want,
                    wtag);
        } else if (!TU_CHECK(run_mgm(&r, oracle, 1, key, nonce, aad, alen,
                                     pt, want, len, wtag, bs),
                             "%s: the oracle's encryption, case %d",
                             alg->mgm, i)) {
            continue;
        }
        memcpy(ct, pt, len);
        if (!TU_CHECK(run_mgm(&r, c, 1, key, nonce, aad, alen,
                              inplace ? ct : pt, ct, len, tag, taglen),
                      "%s encrypt, case %d (aad %zu, data %zu)", alg->mgm,
                      i, alen, len))
            continue;
        if (!TU_CHECK_MEM("ciphertext", ct, len, want, len)
            || !TU_CHECK_MEM("tag", tag, taglen, wtag, taglen))
            continue;
        memcpy(back, ct, len);
        memcpy(tag, wtag, bs);
        if (TU_CHECK(run_mgm(&r, c, 0, key, nonce, aad, alen,
                             inplace ? back : ct, back, len, tag, bs),
                     "%s decrypt, case %d", alg->mgm, i))
            TU_CHECK_MEM("plaintext", back, len, pt, len);
        if (oracle != NULL) {
            /* the oracle opens ours (always with AAD here) */
            TU_CHECK(run_mgm(&r, oracle, 0, key, nonce, aad, alen, ct, back,
                             len, tag, bs)
                     && memcmp(back, pt, len) == 0,
                     "%s: the oracle opens ours, case %d", alg->mgm, i);
            continue;
        }
        /* tampering: tag, AAD, ciphertext, or a length, one at a time */
        what = (int)tu_rng_below(&r, 4);
        memcpy(bad, wtag, bs);
        memcpy(back, ct, len);
        if (what == 0 || (what == 1 && alen == 0) || (what == 2 && len == 0)) {
            bad[tu_rng_below(&r, bs)] ^= (unsigned char)(1 << tu_rng_below(&r, 8));
            what = 0;
        } else if (what == 1) {
            at = tu_rng_below(&r, alen);
            aad[at] ^= (unsigned char)(1 << tu_rng_below(&r, 8));
        } else if (what == 2) {
            back[tu_rng_below(&r, len)] ^= (unsigned char)(1 << tu_rng_below(&r, 8));
        }
        if (what == 3) {
            /* one byte of data moved into the AAD: same bytes, other
             * lengths (or one byte more AAD when there is no data) */
            unsigned char a2[MAXLEN + 1];

            memcpy(a2, aad, alen);
            a2[alen] = len > 0 ? back[0] : 0;
            TU_CHECK(!run_mgm(&r, c, 0, key, nonce, a2, alen + 1,
                              back + (len > 0), back + (len > 0),
                              len - (len > 0), bad, bs),
                     "%s: changed lengths accepted, case %d", alg->mgm, i);
        } else {
            TU_CHECK(!run_mgm(&r, c, 0, key, nonce, aad, alen, back, back,
                              len, bad, bs),
                     "%s: tampering %d accepted, case %d", alg->mgm, what, i);
        }
        ERR_clear_error();
    }
 end:
    EVP_CIPHER_free(c);
    EVP_CIPHER_free(ecb);
}

static void group_model(void)
{
    int n = (int)(400 * tu_scale());

    random_cases(&algs[0], NULL, n);
    random_cases(&algs[1], NULL, n);
}

/* gostprov in a library context of its own (with the default provider),
 * where its MGM is the only one, whatever properties it carries */
static void group_gostprov(void)
{
    const char *dir = getenv("SMGOST_GOSTPROV");
    char path[4096];
    OSSL_LIB_CTX *gctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *g = NULL, *d = NULL;
    EVP_CIPHER *o;
    size_t i;

    snprintf(path, sizeof(path), "%s/gostprov.so", dir != NULL ? dir : ".");
    if (gctx != NULL) {
        g = OSSL_PROVIDER_load(gctx, path);
        d = OSSL_PROVIDER_load(gctx, "default");
    }
    if (!TU_CHECK(g != NULL && d != NULL, "gostprov does not load from %s",
                  path))
        goto end;
    for (i = 0; i < 2; i++) {
        o = EVP_CIPHER_fetch(gctx, algs[i].mgm, NULL);
        if (TU_CHECK(o != NULL && EVP_CIPHER_get0_provider(o) == g,
                     "gostprov's %s", algs[i].mgm))
            random_cases(&algs[i], o, (int)(200 * tu_scale()));
        EVP_CIPHER_free(o);
    }
 end:
    ERR_clear_error();
    if (g != NULL)
        OSSL_PROVIDER_unload(g);
    if (d != NULL)
        OSSL_PROVIDER_unload(d);
    OSSL_LIB_CTX_free(gctx);
}

/* ---------------------------------------------------------- bad input */

static void group_bad(void)
{
    size_t i;
    unsigned char key[32] = { 1 }, nonce[16] = { 2 }, buf[64] = { 0 };
    unsigned char tag[17] = { 0 };
    int outl;

    for (i = 0; i < 2; i++) {
        const MGM_ALG *alg = &algs[i];
        EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, alg->mgm,
                                         tu_target_propq());
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
        size_t ivlen = alg->bs + 1;

        if (!TU_CHECK(c != NULL && ctx != NULL, "fetch %s", alg->mgm))
            goto next;
        TU_CHECK(EVP_CIPHER_get_iv_length(c) == (int)alg->bs,
                 "%s: iv length", alg->mgm);
        /* ivlen other than the block */
        p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN,
                                           &ivlen);
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL)
                 && !EVP_CIPHER_CTX_set_params(ctx, p), "%s: ivlen %zu",
                 alg->mgm, ivlen);
        TU_CHECK_ERR(TU_LIB_PROV, "invalid iv length");
        /* a decryption tag shorter than the block */
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                        (int)alg->bs - 1, tag) <= 0,
                 "%s: a short tag set", alg->mgm);
        TU_CHECK_ERR(TU_LIB_PROV, "invalid tag length");
        /* a decryption without its tag fails the final */
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_DecryptUpdate(ctx, buf, &outl, buf, 20)
                 && !EVP_DecryptFinal_ex(ctx, buf, &outl),
                 "%s: a decryption without a tag", alg->mgm);
        ERR_clear_error();
        /* a tag set when encrypting */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                        (int)alg->bs, tag) <= 0,
                 "%s: a tag set when encrypting", alg->mgm);
        TU_CHECK_ERR(TU_LIB_PROV, "tag not needed");
        /* AAD after the data */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_EncryptUpdate(ctx, buf, &outl, buf, 5)
                 && !EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5),
                 "%s: aad after the data", alg->mgm);
        ERR_clear_error();
        /* an AAD update reports its length, as gostprov's and OpenSSL's
         * GCM do; an empty data update does not end the AAD */
        outl = -1;
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5) && outl == 5
                 && EVP_EncryptUpdate(ctx, buf, &outl, buf, 0)
                 && EVP_EncryptUpdate(ctx, NULL, &outl, buf, 7) && outl == 7,
                 "%s: aad updates (%d)", alg->mgm, outl);
        /* a TLS 1.2 record header: MGM has none */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13,
                                        buf) <= 0,
                 "%s: a TLS record header taken", alg->mgm);
        TU_CHECK_ERR(TU_LIB_PROV, "invalid aad");
        TU_CHECK(EVP_CIPHER_CTX_settable_params(ctx) != NULL
                 && OSSL_PARAM_locate_const(
                        EVP_CIPHER_CTX_settable_params(ctx),
                        OSSL_CIPHER_PARAM_AEAD_TLS1_AAD) == NULL,
                 "%s: tlsaad listed as settable", alg->mgm);
        /* a tag longer than the block, or read before the final */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL)
                 && EVP_EncryptUpdate(ctx, buf, &outl, buf, 5)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                        (int)alg->bs, tag) <= 0
                 && EVP_EncryptFinal_ex(ctx, buf, &outl)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                        (int)alg->bs + 1, tag) <= 0
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                        (int)alg->bs, tag) > 0,
                 "%s: tag reads", alg->mgm);
        ERR_clear_error();
        /* a finished message takes no more data until a new nonce */
        TU_CHECK(!EVP_EncryptUpdate(ctx, buf, &outl, buf, 5)
                 && EVP_EncryptInit_ex2(ctx, NULL, NULL, nonce, NULL)
                 && EVP_EncryptUpdate(ctx, buf, &outl, buf, 5),
                 "%s: a re-init with a nonce restarts", alg->mgm);
        ERR_clear_error();
        /* a wrong nonce length at init */
        TU_CHECK(!EVP_EncryptInit_ex2(ctx, c, key, NULL, NULL)
                 || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
                                        (int)alg->bs / 2, NULL) <= 0,
                 "%s: a half-block nonce", alg->mgm);
        ERR_clear_error();
     next:
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
}

static const TU_GROUP groups[] = {
    { "model", group_model },
    { "bad", group_bad },
    { "gostprov", group_gostprov },
};

int main(int argc, char **argv)
{
    return tu_main(argc, argv, groups, sizeof(groups) / sizeof(groups[0]),
                   &libctx, NULL);
}
