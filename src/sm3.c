/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 (GB/T 32905-2016) in portable C: the unrolled compression function
 * (kernel sm3_kernel_c), the IV, and the family's list of kernel tables
 * (src/kernel_list.h), the assembly ones included, with sm3_kernel() over
 * it.  The digest itself is providers/sm3_digest.c's table over the digest
 * layer (src/digest.h).
 */
#include <stdio.h>

#include "byteorder.h"
#include "cpu.h"
#include "kernel_list.h"
#include "sm3.h"
#include "sm3_x86.h"
#include "sm3_arm.h"

#define SM3_ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

/*
 * P0(x) = x ^ rol(x,9) ^ rol(x,17) = x ^ rol(x ^ rol(x,8), 9), and likewise
 * P1(x) = x ^ rol(x ^ rol(x,8), 15): one copy and one rotation fewer on a
 * two-operand ISA.  The rounds are bound by instruction count more than by
 * the one cycle this adds to P0's latency (callgrind, gcc 12 -O3 x86-64:
 * 49.4 instructions per byte against 51.1 with the flat P0).
 */
static inline uint32_t P0(uint32_t x)
{
    uint32_t t = x ^ SM3_ROL(x, 8);

    return x ^ SM3_ROL(t, 9);
}

static inline uint32_t P1(uint32_t x)
{
    uint32_t t = x ^ SM3_ROL(x, 8);

    return x ^ SM3_ROL(t, 15);
}

/*
 * Boolean functions: rounds 0-15 use parity, 16-63 majority and choice,
 * each in three operations.
 */
#define FF0(x, y, z) ((x) ^ (y) ^ (z))
#define GG0(x, y, z) ((x) ^ (y) ^ (z))
#define FF1(x, y, z) ((((x) ^ (y)) & ((y) ^ (z))) ^ (y))
#define GG1(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))

/*
 * rol(T_j, j mod 32) as a constant: every round below is expanded with a
 * literal j, so the compiler folds it.  T_j from GB/T 32905-2016, 4.2.
 */
#define TJ(j) ((j) < 16 ? 0x79cc4519u : 0x7a879d8au)
#define KJ(j) ((j) % 32 == 0 ? TJ(j) :                                       \
               ((TJ(j) << ((j) % 32)) | (TJ(j) >> ((32 - (j) % 32) % 32))))

/* Message expansion, done inside the rounds to overlap their latency. */
#define SM3_EXPAND(i)                                                        \
    do {                                                                     \
        uint32_t x_ = w[(i) - 16] ^ w[(i) - 9] ^ SM3_ROL(w[(i) - 3], 15);    \
        w[i] = P1(x_) ^ SM3_ROL(w[(i) - 13], 7) ^ w[(i) - 6];                \
    } while (0)

/*
 * One round without moving the eight words: of the standard's updates only
 * D <- TT1, B <- rol(B,9), H <- P0(TT2), F <- rol(F,19) touch a variable;
 * the rest is a renaming that the caller does by rotating arguments.
 */
#define SM3_RND(FF, GG, j, A, B, C, D, E, F, G, H)                           \
    do {                                                                     \
        uint32_t a12_ = SM3_ROL(A, 12), ss1_;                                \
        if ((j) >= 12)                                                       \
            SM3_EXPAND((j) + 4);                                             \
        ss1_ = a12_ + E + KJ(j);                                             \
        ss1_ = SM3_ROL(ss1_, 7);                                             \
        D = (D + (w[j] ^ w[(j) + 4])) + (FF(A, B, C) + (ss1_ ^ a12_));       \
        H = (H + w[j]) + (GG(E, F, G) + ss1_);                               \
        B = SM3_ROL(B, 9);                                                   \
        F = SM3_ROL(F, 19);                                                  \
        H = P0(H);                                                           \
    } while (0)

#define SM3_RND4(FF, GG, j)                                                  \
    do {                                                                     \
        SM3_RND(FF, GG, (j), a, b, c, d, e, f, g, h);                        \
        SM3_RND(FF, GG, (j) + 1, d, a, b, c, h, e, f, g);                    \
        SM3_RND(FF, GG, (j) + 2, c, d, a, b, g, h, e, f);                    \
        SM3_RND(FF, GG, (j) + 3, b, c, d, a, f, g, h, e);                    \
    } while (0)

static void sm3_c_blocks(uint32_t state[8], const unsigned char *p,
                         size_t nblocks)
{
    uint32_t w[68];
    uint32_t a, b, c, d, e, f, g, h;
    int j;

    for (; nblocks > 0; nblocks--, p += SM3_BLOCK_SIZE) {
        for (j = 0; j < 16; j++)
            w[j] = load_be32(p + 4 * j);

        a = state[0]; b = state[1]; c = state[2]; d = state[3];
        e = state[4]; f = state[5]; g = state[6]; h = state[7];

        SM3_RND4(FF0, GG0, 0);
        SM3_RND4(FF0, GG0, 4);
        SM3_RND4(FF0, GG0, 8);
        SM3_RND4(FF0, GG0, 12);
        SM3_RND4(FF1, GG1, 16);
        SM3_RND4(FF1, GG1, 20);
        SM3_RND4(FF1, GG1, 24);
        SM3_RND4(FF1, GG1, 28);
        SM3_RND4(FF1, GG1, 32);
        SM3_RND4(FF1, GG1, 36);
        SM3_RND4(FF1, GG1, 40);
        SM3_RND4(FF1, GG1, 44);
        SM3_RND4(FF1, GG1, 48);
        SM3_RND4(FF1, GG1, 52);
        SM3_RND4(FF1, GG1, 56);
        SM3_RND4(FF1, GG1, 60);

        /* V(i+1) = ABCDEFGH xor V(i). */
        state[0] ^= a; state[1] ^= b; state[2] ^= c; state[3] ^= d;
        state[4] ^= e; state[5] ^= f; state[6] ^= g; state[7] ^= h;
    }
}

const SM3_KERNEL sm3_kernel_c = { "sm3-c", sm3_c_blocks };

/* Initial value IV, GB/T 32905-2016, 4.1. */
const uint32_t sm3_iv[8] = {
    0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
    0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e
};

/*
 * The kernel list: every table is constant-time (no tables, no
 * data-dependent branches).  x86-64's schedules by the core each is tuned
 * on (src/sm3_x86.c); the AVX one, tuned on Zen 4, is kept wherever the
 * AVX-512 ones are not taken.
 */
static const SMG_KERNEL_ENTRY sm3_kernels[] = {
#ifdef SM3_X86_ASM
    { &sm3_kernel_avx512_bmi2, SM3_CAPS_AVX512_BMI2, SMG_KERNEL_CT, "zen5" },
    { &sm3_kernel_avx512_bmi2_glc, SM3_CAPS_AVX512_BMI2, SMG_KERNEL_CT,
      "glc" },
    { &sm3_kernel_avx_bmi2, SM3_CAPS_AVX_BMI2, SMG_KERNEL_CT, NULL },
#endif
#ifdef SM3_ARM_ASM
    { &sm3_kernel_ce, SM3_CAPS_CE, SMG_KERNEL_CT, NULL },
#endif
    { &sm3_kernel_c, 0, SMG_KERNEL_CT, NULL },
};

static void sm3_describe(const void *table, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ((const SM3_KERNEL *)table)->name);
}

const SMG_KERNEL_FAMILY sm3_kernel_family = {
    "sm3", sm3_kernels, sizeof(sm3_kernels) / sizeof(sm3_kernels[0]),
    sm3_describe,
#ifdef SM3_X86_ASM
    sm3_schedule_x86,
#else
    NULL,
#endif
};

const SM3_KERNEL *sm3_kernel(void)
{
    return smg_kernel_choose(&sm3_kernel_family, 0);
}
