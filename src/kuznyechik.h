/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kuznyechik (GOST R 34.12-2015 128-bit, RFC 7801): the key schedule and the
 * kernel tables that transform whole 16-byte blocks.  The portable kernels
 * (table C, constant-time C) live in src/kuznyechik.c with the family's
 * list; assembly kernels plug in through that list (src/kuznyechik_x86.c,
 * src/kuznyechik_arm.c).
 */
#ifndef SMGOST_KUZNYECHIK_H
#define SMGOST_KUZNYECHIK_H

#include "kernel.h"

#define KUZNYECHIK_BLOCK_SIZE 16
#define KUZNYECHIK_KEY_SIZE 32

/*
 * The key schedule every Kuznyechik kernel takes as ks (src/kernel.h).
 * Both ctx->ks_enc and ctx->ks_dec start with the same ten round keys
 * K_1..K_10 (GOST R 34.12-2015 5.4), each in the block's memory order:
 * memory byte 0 is a_15, the first byte printed in RFC 7801 (a program
 * reads the RFC's hex as bytes in the printed order).  decrypt (0 or 1)
 * says which way "ecb" goes (src/kernel.h: ecb both encrypts and decrypts
 * by the schedule given); vector kernels read only rk and decrypt;
 * the table C kernel's own decryption schedule follows.
 */
typedef struct kuznyechik_key {
    unsigned char rk[10][16];
    uint32_t decrypt;
    /*
     * The table C kernel's decryption schedule (decrypt = 1 only):
     * K_1, then L^-1(K_2) .. L^-1(K_10), so that the inverse rounds are
     * the table lookups of L^-1 S^-1 followed by a key XOR.
     */
    unsigned char drk[10][16] __attribute__((aligned(16)));
} KUZNYECHIK_KEY;

/*
 * Expands key into the encryption schedule and, unless dec is NULL (all
 * but ECB and CBC decryption: CTR, OFB, CFB, CBC encryption and OMAC only
 * ever encrypt with the block cipher), the decryption one, for kernel k: through the table
 * round (secret-indexed loads) for kuznyechik_kernel_c, through the x86-64
 * tiers' one-block cores for theirs (src/kuznyechik_x86.c), through the
 * constant-time C round for every other table.  0 if the tables it is
 * derived through could not be built.
 */
int kuznyechik_set_key_kernel(const SMG_BLOCK_KERNEL *k,
                               const unsigned char key[KUZNYECHIK_KEY_SIZE],
                               KUZNYECHIK_KEY *enc, KUZNYECHIK_KEY *dec);
/*
 * The decryption schedule from the encryption one (its round keys; the
 * table kernel's L^-1(K_i) computed in constant time): for a context that
 * encrypted and decrypts now under the same key.
 */
void kuznyechik_decryption_schedule(const KUZNYECHIK_KEY *enc,
                                    KUZNYECHIK_KEY *dec);
/* One block with the constant-time portable kernel (self-test). */
void kuznyechik_encrypt_block(const KUZNYECHIK_KEY *ks,
                              const unsigned char in[16],
                              unsigned char out[16]);

/*
 * The first table of kuznyechik_kernel_family's list (src/kernel_list.h)
 * that the CPU runs; with constant_time (the provider's "constant-time =
 * yes"), the first whose every entry is constant-time (the portable
 * kuznyechik_kernel_ct at worst).
 */
const SMG_BLOCK_KERNEL *kuznyechik_kernel(int constant_time);
/* The table kernel (not constant-time) and the constant-time one. */
extern const SMG_BLOCK_KERNEL kuznyechik_kernel_c, kuznyechik_kernel_ct;

#endif
