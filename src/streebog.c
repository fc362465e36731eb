/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Streebog (GOST R 34.11-2012, RFC 6986) in portable C: the standard's
 * constants, the compression function g_N in two forms (kernel
 * streebog_kernel_c, eight 2 KiB tables that fold S, P and L into one
 * lookup per byte, not constant-time; kernel streebog_kernel_c_ct, the
 * state held bit-sliced, S computed and L by masks, constant-time), the
 * 512-bit addition, and the family's list of kernel tables
 * (src/kernel_list.h), the assembly ones included, with streebog_kernel()
 * over it.  The digests themselves are providers/streebog_digest.c's tables
 * over the digest layer.
 *
 * Vectors are 8 little-endian 64-bit words, word 0 the least significant
 * (src/streebog.h): byte i of a vector is the standard's a_i, so S maps
 * each byte, P (tau) transposes the vector as an 8x8 matrix of bytes, and L
 * maps each word by the standard's 64x64 bit matrix.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>

#include "byteorder.h"
#include "cpu.h"
#include "kernel_list.h"
#include "streebog.h"
/* The assembly tiers' headers, where this tree has them yet. */
#if defined(__has_include)
# if __has_include("streebog_x86.h")
#  include "streebog_x86.h"
# endif
# if __has_include("streebog_arm.h")
#  include "streebog_arm.h"
# endif
#endif

/* ---- The standard's constants (RFC 6986, section 6) ---- */

/* pi' (RFC 6986 6.1, GOST R 34.11-2012 5.1): X(pi'(0)) ... X(pi'(255)). */
#define STREEBOG_PI(X) \
    X(0xfc) X(0xee) X(0xdd) X(0x11) X(0xcf) X(0x6e) X(0x31) X(0x16) \
    X(0xfb) X(0xc4) X(0xfa) X(0xda) X(0x23) X(0xc5) X(0x04) X(0x4d) \
    X(0xe9) X(0x77) X(0xf0) X(0xdb) X(0x93) X(0x2e) X(0x99) X(0xba) \
    X(0x17) X(0x36) X(0xf1) X(0xbb) X(0x14) X(0xcd) X(0x5f) X(0xc1) \
    X(0xf9) X(0x18) X(0x65) X(0x5a) X(0xe2) X(0x5c) X(0xef) X(0x21) \
    X(0x81) X(0x1c) X(0x3c) X(0x42) X(0x8b) X(0x01) X(0x8e) X(0x4f) \
    X(0x05) X(0x84) X(0x02) X(0xae) X(0xe3) X(0x6a) X(0x8f) X(0xa0) \
    X(0x06) X(0x0b) X(0xed) X(0x98) X(0x7f) X(0xd4) X(0xd3) X(0x1f) \
    X(0xeb) X(0x34) X(0x2c) X(0x51) X(0xea) X(0xc8) X(0x48) X(0xab) \
    X(0xf2) X(0x2a) X(0x68) X(0xa2) X(0xfd) X(0x3a) X(0xce) X(0xcc) \
    X(0xb5) X(0x70) X(0x0e) X(0x56) X(0x08) X(0x0c) X(0x76) X(0x12) \
    X(0xbf) X(0x72) X(0x13) X(0x47) X(0x9c) X(0xb7) X(0x5d) X(0x87) \
    X(0x15) X(0xa1) X(0x96) X(0x29) X(0x10) X(0x7b) X(0x9a) X(0xc7) \
    X(0xf3) X(0x91) X(0x78) X(0x6f) X(0x9d) X(0x9e) X(0xb2) X(0xb1) \
    X(0x32) X(0x75) X(0x19) X(0x3d) X(0xff) X(0x35) X(0x8a) X(0x7e) \
    X(0x6d) X(0x54) X(0xc6) X(0x80) X(0xc3) X(0xbd) X(0x0d) X(0x57) \
    X(0xdf) X(0xf5) X(0x24) X(0xa9) X(0x3e) X(0xa8) X(0x43) X(0xc9) \
    X(0xd7) X(0x79) X(0xd6) X(0xf6) X(0x7c) X(0x22) X(0xb9) X(0x03) \
    X(0xe0) X(0x0f) X(0xec) X(0xde) X(0x7a) X(0x94) X(0xb0) X(0xbc) \
    X(0xdc) X(0xe8) X(0x28) X(0x50) X(0x4e) X(0x33) X(0x0a) X(0x4a) \
    X(0xa7) X(0x97) X(0x60) X(0x73) X(0x1e) X(0x00) X(0x62) X(0x44) \
    X(0x1a) X(0xb8) X(0x38) X(0x82) X(0x64) X(0x9f) X(0x26) X(0x41) \
    X(0xad) X(0x45) X(0x46) X(0x92) X(0x27) X(0x5e) X(0x55) X(0x2f) \
    X(0x8c) X(0xa3) X(0xa5) X(0x7d) X(0x69) X(0xd5) X(0x95) X(0x3b) \
    X(0x07) X(0x58) X(0xb3) X(0x40) X(0x86) X(0xac) X(0x1d) X(0xf7) \
    X(0x30) X(0x37) X(0x6b) X(0xe4) X(0x88) X(0xd9) X(0xe7) X(0x89) \
    X(0xe1) X(0x1b) X(0x83) X(0x49) X(0x4c) X(0x3f) X(0xf8) X(0xfe) \
    X(0x8d) X(0x53) X(0xaa) X(0x90) X(0xca) X(0xd8) X(0x85) X(0x61) \
    X(0x20) X(0x71) X(0x67) X(0xa4) X(0x2d) X(0x2b) X(0x09) X(0x5b) \
    X(0xcb) X(0x9b) X(0x25) X(0xd0) X(0xbe) X(0xe5) X(0x6c) X(0x52) \
    X(0x59) X(0xa6) X(0x74) X(0xd2) X(0xe6) X(0xf4) X(0xb4) X(0xc0) \
    X(0xd1) X(0x66) X(0xaf) X(0xc2) X(0x39) X(0x4b) X(0x63) X(0xb6)

/*
 * The rows A_0 ... A_63 of L's matrix (RFC 6986 6.4, GOST R 34.11-2012
 * 5.4), eight to a macro: l(b) is the sum of A_i over the bits b_{63-i} of
 * b that are set, bit 0 the least significant.
 */
#define STREEBOG_A_0 \
    0x8e20faa72ba0b470ULL, 0x47107ddd9b505a38ULL, 0xad08b0e0c3282d1cULL, \
    0xd8045870ef14980eULL, 0x6c022c38f90a4c07ULL, 0x3601161cf205268dULL, \
    0x1b8e0b0e798c13c8ULL, 0x83478b07b2468764ULL
#define STREEBOG_A_1 \
    0xa011d380818e8f40ULL, 0x5086e740ce47c920ULL, 0x2843fd2067adea10ULL, \
    0x14aff010bdd87508ULL, 0x0ad97808d06cb404ULL, 0x05e23c0468365a02ULL, \
    0x8c711e02341b2d01ULL, 0x46b60f011a83988eULL
#define STREEBOG_A_2 \
    0x90dab52a387ae76fULL, 0x486dd4151c3dfdb9ULL, 0x24b86a840e90f0d2ULL, \
    0x125c354207487869ULL, 0x092e94218d243cbaULL, 0x8a174a9ec8121e5dULL, \
    0x4585254f64090fa0ULL, 0xaccc9ca9328a8950ULL
#define STREEBOG_A_3 \
    0x9d4df05d5f661451ULL, 0xc0a878a0a1330aa6ULL, 0x60543c50de970553ULL, \
    0x302a1e286fc58ca7ULL, 0x18150f14b9ec46ddULL, 0x0c84890ad27623e0ULL, \
    0x0642ca05693b9f70ULL, 0x0321658cba93c138ULL
#define STREEBOG_A_4 \
    0x86275df09ce8aaa8ULL, 0x439da0784e745554ULL, 0xafc0503c273aa42aULL, \
    0xd960281e9d1d5215ULL, 0xe230140fc0802984ULL, 0x71180a8960409a42ULL, \
    0xb60c05ca30204d21ULL, 0x5b068c651810a89eULL
#define STREEBOG_A_5 \
    0x456c34887a3805b9ULL, 0xac361a443d1c8cd2ULL, 0x561b0d22900e4669ULL, \
    0x2b838811480723baULL, 0x9bcf4486248d9f5dULL, 0xc3e9224312c8c1a0ULL, \
    0xeffa11af0964ee50ULL, 0xf97d86d98a327728ULL
#define STREEBOG_A_6 \
    0xe4fa2054a80b329cULL, 0x727d102a548b194eULL, 0x39b008152acb8227ULL, \
    0x9258048415eb419dULL, 0x492c024284fbaec0ULL, 0xaa16012142f35760ULL, \
    0x550b8e9e21f7a530ULL, 0xa48b474f9ef5dc18ULL
#define STREEBOG_A_7 \
    0x70a6a56e2440598eULL, 0x3853dc371220a247ULL, 0x1ca76e95091051adULL, \
    0x0edd37c48a08a6d8ULL, 0x07e095624504536cULL, 0x8d70c431ac02a736ULL, \
    0xc83862965601dd1bULL, 0x641c314b2b8ee083ULL

/*
 * The iteration constants C_1 ... C_12 of the key schedule (RFC 6986 6.5,
 * GOST R 34.11-2012 5.5), each as the standard prints it, most significant
 * word first: word w of C_i in our order is streebog_c[i - 1][7 - w].
 */
static const uint64_t streebog_c[12][8] = {
    { /* C_1 */
        0xb1085bda1ecadae9ULL, 0xebcb2f81c0657c1fULL, 0x2f6a76432e45d016ULL,
        0x714eb88d7585c4fcULL, 0x4b7ce09192676901ULL, 0xa2422a08a460d315ULL,
        0x05767436cc744d23ULL, 0xdd806559f2a64507ULL
    },
    { /* C_2 */
        0x6fa3b58aa99d2f1aULL, 0x4fe39d460f70b5d7ULL, 0xf3feea720a232b98ULL,
        0x61d55e0f16b50131ULL, 0x9ab5176b12d69958ULL, 0x5cb561c2db0aa7caULL,
        0x55dda21bd7cbcd56ULL, 0xe679047021b19bb7ULL
    },
    { /* C_3 */
        0xf574dcac2bce2fc7ULL, 0x0a39fc286a3d8435ULL, 0x06f15e5f529c1f8bULL,
        0xf2ea7514b1297b7bULL, 0xd3e20fe490359eb1ULL, 0xc1c93a376062db09ULL,
        0xc2b6f443867adb31ULL, 0x991e96f50aba0ab2ULL
    },
    { /* C_4 */
        0xef1fdfb3e81566d2ULL, 0xf948e1a05d71e4ddULL, 0x488e857e335c3c7dULL,
        0x9d721cad685e353fULL, 0xa9d72c82ed03d675ULL, 0xd8b71333935203beULL,
        0x3453eaa193e837f1ULL, 0x220cbebc84e3d12eULL
    },
    { /* C_5 */
        0x4bea6bacad474799ULL, 0x9a3f410c6ca92363ULL, 0x7f151c1f1686104aULL,
        0x359e35d7800fffbdULL, 0xbfcd1747253af5a3ULL, 0xdfff00b723271a16ULL,
        0x7a56a27ea9ea63f5ULL, 0x601758fd7c6cfe57ULL
    },
    { /* C_6 */
        0xae4faeae1d3ad3d9ULL, 0x6fa4c33b7a3039c0ULL, 0x2d66c4f95142a46cULL,
        0x187f9ab49af08ec6ULL, 0xcffaa6b71c9ab7b4ULL, 0x0af21f66c2bec6b6ULL,
        0xbf71c57236904f35ULL, 0xfa68407a46647d6eULL
    },
    { /* C_7 */
        0xf4c70e16eeaac5ecULL, 0x51ac86febf240954ULL, 0x399ec6c7e6bf87c9ULL,
        0xd3473e33197a93c9ULL, 0x0992abc52d822c37ULL, 0x06476983284a0504ULL,
        0x3517454ca23c4af3ULL, 0x8886564d3a14d493ULL
    },
    { /* C_8 */
        0x9b1f5b424d93c9a7ULL, 0x03e7aa020c6e4141ULL, 0x4eb7f8719c36de1eULL,
        0x89b4443b4ddbc49aULL, 0xf4892bcb929b0690ULL, 0x69d18d2bd1a5c42fULL,
        0x36acc2355951a8d9ULL, 0xa47f0dd4bf02e71eULL
    },
    { /* C_9 */
        0x378f5a541631229bULL, 0x944c9ad8ec165fdeULL, 0x3a7d3a1b25894224ULL,
        0x3cd955b7e00d0984ULL, 0x800a440bdbb2ceb1ULL, 0x7b2b8a9aa6079c54ULL,
        0x0e38dc92cb1f2a60ULL, 0x7261445183235adbULL
    },
    { /* C_10 */
        0xabbedea680056f52ULL, 0x382ae548b2e4f3f3ULL, 0x8941e71cff8a78dbULL,
        0x1fffe18a1b336103ULL, 0x9fe76702af69334bULL, 0x7a1e6c303b7652f4ULL,
        0x3698fad1153bb6c3ULL, 0x74b4c7fb98459cedULL
    },
    { /* C_11 */
        0x7bcd9ed0efc889fbULL, 0x3002c6cd635afe94ULL, 0xd8fa6bbbebab0761ULL,
        0x2001802114846679ULL, 0x8a1d71efea48b9caULL, 0xefbacd1d7d476e98ULL,
        0xdea2594ac06fd85dULL, 0x6bcaa4cd81f32d1bULL
    },
    { /* C_12 */
        0x378ee767f11631baULL, 0xd21380b00449b17aULL, 0xcda43c32bcdf1d77ULL,
        0xf82012d430219f9bULL, 0x5d80ef9d1891cc86ULL, 0xe71da4aa88e12852ULL,
        0xfaf417d5d9b21b99ULL, 0x48bc924af11bd720ULL
    },
};

/* ---- The table kernel (not constant-time) ---- */

/*
 * LPS as eight lookups a word: word w of L(P(S(x))) is l() of the bytes w
 * of x[0] ... x[7] (P), so it is the sum over c of l() of pi(byte w of
 * x[c]) placed in byte c, and streebog_lps[c][v] holds that for every v.
 * Byte c of a word carries bits 8c..8c+7, the rows A_{63-8c-t} for its
 * bits t: column c sums the group STREEBOG_A_(7-c), its first row for the
 * byte's top bit.  Built by the compiler from pi and A above.
 */
#define STREEBOG_LPS_ENTRY(p, r0, r1, r2, r3, r4, r5, r6, r7)                \
    ((((p) & 0x80) ? (r0) : 0) ^ (((p) & 0x40) ? (r1) : 0)                   \
     ^ (((p) & 0x20) ? (r2) : 0) ^ (((p) & 0x10) ? (r3) : 0)                 \
     ^ (((p) & 0x08) ? (r4) : 0) ^ (((p) & 0x04) ? (r5) : 0)                 \
     ^ (((p) & 0x02) ? (r6) : 0) ^ (((p) & 0x01) ? (r7) : 0)),
#define STREEBOG_LPS_ENTRY_(...) STREEBOG_LPS_ENTRY(__VA_ARGS__)
#define STREEBOG_LPS_COL0(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_7)
#define STREEBOG_LPS_COL1(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_6)
#define STREEBOG_LPS_COL2(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_5)
#define STREEBOG_LPS_COL3(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_4)
#define STREEBOG_LPS_COL4(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_3)
#define STREEBOG_LPS_COL5(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_2)
#define STREEBOG_LPS_COL6(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_1)
#define STREEBOG_LPS_COL7(p) STREEBOG_LPS_ENTRY_(p, STREEBOG_A_0)

static const _Alignas(64) uint64_t streebog_lps[8][256] = {
    { STREEBOG_PI(STREEBOG_LPS_COL0) },
    { STREEBOG_PI(STREEBOG_LPS_COL1) },
    { STREEBOG_PI(STREEBOG_LPS_COL2) },
    { STREEBOG_PI(STREEBOG_LPS_COL3) },
    { STREEBOG_PI(STREEBOG_LPS_COL4) },
    { STREEBOG_PI(STREEBOG_LPS_COL5) },
    { STREEBOG_PI(STREEBOG_LPS_COL6) },
    { STREEBOG_PI(STREEBOG_LPS_COL7) },
};

/* y = L(P(S(x))); y and x do not overlap. */
static inline void lps_table(uint64_t y[8], const uint64_t x[8])
{
    int w;

    for (w = 0; w < 8; w++) {
        unsigned int s = 8 * w;

        y[w] = streebog_lps[0][(x[0] >> s) & 0xff]
            ^ streebog_lps[1][(x[1] >> s) & 0xff]
            ^ streebog_lps[2][(x[2] >> s) & 0xff]
            ^ streebog_lps[3][(x[3] >> s) & 0xff]
            ^ streebog_lps[4][(x[4] >> s) & 0xff]
            ^ streebog_lps[5][(x[5] >> s) & 0xff]
            ^ streebog_lps[6][(x[6] >> s) & 0xff]
            ^ streebog_lps[7][(x[7] >> s) & 0xff];
    }
}

/* ---- g_N and the block loop ---- */

/*
 * h = g_N(h, m) = E(LPS(h ^ N), m) ^ h ^ m (RFC 6986 7), E's twelve rounds
 * LPSX[K_i] with the key schedule K_{i+1} = LPS(K_i ^ C_i) beside them,
 * then X[K_13].  Always inlined, as blocks_with: clang otherwise keeps
 * them functions of their own, and the static check (test/80-ct.t) then
 * finds no lookup in streebog_c_blocks.
 */
static inline __attribute__((always_inline))
void g_table(uint64_t h[8], const uint64_t N[8], const uint64_t m[8])
{
    uint64_t k[8], s[8], t[8];
    int i, w;

    for (w = 0; w < 8; w++)
        t[w] = h[w] ^ N[w];
    lps_table(k, t);
    for (w = 0; w < 8; w++)
        t[w] = m[w] ^ k[w];
    for (i = 0; i < 12; i++) {
        lps_table(s, t);
        for (w = 0; w < 8; w++)
            t[w] = k[w] ^ streebog_c[i][7 - w];
        lps_table(k, t);
        for (w = 0; w < 8; w++)
            t[w] = s[w] ^ k[w];
    }
    for (w = 0; w < 8; w++)
        h[w] ^= t[w] ^ m[w];
}

typedef void (*g_words_fn)(uint64_t h[8], const uint64_t N[8],
                           const uint64_t m[8]);

static inline void load_block(uint64_t m[8], const unsigned char *in)
{
    int w;

    for (w = 0; w < 8; w++)
        m[w] = load_le64(in + 8 * w);
}

/*
 * Carries as 0/1 words from unsigned comparisons, which compilers turn into
 * flag arithmetic (setc, adc, sltu), never a branch.
 */
static inline void add512(uint64_t a[8], const uint64_t b[8])
{
    uint64_t carry = 0;
    int w;

    for (w = 0; w < 8; w++) {
        uint64_t s = a[w] + b[w], c = s < b[w];

        a[w] = s + carry;
        carry = c | (a[w] < carry);
    }
}

/* The same for the digest's finishing step (src/streebog.h). */
void streebog_add512(uint64_t a[8], const uint64_t b[8])
{
    add512(a, b);
}

/* N += 512, as branch-free as the sum above. */
static inline void add_block_length(uint64_t N[8])
{
    uint64_t carry = 512;
    int w;

    for (w = 0; w < 8; w++) {
        N[w] += carry;
        carry = N[w] < carry;
    }
}

/* Always inlined, so that each kernel's g is a direct call (clang made it
 * a function of its own, calling g through a register). */
static inline __attribute__((always_inline))
void blocks_with(g_words_fn g, STREEBOG_CHAIN *c, const unsigned char *in,
                 size_t nblocks)
{
    uint64_t m[8];

    for (; nblocks > 0; nblocks--, in += STREEBOG_BLOCK_SIZE) {
        load_block(m, in);
        g(c->h, c->N, m);
        add_block_length(c->N);
        add512(c->Sigma, m);
    }
}

static void streebog_c_blocks(STREEBOG_CHAIN *c, const unsigned char *in,
                              size_t nblocks)
{
    blocks_with(g_table, c, in, nblocks);
}

static void streebog_c_g(uint64_t h[8], const uint64_t N[8],
                         const unsigned char m[64])
{
    uint64_t mw[8];

    load_block(mw, m);
    g_table(h, N, mw);
}

const STREEBOG_KERNEL streebog_kernel_c = {
    "streebog-c", streebog_c_blocks, streebog_c_g
};

/* ---- The constant-time kernel: in planes, S bit-sliced, L by masks ---- */

/*
 * pi and A as arrays, for the constant-time kernel: it reads them only at
 * indices that are loop counters or constants, never data-dependent ones.
 */
#define STREEBOG_PI_BYTE(v) v,
static const uint8_t streebog_pi[256] = { STREEBOG_PI(STREEBOG_PI_BYTE) };
static const uint64_t streebog_a[64] = {
    STREEBOG_A_0, STREEBOG_A_1, STREEBOG_A_2, STREEBOG_A_3,
    STREEBOG_A_4, STREEBOG_A_5, STREEBOG_A_6, STREEBOG_A_7
};

/* Swaps the bits of x under mask with those shift places above them. */
static inline uint64_t delta_swap(uint64_t x, uint64_t mask,
                                  unsigned int shift)
{
    uint64_t t = ((x >> shift) ^ x) & mask;

    return x ^ t ^ (t << shift);
}

/* Transposes x as an 8x8 bit matrix, its bytes the rows. */
static inline uint64_t transpose_bits(uint64_t x)
{
    x = delta_swap(x, 0x00aa00aa00aa00aaULL, 7);
    x = delta_swap(x, 0x0000cccc0000ccccULL, 14);
    return delta_swap(x, 0x00000000f0f0f0f0ULL, 28);
}

/* Transposes the 8x8 matrix of bytes whose rows are the words of u. */
static inline void transpose_bytes(uint64_t u[8])
{
    uint64_t t;
    int i;

    for (i = 0; i < 8; i += 2) {
        t = ((u[i] >> 8) ^ u[i + 1]) & 0x00ff00ff00ff00ffULL;
        u[i + 1] ^= t;
        u[i] ^= t << 8;
    }
    for (i = 0; i < 8; i += (i & 1) ? 3 : 1) {
        t = ((u[i] >> 16) ^ u[i + 2]) & 0x0000ffff0000ffffULL;
        u[i + 2] ^= t;
        u[i] ^= t << 16;
    }
    for (i = 0; i < 4; i++) {
        t = ((u[i] >> 32) ^ u[i + 4]) & 0x00000000ffffffffULL;
        u[i + 4] ^= t;
        u[i] ^= t << 32;
    }
}

/*
 * Bit-slices a vector: plane[j] bit 8r + c = bit j of byte c of x[r].  Each
 * word's bits are transposed, then the bytes across the words.
 */
static inline void to_planes(uint64_t plane[8], const uint64_t x[8])
{
    int r;

    for (r = 0; r < 8; r++)
        plane[r] = transpose_bits(x[r]);
    transpose_bytes(plane);
}

/* The inverse of to_planes. */
static inline void from_planes(uint64_t x[8], const uint64_t plane[8])
{
    int r;

    memcpy(x, plane, 8 * sizeof(x[0]));
    transpose_bytes(x);
    for (r = 0; r < 8; r++)
        x[r] = transpose_bits(x[r]);
}

/*
 * pi on the 64 bytes at once, in planes: the byte's low and high nibbles
 * as their 16 minterms each (lo[l], hi[h]: masks of the bytes whose nibble
 * is l, h), and output bit k as the sum over h of hi[h] & g(h, k), g(h, k)
 * the sum of lo[l] over the l with bit k of pi(16h + l) set.  g(h, k) is
 * four lookups in comb, the sums of every subset of each four lo[l].
 * Written out in full so that every read of pi and every index into comb
 * is a constant: the compiler folds them.
 */
#define SB_BIT(h, k, l) ((streebog_pi[16 * (h) + (l)] >> (k)) & 1)
#define SB_NIB(h, k, g)                                                      \
    (SB_BIT(h, k, 4 * (g)) | SB_BIT(h, k, 4 * (g) + 1) << 1                  \
     | SB_BIT(h, k, 4 * (g) + 2) << 2 | SB_BIT(h, k, 4 * (g) + 3) << 3)
#define SB_G(h, k)                                                           \
    (comb[0][SB_NIB(h, k, 0)] ^ comb[1][SB_NIB(h, k, 1)]                     \
     ^ comb[2][SB_NIB(h, k, 2)] ^ comb[3][SB_NIB(h, k, 3)])
#define SB_HG(h, k) (hi[h] & SB_G(h, k))
#define SB_OUT(k)                                                            \
    (SB_HG(0, k) ^ SB_HG(1, k) ^ SB_HG(2, k) ^ SB_HG(3, k)                   \
     ^ SB_HG(4, k) ^ SB_HG(5, k) ^ SB_HG(6, k) ^ SB_HG(7, k)                 \
     ^ SB_HG(8, k) ^ SB_HG(9, k) ^ SB_HG(10, k) ^ SB_HG(11, k)               \
     ^ SB_HG(12, k) ^ SB_HG(13, k) ^ SB_HG(14, k) ^ SB_HG(15, k))

/* The 16 minterms of the nibble in planes q[0..3]: m[l] = [nibble == l]. */
static inline void nibble_minterms(uint64_t m[16], const uint64_t q[4])
{
    uint64_t a[4], b[4];
    int l;

    a[0] = ~q[0] & ~q[1];
    a[1] = q[0] & ~q[1];
    a[2] = ~q[0] & q[1];
    a[3] = q[0] & q[1];
    b[0] = ~q[2] & ~q[3];
    b[1] = q[2] & ~q[3];
    b[2] = ~q[2] & q[3];
    b[3] = q[2] & q[3];
    for (l = 0; l < 16; l++)
        m[l] = a[l & 3] & b[l >> 2];
}

static void sbox_planes(uint64_t y[8], const uint64_t p[8])
{
    uint64_t lo[16], hi[16], comb[4][16];
    int g, v;

    nibble_minterms(lo, p);
    nibble_minterms(hi, p + 4);
    for (g = 0; g < 4; g++) {
        comb[g][0] = 0;
        for (v = 1; v < 16; v++)
            comb[g][v] = comb[g][v & (v - 1)]
                         ^ lo[4 * g + __builtin_ctz((unsigned int)v)];
    }
    y[0] = SB_OUT(0);
    y[1] = SB_OUT(1);
    y[2] = SB_OUT(2);
    y[3] = SB_OUT(3);
    y[4] = SB_OUT(4);
    y[5] = SB_OUT(5);
    y[6] = SB_OUT(6);
    y[7] = SB_OUT(7);
}

/* Rotates each byte of x left by d bits (0 < d < 8). */
static inline uint64_t rotl_bytes(uint64_t x, unsigned int d)
{
    uint64_t lo = 0x0101010101010101ULL * (0xffu >> d);

    return ((x & lo) << d) | ((x >> (8 - d)) & ~(lo << d));
}

/*
 * L(P(.)) in planes.  Plane j' of the output has at bit 8w + c' the sum
 * over (c, j) of bit j of byte w of word c of the input (P), taken where
 * row A_{63-8c-j} has bit 8c' + j' (L).  With each input plane transposed
 * (bit 8w + c: bit j of byte w of word c), byte w's bit c moves to bit
 * c' = c + d: every byte of plane j rotated by d, under a mask that is
 * the same byte for every w.  streebog_lmask[j][j'][d] holds it, built
 * once from A (it is public).
 */
static uint64_t streebog_lmask[8][8][8];
static CRYPTO_ONCE streebog_lmask_once = CRYPTO_ONCE_STATIC_INIT;

static void build_lmask(void)
{
    int j, jj, d, cc;

    for (j = 0; j < 8; j++)
        for (jj = 0; jj < 8; jj++)
            for (d = 0; d < 8; d++) {
                unsigned int mb = 0;

                for (cc = 0; cc < 8; cc++) {
                    int c = (cc - d) & 7;

                    mb |= (unsigned int)(streebog_a[63 - 8 * c - j]
                                         >> (8 * cc + jj) & 1) << cc;
                }
                streebog_lmask[j][jj][d] = 0x0101010101010101ULL * mb;
            }
}

/* y = L(P(S(x))), both in planes. */
static inline void lps_planes(uint64_t y[8], const uint64_t x[8])
{
    uint64_t z[8], r[8][8];
    int j, d;

    sbox_planes(z, x);
    for (j = 0; j < 8; j++) {
        r[j][0] = transpose_bits(z[j]);
        for (d = 1; d < 8; d++)
            r[j][d] = rotl_bytes(r[j][0], d);
    }
    for (d = 0; d < 8; d++)
        y[d] = 0;
    for (j = 0; j < 8; j++)
        for (d = 0; d < 8; d++) {
            const uint64_t *mk = &streebog_lmask[j][0][d];
            uint64_t v = r[j][d];

            y[0] ^= v & mk[0];
            y[1] ^= v & mk[8];
            y[2] ^= v & mk[16];
            y[3] ^= v & mk[24];
            y[4] ^= v & mk[32];
            y[5] ^= v & mk[40];
            y[6] ^= v & mk[48];
            y[7] ^= v & mk[56];
        }
}

/*
 * g_N as g_table, every LPS and key addition in planes (LPS, X and the
 * XOR of C_i are all bitwise there): in and out of them once per call.
 * CRYPTO_THREAD_run_once fails only if pthread_once does, which it cannot
 * with these arguments; were it to, no answer is better than a wrong one.
 */
static void g_planes(uint64_t h[8], const uint64_t N[8], const uint64_t m[8])
{
    uint64_t k[8], s[8], t[8], mp[8];
    int i, w;

    if (!CRYPTO_THREAD_run_once(&streebog_lmask_once, build_lmask))
        OPENSSL_die("streebog: cannot build the L masks", OPENSSL_FILE,
                    OPENSSL_LINE);
    for (w = 0; w < 8; w++)
        t[w] = h[w] ^ N[w];
    to_planes(s, t);
    lps_planes(k, s);
    to_planes(mp, m);
    for (w = 0; w < 8; w++)
        t[w] = mp[w] ^ k[w];
    for (i = 0; i < 12; i++) {
        lps_planes(s, t);
        for (w = 0; w < 8; w++)
            t[w] = streebog_c[i][7 - w];
        to_planes(t, t);
        for (w = 0; w < 8; w++)
            t[w] ^= k[w];
        lps_planes(k, t);
        for (w = 0; w < 8; w++)
            t[w] = s[w] ^ k[w];
    }
    for (w = 0; w < 8; w++)
        t[w] ^= mp[w];
    from_planes(s, t);
    for (w = 0; w < 8; w++)
        h[w] ^= s[w];
}

static void streebog_c_ct_blocks(STREEBOG_CHAIN *c, const unsigned char *in,
                                 size_t nblocks)
{
    blocks_with(g_planes, c, in, nblocks);
}

static void streebog_c_ct_g(uint64_t h[8], const uint64_t N[8],
                            const unsigned char m[64])
{
    uint64_t mw[8];

    load_block(mw, m);
    g_planes(h, N, mw);
}

const STREEBOG_KERNEL streebog_kernel_c_ct = {
    "streebog-c-ct", streebog_c_ct_blocks, streebog_c_ct_g
};

/* ---- The kernel list and the choice ---- */

/*
 * The assembly tiers (src/streebog_x86.h, src/streebog_arm.h) bring their
 * rows as STREEBOG_X86_KERNELS / STREEBOG_ARM_KERNELS, every one
 * constant-time.  Then the portable ones: the bit-sliced kernel only with
 * "constant-time = yes", the table kernel otherwise.
 */
static const SMG_KERNEL_ENTRY streebog_kernels[] = {
#ifdef STREEBOG_X86_ASM
    STREEBOG_X86_KERNELS
#endif
#ifdef STREEBOG_ARM_ASM
    STREEBOG_ARM_KERNELS
#endif
    { &streebog_kernel_c_ct, 0, SMG_KERNEL_CT | SMG_KERNEL_CT_ONLY, NULL },
    { &streebog_kernel_c, 0, 0, NULL },
};

static void streebog_describe(const void *table, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ((const STREEBOG_KERNEL *)table)->name);
}

const SMG_KERNEL_FAMILY streebog_kernel_family = {
    "streebog", streebog_kernels,
    sizeof(streebog_kernels) / sizeof(streebog_kernels[0]),
    streebog_describe, NULL
};

const STREEBOG_KERNEL *streebog_kernel(int constant_time)
{
    return smg_kernel_choose(&streebog_kernel_family, constant_time);
}
