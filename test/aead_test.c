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
 * Usage: aead_test edge | bad | tls | mac | gcm | ccm | xts
 * Driven by test/22-aead.t; prints a tally line and exits non-zero on
 * failure.  SMGOST_TEST_SEED replays, SMGOST_TEST_SCALE scales the counts.
 */
#include "testutil.h"

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
    unsigned char key[32], iv[128], aad[600];
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

/* GF(2^128) in SP 800-38D's bit order, bit by bit (algorithm 1). */
static void gf_mul(unsigned char z[16], const unsigned char x[16],
                   const unsigned char y[16])
{
    unsigned char v[16], r[16] = { 0 };
    int i, j, lsb;

    memcpy(v, y, 16);
    for (i = 0; i < 128; i++) {
        if (x[i / 8] >> (7 - i % 8) & 1)
            for (j = 0; j < 16; j++)
                r[j] ^= v[j];
        lsb = v[15] & 1;
        for (j = 15; j > 0; j--)
            v[j] = (unsigned char)(v[j] >> 1 | v[j - 1] << 7);
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1;
    }
    memcpy(z, r, 16);
}

/* x^-1 = x^(2^128 - 2). */
static void gf_inv(unsigned char z[16], const unsigned char x[16])
{
    unsigned char acc[16] = { 0x80 }, sq[16];
    int i;

    memcpy(sq, x, 16);
    for (i = 1; i < 128; i++) {
        gf_mul(sq, sq, sq);             /* x^(2^i) */
        gf_mul(acc, acc, sq);
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
    gf_mul(l, l, h);
    for (outl = 0; outl < 16; outl++)
        t[outl] ^= l[outl];
    gf_mul(h2, h, h);
    gf_inv(h2, h2);
    gf_mul(iv, t, h2);
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
    k->aadlen = mode == XTS ? 0 : pick_len(r, sizeof(k->aad));
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
    if (k->mode == CCM) {
        for (i = 0; i < t.len && out[i] == 0; i++)
            continue;
        TU_CHECK(i == t.len, "CCM left plaintext after a failed verification");
    }
    if (ref[k->mode] != NULL) {
        TU_CHECK(!evp_run(ref[k->mode], &t, 0, NULL, c2, out, tg),
                 "the default provider accepted the tampered message");
        ERR_clear_error();
    }
    free(c2);
}

/*
 * n random cases of one mode: smgost's ciphertext and tag against the
 * oracle's; its decryption, driven another way, gives the plaintext back;
 * a re-init with only a new IV runs a second message on the same context;
 * XTS runs several data units on one context; tampering fails.
 */
static void diff(int mode, uint64_t seed)
{
    TU_RNG r;
    unsigned long n = (unsigned long)(3000 * tu_scale()), i, ran = 0;
    unsigned char *pt = tu_malloc(MAXLEN + 32), *ct = tu_malloc(MAXLEN + 32);
    unsigned char *mine = tu_malloc(MAXLEN + 32), *back = tu_malloc(MAXLEN + 32);
    unsigned char tag[16], mytag[16];

    tu_rng_seed(&r, seed);
    for (i = 0; i < n && tu_failures < 20; i++) {
        CASE k;
        DRIVE d, d2;
        int o;

        random_case(&r, mode, &k);
        random_drive(&r, &d);
        random_drive(&r, &d2);
        tu_rng_bytes(&r, pt, k.len);
        o = oracle_encrypt(&k, pt, ct, tag);
        if (o < 0) {
            skipped++;
            continue;
        }
        if (!TU_CHECK(o == 1, "%s: the oracle (%s) failed", names[mode],
                      oracle_name(&k))) {
            describe(&k, &d, "oracle");
            continue;
        }
        ran++;
        if (!TU_CHECK(evp_run(ours[mode], &k, 1, &d, pt, mine, mytag),
                      "%s encrypt failed", names[mode])
            || !TU_CHECK_MEM("ciphertext against the oracle", mine, k.len, ct,
                             k.len)
            || (mode != XTS
                && !TU_CHECK_MEM("tag against the oracle", mytag, k.taglen,
                                 tag, k.taglen))) {
            describe(&k, &d, "encrypt");
            continue;
        }
        if (!TU_CHECK(evp_run(ours[mode], &k, 0, &d2, ct, back, tag),
                      "%s decrypt failed", names[mode])
            || !TU_CHECK_MEM("decryption", back, k.len, pt, k.len)) {
            describe(&k, &d2, "decrypt");
            continue;
        }
        if (mode != XTS)
            tampered(&k, ct, tag, &r, back);
        /* A second message on one context, re-initialised with a new IV
         * only (XTS: a second data unit under the same tweak). */
        {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            CASE k2 = k;
            int enc = (int)tu_rng_below(&r, 2), ok;

            k2.len = pick_len(&r, MAXLEN);
            if (mode == XTS && k2.len < 16)
                k2.len += 16;
            if (mode != XTS)
                tu_rng_bytes(&r, k2.iv, k2.ivlen);
            tu_rng_bytes(&r, pt, k2.len);
            if (oracle_encrypt(&k2, pt, ct, tag) != 1)
                TU_CHECK(0, "oracle failed on the second message");
            ok = evp_start(ctx, ours[mode], &k, enc, tag)
                 && evp_message(ctx, &k, enc, &d, enc ? pt : ct, mine,
                                mytag);
            ERR_clear_error();
            ok = (mode == XTS
                  || EVP_CipherInit_ex2(ctx, NULL, NULL, k2.iv, enc, NULL))
                 && (mode != GCM || enc
                     || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                            (int)k2.taglen, tag) > 0)
                 && (mode != CCM || enc
                     || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                            (int)k2.taglen, tag) > 0)
                 && evp_message(ctx, &k2, enc, &d2, enc ? pt : ct, mine,
                                mytag);
            (void)ok;
            if (TU_CHECK(ok, "%s: second message after a re-init with a new "
                         "IV failed", names[mode])) {
                TU_CHECK_MEM("second message", mine, k2.len, enc ? ct : pt,
                             k2.len);
                if (enc && mode != XTS)
                    TU_CHECK_MEM("second message's tag", mytag, k2.taglen,
                                 tag, k2.taglen);
            } else {
                describe(&k2, &d2, enc ? "re-init encrypt" : "re-init decrypt");
            }
            EVP_CIPHER_CTX_free(ctx);
        }
    }
    printf("# %s: %lu cases against the %s, %lu without an oracle\n",
           names[mode], ran, ref[mode] != NULL ? "default provider"
           : "libgcrypt", skipped);
    TU_CHECK(ran > 0 || n == 0, "%s: no case had an oracle", names[mode]);
    free(pt);
    free(ct);
    free(mine);
    free(back);
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
    if (strcmp(group, "gcm") == 0) {
        diff(GCM, tu_seed(NULL));
    } else if (strcmp(group, "ccm") == 0) {
        diff(CCM, tu_seed(NULL));
    } else if (strcmp(group, "xts") == 0) {
        diff(XTS, tu_seed(NULL));
    } else {
        fprintf(stderr, "usage: %s edge | bad | tls | mac | gcm | ccm | xts\n",
                argv[0]);
        return 2;
    }
    for (i = 0; i < 3; i++) {
        EVP_CIPHER_free(ours[i]);
        EVP_CIPHER_free(ref[i]);
    }
    tu_libctx_free(libctx);
    return tu_report(group);
}
