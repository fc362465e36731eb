/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OMAC MACs of GOST R 34.13-2015 and the OMAC-ACPKM MACs of
 * R 1323565.1.017-2018, with gostprov's names, sizes and parameters:
 *   magma-mac                      OMAC over Magma, 8 bytes (`size` 1..8)
 *   magma-ctr-acpkm-omac           OMAC-ACPKM over Magma,
 *                                  1.2.643.7.1.1.5.1.2
 *   kuznyechik-mac                 OMAC over Kuznyechik, 16 bytes
 *   kuznyechik-ctr-acpkm-omac      OMAC-ACPKM over Kuznyechik,
 *                                  1.2.643.7.1.1.5.2.2
 * each over the kernel the family's ciphers use (src/mac_omac.c has the
 * constructions).  The two OMACs also make the tags of the CTR-ACPKM-OMAC
 * ciphers (src/ctr_acpkm_omac.h).  N (`key-mesh`) is 4096 bytes by default
 * for both families, T (`cipher-key-mesh`) the family's CTR-ACPKM
 * section, as in gostprov.
 */
#include "gost89.h"
#include "kuznyechik.h"
#include "mac.h"
#include "modes.h"
#include "prov.h"

static const SMG_BLOCK_KERNEL *magma_kernel(const void *provctx)
{
    return gost89_kernel(smg_prov_constant_time(provctx));
}

/* Magma's encryption schedule (the decryption one is not needed). */
static int magma_set_key(const SMG_BLOCK_KERNEL *k, void *ks,
                         const unsigned char *key)
{
    GOST89_KEY dec;

    (void)k;
    int ok = gost89_set_key(key, &gost89_paramset_z, 1, ks, &dec);

    OPENSSL_cleanse(&dec, sizeof(dec));
    return ok;
}

_Static_assert(sizeof(GOST89_KEY) <= SMG_KS_MAX, "Magma's schedule fits");

static const SMG_MAC_CIPHER magma_cipher = {
    GOST89_BLOCK_SIZE, magma_kernel, magma_set_key, 4096, 1024
};

const SMG_MAC smg_magma_omac = {
    &smg_omac_ops, GOST89_BLOCK_SIZE, GOST89_KEY_SIZE, GOST89_BLOCK_SIZE,
    &magma_cipher
};

static const SMG_MAC magma_acpkm_omac = {
    &smg_omac_acpkm_ops, GOST89_BLOCK_SIZE, GOST89_KEY_SIZE,
    GOST89_BLOCK_SIZE, &magma_cipher
};

static const SMG_BLOCK_KERNEL *kuznyechik_mac_kernel(const void *provctx)
{
    return kuznyechik_kernel(smg_prov_constant_time(provctx));
}

/* OMAC only encrypts: no decryption schedule is made. */
static int kuznyechik_mac_set_key(const SMG_BLOCK_KERNEL *k, void *ks,
                                  const unsigned char *key)
{
    return kuznyechik_set_key_kernel(k, key, ks, NULL);
}

_Static_assert(sizeof(KUZNYECHIK_KEY) <= SMG_KS_MAX,
               "Kuznyechik's schedule fits");

/* gostprov's N (4096) and T, kuznyechik-ctr-acpkm's section (4096). */
static const SMG_MAC_CIPHER kuznyechik_cipher = {
    KUZNYECHIK_BLOCK_SIZE, kuznyechik_mac_kernel, kuznyechik_mac_set_key,
    4096, 4096
};

const SMG_MAC smg_kuznyechik_omac = {
    &smg_omac_ops, KUZNYECHIK_BLOCK_SIZE, KUZNYECHIK_KEY_SIZE,
    KUZNYECHIK_BLOCK_SIZE, &kuznyechik_cipher
};

static const SMG_MAC kuznyechik_acpkm_omac = {
    &smg_omac_acpkm_ops, KUZNYECHIK_BLOCK_SIZE, KUZNYECHIK_KEY_SIZE,
    KUZNYECHIK_BLOCK_SIZE, &kuznyechik_cipher
};

SMG_MAC_FUNCTIONS(magma_mac, smg_magma_omac);
SMG_MAC_FUNCTIONS(magma_ctr_acpkm_omac, magma_acpkm_omac);
SMG_MAC_FUNCTIONS(kuznyechik_mac, smg_kuznyechik_omac);
SMG_MAC_FUNCTIONS(kuznyechik_ctr_acpkm_omac, kuznyechik_acpkm_omac);
