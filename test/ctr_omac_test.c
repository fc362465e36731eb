/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kuznyechik-ctr-acpkm-omac and magma-ctr-acpkm-omac (src/ctr_acpkm_omac.c)
 * over random cases.  Groups:
 *   model  against a model of this file's own, built through EVP from
 *          pieces checked elsewhere: KDF_TREE_GOSTR3411_2012_256 written
 *          from R 1323565.1.022-2018 over the default provider's HMAC with
 *          the target's md_gost12_256 (the standard's example checked
 *          first), the target's kuznyechik-mac / magma-mac for the OMAC and
 *          its kuznyechik-ctr-acpkm / magma-ctr-acpkm for the keystream
 *          (their known answers are test/60-gost-kat.t's): random keys,
 *          ukm, sections (a block to the CMS default), lengths across
 *          sections, update chunkings, in place or not, the CMS parameters
 *          before, with or after the key or read back from a fresh seed,
 *          copies mid-stream, re-inits that restart; decryption, and a
 *          flipped bit of the ciphertext or the tag, which must fail the
 *          final with nothing queued
 *   bad    key, IV and ukm lengths, key-mesh, tag lengths and directions,
 *          a decryption without its tag, an update without an output (no
 *          AAD here), updates and finals out of order
 *   engine against gost-engine, through its engine (gost.so) rather than
 *          gostprov: gostprov 3.0.1's ciphers fail their key init through
 *          the provider (the KDF's MAC key cannot be made there) with an
 *          empty error queue and then crash in the update.  The engine,
 *          with its digests and MAC key methods made the defaults (not its
 *          ciphers, which libcrypto 3.x would then run in place of
 *          smgost's), opens what smgost seals (the ukm through
 *          EVP_CIPHER_asn1_to_param, the section through EVP_CTRL_KEY_MESH,
 *          the tag through EVP_CTRL_PROCESS_UNPROTECTED, as CMS gives it)
 *          and smgost opens what it seals (its fresh seed read back through
 *          EVP_CIPHER_param_to_asn1, its tag from the unprotected
 *          attribute); a flipped tag bit must fail there too.  Without the
 *          ENGINE API (OpenSSL 4.0) the group fails: the recipe runs it
 *          only where gostprov is installed, which Configure rules out
 *          there.
 * Seeded: SMGOST_TEST_SEED replays, SMGOST_TEST_SCALE scales.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/opensslv.h>
#include <openssl/opensslconf.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "testutil.h"
#if OPENSSL_VERSION_MAJOR < 4 && !defined(OPENSSL_NO_ENGINE)
# define HAVE_ENGINE 1
# include <openssl/engine.h>
# include <openssl/objects.h>
# include <openssl/x509.h>
#endif

#define MAXLEN 3000
#define SEED_LEN 8

static OSSL_LIB_CTX *libctx;

typedef struct {
    const char *name, *ctr, *mac;
    size_t bs, ivlen, cms_section;
} OMAC_ALG;

static const OMAC_ALG algs[] = {
    { "kuznyechik-ctr-acpkm-omac", "kuznyechik-ctr-acpkm", "kuznyechik-mac",
      16, 8, 256 * 1024 },
    { "magma-ctr-acpkm-omac", "magma-ctr-acpkm", "magma-mac", 8, 4, 8192 },
};

/* ------------------------------------------------------------- model */

/* HMAC-Streebog-256 (the default provider's HMAC, the target's digest) of
 * the concatenation of n parts. */
static int model_hmac(const unsigned char *key, size_t keylen,
                      const unsigned char *const parts[], const size_t lens[],
                      size_t n, unsigned char out[32])
{
    EVP_MAC *m = EVP_MAC_fetch(libctx, "HMAC", "provider=default");
    EVP_MAC_CTX *c = m != NULL ? EVP_MAC_CTX_new(m) : NULL;
    OSSL_PARAM p[3];
    size_t i, outl = 0;
    int ok;

    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                            "md_gost12_256", 0);
    p[1] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                            (char *)tu_target_propq(), 0);
    p[2] = OSSL_PARAM_construct_end();
    ok = c != NULL && EVP_MAC_init(c, key, keylen, p);
    for (i = 0; ok && i < n; i++)
        ok = EVP_MAC_update(c, parts[i], lens[i]);
    ok = ok && EVP_MAC_final(c, out, &outl, 32) && outl == 32;
    EVP_MAC_CTX_free(c);
    EVP_MAC_free(m);
    return ok;
}

/*
 * KDF_TREE_GOSTR3411_2012_256 (R 1323565.1.022-2018, 5.2.1) with R = 1:
 * K(i) = HMAC(K_in, i || label || 0x00 || seed || L), L the output's
 * bits big-endian in as few bytes as hold it; outlen a multiple of 32,
 * below 256 blocks.
 */
static int model_kdf(const unsigned char *key, const unsigned char *label,
                     size_t labellen, const unsigned char *seed,
                     size_t seedlen, unsigned char *out, size_t outlen)
{
    unsigned char ctr[1], zero[1] = { 0 }, bits[4];
    const unsigned char *parts[5] = { ctr, label, zero, seed, bits };
    size_t lens[5] = { 1, labellen, 1, seedlen, 0 };
    size_t b = outlen * 8, i;

    for (i = 0; b >> (8 * i) != 0; i++)
        ;
    lens[4] = i;
    for (i = 0; i < lens[4]; i++)
        bits[lens[4] - 1 - i] = (unsigned char)(b >> (8 * i));
    for (i = 0; i < outlen / 32; i++) {
        ctr[0] = (unsigned char)(i + 1);
        if (!model_hmac(key, 32, parts, lens, 5, out + 32 * i))
            return 0;
    }
    return 1;
}

/* The standard's example (R 1323565.1.022-2018), the model's check. */
static int model_kdf_kat(void)
{
    static const unsigned char label[] = { 0x26, 0xbd, 0xb8, 0x78 };
    static const unsigned char seed[] = {
        0xaf, 0x21, 0x43, 0x41, 0x45, 0x65, 0x63, 0x78
    };
    unsigned char key[32], out[64], *want;
    size_t wl, i;
    int ok;

    for (i = 0; i < 32; i++)
        key[i] = (unsigned char)i;
    want = tu_unhex_or_die("22b6837845c6bef65ea71672b265831086d3c76aebe6dae9"
                           "1cad51d83f79d16b074c9330599d7f8d712fca54392f4ddd"
                           "e93751206b3584c8f43f9e6dc51531f9", &wl);
    ok = TU_CHECK(model_kdf(key, label, 4, seed, 8, out, 64),
                  "the model's KDF runs")
         && TU_CHECK_MEM("KDF_TREE, R 1323565.1.022-2018's example", out, 64,
                         want, wl);
    free(want);
    return ok;
}

/*
 * The message sealed by the model: the keys from the KDF ("kdf tree", the
 * ukm's seed), then ct = pt ^ KS and tag = OMAC_Kmac(pt) ^ the next bs
 * bytes of KS, KS the CTR-ACPKM keystream under K_ctr from the ukm's IV
 * with sections of section bytes.
 */
static int model_seal(const OMAC_ALG *a, const unsigned char *key,
                      const unsigned char *ukm, size_t section,
                      const unsigned char *pt, size_t len, unsigned char *ct,
                      unsigned char *tag)
{
    EVP_CIPHER *ctr = EVP_CIPHER_fetch(libctx, a->ctr, tu_target_propq());
    EVP_MAC *mac = EVP_MAC_fetch(libctx, a->mac, tu_target_propq());
    EVP_CIPHER_CTX *cc = EVP_CIPHER_CTX_new();
    EVP_MAC_CTX *mc = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
    static const unsigned char label[] = "kdf tree";
    unsigned char keys[64], om[16], ks[MAXLEN + 16] = { 0 };
    size_t outl = 0;
    OSSL_PARAM p[2];
    int l, ok;

    p[0] = OSSL_PARAM_construct_size_t("key-mesh", &section);
    p[1] = OSSL_PARAM_construct_end();
    ok = ctr != NULL && mc != NULL && cc != NULL && len <= MAXLEN
         && model_kdf(key, label, 8, ukm + a->ivlen, SEED_LEN, keys, 64)
         && EVP_MAC_init(mc, keys + 32, 32, NULL)
         && EVP_MAC_update(mc, pt, len)
         && EVP_MAC_final(mc, om, &outl, sizeof(om)) && outl == a->bs
         && EVP_EncryptInit_ex2(cc, ctr, keys, ukm, p)
         && EVP_EncryptUpdate(cc, ks, &l, ks, (int)(len + a->bs));
    if (ok) {
        for (outl = 0; outl < len; outl++)
            ct[outl] = pt[outl] ^ ks[outl];
        for (outl = 0; outl < a->bs; outl++)
            tag[outl] = om[outl] ^ ks[len + outl];
    }
    OPENSSL_cleanse(keys, sizeof(keys));
    EVP_CIPHER_CTX_free(cc);
    EVP_MAC_CTX_free(mc);
    EVP_MAC_free(mac);
    EVP_CIPHER_free(ctr);
    return ok;
}

/* ------------------------------------------------------------ runner */

/* The CMS parameters of a's ukm. */
static size_t ukm_der(const OMAC_ALG *a, const unsigned char *ukm,
                      unsigned char der[4 + 16 + SEED_LEN])
{
    return tu_gost2015_params(der, ukm, a->ivlen + SEED_LEN);
}

static const TU_CHUNKING chunking = { 20, 200, 16, 6, 0 };

/* How a case gives smgost its parameters, and what it does mid-stream. */
typedef struct {
    int way;            /* 0..2: the ukm before, with or after the key;
                           3 (encrypt): none, the seed read back */
    int inplace;
    int copy;           /* copy mid-stream and finish both */
    int restart;        /* some data, then a re-init without key or IV */
    size_t section;     /* key-mesh set, or 0: the CMS default */
} STYLE;

/* The updates of in (len bytes) into out in random pieces; 0 on failure. */
static int feed(TU_RNG *r, EVP_CIPHER_CTX *ctx, const unsigned char *in,
                unsigned char *out, size_t len)
{
    size_t chunks[64], n, i, pos;
    int outl, ok = 1;

    n = tu_chunks(r, &chunking, len, chunks, 64);
    for (i = 0, pos = 0; ok && i < n; pos += chunks[i++])
        ok = EVP_CipherUpdate(ctx, out + pos, &outl, in + pos,
                              (int)chunks[i])
             && (size_t)outl == chunks[i];
    return ok;
}

/*
 * One message through smgost, in the style s; ukm in or (way 3) out; the
 * tag out of an encryption, into a decryption.  Returns whether every call
 * succeeded (a decryption's final included).
 */
static int run_ours(TU_RNG *r, const OMAC_ALG *a, EVP_CIPHER *c, int enc,
                    const STYLE *s, const unsigned char *key,
                    unsigned char *ukm, const unsigned char *in,
                    unsigned char *out, size_t len, unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dup = NULL;
    unsigned char der[4 + 16 + SEED_LEN], back[4 + 16 + SEED_LEN];
    unsigned char junk[64], *other = NULL;
    size_t section = s->section, dl = ukm_der(a, ukm, der), half;
    OSSL_PARAM p[4], q[2];
    int i = 0, outl, ok;

    if (s->way < 3)
        p[i++] = OSSL_PARAM_construct_octet_string("alg_id_param", der, dl);
    if (section != 0)
        p[i++] = OSSL_PARAM_construct_size_t("key-mesh", &section);
    if (!enc)
        p[i++] = OSSL_PARAM_construct_octet_string("tag", tag, a->bs);
    p[i] = OSSL_PARAM_construct_end();
    switch (s->way) {
    case 0:
        ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, p)
             && EVP_CipherInit_ex2(ctx, NULL, key, NULL, enc, NULL);
        /* the key's init starts a message: the tag is given again */
        if (ok && !enc)
            ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                     (int)a->bs, tag) > 0;
        break;
    case 1:
        ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, NULL, enc, p);
        break;
    case 2:
        ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, NULL, enc, NULL)
             && EVP_CIPHER_CTX_set_params(ctx, p);
        break;
    default:
        /* a fresh seed with the IV given; the parameters read back (which
         * switches to the CMS section), then the section */
        q[0] = OSSL_PARAM_construct_octet_string("alg_id_param", back,
                                                 sizeof(back));
        q[1] = OSSL_PARAM_construct_end();
        ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, key, ukm, enc, NULL)
             && EVP_CIPHER_CTX_get_params(ctx, q)
             && q[0].return_size == dl && memcmp(back, der, 4 + a->ivlen) == 0
             && EVP_CIPHER_CTX_set_params(ctx, p);
        if (ok)
            memcpy(ukm, back + 4, dl - 4);
        break;
    }
    /* smgost's, not a cipher an engine registered for the NID */
    ok = ok && TU_CHECK(EVP_CIPHER_CTX_get0_cipher(ctx) != NULL
                        && strcmp(tu_prov_name(EVP_CIPHER_get0_provider(
                                      EVP_CIPHER_CTX_get0_cipher(ctx))),
                                  tu_target()) == 0,
                        "%s runs in %s", a->name, tu_target());
    if (ok && s->restart) {
        /* some other data, then a re-init with neither key nor IV */
        tu_rng_bytes(r, junk, sizeof(junk));
        ok = feed(r, ctx, junk, junk, 1 + tu_rng_below(r, sizeof(junk)))
             && EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, enc, NULL);
        if (ok && !enc)
            ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                     (int)a->bs, tag) > 0;
    }
    if (s->inplace && in != out) {
        memmove(out, in, len);
        in = out;
    }
    half = s->copy ? tu_rng_below(r, len + 1) : len;
    ok = ok && feed(r, ctx, in, out, half);
    if (ok && s->copy) {
        /* the copy finishes into a buffer of its own and must agree */
        other = tu_malloc(len + 1);
        ok = (dup = EVP_CIPHER_CTX_new()) != NULL
             && EVP_CIPHER_CTX_copy(dup, ctx)
             && feed(r, dup, in + half, other + half, len - half)
             && EVP_CipherFinal_ex(dup, junk, &outl) && outl == 0;
        if (ok && enc)
            ok = EVP_CIPHER_CTX_ctrl(dup, EVP_CTRL_AEAD_GET_TAG, (int)a->bs,
                                     junk) > 0;
    }
    ok = ok && feed(r, ctx, in + half, out + half, len - half)
         && EVP_CipherFinal_ex(ctx, out + len, &outl) && outl == 0;
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)a->bs,
                                 tag) > 0;
    if (ok && s->copy)
        ok = TU_CHECK(memcmp(other + half, out + half, len - half) == 0
                      && (!enc || memcmp(junk, tag, a->bs) == 0),
                      "%s: the copy's output differs", a->name);
    free(other);
    EVP_CIPHER_CTX_free(dup);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void pick_case(TU_RNG *r, const OMAC_ALG *a, STYLE *s, int enc,
                      unsigned char *key, unsigned char *ukm, size_t *len)
{
    static const TU_LEN_BAND lens[] = {
        { 30, 0, 1, 64, 0 }, { 30, 0, 16, 40, 17 }, { 40, 0, 1, MAXLEN, 0 }
    };
    size_t pick = tu_rng_below(r, 4);

    tu_rng_bytes(r, key, 32);
    tu_rng_bytes(r, ukm, a->ivlen + SEED_LEN);
    *len = tu_pick_len(r, lens, 3);
    if (*len > MAXLEN)
        *len = MAXLEN;
    memset(s, 0, sizeof(*s));
    s->way = (int)tu_rng_below(r, enc ? 4 : 3);
    s->inplace = (int)tu_rng_below(r, 2);
    s->copy = tu_rng_below(r, 8) == 0;
    s->restart = tu_rng_below(r, 8) == 0;
    /* a block, a few blocks, a random multiple, or the CMS default */
    s->section = pick == 0 ? a->bs
                 : pick == 1 ? a->bs * (2 + tu_rng_below(r, 4))
                 : pick == 2 ? a->bs * (1 + tu_rng_below(r, 600 / a->bs))
                 : 0;
}

static void random_cases(const OMAC_ALG *a, int cases)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, a->name, tu_target_propq());
    unsigned char key[32], ukm[16 + SEED_LEN], pt[MAXLEN + 16];
    unsigned char ct[MAXLEN + 16], want[MAXLEN + 16], back[MAXLEN + 16];
    unsigned char tag[16], wtag[16];
    size_t len, at;
    STYLE s, d;
    int i;
    TU_RNG r;

    tu_rng_seed(&r, tu_seed(NULL) ^ a->bs);
    if (!TU_CHECK(c != NULL, "fetch %s", a->name))
        return;
    for (i = 0; i < cases; i++) {
        pick_case(&r, a, &s, 1, key, ukm, &len);
        tu_rng_bytes(&r, pt, len);
        memcpy(ct, pt, len);
        if (!TU_CHECK(run_ours(&r, a, c, 1, &s, key, ukm, pt, ct, len, tag),
                      "%s encrypt, case %d (way %d, %zu bytes, section "
                      "%zu)", a->name, i, s.way, len, s.section)
            || !TU_CHECK(model_seal(a, key, ukm, s.section != 0 ? s.section
                                    : a->cms_section, pt, len, want, wtag),
                         "%s: the model, case %d", a->name, i))
            continue;
        if (!TU_CHECK_MEM("ciphertext", ct, len, want, len)
            || !TU_CHECK_MEM("tag", tag, a->bs, wtag, a->bs))
            continue;
        /* the decryption, in a style of its own, the same section */
        pick_case(&r, a, &d, 0, back, back, &at);
        d.section = s.section;
        if (TU_CHECK(run_ours(&r, a, c, 0, &d, key, ukm, ct, back, len, tag),
                     "%s decrypt, case %d (way %d)", a->name, i, d.way))
            TU_CHECK_MEM("plaintext", back, len, pt, len);
        /* a bit of the ciphertext or of the tag flipped */
        memcpy(wtag, tag, a->bs);
        at = tu_rng_below(&r, 8);
        if (len > 0 && tu_rng_below(&r, 2) == 0)
            ct[tu_rng_below(&r, len)] ^= (unsigned char)(1 << at);
        else
            wtag[tu_rng_below(&r, a->bs)] ^= (unsigned char)(1 << at);
        d.copy = 0;
        ERR_clear_error();
        TU_CHECK(!run_ours(&r, a, c, 0, &d, key, ukm, ct, back, len, wtag),
                 "%s: a tampered message accepted, case %d", a->name, i);
        TU_CHECK_NO_ERR("a tag that differs queues nothing");
        ERR_clear_error();
    }
    EVP_CIPHER_free(c);
}

static void group_model(void)
{
    int n = (int)(300 * tu_scale());

    if (!model_kdf_kat())
        return;
    random_cases(&algs[0], n);
    random_cases(&algs[1], n);
}

/* ---------------------------------------------------------- bad input */

static void group_bad(void)
{
    unsigned char key[32] = { 1 }, iv[16] = { 2 }, buf[64] = { 0 };
    unsigned char tag[17] = { 0 }, der[4 + 16 + SEED_LEN + 1];
    size_t i, v;
    int outl;

    for (i = 0; i < 2; i++) {
        const OMAC_ALG *a = &algs[i];
        EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, a->name, tu_target_propq());
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
        size_t dl;

        if (!TU_CHECK(c != NULL && ctx != NULL, "fetch %s", a->name))
            goto next;
        TU_CHECK(EVP_CIPHER_get_iv_length(c) == (int)a->ivlen
                 && EVP_CIPHER_get_key_length(c) == 32,
                 "%s: IV and key lengths", a->name);
        /* a key of another length */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL)
                 && EVP_CIPHER_CTX_set_key_length(ctx, 16) <= 0,
                 "%s: a 16-byte key", a->name);
        ERR_clear_error();
        /* an IV of another length */
        v = a->ivlen + 1;
        p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &v);
        TU_CHECK(!EVP_EncryptInit_ex2(ctx, c, key, iv, p)
                 || !EVP_CIPHER_CTX_set_params(ctx, p),
                 "%s: an IV of %zu bytes", a->name, v);
        ERR_clear_error();
        /* a ukm of another length: one byte more */
        memset(buf, 7, sizeof(buf));
        dl = tu_gost2015_params(der, buf, a->ivlen + SEED_LEN + 1);
        p[0] = OSSL_PARAM_construct_octet_string("alg_id_param", der, dl);
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL)
                 && !EVP_CIPHER_CTX_set_params(ctx, p),
                 "%s: a ukm of %zu bytes", a->name, dl - 4);
        TU_CHECK_ERR(tu_target(), "invalid algorithm id parameters");
        /* key-mesh: zero, or not a multiple of the block */
        v = a->bs + 1;
        p[0] = OSSL_PARAM_construct_size_t("key-mesh", &v);
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL)
                 && !EVP_CIPHER_CTX_set_params(ctx, p),
                 "%s: key-mesh %zu", a->name, v);
        TU_CHECK_ERR(tu_target(), "invalid key meshing period");
        /* decryption tags of other lengths than the block */
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, iv, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                        (int)a->bs - 1, tag) <= 0
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                        (int)a->bs + 1, tag) <= 0,
                 "%s: tags of %zu and %zu bytes set", a->name, a->bs - 1,
                 a->bs + 1);
        TU_CHECK_ERR(TU_LIB_PROV, "invalid tag length");
        /* a decryption without its tag fails the final, with no output */
        outl = -1;
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, iv, NULL)
                 && EVP_DecryptUpdate(ctx, buf, &outl, buf, 20)
                 && !EVP_DecryptFinal_ex(ctx, buf + 20, &outl) && outl == 0,
                 "%s: a decryption without a tag", a->name);
        TU_CHECK_ERR(TU_LIB_PROV, "tag not set");
        /* a wrong tag: the final fails, no output, nothing queued */
        outl = -1;
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, iv, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                        (int)a->bs, tag) > 0
                 && EVP_DecryptUpdate(ctx, buf, &outl, buf, 20)
                 && !EVP_DecryptFinal_ex(ctx, buf + 20, &outl) && outl == 0,
                 "%s: a wrong tag", a->name);
        TU_CHECK_NO_ERR("a wrong tag");
        /* an update without an output (AAD elsewhere) */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL)
                 && !EVP_EncryptUpdate(ctx, NULL, &outl, buf, 5),
                 "%s: AAD", a->name);
        TU_CHECK_ERR(TU_LIB_PROV, "cipher operation failed");
        /* a tag set when encrypting, or read when decrypting */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                        (int)a->bs, tag) <= 0,
                 "%s: a tag set when encrypting", a->name);
        TU_CHECK_ERR(TU_LIB_PROV, "tag not needed");
        TU_CHECK(EVP_DecryptInit_ex2(ctx, c, key, iv, NULL)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                        (int)a->bs, tag) <= 0,
                 "%s: a tag read when decrypting", a->name);
        TU_CHECK_ERR(TU_LIB_PROV, "tag not set");
        /* a tag read before the final, or longer than the block */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL)
                 && EVP_EncryptUpdate(ctx, buf, &outl, buf, 5)
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                        (int)a->bs, tag) <= 0,
                 "%s: a tag read before the final", a->name);
        TU_CHECK_ERR(TU_LIB_PROV, "tag not set");
        TU_CHECK(EVP_EncryptFinal_ex(ctx, buf, &outl) && outl == 0
                 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                        (int)a->bs + 1, tag) <= 0,
                 "%s: a tag of %zu bytes read", a->name, a->bs + 1);
        TU_CHECK_ERR(TU_LIB_PROV, "invalid tag length");
        TU_CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 1, tag) > 0,
                 "%s: a one-byte tag read", a->name);
        /* a finished message takes no more data, nor another final */
        TU_CHECK(!EVP_EncryptUpdate(ctx, buf, &outl, buf, 5),
                 "%s: an update after the final", a->name);
        TU_CHECK_ERR(tu_target(), "update after final");
        TU_CHECK(!EVP_EncryptFinal_ex(ctx, buf, &outl),
                 "%s: a second final", a->name);
        ERR_clear_error();
        /* until a re-init, which restarts it */
        TU_CHECK(EVP_EncryptInit_ex2(ctx, NULL, NULL, NULL, NULL)
                 && EVP_EncryptUpdate(ctx, buf, &outl, buf, 5),
                 "%s: a re-init restarts", a->name);
        /* no key */
        EVP_CIPHER_CTX_free(ctx);
        TU_CHECK((ctx = EVP_CIPHER_CTX_new()) != NULL
                 && EVP_EncryptInit_ex2(ctx, c, NULL, iv, NULL)
                 && !EVP_EncryptUpdate(ctx, buf, &outl, buf, 5)
                 && !EVP_EncryptFinal_ex(ctx, buf, &outl),
                 "%s: data without a key", a->name);
        TU_CHECK_ERR(TU_LIB_PROV, "no key set");
     next:
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
}

/* ------------------------------------------------------------- engine */

#ifdef HAVE_ENGINE
static ENGINE *engine;

/* gost-engine's cipher of a, or NULL. */
static const EVP_CIPHER *engine_cipher(const OMAC_ALG *a)
{
    return ENGINE_get_cipher(engine, OBJ_sn2nid(a->name));
}

/* The CMS unprotected attribute that carries the tag (gost-engine's
 * OID_GOST_CMS_MAC). */
#define CMS_MAC_OID "1.2.643.7.1.0.6.1.1"

/* gost-engine opens a message: 1 if its final accepts the tag. */
static int engine_open(const OMAC_ALG *a, const unsigned char *key,
                       const unsigned char *ukm, size_t section,
                       const unsigned char *ct, size_t len,
                       const unsigned char *tag, unsigned char *pt)
{
    const EVP_CIPHER *c = engine_cipher(a);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    ASN1_TYPE *at = ASN1_TYPE_new();
    ASN1_STRING *seq = ASN1_STRING_new();
    ASN1_OBJECT *oid = OBJ_txt2obj(CMS_MAC_OID, 1);
    STACK_OF(X509_ATTRIBUTE) *atts = NULL;
    unsigned char der[4 + 16 + SEED_LEN];
    int outl, ok;

    ok = c != NULL && ctx != NULL && at != NULL && seq != NULL
         && oid != NULL
         && ASN1_STRING_set(seq, der, (int)ukm_der(a, ukm, der));
    if (ok) {
        ASN1_TYPE_set(at, V_ASN1_SEQUENCE, seq);
        seq = NULL;
    }
    ok = ok && EVP_DecryptInit_ex(ctx, c, engine, NULL, NULL)
         && EVP_CIPHER_asn1_to_param(ctx, at) > 0
         && EVP_DecryptInit_ex(ctx, NULL, NULL, key, NULL)
         && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_KEY_MESH, (int)section, NULL) > 0
         && X509at_add1_attr_by_OBJ(&atts, oid, V_ASN1_OCTET_STRING, tag,
                                    (int)a->bs) != NULL
         && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_PROCESS_UNPROTECTED, 0,
                                atts) > 0
         && EVP_DecryptUpdate(ctx, pt, &outl, ct, (int)len)
         && (size_t)outl == len
         && EVP_DecryptFinal_ex(ctx, pt + len, &outl);
    sk_X509_ATTRIBUTE_pop_free(atts, X509_ATTRIBUTE_free);
    ASN1_OBJECT_free(oid);
    ASN1_STRING_free(seq);
    ASN1_TYPE_free(at);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/* gost-engine seals a message with a fresh seed: its ukm (from
 * EVP_CIPHER_param_to_asn1) and tag (the unprotected attribute) out. */
static int engine_seal(const OMAC_ALG *a, const unsigned char *key,
                       const unsigned char *iv, size_t section,
                       const unsigned char *pt, size_t len,
                       unsigned char *ct, unsigned char *ukm,
                       unsigned char *tag)
{
    const EVP_CIPHER *c = engine_cipher(a);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    ASN1_TYPE *at = ASN1_TYPE_new();
    ASN1_OBJECT *oid = OBJ_txt2obj(CMS_MAC_OID, 1);
    STACK_OF(X509_ATTRIBUTE) *atts = sk_X509_ATTRIBUTE_new_null();
    ASN1_OCTET_STRING *t;
    size_t ul = a->ivlen + SEED_LEN;
    int outl, ok;

    ok = c != NULL && ctx != NULL && at != NULL && oid != NULL
         && atts != NULL
         && EVP_EncryptInit_ex(ctx, c, engine, key, iv)
         && EVP_CIPHER_param_to_asn1(ctx, at) > 0
         && ASN1_TYPE_get(at) == V_ASN1_SEQUENCE
         && at->value.sequence->length == (int)(4 + ul)
         && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_KEY_MESH, (int)section, NULL) > 0
         && EVP_EncryptUpdate(ctx, ct, &outl, pt, (int)len)
         && (size_t)outl == len
         && EVP_EncryptFinal_ex(ctx, ct + len, &outl)
         && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_PROCESS_UNPROTECTED, 1,
                                atts) > 0
         && (t = X509at_get0_data_by_OBJ(atts, oid, -3, V_ASN1_OCTET_STRING))
            != NULL
         && t->length == (int)a->bs;
    if (ok) {
        memcpy(ukm, at->value.sequence->data + 4, ul);
        memcpy(tag, t->data, a->bs);
    }
    sk_X509_ATTRIBUTE_pop_free(atts, X509_ATTRIBUTE_free);
    ASN1_OBJECT_free(oid);
    ASN1_TYPE_free(at);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void engine_cases(const OMAC_ALG *a, int cases)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, a->name, tu_target_propq());
    unsigned char key[32], ukm[16 + SEED_LEN], pt[MAXLEN + 16];
    unsigned char ct[MAXLEN + 16], back[MAXLEN + 16], tag[16];
    size_t len;
    STYLE s;
    int i;
    TU_RNG r;

    tu_rng_seed(&r, tu_seed(NULL) ^ a->bs ^ 0xe);
    if (!TU_CHECK(c != NULL && engine_cipher(a) != NULL,
                  "%s in smgost and gost-engine", a->name))
        goto end;
    for (i = 0; i < cases; i++) {
        pick_case(&r, a, &s, 1, key, ukm, &len);
        /* gost-engine's section: ours, or its default after the key */
        if (s.section == 0)
            s.section = a->bs == 16 ? 4096 : 1024;
        if (s.way == 3)
            s.way = 2;
        tu_rng_bytes(&r, pt, len);
        /* ours sealed, gost-engine opens it; and refuses it tampered */
        if (TU_CHECK(run_ours(&r, a, c, 1, &s, key, ukm, pt, ct, len, tag),
                     "%s encrypt, case %d", a->name, i)) {
            if (TU_CHECK(engine_open(a, key, ukm, s.section, ct, len, tag,
                                     back),
                         "%s: gost-engine refuses ours, case %d (%zu bytes, "
                         "section %zu)", a->name, i, len, s.section))
                TU_CHECK_MEM("gost-engine's plaintext", back, len, pt, len);
            tag[tu_rng_below(&r, a->bs)] ^= 1;
            TU_CHECK(!engine_open(a, key, ukm, s.section, ct, len, tag,
                                  back),
                     "%s: gost-engine takes a wrong tag, case %d", a->name,
                     i);
            ERR_clear_error();
        }
        /* gost-engine's sealed with its fresh seed, ours opens it */
        s.way = (int)tu_rng_below(&r, 3);
        if (TU_CHECK(engine_seal(a, key, ukm, s.section, pt, len, ct, ukm,
                                 tag),
                     "%s: gost-engine's encryption, case %d", a->name, i)
            && TU_CHECK(run_ours(&r, a, c, 0, &s, key, ukm, ct, back, len,
                                 tag),
                        "%s: ours refuses gost-engine's, case %d (%zu "
                        "bytes, section %zu)", a->name, i, len, s.section))
            TU_CHECK_MEM("our plaintext", back, len, pt, len);
        ERR_clear_error();
    }
 end:
    EVP_CIPHER_free(c);
}

static void group_engine(void)
{
    int n = (int)(100 * tu_scale());

    engine = ENGINE_by_id("gost");
    if (!TU_CHECK(engine != NULL && ENGINE_init(engine),
                  "gost-engine's engine (gost.so) loads")) {
        ERR_print_errors_fp(stdout);
        ENGINE_free(engine);
        return;
    }
    /*
     * Loading it registers its ciphers, which libcrypto 3.x then runs in
     * place of smgost's of the same NIDs: they are unregistered (the
     * engine's own are reached through ENGINE_get_cipher).  Its KDF and
     * OMAC fetch its digests and MAC keys by NID: those are the defaults.
     */
    ENGINE_unregister_ciphers(engine);
    if (TU_CHECK(ENGINE_set_default(engine, ENGINE_METHOD_DIGESTS
                                            | ENGINE_METHOD_PKEY_METHS
                                            | ENGINE_METHOD_PKEY_ASN1_METHS),
                 "gost-engine's digests and MAC keys as the defaults")) {
        engine_cases(&algs[0], n);
        engine_cases(&algs[1], n);
    }
    ERR_print_errors_fp(stdout);
    ENGINE_unregister_ciphers(engine);
    ENGINE_unregister_digests(engine);
    ENGINE_unregister_pkey_meths(engine);
    ENGINE_unregister_pkey_asn1_meths(engine);
    ENGINE_finish(engine);
    ENGINE_free(engine);
}
#else
static void group_engine(void)
{
    TU_CHECK(0, "this libcrypto has no ENGINE API: gost-engine cannot run");
}
#endif

static const TU_GROUP groups[] = {
    { "model", group_model },
    { "bad", group_bad },
    { "engine", group_engine },
};

int main(int argc, char **argv)
{
    return tu_main(argc, argv, groups, sizeof(groups) / sizeof(groups[0]),
                   &libctx, NULL);
}
