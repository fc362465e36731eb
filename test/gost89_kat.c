/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known answers for smgost's GOST 28147-89 and Magma through EVP, as users
 * call them.  The vectors and their sources are in gost89_vectors.h.
 *
 * Groups (argument 1):
 *   names    names, aliases, OIDs, key/IV/block lengths and modes
 *   allsets  ECB under every parameter set, the set chosen every way the
 *            module offers (paramset by long name, short name or OID,
 *            alg_id_param; in the init call or after it), the first block
 *            of CFB and CBC under every set, alg_id_param's IV replacing
 *            the init's, the set and encoding read back
 *   vectors  CryptoPro CSP vectors (CFB, CNT, ECB, IMIT, with and without
 *            key meshing) and GOST R 34.13-2015 Magma ECB and CTR, both
 *            directions, in one piece, in pieces of 1..1025 bytes, in
 *            place, through EVP_Cipher, MACs of size 4 and 8, copied
 *            mid-message
 *   magma    GOST R 34.13-2015 A.2.4 (Magma CBC with a three-block IV)
 *   long     the 5 MiB CryptoPro vectors; those past 2^32 bytes (minutes
 *            of work) only when SMGOST_TEST_SCALE >= 100
 */
#include "gost89_test.h"
#include "gost89_vectors.h"

static OSSL_LIB_CTX *libctx;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static EVP_CIPHER *fetch_cipher(const char *name)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, tu_target_propq());

    TU_CHECK(c != NULL, "fetch cipher %s", name);
    return c;
}

static EVP_MAC *fetch_mac(const char *name)
{
    EVP_MAC *m = EVP_MAC_fetch(libctx, name, tu_target_propq());

    TU_CHECK(m != NULL, "fetch MAC %s", name);
    return m;
}

/* The parameter set an algorithm uses when none is chosen (as gostprov). */
static const GOST89_SET *default_set(const char *alg)
{
    if (strcmp(alg, "gost89-cnt") == 0 || strcmp(alg, "gost-mac") == 0)
        return gost89_set("CryptoPro-A");
    if (strncmp(alg, "gost", 4) == 0)
        return gost89_set("Z");
    return NULL;
}

/* ---------------------------------------------------------------- names */

static void run_names(void)
{
    static const struct {
        const char *name, *alias;
        int keylen, ivlen, blocksize;
        unsigned long mode;
    } ciphers[] = {
        { "gost89", "GOST 28147-89", 32, 8, 1, EVP_CIPH_CFB_MODE },
        { "gost89", "1.2.643.2.2.21", 32, 8, 1, EVP_CIPH_CFB_MODE },
        /* gost-engine declares CNT as OFB, a stream mode of block size 1 */
        { "gost89-cnt", NULL, 32, 8, 1, EVP_CIPH_OFB_MODE },
        { "gost89-cnt-12", NULL, 32, 8, 1, EVP_CIPH_OFB_MODE },
        { "gost89-cbc", NULL, 32, 8, 8, EVP_CIPH_CBC_MODE },
        { "gost89-ecb", NULL, 32, 0, 8, EVP_CIPH_ECB_MODE },
        { "magma-ecb", NULL, 32, 0, 8, EVP_CIPH_ECB_MODE },
        { "magma-cbc", NULL, 32, 8, 8, EVP_CIPH_CBC_MODE },
        { "magma-ctr", NULL, 32, 4, 1, EVP_CIPH_CTR_MODE },
    };
    static const struct {
        const char *name, *alias;
    } macs[] = {
        { "gost-mac", "1.2.643.2.2.22" },
        { "gost-mac-12", NULL },
    };
    size_t i;

    for (i = 0; i < NELEM(ciphers); i++) {
        const char *n = ciphers[i].alias != NULL ? ciphers[i].alias
                                                 : ciphers[i].name;
        EVP_CIPHER *c = fetch_cipher(n);

        if (c == NULL)
            continue;
        TU_CHECK(EVP_CIPHER_is_a(c, ciphers[i].name), "%s is %s", n,
                 ciphers[i].name);
        TU_CHECK(strcmp(tu_prov_name(EVP_CIPHER_get0_provider(c)),
                        tu_target()) == 0, "%s comes from %s", n,
                 tu_prov_name(EVP_CIPHER_get0_provider(c)));
        TU_CHECK(EVP_CIPHER_get_key_length(c) == ciphers[i].keylen,
                 "%s: key length %d", n, EVP_CIPHER_get_key_length(c));
        TU_CHECK(EVP_CIPHER_get_iv_length(c) == ciphers[i].ivlen,
                 "%s: IV length %d", n, EVP_CIPHER_get_iv_length(c));
        TU_CHECK(EVP_CIPHER_get_block_size(c) == ciphers[i].blocksize,
                 "%s: block size %d", n, EVP_CIPHER_get_block_size(c));
        TU_CHECK((unsigned long)EVP_CIPHER_get_mode(c) == ciphers[i].mode,
                 "%s: mode %lu", n, (unsigned long)EVP_CIPHER_get_mode(c));
        EVP_CIPHER_free(c);
    }
    for (i = 0; i < NELEM(macs); i++) {
        EVP_MAC *m = fetch_mac(macs[i].name);
        EVP_MAC *a = macs[i].alias != NULL ? fetch_mac(macs[i].alias) : NULL;

        if (m != NULL)
            TU_CHECK(strcmp(tu_prov_name(EVP_MAC_get0_provider(m)),
                            tu_target()) == 0, "%s comes from %s",
                     macs[i].name, tu_prov_name(EVP_MAC_get0_provider(m)));
        if (a != NULL)
            TU_CHECK(EVP_MAC_is_a(a, macs[i].name), "%s is %s",
                     macs[i].alias, macs[i].name);
        EVP_MAC_free(m);
        EVP_MAC_free(a);
    }
}

/* -------------------------------------------------------- cipher runner */

/* How a test chooses the parameter set. */
enum set_way {
    SET_DEFAULT,        /* not at all: the algorithm's default */
    SET_NAME_INIT,      /* paramset in the init call */
    SET_NAME_AFTER,     /* paramset after the init */
    SET_ALGID_INIT,     /* alg_id_param in the init call */
    SET_ALGID_AFTER,    /* alg_id_param after the init */
    SET_NAME_BEFORE,    /* MACs: paramset before the first init */
    NWAYS
};

static const char *const way_names[NWAYS] = {
    "default set", "paramset in init", "paramset after init",
    "alg_id_param in init", "alg_id_param after init",
    "paramset before init"
};

/* How the input is fed. */
typedef struct {
    size_t piece;       /* update size; 0: all at once */
    int inplace;
    int oneshot;        /* EVP_Cipher instead of update/final */
} FEED;

typedef struct {
    const char *alg;
    const GOST89_SET *set;
    enum set_way way;
    unsigned spelling;  /* which name of the set paramset uses */
    const unsigned char *key, *iv;
    size_t ivlen;
    const unsigned char *algid_iv;  /* the encoding's IV if not iv */
} CIPHER_SETUP;

static void describe_setup(const CIPHER_SETUP *s, int enc, const FEED *f)
{
    fprintf(stderr, "  %s %s, set %s (%s, \"%s\"), ", s->alg,
            enc ? "encrypt" : "decrypt",
            s->set != NULL ? s->set->short_name : "-", way_names[s->way],
            s->set != NULL ? gost89_set_spelling(s->set, s->spelling) : "");
    if (f->oneshot)
        fprintf(stderr, "EVP_Cipher");
    else
        fprintf(stderr, "pieces of %zu", f->piece);
    fprintf(stderr, "%s\n", f->inplace ? ", in place" : "");
}

/*
 * Fills params (room for 2) with the set as s->way chooses it at this
 * moment (init: 1, after: 0); the DER encoding goes to der.
 */
static void set_params(const CIPHER_SETUP *s, int at_init, OSSL_PARAM *p,
                       unsigned char der[GOST89_ALG_ID_MAX])
{
    static const unsigned char zero_iv[8];
    size_t n = 0;

    switch (s->way) {
    case SET_NAME_INIT:
    case SET_NAME_AFTER:
        if ((s->way == SET_NAME_INIT) == at_init)
            p[n++] = OSSL_PARAM_construct_utf8_string(
                "paramset", (char *)gost89_set_spelling(s->set, s->spelling),
                0);
        break;
    case SET_ALGID_INIT:
    case SET_ALGID_AFTER:
        if ((s->way == SET_ALGID_INIT) == at_init)
            p[n++] = OSSL_PARAM_construct_octet_string(
                "alg_id_param", der,
                gost89_alg_id(s->set, s->algid_iv != NULL ? s->algid_iv
                                    : s->ivlen == 8 ? s->iv : zero_iv,
                            der));
        break;
    default:
        break;
    }
    p[n] = OSSL_PARAM_construct_end();
}

/*
 * Runs the cipher over len bytes of in into out (room for len + 8); 1 if
 * every call succeeded, *outl the total output.
 */
static int cipher_run(const CIPHER_SETUP *s, int enc, const FEED *f,
                      const unsigned char *in, size_t len, unsigned char *out,
                      size_t *outl)
{
    EVP_CIPHER *c = fetch_cipher(s->alg);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM init_p[2], after_p[2];
    unsigned char der_init[GOST89_ALG_ID_MAX], der_after[GOST89_ALG_ID_MAX];
    size_t done = 0, rd = 0;
    int ok = 0, l;

    *outl = 0;
    set_params(s, 1, init_p, der_init);
    set_params(s, 0, after_p, der_after);
    if (c == NULL || ctx == NULL
        || !EVP_CipherInit_ex2(ctx, c, s->key, s->iv, enc, init_p)
        || !EVP_CIPHER_CTX_set_params(ctx, after_p)
        || !EVP_CIPHER_CTX_set_padding(ctx, 0))
        goto end;
    if (f->inplace && len > 0)
        memmove(out, in, len);
    if (f->oneshot) {
        l = EVP_Cipher(ctx, out, f->inplace ? out : in, (unsigned int)len);
        if (l < 0)
            goto end;
        done = (size_t)l;
    } else {
        while (rd < len) {
            size_t n = f->piece == 0 || f->piece > len - rd ? len - rd
                                                            : f->piece;

            if (!EVP_CipherUpdate(ctx, out + done, &l,
                                  f->inplace ? out + rd : in + rd, (int)n))
                goto end;
            done += (size_t)l;
            rd += n;
        }
        if (!EVP_CipherFinal_ex(ctx, out + done, &l))
            goto end;
        done += (size_t)l;
    }
    *outl = done;
    ok = 1;
 end:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok;
}

/* Both directions of one vector under setup s, fed as f. */
static void cipher_check(const CIPHER_SETUP *s, const FEED *f,
                         const char *source, const unsigned char *pt,
                         const unsigned char *ct, size_t len)
{
    unsigned char *out = tu_malloc(len + 8);
    size_t outl;
    int enc;

    for (enc = 1; enc >= 0; enc--) {
        int ok = cipher_run(s, enc, f, enc ? pt : ct, len, out, &outl);

        if (!TU_CHECK(ok, "%s: EVP calls failed", source)
            || !TU_CHECK_MEM(source, out, outl, enc ? ct : pt, len))
            describe_setup(s, enc, f);
        ERR_clear_error();
    }
    free(out);
}

/* The feeds every vector goes through. */
static const FEED feeds[] = {
    { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0, 1, 1 },
    { 1, 0, 0 }, { 3, 1, 0 }, { 7, 0, 0 }, { 8, 1, 0 }, { 9, 0, 0 },
    { 13, 1, 0 }, { 1023, 0, 0 }, { 1025, 1, 0 },
};

static int is_block_mode(const char *alg)
{
    return strstr(alg, "-ecb") != NULL || strstr(alg, "-cbc") != NULL;
}

/* One vector under every way of choosing its set and every feed. */
static void cipher_vector(const char *source, const char *alg,
                          const char *setname, const char *keyhex,
                          const char *ivhex, const char *pthex,
                          const char *cthex)
{
    size_t keylen, ivlen, len, ctlen, i;
    unsigned char *key = tu_unhex_or_die(keyhex, &keylen);
    unsigned char *iv = tu_unhex_or_die(ivhex, &ivlen);
    unsigned char *pt = tu_unhex_or_die(pthex, &len);
    unsigned char *ct = tu_unhex_or_die(cthex, &ctlen);
    CIPHER_SETUP s;
    int way;

    if (!TU_CHECK(len == ctlen && keylen == 32, "%s: table entry", source))
        goto end;
    memset(&s, 0, sizeof(s));
    s.alg = alg;
    s.set = gost89_set(setname);
    s.key = key;
    s.iv = ivlen > 0 ? iv : NULL;
    s.ivlen = ivlen;
    for (way = SET_DEFAULT; way <= SET_ALGID_AFTER; way++) {
        /* Magma has no sets; the default only where it is the vector's. */
        if (s.set == NULL ? way != SET_DEFAULT
                          : way == SET_DEFAULT && s.set != default_set(alg))
            continue;
        s.way = (enum set_way)way;
        for (i = 0; i < NELEM(feeds); i++) {
            /* EVP_Cipher on ECB/CBC takes whole blocks only. */
            if (feeds[i].oneshot && is_block_mode(alg) && len % 8 != 0)
                continue;
            s.spelling = (unsigned)i;
            cipher_check(&s, &feeds[i], source, pt, ct, len);
        }
    }
 end:
    free(key);
    free(iv);
    free(pt);
    free(ct);
}

/* ---------------------------------------------------------------- MACs */

typedef struct {
    const char *alg;
    const GOST89_SET *set;
    enum set_way way;
    unsigned spelling;
    const unsigned char *key;
    size_t size;        /* 0: the default (4) */
    int key_as_param;
} MAC_SETUP;

static void describe_mac(const MAC_SETUP *s, size_t piece, int dup)
{
    fprintf(stderr, "  %s, set %s (%s), size %zu, key %s, pieces of %zu%s\n",
            s->alg, s->set != NULL ? s->set->short_name : "-",
            way_names[s->way], s->size, s->key_as_param ? "as param"
                                                        : "in init",
            piece, dup ? ", copied mid-message" : "");
}

/*
 * Computes the MAC of msg; with dup, copies the context halfway and
 * finishes both, which must agree.  Returns the MAC length, 0 on failure.
 */
static size_t mac_run(const MAC_SETUP *s, const unsigned char *msg,
                      size_t len, size_t piece, int dup, unsigned char *mac)
{
    EVP_MAC *m = fetch_mac(s->alg);
    EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL, *copy = NULL;
    OSSL_PARAM p[4], after[2];
    size_t n = 0, rd = 0, outl = 0, copyl = 0, size = s->size;
    unsigned char copymac[8];
    const char *name = s->set != NULL
                       ? gost89_set_spelling(s->set, s->spelling) : NULL;
    int ok = 0;

    after[0] = OSSL_PARAM_construct_end();
    if (ctx == NULL)
        goto end;
    if (s->way == SET_NAME_BEFORE) {
        OSSL_PARAM before[2];

        before[0] = OSSL_PARAM_construct_utf8_string("paramset",
                                                     (char *)name, 0);
        before[1] = OSSL_PARAM_construct_end();
        if (!EVP_MAC_CTX_set_params(ctx, before))
            goto end;
    }
    if (s->way == SET_NAME_INIT)
        p[n++] = OSSL_PARAM_construct_utf8_string("paramset", (char *)name,
                                                  0);
    if (s->way == SET_NAME_AFTER) {
        after[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)name,
                                                    0);
        after[1] = OSSL_PARAM_construct_end();
    }
    if (size != 0)
        p[n++] = OSSL_PARAM_construct_size_t("size", &size);
    if (s->key_as_param)
        p[n++] = OSSL_PARAM_construct_octet_string("key",
                                                   (void *)s->key, 32);
    p[n] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(ctx, s->key_as_param ? NULL : s->key,
                      s->key_as_param ? 0 : 32, p)
        || !EVP_MAC_CTX_set_params(ctx, after))
        goto end;
    while (rd < len) {
        size_t k = piece == 0 || piece > len - rd ? len - rd : piece;

        if (dup && copy == NULL && rd >= len / 2
            && (copy = EVP_MAC_CTX_dup(ctx)) == NULL)
            goto end;
        if (!EVP_MAC_update(ctx, msg + rd, k)
            || (copy != NULL && !EVP_MAC_update(copy, msg + rd, k)))
            goto end;
        rd += k;
    }
    if (dup && copy == NULL && (copy = EVP_MAC_CTX_dup(ctx)) == NULL)
        goto end;
    if (!EVP_MAC_final(ctx, mac, &outl, 8)
        || (copy != NULL && !EVP_MAC_final(copy, copymac, &copyl, 8)))
        goto end;
    ok = copy == NULL
         || TU_CHECK_MEM("the copy's MAC", copymac, copyl, mac, outl);
 end:
    EVP_MAC_CTX_free(copy);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(m);
    return ok ? outl : 0;
}

static void mac_vector(const GOST89_MAC_KAT *v)
{
    static const size_t pieces[] = { 0, 1, 3, 7, 8, 9, 1023, 1025 };
    size_t keylen, len, maclen, i, outl;
    unsigned char *key = tu_unhex_or_die(v->key, &keylen);
    unsigned char *msg = tu_unhex_or_die(v->msg, &len);
    unsigned char *exp = tu_unhex_or_die(v->mac, &maclen), mac[8];
    MAC_SETUP s;
    int way;

    memset(&s, 0, sizeof(s));
    s.alg = v->alg;
    s.set = gost89_set(v->set);
    s.key = key;
    for (way = SET_DEFAULT; way < NWAYS; way++) {
        if (way == SET_ALGID_INIT || way == SET_ALGID_AFTER
            || (way == SET_DEFAULT && s.set != default_set(v->alg)))
            continue;
        s.way = (enum set_way)way;
        for (i = 0; i < NELEM(pieces); i++) {
            int dup = (int)(i % 2);

            s.spelling = (unsigned)i;
            s.key_as_param = (int)(i % 3 == 1);
            /* No size, 4, or 8 of which the vector is the start. */
            s.size = i % 3 == 0 ? 0 : (i % 3 == 1 ? 4 : 8);
            outl = mac_run(&s, msg, len, pieces[i], dup, mac);
            if (!TU_CHECK(outl == (s.size != 0 ? s.size : 4),
                          "%s: MAC length %zu", v->source, outl)
                || !TU_CHECK_MEM(v->source, mac, maclen, exp, maclen))
                describe_mac(&s, pieces[i], dup);
            ERR_clear_error();
        }
    }
    free(key);
    free(msg);
    free(exp);
}

/* -------------------------------------------------------------- allsets */

/* Reads paramset and alg_id_param back from a keyed gost89 context. */
static void check_readback(const CIPHER_SETUP *s)
{
    EVP_CIPHER *c = fetch_cipher(s->alg);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM init_p[2], after_p[2], get[4];
    unsigned char der_i[GOST89_ALG_ID_MAX], der_a[GOST89_ALG_ID_MAX];
    unsigned char got[GOST89_ALG_ID_MAX], want[GOST89_ALG_ID_MAX];
    char name[80] = "";
    size_t mesh = 0, wantlen = gost89_alg_id(s->set, s->iv, want);

    set_params(s, 1, init_p, der_i);
    set_params(s, 0, after_p, der_a);
    get[0] = OSSL_PARAM_construct_utf8_string("paramset", name,
                                              sizeof(name));
    get[1] = OSSL_PARAM_construct_octet_string("alg_id_param", got,
                                               sizeof(got));
    get[2] = OSSL_PARAM_construct_size_t("key-mesh", &mesh);
    get[3] = OSSL_PARAM_construct_end();
    if (TU_CHECK(c != NULL && ctx != NULL
                 && EVP_EncryptInit_ex2(ctx, c, s->key, s->iv, init_p)
                 && EVP_CIPHER_CTX_set_params(ctx, after_p)
                 && EVP_CIPHER_CTX_get_params(ctx, get),
                 "%s with %s (%s): set and read back", s->alg,
                 s->set->short_name, way_names[s->way])) {
        TU_CHECK(strcmp(name, s->set->name) == 0,
                 "%s, %s (%s): paramset reads \"%s\"", s->alg,
                 s->set->short_name, way_names[s->way], name);
        TU_CHECK_MEM("alg_id_param read back", got, get[1].return_size,
                     want, wantlen);
        /* gost89 meshes by default, and alg_id_param switches it on. */
        TU_CHECK(mesh != 0, "%s, %s (%s): key-mesh reads %zu", s->alg,
                 s->set->short_name, way_names[s->way], mesh);
    }
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

static void run_allsets(void)
{
    static const unsigned char zeros[16];
    size_t keylen, ptlen, ctlen, i;
    unsigned char *key = tu_unhex_or_die(GOST89_ALLSETS_KEY, &keylen);
    unsigned char *pt = tu_unhex_or_die(GOST89_ALLSETS_PLAIN, &ptlen);
    char src[128];
    int way;

    for (i = 0; i < NELEM(gost89_allsets); i++) {
        unsigned char *ct = tu_unhex_or_die(gost89_allsets[i].out, &ctlen);
        CIPHER_SETUP s;
        FEED f = { 0, 0, 0 };
        unsigned sp;

        memset(&s, 0, sizeof(s));
        s.set = gost89_set(gost89_allsets[i].set);
        s.key = key;
        snprintf(src, sizeof(src), "ECB under %s (libgcrypt, nettle)",
                 s.set->short_name);
        for (way = SET_DEFAULT; way <= SET_ALGID_AFTER; way++) {
            if (way == SET_DEFAULT && s.set != default_set("gost89-ecb"))
                continue;
            s.way = (enum set_way)way;
            for (sp = 0; sp < 3; sp++) {
                s.spelling = sp;
                s.alg = "gost89-ecb";
                s.iv = NULL;
                s.ivlen = 0;
                cipher_check(&s, &f, src, pt, ct, ptlen);
                /* CFB of zeros from IV = P1 is E(P1), as is CBC of P1
                 * from a zero IV: the set reaches the other modes. */
                s.iv = pt;
                s.ivlen = 8;
                s.alg = "gost89";
                cipher_check(&s, &f, "first CFB block = E(IV)", zeros, ct,
                             8);
                s.iv = zeros;
                s.alg = "gost89-cbc";
                cipher_check(&s, &f, "first CBC block = E(P ^ 0)", pt, ct,
                             8);
                if (way == SET_ALGID_INIT || way == SET_ALGID_AFTER) {
                    /* The encoding's IV replaces the init's. */
                    s.iv = zeros;
                    s.algid_iv = pt;
                    s.alg = "gost89";
                    cipher_check(&s, &f, "alg_id_param's IV = P1: first CFB "
                                 "block = E(P1)", zeros, ct, 8);
                    s.algid_iv = NULL;
                }
                if (way != SET_DEFAULT) {
                    s.iv = pt + 8;
                    s.alg = "gost89";
                    check_readback(&s);
                }
            }
        }
        free(ct);
    }
    free(key);
    free(pt);
}

/* ---------------------------------------------------------------- magma */

/* GOST R 34.13-2015 A.2.4 as three CBC chains through magma-cbc. */
static void run_magma_cbc(void)
{
    size_t keylen, ivlen, ptlen, ctlen, chain, i, n;
    unsigned char *key = tu_unhex_or_die(MAGMA_KEY, &keylen);
    unsigned char *iv = tu_unhex_or_die(MAGMA_CBC_IV, &ivlen);
    unsigned char *pt = tu_unhex_or_die(MAGMA_PLAIN, &ptlen);
    unsigned char *ct = tu_unhex_or_die(MAGMA_CBC_OUT, &ctlen);
    unsigned char cpt[32], cct[32];
    CIPHER_SETUP s;

    memset(&s, 0, sizeof(s));
    s.alg = "magma-cbc";
    s.key = key;
    s.ivlen = 8;
    for (chain = 0; chain < 3; chain++) {
        for (n = 0, i = chain; i < ptlen / 8; i += 3, n++) {
            memcpy(cpt + 8 * n, pt + 8 * i, 8);
            memcpy(cct + 8 * n, ct + 8 * i, 8);
        }
        s.iv = iv + 8 * chain;
        for (i = 0; i < NELEM(feeds); i++)
            cipher_check(&s, &feeds[i], "GOST R 34.13-2015 A.2.4", cpt,
                         cct, 8 * n);
    }
    free(key);
    free(iv);
    free(pt);
    free(ct);
}

/* ----------------------------------------------------------------- long */

/* Keeps the last 16 bytes of everything appended. */
static void tail_append(unsigned char tail[16], const unsigned char *p,
                        size_t n)
{
    if (n >= 16) {
        memcpy(tail, p + n - 16, 16);
    } else {
        memmove(tail, tail + n, 16 - n);
        memcpy(tail + 16 - n, p, n);
    }
}

static void long_vector(const GOST89_LONG_KAT *v)
{
    enum { CHUNK = 1 << 20 };
    unsigned char *zeros = calloc(1, CHUNK), *out = tu_malloc(CHUNK + 16);
    size_t keylen, ivlen, taillen, outl;
    unsigned char *key = tu_unhex_or_die(v->key, &keylen);
    unsigned char *iv = tu_unhex_or_die(v->iv, &ivlen);
    unsigned char *exp = tu_unhex_or_die(v->tail, &taillen), tail[16];
    uint64_t left = v->len;
    const GOST89_SET *set = gost89_set(v->set);
    OSSL_PARAM p[2];
    int ok = 0, l;

    if (zeros == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(tail, 0, sizeof(tail));
    p[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)set->name,
                                            0);
    p[1] = OSSL_PARAM_construct_end();
    if (strcmp(v->alg, "gost-mac") == 0) {
        EVP_MAC *m = fetch_mac(v->alg);
        EVP_MAC_CTX *ctx = m != NULL ? EVP_MAC_CTX_new(m) : NULL;

        ok = ctx != NULL && EVP_MAC_init(ctx, key, keylen, p);
        for (; ok && left > 0; left -= outl) {
            outl = left < CHUNK ? (size_t)left : CHUNK;
            ok = EVP_MAC_update(ctx, zeros, outl);
        }
        ok = ok && EVP_MAC_final(ctx, tail, &outl, sizeof(tail));
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(m);
    } else {
        EVP_CIPHER *c = fetch_cipher(v->alg);
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

        ok = c != NULL && ctx != NULL
             && EVP_EncryptInit_ex2(ctx, c, key, iv, p);
        for (; ok && left > 0; left -= outl) {
            outl = left < CHUNK ? (size_t)left : CHUNK;
            ok = EVP_EncryptUpdate(ctx, out, &l, zeros, (int)outl);
            tail_append(tail, out, (size_t)l);
        }
        ok = ok && EVP_EncryptFinal_ex(ctx, out, &l);
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
    if (TU_CHECK(ok, "%s: EVP calls failed", v->source))
        TU_CHECK_MEM(v->source, tail, taillen, exp, taillen);
    free(zeros);
    free(out);
    free(key);
    free(iv);
    free(exp);
}

static void run_long(void)
{
    size_t i;
    double scale = tu_scale();

    for (i = 0; i < NELEM(gost89_long_kats); i++) {
        if (gost89_long_kats[i].len > ((uint64_t)1 << 32) / 2 && scale < 100) {
            printf("# %s: %llu bytes, skipped below SMGOST_TEST_SCALE=100\n",
                   gost89_long_kats[i].source,
                   (unsigned long long)gost89_long_kats[i].len);
            continue;
        }
        long_vector(&gost89_long_kats[i]);
    }
}

static void run_vectors(void)
{
    size_t i;

    for (i = 0; i < NELEM(gost89_cipher_kats); i++) {
        const GOST89_CIPHER_KAT *v = &gost89_cipher_kats[i];

        cipher_vector(v->source, v->alg, v->set, v->key, v->iv, v->in,
                      v->out);
    }
    for (i = 0; i < NELEM(gost89_mac_kats); i++)
        mac_vector(&gost89_mac_kats[i]);
}

int main(int argc, char **argv)
{
    static const TU_GROUP groups[] = {
        { "names", run_names }, { "allsets", run_allsets },
        { "vectors", run_vectors }, { "magma", run_magma_cbc },
        { "long", run_long },
    };

    return tu_main(argc, argv, groups, NELEM(groups),
                   &libctx, gost89_note_kernels);
}
