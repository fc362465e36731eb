/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Streebog digests, md_gost12_256 and md_gost12_512 (GOST R 34.11-2012,
 * RFC 6986): their tables for the digest layer (src/digest.h) over the
 * kernel this provider instance chose at load (src/streebog.c), the
 * finishing rule (the padded last block, then g_0 over the length N and the
 * sum Sigma), and the layer's entries for both.
 */
#include <string.h>
#include "byteorder.h"
#include "digest.h"
#include "prov.h"
#include "provctx.h"
#include "streebog.h"

_Static_assert(sizeof(STREEBOG_STATE) <= SMG_DIGEST_MAX_STATE,
               "SMG_DIGEST_MAX_STATE holds Streebog's state");

static const void *streebog_chosen_kernel(const SMG_PROV_CTX *provctx)
{
    return smg_prov_kernel(provctx, SMG_FAMILY_STREEBOG);
}

/* N = Sigma = 0; h = IV, every byte iv_byte (RFC 6986 8.1). */
static void streebog_state_init(void *state, const void *kernel,
                                int iv_byte)
{
    STREEBOG_STATE *s = state;

    memset(s->chain.h, iv_byte, sizeof(s->chain.h));
    memset(s->chain.N, 0, sizeof(s->chain.N));
    memset(s->chain.Sigma, 0, sizeof(s->chain.Sigma));
    s->kernel = kernel;
}

/* IV = 0^512 for the 512-bit hash, (00000001)^64 for the 256-bit one. */
static void streebog512_iv(void *state, const void *kernel)
{
    streebog_state_init(state, kernel, 0x00);
}

static void streebog256_iv(void *state, const void *kernel)
{
    streebog_state_init(state, kernel, 0x01);
}

static void streebog_compress(void *state, const unsigned char *in,
                              size_t len)
{
    STREEBOG_STATE *s = state;

    s->kernel->blocks(&s->chain, in, len / STREEBOG_BLOCK_SIZE);
}

static void store_vector(unsigned char out[64], const uint64_t v[8])
{
    int w;

    for (w = 0; w < 8; w++)
        store_le64(out + 8 * w, v[w]);
}

/*
 * RFC 6986 8.3: m = the rest of the message, a 1 bit above it, zeros;
 * h = g_N(h, m); N += the rest's length in bits; Sigma += m; then
 * h = g_0(h, N) and h = g_0(h, Sigma).  h's top half is the 256-bit hash:
 * its last 32 bytes.  The vector the sums are folded from may be secret
 * (HMAC keys), so it is wiped; the context is wiped by the layer.
 */
static void streebog_finish(SMG_DIGEST_CTX *c, const SMG_DIGEST *md,
                            unsigned char *out)
{
    static const uint64_t zero[8];
    STREEBOG_STATE *s = smg_digest_state(c);
    STREEBOG_CHAIN *ch = &s->chain;
    uint64_t v[8] = { 0 };
    unsigned char block[STREEBOG_BLOCK_SIZE];
    int w;

    c->buf[c->buflen] = 0x01;
    memset(c->buf + c->buflen + 1, 0, STREEBOG_BLOCK_SIZE - c->buflen - 1);
    s->kernel->g(ch->h, ch->N, c->buf);
    v[0] = (uint64_t)c->buflen * 8;
    streebog_add512(ch->N, v);
    for (w = 0; w < 8; w++)
        v[w] = load_le64(c->buf + 8 * w);
    streebog_add512(ch->Sigma, v);
    store_vector(block, ch->N);
    s->kernel->g(ch->h, zero, block);
    store_vector(block, ch->Sigma);
    s->kernel->g(ch->h, zero, block);
    store_vector(block, ch->h);
    memcpy(out, block + STREEBOG_BLOCK_SIZE - md->digest_size,
           md->digest_size);
    smg_digest_wipe(v, 0, sizeof(v));
    smg_digest_wipe(block, 0, sizeof(block));
}

/* No ALGID_ABSENT flag, as gostprov's md_gost12_256/512 (3.0.1). */
const SMG_DIGEST smg_streebog256_digest = {
    STREEBOG_BLOCK_SIZE, STREEBOG256_DIGEST_LENGTH, sizeof(STREEBOG_STATE),
    0, streebog_chosen_kernel, streebog256_iv, streebog_compress,
    streebog_finish
};

const SMG_DIGEST smg_streebog512_digest = {
    STREEBOG_BLOCK_SIZE, STREEBOG512_DIGEST_LENGTH, sizeof(STREEBOG_STATE),
    0, streebog_chosen_kernel, streebog512_iv, streebog_compress,
    streebog_finish
};

SMG_DIGEST_FUNCTIONS(streebog256, smg_streebog256_digest);
SMG_DIGEST_FUNCTIONS(streebog512, smg_streebog512_digest);
