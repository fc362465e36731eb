/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Misuse of smgost's SM4 and SM3 through EVP: every call must fail, leave
 * its reason on the error queue (the default provider's for the failures
 * the two share, test/err_compare.c compares them; smgost's own for the
 * rest) and report no output.
 *
 * Groups (argument 1):
 *   keyiv    wrong key and IV lengths, through the parameters EVP sets
 *   params   parameter values of the wrong type or out of range
 *   state    update before a key, update/final after final
 *   final    partial final blocks with padding off, corrupt padding
 *   outsize  output buffers too small for update, final and cipher
 *   lengths  input lengths near SIZE_MAX
 *   sm3      digest misuse, through EVP (where libcrypto 3.2 and later
 *            refuse first, with their own reason) and straight at smgost
 *
 * Most cases use EVP as applications do.  EVP always offers the provider
 * enough output room and the cipher's own key and IV lengths, so the
 * output-size and raw-length cases call the provider's dispatch functions,
 * found with OSSL_PROVIDER_query_operation() as the core finds them.
 */
#include "testutil.h"

#include <limits.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

static OSSL_LIB_CTX *libctx;

static const char *const sm4_names[] = {
    "SM4-ECB", "SM4-CBC", "SM4-OFB", "SM4-CFB", "SM4-CTR"
};
#define NMODES (sizeof(sm4_names) / sizeof(sm4_names[0]))

static const unsigned char key[] = "0123456789abcdef";
static const unsigned char iv[] = "fedcba9876543210";

/* A context of cipher name, keyed for encryption (enc) or decryption. */
static EVP_CIPHER_CTX *keyed(const char *name, int enc)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

    if (!TU_CHECK(ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, iv, enc,
                                                    NULL), "init %s", name)) {
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
    EVP_CIPHER_CTX *ctx = keyed(name, 1);
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
        EVP_CIPHER_CTX *ctx = keyed(sm4_names[m], 1);
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
            if (!TU_CHECK(ctx != NULL && EVP_CipherInit_ex2(ctx, c, NULL, iv,
                                                            enc, NULL),
                          "%s: init", what))
                exit(1);
            bad_update(ctx, what, in, 16, TU_LIB_PROV, "no key set");
            bad_final(ctx, what, TU_LIB_PROV, "no key set");

            /* Keyed, one message finished. */
            snprintf(what, sizeof(what), "%s %s after final", sm4_names[m],
                     enc ? "encrypt" : "decrypt");
            TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL)
                     && EVP_CIPHER_CTX_set_padding(ctx, 0)
                     && EVP_CipherUpdate(ctx, out, &outl, in, 32)
                     && EVP_CipherFinal_ex(ctx, out, &outl), "%s: setup",
                     what);
            /* The default provider goes ahead: smgost's own reasons. */
            bad_update(ctx, what, in, 16, tu_target(), "update after final");
            bad_final(ctx, what, tu_target(), "operation already finalised");

            /* A re-init starts a new message: allowed again. */
            TU_CHECK(EVP_CipherInit_ex2(ctx, NULL, NULL, iv, -1, NULL)
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
    EVP_CIPHER_CTX *ctx = keyed(name, 1);
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
                    ctx = keyed(sm4_names[m], enc);
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
            ctx = keyed(sm4_names[m], 0);
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
typedef TU_RAW_CIPHER RAW;

static int raw_get(const char *name, RAW *r)
{
    EVP_CIPHER *c = tu_fetch_cipher_or_die(libctx, name, tu_target_propq());
    int found = tu_raw_cipher(c, name, r);

    EVP_CIPHER_free(c);
    return TU_CHECK(found && r->newctx && r->freectx && r->einit && r->dinit
                    && r->update && r->final, "%s: dispatch functions", name);
}

/* A raw context keyed through the provider's init, or NULL. */
static void *raw_keyed(const RAW *r, int enc, int pad)
{
    void *ctx = r->newctx(r->provctx);
    unsigned int p = (unsigned int)pad;
    OSSL_PARAM params[2];

    params[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &p);
    params[1] = OSSL_PARAM_construct_end();
    int ok = ctx != NULL
             && (enc ? r->einit : r->dinit)(ctx, key, 16, iv, 16, params);

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
        RAW r;
        int stream = m >= 2;

        if (!raw_get(sm4_names[m], &r))
            continue;
        /* Raw init with wrong lengths, as EVP never sends them. */
        {
            void *ctx = r.newctx(r.provctx);

            ERR_clear_error();
            TU_CHECK(ctx != NULL && !r.einit(ctx, key, 15, iv, 16, NULL),
                     "%s: 15-byte key accepted", sm4_names[m]);
            TU_CHECK_ERR(TU_LIB_PROV, "invalid key length");
            if (stream || m == 1) {
                TU_CHECK(ctx != NULL && !r.dinit(ctx, key, 16, iv, 8, NULL),
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
    const RAW *r;
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
        RAW r;

        for (enc = 0; enc <= 1; enc++) {
            for (buffered = 0; buffered <= 1; buffered++) {
                for (i = 0; i < sizeof(neg) / sizeof(neg[0]); i++) {
                    EVP_CIPHER_CTX *ctx = keyed(sm4_names[m], enc);

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
        if (!raw_get(sm4_names[m], &r))
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

static void group_sm3(void)
{
    EVP_MD *md = EVP_MD_fetch(libctx, "SM3", tu_target_propq());
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int evp_first = evp_refuses_after_final();
    const char *who = evp_first ? "digital envelope routines" : tu_target();
    unsigned char out[32];
    unsigned int outl = 0;
    TU_RAW_MD r;
    void *rctx = NULL;
    size_t routl;

    if (!TU_CHECK(md != NULL && ctx != NULL, "fetch SM3"))
        goto end;
    TU_CHECK(EVP_DigestInit_ex2(ctx, md, NULL)
             && EVP_DigestUpdate(ctx, "abc", 3)
             && EVP_DigestFinal_ex(ctx, out, &outl), "SM3 digest");
    ERR_clear_error();
    TU_CHECK(!EVP_DigestUpdate(ctx, "abc", 3), "SM3 update after final "
             "accepted");
    TU_CHECK_ERR(who, evp_first ? "update error"
                 : "update after final|operation already finalised");
    outl = 0;
    memset(out, 0xa5, sizeof(out));
    TU_CHECK(!EVP_DigestFinal_ex(ctx, out, &outl), "SM3 final twice "
             "accepted");
    TU_CHECK_ERR(who, evp_first ? "final error"
                 : "operation already finalised");
    TU_CHECK(outl == 0 && untouched(out, sizeof(out), 0xa5),
             "SM3 second final reported %u bytes or wrote some", outl);
    TU_CHECK(EVP_DigestInit_ex2(ctx, NULL, NULL)
             && EVP_DigestUpdate(ctx, "abc", 3), "SM3 re-init");

    /* The same misuse straight at the provider, on every libcrypto. */
    if (!TU_CHECK(tu_raw_md(md, "SM3", &r), "SM3: dispatch functions"))
        goto end;
    rctx = r.newctx(r.provctx);
    if (!TU_CHECK(rctx != NULL && r.init(rctx, NULL)
                  && r.update(rctx, (const unsigned char *)"abc", 3),
                  "raw SM3 init and update"))
        goto end;
    routl = 1;
    memset(out, 0xa5, sizeof(out));
    ERR_clear_error();
    TU_CHECK(!r.final(rctx, out, &routl, sizeof(out) - 1),
             "raw SM3 final into 31 bytes accepted");
    /* Nothing queued, as by the default provider's digests. */
    TU_CHECK_NO_ERR("raw SM3 final into 31 bytes");
    TU_CHECK(routl == 0 && untouched(out, sizeof(out), 0xa5),
             "raw SM3 final into 31 bytes reported %zu bytes or wrote some",
             routl);
    TU_CHECK(r.final(rctx, out, &routl, sizeof(out)) && routl == 32,
             "raw SM3 final");
    ERR_clear_error();
    TU_CHECK(!r.update(rctx, (const unsigned char *)"abc", 3),
             "raw SM3 update after final accepted");
    TU_CHECK_ERR(tu_target(), "update after final|operation already finalised");
    routl = 1;
    memset(out, 0xa5, sizeof(out));
    TU_CHECK(!r.final(rctx, out, &routl, sizeof(out)),
             "raw SM3 final twice accepted");
    TU_CHECK_ERR(tu_target(), "operation already finalised");
    TU_CHECK(routl == 0 && untouched(out, sizeof(out), 0xa5),
             "raw SM3 second final reported %zu bytes or wrote some", routl);
 end:
    if (rctx != NULL)
        r.freectx(rctx);
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
}

int main(int argc, char **argv)
{
    static const TU_GROUP groups[] = {
        { "keyiv", group_keyiv }, { "params", group_params },
        { "state", group_state }, { "final", group_final },
        { "outsize", group_outsize }, { "lengths", group_lengths },
        { "sm3", group_sm3 },
    };

    return tu_main(argc, argv, groups, sizeof(groups) / sizeof(groups[0]),
                   &libctx, NULL);
}
