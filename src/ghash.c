/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Portable GHASH (NIST SP 800-38D, section 6.4), the ghash_init/ghash pair
 * of the portable AEAD kernel table (src/kernel.h).  Constant-time: no table
 * is indexed by H or by the data and no branch depends on them.
 *
 * Multiplication in GF(2^128) is done as a 256-bit carry-less product
 * followed by a reduction.  The 64x64-bit carry-less products come from
 * ordinary integer multiplications of the operands with holes: each operand
 * is split into four bit classes (bits i, i+4, i+8, ...), so that in any
 * product of two classes a column sums at most 16 one-bit terms.  A column
 * holding 16 terms is one of bits 60-63, whose carry leaves the low 64 bits
 * of the product; every other column holds at most 15, whose carry stays in
 * the three neighbouring bits of other classes, which the final masks drop.
 * The low 64 bits of the carry-less product are thus exact; the high ones
 * come from the same computation on the bit-reversed operands (Pornin,
 * "BearSSL: constant-time GHASH", bearssl.org/constanttime.html).  Integer
 * multiplication takes constant time on the CPUs this builds for.
 *
 * Bit order: a block loaded as a big-endian 128-bit integer holds the
 * coefficient of x^i at bit 127 - i (SP 800-38D's order, reflected), so the
 * product is shifted left by one bit and reduced by x^128 = x^7 + x^2 + x +
 * 1 in that reflected form (Gueron and Kounavis, "Intel carry-less
 * multiplication instruction and its usage for computing the GCM mode",
 * 2010, algorithm 5).
 */
#include <string.h>

#include "ghash.h"

/* H as the two big-endian halves; the rest of the table is unused here. */
typedef struct {
    uint64_t hi, lo;
} ghash_c_table;

_Static_assert(sizeof(ghash_c_table) <= SMG_GHASH_TABLE_SIZE,
               "GHASH table too small");

static inline uint64_t load_be64(const unsigned char *p)
{
    uint64_t v = 0;
    int i;

    for (i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static inline void store_be64(unsigned char *p, uint64_t v)
{
    int i;

    for (i = 7; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

/* Low 64 bits of the carry-less product of x and y (see the header). */
static inline uint64_t clmul_lo(uint64_t x, uint64_t y)
{
    const uint64_t m0 = 0x1111111111111111ULL, m1 = 0x2222222222222222ULL;
    const uint64_t m2 = 0x4444444444444444ULL, m3 = 0x8888888888888888ULL;
    uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0, z1, z2, z3;

    z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

static inline uint64_t rev64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffULL) | ((x & 0x00ff00ff00ff00ffULL) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffULL) | ((x & 0x0000ffff0000ffffULL) << 16);
    return (x >> 32) | (x << 32);
}

/*
 * The 127-bit carry-less product of x and y as hi:lo.  Reversing both
 * operands reverses the product within 127 bits, so the low half of that
 * product, reversed and shifted down by one, is the high half of this one.
 */
static inline void clmul64(uint64_t x, uint64_t y, uint64_t *hi,
                           uint64_t *lo)
{
    *lo = clmul_lo(x, y);
    *hi = rev64(clmul_lo(rev64(x), rev64(y))) >> 1;
}

/* (*zh:*zl) = (zh:zl) * (hh:hl) in GF(2^128), reflected order. */
static inline void gf128_mul(uint64_t *zh, uint64_t *zl, uint64_t hh,
                             uint64_t hl)
{
    uint64_t a1, a0, b1, b0, c1, c0, x3, x2, x1, x0, d, e1, e0;

    /* Karatsuba: (a1:a0) = zh*hh, (b1:b0) = zl*hl, (c1:c0) the middle. */
    clmul64(*zh, hh, &a1, &a0);
    clmul64(*zl, hl, &b1, &b0);
    clmul64(*zh ^ *zl, hh ^ hl, &c1, &c0);
    c1 ^= a1 ^ b1;
    c0 ^= a0 ^ b0;
    x3 = a1;
    x2 = a0 ^ c1;
    x1 = b1 ^ c0;
    x0 = b0;
    /* The reflected product is one bit short: shift x3:x2:x1:x0 left. */
    x3 = x3 << 1 | x2 >> 63;
    x2 = x2 << 1 | x1 >> 63;
    x1 = x1 << 1 | x0 >> 63;
    x0 <<= 1;
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

    t->hi = load_be64(h);
    t->lo = load_be64(h + 8);
}

void smg_ghash_c(const void *htable, unsigned char xi[16],
                 const unsigned char *in, size_t nblocks)
{
    const ghash_c_table *t = htable;
    uint64_t zh = load_be64(xi), zl = load_be64(xi + 8);

    for (; nblocks > 0; nblocks--, in += 16) {
        zh ^= load_be64(in);
        zl ^= load_be64(in + 8);
        gf128_mul(&zh, &zl, t->hi, t->lo);
    }
    store_be64(xi, zh);
    store_be64(xi + 8, zl);
}
