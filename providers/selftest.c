/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known-answer self-test run once at every load, through the kernels this
 * CPU selected: short standard vectors only, so loading stays fast.  The
 * full vector sets live in test/.
 */
#include <string.h>
#include <openssl/crypto.h>
#include "digest.h"
#include "gost89.h"
#include "kdf_tree.h"
#include "kuznyechik.h"
#include "gost94.h"
#include "prov.h"
#include "sm3.h"
#include "sm4.h"
#include "streebog.h"

static int hex_equal(const unsigned char *got, const char *hex, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < len; i++)
        if (hex[2 * i] != digits[got[i] >> 4]
            || hex[2 * i + 1] != digits[got[i] & 15])
            return 0;
    return hex[2 * len] == '\0';
}

/* GB/T 32907-2016 example 1; draft-ribose-cfrg-sm4 A.2 CBC; OpenSSL's
 * evpciph_sm4.txt CTR vector. */
static int sm4_kat(int constant_time)
{
    static const unsigned char k[16] = {
        0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10
    };
    static const unsigned char cbc_ct[32] = {
        0x78, 0xeb, 0xb1, 0x1c, 0xc4, 0x0b, 0x0a, 0x48,
        0x31, 0x2a, 0xae, 0xb2, 0x04, 0x02, 0x44, 0xcb,
        0x4c, 0xb7, 0x01, 0x69, 0x51, 0x90, 0x92, 0x26,
        0x97, 0x9b, 0x0d, 0x15, 0xdc, 0x6a, 0x8f, 0x6d
    };
    const SMG_BLOCK_KERNEL *kern = sm4_kernel(constant_time);
    SM4_KEY enc, dec;
    unsigned char buf[64], iv[16];
    int i, ok;

    sm4_set_key(k, &enc, &dec);
    kern->ecb(&enc, k, buf, 1);
    ok = hex_equal(buf, "681edf34d206965e86b3e94f536e4246", 16);
    kern->ecb(&dec, buf, buf, 1);
    ok &= memcmp(buf, k, 16) == 0;

    for (i = 0; i < 16; i++)
        iv[i] = (unsigned char)i;
    kern->cbc_dec(&dec, cbc_ct, buf, 2, iv);
    ok &= hex_equal(buf, "aaaaaaaabbbbbbbbccccccccdddddddd"
                         "eeeeeeeeffffffffaaaaaaaabbbbbbbb", 32);
    /* and back through the serial path, which the "-ct" tables replace */
    for (i = 0; i < 16; i++)
        iv[i] = (unsigned char)i;
    kern->cbc_enc(&enc, buf, buf, 2, iv);
    ok &= memcmp(buf, cbc_ct, 32) == 0;

    memcpy(iv, k, 16);
    memcpy(buf, "\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xbb\xbb\xbb\xbb\xbb\xbb\xbb\xbb"
                "\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd"
                "\xee\xee\xee\xee\xee\xee\xee\xee\xff\xff\xff\xff\xff\xff\xff\xff"
                "\xee\xee\xee\xee\xee\xee\xee\xee\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa", 64);
    kern->ctr(&enc, buf, buf, 4, iv);
    ok &= hex_equal(buf,
                    "c2b4759e78ac3cf43d0852f4e8d5f9fd7256e8a5fcb65a350ee00630912e4449"
                    "2a0b17e1b85b060d0fba612d8a95831638b361fd5ffacd942f081485a83ca35d",
                    64);
    OPENSSL_cleanse(&enc, sizeof(enc));
    OPENSSL_cleanse(&dec, sizeof(dec));
    return ok;
}

/* GB/T 32905-2016 example 1. */
static int sm3_kat(void)
{
    SMG_DIGEST_CTX c;
    unsigned char md[SM3_DIGEST_LENGTH];

    smg_digest_init(&c, &smg_sm3_digest, sm3_kernel());
    smg_digest_update(&c, &smg_sm3_digest, (const unsigned char *)"abc", 3);
    smg_digest_final(&c, &smg_sm3_digest, md);
    return hex_equal(md, "66c7f0f462eeedd9d1f2d46bdc10e4e2"
                         "4167c4875cf2f7a2297da02b8f4ba8e0", 32);
}

/*
 * RFC 6986 10.1, M1 (63 bytes, one padded block) through both digests, in
 * a program's byte order (the RFC prints them reversed).
 */
static int streebog_kat(int constant_time)
{
    static const char m1[] =
        "012345678901234567890123456789012345678901234567890123456789012";
    const STREEBOG_KERNEL *kern = streebog_kernel(constant_time);
    SMG_DIGEST_CTX c;
    unsigned char md[STREEBOG512_DIGEST_LENGTH];
    int ok;

    smg_digest_init(&c, &smg_streebog512_digest, kern);
    smg_digest_update(&c, &smg_streebog512_digest,
                      (const unsigned char *)m1, sizeof(m1) - 1);
    smg_digest_final(&c, &smg_streebog512_digest, md);
    ok = hex_equal(md, "1b54d01a4af5b9d5cc3d86d68d285462"
                       "b19abc2475222f35c085122be4ba1ffa"
                       "00ad30f8767b3a82384c6574f024c311"
                       "e2a481332b08ef7f41797891c1646f48", 64);
    smg_digest_init(&c, &smg_streebog256_digest, kern);
    smg_digest_update(&c, &smg_streebog256_digest,
                      (const unsigned char *)m1, sizeof(m1) - 1);
    smg_digest_final(&c, &smg_streebog256_digest, md);
    return ok & hex_equal(md, "9d151eefd8590b89daa6ba6cb74af927"
                              "5dd051026bb149a452fd84e5e57b5500", 32);
}

/*
 * KDF_TREE_GOSTR3411_2012_256, the example of R 1323565.1.022-2018 (A.1.1;
 * RFC 7836 has the same function): K_in = 00..1f, label 26 bd b8 78, seed
 * af 21 43 41 45 65 63 78, R = 1, L = 512.
 */
static int kdf_tree_kat(int constant_time)
{
    static const unsigned char label[] = { 0x26, 0xbd, 0xb8, 0x78 };
    static const unsigned char seed[] = {
        0xaf, 0x21, 0x43, 0x41, 0x45, 0x65, 0x63, 0x78
    };
    unsigned char key[32], out[64];
    int i;

    for (i = 0; i < 32; i++)
        key[i] = (unsigned char)i;
    smg_kdf_tree_256(streebog_kernel(constant_time), key, sizeof(key),
                     label, sizeof(label), seed, sizeof(seed), 1, out,
                     sizeof(out));
    return hex_equal(out, "22b6837845c6bef65ea71672b2658310"
                          "86d3c76aebe6dae91cad51d83f79d16b"
                          "074c9330599d7f8d712fca54392f4ddd"
                          "e93751206b3584c8f43f9e6dc51531f9", 64);
}

/*
 * GOST 28147-89 per parameter set (libgcrypt tests/basic.c), Magma ECB
 * (RFC 8891, the GOST R 34.12-2015 example) and Magma CTR (GOST R
 * 34.13-2015 A.2.2).
 */
static int gost89_kat(int constant_time)
{
    static const struct {
        const GOST89_PARAMSET *ps;
        const char *ct;
    } sets[] = {
        { &gost89_paramset_z, "ce5a5ed7e0577a5f" },
        { &gost89_paramset_test, "9856cf8bfcc282f4" },
        { &gost89_paramset_cpa, "668184aedc48c917" },
        { &gost89_paramset_cpb, "dbee81147b74b0f2" },
        { &gost89_paramset_cpc, "31a3859d0aeeb80e" },
        { &gost89_paramset_cpd, "b1323e0b2173cbd1" },
    };
    static const unsigned char pt[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const unsigned char magma_key[32] = {
        0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
        0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
        0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
        0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff
    };
    static const unsigned char magma_pt[32] = {
        0x92, 0xde, 0xf0, 0x6b, 0x3c, 0x13, 0x0a, 0x59,
        0xdb, 0x54, 0xc7, 0x04, 0xf8, 0x18, 0x9d, 0x20,
        0x4a, 0x98, 0xfb, 0x2e, 0x67, 0xa8, 0x02, 0x4c,
        0x89, 0x12, 0x40, 0x9b, 0x17, 0xb5, 0x7e, 0x41
    };
    const SMG_BLOCK_KERNEL *kern = gost89_kernel(constant_time);
    unsigned char key[32], buf[32], ctr[8] = { 0x12, 0x34, 0x56, 0x78 };
    GOST89_KEY enc, dec;
    size_t i;
    int ok = 1;

    /* 81 82 .. 8f 80 d1 d2 .. df d0 */
    for (i = 0; i < 16; i++) {
        key[i] = (unsigned char)(0x80 | ((i + 1) & 15));
        key[16 + i] = (unsigned char)(0xd0 | ((i + 1) & 15));
    }
    for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        if (!gost89_set_key(key, sets[i].ps, 0, &enc, &dec))
            return 0;
        kern->ecb(&enc, pt, buf, 1);
        ok &= hex_equal(buf, sets[i].ct, 8);
        kern->ecb(&dec, buf, buf, 1);
        ok &= memcmp(buf, pt, 8) == 0;
    }

    if (!gost89_set_key(magma_key, &gost89_paramset_z, 1, &enc, &dec))
        return 0;
    kern->ecb(&enc, (const unsigned char *)"\xfe\xdc\xba\x98\x76\x54\x32\x10",
              buf, 1);
    ok &= hex_equal(buf, "4ee901e5c2d8ca3d", 8);
    kern->ctr(&enc, magma_pt, buf, 4, ctr);
    ok &= hex_equal(buf, "4e98110c97b7b93c3e250d93d6e85d69"
                         "136d868807b2dbef568eb680ab52a12d", 32);
    /* the serial path (the "-ct" tables replace it) against the parallel */
    memset(ctr, 0x5a, sizeof(ctr));
    kern->cbc_enc(&enc, magma_pt, buf, 4, ctr);
    memset(ctr, 0x5a, sizeof(ctr));
    kern->cbc_dec(&dec, buf, buf, 4, ctr);
    ok &= memcmp(buf, magma_pt, 32) == 0;
    OPENSSL_cleanse(&enc, sizeof(enc));
    OPENSSL_cleanse(&dec, sizeof(dec));
    return ok;
}

/*
 * RFC 7801 section 5 (GOST R 34.12-2015 A.1), by the chosen kernel and by
 * the constant-time C one; GOST R 34.13-2015 A.1.2, CTR over the first two
 * blocks; CBC both ways.
 */
static int kuznyechik_kat(int constant_time)
{
    static const unsigned char key[32] = {
        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
        0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef
    };
    static const unsigned char pt[32] = {
        0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x00,
        0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xee, 0xff, 0x0a
    };
    static const char block_ct[] = "7f679d90bebc24305a468d42b9d4edcd";
    const SMG_BLOCK_KERNEL *kern = kuznyechik_kernel(constant_time);
    unsigned char buf[32], ctr[16] = {
        0x12, 0x34, 0x56, 0x78, 0x90, 0xab, 0xce, 0xf0
    };
    KUZNYECHIK_KEY enc, dec;
    int ok = 1;

    if (!kuznyechik_set_key_kernel(kern, key, &enc, &dec))
        return 0;
    kern->ecb(&enc, pt, buf, 1);
    ok &= hex_equal(buf, block_ct, 16);
    kern->ecb(&dec, buf, buf, 1);
    ok &= memcmp(buf, pt, 16) == 0;
    kuznyechik_encrypt_block(&enc, pt, buf);
    ok &= hex_equal(buf, block_ct, 16);
    kern->ctr(&enc, pt, buf, 2, ctr);
    ok &= hex_equal(buf, "f195d8bec10ed1dbd57b5fa240bda1b8"
                         "85eee733f6a13e5df33ce4b33c45dee4", 32);
    memset(ctr, 0x5a, sizeof(ctr));
    kern->cbc_enc(&enc, pt, buf, 2, ctr);
    memset(ctr, 0x5a, sizeof(ctr));
    kern->cbc_dec(&dec, buf, buf, 2, ctr);
    ok &= memcmp(buf, pt, 32) == 0;
    OPENSSL_cleanse(&enc, sizeof(enc));
    OPENSSL_cleanse(&dec, sizeof(dec));
    return ok;
}

/*
 * GOST R 34.11-94 with the CryptoPro set (RFC 5831 section 7.3.2's
 * message, as libgcrypt's GOSTR3411_CP hashes it) through the kernel
 * beside this instance's GOST 28147-89 one; this also builds the hash's
 * tables, so that a message's init never can fail.
 */
static int gost94_kat(int constant_time)
{
    SMG_DIGEST_CTX c;
    unsigned char md[GOST94_DIGEST_LENGTH];

    if (gost94_tables(&gost94_paramset_cryptopro) == NULL)
        return 0;
    smg_digest_init(&c, &smg_gost94_digest, gost89_kernel(constant_time));
    smg_digest_update(&c, &smg_gost94_digest,
                      (const unsigned char *)"This is message, length=32 bytes",
                      32);
    smg_digest_final(&c, &smg_gost94_digest, md);
    return hex_equal(md, "2cefc2f7b7bdc514e18ea57fa74ff357"
                         "e7fa17d652c75f69cb1be7893ede48eb", 32);
}

int smg_self_test(int constant_time, const char **what)
{
    if (!sm4_kat(constant_time)) {
        *what = "SM4";
        return 0;
    }
    if (!sm3_kat()) {
        *what = "SM3";
        return 0;
    }
    if (!gost89_kat(constant_time)) {
        *what = "GOST 28147-89";
        return 0;
    }
    if (!kuznyechik_kat(constant_time)) {
        *what = "Kuznyechik";
        return 0;
    }
    if (!streebog_kat(constant_time)) {
        *what = "Streebog";
        return 0;
    }
    if (!kdf_tree_kat(constant_time)) {
        *what = "KDF_TREE_GOSTR3411_2012_256";
        return 0;
    }
    if (!gost94_kat(constant_time)) {
        *what = "GOST R 34.11-94";
        return 0;
    }
    return 1;
}
