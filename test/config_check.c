/* SPDX-License-Identifier: Apache-2.0 */
/*
 * smgost activated by an openssl.cnf (written by test/40-config.t) next to
 * the default provider, with default_properties = ?provider=smgost: fetches
 * with no property query, and the EVP_sm4_ctr() object older code passes,
 * must land on smgost; what smgost lacks (AES) must still come
 * from the default provider.
 *
 * In a library context it also checks the kernels the loaded smgost reports
 * against the choosers' for its "constant-time" setting; and a setting
 * smgost cannot read must fail the load with its reason.
 *
 * Usage: config_check file <openssl.cnf> [constant-time]
 *                                         (a library context loading it)
 *        config_check env                 (the default context, OPENSSL_CONF)
 *        config_check refused <openssl.cnf> (the load must fail)
 *        config_check kernels             (smgost from SMGOST_MODULES: the
 *                                          kernels it reports, checked and
 *                                          printed; util/test-levels.pl
 *                                          asks this when the build has no
 *                                          openssl program)
 */
#include "testutil.h"

#include <openssl/conf.h>
#include <openssl/core_dispatch.h>
#include <openssl/params.h>
#include "err.h"
#include "gost89.h"
#include "kuznyechik.h"
#include "mgm_mac.h"
#include "sm3.h"
#include "sm4.h"
#include "streebog.h"

/* The provider's "kernels" param against what the choosers give. */
static void expect_kernels(OSSL_LIB_CTX *libctx, int constant_time)
{
    OSSL_PROVIDER *prov = OSSL_PROVIDER_load(libctx, "smgost");
    const char *got = NULL;
    char want[300];
    OSSL_PARAM params[2];

    snprintf(want, sizeof(want),
             "sm4=%s+%s sm3=%s gost=%s kuznyechik=%s streebog=%s mgm=%s",
             sm4_kernel(constant_time)->name,
             sm4_kernel(constant_time)->gcm->name, sm3_kernel()->name,
             gost89_kernel(constant_time)->name,
             kuznyechik_kernel(constant_time)->name,
             streebog_kernel(constant_time)->name,
             smg_mgm_kernel(constant_time)->name);
    params[0] = OSSL_PARAM_construct_utf8_ptr("kernels", (char **)&got, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (TU_CHECK(prov != NULL && OSSL_PROVIDER_get_params(prov, params)
                 && got != NULL, "get smgost's kernels param"))
        TU_CHECK(strcmp(got, want) == 0, "kernels \"%s\", expected \"%s\"",
                 got, want);
    printf("# kernels: %s\n", got != NULL ? got : "(none)");
    OSSL_PROVIDER_unload(prov);
}

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

/*
 * libcrypto 3.0 drops the errors of a provider that fails to activate from
 * a configuration file, so the reason is checked by calling the module's
 * init directly, with a core that offers the bad setting and records the
 * error raised.
 */
static const OSSL_CORE_HANDLE *const fake_handle =
    (const OSSL_CORE_HANDLE *)&fake_handle;
static uint32_t raised_reason;
static char raised_text[200];

static int fake_get_params(const OSSL_CORE_HANDLE *h, OSSL_PARAM params[])
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, "constant-time");

    return h == fake_handle
           && (p == NULL || OSSL_PARAM_set_utf8_ptr(p, "maybe"));
}

static void fake_new_error(const OSSL_CORE_HANDLE *h)
{
    (void)h;
    raised_reason = 0;
    raised_text[0] = '\0';
}

static void fake_set_error_debug(const OSSL_CORE_HANDLE *h, const char *file,
                                 int line, const char *func)
{
    (void)h, (void)file, (void)line, (void)func;
}

static void fake_vset_error(const OSSL_CORE_HANDLE *h, uint32_t reason,
                            const char *fmt, va_list args)
{
    (void)h;
    raised_reason = reason;
    vsnprintf(raised_text, sizeof(raised_text), fmt, args);
}

static void refused_reason(void)
{
    static const OSSL_DISPATCH core[] = {
        { OSSL_FUNC_CORE_GET_PARAMS, (void (*)(void))fake_get_params },
        { OSSL_FUNC_CORE_NEW_ERROR, (void (*)(void))fake_new_error },
        { OSSL_FUNC_CORE_SET_ERROR_DEBUG,
          (void (*)(void))fake_set_error_debug },
        { OSSL_FUNC_CORE_VSET_ERROR, (void (*)(void))fake_vset_error },
        { 0, NULL }
    };
    const OSSL_DISPATCH *out = NULL;
    void *provctx = NULL;
    const OSSL_ITEM *r;
    const char *reason = NULL;

    TU_CHECK(!OSSL_provider_init(fake_handle, core, &out, &provctx),
             "init with constant-time = maybe succeeded");
    for (r = smg_reason_strings; r->ptr != NULL; r++)
        if (r->id == raised_reason)
            reason = r->ptr;
    TU_CHECK(reason != NULL
             && strcmp(reason, "invalid configuration value") == 0
             && strstr(raised_text, "constant-time = \"maybe\"") != NULL,
             "raised reason %u (%s): %s", raised_reason,
             reason != NULL ? reason : "?", raised_text);
}

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *libctx = NULL;

    if (argc == 2 && strcmp(argv[1], "kernels") == 0) {
        libctx = tu_libctx();
        expect_kernels(libctx, 0);
        tu_libctx_free(libctx);
        return tu_report("kernels");
    }
    if (argc == 3 && strcmp(argv[1], "refused") == 0) {
        libctx = OSSL_LIB_CTX_new();
        TU_CHECK(libctx != NULL && OSSL_LIB_CTX_load_config(libctx, argv[2])
                 && !OSSL_PROVIDER_available(libctx, "smgost"),
                 "%s should leave smgost inactive", argv[2]);
        OSSL_LIB_CTX_free(libctx);
        refused_reason();
        return tu_report("config");
    }
    if ((argc == 3 || (argc == 4 && strcmp(argv[3], "constant-time") == 0))
        && strcmp(argv[1], "file") == 0) {
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
        fprintf(stderr, "usage: %s file <openssl.cnf> [constant-time] | env"
                " | refused <openssl.cnf> | kernels\n", argv[0]);
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
    else
        expect_kernels(libctx, argc == 4);
    OSSL_LIB_CTX_free(libctx);
    return tu_report("config");
}
