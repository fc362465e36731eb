/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness: smgost's SM4 (ECB, CBC, OFB, CFB, CTR) against OpenSSL's
 * default provider.  The input is a small program of EVP calls (init with
 * or without key and IV in either direction, update with any length in
 * place or not, final, the one-shot EVP_Cipher, context copies, padding,
 * num, keylen and ivlen parameters with any value, parameter reads) that
 * runs step by step on one context of each provider.  After every step the
 * two must agree: same success, same output, same values read back.
 *
 * Where smgost differs from the default provider by design, smgost must
 * behave as its contract says, and the rest of the program runs on smgost
 * alone (the contexts no longer hold the same state).  It must refuse: num
 * outside the block or on ECB/CBC, a keylen or ivlen other than the fixed
 * one, data before any key, data after final, the one-shot call on part of
 * a block in ECB/CBC, in-place block-mode updates while bytes are pending
 * (the output would run ahead of input it has not read).  It must take a
 * num inside the block in the stream modes, which libcrypto 3.0.22's
 * default provider refuses, and an update of no bytes that the default
 * provider answers with a block held back (see judge()).
 *
 * Input: mode byte, key (16), IV (16), step count, the steps, and the
 * rest is the message stream (fuzz.h) the data steps read from.
 */
#include "fuzz.h"

#include <openssl/core_names.h>

static OSSL_LIB_CTX *ours_lc, *ref_lc;

static const struct {
    const char *name;
    int block;                  /* ECB/CBC: padding, whole blocks */
    int ctr;
    size_t ivlen;
} modes[] = {
    { "SM4-ECB", 1, 0, 0 },
    { "SM4-CBC", 1, 0, 16 },
    { "SM4-OFB", 0, 0, 16 },
    { "SM4-CFB", 0, 0, 16 },
    { "SM4-CTR", 0, 1, 16 },
};
static EVP_CIPHER *ours_ciph[FZ_NELEM(modes)], *ref_ciph[FZ_NELEM(modes)];

enum op { OP_INIT, OP_UPDATE, OP_FINAL, OP_PADDING, OP_NUM, OP_LENS,
          OP_COPY, OP_GET, OP_CIPHER, NOPS };
static const char *const op_names[NOPS] = {
    "init", "update", "final", "padding", "num", "keylen/ivlen", "copy",
    "get params", "EVP_Cipher"
};

#define MAX_DATA 0x4000
#define MAX_STEPS 24

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t i;

    (void)argc, (void)argv;
    ours_lc = fz_smgost_libctx();
    ref_lc = fz_ref_libctx(0);
    for (i = 0; i < FZ_NELEM(modes); i++) {
        ours_ciph[i] = EVP_CIPHER_fetch(ours_lc, modes[i].name, FZ_PROPQ);
        ref_ciph[i] = EVP_CIPHER_fetch(ref_lc, modes[i].name, NULL);
        if (ours_ciph[i] == NULL || ref_ciph[i] == NULL) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "fuzz: cannot fetch %s\n", modes[i].name);
            exit(1);
        }
    }
    return 0;
}

/* One side's context and buffers. */
typedef struct {
    EVP_CIPHER_CTX *ctx;
    unsigned char buf[MAX_DATA + 32];
    size_t outl;
} SIDE;

/* What both sides were told so far, to tell a by-design refusal. */
typedef struct {
    int block, enc, pad, key_given, finalised;
    size_t pending;             /* ECB/CBC bytes held by the provider */
} TRACK;

static int set_uint(EVP_CIPHER_CTX *ctx, const char *key, unsigned v)
{
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_uint(key, &v);
    p[1] = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

static int set_size(EVP_CIPHER_CTX *ctx, const char *key, size_t v)
{
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_size_t(key, &v);
    p[1] = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* The values both must report alike, serialised into s->buf. */
static int get_all(SIDE *s)
{
    unsigned char iv[32], uiv[32];
    unsigned pad = 7, num = 7;
    size_t keylen = 0, ivlen = 0;
    OSSL_PARAM p[7];

    memset(iv, 0xee, sizeof(iv));
    memset(uiv, 0xee, sizeof(uiv));
    p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, iv, 16);
    p[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV,
                                             uiv, 16);
    p[2] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad);
    p[3] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num);
    p[4] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen);
    p[5] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen);
    p[6] = OSSL_PARAM_construct_end();
    if (!EVP_CIPHER_CTX_get_params(s->ctx, p))
        return 0;
    s->outl = 0;
    memcpy(s->buf, iv, p[0].return_size);
    s->outl += p[0].return_size;
    s->buf[s->outl++] = 0xff;
    memcpy(s->buf + s->outl, uiv, p[1].return_size);
    s->outl += p[1].return_size;
    s->buf[s->outl++] = 0xff;
    memcpy(s->buf + s->outl, &pad, sizeof(pad));
    s->outl += sizeof(pad);
    memcpy(s->buf + s->outl, &num, sizeof(num));
    s->outl += sizeof(num);
    memcpy(s->buf + s->outl, &keylen, sizeof(keylen));
    s->outl += sizeof(keylen);
    memcpy(s->buf + s->outl, &ivlen, sizeof(ivlen));
    s->outl += sizeof(ivlen);
    return 1;
}

/* One step on one side; its output (if any) in s->buf[0..outl). */
typedef struct {
    enum op op;
    unsigned flags, value;
    size_t len;
    const unsigned char *key, *iv, *data;
} STEP;

static int run_step(SIDE *s, const STEP *st, EVP_CIPHER *cipher)
{
    int l = 0, r;
    unsigned char *in;

    s->outl = 0;
    switch (st->op) {
    case OP_INIT: {
        unsigned pad = (st->flags >> 5) & 1;
        OSSL_PARAM p[2];

        p[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad);
        p[1] = OSSL_PARAM_construct_end();
        return EVP_CipherInit_ex2(s->ctx, cipher,
                                  st->flags & 2 ? st->key : NULL,
                                  st->flags & 4 ? st->iv : NULL,
                                  st->flags & 1, st->flags & 16 ? p : NULL);
    }
    case OP_UPDATE:
    case OP_CIPHER:
        /* In place: the data is first put where the output goes. */
        in = (unsigned char *)st->data;
        if (st->flags & 1) {
            memcpy(s->buf, st->data, st->len);
            in = s->buf;
        }
        if (st->op == OP_CIPHER) {
            r = EVP_Cipher(s->ctx, s->buf, in, (unsigned)st->len);
            if (r < 0)
                return 0;
            s->outl = (size_t)r;
            return 1;
        }
        if (!EVP_CipherUpdate(s->ctx, s->buf, &l, in, (int)st->len))
            return 0;
        s->outl = (size_t)l;
        return 1;
    case OP_FINAL:
        if (!EVP_CipherFinal_ex(s->ctx, s->buf, &l))
            return 0;
        s->outl = (size_t)l;
        return 1;
    case OP_PADDING:
        return set_uint(s->ctx, OSSL_CIPHER_PARAM_PADDING, st->value);
    case OP_NUM:
        return set_uint(s->ctx, OSSL_CIPHER_PARAM_NUM, st->value);
    case OP_LENS:
        return set_size(s->ctx, st->flags & 1 ? OSSL_CIPHER_PARAM_IVLEN
                                              : OSSL_CIPHER_PARAM_KEYLEN,
                        st->value);
    case OP_COPY: {
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

        if (c == NULL || !EVP_CIPHER_CTX_copy(c, s->ctx)) {
            EVP_CIPHER_CTX_free(c);
            return 0;
        }
        EVP_CIPHER_CTX_free(s->ctx);
        s->ctx = c;
        return 1;
    }
    case OP_GET:
        return get_all(s);
    default:
        return 0;
    }
}

/* The steps up to and including the last one run, for a report. */
static void describe(const STEP *steps, size_t n, const unsigned char *key,
                     const unsigned char *iv)
{
    size_t i;

    for (i = 0; i < n; i++)
        fprintf(stderr, "  step %zu: %s, flags %#x, value %#x, length %zu\n",
                i, op_names[steps[i].op], steps[i].flags, steps[i].value,
                steps[i].len);
    fz_hexdump("key", key, 16);
    fz_hexdump("iv", iv, 16);
}

/* ECB/CBC: the bytes an update of len gives out now. */
static size_t block_output(const TRACK *t, size_t len)
{
    size_t total = t->pending + len, nout = total - total % 16;

    /* With padding, a decryption keeps its last block back for final. */
    if (!t->enc && t->pad && nout > 0 && total % 16 == 0)
        nout -= 16;
    return nout;
}

/* What smgost's contract says of a step, beside the reference. */
enum verdict {
    COMPARE,                    /* the two must agree */
    MUST_REFUSE,                /* smgost refuses by design */
    DIVERGE                     /* smgost takes it, the reference may not */
};

static enum verdict judge(const TRACK *t, const STEP *st, size_t ivlen)
{
    switch (st->op) {
    case OP_NUM:
        if (st->value == 0)
            return COMPARE;
        /*
         * smgost takes a position inside the block in the stream modes;
         * libcrypto 3.0.22's default provider bounds num by its reported
         * block size, 1 for those modes, so it refuses any but 0.
         */
        return st->value < 16 && !t->block ? DIVERGE : MUST_REFUSE;
    case OP_LENS:
        return st->value != (st->flags & 1 ? ivlen : 16) ? MUST_REFUSE
                                                          : COMPARE;
    case OP_UPDATE:
        /*
         * A decryption held its last block back, then padding went off:
         * the default provider gives that block out at the next update,
         * even one of no bytes (past EVP's inl + block - 1 bound); smgost
         * gives it out at the next update with data, or at final.
         */
        if (t->key_given && !t->finalised && t->block && !t->enc && !t->pad
            && t->pending == 16 && st->len == 0)
            return DIVERGE;
        return !t->key_given || t->finalised
               || (t->block && (st->flags & 1) && t->pending != 0
                   && block_output(t, st->len) > 0) ? MUST_REFUSE : COMPARE;
    case OP_FINAL:
        return !t->key_given || t->finalised ? MUST_REFUSE : COMPARE;
    case OP_CIPHER:
        return !t->key_given || (t->block && st->len % 16 != 0)
               ? MUST_REFUSE : COMPARE;
    default:
        return COMPARE;
    }
}

/*
 * The harness's view of the provider state after a step both took.  The
 * padding flag is read back: EVP's inits pass their own idea of it.
 */
static void track(TRACK *t, const STEP *st, EVP_CIPHER_CTX *ours)
{
    unsigned pad = 1;
    OSSL_PARAM p[2];

    switch (st->op) {
    case OP_INIT:
        t->enc = st->flags & 1;
        t->key_given |= (st->flags & 2) != 0;
        t->pending = 0;
        t->finalised = 0;
        break;
    case OP_UPDATE:
        if (t->block)
            t->pending += st->len - block_output(t, st->len);
        break;
    case OP_FINAL:
        t->finalised = 1;
        t->pending = 0;
        break;
    default:
        break;
    }
    p[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad);
    p[1] = OSSL_PARAM_construct_end();
    if (!EVP_CIPHER_CTX_get_params(ours, p))
        fz_fail("cannot read smgost's padding flag");
    t->pad = pad != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static SIDE ours, ref;
    static unsigned char msgbuf[MAX_DATA];
    FZ_IN in = { data, size };
    FZ_MSG msg;
    STEP steps[MAX_STEPS];
    TRACK t;
    int solo = 0;
    unsigned char key[2][16], iv[2][16];
    size_t m = fz_u8(&in) % FZ_NELEM(modes), nsteps, i;

    fz_bytes(&in, key[0], 16);
    fz_bytes(&in, iv[0], 16);
    /* The second key and IV: a re-init may change them. */
    for (i = 0; i < 16; i++) {
        key[1][i] = (unsigned char)(key[0][i] ^ 0xa5);
        iv[1][i] = (unsigned char)(iv[0][i] + 1);
    }
    nsteps = 1 + fz_u8(&in) % MAX_STEPS;
    for (i = 0; i < nsteps; i++) {
        STEP *st = &steps[i];

        st->op = (enum op)(fz_u8(&in) % NOPS);
        if (i == 0)
            st->op = OP_INIT;   /* the first init names the cipher */
        st->flags = fz_u8(&in);
        st->value = 0;
        st->len = 0;
        switch (st->op) {
        case OP_UPDATE:
        case OP_CIPHER:
            st->len = fz_len(&in);
            if (st->len > MAX_DATA)
                st->len = MAX_DATA;
            break;
        case OP_PADDING:
        case OP_NUM:
        case OP_LENS:
            st->value = fz_u8(&in);
            /* now and then far out of range */
            if (st->flags & 0x80)
                st->value = st->value << 24 | 0xffffff;
            break;
        default:
            break;
        }
        st->key = key[(st->flags >> 3) & 1];
        st->iv = iv[(st->flags >> 3) & 1];
    }
    fz_msg_init(&msg, in.p, in.n);

    memset(&t, 0, sizeof(t));
    t.block = modes[m].block;
    t.pad = 1;
    ours.ctx = EVP_CIPHER_CTX_new();
    ref.ctx = EVP_CIPHER_CTX_new();
    if (ours.ctx == NULL || ref.ctx == NULL)
        fz_fail("out of memory");
    /*
     * Once the two contexts part by design, the rest of the program runs on
     * smgost alone: no comparison, but the sanitizers still watch.
     */
    for (i = 0; i < nsteps; i++) {
        STEP *st = &steps[i];
        enum verdict v = judge(&t, st, modes[m].ivlen);
        int ro, rr;
        char what[96];

        if (st->op == OP_UPDATE || st->op == OP_CIPHER) {
            fz_msg_take(&msg, msgbuf, st->len);
            st->data = msgbuf;
        }
        ro = run_step(&ours, st, ours_ciph[m]);
        if (solo)
            continue;
        snprintf(what, sizeof(what), "%s, step %zu (%s, flags %#x, value "
                 "%#x, length %zu)", modes[m].name, i, op_names[st->op],
                 st->flags, st->value, st->len);
        if (v != COMPARE) {
            if (ro != (v == DIVERGE)) {
                describe(steps, i + 1, key[0], iv[0]);
                fz_fail("%s: smgost %s a step it must %s", what,
                        ro ? "took" : "refused", ro ? "refuse" : "take");
            }
            solo = 1;
            continue;
        }
        rr = run_step(&ref, st, ref_ciph[m]);
        if (ro != rr) {
            describe(steps, i + 1, key[0], iv[0]);
            fz_fail("%s: smgost %s, the default provider %s", what,
                    ro ? "succeeded" : "failed", rr ? "succeeded" : "failed");
        }
        /* Both refused: their states need not match any longer. */
        if (!ro) {
            solo = 1;
            continue;
        }
        if (fz_first_diff(ours.buf, ours.outl, ref.buf, ref.outl)
            != (size_t)-1)
            describe(steps, i + 1, key[0], iv[0]);
        fz_same(what, ours.buf, ours.outl, ref.buf, ref.outl);
        track(&t, st, ours.ctx);
    }
    EVP_CIPHER_CTX_free(ours.ctx);
    EVP_CIPHER_CTX_free(ref.ctx);
    ERR_clear_error();
    return 0;
}
