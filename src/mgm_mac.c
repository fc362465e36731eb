/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MGM's multiply-accumulate (src/kernel.h's SMG_MGM_KERNEL): the portable
 * kernel, the assembly tables (asm/mgm-x86_64.pl, asm/mgm-armv8.pl) and
 * the family's list (src/kernel_list.h), chosen by the CPU's capabilities
 * alone.
 *
 * The portable kernel is constant-time: each 64x64-bit carry-less product
 * is src/clmul.h's integer-multiply form, the operand split made from H_i
 * (each block has its own) by masks and shifts; no branch and no address
 * depends on H or the data.  A block of GF(2^128) is three such products
 * (Karatsuba), one of GF(2^64) one; the unreduced products of a call are
 * summed and reduced once, by shifts, in the natural bit order (RFC 9058:
 * the coefficient of x^j is the big-endian integer's bit j):
 *   GF(2^128): x^128 = x^7 + x^2 + x + 1, the 256-bit sum's top 64-bit
 *              word folded into the two below it, then the next one;
 *   GF(2^64):  x^64 = x^4 + x^3 + x + 1, the high word folded twice (its
 *              top bits come back as at most four more bits).
 */
#include <stdio.h>

#include "byteorder.h"
#include "clmul.h"
#include "kernel_list.h"
#include "mgm_mac.h"

/* w * (x^7 + x^2 + x + 1), the 71-bit product as *hi:return. */
static inline uint64_t mul87(uint64_t w, uint64_t *hi)
{
    *hi = w >> 63 ^ w >> 62 ^ w >> 57;
    return w ^ w << 1 ^ w << 2 ^ w << 7;
}

/* w * (x^4 + x^3 + x + 1), the 68-bit product as *hi:return. */
static inline uint64_t mul1b(uint64_t w, uint64_t *hi)
{
    *hi = w >> 63 ^ w >> 61 ^ w >> 60;
    return w ^ w << 1 ^ w << 3 ^ w << 4;
}

void smg_mgm_c_mac128(unsigned char *sum, const unsigned char *h,
                      const unsigned char *x, size_t nblocks)
{
    uint64_t z3 = 0, z2 = 0, z1 = 0, z0 = 0, a1, a0, b1, b0, c1, c0, x1, x0;
    uint64_t t;
    smg_clmul_operand oh, ol, om;

    for (; nblocks > 0; nblocks--, h += 16, x += 16) {
        smg_clmul_operand_init(&oh, load_be64(h));
        smg_clmul_operand_init(&ol, load_be64(h + 8));
        smg_clmul_operand_init(&om, load_be64(h) ^ load_be64(h + 8));
        x1 = load_be64(x);
        x0 = load_be64(x + 8);
        smg_clmul64(x1, &oh, &a1, &a0);
        smg_clmul64(x0, &ol, &b1, &b0);
        smg_clmul64(x1 ^ x0, &om, &c1, &c0);
        c1 ^= a1 ^ b1;
        c0 ^= a0 ^ b0;
        z3 ^= a1;
        z2 ^= a0 ^ c1;
        z1 ^= b1 ^ c0;
        z0 ^= b0;
    }
    /* z3 x^192 = z3 (x^7 + x^2 + x + 1) x^64, then z2 x^128 likewise */
    z1 ^= mul87(z3, &t);
    z2 ^= t;
    z0 ^= mul87(z2, &t);
    z1 ^= t;
    store_be64(sum, load_be64(sum) ^ z1);
    store_be64(sum + 8, load_be64(sum + 8) ^ z0);
    oh = ol = om = (smg_clmul_operand){ { 0 }, { 0 } };
}

void smg_mgm_c_mac64(unsigned char *sum, const unsigned char *h,
                     const unsigned char *x, size_t nblocks)
{
    uint64_t z1 = 0, z0 = 0, p1, p0, t;
    smg_clmul_operand o;

    for (; nblocks > 0; nblocks--, h += 8, x += 8) {
        smg_clmul_operand_init(&o, load_be64(h));
        smg_clmul64(load_be64(x), &o, &p1, &p0);
        z1 ^= p1;
        z0 ^= p0;
    }
    /* z1 x^64 = z1 (x^4 + x^3 + x + 1): at most 67 bits, the top 3 once
     * more */
    z0 ^= mul1b(z1, &t);
    z0 ^= mul1b(t, &t);
    store_be64(sum, load_be64(sum) ^ z0);
    o = (smg_clmul_operand){ { 0 }, { 0 } };
}

const SMG_MGM_KERNEL smg_mgm_kernel_c = {
    "mgm-c", smg_mgm_c_mac128, smg_mgm_c_mac64
};

#ifdef SMG_MGM_X86_ASM
const SMG_MGM_KERNEL smg_mgm_kernel_vpclmul_avx512 = {
    "vpclmul-avx512", smg_mgm_vpclmul_avx512_mac128,
    smg_mgm_vpclmul_avx512_mac64
};

const SMG_MGM_KERNEL smg_mgm_kernel_clmul_avx = {
    "clmul-avx", smg_mgm_clmul_avx_mac128, smg_mgm_clmul_avx_mac64
};
#endif

#ifdef SMG_MGM_ARM_ASM
const SMG_MGM_KERNEL smg_mgm_kernel_pmull = {
    "pmull", smg_mgm_pmull_mac128, smg_mgm_pmull_mac64
};
#endif

/* Widest first; every table is constant-time. */
static const SMG_KERNEL_ENTRY mgm_kernels[] = {
#ifdef SMG_MGM_X86_ASM
    { &smg_mgm_kernel_vpclmul_avx512, SMG_CAPS_MGM_ZMM, SMG_KERNEL_CT, NULL },
    { &smg_mgm_kernel_clmul_avx, SMG_CAPS_MGM_XMM, SMG_KERNEL_CT, NULL },
#endif
#ifdef SMG_MGM_ARM_ASM
    { &smg_mgm_kernel_pmull, SMG_CAPS_MGM_PMULL, SMG_KERNEL_CT, NULL },
#endif
    { &smg_mgm_kernel_c, 0, SMG_KERNEL_CT, NULL },
};

static void mgm_describe(const void *table, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ((const SMG_MGM_KERNEL *)table)->name);
}

const SMG_KERNEL_FAMILY mgm_kernel_family = {
    "mgm", mgm_kernels, sizeof(mgm_kernels) / sizeof(mgm_kernels[0]),
    mgm_describe, NULL
};

const SMG_MGM_KERNEL *smg_mgm_kernel(int constant_time)
{
    return smg_kernel_choose(&mgm_kernel_family, constant_time);
}
