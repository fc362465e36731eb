/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AlgorithmIdentifier parameters of smgost's ciphers as CMS, PKCS#7
 * and PBES2 take and give them: EVP_CIPHER_param_to_asn1(),
 * EVP_CIPHER_asn1_to_param() and, on OpenSSL 3.4 and later,
 * EVP_CIPHER_CTX_get_algor().  libcrypto 3.0 asks the provider for
 * `alg_id_param`, 3.4 and later for `algorithm-id-params` and
 * `algorithm-id`; the DER must be the same on every release.
 *
 * Groups (argument 1):
 *   gost  every GOST 28147-89 cipher under every parameter set gives RFC
 *         4357's Gost28147-89-Parameters (SEQUENCE { iv OCTET STRING,
 *         encryptionParamSet OID }), byte for byte as built here and, for
 *         two cases, as spelled out by hand; gost89 (the one with an OID,
 *         1.2.643.2.2.21) gives its whole AlgorithmIdentifier, the others
 *         none; the encoding taken back by a context keyed with no IV
 *         (the decoders' flow) sets the IV and the set and switches
 *         meshing on, so that it encrypts and decrypts as a context given
 *         those directly, and gives the same DER again.  Magma's
 *         parameters are the bare IV, as libcrypto's default.
 *         magma-ctr-acpkm and kuznyechik-ctr-acpkm give gost-engine's
 *         GOST2015_CIPHER_PARAMS (SEQUENCE { ukm OCTET STRING }, ukm = the
 *         IV and an 8-byte seed) and switch to the section CMS implies
 *         (8 KiB, 256 KiB); a decoder's context takes them back and
 *         decrypts a message of several such sections.
 *   sm4   every SM4 mode gives and takes what the default provider's
 *         gives and takes (GCM, CCM and XTS where the default provider
 *         has them: OpenSSL 3.2 and later), and has no AlgorithmIdentifier
 *         where that has none.
 *
 * Malformed DER is bad_input.c's (gost89 algid).
 */
#include "gost89_test.h"

#include <openssl/asn1.h>
#include <openssl/opensslv.h>
#include <openssl/x509.h>

static OSSL_LIB_CTX *libctx;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define MSG_LEN 3000            /* past two key meshings */

static const unsigned char key[] = "0123456789abcdef0123456789abcdef";

/*
 * EVP_CIPHER_param_to_asn1()'s result, and its DER in *der (*len 0 when
 * it fails).
 */
static int try_params_der(EVP_CIPHER_CTX *ctx, unsigned char **der,
                          size_t *len)
{
    ASN1_TYPE *t = ASN1_TYPE_new();
    int r = t != NULL ? EVP_CIPHER_param_to_asn1(ctx, t) : 0, n = 0;

    *der = NULL;
    if (r > 0 && (n = i2d_ASN1_TYPE(t, der)) <= 0)
        r = 0;
    *len = r > 0 ? (size_t)n : 0;
    ASN1_TYPE_free(t);
    return r;
}

/* The same, where it must succeed. */
static size_t params_der(EVP_CIPHER_CTX *ctx, unsigned char **der,
                         const char *what)
{
    size_t len;

    if (!TU_CHECK(try_params_der(ctx, der, &len) > 0,
                  "%s: EVP_CIPHER_param_to_asn1", what))
        ERR_print_errors_fp(stderr);
    return len;
}

/* EVP_CIPHER_asn1_to_param() of DER; its result, or 0 on bad DER. */
static int take_params(EVP_CIPHER_CTX *ctx, const unsigned char *der,
                       size_t len)
{
    const unsigned char *p = der;
    ASN1_TYPE *t = d2i_ASN1_TYPE(NULL, &p, (long)len);
    int r = t != NULL ? EVP_CIPHER_asn1_to_param(ctx, t) : 0;

    ASN1_TYPE_free(t);
    return r;
}

/*
 * The whole AlgorithmIdentifier: the `algorithm-id` param on every
 * release, and EVP_CIPHER_CTX_get_algor() where libcrypto has it.  exp
 * NULL: there must be none.
 */
static void check_algorithm_id(EVP_CIPHER_CTX *ctx, const unsigned char *exp,
                               size_t explen, const char *what)
{
    unsigned char got[128];
    OSSL_PARAM p[2];
    int answered;

    p[0] = OSSL_PARAM_construct_octet_string("algorithm-id", got,
                                             sizeof(got));
    p[1] = OSSL_PARAM_construct_end();
    answered = EVP_CIPHER_CTX_get_params(ctx, p) && OSSL_PARAM_modified(p);
    if (exp == NULL)
        TU_CHECK(!answered, "%s: algorithm-id answered, %zu bytes", what,
                 p[0].return_size);
    else if (TU_CHECK(answered, "%s: algorithm-id not answered", what))
        TU_CHECK_MEM("algorithm-id", got, p[0].return_size, exp, explen);
#if OPENSSL_VERSION_NUMBER >= 0x30400000L
    {
        X509_ALGOR *alg = NULL;
        unsigned char *der = NULL;
        int r = EVP_CIPHER_CTX_get_algor(ctx, &alg), n = 0;

        if (exp == NULL) {
            TU_CHECK(r <= 0, "%s: EVP_CIPHER_CTX_get_algor gave one", what);
        } else if (TU_CHECK(r > 0 && (n = i2d_X509_ALGOR(alg, &der)) > 0,
                            "%s: EVP_CIPHER_CTX_get_algor", what)) {
            TU_CHECK_MEM("EVP_CIPHER_CTX_get_algor", der, (size_t)n, exp,
                         explen);
        }
        X509_ALGOR_free(alg);
        OPENSSL_free(der);
    }
#endif
    ERR_clear_error();
}

/* Both names of the parameters read directly give exp too. */
static void check_named_params(EVP_CIPHER_CTX *ctx, const unsigned char *exp,
                               size_t explen, const char *what)
{
    unsigned char a[GOST89_ALG_ID_MAX], b[GOST89_ALG_ID_MAX];
    OSSL_PARAM p[3];

    p[0] = OSSL_PARAM_construct_octet_string("alg_id_param", a, sizeof(a));
    p[1] = OSSL_PARAM_construct_octet_string("algorithm-id-params", b,
                                             sizeof(b));
    p[2] = OSSL_PARAM_construct_end();
    if (TU_CHECK(EVP_CIPHER_CTX_get_params(ctx, p), "%s: get params", what)) {
        TU_CHECK_MEM("alg_id_param", a, p[0].return_size, exp, explen);
        TU_CHECK_MEM("algorithm-id-params", b, p[1].return_size, exp, explen);
    }
    ERR_clear_error();
}

/* A message through a context as it stands; 1 on success. */
static int run_msg(EVP_CIPHER_CTX *ctx, const unsigned char *in, size_t len,
                   unsigned char *out, size_t *outl)
{
    int l1 = 0, l2 = 0;
    int ok = EVP_CipherUpdate(ctx, out, &l1, in, (int)len)
             && EVP_CipherFinal_ex(ctx, out + l1, &l2);

    *outl = (size_t)l1 + (size_t)l2;
    return ok;
}

/* ----------------------------------------------------------------- gost */

static const struct {
    const char *alg;
    int has_iv;
} gost89_algs[] = {
    { "gost89", 1 }, { "gost89-cnt", 1 }, { "gost89-cnt-12", 1 },
    { "gost89-cbc", 1 }, { "gost89-ecb", 0 },
};

/* AlgorithmIdentifier { 1.2.643.2.2.21, params }, DER. */
static size_t gost89_algorithm_id(const unsigned char *params, size_t len,
                                  unsigned char *out)
{
    static const unsigned char oid[] = {
        0x06, 0x06, 0x2a, 0x85, 0x03, 0x02, 0x02, 0x15
    };

    out[0] = 0x30;
    out[1] = (unsigned char)(sizeof(oid) + len);
    memcpy(out + 2, oid, sizeof(oid));
    memcpy(out + 2 + sizeof(oid), params, len);
    return 2 + sizeof(oid) + len;
}

/*
 * A context of alg keyed with iv (ignored without one), the set given by
 * name, for encryption or decryption.
 */
static EVP_CIPHER_CTX *gost89_ctx(EVP_CIPHER *c, const GOST89_SET *set,
                                const unsigned char *iv, int enc)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)set->name, 0);
    p[1] = OSSL_PARAM_construct_end();
    if (!TU_CHECK(ctx != NULL
                  && EVP_CipherInit_ex2(ctx, c, key,
                                        EVP_CIPHER_get_iv_length(c) > 0
                                        ? iv : NULL, enc, p),
                  "%s: init under %s", EVP_CIPHER_get0_name(c),
                  set->short_name))
        exit(1);
    return ctx;
}

/*
 * The decoders' flow: a context keyed with no IV takes der, then must read
 * back the set, the IV and meshing, give der again, and encrypt (enc) or
 * decrypt in as a context given the set and IV directly.
 */
static void gost89_take(EVP_CIPHER *c, int i, const GOST89_SET *set,
                      const unsigned char iv[8], const unsigned char *der,
                      size_t derlen, const unsigned char *in, size_t inlen,
                      const unsigned char *exp, size_t explen, int enc)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *again = NULL, got_iv[8], *out = tu_malloc(MSG_LEN + 16);
    char name[80] = "", what[160];
    size_t mesh = 0, againlen, outl = 0;
    OSSL_PARAM p[4];

    snprintf(what, sizeof(what), "%s under %s, taken from DER (%s)",
             gost89_algs[i].alg, set->short_name, enc ? "encrypt" : "decrypt");
    p[0] = OSSL_PARAM_construct_utf8_string("paramset", name, sizeof(name));
    p[1] = OSSL_PARAM_construct_size_t("key-mesh", &mesh);
    p[2] = OSSL_PARAM_construct_octet_string("iv", got_iv, sizeof(got_iv));
    p[3] = OSSL_PARAM_construct_end();
    if (!gost89_algs[i].has_iv)
        p[2] = OSSL_PARAM_construct_end();
    if (!TU_CHECK(ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, NULL, enc,
                                                    NULL)
                  && take_params(ctx, der, derlen) > 0
                  && EVP_CIPHER_CTX_get_params(ctx, p), "%s", what)) {
        ERR_print_errors_fp(stderr);
        goto end;
    }
    TU_CHECK(strcmp(name, set->name) == 0, "%s: paramset reads \"%s\"", what,
             name);
    /* As gost-engine: the encoding switches meshing on, even for CBC. */
    TU_CHECK(mesh == 1024, "%s: key-mesh reads %zu", what, mesh);
    if (gost89_algs[i].has_iv)
        TU_CHECK_MEM("the IV taken", got_iv, p[2].return_size, iv, 8);
    againlen = params_der(ctx, &again, what);
    TU_CHECK_MEM("the DER given back", again, againlen, der, derlen);
    if (TU_CHECK(run_msg(ctx, in, inlen, out, &outl), "%s: cipher", what))
        TU_CHECK_MEM(enc ? "encryption after the DER" : "decryption after "
                     "the DER", out, outl, exp, explen);
 end:
    ERR_clear_error();
    OPENSSL_free(again);
    EVP_CIPHER_CTX_free(ctx);
    free(out);
}

static void gost89_one(int i, const GOST89_SET *set, const unsigned char iv[8])
{
    static const unsigned char zeros[8];
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, gost89_algs[i].alg,
                                           tu_target_propq());
    EVP_CIPHER_CTX *ctx = gost89_ctx(c, set, iv, 1), *ref;
    const unsigned char *div = gost89_algs[i].has_iv ? iv : zeros;
    unsigned char exp[GOST89_ALG_ID_MAX], aid[GOST89_ALG_ID_MAX + 16], *der;
    unsigned char *pt = tu_malloc(MSG_LEN), *ct = tu_malloc(MSG_LEN + 16);
    size_t explen = gost89_alg_id(set, div, exp), derlen, ctlen = 0, j;
    char what[128];

    snprintf(what, sizeof(what), "%s under %s", gost89_algs[i].alg,
             set->short_name);
    derlen = params_der(ctx, &der, what);
    TU_CHECK_MEM("EVP_CIPHER_param_to_asn1", der, derlen, exp, explen);
    check_named_params(ctx, exp, explen, what);
    if (strcmp(gost89_algs[i].alg, "gost89") == 0)
        check_algorithm_id(ctx, aid, gost89_algorithm_id(exp, explen, aid),
                           what);
    else
        check_algorithm_id(ctx, NULL, 0, what);

    /*
     * The reference: the set and IV given directly, with the default
     * meshing, which is on where it applies (CFB, CNT), as the DER sets it.
     */
    for (j = 0; j < MSG_LEN; j++)
        pt[j] = (unsigned char)(j * 7 + i);
    ref = gost89_ctx(c, set, div, 1);
    if (TU_CHECK(run_msg(ref, pt, MSG_LEN, ct, &ctlen) && ctlen >= MSG_LEN,
                 "%s: reference encryption", what)) {
        gost89_take(c, i, set, div, exp, explen, pt, MSG_LEN, ct, ctlen, 1);
        gost89_take(c, i, set, div, exp, explen, ct, ctlen, pt, MSG_LEN, 0);
    }
    ERR_clear_error();
    OPENSSL_free(der);
    EVP_CIPHER_CTX_free(ref);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    free(pt);
    free(ct);
}

/* Magma: the bare IV, libcrypto's default, given and taken. */
static void magma_one(const char *alg, size_t ivlen)
{
    static const unsigned char iv[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const unsigned char iv2[8] = { 9, 10, 11, 12, 13, 14, 15, 16 };
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, alg, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char exp[10], *der = NULL, got[8];
    size_t derlen;
    OSSL_PARAM p[2];

    exp[0] = 0x04;
    exp[1] = (unsigned char)ivlen;
    memcpy(exp + 2, iv, ivlen);
    if (!TU_CHECK(ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key, ivlen
                                                     ? iv : NULL, NULL),
                  "%s: init", alg))
        exit(1);
    derlen = params_der(ctx, &der, alg);
    TU_CHECK_MEM("Magma's parameters", der, derlen, exp, 2 + ivlen);
    check_algorithm_id(ctx, NULL, 0, alg);
    memcpy(exp + 2, iv2, ivlen);
    p[0] = OSSL_PARAM_construct_octet_string("iv", got, sizeof(got));
    p[1] = OSSL_PARAM_construct_end();
    if (TU_CHECK(take_params(ctx, exp, 2 + ivlen) > 0
                 && EVP_CIPHER_CTX_get_params(ctx, p), "%s: take the IV", alg))
        TU_CHECK_MEM("Magma's IV taken", got, p[0].return_size, iv2, ivlen);
    ERR_clear_error();
    OPENSSL_free(der);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

/*
 * A CTR-ACPKM cipher with the IV of ivlen bytes: its CMS parameters given,
 * read under both names, the CMS section switched to, and a message of
 * len bytes (past a section) decrypted in the decoders' flow.
 */
static void acpkm_one(const char *alg, size_t ivlen, size_t cms_section,
                      size_t len)
{
    static const unsigned char iv[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, alg, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dec = EVP_CIPHER_CTX_new();
    unsigned char *der = NULL, *again = NULL, *pt = tu_malloc(len);
    unsigned char *ct = tu_malloc(len + 16), *back = tu_malloc(len + 16);
    size_t derlen, againlen = 0, ctl = 0, backl = 0, mesh = 0;
    OSSL_PARAM p[2];

    for (ctl = 0; ctl < len; ctl++)
        pt[ctl] = (unsigned char)(ctl * 37 + 11);
    ctl = 0;
    if (!TU_CHECK(ctx != NULL && dec != NULL
                  && EVP_EncryptInit_ex2(ctx, c, key, iv, NULL),
                  "%s: init", alg))
        exit(1);
    derlen = params_der(ctx, &der, alg);
    if (TU_CHECK(derlen == 4 + ivlen + 8, "%s: %zu bytes of parameters",
                 alg, derlen)) {
        TU_CHECK(der[0] == 0x30 && der[1] == derlen - 2 && der[2] == 0x04
                 && der[3] == ivlen + 8, "%s: SEQUENCE { OCTET STRING }",
                 alg);
        TU_CHECK_MEM("the ukm's IV", der + 4, ivlen, iv, ivlen);
    }
    check_named_params(ctx, der, derlen, alg);
    p[0] = OSSL_PARAM_construct_size_t("key-mesh", &mesh);
    p[1] = OSSL_PARAM_construct_end();
    TU_CHECK(EVP_CIPHER_CTX_get_params(ctx, p) && mesh == cms_section,
             "%s: key-mesh %zu after the CMS parameters, not %zu", alg, mesh,
             cms_section);
    TU_CHECK(run_msg(ctx, pt, len, ct, &ctl) && ctl == len,
             "%s: encrypt", alg);
    /* The decoders' flow: key, the parameters, an init with neither. */
    if (TU_CHECK(EVP_DecryptInit_ex2(dec, c, key, NULL, NULL)
                 && take_params(dec, der, derlen) > 0
                 && EVP_DecryptInit_ex2(dec, NULL, NULL, NULL, NULL)
                 && run_msg(dec, ct, ctl, back, &backl),
                 "%s: the decoders' flow", alg))
        TU_CHECK_MEM("decrypted through the CMS parameters", back, backl, pt,
                     len);
    againlen = params_der(dec, &again, alg);
    TU_CHECK_MEM("the parameters taken and given again", again, againlen,
                 der, derlen);
    ERR_clear_error();
    OPENSSL_free(der);
    OPENSSL_free(again);
    free(pt);
    free(ct);
    free(back);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_CTX_free(dec);
    EVP_CIPHER_free(c);
}

static void run_gost(void)
{
    /*
     * RFC 4357 10.1 spelled out: SEQUENCE (0x30), OCTET STRING (0x04) of
     * the 8-byte IV, OBJECT IDENTIFIER (0x06) of the set; the second is
     * gost89's AlgorithmIdentifier around the first, id-Gost28147-89
     * (1.2.643.2.2.21) and the parameters.
     */
    static const char by_hand_a[] =
        "3013 0408 0102030405060708 0607 2a850302021f01";
    static const char by_hand_aid[] =
        "301d 06062a8503020215 3013 0408 0102030405060708 0607 2a850302021f01";
    static const unsigned char iv[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    unsigned char built[GOST89_ALG_ID_MAX], aid[GOST89_ALG_ID_MAX + 16];
    unsigned char *hand = NULL, *hand_aid = NULL;
    size_t i, s, handlen = 0, hand_aidlen = 0, n;

    hand = tu_unhex_or_die(by_hand_a, &handlen);
    hand_aid = tu_unhex_or_die(by_hand_aid, &hand_aidlen);
    n = gost89_alg_id(gost89_set("CryptoPro-A"), iv, built);
    TU_CHECK_MEM("the encoding built here, against RFC 4357 by hand", built,
                 n, hand, handlen);
    TU_CHECK_MEM("gost89's AlgorithmIdentifier built here, against one by "
                 "hand", aid, gost89_algorithm_id(built, n, aid), hand_aid,
                 hand_aidlen);
    free(hand);
    free(hand_aid);

    for (i = 0; i < NELEM(gost89_algs); i++)
        for (s = 0; s < GOST89_NSETS; s++) {
            unsigned char v[8];
            size_t k;

            for (k = 0; k < 8; k++)
                v[k] = (unsigned char)(0x11 * (s + 1) + 0x29 * k + i);
            gost89_one((int)i, &gost89_sets[s], v);
        }
    magma_one("magma-cbc", 8);
    magma_one("magma-ctr", 4);
    magma_one("magma-ecb", 0);
    acpkm_one("magma-ctr-acpkm", 4, 8192, 3 * 8192 + 5);
    acpkm_one("kuznyechik-ctr-acpkm", 8, 256 * 1024, 256 * 1024 + 77);
}

/* ------------------------------------------------------------------ sm4 */

/*
 * One SM4 cipher in smgost and in the default provider: the parameters
 * given (the result and the DER), the IV as a decoder gives it taken back,
 * read and given again, and whether there is an AlgorithmIdentifier.
 * plain: one of the modes whose parameters are the bare IV, where all this
 * must work.
 */
static void sm4_one(const char *alg, int plain)
{
    static const unsigned char skey[] = "0123456789abcdeffedcba9876543210";
    static const unsigned char iv[] = "0123456789abcdef";
    static const unsigned char iv2[] = "fedcba9876543210";
    EVP_CIPHER *cs[2];
    unsigned char *der[2] = { NULL, NULL }, *der2[2] = { NULL, NULL };
    unsigned char got[2][16];
    size_t derlen[2], der2len[2], ivlen = 0;
    int gave[2], gave2[2], algor[2], took[2], k;

    cs[1] = EVP_CIPHER_fetch(libctx, alg, "provider=default");
    if (cs[1] == NULL) {
        printf("# %s: not in this default provider, nothing to compare\n",
               alg);
        ERR_clear_error();
        return;
    }
    cs[0] = tu_fetch_cipher_or_die(libctx, alg, tu_target_propq());
    for (k = 0; k < 2; k++) {
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dec = EVP_CIPHER_CTX_new();
        OSSL_PARAM p[2];
        unsigned char in[18];

        ivlen = (size_t)EVP_CIPHER_get_iv_length(cs[k]);
        if (!TU_CHECK(ctx != NULL && dec != NULL
                      && EVP_EncryptInit_ex2(ctx, cs[k], skey,
                                             ivlen ? iv : NULL, NULL)
                      && EVP_DecryptInit_ex2(dec, cs[k], skey, NULL, NULL),
                      "%s: init", alg))
            exit(1);
        gave[k] = try_params_der(ctx, &der[k], &derlen[k]);
#if OPENSSL_VERSION_NUMBER >= 0x30400000L
        {
            X509_ALGOR *a = NULL;

            algor[k] = EVP_CIPHER_CTX_get_algor(ctx, &a) > 0;
            X509_ALGOR_free(a);
        }
#else
        algor[k] = 0;
#endif
        /* Another IV, as a decoder takes it, read back and given again. */
        in[0] = 0x04;
        in[1] = (unsigned char)ivlen;
        memcpy(in + 2, iv2, ivlen);
        memset(got[k], 0, sizeof(got[k]));
        p[0] = OSSL_PARAM_construct_octet_string("iv", got[k], ivlen);
        p[1] = OSSL_PARAM_construct_end();
        took[k] = take_params(dec, in, 2 + ivlen);
        if (took[k] > 0 && ivlen > 0)
            TU_CHECK(EVP_CIPHER_CTX_get_params(dec, p), "%s: read the IV",
                     alg);
        gave2[k] = try_params_der(dec, &der2[k], &der2len[k]);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_CTX_free(dec);
    }
    if (plain)
        TU_CHECK(gave[0] > 0 && took[0] > 0 && gave2[0] > 0, "%s: "
                 "param_to_asn1 %d, asn1_to_param %d, then param_to_asn1 %d",
                 alg, gave[0], took[0], gave2[0]);
    TU_CHECK(gave[0] == gave[1] && took[0] == took[1] && gave2[0] == gave2[1],
             "%s: param_to_asn1, asn1_to_param, param_to_asn1 give %d, %d, "
             "%d here and %d, %d, %d in the default provider", alg, gave[0],
             took[0], gave2[0], gave[1], took[1], gave2[1]);
    TU_CHECK_MEM("SM4's parameters against the default provider's", der[0],
                 derlen[0], der[1], derlen[1]);
    TU_CHECK_MEM("SM4's parameters taken and given again, against the "
                 "default provider's", der2[0], der2len[0], der2[1],
                 der2len[1]);
    if (took[1] > 0)
        TU_CHECK_MEM("SM4's IV taken, against the default provider's",
                     got[0], ivlen, got[1], ivlen);
    TU_CHECK(algor[0] == algor[1], "%s: EVP_CIPHER_CTX_get_algor %s here, %s "
             "in the default provider", alg, algor[0] ? "works" : "fails",
             algor[1] ? "works" : "fails");
    for (k = 0; k < 2; k++) {
        OPENSSL_free(der[k]);
        OPENSSL_free(der2[k]);
        EVP_CIPHER_free(cs[k]);
    }
}

static void run_sm4(void)
{
    static const char *const plain[] = {
        "SM4-ECB", "SM4-CBC", "SM4-OFB", "SM4-CFB", "SM4-CTR"
    };
    /* OpenSSL 3.2 and later have these; libcrypto refuses most of it. */
    static const char *const others[] = { "SM4-GCM", "SM4-CCM", "SM4-XTS" };
    size_t i;

    for (i = 0; i < NELEM(plain); i++)
        sm4_one(plain[i], 1);
    for (i = 0; i < NELEM(others); i++)
        sm4_one(others[i], 0);
}

static void note_version(OSSL_LIB_CTX *ctx)
{
    (void)ctx;
    printf("# %s\n", OpenSSL_version(OPENSSL_VERSION));
}

int main(int argc, char **argv)
{
    static const TU_GROUP groups[] = {
        { "gost", run_gost }, { "sm4", run_sm4 },
    };

    return tu_main(argc, argv, groups, sizeof(groups) / sizeof(groups[0]),
                   &libctx, note_version);
}
