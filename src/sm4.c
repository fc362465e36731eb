/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 (GB/T 32907-2016) in portable C: the key schedule, the portable
 * whole-block kernel sm4_kernel_c (every chaining mode of kernel.h), one-block
 * encryption for self-tests, and the family's list of kernel tables
 * (src/kernel_list.h), the assembly ones included, with sm4_kernel() over it.
 *
 * The round function is table driven: SM4_T0..T3[j] hold L(Sbox(j)) rotated
 * left by 0, 8, 16 and 24 bits, so a round is four loads and XORs.  Table
 * lookups are indexed by secret data (as in OpenSSL's and libgcrypt's C
 * code); the assembly kernels exist for constant-time, fast S-boxes.
 */
#include <stdio.h>
#include <string.h>

#include "byteorder.h"
#include "cpu.h"
#include "ghash.h"
#include "kernel_list.h"
#include "sm4.h"
#include "sm4_x86.h"
#include "sm4_arm.h"

/*
 * The S-box of GB/T 32907-2016, table 1, row by row.  Checked against the
 * GFNI affine construction of util/perlasm/sm4_x86_64.pm (the matrices of
 * libgcrypt's sm4-gfni-avx2-amd64.S): all 256 inputs agree.  Given as an
 * X-macro so that every table below is derived from these 256 numbers by
 * the compiler, not pasted.
 */
#define SM4_SBOX_LIST(F)                                                     \
    F(0xd6), F(0x90), F(0xe9), F(0xfe), F(0xcc), F(0xe1), F(0x3d), F(0xb7),  \
    F(0x16), F(0xb6), F(0x14), F(0xc2), F(0x28), F(0xfb), F(0x2c), F(0x05),  \
    F(0x2b), F(0x67), F(0x9a), F(0x76), F(0x2a), F(0xbe), F(0x04), F(0xc3),  \
    F(0xaa), F(0x44), F(0x13), F(0x26), F(0x49), F(0x86), F(0x06), F(0x99),  \
    F(0x9c), F(0x42), F(0x50), F(0xf4), F(0x91), F(0xef), F(0x98), F(0x7a),  \
    F(0x33), F(0x54), F(0x0b), F(0x43), F(0xed), F(0xcf), F(0xac), F(0x62),  \
    F(0xe4), F(0xb3), F(0x1c), F(0xa9), F(0xc9), F(0x08), F(0xe8), F(0x95),  \
    F(0x80), F(0xdf), F(0x94), F(0xfa), F(0x75), F(0x8f), F(0x3f), F(0xa6),  \
    F(0x47), F(0x07), F(0xa7), F(0xfc), F(0xf3), F(0x73), F(0x17), F(0xba),  \
    F(0x83), F(0x59), F(0x3c), F(0x19), F(0xe6), F(0x85), F(0x4f), F(0xa8),  \
    F(0x68), F(0x6b), F(0x81), F(0xb2), F(0x71), F(0x64), F(0xda), F(0x8b),  \
    F(0xf8), F(0xeb), F(0x0f), F(0x4b), F(0x70), F(0x56), F(0x9d), F(0x35),  \
    F(0x1e), F(0x24), F(0x0e), F(0x5e), F(0x63), F(0x58), F(0xd1), F(0xa2),  \
    F(0x25), F(0x22), F(0x7c), F(0x3b), F(0x01), F(0x21), F(0x78), F(0x87),  \
    F(0xd4), F(0x00), F(0x46), F(0x57), F(0x9f), F(0xd3), F(0x27), F(0x52),  \
    F(0x4c), F(0x36), F(0x02), F(0xe7), F(0xa0), F(0xc4), F(0xc8), F(0x9e),  \
    F(0xea), F(0xbf), F(0x8a), F(0xd2), F(0x40), F(0xc7), F(0x38), F(0xb5),  \
    F(0xa3), F(0xf7), F(0xf2), F(0xce), F(0xf9), F(0x61), F(0x15), F(0xa1),  \
    F(0xe0), F(0xae), F(0x5d), F(0xa4), F(0x9b), F(0x34), F(0x1a), F(0x55),  \
    F(0xad), F(0x93), F(0x32), F(0x30), F(0xf5), F(0x8c), F(0xb1), F(0xe3),  \
    F(0x1d), F(0xf6), F(0xe2), F(0x2e), F(0x82), F(0x66), F(0xca), F(0x60),  \
    F(0xc0), F(0x29), F(0x23), F(0xab), F(0x0d), F(0x53), F(0x4e), F(0x6f),  \
    F(0xd5), F(0xdb), F(0x37), F(0x45), F(0xde), F(0xfd), F(0x8e), F(0x2f),  \
    F(0x03), F(0xff), F(0x6a), F(0x72), F(0x6d), F(0x6c), F(0x5b), F(0x51),  \
    F(0x8d), F(0x1b), F(0xaf), F(0x92), F(0xbb), F(0xdd), F(0xbc), F(0x7f),  \
    F(0x11), F(0xd9), F(0x5c), F(0x41), F(0x1f), F(0x10), F(0x5a), F(0xd8),  \
    F(0x0a), F(0xc1), F(0x31), F(0x88), F(0xa5), F(0xcd), F(0x7b), F(0xbd),  \
    F(0x2d), F(0x74), F(0xd0), F(0x12), F(0xb8), F(0xe5), F(0xb4), F(0xb0),  \
    F(0x89), F(0x69), F(0x97), F(0x4a), F(0x0c), F(0x96), F(0x77), F(0x7e),  \
    F(0x65), F(0xb9), F(0xf1), F(0x09), F(0xc5), F(0x6e), F(0xc6), F(0x84),  \
    F(0x18), F(0xf0), F(0x7d), F(0xec), F(0x3a), F(0xdc), F(0x4d), F(0x20),  \
    F(0x79), F(0xee), F(0x5f), F(0x3e), F(0xd7), F(0xcb), F(0x39), F(0x48)

#define SM4_ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

/*
 * L applied to a byte sitting in the low 8 bits: none of the rotations
 * (2, 10, 18, 24) wraps such a value, so they are plain shifts here.  L is
 * linear and commutes with rotation, hence L(s << 8k) = rol(L(s), 8k): the
 * four tables below serve the four byte positions of a word.
 */
#define SM4_L8(s) ((uint32_t)(s) ^ ((uint32_t)(s) << 2) ^                    \
                   ((uint32_t)(s) << 10) ^ ((uint32_t)(s) << 18) ^           \
                   ((uint32_t)(s) << 24))
#define SM4_T0E(s) SM4_L8(s)
#define SM4_T1E(s) SM4_ROL(SM4_L8(s), 8)
#define SM4_T2E(s) SM4_ROL(SM4_L8(s), 16)
#define SM4_T3E(s) SM4_ROL(SM4_L8(s), 24)
#define SM4_SBE(s) (s)

static const uint8_t SM4_SBOX[256] = { SM4_SBOX_LIST(SM4_SBE) };
static const uint32_t SM4_T0[256] = { SM4_SBOX_LIST(SM4_T0E) };
static const uint32_t SM4_T1[256] = { SM4_SBOX_LIST(SM4_T1E) };
static const uint32_t SM4_T2[256] = { SM4_SBOX_LIST(SM4_T2E) };
static const uint32_t SM4_T3[256] = { SM4_SBOX_LIST(SM4_T3E) };

/* System parameter FK, GB/T 32907-2016 section 7.3. */
static const uint32_t SM4_FK[4] = {
    0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc
};

/* T = L(tau(x)), the round's nonlinear-then-linear map, via the tables. */
#define SM4_T(x) (SM4_T0[(x) & 0xff] ^ SM4_T1[((x) >> 8) & 0xff] ^           \
                  SM4_T2[((x) >> 16) & 0xff] ^ SM4_T3[(x) >> 24])

/*
 * One round on a block held in four variables, without moving them: the
 * caller rotates the names.  The three older words are XORed with the round
 * key first so only the last XOR waits on the previous round.
 */
#define SM4_RND(k, a, b, c, d) ((a) ^= SM4_T((k) ^ (b) ^ (c) ^ (d)))

/* A block as four big-endian words; rounds leave it in reversed order. */
typedef struct {
    uint32_t w0, w1, w2, w3;
} sm4_blk;

static inline sm4_blk blk_load(const unsigned char *p)
{
    sm4_blk b;

    b.w0 = load_be32(p);
    b.w1 = load_be32(p + 4);
    b.w2 = load_be32(p + 8);
    b.w3 = load_be32(p + 12);
    return b;
}

static inline void blk_store(unsigned char *p, sm4_blk b)
{
    store_be32(p, b.w0);
    store_be32(p + 4, b.w1);
    store_be32(p + 8, b.w2);
    store_be32(p + 12, b.w3);
}

static inline sm4_blk blk_xor(sm4_blk a, sm4_blk b)
{
    a.w0 ^= b.w0;
    a.w1 ^= b.w1;
    a.w2 ^= b.w2;
    a.w3 ^= b.w3;
    return a;
}

/* The 32 rounds and the final reversal R, one block. */
static inline sm4_blk sm4_crypt1(const uint32_t *rk, sm4_blk b)
{
    uint32_t x0 = b.w0, x1 = b.w1, x2 = b.w2, x3 = b.w3;
    int i;

    for (i = 0; i < 32; i += 4) {
        SM4_RND(rk[i], x0, x1, x2, x3);
        SM4_RND(rk[i + 1], x1, x2, x3, x0);
        SM4_RND(rk[i + 2], x2, x3, x0, x1);
        SM4_RND(rk[i + 3], x3, x0, x1, x2);
    }
    b.w0 = x3;
    b.w1 = x2;
    b.w2 = x1;
    b.w3 = x0;
    return b;
}

/*
 * Four independent blocks with their rounds interleaved, so the table loads
 * of one block overlap the dependency chain of the others.
 */
#define SM4_RND4(k, a, b, c, d)                                              \
    do {                                                                     \
        uint32_t k_ = (k);                                                   \
        SM4_RND(k_, p##a, p##b, p##c, p##d);                                 \
        SM4_RND(k_, q##a, q##b, q##c, q##d);                                 \
        SM4_RND(k_, r##a, r##b, r##c, r##d);                                 \
        SM4_RND(k_, s##a, s##b, s##c, s##d);                                 \
    } while (0)

static inline void sm4_crypt4(const uint32_t *rk, sm4_blk *b)
{
    uint32_t p0 = b[0].w0, p1 = b[0].w1, p2 = b[0].w2, p3 = b[0].w3;
    uint32_t q0 = b[1].w0, q1 = b[1].w1, q2 = b[1].w2, q3 = b[1].w3;
    uint32_t r0 = b[2].w0, r1 = b[2].w1, r2 = b[2].w2, r3 = b[2].w3;
    uint32_t s0 = b[3].w0, s1 = b[3].w1, s2 = b[3].w2, s3 = b[3].w3;
    int i;

    for (i = 0; i < 32; i += 4) {
        SM4_RND4(rk[i], 0, 1, 2, 3);
        SM4_RND4(rk[i + 1], 1, 2, 3, 0);
        SM4_RND4(rk[i + 2], 2, 3, 0, 1);
        SM4_RND4(rk[i + 3], 3, 0, 1, 2);
    }
    b[0].w0 = p3; b[0].w1 = p2; b[0].w2 = p1; b[0].w3 = p0;
    b[1].w0 = q3; b[1].w1 = q2; b[1].w2 = q1; b[1].w3 = q0;
    b[2].w0 = r3; b[2].w1 = r2; b[2].w2 = r1; b[2].w3 = r0;
    b[3].w0 = s3; b[3].w1 = s2; b[3].w2 = s1; b[3].w3 = s0;
}

/*
 * Two blocks, two chains: four-way rounds with two lanes idle would spend
 * the idle lanes' loads and XORs on nothing, and a chain of 32 rounds is
 * what bounds either (GCM's short messages: E(J0) and one data block).
 */
#define SM4_RND2(k, a, b, c, d)                                              \
    do {                                                                     \
        uint32_t k_ = (k);                                                   \
        SM4_RND(k_, p##a, p##b, p##c, p##d);                                 \
        SM4_RND(k_, q##a, q##b, q##c, q##d);                                 \
    } while (0)

static inline void sm4_crypt2(const uint32_t *rk, sm4_blk *b)
{
    uint32_t p0 = b[0].w0, p1 = b[0].w1, p2 = b[0].w2, p3 = b[0].w3;
    uint32_t q0 = b[1].w0, q1 = b[1].w1, q2 = b[1].w2, q3 = b[1].w3;
    int i;

    for (i = 0; i < 32; i += 4) {
        SM4_RND2(rk[i], 0, 1, 2, 3);
        SM4_RND2(rk[i + 1], 1, 2, 3, 0);
        SM4_RND2(rk[i + 2], 2, 3, 0, 1);
        SM4_RND2(rk[i + 3], 3, 0, 1, 2);
    }
    b[0].w0 = p3; b[0].w1 = p2; b[0].w2 = p1; b[0].w3 = p0;
    b[1].w0 = q3; b[1].w1 = q2; b[1].w2 = q1; b[1].w3 = q0;
}

/*
 * The S-box's first affine map A1 x + c1, the map into the AES field that
 * the gfni-avx512 cores keep their state in (util/perlasm/sm4_x86_64.pm's
 * header gives the matrix and the constant, checked there against the S-box).
 * Row i of the matrix (output bit i) is byte 7 - i, as GF2P8AFFINEQB takes
 * it (Intel SDM); SM4_A1_COL(j) is column j, the image of bit j.
 */
#define SM4_A1 0x34ac259e022dbc52u
#define SM4_A1_BIT(i, j) ((SM4_A1 >> (8 * (7 - (i)) + (j)) & 1) << (i))
#define SM4_A1_COL(j)                                                     \
    (SM4_A1_BIT(0, j) | SM4_A1_BIT(1, j) | SM4_A1_BIT(2, j)               \
     | SM4_A1_BIT(3, j) | SM4_A1_BIT(4, j) | SM4_A1_BIT(5, j)             \
     | SM4_A1_BIT(6, j) | SM4_A1_BIT(7, j))
#define SM4_BYTES 0x0101010101010101u

/* A1 x + c1 on each byte of w, by columns: masks only, so that key bytes
 * index nothing. */
static uint64_t sm4_a1_image(uint64_t w)
{
    static const uint64_t col[8] = {
        SM4_A1_COL(0) * SM4_BYTES, SM4_A1_COL(1) * SM4_BYTES,
        SM4_A1_COL(2) * SM4_BYTES, SM4_A1_COL(3) * SM4_BYTES,
        SM4_A1_COL(4) * SM4_BYTES, SM4_A1_COL(5) * SM4_BYTES,
        SM4_A1_COL(6) * SM4_BYTES, SM4_A1_COL(7) * SM4_BYTES
    };
    uint64_t r = 0x65 * SM4_BYTES;
    int j;

    for (j = 0; j < 8; j++)
        r ^= (w >> j & SM4_BYTES) * 0xff & col[j];
    return r;
}

/*
 * SM4_KEY.ws from the round keys in that image, K_i = A1 rk_i + c1 (k[i],
 * or k[31 - i] reversed): slot 0 c_3, slot 1 + j d_j = c_j ^ c_{j+4},
 * slots 33..35 c_32..c_34, where c_0 = c_1 = c_2 = 0 and c_{i+3} = K_i ^
 * c_{i+1} ^ c_{i+2} (asm/sm4-gfni-avx512-x86_64.pl, e_round); SM4_KEY.bs
 * the same slots, 1..32 as z = d ^ d<<<16 ^ d<<<24, with byte k of each
 * replicated over dword k (b_round).  The gfni-avx512 wide path copies them instead
 * of making them each call; sm4_gfni_avx512_key_tables makes the same for
 * sm4_set_key_kernel.
 */
static void sm4_key_constants(SM4_KEY *ks, const uint32_t k[32], int reversed)
{
    uint32_t c1 = 0, c2 = 0, c3, z;
    uint64_t lo, hi;
    int i;

    ks->ws[0] = k[reversed ? 31 : 0];
    ks->ws[1] = ks->ws[2] = ks->ws[3] = 0;
    for (i = 0; i < 32; i++) {
        c3 = k[reversed ? 31 - i : i] ^ c1 ^ c2;
        ks->ws[i + 4] = c3;
        if (i >= 1)
            ks->ws[i] ^= c3;
        c1 = c2;
        c2 = c3;
    }
    for (i = 0; i < 36; i++) {
        z = ks->ws[i];
        if (i >= 1 && i <= 32)
            z ^= SM4_ROL(z, 16) ^ SM4_ROL(z, 24);
        /* bytes 0 and 1, 2 and 3 of z, each into its dword of a qword */
        lo = ((uint64_t)(z >> 8 & 0xff) << 32 | (z & 0xff)) * 0x01010101u;
        hi = ((uint64_t)(z >> 24) << 32 | (z >> 16 & 0xff)) * 0x01010101u;
        ks->bs[4 * i] = (uint32_t)lo;
        ks->bs[4 * i + 1] = (uint32_t)(lo >> 32);
        ks->bs[4 * i + 2] = (uint32_t)hi;
        ks->bs[4 * i + 3] = (uint32_t)(hi >> 32);
    }
}

static void sm4_reverse_round_keys(const SM4_KEY *enc, SM4_KEY *dec)
{
    int i;

    for (i = 0; i < 32; i++)
        dec->rk[i] = enc->rk[31 - i];
}

/*
 * The decryption schedule (the same network with the round keys reversed)
 * from the encryption one, unless dec is NULL, then the schedules'
 * constants.  The keys' A1 image waits in the bs of the schedule made last
 * (dec's, else enc's), which its own constants replace once they have read
 * it (sm4_key_constants reads k whole before it writes bs): no copy of key
 * material elsewhere.
 */
static void sm4_finish_schedules(SM4_KEY *enc, SM4_KEY *dec)
{
    uint32_t *k = dec != NULL ? dec->bs : enc->bs;
    uint64_t w;
    int i;

    for (i = 0; i < 32; i += 2) {
        w = sm4_a1_image((uint64_t)enc->rk[i + 1] << 32 | enc->rk[i]);
        k[i] = (uint32_t)w;
        k[i + 1] = (uint32_t)(w >> 32);
    }
    sm4_key_constants(enc, k, 0);
    if (dec == NULL)
        return;
    sm4_reverse_round_keys(enc, dec);
    sm4_key_constants(dec, k, 1);
}

/* The encryption round keys, by the portable S-box. */
static void sm4_round_keys(const unsigned char key[SM4_KEY_SIZE],
                           SM4_KEY *enc)
{
    uint32_t k0, k1, k2, k3, t;
    int i;

    k0 = load_be32(key) ^ SM4_FK[0];
    k1 = load_be32(key + 4) ^ SM4_FK[1];
    k2 = load_be32(key + 8) ^ SM4_FK[2];
    k3 = load_be32(key + 12) ^ SM4_FK[3];
    for (i = 0; i < 32; i++) {
        /* CK_i byte j is (4i + j) * 7 mod 256 (GB/T 32907-2016, 7.3). */
        uint32_t ck = ((uint32_t)((4 * i) * 7 & 0xff) << 24) |
                      ((uint32_t)((4 * i + 1) * 7 & 0xff) << 16) |
                      ((uint32_t)((4 * i + 2) * 7 & 0xff) << 8) |
                      (uint32_t)((4 * i + 3) * 7 & 0xff);

        /*
         * T' = L'(tau(.)) with L'(B) = B ^ rol(B,13) ^ rol(B,23).  Runs once
         * per key, so plain byte lookups in the S-box are enough here.
         */
        t = k1 ^ k2 ^ k3 ^ ck;
        t = ((uint32_t)SM4_SBOX[t >> 24] << 24) |
            ((uint32_t)SM4_SBOX[(t >> 16) & 0xff] << 16) |
            ((uint32_t)SM4_SBOX[(t >> 8) & 0xff] << 8) |
            (uint32_t)SM4_SBOX[t & 0xff];
        t = k0 ^ t ^ SM4_ROL(t, 13) ^ SM4_ROL(t, 23);
        enc->rk[i] = t;
        k0 = k1;
        k1 = k2;
        k2 = k3;
        k3 = t;
    }
}

void sm4_set_key(const unsigned char key[SM4_KEY_SIZE], SM4_KEY *enc,
                 SM4_KEY *dec)
{
    sm4_round_keys(key, enc);
    sm4_finish_schedules(enc, dec);
}

void sm4_set_key_kernel(const SMG_BLOCK_KERNEL *k,
                        const unsigned char key[SM4_KEY_SIZE], SM4_KEY *enc,
                        SM4_KEY *dec, unsigned char e0[16])
{
    int done = 0;

#ifdef SM4_X86_ASM
    done = sm4_set_key_x86(k, key, enc);
#endif
#ifdef SM4_ARM_ASM
    done = done || sm4_set_key_arm(k, key, enc);
#endif
    if (!done)
        sm4_round_keys(key, enc);
    /*
     * A one-block call reads the round keys alone (every kernel's), so
     * E(0) runs here, its chain of 32 rounds beside the independent work
     * of the tables after it (GCM's key setup and IV 892 -> 864 TSC ticks
     * on an Intel Xeon family 6 model 207).
     */
    if (e0 != NULL) {
        memset(e0, 0, SM4_BLOCK_SIZE);
        k->ecb(enc, e0, e0, 1);
    }
    if (dec != NULL)
        sm4_reverse_round_keys(enc, dec);
    /*
     * The tables only for the kernels that read them, by their own
     * instructions: in C they were about 280 of a GCM key setup's 790 TSC
     * ticks, which openssl speed's AEAD loop pays every message.
     */
#ifdef SM4_X86_ASM
    if (sm4_kernel_reads_tables(k)) {
        sm4_gfni_avx512_key_tables(enc);
        if (dec != NULL)
            sm4_gfni_avx512_key_tables(dec);
    }
#endif
}

int sm4_kernel_reads_tables(const SMG_BLOCK_KERNEL *k)
{
#ifdef SM4_X86_ASM
    return sm4_reads_tables_x86(k);
#else
    (void)k;
    return 0;
#endif
}

void sm4_encrypt_block(const SM4_KEY *ks, const unsigned char in[16],
                       unsigned char out[16])
{
    blk_store(out, sm4_crypt1(ks->rk, blk_load(in)));
}

static void sm4_c_ecb(const void *ks, const unsigned char *in,
                      unsigned char *out, size_t nblocks)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    sm4_blk b[4];

    for (; nblocks >= 4; nblocks -= 4, in += 64, out += 64) {
        b[0] = blk_load(in);
        b[1] = blk_load(in + 16);
        b[2] = blk_load(in + 32);
        b[3] = blk_load(in + 48);
        sm4_crypt4(rk, b);
        blk_store(out, b[0]);
        blk_store(out + 16, b[1]);
        blk_store(out + 32, b[2]);
        blk_store(out + 48, b[3]);
    }
    /* Three blocks take the four-way rounds, the free lane idle, two the
     * two-way ones: one chain of 32 rounds instead of two or three. */
    if (nblocks >= 2) {
        size_t j;

        memset(b, 0, sizeof(b));
        for (j = 0; j < nblocks; j++)
            b[j] = blk_load(in + 16 * j);
        if (nblocks == 2)
            sm4_crypt2(rk, b);
        else
            sm4_crypt4(rk, b);
        for (j = 0; j < nblocks; j++)
            blk_store(out + 16 * j, b[j]);
    } else if (nblocks == 1) {
        blk_store(out, sm4_crypt1(rk, blk_load(in)));
    }
}

static void sm4_c_cbc_enc(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    sm4_blk c = blk_load(iv);

    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        c = sm4_crypt1(rk, blk_xor(c, blk_load(in)));
        blk_store(out, c);
    }
    blk_store(iv, c);
}

/*
 * Every input block is read before the output that may overwrite it is
 * written, so in == out works; the last ciphertext read becomes the IV.
 */
static void sm4_c_cbc_dec(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    sm4_blk prev = blk_load(iv), c[4], b[4];

    for (; nblocks >= 4; nblocks -= 4, in += 64, out += 64) {
        b[0] = c[0] = blk_load(in);
        b[1] = c[1] = blk_load(in + 16);
        b[2] = c[2] = blk_load(in + 32);
        b[3] = c[3] = blk_load(in + 48);
        sm4_crypt4(rk, b);
        blk_store(out, blk_xor(b[0], prev));
        blk_store(out + 16, blk_xor(b[1], c[0]));
        blk_store(out + 32, blk_xor(b[2], c[1]));
        blk_store(out + 48, blk_xor(b[3], c[2]));
        prev = c[3];
    }
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        c[0] = blk_load(in);
        blk_store(out, blk_xor(sm4_crypt1(rk, c[0]), prev));
        prev = c[0];
    }
    blk_store(iv, prev);
}

static void sm4_c_cfb_enc(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    sm4_blk c = blk_load(iv);

    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        c = blk_xor(sm4_crypt1(rk, c), blk_load(in));
        blk_store(out, c);
    }
    blk_store(iv, c);
}

/* The keystream for block i is E(ciphertext i-1): all of them known ahead. */
static void sm4_c_cfb_dec(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    sm4_blk prev = blk_load(iv), c[4], b[4];

    for (; nblocks >= 4; nblocks -= 4, in += 64, out += 64) {
        b[0] = prev;
        b[1] = c[0] = blk_load(in);
        b[2] = c[1] = blk_load(in + 16);
        b[3] = c[2] = blk_load(in + 32);
        c[3] = blk_load(in + 48);
        sm4_crypt4(rk, b);
        blk_store(out, blk_xor(b[0], c[0]));
        blk_store(out + 16, blk_xor(b[1], c[1]));
        blk_store(out + 32, blk_xor(b[2], c[2]));
        blk_store(out + 48, blk_xor(b[3], c[3]));
        prev = c[3];
    }
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        c[0] = blk_load(in);
        blk_store(out, blk_xor(sm4_crypt1(rk, prev), c[0]));
        prev = c[0];
    }
    blk_store(iv, prev);
}

static void sm4_c_ofb(const void *ks, const unsigned char *in,
                      unsigned char *out, size_t nblocks, unsigned char *iv)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    sm4_blk s = blk_load(iv);

    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        s = sm4_crypt1(rk, s);
        blk_store(out, blk_xor(s, blk_load(in)));
    }
    blk_store(iv, s);
}

/* The counter as two 64-bit halves; +1 carries across the whole block. */
static inline sm4_blk ctr_blk(uint64_t hi, uint64_t lo)
{
    sm4_blk b;

    b.w0 = (uint32_t)(hi >> 32);
    b.w1 = (uint32_t)hi;
    b.w2 = (uint32_t)(lo >> 32);
    b.w3 = (uint32_t)lo;
    return b;
}

#define CTR_INC(hi, lo) do { if (++(lo) == 0) ++(hi); } while (0)

static void sm4_c_ctr(const void *ks, const unsigned char *in,
                      unsigned char *out, size_t nblocks, unsigned char *ctr)
{
    const uint32_t *rk = ((const SM4_KEY *)ks)->rk;
    uint64_t hi = ((uint64_t)load_be32(ctr) << 32) | load_be32(ctr + 4);
    uint64_t lo = ((uint64_t)load_be32(ctr + 8) << 32) | load_be32(ctr + 12);
    sm4_blk b[4];
    int j;

    for (; nblocks >= 4; nblocks -= 4, in += 64, out += 64) {
        for (j = 0; j < 4; j++) {
            b[j] = ctr_blk(hi, lo);
            CTR_INC(hi, lo);
        }
        sm4_crypt4(rk, b);
        blk_store(out, blk_xor(b[0], blk_load(in)));
        blk_store(out + 16, blk_xor(b[1], blk_load(in + 16)));
        blk_store(out + 32, blk_xor(b[2], blk_load(in + 32)));
        blk_store(out + 48, blk_xor(b[3], blk_load(in + 48)));
    }
    /* As in sm4_c_ecb: three blocks in the four-way rounds, two in the
     * two-way ones. */
    if (nblocks >= 2) {
        memset(b, 0, sizeof(b));
        for (j = 0; j < (int)nblocks; j++) {
            b[j] = ctr_blk(hi, lo);
            CTR_INC(hi, lo);
        }
        if (nblocks == 2)
            sm4_crypt2(rk, b);
        else
            sm4_crypt4(rk, b);
        for (j = 0; j < (int)nblocks; j++)
            blk_store(out + 16 * j, blk_xor(b[j], blk_load(in + 16 * j)));
    } else if (nblocks == 1) {
        blk_store(out, blk_xor(sm4_crypt1(rk, ctr_blk(hi, lo)),
                               blk_load(in)));
        CTR_INC(hi, lo);
    }
    blk_store(ctr, ctr_blk(hi, lo));
}

/*
 * The portable GCM table: constant-time GHASH, and GCM composed by the mode
 * layer from it and the block table's ctr (CCM and XTS likewise from the
 * block table: the portable block table has no table for them).
 */
const SMG_GCM_KERNEL sm4_gcm_c = {
    "ghash-c", smg_ghash_c_init, smg_ghash_c, NULL, NULL, NULL, NULL
};

const SMG_BLOCK_KERNEL sm4_kernel_c = {
    "sm4-c",
    sm4_c_ecb,
    sm4_c_cbc_enc,
    sm4_c_cbc_dec,
    sm4_c_cfb_enc,
    sm4_c_cfb_dec,
    sm4_c_ofb,
    sm4_c_ctr,
    NULL,
    &sm4_gcm_c, NULL, NULL,
    NULL
};

/* ---- The kernel list and the choice ---- */

/*
 * x86-64: a tier's tables, one per GHASH the CPU may have (the widest it
 * has is taken: zmm on gfni-avx512, ymm on the others, then xmm, then the
 * portable one), each table of an AES-NI tier beside its "-ct" sibling.
 * The tiers in speed order, the AES-NI ones below GFNI.
 */
#define SM4_X86_WIDTHS(t, caps, flags, schedule, widest)                          { &sm4_kernel_##t, (caps) | (widest), flags, schedule },                     { &sm4_kernel_##t##_xmm, (caps) | SMG_CAPS_GHASH_XMM, flags, schedule },      { &sm4_kernel_##t##_c, caps, flags, schedule }
#define SM4_X86_NI_TIER(t, caps)                                                  { &sm4_kernel_##t, (caps) | SMG_CAPS_GHASH_YMM, 0, NULL },                   { &sm4_kernel_##t##_ct, (caps) | SMG_CAPS_GHASH_YMM,                           SMG_KERNEL_CT | SMG_KERNEL_CT_ONLY, NULL },                                { &sm4_kernel_##t##_xmm, (caps) | SMG_CAPS_GHASH_XMM, 0, NULL },             { &sm4_kernel_##t##_ct_xmm, (caps) | SMG_CAPS_GHASH_XMM,                       SMG_KERNEL_CT | SMG_KERNEL_CT_ONLY, NULL },                                { &sm4_kernel_##t##_c, caps, 0, NULL },                                      { &sm4_kernel_##t##_ct_c, caps, SMG_KERNEL_CT | SMG_KERNEL_CT_ONLY, NULL }

static const SMG_KERNEL_ENTRY sm4_kernels[] = {
#ifdef SM4_X86_ASM
    /* the serial rounds tuned on Zen 4, and on Golden Cove (src/sm4_x86.c) */
    SM4_X86_WIDTHS(gfni_avx512, SM4_CAPS_GFNI_AVX512, SMG_KERNEL_CT, "zen4",
                   SMG_CAPS_GHASH_ZMM),
    SM4_X86_WIDTHS(gfni_avx512_glc, SM4_CAPS_GFNI_AVX512, SMG_KERNEL_CT, "glc",
                   SMG_CAPS_GHASH_ZMM),
    SM4_X86_WIDTHS(gfni_avx2, SM4_CAPS_GFNI_AVX2, SMG_KERNEL_CT, NULL,
                   SMG_CAPS_GHASH_YMM),
    SM4_X86_NI_TIER(vaes_avx2, SM4_CAPS_VAES_AVX2),
    SM4_X86_NI_TIER(aesni_avx2, SM4_CAPS_AESNI_AVX2),
    SM4_X86_NI_TIER(aesni_avx, SM4_CAPS_AESNI_AVX),
#endif
#ifdef SM4_ARM_ASM
    /* constant-time throughout; with PMULL and without */
    { &sm4_kernel_sm4e_pmull, SM4_CAPS_SM4E | SM4_CAPS_PMULL, SMG_KERNEL_CT,
      NULL },
    { &sm4_kernel_sm4e, SM4_CAPS_SM4E, SMG_KERNEL_CT, NULL },
    { &sm4_kernel_neon_pmull, SM4_CAPS_NEON | SM4_CAPS_PMULL, SMG_KERNEL_CT,
      NULL },
    { &sm4_kernel_neon, SM4_CAPS_NEON, SMG_KERNEL_CT, NULL },
#endif
    { &sm4_kernel_c, 0, 0, NULL },
};

/* A table is reported by its block and GHASH names: "gfni-avx2+clmul-avx". */
static void sm4_describe(const void *table, char *buf, size_t len)
{
    const SMG_BLOCK_KERNEL *k = table;

    snprintf(buf, len, "%s+%s", k->name, k->gcm->name);
}

const SMG_KERNEL_FAMILY sm4_kernel_family = {
    "sm4", sm4_kernels, sizeof(sm4_kernels) / sizeof(sm4_kernels[0]),
    sm4_describe,
#ifdef SM4_X86_ASM
    sm4_schedule_x86,
#else
    NULL,
#endif
};

const SMG_BLOCK_KERNEL *sm4_kernel(int constant_time)
{
    return smg_kernel_choose(&sm4_kernel_family, constant_time);
}
