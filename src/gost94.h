/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GOST R 34.11-94 (RFC 5831): the hash's parameter sets (the S-boxes of its
 * GOST 28147-89 encryptions), the step function, the 256-bit control sum
 * and the finishing rule, over a kernel that runs the step's four
 * encryptions under four keys at once (src/gost94.c; the x86-64 entries in
 * asm/gost89-x86_64.pl).  The digest table (providers/gost94_digest.c)
 * keeps GOST94_STATE in a digest context.
 */
#ifndef SMGOST_GOST94_H
#define SMGOST_GOST94_H

#include <stddef.h>
#include <stdint.h>
#include "gost89.h"

#define GOST94_DIGEST_LENGTH 32
#define GOST94_BLOCK_SIZE 32

/*
 * out[i] = E_{K_i}(in[i]), i = 0..3: GOST 28147-89 encryption of four
 * blocks, each under its own key, through tab's S-boxes.  Blocks as the
 * GOST 28147-89 kernels keep them (n1 the low half of the little-endian
 * word); kw[j][i] is word j of key i (the key's bytes 4j..4j+3,
 * little-endian).
 */
typedef void (*gost94_encrypt4_fn)(const GOST89_SBOX_TABLES *tab,
                                   const uint32_t kw[8][4],
                                   const uint64_t in[4], uint64_t out[4]);

typedef struct gost94_kernel {
    const char *name;
    gost94_encrypt4_fn encrypt4;
    uint32_t caps;                   /* SMG_CAP_* bits the CPU must have */
    int constant_time;               /* no secret-indexed access */
} GOST94_KERNEL;

/* The hash's chaining state in a digest context (smg_digest_state). */
typedef struct gost94_state {
    uint64_t h[4];                   /* H, little-endian 64-bit words */
    uint64_t sigma[4];               /* the message's sum mod 2^256 */
    const GOST89_SBOX_TABLES *tab;
    gost94_encrypt4_fn encrypt4;
} GOST94_STATE;

/*
 * The hash's parameter sets: "id-GostR3411-94-CryptoProParamSet"
 * (1.2.643.2.2.30.1, RFC 4357 section 11.2), md_gost94's, and
 * "id-GostR3411-94-TestParamSet" (1.2.643.2.2.30.0), RFC 5831's examples.
 */
extern const GOST89_PARAMSET gost94_paramset_cryptopro, gost94_paramset_test;
/*
 * Their tables, built on first use (thread-safely), shared; NULL on
 * failure or for another set.
 */
const GOST89_SBOX_TABLES *gost94_tables(const GOST89_PARAMSET *ps);

/*
 * The kernel that runs beside the GOST 28147-89 table k (the family's
 * choice, src/kernel_list.h): its vector code where k is a vector table,
 * the portable interleaved rounds otherwise.
 */
const GOST94_KERNEL *gost94_kernel(const SMG_BLOCK_KERNEL *k);
/* Every kernel of this build, NULL-terminated, for the tests. */
extern const GOST94_KERNEL *const gost94_kernels[];
extern const GOST94_KERNEL gost94_kernel_c;

/* H = 0, Sigma = 0, over tab and k. */
void gost94_init(GOST94_STATE *s, const GOST89_SBOX_TABLES *tab,
                 const GOST94_KERNEL *k);
/* Folds nblocks 32-byte message blocks into H and Sigma. */
void gost94_blocks(GOST94_STATE *s, const unsigned char *in, size_t nblocks);
/*
 * The finishing rule (RFC 5831 section 7.2): the last len (< 32) bytes at
 * buf zero-padded and folded, if any; then H = f(H, L), L the message's
 * length in bits (nbytes * 8), and H = f(H, Sigma); the digest, H's bytes
 * least significant first.  buf is overwritten.
 */
void gost94_final(GOST94_STATE *s, unsigned char *buf, size_t len,
                  uint64_t nbytes, unsigned char out[GOST94_DIGEST_LENGTH]);

#endif
