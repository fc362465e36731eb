/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctgrind driver of the mode layer, for test/95-ct-modes.t: under
 * valgrind's memcheck it runs every cipher's init, update and final
 * through the real provider (loaded by the openssl.cnf given, with
 * "constant-time = yes" at a level whose kernels valgrind runs and the
 * constant-time check proves: AES-NI for SM4, AVX2 for GOST), with the
 * key, the IV and the data marked undefined.  memcheck then reports any
 * branch or address computed from them in the mode layer (src/modes.c:
 * buffering, partial blocks, PKCS#7 padding and its check, key meshing,
 * the IV bookkeeping) and in what it calls.  The one outcome a caller may
 * learn, whether a decryption's padding was good and the length it leaves,
 * the module itself marks public (src/ctgrind.h); nothing else may depend
 * on the secrets, in particular not where a bad pad differs.
 *
 *   ct_modes CONFIG
 *
 * Each cipher is run in both directions, over update chunkings that cross
 * block and meshing boundaries, and its padded decryptions over a good pad
 * of every length and over bad pads differing at every position.  Outputs
 * are declared public only after each call, and nothing reads them: the
 * results are other tests' business (10-kat, 20-diff, 70-gost-diff).
 * SM4-GCM and SM4-CCM run with AAD, and their decryptions over the right
 * tag and over tags wrong at each byte: only the verdict may differ (the
 * module marks it public, src/aead.c); SM4-XTS runs data units of
 * several lengths, ciphertext stealing included; magma-ctr-acpkm-omac the
 * same way as GCM, its CMS parameters secret too (its KDF over the
 * Streebog kernel).  (The TLS record paths of GCM and CCM are not run
 * here.)  magma-mgm runs with AAD in pieces and its data in the chunkings
 * above, and its decryptions over the right tag and tags wrong at each
 * byte (src/aead_mgm.c, its counters and the MGM kernel chosen at this
 * level, clmul-avx); kuznyechik-mgm's kernel at this level uses
 * instructions valgrind cannot run.
 */
#include "testutil.h"
#include "ctgrind.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

static const struct {
    const char *name;
    size_t key_len, iv_len, bs;
    int padded;                 /* ECB/CBC: PKCS#7 on by default */
} algs[] = {
    { "SM4-ECB", 16, 0, 16, 1 },
    { "SM4-CBC", 16, 16, 16, 1 },
    { "SM4-OFB", 16, 16, 16, 0 },
    { "SM4-CFB", 16, 16, 16, 0 },
    { "SM4-CTR", 16, 16, 16, 0 },
    { "gost89", 32, 8, 8, 0 },
    { "gost89-cnt", 32, 8, 8, 0 },
    { "gost89-cnt-12", 32, 8, 8, 0 },
    { "gost89-cbc", 32, 8, 8, 1 },
    { "gost89-ecb", 32, 0, 8, 1 },
    { "magma-ecb", 32, 0, 8, 1 },
    { "magma-cbc", 32, 8, 8, 1 },
    { "magma-ctr", 32, 4, 8, 0 },
    { "magma-ofb", 32, 8, 8, 0 },
    { "magma-cfb", 32, 8, 8, 0 },
    /* ACPKM: its 1024-byte sections crossed, the next key by the ECB */
    { "magma-ctr-acpkm", 32, 4, 8, 0 },
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

/* Update chunkings: partial blocks, whole blocks, a meshing boundary. */
static const size_t chunks[][4] = {
    { 1, 2, 3, 0 }, { 7, 9, 16, 0 }, { 15, 17, 0, 0 }, { 1000, 30, 1, 0 },
    { 1024, 8, 0, 0 }, { 33, 2100, 0, 0 },
};
#define NCHUNKS (sizeof(chunks) / sizeof(chunks[0]))
#define MAX_MSG 2200

static unsigned char msg[MAX_MSG + 32], ct[MAX_MSG + 64], out[MAX_MSG + 64];
static unsigned char key[32], iv[16];

/*
 * One message through ctx in direction enc, len bytes of in in the updates
 * of chunking c, secrets marked; returns final's result, the one outcome
 * allowed to depend on them.
 */
static int run(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, size_t a, int enc,
               const unsigned char *in, size_t len, size_t ch)
{
    size_t done = 0, j = 0, n;
    int outl, ok;

    EVP_CIPHER_CTX_reset(ctx);
    CT_SECRET(key, sizeof(key));
    CT_SECRET(iv, sizeof(iv));
    CT_SECRET((void *)in, len);
    ok = EVP_CipherInit_ex2(ctx, c, key, algs[a].iv_len ? iv : NULL, enc,
                            NULL);
    TU_CHECK(ok, "%s init", algs[a].name);
    while (ok && done < len) {
        n = chunks[ch][j] != 0 ? chunks[ch][j++] : len - done;
        if (n > len - done)
            n = len - done;
        ok = EVP_CipherUpdate(ctx, out + done, &outl, in + done, (int)n);
        TU_CHECK(ok, "%s update", algs[a].name);
        CT_PUBLIC(out, sizeof(out));
        done += n;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + done, &outl);
    CT_PUBLIC(out, sizeof(out));
    CT_PUBLIC(key, sizeof(key));
    CT_PUBLIC(iv, sizeof(iv));
    CT_PUBLIC((void *)in, len);
    ERR_clear_error();
    return ok;
}

/*
 * An AEAD message's end, after its updates (ok: whether they succeeded):
 * the final, an encryption's tag of taglen bytes into tag, then every
 * secret of the message made public again; returns whether all
 * succeeded.
 */
static int aead_end(EVP_CIPHER_CTX *ctx, int ok, int enc, size_t len,
                    unsigned char *tag, int taglen, unsigned char *aad,
                    size_t aadlen, const unsigned char *in)
{
    int outl;

    ok = ok && EVP_CipherFinal_ex(ctx, out + len, &outl);
    CT_PUBLIC(out, sizeof(out));
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, taglen, tag) > 0;
    CT_PUBLIC(tag, (size_t)taglen);
    CT_PUBLIC(key, sizeof(key));
    CT_PUBLIC(iv, sizeof(iv));
    CT_PUBLIC(aad, aadlen);
    CT_PUBLIC((void *)in, len);
    ERR_clear_error();
    return ok;
}

/*
 * One SM4-GCM or SM4-CCM message of len bytes with 20 bytes of AAD, all
 * secret: encrypt (tag into tag) or decrypt against tag; returns whether
 * it succeeded, the one outcome allowed to depend on the secrets.
 */
static int run_aead(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, int gcm,
                    int enc, const unsigned char *in, size_t len,
                    unsigned char tag[16])
{
    unsigned char aad[20];
    int outl, ok;

    tu_fill(aad, sizeof(aad), (uint32_t)len);
    EVP_CIPHER_CTX_reset(ctx);
    CT_SECRET(key, sizeof(key));
    CT_SECRET(iv, sizeof(iv));
    CT_SECRET(aad, sizeof(aad));
    CT_SECRET((void *)in, len);
    CT_SECRET(tag, 16);
    ok = EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL)
         && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) > 0
         && (gcm ? enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                              tag) > 0
                 : EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                       enc ? NULL : tag) > 0)
         && EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL)
         && (gcm || EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len))
         && EVP_CipherUpdate(ctx, NULL, &outl, aad, sizeof(aad));
    TU_CHECK(ok, "%s set-up", gcm ? "SM4-GCM" : "SM4-CCM");
    if (ok && gcm) {
        /* GCM takes the data in pieces, across block boundaries */
        size_t done = 0, n;

        while (ok && done < len) {
            n = len - done < 37 ? len - done : 37;
            ok = EVP_CipherUpdate(ctx, out + done, &outl, in + done, (int)n);
            CT_PUBLIC(out, sizeof(out));
            done += n;
        }
        TU_CHECK(ok, "SM4-GCM update");
    } else if (ok) {
        /* CCM: one update, which verifies when decrypting */
        ok = EVP_CipherUpdate(ctx, out, &outl, in, (int)len);
        CT_PUBLIC(out, sizeof(out));
    }
    return aead_end(ctx, ok, enc, len, tag, 16, aad, sizeof(aad), in);
}

/*
 * One magma-mgm message of len bytes, 21 bytes of AAD in two updates, the
 * data in chunking ch, all secret with the nonce and the key: encrypt (tag
 * into tag) or decrypt against tag; returns whether it succeeded.
 */
static int run_mgm(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, int enc,
                   const unsigned char *in, size_t len, size_t ch,
                   unsigned char tag[8])
{
    unsigned char aad[21];
    size_t done = 0, j = 0, n;
    int outl, ok;

    tu_fill(aad, sizeof(aad), (uint32_t)len + 3u);
    EVP_CIPHER_CTX_reset(ctx);
    CT_SECRET(key, sizeof(key));
    CT_SECRET(iv, sizeof(iv));
    CT_SECRET(aad, sizeof(aad));
    CT_SECRET((void *)in, len);
    CT_SECRET(tag, 8);
    ok = EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL)
         && (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 8, tag) > 0)
         && EVP_CipherUpdate(ctx, NULL, &outl, aad, 5)
         && EVP_CipherUpdate(ctx, NULL, &outl, aad + 5, sizeof(aad) - 5);
    TU_CHECK(ok, "magma-mgm set-up");
    while (ok && done < len) {
        n = chunks[ch][j] != 0 ? chunks[ch][j++] : len - done;
        if (n > len - done)
            n = len - done;
        ok = EVP_CipherUpdate(ctx, out + done, &outl, in + done, (int)n);
        TU_CHECK(ok, "magma-mgm update");
        CT_PUBLIC(out, sizeof(out));
        done += n;
    }
    return aead_end(ctx, ok, enc, len, tag, 8, aad, sizeof(aad), in);
}

static void mgm_modes(OSSL_LIB_CTX *libctx, EVP_CIPHER_CTX *ctx)
{
    static const size_t lens[] = { 0, 5, 64, 2100 };
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, "magma-mgm", "provider=smgost");
    unsigned char tag[8], bad[8];
    size_t l, pos;

    if (!TU_CHECK(c != NULL, "fetch magma-mgm"))
        return;
    tu_fill(key, sizeof(key), 21u);
    tu_fill(iv, sizeof(iv), 23u);
    for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
        tu_fill(msg, lens[l], (uint32_t)l + 60u);
        TU_CHECK(run_mgm(ctx, c, 1, msg, lens[l], l % NCHUNKS, tag),
                 "magma-mgm encrypt");
        memcpy(ct, out, lens[l]);
        /* pos 0: the right tag; else byte pos - 1 is wrong */
        for (pos = 0; pos <= 8; pos++) {
            memcpy(bad, tag, sizeof(bad));
            if (pos > 0)
                bad[pos - 1] ^= 0x20;
            TU_CHECK(run_mgm(ctx, c, 0, ct, lens[l], (l + pos) % NCHUNKS, bad)
                     == (pos == 0), "magma-mgm: %zu bytes, tag wrong at %zu: "
                     "the outcome", lens[l], pos);
        }
    }
    EVP_CIPHER_free(c);
}

static void aead_modes(OSSL_LIB_CTX *libctx, EVP_CIPHER_CTX *ctx)
{
    static const size_t lens[] = { 1, 16, 37, 100 };
    unsigned char tag[16], bad[16];
    size_t l, pos;
    int gcm, outl;

    for (gcm = 0; gcm < 2; gcm++) {
        const char *name = gcm ? "SM4-GCM" : "SM4-CCM";
        EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, "provider=smgost");

        if (!TU_CHECK(c != NULL, "fetch %s", name))
            continue;
        tu_fill(key, sizeof(key), 5u + (uint32_t)gcm);
        tu_fill(iv, sizeof(iv), 9u + (uint32_t)gcm);
        for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            tu_fill(msg, lens[l], (uint32_t)l);
            TU_CHECK(run_aead(ctx, c, gcm, 1, msg, lens[l], tag),
                     "%s encrypt", name);
            memcpy(ct, out, lens[l]);
            /* pos 0: the right tag; else byte pos - 1 is wrong */
            for (pos = 0; pos <= 16; pos++) {
                memcpy(bad, tag, sizeof(bad));
                if (pos > 0)
                    bad[pos - 1] ^= 0x20;
                TU_CHECK(run_aead(ctx, c, gcm, 0, ct, lens[l], bad)
                         == (pos == 0), "%s: %zu bytes, tag wrong at %zu: the "
                         "outcome", name, lens[l], pos);
            }
        }
        EVP_CIPHER_free(c);
    }
    {
        static const size_t units[] = { 16, 17, 31, 48, 100, 512 };
        EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, "SM4-XTS", "provider=smgost");
        int enc;

        if (!TU_CHECK(c != NULL, "fetch SM4-XTS"))
            return;
        tu_fill(key, sizeof(key), 11u);
        tu_fill(iv, sizeof(iv), 13u);
        for (l = 0; l < sizeof(units) / sizeof(units[0]); l++) {
            tu_fill(msg, units[l], (uint32_t)l + 40u);
            for (enc = 1; enc >= 0; enc--) {
                EVP_CIPHER_CTX_reset(ctx);
                CT_SECRET(key, sizeof(key));
                CT_SECRET(iv, sizeof(iv));
                CT_SECRET(msg, units[l]);
                TU_CHECK(EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL)
                         && EVP_CipherUpdate(ctx, out, &outl, msg,
                                             (int)units[l])
                         && EVP_CipherFinal_ex(ctx, out + outl, &outl),
                         "SM4-XTS %s of %zu bytes", enc ? "encrypt" : "decrypt",
                         units[l]);
                CT_PUBLIC(out, sizeof(out));
                CT_PUBLIC(key, sizeof(key));
                CT_PUBLIC(iv, sizeof(iv));
                CT_PUBLIC(msg, units[l]);
            }
        }
        EVP_CIPHER_free(c);
    }
}

/*
 * magma-ctr-acpkm-omac (src/ctr_acpkm_omac.c): the key, the data and the
 * CMS parameters (IV and KDF seed) secret, one message encrypted, then
 * decrypted against the right tag and against tags wrong at each byte;
 * only the verdict may differ.  The KDF's HMAC runs on the Streebog kernel
 * of the instance, the keystream and the OMAC on Magma's.
 */
static void ctr_omac(OSSL_LIB_CTX *libctx, EVP_CIPHER_CTX *ctx)
{
    static const size_t lens[] = { 1, 8, 37, 1100 };
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, "magma-ctr-acpkm-omac",
                                     "provider=smgost");
    unsigned char ukm[12], der[16], tag[8], bad[8];
    OSSL_PARAM p[3];
    size_t l, pos, section = 1024;
    int enc, ok, outl;

    if (!TU_CHECK(c != NULL, "fetch magma-ctr-acpkm-omac"))
        return;
    tu_fill(key, sizeof(key), 21u);
    tu_fill(ukm, sizeof(ukm), 23u);
    for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
        tu_fill(msg, lens[l], (uint32_t)l + 60u);
        for (pos = 0; pos <= 9; pos++) {
            /* pos 0: encrypt; 1: the right tag; else byte pos - 2 wrong */
            enc = pos == 0;
            memcpy(bad, tag, sizeof(bad));
            if (pos > 1)
                bad[pos - 2] ^= 0x20;
            EVP_CIPHER_CTX_reset(ctx);
            CT_SECRET(key, sizeof(key));
            CT_SECRET(ukm, sizeof(ukm));
            CT_SECRET(enc ? msg : ct, lens[l]);
            p[0] = OSSL_PARAM_construct_octet_string(
                "alg_id_param", der, tu_gost2015_params(der, ukm, 12));
            p[1] = OSSL_PARAM_construct_size_t("key-mesh", &section);
            p[2] = OSSL_PARAM_construct_end();
            ok = EVP_CipherInit_ex2(ctx, c, key, NULL, enc, p)
                 && (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                                8, bad) > 0)
                 && EVP_CipherUpdate(ctx, out, &outl, enc ? msg : ct,
                                     (int)lens[l]);
            CT_PUBLIC(out, sizeof(out));
            ok = ok && EVP_CipherFinal_ex(ctx, out + lens[l], &outl);
            if (ok && enc)
                ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 8,
                                         tag) > 0;
            CT_PUBLIC(out, sizeof(out));
            CT_PUBLIC(tag, sizeof(tag));
            CT_PUBLIC(key, sizeof(key));
            CT_PUBLIC(ukm, sizeof(ukm));
            CT_PUBLIC(enc ? msg : ct, lens[l]);
            ERR_clear_error();
            if (enc)
                memcpy(ct, out, lens[l]);
            TU_CHECK(ok == (pos <= 1), "magma-ctr-acpkm-omac: %zu bytes, "
                     "step %zu: the outcome", lens[l], pos);
        }
    }
    EVP_CIPHER_free(c);
}

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *libctx;
    EVP_CIPHER_CTX *ctx;
    size_t a, ch, len, pos, p;

    if (argc != 2) {
        fprintf(stderr, "usage: ct_modes CONFIG\n");
        return 2;
    }
    libctx = OSSL_LIB_CTX_new();
    ctx = EVP_CIPHER_CTX_new();
    if (!TU_CHECK(libctx != NULL && ctx != NULL
                  && OSSL_LIB_CTX_load_config(libctx, argv[1]),
                  "load %s", argv[1]))
        return tu_report("ct_modes");
    {
        /* the recipe checks that the level is the one it asked for */
        OSSL_PROVIDER *prov = OSSL_PROVIDER_load(libctx, "smgost");
        char *kernels = NULL;
        OSSL_PARAM params[] = {
            OSSL_PARAM_utf8_ptr("kernels", &kernels, 0), OSSL_PARAM_END
        };

        if (TU_CHECK(prov != NULL && OSSL_PROVIDER_get_params(prov, params)
                     && kernels != NULL, "smgost's kernels"))
            printf("kernels: %s\n", kernels);
        OSSL_PROVIDER_unload(prov);
    }
    for (a = 0; a < NALGS; a++) {
        EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, algs[a].name,
                                         "provider=smgost");
        size_t bs = algs[a].bs;

        if (!TU_CHECK(c != NULL, "fetch %s", algs[a].name))
            continue;
        tu_fill(key, sizeof(key), (uint32_t)a + 1u);
        tu_fill(iv, sizeof(iv), (uint32_t)a + 77u);
        for (ch = 0; ch < NCHUNKS; ch++) {
            len = algs[a].padded ? 2048 + 3 * ch : 2100 - 5 * ch;
            tu_fill(msg, len, (uint32_t)(a * 31 + ch));
            TU_CHECK(run(ctx, c, a, 1, msg, len, ch), "%s encrypt",
                     algs[a].name);
            /* a stream mode decrypts; a padded one below */
            if (!algs[a].padded)
                TU_CHECK(run(ctx, c, a, 0, msg, len, ch), "%s decrypt",
                         algs[a].name);
        }
        /*
         * Padded decryption: a good pad of each length, then a bad pad
         * differing from a good one at each position of the last block.
         * The ciphertext comes from a public encryption; only the outcome
         * may differ between the runs.
         */
        for (p = 1; algs[a].padded && p <= bs; p++) {
            int outl, n;

            len = 64 - p;
            tu_fill(msg, len, (uint32_t)p);
            for (pos = 0; pos <= p; pos++) {
                unsigned char last[16];

                /* pos 0: the good pad; else byte pos from the end is off */
                memcpy(last, msg + 64 - bs, bs - p);
                memset(last + bs - p, (int)p, p);
                if (pos > 0)
                    last[bs - pos] ^= 0x40;
                memcpy(ct, msg, 64 - bs);
                memcpy(ct + 64 - bs, last, bs);
                n = 0;
                EVP_CIPHER_CTX_reset(ctx);
                TU_CHECK(EVP_CipherInit_ex2(ctx, c, key,
                                            algs[a].iv_len ? iv : NULL, 1,
                                            NULL)
                         && EVP_CIPHER_CTX_set_padding(ctx, 0)
                         && EVP_CipherUpdate(ctx, ct, &n, ct, 64)
                         && EVP_CipherFinal_ex(ctx, ct + n, &outl),
                         "%s encrypt without padding", algs[a].name);
                TU_CHECK(run(ctx, c, a, 0, ct, 64, p % NCHUNKS) == (pos == 0),
                         "%s: pad %zu, off at %zu: the outcome", algs[a].name,
                         p, pos);
            }
        }
        EVP_CIPHER_free(c);
    }
    aead_modes(libctx, ctx);
    mgm_modes(libctx, ctx);
    ctr_omac(libctx, ctx);
    EVP_CIPHER_CTX_free(ctx);
    OSSL_LIB_CTX_free(libctx);
    return tu_report("ct_modes");
}
