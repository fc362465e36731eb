/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OMAC and OMAC-ACPKM under the MAC layer (mac.h), over the block kernel
 * the family's ciphers use in this provider (constant-time under
 * constant-time = yes, as theirs).
 *
 * OMAC (GOST R 34.13-2015 5.6, the OMAC1 of Iwata and Kurosawa, NIST SP
 * 800-38B's CMAC): C_i = E(C_{i-1} ^ M_i) from C_0 = 0; the last block is
 * M ^ K1 when whole, else (M || 1 || 0...) ^ K2; the MAC is the first `size`
 * bytes of its encryption.  K1 = L << 1, K2 = K1 << 1, each shift folding
 * the bit shifted out back in as R = 0x87 (n = 128) or 0x1b (n = 64), from
 * L = E(0).
 *
 * OMAC-ACPKM (R 1323565.1.017-2018 4.2): the message is cut into sections
 * of N bytes (`key-mesh`); section i runs under K^i and its last block, if
 * the message ends there, takes K^i_1 as K1.  K^1 || K^1_1 || K^2 || K^2_1
 * ... is ACPKM-Master: CTR-ACPKM under the MAC key from the counter
 * 1^{n/2} || 0^{n/2}, re-keyed every T bytes (`cipher-key-mesh`), over
 * zeros, k + n bytes per section (R 1323565.1.017-2018 4.2; RFC 8645
 * 6.3.1, ACPKM-Master, and 6.3.6, OMAC-ACPKM-Master).  The chain runs on across sections.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "err.h"
#include "gost_params.h"
#include "mac.h"
#include "modes.h"

typedef struct omac_state {
    const SMG_BLOCK_KERNEL *kernel;
    unsigned char chain[SMG_MAC_MAX_BLOCK];     /* C_i */
    unsigned char k1[SMG_MAC_MAX_BLOCK];        /* K1 (OMAC-ACPKM: K^i_1) */
    _Alignas(16) unsigned char ks[SMG_KS_MAX];  /* the (section's) key */
} OMAC_STATE;

typedef struct omac_acpkm_state {
    OMAC_STATE omac;
    size_t section, master_section;     /* N, T */
    size_t used;                /* message bytes under the section's key */
    size_t master_used;         /* master keystream of its own section */
    unsigned char master_ctr[SMG_MAC_MAX_BLOCK];
    _Alignas(16) unsigned char master_ks[SMG_KS_MAX];
} OMAC_ACPKM_STATE;

_Static_assert(offsetof(OMAC_ACPKM_STATE, omac) == 0,
               "OMAC-ACPKM's state begins with OMAC's");

static const SMG_MAC_CIPHER *cipher_of(const SMG_MAC_CTX *c)
{
    return c->mac->arg;
}

/* x << 1 in GF(2^n), without a branch on the secret top bit. */
static void omac_double(unsigned char *out, const unsigned char *in,
                        size_t bs)
{
    unsigned char fold = (unsigned char)((0u - (in[0] >> 7))
                                         & (bs == 16 ? 0x87 : 0x1b));
    size_t i;

    for (i = 0; i + 1 < bs; i++)
        out[i] = (unsigned char)(in[i] << 1 | in[i + 1] >> 7);
    out[bs - 1] = (unsigned char)(in[bs - 1] << 1) ^ fold;
}

/* C = E(C ^ M) over nblocks of in: CBC-MAC, the ciphertext dropped. */
static void omac_fold(OMAC_STATE *s, size_t bs, const unsigned char *in,
                      size_t nblocks)
{
    enum { CHUNK = 16 };
    unsigned char scratch[CHUNK * SMG_MAC_MAX_BLOCK];

    while (nblocks > 0) {
        size_t n = nblocks < CHUNK ? nblocks : CHUNK;

        s->kernel->cbc_enc(s->ks, in, scratch, n, s->chain);
        in += n * bs;
        nblocks -= n;
    }
    OPENSSL_cleanse(scratch, sizeof(scratch));
}

/* The last block as OMAC's rule says, its MAC to out (c->size bytes). */
static void omac_finish(SMG_MAC_CTX *c, OMAC_STATE *s, unsigned char *last,
                        size_t nlast, unsigned char *out)
{
    size_t bs = cipher_of(c)->block_size, i;
    unsigned char k2[SMG_MAC_MAX_BLOCK], tag[SMG_MAC_MAX_BLOCK];
    const unsigned char *k = s->k1;

    if (nlast < bs) {
        last[nlast] = 0x80;
        memset(last + nlast + 1, 0, bs - nlast - 1);
        omac_double(k2, s->k1, bs);
        k = k2;
    }
    for (i = 0; i < bs; i++)
        last[i] ^= k[i];
    s->kernel->cbc_enc(s->ks, last, tag, 1, s->chain);
    memcpy(out, tag, c->size);
    OPENSSL_cleanse(k2, sizeof(k2));
    OPENSSL_cleanse(tag, sizeof(tag));
    OPENSSL_cleanse(s->chain, sizeof(s->chain));
}

static int omac_set_key(SMG_MAC_CTX *c, void *ks, const unsigned char *key)
{
    OMAC_STATE *s = smg_mac_state(c);

    if (!cipher_of(c)->set_key(s->kernel, ks, key)) {
        SMG_RAISE(c->provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------- OMAC */

static void omac_setup(SMG_MAC_CTX *c)
{
    OMAC_STATE *s = smg_mac_state(c);

    s->kernel = cipher_of(c)->kernel(c->provctx);
}

static int omac_restart(SMG_MAC_CTX *c)
{
    OMAC_STATE *s = smg_mac_state(c);
    size_t bs = cipher_of(c)->block_size;
    unsigned char l[SMG_MAC_MAX_BLOCK] = { 0 };

    memset(s->chain, 0, sizeof(s->chain));
    if (!c->key_set)
        return 1;
    if (!omac_set_key(c, s->ks, c->key))
        return 0;
    s->kernel->ecb(s->ks, l, l, 1);
    omac_double(s->k1, l, bs);
    OPENSSL_cleanse(l, sizeof(l));
    return 1;
}

static void omac_blocks(SMG_MAC_CTX *c, const unsigned char *in, size_t len)
{
    size_t bs = cipher_of(c)->block_size;

    omac_fold(smg_mac_state(c), bs, in, len / bs);
}

static void omac_final(SMG_MAC_CTX *c, unsigned char *last, size_t nlast,
                       unsigned char *out)
{
    omac_finish(c, smg_mac_state(c), last, nlast, out);
}

static const OSSL_PARAM omac_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(SMG_MAC_PARAM_KEYLEN, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM omac_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_END
};

const SMG_MAC_OPS smg_omac_ops = {
    sizeof(OMAC_STATE), omac_setup, omac_restart, omac_blocks, omac_final,
    NULL, NULL, omac_gettable, omac_settable
};

/* ------------------------------------------------------- OMAC-ACPKM */

/*
 * len bytes (whole blocks) of ACPKM-Master's keystream: CTR over zeros,
 * the master key replaced by ACPKM's next one at every T bytes.
 */
static void master_keystream(SMG_MAC_CTX *c, unsigned char *km, size_t len)
{
    static const unsigned char zeros[SMG_ACPKM_KEY_LEN + SMG_MAC_MAX_BLOCK];
    OMAC_ACPKM_STATE *s = smg_mac_state(c);
    const SMG_BLOCK_KERNEL *k = s->omac.kernel;
    size_t bs = cipher_of(c)->block_size, n;

    while (len > 0) {
        if (s->master_used == s->master_section) {
            unsigned char key[SMG_ACPKM_KEY_LEN];

            smg_acpkm_next_key(k, s->master_ks, bs, key);
            /* The family's tables exist since the first key. */
            cipher_of(c)->set_key(k, s->master_ks, key);
            OPENSSL_cleanse(key, sizeof(key));
            s->master_used = 0;
        }
        n = (s->master_section - s->master_used) / bs;
        if (n > len / bs)
            n = len / bs;
        k->ctr(s->master_ks, zeros, km, n, s->master_ctr);
        s->master_used += n * bs;
        km += n * bs;
        len -= n * bs;
    }
}

/* The next section: K^i and K^i_1 from the master's keystream. */
static void next_section(SMG_MAC_CTX *c)
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);
    size_t bs = cipher_of(c)->block_size;
    unsigned char km[SMG_ACPKM_KEY_LEN + SMG_MAC_MAX_BLOCK];

    master_keystream(c, km, SMG_ACPKM_KEY_LEN + bs);
    cipher_of(c)->set_key(s->omac.kernel, s->omac.ks, km);
    memcpy(s->omac.k1, km + SMG_ACPKM_KEY_LEN, bs);
    OPENSSL_cleanse(km, sizeof(km));
    s->used = 0;
}

static void acpkm_setup(SMG_MAC_CTX *c)
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);

    omac_setup(c);
    s->section = cipher_of(c)->section;
    s->master_section = cipher_of(c)->master_section;
}

static int acpkm_restart(SMG_MAC_CTX *c)
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);
    size_t bs = cipher_of(c)->block_size;

    memset(s->omac.chain, 0, sizeof(s->omac.chain));
    if (!c->key_set)
        return 1;
    if (!omac_set_key(c, s->master_ks, c->key))
        return 0;
    memset(s->master_ctr, 0, sizeof(s->master_ctr));
    memset(s->master_ctr, 0xff, bs / 2);
    s->master_used = 0;
    next_section(c);
    return 1;
}

static void acpkm_blocks(SMG_MAC_CTX *c, const unsigned char *in, size_t len)
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);
    size_t bs = cipher_of(c)->block_size, nblocks = len / bs, n;

    while (nblocks > 0) {
        if (s->used == s->section)
            next_section(c);
        n = (s->section - s->used) / bs;
        if (n > nblocks)
            n = nblocks;
        omac_fold(&s->omac, bs, in, n);
        s->used += n * bs;
        in += n * bs;
        nblocks -= n;
    }
}

static void acpkm_final(SMG_MAC_CTX *c, unsigned char *last, size_t nlast,
                        unsigned char *out)
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);

    if (s->used == s->section)
        next_section(c);
    omac_finish(c, &s->omac, last, nlast, out);
}

/* N or T: a non-zero multiple of the block. */
static int get_section(SMG_MAC_CTX *c, const OSSL_PARAM *p, size_t *v)
{
    size_t bs = cipher_of(c)->block_size;

    if (!OSSL_PARAM_get_size_t(p, v)) {
        SMG_RAISE_DATA(c->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER), "%s",
                       p->key);
        return 0;
    }
    if (*v == 0 || *v % bs != 0) {
        SMG_RAISE_DATA(c->provctx, SMG_R_INVALID_KEY_MESH,
                       "%s: %zu is not a non-zero multiple of %zu", p->key,
                       *v, bs);
        return 0;
    }
    return 1;
}

/* New sections restart the message under the key, as they define it. */
static int acpkm_set_params(SMG_MAC_CTX *c, const OSSL_PARAM params[])
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);
    const OSSL_PARAM *pn, *pt;
    size_t n = s->section, t = s->master_section;

    pn = OSSL_PARAM_locate_const(params, SMG_GOST_PARAM_KEY_MESH);
    pt = OSSL_PARAM_locate_const(params, SMG_GOST_PARAM_CIPHER_KEY_MESH);
    if ((pn != NULL && !get_section(c, pn, &n))
        || (pt != NULL && !get_section(c, pt, &t)))
        return 0;
    if (pn == NULL && pt == NULL)
        return 1;
    s->section = n;
    s->master_section = t;
    return !c->key_set || smg_mac_restart(c);
}

static OSSL_PARAM *acpkm_get_params(SMG_MAC_CTX *c, OSSL_PARAM params[])
{
    OMAC_ACPKM_STATE *s = smg_mac_state(c);
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, SMG_GOST_PARAM_KEY_MESH)) != NULL
        && !OSSL_PARAM_set_size_t(p, s->section))
        return p;
    if ((p = OSSL_PARAM_locate(params, SMG_GOST_PARAM_CIPHER_KEY_MESH)) != NULL
        && !OSSL_PARAM_set_size_t(p, s->master_section))
        return p;
    return NULL;
}

static const OSSL_PARAM acpkm_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(SMG_MAC_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(SMG_GOST_PARAM_KEY_MESH, NULL),
    OSSL_PARAM_size_t(SMG_GOST_PARAM_CIPHER_KEY_MESH, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM acpkm_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(SMG_GOST_PARAM_KEY_MESH, NULL),
    OSSL_PARAM_size_t(SMG_GOST_PARAM_CIPHER_KEY_MESH, NULL),
    OSSL_PARAM_END
};

const SMG_MAC_OPS smg_omac_acpkm_ops = {
    sizeof(OMAC_ACPKM_STATE), acpkm_setup, acpkm_restart, acpkm_blocks,
    acpkm_final, acpkm_set_params, acpkm_get_params, acpkm_gettable,
    acpkm_settable
};
