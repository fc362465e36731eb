/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider entry point: OSSL_provider_init, the algorithm tables handed
 * to the core per operation (every algorithm with the property
 * "provider=smgost"), the provider parameters (with the kernels chosen on
 * this CPU), our reason strings, and the self-test that gates loading.
 */
#include <stdio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "cpu.h"
#include "err.h"
#include "gost89.h"
#include "prov.h"
#include "provctx.h"
#include "sm3.h"
#include "sm4.h"

#define SMGOST_NAME "smgost: SM4, SM3 and GOST provider"
#define SMGOST_VERSION "0.1.0"

static const OSSL_ALGORITHM smg_ciphers[] = {
    { "SM4-ECB:1.2.156.10197.1.104.1", SMG_PROPS, smg_sm4_ecb_functions,
      "SM4 in ECB mode" },
    { "SM4-CBC:SM4:1.2.156.10197.1.104.2", SMG_PROPS, smg_sm4_cbc_functions,
      "SM4 in CBC mode" },
    { "SM4-OFB:SM4-OFB128:1.2.156.10197.1.104.3", SMG_PROPS,
      smg_sm4_ofb_functions, "SM4 in OFB mode" },
    { "SM4-CFB:SM4-CFB128:1.2.156.10197.1.104.4", SMG_PROPS,
      smg_sm4_cfb_functions, "SM4 in CFB-128 mode" },
    { "SM4-CTR:1.2.156.10197.1.104.7", SMG_PROPS, smg_sm4_ctr_functions,
      "SM4 in CTR mode" },
    { "SM4-GCM:1.2.156.10197.1.104.8", SMG_PROPS, smg_sm4_gcm_functions,
      "SM4 in GCM mode" },
    { "SM4-CCM:1.2.156.10197.1.104.9", SMG_PROPS, smg_sm4_ccm_functions,
      "SM4 in CCM mode" },
    { "SM4-XTS:1.2.156.10197.1.104.10", SMG_PROPS, smg_sm4_xts_functions,
      "SM4 in XTS mode (GB/T 17964-2021 or IEEE 1619)" },
    { "gost89:GOST 28147-89:1.2.643.2.2.21", SMG_PROPS, smg_gost89_functions,
      "GOST 28147-89 in CFB mode with CryptoPro key meshing" },
    { "gost89-cnt", SMG_PROPS, smg_gost89_cnt_functions,
      "GOST 28147-89 in CNT mode with key meshing, CryptoPro-A" },
    { "gost89-cnt-12", SMG_PROPS, smg_gost89_cnt_12_functions,
      "GOST 28147-89 in CNT mode with key meshing, TC26 Z" },
    { "gost89-cbc", SMG_PROPS, smg_gost89_cbc_functions,
      "GOST 28147-89 in CBC mode" },
    { "gost89-ecb", SMG_PROPS, smg_gost89_ecb_functions,
      "GOST 28147-89 in ECB mode" },
    { "magma-ecb", SMG_PROPS, smg_magma_ecb_functions,
      "Magma (GOST R 34.12-2015) in ECB mode" },
    { "magma-cbc", SMG_PROPS, smg_magma_cbc_functions,
      "Magma (GOST R 34.12-2015) in CBC mode" },
    { "magma-ctr", SMG_PROPS, smg_magma_ctr_functions,
      "Magma (GOST R 34.13-2015) in CTR mode" },
    { "magma-ofb", SMG_PROPS, smg_magma_ofb_functions,
      "Magma (GOST R 34.13-2015) in OFB mode" },
    { "magma-cfb", SMG_PROPS, smg_magma_cfb_functions,
      "Magma (GOST R 34.13-2015) in CFB mode" },
    { "magma-ctr-acpkm:1.2.643.7.1.1.5.1.1", SMG_PROPS,
      smg_magma_ctr_acpkm_functions,
      "Magma in CTR-ACPKM mode (R 1323565.1.017-2018)" },
    { "kuznyechik-ecb", SMG_PROPS, smg_kuznyechik_ecb_functions,
      "Kuznyechik (GOST R 34.12-2015) in ECB mode" },
    { "kuznyechik-cbc", SMG_PROPS, smg_kuznyechik_cbc_functions,
      "Kuznyechik (GOST R 34.13-2015) in CBC mode" },
    { "kuznyechik-cfb", SMG_PROPS, smg_kuznyechik_cfb_functions,
      "Kuznyechik (GOST R 34.13-2015) in CFB mode" },
    { "kuznyechik-ofb", SMG_PROPS, smg_kuznyechik_ofb_functions,
      "Kuznyechik (GOST R 34.13-2015) in OFB mode" },
    { "kuznyechik-ctr", SMG_PROPS, smg_kuznyechik_ctr_functions,
      "Kuznyechik (GOST R 34.13-2015) in CTR mode" },
    { "kuznyechik-ctr-acpkm:1.2.643.7.1.1.5.2.1", SMG_PROPS,
      smg_kuznyechik_ctr_acpkm_functions,
      "Kuznyechik in CTR-ACPKM mode (R 1323565.1.017-2018)" },
    { "magma-ctr-acpkm-omac:1.2.643.7.1.1.5.1.2", SMG_PROPS,
      smg_magma_ctr_acpkm_omac_cipher_functions,
      "Magma in CTR-ACPKM mode with an OMAC tag (R 1323565.1.026-2019)" },
    { "kuznyechik-ctr-acpkm-omac:1.2.643.7.1.1.5.2.2", SMG_PROPS,
      smg_kuznyechik_ctr_acpkm_omac_cipher_functions,
      "Kuznyechik in CTR-ACPKM mode with an OMAC tag "
      "(R 1323565.1.026-2019)" },
    { "magma-mgm", SMG_PROPS, smg_magma_mgm_functions,
      "Magma in MGM mode (RFC 9058)" },
    { "kuznyechik-mgm", SMG_PROPS, smg_kuznyechik_mgm_functions,
      "Kuznyechik in MGM mode (RFC 9058)" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM smg_digests[] = {
    { "SM3:1.2.156.10197.1.401", SMG_PROPS, smg_sm3_functions,
      "SM3 (GB/T 32905-2016)" },
    { "md_gost12_256:GOST R 34.11-2012 with 256 bit hash:"
      "id-tc26-gost3411-12-256:streebog256:1.2.643.7.1.1.2.2", SMG_PROPS,
      smg_streebog256_functions, "Streebog-256 (GOST R 34.11-2012)" },
    { "md_gost12_512:GOST R 34.11-2012 with 512 bit hash:"
      "id-tc26-gost3411-12-512:streebog512:1.2.643.7.1.1.2.3", SMG_PROPS,
      smg_streebog512_functions, "Streebog-512 (GOST R 34.11-2012)" },
    { "md_gost94:GOST R 34.11-94:id-GostR3411-94:1.2.643.2.2.9", SMG_PROPS,
      smg_md_gost94_functions,
      "GOST R 34.11-94 (RFC 5831), CryptoPro parameter set" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM smg_macs[] = {
    { "gost-mac:1.2.643.2.2.22", SMG_PROPS, smg_gost89_mac_functions,
      "GOST 28147-89 MAC (IMIT), CryptoPro-A" },
    { "gost-mac-12", SMG_PROPS, smg_gost89_mac_12_functions,
      "GOST 28147-89 MAC (IMIT), TC26 Z" },
    { "magma-mac", SMG_PROPS, smg_magma_mac_functions,
      "OMAC over Magma (GOST R 34.13-2015)" },
    { "magma-ctr-acpkm-omac:1.2.643.7.1.1.5.1.2", SMG_PROPS,
      smg_magma_ctr_acpkm_omac_functions,
      "OMAC-ACPKM over Magma (R 1323565.1.017-2018)" },
    { "kuznyechik-mac", SMG_PROPS, smg_kuznyechik_mac_functions,
      "OMAC over Kuznyechik (GOST R 34.13-2015)" },
    { "kuznyechik-ctr-acpkm-omac:1.2.643.7.1.1.5.2.2", SMG_PROPS,
      smg_kuznyechik_ctr_acpkm_omac_functions,
      "OMAC-ACPKM over Kuznyechik (R 1323565.1.017-2018)" },
    { NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *smg_query(void *provctx, int operation_id,
                                       int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER:
        return smg_ciphers;
    case OSSL_OP_DIGEST:
        return smg_digests;
    case OSSL_OP_MAC:
        return smg_macs;
    }
    return NULL;
}

#define SMG_PARAM_KERNELS "kernels"
#define SMG_PARAM_CPU "cpu"

static const OSSL_PARAM smg_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(SMG_PARAM_KERNELS, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(SMG_PARAM_CPU, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *smg_gettable_params(void *provctx)
{
    (void)provctx;
    return smg_param_types;
}

/*
 * The kernels this instance uses, in its own strings: an instance's
 * configuration can ask for constant-time kernels.
 */
static void describe_kernels(SMG_PROV_CTX *ctx)
{
    smg_kernel_report(ctx->kernel, ctx->kernels, sizeof(ctx->kernels));
    /*
     * `openssl list -providers -verbose` prints the build info but not our
     * own params, so the kernels are shown there too.
     */
    snprintf(ctx->buildinfo, sizeof(ctx->buildinfo),
             "smgost " SMGOST_VERSION " (kernels: %s; cpu: %s)",
             ctx->kernels, smg_cpu_caps_string());
}

int smg_prov_constant_time(const void *provctx)
{
    return ((const SMG_PROV_CTX *)provctx)->constant_time;
}

/*
 * The provider's section of openssl.cnf:
 *   constant-time = yes    only kernels whose every path is constant-time,
 *                          where this CPU has them (README, "Constant time")
 * Values as OpenSSL reads "activate": yes/true/on/1 or no/false/off/0.  An
 * unknown value fails the load rather than guess about a security setting.
 */
#define SMG_CONF_CONSTANT_TIME "constant-time"

static int read_config(SMG_PROV_CTX *ctx, const OSSL_DISPATCH *in)
{
    static const char *const yes[] = { "yes", "true", "on", "1" };
    static const char *const no[] = { "no", "false", "off", "0" };
    OSSL_FUNC_core_get_params_fn *get_params = NULL;
    const char *v = NULL;
    OSSL_PARAM params[2];
    size_t i;

    for (; in->function_id != 0; in++)
        if (in->function_id == OSSL_FUNC_CORE_GET_PARAMS)
            get_params = OSSL_FUNC_core_get_params(in);
    if (get_params == NULL)
        return 1;
    params[0] = OSSL_PARAM_construct_utf8_ptr(SMG_CONF_CONSTANT_TIME,
                                              (char **)&v, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (!get_params(ctx->handle, params) || v == NULL)
        return 1;
    for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (OPENSSL_strcasecmp(v, yes[i]) == 0) {
            ctx->constant_time = 1;
            return 1;
        }
        if (OPENSSL_strcasecmp(v, no[i]) == 0)
            return 1;
    }
    SMG_RAISE_DATA(ctx, SMG_R_INVALID_CONFIG_VALUE,
                   SMG_CONF_CONSTANT_TIME " = \"%s\" (expected yes or no)", v);
    return 0;
}

static int smg_get_params(void *provctx, OSSL_PARAM params[])
{
    const SMG_PROV_CTX *ctx = provctx;
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, SMGOST_NAME))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, SMGOST_VERSION))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, ctx->buildinfo))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL
        && !OSSL_PARAM_set_int(p, 1))
        return 0;
    if ((p = OSSL_PARAM_locate(params, SMG_PARAM_KERNELS)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, ctx->kernels))
        return 0;
    if ((p = OSSL_PARAM_locate(params, SMG_PARAM_CPU)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, smg_cpu_caps_string()))
        return 0;
    return 1;
}

static const OSSL_ITEM *smg_get_reason_strings(void *provctx)
{
    (void)provctx;
    return smg_reason_strings;
}

static void smg_teardown(void *provctx)
{
    OPENSSL_free(provctx);
}

static const OSSL_DISPATCH smg_dispatch[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))smg_teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))smg_gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))smg_get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))smg_query },
    { OSSL_FUNC_PROVIDER_GET_REASON_STRINGS,
      (void (*)(void))smg_get_reason_strings },
    { 0, NULL }
};

__attribute__((visibility("default")))
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                       const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                       void **provctx)
{
    SMG_PROV_CTX *ctx;
    const char *failed;
    int f;

    smg_err_init(in);
    if ((ctx = OPENSSL_zalloc(sizeof(*ctx))) == NULL)
        return 0;
    ctx->handle = handle;
    if (!read_config(ctx, in)) {
        OPENSSL_free(ctx);
        return 0;
    }
    for (f = 0; f < SMG_NFAMILIES; f++)
        ctx->kernel[f] = smg_kernel_choose(smg_kernel_families[f],
                                           ctx->constant_time);
    if (!smg_self_test(ctx->constant_time, &failed)) {
        SMG_RAISE_DATA(ctx, SMG_R_SELF_TEST_FAILED,
                       "known-answer test failed: %s", failed);
        OPENSSL_free(ctx);
        return 0;
    }
    describe_kernels(ctx);
    *out = smg_dispatch;
    *provctx = ctx;
    return 1;
}
