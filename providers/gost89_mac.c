/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GOST 28147-89 MAC (IMIT, "imitovstavka") as EVP_MACs with gostprov's
 * names and conventions: `gost-mac` (1.2.643.2.2.22, CryptoPro-A) and
 * `gost-mac-12` (TC26 Z), a 4-byte MAC by default (`size` 1..8), CryptoPro
 * key meshing every 1024 bytes, zero padding of the last block and, as the
 * standard asks for at least two blocks, a zero block after a message of
 * one block or less (gost-engine's gost89_imit_final, libgcrypt's IMIT).
 * The parameter set can be changed with `paramset`, as for the ciphers.
 * IMIT's operations under the MAC layer (src/mac.c), which holds the
 * context, the key and size parameters and the last block.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include "err.h"
#include "gost89.h"
#include "mac.h"
#include "prov.h"

#define GOST89_MAC_DEFAULT_SIZE 4
#define GOST89_MAC_MESH_PERIOD 1024

typedef struct imit_state {
    const GOST89_PARAMSET *paramset;
    GOST89_KEY enc, dec;
    unsigned char mac[GOST89_BLOCK_SIZE];   /* the running IMIT value */
    size_t nbytes;              /* bytes folded into mac so far */
    /* the provider's "constant-time" setting, and the kernel that meshes */
    int constant_time;
    const SMG_BLOCK_KERNEL *kernel;
} IMIT_STATE;

static void imit_setup(SMG_MAC_CTX *c)
{
    IMIT_STATE *s = smg_mac_state(c);

    s->paramset = c->mac->arg;
    s->constant_time = smg_prov_constant_time(c->provctx);
    s->kernel = gost89_kernel(s->constant_time);
}

/* A new message under the key as given (meshing undone). */
static int imit_restart(SMG_MAC_CTX *c)
{
    IMIT_STATE *s = smg_mac_state(c);

    if (c->key_set
        && !gost89_set_key(c->key, s->paramset, 0, &s->enc, &s->dec)) {
        SMG_RAISE(c->provctx, SMG_R_OUT_OF_MEMORY);
        return 0;
    }
    memset(s->mac, 0, sizeof(s->mac));
    s->nbytes = 0;
    return 1;
}

/* Folds whole blocks, meshing the key before every 1024-byte boundary. */
static void imit_blocks(SMG_MAC_CTX *c, const unsigned char *in, size_t len)
{
    IMIT_STATE *s = smg_mac_state(c);
    size_t nblocks = len / GOST89_BLOCK_SIZE;

    while (nblocks > 0) {
        size_t room, n;

        if (s->nbytes != 0 && s->nbytes % GOST89_MAC_MESH_PERIOD == 0)
            gost89_key_mesh(s->kernel, &s->enc, &s->dec, NULL);
        room = (GOST89_MAC_MESH_PERIOD - s->nbytes % GOST89_MAC_MESH_PERIOD)
               / GOST89_BLOCK_SIZE;
        n = nblocks < room ? nblocks : room;
        gost89_imit_blocks(s->constant_time, &s->enc, s->mac, in, n);
        s->nbytes += n * GOST89_BLOCK_SIZE;
        in += n * GOST89_BLOCK_SIZE;
        nblocks -= n;
    }
}

static void imit_final(SMG_MAC_CTX *c, unsigned char *last, size_t nlast,
                       unsigned char *out)
{
    static const unsigned char zero_block[GOST89_BLOCK_SIZE];
    IMIT_STATE *s = smg_mac_state(c);

    if (nlast > 0) {
        memset(last + nlast, 0, GOST89_BLOCK_SIZE - nlast);
        imit_blocks(c, last, GOST89_BLOCK_SIZE);
        if (s->nbytes == GOST89_BLOCK_SIZE)
            imit_blocks(c, zero_block, GOST89_BLOCK_SIZE);
    }
    memcpy(out, s->mac, c->size);
    OPENSSL_cleanse(s->mac, sizeof(s->mac));
}

static int imit_set_params(SMG_MAC_CTX *c, const OSSL_PARAM params[])
{
    IMIT_STATE *s = smg_mac_state(c);
    const OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate_const(params, GOST89_PARAM_PARAMSET)) != NULL) {
        if (!smg_gost89_paramset_param(c->provctx, p, &s->paramset))
            return 0;
        if (c->key_set && !smg_mac_restart(c))
            return 0;
    }
    return 1;
}

static OSSL_PARAM *imit_get_params(SMG_MAC_CTX *c, OSSL_PARAM params[])
{
    IMIT_STATE *s = smg_mac_state(c);
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, GOST89_PARAM_PARAMSET)) != NULL
        && !OSSL_PARAM_set_utf8_string(p, s->paramset->name))
        return p;
    return NULL;
}

static const OSSL_PARAM imit_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(SMG_MAC_PARAM_KEYLEN, NULL),
    OSSL_PARAM_utf8_string(GOST89_PARAM_PARAMSET, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM imit_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_utf8_string(GOST89_PARAM_PARAMSET, NULL, 0),
    OSSL_PARAM_END
};

static const SMG_MAC_OPS imit_ops = {
    sizeof(IMIT_STATE), imit_setup, imit_restart, imit_blocks, imit_final,
    imit_set_params, imit_get_params, imit_gettable, imit_settable
};

_Static_assert(GOST89_BLOCK_SIZE <= SMG_MAC_MAX_BLOCK
               && GOST89_KEY_SIZE <= SMG_MAC_MAX_KEY,
               "the MAC layer's buffers hold IMIT's block and key");

static const SMG_MAC gost89_mac = {
    &imit_ops, GOST89_BLOCK_SIZE, GOST89_KEY_SIZE, GOST89_MAC_DEFAULT_SIZE,
    &gost89_paramset_cpa
};

static const SMG_MAC gost89_mac_12 = {
    &imit_ops, GOST89_BLOCK_SIZE, GOST89_KEY_SIZE, GOST89_MAC_DEFAULT_SIZE,
    &gost89_paramset_z
};

SMG_MAC_FUNCTIONS(gost89_mac, gost89_mac);
SMG_MAC_FUNCTIONS(gost89_mac_12, gost89_mac_12);
