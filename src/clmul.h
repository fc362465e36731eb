/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The portable, constant-time 64x64-bit carry-less product that the C
 * kernels of GHASH (src/ghash.c) and of MGM's multiply-accumulate
 * (src/mgm_mac.c) share; a header of inline functions so that each
 * kernel's loop keeps them inlined.
 *
 * A 64x64-bit carry-less product comes from ordinary integer
 * multiplications of the operands with holes (Pornin, "BearSSL:
 * constant-time GHASH", bearssl.org/constanttime.html): each operand is
 * split into four bit classes (bits i, i+4, i+8, ...), and in the integer
 * product of two classes every column sums fewer than 16 one-bit terms as
 * long as one of them has at most 15 bits, so the sum's carries only reach
 * the three bits above the column, which belong to other classes and are
 * masked off.  The products are 128 bits wide (one MUL on x86-64, MUL and
 * UMULH on aarch64), so no bit-reversed second pass is needed for the high
 * halves.  One operand (smg_clmul_operand, made by smg_clmul_operand_init)
 * keeps bits 0-59 in its classes (15 bits each); each of its bits 60-63
 * adds the other operand shifted to it, selected by a mask of all zeros or
 * all ones made from that bit, so no branch or address depends on it: 16
 * multiplications a product.  Four multiplications per product for bits
 * 60-63 cost more than the shifts, which also leave RDX:RAX free on x86-64
 * (measured: ghash-c 7-8% faster on an Intel Xeon family 6 model 207).
 * Integer multiplication takes constant time on the CPUs this builds for.
 */
#ifndef SMGOST_CLMUL_H
#define SMGOST_CLMUL_H

#include <stdint.h>

#define SMG_CLMUL_M0 0x1111111111111111ULL
#define SMG_CLMUL_M1 0x2222222222222222ULL
#define SMG_CLMUL_M2 0x4444444444444444ULL
#define SMG_CLMUL_M3 0x8888888888888888ULL

/* A 128-bit integer product: one type where the compiler has one. */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 smg_dword;

static inline smg_dword smg_mul64(uint64_t a, uint64_t b)
{
    return (smg_dword)a * b;
}

static inline smg_dword smg_dw_xor(smg_dword a, smg_dword b)
{
    return a ^ b;
}

static inline uint64_t smg_dw_hi(smg_dword a)
{
    return (uint64_t)(a >> 64);
}

static inline uint64_t smg_dw_lo(smg_dword a)
{
    return (uint64_t)a;
}
#else
/* Without one (32-bit targets): four 32x32-bit products, schoolbook. */
typedef struct {
    uint64_t hi, lo;
} smg_dword;

static inline smg_dword smg_mul64(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    smg_dword r;

    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

static inline smg_dword smg_dw_xor(smg_dword a, smg_dword b)
{
    a.hi ^= b.hi;
    a.lo ^= b.lo;
    return a;
}

static inline uint64_t smg_dw_hi(smg_dword a)
{
    return a.hi;
}

static inline uint64_t smg_dw_lo(smg_dword a)
{
    return a.lo;
}
#endif

/*
 * An operand split as the header says: its four bit classes without bits
 * 60-63, and topm[j], all ones if bit 60 + j is set, else zero.
 */
typedef struct {
    uint64_t cls[4], topm[4];
} smg_clmul_operand;

static inline void smg_clmul_operand_init(smg_clmul_operand *o, uint64_t y)
{
    uint64_t low = y & 0x0fffffffffffffffULL;

    o->cls[0] = low & SMG_CLMUL_M0;
    o->cls[1] = low & SMG_CLMUL_M1;
    o->cls[2] = low & SMG_CLMUL_M2;
    o->cls[3] = low & SMG_CLMUL_M3;
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
static inline void smg_clmul64(uint64_t x, const smg_clmul_operand *y,
                               uint64_t *hi, uint64_t *lo)
{
    uint64_t x0 = x & SMG_CLMUL_M0, x1 = x & SMG_CLMUL_M1;
    uint64_t x2 = x & SMG_CLMUL_M2, x3 = x & SMG_CLMUL_M3;
    const uint64_t *c = y->cls, *m = y->topm;
    uint64_t h, l;
    smg_dword z;

    h = (x >> 4 & m[0]) ^ (x >> 3 & m[1]) ^ (x >> 2 & m[2])
        ^ (x >> 1 & m[3]);
    l = (x << 60 & m[0]) ^ (x << 61 & m[1]) ^ (x << 62 & m[2])
        ^ (x << 63 & m[3]);
    z = smg_dw_xor(smg_dw_xor(smg_mul64(x0, c[0]), smg_mul64(x1, c[3])),
                   smg_dw_xor(smg_mul64(x2, c[2]), smg_mul64(x3, c[1])));
    h ^= smg_dw_hi(z) & SMG_CLMUL_M0;
    l ^= smg_dw_lo(z) & SMG_CLMUL_M0;
    z = smg_dw_xor(smg_dw_xor(smg_mul64(x0, c[1]), smg_mul64(x1, c[0])),
                   smg_dw_xor(smg_mul64(x2, c[3]), smg_mul64(x3, c[2])));
    h ^= smg_dw_hi(z) & SMG_CLMUL_M1;
    l ^= smg_dw_lo(z) & SMG_CLMUL_M1;
    z = smg_dw_xor(smg_dw_xor(smg_mul64(x0, c[2]), smg_mul64(x1, c[1])),
                   smg_dw_xor(smg_mul64(x2, c[0]), smg_mul64(x3, c[3])));
    h ^= smg_dw_hi(z) & SMG_CLMUL_M2;
    l ^= smg_dw_lo(z) & SMG_CLMUL_M2;
    z = smg_dw_xor(smg_dw_xor(smg_mul64(x0, c[3]), smg_mul64(x1, c[2])),
                   smg_dw_xor(smg_mul64(x2, c[1]), smg_mul64(x3, c[0])));
    *hi = h ^ (smg_dw_hi(z) & SMG_CLMUL_M3);
    *lo = l ^ (smg_dw_lo(z) & SMG_CLMUL_M3);
}

#endif
