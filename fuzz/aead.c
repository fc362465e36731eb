/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness: smgost's SM4-GCM, SM4-CCM and SM4-XTS against a
 * reference written here from the definitions (NIST SP 800-38D and 800-38C,
 * IEEE 1619 and GB/T 17964-2021 as OpenSSL 3.5 reads it) over the default
 * provider's SM4-ECB, so that it runs where the default provider lacks the
 * modes (OpenSSL 3.0).  One input is one message: smgost encrypts it with
 * the AAD and data split over updates as the input says (GCM; CCM and XTS
 * take one update each), in place or not, and must give the reference's
 * ciphertext and tag; it decrypts that back another way; a flipped tag bit
 * must fail, and CCM must then leave zeros in the output.
 *
 * Input: mode byte (GCM, CCM, XTS by value mod 3), key (32), IV length
 * byte, IV (64), tag length byte, flags byte (bit 0 in place, bit 1 XTS
 * IEEE), AAD chunk byte, data chunk byte, AAD length (fz_len), data length
 * (fz_len), and the rest is the message stream the AAD and data come from.
 */
#include "fuzz.h"
#include "gf128_ref.h"

static OSSL_LIB_CTX *ours_lc, *ref_lc;
static EVP_CIPHER *ours[3], *ecb;
static const char *const names[3] = { "SM4-GCM", "SM4-CCM", "SM4-XTS" };
enum { GCM, CCM, XTS };

#define MAX_DATA 0x4000

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    int i;

    (void)argc, (void)argv;
    ours_lc = fz_smgost_libctx();
    ref_lc = fz_ref_libctx(0);
    ecb = EVP_CIPHER_fetch(ref_lc, "SM4-ECB", NULL);
    for (i = 0; i < 3; i++)
        if ((ours[i] = EVP_CIPHER_fetch(ours_lc, names[i], FZ_PROPQ)) == NULL
            || ecb == NULL) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "fuzz: cannot fetch %s\n", names[i]);
            exit(1);
        }
    return 0;
}

/* ------------------------------------------------------- the reference */

typedef struct {
    EVP_CIPHER_CTX *e[2];       /* SM4-ECB under key 1 and key 2 */
} REF;

static void ref_block(REF *r, int which, int enc, const unsigned char *in,
                      unsigned char *out)
{
    int l;

    if (!EVP_CipherInit_ex2(r->e[which], NULL, NULL, NULL, enc, NULL)
        || !EVP_CipherUpdate(r->e[which], out, &l, in, 16) || l != 16)
        fz_fail("reference SM4-ECB failed");
}

static void xor16(unsigned char *d, const unsigned char *s)
{
    int i;

    for (i = 0; i < 16; i++)
        d[i] ^= s[i];
}

static void ghash(unsigned char x[16], const unsigned char h[16],
                  const unsigned char *p, size_t n)
{
    unsigned char b[16];
    size_t k;

    for (; n > 0; p += k, n -= k) {
        k = n < 16 ? n : 16;
        memset(b, 0, 16);
        memcpy(b, p, k);
        xor16(x, b);
        ref_gf128_mul(x, x, h);
    }
}

static void be64(unsigned char *p, uint64_t v)
{
    int i;

    for (i = 7; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static void ref_gcm(REF *r, const unsigned char *iv, size_t ivlen,
                    const unsigned char *aad, size_t alen,
                    const unsigned char *in, unsigned char *out, size_t len,
                    unsigned char tag[16])
{
    unsigned char h[16] = { 0 }, j0[16] = { 0 }, ctr[16], ks[16], x[16] = { 0 };
    unsigned char lens[16] = { 0 };
    size_t i, k;
    uint32_t c;

    ref_block(r, 0, 1, h, h);
    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
    } else {
        ghash(j0, h, iv, ivlen);
        be64(lens + 8, (uint64_t)ivlen * 8);
        ghash(j0, h, lens, 16);
    }
    memcpy(ctr, j0, 16);
    for (i = 0; i < len; i += 16) {
        c = ((uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16
             | (uint32_t)ctr[14] << 8 | ctr[15]) + 1;
        ctr[12] = (unsigned char)(c >> 24);
        ctr[13] = (unsigned char)(c >> 16);
        ctr[14] = (unsigned char)(c >> 8);
        ctr[15] = (unsigned char)c;
        ref_block(r, 0, 1, ctr, ks);
        for (k = 0; k < 16 && i + k < len; k++)
            out[i + k] = in[i + k] ^ ks[k];
    }
    ghash(x, h, aad, alen);
    ghash(x, h, out, len);
    be64(lens, (uint64_t)alen * 8);
    be64(lens + 8, (uint64_t)len * 8);
    ghash(x, h, lens, 16);
    ref_block(r, 0, 1, j0, tag);
    xor16(tag, x);
}

static void ref_ccm(REF *r, const unsigned char *n, size_t nlen, size_t m,
                    const unsigned char *aad, size_t alen,
                    const unsigned char *in, unsigned char *out, size_t len,
                    unsigned char tag[16])
{
    size_t L = 15 - nlen, i, k, hl;
    unsigned char mac[16] = { 0 }, a[16] = { 0 }, s[16], b[16];

    mac[0] = (unsigned char)((alen ? 0x40 : 0) | ((m - 2) / 2) << 3 | (L - 1));
    memcpy(mac + 1, n, nlen);
    for (i = 0; i < L; i++)
        mac[15 - i] = (unsigned char)(i < 8 ? (uint64_t)len >> (8 * i) : 0);
    ref_block(r, 0, 1, mac, mac);
    if (alen > 0) {
        /* the AAD with its length encoding, zero-padded, CBC-MACed */
        unsigned char *buf = malloc(alen + 10 + 16);

        if (alen < 0xff00) {
            buf[0] = (unsigned char)(alen >> 8);
            buf[1] = (unsigned char)alen;
            hl = 2;
        } else {
            buf[0] = 0xff;
            buf[1] = 0xfe;
            for (i = 0; i < 4; i++)
                buf[2 + i] = (unsigned char)(alen >> (24 - 8 * i));
            hl = 6;
        }
        memcpy(buf + hl, aad, alen);
        memset(buf + hl + alen, 0, 16);
        for (i = 0; i < hl + alen; i += 16) {
            xor16(mac, buf + i);
            ref_block(r, 0, 1, mac, mac);
        }
        free(buf);
    }
    a[0] = (unsigned char)(L - 1);
    memcpy(a + 1, n, nlen);
    for (i = 0; i < len; i += 16) {
        memset(b, 0, 16);
        k = len - i < 16 ? len - i : 16;
        memcpy(b, in + i, k);
        xor16(mac, b);
        ref_block(r, 0, 1, mac, mac);
        a[15] = (unsigned char)(a[15] + 1);
        for (k = 15; a[k] == 0 && k > 16 - L; k--)
            a[k - 1]++;
        ref_block(r, 0, 1, a, s);
        for (k = 0; k < 16 && i + k < len; k++)
            out[i + k] = in[i + k] ^ s[k];
    }
    memset(a + 16 - L, 0, L);
    ref_block(r, 0, 1, a, s);
    for (i = 0; i < 16; i++)
        tag[i] = mac[i] ^ s[i];
}

static void mul_x(unsigned char t[16], int ieee)
{
    int i, c;

    if (ieee) {
        c = t[15] >> 7;
        for (i = 15; i > 0; i--)
            t[i] = (unsigned char)(t[i] << 1 | t[i - 1] >> 7);
        t[0] = (unsigned char)(t[0] << 1 ^ (c ? 0x87 : 0));
    } else {
        c = t[15] & 1;
        for (i = 15; i > 0; i--)
            t[i] = (unsigned char)(t[i] >> 1 | t[i - 1] << 7);
        t[0] = (unsigned char)(t[0] >> 1 ^ (c ? 0xe1 : 0));
    }
}

/* One XTS data unit (encrypting), ciphertext stealing at the end. */
static void ref_xts(REF *r, int ieee, const unsigned char *iv,
                    const unsigned char *in, unsigned char *out, size_t len)
{
    unsigned char t[16], b[16];
    size_t m = len / 16, rem = len % 16, i;

    ref_block(r, 1, 1, iv, t);
    for (i = 0; i < m; i++) {
        memcpy(b, in + 16 * i, 16);
        xor16(b, t);
        ref_block(r, 0, 1, b, b);
        xor16(b, t);
        memcpy(out + 16 * i, b, 16);
        mul_x(t, ieee);
    }
    if (rem > 0) {
        unsigned char *last = out + 16 * (m - 1);

        memcpy(b, in + 16 * m, rem);
        memcpy(b + rem, last + rem, 16 - rem);
        memcpy(out + 16 * m, last, rem);
        xor16(b, t);
        ref_block(r, 0, 1, b, b);
        xor16(b, t);
        memcpy(last, b, 16);
    }
}

/* ------------------------------------------------------------- smgost */

typedef struct {
    int mode, ieee, inplace;
    unsigned char key[32], iv[64];
    size_t ivlen, taglen, achunk, dchunk;
    const unsigned char *aad;
    size_t alen, len;
} MSG;

/* One message through smgost; returns 1 on success (decrypt: verified). */
static int ours_run(const MSG *m, int enc, size_t achunk, size_t dchunk,
                    int inplace, const unsigned char *in, unsigned char *out,
                    unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM xp[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    int l, ok;

    if (m->mode == XTS)
        xp[0] = OSSL_PARAM_construct_utf8_string("xts_standard",
                                                 m->ieee ? "IEEE" : "GB", 0);
    if (inplace) {
        memmove(out, in, m->len);
        in = out;
    }
    ok = ctx != NULL && EVP_CipherInit_ex2(ctx, ours[m->mode], NULL, NULL,
                                           enc, NULL)
         && (m->mode == XTS
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
                                    (int)m->ivlen, NULL) > 0)
         && (m->mode != CCM
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                    (int)m->taglen, enc ? NULL : tag) > 0)
         && EVP_CipherInit_ex2(ctx, NULL, m->key, m->iv, enc, xp)
         && (m->mode != GCM || enc
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                    (int)m->taglen, tag) > 0)
         && (m->mode != CCM
             || EVP_CipherUpdate(ctx, NULL, &l, NULL, (int)m->len));
    if (m->mode != GCM)
        achunk = dchunk = 0;
    ok = ok && fz_aead_updates(ctx, NULL, m->aad, m->alen, achunk);
    if (ok && m->len == 0 && m->mode == CCM)
        ok = EVP_CipherUpdate(ctx, out, &l, out, 0);
    ok = ok && fz_aead_updates(ctx, out, in, m->len, dchunk);
    ok = ok && EVP_CipherFinal_ex(ctx, out + m->len, &l) && l == 0
         && (!enc || m->mode == XTS
             || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                    (int)m->taglen, tag) > 0);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char aad[MAX_DATA], pt[MAX_DATA + 16], ct[MAX_DATA + 16];
    static unsigned char mine[MAX_DATA + 16], back[MAX_DATA + 16];
    FZ_IN in = { data, size };
    FZ_MSG stream;
    MSG m;
    REF r = { { NULL, NULL } };
    unsigned char tag[16], mytag[16], bad[16];
    unsigned flags;
    size_t i;

    memset(&m, 0, sizeof(m));
    m.mode = (int)(fz_u8(&in) % 3);
    fz_bytes(&in, m.key, sizeof(m.key));
    m.ivlen = fz_u8(&in);
    fz_bytes(&in, m.iv, sizeof(m.iv));
    m.taglen = fz_u8(&in);
    flags = fz_u8(&in);
    m.achunk = fz_u8(&in);
    m.dchunk = fz_u8(&in) * 7u;
    m.alen = fz_len(&in) % (m.mode == XTS ? 1 : MAX_DATA);
    m.len = fz_len(&in) % MAX_DATA;
    m.inplace = flags & 1;
    m.ieee = flags >> 1 & 1;
    switch (m.mode) {
    case GCM:
        m.ivlen = 1 + m.ivlen % 64;
        m.taglen = 1 + m.taglen % 16;
        break;
    case CCM:
        m.ivlen = 7 + m.ivlen % 7;
        m.taglen = 4 + 2 * (m.taglen % 7);
        /* a 2-byte length field holds less than 64 KiB: fine here */
        break;
    default:
        m.ivlen = 16;
        if (m.len < 16)
            m.len += 16;
    }
    fz_msg_init(&stream, in.p, in.n);
    fz_msg_take(&stream, aad, m.alen);
    fz_msg_take(&stream, pt, m.len);
    m.aad = aad;

    r.e[0] = EVP_CIPHER_CTX_new();
    r.e[1] = EVP_CIPHER_CTX_new();
    if (r.e[0] == NULL || r.e[1] == NULL
        || !EVP_CipherInit_ex2(r.e[0], ecb, m.key, NULL, 1, NULL)
        || !EVP_CipherInit_ex2(r.e[1], ecb, m.key + 16, NULL, 1, NULL)
        || !EVP_CIPHER_CTX_set_padding(r.e[0], 0)
        || !EVP_CIPHER_CTX_set_padding(r.e[1], 0))
        fz_fail("reference setup");
    if (m.mode == GCM)
        ref_gcm(&r, m.iv, m.ivlen, aad, m.alen, pt, ct, m.len, tag);
    else if (m.mode == CCM)
        ref_ccm(&r, m.iv, m.ivlen, m.taglen, aad, m.alen, pt, ct, m.len, tag);
    else
        ref_xts(&r, m.ieee, m.iv, pt, ct, m.len);
    EVP_CIPHER_CTX_free(r.e[0]);
    EVP_CIPHER_CTX_free(r.e[1]);

    if (!ours_run(&m, 1, m.achunk, m.dchunk, m.inplace, pt, mine, mytag))
        fz_fail("%s: encryption failed (iv %zu, aad %zu, data %zu, tag %zu)",
                names[m.mode], m.ivlen, m.alen, m.len, m.taglen);
    fz_same("ciphertext", mine, m.len, ct, m.len);
    if (m.mode != XTS)
        fz_same("tag", mytag, m.taglen, tag, m.taglen);
    if (!ours_run(&m, 0, m.dchunk % 61, m.achunk * 3, !m.inplace, ct, back,
                  tag))
        fz_fail("%s: decryption failed", names[m.mode]);
    fz_same("decryption", back, m.len, pt, m.len);
    if (m.mode == XTS)
        return 0;
    memcpy(bad, tag, 16);
    bad[m.len % m.taglen] ^= 0x20;
    memset(back, 0x77, m.len);
    if (ours_run(&m, 0, 0, 0, 0, ct, back, bad))
        fz_fail("%s: a wrong tag was accepted", names[m.mode]);
    ERR_clear_error();
    for (i = 0; m.mode == CCM && i < m.len; i++)
        if (back[i] != 0)
            fz_fail("CCM left plaintext after a wrong tag");
    return 0;
}
