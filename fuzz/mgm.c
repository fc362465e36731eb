/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness: smgost's kuznyechik-mgm and magma-mgm against the
 * reference MGM of test/lib/mgm_ref.h (RFC 9058 section 4, bit-by-bit
 * products, shared with test/mgm_test.c) over gostprov's block cipher, so
 * that no part of the reference is smgost's: its kuznyechik-ecb, and for
 * Magma, which gost-engine 3.0.1 has no ECB or MGM of (magma-cbc,
 * magma-ctr and the ACPKM modes only), its magma-cbc under a zero IV fed
 * P_i ^ C_{i-1} one block at a time, which gives E(P_i).  One input is one
 * message: smgost encrypts it with the AAD and data split over updates as
 * the input says, in place or not, and must give the reference's
 * ciphertext and the first 1..n bytes of its tag (the length read chosen
 * by the input); it decrypts that back another way (other chunks, in place
 * if the encryption was not, on a fresh context or the encryption's
 * re-initialised with the nonce alone, the tag set before the AAD or just
 * before the final); then a flipped bit of the tag, the AAD or the
 * ciphertext must fail the decryption's final.
 *
 * Input: cipher byte (kuznyechik-mgm, magma-mgm by value mod 2), key (32),
 * nonce (16; Magma's the first 8), tag length byte (1 + v % n), flags byte
 * (bit 0 encryption in place, bit 1 decryption on the encryption's
 * context, bit 2 its tag set just before the final, bits 3-4 the flip: tag,
 * AAD, ciphertext by value mod 3, the tag where the AAD or data is empty),
 * AAD chunk byte, data chunk byte (x7), flip position (2 bytes), flip bit
 * byte, AAD length (fz_len), data length (fz_len), and the rest is the
 * message stream the AAD and data come from.
 */
#include "fuzz.h"
#include "mgm_ref.h"

static OSSL_LIB_CTX *ours_lc, *ref_lc;

static const struct {
    const char *name;
    const char *ref;            /* gostprov's block cipher */
    size_t bs;
    int chained;                /* ref is CBC: ECB rebuilt from it */
} algs[] = {
    { "kuznyechik-mgm", "kuznyechik-ecb", 16, 0 },
    { "magma-mgm", "magma-cbc", 8, 1 },
};

static EVP_CIPHER *ours[FZ_NELEM(algs)], *refs[FZ_NELEM(algs)];

#define MAX_DATA 0x4000

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t i;

    (void)argc, (void)argv;
    ours_lc = fz_smgost_libctx();
    ref_lc = fz_ref_libctx(1);
    for (i = 0; i < FZ_NELEM(algs); i++)
        /* gostprov's algorithms carry no provider= property */
        if ((ours[i] = EVP_CIPHER_fetch(ours_lc, algs[i].name, FZ_PROPQ))
                == NULL
            || (refs[i] = EVP_CIPHER_fetch(ref_lc, algs[i].ref, NULL))
                == NULL) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "fuzz: cannot fetch %s or gostprov's %s\n",
                    algs[i].name, algs[i].ref);
            exit(1);
        }
    return 0;
}

/* ------------------------------------------------------- the reference */

/* gostprov's block cipher under one key, for mgm_ref.h. */
typedef struct {
    EVP_CIPHER_CTX *ctx;
    size_t a;
    unsigned char last[16];     /* chained: the last output (C_{i-1}) */
} ORACLE;

static void oracle_block(void *arg, const unsigned char *in,
                         unsigned char *out)
{
    ORACLE *o = arg;
    size_t bs = algs[o->a].bs, i;
    unsigned char b[16];
    int l = 0;

    memcpy(b, in, bs);
    for (i = 0; algs[o->a].chained && i < bs; i++)
        b[i] ^= o->last[i];
    if (!EVP_CipherUpdate(o->ctx, out, &l, b, (int)bs) || (size_t)l != bs)
        fz_fail("gostprov's %s failed on a whole block", algs[o->a].ref);
    memcpy(o->last, out, bs);
}

/* The message through the reference: ct and the full tag. */
static void ref_run(size_t a, const unsigned char *key,
                    const unsigned char *nonce, const unsigned char *aad,
                    size_t alen, const unsigned char *pt, size_t len,
                    unsigned char *ct, unsigned char *tag)
{
    static const unsigned char zero[16];
    ORACLE o = { EVP_CIPHER_CTX_new(), a, { 0 } };

    /* gostprov the way it is right (fuzz/gost.c): cipher first, key and
     * IV in a second init call */
    if (o.ctx == NULL
        || !EVP_CipherInit_ex2(o.ctx, refs[a], NULL, NULL, 1, NULL)
        || !EVP_CipherInit_ex2(o.ctx, NULL, key,
                               algs[a].chained ? zero : NULL, 1, NULL)
        || !EVP_CIPHER_CTX_set_padding(o.ctx, 0))
        fz_fail("gostprov's %s: setup", algs[a].ref);
    ref_mgm(algs[a].bs, oracle_block, &o, nonce, aad, alen, pt, len, ct, tag);
    EVP_CIPHER_CTX_free(o.ctx);
    ERR_clear_error();
}

/* ------------------------------------------------------------- smgost */

typedef struct {
    size_t a, taglen, achunk, dchunk, alen, len;
    unsigned flags;
    unsigned char key[32], nonce[16];
} MSG;

enum { F_INPLACE = 1, F_REINIT = 2, F_TAG_LATE = 4 };

static void describe(const MSG *m)
{
    fprintf(stderr, "\n%s: aad %zu, data %zu, tag read %zu, flags %#x, "
            "chunks %zu/%zu\n", algs[m->a].name, m->alen, m->len, m->taglen,
            m->flags, m->achunk, m->dchunk);
}

/*
 * One message through smgost on ctx: a fresh init (cipher, key, nonce), or
 * with reinit a re-init of a used context with the nonce alone.  The AAD
 * and data in achunk / dchunk pieces (0: one), in place or not; an
 * encryption reads taglen bytes of tag after the final, a decryption sets
 * the whole tag after the init or, late, just before the final.  Returns
 * 1 on success (decrypt: verified).
 */
static int ours_run(EVP_CIPHER_CTX *ctx, const MSG *m, int enc, int reinit,
                    int late, size_t achunk, size_t dchunk, int inplace,
                    const unsigned char *aad, const unsigned char *in,
                    unsigned char *out, unsigned char *tag)
{
    int bs = (int)algs[m->a].bs, l, ok;

    if (inplace) {
        memmove(out, in, m->len);
        in = out;
    }
    ok = reinit ? EVP_CipherInit_ex2(ctx, NULL, NULL, m->nonce, enc, NULL)
                : EVP_CipherInit_ex2(ctx, ours[m->a], m->key, m->nonce, enc,
                                     NULL);
    ok = ok && (enc || late
                || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, bs,
                                       tag) > 0);
    ok = ok && fz_aead_updates(ctx, NULL, aad, m->alen, achunk)
         && fz_aead_updates(ctx, out, in, m->len, dchunk)
         && (enc || !late
                || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, bs,
                                       tag) > 0)
         && EVP_CipherFinal_ex(ctx, out + m->len, &l) && l == 0;
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)m->taglen,
                                 tag) > 0;
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    MSG m;
    FZ_IN in = { data, size };
    FZ_MSG stream;
    EVP_CIPHER_CTX *ctx, *dctx;
    /* the reference's tag, ours (taglen bytes), the one flipped */
    unsigned char tag[16], mytag[16], bad[16];
    static unsigned char aad[MAX_DATA], pt[MAX_DATA + 16], ct[MAX_DATA + 16],
        mine[MAX_DATA + 16], back[MAX_DATA + 16];
    size_t bs, at, flip;
    unsigned bit;

    memset(&m, 0, sizeof(m));
    m.a = fz_u8(&in) % FZ_NELEM(algs);
    bs = algs[m.a].bs;
    fz_bytes(&in, m.key, sizeof(m.key));
    fz_bytes(&in, m.nonce, sizeof(m.nonce));
    m.taglen = 1 + fz_u8(&in) % bs;
    m.flags = fz_u8(&in);
    m.achunk = fz_u8(&in);
    m.dchunk = fz_u8(&in) * 7u;
    at = fz_u16(&in);
    bit = fz_u8(&in) % 8;
    m.alen = fz_len(&in) % MAX_DATA;
    m.len = fz_len(&in) % MAX_DATA;
    fz_msg_init(&stream, in.p, in.n);
    fz_msg_take(&stream, aad, m.alen);
    fz_msg_take(&stream, pt, m.len);

    ref_run(m.a, m.key, m.nonce, aad, m.alen, pt, m.len, ct, tag);

    ctx = EVP_CIPHER_CTX_new();
    dctx = m.flags & F_REINIT ? ctx : EVP_CIPHER_CTX_new();
    if (ctx == NULL || dctx == NULL)
        fz_fail("out of memory");
    if (!ours_run(ctx, &m, 1, 0, 0, m.achunk, m.dchunk, m.flags & F_INPLACE,
                  aad, pt, mine, mytag)) {
        describe(&m);
        fz_fail("%s: encryption failed", algs[m.a].name);
    }
    if (fz_first_diff(mine, m.len, ct, m.len) != (size_t)-1
        || fz_first_diff(mytag, m.taglen, tag, m.taglen) != (size_t)-1) {
        describe(&m);
        fz_same("ciphertext", mine, m.len, ct, m.len);
        fz_same("tag", mytag, m.taglen, tag, m.taglen);
    }
    if (!ours_run(dctx, &m, 0, m.flags & F_REINIT, m.flags & F_TAG_LATE,
                  m.dchunk % 61, m.achunk * 3, !(m.flags & F_INPLACE), aad,
                  ct, back, tag)) {
        describe(&m);
        fz_fail("%s: decryption failed", algs[m.a].name);
    }
    if (fz_first_diff(back, m.len, pt, m.len) != (size_t)-1) {
        describe(&m);
        fz_same("decryption", back, m.len, pt, m.len);
    }

    /* one bit flipped must fail the final: the tag's, the AAD's or the
     * ciphertext's (the tag's where the AAD or data is empty) */
    memcpy(bad, tag, bs);
    flip = (m.flags >> 3 & 3) % 3;
    if ((flip == 1 && m.alen == 0) || (flip == 2 && m.len == 0))
        flip = 0;
    at %= flip == 0 ? bs : flip == 1 ? m.alen : m.len;
    (flip == 0 ? bad : flip == 1 ? aad : ct)[at] ^= (unsigned char)(1u << bit);
    if (ours_run(dctx, &m, 0, 0, m.flags & F_TAG_LATE, 0, 0, 0, aad, ct,
                 back, bad)) {
        describe(&m);
        fz_fail("%s: a flipped %s bit (byte %zu, bit %u) was accepted",
                algs[m.a].name, flip == 0 ? "tag" : flip == 1 ? "AAD"
                : "ciphertext", at, bit);
    }
    ERR_clear_error();
    if (dctx != ctx)
        EVP_CIPHER_CTX_free(dctx);
    EVP_CIPHER_CTX_free(ctx);
    return 0;
}
