/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Portable GHASH (NIST SP 800-38D, section 6.4), the ghash_init/ghash pair
 * of the GCM kernel tables without their own (SMG_GCM_KERNEL,
 * src/kernel.h).  Constant-time: no table is indexed by H or by the data
 * and no branch depends on them.
 *
 * Multiplication in GF(2^128) is a 256-bit carry-less product (Karatsuba
 * over three 64x64-bit ones, src/clmul.h's constant-time integer-multiply
 * form) followed by a reduction.  H's three operands are split once per
 * key, so a block costs 48 multiplications.
 *
 * Bit order: a block loaded as a big-endian 128-bit integer holds the
 * coefficient of x^i at bit 127 - i (SP 800-38D's order, reflected), so the
 * product is one bit short (H is taken times x^-1 to make that up) and is
 * reduced by x^128 = x^7 + x^2 + x + 1 in that reflected form (Gueron and
 * Kounavis, "Intel carry-less multiplication instruction and its usage for
 * computing the GCM mode", 2010, algorithm 5).
 */
#include <string.h>

#include "byteorder.h"
#include "clmul.h"
#include "ghash.h"

/* H's three Karatsuba operands: its high half, its low half, their XOR. */
typedef struct {
    smg_clmul_operand hi, lo, mid;
} ghash_c_table;

_Static_assert(sizeof(ghash_c_table) <= SMG_GHASH_TABLE_SIZE,
               "GHASH table too small");

/* (*zh:*zl) = (zh:zl) * H in GF(2^128), reflected order. */
static inline void gf128_mul(uint64_t *zh, uint64_t *zl,
                             const ghash_c_table *t)
{
    uint64_t a1, a0, b1, b0, c1, c0, x3, x2, x1, x0, d, e1, e0;

    /* Karatsuba: (a1:a0) = zh*hh, (b1:b0) = zl*hl, (c1:c0) the middle. */
    smg_clmul64(*zh, &t->hi, &a1, &a0);
    smg_clmul64(*zl, &t->lo, &b1, &b0);
    smg_clmul64(*zh ^ *zl, &t->mid, &c1, &c0);
    c1 ^= a1 ^ b1;
    c0 ^= a0 ^ b0;
    /* No shift: the table holds H times x^-1 (smg_ghash_c_init). */
    x3 = a1;
    x2 = a0 ^ c1;
    x1 = b1 ^ c0;
    x0 = b0;
    /* Fold x1:x0 (the terms of degree 128 and up) into x3:x2. */
    d = x1 ^ (x0 << 63) ^ (x0 << 62) ^ (x0 << 57);
    e1 = d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7);
    e0 = x0 ^ (x0 >> 1 | d << 63) ^ (x0 >> 2 | d << 62) ^ (x0 >> 7 | d << 57);
    *zh = x3 ^ e1;
    *zl = x2 ^ e0;
}

void smg_ghash_c_init(void *htable, const unsigned char h[16])
{
    ghash_c_table *t = htable;
    uint64_t hh = load_be64(h), hl = load_be64(h + 8);
    uint64_t m = 0 - (hh >> 63);

    /*
     * The integer product of two reflected 128-bit values is the reflected
     * 255-bit product, one bit short of the 256 bits the reduction reads.
     * H times x^-1 makes up that bit once per key instead of a shift per
     * block: in reflected order a left shift, and x^0 going out comes back
     * as x^-1 = x^127 + x^6 + x + 1 (x^128 = x^7 + x^2 + x + 1), bits 0, 121,
     * 126 and 127.  The reduction then reads (H x^-1) * X * x = H * X.
     */
    hh = (hh << 1 | hl >> 63) ^ (m & 0xc200000000000000ULL);
    hl = hl << 1 ^ (m & 1);
    smg_clmul_operand_init(&t->hi, hh);
    smg_clmul_operand_init(&t->lo, hl);
    smg_clmul_operand_init(&t->mid, hh ^ hl);
}

void smg_ghash_c(const void *htable, unsigned char xi[16],
                 const unsigned char *in, size_t nblocks)
{
    const ghash_c_table *t = htable;
    uint64_t zh = load_be64(xi), zl = load_be64(xi + 8);

    for (; nblocks > 0; nblocks--, in += 16) {
        zh ^= load_be64(in);
        zl ^= load_be64(in + 8);
        gf128_mul(&zh, &zl, t);
    }
    store_be64(xi, zh);
    store_be64(xi + 8, zl);
}
