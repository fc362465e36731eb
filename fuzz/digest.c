/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness: smgost's digests SM3, md_gost12_256, md_gost12_512
 * (Streebog) and md_gost94 (GOST R 34.11-94), each as a digest and under
 * OpenSSL's HMAC, against OpenSSL's default provider (SM3) or gost-engine's
 * gostprov (the GOST digests; HMAC the default provider's over gostprov's
 * digest).  gostprov's md_gost94 of an empty message is wrong (an extra
 * zero block): a GOST R 34.11-94 digest of no bytes is not compared, the
 * program goes on with smgost alone.  The input is a small program of EVP
 * calls (init, re-init with or without a new HMAC key of any length,
 * update with any length, final, the XOF final it must refuse, context
 * copies, the one-shot EVP_Digest) that runs step by step on one context
 * of each side; after every step both must agree on success and output.
 * A finalised context is not fed again (smgost refuses that by design,
 * the references do not): the program goes on with smgost alone, with no
 * comparison but under the sanitizers.
 *
 * Input: kind byte (bit 0: digest or HMAC; the rest: the digest, see
 * digests[]), key length and key, step count, the steps, and the rest is
 * the message stream (fuzz.h).
 */
#include "fuzz.h"

#include <openssl/core_names.h>

static OSSL_LIB_CTX *ours_lc, *ref_lc;
static EVP_MAC *hmac_ours, *hmac_ref;

/* Existing inputs keep their digest: SM3 first. */
static const struct {
    const char *name;
    int gost94;                 /* gostprov's empty message is wrong */
} digests[] = {
    { "SM3", 0 }, { "md_gost12_256", 0 }, { "md_gost12_512", 0 },
    { "md_gost94", 1 },
};
static EVP_MD *ours_mds[FZ_NELEM(digests)], *ref_mds[FZ_NELEM(digests)];
static EVP_MD *ours_md, *ref_md;      /* this input's */
static size_t which;                   /* digests[] */

enum op { OP_INIT, OP_UPDATE, OP_FINAL, OP_XOF, OP_COPY, OP_ONESHOT, NOPS };
static const char *const op_names[NOPS] = {
    "init", "update", "final", "final XOF", "copy", "one-shot"
};

#define MAX_DATA 0x4000
#define MAX_STEPS 24
#define MAX_KEY 200

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t i;

    (void)argc, (void)argv;
    ours_lc = fz_smgost_libctx();
    ref_lc = fz_ref_libctx(1);
    hmac_ours = EVP_MAC_fetch(ours_lc, "HMAC", NULL);
    hmac_ref = EVP_MAC_fetch(ref_lc, "HMAC", NULL);
    if (hmac_ours == NULL || hmac_ref == NULL) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "fuzz: cannot fetch HMAC\n");
        exit(1);
    }
    for (i = 0; i < FZ_NELEM(digests); i++) {
        EVP_MD *o = EVP_MD_fetch(ours_lc, digests[i].name, FZ_PROPQ);
        EVP_MD *r = EVP_MD_fetch(ref_lc, digests[i].name, NULL);

        if (o == NULL || r == NULL) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "fuzz: cannot fetch %s\n", digests[i].name);
            exit(1);
        }
        /* gostprov's flags are its own: sizes only for the GOST ones. */
        if (EVP_MD_get_size(o) != EVP_MD_get_size(r)
            || EVP_MD_get_block_size(o) != EVP_MD_get_block_size(r)
            || (i == 0 && EVP_MD_get_flags(o) != EVP_MD_get_flags(r)))
            fz_fail("%s's size, block size or flags differ from the "
                    "reference's", digests[i].name);
        ours_mds[i] = o;
        ref_mds[i] = r;
    }
    return 0;
}

/* One side: a digest or an HMAC context, and the last output. */
typedef struct {
    int ours;
    EVP_MD_CTX *md;
    EVP_MAC_CTX *mac;
    unsigned char out[64];
    size_t outl;
} SIDE;

typedef struct {
    enum op op;
    unsigned flags;
    size_t len;
    const unsigned char *data, *key;
    size_t keylen;
} STEP;

static int side_new(SIDE *s, int ours, int hmac)
{
    memset(s, 0, sizeof(*s));
    s->ours = ours;
    if (hmac)
        s->mac = EVP_MAC_CTX_new(ours ? hmac_ours : hmac_ref);
    else
        s->md = EVP_MD_CTX_new();
    return s->mac != NULL || s->md != NULL;
}

static void side_free(SIDE *s)
{
    EVP_MD_CTX_free(s->md);
    EVP_MAC_CTX_free(s->mac);
}

static int mac_step(SIDE *s, const STEP *st)
{
    OSSL_PARAM p[3];
    EVP_MAC_CTX *c;
    size_t n = 0;

    /* HMAC fetches the digest with these properties: ours, or the
     * reference's (which has no property string). */
    p[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                              (char *)digests[which].name, 0);
    if (s->ours)
        p[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                  FZ_PROPQ, 0);
    p[n] = OSSL_PARAM_construct_end();
    switch (st->op) {
    case OP_INIT:
        return EVP_MAC_init(s->mac, st->flags & 1 ? st->key : NULL,
                            st->flags & 1 ? st->keylen : 0,
                            st->flags & 2 ? p : NULL);
    case OP_UPDATE:
        return EVP_MAC_update(s->mac, st->data, st->len);
    case OP_FINAL:
    case OP_XOF:
        return EVP_MAC_final(s->mac, s->out, &s->outl, sizeof(s->out));
    case OP_COPY:
        if ((c = EVP_MAC_CTX_dup(s->mac)) == NULL)
            return 0;
        EVP_MAC_CTX_free(s->mac);
        s->mac = c;
        return 1;
    default:
        /* the digest (and ours: its properties) as parameters */
        return EVP_Q_mac(s->ours ? ours_lc : ref_lc, "HMAC", NULL, NULL, p,
                         st->key, st->keylen, st->data, st->len, s->out,
                         sizeof(s->out), &s->outl) != NULL;
    }
}

static int md_step(SIDE *s, const STEP *st)
{
    EVP_MD_CTX *c;
    unsigned l = 0;
    int r;

    switch (st->op) {
    case OP_INIT:
        return EVP_DigestInit_ex2(s->md, st->flags & 1 ? NULL
                                         : s->ours ? ours_md : ref_md, NULL);
    case OP_UPDATE:
        return EVP_DigestUpdate(s->md, st->data, st->len);
    case OP_FINAL:
        r = EVP_DigestFinal_ex(s->md, s->out, &l);
        s->outl = l;
        return r;
    case OP_XOF:
        return EVP_DigestFinalXOF(s->md, s->out, 1 + st->flags % 64);
    case OP_COPY:
        if ((c = EVP_MD_CTX_new()) == NULL || !EVP_MD_CTX_copy_ex(c, s->md)) {
            EVP_MD_CTX_free(c);
            return 0;
        }
        EVP_MD_CTX_free(s->md);
        s->md = c;
        return 1;
    default:
        r = EVP_Digest(st->data, st->len, s->out, &l,
                       s->ours ? ours_md : ref_md, NULL);
        s->outl = l;
        return r;
    }
}

static int run_step(SIDE *s, const STEP *st)
{
    s->outl = 0;
    return s->mac != NULL ? mac_step(s, st) : md_step(s, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char msgbuf[MAX_DATA];
    FZ_IN in = { data, size };
    FZ_MSG msg;
    SIDE ours, ref;
    STEP steps[MAX_STEPS];
    unsigned char key[MAX_KEY];
    unsigned kind = fz_u8(&in);
    int hmac = kind & 1, started = 0, finalised = 0, solo = 0;
    size_t fed = 0;             /* bytes since the last init */
    size_t keylen = fz_u8(&in) % (MAX_KEY + 1), nsteps, i;

    fz_bytes(&in, key, keylen);
    which = (kind >> 1) % FZ_NELEM(digests);
    ours_md = ours_mds[which];
    ref_md = ref_mds[which];
    nsteps = 1 + fz_u8(&in) % MAX_STEPS;
    for (i = 0; i < nsteps; i++) {
        STEP *st = &steps[i];

        st->op = (enum op)(fz_u8(&in) % NOPS);
        st->flags = fz_u8(&in);
        st->len = st->op == OP_UPDATE || st->op == OP_ONESHOT ? fz_len(&in)
                                                               : 0;
        if (st->len > MAX_DATA)
            st->len = MAX_DATA;
        /* A re-keying init takes a prefix of the key. */
        st->key = key;
        st->keylen = st->flags & 4 ? keylen * (st->flags >> 3) / 31 : keylen;
    }
    fz_msg_init(&msg, in.p, in.n);
    if (!side_new(&ours, 1, hmac) || !side_new(&ref, 0, hmac))
        fz_fail("out of memory");

    for (i = 0; i < nsteps; i++) {
        STEP *st = &steps[i];
        int ro, rr, fed_after_final;
        char what[96];

        /* The first init names the digest and the HMAC parameters. */
        if (i == 0) {
            st->op = OP_INIT;
            st->flags = (st->flags | 2) & ~1u;
            if (hmac)
                st->flags |= 1;
        }
        if (st->op == OP_UPDATE || st->op == OP_ONESHOT) {
            fz_msg_take(&msg, msgbuf, st->len);
            st->data = msgbuf;
        }
        /* EVP_DigestUpdate returns before the provider on no data. */
        fed_after_final = finalised && st->op != OP_INIT
                          && st->op != OP_COPY && st->op != OP_ONESHOT
                          && !(st->op == OP_UPDATE && st->len == 0);
        ro = run_step(&ours, st);
        if (solo)
            continue;
        snprintf(what, sizeof(what), "%s%s, step %zu (%s, flags %#x, length "
                 "%zu, key %zu bytes)", hmac ? "HMAC-" : "",
                 digests[which].name, i, op_names[st->op], st->flags, st->len,
                 st->keylen);
        /* gostprov's GOST R 34.11-94 of no bytes is wrong: not compared. */
        if (digests[which].gost94 && !hmac
            && ((st->op == OP_ONESHOT && st->len == 0)
                || ((st->op == OP_FINAL || st->op == OP_XOF) && fed == 0))) {
            solo = 1;
            continue;
        }
        if (fed_after_final) {
            if (ro && !hmac)
                fz_fail("%s: smgost's digest took data after final", what);
            solo = 1;
            continue;
        }
        rr = run_step(&ref, st);
        if (ro != rr)
            fz_fail("%s: smgost %s, the default provider %s", what,
                    ro ? "succeeded" : "failed", rr ? "succeeded" : "failed");
        if (!hmac && st->op == OP_XOF && ro)
            fz_fail("%s: not an XOF", what);
        if (!ro) {
            solo = 1;
            continue;
        }
        fz_same(what, ours.out, ours.outl, ref.out, ref.outl);
        if (st->op == OP_UPDATE)
            fed += st->len;
        if (st->op == OP_INIT)
            started = 1, finalised = 0, fed = 0;
        else if (st->op == OP_FINAL || st->op == OP_XOF)
            finalised = started;
    }
    side_free(&ours);
    side_free(&ref);
    ERR_clear_error();
    return 0;
}
