/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kuznyechik (GOST R 34.12-2015, RFC 7801) in portable C: the key schedule,
 * the two portable whole-block kernels of every chaining mode of kernel.h,
 * one-block encryption for the self-test, and the family's list of kernel
 * tables (src/kernel_list.h), the assembly ones included.
 *
 * Notation of the standard (RFC 7801 section 2): a block a = a_15 || ... ||
 * a_0 is kept in memory as printed, byte 0 = a_15.  A round is LSX[K]:
 * X XORs the round key, S applies pi to every byte, L = R^16 where R
 * shifts the block one byte towards a_0 and puts l(a_15, ..., a_0) in
 * front, l being sum c_i a_i in GF(2^8) = GF(2)[x]/(x^8+x^7+x^6+x+1) with
 * the coefficients (a_15 first) 148, 32, 133, 16, 194, 192, 1, 251, 1,
 * 192, 194, 16, 133, 32, 148, 1 (RFC 7801 4.1.2).  L is linear, so it is a
 * 16x16 matrix over GF(2^8), which both kernels use instead of R^16.
 *
 * kuznyechik_kernel_c ("kuznyechik-c") is table code, NOT constant-time:
 * LS of a block is the XOR of 16 entries T[i][a_i] of 16 bytes, one per
 * byte position (64 KiB), T[i][b] = L(pi(b) at position i); decryption
 * runs the equivalent form with L^-1 folded into the round keys
 * (KUZNYECHIK_KEY.drk), T'[i][b] = L^-1(pi^-1(b) at position i).  Its
 * parallel modes take four blocks at once (TAB_WAY).
 *
 * kuznyechik_kernel_ct ("kuznyechik-c-ct") has no load or branch indexed by
 * secret data: pi is evaluated bitsliced from its algebraic normal form
 * (every output bit a XOR of products of input bits, the monomials' list
 * public; the products of the two nibbles' bits apart, and the XORs of
 * the low ones by subsets of four), on the bit planes of up to four blocks
 * at once; L multiplies by the matrix's constants with masks and shifts
 * (Horner over their bits).  Its serial modes run one block a call through
 * smg_serial_by_ecb.  About 17 MB/s in CTR and 6 MB/s in CBC encryption,
 * against 350 and 150 MB/s for the table kernel (AMD EPYC, Zen 4 class).
 *
 * Every table above is derived once, at the first key setup, from pi and
 * the coefficients of l.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>

#include "byteorder.h"
#include "kernel_list.h"
#include "kuznyechik.h"
/* the assembly tiers' tables, where their files are in the tree */
#if __has_include("kuznyechik_x86.h")
# include "kuznyechik_x86.h"
#endif
#if __has_include("kuznyechik_arm.h")
# include "kuznyechik_arm.h"
#endif

/* pi, GOST R 34.12-2015 4.1.1 (RFC 7801 4.1.1). */
static const uint8_t KUZ_PI[256] = {
    252, 238, 221,  17, 207, 110,  49,  22, 251, 196, 250, 218,  35, 197,
      4,  77, 233, 119, 240, 219, 147,  46, 153, 186,  23,  54, 241, 187,
     20, 205,  95, 193, 249,  24, 101,  90, 226,  92, 239,  33, 129,  28,
     60,  66, 139,   1, 142,  79,   5, 132,   2, 174, 227, 106, 143, 160,
      6,  11, 237, 152, 127, 212, 211,  31, 235,  52,  44,  81, 234, 200,
     72, 171, 242,  42, 104, 162, 253,  58, 206, 204, 181, 112,  14,  86,
      8,  12, 118,  18, 191, 114,  19,  71, 156, 183,  93, 135,  21, 161,
    150,  41,  16, 123, 154, 199, 243, 145, 120, 111, 157, 158, 178, 177,
     50, 117,  25,  61, 255,  53, 138, 126, 109,  84, 198, 128, 195, 189,
     13,  87, 223, 245,  36, 169,  62, 168,  67, 201, 215, 121, 214, 246,
    124,  34, 185,   3, 224,  15, 236, 222, 122, 148, 176, 188, 220, 232,
     40,  80,  78,  51,  10,  74, 167, 151,  96, 115,  30,   0,  98,  68,
     26, 184,  56, 130, 100, 159,  38,  65, 173,  69,  70, 146,  39,  94,
     85,  47, 140, 163, 165, 125, 105, 213, 149,  59,   7,  88, 179,  64,
    134, 172,  29, 247,  48,  55, 107, 228, 136, 217, 231, 137, 225,  27,
    131,  73,  76,  63, 248, 254, 141,  83, 170, 144, 202, 216, 133,  97,
     32, 113, 103, 164,  45,  43,   9,  91, 203, 155,  37, 208, 190, 229,
    108,  82,  89, 166, 116, 210, 230, 244, 180, 192, 209, 102, 175, 194,
     57,  75,  99, 182
};

/* The coefficients of l, for a_15 first (GOST R 34.12-2015 4.1.2). */
static const uint8_t KUZ_L_COEF[16] = {
    148, 32, 133, 16, 194, 192, 1, 251, 1, 192, 194, 16, 133, 32, 148, 1
};

/* x^8 = x^7 + x^6 + x + 1: the field's modulus 0x1C3 less x^8. */
#define KUZ_POLY_LOW 0xc3

/* ---- Tables derived at the first key setup ---- */

typedef struct kuz_block64 {
    uint64_t w[2];      /* bytes 0-7 and 8-15, little-endian */
} KUZ_BLOCK64;

/*
 * pi or pi^-1 in algebraic normal form: output bit j is the XOR of the
 * monomials m (the product of the input bits set in m; m = 0: 1) its ANF
 * has, split by the high nibble h and the low one l of m: bit l of
 * in[j][h] says whether monomial 16 h + l is there.
 */
typedef struct kuz_anf {
    uint16_t in[8][16];
} KUZ_ANF;

static struct kuz_tables {
    KUZ_BLOCK64 enc[16][256];   /* L(pi(b) at position i) */
    KUZ_BLOCK64 dec[16][256];   /* L^-1(pi^-1(b) at position i) */
    uint8_t pi_inv[256];
    /*
     * The constant-time L and L^-1: lane j of mask[b][i] is 0xff where bit
     * b of the matrix entry (j, i) is set.
     */
    KUZ_BLOCK64 lmask[8][16], lmask_inv[8][16];
    KUZ_ANF anf, anf_inv;
    unsigned char c[32][16];    /* the key schedule's C_i = L(Vec(i)) */
} kuz_tab;

static CRYPTO_ONCE kuz_tab_once = CRYPTO_ONCE_STATIC_INIT;

/* Public operands only: the tables' derivation. */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;

    while (b != 0) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? KUZ_POLY_LOW : 0));
        b >>= 1;
    }
    return r;
}

/* R (RFC 7801 4.1.2) on public data, and L = R^16. */
static void lin_r(unsigned char a[16])
{
    uint8_t l = 0;
    int i;

    for (i = 0; i < 16; i++)
        l ^= gf_mul(a[i], KUZ_L_COEF[i]);
    memmove(a + 1, a, 15);
    a[0] = l;
}

static void lin_r_inv(unsigned char a[16])
{
    uint8_t l = a[0];
    int i;

    memmove(a, a + 1, 15);
    for (i = 0; i < 15; i++)
        l ^= gf_mul(a[i], KUZ_L_COEF[i]);
    a[15] = l;          /* the coefficient of a_0 is 1 */
}

/* A block's bytes as two little-endian words (store64: back). */
static inline KUZ_BLOCK64 load64(const unsigned char b[16])
{
    KUZ_BLOCK64 r;

    r.w[0] = load_le64(b);
    r.w[1] = load_le64(b + 8);
    return r;
}

static void build_anf(KUZ_ANF *a, const uint8_t sbox[256])
{
    uint8_t f[256];
    int j, m, i;

    for (j = 0; j < 8; j++) {
        for (m = 0; m < 256; m++)
            f[m] = (sbox[m] >> j) & 1;
        /* the Moebius transform: truth table to ANF coefficients */
        for (i = 0; i < 8; i++)
            for (m = 0; m < 256; m++)
                if (m & (1 << i))
                    f[m] ^= f[m ^ (1 << i)];
        memset(a->in[j], 0, sizeof(a->in[j]));
        for (m = 0; m < 256; m++)
            a->in[j][m >> 4] |= (uint16_t)(f[m] << (m & 15));
    }
}

static void build_masks(KUZ_BLOCK64 mask[8][16], uint8_t mat[16][16])
{
    unsigned char lanes[16];
    int b, i, j;

    for (b = 0; b < 8; b++)
        for (i = 0; i < 16; i++) {
            for (j = 0; j < 16; j++)
                lanes[j] = ((mat[j][i] >> b) & 1) ? 0xff : 0;
            mask[b][i] = load64(lanes);
        }
}

static void kuz_build_tables(void)
{
    uint8_t mat[16][16], inv[16][16];
    unsigned char col[16], v[16];
    int i, j, b, r;

    for (i = 0; i < 256; i++)
        kuz_tab.pi_inv[KUZ_PI[i]] = (uint8_t)i;
    /* column i of L and L^-1: the image of the unit vector at i */
    for (i = 0; i < 16; i++) {
        memset(col, 0, 16);
        col[i] = 1;
        for (r = 0; r < 16; r++)
            lin_r(col);
        memset(v, 0, 16);
        v[i] = 1;
        for (r = 0; r < 16; r++)
            lin_r_inv(v);
        for (j = 0; j < 16; j++) {
            mat[j][i] = col[j];
            inv[j][i] = v[j];
        }
    }
    for (i = 0; i < 16; i++)
        for (b = 0; b < 256; b++) {
            for (j = 0; j < 16; j++) {
                col[j] = gf_mul(mat[j][i], KUZ_PI[b]);
                v[j] = gf_mul(inv[j][i], kuz_tab.pi_inv[b]);
            }
            kuz_tab.enc[i][b] = load64(col);
            kuz_tab.dec[i][b] = load64(v);
        }
    build_masks(kuz_tab.lmask, mat);
    build_masks(kuz_tab.lmask_inv, inv);
    build_anf(&kuz_tab.anf, KUZ_PI);
    build_anf(&kuz_tab.anf_inv, kuz_tab.pi_inv);
    /* C_i = L(Vec128(i)): i in a_0, the last byte (GOST R 34.12-2015 4.3) */
    for (i = 0; i < 32; i++) {
        memset(kuz_tab.c[i], 0, 16);
        kuz_tab.c[i][15] = (unsigned char)(i + 1);
        for (r = 0; r < 16; r++)
            lin_r(kuz_tab.c[i]);
    }
}

static int kuz_tables_ready(void)
{
    return CRYPTO_THREAD_run_once(&kuz_tab_once, kuz_build_tables);
}

/* ---- The table kernel (secret-indexed loads) ---- */

#define BYTE_OF(x, i) ((unsigned)((x).w[(i) >> 3] >> (8 * ((i) & 7))) & 0xff)

/* The XOR of tab[i][x_i] over the 16 positions: LS or L^-1 S^-1. */
static inline KUZ_BLOCK64 tab_round(const KUZ_BLOCK64 tab[16][256],
                                    KUZ_BLOCK64 x)
{
    KUZ_BLOCK64 r = { { 0, 0 } };
    int i;

    for (i = 0; i < 16; i++) {
        const KUZ_BLOCK64 *e = &tab[i][BYTE_OF(x, i)];

        r.w[0] ^= e->w[0];
        r.w[1] ^= e->w[1];
    }
    return r;
}

static inline KUZ_BLOCK64 xor64(KUZ_BLOCK64 a, const unsigned char *k)
{
    a.w[0] ^= load_le64(k);
    a.w[1] ^= load_le64(k + 8);
    return a;
}

static inline KUZ_BLOCK64 xor_blocks(KUZ_BLOCK64 a, KUZ_BLOCK64 b)
{
    a.w[0] ^= b.w[0];
    a.w[1] ^= b.w[1];
    return a;
}

static inline void store64(unsigned char *p, KUZ_BLOCK64 x)
{
    store_le64(p, x.w[0]);
    store_le64(p + 8, x.w[1]);
}

static inline KUZ_BLOCK64 tab_encrypt(const KUZNYECHIK_KEY *ks, KUZ_BLOCK64 x)
{
    int r;

    x = xor64(x, ks->rk[0]);
    for (r = 1; r < 10; r++)
        x = xor64(tab_round(kuz_tab.enc, x), ks->rk[r]);
    return x;
}

/* A block's bytes through an S-box (pi, pi^-1). */
static inline KUZ_BLOCK64 tab_bytes(const uint8_t sbox[256], KUZ_BLOCK64 x)
{
    unsigned char b[16];
    int i;

    store64(b, x);
    for (i = 0; i < 16; i++)
        b[i] = sbox[b[i]];
    return load64(b);
}

/*
 * D = X[K_1] S^-1 L^-1 X[K_2] ... S^-1 L^-1 X[K_10] with L^-1 moved past
 * each key: y = L^-1(c) ^ L^-1(K_10) (L^-1(c) as the table round of
 * pi(c)), eight rounds y = L^-1 S^-1 (y) ^ L^-1(K_i), then S^-1 and K_1.
 */
static inline KUZ_BLOCK64 tab_decrypt(const KUZNYECHIK_KEY *ks, KUZ_BLOCK64 x)
{
    int r;

    x = xor64(tab_round(kuz_tab.dec, tab_bytes(KUZ_PI, x)), ks->drk[9]);
    for (r = 8; r >= 1; r--)
        x = xor64(tab_round(kuz_tab.dec, x), ks->drk[r]);
    return xor64(tab_bytes(kuz_tab.pi_inv, x), ks->drk[0]);
}

/*
 * The parallel modes take TAB_WAY blocks at once, round by round, so that
 * the loads of their rounds overlap: in CTR 2.3 times one block's speed at
 * four (six: 1.03 times four's, eight: 0.9 times; AMD EPYC, Zen 4 class).
 */
#define TAB_WAY 4

static inline void tab_encrypt_way(const KUZNYECHIK_KEY *ks,
                                   KUZ_BLOCK64 x[TAB_WAY])
{
    int r, j;

    for (j = 0; j < TAB_WAY; j++)
        x[j] = xor64(x[j], ks->rk[0]);
    for (r = 1; r < 10; r++)
        for (j = 0; j < TAB_WAY; j++)
            x[j] = xor64(tab_round(kuz_tab.enc, x[j]), ks->rk[r]);
}

static inline void tab_decrypt_way(const KUZNYECHIK_KEY *ks,
                                   KUZ_BLOCK64 x[TAB_WAY])
{
    int r, j;

    for (j = 0; j < TAB_WAY; j++)
        x[j] = xor64(tab_round(kuz_tab.dec, tab_bytes(KUZ_PI, x[j])),
                     ks->drk[9]);
    for (r = 8; r >= 1; r--)
        for (j = 0; j < TAB_WAY; j++)
            x[j] = xor64(tab_round(kuz_tab.dec, x[j]), ks->drk[r]);
    for (j = 0; j < TAB_WAY; j++)
        x[j] = xor64(tab_bytes(kuz_tab.pi_inv, x[j]), ks->drk[0]);
}

static void kuz_c_ecb(const void *ks, const unsigned char *in,
                      unsigned char *out, size_t nblocks)
{
    const KUZNYECHIK_KEY *k = ks;
    KUZ_BLOCK64 x[TAB_WAY];
    int j;

    for (; nblocks >= TAB_WAY; nblocks -= TAB_WAY, in += 16 * TAB_WAY,
         out += 16 * TAB_WAY) {
        for (j = 0; j < TAB_WAY; j++)
            x[j] = load64(in + 16 * j);
        if (k->decrypt)
            tab_decrypt_way(k, x);
        else
            tab_encrypt_way(k, x);
        for (j = 0; j < TAB_WAY; j++)
            store64(out + 16 * j, x[j]);
    }
    for (; nblocks > 0; nblocks--, in += 16, out += 16)
        store64(out, k->decrypt ? tab_decrypt(k, load64(in))
                                : tab_encrypt(k, load64(in)));
}

static void kuz_c_cbc_enc(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    KUZ_BLOCK64 v = load64(iv);

    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        v = tab_encrypt(ks, xor_blocks(v, load64(in)));
        store64(out, v);
    }
    store64(iv, v);
}

/* CBC and CFB decryption: the blocks before them are known, TAB_WAY at
 * once (CBC: D(c_i) ^ c_{i-1}; CFB: E(c_{i-1}) ^ c_i). */
static void tab_chain_dec(const KUZNYECHIK_KEY *ks, int cfb,
                          const unsigned char *in, unsigned char *out,
                          size_t nblocks, unsigned char *iv)
{
    KUZ_BLOCK64 v = load64(iv), c, x[TAB_WAY], cs[TAB_WAY];
    int j;

    for (; nblocks >= TAB_WAY; nblocks -= TAB_WAY, in += 16 * TAB_WAY,
         out += 16 * TAB_WAY) {
        for (j = 0; j < TAB_WAY; j++) {
            cs[j] = load64(in + 16 * j);
            x[j] = cfb ? (j > 0 ? cs[j - 1] : v) : cs[j];
        }
        if (cfb)
            tab_encrypt_way(ks, x);
        else
            tab_decrypt_way(ks, x);
        for (j = 0; j < TAB_WAY; j++)
            store64(out + 16 * j,
                    xor_blocks(x[j], cfb ? cs[j] : j > 0 ? cs[j - 1] : v));
        v = cs[TAB_WAY - 1];
    }
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        c = load64(in);
        store64(out, cfb ? xor_blocks(tab_encrypt(ks, v), c)
                         : xor_blocks(tab_decrypt(ks, c), v));
        v = c;
    }
    store64(iv, v);
}

static void kuz_c_cbc_dec(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    tab_chain_dec(ks, 0, in, out, nblocks, iv);
}

static void kuz_c_cfb_enc(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    KUZ_BLOCK64 v = load64(iv);

    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        v = xor_blocks(tab_encrypt(ks, v), load64(in));
        store64(out, v);
    }
    store64(iv, v);
}

static void kuz_c_cfb_dec(const void *ks, const unsigned char *in,
                          unsigned char *out, size_t nblocks,
                          unsigned char *iv)
{
    tab_chain_dec(ks, 1, in, out, nblocks, iv);
}

static void kuz_c_ofb(const void *ks, const unsigned char *in,
                      unsigned char *out, size_t nblocks, unsigned char *iv)
{
    KUZ_BLOCK64 v = load64(iv);

    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        v = tab_encrypt(ks, v);
        store64(out, xor_blocks(v, load64(in)));
    }
    store64(iv, v);
}

/* The whole block one big-endian counter: hi is bytes 0-7, lo 8-15. */
static inline void ctr_block(unsigned char b[16], uint64_t hi, uint64_t lo)
{
    store_be64(b, hi);
    store_be64(b + 8, lo);
}

static void kuz_c_ctr(const void *ks, const unsigned char *in,
                      unsigned char *out, size_t nblocks,
                      unsigned char *ctr)
{
    uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);
    unsigned char b[16];
    KUZ_BLOCK64 x[TAB_WAY];
    int j;

    for (; nblocks >= TAB_WAY; nblocks -= TAB_WAY, in += 16 * TAB_WAY,
         out += 16 * TAB_WAY) {
        for (j = 0; j < TAB_WAY; j++) {
            ctr_block(b, hi, lo);
            x[j] = load64(b);
            hi += ++lo == 0;
        }
        tab_encrypt_way(ks, x);
        for (j = 0; j < TAB_WAY; j++)
            store64(out + 16 * j, xor_blocks(x[j], load64(in + 16 * j)));
    }
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        ctr_block(b, hi, lo);
        store64(out, xor_blocks(tab_encrypt(ks, load64(b)), load64(in)));
        hi += ++lo == 0;
    }
    ctr_block(ctr, hi, lo);
}

const SMG_BLOCK_KERNEL kuznyechik_kernel_c = {
    "kuznyechik-c",
    kuz_c_ecb,
    kuz_c_cbc_enc,
    kuz_c_cbc_dec,
    kuz_c_cfb_enc,
    kuz_c_cfb_dec,
    kuz_c_ofb,
    kuz_c_ctr,
    NULL,
    NULL, NULL, NULL,
    NULL
};

/* ---- The constant-time kernel ---- */

/* Blocks a call of the constant-time core takes at once. */
#define CT_WAY 4

/*
 * 8x8 bit transpose of the bytes of x: bit b of byte k goes to bit k of
 * byte b (three delta swaps).
 */
static inline uint64_t transpose8(uint64_t x)
{
    uint64_t t;

    t = (x ^ (x >> 7)) & 0x00aa00aa00aa00aaULL;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000cccc0000ccccULL;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000f0f0f0f0ULL;
    x ^= t ^ (t << 28);
    return x;
}

/*
 * What the constant-time core works on, all of it derived from the secret
 * blocks: a kernel entry keeps one and cleanses it once, when it returns.
 */
typedef struct kuz_ct {
    uint64_t s[2 * CT_WAY];     /* the blocks, two words each */
    uint64_t t[2 * CT_WAY];     /* their bytes' bits transposed */
    uint64_t plane[8];          /* bit b of the 64 bytes */
    uint64_t lo[16], hi[16];    /* the monomials of each nibble's bits */
    uint64_t sum[4][16];        /* XORs of lo[4 g .. 4 g + 3], by subset */
    uint64_t bc[16];            /* L: byte i of a block, broadcast */
} KUZ_CT;

/*
 * An S-box on every byte of the CT_WAY blocks in w->s, through its ANF:
 * plane b holds bit b of the 64 bytes; the monomials of the low nibble's
 * bits (lo) and the high nibble's (hi) are ANDs of planes; output plane j
 * is the XOR over h of hi[h] & (the XOR of the lo[l] that in[j][h] names),
 * the inner XORs taken from the XORs of every subset of four lo[] at once
 * (sum[]).  Which monomials an output bit has is public (the S-box is), so
 * the loops, branches and indices are too.
 */
static void ct_sbox(const KUZ_ANF *anf, KUZ_CT *w)
{
    uint64_t o, in_h;
    int k, b, m, j, h, g;

    for (k = 0; k < 2 * CT_WAY; k++)
        w->t[k] = transpose8(w->s[k]);
    for (b = 0; b < 8; b++) {
        w->plane[b] = 0;
        for (k = 0; k < 2 * CT_WAY; k++)
            w->plane[b] |= ((w->t[k] >> (8 * b)) & 0xff) << (8 * k);
    }
    w->lo[0] = w->hi[0] = ~(uint64_t)0;
    for (b = 0; b < 4; b++)
        for (m = 0; m < (1 << b); m++) {
            w->lo[m | (1 << b)] = w->lo[m] & w->plane[b];
            w->hi[m | (1 << b)] = w->hi[m] & w->plane[b + 4];
        }
    for (g = 0; g < 4; g++) {
        w->sum[g][0] = 0;
        for (m = 1; m < 16; m++)
            w->sum[g][m] = w->sum[g][m & (m - 1)]
                           ^ w->lo[4 * g + __builtin_ctz((unsigned)m)];
    }
    for (k = 0; k < 2 * CT_WAY; k++)
        w->t[k] = 0;
    for (j = 0; j < 8; j++) {
        o = 0;
        for (h = 0; h < 16; h++) {
            unsigned sel = anf->in[j][h];

            if (sel == 0)
                continue;
            in_h = w->sum[0][sel & 15] ^ w->sum[1][(sel >> 4) & 15]
                   ^ w->sum[2][(sel >> 8) & 15] ^ w->sum[3][sel >> 12];
            o ^= w->hi[h] & in_h;
        }
        for (k = 0; k < 2 * CT_WAY; k++)
            w->t[k] |= ((o >> (8 * k)) & 0xff) << (8 * j);
    }
    for (k = 0; k < 2 * CT_WAY; k++)
        w->s[k] = transpose8(w->t[k]);
}

/* Every byte times x in GF(2^8), bytewise in a word. */
static inline uint64_t xtime8(uint64_t x)
{
    return ((x & 0x7f7f7f7f7f7f7f7fULL) << 1)
        ^ (((x >> 7) & 0x0101010101010101ULL) * KUZ_POLY_LOW);
}

/*
 * Block s = M s for the matrix whose masks are mask (L or L^-1): lane j
 * sums M[j][i] a_i, each product by Horner over the bits of M[j][i], all
 * lanes at once with a_i broadcast.
 */
static inline void ct_linear(const KUZ_BLOCK64 mask[8][16], KUZ_CT *w,
                             uint64_t s[2])
{
    uint64_t lo = 0, hi = 0;
    int i, b;

    for (i = 0; i < 16; i++)
        w->bc[i] = ((s[i >> 3] >> (8 * (i & 7))) & 0xff)
                   * 0x0101010101010101ULL;
    for (b = 7; b >= 0; b--) {
        lo = xtime8(lo);
        hi = xtime8(hi);
        for (i = 0; i < 16; i++) {
            lo ^= w->bc[i] & mask[b][i].w[0];
            hi ^= w->bc[i] & mask[b][i].w[1];
        }
    }
    s[0] = lo;
    s[1] = hi;
}

static inline void ct_xor_key(uint64_t s[2], const unsigned char k[16])
{
    s[0] ^= load_le64(k);
    s[1] ^= load_le64(k + 8);
}

/* n <= CT_WAY blocks of w->s, encrypted or decrypted by ks in place. */
static void ct_crypt(const KUZNYECHIK_KEY *ks, KUZ_CT *w, size_t n,
                     int decrypt)
{
    size_t i;
    int r;

    if (!decrypt) {
        for (r = 0; r < 9; r++) {
            for (i = 0; i < n; i++)
                ct_xor_key(w->s + 2 * i, ks->rk[r]);
            ct_sbox(&kuz_tab.anf, w);
            for (i = 0; i < n; i++)
                ct_linear(kuz_tab.lmask, w, w->s + 2 * i);
        }
        for (i = 0; i < n; i++)
            ct_xor_key(w->s + 2 * i, ks->rk[9]);
    } else {
        for (r = 9; r > 0; r--) {
            for (i = 0; i < n; i++) {
                ct_xor_key(w->s + 2 * i, ks->rk[r]);
                ct_linear(kuz_tab.lmask_inv, w, w->s + 2 * i);
            }
            ct_sbox(&kuz_tab.anf_inv, w);
        }
        for (i = 0; i < n; i++)
            ct_xor_key(w->s + 2 * i, ks->rk[0]);
    }
}

/* n blocks of in into w->s, the rest of it zero. */
static void ct_load(KUZ_CT *w, const unsigned char *in, size_t n)
{
    size_t i;

    memset(w->s, 0, sizeof(w->s));
    for (i = 0; i < 2 * n; i++)
        w->s[i] = load_le64(in + 8 * i);
}

static void kuz_ct_ecb(const void *ks, const unsigned char *in,
                       unsigned char *out, size_t nblocks)
{
    const KUZNYECHIK_KEY *k = ks;
    KUZ_CT w;
    size_t n, i;

    for (; nblocks > 0; nblocks -= n, in += 16 * n, out += 16 * n) {
        n = nblocks < CT_WAY ? nblocks : CT_WAY;
        ct_load(&w, in, n);
        ct_crypt(k, &w, n, k->decrypt != 0);
        for (i = 0; i < 2 * n; i++)
            store_le64(out + 8 * i, w.s[i]);
    }
    OPENSSL_cleanse(&w, sizeof(w));
}

/* CBC and CFB decryption: the blocks before them are known, CT_WAY at once. */
static void kuz_ct_chain_dec(const KUZNYECHIK_KEY *ks, int cfb,
                             const unsigned char *in, unsigned char *out,
                             size_t nblocks, unsigned char *iv)
{
    uint64_t prev[2 * CT_WAY + 2];
    KUZ_CT w;
    size_t n, i;

    prev[0] = load_le64(iv);
    prev[1] = load_le64(iv + 8);
    for (; nblocks > 0; nblocks -= n, in += 16 * n, out += 16 * n) {
        n = nblocks < CT_WAY ? nblocks : CT_WAY;
        for (i = 0; i < 2 * n; i++)
            prev[i + 2] = load_le64(in + 8 * i);
        /* CBC: D(c_i) ^ c_{i-1}; CFB: E(c_{i-1}) ^ c_i */
        if (cfb) {
            memset(w.s, 0, sizeof(w.s));
            memcpy(w.s, prev, 2 * n * sizeof(w.s[0]));
        } else {
            ct_load(&w, in, n);
        }
        ct_crypt(ks, &w, n, !cfb);
        for (i = 0; i < 2 * n; i++)
            store_le64(out + 8 * i, w.s[i] ^ prev[i + (cfb ? 2 : 0)]);
        prev[0] = prev[2 * n];
        prev[1] = prev[2 * n + 1];
    }
    store_le64(iv, prev[0]);
    store_le64(iv + 8, prev[1]);
    OPENSSL_cleanse(&w, sizeof(w));
}

static void kuz_ct_cbc_dec(const void *ks, const unsigned char *in,
                           unsigned char *out, size_t nblocks,
                           unsigned char *iv)
{
    kuz_ct_chain_dec(ks, 0, in, out, nblocks, iv);
}

static void kuz_ct_cfb_dec(const void *ks, const unsigned char *in,
                           unsigned char *out, size_t nblocks,
                           unsigned char *iv)
{
    kuz_ct_chain_dec(ks, 1, in, out, nblocks, iv);
}

static void kuz_ct_ctr(const void *ks, const unsigned char *in,
                       unsigned char *out, size_t nblocks,
                       unsigned char *ctr)
{
    uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);
    unsigned char b[16];
    KUZ_CT w;
    size_t n, i;

    for (; nblocks > 0; nblocks -= n, in += 16 * n, out += 16 * n) {
        n = nblocks < CT_WAY ? nblocks : CT_WAY;
        memset(w.s, 0, sizeof(w.s));
        for (i = 0; i < n; i++) {
            ctr_block(b, hi, lo);
            w.s[2 * i] = load_le64(b);
            w.s[2 * i + 1] = load_le64(b + 8);
            hi += ++lo == 0;
        }
        ct_crypt(ks, &w, n, 0);
        for (i = 0; i < 2 * n; i++)
            store_le64(out + 8 * i, w.s[i] ^ load_le64(in + 8 * i));
    }
    ctr_block(ctr, hi, lo);
    OPENSSL_cleanse(&w, sizeof(w));
}

SMG_SERIAL_BY_ECB(kuz_ct, kuz_ct_ecb, 16)

const SMG_BLOCK_KERNEL kuznyechik_kernel_ct = {
    "kuznyechik-c-ct",
    kuz_ct_ecb,
    kuz_ct_cbc_enc,
    kuz_ct_cbc_dec,
    kuz_ct_cfb_enc,
    kuz_ct_cfb_dec,
    kuz_ct_ofb,
    kuz_ct_ctr,
    NULL,
    NULL, NULL, NULL,
    NULL
};

/* ---- The key schedule ---- */

/* LSX[k](a) through the table round or the constant-time one (in w). */
static void key_lsx(int table, unsigned char a[16], const unsigned char k[16],
                    KUZ_CT *w)
{
    if (table) {
        store64(a, tab_round(kuz_tab.enc, xor64(load64(a), k)));
    } else {
        memset(w->s, 0, sizeof(w->s));
        w->s[0] = load_le64(a) ^ load_le64(k);
        w->s[1] = load_le64(a + 8) ^ load_le64(k + 8);
        ct_sbox(&kuz_tab.anf, w);
        ct_linear(kuz_tab.lmask, w, w->s);
        store_le64(a, w->s[0]);
        store_le64(a + 8, w->s[1]);
    }
}

/*
 * GOST R 34.12-2015 4.3: K_1 || K_2 is the key, and (K_{2i+1}, K_{2i+2})
 * = F[C_{8i}] ... F[C_{8i-7}] (K_{2i-1}, K_{2i}) with
 * F[c](a1, a0) = (LSX[c](a1) ^ a0, a1).  The x86-64 tiers run it in their
 * assembly (kuznyechik_x86_schedule), about 20 times faster than the
 * constant-time C round.
 */
int kuznyechik_set_key_kernel(const SMG_BLOCK_KERNEL *k,
                              const unsigned char key[KUZNYECHIK_KEY_SIZE],
                              KUZNYECHIK_KEY *enc, KUZNYECHIK_KEY *dec)
{
    int table = k == &kuznyechik_kernel_c;
    unsigned char a1[16], a0[16], t[16];
    KUZ_CT w;
    int i, j, n;

    if (!kuz_tables_ready())
        return 0;
    enc->decrypt = 0;
    memset(enc->drk, 0, sizeof(enc->drk));
#ifdef KUZNYECHIK_X86_ASM
    if (kuznyechik_x86_schedule(k, key, enc->rk)) {
        if (dec != NULL)
            kuznyechik_decryption_schedule(enc, dec);
        return 1;
    }
#endif
    memcpy(a1, key, 16);
    memcpy(a0, key + 16, 16);
    memcpy(enc->rk[0], a1, 16);
    memcpy(enc->rk[1], a0, 16);
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 8; j++) {
            memcpy(t, a1, 16);
            key_lsx(table, t, kuz_tab.c[8 * i + j], &w);
            for (n = 0; n < 16; n++)
                t[n] ^= a0[n];
            memcpy(a0, a1, 16);
            memcpy(a1, t, 16);
        }
        memcpy(enc->rk[2 * i + 2], a1, 16);
        memcpy(enc->rk[2 * i + 3], a0, 16);
    }
    if (dec != NULL)
        kuznyechik_decryption_schedule(enc, dec);
    OPENSSL_cleanse(&w, sizeof(w));
    OPENSSL_cleanse(a1, sizeof(a1));
    OPENSSL_cleanse(a0, sizeof(a0));
    OPENSSL_cleanse(t, sizeof(t));
    return 1;
}

void kuznyechik_decryption_schedule(const KUZNYECHIK_KEY *enc,
                                    KUZNYECHIK_KEY *dec)
{
    KUZ_CT w;
    int i;

    memcpy(dec->rk, enc->rk, sizeof(dec->rk));
    dec->decrypt = 1;
    /* K_1, then L^-1(K_i) (constant-time: the key is secret) */
    memcpy(dec->drk[0], enc->rk[0], 16);
    for (i = 1; i < 10; i++) {
        w.s[0] = load_le64(enc->rk[i]);
        w.s[1] = load_le64(enc->rk[i] + 8);
        ct_linear(kuz_tab.lmask_inv, &w, w.s);
        store_le64(dec->drk[i], w.s[0]);
        store_le64(dec->drk[i] + 8, w.s[1]);
    }
    OPENSSL_cleanse(&w, sizeof(w));
}

void kuznyechik_encrypt_block(const KUZNYECHIK_KEY *ks,
                              const unsigned char in[16],
                              unsigned char out[16])
{
    kuz_ct_ecb(ks, in, out, 1);
}

/* ---- The kernel list and the choice ---- */

/*
 * The assembly tiers go first, each under its header's guard (constant-time
 * throughout but kuznyechik-neon, whose serial modes are the table
 * kernel's); then the constant-time C kernel, taken only with
 * constant-time = yes, and the table kernel, which every CPU runs.
 */
static const SMG_KERNEL_ENTRY kuznyechik_kernels[] = {
#ifdef KUZNYECHIK_X86_ASM
    { &kuznyechik_kernel_gfni_avx512, KUZNYECHIK_CAPS_GFNI_AVX512,
      SMG_KERNEL_CT, NULL },
    { &kuznyechik_kernel_gfni_avx2, KUZNYECHIK_CAPS_GFNI_AVX2,
      SMG_KERNEL_CT, NULL },
    { &kuznyechik_kernel_avx2, KUZNYECHIK_CAPS_AVX2, SMG_KERNEL_CT, NULL },
#endif
#ifdef KUZNYECHIK_ARM_ASM
    KUZNYECHIK_ARM_KERNELS
#endif
    { &kuznyechik_kernel_ct, 0, SMG_KERNEL_CT | SMG_KERNEL_CT_ONLY, NULL },
    { &kuznyechik_kernel_c, 0, 0, NULL },
};

static void kuznyechik_describe(const void *table, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ((const SMG_BLOCK_KERNEL *)table)->name);
}

const SMG_KERNEL_FAMILY kuznyechik_kernel_family = {
    "kuznyechik", kuznyechik_kernels,
    sizeof(kuznyechik_kernels) / sizeof(kuznyechik_kernels[0]),
    kuznyechik_describe, NULL
};

const SMG_BLOCK_KERNEL *kuznyechik_kernel(int constant_time)
{
    return smg_kernel_choose(&kuznyechik_kernel_family, constant_time);
}
