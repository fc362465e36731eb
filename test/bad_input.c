/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Misuse of every smgost family through EVP and straight at the provider:
 * every call must fail, leave its reason on the error queue (the default
 * provider's for the failures its algorithms have too, test/err_compare.c
 * compares them; smgost's own for the rest, such as the GOST parameters)
 * and report no output; a GOST context stays as it was (a later message
 * comes out as if the bad call had not happened).
 *
 * Groups (arguments: family, group), a case table per family:
 *   sm keyiv        wrong key and IV lengths, through the parameters EVP sets
 *   sm params       parameter values of the wrong type or out of range
 *   sm state        update before a key, update/final after final
 *   sm final        partial final blocks with padding off, corrupt padding
 *   sm outsize      output buffers too small for update, final and cipher
 *   sm lengths      input lengths near SIZE_MAX
 *   sm null         updates of a NULL input, in every SM4 mode
 *   sm sm3          digest misuse, through EVP (where libcrypto 3.2 and
 *                   later refuse first, with their own reason) and straight
 *                   at smgost (final and update without init, final into
 *                   too small a buffer, update and final after final)
 *   streebog digest the same for md_gost12_256 and md_gost12_512
 *   gost89 paramset unknown parameter set names, OIDs and types
 *   gost89 algid    malformed alg_id_param encodings, under OpenSSL 3.4's
 *                   name algorithm-id-params too and through
 *                   EVP_CIPHER_asn1_to_param
 *   gost89 keymesh  key-mesh on ECB/CBC, of the wrong type; ACPKM's
 *                   key-mesh 0, not a multiple of the block, or changed in
 *                   mid-message; OMAC-ACPKM's key-mesh and cipher-key-mesh
 *                   likewise
 *   gost89 num      num moved in gost89 (CFB), whose register holds whole
 *                   blocks
 *   gost89 nokey    update and final after an init without a key (also
 *                   Kuznyechik's ciphers)
 *   gost89 lengths  wrong key and IV lengths (EVP's parameters, the
 *                   provider's init called as the core calls it; for the
 *                   GOST R 34.13-2015 registers, IVs not 1 to 4 whole
 *                   blocks), MAC keys;
 *                   ECB and CBC final blocks that are partial or badly
 *                   padded (also Kuznyechik's ciphers)
 *   gost89 macsize  MAC sizes 0, beyond the block and beyond
 *   gost89 early    parameters set, and calls made, before any init: no
 *                   crash, and the parameters hold for the init that follows
 *   gost89 gost94   md_gost94's digest misuse, as sm sm3's
 *   gost89 null     updates of a NULL input, every GOST cipher, MGM and
 *                   CTR-ACPKM-OMAC
 *
 * Most cases use EVP as applications do.  EVP always offers the provider
 * enough output room and the cipher's own key and IV lengths, and always
 * inits before anything else, so the output-size, raw-length and early
 * cases call the provider's dispatch functions, found with
 * OSSL_PROVIDER_query_operation() as the core finds them.
 */
#include "gost89_test.h"

#include <limits.h>
#include <openssl/asn1.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

static OSSL_LIB_CTX *libctx;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ SM4, SM3 */

static const char *const sm4_names[] = {
    "SM4-ECB", "SM4-CBC", "SM4-OFB", "SM4-CFB", "SM4-CTR"
};
#define NMODES NELEM(sm4_names)

static const unsigned char sm4_key[] = "0123456789abcdef";
static const unsigned char sm4_iv[] = "fedcba9876543210";
/* An IV as long as any SM4 mode's (GCM's 12, CCM's 7, the others' 16). */
static unsigned char sm4_iv_buf[16];

/* A context of cipher name, keyed for encryption (enc) or decryption. */
static EVP_CIPHER_CTX *sm4_keyed(const char *name, int enc)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

    if (!TU_CHECK(ctx != NULL
                  && EVP_CipherInit_ex2(ctx, c, sm4_key, sm4_iv, enc, NULL),
                  "init %s", name)) {
        exit(1);
    }
    EVP_CIPHER_free(c);
    return ctx;
}

/*
 * Sets one parameter; must fail with the default provider's reason (and
 * smgost's detail data, unless NULL).
 */
static void bad_param(const char *name, OSSL_PARAM p, const char *reason,
                      const char *data)
{
    EVP_CIPHER_CTX *ctx = sm4_keyed(name, 1);
    OSSL_PARAM params[2];

    params[0] = p;
    params[1] = OSSL_PARAM_construct_end();
    ERR_clear_error();
    if (!TU_CHECK(!EVP_CIPHER_CTX_set_params(ctx, params),
                  "%s: setting %s was accepted", name, p.key)
        || !TU_CHECK_ERR_DATA(TU_LIB_PROV, reason, data))
        fprintf(stderr, "  (%s, parameter %s)\n", name, p.key);
    EVP_CIPHER_CTX_free(ctx);
}

static void group_keyiv(void)
{
    static const size_t bad_keylens[] = { 0, 15, 17, 24, 32 };
    static const size_t bad_ivlens[] = { 0, 8, 12, 17 };
    size_t m, i, v;

    for (m = 0; m < NMODES; m++) {
        EVP_CIPHER_CTX *ctx = sm4_keyed(sm4_names[m], 1);
        size_t ivlen = (size_t)EVP_CIPHER_CTX_get_iv_length(ctx);

        /* The API applications call to change a key length: keylen is
         * not settable, so EVP refuses it, as for the default provider. */
        ERR_clear_error();
        TU_CHECK(EVP_CIPHER_CTX_set_key_length(ctx, 32) <= 0,
                 "%s: key length 32 accepted", sm4_names[m]);
        TU_CHECK_ERR(TU_LIB_EVP, "invalid key length");
        /* ... and the one for IV lengths (EVP maps it to "ivlen"). */
        TU_CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL)
                 <= 0, "%s: IV length 12 accepted", sm4_names[m]);
        TU_CHECK_ERR(TU_LIB_PROV, "invalid iv length");
        /* Confirming the real lengths is fine. */
        TU_CHECK(EVP_CIPHER_CTX_set_key_length(ctx, 16) == 1,
                 "%s: key length 16 refused", sm4_names[m]);
        EVP_CIPHER_CTX_free(ctx);

        for (i = 0; i < sizeof(bad_keylens) / sizeof(bad_keylens[0]); i++) {
            v = bad_keylens[i];
            bad_param(sm4_names[m],
                      OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN,
                                                  &v), "invalid key length",
                      "expected 16");
        }
        for (i = 0; i < sizeof(bad_ivlens) / sizeof(bad_ivlens[0]); i++) {
            v = bad_ivlens[i] == ivlen ? 16 : bad_ivlens[i];
            bad_param(sm4_names[m],
                      OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN,
                                                  &v), "invalid iv length",
                      "got ");
        }
    }
}

static void group_params(void)
{
    static char text[] = "1";
    size_t m;
    unsigned int num;
    int negative = -1;

    for (m = 0; m < NMODES; m++) {
        const char *n = sm4_names[m];
        int stream = m >= 2;

        bad_param(n, OSSL_PARAM_construct_utf8_string(
                      OSSL_CIPHER_PARAM_PADDING, text, 0),
                  "failed to get parameter", "padding");
        bad_param(n, OSSL_PARAM_construct_utf8_string(
                      OSSL_CIPHER_PARAM_NUM, text, 0),
                  "failed to get parameter", "num");
        bad_param(n, OSSL_PARAM_construct_utf8_string(
                      OSSL_CIPHER_PARAM_KEYLEN, text, 0),
                  "failed to get parameter", "keylen");
        bad_param(n, OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_NUM,
                                              &negative),
                  "failed to get parameter", "num");
        /* num indexes a byte of the current block: 16 is past it. */
        num = 16;
        bad_param(n, OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                  "failed to get parameter", "not a position");
        num = UINT_MAX;
        bad_param(n, OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                  "failed to get parameter", "not a position");
        /* ECB and CBC have no position inside a block. */
        if (!stream) {
            num = 1;
            bad_param(n, OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM,
                                                   &num),
                      "failed to get parameter", "not a position");
        }
    }
}

/* An update that must fail with reason of library lib (TU_CHECK_ERR)
 * and report no output. */
static void bad_update(EVP_CIPHER_CTX *ctx, const char *what,
                       const unsigned char *in, int inl, const char *lib,
                       const char *reason)
{
    unsigned char out[64];
    int outl = -1;

    ERR_clear_error();
    TU_CHECK(!EVP_CipherUpdate(ctx, out, &outl, in, inl),
             "%s: update accepted", what);
    TU_CHECK_ERR(lib, reason);
    TU_CHECK(outl <= 0, "%s: update reported %d bytes", what, outl);
}

static void bad_final(EVP_CIPHER_CTX *ctx, const char *what,
                      const char *lib, const char *reason)
{
    unsigned char out[64];
    int outl = -1;

    ERR_clear_error();
    TU_CHECK(!EVP_CipherFinal_ex(ctx, out, &outl), "%s: final accepted",
             what);
    TU_CHECK_ERR(lib, reason);
    TU_CHECK(outl <= 0, "%s: final reported %d bytes", what, outl);
}

/*
 * An update with a NULL input of 16 bytes, to a NULL output or not (CCM:
 * that is its message length), after an init of name with key and iv:
 * refused (OpenSSL's own block and stream modes read through the NULL;
 * its GCM takes it as the final), nothing reported.
 */
static void null_input(const char *name, const unsigned char *key,
                       const unsigned char *iv)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char out[64];
    char what[80];
    int enc, outl;

    for (enc = 0; enc <= 1; enc++) {
        snprintf(what, sizeof(what), "%s %s of a NULL input", name,
                 enc ? "encryption" : "decryption");
        if (!TU_CHECK(ctx != NULL
                      && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL),
                      "%s: init", what))
            break;
        bad_update(ctx, what, NULL, 16, TU_LIB_PROV,
                   "cipher operation failed");
        if (strcmp(name, "SM4-CCM") != 0) {
            ERR_clear_error();
            outl = -1;
            TU_CHECK(!EVP_CipherUpdate(ctx, NULL, &outl, NULL, 16)
                     && outl <= 0, "%s, to a NULL output: accepted (%d "
                     "bytes)", what, outl);
            TU_CHECK_ERR(TU_LIB_PROV, "cipher operation failed");
        }
        /* the context goes on: a message after the refusals (CCM's
         * decryption would want its tag first) */
        TU_CHECK(!enc || (EVP_CipherInit_ex2(ctx, NULL, NULL, iv, enc, NULL)
                          && EVP_CipherUpdate(ctx, out, &outl, out, 16)),
                 "%s: no message after the refusals", what);
    }
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

static void group_null(void)
{
    static const char *const names[] = {
        "SM4-ECB", "SM4-CBC", "SM4-OFB", "SM4-CFB", "SM4-CTR", "SM4-GCM",
        "SM4-CCM", "SM4-XTS"
    };
    static const unsigned char xts_key[] = "0123456789abcdefFEDCBA9876543210";
    size_t i;

    memset(sm4_iv_buf, 0x5a, sizeof(sm4_iv_buf));
    for (i = 0; i < NELEM(names); i++)
        null_input(names[i], strcmp(names[i], "SM4-XTS") == 0 ? xts_key
                                                              : sm4_key,
                   strcmp(names[i], "SM4-ECB") == 0 ? NULL : sm4_iv_buf);
}

static void group_state(void)
{
    unsigned char in[32] = { 0 }, out[64];
    size_t m;
    int outl, enc;
    char what[80];

    for (m = 0; m < NMODES; m++) {
        for (enc = 0; enc <= 1; enc++) {
            EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, sm4_names[m],
                                                   tu_target_propq());
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

            /* The cipher chosen, no key given yet. */
            snprintf(what, sizeof(what), "%s %s without a key", sm4_names[m],
                     enc ? "encrypt" : "decrypt");
            if (!TU_CHECK(ctx != NULL
                          && EVP_CipherInit_ex2(ctx, c, NULL, sm4_iv, enc,
                                                NULL),
                          "%s: init", what))
                exit(1);
            bad_update(ctx, what, in, 16, TU_LIB_PROV, "no key set");
            bad_final(ctx, what, TU_LIB_PROV, "no key set");

            /* Keyed, one message finished. */
            snprintf(what, sizeof(what), "%s %s after final", sm4_names[m],
                     enc ? "encrypt" : "decrypt");
            TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, sm4_key, sm4_iv, enc, NULL)
                     && EVP_CIPHER_CTX_set_padding(ctx, 0)
                     && EVP_CipherUpdate(ctx, out, &outl, in, 32)
                     && EVP_CipherFinal_ex(ctx, out, &outl), "%s: setup",
                     what);
            /* The default provider goes ahead: smgost's own reasons. */
            bad_update(ctx, what, in, 16, tu_target(), "update after final");
            bad_final(ctx, what, tu_target(), "operation already finalised");

            /* A re-init starts a new message: allowed again. */
            TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, sm4_iv, -1, NULL)
                     && EVP_CipherUpdate(ctx, out, &outl, in, 16),
                     "%s: re-init did not reopen the context", what);
            EVP_CIPHER_CTX_free(ctx);
            EVP_CIPHER_free(c);
        }
    }
}

/* Encrypts one block with padding off (ECB/CBC). */
static void encrypt_block(const char *name, const unsigned char pt[16],
                          unsigned char ct[16])
{
    EVP_CIPHER_CTX *ctx = sm4_keyed(name, 1);
    int outl = 0, outl2 = 0;

    TU_CHECK(EVP_CIPHER_CTX_set_padding(ctx, 0)
             && EVP_EncryptUpdate(ctx, ct, &outl, pt, 16)
             && EVP_EncryptFinal_ex(ctx, ct + outl, &outl2)
             && outl + outl2 == 16, "%s: encrypt one block", name);
    EVP_CIPHER_CTX_free(ctx);
}

static void group_final(void)
{
    unsigned char in[48] = { 0 }, out[80], ct[16];
    size_t m, i, lens[] = { 1, 15, 17, 31, 47 };
    int enc, pad, outl;
    char what[96];
    /* Last plaintext blocks whose PKCS#7 padding is malformed. */
    static const struct { unsigned char last, prev; } bad_pads[] = {
        { 0x00, 0x00 },         /* pad length 0 */
        { 0x11, 0x11 },         /* longer than a block */
        { 0xff, 0xff },
        { 0x02, 0x03 },         /* the byte before disagrees */
        { 0x10, 0x0f },
    };

    for (m = 0; m < 2; m++) {
        for (enc = 0; enc <= 1; enc++) {
            for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
                for (pad = 0; pad <= 1; pad++) {
                    EVP_CIPHER_CTX *ctx;

                    /* With padding, only decryption wants whole blocks. */
                    if (pad && enc)
                        continue;
                    ctx = sm4_keyed(sm4_names[m], enc);
                    snprintf(what, sizeof(what),
                             "%s %s of %zu bytes, padding %s", sm4_names[m],
                             enc ? "encrypt" : "decrypt", lens[i],
                             pad ? "on" : "off");
                    TU_CHECK(EVP_CIPHER_CTX_set_padding(ctx, pad)
                             && EVP_CipherUpdate(ctx, out, &outl, in,
                                                 (int)lens[i]),
                             "%s: update", what);
                    bad_final(ctx, what, TU_LIB_PROV,
                              "wrong final block length");
                    EVP_CIPHER_CTX_free(ctx);
                }
            }
        }
        for (i = 0; i < sizeof(bad_pads) / sizeof(bad_pads[0]); i++) {
            unsigned char pt[16];
            EVP_CIPHER_CTX *ctx;

            memset(pt, 0x41, sizeof(pt));
            pt[15] = bad_pads[i].last;
            pt[14] = bad_pads[i].prev;
            encrypt_block(sm4_names[m], pt, ct);
            ctx = sm4_keyed(sm4_names[m], 0);
            snprintf(what, sizeof(what), "%s decrypt, last bytes %02x %02x",
                     sm4_names[m], pt[14], pt[15]);
            outl = -1;
            TU_CHECK(EVP_DecryptUpdate(ctx, out, &outl, ct, 16) && outl == 0,
                     "%s: update gave %d bytes", what, outl);
            bad_final(ctx, what, TU_LIB_PROV, "bad decrypt");
            EVP_CIPHER_CTX_free(ctx);
        }
    }
}

/*
 * The provider's own cipher functions for an algorithm, as the core sees
 * them, with a context of its own.
 */
static int sm4_raw_get(const char *name, TU_RAW_CIPHER *r)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    int found = tu_raw_cipher(c, name, r);

    EVP_CIPHER_free(c);
    return TU_CHECK(found && r->newctx && r->freectx && r->einit && r->dinit
                    && r->update && r->final, "%s: dispatch functions", name);
}

/* A raw context keyed through the provider's init, or NULL. */
static void *raw_keyed(const TU_RAW_CIPHER *r, int enc, int pad)
{
    void *ctx = r->newctx(r->provctx);
    unsigned int p = (unsigned int)pad;
    OSSL_PARAM params[2];

    params[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &p);
    params[1] = OSSL_PARAM_construct_end();
    int ok = ctx != NULL
             && (enc ? r->einit : r->dinit)(ctx, sm4_key, 16, sm4_iv, 16,
                                        params);

    if (!TU_CHECK(ok, "raw init failed") && ctx != NULL) {
        r->freectx(ctx);
        ctx = NULL;
    }
    return ctx;
}

static void group_outsize(void)
{
    unsigned char in[64] = { 0 }, out[64];
    size_t m, outl;
    int enc;
    char what[80];

    for (m = 0; m < NMODES; m++) {
        TU_RAW_CIPHER r;
        int stream = m >= 2;

        if (!sm4_raw_get(sm4_names[m], &r))
            continue;
        /* Raw init with wrong lengths, as EVP never sends them. */
        {
            void *ctx = r.newctx(r.provctx);

            ERR_clear_error();
            TU_CHECK(ctx != NULL
                     && !r.einit(ctx, sm4_key, 15, sm4_iv, 16, NULL),
                     "%s: 15-byte key accepted", sm4_names[m]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid key length");
            if (stream || m == 1) {
                TU_CHECK(ctx != NULL
                         && !r.dinit(ctx, sm4_key, 16, sm4_iv, 8, NULL),
                         "%s: 8-byte IV accepted", sm4_names[m]);
                TU_CHECK_ERR(TU_LIB_PROV, "invalid iv length");
            }
            /* Never initialised at all. */
            outl = 0;
            TU_CHECK(ctx != NULL
                     && !r.update(ctx, out, &outl, sizeof(out), in, 16),
                     "%s: update of a fresh context accepted", sm4_names[m]);
            TU_CHECK_ERR(tu_target(), "operation not initialised");
            TU_CHECK(outl == 0, "%s: fresh update reported %zu bytes",
                     sm4_names[m], outl);
            if (ctx != NULL)
                r.freectx(ctx);
        }
        for (enc = 0; enc <= 1; enc++) {
            void *ctx = raw_keyed(&r, enc, 0);

            if (ctx == NULL)
                continue;
            snprintf(what, sizeof(what), "%s %s", sm4_names[m],
                     enc ? "encrypt" : "decrypt");
            /* 32 bytes of output due, room for 31 (or for 16 after 15). */
            outl = 0;
            ERR_clear_error();
            TU_CHECK(!r.update(ctx, out, &outl, 31, in, 32),
                     "%s: update into 31 bytes accepted", what);
            TU_CHECK_ERR(TU_LIB_PROV, "output buffer too small");
            TU_CHECK(outl == 0, "%s: reported %zu bytes", what, outl);
            if (stream) {
                outl = 0;
                TU_CHECK(!r.update(ctx, out, &outl, 0, in, 1),
                         "%s: 1 byte into no room accepted", what);
                TU_CHECK_ERR(TU_LIB_PROV, "output buffer too small");
                TU_CHECK(outl == 0, "%s: reported %zu bytes", what, outl);
            }
            if (r.cipher != NULL) {
                outl = 0;
                TU_CHECK(!r.cipher(ctx, out, &outl, 16, in, 32),
                         "%s: cipher of 32 bytes into 16 accepted", what);
                TU_CHECK_ERR(TU_LIB_PROV, "output buffer too small");
                TU_CHECK(outl == 0, "%s: cipher reported %zu bytes", what,
                         outl);
            }
            r.freectx(ctx);
        }
        /* Final with padding owes a whole block. */
        if (!stream) {
            void *ctx = raw_keyed(&r, 1, 1);

            outl = 0;
            ERR_clear_error();
            TU_CHECK(ctx != NULL && r.update(ctx, out, &outl, sizeof(out), in,
                                             5) && outl == 0,
                     "%s: buffering 5 bytes", sm4_names[m]);
            TU_CHECK(ctx != NULL && !r.final(ctx, out, &outl, 15),
                     "%s: padded final into 15 bytes accepted", sm4_names[m]);
            TU_CHECK_ERR(TU_LIB_PROV, "output buffer too small");
            TU_CHECK(outl == 0, "%s: final reported %zu bytes", sm4_names[m],
                     outl);
            if (ctx != NULL)
                r.freectx(ctx);
        }
    }
}

/*
 * A negative length through EVP must fail and report no output.  libcrypto
 * 3.0.22 refuses it itself (EVP "invalid length"); older 3.0 releases hand
 * it to the provider as a size_t near SIZE_MAX, which must refuse it then.
 */
static void evp_bad_length(EVP_CIPHER_CTX *ctx, const char *what,
                           const unsigned char *in, int inl)
{
    unsigned char out[64];
    int outl = -1, found = 0;
    unsigned long e;
    const char *lib, *rs;

    ERR_clear_error();
    TU_CHECK(!EVP_CipherUpdate(ctx, out, &outl, in, inl),
             "%s: update accepted", what);
    while ((e = ERR_get_error()) != 0) {
        lib = ERR_lib_error_string(e);
        rs = ERR_reason_error_string(e);
        if (lib == NULL || rs == NULL)
            continue;
        found |= (ERR_GET_LIB(e) == ERR_LIB_EVP
                  && ERR_GET_REASON(e) == EVP_R_INVALID_LENGTH)
                 || (strcmp(lib, tu_target()) == 0
                     && strcmp(rs, "length too large") == 0)
                 || (ERR_GET_LIB(e) == ERR_LIB_PROV
                     && ERR_GET_REASON(e) == PROV_R_OUTPUT_BUFFER_TOO_SMALL);
    }
    TU_CHECK(found, "%s: neither EVP nor %s said the length is wrong", what,
             tu_target());
    TU_CHECK(outl <= 0, "%s: update reported %d bytes", what, outl);
}

/* One raw call with an impossible length; see group_lengths. */
struct huge_case {
    const TU_RAW_CIPHER *r;
    const char *name;
    int block_mode, enc, buffered, oneshot;
    size_t len;
};

static void huge_call(const struct huge_case *h)
{
    unsigned char in[64] = { 0 }, out[64];
    void *ctx = raw_keyed(h->r, h->enc, 1);
    size_t outl = 0;

    if (ctx == NULL)
        return;
    if (h->buffered)
        TU_CHECK(h->r->update(ctx, out, &outl, sizeof(out), in, 5),
                 "%s: first update", h->name);
    outl = 0;
    ERR_clear_error();
    /* An output size to match: only the length is wrong. */
    TU_CHECK(!(h->oneshot ? h->r->cipher : h->r->update)(ctx, out, &outl,
                                                          SIZE_MAX, in,
                                                          h->len),
             "%s: %s of %zu bytes accepted", h->name,
             h->oneshot ? "cipher" : "update", h->len);
    /* One-shot ECB/CBC may first see that the length is not whole blocks. */
    TU_CHECK_ERR(tu_target(), h->block_mode && h->oneshot && h->len % 16 != 0
                 ? "length too large|input not a multiple of the block length"
                 : "length too large");
    TU_CHECK(outl == 0, "%s: reported %zu bytes", h->name, outl);
    h->r->freectx(ctx);
}

/*
 * Lengths no buffer can have: through EVP as negative ints, and straight to
 * the provider as sizes near SIZE_MAX (beyond any object C allows), which it
 * must refuse before touching memory.  A provider that goes ahead crashes
 * this program or, under qemu-user, may run on: 50-bad-input.t bounds it.
 */
static void group_lengths(void)
{
    static const int neg[] = { -1, -15, -16, -17, -20, -4096, INT_MIN };
    static const size_t huge[] = { SIZE_MAX, SIZE_MAX - 15, SIZE_MAX - 16,
                                   SIZE_MAX - 17, SIZE_MAX / 2 + 1 };
    unsigned char in[64] = { 0 }, out[64];
    size_t m, i;
    int enc, outl, buffered, oneshot;
    char what[96];

    for (m = 0; m < NMODES; m++) {
        TU_RAW_CIPHER r;

        for (enc = 0; enc <= 1; enc++) {
            for (buffered = 0; buffered <= 1; buffered++) {
                for (i = 0; i < sizeof(neg) / sizeof(neg[0]); i++) {
                    EVP_CIPHER_CTX *ctx = sm4_keyed(sm4_names[m], enc);

                    snprintf(what, sizeof(what), "%s %s, length %d after %d "
                             "bytes", sm4_names[m], enc ? "encrypt"
                             : "decrypt", neg[i], buffered ? 5 : 0);
                    if (buffered)
                        TU_CHECK(EVP_CipherUpdate(ctx, out, &outl, in, 5),
                                 "%s: first update", what);
                    evp_bad_length(ctx, what, in, neg[i]);
                    EVP_CIPHER_CTX_free(ctx);
                }
            }
        }
        if (!sm4_raw_get(sm4_names[m], &r))
            continue;
        for (enc = 0; enc <= 1; enc++)
            for (buffered = 0; buffered <= 1; buffered++)
                for (oneshot = 0; oneshot <= (r.cipher != NULL); oneshot++)
                    for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
                        struct huge_case h = { &r, sm4_names[m], m < 2, enc,
                                               buffered, oneshot, huge[i] };

                        if (!(oneshot && buffered))
                            huge_call(&h);
                    }
    }
}

/*
 * libcrypto 3.2 and later refuse an update or a final after final in EVP
 * itself ("update error", "final error") and never call the provider; 3.0
 * and 3.1 pass the call on, and the provider must refuse it.
 */
static int evp_refuses_after_final(void)
{
    return OPENSSL_version_major() > 3 || OPENSSL_version_minor() >= 2;
}

/* True if n bytes at p all hold the fill byte f (nothing was written). */
static int untouched(const unsigned char *p, size_t n, unsigned char f)
{
    while (n-- > 0)
        if (*p++ != f)
            return 0;
    return 1;
}

/*
 * Digest misuse of digest name (size bytes out): update and final after
 * final through EVP, then straight at the provider final without init,
 * final into too small a buffer, update and final after final.
 */
static void digest_misuse(const char *name, size_t size)
{
    EVP_MD *md = EVP_MD_fetch(libctx, name, tu_target_propq());
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int evp_first = evp_refuses_after_final();
    const char *who = evp_first ? "digital envelope routines" : tu_target();
    unsigned char out[64];
    unsigned int outl = 0;
    TU_RAW_MD r;
    void *rctx = NULL;
    size_t routl;

    if (!TU_CHECK(md != NULL && ctx != NULL, "fetch %s", name))
        goto end;
    TU_CHECK(EVP_DigestInit_ex2(ctx, md, NULL)
             && EVP_DigestUpdate(ctx, "abc", 3)
             && EVP_DigestFinal_ex(ctx, out, &outl), "%s digest", name);
    ERR_clear_error();
    TU_CHECK(!EVP_DigestUpdate(ctx, "abc", 3), "%s update after final "
             "accepted", name);
    TU_CHECK_ERR(who, evp_first ? "update error"
                 : "update after final|operation already finalised");
    outl = 0;
    memset(out, 0xa5, sizeof(out));
    TU_CHECK(!EVP_DigestFinal_ex(ctx, out, &outl), "%s final twice "
             "accepted", name);
    TU_CHECK_ERR(who, evp_first ? "final error"
                 : "operation already finalised");
    TU_CHECK(outl == 0 && untouched(out, sizeof(out), 0xa5),
             "%s second final reported %u bytes or wrote some", name, outl);
    TU_CHECK(EVP_DigestInit_ex2(ctx, NULL, NULL)
             && EVP_DigestUpdate(ctx, "abc", 3), "%s re-init", name);

    /* The same misuse straight at the provider, on every libcrypto. */
    if (!TU_CHECK(tu_raw_md(md, name, &r), "%s: dispatch functions", name))
        goto end;
    rctx = r.newctx(r.provctx);
    if (!TU_CHECK(rctx != NULL, "raw %s newctx", name))
        goto end;
    routl = 1;
    memset(out, 0xa5, sizeof(out));
    ERR_clear_error();
    TU_CHECK(!r.final(rctx, out, &routl, size), "raw %s final without init "
             "accepted", name);
    TU_CHECK_ERR(tu_target(), "operation not initialised");
    TU_CHECK(routl == 0 && untouched(out, sizeof(out), 0xa5),
             "raw %s final without init reported %zu bytes or wrote some",
             name, routl);
    ERR_clear_error();
    TU_CHECK(!r.update(rctx, (const unsigned char *)"abc", 3),
             "raw %s update without init accepted", name);
    TU_CHECK_ERR(tu_target(), "operation not initialised");
    if (!TU_CHECK(r.init(rctx, NULL)
                  && r.update(rctx, (const unsigned char *)"abc", 3),
                  "raw %s init and update", name))
        goto end;
    routl = 1;
    memset(out, 0xa5, sizeof(out));
    ERR_clear_error();
    TU_CHECK(!r.final(rctx, out, &routl, size - 1),
             "raw %s final into %zu bytes accepted", name, size - 1);
    /* Nothing queued, as by the default provider's digests. */
    TU_CHECK_NO_ERR("raw final into too small a buffer");
    TU_CHECK(routl == 0 && untouched(out, sizeof(out), 0xa5),
             "raw %s final into %zu bytes reported %zu bytes or wrote some",
             name, size - 1, routl);
    TU_CHECK(r.final(rctx, out, &routl, size) && routl == size,
             "raw %s final", name);
    ERR_clear_error();
    TU_CHECK(!r.update(rctx, (const unsigned char *)"abc", 3),
             "raw %s update after final accepted", name);
    TU_CHECK_ERR(tu_target(), "update after final|operation already finalised");
    routl = 1;
    memset(out, 0xa5, sizeof(out));
    TU_CHECK(!r.final(rctx, out, &routl, size),
             "raw %s final twice accepted", name);
    TU_CHECK_ERR(tu_target(), "operation already finalised");
    TU_CHECK(routl == 0 && untouched(out, sizeof(out), 0xa5),
             "raw %s second final reported %zu bytes or wrote some", name,
             routl);
 end:
    if (rctx != NULL)
        r.freectx(rctx);
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
}

static void group_sm3(void)
{
    digest_misuse("SM3", 32);
}

/* ------------------------------------------------------------- Streebog */

static void group_streebog(void)
{
    digest_misuse("md_gost12_256", 32);
    digest_misuse("md_gost12_512", 64);
}

/* ---------------------------------------------------- GOST 28147-89, Magma */

static const char *const gost89_names[] = {
    "gost89", "gost89-cnt", "gost89-cnt-12", "gost89-cbc", "gost89-ecb"
};
/* with Kuznyechik's, which share the GOST conventions but have no sets */
static const char *const all_names[] = {
    "gost89", "gost89-cnt", "gost89-cnt-12", "gost89-cbc", "gost89-ecb",
    "magma-ecb", "magma-cbc", "magma-ctr", "magma-ofb", "magma-cfb",
    "magma-ctr-acpkm", "kuznyechik-ecb", "kuznyechik-cbc", "kuznyechik-cfb",
    "kuznyechik-ofb", "kuznyechik-ctr", "kuznyechik-ctr-acpkm"
};
/* The IMIT MACs, which take a parameter set, and every GOST MAC. */
static const char *const mac_names[] = { "gost-mac", "gost-mac-12" };
static const char *const all_mac_names[] = {
    "gost-mac", "gost-mac-12", "magma-mac", "magma-ctr-acpkm-omac",
    "kuznyechik-mac", "kuznyechik-ctr-acpkm-omac"
};

static const unsigned char gost89_key[] = "0123456789abcdef0123456789abcdef";
/* 8 bytes for GOST 28147-89 and Magma, 16 for Kuznyechik */
static const unsigned char gost89_iv[] = "fedcba9876543210";
/* whole blocks of 8 and of 16 bytes */
static const unsigned char msg[48] =
    "a message of forty-eight bytes for the tests..";

static int is_kuznyechik(const char *name)
{
    return strncmp(name, "kuznyechik-", 11) == 0;
}

static int ivlen_of(const char *name)
{
    if (strstr(name, "-ecb") != NULL)
        return 0;
    if (is_kuznyechik(name))
        return strstr(name, "-ctr") != NULL ? 8 : 16;
    return strncmp(name, "magma-ctr", 9) == 0 ? 4 : 8;
}

/* Whether an IV of ivlen bytes is a GOST R 34.13-2015 register of name's. */
static int register_len(const char *name, size_t ivlen)
{
    size_t bs = is_kuznyechik(name) ? 16 : 8;

    return strncmp(name, "gost89", 6) != 0
           && (strstr(name, "-cbc") != NULL || strstr(name, "-ofb") != NULL
               || strstr(name, "-cfb") != NULL)
           && ivlen % bs == 0 && ivlen >= bs && ivlen <= 4 * bs;
}

/* The longest MAC of name: its block. */
static size_t mac_max_size(const char *name)
{
    return is_kuznyechik(name) ? 16 : 8;
}

/* gost89_iv for a cipher that takes an IV, else NULL. */
static const unsigned char *iv_of(const char *name)
{
    return ivlen_of(name) != 0 ? gost89_iv : NULL;
}

/* A context of cipher name, keyed for encryption, padding off. */
static EVP_CIPHER_CTX *gost89_keyed(const char *name)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

    if (!TU_CHECK(ctx != NULL && EVP_EncryptInit_ex2(ctx, c, gost89_key,
                                                     iv_of(name), NULL)
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
    EVP_CIPHER_CTX *ctx = gost89_keyed(name);
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
    ok = TU_CHECK(!EVP_EncryptInit_ex2(ctx, c, gost89_key,
                                       iv_of(name), params),
                  "%s: %s accepted in the init call", name, what);
    ok &= TU_CHECK_ERR(lib, reason);
    if (!ok)
        fprintf(stderr, "  (%s, %s in init)\n", name, what);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);

    ctx = gost89_keyed(name);
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
            TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, gost89_key, 32, p),
                     "%s: paramset \"%s\" accepted in init", mac_names[i],
                     bad[j]);
            TU_CHECK_ERR(tu_target(), "unknown parameter set");
            TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, gost89_key, 32, NULL)
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
    ctx = gost89_keyed(name);
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

/* ACPKM sections that are none: 0, not a multiple of the block bs. */
static size_t acpkm_bad_sections[] = { 0, 4, 12, 24, 1020, 4100 };

/*
 * A CTR-ACPKM cipher's bad sections, in the init and after it, and a
 * section changed in mid-message: refused, the message going on as before.
 */
static void acpkm_keymesh(const char *name, size_t bs)
{
    EVP_CIPHER_CTX *ctx;
    unsigned char exp[sizeof(msg)], out[sizeof(msg) + 8];
    size_t i, other = 2 * bs;
    OSSL_PARAM p[2];
    int l1 = 0, l2 = 0;

    for (i = 0; i < NELEM(acpkm_bad_sections); i++)
        if (acpkm_bad_sections[i] % bs != 0 || acpkm_bad_sections[i] == 0)
            bad_cipher_param(name,
                             OSSL_PARAM_construct_size_t(
                                 "key-mesh", &acpkm_bad_sections[i]),
                             tu_target(), "invalid key meshing period",
                             "an ACPKM section that is none");
    bad_cipher_param(name, OSSL_PARAM_construct_utf8_string(
                               "key-mesh", (char *)"1024", 0),
                     TU_LIB_PROV, "failed to get parameter",
                     "key-mesh as a string");
    baseline(name, exp);
    ctx = gost89_keyed(name);
    p[0] = OSSL_PARAM_construct_size_t("key-mesh", &other);
    p[1] = OSSL_PARAM_construct_end();
    TU_CHECK(EVP_EncryptUpdate(ctx, out, &l1, msg, 3) && l1 == 3,
             "%s: the message's start", name);
    ERR_clear_error();
    TU_CHECK(!EVP_CIPHER_CTX_set_params(ctx, p),
             "%s: key-mesh changed in mid-message", name);
    TU_CHECK_ERR(tu_target(), "invalid key meshing period");
    TU_CHECK(EVP_EncryptUpdate(ctx, out + 3, &l1, msg + 3, sizeof(msg) - 3)
             && EVP_EncryptFinal_ex(ctx, out + sizeof(msg), &l2),
             "%s: the rest", name);
    TU_CHECK_MEM("ACPKM after key-mesh refused mid-message", out,
                 sizeof(msg), exp, sizeof(msg));
    EVP_CIPHER_CTX_free(ctx);
}

/* OMAC-ACPKM's N and T that are none, in the init call and after it. */
static void omac_acpkm_keymesh(const char *name, size_t bs)
{
    static const char *const keys[] = { "key-mesh", "cipher-key-mesh" };
    EVP_MAC *m = EVP_MAC_fetch(libctx, name, tu_target_propq());
    size_t i, k;

    for (k = 0; k < NELEM(keys); k++) {
        for (i = 0; i < NELEM(acpkm_bad_sections); i++) {
            EVP_MAC_CTX *ctx;
            OSSL_PARAM p[2];

            if (acpkm_bad_sections[i] % bs == 0 && acpkm_bad_sections[i] != 0)
                continue;
            ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
            p[0] = OSSL_PARAM_construct_size_t(keys[k],
                                               &acpkm_bad_sections[i]);
            p[1] = OSSL_PARAM_construct_end();
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, gost89_key, 32, p),
                     "%s: %s %zu accepted in init", name, keys[k],
                     acpkm_bad_sections[i]);
            TU_CHECK_ERR(tu_target(), "invalid key meshing period");
            TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, gost89_key, 32, NULL)
                     && !EVP_MAC_CTX_set_params(ctx, p),
                     "%s: %s %zu accepted after init", name, keys[k],
                     acpkm_bad_sections[i]);
            TU_CHECK_ERR(tu_target(), "invalid key meshing period");
            EVP_MAC_CTX_free(ctx);
        }
    }
    EVP_MAC_free(m);
}

static void run_keymesh(void)
{
    static const char *const block_modes[] = { "gost89-cbc", "gost89-ecb" };
    static size_t values[] = { 1, 1024, 4096, (size_t)-1 };
    size_t i, j;

    for (i = 0; i < NELEM(block_modes); i++) {
        EVP_CIPHER_CTX *ctx = gost89_keyed(block_modes[i]);
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
    acpkm_keymesh("magma-ctr-acpkm", 8);
    acpkm_keymesh("kuznyechik-ctr-acpkm", 16);
    omac_acpkm_keymesh("magma-ctr-acpkm-omac", 8);
    omac_acpkm_keymesh("kuznyechik-ctr-acpkm-omac", 16);
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
    ctx = gost89_keyed("gost89");
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

/* null_input (above) for every GOST cipher and MGM */
static void run_null(void)
{
    static const char *const aead_names[] = {
        "kuznyechik-mgm", "magma-mgm", "kuznyechik-ctr-acpkm-omac",
        "magma-ctr-acpkm-omac"
    };
    size_t i;

    for (i = 0; i < NELEM(all_names); i++)
        null_input(all_names[i], gost89_key, iv_of(all_names[i]));
    for (i = 0; i < NELEM(aead_names); i++)
        null_input(aead_names[i], gost89_key, gost89_iv);
}

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
                                           iv_of(all_names[i]),
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
    for (i = 0; i < NELEM(all_mac_names); i++) {
        const char *const *mac_names = all_mac_names;
        EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i], tu_target_propq());
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
        unsigned char out[16];
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

/* The provider's functions for cipher name. */
static void gost89_raw_get(const char *name, TU_RAW_CIPHER *r)
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
    const unsigned char *v = iv_of(name);
    unsigned char ct[16], out[32];
    int bs = is_kuznyechik(name) ? 16 : 8, l, l2, pad;

    for (pad = 0; pad <= 1; pad++) {
        /* 12 bytes to decrypt: no whole last block */
        ERR_clear_error();
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, gost89_key, v, NULL)
                 && EVP_CIPHER_CTX_set_padding(ctx, pad)
                 && EVP_DecryptUpdate(ctx, out, &l, msg, 12)
                 && !EVP_DecryptFinal_ex(ctx, out, &l2),
                 "%s: decrypting 12 bytes, padding %d, accepted", name, pad);
        TU_CHECK_ERR(TU_LIB_EVP, pad ? "wrong final block length"
                                     : "data not multiple of block length");
    }
    /* 12 bytes to encrypt without padding */
    ERR_clear_error();
    TU_CHECK(EVP_EncryptInit_ex2(ctx, c, gost89_key, v, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 0)
             && EVP_EncryptUpdate(ctx, out, &l, msg, 12)
             && !EVP_EncryptFinal_ex(ctx, out, &l2),
             "%s: encrypting 12 bytes without padding accepted", name);
    TU_CHECK_ERR(TU_LIB_EVP, "data not multiple of block length");
    /* A block of zeros encrypted: its padding byte 0 is never valid. */
    ERR_clear_error();
    memset(out, 0, sizeof(out));
    TU_CHECK(EVP_EncryptInit_ex2(ctx, c, gost89_key, v, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 0)
             && EVP_EncryptUpdate(ctx, ct, &l, out, bs) && l == bs
             && EVP_DecryptInit_ex2(ctx, c, gost89_key, v, NULL)
             && EVP_CIPHER_CTX_set_padding(ctx, 1)
             && EVP_DecryptUpdate(ctx, out, &l, ct, bs)
             && !EVP_DecryptFinal_ex(ctx, out, &l2),
             "%s: bad padding accepted", name);
    TU_CHECK_ERR(TU_LIB_EVP, "bad decrypt");
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

static void run_lengths(void)
{
    static const size_t keylens[] = { 0, 16, 31, 33, 64 };
    static const size_t ivlens[] = { 0, 4, 7, 9, 12, 16, 40, 64 };
    unsigned char big[64];
    size_t i, j;

    memset(big, 0x5a, sizeof(big));
    for (i = 0; i < NELEM(all_names); i++) {
        const char *name = all_names[i];
        TU_RAW_CIPHER r;
        void *ctx;

        /* Through EVP: the lengths EVP lets a caller change. */
        for (j = 0; j < NELEM(keylens); j++) {
            EVP_CIPHER_CTX *c = gost89_keyed(name);

            ERR_clear_error();
            TU_CHECK(!EVP_CIPHER_CTX_set_key_length(c, (int)keylens[j]),
                     "%s: key length %zu accepted", name, keylens[j]);
            /* keylen is not settable: EVP refuses it (src/modes.h) */
            TU_CHECK_ERR(TU_LIB_EVP, "invalid key length");
            EVP_CIPHER_CTX_free(c);
        }
        for (j = 0; j < NELEM(ivlens); j++) {
            size_t v = ivlens[j];

            if ((int)v == ivlen_of(name) || register_len(name, v))
                continue;
            bad_cipher_param(name, OSSL_PARAM_construct_size_t("ivlen", &v),
                             TU_LIB_PROV, "invalid iv length",
                             "a wrong ivlen");
        }

        /* The provider's init, with the lengths the core would pass. */
        gost89_raw_get(name, &r);
        for (j = 0; j < NELEM(keylens); j++) {
            ctx = r.newctx(r.provctx);
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !r.einit(ctx, big, keylens[j],
                                            iv_of(name),
                                            (size_t)ivlen_of(name), NULL),
                     "%s: raw init with a %zu-byte key accepted", name,
                     keylens[j]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid key length");
            r.freectx(ctx);
        }
        for (j = 0; j < NELEM(ivlens); j++) {
            if ((int)ivlens[j] == ivlen_of(name) || ivlen_of(name) == 0
                || register_len(name, ivlens[j]))
                continue;
            ctx = r.newctx(r.provctx);
            ERR_clear_error();
            TU_CHECK(ctx != NULL
                     && !r.einit(ctx, gost89_key, 32, big, ivlens[j], NULL),
                     "%s: raw init with a %zu-byte IV accepted", name,
                     ivlens[j]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid iv length");
            r.freectx(ctx);
        }
    }
    for (i = 0; i < NELEM(all_mac_names); i++) {
        const char *const *mac_names = all_mac_names;
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
    bad_final_blocks("kuznyechik-cbc");
    bad_final_blocks("kuznyechik-ecb");
}

/* -------------------------------------------------------------- macsize */

static void run_macsize(void)
{
    static const size_t sizes[] = { 0, 9, 16, 17, 1024, (size_t)-1 };
    const char *const *mac_names = all_mac_names;
    size_t i, j;

    for (i = 0; i < NELEM(all_mac_names); i++) {
        EVP_MAC *m = EVP_MAC_fetch(libctx, mac_names[i], tu_target_propq());
        unsigned char ref[16], out[16];
        size_t refl = 0, outl = 0;
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

        if (!TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, gost89_key, 32, NULL)
                      && EVP_MAC_update(ctx, msg, sizeof(msg))
                      && EVP_MAC_final(ctx, ref, &refl, sizeof(ref)),
                      "%s: reference MAC", mac_names[i]))
            exit(1);
        EVP_MAC_CTX_free(ctx);
        for (j = 0; j < NELEM(sizes); j++) {
            size_t size = sizes[j];
            OSSL_PARAM p[2];

            if (size >= 1 && size <= mac_max_size(mac_names[i]))
                continue;
            p[0] = OSSL_PARAM_construct_size_t("size", &size);
            p[1] = OSSL_PARAM_construct_end();
            ctx = EVP_MAC_CTX_new(m);
            ERR_clear_error();
            TU_CHECK(ctx != NULL && !EVP_MAC_init(ctx, gost89_key, 32, p),
                     "%s: size %zu accepted in init", mac_names[i], size);
            TU_CHECK_ERR(tu_target(), "invalid mac size");
            TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, gost89_key, 32, NULL)
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
    TU_RAW_CIPHER r;
    void *ctx;
    unsigned char der[GOST89_ALG_ID_MAX], out[sizeof(msg) + 8], exp[sizeof(msg)];
    unsigned char got[GOST89_ALG_ID_MAX];
    char setname[80] = "";
    const GOST89_SET *b = gost89_set("CryptoPro-B");
    size_t derlen = gost89_alg_id(b, gost89_iv, der), outl = 0, zero = 0;
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
                  && EVP_EncryptInit_ex2(ref, c, gost89_key,
                                         iv_of(name), p)
                  && EVP_CIPHER_CTX_set_padding(ref, 0)
                  && EVP_EncryptUpdate(ref, exp, &l1, msg, sizeof(msg))
                  && EVP_EncryptFinal_ex(ref, exp + l1, &l2),
                  "%s: reference for the early cases", name))
        exit(1);
    EVP_CIPHER_CTX_free(ref);
    EVP_CIPHER_free(c);

    gost89_raw_get(name, &r);
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
        && TU_CHECK(r.einit(ctx, gost89_key, 32, NULL, 0, NULL),
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
                 && r.einit(ctx, gost89_key, 32, iv_of(name),
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
                     && EVP_EncryptInit_ex2(ctx, c, gost89_key,
                                            iv_of(name), p)
                     && EVP_CIPHER_CTX_set_padding(ctx, 0)
                     && EVP_EncryptUpdate(ctx, exp, &l1, msg, sizeof(msg))
                     && EVP_EncryptInit_ex2(ctx, c, NULL, NULL, p)
                     && EVP_EncryptInit_ex2(ctx, NULL, gost89_key,
                                            iv_of(name), NULL)
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
        TU_CHECK(EVP_MAC_init(ctx, gost89_key, 32, NULL)
                 && EVP_MAC_update(ctx, msg, sizeof(msg))
                 && EVP_MAC_final(ctx, out, &ol, sizeof(out)),
                 "%s: MAC after early parameters", mac_names[i]);
        EVP_MAC_CTX_free(ctx);
        ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
        TU_CHECK(ctx != NULL && EVP_MAC_init(ctx, gost89_key, 32, p)
                 && EVP_MAC_update(ctx, msg, sizeof(msg))
                 && EVP_MAC_final(ctx, exp, &el, sizeof(exp)),
                 "%s: MAC with the parameters in init", mac_names[i]);
        TU_CHECK_MEM("MAC parameters before init", out, ol, exp, el);
        ERR_clear_error();
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(m);
    }
}

/* md_gost94 (GOST R 34.11-94): the digest misuse of SM3's group. */
static void run_gost94(void)
{
    digest_misuse("md_gost94", 32);
}

/* ------------------------------------------------------------ families */

int main(int argc, char **argv)
{
    static const TU_GROUP sm_groups[] = {
        { "keyiv", group_keyiv }, { "params", group_params },
        { "state", group_state }, { "final", group_final },
        { "outsize", group_outsize }, { "lengths", group_lengths },
        { "sm3", group_sm3 }, { "null", group_null },
    };
    static const TU_GROUP gost89_groups[] = {
        { "paramset", run_paramset }, { "algid", run_algid },
        { "keymesh", run_keymesh }, { "num", run_num },
        { "nokey", run_nokey }, { "lengths", run_lengths },
        { "macsize", run_macsize }, { "early", run_early },
        { "gost94", run_gost94 }, { "null", run_null },
    };
    static const TU_GROUP streebog_groups[] = {
        { "digest", group_streebog },
    };
    static const TU_FAMILY families[] = {
        { "sm", sm_groups, NELEM(sm_groups) },
        { "gost89", gost89_groups, NELEM(gost89_groups) },
        { "streebog", streebog_groups, NELEM(streebog_groups) },
    };

    return tu_main_families(argc, argv, families, NELEM(families), &libctx,
                            NULL);
}
