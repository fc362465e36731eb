/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 (GB/T 32907-2016): key schedule and the kernel tables that encrypt
 * whole blocks.  The portable kernel lives in src/sm4.c; assembly kernels
 * (asm/sm4-*.pl) plug in through the family's list (src/sm4.c).
 */
#ifndef SMGOST_SM4_H
#define SMGOST_SM4_H

#include "kernel.h"

#define SM4_BLOCK_SIZE 16
#define SM4_KEY_SIZE 16

/*
 * 32 round keys in the order a kernel applies them, then the constants
 * the gfni-avx512 cores fold them into (asm/sm4-gfni-avx512-x86_64.pl,
 * e_table; made with the schedules for the kernels that read them,
 * src/sm4.c): the word-sliced core's (ws) and the byte-sliced core's (bs,
 * every byte replicated over a dword).
 */
typedef struct sm4_key {
    uint32_t rk[32];
    uint32_t ws[36];
    uint32_t bs[36 * 4];    /* slot i at 4 i */
} SM4_KEY;

/*
 * Expands key into the encryption and the decryption schedule (none if dec
 * is NULL: the modes that only ever encrypt with the block cipher): the
 * portable schedule (S-box lookups by key bytes), for the C kernel.
 */
void sm4_set_key(const unsigned char key[SM4_KEY_SIZE], SM4_KEY *enc,
                 SM4_KEY *dec);
/*
 * The same schedules for kernel k: through the constant-time S-box of its
 * tier where it has one (every assembly tier on x86-64, sm4e on aarch64),
 * else sm4_set_key.  Unless e0 is NULL, also E_K(0^128) into it through k
 * (GCM's hash key).
 */
void sm4_set_key_kernel(const SMG_BLOCK_KERNEL *k,
                        const unsigned char key[SM4_KEY_SIZE], SM4_KEY *enc,
                        SM4_KEY *dec, unsigned char e0[16]);
/*
 * Whether k's entries read SM4_KEY.ws and bs: sm4_set_key makes them
 * always, sm4_set_key_kernel for such a k only (else they are left as they
 * were).
 */
int sm4_kernel_reads_tables(const SMG_BLOCK_KERNEL *k);
/* One block with the portable kernel (self-test, key-independent uses). */
void sm4_encrypt_block(const SM4_KEY *ks, const unsigned char in[16],
                       unsigned char out[16]);

/*
 * The block table of an SM4 core whose every entry is its own
 * sm4_<tier>_* function (the GFNI tiers on x86-64, both aarch64 cores),
 * beside its AEAD mode tables gcm, ccm and xts (pointers, NULL or not).
 */
#define SM4_CORE_BLOCK_TABLE(var, label, tier, gcm, ccm, xts)                \
    const SMG_BLOCK_KERNEL var = {                                           \
        label,                                                               \
        sm4_##tier##_ecb,                                                    \
        sm4_##tier##_cbc_enc,                                                \
        sm4_##tier##_cbc_dec,                                                \
        sm4_##tier##_cfb_enc,                                                \
        sm4_##tier##_cfb_dec,                                                \
        sm4_##tier##_ofb,                                                    \
        sm4_##tier##_ctr,                                                    \
        NULL,                                                                \
        gcm, ccm, xts,                                                       \
        NULL                                                                 \
    }

/*
 * The first table of sm4_kernel_family's list (src/kernel_list.h) that the
 * CPU runs; with constant_time, the first whose every entry is
 * constant-time, or the portable one.
 */
const SMG_BLOCK_KERNEL *sm4_kernel(int constant_time);
extern const SMG_BLOCK_KERNEL sm4_kernel_c;
/* The portable GCM table (C GHASH, composed GCM), which tables without a
 * GHASH of their own point to. */
extern const SMG_GCM_KERNEL sm4_gcm_c;

#endif
