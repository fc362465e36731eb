/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 (GB/T 32905-2016): streaming state and the compression kernels.
 * The portable compression function lives in src/sm3.c; assembly kernels
 * plug in through the family's list (src/sm3.c).
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

typedef struct sm3_ctx {
    uint32_t state[8];
    uint64_t nbytes;                 /* message length so far */
    unsigned char buf[SM3_BLOCK_SIZE];
    size_t buflen;
    sm3_blocks_fn blocks;
} SM3_CTX;

void sm3_init(SM3_CTX *c, const SM3_KERNEL *k);
void sm3_update(SM3_CTX *c, const unsigned char *p, size_t len);
void sm3_final(SM3_CTX *c, unsigned char md[SM3_DIGEST_LENGTH]);

/* The first table of sm3_kernel_family's list the CPU runs. */
const SM3_KERNEL *sm3_kernel(void);
extern const SM3_KERNEL sm3_kernel_c;

#endif
