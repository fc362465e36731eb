/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reference MGM (RFC 9058) that kuznyechik-mgm and magma-mgm are
 * checked against: the test program's (test/mgm_test.c, over the
 * provider's ECB) and the fuzz harness's (fuzz/mgm.c, over gostprov's).
 * Written straight from RFC 9058 section 4, with a bit-by-bit product in
 * GF(2^128) / GF(2^64), so that it shares nothing with the kernels under
 * test; the block cipher is the caller's, one block at a time.
 * Self-contained (no testutil.h), since the fuzz harnesses include it too.
 */
#ifndef SMGOST_MGM_REF_H
#define SMGOST_MGM_REF_H

#include <stdint.h>
#include <string.h>

/* The caller's block cipher under its key: out = E(in), bs bytes. */
typedef void REF_MGM_BLOCK(void *arg, const unsigned char *in,
                           unsigned char *out);

/* r = a * b mod the field's polynomial, bit by bit (RFC 9058, 4.1):
 * blocks as big-endian integers of bs bytes (8 or 16). */
static inline void ref_mgm_mul(unsigned char *r, const unsigned char *a,
                               const unsigned char *b, size_t bs)
{
    unsigned char x[16], acc[16] = { 0 };
    unsigned char poly = bs == 16 ? 0x87 : 0x1b;
    size_t i, j;
    int carry, bit;

    if (bs != 8 && bs != 16)
        return;
    memcpy(x, a, bs);
    /* acc = sum over the bits of b, from its lowest: bit i adds a * x^i */
    for (i = 0; i < bs * 8; i++) {
        bit = (b[bs - 1 - i / 8] >> (i % 8)) & 1;
        if (bit)
            for (j = 0; j < bs; j++)
                acc[j] ^= x[j];
        carry = x[0] >> 7;
        for (j = 0; j + 1 < bs; j++)
            x[j] = (unsigned char)((x[j] << 1) | (x[j + 1] >> 7));
        x[j] = (unsigned char)((x[j] << 1) ^ (carry ? poly : 0));
    }
    memcpy(r, acc, bs);
}

/* Adds 1 to the n-byte big-endian counter at half (a block's half). */
static inline void ref_mgm_count(unsigned char *half, size_t n)
{
    size_t i = n;

    while (i-- > 0 && ++half[i] == 0)
        continue;
}

/*
 * MGM encryption (RFC 9058, 4.2) of a message with a block cipher of bs
 * bytes (8 or 16) given as enc(arg, ...): ct (plen bytes) and the full tag
 * (bs bytes).  The nonce is a block whose top bit MGM ignores.
 */
static inline void ref_mgm(size_t bs, REF_MGM_BLOCK *enc, void *arg,
                           const unsigned char *nonce,
                           const unsigned char *aad, size_t alen,
                           const unsigned char *pt, size_t plen,
                           unsigned char *ct, unsigned char *tag)
{
    size_t h = bs / 2, i, k, take, part;
    unsigned char y[16], z[16], blk[16], e[16], hk[16], prod[16];
    unsigned char sum[16] = { 0 };
    const unsigned char *src;
    size_t srclen;
    uint64_t bits;

    if (bs != 8 && bs != 16)
        return;
    memcpy(blk, nonce, bs);
    blk[0] &= 0x7f;
    enc(arg, blk, y);
    blk[0] |= 0x80;
    enc(arg, blk, z);
    for (i = 0; i < plen; i += bs) {
        enc(arg, y, e);
        for (k = 0; k < bs && i + k < plen; k++)
            ct[i + k] = pt[i + k] ^ e[k];
        ref_mgm_count(y + h, h);
    }
    /* the hash over A, then C, each padded, then the lengths */
    for (part = 0; part < 3; part++) {
        src = part == 0 ? aad : ct;
        srclen = part == 0 ? alen : part == 1 ? plen : bs;
        for (i = 0; i < srclen; i += bs) {
            memset(blk, 0, bs);
            if (part == 2) {
                for (k = 0; k < h; k++) {
                    bits = (uint64_t)alen * 8;
                    blk[h - 1 - k] = (unsigned char)(bits >> (8 * k));
                    bits = (uint64_t)plen * 8;
                    blk[bs - 1 - k] = (unsigned char)(bits >> (8 * k));
                }
            } else {
                take = srclen - i < bs ? srclen - i : bs;
                memcpy(blk, src + i, take);
            }
            enc(arg, z, hk);
            ref_mgm_mul(prod, hk, blk, bs);
            for (k = 0; k < bs; k++)
                sum[k] ^= prod[k];
            ref_mgm_count(z, h);
        }
    }
    enc(arg, sum, tag);
}

#endif
