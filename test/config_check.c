/* SPDX-License-Identifier: Apache-2.0 */
/*
 * smgost activated by an openssl.cnf (written by test/40-config.t) next to
 * the default provider, with default_properties = ?provider=smgost: fetches
 * with no property query, and the EVP_sm4_ctr() object older code passes,
 * must land on smgost; what smgost lacks (AES) must still come
 * from the default provider.
 *
 * Usage: config_check file <openssl.cnf>  (a library context loading it)
 *        config_check env                 (the default context, OPENSSL_CONF)
 */
#include "testutil.h"

#include <openssl/conf.h>

static void expect_cipher(OSSL_LIB_CTX *libctx, const char *name,
                          const char *prov)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, NULL);

    if (TU_CHECK(c != NULL, "fetch %s with no query", name))
        TU_CHECK(strcmp(tu_prov_name(EVP_CIPHER_get0_provider(c)), prov)
                 == 0, "%s came from %s, expected %s", name,
                 tu_prov_name(EVP_CIPHER_get0_provider(c)), prov);
    EVP_CIPHER_free(c);
}

static void expect_md(OSSL_LIB_CTX *libctx, const char *name,
                      const char *prov)
{
    EVP_MD *md = EVP_MD_fetch(libctx, name, NULL);

    if (TU_CHECK(md != NULL, "fetch %s with no query", name))
        TU_CHECK(strcmp(tu_prov_name(EVP_MD_get0_provider(md)), prov) == 0,
                 "%s came from %s, expected %s", name,
                 tu_prov_name(EVP_MD_get0_provider(md)), prov);
    EVP_MD_free(md);
}

/*
 * The pre-3.0 style: a built-in EVP_CIPHER handed to init, which fetches an
 * implementation behind the scenes.  (A digest context reports the object
 * it was given, not the one fetched, so EVP_sm3() cannot be checked so.)
 */
static void implicit_fetch(void)
{
    static const unsigned char key[16], iv[16];
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *used;

    if (TU_CHECK(c != NULL && EVP_EncryptInit_ex(c, EVP_sm4_ctr(), NULL, key,
                                                 iv), "init EVP_sm4_ctr()")) {
        used = EVP_CIPHER_CTX_get0_cipher(c);
        TU_CHECK(used != NULL
                 && strcmp(tu_prov_name(EVP_CIPHER_get0_provider(used)),
                           "smgost") == 0,
                 "EVP_sm4_ctr() ran on %s", used == NULL ? "(nothing)"
                 : tu_prov_name(EVP_CIPHER_get0_provider(used)));
    }
    EVP_CIPHER_CTX_free(c);
}

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *libctx = NULL;

    if (argc == 3 && strcmp(argv[1], "file") == 0) {
        libctx = OSSL_LIB_CTX_new();
        if (!TU_CHECK(libctx != NULL
                      && OSSL_LIB_CTX_load_config(libctx, argv[2]),
                      "load %s", argv[2]))
            return tu_report("config");
    } else if (argc == 2 && strcmp(argv[1], "env") == 0) {
        if (!TU_CHECK(getenv("OPENSSL_CONF") != NULL, "OPENSSL_CONF unset")
            || !TU_CHECK(OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL),
                         "load OPENSSL_CONF"))
            return tu_report("config");
    } else {
        fprintf(stderr, "usage: %s file <openssl.cnf> | env\n", argv[0]);
        return 2;
    }
    TU_CHECK(OSSL_PROVIDER_available(libctx, "smgost"),
             "smgost is not active");
    TU_CHECK(OSSL_PROVIDER_available(libctx, "default"),
             "default is not active");
    expect_cipher(libctx, "SM4-CTR", "smgost");
    expect_cipher(libctx, "SM4-CBC", "smgost");
    expect_md(libctx, "SM3", "smgost");
    expect_cipher(libctx, "AES-128-CBC", "default");
    expect_md(libctx, "SHA256", "default");
    if (libctx == NULL)
        implicit_fetch();
    OSSL_LIB_CTX_free(libctx);
    return tu_report("config");
}
