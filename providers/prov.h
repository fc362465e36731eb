/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the provider entry (smgost_prov.c) needs from the algorithm files:
 * their dispatch tables and the load-time self-test.
 */
#ifndef SMGOST_PROV_H
#define SMGOST_PROV_H

#include <openssl/core_dispatch.h>

#define SMG_PROPS "provider=smgost"

/* providers/sm4_ciphers.c */
extern const OSSL_DISPATCH smg_sm4_ecb_functions[];
extern const OSSL_DISPATCH smg_sm4_cbc_functions[];
extern const OSSL_DISPATCH smg_sm4_ofb_functions[];
extern const OSSL_DISPATCH smg_sm4_cfb_functions[];
extern const OSSL_DISPATCH smg_sm4_ctr_functions[];
extern const OSSL_DISPATCH smg_sm4_gcm_functions[];
extern const OSSL_DISPATCH smg_sm4_ccm_functions[];
extern const OSSL_DISPATCH smg_sm4_xts_functions[];
/* providers/gost89_ciphers.c */
extern const OSSL_DISPATCH smg_gost89_functions[];
extern const OSSL_DISPATCH smg_gost89_cnt_functions[];
extern const OSSL_DISPATCH smg_gost89_cnt_12_functions[];
extern const OSSL_DISPATCH smg_gost89_cbc_functions[];
extern const OSSL_DISPATCH smg_gost89_ecb_functions[];
extern const OSSL_DISPATCH smg_magma_ecb_functions[];
extern const OSSL_DISPATCH smg_magma_cbc_functions[];
extern const OSSL_DISPATCH smg_magma_ctr_functions[];
extern const OSSL_DISPATCH smg_magma_ofb_functions[];
extern const OSSL_DISPATCH smg_magma_cfb_functions[];
extern const OSSL_DISPATCH smg_magma_ctr_acpkm_functions[];
extern const OSSL_DISPATCH smg_magma_mgm_functions[];
extern const OSSL_DISPATCH smg_magma_ctr_acpkm_omac_cipher_functions[];
/* providers/kuznyechik_ciphers.c */
extern const OSSL_DISPATCH smg_kuznyechik_ecb_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_cbc_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_cfb_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_ofb_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_ctr_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_ctr_acpkm_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_mgm_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_ctr_acpkm_omac_cipher_functions[];
/*
 * The `paramset` parameter of the GOST ciphers and MACs: a set's name or
 * OID; raises and returns 0, leaving *ps as it was, for anything else.
 */
#define GOST89_PARAM_PARAMSET "paramset"
struct gost89_paramset;
int smg_gost89_paramset_param(void *provctx, const OSSL_PARAM *p,
                            const struct gost89_paramset **ps);
/* providers/gost89_mac.c */
extern const OSSL_DISPATCH smg_gost89_mac_functions[];
extern const OSSL_DISPATCH smg_gost89_mac_12_functions[];
/* providers/omac_macs.c */
extern const OSSL_DISPATCH smg_magma_mac_functions[];
extern const OSSL_DISPATCH smg_magma_ctr_acpkm_omac_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_mac_functions[];
extern const OSSL_DISPATCH smg_kuznyechik_ctr_acpkm_omac_functions[];
/* ... and the OMACs themselves, for the CTR-ACPKM-OMAC ciphers */
struct smg_mac;
extern const struct smg_mac smg_magma_omac, smg_kuznyechik_omac;
/* providers/sm3_digest.c: the entries, and the table the self-test runs */
extern const OSSL_DISPATCH smg_sm3_functions[];
struct smg_digest;
extern const struct smg_digest smg_sm3_digest;
/* providers/streebog_digest.c: md_gost12_256 and md_gost12_512 */
extern const OSSL_DISPATCH smg_streebog256_functions[];
extern const OSSL_DISPATCH smg_streebog512_functions[];
extern const struct smg_digest smg_streebog256_digest, smg_streebog512_digest;
/* providers/gost94_digest.c: the same for md_gost94 */
extern const OSSL_DISPATCH smg_md_gost94_functions[];
extern const struct smg_digest smg_gost94_digest;

/* providers/selftest.c: known answers of every algorithm through the
 * kernels an instance with this constant-time setting uses; 1 if all pass,
 * else 0 with the name of the first failure in *what. */
int smg_self_test(int constant_time, const char **what);
/* providers/smgost_prov.c: the instance's "constant-time" setting. */
int smg_prov_constant_time(const void *provctx);

#endif
