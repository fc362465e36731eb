/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one way a family's headers (src/sm4_x86.h, sm4_arm.h, gost89_x86.h,
 * gost89_arm.h) declare the block-mode entry points of an assembly tier:
 * every entry is named <alg>_<tier>_<mode> (sm4_gfni_avx512_ctr,
 * gost89_neon_cnt) and has src/kernel.h's signature for its slot,
 * smg_ecb_fn for ECB and smg_chain_fn for the others.
 */
#ifndef SMGOST_KERNEL_DECL_H
#define SMGOST_KERNEL_DECL_H

#include <stddef.h>

/* <alg>_<tier>_ecb, an smg_ecb_fn. */
#define SMG_DECLARE_ECB(alg, tier)                                           \
    void alg##_##tier##_ecb(const void *ks, const unsigned char *in,        \
                            unsigned char *out, size_t nblocks);
/* <alg>_<tier>_<mode>, an smg_chain_fn (cbc_enc, cbc_dec, cfb_enc, cfb_dec,
 * ofb, ctr, cnt). */
#define SMG_DECLARE_CHAIN(alg, tier, mode)                                   \
    void alg##_##tier##_##mode(const void *ks, const unsigned char *in,     \
                               unsigned char *out, size_t nblocks,          \
                               unsigned char *iv);

/* The modes whose blocks are independent: ECB, CTR, CBC and CFB
 * decryption ... */
#define SMG_DECLARE_PARALLEL_ENTRIES(alg, tier)                              \
    SMG_DECLARE_ECB(alg, tier)                                              \
    SMG_DECLARE_CHAIN(alg, tier, ctr)                                       \
    SMG_DECLARE_CHAIN(alg, tier, cbc_dec)                                   \
    SMG_DECLARE_CHAIN(alg, tier, cfb_dec)
/* ... the serial ones: CBC and CFB encryption, OFB ... */
#define SMG_DECLARE_SERIAL_ENTRIES(alg, tier)                                \
    SMG_DECLARE_CHAIN(alg, tier, cbc_enc)                                   \
    SMG_DECLARE_CHAIN(alg, tier, cfb_enc)                                   \
    SMG_DECLARE_CHAIN(alg, tier, ofb)
/* ... and both, a tier with every block mode in assembly. */
#define SMG_DECLARE_BLOCK_KERNEL_ENTRIES(alg, tier)                          \
    SMG_DECLARE_PARALLEL_ENTRIES(alg, tier)                                 \
    SMG_DECLARE_SERIAL_ENTRIES(alg, tier)

#endif
