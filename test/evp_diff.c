/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential tests of every smgost family over seeded random cases,
 * through EVP as users call it, against other implementations; a case
 * table per family (its groups, and the lengths and update pieces that
 * matter to it: sm_shape, gost89_shape).
 *
 * sm: against OpenSSL's default provider
 *   sm4:  every mode, both directions, random keys, IVs, lengths (0 to
 *         tens of KiB, a few of 1 MiB) and update chunkings, in place and
 *         out of place, padding on and off (and switched mid-stream),
 *         EVP_Cipher for updates where that means the same,
 *         EVP_CIPHER_CTX_copy mid-stream with both copies continued,
 *         re-init with a new IV (or nothing) mid-stream, CTR counters
 *         about to wrap at 2^32, 2^64, 2^96 and 2^128; after every call
 *         the output, its length, `num`, `updated-iv`, `iv` and `padding`
 *         must equal the default provider's.
 *   sm3:  random messages and chunkings, EVP_MD_CTX_copy_ex mid-stream.
 *   hmac: HMAC (default provider) with digest SM3 and properties
 *         provider=smgost, against properties provider=default.
 *
 * gost89: GOST 28147-89 and Magma
 *   gostprov  gost-engine's provider: gost89, gost89-cnt, gost89-cnt-12,
 *             gost89-cbc, magma-cbc, magma-ctr (every parameter set through
 *             alg_id_param, key meshing on and off, padding on and off),
 *             magma-ctr-acpkm and kuznyechik-ctr-acpkm (random sections
 *             crossed at any point, given in the init call or after it,
 *             kept across re-inits), those ciphers' updated-iv after
 *             every update and final, both fed the same pieces, and gost89
 *             and gost89-cbc in CMS decoders' flow (the encoding as
 *             alg_id_param or through EVP_CIPHER_asn1_to_param).
 *   gostprov-mac  gostprov's MACs, loaded into the default library
 *             context: gost-mac and gost-mac-12 (sizes 1..8), magma-mac,
 *             kuznyechik-mac and kuznyechik-ctr-acpkm-omac (sizes
 *             1..block, random N and T).
 *   gcrypt    libgcrypt 1.10 (built with HAVE_GCRYPT): GOST28147 ECB, CBC
 *             and CFB, GOST28147_MESH CFB, under every parameter set, Magma
 *             ECB and CBC through the byte-order relation between the two,
 *             Magma CTR as GOST28147 ECB of the counter blocks (libgcrypt
 *             has no Magma of its own, and its CTR counts in the other
 *             byte order), gost89-cnt and gost89-cnt-12 as RFC 5830's
 *             counter mode with CryptoPro meshing over GOST28147 ECB (which
 *             libgcrypt lacks), and GOST28147_IMIT against gost-mac under
 *             every set.
 *   gost94-gostprov, gost94-gcrypt
 *             md_gost94 (GOST R 34.11-94, CryptoPro set) against
 *             gostprov's md_gost94 (non-empty messages only: gostprov
 *             hashes an extra zero block for the empty one) and against
 *             libgcrypt's GOSTR3411_CP: random messages around the 32-byte
 *             block and long ones, random update pieces, copies
 *             mid-stream, one shot.
 *
 * The references run each message in one piece from a fresh context.
 * smgost runs it in random update pieces, in place or not, with the set
 * chosen in the init call or after it (by name, short name, OID or
 * alg_id_param), copied mid-stream with both copies finished, or after a
 * re-init that gives only a new IV (or nothing, or the key again) following
 * a stretch of other data, which must restart the stream (counter, key
 * meshing, all).  Both directions are checked.
 *
 * Where the references differ from smgost by design, the cases avoid it:
 *  - gostprov crashes on parameters passed in its init call or before it:
 *    it gets them after the init only;
 *  - gostprov's alg_id_param replaces the IV of the next init only, smgost's
 *    the current one too: the encoding given to either carries the IV of
 *    the init it follows, or (the CMS decoders' flow) an init without IV
 *    and a re-init follow it;
 *  - gostprov's IMIT of a message of exactly 8 bytes depends on how it was
 *    fed (a gostprov defect): gostprov gets every message in one piece;
 *  - gostprov's kuznyechik-cfb leaves the last block of a call that ends on
 *    a block boundary out of its register until the next call (a gostprov
 *    defect: its updated-iv is then one block behind, and `num` 16):
 *    updated-iv is compared inside blocks only there;
 *  - libgcrypt 1.10 does not mesh the Test set in GOST28147_MESH, and its
 *    IMIT never meshes (its mesh counter never advances): Test/MESH is
 *    compared with smgost's key-mesh 0 and IMIT only up to 1024 bytes.
 *
 * streebog: md_gost12_256 and md_gost12_512, random messages (mostly up to
 * three blocks) in random pieces, copied mid-stream, and HMAC over them
 * (the default HMAC with the target's digest) with random keys
 *   gostprov  against gostprov's digests and the default HMAC over them
 *   gcrypt    against libgcrypt's STRIBOG256/512 and HMAC_STRIBOG256/512
 *   file      against the digests of the file SMGOST_STREEBOG_REF (Botan's,
 *             from test/streebog_botan.py)
 *
 * kuznyechik: Kuznyechik against gostprov
 *   gostprov  kuznyechik-ecb, -cbc, -cfb, -ofb, -ctr as the gost89 ciphers
 *             above (padding on and off), and their updated-iv.
 *
 * Usage: evp_diff sm sm4|sm3|hmac [seed], evp_diff gost89
 * gostprov|gostprov-mac|gcrypt [seed], evp_diff streebog gostprov|gcrypt|file [seed], evp_diff
 * kuznyechik gostprov [seed], evp_diff gost89 gost94-gostprov|gost94-gcrypt
 * [seed]; evp_diff has-gcrypt exits 0 if the program was built with
 * libgcrypt.  The seed (else SMGOST_TEST_SEED, else the clock) is printed;
 * SMGOST_TEST_SCALE scales the case counts.
 */
#include "gost89_test.h"

#include <limits.h>
#include <sys/types.h>
#include <openssl/asn1.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#ifdef HAVE_GCRYPT
# include <gcrypt.h>
#endif

static OSSL_LIB_CTX *libctx, *gplibctx;
static TU_RNG rng;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_CTX 3               /* the original, a copy, a copy of a copy */
#define MAX_CHUNKS 4096

static size_t rnd(size_t n)
{
    return tu_rng_below(&rng, n);
}

/* The message lengths and update pieces that matter to a family. */
typedef struct {
    const TU_LEN_BAND *lens;
    size_t nlens;
    TU_CHUNKING chunking;
} DIFF_SHAPE;

/* Mostly short messages around block edges, some long ones. */
static const TU_LEN_BAND sm_lens[] = {
    /* percent, base, unit, count, jitter */
    { 45, 0, 1, 70, 0 },
    { 35, 0, 1, 700, 0 },
    { 20, 0, 1, 40 * 1024, 0 },
};

/* Pieces around SM4's 16-byte block. */
static const DIFF_SHAPE sm_shape = {
    sm_lens, NELEM(sm_lens), { 40, 8192, 16, 64, 0 }
};

/*
 * Mostly short messages around block edges, many around the 1024-byte
 * meshing period, some long ones and some past several periods.
 */
static const TU_LEN_BAND gost89_lens[] = {
    /* percent, base, unit, count, jitter */
    { 35, 0, 1, 70, 0 },
    { 25, 0, 1, 1100, 0 },
    { 15, 1024 - 9, 1024, 6, 19 },
    { 20, 0, 1, 12 * 1024, 0 },
    { 5, 0, 1, 48 * 1024, 0 },
};

/* Pieces around the 8-byte block and the 1024-byte meshing period. */
static const DIFF_SHAPE gost89_shape = {
    gost89_lens, NELEM(gost89_lens), { 20, 3000, 8, 160, 1024 }
};

static size_t pick_len(const DIFF_SHAPE *f)
{
    return tu_pick_len(&rng, f->lens, f->nlens);
}

/* Splits len into at most max update sizes. */
static size_t make_chunks(const DIFF_SHAPE *f, size_t len, size_t *chunks,
                          size_t max)
{
    return tu_chunks(&rng, &f->chunking, len, chunks, max);
}

/* ------------------------------------------------------------- SM4, SM3 */

struct state {
    int ok;
    unsigned int num, pad;
    unsigned char iv[16], oiv[16];
    size_t ivlen, oivlen;
};

static struct state get_state(EVP_CIPHER_CTX *ctx)
{
    struct state s;
    OSSL_PARAM p[5];

    memset(&s, 0, sizeof(s));
    p[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &s.num);
    p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV,
                                             s.iv, sizeof(s.iv));
    p[2] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, s.oiv,
                                             sizeof(s.oiv));
    p[3] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &s.pad);
    p[4] = OSSL_PARAM_construct_end();
    s.ok = EVP_CIPHER_CTX_get_params(ctx, p);
    s.ivlen = p[1].return_size;
    s.oivlen = p[2].return_size;
    ERR_clear_error();
    return s;
}

/* Everything one random SM4 case needs. */
struct sm4_case {
    const char *name;
    int enc, pad, block_mode;
    unsigned char key[16], iv[16];
    unsigned char *in;
    size_t len;
    unsigned long no;
    /* Events happen before chunk number ..._at (never, if past the end). */
    size_t nchunks, copy_at, reinit_at, pad_at;
};

static void sm4_describe(const struct sm4_case *c)
{
    fprintf(stderr, "  in case %lu: %s %s, padding %d, length %zu in %zu "
            "updates; before update #: copy %zd, re-init %zd, padding "
            "switched %zd\n", c->no, c->name, c->enc ? "encrypt" : "decrypt",
            c->pad, c->len, c->nchunks, (ssize_t)c->copy_at,
            (ssize_t)c->reinit_at, (ssize_t)c->pad_at);
}

static int compare_state(const struct sm4_case *c, EVP_CIPHER_CTX *ours,
                         EVP_CIPHER_CTX *ref, const char *when)
{
    struct state a = get_state(ours), b = get_state(ref);

    if (TU_CHECK(a.ok == b.ok
                 && (!a.ok || (a.num == b.num && a.pad == b.pad
                               && a.ivlen == b.ivlen && a.oivlen == b.oivlen
                               && memcmp(a.iv, b.iv, a.ivlen) == 0
                               && memcmp(a.oiv, b.oiv, a.oivlen) == 0)),
                 "state after %s: smgost ok=%d num=%u padding=%u, default "
                 "ok=%d num=%u padding=%u", when, a.ok, a.num, a.pad, b.ok,
                 b.num, b.pad))
        return 1;
    tu_hexdump(stderr, "smgost updated-iv", a.iv, a.ivlen);
    tu_hexdump(stderr, "default updated-iv", b.iv, b.ivlen);
    tu_hexdump(stderr, "smgost iv", a.oiv, a.oivlen);
    tu_hexdump(stderr, "default iv", b.oiv, b.oivlen);
    sm4_describe(c);
    return 0;
}

/*
 * One context under test and its buffer.  Out of place, buf receives the
 * output and input comes from the case.  In place, buf holds the input and
 * receives the output: output at `done` trails the next input at `rd` by
 * exactly the bytes the cipher holds back, as a stream processed in place
 * is laid out.
 */
struct lane {
    EVP_CIPHER_CTX *ctx;
    unsigned char *buf;
    size_t done, rd;
    int inplace;
    int oneshot;                /* EVP_Cipher where it means an update */
};

static void lane_free(struct lane *l)
{
    EVP_CIPHER_CTX_free(l->ctx);
    free(l->buf);
    memset(l, 0, sizeof(*l));
}

/*
 * A new lane: a fresh context (from == NULL) at the start of the message,
 * or a copy of from when pos bytes were fed, refdone bytes came out and
 * held bytes are held back.
 */
static int lane_new(struct lane *l, EVP_CIPHER_CTX *from,
                    const struct sm4_case *c, size_t pos,
                    const unsigned char *refout, size_t refdone, size_t held)
{
    l->ctx = EVP_CIPHER_CTX_new();
    l->buf = tu_malloc(c->len + 64);
    l->inplace = (int)rnd(2);
    l->oneshot = rnd(3) == 0;
    l->done = refdone;
    l->rd = refdone + held;
    if (refdone > 0)
        memcpy(l->buf, refout, refdone);
    if (l->inplace)
        memcpy(l->buf + l->rd, c->in + pos, c->len - pos);
    return l->ctx != NULL
           && (from == NULL || EVP_CIPHER_CTX_copy(l->ctx, from));
}

static void sm4_case_run(EVP_CIPHER *ours_c, EVP_CIPHER *ref_c,
                         struct sm4_case *c)
{
    size_t chunks[4096], nchunks, i, j, pos = 0, refdone = 0, held = 0;
    size_t nl = 1, copy_at, reinit_at, pad_at;
    unsigned char *refout = tu_malloc(c->len + 64), newiv[16];
    struct lane lanes[MAX_CTX];
    EVP_CIPHER_CTX *ref = EVP_CIPHER_CTX_new();
    int rok, ook, routl, ooutl, reinit_iv, pad = c->pad;

    memset(lanes, 0, sizeof(lanes));
    nchunks = c->nchunks = make_chunks(&sm_shape, c->len, chunks,
                                       NELEM(chunks));
    copy_at = c->copy_at = rnd(4) == 0 ? rnd(nchunks + 1) : SIZE_MAX;
    reinit_at = c->reinit_at = rnd(4) == 0 ? rnd(nchunks + 1) : SIZE_MAX;
    reinit_iv = rnd(3) != 0;    /* else a re-init with neither key nor IV */
    pad_at = c->pad_at = c->block_mode && rnd(4) == 0 ? rnd(nchunks + 1)
                                                      : SIZE_MAX;
    tu_rng_bytes(&rng, newiv, sizeof(newiv));

    if (!TU_CHECK(ref != NULL && lane_new(&lanes[0], NULL, c, 0, NULL, 0, 0),
                  "context allocation"))
        goto end;
    rok = EVP_CipherInit_ex2(ref, ref_c, c->key, c->iv, c->enc, NULL);
    ook = EVP_CipherInit_ex2(lanes[0].ctx, ours_c, c->key, c->iv, c->enc,
                             NULL);
    if (c->block_mode) {
        rok = rok && EVP_CIPHER_CTX_set_padding(ref, c->pad);
        ook = ook && EVP_CIPHER_CTX_set_padding(lanes[0].ctx, c->pad);
    }
    if (!TU_CHECK(rok && ook, "init: smgost %d, default %d", ook, rok))
        goto end;

    for (i = 0; i <= nchunks; i++) {
        if (i == reinit_at) {
            const unsigned char *iv = reinit_iv ? newiv : NULL;

            rok = EVP_CipherInit_ex2(ref, NULL, NULL, iv, -1, NULL);
            for (j = 0; j < nl; j++) {
                struct lane *l = &lanes[j];

                ook = EVP_CipherInit_ex2(l->ctx, NULL, NULL, iv, -1, NULL);
                TU_CHECK(ook == rok, "re-init (%s IV): smgost %d, default %d",
                         iv ? "new" : "no", ook, rok);
                /* What was held back is dropped: close the gap. */
                if (l->inplace)
                    memmove(l->buf + l->done, l->buf + l->rd, c->len - pos);
                l->rd = l->done;
                compare_state(c, l->ctx, ref, "re-init");
            }
            held = 0;
        }
        /* Padding switched mid-stream, e.g. with a block held back. */
        if (i == pad_at) {
            pad = !pad;
            rok = EVP_CIPHER_CTX_set_padding(ref, pad);
            for (j = 0; j < nl; j++)
                TU_CHECK(EVP_CIPHER_CTX_set_padding(lanes[j].ctx, pad) == rok,
                         "padding %d before update %zu: default %d", pad, i,
                         rok);
        }
        if (i == copy_at && nl < MAX_CTX) {
            struct lane *src = &lanes[rnd(nl)];

            if (!TU_CHECK(lane_new(&lanes[nl], src->ctx, c, pos, refout,
                                   refdone, held), "EVP_CIPHER_CTX_copy"))
                goto end;
            compare_state(c, lanes[nl++].ctx, ref, "EVP_CIPHER_CTX_copy");
        }
        if (i == nchunks)
            break;

        routl = -1;
        rok = EVP_CipherUpdate(ref, refout + refdone, &routl, c->in + pos,
                               (int)chunks[i]);
        for (j = 0; j < nl; j++) {
            struct lane *l = &lanes[j];
            const unsigned char *src = l->inplace ? l->buf + l->rd
                                                  : c->in + pos;

            ooutl = -1;
            /*
             * EVP_Cipher is the same as an update for the stream modes,
             * and for ECB/CBC on whole blocks with nothing pending and
             * padding off.
             */
            if (l->oneshot
                && (!c->block_mode
                    || (!pad && held == 0 && chunks[i] % 16 == 0))) {
                ooutl = EVP_Cipher(l->ctx, l->buf + l->done, src,
                                   (unsigned int)chunks[i]);
                ook = ooutl >= 0;
            } else {
                ook = EVP_CipherUpdate(l->ctx, l->buf + l->done, &ooutl, src,
                                       (int)chunks[i]);
            }
            if (!TU_CHECK(ook == rok && (!ook || ooutl == routl),
                          "update %zu of %zu bytes (lane %zu%s%s): smgost %d "
                          "outl %d, default %d outl %d", i, chunks[i], j,
                          l->inplace ? ", in place" : "",
                          l->oneshot ? ", EVP_Cipher if possible" : "", ook,
                          ooutl, rok, routl)
                || (ook && !TU_CHECK_MEM("update output", l->buf + l->done,
                                         (size_t)ooutl, refout + refdone,
                                         (size_t)routl))
                || !compare_state(c, l->ctx, ref, "update")) {
                sm4_describe(c);
                goto end;
            }
            l->done += ook ? (size_t)ooutl : 0;
            l->rd += chunks[i];
        }
        if (!rok)
            goto end;
        refdone += (size_t)routl;
        held += chunks[i] - (size_t)routl;
        pos += chunks[i];
    }

    routl = -1;
    rok = EVP_CipherFinal_ex(ref, refout + refdone, &routl);
    ERR_clear_error();
    for (j = 0; j < nl; j++) {
        struct lane *l = &lanes[j];

        ooutl = -1;
        ook = EVP_CipherFinal_ex(l->ctx, l->buf + l->done, &ooutl);
        ERR_clear_error();
        if (!TU_CHECK(ook == rok && (!ook || ooutl == routl),
                      "final (lane %zu): smgost %d outl %d, default %d "
                      "outl %d", j, ook, ooutl, rok, routl)) {
            sm4_describe(c);
            continue;
        }
        if (ook && !TU_CHECK_MEM("whole output", l->buf,
                                 l->done + (size_t)ooutl, refout,
                                 refdone + (size_t)routl))
            sm4_describe(c);
        compare_state(c, l->ctx, ref, "final");
    }
 end:
    ERR_clear_error();
    for (j = 0; j < MAX_CTX; j++)
        lane_free(&lanes[j]);
    EVP_CIPHER_CTX_free(ref);
    free(refout);
}

/* Sets the low `bits` of a counter block to ones, minus a small number. */
static void near_wrap(unsigned char iv[16], int bits)
{
    int i;

    for (i = 0; i < bits / 8; i++)
        iv[15 - i] = 0xff;
    iv[15] = (unsigned char)(0xff - rnd(40));
}

/* Encrypts c->in under the reference so that a padded decryption sees a
 * valid pad (random input would almost always fail at final). */
static int make_valid_ciphertext(EVP_CIPHER *ref_c, struct sm4_case *c)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *out = tu_malloc(c->len + 32);
    int l1 = 0, l2 = 0, ok;

    ok = ctx != NULL && EVP_EncryptInit_ex2(ctx, ref_c, c->key, c->iv, NULL)
         && EVP_EncryptUpdate(ctx, out, &l1, c->in, (int)c->len)
         && EVP_EncryptFinal_ex(ctx, out + l1, &l2);
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) {
        free(out);
        return 0;
    }
    free(c->in);
    c->in = out;
    c->len = (size_t)(l1 + l2);
    return 1;
}

static const char *const sm4_names[] = {
    "SM4-ECB", "SM4-CBC", "SM4-OFB", "SM4-CFB", "SM4-CTR"
};

static void run_sm4(unsigned long ncases)
{
    EVP_CIPHER *ours[5], *ref[5];
    unsigned long n;
    size_t m;
    struct sm4_case c;

    for (m = 0; m < 5; m++) {
        ours[m] = EVP_CIPHER_fetch(libctx, sm4_names[m], tu_target_propq());
        ref[m] = EVP_CIPHER_fetch(libctx, sm4_names[m], "provider=default");
        if (!TU_CHECK(ours[m] != NULL && ref[m] != NULL, "fetch %s",
                      sm4_names[m]))
            goto end;
    }
    for (n = 0; n < ncases; n++) {
        memset(&c, 0, sizeof(c));
        m = rnd(5);
        c.no = n;
        c.name = sm4_names[m];
        c.block_mode = m < 2;
        c.enc = (int)rnd(2);
        c.pad = c.block_mode ? (int)rnd(2) : 0;
        tu_rng_bytes(&rng, c.key, 16);
        tu_rng_bytes(&rng, c.iv, 16);
        /* The last few cases of each run are 1 MiB long. */
        c.len = n + 3 * 5 >= ncases ? (1u << 20) + rnd(40)
                                    : pick_len(&sm_shape);
        if (m == 4 && rnd(4) == 0)
            near_wrap(c.iv, 32 * (1 + (int)rnd(4)));
        c.in = tu_malloc(c.len);
        tu_rng_bytes(&rng, c.in, c.len);
        if (!c.enc && c.pad && rnd(4) != 0
            && !TU_CHECK(make_valid_ciphertext(ref[m], &c),
                         "reference encryption"))
            goto end;
        sm4_case_run(ours[m], ref[m], &c);
        free(c.in);
        c.in = NULL;
        if (tu_failures > 20) {
            fprintf(stderr, "too many failures, stopping\n");
            break;
        }
    }
    printf("# sm4: %lu cases\n", n);
 end:
    free(c.in);
    for (m = 0; m < 5; m++) {
        EVP_CIPHER_free(ours[m]);
        EVP_CIPHER_free(ref[m]);
    }
}

/*
 * The digest of msg through ours_md in update pieces of the family's shape,
 * with an optional copy mid-stream finished too, and in one shot: each
 * must be want.  what names the digest in messages.
 */
static void digest_check(const char *what, const EVP_MD *ours_md,
                         const DIFF_SHAPE *shape, const unsigned char *msg,
                         size_t len, const unsigned char *want,
                         unsigned int wl, unsigned long no)
{
    size_t chunks[4096], n = 0, i, pos = 0, copy_at;
    unsigned char got[EVP_MAX_MD_SIZE];
    unsigned int gl = 0;
    EVP_MD_CTX *a = EVP_MD_CTX_new(), *b = NULL;
    int ok;

    n = make_chunks(shape, len, chunks, NELEM(chunks));
    copy_at = rnd(2) ? rnd(n + 1) : SIZE_MAX;
    ok = a != NULL && EVP_DigestInit_ex2(a, ours_md, NULL);
    for (i = 0; ok && i <= n; i++) {
        if (i == copy_at) {
            ok = (b = EVP_MD_CTX_new()) != NULL && EVP_MD_CTX_copy_ex(b, a);
            TU_CHECK(ok, "EVP_MD_CTX_copy_ex");
        }
        if (i < n) {
            ok = ok && EVP_DigestUpdate(a, msg + pos, chunks[i])
                 && (b == NULL || EVP_DigestUpdate(b, msg + pos, chunks[i]));
            pos += chunks[i];
        }
    }
    if (TU_CHECK(ok && EVP_DigestFinal_ex(a, got, &gl), "%s digest failed",
                 what))
        if (!TU_CHECK_MEM(what, got, gl, want, wl))
            fprintf(stderr, "  in case %lu: length %zu, %zu chunks\n", no,
                    len, n);
    if (b != NULL
        && TU_CHECK(EVP_DigestFinal_ex(b, got, &gl), "%s copy final failed",
                    what)
        && !TU_CHECK_MEM("digest after copy", got, gl, want, wl))
        fprintf(stderr, "  in case %lu: %s, length %zu, copied before chunk "
                "%zu of %zu\n", no, what, len, copy_at, n);
    /* One shot, for implementations that special-case it. */
    gl = 0;
    if (TU_CHECK(EVP_Digest(msg, len, got, &gl, ours_md, NULL),
                 "%s one-shot failed", what))
        TU_CHECK_MEM("digest in one shot", got, gl, want, wl);
    EVP_MD_CTX_free(a);
    EVP_MD_CTX_free(b);
}

/* One random SM3 message against the default provider's SM3. */
static void sm3_case(const EVP_MD *ours_md, const EVP_MD *ref_md,
                     unsigned long no)
{
    size_t len = rnd(50) == 0 ? (1u << 20) + rnd(200) : pick_len(&sm_shape);
    unsigned char *msg = tu_malloc(len), want[32];
    unsigned int wl = 0;

    tu_rng_bytes(&rng, msg, len);
    if (TU_CHECK(EVP_Digest(msg, len, want, &wl, ref_md, NULL),
                 "reference digest"))
        digest_check("SM3", ours_md, &sm_shape, msg, len, want, wl, no);
    free(msg);
}

static void run_sm3(unsigned long ncases)
{
    EVP_MD *ours = EVP_MD_fetch(libctx, "SM3", tu_target_propq());
    EVP_MD *ref = EVP_MD_fetch(libctx, "SM3", "provider=default");
    unsigned long n;

    if (TU_CHECK(ours != NULL && ref != NULL, "fetch SM3")) {
        TU_CHECK(strcmp(tu_prov_name(EVP_MD_get0_provider(ours)),
                        tu_target()) == 0, "SM3 came from %s",
                 tu_prov_name(EVP_MD_get0_provider(ours)));
        for (n = 0; n < ncases && tu_failures <= 20; n++)
            sm3_case(ours, ref, n);
        printf("# sm3: %lu cases\n", n);
    }
    EVP_MD_free(ours);
    EVP_MD_free(ref);
}

/* An HMAC-SM3 context keyed with key, its SM3 fetched under propq. */
static EVP_MAC_CTX *hmac_sm3(OSSL_LIB_CTX *lc, EVP_MAC *mac, const char *propq,
                             const unsigned char *key, size_t keylen)
{
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    OSSL_PARAM p[3];

    (void)lc;
    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SM3", 0);
    p[1] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                            (char *)propq, 0);
    p[2] = OSSL_PARAM_construct_end();
    if (ctx != NULL && EVP_MAC_init(ctx, key, keylen, p))
        return ctx;
    EVP_MAC_CTX_free(ctx);
    return NULL;
}

static void run_hmac(unsigned long ncases)
{
    EVP_MAC *mac = EVP_MAC_fetch(libctx, "HMAC", "provider=default");
    OSSL_LIB_CTX *bare = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *bare_default = NULL;
    EVP_MAC *bare_mac = NULL;
    EVP_MAC_CTX *probe;
    unsigned char key[200], *msg, want[64], got[64];
    size_t keylen, len, chunks[4096], n, i, pos, wl, gl, copy_at;
    unsigned long no;

    if (!TU_CHECK(mac != NULL && bare != NULL, "fetch HMAC"))
        goto end;
    /*
     * The properties parameter must decide where SM3 comes from: without
     * the target loaded, asking for it must fail.  Then success below
     * means HMAC ran on the target's SM3.
     */
    if (TU_CHECK((bare_default = OSSL_PROVIDER_load(bare, "default")) != NULL
                 && (bare_mac = EVP_MAC_fetch(bare, "HMAC", NULL)) != NULL,
                 "a library context with only the default provider")) {
        probe = hmac_sm3(bare, bare_mac, tu_target_propq(),
                         (const unsigned char *)"k", 1);
        TU_CHECK(probe == NULL || strcmp(tu_target(), "default") == 0,
                 "HMAC found SM3 with %s where that provider is not loaded",
                 tu_target_propq());
        EVP_MAC_CTX_free(probe);
        ERR_clear_error();
    }
    for (no = 0; no < ncases && tu_failures <= 20; no++) {
        EVP_MAC_CTX *ours, *ref, *copy = NULL;

        keylen = rnd(4) == 0 ? 64 + rnd(sizeof(key) - 64) : 1 + rnd(64);
        tu_rng_bytes(&rng, key, keylen);
        len = pick_len(&sm_shape);
        msg = tu_malloc(len);
        tu_rng_bytes(&rng, msg, len);
        n = make_chunks(&sm_shape, len, chunks, NELEM(chunks));
        copy_at = rnd(3) == 0 ? rnd(n + 1) : SIZE_MAX;
        ours = hmac_sm3(libctx, mac, tu_target_propq(), key, keylen);
        ref = hmac_sm3(libctx, mac, "provider=default", key, keylen);
        if (TU_CHECK(ours != NULL && ref != NULL, "HMAC-SM3 init")
            && TU_CHECK(EVP_MAC_update(ref, msg, len)
                        && EVP_MAC_final(ref, want, &wl, sizeof(want)),
                        "reference HMAC")) {
            int ok = 1;

            for (i = 0, pos = 0; ok && i <= n; i++) {
                if (i == copy_at)
                    ok = TU_CHECK((copy = EVP_MAC_CTX_dup(ours)) != NULL,
                                  "EVP_MAC_CTX_dup");
                if (i < n) {
                    ok = ok && EVP_MAC_update(ours, msg + pos, chunks[i])
                         && (copy == NULL
                             || EVP_MAC_update(copy, msg + pos, chunks[i]));
                    pos += chunks[i];
                }
            }
            if (TU_CHECK(ok && EVP_MAC_final(ours, got, &gl, sizeof(got)),
                         "HMAC-SM3 failed")
                && !TU_CHECK_MEM("HMAC-SM3", got, gl, want, wl))
                fprintf(stderr, "  in case %lu: key %zu bytes, message %zu\n",
                        no, keylen, len);
            if (copy != NULL
                && TU_CHECK(EVP_MAC_final(copy, got, &gl, sizeof(got)),
                            "HMAC-SM3 copy failed"))
                TU_CHECK_MEM("HMAC-SM3 after dup", got, gl, want, wl);
        }
        EVP_MAC_CTX_free(ours);
        EVP_MAC_CTX_free(ref);
        EVP_MAC_CTX_free(copy);
        free(msg);
    }
    printf("# hmac: %lu cases\n", no);
 end:
    EVP_MAC_free(mac);
    EVP_MAC_free(bare_mac);
    OSSL_PROVIDER_unload(bare_default);
    OSSL_LIB_CTX_free(bare);
}

/* ---------------------------------------------------- GOST 28147-89, Magma */

/* ---------------------------------------------------- smgost, ciphers */

/* How smgost is told the parameter set. */
enum set_way {
    SET_DEFAULT, SET_NAME_INIT, SET_NAME_AFTER, SET_ALGID_INIT,
    SET_ALGID_AFTER, NWAYS
};

static const char *const way_names[NWAYS] = {
    "default set", "paramset in init", "paramset after init",
    "alg_id_param in init", "alg_id_param after init"
};

/* One message through one algorithm, as the reference ran it. */
typedef struct {
    const char *alg;
    const GOST89_SET *set;        /* NULL: the algorithm's default */
    int mesh_off;               /* key-mesh 0 */
    size_t key_mesh;            /* ACPKM's section; 0: the default */
    int pad;
    int enc;
    unsigned char key[32], iv[16];     /* 8 bytes drawn but Kuznyechik's */
    size_t ivlen;
    const unsigned char *in;
    size_t len;
    const char *ref;            /* the reference's name, for reports */
    unsigned long no;
    int at_meshing;             /* a prelude that ends where a meshing is due */
} CIPHER_CASE;

/* How smgost runs it this time. */
typedef struct {
    enum set_way way;
    unsigned spelling;
    size_t chunks[MAX_CHUNKS], nchunks;
    int inplace;
    size_t copy_at;             /* copy before this chunk; SIZE_MAX: never */
    int prelude;                /* other data first, then a re-init */
    size_t prelude_len;
    int prelude_same_iv;        /* the re-init gives no IV */
    int reinit_key;             /* the re-init gives the key again */
    unsigned char prelude_iv[16];
} STYLE;

static void gost89_describe(const CIPHER_CASE *c, const STYLE *s)
{
    size_t i;

    fprintf(stderr, "  case %lu against %s: %s %s, length %zu, set %s "
            "(%s, \"%s\"), key meshing %s, padding %d\n", c->no, c->ref,
            c->alg, c->enc ? "encrypt" : "decrypt", c->len,
            c->set != NULL ? c->set->short_name : "-", way_names[s->way],
            c->set != NULL ? gost89_set_spelling(c->set, s->spelling) : "",
            c->mesh_off ? "off" : "default", c->pad);
    if (c->key_mesh != 0)
        fprintf(stderr, "  ACPKM sections of %zu bytes, given %s\n",
                c->key_mesh, s->spelling % 2 ? "after init" : "in init");
    fprintf(stderr, "  %s, copy before piece %zu of %zu", s->inplace
            ? "in place" : "out of place", s->copy_at, s->nchunks);
    if (s->prelude)
        fprintf(stderr, ", %zu bytes first, then a re-init with %s and %s",
                s->prelude_len, s->reinit_key ? "the key" : "no key",
                s->prelude_same_iv ? "no IV" : "the IV");
    fprintf(stderr, "\n  pieces:");
    for (i = 0; i < s->nchunks && i < 24; i++)
        fprintf(stderr, " %zu", s->chunks[i]);
    fprintf(stderr, "%s\n", s->nchunks > 24 ? " ..." : "");
    tu_hexdump(stderr, "key", c->key, 32);
    tu_hexdump(stderr, "iv", c->iv, c->ivlen);
}

static void pick_style(const CIPHER_CASE *c, STYLE *s)
{
    memset(s, 0, sizeof(*s));
    s->way = c->set == NULL ? SET_DEFAULT
                            : (enum set_way)(1 + rnd(NWAYS - 1));
    s->spelling = (unsigned)rnd(3);
    s->nchunks = make_chunks(&gost89_shape, c->len, s->chunks, MAX_CHUNKS);
    s->inplace = (int)rnd(2);
    s->copy_at = rnd(4) == 0 ? rnd(s->nchunks + 1) : SIZE_MAX;
    s->prelude = c->at_meshing || rnd(4) == 0;
    /*
     * Short, long, or whole meshing periods: then the next meshing is
     * pending, and what was prepared for it (in one piece, a period's
     * worth) must not outlive the re-init.
     */
    switch (c->at_meshing ? 0 : rnd(6)) {
    case 0:
        s->prelude_len = 1024 * (1 + rnd(2));
        break;
    case 1:
    case 2:
        s->prelude_len = rnd(3000);
        break;
    default:
        s->prelude_len = rnd(40);
        break;
    }
    s->prelude_same_iv = rnd(3) == 0;
    s->reinit_key = rnd(3) == 0;
    tu_rng_bytes(&rng, s->prelude_iv, c->ivlen > 8 ? c->ivlen : 8);
}

/*
 * The parameters of one phase (at_init: the init call, else right after
 * it): the set as the style says and key-mesh 0 in the same phase, so that
 * an alg_id_param (which switches meshing on) never follows it.
 */
static void phase_params(const CIPHER_CASE *c, const STYLE *s, int at_init,
                         const unsigned char *iv, OSSL_PARAM p[3],
                         unsigned char der[GOST89_ALG_ID_MAX], size_t *zero)
{
    size_t n = 0;
    int set_now = s->way == SET_DEFAULT
                  ? at_init
                  : (s->way == SET_NAME_INIT || s->way == SET_ALGID_INIT)
                    == at_init;

    if (set_now && (s->way == SET_NAME_INIT || s->way == SET_NAME_AFTER))
        p[n++] = OSSL_PARAM_construct_utf8_string(
            "paramset", (char *)gost89_set_spelling(c->set, s->spelling), 0);
    if (set_now && (s->way == SET_ALGID_INIT || s->way == SET_ALGID_AFTER))
        p[n++] = OSSL_PARAM_construct_octet_string(
            "alg_id_param", der, gost89_alg_id(c->set, iv, der));
    if (set_now && c->mesh_off) {
        *zero = 0;
        p[n++] = OSSL_PARAM_construct_size_t("key-mesh", zero);
    }
    /* ACPKM's section, in the init call or after it: re-inits keep it. */
    if (c->key_mesh != 0 && (s->spelling % 2 == 0) == at_init) {
        *zero = c->key_mesh;
        p[n++] = OSSL_PARAM_construct_size_t("key-mesh", zero);
    }
    p[n] = OSSL_PARAM_construct_end();
}

/* Feeds n bytes; in place, in and out are both buf. */
static int feed(EVP_CIPHER_CTX *ctx, unsigned char *out, size_t *done,
                const unsigned char *in, size_t n)
{
    int l;

    if (!EVP_CipherUpdate(ctx, out + *done, &l, in, (int)n))
        return 0;
    *done += (size_t)l;
    return 1;
}

/* Runs the case in smgost with a fresh random style; checks exp. */
static void ours_cipher(const CIPHER_CASE *c, const unsigned char *exp,
                        size_t explen)
{
    STYLE *s = tu_malloc(sizeof(*s));
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(libctx, c->alg, tu_target_propq());
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *copy = NULL;
    unsigned char *buf = tu_malloc(c->len + 16), *cbuf = tu_malloc(c->len + 16);
    unsigned char *junk = NULL, der_i[GOST89_ALG_ID_MAX], der_a[GOST89_ALG_ID_MAX];
    const unsigned char *iv0;
    OSSL_PARAM init_p[3], after_p[3];
    size_t i, rd = 0, done = 0, cdone = 0, jdone = 0, z0, z1;
    int ok = 0, l;

    pick_style(c, s);
    iv0 = s->prelude && !s->prelude_same_iv ? s->prelude_iv : c->iv;
    phase_params(c, s, 1, iv0, init_p, der_i, &z0);
    phase_params(c, s, 0, iv0, after_p, der_a, &z1);
    if (cipher == NULL || ctx == NULL
        || !EVP_CipherInit_ex2(ctx, cipher, c->key,
                               c->ivlen > 0 ? iv0 : NULL, c->enc, init_p)
        || !EVP_CIPHER_CTX_set_params(ctx, after_p)
        || !EVP_CIPHER_CTX_set_padding(ctx, c->pad))
        goto end;
    if (s->prelude) {
        junk = tu_malloc(s->prelude_len + 16);
        tu_rng_bytes(&rng, junk, s->prelude_len);
        if (!feed(ctx, junk, &jdone, junk, s->prelude_len)
            || !EVP_CipherInit_ex2(ctx, NULL, s->reinit_key ? c->key : NULL,
                                   s->prelude_same_iv || c->ivlen == 0
                                   ? NULL : c->iv, c->enc, NULL))
            goto end;
    }
    if (s->inplace && c->len > 0)
        memcpy(buf, c->in, c->len);
    for (i = 0; i <= s->nchunks; i++) {
        if (i == s->copy_at) {
            if ((copy = EVP_CIPHER_CTX_new()) == NULL
                || !EVP_CIPHER_CTX_copy(copy, ctx))
                goto end;
            memcpy(cbuf, buf, done);
            cdone = done;
        }
        if (i == s->nchunks)
            break;
        if (!feed(ctx, buf, &done, s->inplace ? buf + rd : c->in + rd,
                  s->chunks[i])
            || (copy != NULL
                && !feed(copy, cbuf, &cdone, c->in + rd, s->chunks[i])))
            goto end;
        rd += s->chunks[i];
    }
    if (!EVP_CipherFinal_ex(ctx, buf + done, &l))
        goto end;
    done += (size_t)l;
    if (copy != NULL) {
        if (!EVP_CipherFinal_ex(copy, cbuf + cdone, &l))
            goto end;
        cdone += (size_t)l;
    }
    ok = 1;
 end:
    if (!TU_CHECK(ok, "EVP calls failed")
        || !TU_CHECK_MEM("smgost against the reference", buf, done, exp,
                         explen)
        || (copy != NULL
            && !TU_CHECK_MEM("the copy against the reference", cbuf, cdone,
                             exp, explen)))
        gost89_describe(c, s);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(copy);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    free(buf);
    free(cbuf);
    free(junk);
    free(s);
}

/* Checks encryption of pt against ct, and decryption of ct. */
static void ours_both_ways(CIPHER_CASE *c, const unsigned char *pt,
                           size_t ptlen, const unsigned char *ct,
                           size_t ctlen)
{
    c->enc = 1;
    c->in = pt;
    c->len = ptlen;
    ours_cipher(c, ct, ctlen);
    c->enc = 0;
    c->in = ct;
    c->len = ctlen;
    ours_cipher(c, pt, ptlen);
}

/* ---------------------------------------------------- against gostprov */

/* gostprov's encryption of the case, one piece, fresh context. */
static int gostprov_encrypt(const CIPHER_CASE *c, const unsigned char *pt,
                            size_t len, unsigned char *out, size_t *outl)
{
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(gplibctx, c->alg, NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char der[GOST89_ALG_ID_MAX];
    OSSL_PARAM p[2];
    size_t zero = 0;
    int ok = 0, l1 = 0, l2 = 0;

    size_t section = c->key_mesh;

    /* gostprov's ACPKM keystream is wrong after a one-call init (3.0.1). */
    if (cipher == NULL || ctx == NULL
        || !EVP_EncryptInit_ex2(ctx, cipher, NULL, NULL, NULL)
        || !EVP_EncryptInit_ex2(ctx, NULL, c->key, c->iv, NULL))
        goto end;
    if (section != 0) {
        p[0] = OSSL_PARAM_construct_size_t("key-mesh", &section);
        p[1] = OSSL_PARAM_construct_end();
        if (!EVP_CIPHER_CTX_set_params(ctx, p))
            goto end;
    }
    if (c->set != NULL) {
        p[0] = OSSL_PARAM_construct_octet_string(
            "alg_id_param", der, gost89_alg_id(c->set, c->iv, der));
        p[1] = OSSL_PARAM_construct_end();
        if (!EVP_CIPHER_CTX_set_params(ctx, p))
            goto end;
    }
    if (c->mesh_off) {
        p[0] = OSSL_PARAM_construct_size_t("key-mesh", &zero);
        p[1] = OSSL_PARAM_construct_end();
        if (!EVP_CIPHER_CTX_set_params(ctx, p))
            goto end;
    }
    ok = EVP_CIPHER_CTX_set_padding(ctx, c->pad)
         && EVP_EncryptUpdate(ctx, out, &l1, pt, (int)len)
         && EVP_EncryptFinal_ex(ctx, out + l1, &l2);
    *outl = (size_t)l1 + (size_t)l2;
 end:
    TU_CHECK(ok, "gostprov %s: EVP calls failed", c->alg);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    return ok;
}

/* A cipher both gostprov and smgost have. */
typedef struct {
    const char *alg;
    int gost89;             /* has sets and (but CBC) meshing */
    int block;              /* ECB or CBC: padding drawn */
    size_t bs, ivlen;
    int acpkm;              /* CTR-ACPKM: its sections drawn */
} GOSTPROV_ALG;

static const GOSTPROV_ALG gostprov_gost89_algs[] = {
    { "gost89", 1, 0, 8, 8, 0 }, { "gost89-cnt", 1, 0, 8, 8, 0 },
    { "gost89-cnt-12", 1, 0, 8, 8, 0 }, { "gost89-cbc", 1, 1, 8, 8, 0 },
    { "magma-cbc", 0, 1, 8, 8, 0 }, { "magma-ctr", 0, 0, 8, 4, 0 },
    { "magma-ctr-acpkm", 0, 0, 8, 4, 1 },
};

static const GOSTPROV_ALG gostprov_kuznyechik_algs[] = {
    { "kuznyechik-ecb", 0, 1, 16, 0, 0 }, { "kuznyechik-cbc", 0, 1, 16, 16, 0 },
    { "kuznyechik-cfb", 0, 0, 16, 16, 0 }, { "kuznyechik-ofb", 0, 0, 16, 16, 0 },
    { "kuznyechik-ctr", 0, 0, 16, 8, 0 },
    { "kuznyechik-ctr-acpkm", 0, 0, 16, 8, 1 },
};

/* The ciphers the gostprov cases draw from: one family's. */
static const GOSTPROV_ALG *gostprov_algs = gostprov_gost89_algs;
static size_t gostprov_nalgs = NELEM(gostprov_gost89_algs);

/*
 * Case no against gostprov: one of the ciphers both have (of the family
 * under test), the set (or the default), meshing and padding drawn, key
 * and IV; returns the message's length (whole blocks where there is no
 * padding).  *meshes, if asked for, tells whether the key is meshed (every
 * 1024 bytes).
 */
static size_t gostprov_case(CIPHER_CASE *c, unsigned long no, int *meshes)
{
    const GOSTPROV_ALG *a = &gostprov_algs[rnd(gostprov_nalgs)];
    size_t len = pick_len(&gost89_shape);

    memset(c, 0, sizeof(*c));
    c->no = no;
    c->ref = "gostprov";
    c->alg = a->alg;
    c->set = a->gost89 && rnd(2) ? &gost89_sets[rnd(GOST89_NSETS)] : NULL;
    c->mesh_off = a->gost89 && !a->block && rnd(5) == 0;
    c->pad = !a->block || rnd(4) != 0;
    if (!c->pad)
        len -= len % a->bs;
    c->ivlen = a->ivlen;
    /* ACPKM: sections of 1 to 48 blocks, crossed anywhere, or the default. */
    if (a->acpkm && rnd(4) != 0)
        c->key_mesh = a->bs * (1 + rnd(48));
    tu_rng_bytes(&rng, c->key, sizeof(c->key));
    tu_rng_bytes(&rng, c->iv, c->ivlen > 8 ? c->ivlen : 8);
    if (meshes != NULL)
        *meshes = a->gost89 && !a->block && !c->mesh_off;
    return len;
}

/* Random plaintext of len bytes, gostprov's encryption, then smgost both ways. */
static void gostprov_both_ways(CIPHER_CASE *c, size_t len)
{
    unsigned char *pt = tu_malloc(len), *ct = tu_malloc(len + 16);
    size_t ctlen;

    tu_rng_bytes(&rng, pt, len);
    if (gostprov_encrypt(c, pt, len, ct, &ctlen))
        ours_both_ways(c, pt, len, ct, ctlen);
    free(pt);
    free(ct);
}

/*
 * A re-init right after whole meshing periods, with the next meshing due:
 * smgost prepares it (and the IV it meshes at) during a period taken in one
 * piece, and the new message must mesh at its own IV.
 */
static void gostprov_at_meshing(unsigned long n)
{
    unsigned long no, run = 0;

    for (no = 0; run < n; no++) {
        CIPHER_CASE c;
        int meshes;

        (void)gostprov_case(&c, no, &meshes);
        if (!meshes)
            continue;
        run++;
        c.at_meshing = 1;
        gostprov_both_ways(&c, 1025 + rnd(3 * 1024));
    }
}

static void gostprov_ciphers(unsigned long n)
{
    unsigned long no;

    for (no = 0; no < n; no++) {
        CIPHER_CASE c;
        size_t len = gostprov_case(&c, no, NULL);

        gostprov_both_ways(&c, len);
    }
}

/*
 * The flow of CMS and PKCS#7 decoders: an init with the key and no IV,
 * the encoding (IV and set), then an init with neither, which takes the
 * encoding's IV.  The encoding goes in as alg_id_param, or (asn1) through
 * EVP_CIPHER_asn1_to_param() as the decoders give it, which gostprov
 * cannot take: its param_to_asn1 and asn1_to_param are libcrypto's bare
 * IV, since it lists no gettable parameters.  gostprov's CNT re-init
 * reverts to CryptoPro-A, so CNT is left out.
 */
static int cms_flow(OSSL_LIB_CTX *lc, const char *propq, const char *alg,
                    const unsigned char *key, const unsigned char *der,
                    size_t derlen, int asn1, int enc, int pad,
                    const unsigned char *in, size_t len, unsigned char *out,
                    size_t *outl)
{
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(lc, alg, propq);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    const unsigned char *d = der;
    ASN1_TYPE *t = asn1 ? d2i_ASN1_TYPE(NULL, &d, (long)derlen) : NULL;
    OSSL_PARAM p[2];
    int ok, l1 = 0, l2 = 0;

    p[0] = OSSL_PARAM_construct_octet_string("alg_id_param", (void *)der,
                                             derlen);
    p[1] = OSSL_PARAM_construct_end();
    ok = cipher != NULL && ctx != NULL && (t != NULL || !asn1)
         && EVP_CipherInit_ex2(ctx, cipher, key, NULL, enc, NULL)
         && (asn1 ? EVP_CIPHER_asn1_to_param(ctx, t) > 0
                  : EVP_CIPHER_CTX_set_params(ctx, p))
         && EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, enc, NULL)
         && EVP_CIPHER_CTX_set_padding(ctx, pad)
         && EVP_CipherUpdate(ctx, out, &l1, in, (int)len)
         && EVP_CipherFinal_ex(ctx, out + l1, &l2);
    *outl = (size_t)l1 + (size_t)l2;
    ASN1_TYPE_free(t);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    return ok;
}

static void gostprov_cms(unsigned long n)
{
    static const char *const algs[] = { "gost89", "gost89-cbc" };
    unsigned long no;

    for (no = 0; no < n; no++) {
        const char *alg = algs[rnd(2)];
        const GOST89_SET *set = &gost89_sets[rnd(GOST89_NSETS)];
        unsigned char key[32], iv[8], der[GOST89_ALG_ID_MAX];
        size_t len = pick_len(&gost89_shape), derlen, rl = 0, ol = 0, dl = 0;
        unsigned char *pt = tu_malloc(len), *ref = tu_malloc(len + 16);
        unsigned char *ours = tu_malloc(len + 16);
        int pad = strcmp(alg, "gost89") == 0 || rnd(4) != 0;
        int asn1 = (int)rnd(2);

        tu_rng_bytes(&rng, key, sizeof(key));
        tu_rng_bytes(&rng, iv, sizeof(iv));
        tu_rng_bytes(&rng, pt, len);
        derlen = gost89_alg_id(set, iv, der);
        if (!pad)
            len -= len % 8;
        if (!TU_CHECK(cms_flow(gplibctx, NULL, alg, key, der, derlen, 0, 1,
                               pad, pt, len, ref, &rl), "gostprov %s: EVP "
                      "calls failed", alg)
            || !TU_CHECK(cms_flow(libctx, tu_target_propq(), alg, key, der,
                                  derlen, asn1, 1, pad, pt, len, ours, &ol),
                         "smgost %s: EVP calls failed", alg)
            || !TU_CHECK_MEM("smgost against gostprov", ours, ol, ref, rl)
            || !TU_CHECK(cms_flow(libctx, tu_target_propq(), alg, key, der,
                                  derlen, asn1, 0, pad, ref, rl, ours, &dl),
                         "smgost %s: EVP calls failed", alg)
            || !TU_CHECK_MEM("smgost decryption", ours, dl, pt, len))
            fprintf(stderr, "  CMS flow case %lu: %s, set %s, length %zu, "
                    "padding %d, %s\n", no, alg, set->short_name, len, pad,
                    asn1 ? "EVP_CIPHER_asn1_to_param" : "alg_id_param");
        ERR_clear_error();
        free(pt);
        free(ref);
        free(ours);
    }
}

/*
 * updated-iv after every update and after final, smgost against gostprov
 * fed the same pieces from a fresh context: gostprov gives its register,
 * the last whole ciphertext block (CFB: the one the next block starts
 * from, meshed when meshing came first; CBC decryption: the last block
 * taken in, even one held back for final), CNT its counter, magma-ctr its
 * IV.  The outputs of each update must agree too.  Decryptions take
 * gostprov's one-piece encryption of random data.
 */
typedef struct {
    unsigned char (*iv)[16];    /* after each piece, then after final */
    size_t *ivlen;
    unsigned char *out;
    size_t outl;
} IV_TRACE;

static int trace_run(OSSL_LIB_CTX *lc, const char *propq,
                     const CIPHER_CASE *c, const size_t *chunks,
                     size_t nchunks, int inplace, IV_TRACE *t)
{
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(lc, c->alg, propq);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char der[GOST89_ALG_ID_MAX];
    OSSL_PARAM p[2], m[2], q[2];
    size_t i, rd = 0, zero = 0, section = c->key_mesh;
    int ok = 0, l;

    /*
     * gostprov takes its parameters after the init only, and key-mesh 0
     * after alg_id_param (which switches meshing on) in a call of its own.
     */
    p[0] = m[0] = OSSL_PARAM_construct_end();
    if (c->set != NULL)
        p[0] = OSSL_PARAM_construct_octet_string(
            "alg_id_param", der, gost89_alg_id(c->set, c->iv, der));
    if (c->mesh_off)
        m[0] = OSSL_PARAM_construct_size_t("key-mesh", &zero);
    if (section != 0)
        m[0] = OSSL_PARAM_construct_size_t("key-mesh", &section);
    p[1] = m[1] = OSSL_PARAM_construct_end();
    t->outl = 0;
    if (inplace && c->len > 0)
        memcpy(t->out, c->in, c->len);
    /* Two init calls: see gostprov_encrypt. */
    if (cipher == NULL || ctx == NULL
        || !EVP_CipherInit_ex2(ctx, cipher, NULL, NULL, c->enc, NULL)
        || !EVP_CipherInit_ex2(ctx, NULL, c->key, c->iv, c->enc, NULL)
        || !EVP_CIPHER_CTX_set_params(ctx, p)
        || !EVP_CIPHER_CTX_set_params(ctx, m)
        || !EVP_CIPHER_CTX_set_padding(ctx, c->pad))
        goto end;
    for (i = 0; i <= nchunks; i++) {
        if (i < nchunks) {
            if (!EVP_CipherUpdate(ctx, t->out + t->outl, &l,
                                  inplace ? t->out + rd : c->in + rd,
                                  (int)chunks[i]))
                goto end;
            rd += chunks[i];
        } else if (!EVP_CipherFinal_ex(ctx, t->out + t->outl, &l)) {
            goto end;
        }
        t->outl += (size_t)l;
        q[0] = OSSL_PARAM_construct_octet_string(
            OSSL_CIPHER_PARAM_UPDATED_IV, t->iv[i], sizeof(t->iv[i]));
        q[1] = OSSL_PARAM_construct_end();
        if (!EVP_CIPHER_CTX_get_params(ctx, q))
            goto end;
        t->ivlen[i] = q[0].return_size;
    }
    ok = 1;
 end:
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    return ok;
}

static IV_TRACE *trace_new(size_t len)
{
    IV_TRACE *t = tu_malloc(sizeof(*t));

    t->iv = tu_malloc(sizeof(*t->iv) * (MAX_CHUNKS + 1));
    t->ivlen = tu_malloc(sizeof(*t->ivlen) * (MAX_CHUNKS + 1));
    t->out = tu_malloc(len + 16);
    return t;
}

static void trace_free(IV_TRACE *t)
{
    free(t->iv);
    free(t->ivlen);
    free(t->out);
    free(t);
}

static void gostprov_updated_iv(unsigned long n)
{
    size_t *chunks = tu_malloc(sizeof(*chunks) * MAX_CHUNKS);
    unsigned long no, partial = 0, meshed = 0, long_ones = 0;
    int family_meshes = gostprov_algs == gostprov_gost89_algs;

    for (no = 0; no < n; no++) {
        CIPHER_CASE c;
        int meshes;
        size_t len = gostprov_case(&c, no, &meshes), nchunks, i, pos;
        unsigned char *pt, *ct = NULL;
        IV_TRACE *ref, *ours;
        int inplace = (int)rnd(2), bad = 0, lagging_cfb, kuz;

        c.enc = (int)rnd(2);
        pt = tu_malloc(len);
        tu_rng_bytes(&rng, pt, len);
        c.in = pt;
        c.len = len;
        if (!c.enc) {
            ct = tu_malloc(len + 16);
            if (!gostprov_encrypt(&c, pt, len, ct, &c.len)) {
                free(pt);
                free(ct);
                continue;
            }
            c.in = ct;
        }
        nchunks = make_chunks(&gost89_shape, c.len, chunks, MAX_CHUNKS);
        lagging_cfb = strcmp(c.alg, "kuznyechik-cfb") == 0;
        kuz = strncmp(c.alg, "kuznyechik", 10) == 0;
        ref = trace_new(c.len);
        ours = trace_new(c.len);
        if (!TU_CHECK(trace_run(gplibctx, NULL, &c, chunks, nchunks, 0, ref),
                      "gostprov %s: EVP calls failed", c.alg)
            || !TU_CHECK(trace_run(libctx, tu_target_propq(), &c, chunks,
                                   nchunks, inplace, ours),
                         "smgost %s: EVP calls failed", c.alg)
            || !TU_CHECK_MEM("smgost's output against gostprov's", ours->out,
                             ours->outl, ref->out, ref->outl))
            bad = 1;
        for (i = 0, pos = 0; !bad && i <= nchunks; i++) {
            pos += i < nchunks ? chunks[i] : 0;
            if (lagging_cfb && pos > 0 && pos % 16 == 0)
                continue;
            if (!TU_CHECK_MEM("updated-iv against gostprov's", ours->iv[i],
                              ours->ivlen[i], ref->iv[i], ref->ivlen[i])) {
                fprintf(stderr, "  after %s %zu of %zu, %zu bytes in\n",
                        i < nchunks ? "piece" : "final (pieces)", i + 1,
                        nchunks, pos);
                bad = 1;
            }
            partial += pos % (kuz ? 16 : 8) != 0;
            meshed += pos > 1024 && meshes;
            long_ones += pos > 1024;
        }
        if (bad) {
            fprintf(stderr, "  updated-iv case %lu: %s %s, length %zu, set "
                    "%s, key meshing %s, padding %d, %s\n  pieces:", no,
                    c.alg, c.enc ? "encrypt" : "decrypt", c.len,
                    c.set != NULL ? c.set->short_name : "-",
                    c.mesh_off ? "off" : "default", c.pad,
                    inplace ? "in place" : "out of place");
            for (i = 0; i < nchunks && i < 24; i++)
                fprintf(stderr, " %zu", chunks[i]);
            fprintf(stderr, "%s\n", nchunks > 24 ? " ..." : "");
            tu_hexdump(stderr, "key", c.key, 32);
            tu_hexdump(stderr, "iv", c.iv, c.ivlen);
        }
        trace_free(ref);
        trace_free(ours);
        free(pt);
        free(ct);
    }
    /* The cases must reach what this is about, or prove nothing. */
    TU_CHECK(n < 100 || (partial > n && (family_meshes ? meshed : long_ones)
                                         > n),
             "updated-iv: only %lu reads inside a block and %lu past a "
             "meshing (%lu past 1024 bytes) in %lu cases", partial, meshed,
             long_ones, n);
    printf("# updated-iv: %lu cases, %lu reads inside a block, %lu past a "
           "key meshing\n", n, partial, meshed);
    free(chunks);
}

/* ---------------------------------------------------------- smgost, MAC */

typedef struct {
    const char *alg;
    const GOST89_SET *set;        /* NULL: the algorithm's default */
    unsigned char key[32];
    const unsigned char *msg;
    size_t len, size;
    size_t sections[2];         /* OMAC-ACPKM's N and T; 0: none given */
    const char *ref;
    unsigned long no;
} MAC_CASE;

typedef struct {
    size_t chunks[MAX_CHUNKS], nchunks;
    int size_at_init, key_as_param, set_before_init;
    unsigned spelling;
    size_t copy_at;
    int prelude, reinit_key;
    size_t prelude_len;
} MAC_STYLE;

static void describe_mac(const MAC_CASE *c, const MAC_STYLE *s)
{
    fprintf(stderr, "  case %lu against %s: %s, set %s (\"%s\"%s), length "
            "%zu, size %zu (%s), key %s, copy before piece %zu of %zu",
            c->no, c->ref, c->alg, c->set != NULL ? c->set->short_name : "-",
            c->set != NULL ? gost89_set_spelling(c->set, s->spelling) : "",
            s->set_before_init ? ", before init" : "", c->len, c->size,
            s->size_at_init ? "in init" : "after init",
            s->key_as_param ? "as param" : "in init", s->copy_at,
            s->nchunks);
    if (c->sections[0] != 0)
        fprintf(stderr, ", N %zu and T %zu", c->sections[0], c->sections[1]);
    if (s->prelude)
        fprintf(stderr, ", %zu bytes first, then a re-init with %s",
                s->prelude_len, s->reinit_key ? "the key" : "no key");
    fputc('\n', stderr);
    tu_hexdump(stderr, "key", c->key, 32);
}

static void ours_mac(const MAC_CASE *c, const unsigned char *exp)
{
    MAC_STYLE *s = tu_malloc(sizeof(*s));
    EVP_MAC *mac = EVP_MAC_fetch(libctx, c->alg, tu_target_propq());
    EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL, *copy = NULL;
    OSSL_PARAM p[6], q[4];
    unsigned char out[16], cout[16], *junk = NULL;
    size_t n = 0, i, rd = 0, outl = 0, coutl = 0, size = c->size;
    size_t sections[2] = { c->sections[0], c->sections[1] };
    const char *setname;
    int ok = 0;

    memset(s, 0, sizeof(*s));
    s->nchunks = make_chunks(&gost89_shape, c->len, s->chunks, MAX_CHUNKS);
    s->size_at_init = (int)rnd(2);
    s->key_as_param = (int)rnd(2);
    s->set_before_init = (int)rnd(2);
    s->spelling = (unsigned)rnd(3);
    s->copy_at = rnd(4) == 0 ? rnd(s->nchunks + 1) : SIZE_MAX;
    s->prelude = rnd(4) == 0;
    s->reinit_key = (int)rnd(2);
    s->prelude_len = rnd(3) == 0 ? rnd(3000) : rnd(20);
    setname = c->set != NULL ? gost89_set_spelling(c->set, s->spelling) : NULL;
    if (ctx == NULL)
        goto end;
    q[0] = OSSL_PARAM_construct_end();
    if (setname != NULL) {
        q[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)setname,
                                                0);
        q[1] = OSSL_PARAM_construct_end();
    }
    /* A set given before any init must hold for the init that follows. */
    if (s->set_before_init && !EVP_MAC_CTX_set_params(ctx, q))
        goto end;
    if (!s->set_before_init && setname != NULL)
        p[n++] = q[0];
    if (s->size_at_init)
        p[n++] = OSSL_PARAM_construct_size_t("size", &size);
    if (s->size_at_init && sections[0] != 0) {
        p[n++] = OSSL_PARAM_construct_size_t("key-mesh", &sections[0]);
        p[n++] = OSSL_PARAM_construct_size_t("cipher-key-mesh",
                                             &sections[1]);
    }
    if (s->key_as_param)
        p[n++] = OSSL_PARAM_construct_octet_string("key", (void *)c->key, 32);
    p[n] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(ctx, s->key_as_param ? NULL : c->key,
                      s->key_as_param ? 0 : 32, p))
        goto end;
    q[0] = OSSL_PARAM_construct_size_t("size", &size);
    q[1] = q[2] = q[3] = OSSL_PARAM_construct_end();
    if (sections[0] != 0) {
        q[1] = OSSL_PARAM_construct_size_t("key-mesh", &sections[0]);
        q[2] = OSSL_PARAM_construct_size_t("cipher-key-mesh", &sections[1]);
    }
    if (!s->size_at_init && !EVP_MAC_CTX_set_params(ctx, q))
        goto end;
    if (s->prelude) {
        junk = tu_malloc(s->prelude_len);
        tu_rng_bytes(&rng, junk, s->prelude_len);
        if (!EVP_MAC_update(ctx, junk, s->prelude_len)
            || !EVP_MAC_init(ctx, s->reinit_key ? c->key : NULL,
                             s->reinit_key ? 32 : 0, NULL))
            goto end;
    }
    for (i = 0; i <= s->nchunks; i++) {
        if (i == s->copy_at && (copy = EVP_MAC_CTX_dup(ctx)) == NULL)
            goto end;
        if (i == s->nchunks)
            break;
        if (!EVP_MAC_update(ctx, c->msg + rd, s->chunks[i])
            || (copy != NULL
                && !EVP_MAC_update(copy, c->msg + rd, s->chunks[i])))
            goto end;
        rd += s->chunks[i];
    }
    ok = EVP_MAC_final(ctx, out, &outl, sizeof(out))
         && (copy == NULL || EVP_MAC_final(copy, cout, &coutl, sizeof(cout)));
 end:
    if (!TU_CHECK(ok, "EVP_MAC calls failed")
        || !TU_CHECK_MEM("smgost MAC against the reference", out, outl, exp,
                         c->size)
        || (copy != NULL
            && !TU_CHECK_MEM("the copy's MAC against the reference", cout,
                             coutl, exp, c->size)))
        describe_mac(c, s);
    ERR_clear_error();
    EVP_MAC_CTX_free(copy);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    free(junk);
    free(s);
}

static void gostprov_macs(unsigned long n)
{
    /*
     * bs: the block; acpkm: OMAC-ACPKM, whose T gostprov applies from the
     * key material after the first (k + n bytes), drawn before T is set:
     * T is a multiple of k + n here, as in the standard's examples.
     */
    static const struct {
        const char *alg;
        size_t bs;
        int acpkm;
    } algs[] = {
        { "gost-mac", 8, 0 }, { "gost-mac-12", 8, 0 }, { "magma-mac", 8, 0 },
        { "kuznyechik-mac", 16, 0 }, { "kuznyechik-ctr-acpkm-omac", 16, 1 },
    };
    unsigned long no;
    char path[4096];
    OSSL_PROVIDER *deflt;

    /*
     * gostprov's OMAC MACs fetch their cipher from the default library
     * context, whatever context they run in (a gostprov defect): it is
     * loaded there, by path, and only there, since a second gostprov in
     * one process leaks what its engine registers (LeakSanitizer).  Hence
     * a group of its own (gostprov-mac), apart from gplibctx's.
     */
    snprintf(path, sizeof(path), "%s/gostprov.so", getenv("SMGOST_GOSTPROV"));
    if (!TU_CHECK((deflt = OSSL_PROVIDER_load(NULL, path)) != NULL,
                  "gostprov into the default library context"))
        return;

    for (no = 0; no < n; no++) {
        MAC_CASE c;
        EVP_MAC *mac;
        EVP_MAC_CTX *ctx = NULL;
        unsigned char *msg, out[16];
        size_t outl = 0, a = rnd(NELEM(algs));
        OSSL_PARAM p[4];
        int ok;

        memset(&c, 0, sizeof(c));
        c.no = no;
        c.ref = "gostprov";
        c.alg = algs[a].alg;
        c.len = rnd(4) == 0 ? rnd(17) : pick_len(&gost89_shape);
        c.size = 1 + rnd(algs[a].bs);
        if (algs[a].acpkm) {
            c.sections[0] = algs[a].bs * (1 + rnd(40));
            c.sections[1] = (32 + algs[a].bs) * (1 + rnd(4));
        }
        tu_rng_bytes(&rng, c.key, sizeof(c.key));
        msg = tu_malloc(c.len);
        tu_rng_bytes(&rng, msg, c.len);
        c.msg = msg;
        p[0] = OSSL_PARAM_construct_size_t("size", &c.size);
        p[1] = p[2] = p[3] = OSSL_PARAM_construct_end();
        if (c.sections[0] != 0) {
            p[1] = OSSL_PARAM_construct_size_t("key-mesh", &c.sections[0]);
            p[2] = OSSL_PARAM_construct_size_t("cipher-key-mesh",
                                               &c.sections[1]);
        }
        mac = EVP_MAC_fetch(NULL, c.alg, NULL);
        ok = mac != NULL && (ctx = EVP_MAC_CTX_new(mac)) != NULL
             && EVP_MAC_init(ctx, c.key, 32, NULL)
             && EVP_MAC_CTX_set_params(ctx, p)
             && EVP_MAC_update(ctx, msg, c.len)
             && EVP_MAC_final(ctx, out, &outl, sizeof(out));
        if (TU_CHECK(ok && outl == c.size, "gostprov %s: EVP_MAC calls "
                     "failed or gave %zu bytes", c.alg, outl))
            ours_mac(&c, out);
        ERR_clear_error();
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(mac);
        free(msg);
    }
    OSSL_PROVIDER_unload(deflt);
}

static void run_gostprov(double scale)
{
    gplibctx = gost89_gostprov_libctx();
    if (gplibctx == NULL) {
        TU_CHECK(0, "gostprov is needed for this group");
        return;
    }
    gostprov_ciphers((unsigned long)(1500 * scale));
    gostprov_at_meshing((unsigned long)(300 * scale));
    gostprov_cms((unsigned long)(200 * scale));
    gostprov_updated_iv((unsigned long)(3000 * scale));
    gost89_gostprov_libctx_free(gplibctx);
}

/* ---------------------------------------------- GOST R 34.11-94 digest */

/* Short messages around the 32-byte block, some long ones. */
static const TU_LEN_BAND gost94_lens[] = {
    /* percent, base, unit, count, jitter */
    { 45, 0, 1, 100, 0 },
    { 35, 0, 1, 1100, 0 },
    { 20, 0, 1, 24 * 1024, 0 },
};

/* Pieces around the 32-byte block. */
static const DIFF_SHAPE gost94_shape = {
    gost94_lens, NELEM(gost94_lens), { 40, 4096, 32, 64, 0 }
};

/* A whole message's reference digest (32 bytes); 0 on failure. */
typedef int (*gost94_ref_fn)(const unsigned char *msg, size_t len,
                             unsigned char out[32]);

static EVP_MD *gost94_gostprov_md;

static int gost94_by_gostprov(const unsigned char *msg, size_t len,
                              unsigned char out[32])
{
    unsigned int outl = 0;

    return EVP_Digest(msg, len, out, &outl, gost94_gostprov_md, NULL)
           && outl == 32;
}

/*
 * One random message through smgost's md_gost94 in random pieces, copied
 * mid-stream (both copies finished) or not, and in one shot, against ref.
 */
static void gost94_case(const EVP_MD *ours, gost94_ref_fn ref,
                        const char *refname, int nonempty, unsigned long no)
{
    size_t len = pick_len(&gost94_shape), chunks[MAX_CHUNKS], n, i, pos = 0;
    size_t copy_at;
    unsigned char *msg, want[32], got[32];
    unsigned int gl = 0;
    EVP_MD_CTX *a = EVP_MD_CTX_new(), *b = NULL;
    int ok;

    if (nonempty && len == 0)
        len = 1 + rnd(64);
    msg = tu_malloc(len + 1);
    tu_rng_bytes(&rng, msg, len);
    n = make_chunks(&gost94_shape, len, chunks, NELEM(chunks));
    copy_at = rnd(2) ? rnd(n + 1) : SIZE_MAX;
    if (!TU_CHECK(a != NULL && ref(msg, len, want), "%s digest", refname))
        goto end;
    ok = EVP_DigestInit_ex2(a, ours, NULL);
    for (i = 0; ok && i <= n; i++) {
        if (i == copy_at) {
            ok = (b = EVP_MD_CTX_new()) != NULL && EVP_MD_CTX_copy_ex(b, a);
            TU_CHECK(ok, "EVP_MD_CTX_copy_ex");
        }
        if (i < n) {
            ok = ok && EVP_DigestUpdate(a, msg + pos, chunks[i])
                 && (b == NULL || EVP_DigestUpdate(b, msg + pos, chunks[i]));
            pos += chunks[i];
        }
    }
    if (TU_CHECK(ok && EVP_DigestFinal_ex(a, got, &gl),
                 "md_gost94 digest failed")
        && !TU_CHECK_MEM("md_gost94", got, gl, want, 32))
        fprintf(stderr, "  in case %lu against %s: length %zu, %zu chunks\n",
                no, refname, len, n);
    if (b != NULL
        && TU_CHECK(EVP_DigestFinal_ex(b, got, &gl), "copy final failed")
        && !TU_CHECK_MEM("md_gost94 after copy", got, gl, want, 32))
        fprintf(stderr, "  in case %lu against %s: length %zu, copied "
                "before chunk %zu of %zu\n", no, refname, len, copy_at, n);
    gl = 0;
    if (TU_CHECK(EVP_Digest(msg, len, got, &gl, ours, NULL),
                 "md_gost94 one-shot failed"))
        TU_CHECK_MEM("md_gost94 one shot", got, gl, want, 32);
 end:
    EVP_MD_CTX_free(a);
    EVP_MD_CTX_free(b);
    free(msg);
}

static void run_gost94(gost94_ref_fn ref, const char *refname, int nonempty,
                       unsigned long ncases)
{
    EVP_MD *ours = EVP_MD_fetch(libctx, "md_gost94", tu_target_propq());
    unsigned long n;

    if (TU_CHECK(ours != NULL, "fetch md_gost94")) {
        TU_CHECK(strcmp(tu_prov_name(EVP_MD_get0_provider(ours)),
                        tu_target()) == 0, "md_gost94 came from %s",
                 tu_prov_name(EVP_MD_get0_provider(ours)));
        for (n = 0; n < ncases && tu_failures <= 20; n++)
            gost94_case(ours, ref, refname, nonempty, n);
        printf("# md_gost94 against %s: %lu cases\n", refname, n);
    }
    EVP_MD_free(ours);
}

static void run_gost94_gostprov(unsigned long ncases)
{
    if ((gplibctx = gost89_gostprov_libctx()) == NULL) {
        TU_CHECK(0, "gostprov is needed for this group");
        return;
    }
    gost94_gostprov_md = EVP_MD_fetch(gplibctx, "md_gost94", NULL);
    if (TU_CHECK(gost94_gostprov_md != NULL, "fetch gostprov's md_gost94"))
        run_gost94(gost94_by_gostprov, "gostprov", 1, ncases);
    EVP_MD_free(gost94_gostprov_md);
    gost89_gostprov_libctx_free(gplibctx);
}

/* ---------------------------------------------------- against libgcrypt */

#ifdef HAVE_GCRYPT

/* Reverses each size-byte group of p in place. */
static void reverse_groups(unsigned char *p, size_t n, size_t size)
{
    size_t i, j;

    for (i = 0; i + size <= n; i += size)
        for (j = 0; j < size / 2; j++) {
            unsigned char t = p[i + j];

            p[i + j] = p[i + size - 1 - j];
            p[i + size - 1 - j] = t;
        }
}

static int gcry_crypt(int algo, int mode, int enc, const GOST89_SET *set,
                      const unsigned char *key, const unsigned char *iv,
                      const unsigned char *in, unsigned char *out, size_t len)
{
    gcry_cipher_hd_t h;
    gcry_error_t err = gcry_cipher_open(&h, algo, mode, 0);

    if (err == 0) {
        /* The S-box before the key: the key setup keeps a chosen one. */
        err = gcry_cipher_ctl(h, GCRYCTL_SET_SBOX, (void *)set->oid, 0);
        if (err == 0)
            err = gcry_cipher_setkey(h, key, 32);
        if (err == 0 && iv != NULL)
            err = gcry_cipher_setiv(h, iv, 8);
        if (err == 0)
            err = enc ? gcry_cipher_encrypt(h, out, len, in, len)
                      : gcry_cipher_decrypt(h, out, len, in, len);
        gcry_cipher_close(h);
    }
    return TU_CHECK(err == 0, "libgcrypt: %s", gcry_strerror(err));
}

static int gcry_ecb(int enc, const GOST89_SET *set, const unsigned char *key,
                    const unsigned char *in, unsigned char *out, size_t len)
{
    return gcry_crypt(GCRY_CIPHER_GOST28147, GCRY_CIPHER_MODE_ECB, enc, set,
                      key, NULL, in, out, len);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
           | (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/*
 * GOST 28147-89 counter mode (RFC 5830 section 6) as gost-engine's
 * gost89-cnt runs it, over libgcrypt's ECB: the register starts as E(IV);
 * before each block its low word gains C2 = 0x01010101 mod 2^32 and its
 * high word C1 = 0x01010104 with the carry added back (mod 2^32 - 1), and
 * the block's gamma is E(register).  With meshing, before each 1024 bytes
 * after the first, CryptoPro key meshing (RFC 4357 section 2.3): the key
 * becomes D_K(C) and the register E_K'(register).  len bytes of in XORed
 * with the gamma go to out.
 */
static int gcry_cnt(const GOST89_SET *set, int mesh, const unsigned char *k,
                    const unsigned char *iv, const unsigned char *in,
                    unsigned char *out, size_t len)
{
    static const unsigned char meshing_c[32] = {     /* RFC 4357 2.3.2 */
        0x69, 0x00, 0x72, 0x22, 0x64, 0xC9, 0x04, 0x23,
        0x8D, 0x3A, 0xDB, 0x96, 0x46, 0xE9, 0x2A, 0xC4,
        0x18, 0xFE, 0xAC, 0x94, 0x00, 0xED, 0x07, 0x12,
        0xC0, 0x86, 0xDC, 0xC2, 0xEF, 0x4C, 0xA9, 0x2B
    };
    unsigned char key[32], next[32], reg[8], gamma[8];
    size_t off, i;
    uint32_t n4;

    memcpy(key, k, 32);
    if (!gcry_ecb(1, set, key, iv, reg, 8))
        return 0;
    for (off = 0; off < len; off += 8) {
        if (mesh && off > 0 && off % 1024 == 0) {
            if (!gcry_ecb(0, set, key, meshing_c, next, 32)
                || !gcry_ecb(1, set, next, reg, reg, 8))
                return 0;
            memcpy(key, next, 32);
        }
        put_le32(reg, le32(reg) + 0x01010101);
        n4 = le32(reg + 4) + 0x01010104;
        put_le32(reg + 4, n4 < 0x01010104 ? n4 + 1 : n4);
        if (!gcry_ecb(1, set, key, reg, gamma, 8))
            return 0;
        for (i = 0; i < 8 && off + i < len; i++)
            out[off + i] = in[off + i] ^ gamma[i];
    }
    return 1;
}

static void gcrypt_ciphers(unsigned long n)
{
    enum {
        ECB, CBC, CFB, CFB_MESH, MAGMA_ECB, MAGMA_CBC, MAGMA_CTR, CNT, NKINDS
    };
    static const char *const kind_names[NKINDS] = {
        "GOST28147 ECB", "GOST28147 CBC", "GOST28147 CFB",
        "GOST28147_MESH CFB", "GOST28147 ECB (Z) as Magma",
        "GOST28147 CBC (Z) as Magma",
        "GOST28147 ECB (Z) as Magma of the CTR counter blocks",
        "GOST28147 ECB in RFC 5830 counter mode"
    };
    unsigned long no;

    for (no = 0; no < n; no++) {
        CIPHER_CASE c;
        int kind = (int)rnd(NKINDS);
        int block = kind != CFB && kind != CFB_MESH && kind != MAGMA_CTR
                    && kind != CNT;
        int magma = kind == MAGMA_ECB || kind == MAGMA_CBC || kind == MAGMA_CTR;
        size_t len = pick_len(&gost89_shape), padded, whole, i;
        unsigned char *pt, *in, *ct, key[32], iv[8];

        memset(&c, 0, sizeof(c));
        c.no = no;
        c.ref = kind_names[kind];
        c.set = magma ? gost89_set("Z") : &gost89_sets[rnd(GOST89_NSETS)];
        c.pad = block && rnd(4) != 0;
        if (block && !c.pad)
            len -= len % 8;
        padded = c.pad ? len + 8 - len % 8 : len;
        /* what libgcrypt runs: CTR's counter blocks cover a partial one */
        whole = kind == MAGMA_CTR ? (len + 7) / 8 * 8 : padded;
        c.ivlen = kind == ECB || kind == MAGMA_ECB ? 0
            : kind == MAGMA_CTR ? 4 : 8;
        tu_rng_bytes(&rng, c.key, sizeof(c.key));
        tu_rng_bytes(&rng, c.iv, 8);
        pt = tu_malloc(whole);
        in = tu_malloc(whole);
        ct = tu_malloc(whole);
        tu_rng_bytes(&rng, pt, len);
        /* libgcrypt does not pad: PKCS#7 by hand. */
        memcpy(in, pt, len);
        for (i = len; i < padded; i++)
            in[i] = (unsigned char)(padded - len);
        memcpy(key, c.key, 32);
        memcpy(iv, c.iv, 8);
        switch (kind) {
        case ECB:
            c.alg = "gost89-ecb";
            break;
        case CBC:
            c.alg = "gost89-cbc";
            break;
        case CFB:
            c.alg = "gost89";
            c.mesh_off = 1;
            break;
        case CFB_MESH:
            c.alg = "gost89";
            /* libgcrypt 1.10 meshes every set but Test. */
            c.mesh_off = c.set == gost89_set("Test");
            break;
        case CNT:
            c.alg = rnd(2) ? "gost89-cnt" : "gost89-cnt-12";
            c.mesh_off = rnd(5) == 0;
            break;
        case MAGMA_CTR:
            /* GOST R 34.13-2015 CTR over Magma (n = 64): block i, from 0,
             * of the key stream is E(IV || 0^32 + i), the counter a 64-bit
             * big-endian number.  The counter blocks go through ECB. */
            c.alg = "magma-ctr";
            for (i = 0; i < whole / 8; i++) {
                uint64_t ctr = ((uint64_t)c.iv[0] << 56 | (uint64_t)c.iv[1] << 48
                                | (uint64_t)c.iv[2] << 40
                                | (uint64_t)c.iv[3] << 32) + i;
                int b;

                for (b = 0; b < 8; b++)
                    in[8 * i + b] = (unsigned char)(ctr >> (56 - 8 * b));
            }
            /* fall through */
        default:
            /* Magma is GOST 28147-89 under Z with each 32-bit key word
             * and each block byte-reversed (RFC 8891 against RFC 5830). */
            c.alg = kind == MAGMA_ECB ? "magma-ecb"
                : kind == MAGMA_CBC ? "magma-cbc" : c.alg;
            reverse_groups(key, 32, 4);
            reverse_groups(iv, 8, 8);
            reverse_groups(in, whole, 8);
            break;
        }
        if (kind == CNT
            ? gcry_cnt(c.set, !c.mesh_off, key, iv, in, ct, len)
            : gcry_crypt(kind == CFB_MESH ? GCRY_CIPHER_GOST28147_MESH
                                          : GCRY_CIPHER_GOST28147,
                         kind == ECB || kind == MAGMA_ECB || kind == MAGMA_CTR
                         ? GCRY_CIPHER_MODE_ECB
                         : block ? GCRY_CIPHER_MODE_CBC
                                 : GCRY_CIPHER_MODE_CFB, 1,
                         c.set, key,
                         c.ivlen > 0 && kind != MAGMA_CTR ? iv : NULL, in,
                         ct, whole)) {
            if (magma) {
                reverse_groups(ct, whole, 8);
                c.set = NULL;   /* Magma takes no set */
            }
            /* CTR: the key stream over the plaintext */
            for (i = 0; kind == MAGMA_CTR && i < len; i++)
                ct[i] ^= pt[i];
            ours_both_ways(&c, pt, len, ct, padded);
        }
        free(pt);
        free(in);
        free(ct);
    }
}

static void gcrypt_macs(unsigned long n)
{
    unsigned long no;

    for (no = 0; no < n; no++) {
        MAC_CASE c;
        gcry_mac_hd_t h;
        gcry_error_t err;
        unsigned char *msg, out[8];
        size_t outl;
        int twelve = (int)rnd(2);

        memset(&c, 0, sizeof(c));
        c.no = no;
        c.ref = "libgcrypt GOST28147_IMIT";
        c.alg = twelve ? "gost-mac-12" : "gost-mac";
        c.set = &gost89_sets[rnd(GOST89_NSETS)];
        /* libgcrypt 1.10's IMIT never meshes: stay within one period. */
        c.len = rnd(3) == 0 ? rnd(17) : rnd(1025);
        c.size = 1 + rnd(8);
        outl = c.size;
        tu_rng_bytes(&rng, c.key, sizeof(c.key));
        msg = tu_malloc(c.len);
        tu_rng_bytes(&rng, msg, c.len);
        c.msg = msg;
        err = gcry_mac_open(&h, GCRY_MAC_GOST28147_IMIT, 0, NULL);
        if (err == 0) {
            err = gcry_mac_ctl(h, GCRYCTL_SET_SBOX, (void *)c.set->oid, 0);
            if (err == 0)
                err = gcry_mac_setkey(h, c.key, 32);
            if (err == 0)
                err = gcry_mac_write(h, msg, c.len);
            if (err == 0)
                err = gcry_mac_read(h, out, &outl);
            gcry_mac_close(h);
        }
        if (TU_CHECK(err == 0 && outl == c.size, "libgcrypt IMIT: %s",
                     gcry_strerror(err)))
            ours_mac(&c, out);
        free(msg);
    }
}

static void run_gcrypt(double scale)
{
    if (gcry_check_version("1.10.0") == NULL) {
        TU_CHECK(0, "libgcrypt 1.10 or later is needed, have %s",
                 gcry_check_version(NULL));
        return;
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    printf("# libgcrypt %s\n", gcry_check_version(NULL));
    gcrypt_ciphers((unsigned long)(1500 * scale));
    gcrypt_macs((unsigned long)(1000 * scale));
}

/* libgcrypt's GOSTR3411_CP: GOST R 34.11-94 with the CryptoPro set. */
static int gost94_by_gcrypt(const unsigned char *msg, size_t len,
                            unsigned char out[32])
{
    gcry_md_hash_buffer(GCRY_MD_GOSTR3411_CP, out, msg, len);
    return 1;
}

static void run_gost94_gcrypt(unsigned long ncases)
{
    if (gcry_check_version("1.10.0") == NULL) {
        TU_CHECK(0, "libgcrypt 1.10 or later is needed, have %s",
                 gcry_check_version(NULL));
        return;
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    printf("# libgcrypt %s\n", gcry_check_version(NULL));
    run_gost94(gost94_by_gcrypt, "libgcrypt GOSTR3411_CP", 0, ncases);
}

#endif

/* ------------------------------------------------------------- Streebog */

/*
 * Mostly messages of up to three blocks (every padding position, Sigma's
 * and N's carries from block to block), some of a few KiB, a few long.
 */
static const TU_LEN_BAND streebog_lens[] = {
    /* percent, base, unit, count, jitter */
    { 55, 0, 1, 200, 0 },
    { 35, 0, 1, 4200, 0 },
    { 10, 0, 1, 70 * 1024, 0 },
};

/* Pieces around the 64-byte block. */
static const DIFF_SHAPE streebog_shape = {
    streebog_lens, NELEM(streebog_lens), { 70, 8192, 64, 32, 0 }
};

static const char *const streebog_names[2] = {
    "md_gost12_256", "md_gost12_512"
};

/*
 * A reference: the digest (hmac 0) or HMAC under key (hmac 1) of msg with
 * Streebog-256 (i 0) or -512 (i 1), into out; 1 on success.
 */
typedef int (*streebog_ref_fn)(int i, int hmac, const unsigned char *key,
                               size_t keylen, const unsigned char *msg,
                               size_t len, unsigned char *out);

/* smgost's HMAC over Streebog i: the default HMAC, the target's digest. */
static EVP_MAC_CTX *streebog_hmac_ctx(OSSL_LIB_CTX *lc, int i,
                                      const char *propq,
                                      const unsigned char *key, size_t keylen)
{
    EVP_MAC *mac = EVP_MAC_fetch(lc, "HMAC", NULL);
    EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
    OSSL_PARAM p[3], *q = p;

    *q++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                            (char *)streebog_names[i], 0);
    if (propq != NULL)
        *q++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                (char *)propq, 0);
    *q = OSSL_PARAM_construct_end();
    if (ctx != NULL && !EVP_MAC_init(ctx, key, keylen, p)) {
        EVP_MAC_CTX_free(ctx);
        ctx = NULL;
    }
    EVP_MAC_free(mac);
    return ctx;
}

/* HMAC in random pieces, copied mid-stream with both copies finished. */
static void streebog_hmac_check(int i, const unsigned char *key,
                                size_t keylen, const unsigned char *msg,
                                size_t len, const unsigned char *want,
                                unsigned long no)
{
    size_t chunks[4096], n, c, pos = 0, copy_at, gl = 0, size = 32 << i;
    EVP_MAC_CTX *a = streebog_hmac_ctx(libctx, i, tu_target_propq(), key,
                                       keylen), *b = NULL;
    unsigned char got[64];
    int ok = TU_CHECK(a != NULL, "HMAC-%s init", streebog_names[i]);

    n = make_chunks(&streebog_shape, len, chunks, NELEM(chunks));
    copy_at = rnd(2) ? rnd(n + 1) : SIZE_MAX;
    for (c = 0; ok && c <= n; c++) {
        if (c == copy_at)
            ok = TU_CHECK((b = EVP_MAC_CTX_dup(a)) != NULL, "HMAC dup");
        if (c < n) {
            ok = ok && EVP_MAC_update(a, msg + pos, chunks[c])
                 && (b == NULL || EVP_MAC_update(b, msg + pos, chunks[c]));
            pos += chunks[c];
        }
    }
    if (TU_CHECK(ok && EVP_MAC_final(a, got, &gl, sizeof(got)),
                 "HMAC-%s failed", streebog_names[i])
        && !TU_CHECK_MEM("HMAC-Streebog", got, gl, want, size))
        fprintf(stderr, "  in case %lu: key %zu bytes, length %zu, %zu "
                "chunks\n", no, keylen, len, n);
    if (b != NULL
        && TU_CHECK(EVP_MAC_final(b, got, &gl, sizeof(got)),
                    "HMAC copy final failed"))
        TU_CHECK_MEM("HMAC-Streebog after dup", got, gl, want, size);
    EVP_MAC_CTX_free(a);
    EVP_MAC_CTX_free(b);
}

/*
 * ncases random messages through both digests, and nhmac through HMAC
 * with random keys (shorter and longer than the block), against ref.
 */
static void run_streebog(const char *refname, streebog_ref_fn ref,
                         unsigned long ncases, unsigned long nhmac)
{
    EVP_MD *ours[2];
    unsigned char want[64], key[200];
    unsigned long n;
    int i;

    for (i = 0; i < 2; i++) {
        ours[i] = EVP_MD_fetch(libctx, streebog_names[i], tu_target_propq());
        if (TU_CHECK(ours[i] != NULL, "fetch %s", streebog_names[i]))
            TU_CHECK(strcmp(tu_prov_name(EVP_MD_get0_provider(ours[i])),
                            tu_target()) == 0, "%s came from %s",
                     streebog_names[i],
                     tu_prov_name(EVP_MD_get0_provider(ours[i])));
    }
    for (n = 0; n < ncases + nhmac && tu_failures <= 20; n++) {
        size_t len = pick_len(&streebog_shape), keylen = rnd(sizeof(key));
        unsigned char *msg = tu_malloc(len);
        int hmac = n >= ncases;

        i = (int)rnd(2);
        tu_rng_bytes(&rng, msg, len);
        tu_rng_bytes(&rng, key, keylen);
        if (ours[i] != NULL
            && TU_CHECK(ref(i, hmac, key, keylen, msg, len, want),
                        "%s: %s of %zu bytes", refname, streebog_names[i],
                        len)) {
            if (hmac)
                streebog_hmac_check(i, key, keylen, msg, len, want, n);
            else
                digest_check(streebog_names[i], ours[i], &streebog_shape,
                             msg, len, want, 32u << i, n);
        }
        free(msg);
    }
    printf("# streebog against %s: %lu digests, %lu HMACs\n", refname,
           ncases, nhmac);
    EVP_MD_free(ours[0]);
    EVP_MD_free(ours[1]);
}

/* gostprov's md_gost12_256/512, and the default HMAC over them. */
static int streebog_gostprov_ref(int i, int hmac, const unsigned char *key,
                                 size_t keylen, const unsigned char *msg,
                                 size_t len, unsigned char *out)
{
    EVP_MD *md;
    EVP_MAC_CTX *ctx;
    unsigned int l = 0;
    size_t ml = 0;
    int ok;

    if (!hmac) {
        md = EVP_MD_fetch(gplibctx, streebog_names[i], NULL);
        ok = md != NULL && EVP_Digest(msg, len, out, &l, md, NULL)
             && l == 32u << i;
        EVP_MD_free(md);
        return ok;
    }
    ctx = streebog_hmac_ctx(gplibctx, i, NULL, key, keylen);
    ok = ctx != NULL && EVP_MAC_update(ctx, msg, len)
         && EVP_MAC_final(ctx, out, &ml, 64) && ml == 32u << i;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

static void group_streebog_gostprov(void)
{
    gplibctx = gost89_gostprov_libctx();
    if (gplibctx == NULL) {
        TU_CHECK(0, "gostprov is needed for this group");
        return;
    }
    run_streebog("gostprov", streebog_gostprov_ref,
                 (unsigned long)(2000 * tu_scale()),
                 (unsigned long)(500 * tu_scale()));
    gost89_gostprov_libctx_free(gplibctx);
}

#ifdef HAVE_GCRYPT
/* libgcrypt's Stribog, and its HMAC over it. */
static int streebog_gcrypt_ref(int i, int hmac, const unsigned char *key,
                               size_t keylen, const unsigned char *msg,
                               size_t len, unsigned char *out)
{
    gcry_mac_hd_t h;
    gcry_error_t err;
    size_t outl = 32u << i;

    if (!hmac) {
        gcry_md_hash_buffer(i ? GCRY_MD_STRIBOG512 : GCRY_MD_STRIBOG256, out,
                            msg, len);
        return 1;
    }
    err = gcry_mac_open(&h, i ? GCRY_MAC_HMAC_STRIBOG512
                              : GCRY_MAC_HMAC_STRIBOG256, 0, NULL);
    if (err == 0) {
        err = gcry_mac_setkey(h, key, keylen);
        if (err == 0)
            err = gcry_mac_write(h, msg, len);
        if (err == 0)
            err = gcry_mac_read(h, out, &outl);
        gcry_mac_close(h);
    }
    return err == 0 && outl == 32u << i;
}
#endif

static void group_streebog_gcrypt(void)
{
#ifdef HAVE_GCRYPT
    if (gcry_check_version("1.10.0") == NULL) {
        TU_CHECK(0, "libgcrypt 1.10 or later is needed, have %s",
                 gcry_check_version(NULL));
        return;
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    printf("# libgcrypt %s\n", gcry_check_version(NULL));
    run_streebog("libgcrypt", streebog_gcrypt_ref,
                 (unsigned long)(2000 * tu_scale()),
                 (unsigned long)(500 * tu_scale()));
#else
    TU_CHECK(0, "built without libgcrypt (HAVE_GCRYPT)");
#endif
}

/*
 * Against Botan: the file SMGOST_STREEBOG_REF (test/streebog_botan.py's
 * output), a line "256|512 message digest" (hex) each, every message run
 * in random pieces.
 */
static void group_streebog_file(void)
{
    const char *path = getenv("SMGOST_STREEBOG_REF");
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    EVP_MD *ours[2] = { NULL, NULL };
    static char line[300000];
    unsigned long n = 0;
    int i;

    if (!TU_CHECK(f != NULL, "SMGOST_STREEBOG_REF names no readable file"))
        return;
    for (i = 0; i < 2; i++)
        TU_CHECK((ours[i] = EVP_MD_fetch(libctx, streebog_names[i],
                                         tu_target_propq())) != NULL,
                 "fetch %s", streebog_names[i]);
    while (fgets(line, sizeof(line), f) != NULL && tu_failures <= 20) {
        char *bits = strtok(line, " \n"), *mhex = strtok(NULL, " \n"),
            *dhex = strtok(NULL, " \n");
        unsigned char *msg, *want;
        size_t len = 0, wl = 0;

        if (!TU_CHECK(bits != NULL && mhex != NULL && dhex != NULL
                      && (strcmp(bits, "256") == 0
                          || strcmp(bits, "512") == 0),
                      "%s: line %lu malformed", path, n + 1))
            break;
        i = bits[0] == '5';
        msg = tu_unhex(strcmp(mhex, "-") == 0 ? "" : mhex, &len);
        want = tu_unhex(dhex, &wl);
        if (TU_CHECK(msg != NULL && want != NULL && wl == 32u << i,
                     "%s: line %lu: bad hex", path, n + 1)
            && ours[i] != NULL)
            digest_check(streebog_names[i], ours[i], &streebog_shape, msg,
                         len, want, (unsigned int)wl, n);
        free(msg);
        free(want);
        n++;
    }
    TU_CHECK(n > 0, "%s: no cases", path);
    printf("# streebog against %s: %lu digests\n", path, n);
    fclose(f);
    EVP_MD_free(ours[0]);
    EVP_MD_free(ours[1]);
}

/* ------------------------------------------------------------ families */

static void group_sm4(void)
{
    run_sm4((unsigned long)(2000 * tu_scale()));
}

static void group_sm3(void)
{
    run_sm3((unsigned long)(1000 * tu_scale()));
}

static void group_hmac(void)
{
    run_hmac((unsigned long)(500 * tu_scale()));
}

static void group_gostprov(void)
{
    run_gostprov(tu_scale());
}

static void group_gostprov_mac(void)
{
    gostprov_macs((unsigned long)(1000 * tu_scale()));
}

/*
 * Kuznyechik against gostprov: every cipher both have, output both ways
 * (random pieces, in place or not, copies, re-inits with the key, a new
 * IV or nothing) and updated-iv after every piece.
 */
static void group_kuznyechik_gostprov(void)
{
    double scale = tu_scale();

    gplibctx = gost89_gostprov_libctx();
    if (gplibctx == NULL) {
        TU_CHECK(0, "gostprov is needed for this group");
        return;
    }
    gostprov_algs = gostprov_kuznyechik_algs;
    gostprov_nalgs = NELEM(gostprov_kuznyechik_algs);
    gostprov_ciphers((unsigned long)(800 * scale));
    gostprov_updated_iv((unsigned long)(800 * scale));
    gost89_gostprov_libctx_free(gplibctx);
}

static void group_gcrypt(void)
{
#ifdef HAVE_GCRYPT
    run_gcrypt(tu_scale());
#else
    TU_CHECK(0, "built without libgcrypt (HAVE_GCRYPT)");
#endif
}

static void group_gost94_gostprov(void)
{
    run_gost94_gostprov((unsigned long)(2000 * tu_scale()));
}

static void group_gost94_gcrypt(void)
{
#ifdef HAVE_GCRYPT
    run_gost94_gcrypt((unsigned long)(3000 * tu_scale()));
#else
    TU_CHECK(0, "built without libgcrypt (HAVE_GCRYPT)");
#endif
}

/* The seed argument, for prepare(). */
static const char *seed_arg;

static void prepare(OSSL_LIB_CTX *lc)
{
    tu_rng_seed(&rng, tu_seed(seed_arg));
    gost89_note_kernels(lc);
}

int main(int argc, char **argv)
{
    static const TU_GROUP sm_groups[] = {
        { "sm4", group_sm4 }, { "sm3", group_sm3 }, { "hmac", group_hmac },
    };
    static const TU_GROUP gost89_groups[] = {
        { "gostprov", group_gostprov }, { "gcrypt", group_gcrypt },
        { "gostprov-mac", group_gostprov_mac },
        { "gost94-gostprov", group_gost94_gostprov },
        { "gost94-gcrypt", group_gost94_gcrypt },
    };
    static const TU_GROUP streebog_groups[] = {
        { "gostprov", group_streebog_gostprov },
        { "gcrypt", group_streebog_gcrypt },
        { "file", group_streebog_file },
    };
    static const TU_GROUP kuznyechik_groups[] = {
        { "gostprov", group_kuznyechik_gostprov },
    };
    static const TU_FAMILY families[] = {
        { "sm", sm_groups, NELEM(sm_groups) },
        { "gost89", gost89_groups, NELEM(gost89_groups) },
        { "streebog", streebog_groups, NELEM(streebog_groups) },
        { "kuznyechik", kuznyechik_groups, NELEM(kuznyechik_groups) },
    };

    if (argc == 2 && strcmp(argv[1], "has-gcrypt") == 0) {
#ifdef HAVE_GCRYPT
        return 0;
#else
        return 1;
#endif
    }
    seed_arg = argc > 3 ? argv[3] : NULL;
    return tu_main_families(argc, argv, families, NELEM(families), &libctx,
                            prepare);
}
