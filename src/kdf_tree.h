/* SPDX-License-Identifier: Apache-2.0 */
/*
 * KDF_TREE_GOSTR3411_2012_256 (R 1323565.1.022-2018, 5.2.1; RFC 7836
 * 4.5): K(i) = HMAC_GOSTR3411_2012_256(K_in, [i]_b || label || 0x00 ||
 * seed || [L]_b), the counter i in R bytes big-endian from 1, L the
 * output's length in bits big-endian in as few bytes as it needs (as
 * gost-engine's gost_kdftree2012_256 writes it); HMAC (RFC 2104) over the
 * digest layer's Streebog-256.  Used by the CTR-ACPKM-OMAC ciphers
 * (src/ctr_acpkm_omac.c) to derive their two keys.
 */
#ifndef SMGOST_KDF_TREE_H
#define SMGOST_KDF_TREE_H

#include <stddef.h>

#define SMG_KDF_TREE_BLOCK 32   /* one HMAC output */

/*
 * outlen (a multiple of SMG_KDF_TREE_BLOCK) bytes from key (at most 64
 * bytes), R = r bytes of counter (1 to 4), over the Streebog kernel table
 * kernel (src/streebog.h).
 */
void smg_kdf_tree_256(const void *kernel, const unsigned char *key,
                      size_t keylen, const unsigned char *label,
                      size_t labellen, const unsigned char *seed,
                      size_t seedlen, size_t r, unsigned char *out,
                      size_t outlen);

#endif
