/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AEAD entries (src/kernel.h, SMG_AEAD_KERNEL) of the SM4 kernel table
 * this level's CPU capabilities choose, each against a reference written
 * here from kernel.h's definitions over the portable block kernel: GHASH by
 * NIST SP 800-38D's bitwise multiplication (algorithm 1), itself checked
 * first against libcrypto's AES-GCM (with key K and H = AES_K(0), a tag over
 * AAD alone is GHASH_H(AAD || lengths) ^ AES_K(J0)), GCM, CCM, and XTS with
 * both tweak conventions.  Every block count from 0 to MAXB (past a pass of
 * the widest x86-64 loop, 128 blocks, and many of the aarch64 ones, 8), each
 * call split in two at random, in place and out of place, counters next to
 * their wraps.  Entries a table
 * leaves NULL are the mode layer's, which test/22-aead.t covers through the
 * provider; this program reaches the kernels themselves, where no oracle is
 * needed (GB/T 17964 XTS has none in OpenSSL 3.0 or libgcrypt).
 *
 * Usage: aead_kernels [seed]; driven by test/23-aead-kernels.t.
 */
#include "testutil.h"

#include "sm4.h"

#define MAXB 140

static void rng(TU_RNG *r, unsigned char *p, size_t n)
{
    tu_rng_bytes(r, p, n);
}

/* SP 800-38D, algorithm 1: x = x * y in GCM's bit order. */
static void gf_mul(unsigned char x[16], const unsigned char y[16])
{
    unsigned char z[16] = { 0 }, v[16];
    int i, j, lsb;

    memcpy(v, y, 16);
    for (i = 0; i < 128; i++) {
        if (x[i / 8] & (0x80 >> (i % 8)))
            for (j = 0; j < 16; j++)
                z[j] ^= v[j];
        lsb = v[15] & 1;
        for (j = 15; j > 0; j--)
            v[j] = (unsigned char)(v[j] >> 1 | v[j - 1] << 7);
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1;
    }
    memcpy(x, z, 16);
}

static void ref_ghash(const unsigned char h[16], unsigned char xi[16],
                      const unsigned char *in, size_t n)
{
    size_t i;
    int j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < 16; j++)
            xi[j] ^= in[16 * i + j];
        gf_mul(xi, h);
    }
}

/* The reference GHASH against AES-GCM tags over AAD alone. */
static void check_reference(TU_RNG *r)
{
    unsigned char key[16], iv[12], h[16], j0[16] = { 0 }, ej0[16], tag[16];
    unsigned char aad[16 * 9], lens[16] = { 0 }, x[16], zero[16] = { 0 };
    EVP_CIPHER_CTX *c;
    int i, n, l, ok;

    for (n = 0; n <= 9; n++) {
        rng(r, key, 16);
        rng(r, iv, 12);
        rng(r, aad, sizeof(aad));
        memcpy(j0, iv, 12);
        j0[15] = 1;
        ok = (c = EVP_CIPHER_CTX_new()) != NULL
             && EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, key, NULL)
             && EVP_CIPHER_CTX_set_padding(c, 0)
             && EVP_EncryptUpdate(c, h, &l, zero, 16)
             && EVP_EncryptUpdate(c, ej0, &l, j0, 16);
        EVP_CIPHER_CTX_free(c);
        ok = ok && (c = EVP_CIPHER_CTX_new()) != NULL
             && EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), NULL, key, iv)
             && (n == 0 || EVP_EncryptUpdate(c, NULL, &l, aad, 16 * n))
             && EVP_EncryptFinal_ex(c, zero, &l)
             && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag);
        EVP_CIPHER_CTX_free(c);
        if (!TU_CHECK(ok, "AES-128-GCM from libcrypto"))
            continue;
        for (i = 0; i < 8; i++)        /* len(A) in bits, len(C) = 0 */
            lens[7 - i] = (unsigned char)((uint64_t)(128 * n) >> (8 * i));
        memset(x, 0, 16);
        ref_ghash(h, x, aad, (size_t)n);
        ref_ghash(h, x, lens, 1);
        for (i = 0; i < 16; i++)
            x[i] ^= ej0[i];
        TU_CHECK_MEM("reference GHASH: AES-GCM tag over AAD", x, 16, tag, 16);
    }
}

static SM4_KEY enc, dec;
static unsigned char H[16];

static void E(const SM4_KEY *ks, const unsigned char *in, unsigned char *out)
{
    sm4_kernel_c.ecb(ks, in, out, 1);
}

static void inc_be(unsigned char *p, int n)
{
    while (n-- > 0 && ++p[n] == 0)
        ;
}

static void ref_gcm(int encrypt, const unsigned char *in, unsigned char *out,
                    size_t n, unsigned char ctr[16], unsigned char xi[16])
{
    unsigned char ks[16], c[16];
    size_t i;
    int j;

    for (i = 0; i < n; i++) {
        E(&enc, ctr, ks);
        for (j = 0; j < 16; j++) {
            c[j] = encrypt ? in[16 * i + j] ^ ks[j] : in[16 * i + j];
            out[16 * i + j] = in[16 * i + j] ^ ks[j];
        }
        ref_ghash(H, xi, c, 1);
        inc_be(ctr + 12, 4);
    }
}

static void ref_ccm(int encrypt, const unsigned char *in, unsigned char *out,
                    size_t n, unsigned char ctr[16], unsigned char mac[16])
{
    unsigned char ks[16], p[16];
    size_t i;
    int j;

    for (i = 0; i < n; i++) {
        E(&enc, ctr, ks);
        for (j = 0; j < 16; j++) {
            p[j] = encrypt ? in[16 * i + j] : in[16 * i + j] ^ ks[j];
            out[16 * i + j] = in[16 * i + j] ^ ks[j];
            mac[j] ^= p[j];
        }
        E(&enc, mac, mac);
        inc_be(ctr + 8, 8);
    }
}

/* T times x: IEEE 1619 (little-endian, 0x87) or GB/T 17964 (big-endian,
 * shifted right, 0xe1 into byte 0, as OpenSSL 3.5's xts128gb). */
static void ref_xts(int gb, const SM4_KEY *ks, const unsigned char *in,
                    unsigned char *out, size_t n, unsigned char t[16])
{
    unsigned char b[16];
    size_t i;
    int j, c;

    for (i = 0; i < n; i++) {
        for (j = 0; j < 16; j++)
            b[j] = in[16 * i + j] ^ t[j];
        E(ks, b, b);
        for (j = 0; j < 16; j++)
            out[16 * i + j] = b[j] ^ t[j];
        if (gb) {
            c = t[15] & 1;
            for (j = 15; j > 0; j--)
                t[j] = (unsigned char)(t[j] >> 1 | t[j - 1] << 7);
            t[0] = (unsigned char)(t[0] >> 1 ^ (c ? 0xe1 : 0));
        } else {
            c = t[15] >> 7;
            for (j = 15; j > 0; j--)
                t[j] = (unsigned char)(t[j] << 1 | t[j - 1] >> 7);
            t[0] = (unsigned char)(t[0] << 1 ^ (c ? 0x87 : 0));
        }
    }
}

/* The input of a call: in itself, or its copy in out for in place. */
static const unsigned char *source(const unsigned char *in, unsigned char *out,
                                   size_t n, int inplace)
{
    if (!inplace)
        return in;
    memcpy(out, in, 16 * n);
    return out;
}

/* A counter whose low word (GCM: 32 bits, CCM: 64) wraps within n blocks. */
static void near_wrap(TU_RNG *r, unsigned char ctr[16], int width, size_t n)
{
    int i;

    for (i = 16 - width; i < 16; i++)
        ctr[i] = 0xff;
    ctr[15] = (unsigned char)(0xff - tu_rng_below(r, n + 1));
}

int main(int argc, char **argv)
{
    const SMG_BLOCK_KERNEL *k = sm4_kernel(0);
    const SMG_AEAD_KERNEL *a = k->aead;
    static unsigned char htable[SMG_GHASH_TABLE_SIZE]
        __attribute__((aligned(64)));
    static unsigned char in[16 * MAXB], want[16 * MAXB], got[16 * MAXB];
    unsigned char key[16], zero[16] = { 0 }, s1[16], s2[16], x1[16], x2[16];
    TU_RNG r;
    size_t n, cut;
    int inplace, dir, gb;

    tu_rng_seed(&r, tu_seed(argc > 1 ? argv[1] : NULL));
    printf("# kernels: %s+%s\n", k->name, a->name);
    check_reference(&r);
    for (n = 0; n <= MAXB; n++) {
        for (inplace = 0; inplace <= 1; inplace++) {
            const unsigned char *src;

            rng(&r, key, 16);
            sm4_set_key(key, &enc, &dec);
            E(&enc, zero, H);
            a->ghash_init(htable, H);
            cut = tu_rng_below(&r, n + 1);
            rng(&r, in, 16 * n);

            rng(&r, x1, 16);
            memcpy(x2, x1, 16);
            ref_ghash(H, x1, in, n);
            a->ghash(htable, x2, in, cut);
            a->ghash(htable, x2, in + 16 * cut, n - cut);
            TU_CHECK(memcmp(x1, x2, 16) == 0, "%s ghash, %zu blocks", a->name, n);

            for (dir = 0; dir <= 1; dir++) {
                void (*gcm)(const void *, const void *, const unsigned char *,
                            unsigned char *, size_t, unsigned char *,
                            unsigned char *) = dir ? a->gcm_dec : a->gcm_enc;
                void (*ccm)(const void *, const unsigned char *,
                            unsigned char *, size_t, unsigned char *,
                            unsigned char *) = dir ? a->ccm_dec : a->ccm_enc;

                if (gcm != NULL) {
                    rng(&r, s1, 16);
                    if (tu_rng_below(&r, 2))
                        near_wrap(&r, s1, 4, n);
                    rng(&r, x1, 16);
                    memcpy(s2, s1, 16);
                    memcpy(x2, x1, 16);
                    ref_gcm(!dir, in, want, n, s1, x1);
                    src = source(in, got, n, inplace);
                    gcm(&enc, htable, src, got, cut, s2, x2);
                    gcm(&enc, htable, src + 16 * cut, got + 16 * cut, n - cut,
                        s2, x2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0
                             && memcmp(x1, x2, 16) == 0,
                             "%s gcm_%s, %zu blocks, %s", a->name,
                             dir ? "dec" : "enc", n,
                             inplace ? "in place" : "out of place");
                }
                if (ccm != NULL) {
                    rng(&r, s1, 16);
                    if (tu_rng_below(&r, 2))
                        near_wrap(&r, s1, 8, n);
                    rng(&r, x1, 16);
                    memcpy(s2, s1, 16);
                    memcpy(x2, x1, 16);
                    ref_ccm(!dir, in, want, n, s1, x1);
                    src = source(in, got, n, inplace);
                    ccm(&enc, src, got, cut, s2, x2);
                    ccm(&enc, src + 16 * cut, got + 16 * cut, n - cut, s2, x2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0
                             && memcmp(x1, x2, 16) == 0,
                             "%s ccm_%s, %zu blocks, %s", a->name,
                             dir ? "dec" : "enc", n,
                             inplace ? "in place" : "out of place");
                }
                for (gb = 0; gb <= 1; gb++) {
                    smg_xts_fn xts = gb ? (dir ? a->xts_dec_gb : a->xts_enc_gb)
                                        : (dir ? a->xts_dec_ieee : a->xts_enc_ieee);
                    const SM4_KEY *ks = dir ? &dec : &enc;

                    if (xts == NULL)
                        continue;
                    rng(&r, s1, 16);
                    memcpy(s2, s1, 16);
                    ref_xts(gb, ks, in, want, n, s1);
                    src = source(in, got, n, inplace);
                    xts(ks, src, got, cut, s2);
                    xts(ks, src + 16 * cut, got + 16 * cut, n - cut, s2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0,
                             "%s xts_%s_%s, %zu blocks, %s", a->name,
                             dir ? "dec" : "enc", gb ? "gb" : "ieee", n,
                             inplace ? "in place" : "out of place");
                }
            }
        }
    }
    return tu_report("aead kernels");
}
