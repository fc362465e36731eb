/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Misuse of smgost's GOST 28147-89 and Magma ciphers and GOST MACs: every
 * call must fail with its reason on the error queue and no output (the
 * default provider's reason for the failures its ciphers and MACs have too,
 * as for SM4; smgost's own for the GOST parameters), and leave the context
 * as it was (a later message comes out as if the bad call had not
 * happened).
 *
 * Groups (argument 1):
 *   paramset  unknown parameter set names, OIDs and types
 *   algid     malformed alg_id_param encodings, under OpenSSL 3.4's name
 *             algorithm-id-params too and through EVP_CIPHER_asn1_to_param
 *   keymesh   key-mesh on ECB/CBC, of the wrong type
 *   num       num moved in gost89 (CFB), whose register holds whole blocks
 *   nokey     update and final after an init without a key
 *   lengths   wrong key and IV lengths (EVP's parameters, the provider's
 *             init called as the core calls it), MAC keys; ECB and CBC
 *             final blocks that are partial or badly padded
 *   macsize   MAC sizes 0, 9 and beyond
 *   early     parameters set, and calls made, before any init: no crash,
 *             and the parameters hold for the init that follows
 *
 * The raw cases call the provider's dispatch functions, found with
 * OSSL_PROVIDER_query_operation() as the core finds them, since EVP always
 * passes the cipher's own lengths and always inits before anything else.
 */
#include "gost89_test.h"

#include <openssl/asn1.h>
#include <openssl/core_dispatch.h>

static OSSL_LIB_CTX *libctx;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const gost89_names[] = {
    "gost89", "gost89-cnt", "gost89-cnt-12", "gost89-cbc", "gost89-ecb"
};
static const char *const all_names[] = {
    "gost89", "gost89-cnt", "gost89-cnt-12", "gost89-cbc", "gost89-ecb",
    "magma-ecb", "magma-cbc", "magma-ctr"
};
static const char *const mac_names[] = { "gost-mac", "gost-mac-12" };

static const unsigned char key[] = "0123456789abcdef0123456789abcdef";
static const unsigned char iv[] = "fedcba98";
static const unsigned char msg[40] = "a message of forty bytes for the tests.";

static int ivlen_of(const char *name)
{
    if (strstr(name, "-ecb") != NULL)
        return 0;
    return strcmp(name, "magma-ctr") == 0 ? 4 : 8;
}

/* A context of cipher name, keyed for encryption, padding off. */
static EVP_CIPHER_CTX *keyed(const char *name)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

    if (!TU_CHECK(ctx != NULL && EVP_EncryptInit_ex2(ctx, c, key,
                                                     ivlen_of(name) ? iv
                                                                    : NULL,
                                                     NULL)
                  && EVP_CIPHER_CTX_set_padding(ctx, 0), "init %s", name))
        exit(1);
    EVP_CIPHER_free(c);
    return ctx;
}

/* Encrypts msg with ctx as it stands; 1 if it equals exp. */
static int same_output(EVP_CIPHER_CTX *ctx, const unsigned char *exp,
                       const char *what)
{
    unsigned char out[sizeof(msg) + 8];
    int l1 = 0, l2 = 0;
    int ok = EVP_EncryptUpdate(ctx, out, &l1, msg, sizeof(msg))
             && EVP_EncryptFinal_ex(ctx, out + l1, &l2);

    return TU_CHECK(ok, "%s: encryption after the bad call failed", what)
           && TU_CHECK_MEM(what, out, (size_t)(l1 + l2), exp, sizeof(msg));
}

/* What name gives for msg with nothing but key and IV. */
static void baseline(const char *name, unsigned char out[sizeof(msg)])
{
    EVP_CIPHER_CTX *ctx = keyed(name);
    int l1 = 0, l2 = 0;

    if (!TU_CHECK(EVP_EncryptUpdate(ctx, out, &l1, msg, sizeof(msg))
                  && EVP_EncryptFinal_ex(ctx, out + l1, &l2)
                  && l1 + l2 == (int)sizeof(msg), "baseline %s", name))
        exit(1);
    EVP_CIPHER_CTX_free(ctx);
}

/*
 * p must be refused with reason of library lib (TU_CHECK_ERR), in the init
 * call and after it; the context that refused it after the init must go on
 * as before.  Each check runs (and empties the error queue), whatever the
 * one before gave.
 */
static void bad_cipher_param(const char *name, OSSL_PARAM p,
                             const char *lib, const char *reason,
                             const char *what)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char exp[sizeof(msg)];
    OSSL_PARAM params[2];
    int ok;

    baseline(name, exp);
    params[0] = p;
    params[1] = OSSL_PARAM_construct_end();
    ERR_clear_error();
    ok = TU_CHECK(!EVP_EncryptInit_ex2(ctx, c, key,
                                       ivlen_of(name) ? iv : NULL, params),
                  "%s: %s accepted in the init call", name, what);
    ok &= TU_CHECK_ERR(lib, reason);
    if (!ok)
        fprintf(stderr, "  (%s, %s in init)\n", name, what);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);

    ctx = keyed(name);
    ERR_clear_error();
    ok = TU_CHECK(!EVP_CIPHER_CTX_set_params(ctx, params),
                  "%s: %s accepted after init", name, what);
    ok &= TU_CHECK_ERR(lib, reason);
    ok &= same_output(ctx, exp, what);
    if (!ok)
        fprintf(stderr, "  (%s, %s after init)\n", name, what);
    EVP_CIPHER_CTX_free(ctx);
}

/* ------------------------------------------------------------- paramset */

static void run_paramset(void)
{
    static const char *const bad[] = {
        "CryptoPro-E", "", "1.2.643.2.2.31.9", "1.2.643.2.2.30.1",
        "id-Gost28147-89-CryptoPro-A-ParamSetX", "Z ", "1.2.643.7.1.2.5.1",
        "1.2.643.7.1.2.5.1.1.0"
    };
    size_t i, j;

    for (i = 0; i < NELEM(gost89_names); i++)
        for (j = 0; j < NELEM(bad); j++)
            bad_cipher_param(gost89_names[i],
                             OSSL_PARAM_construct_utf8_string(
                                 "paramset", (char *)bad[j], 0),
                             tu_target(), "unknown parameter set", bad[j]);
    /* A number is no set name, whatever its value. */
    for (i = 0; i < NELEM(gost89_names); i++) {
        static int one = 1;

        bad_cipher_param(gost89_names[i],
                         OSSL_PARAM_construct_int("paramset", &one),
                         TU_LIB_PROV, "failed to get parameter",
                         "paramset as an integer");
    }
    for (i = 0; i < NELEM(mac_names); i++) {
        for (j = 0; j < NELEM(bad); j++) {
            EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i],
                                       tu_target_propq());
            EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
            OSSL_PARAM p[2];

            p[0] = OSSL_PARAM_construct_utf8_string("paramset",
                                                    (char *)bad[j], 0);
            p[1] = OSSL_PARAM_construct_end();
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, key, 32, p),
                     "%s: paramset \"%s\" accepted in init", mac_names[i],
                     bad[j]);
            TU_CHECK_ERR(tu_target(), "unknown parameter set");
            TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, key, 32, NULL)
                     && !EVP_MAC_CTX_set_params(ctx, p),
                     "%s: paramset \"%s\" accepted after init",
                     mac_names[i], bad[j]);
            TU_CHECK_ERR(tu_target(), "unknown parameter set");
            EVP_MAC_CTX_free(ctx);
            EVP_MAC_free(m);
        }
    }
}

/* ---------------------------------------------------------------- algid */

/*
 * der through EVP_CIPHER_asn1_to_param, where it is what libcrypto would
 * hand over (an ASN1_TYPE that encodes back to der); 1 if it was.
 */
static int bad_asn1(const char *name, const unsigned char *der, size_t len,
                    const char *what)
{
    const unsigned char *p = der;
    ASN1_TYPE *t = d2i_ASN1_TYPE(NULL, &p, (long)len);
    unsigned char *again = NULL, exp[sizeof(msg)];
    EVP_CIPHER_CTX *ctx;
    int n = t != NULL ? i2d_ASN1_TYPE(t, &again) : -1, ok;

    ERR_clear_error();
    if (n < 0 || (size_t)n != len || memcmp(again, der, len) != 0) {
        ASN1_TYPE_free(t);
        OPENSSL_free(again);
        return 0;
    }
    baseline(name, exp);
    ctx = keyed(name);
    /* each check runs, whatever the one before gave */
    ok = TU_CHECK(EVP_CIPHER_asn1_to_param(ctx, t) <= 0, "%s: %s taken by "
                  "EVP_CIPHER_asn1_to_param", name, what);
    ok &= TU_CHECK_ERR(tu_target(), "invalid algorithm id parameters");
    ok &= same_output(ctx, exp, what);
    if (!ok)
        fprintf(stderr, "  (%s, %s through EVP_CIPHER_asn1_to_param)\n",
                name, what);
    EVP_CIPHER_CTX_free(ctx);
    ASN1_TYPE_free(t);
    OPENSSL_free(again);
    return 1;
}

static void run_algid(void)
{
    static const struct {
        const char *what, *der;
    } bad[] = {
        { "empty", "" },
        { "truncated", "30130408 0102030405060708 06072a85030202" },
        { "a SET, not a SEQUENCE", "3113 0408 0102030405060708 0607"
          "2a850302021f01" },
        { "wrong outer length", "3014 0408 0102030405060708 0607"
          "2a850302021f01" },
        { "IV of 7 bytes", "3012 0407 01020304050607 0607 2a850302021f01" },
        { "IV of 9 bytes", "3014 0409 010203040506070809 0607"
          "2a850302021f01" },
        { "IV as a BIT STRING", "3013 0308 0102030405060708 0607"
          "2a850302021f01" },
        { "set as an OCTET STRING", "3013 0408 0102030405060708 0407"
          "2a850302021f01" },
        { "unknown set 1.2.643.2.2.31.9", "3013 0408 0102030405060708 0607"
          "2a850302021f09" },
        { "a hash set 1.2.643.2.2.30.1", "3013 0408 0102030405060708 0607"
          "2a850302021e01" },
        { "OID length past the end", "3013 0408 0102030405060708 0608"
          "2a850302021f01" },
        { "trailing byte", "3014 0408 0102030405060708 0607 2a850302021f01"
          "00" },
        { "long-form length", "308113 0408 0102030405060708 0607"
          "2a850302021f01" },
        { "only the SEQUENCE header", "3000" },
        { "oversized", "3040 0408 0102030405060708 0634 2a850302021f01"
          "0101010101010101010101010101010101010101010101010101010101010101"
          "010101010101010101010101010101010101010101" },
        { "a bare IV, as libcrypto's default", "0408 0102030405060708" },
        { "NULL", "0500" },
        { "the SEQUENCE the other way round", "3013 0607 2a850302021f01"
          "0408 0102030405060708" },
    };
    size_t i, j, len = 0, through_asn1 = 0;

    for (i = 0; i < NELEM(gost89_names); i++) {
        for (j = 0; j < NELEM(bad); j++) {
            unsigned char *der = tu_unhex_or_die(bad[j].der, &len);

            bad_cipher_param(gost89_names[i],
                             OSSL_PARAM_construct_octet_string(
                                 "alg_id_param", der, len),
                             tu_target(), "invalid algorithm id parameters",
                             bad[j].what);
            bad_cipher_param(gost89_names[i],
                             OSSL_PARAM_construct_octet_string(
                                 "algorithm-id-params", der, len),
                             tu_target(), "invalid algorithm id parameters",
                             bad[j].what);
            through_asn1 += bad_asn1(gost89_names[i], der, len, bad[j].what);
            free(der);
        }
        bad_cipher_param(gost89_names[i],
                         OSSL_PARAM_construct_utf8_string(
                             "alg_id_param", (char *)"CryptoPro-A", 0),
                         tu_target(), "invalid algorithm id parameters",
                         "alg_id_param as a string");
    }
    /* Most of the table is well-formed DER of the wrong thing. */
    printf("# %zu bad encodings through EVP_CIPHER_asn1_to_param\n",
           through_asn1);
    TU_CHECK(through_asn1 >= 8 * NELEM(gost89_names), "only %zu bad "
             "encodings went through EVP_CIPHER_asn1_to_param", through_asn1);
}

/* -------------------------------------------------------------- keymesh */

static void run_keymesh(void)
{
    static const char *const block_modes[] = { "gost89-cbc", "gost89-ecb" };
    static size_t values[] = { 1, 1024, 4096, (size_t)-1 };
    size_t i, j;

    for (i = 0; i < NELEM(block_modes); i++) {
        EVP_CIPHER_CTX *ctx = keyed(block_modes[i]);
        unsigned char exp[sizeof(msg)];
        size_t zero = 0;
        OSSL_PARAM p[2];

        for (j = 0; j < NELEM(values); j++)
            bad_cipher_param(block_modes[i],
                             OSSL_PARAM_construct_size_t("key-mesh",
                                                         &values[j]),
                             tu_target(), "invalid key meshing period",
                             "key meshing on a block mode");
        /* Off is what they are already: accepted. */
        baseline(block_modes[i], exp);
        p[0] = OSSL_PARAM_construct_size_t("key-mesh", &zero);
        p[1] = OSSL_PARAM_construct_end();
        TU_CHECK(EVP_CIPHER_CTX_set_params(ctx, p), "%s: key-mesh 0 refused",
                 block_modes[i]);
        same_output(ctx, exp, "key-mesh 0 on a block mode");
        EVP_CIPHER_CTX_free(ctx);
    }
    for (i = 0; i < NELEM(gost89_names); i++)
        bad_cipher_param(gost89_names[i],
                         OSSL_PARAM_construct_utf8_string(
                             "key-mesh", (char *)"1024", 0),
                         TU_LIB_PROV, "failed to get parameter",
                         "key-mesh as a string");
}

/* ------------------------------------------------------------------ num */

static void run_num(void)
{
    EVP_CIPHER_CTX *ctx;
    unsigned char exp[sizeof(msg)], out[sizeof(msg)];
    unsigned int v;
    OSSL_PARAM p[2];
    int l = 0;

    for (v = 1; v < 8; v++)
        bad_cipher_param("gost89", OSSL_PARAM_construct_uint("num", &v),
                         TU_LIB_PROV, "failed to get parameter",
                         "num inside a CFB block");
    /*
     * Inside a block, num may only stay where it is; the message goes on
     * as if nothing had been asked.
     */
    baseline("gost89", exp);
    ctx = keyed("gost89");
    p[1] = OSSL_PARAM_construct_end();
    if (TU_CHECK(EVP_EncryptUpdate(ctx, out, &l, msg, 3) && l == 3,
                 "gost89: 3 bytes")) {
        v = 3;
        p[0] = OSSL_PARAM_construct_uint("num", &v);
        TU_CHECK(EVP_CIPHER_CTX_set_params(ctx, p), "gost89: num 3 refused "
                 "at byte 3");
        v = 0;
        ERR_clear_error();
        TU_CHECK(!EVP_CIPHER_CTX_set_params(ctx, p), "gost89: num 0 accepted "
                 "at byte 3");
        TU_CHECK_ERR_DATA(TU_LIB_PROV, "failed to get parameter",
                          "whole blocks");
        TU_CHECK(EVP_EncryptUpdate(ctx, out + 3, &l, msg + 3,
                                   sizeof(msg) - 3)
                 && l == (int)sizeof(msg) - 3, "gost89: the rest");
        TU_CHECK_MEM("gost89 after num refused mid-block", out, sizeof(msg),
                     exp, sizeof(msg));
    }
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
}

/* ---------------------------------------------------------------- nokey */

static void run_nokey(void)
{
    size_t i;

    for (i = 0; i < NELEM(all_names); i++) {
        EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, all_names[i],
                                               tu_target_propq());
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        unsigned char out[sizeof(msg) + 16];
        int enc, l = -1;

        for (enc = 1; enc >= 0; enc--) {
            TU_CHECK(ctx != NULL
                     && EVP_CipherInit_ex2(ctx, c, NULL,
                                           ivlen_of(all_names[i]) ? iv : NULL,
                                           enc, NULL),
                     "%s: init without a key", all_names[i]);
            ERR_clear_error();
            l = -1;
            TU_CHECK(!EVP_CipherUpdate(ctx, out, &l, msg, sizeof(msg)),
                     "%s: update without a key accepted", all_names[i]);
            TU_CHECK_ERR(TU_LIB_PROV, "no key set");
            TU_CHECK(l <= 0, "%s: update without a key gave %d bytes",
                     all_names[i], l);
            l = -1;
            TU_CHECK(!EVP_CipherFinal_ex(ctx, out, &l),
                     "%s: final without a key accepted", all_names[i]);
            TU_CHECK_ERR(TU_LIB_PROV, "no key set");
            TU_CHECK(l <= 0, "%s: final without a key gave %d bytes",
                     all_names[i], l);
        }
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
    for (i = 0; i < NELEM(mac_names); i++) {
        EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i], tu_target_propq());
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
        unsigned char out[8];
        size_t outl = 99;

        ERR_clear_error();
        TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, NULL, 0, NULL),
                 "%s: init without any key accepted", mac_names[i]);
        TU_CHECK_ERR(TU_LIB_PROV, "no key set");
        TU_CHECK(ctx != NULL && !EVP_MAC_update(ctx, msg, sizeof(msg)),
                 "%s: update without a key accepted", mac_names[i]);
        TU_CHECK_ERR(TU_LIB_PROV, "no key set");
        TU_CHECK(ctx != NULL && !EVP_MAC_final(ctx, out, &outl, sizeof(out))
                 && outl == 0, "%s: final without a key accepted (%zu bytes)",
                 mac_names[i], outl);
        TU_CHECK_ERR(TU_LIB_PROV, "no key set");
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(m);
    }
}

/* ------------------------------------------------- the provider, raw */

typedef TU_RAW_CIPHER RAW;

/* The provider's functions for cipher name. */
static void raw_get(const char *name, RAW *r)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());

    tu_raw_cipher(c, name, r);
    EVP_CIPHER_free(c);
    if (!TU_CHECK(r->newctx != NULL && r->freectx != NULL
                  && r->einit != NULL && r->update != NULL
                  && r->final != NULL && r->get_ctx_params != NULL
                  && r->set_ctx_params != NULL, "dispatch table of %s", name))
        exit(1);
}

/* -------------------------------------------------------------- lengths */

/*
 * The block modes' bad final blocks, with the reasons gostprov raises
 * (its gost-engine ciphers run under libcrypto's EVP layer, whose
 * EVP_EncryptFinal_ex/EVP_DecryptFinal_ex raise them; test/err_compare.c
 * compares with gostprov where it is installed).
 */
static void bad_final_blocks(const char *name)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    const unsigned char *v = ivlen_of(name) ? iv : NULL;
    unsigned char ct[16], out[32];
    int l, l2, pad;

    for (pad = 0; pad <= 1; pad++) {
        /* 12 bytes to decrypt: no whole last block */
        ERR_clear_error();
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, v, NULL)
                 && EVP_CIPHER_CTX_set_padding(ctx, pad)
                 && EVP_DecryptUpdate(ctx, out, &l, msg, 12)
                 && !EVP_DecryptFinal_ex(ctx, out, &l2),
                 "%s: decrypting 12 bytes, padding %d, accepted", name, pad);
        TU_CHECK_ERR(TU_LIB_EVP, pad ? "wrong final block length"
                                     : "data not multiple of block length");
    }
    /* 12 bytes to encrypt without padding */
    ERR_clear_error();
    TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, v, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 0)
             && EVP_EncryptUpdate(ctx, out, &l, msg, 12)
             && !EVP_EncryptFinal_ex(ctx, out, &l2),
             "%s: encrypting 12 bytes without padding accepted", name);
    TU_CHECK_ERR(TU_LIB_EVP, "data not multiple of block length");
    /* A block of zeros encrypted: its padding byte 0 is never valid. */
    ERR_clear_error();
    memset(out, 0, sizeof(out));
    TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, v, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 0)
             && EVP_EncryptUpdate(ctx, ct, &l, out, 8) && l == 8
             && EVP_DecryptInit_ex2(ctx, c, key, v, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 1)
             && EVP_DecryptUpdate(ctx, out, &l, ct, 8)
             && !EVP_DecryptFinal_ex(ctx, out, &l2),
             "%s: bad padding accepted", name);
    TU_CHECK_ERR(TU_LIB_EVP, "bad decrypt");
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

static void run_lengths(void)
{
    static const size_t keylens[] = { 0, 16, 31, 33, 64 };
    static const size_t ivlens[] = { 0, 4, 7, 9, 16 };
    unsigned char big[64];
    size_t i, j;

    memset(big, 0x5a, sizeof(big));
    for (i = 0; i < NELEM(all_names); i++) {
        const char *name = all_names[i];
        RAW r;
        void *ctx;

        /* Through EVP: the lengths EVP lets a caller change. */
        for (j = 0; j < NELEM(keylens); j++) {
            EVP_CIPHER_CTX *c = keyed(name);

            ERR_clear_error();
            TU_CHECK(!EVP_CIPHER_CTX_set_key_length(c, (int)keylens[j]),
                     "%s: key length %zu accepted", name, keylens[j]);
            /* keylen is not settable: EVP refuses it (src/modes.h) */
            TU_CHECK_ERR(TU_LIB_EVP, "invalid key length");
            EVP_CIPHER_CTX_free(c);
        }
        for (j = 0; j < NELEM(ivlens); j++) {
            size_t v = ivlens[j];

            if ((int)v == ivlen_of(name))
                continue;
            bad_cipher_param(name, OSSL_PARAM_construct_size_t("ivlen", &v),
                             TU_LIB_PROV, "invalid iv length",
                             "a wrong ivlen");
        }

        /* The provider's init, with the lengths the core would pass. */
        raw_get(name, &r);
        for (j = 0; j < NELEM(keylens); j++) {
            ctx = r.newctx(r.provctx);
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !r.einit(ctx, big, keylens[j],
                                            ivlen_of(name) ? iv : NULL,
                                            (size_t)ivlen_of(name), NULL),
                     "%s: raw init with a %zu-byte key accepted", name,
                     keylens[j]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid key length");
            r.freectx(ctx);
        }
        for (j = 0; j < NELEM(ivlens); j++) {
            if ((int)ivlens[j] == ivlen_of(name) || ivlen_of(name) == 0)
                continue;
            ctx = r.newctx(r.provctx);
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !r.einit(ctx, key, 32, big, ivlens[j],
                                            NULL),
                     "%s: raw init with a %zu-byte IV accepted", name,
                     ivlens[j]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid iv length");
            r.freectx(ctx);
        }
    }
    for (i = 0; i < NELEM(mac_names); i++) {
        EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i], tu_target_propq());

        for (j = 0; j < NELEM(keylens); j++) {
            EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
            OSSL_PARAM p[2];

            ERR_clear_error();
            /* A zero-length key through init means "no key": see nokey. */
            if (keylens[j] != 0) {
                TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, big, keylens[j],
                                                      NULL),
                         "%s: %zu-byte key accepted", mac_names[i],
                         keylens[j]);
                TU_CHECK_ERR(TU_LIB_PROV, "invalid key length");
            }
            p[0] = OSSL_PARAM_construct_octet_string("key", big, keylens[j]);
            p[1] = OSSL_PARAM_construct_end();
            TU_CHECK(ctx != NULL && !EVP_MAC_CTX_set_params(ctx, p),
                     "%s: %zu-byte key param accepted", mac_names[i],
                     keylens[j]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid key length");
            EVP_MAC_CTX_free(ctx);
        }
        EVP_MAC_free(m);
    }
    bad_final_blocks("gost89-cbc");
    bad_final_blocks("gost89-ecb");
    bad_final_blocks("magma-cbc");
    bad_final_blocks("magma-ecb");
}

/* -------------------------------------------------------------- macsize */

static void run_macsize(void)
{
    static const size_t sizes[] = { 0, 9, 16, 1024, (size_t)-1 };
    size_t i, j;

    for (i = 0; i < NELEM(mac_names); i++) {
        EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i], tu_target_propq());
        unsigned char ref[8], out[8];
        size_t refl = 0, outl = 0;
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

        if (!TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, key, 32, NULL)
                      && EVP_MAC_update(ctx, msg, sizeof(msg))
                      && EVP_MAC_final(ctx, ref, &refl, sizeof(ref)),
                      "%s: reference MAC", mac_names[i]))
            exit(1);
        EVP_MAC_CTX_free(ctx);
        for (j = 0; j < NELEM(sizes); j++) {
            size_t size = sizes[j];
            OSSL_PARAM p[2];

            p[0] = OSSL_PARAM_construct_size_t("size", &size);
            p[1] = OSSL_PARAM_construct_end();
            ctx = EVP_MAC_CTX_new(m);
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, key, 32, p),
                     "%s: size %zu accepted in init", mac_names[i], size);
            TU_CHECK_ERR(tu_target(), "invalid mac size");
            TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, key, 32, NULL)
                     && !EVP_MAC_CTX_set_params(ctx, p),
                     "%s: size %zu accepted after init", mac_names[i], size);
            TU_CHECK_ERR(tu_target(), "invalid mac size");
            /* The refused size left the default one. */
            outl = 0;
            TU_CHECK(ctx != NULL && EVP_MAC_update(ctx, msg, sizeof(msg))
                     && EVP_MAC_final(ctx, out, &outl, sizeof(out)),
                     "%s: MAC after a refused size", mac_names[i]);
            TU_CHECK_MEM("MAC after a refused size", out, outl, ref, refl);
            EVP_MAC_CTX_free(ctx);
        }
        EVP_MAC_free(m);
    }
}

/* ---------------------------------------------------------------- early */

/* Parameters set on a fresh provider context must hold for its init. */
static void raw_early(const char *name)
{
    RAW r;
    void *ctx;
    unsigned char der[GOST89_ALG_ID_MAX], out[sizeof(msg) + 8], exp[sizeof(msg)];
    unsigned char got[GOST89_ALG_ID_MAX];
    char setname[80] = "";
    const GOST89_SET *b = gost89_set("CryptoPro-B");
    size_t derlen = gost89_alg_id(b, iv, der), outl = 0, zero = 0;
    OSSL_PARAM p[3], g[3];
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ref = EVP_CIPHER_CTX_new();
    unsigned int nopad = 0;
    int l1 = 0, l2 = 0;

    /* The reference: key, IV and set B, key meshing off, in one init. */
    p[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)b->name, 0);
    p[1] = strstr(name, "-ecb") == NULL && strstr(name, "-cbc") == NULL
           ? OSSL_PARAM_construct_size_t("key-mesh", &zero)
           : OSSL_PARAM_construct_end();
    p[2] = OSSL_PARAM_construct_end();
    if (!TU_CHECK(ref != NULL
                  && EVP_EncryptInit_ex2(ref, c, key,
                                         ivlen_of(name) ? iv : NULL, p)
                  && EVP_CIPHER_CTX_set_padding(ref, 0)
                  && EVP_EncryptUpdate(ref, exp, &l1, msg, sizeof(msg))
                  && EVP_EncryptFinal_ex(ref, exp + l1, &l2),
                  "%s: reference for the early cases", name))
        exit(1);
    EVP_CIPHER_CTX_free(ref);
    EVP_CIPHER_free(c);

    raw_get(name, &r);
    /* Every call before any init: fail cleanly or work, never crash. */
    ctx = r.newctx(r.provctx);
    ERR_clear_error();
    TU_CHECK(ctx != NULL && !r.update(ctx, out, &outl, sizeof(out), msg,
                                      sizeof(msg)) && outl == 0,
             "%s: update before any init accepted", name);
    TU_CHECK_ERR(tu_target(), "operation not initialised");
    TU_CHECK(!r.final(ctx, out, &outl, sizeof(out)) && outl == 0,
             "%s: final before any init accepted", name);
    TU_CHECK_ERR(tu_target(), "operation not initialised");
    g[0] = OSSL_PARAM_construct_utf8_string("paramset", setname,
                                            sizeof(setname));
    g[1] = OSSL_PARAM_construct_octet_string("alg_id_param", got,
                                             sizeof(got));
    g[2] = OSSL_PARAM_construct_end();
    TU_CHECK(r.get_ctx_params(ctx, g), "%s: reading parameters before any init",
             name);
    ERR_clear_error();

    /* alg_id_param (set B, the IV) and key meshing off, then the key. */
    p[0] = OSSL_PARAM_construct_octet_string("alg_id_param", der, derlen);
    p[1] = strstr(name, "-ecb") == NULL && strstr(name, "-cbc") == NULL
           ? OSSL_PARAM_construct_size_t("key-mesh", &zero)
           : OSSL_PARAM_construct_end();
    p[2] = OSSL_PARAM_construct_end();
    g[0] = OSSL_PARAM_construct_uint("padding", &nopad);
    g[1] = OSSL_PARAM_construct_end();
    outl = 0;
    if (TU_CHECK(r.set_ctx_params(ctx, p), "%s: alg_id_param before any init",
                 name)
        && TU_CHECK(r.set_ctx_params(ctx, g), "%s: padding before any init", name)
        && TU_CHECK(r.einit(ctx, key, 32, NULL, 0, NULL),
                    "%s: init with the key only after early parameters",
                    name)
        && TU_CHECK(r.update(ctx, out, &outl, sizeof(out), msg, sizeof(msg)),
                    "%s: update after early parameters", name)) {
        size_t fl = 0;

        TU_CHECK(r.final(ctx, out + outl, &fl, sizeof(out) - outl),
                 "%s: final after early parameters", name);
        TU_CHECK_MEM("early alg_id_param, then the key", out, outl + fl, exp,
                     sizeof(msg));
    }
    ERR_clear_error();
    r.freectx(ctx);

    /* The same by name, before any init. */
    ctx = r.newctx(r.provctx);
    p[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)b->oid, 0);
    outl = 0;
    if (TU_CHECK(ctx != NULL && r.set_ctx_params(ctx, p)
                 && r.set_ctx_params(ctx, g)
                 && r.einit(ctx, key, 32, ivlen_of(name) ? iv : NULL,
                            (size_t)ivlen_of(name), NULL)
                 && r.update(ctx, out, &outl, sizeof(out), msg, sizeof(msg)),
                 "%s: paramset before any init", name))
        TU_CHECK_MEM("early paramset, then key and IV", out, outl, exp,
                     sizeof(msg));
    ERR_clear_error();
    r.freectx(ctx);
}

static void run_early(void)
{
    size_t i;

    for (i = 0; i < NELEM(gost89_names); i++)
        raw_early(gost89_names[i]);

    /* Through EVP: an init without key carrying the parameters, then one
     * with the key must keep them. */
    for (i = 0; i < NELEM(gost89_names); i++) {
        const char *name = gost89_names[i];
        EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name,
                                               tu_target_propq());
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        unsigned char exp[sizeof(msg)], out[sizeof(msg) + 8];
        OSSL_PARAM p[2];
        int l1 = 0, l2 = 0;

        p[0] = OSSL_PARAM_construct_utf8_string("paramset",
                                                (char *)"CryptoPro-C", 0);
        p[1] = OSSL_PARAM_construct_end();
        if (TU_CHECK(ctx != NULL
                     && EVP_EncryptInit_ex2(ctx, c, key,
                                            ivlen_of(name) ? iv : NULL, p)
                     && EVP_CIPHER_CTX_set_padding(ctx, 0)
                     && EVP_EncryptUpdate(ctx, exp, &l1, msg, sizeof(msg))
                     && EVP_EncryptInit_ex2(ctx, c, NULL, NULL, p)
                     && EVP_EncryptInit_ex2(ctx, NULL, key,
                                            ivlen_of(name) ? iv : NULL, NULL)
                     && EVP_CIPHER_CTX_set_padding(ctx, 0)
                     && EVP_EncryptUpdate(ctx, out, &l2, msg, sizeof(msg)),
                     "%s: parameters in an init without key", name))
            TU_CHECK_MEM("parameters in an init without key", out,
                         (size_t)l2, exp, (size_t)l1);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }

    for (i = 0; i < NELEM(mac_names); i++) {
        EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i], tu_target_propq());
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
        unsigned char exp[8], out[8];
        size_t size = 6, el = 0, ol = 0, got = 0;
        OSSL_PARAM p[3], g[2];

        p[0] = OSSL_PARAM_construct_utf8_string("paramset",
                                                (char *)"CryptoPro-D", 0);
        p[1] = OSSL_PARAM_construct_size_t("size", &size);
        p[2] = OSSL_PARAM_construct_end();
        g[0] = OSSL_PARAM_construct_size_t("size", &got);
        g[1] = OSSL_PARAM_construct_end();
        TU_CHECK(ctx != NULL && EVP_MAC_CTX_set_params(ctx, p)
                 && EVP_MAC_CTX_get_params(ctx, g) && got == 6,
                 "%s: parameters before any init (size reads %zu)",
                 mac_names[i], got);
        TU_CHECK(EVP_MAC_init(ctx, key, 32, NULL)
                 && EVP_MAC_update(ctx, msg, sizeof(msg))
                 && EVP_MAC_final(ctx, out, &ol, sizeof(out)),
                 "%s: MAC after early parameters", mac_names[i]);
        EVP_MAC_CTX_free(ctx);
        ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
        TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, key, 32, p)
                 && EVP_MAC_update(ctx, msg, sizeof(msg))
                 && EVP_MAC_final(ctx, exp, &el, sizeof(exp)),
                 "%s: MAC with the parameters in init", mac_names[i]);
        TU_CHECK_MEM("MAC parameters before init", out, ol, exp, el);
        ERR_clear_error();
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(m);
    }
}

int main(int argc, char **argv)
{
    static const TU_GROUP groups[] = {
        { "paramset", run_paramset }, { "algid", run_algid },
        { "keymesh", run_keymesh }, { "num", run_num },
        { "nokey", run_nokey },
        { "lengths", run_lengths }, { "macsize", run_macsize },
        { "early", run_early },
    };

    return tu_main(argc, argv, groups, NELEM(groups),
                   &libctx, NULL);
}
