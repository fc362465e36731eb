/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 (GB/T 32905-2016): the compression kernels, the IV and the chaining
 * state that the digest table (providers/sm3_digest.c) keeps in a digest
 * context.  The portable compression function lives in src/sm3.c; assembly
 * kernels plug in through the family's list (src/sm3.c).
 */
#ifndef SMGOST_SM3_H
#define SMGOST_SM3_H

#include <stddef.h>
#include <stdint.h>

#define SM3_DIGEST_LENGTH 32
#define SM3_BLOCK_SIZE 64

/* Compresses nblocks consecutive 64-byte blocks into state. */
typedef void (*sm3_blocks_fn)(uint32_t state[8], const unsigned char *p,
                              size_t nblocks);

typedef struct sm3_kernel {
    const char *name;
    sm3_blocks_fn blocks;
} SM3_KERNEL;

/* SM3's chaining state in a digest context (smg_digest_state). */
typedef struct sm3_state {
    uint32_t h[8];
    sm3_blocks_fn blocks;           /* the kernel's, set at init */
} SM3_STATE;

extern const uint32_t sm3_iv[8];

/* The first table of sm3_kernel_family's list the CPU runs. */
const SM3_KERNEL *sm3_kernel(void);
extern const SM3_KERNEL sm3_kernel_c;

#endif
