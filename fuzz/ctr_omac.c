/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness: smgost's kuznyechik-ctr-acpkm-omac and
 * magma-ctr-acpkm-omac (src/ctr_acpkm_omac.c).  gostprov has no usable
 * counterpart (its ciphers fail their key init through the provider, then
 * crash), so the reference is smgost's own plain run: a fresh context, the
 * CMS parameters and section with the key in one init call, the message in
 * one update; test/70-gost-diff.t compares that with gost-engine.  The
 * fuzzer picks the cipher, the key, the ukm (IV and KDF seed), the ACPKM
 * section (the CMS default, or a multiple of the block, or one that is
 * not, which must be refused), the order of the parameters (before, with
 * or after the key), in place or not, a copy finished alongside, a stretch
 * of other data and a re-init first, the update pieces and the message.
 * smgost's encryption must equal the reference's (ciphertext and tag), its
 * decryption must give the message back under the tag, and a tag with one
 * bit flipped must fail the final with no output and nothing queued.
 *
 * Input: cipher, flags, key (32), ukm (16, the first IV + 8 bytes used),
 * section byte, tamper byte, length (fz_len), up to 8 piece lengths
 * (fz_len, 0 ends them), and the rest is the message stream (fuzz.h).
 */
#include "fuzz.h"
#include "gost2015_params.h"

#include <openssl/core_names.h>

static OSSL_LIB_CTX *ours_lc;
static EVP_CIPHER *ciph[2];

static const struct {
    const char *name;
    size_t bs, ivlen;
} algs[2] = {
    { "kuznyechik-ctr-acpkm-omac", 16, 8 },
    { "magma-ctr-acpkm-omac", 8, 4 },
};

#define MAX_LEN 0x4000
#define MAX_PIECES 8

typedef struct {
    int a, way, inplace, copy, prelude;
    unsigned char key[32], ukm[16], der[4 + 16];
    size_t derlen, section, len, npieces, pieces[MAX_PIECES];
    unsigned tamper;
} CASE;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    int i;

    (void)argc, (void)argv;
    ours_lc = fz_smgost_libctx();
    for (i = 0; i < 2; i++)
        if ((ciph[i] = EVP_CIPHER_fetch(ours_lc, algs[i].name, FZ_PROPQ))
            == NULL) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "fuzz: no %s\n", algs[i].name);
            exit(1);
        }
    return 0;
}

static void pick_case(FZ_IN *in, CASE *c)
{
    unsigned f, s;

    memset(c, 0, sizeof(*c));
    c->a = (int)(fz_u8(in) & 1);
    f = fz_u8(in);
    c->way = (int)(f % 3);
    c->inplace = (f >> 2) & 1;
    c->copy = (f >> 3) & 1;
    c->prelude = (f >> 4) & 1;
    fz_bytes(in, c->key, sizeof(c->key));
    fz_bytes(in, c->ukm, sizeof(c->ukm));
    c->derlen = tu_gost2015_params(c->der, c->ukm,
                                   algs[c->a].ivlen + 8);
    /* 0: the CMS default; odd: not a multiple of the block */
    s = fz_u8(in);
    c->section = s == 0 ? 0 : s & 1 ? s : (s >> 1) * algs[c->a].bs;
    c->tamper = fz_u8(in);
    c->len = fz_len(in);
    while (c->npieces < MAX_PIECES && (c->pieces[c->npieces] = fz_len(in)))
        c->npieces++;
}

/* The init of c's cipher, its parameters the case's way. */
static int init(EVP_CIPHER_CTX *ctx, const CASE *c, int way, int enc,
                const unsigned char *tag)
{
    OSSL_PARAM p[4];
    size_t section = c->section, i = 0;
    int ok;

    p[i++] = OSSL_PARAM_construct_octet_string("alg_id_param",
                                               (void *)c->der, c->derlen);
    if (section != 0)
        p[i++] = OSSL_PARAM_construct_size_t("key-mesh", &section);
    if (!enc)
        p[i++] = OSSL_PARAM_construct_octet_string("tag", (void *)tag,
                                                   algs[c->a].bs);
    p[i] = OSSL_PARAM_construct_end();
    switch (way) {
    case 0:
        ok = EVP_CipherInit_ex2(ctx, ciph[c->a], NULL, NULL, enc, p)
             && EVP_CipherInit_ex2(ctx, NULL, c->key, NULL, enc, NULL);
        /* the key's init starts a message: the tag again */
        return ok && (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                                 (int)algs[c->a].bs,
                                                 (void *)tag) > 0);
    case 1:
        return EVP_CipherInit_ex2(ctx, ciph[c->a], c->key, NULL, enc, p);
    default:
        return EVP_CipherInit_ex2(ctx, ciph[c->a], c->key, NULL, enc, NULL)
               && EVP_CIPHER_CTX_set_params(ctx, p);
    }
}

/* Feeds in[from, to) in the case's pieces. */
static int feed(EVP_CIPHER_CTX *ctx, const CASE *c, const unsigned char *in,
                unsigned char *out, size_t from, size_t to)
{
    size_t k = 0, n;
    int l;

    while (from < to) {
        n = c->npieces == 0 ? to - from : c->pieces[k++ % c->npieces];
        if (n > to - from)
            n = to - from;
        if (!EVP_CipherUpdate(ctx, out + from, &l, in + from, (int)n)
            || (size_t)l != n)
            return 0;
        from += n;
    }
    return 1;
}

/* The reference: a fresh context, one init, one update.  0 if refused. */
static int reference(const CASE *c, const unsigned char *msg,
                     unsigned char *ct, unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int l, ok = ctx != NULL && init(ctx, c, 1, 1, NULL)
        && EVP_CipherUpdate(ctx, ct, &l, msg, (int)c->len)
        && EVP_CipherFinal_ex(ctx, ct + c->len, &l) && l == 0
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                               (int)algs[c->a].bs, tag) > 0;

    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/*
 * smgost the case's way: other data and a re-init first if asked, the
 * message in pieces, a copy finished alongside.  Returns 1 if every call
 * succeeded (a decryption's final included).
 */
static int ours(const CASE *c, int enc, const unsigned char *in,
                unsigned char *out, unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dup = NULL;
    unsigned char junk[64], *other = NULL;
    size_t bs = algs[c->a].bs, half = c->copy ? c->len / 2 : c->len;
    unsigned char t2[16];
    int l, ok = ctx != NULL && init(ctx, c, c->way, enc, tag);

    if (ok && c->prelude) {
        memset(junk, 0x5a, sizeof(junk));
        ok = EVP_CipherUpdate(ctx, junk, &l, junk, 33)
             && EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, enc, NULL)
             && (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                            (int)bs, tag) > 0);
    }
    if (c->inplace && in != out) {
        memcpy(out, in, c->len);
        in = out;
    }
    ok = ok && feed(ctx, c, in, out, 0, half);
    if (ok && c->copy) {
        other = malloc(c->len + 1);
        ok = other != NULL && (dup = EVP_CIPHER_CTX_new()) != NULL
             && EVP_CIPHER_CTX_copy(dup, ctx)
             && feed(dup, c, in, other, half, c->len)
             && EVP_CipherFinal_ex(dup, junk, &l) && l == 0
             && (!enc || EVP_CIPHER_CTX_ctrl(dup, EVP_CTRL_AEAD_GET_TAG,
                                             (int)bs, t2) > 0);
    }
    ok = ok && feed(ctx, c, in, out, half, c->len)
         && EVP_CipherFinal_ex(ctx, out + c->len, &l) && l == 0
         && (!enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                         (int)bs, tag) > 0);
    if (ok && c->copy) {
        fz_same("the copy's output", other + half, c->len - half, out + half,
                c->len - half);
        if (enc)
            fz_same("the copy's tag", t2, bs, tag, bs);
    }
    free(other);
    EVP_CIPHER_CTX_free(dup);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FZ_IN in = { data, size };
    FZ_MSG m;
    CASE c;
    unsigned char *msg, *want, *got, *back;
    unsigned char wtag[16], tag[16];
    size_t bs;
    int refused;

    pick_case(&in, &c);
    if (c.len > MAX_LEN)
        c.len = MAX_LEN;
    bs = algs[c.a].bs;
    msg = malloc(c.len + 1);
    want = malloc(c.len + 1);
    got = malloc(c.len + 1);
    back = malloc(c.len + 1);
    if (msg == NULL || want == NULL || got == NULL || back == NULL)
        goto end;
    fz_msg_init(&m, in.p, in.n);
    fz_msg_take(&m, msg, c.len);
    /* the contract: a section not a multiple of the block is refused */
    refused = !reference(&c, msg, want, wtag);
    ERR_clear_error();
    if (refused != (c.section % bs != 0))
        fz_fail("%s: section %zu %s", algs[c.a].name, c.section,
                refused ? "refused" : "taken");
    if (refused)
        goto end;
    if (!ours(&c, 1, msg, got, tag))
        fz_fail("%s: encryption failed (way %d)", algs[c.a].name, c.way);
    fz_same("ciphertext", got, c.len, want, c.len);
    fz_same("tag", tag, bs, wtag, bs);
    if (!ours(&c, 0, got, back, tag))
        fz_fail("%s: its own message refused", algs[c.a].name);
    fz_same("decryption", back, c.len, msg, c.len);
    tag[(c.tamper >> 3) % bs] ^= (unsigned char)(1 << (c.tamper & 7));
    ERR_clear_error();
    if (ours(&c, 0, want, back, tag))
        fz_fail("%s: a wrong tag accepted", algs[c.a].name);
    if (ERR_peek_error() != 0)
        fz_fail("%s: a wrong tag queued an error", algs[c.a].name);
 end:
    ERR_clear_error();
    free(msg);
    free(want);
    free(got);
    free(back);
    return 0;
}
