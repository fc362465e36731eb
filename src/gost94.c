/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GOST R 34.11-94 (RFC 5831): the hash's two parameter sets and their
 * tables, the step function f(H, M) of RFC 5831 section 6 (key
 * generation, the encryption transformation, the shuffle), the control sum
 * and the finishing rule of section 7, and the portable kernel of the
 * step's four encryptions.  The vector kernels are entries of the GOST
 * 28147-89 assembly (asm/gost89-x86_64.pl), taken beside the GOST 28147-89
 * table the family's chooser gave.
 *
 * Byte order.  RFC 5831 writes 256-bit values as numbers, most significant
 * first; programs (libgcrypt, gost-engine, Botan) read a message block's
 * byte i as the value's byte i from the least significant end, and print
 * H the same way.  So every 256-bit value here is four little-endian
 * 64-bit words, word 0 the least significant ("y1" of RFC 5831's A), and
 * the value's 16-bit words are its bytes 2i, 2i+1 ("y1" of its psi).
 */
#include <string.h>
#include <openssl/crypto.h>
#include "byteorder.h"
#include "gost94.h"
#include "cpu.h"
#include "gost89_x86.h"

/*
 * S-boxes, sbox[i] = K(i+1) as in src/gost89.c (sbox[0] acts on the least
 * significant nibble).  The CryptoPro set is RFC 4357 section 11.2's
 * id-GostR3411-94-CryptoProParamSet; the test set is the one RFC 5831
 * section 7.3.1 prints for its examples (GOST R 34.11-94 appendix A).
 * libgcrypt's GOSTR3411_CP and GOSTR3411_94 agree (test/evp_diff.c,
 * test/gost94_test.c).
 */
const GOST89_PARAMSET gost94_paramset_cryptopro = {
    "id-GostR3411-94-CryptoProParamSet", "CryptoPro", "1.2.643.2.2.30.1",
    {
        {0xA, 0x4, 0x5, 0x6, 0x8, 0x1, 0x3, 0x7, 0xD, 0xC, 0xE, 0x0, 0x9, 0x2, 0xB, 0xF},
        {0x5, 0xF, 0x4, 0x0, 0x2, 0xD, 0xB, 0x9, 0x1, 0x7, 0x6, 0x3, 0xC, 0xE, 0xA, 0x8},
        {0x7, 0xF, 0xC, 0xE, 0x9, 0x4, 0x1, 0x0, 0x3, 0xB, 0x5, 0x2, 0x6, 0xA, 0x8, 0xD},
        {0x4, 0xA, 0x7, 0xC, 0x0, 0xF, 0x2, 0x8, 0xE, 0x1, 0x6, 0x5, 0xD, 0xB, 0x9, 0x3},
        {0x7, 0x6, 0x4, 0xB, 0x9, 0xC, 0x2, 0xA, 0x1, 0x8, 0x0, 0xE, 0xF, 0xD, 0x3, 0x5},
        {0x7, 0x6, 0x2, 0x4, 0xD, 0x9, 0xF, 0x0, 0xA, 0x1, 0x5, 0xB, 0x8, 0xE, 0xC, 0x3},
        {0xD, 0xE, 0x4, 0x1, 0x7, 0x0, 0x5, 0xA, 0x3, 0xC, 0x8, 0xF, 0x6, 0x2, 0x9, 0xB},
        {0x1, 0x3, 0xA, 0x9, 0x5, 0xB, 0x4, 0xF, 0x8, 0x6, 0x7, 0xE, 0xD, 0x0, 0x2, 0xC},
    }
};

const GOST89_PARAMSET gost94_paramset_test = {
    "id-GostR3411-94-TestParamSet", "Test", "1.2.643.2.2.30.0",
    {
        {0x4, 0xA, 0x9, 0x2, 0xD, 0x8, 0x0, 0xE, 0x6, 0xB, 0x1, 0xC, 0x7, 0xF, 0x5, 0x3},
        {0xE, 0xB, 0x4, 0xC, 0x6, 0xD, 0xF, 0xA, 0x2, 0x3, 0x8, 0x1, 0x0, 0x7, 0x5, 0x9},
        {0x5, 0x8, 0x1, 0xD, 0xA, 0x3, 0x4, 0x2, 0xE, 0xF, 0xC, 0x7, 0x6, 0x0, 0x9, 0xB},
        {0x7, 0xD, 0xA, 0x1, 0x0, 0x8, 0x9, 0xF, 0xE, 0x4, 0x6, 0xC, 0xB, 0x2, 0x5, 0x3},
        {0x6, 0xC, 0x7, 0x1, 0x5, 0xF, 0xD, 0x8, 0x4, 0xA, 0x9, 0xE, 0x0, 0x3, 0xB, 0x2},
        {0x4, 0xB, 0xA, 0x0, 0x7, 0x2, 0x1, 0xD, 0x3, 0x6, 0x8, 0x5, 0x9, 0xC, 0xF, 0xE},
        {0xD, 0xB, 0x4, 0x1, 0x3, 0xF, 0x5, 0x9, 0x0, 0xA, 0xE, 0x7, 0x6, 0x8, 0x2, 0xC},
        {0x1, 0xF, 0xD, 0x0, 0x5, 0x7, 0xA, 0x4, 0x9, 0x2, 0x3, 0xE, 0x6, 0xB, 0x8, 0xC},
    }
};

/* ---- Tables, built once for both sets ---- */

static GOST89_SBOX_TABLES gost94_tabs[2];
static CRYPTO_ONCE gost94_tabs_once = CRYPTO_ONCE_STATIC_INIT;

static void gost94_build_all_tables(void)
{
    gost89_build_tables(&gost94_tabs[0], &gost94_paramset_cryptopro);
    gost89_build_tables(&gost94_tabs[1], &gost94_paramset_test);
}

const GOST89_SBOX_TABLES *gost94_tables(const GOST89_PARAMSET *ps)
{
    size_t i = ps == &gost94_paramset_cryptopro ? 0
               : ps == &gost94_paramset_test ? 1 : 2;

    if (i == 2
        || !CRYPTO_THREAD_run_once(&gost94_tabs_once, gost94_build_all_tables))
        return NULL;
    return &gost94_tabs[i];
}

/* ---- The portable kernel ---- */

#define GOST94_F(t, x) \
    ((t)[0][(x) & 255] ^ (t)[1][((x) >> 8) & 255] \
     ^ (t)[2][((x) >> 16) & 255] ^ (t)[3][(x) >> 24])

#if defined(__clang__)
# define GOST94_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
# define GOST94_UNROLL _Pragma("GCC unroll 32")
#else
# define GOST94_UNROLL
#endif

/*
 * The four encryptions interleaved, round by round: one round of one block
 * is a chain of about eight cycles (add, byte extract, load, XORs) and
 * little work, so four chains fill the core.  The key word of round r is
 * word r mod 8 for rounds 0..23, word 7 - r mod 8 for 24..31 (GOST
 * 28147-89's encryption schedule); the last round does not swap, as in
 * src/gost89.c, so the result is (n1 << 32 | n2).
 */
static void gost94_c_encrypt4(const GOST89_SBOX_TABLES *tab,
                              const uint32_t kw[8][4], const uint64_t in[4],
                              uint64_t out[4])
{
    const uint32_t (*t)[256] = tab->t;
    uint32_t n1[4], n2[4];
    int r, i;

    for (i = 0; i < 4; i++) {
        n1[i] = (uint32_t)in[i];
        n2[i] = (uint32_t)(in[i] >> 32);
    }
    GOST94_UNROLL
    for (r = 0; r < 32; r += 2) {
        const uint32_t *k0 = kw[r < 24 ? r & 7 : 7 - (r & 7)];
        const uint32_t *k1 = kw[r < 24 ? (r + 1) & 7 : 7 - ((r + 1) & 7)];

        for (i = 0; i < 4; i++)
            n2[i] ^= GOST94_F(t, n1[i] + k0[i]);
        for (i = 0; i < 4; i++)
            n1[i] ^= GOST94_F(t, n2[i] + k1[i]);
    }
    for (i = 0; i < 4; i++)
        out[i] = (uint64_t)n1[i] << 32 | n2[i];
}

const GOST94_KERNEL gost94_kernel_c = {
    "gost94-c", gost94_c_encrypt4, 0, 0
};

#ifdef GOST89_X86_SIMD
static const GOST94_KERNEL gost94_kernel_avx512 = {
    "gost94-avx512vbmi", gost89_avx512_ecb4k, GOST89_CAPS_AVX512, 1
};
static const GOST94_KERNEL gost94_kernel_avx2 = {
    "gost94-avx2", gost89_avx2_ecb4k, SMG_CAP_AVX2, 1
};
#endif

const GOST94_KERNEL *const gost94_kernels[] = {
#ifdef GOST89_X86_SIMD
    &gost94_kernel_avx512, &gost94_kernel_avx2,
#endif
    &gost94_kernel_c, NULL
};

/*
 * The AVX-512 tables run the AVX-512 entry, the fastest (179.6 MB/s
 * hashing 16 KiB below the provider against the C kernel's 147.0, Zen 4).
 * AVX2's lean round (~15 cycles) is slower than the C kernel's four
 * interleaved table chains (140.5 MB/s against 147.0), so only its "-ct"
 * sibling ("constant-time = yes") runs the AVX2 entry; every other table
 * (the scalar and portable ones, aarch64's) runs the C kernel.
 */
const GOST94_KERNEL *gost94_kernel(const SMG_BLOCK_KERNEL *k)
{
#ifdef GOST89_X86_SIMD
    if (k == &gost89_kernel_avx512 || k == &gost89_kernel_avx512_ct)
        return &gost94_kernel_avx512;
    if (k == &gost89_kernel_avx2_ct)
        return &gost94_kernel_avx2;
#else
    (void)k;
#endif
    return &gost94_kernel_c;
}

/* ---- The step function (RFC 5831 section 6) ---- */

/*
 * The shuffle psi (RFC 5831 section 6.3): psi(y16 || ... || y1) =
 * (y1 ^ y2 ^ y3 ^ y4 ^ y13 ^ y16) || y16 || ... || y2 on 16-bit words, a
 * linear feedback shift register: with x[0..15] the value's words (x[0] =
 * y1), x[t + 16] = x[t] ^ x[t + 1] ^ x[t + 2] ^ x[t + 3] ^ x[t + 12] ^
 * x[t + 15], and psi^n's words are x[n..n + 15]: n steps of the register
 * where applying psi n times over the whole value would move 16 words each
 * time.
 *
 * The window is four 64-bit words w[0..3] (x[t..t + 3] in w[0], ...), and
 * psi4 takes four steps at once: the terms x[t + i .. t + i + 3] and
 * x[t + i + 12] of the four new words are known (w[0] and its shifts by
 * one to three words, w[3]), and the fifth, x[t + i + 15], is the word
 * before each, a prefix XOR along the four (two shifts).
 */
static inline uint64_t funnel(uint64_t lo, uint64_t hi, unsigned int words)
{
    return lo >> (16 * words) | hi << (64 - 16 * words);
}

static inline void psi4(uint64_t w[4])
{
    uint64_t n = w[0] ^ funnel(w[0], w[1], 1) ^ funnel(w[0], w[1], 2)
                 ^ funnel(w[0], w[1], 3) ^ w[3] ^ w[3] >> 48;

    n ^= n << 16;
    n ^= n << 32;
    w[0] = w[1];
    w[1] = w[2];
    w[2] = w[3];
    w[3] = n;
}

static inline void psi1(uint64_t w[4])
{
    uint64_t f = w[0] ^ w[0] >> 16 ^ w[0] >> 32 ^ w[0] >> 48 ^ w[3]
                 ^ w[3] >> 48;

    w[0] = funnel(w[0], w[1], 1);
    w[1] = funnel(w[1], w[2], 1);
    w[2] = funnel(w[2], w[3], 1);
    w[3] = w[3] >> 16 | f << 48;
}

/*
 * psi^74 as a matrix: word j of psi^74(Y) is the XOR of the words i of Y
 * for the bits i set in psi74[j], 74 steps of the register above run on
 * the unit vectors (124 terms in all).  The step's output is, by
 * linearity, psi^61(H ^ psi(M)) ^ psi^74(S): the first part, a register
 * run of 62 steps, needs only H and M and so runs beside the encryptions;
 * after them comes only this matrix, whose XOR trees are a few levels
 * deep where the run's chain is 74 steps long.  Any wrong bit here fails
 * every known answer of the tests.
 */
static const uint16_t psi74[16] = {
    0xfee2, 0x6dcb, 0xdb96, 0x2723, 0x4e46, 0x9c8c, 0xa917, 0xc221,
    0x144d, 0x289a, 0x5134, 0xa268, 0xd4df, 0x39b1, 0x7362, 0xe6c4
};

/* psi^61(H ^ psi(M)): the part of the step's output before S is known. */
static inline void mix_hm(uint64_t w[4], const uint64_t h[4],
                          const uint64_t m[4])
{
    int i;

    memcpy(w, m, 4 * sizeof(w[0]));
    psi1(w);
    for (i = 0; i < 4; i++)
        w[i] ^= h[i];
    for (i = 0; i < 15; i++)
        psi4(w);
    psi1(w);
}

/* h = p ^ psi^74(s); the loops unroll to straight XORs of s's words. */
static inline void mix_s(uint64_t h[4], const uint64_t p[4],
                         const uint64_t s[4])
{
    uint64_t y[16], acc;
    int i, j;

    for (i = 0; i < 16; i++)
        y[i] = s[i >> 2] >> (16 * (i & 3)) & 0xffff;
    for (i = 0; i < 4; i++)
        h[i] = p[i];
    GOST94_UNROLL
    for (j = 0; j < 16; j++) {
        acc = 0;
        GOST94_UNROLL
        for (i = 0; i < 16; i++)
            if (psi74[j] >> i & 1)
                acc ^= y[i];
        h[j >> 2] ^= acc << (16 * (j & 3));
    }
}

/*
 * P (RFC 5831 section 6.1): byte i + 4k of P(W) is byte 8i + k of W
 * (i = 0..3, k = 0..7, counting from 0), so key word k, bytes 4k..4k+3,
 * gathers byte k of each of W's 64-bit words: a 4x8 byte transpose, here
 * in two rounds of masks and shifts (bytes, then 16-bit pairs).
 */
#define M8 0x00ff00ff00ff00ffULL
#define M16 0x0000ffff0000ffffULL

static inline void key_words(uint32_t kw[8][4], unsigned int key,
                             const uint64_t w[4])
{
    /* (w0 b0, w1 b0, w0 b2, w1 b2, ...), (w0 b1, w1 b1, w0 b3, ...) */
    uint64_t ab0 = (w[0] & M8) | (w[1] & M8) << 8;
    uint64_t ab1 = (w[0] >> 8 & M8) | (w[1] & ~M8);
    uint64_t cd0 = (w[2] & M8) | (w[3] & M8) << 8;
    uint64_t cd1 = (w[2] >> 8 & M8) | (w[3] & ~M8);
    /* key words (0, 4), (2, 6), (1, 5), (3, 7) */
    uint64_t k04 = (ab0 & M16) | (cd0 & M16) << 16;
    uint64_t k26 = (ab0 >> 16 & M16) | (cd0 & ~M16);
    uint64_t k15 = (ab1 & M16) | (cd1 & M16) << 16;
    uint64_t k37 = (ab1 >> 16 & M16) | (cd1 & ~M16);

    kw[0][key] = (uint32_t)k04;
    kw[4][key] = (uint32_t)(k04 >> 32);
    kw[1][key] = (uint32_t)k15;
    kw[5][key] = (uint32_t)(k15 >> 32);
    kw[2][key] = (uint32_t)k26;
    kw[6][key] = (uint32_t)(k26 >> 32);
    kw[3][key] = (uint32_t)k37;
    kw[7][key] = (uint32_t)(k37 >> 32);
}

/*
 * C3 of RFC 5831 section 6.1, 0xff00ffff000000ffff0000ff00ffff00
 * 00ff00ff00ff00ffff00ff00ff00ff00, as little-endian 64-bit words (C2 and
 * C4 are zero).
 */
static const uint64_t gost94_c3[4] = {
    0xff00ff00ff00ff00ULL, 0x00ff00ff00ff00ffULL,
    0xff0000ff00ffff00ULL, 0xff00ffff000000ffULL
};

/*
 * f(H, M).  Keys (section 6.1): U = H, V = M, K1 = P(U ^ V); then for
 * j = 2, 3, 4: U = A(U) ^ C_j, V = A(A(V)), K_j = P(U ^ V), where
 * A(y4 || y3 || y2 || y1) = (y1 ^ y2) || y4 || y3 || y2 on 64-bit words.
 * Encryption (6.2): s_i = E_{K_i}(h_i), the four at once.  Shuffle (6.3).
 * kw is the caller's, which cleanses it.
 */
static void gost94_step(GOST94_STATE *s, const uint64_t m[4],
                        uint32_t kw[8][4])
{
    uint64_t u[4], v[4], w[4], enc[4], p[4], t;
    int i, j;

    memcpy(u, s->h, sizeof(u));
    memcpy(v, m, sizeof(v));
    for (j = 0; j < 4; j++) {
        if (j > 0) {
            t = u[0] ^ u[1];
            u[0] = u[1];
            u[1] = u[2];
            u[2] = u[3];
            u[3] = t;
            if (j == 2)
                for (i = 0; i < 4; i++)
                    u[i] ^= gost94_c3[i];
            /* A(A(y4 || y3 || y2 || y1))
             * = (y2 ^ y3) || (y1 ^ y2) || y4 || y3 */
            t = v[0] ^ v[1];
            v[0] = v[2];
            v[2] = t;
            t = v[1] ^ v[0];
            v[1] = v[3];
            v[3] = t;
        }
        for (i = 0; i < 4; i++)
            w[i] = u[i] ^ v[i];
        key_words(kw, j, w);
    }
    mix_hm(p, s->h, m);
    s->encrypt4(s->tab, (const uint32_t (*)[4])kw, s->h, enc);
    mix_s(s->h, p, enc);
    /* the keys' other forms (HMAC's inner state makes them secret) */
    OPENSSL_cleanse(u, sizeof(u));
    OPENSSL_cleanse(v, sizeof(v));
    OPENSSL_cleanse(w, sizeof(w));
}

/* ---- Streaming (RFC 5831 section 7) ---- */

/* a += b mod 2^256: the carry as arithmetic, no branch on the data. */
static inline void add256(uint64_t a[4], const uint64_t b[4])
{
    uint64_t carry = 0, x;
    int i;

    for (i = 0; i < 4; i++) {
        x = a[i] + carry;
        carry = x < carry;
        a[i] = x + b[i];
        carry += a[i] < x;
    }
}

void gost94_init(GOST94_STATE *s, const GOST89_SBOX_TABLES *tab,
                 const GOST94_KERNEL *k)
{
    memset(s->h, 0, sizeof(s->h));
    memset(s->sigma, 0, sizeof(s->sigma));
    s->tab = tab;
    s->encrypt4 = k->encrypt4;
}

void gost94_blocks(GOST94_STATE *s, const unsigned char *in, size_t nblocks)
{
    uint64_t m[4];
    uint32_t kw[8][4];
    int i;

    for (; nblocks > 0; nblocks--, in += GOST94_BLOCK_SIZE) {
        for (i = 0; i < 4; i++)
            m[i] = load_le64(in + 8 * i);
        add256(s->sigma, m);
        gost94_step(s, m, kw);
    }
    OPENSSL_cleanse(kw, sizeof(kw));
}

/*
 * A last partial block is padded with zeros and folded like any other; an
 * empty one (an empty message, or one of whole blocks) is not folded, as
 * RFC 5831 section 7.2 has it: the empty message hashes to f(f(0, 0), 0)
 * (981e5f3c... with the CryptoPro set, as libgcrypt and Botan; gost-engine
 * folds a zero block first).
 */
void gost94_final(GOST94_STATE *s, unsigned char *buf, size_t len,
                  uint64_t nbytes, unsigned char out[GOST94_DIGEST_LENGTH])
{
    uint64_t l[4] = { nbytes << 3, nbytes >> 61, 0, 0 };
    uint32_t kw[8][4];
    int i;

    if (len > 0) {
        memset(buf + len, 0, GOST94_BLOCK_SIZE - len);
        gost94_blocks(s, buf, 1);
    }
    gost94_step(s, l, kw);
    gost94_step(s, s->sigma, kw);
    OPENSSL_cleanse(kw, sizeof(kw));
    for (i = 0; i < 4; i++)
        store_le64(out + 8 * i, s->h[i]);
}
