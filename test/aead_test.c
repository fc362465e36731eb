/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-GCM, SM4-CCM and SM4-XTS beyond the vector files: edge cases, bad
 * input, tampering, TLS records, the default provider's GMAC and CMAC over
 * smgost's ciphers, and differential tests over random cases.
 *
 * The differential oracle is OpenSSL's default provider whenever it offers
 * the algorithm (OpenSSL 3.2 and later), else libgcrypt (GCM, CCM, IEEE
 * XTS; built with HAVE_GCRYPT), so the same program runs on OpenSSL 3.0 and
 * 3.5; a case no oracle covers (GB XTS on 3.0) is counted as skipped.
 *
 * Usage: aead_test edge | bad | tls | mac | gcm | ccm | xts | oracle
 * Driven by test/22-aead.t; prints a tally line and exits non-zero on
 * failure.  SMGOST_TEST_SEED replays, SMGOST_TEST_SCALE scales the counts.
 * "oracle" only prints "oracle: " and the oracle GCM and CCM would have
 * ("none": libcrypto before 3.2, built without libgcrypt), for 22-aead.t
 * to skip the differential groups with that reason.
 */
#include "testutil.h"
#include "gf128_ref.h"

#include <openssl/core_names.h>
#ifdef HAVE_GCRYPT
# include <gcrypt.h>
#endif

static OSSL_LIB_CTX *libctx;
static EVP_CIPHER *ours[3], *ref[3];
enum { GCM, CCM, XTS };
static const char *const names[3] = { "SM4-GCM", "SM4-CCM", "SM4-XTS" };
static unsigned long skipped;

#define MAXLEN 6000

/* One message: what both sides are given. */
typedef struct {
    int mode;
    unsigned char key[32], iv[128], aad[70000];
    size_t ivlen, aadlen, len, taglen;
    int ieee;                   /* XTS: IEEE 1619, else GB/T 17964 */
} CASE;

/* How smgost is driven through one message. */
typedef struct {
    size_t chunk_aad, chunk_data;  /* GCM: bytes per update, 0 all */
    int inplace;
} DRIVE;

/* ------------------------------------------------------------ EVP side */

static int set_xts(EVP_CIPHER_CTX *ctx, int ieee)
{
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_utf8_string("xts_standard",
                                            ieee ? "IEEE" : "GB", 0);
    p[1] = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* Sets the lengths and the key and IV, as OpenSSL wants them ordered. */
static int evp_start(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, const CASE *k,
                     int enc, const unsigned char *tag)
{
    if (!EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL))
        return 0;
    if (k->mode != XTS
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)k->ivlen,
                               NULL) <= 0)
        return 0;
    if (k->mode == CCM
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)k->taglen,
                               enc ? NULL : (void *)tag) <= 0)
        return 0;
    if (!EVP_CipherInit_ex2(ctx, NULL, k->key, k->iv, enc, NULL))
        return 0;
    if (k->mode == XTS && !set_xts(ctx, k->ieee))
        return 0;
    if (k->mode == GCM && !enc
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)k->taglen,
                               (void *)tag) <= 0)
        return 0;
    return 1;
}

/*
 * The message after evp_start: CCM's length, the AAD, the data, final and
 * (encrypting) the tag.  Returns 1 on success; out gets the output.
 */
static int evp_message(EVP_CIPHER_CTX *ctx, const CASE *k, int enc,
                       const DRIVE *d, const unsigned char *in,
                       unsigned char *out, unsigned char *tag)
{
    size_t pos, n, ca = d != NULL ? d->chunk_aad : 0;
    size_t cd = d != NULL ? d->chunk_data : 0;
    int outl;

    if (k->mode != GCM)
        ca = cd = 0;
    if (k->mode == CCM && !EVP_CipherUpdate(ctx, NULL, &outl, NULL,
                                            (int)k->len))
        return 0;
    for (pos = 0; pos < k->aadlen; pos += n) {
        n = ca == 0 || k->aadlen - pos < ca ? k->aadlen - pos : ca;
        if (!EVP_CipherUpdate(ctx, NULL, &outl, k->aad + pos, (int)n))
            return 0;
    }
    if (k->mode == CCM && k->len == 0) {
        /* CCM still verifies (or tags) an empty message in its update. */
        if (!EVP_CipherUpdate(ctx, out, &outl, in != NULL ? in : out, 0))
            return 0;
    }
    for (pos = 0; pos < k->len; pos += n) {
        n = cd == 0 || k->len - pos < cd ? k->len - pos : cd;
        if (!EVP_CipherUpdate(ctx, out + pos, &outl, in + pos, (int)n)
            || (size_t)outl != n)
            return 0;
    }
    if (!EVP_CipherFinal_ex(ctx, out + k->len, &outl) || outl != 0)
        return 0;
    if (enc && k->mode != XTS
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)k->taglen,
                               tag) <= 0)
        return 0;
    return 1;
}

/* A whole message through smgost or the default provider. */
static int evp_run(const EVP_CIPHER *c, const CASE *k, int enc,
                   const DRIVE *d, const unsigned char *in,
                   unsigned char *out, unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok;

    if (d != NULL && d->inplace) {
        memmove(out, in, k->len);
        in = out;
    }
    ok = ctx != NULL && evp_start(ctx, c, k, enc, tag)
         && evp_message(ctx, k, enc, d, in, out, tag);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/* ---------------------------------------------------------- the oracle */

#ifdef HAVE_GCRYPT
static int gcrypt_encrypt(const CASE *k, const unsigned char *in,
                          unsigned char *out, unsigned char *tag)
{
    static const int modes[3] = {
        GCRY_CIPHER_MODE_GCM, GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_XTS
    };
    gcry_cipher_hd_t h;
    gcry_error_t e;
    unsigned char full[16];

    if (k->mode == XTS && !k->ieee)
        return -1;
    if (gcry_cipher_open(&h, GCRY_CIPHER_SM4, modes[k->mode], 0) != 0)
        return -1;
    e = gcry_cipher_setkey(h, k->key, k->mode == XTS ? 32 : 16);
    if (!e)
        e = gcry_cipher_setiv(h, k->iv, k->ivlen);
    if (!e && k->mode == CCM) {
        uint64_t l[3] = { k->len, k->aadlen, k->taglen };

        e = gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, l, sizeof(l));
    }
    if (!e && k->mode != XTS)
        e = gcry_cipher_authenticate(h, k->aad, k->aadlen);
    if (!e && (k->len > 0 || k->mode == CCM))
        e = gcry_cipher_encrypt(h, out, k->len, in, k->len);
    if (!e && k->mode == GCM) {
        e = gcry_cipher_gettag(h, full, 16);
        memcpy(tag, full, k->taglen);
    } else if (!e && k->mode == CCM) {
        e = gcry_cipher_gettag(h, tag, k->taglen);
    }
    gcry_cipher_close(h);
    if (e)
        fprintf(stderr, "libgcrypt: %s\n", gcry_strerror(e));
    return e ? 0 : 1;
}
#endif

/* The reference ciphertext and tag: 1, 0 (the oracle failed), -1 (none). */
static int oracle_encrypt(const CASE *k, const unsigned char *in,
                          unsigned char *out, unsigned char *tag)
{
    if (ref[k->mode] != NULL)
        return evp_run(ref[k->mode], k, 1, NULL, in, out, tag);
#ifdef HAVE_GCRYPT
    return gcrypt_encrypt(k, in, out, tag);
#else
    return -1;
#endif
}

static const char *oracle_name(const CASE *k)
{
    return ref[k->mode] != NULL ? "default provider" : "libgcrypt";
}

/* ------------------------------------------------------- random cases */

static size_t pick_len(TU_RNG *r, size_t max)
{
    /* Block counts around the kernels' pass widths and their tails. */
    static const size_t blocks[] = {
        0, 1, 2, 3, 4, 7, 8, 15, 16, 23, 24, 31, 32, 33, 63, 64, 65, 127,
        128, 129, 255, 256, 257, 300
    };
    size_t n;

    switch (tu_rng_below(r, 4)) {
    case 0:
        n = tu_rng_below(r, 48);
        break;
    case 1:
        n = tu_rng_below(r, max + 1);
        break;
    default:
        n = blocks[tu_rng_below(r, sizeof(blocks) / sizeof(blocks[0]))] * 16;
        if (tu_rng_below(r, 2))
            n += tu_rng_below(r, 16);
        else if (n > 0 && tu_rng_below(r, 3) == 0)
            n--;
    }
    return n > max ? max : n;
}

/* x^-1 = x^(2^128 - 2). */
static void gf_inv(unsigned char z[16], const unsigned char x[16])
{
    unsigned char acc[16] = { 0x80 }, sq[16];
    int i;

    memcpy(sq, x, 16);
    for (i = 1; i < 128; i++) {
        ref_gf128_mul(sq, sq, sq);             /* x^(2^i) */
        ref_gf128_mul(acc, acc, sq);
    }
    memcpy(z, acc, 16);
}

/*
 * A 16-byte IV whose J0 = GHASH_H(IV || 0^64 || [128]_64) ends in the
 * 32-bit counter value ctr (and starts with 12 random bytes), so that the
 * data's counter wraps where the test wants it: IV = (J0 ^ L.H) / H^2.
 */
static void iv_for_counter(const unsigned char key[16], uint32_t ctr,
                           TU_RNG *r, unsigned char iv[16])
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    EVP_CIPHER *ecb = EVP_CIPHER_fetch(libctx, "SM4-ECB", "provider=default");
    unsigned char h[16] = { 0 }, l[16] = { 0 }, t[16], h2[16];
    int outl;

    EVP_EncryptInit_ex2(ctx, ecb, key, NULL, NULL);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    EVP_EncryptUpdate(ctx, h, &outl, h, 16);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ecb);
    tu_rng_bytes(r, t, 12);
    t[12] = (unsigned char)(ctr >> 24);
    t[13] = (unsigned char)(ctr >> 16);
    t[14] = (unsigned char)(ctr >> 8);
    t[15] = (unsigned char)ctr;
    l[15] = 128;
    ref_gf128_mul(l, l, h);
    for (outl = 0; outl < 16; outl++)
        t[outl] ^= l[outl];
    ref_gf128_mul(h2, h, h);
    gf_inv(h2, h2);
    ref_gf128_mul(iv, t, h2);
}

static void random_case(TU_RNG *r, int mode, CASE *k)
{
    memset(k, 0, sizeof(*k));
    k->mode = mode;
    tu_rng_bytes(r, k->key, sizeof(k->key));
    switch (mode) {
    case GCM:
        k->ivlen = tu_rng_below(r, 2) ? 12
                   : tu_rng_below(r, 4) ? 1 + tu_rng_below(r, 64)
                   : 1 + tu_rng_below(r, 128);
        k->taglen = tu_rng_below(r, 2) ? 16 : 1 + tu_rng_below(r, 16);
        break;
    case CCM:
        k->ivlen = 7 + tu_rng_below(r, 7);
        k->taglen = 4 + 2 * tu_rng_below(r, 7);
        break;
    default:
        k->ivlen = 16;
        k->ieee = (int)tu_rng_below(r, 2);
    }
    tu_rng_bytes(r, k->iv, k->ivlen);
    k->aadlen = mode == XTS ? 0 : pick_len(r, 600);
    tu_rng_bytes(r, k->aad, k->aadlen);
    k->len = pick_len(r, MAXLEN);
    if (mode == XTS && k->len < 16)
        k->len = 16 + k->len;
    /* CCM's counter stays in its L bytes: a 2-byte length takes 65535. */
    if (mode == GCM && tu_rng_below(r, 8) == 0) {
        size_t nb = k->len / 16;

        if (nb < 2) {
            nb = 2 + tu_rng_below(r, 300);
            k->len = nb * 16;
        }
        k->ivlen = 16;
        /* The data block 1 + tu_rng_below(r, nb - 1) sees counter 0. */
        iv_for_counter(k->key, (uint32_t)(0 - (1 + tu_rng_below(r, nb - 1))),
                       r, k->iv);
    }
}

static void random_drive(TU_RNG *r, DRIVE *d)
{
    static const size_t chunks[] = { 0, 1, 3, 15, 16, 17, 64, 100, 1000 };

    d->chunk_aad = chunks[tu_rng_below(r, sizeof(chunks) / sizeof(chunks[0]))];
    d->chunk_data = chunks[tu_rng_below(r, sizeof(chunks) / sizeof(chunks[0]))];
    if (tu_rng_below(r, 3) == 0)
        d->chunk_data = 1 + tu_rng_below(r, 600);
    d->inplace = (int)tu_rng_below(r, 2);
}

static void describe(const CASE *k, const DRIVE *d, const char *what)
{
    fprintf(stderr, "  %s %s: iv %zu, aad %zu, data %zu, tag %zu%s, chunks "
            "%zu/%zu%s\n", names[k->mode], what, k->ivlen, k->aadlen, k->len,
            k->taglen, k->mode == XTS ? (k->ieee ? " IEEE" : " GB") : "",
            d->chunk_aad, d->chunk_data, d->inplace ? ", in place" : "");
}

/*
 * Decryption of a tampered message fails; CCM then leaves no plaintext
 * (zeros, as OpenSSL's), and where the oracle is the default provider it
 * must fail too.
 */
static void tampered(const CASE *k, const unsigned char *ct,
                     const unsigned char *tag, TU_RNG *r, unsigned char *out)
{
    CASE t = *k;
    unsigned char *c2 = tu_malloc(k->len + 1), tg[16];
    int how = (int)tu_rng_below(r, 4), ok;
    size_t i;
    DRIVE d = { 0, 0, 0 };

    memcpy(c2, ct, k->len);
    memcpy(tg, tag, k->taglen);
    /* Other changes pass a tag of a few bytes by chance (2^-8 per byte). */
    if ((how == 1 && t.aadlen == 0) || k->taglen < 8)
        how = 0;
    if (how == 2 && t.len == 0)
        how = 3;
    switch (how) {
    case 0:
        tg[tu_rng_below(r, k->taglen)] ^= (unsigned char)(1 + tu_rng_below(r, 255));
        break;
    case 1:
        t.aad[tu_rng_below(r, t.aadlen)] ^= 0x80;
        break;
    case 2:
        c2[tu_rng_below(r, t.len)] ^= 1;
        break;
    default:
        if (t.len > 0 && tu_rng_below(r, 2))
            t.len--;
        else
            c2[t.len++] = 0;
    }
    memset(out, 0x5a, t.len + 16);
    ok = evp_run(ours[k->mode], &t, 0, &d, c2, out, tg);
    if (!TU_CHECK(!ok, "%s: a tampered message (%s) decrypted", names[k->mode],
                  how == 0 ? "tag" : how == 1 ? "AAD" : how == 2
                  ? "ciphertext" : "length"))
        describe(&t, &d, "tampered");
    ERR_clear_error();
    /* CCM: zeros, or (refused before any data, e.g. a length the nonce's
     * length field cannot hold) the buffer as it was. */
    if (k->mode == CCM) {
        for (i = 0; i < t.len && out[i] == out[0]; i++)
            continue;
        TU_CHECK(i == t.len && (t.len == 0 || out[0] == 0 || out[0] == 0x5a),
                 "CCM left plaintext after a failed verification");
    }
    if (ref[k->mode] != NULL) {
        TU_CHECK(!evp_run(ref[k->mode], &t, 0, NULL, c2, out, tg),
                 "the default provider accepted the tampered message");
        ERR_clear_error();
    }
    free(c2);
}

/* Buffers for one message and its results. */
static unsigned char *pt, *ct, *mine, *back;

/*
 * One message: smgost's ciphertext and tag against the oracle's; its
 * decryption, driven by d2, gives the plaintext back; tampering fails.
 * Returns 0 if no oracle has the case.
 */
static int check_case(const CASE *k, const DRIVE *d, const DRIVE *d2,
                      TU_RNG *r)
{
    unsigned char tag[16], mytag[16];
    int o, mode = k->mode;

    tu_rng_bytes(r, pt, k->len);
    o = oracle_encrypt(k, pt, ct, tag);
    if (o < 0)
        return 0;
    if (!TU_CHECK(o == 1, "%s: the oracle (%s) failed", names[mode],
                  oracle_name(k))) {
        describe(k, d, "oracle");
        return 1;
    }
    if (!TU_CHECK(evp_run(ours[mode], k, 1, d, pt, mine, mytag),
                  "%s encrypt failed", names[mode])
        || !TU_CHECK_MEM("ciphertext against the oracle", mine, k->len, ct,
                         k->len)
        || (mode != XTS
            && !TU_CHECK_MEM("tag against the oracle", mytag, k->taglen, tag,
                             k->taglen))) {
        describe(k, d, "encrypt");
        return 1;
    }
    if (!TU_CHECK(evp_run(ours[mode], k, 0, d2, ct, back, tag),
                  "%s decrypt failed", names[mode])
        || !TU_CHECK_MEM("decryption", back, k->len, pt, k->len)) {
        describe(k, d2, "decrypt");
        return 1;
    }
    if (mode != XTS)
        tampered(k, ct, tag, r, back);
    return 1;
}

/*
 * A second message on one context, re-initialised with a new IV only
 * (XTS: a new tweak, the key and xts_standard kept; one case in four a
 * second data unit under the same tweak, with no re-init), against the
 * oracle.
 */
static void check_reinit(const CASE *k, const DRIVE *d, const DRIVE *d2,
                         TU_RNG *r)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    CASE *k2 = tu_malloc(sizeof(*k2));
    unsigned char tag[16], tag2[16], mytag[16];
    int mode = k->mode, enc = (int)tu_rng_below(r, 2), ok;
    int reinit = mode != XTS || tu_rng_below(r, 4) != 0;

    *k2 = *k;
    k2->len = pick_len(r, MAXLEN);
    if (mode == XTS && k2->len < 16)
        k2->len += 16;
    if (reinit)
        tu_rng_bytes(r, k2->iv, k2->ivlen);
    /* The first message, whole, then the second after the re-init. */
    tu_rng_bytes(r, pt, k->len);
    ok = oracle_encrypt(k, pt, ct, tag) == 1
         && evp_start(ctx, ours[mode], k, enc, tag)
         && evp_message(ctx, k, enc, d, enc ? pt : ct, mine, mytag);
    TU_CHECK(ok, "%s: first message before the re-init", names[mode]);
    tu_rng_bytes(r, pt, k2->len);
    ok = ok && oracle_encrypt(k2, pt, ct, tag2) == 1
         && (!reinit
             || EVP_CipherInit_ex2(ctx, NULL, NULL, k2->iv, enc, NULL))
         && (mode == XTS || enc
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                    (int)k2->taglen, tag2) > 0)
         && evp_message(ctx, k2, enc, d2, enc ? pt : ct, mine, mytag);
    if (TU_CHECK(ok, "%s: a message after %s failed", names[mode],
                 reinit ? "a re-init with a new IV" : "a data unit")) {
        TU_CHECK_MEM("message after the re-init", mine, k2->len,
                     enc ? ct : pt, k2->len);
        if (enc && mode != XTS)
            TU_CHECK_MEM("its tag", mytag, k2->taglen, tag2, k2->taglen);
    } else {
        describe(k2, d2, reinit ? (enc ? "re-init encrypt"
                                       : "re-init decrypt")
                         : enc ? "second unit encrypt"
                         : "second unit decrypt");
    }
    EVP_CIPHER_CTX_free(ctx);
    free(k2);
}

/* n random cases of one mode through check_case and check_reinit. */
static void diff(int mode, uint64_t seed)
{
    TU_RNG r;
    unsigned long n = (unsigned long)(3000 * tu_scale()), i, ran = 0;
    CASE *k = tu_malloc(sizeof(*k));

    tu_rng_seed(&r, seed);
    for (i = 0; i < n && tu_failures < 20; i++) {
        DRIVE d, d2;

        random_case(&r, mode, k);
        random_drive(&r, &d);
        random_drive(&r, &d2);
        if (!check_case(k, &d, &d2, &r)) {
            skipped++;
            continue;
        }
        ran++;
        check_reinit(k, &d, &d2, &r);
    }
    printf("# %s: %lu cases against the %s, %lu without an oracle\n",
           names[mode], ran, ref[mode] != NULL ? "default provider"
           : "libgcrypt", skipped);
    TU_CHECK(ran > 0 || n == 0, "%s: no case had an oracle", names[mode]);
    free(k);
}

/*
 * The edges, each through check_case both ways (one shot, and byte by
 * byte in place): GCM with empty data, empty AAD, 1-, 64- and 128-byte IVs,
 * 1- to 16-byte tags; CCM with the shortest and longest nonces and tags,
 * empty data, AAD of 0xff00 bytes and more (the 6-byte length encoding);
 * XTS units of 16, 17, 31, 33 bytes and the largest, 2^20 blocks, and
 * identical key halves.
 */
static void edge(uint64_t seed)
{
    static const struct { int mode; size_t ivlen, aadlen, len, taglen; } e[] = {
        { GCM, 12, 0, 0, 16 }, { GCM, 12, 20, 0, 16 }, { GCM, 12, 0, 1, 16 },
        { GCM, 12, 0, 64, 16 }, { GCM, 1, 0, 0, 16 }, { GCM, 1, 13, 33, 16 },
        { GCM, 64, 0, 0, 16 }, { GCM, 64, 17, 100, 16 },
        { GCM, 128, 16, 16, 16 }, { GCM, 12, 1, 1, 1 }, { GCM, 12, 5, 5, 4 },
        { GCM, 16, 300, 300, 15 },
        { CCM, 7, 0, 0, 4 }, { CCM, 7, 0, 0, 16 }, { CCM, 13, 0, 0, 4 },
        { CCM, 13, 0, 0, 16 }, { CCM, 7, 24, 1, 4 }, { CCM, 13, 1, 65535, 16 },
        { CCM, 13, 0xfeff, 20, 8 }, { CCM, 12, 0xff00, 20, 10 },
        { CCM, 8, 65536, 33, 14 }, { CCM, 11, 16, 16, 6 },
        { XTS, 16, 0, 16, 0 }, { XTS, 16, 0, 17, 0 }, { XTS, 16, 0, 31, 0 },
        { XTS, 16, 0, 33, 0 }, { XTS, 16, 0, (size_t)1 << 24, 0 },
    };
    static const DRIVE whole = { 0, 0, 0 }, bytewise = { 1, 1, 1 };
    TU_RNG r;
    CASE *k = tu_malloc(sizeof(*k));
    size_t i;
    int ieee;

    tu_rng_seed(&r, seed);
    for (i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
        for (ieee = 0; ieee <= (e[i].mode == XTS); ieee++) {
            memset(k, 0, sizeof(*k));
            k->mode = e[i].mode;
            k->ivlen = e[i].ivlen;
            k->aadlen = e[i].aadlen;
            k->len = e[i].len;
            k->taglen = e[i].taglen;
            k->ieee = ieee;
            tu_rng_bytes(&r, k->key, sizeof(k->key));
            tu_rng_bytes(&r, k->iv, k->ivlen);
            tu_rng_bytes(&r, k->aad, k->aadlen);
            if (!check_case(k, &whole, k->len > 70000 ? &whole : &bytewise,
                            &r))
                skipped++;
        }
    }
    /* XTS with identical key halves: taken, as OpenSSL 3.5 takes them */
    for (ieee = 0; ieee <= 1; ieee++) {
        memset(k, 0, sizeof(*k));
        k->mode = XTS;
        k->ivlen = 16;
        k->len = 33;
        k->ieee = ieee;
        tu_rng_bytes(&r, k->key, 16);
        memcpy(k->key + 16, k->key, 16);
        tu_rng_bytes(&r, k->iv, 16);
        if (!check_case(k, &whole, &whole, &r))
            skipped++;
    }
    printf("# edges: %zu cases, %lu without an oracle\n",
           sizeof(e) / sizeof(e[0]) + 2, skipped);
    free(k);
}

/* ------------------------------------------------------------ bad input */

/* An EVP context of a mode, initialised for enc with key and iv (or not). */
static EVP_CIPHER_CTX *ctx_for(int mode, int enc, int with_key, int with_iv)
{
    static const unsigned char key[32] = "bad-input key, 32 bytes long...";
    static const unsigned char iv[] = "bad-input iv....";
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

    if (ctx == NULL
        || !EVP_CipherInit_ex2(ctx, ours[mode], with_key ? key : NULL,
                               with_iv ? iv : NULL, enc, NULL)) {
        TU_CHECK(0, "%s: init", names[mode]);
        ERR_print_errors_fp(stderr);
    }
    return ctx;
}

static int set_size(EVP_CIPHER_CTX *ctx, const char *name, size_t v)
{
    OSSL_PARAM p[2] = { OSSL_PARAM_size_t(name, &v), OSSL_PARAM_END };

    return EVP_CIPHER_CTX_set_params(ctx, p);
}

static int ctrl(EVP_CIPHER_CTX *ctx, int cmd, int arg, void *ptr)
{
    return EVP_CIPHER_CTX_ctrl(ctx, cmd, arg, ptr) > 0;
}

/*
 * A misuse the call must refuse, with what the default provider's GCM, CCM
 * and XTS leave (test/err_compare.c compares them): BAD, its reason;
 * BAD_OP, an update's "cipher operation failed", whose data carries
 * smgost's reason; BAD_QUIET, an empty queue (a final, a one-shot call, a
 * tag read into a buffer of another length).
 */
#define BAD(what, call, reason)                                             \
    do {                                                                    \
        ERR_clear_error();                                                  \
        if (TU_CHECK(!(call), "%s was accepted", what))                     \
            TU_CHECK_ERR(TU_LIB_PROV, reason);                              \
    } while (0)
#define BAD_OP(what, call, data)                                            \
    do {                                                                    \
        ERR_clear_error();                                                  \
        if (TU_CHECK(!(call), "%s was accepted", what))                     \
            TU_CHECK_ERR_DATA(TU_LIB_PROV, "cipher operation failed", data); \
    } while (0)
#define BAD_QUIET(what, call)                                               \
    do {                                                                    \
        ERR_clear_error();                                                  \
        if (TU_CHECK(!(call), "%s was accepted", what))                     \
            TU_CHECK_NO_ERR(what);                                          \
    } while (0)

/*
 * A 20-byte CCM message (no AAD, 7-byte nonce, 12-byte tag) with or
 * without its length given first: the tag out when encrypting, in when
 * decrypting.
 */
static int ccm_20(const EVP_CIPHER *c, int enc, int with_len,
                  const unsigned char *in, unsigned char *out,
                  unsigned char tag[12])
{
    static const unsigned char key[16] = "CCM length key.";
    static const unsigned char nonce[] = "nonce..";
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl, ok;

    ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, nonce, enc, NULL)
         && (enc || ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 12, tag))
         && (!with_len || EVP_CipherUpdate(ctx, NULL, &outl, NULL, 20))
         && EVP_CipherUpdate(ctx, out, &outl, in, 20) && outl == 20
         && EVP_CipherFinal_ex(ctx, out + 20, &outl) && outl == 0
         && (!enc || ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 12, tag));
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/*
 * Where CCM's message length may come.  After the data or the AAD it is
 * refused: OpenSSL 3.5 takes it there, and a data update after it then
 * starts the message again under the same nonce (its keystream again).
 * Data with no length set gives the length, as OpenSSL's CCM takes it: the
 * message is the one with its length set first, and the default
 * provider's where it has SM4-CCM.
 */
static void ccm_length_order(void)
{
    static const unsigned char msg[] = "twenty bytes of data";
    unsigned char a[36], b[36], back[36], ta[12], tb[12], buf[16] = { 0 };
    EVP_CIPHER_CTX *ctx;
    int outl;

    ctx = ctx_for(CCM, 1, 1, 1);
    TU_CHECK(EVP_EncryptUpdate(ctx, a, &outl, msg, 20) && outl == 20,
             "CCM data with no length set");
    BAD_OP("a CCM length after the data",
        EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 20),
        "ccm takes the aad and the data in one update each");
    EVP_CIPHER_CTX_free(ctx);
    ctx = ctx_for(CCM, 1, 1, 1);
    TU_CHECK(EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 20)
             && EVP_EncryptUpdate(ctx, a, &outl, msg, 20), "CCM length, data");
    BAD_OP("a second CCM length after the data",
        EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 20),
        "ccm takes the aad and the data in one update each");
    EVP_CIPHER_CTX_free(ctx);
    ctx = ctx_for(CCM, 0, 1, 1);
    TU_CHECK(EVP_DecryptUpdate(ctx, NULL, &outl, NULL, 20)
             && EVP_DecryptUpdate(ctx, NULL, &outl, buf, 5),
             "CCM length, AAD to decrypt");
    BAD_OP("a CCM length after the AAD",
        EVP_DecryptUpdate(ctx, NULL, &outl, NULL, 20),
        "ccm takes the aad and the data in one update each");
    EVP_CIPHER_CTX_free(ctx);

    if (!TU_CHECK(ccm_20(ours[CCM], 1, 1, msg, a, ta)
                  && ccm_20(ours[CCM], 1, 0, msg, b, tb),
                  "CCM encryption with and without the length set"))
        return;
    TU_CHECK_MEM("CCM data with no length set", b, 20, a, 20);
    TU_CHECK_MEM("its tag", tb, 12, ta, 12);
    TU_CHECK(ccm_20(ours[CCM], 0, 0, a, back, ta),
             "CCM decryption with no length set");
    TU_CHECK_MEM("its plaintext", back, 20, msg, 20);
    if (ref[CCM] != NULL) {
        TU_CHECK(ccm_20(ref[CCM], 1, 0, msg, b, tb),
                 "the default provider's CCM with no length set");
        TU_CHECK_MEM("against the default provider's", b, 20, a, 20);
        TU_CHECK_MEM("its tag", tb, 12, ta, 12);
    }
}

static void bad(void)
{
    unsigned char buf[64] = { 0 }, out[64], tag[16] = { 0 };
    unsigned char *big;
    EVP_CIPHER_CTX *ctx;
    TU_RAW_CIPHER raw;
    int outl, i;
    void *rc = NULL;

    /* Every mode: a key of the wrong length (the provider is called
     * directly: EVP passes the length it knows). */
    for (i = 0; i < 3; i++) {
        if (!TU_CHECK(tu_raw_cipher(ours[i], names[i], &raw)
                      && (rc = raw.newctx(raw.provctx)) != NULL,
                      "%s: provider context", names[i]))
            continue;
        BAD("a 15-byte key", raw.einit(rc, buf, 15, NULL, 0, NULL),
            "invalid key length");
        raw.freectx(rc);
    }

    /* GCM */
    ctx = ctx_for(GCM, 1, 1, 0);
    BAD("GCM ivlen 0", set_size(ctx, "ivlen", 0), "invalid iv length");
    BAD("GCM ivlen 129", set_size(ctx, "ivlen", 129), "invalid iv length");
    BAD("a GCM tag set to encrypt", ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag),
        "invalid tag");
    BAD("the GCM tag before the final",
        ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag), "invalid tag");
    TU_CHECK(EVP_EncryptInit_ex2(ctx, NULL, NULL, buf, NULL)
             && EVP_EncryptUpdate(ctx, out, &outl, buf, 5),
             "GCM data");
    BAD_OP("GCM AAD after data", EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5),
        "aad after data");
    TU_CHECK(EVP_EncryptFinal_ex(ctx, out, &outl), "GCM final");
    BAD("a 17-byte GCM tag", ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 17, tag),
        "invalid tag");
    BAD_OP("GCM data after the final",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 5), "iv not set");
    EVP_CIPHER_CTX_free(ctx);
    ctx = ctx_for(GCM, 0, 1, 0);
    BAD_OP("GCM decryption without an IV",
        EVP_DecryptUpdate(ctx, out, &outl, buf, 5), "iv not set");
    TU_CHECK(EVP_DecryptInit_ex2(ctx, NULL, NULL, buf, NULL), "GCM IV");
    BAD("a 17-byte GCM tag to verify",
        ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 17, tag), "failed to get parameter");
    /* OpenSSL 4.0's default provider says so; 3.x's queues nothing */
    if (OPENSSL_version_major() >= 4)
        BAD("GCM final decryption without a tag",
            EVP_DecryptFinal_ex(ctx, out, &outl), "tag not set");
    else
        BAD_QUIET("GCM final decryption without a tag",
            EVP_DecryptFinal_ex(ctx, out, &outl));
    TU_CHECK(EVP_DecryptInit_ex2(ctx, NULL, NULL, buf, NULL)
             && ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag), "GCM tag");
    BAD_QUIET("a wrong GCM tag", EVP_DecryptFinal_ex(ctx, out, &outl));
    BAD("the GCM tag when decrypting",
        ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag), "invalid tag");
    EVP_CIPHER_CTX_free(ctx);
    ctx = ctx_for(GCM, 1, 0, 1);
    BAD_OP("GCM data without a key",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 5),
        "no key set");
    EVP_CIPHER_CTX_free(ctx);

    /* CCM */
    ctx = ctx_for(CCM, 1, 0, 0);
    BAD("a 6-byte CCM nonce", set_size(ctx, "ivlen", 6), "invalid iv length");
    BAD("a 14-byte CCM nonce", set_size(ctx, "ivlen", 14), "invalid iv length");
    BAD("a 3-byte CCM tag", ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 3, NULL),
        "invalid tag length");
    BAD("a 5-byte CCM tag", ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 5, NULL),
        "invalid tag length");
    BAD("an 18-byte CCM tag", ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 18, NULL),
        "invalid tag length");
    BAD("a CCM tag set to encrypt", ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag),
        "tag not needed");
    TU_CHECK(ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 13, NULL)
             && EVP_EncryptInit_ex2(ctx, NULL, buf, NULL, NULL),
             "CCM key, 13-byte nonce");
    BAD_OP("CCM data without a nonce",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 5),
        "iv not set");
    TU_CHECK(EVP_EncryptInit_ex2(ctx, NULL, NULL, buf, NULL), "CCM nonce");
    BAD_OP("CCM AAD before the length",
        EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5),
        "message length not set");
    BAD_OP("a CCM length beyond L = 2 bytes",
        EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 65536), "length too large");
    TU_CHECK(EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 20)
             && EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5), "CCM length, AAD");
    BAD_OP("a second CCM AAD update",
        EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5),
        "ccm takes the aad and the data in one update each");
    BAD_OP("CCM data of another length than set",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 19),
        "data length differs from the message length set");
    TU_CHECK(EVP_EncryptUpdate(ctx, out, &outl, buf, 20), "CCM data");
    BAD_OP("a second CCM data update",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 20),
        "ccm takes the aad and the data in one update each");
    BAD_QUIET("a CCM tag of another length than set",
        ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag));
    TU_CHECK(ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 12, tag), "CCM tag");
    BAD_OP("CCM data after the tag",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 20),
        "iv not set");
    EVP_CIPHER_CTX_free(ctx);
    /* A nonce of one length is no nonce of another (as OpenSSL's CCM); the
     * same length set again keeps it. */
    ctx = ctx_for(CCM, 1, 1, 1);
    TU_CHECK(set_size(ctx, "ivlen", 7)
             && EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 5),
             "CCM: the nonce's own length set again");
    EVP_CIPHER_CTX_free(ctx);
    ctx = ctx_for(CCM, 1, 1, 1);
    TU_CHECK(set_size(ctx, "ivlen", 12), "CCM: a 12-byte nonce length");
    BAD_OP("CCM data after the nonce length changed",
        EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 5), "iv not set");
    EVP_CIPHER_CTX_free(ctx);
    ctx = ctx_for(CCM, 0, 1, 1);
    BAD_OP("CCM decryption without a tag",
        EVP_DecryptUpdate(ctx, out, &outl, buf, 20), "tag not set");
    TU_CHECK(EVP_DecryptInit_ex2(ctx, NULL, NULL, buf, NULL)
             && ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 12, tag), "CCM tag to verify");
    memset(out, 0x5a, sizeof(out));
    BAD_OP("a wrong CCM tag", EVP_DecryptUpdate(ctx, out, &outl, buf, 20),
        "tag mismatch");
    for (i = 0; i < 20 && out[i] == 0; i++)
        continue;
    TU_CHECK(i == 20, "CCM left plaintext after a wrong tag");
    BAD_QUIET("the CCM final after a wrong tag",
        EVP_DecryptFinal_ex(ctx, out, &outl));
    EVP_CIPHER_CTX_free(ctx);
    ccm_length_order();

    /* XTS */
    ctx = ctx_for(XTS, 1, 1, 0);
    BAD_OP("XTS data without a tweak",
        EVP_EncryptUpdate(ctx, out, &outl, buf, 16),
        "iv not set");
    TU_CHECK(EVP_EncryptInit_ex2(ctx, NULL, NULL, buf, NULL), "XTS tweak");
    BAD_OP("a 15-byte XTS unit", EVP_EncryptUpdate(ctx, out, &outl, buf, 15),
        "invalid xts data unit length");
    BAD_OP("an empty XTS unit", EVP_EncryptUpdate(ctx, out, &outl, buf, 0),
        "invalid xts data unit length");
    big = tu_malloc(((size_t)1 << 24) + 16);
    memset(big, 0, ((size_t)1 << 24) + 16);
    BAD("an XTS unit of 2^20 blocks and one byte",
        EVP_EncryptUpdate(ctx, big, &outl, big, (1 << 24) + 1),
        "xts data unit is too large");
    free(big);
    BAD_OP("XTS AAD", EVP_EncryptUpdate(ctx, NULL, &outl, buf, 16),
        "XTS has no AAD");
    {
        OSSL_PARAM p[2] = {
            OSSL_PARAM_utf8_string("xts_standard", "ISO", 0), OSSL_PARAM_END
        };

        BAD("xts_standard ISO", EVP_CIPHER_CTX_set_params(ctx, p),
            "failed to set parameter");
    }
    EVP_CIPHER_CTX_free(ctx);

    /* TLS records */
    ctx = ctx_for(GCM, 1, 1, 0);
    BAD("a 12-byte tlsaad",
        ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 12, buf), "invalid aad");
    BAD("a tlsivfixed of 3 bytes",
        ctrl(ctx, EVP_CTRL_GCM_SET_IV_FIXED, 3, buf),
        "failed to get parameter");
    buf[11] = 0, buf[12] = 40;
    TU_CHECK(ctrl(ctx, EVP_CTRL_GCM_SET_IV_FIXED, 4, buf)
             && ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, buf) , "TLS setup");
    BAD_QUIET("a TLS record out of place", EVP_Cipher(ctx, out, buf, 40) > 0);
    EVP_CIPHER_CTX_free(ctx);
}

/* ---------------------------------------------------------- TLS records */

/*
 * TLS 1.2 records (RFC 5288 GCM, RFC 6655 CCM with 16- and 8-byte tags)
 * sealed by smgost and opened by a second smgost context, each checked
 * against the oracle's GCM/CCM of the same nonce (fixed || explicit), AAD
 * (the header with the payload length) and payload; where the default
 * provider has the cipher it opens smgost's records too.  A flipped bit
 * makes the opening fail and clears the payload.
 */
static int tls_ctx(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, int mode,
                   int enc, const unsigned char *key,
                   const unsigned char *fixed, size_t taglen)
{
    return EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL)
           && (mode != CCM
               || (ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL)
                   && ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, NULL)))
           && EVP_CipherInit_ex2(ctx, NULL, key, NULL, enc, NULL)
           && ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, 4, (void *)fixed);
}

static int tls_open(EVP_CIPHER_CTX *ctx, const unsigned char *hdr,
                    unsigned char *rec, size_t reclen)
{
    unsigned char h[13];

    memcpy(h, hdr, 13);
    h[11] = (unsigned char)(reclen >> 8);
    h[12] = (unsigned char)reclen;
    return ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, h)
           && EVP_Cipher(ctx, rec, rec, (unsigned int)reclen) >= 0;
}

static void tls(uint64_t seed)
{
    TU_RNG r;
    int mode, t, enc;
    unsigned char key[16], fixed[4], hdr[13], rec[1200], copy[1200];
    unsigned char refct[1100], reftag[16];
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dctx = EVP_CIPHER_CTX_new();
    CASE *k = tu_malloc(sizeof(*k));

    tu_rng_seed(&r, seed);
    for (t = 0; t < 60; t++) {
        size_t n = pick_len(&r, 1024), taglen, reclen, pad = 0;
        int ok;

        mode = t % 3 == 0 ? CCM : GCM;
        taglen = mode == GCM ? 16 : t % 2 ? 16 : 8;
        tu_rng_bytes(&r, key, sizeof(key));
        tu_rng_bytes(&r, fixed, sizeof(fixed));
        tu_rng_bytes(&r, hdr, sizeof(hdr));
        hdr[11] = (unsigned char)((n + 8) >> 8);
        hdr[12] = (unsigned char)(n + 8);
        reclen = 8 + n + taglen;
        tu_rng_bytes(&r, rec, reclen);     /* the explicit IV: CCM's seq */
        memcpy(rec, hdr, 8);
        ok = tls_ctx(ctx, ours[mode], mode, 1, key, fixed, taglen)
             && ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, hdr);
        if (ok) {
            OSSL_PARAM p[2] = { OSSL_PARAM_size_t("tlsaadpad", &pad),
                                OSSL_PARAM_END };

            ok = EVP_CIPHER_CTX_get_params(ctx, p) && pad == taglen;
        }
        memcpy(copy, rec + 8, n);
        ok = ok && EVP_Cipher(ctx, rec, rec, (unsigned int)reclen)
                   == (int)reclen;
        if (!TU_CHECK(ok, "%s: sealing a %zu-byte TLS record", names[mode], n))
            continue;
        /* The oracle: the same nonce, header and payload. */
        memset(k, 0, sizeof(*k));
        k->mode = mode;
        memcpy(k->key, key, 16);
        memcpy(k->iv, fixed, 4);
        memcpy(k->iv + 4, rec, 8);
        k->ivlen = 12;
        memcpy(k->aad, hdr, 13);
        k->aad[11] = (unsigned char)(n >> 8);
        k->aad[12] = (unsigned char)n;
        k->aadlen = 13;
        k->len = n;
        k->taglen = taglen;
        if (oracle_encrypt(k, copy, refct, reftag) == 1) {
            TU_CHECK_MEM("TLS record payload", rec + 8, n, refct, n);
            TU_CHECK_MEM("TLS record tag", rec + 8 + n, taglen, reftag,
                         taglen);
        } else {
            skipped++;
        }
        for (enc = 0; enc < 2; enc++) {
            /* enc 0: smgost opens; 1: the default provider does. */
            const EVP_CIPHER *c = enc ? ref[mode] : ours[mode];
            unsigned char r2[1200];

            if (c == NULL)
                continue;
            memcpy(r2, rec, reclen);
            ok = tls_ctx(dctx, c, mode, 0, key, fixed, taglen)
                 && tls_open(dctx, hdr, r2, reclen);
            if (TU_CHECK(ok, "%s: %s opening a %zu-byte TLS record",
                         names[mode], enc ? "the default provider" : "smgost",
                         n))
                TU_CHECK_MEM("opened payload", r2 + 8, n, copy, n);
        }
        rec[tu_rng_below(&r, reclen)] ^= 0x10;
        memset(copy, 0, n);
        if (TU_CHECK(tls_ctx(dctx, ours[mode], mode, 0, key, fixed, taglen),
                     "TLS context")) {
            TU_CHECK(!tls_open(dctx, hdr, rec, reclen),
                     "%s: a tampered TLS record opened", names[mode]);
            ERR_clear_error();
            TU_CHECK(n == 0 || memcmp(rec + 8, copy, n) == 0,
                     "%s: payload left after a failed TLS opening",
                     names[mode]);
        }
    }
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_CTX_free(dctx);
    free(k);
}

/* ---------------------------------------------------------------- MACs */

/*
 * The default provider's GMAC (cipher SM4-GCM) and CMAC (cipher SM4-CBC)
 * with properties=provider=smgost, against the same MAC over the default
 * provider's cipher where it has it, else libgcrypt (GCM with AAD only;
 * CMAC-SM4).
 */
static int mac(const char *alg, const char *cipher, const char *props,
               const unsigned char *key, const unsigned char *iv,
               size_t ivlen, const unsigned char *msg, size_t len,
               unsigned char *out, size_t *outl)
{
    EVP_MAC *m = EVP_MAC_fetch(libctx, alg, "provider=default");
    EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
    OSSL_PARAM p[4];
    int i = 0, ok;

    p[i++] = OSSL_PARAM_construct_utf8_string("cipher", (char *)cipher, 0);
    p[i++] = OSSL_PARAM_construct_utf8_string("properties", (char *)props, 0);
    if (iv != NULL)
        p[i++] = OSSL_PARAM_construct_octet_string("iv", (void *)iv, ivlen);
    p[i] = OSSL_PARAM_construct_end();
    ok = ctx != NULL && EVP_MAC_init(ctx, key, 16, p)
         && EVP_MAC_update(ctx, msg, len)
         && EVP_MAC_final(ctx, out, outl, 16);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(m);
    return ok;
}

static void macs(uint64_t seed)
{
    TU_RNG r;
    unsigned char key[16], iv[64], msg[3000], a[16], b[16];
    size_t la, lb, n, ivlen;
    int t, gmac_ref = ref[GCM] != NULL, ran_g = 0, ran_c = 0;
    CASE *k = tu_malloc(sizeof(*k));

    tu_rng_seed(&r, seed);
    for (t = 0; t < 400; t++) {
        n = pick_len(&r, sizeof(msg));
        ivlen = t % 2 ? 12 : 1 + tu_rng_below(&r, 64);
        tu_rng_bytes(&r, key, sizeof(key));
        tu_rng_bytes(&r, iv, ivlen);
        tu_rng_bytes(&r, msg, n);
        if (!TU_CHECK(mac("GMAC", "SM4-GCM", "provider=smgost", key, iv, ivlen,
                          msg, n, a, &la) && la == 16,
                      "GMAC over smgost's SM4-GCM, %zu bytes", n))
            continue;
        if (gmac_ref) {
            TU_CHECK(mac("GMAC", "SM4-GCM", "provider=default", key, iv,
                         ivlen, msg, n, b, &lb), "GMAC over default's SM4-GCM");
            TU_CHECK_MEM("GMAC against the default provider's", a, 16, b, 16);
            ran_g++;
        } else if (n <= sizeof(k->aad)) {
            memset(k, 0, sizeof(*k));
            k->mode = GCM;
            memcpy(k->key, key, 16);
            memcpy(k->iv, iv, ivlen);
            k->ivlen = ivlen;
            memcpy(k->aad, msg, n);
            k->aadlen = n;
            k->taglen = 16;
            if (oracle_encrypt(k, msg, b, b) == 1) {
                TU_CHECK_MEM("GMAC against libgcrypt's GCM", a, 16, b, 16);
                ran_g++;
            }
        }
        if (TU_CHECK(mac("CMAC", "SM4-CBC", "provider=smgost", key, NULL, 0,
                         msg, n, a, &la)
                     && mac("CMAC", "SM4-CBC", "provider=default", key, NULL,
                            0, msg, n, b, &lb) && la == 16 && lb == 16,
                     "CMAC over SM4-CBC, %zu bytes", n)) {
            TU_CHECK_MEM("CMAC against the default provider's SM4-CBC", a, 16,
                         b, 16);
            ran_c++;
        }
#ifdef HAVE_GCRYPT
        {
            gcry_mac_hd_t h;
            size_t gl = 16;

            if (TU_CHECK(gcry_mac_open(&h, GCRY_MAC_CMAC_SM4, 0, NULL) == 0
                         && gcry_mac_setkey(h, key, 16) == 0
                         && gcry_mac_write(h, msg, n) == 0
                         && gcry_mac_read(h, b, &gl) == 0, "libgcrypt CMAC"))
                TU_CHECK_MEM("CMAC against libgcrypt's CMAC-SM4", a, 16, b, 16);
            gcry_mac_close(h);
        }
#endif
    }
    printf("# GMAC: %d cases against the %s; CMAC: %d\n", ran_g,
           gmac_ref ? "default provider" : "libgcrypt", ran_c);
    TU_CHECK(ran_g > 0, "GMAC had no reference");
    free(k);
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";
    int i;

    libctx = tu_libctx();
    for (i = 0; i < 3; i++) {
        ours[i] = EVP_CIPHER_fetch(libctx, names[i], tu_target_propq());
        ref[i] = EVP_CIPHER_fetch(libctx, names[i], "provider=default");
        if (!TU_CHECK(ours[i] != NULL, "fetch %s", names[i]))
            return tu_report(group);
    }
    ERR_clear_error();
    if (strcmp(group, "oracle") == 0) {
#ifdef HAVE_GCRYPT
        const char *other = "libgcrypt";
#else
        const char *other = "none";
#endif
        printf("oracle: %s\n", ref[GCM] != NULL ? "the default provider"
                                                : other);
        TU_CHECK(1, "oracle reported");
        goto end;
    }
    pt = tu_malloc(((size_t)1 << 24) + 32);
    ct = tu_malloc(((size_t)1 << 24) + 32);
    mine = tu_malloc(((size_t)1 << 24) + 32);
    back = tu_malloc(((size_t)1 << 24) + 32);
    if (strcmp(group, "edge") == 0) {
        edge(tu_seed(NULL));
    } else if (strcmp(group, "bad") == 0) {
        bad();
    } else if (strcmp(group, "tls") == 0) {
        tls(tu_seed(NULL));
    } else if (strcmp(group, "mac") == 0) {
        macs(tu_seed(NULL));
    } else if (strcmp(group, "gcm") == 0) {
        diff(GCM, tu_seed(NULL));
    } else if (strcmp(group, "ccm") == 0) {
        diff(CCM, tu_seed(NULL));
    } else if (strcmp(group, "xts") == 0) {
        diff(XTS, tu_seed(NULL));
    } else {
        fprintf(stderr, "usage: %s edge | bad | tls | mac | gcm | ccm | xts"
                " | oracle\n", argv[0]);
        return 2;
    }
    free(pt);
    free(ct);
    free(mine);
    free(back);
 end:
    for (i = 0; i < 3; i++) {
        EVP_CIPHER_free(ours[i]);
        EVP_CIPHER_free(ref[i]);
    }
    tu_libctx_free(libctx);
    return tu_report(group);
}
