/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libgcrypt, the reference outside OpenSSL: its initialisation (with the
 * features a level hides disabled first, for -m), which rows it has, and
 * one job's setup, call and release as measure.c's EVP ones.  Linked in
 * only with HAVE_GCRYPT (Configure found libgcrypt, or make bench
 * GCRYPT=DIR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "bench.h"

int gcrypt_init(void)
{
    const char *hide = getenv("SMGOST_BENCH_GCRYPT_HIDE");
    char buf[512], *tok, *save = NULL;

    /* before gcry_check_version, which probes the CPU */
    snprintf(buf, sizeof(buf), "%s", hide != NULL ? hide : "");
    for (tok = strtok_r(buf, " ", &save); tok != NULL;
         tok = strtok_r(NULL, " ", &save))
        gcry_control(GCRYCTL_DISABLE_HWF, tok, NULL);
    if (gcry_check_version(NULL) == NULL)
        return 0;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return 1;
}

int gcrypt_has(const struct alg *a)
{
    if (a->gc_algo == 0)
        return 0;
    switch (a->kind) {
    case K_CIPHER: case K_AEAD: return gcry_cipher_test_algo(a->gc_algo) == 0;
    case K_DIGEST: return gcry_md_test_algo(a->gc_algo) == 0;
    case K_MAC: return gcry_mac_test_algo(a->gc_algo) == 0;
    }
    return 0;
}

/* gcry_cipher_set_sbox() is a macro ending in a semicolon */
static gcry_error_t gcry_set_sbox(gcry_cipher_hd_t h, const char *oid)
{
    return gcry_cipher_ctl(h, GCRYCTL_SET_SBOX, (void *)oid, 0);
}

/* One whole AEAD or XTS message, as aead_message() below. */
static int gcrypt_message(struct job *j, int dec, const unsigned char *in,
                          unsigned char *tag)
{
    int mode = j->a->gc_mode;
    uint64_t lens[3] = { j->n, 16, 16 };

    if (gcry_cipher_setiv(j->gch, iv, mode == GCRY_CIPHER_MODE_XTS ? 16 : 12)
        || (mode == GCRY_CIPHER_MODE_CCM
            && gcry_cipher_ctl(j->gch, GCRYCTL_SET_CCM_LENGTHS, lens,
                               sizeof(lens)))
        || (mode != GCRY_CIPHER_MODE_XTS
            && gcry_cipher_authenticate(j->gch, iv + 16, 16))
        || (dec ? gcry_cipher_decrypt : gcry_cipher_encrypt)
               (j->gch, outbuf, j->n, in, j->n))
        return 0;
    if (mode == GCRY_CIPHER_MODE_XTS)
        return 1;
    return (dec ? gcry_cipher_checktag(j->gch, tag, 16)
                : gcry_cipher_gettag(j->gch, tag, 16)) == 0;
}

int gcrypt_setup(struct job *j)
{
    const struct alg *a = j->a;

    switch (a->kind) {
    case K_AEAD:
        if (gcry_cipher_open(&j->gch, a->gc_algo, a->gc_mode, 0) != 0
            || gcry_cipher_setkey(j->gch, key,
                                  a->gc_mode == GCRY_CIPHER_MODE_XTS ? 32
                                  : 16) != 0)
            return 0;
        if (!a->dec)
            return 1;
        if ((j->ct = OPENSSL_malloc(MAX_SIZE)) == NULL
            || !gcrypt_message(j, 0, inbuf, j->tag))
            return 0;
        memcpy(j->ct, outbuf, j->n);
        return 1;
    case K_CIPHER:
        if (gcry_cipher_open(&j->gch, a->gc_algo, a->gc_mode, 0) != 0)
            return 0;
        /*
         * gostprov's gost89 defaults to TC26 Z (gost-engine 3.0.1, as
         * smgost's gost89 after it: README's GOST table); libgcrypt
         * 1.10 meshes only for the CryptoPro sets, its default being Test.
         */
        if (a->family == F_GOST
            && gcry_set_sbox(j->gch, "1.2.643.7.1.2.5.1.1") != 0
            && gcry_set_sbox(j->gch, "1.2.643.2.2.31.1") != 0)
            return 0;
        if (gcry_cipher_setkey(j->gch, key,
                               gcry_cipher_get_algo_keylen(a->gc_algo)) != 0)
            return 0;
        if (a->gc_mode == GCRY_CIPHER_MODE_CTR)
            return gcry_cipher_setctr(j->gch, iv,
                       gcry_cipher_get_algo_blklen(a->gc_algo)) == 0;
        if (a->gc_mode != GCRY_CIPHER_MODE_ECB)
            return gcry_cipher_setiv(j->gch, iv,
                       gcry_cipher_get_algo_blklen(a->gc_algo)) == 0;
        return 1;
    case K_DIGEST:
        return gcry_md_open(&j->gmd, a->gc_algo, 0) == 0;
    case K_MAC:
        return gcry_mac_open(&j->gmac, a->gc_algo, 0, NULL) == 0;
    }
    return 0;
}

int gcrypt_call(struct job *j)
{
    unsigned char mac[64];
    size_t maclen = 4;

    switch (j->a->kind) {
    case K_AEAD:
        return gcrypt_message(j, j->a->dec, j->a->dec ? j->ct : inbuf,
                              j->a->dec ? j->tag : mac);
    case K_CIPHER:
        return (j->a->dec ? gcry_cipher_decrypt : gcry_cipher_encrypt)
                   (j->gch, outbuf, j->n, inbuf, j->n) == 0;
    case K_DIGEST:
        gcry_md_reset(j->gmd);
        gcry_md_write(j->gmd, inbuf, j->n);
        return gcry_md_read(j->gmd, 0) != NULL;
    case K_MAC:
        /* a keyed init per message, as with the EVP_MACs */
        return gcry_mac_reset(j->gmac) == 0
               && gcry_mac_setkey(j->gmac, key, 32) == 0
               && gcry_mac_write(j->gmac, inbuf, j->n) == 0
               && gcry_mac_read(j->gmac, mac, &maclen) == 0;
    }
    return 0;
}

void gcrypt_job_free(struct job *j)
{
    if (j->gch != NULL)
        gcry_cipher_close(j->gch);
    if (j->gmd != NULL)
        gcry_md_close(j->gmd);
    if (j->gmac != NULL)
        gcry_mac_close(j->gmac);
}
