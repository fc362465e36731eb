/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Portable GHASH (NIST SP 800-38D, section 6.4), the ghash_init/ghash pair
 * of the GCM kernel tables without their own (SMG_GCM_KERNEL,
 * src/kernel.h).  Constant-time: no table is indexed by H or by the data
 * and no branch depends on them.
 *
 * Multiplication in GF(2^128) is a 256-bit carry-less product (Karatsuba
 * over three 64x64-bit ones) followed by a reduction.  A 64x64-bit
 * carry-less product comes from ordinary integer multiplications of the
 * operands with holes (Pornin, "BearSSL: constant-time GHASH",
 * bearssl.org/constanttime.html): each operand is split into four bit
 * classes (bits i, i+4, i+8, ...), and in the integer product of two
 * classes every column sums fewer than 16 one-bit terms as long as one of
 * them has at most 15 bits, so the sum's carries only reach the three bits
 * above the column, which belong to other classes and are masked off.  The
 * products are 128 bits wide (one MUL on x86-64, MUL and UMULH on aarch64),
 * so no bit-reversed second pass is needed for the high halves.  H's side
 * keeps bits 0-59 in its classes (15 bits each); each of its bits 60-63
 * adds the other operand shifted to it, selected by a mask of all zeros or
 * all ones made from that bit, so no branch or address depends on it.  H's
 * classes and masks are made once per key, so a block costs 48
 * multiplications; four of them per 64x64-bit product for bits 60-63 cost
 * more than the shifts, which also leave RDX:RAX free on x86-64 (measured:
 * ghash-c 7-8% faster on an Intel Xeon family 6 model 207).  Integer
 * multiplication takes constant time on the CPUs this builds for.
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
#include "ghash.h"

/*
 * One of H's three Karatsuba operands (its high half, its low half, their
 * XOR) split as the header says: its four bit classes without bits 60-63,
 * and topm[j], all ones if bit 60 + j is set, else zero.
 */
typedef struct {
    uint64_t cls[4], topm[4];
} ghash_c_operand;

typedef struct {
    ghash_c_operand hi, lo, mid;
} ghash_c_table;

_Static_assert(sizeof(ghash_c_table) <= SMG_GHASH_TABLE_SIZE,
               "GHASH table too small");

#define M0 0x1111111111111111ULL
#define M1 0x2222222222222222ULL
#define M2 0x4444444444444444ULL
#define M3 0x8888888888888888ULL

/* A 128-bit integer product: one type where the compiler has one. */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 dword;

static inline dword mul64(uint64_t a, uint64_t b)
{
    return (dword)a * b;
}

static inline dword dw_xor(dword a, dword b)
{
    return a ^ b;
}

static inline uint64_t dw_hi(dword a)
{
    return (uint64_t)(a >> 64);
}

static inline uint64_t dw_lo(dword a)
{
    return (uint64_t)a;
}
#else
/* Without one (32-bit targets): four 32x32-bit products, schoolbook. */
typedef struct {
    uint64_t hi, lo;
} dword;

static inline dword mul64(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    dword r;

    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

static inline dword dw_xor(dword a, dword b)
{
    a.hi ^= b.hi;
    a.lo ^= b.lo;
    return a;
}

static inline uint64_t dw_hi(dword a)
{
    return a.hi;
}

static inline uint64_t dw_lo(dword a)
{
    return a.lo;
}
#endif

static void operand_init(ghash_c_operand *o, uint64_t y)
{
    uint64_t low = y & 0x0fffffffffffffffULL;

    o->cls[0] = low & M0;
    o->cls[1] = low & M1;
    o->cls[2] = low & M2;
    o->cls[3] = low & M3;
    o->topm[0] = 0 - (y >> 60 & 1);
    o->topm[1] = 0 - (y >> 61 & 1);
    o->topm[2] = 0 - (y >> 62 & 1);
    o->topm[3] = 0 - (y >> 63 & 1);
}

/*
 * The 127-bit carry-less product of x and y as hi:lo (see the header): bits
 * 60-63 of y first, then one output class at a time, each masked as soon as
 * its four products are summed.
 */
static inline void clmul64(uint64_t x, const ghash_c_operand *y,
                           uint64_t *hi, uint64_t *lo)
{
    uint64_t x0 = x & M0, x1 = x & M1, x2 = x & M2, x3 = x & M3;
    const uint64_t *c = y->cls, *m = y->topm;
    uint64_t h, l;
    dword z;

    h = (x >> 4 & m[0]) ^ (x >> 3 & m[1]) ^ (x >> 2 & m[2])
        ^ (x >> 1 & m[3]);
    l = (x << 60 & m[0]) ^ (x << 61 & m[1]) ^ (x << 62 & m[2])
        ^ (x << 63 & m[3]);
    z = dw_xor(dw_xor(mul64(x0, c[0]), mul64(x1, c[3])),
               dw_xor(mul64(x2, c[2]), mul64(x3, c[1])));
    h ^= dw_hi(z) & M0;
    l ^= dw_lo(z) & M0;
    z = dw_xor(dw_xor(mul64(x0, c[1]), mul64(x1, c[0])),
               dw_xor(mul64(x2, c[3]), mul64(x3, c[2])));
    h ^= dw_hi(z) & M1;
    l ^= dw_lo(z) & M1;
    z = dw_xor(dw_xor(mul64(x0, c[2]), mul64(x1, c[1])),
               dw_xor(mul64(x2, c[0]), mul64(x3, c[3])));
    h ^= dw_hi(z) & M2;
    l ^= dw_lo(z) & M2;
    z = dw_xor(dw_xor(mul64(x0, c[3]), mul64(x1, c[2])),
               dw_xor(mul64(x2, c[1]), mul64(x3, c[0])));
    *hi = h ^ (dw_hi(z) & M3);
    *lo = l ^ (dw_lo(z) & M3);
}

/* (*zh:*zl) = (zh:zl) * H in GF(2^128), reflected order. */
static inline void gf128_mul(uint64_t *zh, uint64_t *zl,
                             const ghash_c_table *t)
{
    uint64_t a1, a0, b1, b0, c1, c0, x3, x2, x1, x0, d, e1, e0;

    /* Karatsuba: (a1:a0) = zh*hh, (b1:b0) = zl*hl, (c1:c0) the middle. */
    clmul64(*zh, &t->hi, &a1, &a0);
    clmul64(*zl, &t->lo, &b1, &b0);
    clmul64(*zh ^ *zl, &t->mid, &c1, &c0);
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
    operand_init(&t->hi, hh);
    operand_init(&t->lo, hl);
    operand_init(&t->mid, hh ^ hl);
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
