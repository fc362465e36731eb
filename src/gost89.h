/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GOST 28147-89 and Magma (GOST R 34.12-2015 64-bit): parameter sets (the
 * S-boxes), key setup, CryptoPro key meshing, the IMIT MAC rounds and the
 * kernel tables that transform whole 8-byte blocks.  The portable kernel
 * lives in src/gost89.c; SIMD kernels (asm/gost89-*.pl) plug in through
 * the family's list there.
 */
#ifndef SMGOST_GOST89_H
#define SMGOST_GOST89_H

#include "kernel.h"

#define GOST89_BLOCK_SIZE 8
#define GOST89_KEY_SIZE 32

/*
 * Every table a kernel needs for one parameter set, built once per set
 * (thread-safely, on first use) and never per key.
 */
typedef struct gost89_sbox_tables {
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
} GOST89_SBOX_TABLES;

typedef struct gost89_paramset {
    const char *name;          /* e.g. "id-Gost28147-89-CryptoPro-A-ParamSet" */
    const char *short_name;    /* e.g. "CryptoPro-A" */
    const char *oid;           /* dotted */
    /* sbox[i][x]: substitution of nibble i (i = 0 is the least significant). */
    unsigned char sbox[8][16];
} GOST89_PARAMSET;

typedef struct gost89_key {
    uint32_t rk[32];                   /* round keys in application order */
    const GOST89_SBOX_TABLES *tab;
    uint32_t big_endian;               /* 1: Magma byte order, block and key */
} GOST89_KEY;

/* Parameter sets, by position; NULL-terminated list for iteration. */
extern const GOST89_PARAMSET *const gost89_paramsets[];
extern const GOST89_PARAMSET gost89_paramset_test, gost89_paramset_cpa,
    gost89_paramset_cpb, gost89_paramset_cpc, gost89_paramset_cpd, gost89_paramset_z;
/* By long name, short name or dotted OID; NULL if unknown. */
const GOST89_PARAMSET *gost89_paramset_lookup(const char *name);
/* Built on first use, shared, never freed before unload; NULL on failure. */
const GOST89_SBOX_TABLES *gost89_tables(const GOST89_PARAMSET *ps);
/*
 * Fills tab for every kernel from the S-boxes of ps: for a parameter set
 * outside gost89_paramsets (GOST R 34.11-94's hash sets, src/gost94.c).
 */
void gost89_build_tables(GOST89_SBOX_TABLES *tab, const GOST89_PARAMSET *ps);

/* Fills the encryption and decryption schedules; 0 on failure. */
int gost89_set_key(const unsigned char key[GOST89_KEY_SIZE],
                 const GOST89_PARAMSET *ps, int big_endian,
                 GOST89_KEY *enc, GOST89_KEY *dec);
/* Switches both schedules to another parameter set, keeping the key. */
int gost89_set_paramset(GOST89_KEY *enc, GOST89_KEY *dec, const GOST89_PARAMSET *ps);
/*
 * CryptoPro key meshing (RFC 4357 2.3): K' = D_K(C), then iv = E_K'(iv),
 * both through k's ECB.  iv may be NULL (no IV to carry).
 */
void gost89_key_mesh(const SMG_BLOCK_KERNEL *k, GOST89_KEY *enc, GOST89_KEY *dec,
                   unsigned char iv[8]);
/*
 * CryptoPro meshing one period ahead, for the kernels that can run the
 * next period's meshing beside the current period's blocks (the AVX-512
 * one: a lone meshing pass waits out the rounds' latency twice, two thirds
 * of a period's time): while period i runs under K_i, K_{i+1} is known,
 * and D_{K_{i+1}}(C) = K_{i+2} and E_{K_{i+1}}(iv at the boundary) ride
 * along.  Secret; cleansed with the context.
 */
typedef struct gost89_side {
    const GOST89_KEY *enc, *dec;         /* the side key's schedules */
    unsigned char in[40], out[40];     /* 4 blocks under dec, 1 under enc */
} GOST89_SIDE;

typedef struct gost89_mesh_ahead {
    GOST89_KEY next[2], next2[2];        /* K_{i+1}, K_{i+2}: enc, dec */
    unsigned char next_iv[8];          /* E_{K_{i+1}}(iv at the boundary) */
    int next_ok, next2_ok, iv_ok;
} GOST89_MESH_AHEAD;

/* Forgets what was prepared (new key, restored key, new S-boxes). */
void gost89_mesh_ahead_reset(GOST89_MESH_AHEAD *a);
/*
 * Forgets what was prepared for the stream's position, the IV at the
 * boundary, and keeps the keys: a re-init before the first meshing, whose
 * new stream meshes to the same keys at IVs of its own.
 */
void gost89_mesh_ahead_rewind(GOST89_MESH_AHEAD *a);
/*
 * The nblocks (a multiple of 64) of one whole period of CNT (cnt) or CFB
 * decryption under enc from its start, through k with the next meshing
 * alongside; 0 (nothing done) if k cannot.  iv as the kernel entries.
 */
int gost89_period_ahead(const SMG_BLOCK_KERNEL *k, int cnt, GOST89_MESH_AHEAD *a,
                      GOST89_KEY *enc, GOST89_KEY *dec, const unsigned char *in,
                      unsigned char *out, size_t nblocks, unsigned char *iv);
/* gost89_key_mesh, taking what gost89_period_ahead prepared where it did. */
void gost89_key_mesh_ahead(const SMG_BLOCK_KERNEL *k, GOST89_MESH_AHEAD *a,
                         GOST89_KEY *enc, GOST89_KEY *dec, unsigned char iv[8]);

/*
 * IMIT: the 16-round MAC transformation, folded over nblocks of in, in the
 * fastest implementation the CPU allows; with constant_time (the
 * provider's "constant-time = yes"), the fastest constant-time one if the
 * CPU has one.  gost89_c_imit is the portable one.
 */
void gost89_imit_blocks(int constant_time, const GOST89_KEY *enc,
                      unsigned char state[8], const unsigned char *in,
                      size_t nblocks);
void gost89_c_imit(const GOST89_KEY *enc, unsigned char state[8],
                   const unsigned char *in, size_t nblocks);

/*
 * The first table of gost89_kernel_family's list (src/kernel_list.h) that
 * the (masked) CPU runs; with constant_time (the provider's "constant-time =
 * yes"), the first whose every entry is constant-time, if the CPU has one
 * (the portable kernel is not).
 */
const SMG_BLOCK_KERNEL *gost89_kernel(int constant_time);
extern const SMG_BLOCK_KERNEL gost89_kernel_c;

#endif
