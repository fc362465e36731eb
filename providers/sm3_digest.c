/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM3 digest algorithm: its table for the digest layer (src/digest.h)
 * over the kernel this provider instance chose at load (src/sm3.c), and the
 * layer's entries for it.  The table is defined here, beside the dispatch
 * line, so that the entries the line instantiates call it directly.
 */
#include <string.h>
#include "byteorder.h"
#include "digest.h"
#include "prov.h"
#include "provctx.h"
#include "sm3.h"

static const void *sm3_chosen_kernel(const SMG_PROV_CTX *provctx)
{
    return smg_prov_kernel(provctx, SMG_FAMILY_SM3);
}

static void sm3_state_init(void *state, const void *kernel)
{
    SM3_STATE *s = state;

    memcpy(s->h, sm3_iv, sizeof(s->h));
    s->blocks = ((const SM3_KERNEL *)kernel)->blocks;
}

static void sm3_compress(void *state, const unsigned char *in, size_t len)
{
    SM3_STATE *s = state;

    s->blocks(s->h, in, len / SM3_BLOCK_SIZE);
}

/* Merkle-Damgard strengthening, then V(n) as big-endian words. */
static void sm3_finish(SMG_DIGEST_CTX *c, const SMG_DIGEST *md,
                       unsigned char *out)
{
    const SM3_STATE *s = smg_digest_state(c);
    int i;

    smg_digest_pad_be64(c, md);
    for (i = 0; i < 8; i++)
        store_be32(out + 4 * i, s->h[i]);
}

_Static_assert(sizeof(SM3_STATE) <= SMG_DIGEST_MAX_STATE,
               "SMG_DIGEST_MAX_STATE holds SM3's state");

const SMG_DIGEST smg_sm3_digest = {
    SM3_BLOCK_SIZE, SM3_DIGEST_LENGTH, sizeof(SM3_STATE),
    0,                  /* as the default provider, no ALGID_ABSENT flag */
    sm3_chosen_kernel, sm3_state_init, sm3_compress, sm3_finish
};

SMG_DIGEST_FUNCTIONS(sm3, smg_sm3_digest);
