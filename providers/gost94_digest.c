/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GOST R 34.11-94 digest md_gost94 (RFC 5831, the CryptoPro parameter
 * set of RFC 4357 section 11.2, OID 1.2.643.2.2.9 as gost-engine's): its
 * table for the digest layer (src/digest.h) over src/gost94.c, and the
 * layer's entries for it.  Its four encryptions run beside the GOST
 * 28147-89 kernel this provider instance chose at load, so that
 * "constant-time = yes" reaches them too.
 */
#include "digest.h"
#include "gost94.h"
#include "kernel_list.h"
#include "prov.h"
#include "provctx.h"

static const void *gost94_chosen_kernel(const SMG_PROV_CTX *provctx)
{
    return smg_prov_kernel(provctx, SMG_FAMILY_GOST89);
}

/*
 * The tables were built at load, by the self-test (providers/selftest.c),
 * so this lookup cannot fail here.
 */
static void gost94_state_init(void *state, const void *kernel)
{
    gost94_init(state, gost94_tables(&gost94_paramset_cryptopro),
                gost94_kernel(kernel));
}

static void gost94_compress(void *state, const unsigned char *in, size_t len)
{
    gost94_blocks(state, in, len / GOST94_BLOCK_SIZE);
}

/* RFC 5831 section 7.2: the last partial block, the length, the sum. */
static void gost94_finish(SMG_DIGEST_CTX *c, const SMG_DIGEST *md,
                          unsigned char *out)
{
    (void)md;
    gost94_final(smg_digest_state(c), c->buf, c->buflen, c->nbytes, out);
}

_Static_assert(sizeof(GOST94_STATE) <= SMG_DIGEST_MAX_STATE,
               "SMG_DIGEST_MAX_STATE holds GOST R 34.11-94's state");
_Static_assert(GOST94_BLOCK_SIZE <= SMG_DIGEST_MAX_BLOCK,
               "SMG_DIGEST_MAX_BLOCK holds GOST R 34.11-94's block");

const SMG_DIGEST smg_gost94_digest = {
    GOST94_BLOCK_SIZE, GOST94_DIGEST_LENGTH, sizeof(GOST94_STATE),
    0,                  /* as gostprov, no ALGID_ABSENT flag */
    gost94_chosen_kernel, gost94_state_init, gost94_compress, gost94_finish
};

SMG_DIGEST_FUNCTIONS(md_gost94, smg_gost94_digest);
