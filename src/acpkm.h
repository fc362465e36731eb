/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parameters of the CTR-ACPKM ciphers of every family (Magma's in
 * providers/gost89_ciphers.c, Kuznyechik's in kuznyechik_ciphers.c), with
 * gostprov's names and meanings: `key-mesh`, the ACPKM section N in bytes
 * (R 1323565.1.017-2018), and the CMS parameters `alg_id_param` (OpenSSL
 * 3.4: `algorithm-id-params`), GOST2015_CIPHER_PARAMS ::= SEQUENCE { ukm
 * OCTET STRING }, ukm = IV || an 8-byte KDF seed, as gost-engine's
 * gost2015_set_asn1_params writes it.  The re-keying itself runs in the
 * block-mode layer, through the family's mesh hook and smg_acpkm_next_key
 * (modes.h).
 */
#ifndef SMGOST_ACPKM_H
#define SMGOST_ACPKM_H

#include <openssl/core_names.h>
#include <openssl/params.h>
#include "gost_params.h"
#include "modes.h"

#define SMG_ACPKM_SEED_LEN 8

/*
 * An algorithm's ACPKM constants: its default section, and the section CMS
 * implies, which gost-engine switches to whenever the CMS parameters are
 * written or read (8 KiB for Magma, 256 KiB for Kuznyechik).
 */
typedef struct smg_acpkm_alg {
    size_t section;
    size_t cms_section;
} SMG_ACPKM_ALG;

/* What a context keeps beside the layer's: the KDF seed of its ukm. */
typedef struct smg_acpkm {
    unsigned char seed[SMG_ACPKM_SEED_LEN];
    int seed_set;
} SMG_ACPKM;

/*
 * The ACPKM parameters of ctx; both raise what is wrong.  Getting the CMS
 * parameters draws the seed the first time (RAND_bytes) and, before the
 * message's first byte, switches the section to the CMS one, as
 * gost-engine does when CMS encrypts; setting them takes the IV and seed
 * and the CMS section.  key-mesh must be a non-zero multiple of the block,
 * and cannot change once a message has begun.
 */
int smg_acpkm_get_ctx_params(SMG_CIPHER_CTX *ctx, SMG_ACPKM *a,
                             const SMG_ACPKM_ALG *alg, OSSL_PARAM params[]);
int smg_acpkm_set_ctx_params(SMG_CIPHER_CTX *ctx, SMG_ACPKM *a,
                             const SMG_ACPKM_ALG *alg,
                             const OSSL_PARAM params[]);

#define SMG_ACPKM_CTX_PARAMS                                                 \
    OSSL_PARAM_size_t(SMG_GOST_PARAM_KEY_MESH, NULL),                        \
    OSSL_PARAM_octet_string(SMG_GOST_PARAM_ALG_ID, NULL, 0),                 \
    OSSL_PARAM_octet_string(SMG_GOST_PARAM_ALG_ID_PARAMS, NULL, 0)

extern const OSSL_PARAM smg_acpkm_gettable_ctx_params[];
extern const OSSL_PARAM smg_acpkm_settable_ctx_params[];

#endif
