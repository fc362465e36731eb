/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Streebog (GOST R 34.11-2012, RFC 6986): the chaining state the digest
 * tables (providers/streebog_digest.c) keep in a digest context, the kernel
 * interface every implementation of the compression function g_N offers,
 * and the family's choice.  The portable kernels and the family's list live
 * in src/streebog.c; assembly kernels plug into that list.
 */
#ifndef SMGOST_STREEBOG_H
#define SMGOST_STREEBOG_H

#include <stddef.h>
#include <stdint.h>

#define STREEBOG_BLOCK_SIZE 64
#define STREEBOG256_DIGEST_LENGTH 32
#define STREEBOG512_DIGEST_LENGTH 64

/*
 * 512-bit vectors as 8 little-endian 64-bit words, word 0 the least
 * significant: a 64-byte message block in memory is already that vector on
 * a little-endian machine (RFC 6986 prints its messages and digests
 * byte-reversed against this order).
 */
typedef struct streebog_chain {
    uint64_t h[8];
    uint64_t N[8];
    uint64_t Sigma[8];
} STREEBOG_CHAIN;

/*
 * For each of nblocks 64-byte blocks m at in: h = g_N(h, m); N += 512;
 * Sigma += m (mod 2^512).
 */
typedef void (*streebog_blocks_fn)(STREEBOG_CHAIN *c, const unsigned char *in,
                                   size_t nblocks);
/*
 * h = g_N(h, m) once: the finishing steps (N the length counter, then the
 * zero vector).
 */
typedef void (*streebog_g_fn)(uint64_t h[8], const uint64_t N[8],
                              const unsigned char m[64]);

typedef struct streebog_kernel {
    /* "streebog-c", "streebog-c-ct", "streebog-gfni-avx512", ... */
    const char *name;
    streebog_blocks_fn blocks;
    streebog_g_fn g;
} STREEBOG_KERNEL;

/*
 * Streebog's state in a digest context (smg_digest_state), for the digest
 * tables of providers/streebog_digest.c.
 */
typedef struct streebog_state {
    STREEBOG_CHAIN chain;
    const STREEBOG_KERNEL *kernel;  /* the one chosen at init */
} STREEBOG_STATE;

/* The portable kernels: tables (not constant-time) and bit-sliced. */
extern const STREEBOG_KERNEL streebog_kernel_c;
extern const STREEBOG_KERNEL streebog_kernel_c_ct;

/*
 * The first table of streebog_kernel_family's list the CPU runs (with
 * constant_time, the first constant-time one).
 */
const STREEBOG_KERNEL *streebog_kernel(int constant_time);

/* a += b (mod 2^512), without branches on either. */
void streebog_add512(uint64_t a[8], const uint64_t b[8]);

#endif
