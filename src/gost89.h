/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GOST 28147-89 and Magma (GOST R 34.12-2015 64-bit): parameter sets (the
 * S-boxes), key setup, CryptoPro key meshing, the IMIT MAC rounds and the
 * kernel tables that transform whole 8-byte blocks.  The portable kernel
 * lives in src/gost89.c; SIMD kernels (asm/gost89-*.pl) plug in through
 * gost_kernel().
 */
#ifndef SMGOST_GOST89_H
#define SMGOST_GOST89_H

#include "kernel.h"

#define GOST_BLOCK_SIZE 8
#define GOST_KEY_SIZE 32

/*
 * Every table a kernel needs for one parameter set, built once per set
 * (thread-safely, on first use) and never per key.
 */
typedef struct gost_sbox_tables {
    /*
     * t[j][b]: the pair of S-boxes of byte j applied to b, placed at byte
     * j of a word and rotated left by 11, so a round is four loads and
     * three XORs (the libgcrypt 2013 layout).
     */
    uint32_t t[4][256];
    /* Tables for SIMD kernels; layout documented at their builder. */
    unsigned char simd[320] __attribute__((aligned(64)));
#if defined(__x86_64__) && !defined(SMG_NO_ASM)
    /*
     * t[0] written twice, t0x[i] = t[0][i & 255]: the x86-64 scalar kernel
     * (asm/gost89-serial-x86_64.pl) indexes it with (n1 & 255) from
     * &t0x[k & 255], byte 0 of n1 + k without the addition.
     */
    uint32_t t0x[512] __attribute__((aligned(64)));
#endif
} GOST_SBOX_TABLES;

typedef struct gost_paramset {
    const char *name;          /* e.g. "id-Gost28147-89-CryptoPro-A-ParamSet" */
    const char *short_name;    /* e.g. "CryptoPro-A" */
    const char *oid;           /* dotted */
    /* sbox[i][x]: substitution of nibble i (i = 0 is the least significant). */
    unsigned char sbox[8][16];
} GOST_PARAMSET;

typedef struct gost_key {
    uint32_t rk[32];                   /* round keys in application order */
    const GOST_SBOX_TABLES *tab;
    uint32_t big_endian;               /* 1: Magma byte order, block and key */
} GOST_KEY;

/* Parameter sets, by position; NULL-terminated list for iteration. */
extern const GOST_PARAMSET *const gost_paramsets[];
extern const GOST_PARAMSET gost_paramset_test, gost_paramset_cpa,
    gost_paramset_cpb, gost_paramset_cpc, gost_paramset_cpd, gost_paramset_z;
/* By long name, short name or dotted OID; NULL if unknown. */
const GOST_PARAMSET *gost_paramset_lookup(const char *name);
/* Built on first use, shared, never freed before unload; NULL on failure. */
const GOST_SBOX_TABLES *gost_tables(const GOST_PARAMSET *ps);

/* Fills the encryption and decryption schedules; 0 on failure. */
int gost_set_key(const unsigned char key[GOST_KEY_SIZE],
                 const GOST_PARAMSET *ps, int big_endian,
                 GOST_KEY *enc, GOST_KEY *dec);
/* Switches both schedules to another parameter set, keeping the key. */
int gost_set_paramset(GOST_KEY *enc, GOST_KEY *dec, const GOST_PARAMSET *ps);
/*
 * CryptoPro key meshing (RFC 4357 2.3): K' = D_K(C), then iv = E_K'(iv),
 * both through k's ECB.  iv may be NULL (no IV to carry).
 */
void gost_key_mesh(const SMG_BLOCK_KERNEL *k, GOST_KEY *enc, GOST_KEY *dec,
                   unsigned char iv[8]);
/*
 * IMIT: the 16-round MAC transformation, folded over nblocks of in, in the
 * fastest implementation the CPU allows; with constant_time (the
 * provider's "constant-time = yes"), the fastest constant-time one if the
 * CPU has one.  gost_imit_blocks_c is the portable one.
 */
void gost_imit_blocks(int constant_time, const GOST_KEY *enc,
                      unsigned char state[8], const unsigned char *in,
                      size_t nblocks);
void gost_imit_blocks_c(const GOST_KEY *enc, unsigned char state[8],
                        const unsigned char *in, size_t nblocks);

/*
 * The fastest kernel the (masked) CPU allows; with constant_time (the
 * provider's "constant-time = yes"), the fastest whose every entry is
 * constant-time, if the CPU has one (the portable kernel is not).
 */
const SMG_BLOCK_KERNEL *gost_kernel(int constant_time);
extern const SMG_BLOCK_KERNEL gost_kernel_c;

#endif
