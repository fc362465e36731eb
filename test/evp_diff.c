/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential tests: smgost against OpenSSL's default provider over
 * seeded random cases, through EVP as users call it.
 *
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
 * Usage: evp_diff sm4|sm3|hmac [seed]; the seed (else SMGOST_TEST_SEED,
 * else the clock) is printed.  SMGOST_TEST_SCALE scales the case counts.
 */
#include "testutil.h"

#include <limits.h>
#include <sys/types.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

static OSSL_LIB_CTX *libctx;
static TU_RNG rng;

#define MAX_CTX 3               /* the original, a copy, a copy of a copy */

static size_t rnd(size_t n)
{
    return tu_rng_below(&rng, n);
}

/* Mostly short messages around block edges, some long ones. */
static const TU_LEN_BAND sm_lens[] = {
    /* percent, base, unit, count, jitter */
    { 45, 0, 1, 70, 0 },
    { 35, 0, 1, 700, 0 },
    { 20, 0, 1, 40 * 1024, 0 },
};

static size_t pick_len(void)
{
    return tu_pick_len(&rng, sm_lens, sizeof(sm_lens) / sizeof(sm_lens[0]));
}

/* Update sizes around SM4's 16-byte block. */
static const TU_CHUNKING sm_chunking = { 40, 8192, 16, 64, 0 };

static size_t make_chunks(size_t len, size_t *chunks, size_t max)
{
    return tu_chunks(&rng, &sm_chunking, len, chunks, max);
}

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

static void describe(const struct sm4_case *c)
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
    describe(c);
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
    nchunks = c->nchunks = make_chunks(c->len, chunks,
                                       sizeof(chunks) / sizeof(chunks[0]));
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
                describe(c);
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
            describe(c);
            continue;
        }
        if (ook && !TU_CHECK_MEM("whole output", l->buf,
                                 l->done + (size_t)ooutl, refout,
                                 refdone + (size_t)routl))
            describe(c);
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
        c.len = n + 3 * 5 >= ncases ? (1u << 20) + rnd(40) : pick_len();
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

/* One random SM3 message, chunked, with an optional copy mid-stream. */
static void sm3_case(const EVP_MD *ours_md, const EVP_MD *ref_md,
                     unsigned long no)
{
    size_t len = rnd(50) == 0 ? (1u << 20) + rnd(200) : pick_len();
    size_t chunks[4096], n = 0, i, pos = 0, copy_at;
    unsigned char *msg = tu_malloc(len), want[32], got[32];
    unsigned int wl = 0, gl = 0;
    EVP_MD_CTX *a = EVP_MD_CTX_new(), *b = NULL;
    int ok;

    tu_rng_bytes(&rng, msg, len);
    n = make_chunks(len, chunks, sizeof(chunks) / sizeof(chunks[0]));
    copy_at = rnd(2) ? rnd(n + 1) : SIZE_MAX;
    if (!TU_CHECK(a != NULL && EVP_Digest(msg, len, want, &wl, ref_md, NULL),
                  "reference digest"))
        goto end;
    ok = EVP_DigestInit_ex2(a, ours_md, NULL);
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
    if (TU_CHECK(ok && EVP_DigestFinal_ex(a, got, &gl), "SM3 digest failed"))
        if (!TU_CHECK_MEM("SM3", got, gl, want, wl))
            fprintf(stderr, "  in case %lu: length %zu, %zu chunks\n", no,
                    len, n);
    if (b != NULL
        && TU_CHECK(EVP_DigestFinal_ex(b, got, &gl), "SM3 copy final failed")
        && !TU_CHECK_MEM("SM3 after copy", got, gl, want, wl))
        fprintf(stderr, "  in case %lu: length %zu, copied before chunk "
                "%zu of %zu\n", no, len, copy_at, n);
    /* One shot, for implementations that special-case it. */
    gl = 0;
    if (TU_CHECK(EVP_Digest(msg, len, got, &gl, ours_md, NULL),
                 "SM3 one-shot failed"))
        TU_CHECK_MEM("SM3 one shot", got, gl, want, wl);
 end:
    EVP_MD_CTX_free(a);
    EVP_MD_CTX_free(b);
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
        len = pick_len();
        msg = tu_malloc(len);
        tu_rng_bytes(&rng, msg, len);
        n = make_chunks(len, chunks, sizeof(chunks) / sizeof(chunks[0]));
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

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";
    double scale = tu_scale();

    if (strcmp(group, "sm4") != 0 && strcmp(group, "sm3") != 0
        && strcmp(group, "hmac") != 0) {
        fprintf(stderr, "usage: %s sm4|sm3|hmac [seed]\n", argv[0]);
        return 2;
    }
    tu_rng_seed(&rng, tu_seed(argc > 2 ? argv[2] : NULL));
    libctx = tu_libctx();
    if (strcmp(group, "sm4") == 0)
        run_sm4((unsigned long)(2000 * scale));
    else if (strcmp(group, "sm3") == 0)
        run_sm3((unsigned long)(1000 * scale));
    else
        run_hmac((unsigned long)(500 * scale));
    tu_libctx_free(libctx);
    return tu_report(group);
}
