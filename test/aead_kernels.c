/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AEAD entries (src/kernel.h's GCM, CCM and XTS tables) of every SM4
 * kernel table of the family's list (src/kernel_list.h) that this level's CPU
 * capabilities run, each set of those tables once, each against the mode
 * layer's composition over the portable tables (smg_*_composed over
 * sm4_kernel_c and sm4_gcm_c, src/aead.h), whose GHASH is checked first
 * against libcrypto's AES-GCM (with key K and H = AES_K(0), a tag over AAD
 * alone is GHASH_H(AAD || lengths) ^ AES_K(J0)).  Every block count from 0 to
 * MAXB (past two passes of the widest x86-64 loop, 128 blocks, and the
 * 64-block pass after them, and many of the aarch64 ones, 8), each call split
 * in two at random, in place and out of place, counters next to their wraps;
 * GCM's J0 entries as the first half of the split, against E(J0) by the
 * portable ecb.  Entries a table leaves NULL are the composition itself,
 * which test/22-aead.t covers through the provider; this program reaches the
 * kernels, where no oracle is needed (GB/T 17964 XTS has none in OpenSSL 3.0
 * or libgcrypt).
 *
 * Usage: aead_kernels [seed]; driven by test/23-aead-kernels.t.
 */
#include "testutil.h"

#include "aead.h"
#include "byteorder.h"
#include "cpu.h"
#include "kernel_list.h"
#include "sm4.h"

#define MAXB 340

static unsigned char ref_htable[SMG_GHASH_TABLE_SIZE]
    __attribute__((aligned(64)));

/* The portable GHASH against AES-GCM tags over AAD alone. */
static void check_reference(TU_RNG *r)
{
    unsigned char key[16], iv[12], h[16], j0[16] = { 0 }, ej0[16], tag[16];
    unsigned char aad[16 * 9], lens[16] = { 0 }, x[16], zero[16] = { 0 };
    EVP_CIPHER_CTX *c;
    int i, n, l, ok;

    for (n = 0; n <= 9; n++) {
        tu_rng_bytes(r, key, 16);
        tu_rng_bytes(r, iv, 12);
        tu_rng_bytes(r, aad, sizeof(aad));
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
        sm4_gcm_c.ghash_init(ref_htable, h);
        sm4_gcm_c.ghash(ref_htable, x, aad, (size_t)n);
        sm4_gcm_c.ghash(ref_htable, x, lens, 1);
        for (i = 0; i < 16; i++)
            x[i] ^= ej0[i];
        TU_CHECK_MEM("portable GHASH: AES-GCM tag over AAD", x, 16, tag, 16);
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

/*
 * A counter whose last 32 bits wrap within n blocks: GCM's counter wraps
 * there, CCM's carries on into byte 11 (its 64-bit count never wraps in the
 * mode layer's use, L being at most 8).
 */
static void near_wrap(TU_RNG *r, unsigned char ctr[16], size_t n)
{
    memset(ctr + 12, 0xff, 4);
    ctr[15] = (unsigned char)(0xff - tu_rng_below(r, n + 1));
}

/* Every AEAD entry of table k against the references. */
static void check_table(TU_RNG *r, const SMG_BLOCK_KERNEL *k)
{
    const SMG_BLOCK_KERNEL *c = &sm4_kernel_c;
    const SMG_GCM_KERNEL *g = k->gcm;
    const SMG_CCM_KERNEL *ccmk = k->ccm;
    const SMG_XTS_KERNEL *xtsk = k->xts;
    static unsigned char htable[SMG_GHASH_TABLE_SIZE]
        __attribute__((aligned(64)));
    static unsigned char in[16 * MAXB], want[16 * MAXB], got[16 * MAXB];
    unsigned char key[16], h[16] = { 0 }, s1[16], s2[16], x1[16], x2[16],
        e1[16], e2[16];
    const unsigned char *src;
    SM4_KEY enc, dec;
    size_t n, cut;
    int inplace, dir, gb;

    for (n = 0; n <= MAXB; n++) {
        for (inplace = 0; inplace <= 1; inplace++) {
            tu_rng_bytes(r, key, 16);
            sm4_set_key(key, &enc, &dec);
            memset(h, 0, 16);
            c->ecb(&enc, h, h, 1);
            g->ghash_init(htable, h);
            sm4_gcm_c.ghash_init(ref_htable, h);
            cut = tu_rng_below(r, n + 1);
            tu_rng_bytes(r, in, 16 * n);

            tu_rng_bytes(r, x1, 16);
            memcpy(x2, x1, 16);
            sm4_gcm_c.ghash(ref_htable, x1, in, n);
            g->ghash(htable, x2, in, cut);
            g->ghash(htable, x2, in + 16 * cut, n - cut);
            TU_CHECK(memcmp(x1, x2, 16) == 0, "%s ghash, %zu blocks", g->name, n);

            for (dir = 0; dir <= 1; dir++) {
                smg_gcm_fn gcm = dir ? g->dec : g->enc;
                smg_gcm_j0_fn gcm_j0 = dir ? g->dec_j0 : g->enc_j0;
                smg_ccm_fn ccm = ccmk == NULL ? NULL
                                 : dir ? ccmk->dec : ccmk->enc;

                if (gcm != NULL) {
                    tu_rng_bytes(r, s1, 16);
                    if (tu_rng_below(r, 2))
                        near_wrap(r, s1, n);
                    tu_rng_bytes(r, x1, 16);
                    memcpy(s2, s1, 16);
                    memcpy(x2, x1, 16);
                    smg_gcm_composed(c, &sm4_gcm_c, !dir, &enc, ref_htable,
                                     in, want, n, s1, x1);
                    src = source(in, got, n, inplace);
                    gcm(&enc, htable, src, got, cut, s2, x2);
                    gcm(&enc, htable, src + 16 * cut, got + 16 * cut, n - cut,
                        s2, x2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0
                             && memcmp(x1, x2, 16) == 0,
                             "%s gcm_%s, %zu blocks, %s", g->name,
                             dir ? "dec" : "enc", n,
                             inplace ? "in place" : "out of place");
                }
                if (gcm_j0 != NULL) {
                    /* s1 is J0, its next counter the composition's start */
                    tu_rng_bytes(r, s1, 16);
                    if (tu_rng_below(r, 2))
                        near_wrap(r, s1, n + 1);
                    tu_rng_bytes(r, x1, 16);
                    memcpy(s2, s1, 16);
                    memcpy(x2, x1, 16);
                    c->ecb(&enc, s1, e1, 1);
                    store_be32(s1 + 12, load_be32(s1 + 12) + 1);
                    smg_gcm_composed(c, &sm4_gcm_c, !dir, &enc, ref_htable,
                                     in, want, n, s1, x1);
                    src = source(in, got, n, inplace);
                    gcm_j0(&enc, htable, src, got, cut, s2, x2, e2);
                    if (gcm != NULL)
                        gcm(&enc, htable, src + 16 * cut, got + 16 * cut,
                            n - cut, s2, x2);
                    else
                        smg_gcm_composed(c, &sm4_gcm_c, !dir, &enc, htable,
                                         src + 16 * cut, got + 16 * cut,
                                         n - cut, s2, x2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0
                             && memcmp(x1, x2, 16) == 0
                             && memcmp(e1, e2, 16) == 0,
                             "%s gcm_%s_j0, %zu blocks (%zu in it), %s",
                             g->name, dir ? "dec" : "enc", n, cut,
                             inplace ? "in place" : "out of place");
                }
                if (ccm != NULL) {
                    tu_rng_bytes(r, s1, 16);
                    if (tu_rng_below(r, 2))
                        near_wrap(r, s1, n);
                    tu_rng_bytes(r, x1, 16);
                    memcpy(s2, s1, 16);
                    memcpy(x2, x1, 16);
                    smg_ccm_composed(c, !dir, &enc, in, want, n, s1, x1);
                    src = source(in, got, n, inplace);
                    ccm(&enc, src, got, cut, s2, x2);
                    ccm(&enc, src + 16 * cut, got + 16 * cut, n - cut, s2, x2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0
                             && memcmp(x1, x2, 16) == 0,
                             "%s ccm_%s, %zu blocks, %s", g->name,
                             dir ? "dec" : "enc", n,
                             inplace ? "in place" : "out of place");
                }
                for (gb = 0; gb <= 1; gb++) {
                    smg_xts_fn xts = xtsk == NULL ? NULL
                        : gb ? (dir ? xtsk->dec_gb : xtsk->enc_gb)
                             : (dir ? xtsk->dec_ieee : xtsk->enc_ieee);
                    const SM4_KEY *ks = dir ? &dec : &enc;

                    if (xts == NULL)
                        continue;
                    tu_rng_bytes(r, s1, 16);
                    memcpy(s2, s1, 16);
                    smg_xts_composed(c, !gb, ks, in, want, n, s1);
                    src = source(in, got, n, inplace);
                    xts(ks, src, got, cut, s2);
                    xts(ks, src + 16 * cut, got + 16 * cut, n - cut, s2);
                    TU_CHECK(memcmp(want, got, 16 * n) == 0
                             && memcmp(s1, s2, 16) == 0,
                             "%s xts_%s_%s, %zu blocks, %s", g->name,
                             dir ? "dec" : "enc", gb ? "gb" : "ieee", n,
                             inplace ? "in place" : "out of place");
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    const SMG_KERNEL_FAMILY *f = &sm4_kernel_family;
    /* the tables checked: their GCM, CCM and XTS tables */
    const SMG_BLOCK_KERNEL *done[64];
    size_t ndone = 0, i, j;
    TU_RNG r;

    tu_rng_seed(&r, tu_seed(argc > 1 ? argv[1] : NULL));
    printf("# kernels: %s+%s\n", sm4_kernel(0)->name,
           sm4_kernel(0)->gcm->name);
    check_reference(&r);
    for (i = 0; i < f->nkernels; i++) {
        const SMG_BLOCK_KERNEL *k = f->kernels[i].table;

        if (!smg_cpu_has(f->kernels[i].caps))
            continue;
        for (j = 0; j < ndone && (done[j]->gcm != k->gcm
                                  || done[j]->ccm != k->ccm
                                  || done[j]->xts != k->xts); j++)
            continue;
        if (j < ndone)
            continue;
        if (!TU_CHECK(ndone < sizeof(done) / sizeof(done[0]),
                      "more than %zu AEAD tables", ndone))
            break;
        done[ndone++] = k;
        check_table(&r, k);
        printf("# checked %s+%s\n", k->name, k->gcm->name);
    }
    return tu_report("aead kernels");
}
