/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the GOST cases of the test programs (evp_kat.c, evp_diff.c,
 * bad_input.c, and others) share beyond testutil.h: the GOST 28147-89
 * parameter sets as the tests know them (names from RFC 4357 and RFC 7836,
 * OIDs and their DER bodies), the RFC 4357 Gost28147-89-Parameters
 * encoding that `alg_id_param` carries, a library context holding
 * gost-engine's gostprov, and a note of the GOST kernel smgost chose.
 */
#ifndef SMGOST_GOST89_TEST_H
#define SMGOST_GOST89_TEST_H

#include "testutil.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

typedef struct {
    const char *name;           /* the long name smgost reports */
    const char *short_name;
    const char *oid;
    const char *oid_der;        /* hex of the OID's content octets */
} GOST89_SET;

static const GOST89_SET gost89_sets[] = {
    { "id-Gost28147-89-TestParamSet", "Test", "1.2.643.2.2.31.0",
      "2a850302021f00" },
    { "id-Gost28147-89-CryptoPro-A-ParamSet", "CryptoPro-A",
      "1.2.643.2.2.31.1", "2a850302021f01" },
    { "id-Gost28147-89-CryptoPro-B-ParamSet", "CryptoPro-B",
      "1.2.643.2.2.31.2", "2a850302021f02" },
    { "id-Gost28147-89-CryptoPro-C-ParamSet", "CryptoPro-C",
      "1.2.643.2.2.31.3", "2a850302021f03" },
    { "id-Gost28147-89-CryptoPro-D-ParamSet", "CryptoPro-D",
      "1.2.643.2.2.31.4", "2a850302021f04" },
    { "id-tc26-gost-28147-param-Z", "Z", "1.2.643.7.1.2.5.1.1",
      "2a8503070102050101" },
};
#define GOST89_NSETS (sizeof(gost89_sets) / sizeof(gost89_sets[0]))

/* By any of its names or its OID; NULL if the tests do not know it. */
static inline const GOST89_SET *gost89_set(const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < GOST89_NSETS; i++)
        if (strcmp(name, gost89_sets[i].name) == 0
            || strcmp(name, gost89_sets[i].short_name) == 0
            || strcmp(name, gost89_sets[i].oid) == 0)
            return &gost89_sets[i];
    return NULL;
}

/* One of the three spellings the `paramset` parameter accepts. */
static inline const char *gost89_set_spelling(const GOST89_SET *s, unsigned which)
{
    switch (which % 3) {
    case 0:
        return s->name;
    case 1:
        return s->short_name;
    default:
        return s->oid;
    }
}

#define GOST89_ALG_ID_MAX 64

/*
 * RFC 4357 10.1: Gost28147-89-Parameters ::= SEQUENCE { iv OCTET STRING
 * (SIZE (8)), encryptionParamSet OBJECT IDENTIFIER }, DER.
 */
static inline size_t gost89_alg_id(const GOST89_SET *s, const unsigned char iv[8],
                                 unsigned char out[GOST89_ALG_ID_MAX])
{
    size_t oidlen = 0;
    unsigned char *oid = tu_unhex_or_die(s->oid_der, &oidlen);

    out[0] = 0x30;
    out[1] = (unsigned char)(2 + 8 + 2 + oidlen);
    out[2] = 0x04;
    out[3] = 0x08;
    memcpy(out + 4, iv, 8);
    out[12] = 0x06;
    out[13] = (unsigned char)oidlen;
    memcpy(out + 14, oid, oidlen);
    free(oid);
    return 14 + oidlen;
}

/*
 * A library context holding gost-engine's gostprov and the default
 * provider, from SMGOST_GOSTPROV; NULL (with the reason printed) if that is
 * unset or the module does not load.  gostprov's algorithms carry no
 * provider= property: fetch them with a NULL property query.
 */
static OSSL_PROVIDER *gost89_gostprov_provs[2];

/* Frees what gost89_gostprov_libctx() made. */
static inline void gost89_gostprov_libctx_free(OSSL_LIB_CTX *libctx)
{
    tu_unload_free(libctx, gost89_gostprov_provs);
}

static inline OSSL_LIB_CTX *gost89_gostprov_libctx(void)
{
    const char *dir = getenv("SMGOST_GOSTPROV");
    OSSL_LIB_CTX *libctx;

    if (dir == NULL || *dir == '\0') {
        printf("# SMGOST_GOSTPROV is empty: gostprov is not installed, or "
               "Configure left it out\n");
        return NULL;
    }
    if ((libctx = OSSL_LIB_CTX_new()) == NULL
        || !OSSL_PROVIDER_set_default_search_path(libctx, dir)
        || (gost89_gostprov_provs[0] = OSSL_PROVIDER_load(libctx, "gostprov"))
           == NULL
        || (gost89_gostprov_provs[1] = OSSL_PROVIDER_load(libctx, "default"))
           == NULL) {
        printf("# cannot load gostprov from %s\n", dir);
        ERR_print_errors_fp(stdout);
        gost89_gostprov_libctx_free(libctx);
        return NULL;
    }
    return libctx;
}

/* Prints the kernels smgost chose, so that a log tells which one ran. */
static inline void gost89_note_kernels(OSSL_LIB_CTX *libctx)
{
    OSSL_PROVIDER *prov = OSSL_PROVIDER_load(libctx, tu_target());
    const char *kernels = NULL;
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_utf8_ptr("kernels", (char **)&kernels, 0);
    p[1] = OSSL_PARAM_construct_end();
    if (prov != NULL && OSSL_PROVIDER_get_params(prov, p) && kernels != NULL)
        printf("# %s kernels: %s\n", tu_target(), kernels);
    ERR_clear_error();
    OSSL_PROVIDER_unload(prov);
}

#endif
