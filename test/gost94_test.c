/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GOST R 34.11-94 (src/gost94.c) below and through the provider:
 *
 *   kat     RFC 5831 section 7.3's examples with the test parameter set
 *           (the digests as errata 2303, 2863 and 4262 correct the
 *           section's text: byte order and the 50-byte message's value),
 *           and the same messages and the empty one with the CryptoPro
 *           set, through every kernel this (masked) CPU runs (the whole
 *           list, src/gost94.h), whole and fed in every split of two
 *           pieces; and the known answers of providers/selftest.c's set.
 *   gcrypt  every kernel against libgcrypt's GOSTR3411_94 (test set) and
 *           GOSTR3411_CP (CryptoPro set) over random messages (built with
 *           HAVE_GCRYPT).
 *   hmac    HMAC (OpenSSL's, from the default provider) over smgost's
 *           md_gost94, chosen through the "properties" parameter, against
 *           known answers of libgcrypt 1.10's HMAC over GOSTR3411_CP: keys
 *           of 16, 32 (one block) and 40 bytes (hashed first).
 *
 * Usage: gost94_test kat|gcrypt|hmac [seed]
 */
#include "testutil.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "cpu.h"
#include "gost94.h"

#ifdef HAVE_GCRYPT
# include <gcrypt.h>
#endif

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static OSSL_LIB_CTX *libctx;

/* Feeds n bytes as the digest layer does: a partial block buffered. */
static void feed(GOST94_STATE *s, unsigned char buf[GOST94_BLOCK_SIZE],
                 size_t *have, const unsigned char *p, size_t n)
{
    size_t take;

    while (n > 0) {
        if (*have == 0 && n >= GOST94_BLOCK_SIZE) {
            take = n & ~(size_t)(GOST94_BLOCK_SIZE - 1);
            gost94_blocks(s, p, take / GOST94_BLOCK_SIZE);
        } else {
            take = GOST94_BLOCK_SIZE - *have < n ? GOST94_BLOCK_SIZE - *have
                                                 : n;
            memcpy(buf + *have, p, take);
            *have += take;
            if (*have == GOST94_BLOCK_SIZE) {
                gost94_blocks(s, buf, 1);
                *have = 0;
            }
        }
        p += take;
        n -= take;
    }
}

/* The message in two pieces, split at split. */
static void hash(const GOST94_KERNEL *k, const GOST89_PARAMSET *ps,
                 const unsigned char *msg, size_t len, size_t split,
                 unsigned char out[GOST94_DIGEST_LENGTH])
{
    GOST94_STATE s;
    unsigned char buf[GOST94_BLOCK_SIZE];
    size_t have = 0;

    gost94_init(&s, gost94_tables(ps), k);
    feed(&s, buf, &have, msg, split);
    feed(&s, buf, &have, msg + split, len - split);
    gost94_final(&s, buf, have, len, out);
}

static void group_kat(void)
{
    static const struct {
        const GOST89_PARAMSET *ps;
        const char *msg, *digest;
    } vec[] = {
        /* RFC 5831 7.3.1, 7.3.2 (errata 2303, 2863, 4262) */
        { &gost94_paramset_test, "This is message, length=32 bytes",
          "b1c466d37519b82e8319819ff32595e047a28cb6f83eff1c6916a815a637fffa" },
        { &gost94_paramset_test,
          "Suppose the original message has length = 50 bytes",
          "471aba57a60a770d3a76130635c1fbea4ef14de51f78b4ae57dd893b62f55208" },
        /* the same under the CryptoPro set (libgcrypt's GOSTR3411_CP) */
        { &gost94_paramset_cryptopro, "",
          "981e5f3ca30c841487830f84fb433e13ac1101569b9c13584ac483234cd656c0" },
        { &gost94_paramset_cryptopro, "This is message, length=32 bytes",
          "2cefc2f7b7bdc514e18ea57fa74ff357e7fa17d652c75f69cb1be7893ede48eb" },
        { &gost94_paramset_cryptopro,
          "Suppose the original message has length = 50 bytes",
          "c3730c5cbccacf915ac292676f21e8bd4ef75331d9405e5f1a61dc3130a65011" },
    };
    unsigned char out[GOST94_DIGEST_LENGTH], *want;
    size_t i, j, split, len, wl, ran = 0;

    for (j = 0; gost94_kernels[j] != NULL; j++) {
        const GOST94_KERNEL *k = gost94_kernels[j];

        if (!smg_cpu_has(k->caps)) {
            printf("# %s: not on this (masked) CPU\n", k->name);
            continue;
        }
        ran++;
        for (i = 0; i < NELEM(vec); i++) {
            len = strlen(vec[i].msg);
            want = tu_unhex_or_die(vec[i].digest, &wl);
            for (split = 0; split <= len; split++) {
                hash(k, vec[i].ps, (const unsigned char *)vec[i].msg, len,
                     split, out);
                if (!TU_CHECK_MEM(k->name, out, sizeof(out), want, wl))
                    fprintf(stderr, "  %s, \"%s\", split at %zu\n",
                            vec[i].ps->name, vec[i].msg, split);
            }
            free(want);
        }
        printf("# %s: RFC 5831 examples pass\n", k->name);
    }
    TU_CHECK(ran > 0, "no kernel ran");
}

#ifdef HAVE_GCRYPT
static void group_gcrypt(void)
{
    TU_RNG rng;
    unsigned char *msg = tu_malloc(5000), out[32], want[32];
    size_t j, len, split;
    unsigned long n;
    int cp;

    tu_rng_seed(&rng, tu_seed(NULL));
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    for (j = 0; gost94_kernels[j] != NULL; j++) {
        const GOST94_KERNEL *k = gost94_kernels[j];

        if (!smg_cpu_has(k->caps))
            continue;
        for (n = 0; n < (unsigned long)(600 * tu_scale()); n++) {
            cp = (int)(n & 1);
            len = tu_rng_below(&rng, 4) ? tu_rng_below(&rng, 200)
                                        : tu_rng_below(&rng, 5000);
            split = tu_rng_below(&rng, len + 1);
            tu_rng_bytes(&rng, msg, len);
            gcry_md_hash_buffer(cp ? GCRY_MD_GOSTR3411_CP
                                   : GCRY_MD_GOSTR3411_94, want, msg, len);
            hash(k, cp ? &gost94_paramset_cryptopro : &gost94_paramset_test,
                 msg, len, split, out);
            if (!TU_CHECK_MEM(k->name, out, 32, want, 32)) {
                fprintf(stderr, "  case %lu: %s, length %zu, split %zu\n", n,
                        cp ? "CryptoPro" : "test set", len, split);
                break;
            }
        }
        printf("# %s: %lu cases against libgcrypt\n", k->name, n);
    }
    free(msg);
}
#else
static void group_gcrypt(void)
{
    TU_CHECK(0, "built without libgcrypt (HAVE_GCRYPT)");
}
#endif

static void group_hmac(void)
{
    static const struct {
        size_t keylen;
        const char *msg, *mac;
    } vec[] = {
        { 32, "This is message, length=32 bytes",
          "e1e122eb8d28e146637d0265ae8226f4f0d75e172748a76d7c33435aaf7de9bc" },
        { 40, "Suppose the original message has length = 50 bytes",
          "c5c81ac55b42cb384d6686d38ff0aa2153fe1d8a20dfde81307829e01d2b8610" },
        { 16, "",
          "7e63300e42a6c29be246e450fddbe36b4497629a9d1e1865b0e6569f8d3bfb18" },
    };
    EVP_MAC *mac = EVP_MAC_fetch(libctx, "HMAC", "provider=default");
    unsigned char key[64], out[64], *want;
    size_t i, outl, wl;

    for (i = 0; i < sizeof(key); i++)
        key[i] = (unsigned char)i;
    if (!TU_CHECK(mac != NULL, "fetch HMAC"))
        return;
    for (i = 0; i < NELEM(vec); i++) {
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
        OSSL_PARAM p[3];

        p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                "md_gost94", 0);
        p[1] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES,
                                                (char *)tu_target_propq(), 0);
        p[2] = OSSL_PARAM_construct_end();
        want = tu_unhex_or_die(vec[i].mac, &wl);
        outl = 0;
        if (TU_CHECK(ctx != NULL
                     && EVP_MAC_init(ctx, key, vec[i].keylen, p)
                     && EVP_MAC_update(ctx, (const unsigned char *)vec[i].msg,
                                       strlen(vec[i].msg))
                     && EVP_MAC_final(ctx, out, &outl, sizeof(out)),
                     "HMAC over md_gost94, key of %zu bytes", vec[i].keylen))
            TU_CHECK_MEM("HMAC-GOST94", out, outl, want, wl);
        free(want);
        EVP_MAC_CTX_free(ctx);
    }
    /* and it was smgost's md_gost94 that ran */
    {
        EVP_MD *md = EVP_MD_fetch(libctx, "md_gost94", tu_target_propq());

        if (TU_CHECK(md != NULL, "fetch md_gost94"))
            TU_CHECK(strcmp(tu_prov_name(EVP_MD_get0_provider(md)),
                            tu_target()) == 0, "md_gost94 from %s",
                     tu_prov_name(EVP_MD_get0_provider(md)));
        EVP_MD_free(md);
    }
    EVP_MAC_free(mac);
}

int main(int argc, char **argv)
{
    static const TU_GROUP groups[] = {
        { "kat", group_kat }, { "gcrypt", group_gcrypt },
        { "hmac", group_hmac },
    };

    return tu_main(argc, argv, groups, NELEM(groups), &libctx, NULL);
}
