/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The digest layer: one streaming core (block buffer, byte count, wiping)
 * and one set of OSSL_FUNC_digest_* entries over a small per-digest table
 * (SMG_DIGEST).  A digest brings its sizes, its chaining state's init, the
 * compress step over the kernel chosen at load, and its finishing rule (a
 * function: Merkle-Damgard strengthening for SM3, Streebog's N and Sigma
 * for that one); its provider file is then that table and one
 * SMG_DIGEST_FUNCTIONS line, which instantiates the per-message entries
 * with the table in sight.
 */
#ifndef SMGOST_DIGEST_H
#define SMGOST_DIGEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <openssl/core_dispatch.h>

#include "byteorder.h"

/*
 * The largest block and chaining state of the digests below (Streebog's
 * state: h, N, Sigma and the kernel).
 */
#define SMG_DIGEST_MAX_BLOCK 64
#define SMG_DIGEST_MAX_STATE 200

struct smg_prov_ctx;
typedef struct smg_digest_ctx SMG_DIGEST_CTX;

typedef struct smg_digest {
    size_t block_size;              /* a power of two */
    size_t digest_size;
    size_t state_size;              /* bytes of state used, at most MAX */
    int algid_absent;               /* OSSL_DIGEST_PARAM_ALGID_ABSENT */
    /*
     * The kernel a new message runs on: the choice this provider instance
     * cached at load, since EVP builds a context for every message and
     * choosing there would be part of each short message's cost.
     */
    const void *(*kernel)(const struct smg_prov_ctx *provctx);
    /* Sets the chaining state to the initial value over that kernel. */
    void (*init)(void *state, const void *kernel);
    /* Folds len bytes, a multiple of block_size, into the state. */
    void (*compress)(void *state, const unsigned char *in, size_t len);
    /*
     * The finishing rule: pads what buf holds (buflen < block_size bytes),
     * folds it with whatever the rule adds and writes digest_size bytes.
     * Merkle-Damgard strengthening is smg_digest_pad_be64 and a store.
     */
    void (*finish)(SMG_DIGEST_CTX *c, const struct smg_digest *md,
                   unsigned char *out);
} SMG_DIGEST;

struct smg_digest_ctx {
    void *provctx;                  /* unused outside the provider */
    int initialised;
    int finalised;
    /* From here to state + md->state_size: what final wipes. */
    uint64_t nbytes;                /* message length so far */
    size_t buflen;
    unsigned char buf[SMG_DIGEST_MAX_BLOCK];
    union {
        uint64_t align;             /* for words and pointers */
        unsigned char bytes[SMG_DIGEST_MAX_STATE];
    } state;
};

/* The digest's own chaining state (its SM3_STATE, say). */
static inline void *smg_digest_state(SMG_DIGEST_CTX *c)
{
    return c->state.bytes;
}

/* A memset the optimiser cannot drop although the memory dies after it. */
extern void *(*const volatile smg_digest_wipe)(void *, int, size_t);

/*
 * The streaming core, for the provider entries below and the self-test.
 * Inline, as the entries are instantiated per digest (SMG_DIGEST_FUNCTIONS):
 * with the digest's table in sight its steps are direct calls and its
 * sizes constants, which is what a short message's cost is made of (EVP
 * builds a context and runs all of this for every message).
 */
static inline void smg_digest_init(SMG_DIGEST_CTX *c, const SMG_DIGEST *md,
                                   const void *kernel)
{
    c->nbytes = 0;
    c->buflen = 0;
    md->init(c->state.bytes, kernel);
}

static inline void smg_digest_update(SMG_DIGEST_CTX *c, const SMG_DIGEST *md,
                                     const unsigned char *in, size_t len)
{
    size_t n;

    c->nbytes += len;
    if (c->buflen > 0) {
        n = md->block_size - c->buflen;
        if (len < n) {
            memcpy(c->buf + c->buflen, in, len);
            c->buflen += len;
            return;
        }
        memcpy(c->buf + c->buflen, in, n);
        md->compress(c->state.bytes, c->buf, md->block_size);
        c->buflen = 0;
        in += n;
        len -= n;
    }
    n = len & ~(md->block_size - 1);
    if (n > 0) {
        md->compress(c->state.bytes, in, n);
        in += n;
        len -= n;
    }
    if (len > 0) {
        memcpy(c->buf, in, len);
        c->buflen = len;
    }
}

/*
 * Writes md->digest_size bytes, then wipes the chaining state and buffered
 * input: both may be secret (keyed uses such as HMAC), and an update after
 * final must not continue a spent state.
 */
static inline void smg_digest_final(SMG_DIGEST_CTX *c, const SMG_DIGEST *md,
                                    unsigned char *out)
{
    md->finish(c, md, out);
    smg_digest_wipe(&c->nbytes, 0,
                    offsetof(SMG_DIGEST_CTX, state) + md->state_size
                    - offsetof(SMG_DIGEST_CTX, nbytes));
}

/*
 * Finishing step of Merkle-Damgard strengthening (SM3, the SHA-2 family):
 * 0x80, zeros, the 64-bit big-endian bit length in the last 8 bytes of a
 * block, folded.  The caller then writes the state out.
 */
static inline void smg_digest_pad_be64(SMG_DIGEST_CTX *c,
                                       const SMG_DIGEST *md)
{
    size_t n = c->buflen;

    c->buf[n++] = 0x80;
    if (n > md->block_size - 8) {
        memset(c->buf + n, 0, md->block_size - n);
        md->compress(c->state.bytes, c->buf, md->block_size);
        n = 0;
    }
    memset(c->buf + n, 0, md->block_size - 8 - n);
    store_be64(c->buf + md->block_size - 8, c->nbytes << 3);
    md->compress(c->state.bytes, c->buf, md->block_size);
}

/* The provider entries; SMG_DIGEST_FUNCTIONS binds them to a table. */
void *smg_digest_newctx(void *provctx);
void smg_digest_freectx(void *vctx);
void *smg_digest_dupctx(void *vctx);
int smg_digest_get_params(OSSL_PARAM params[], const SMG_DIGEST *md);
const OSSL_PARAM *smg_digest_gettable_params(void *provctx);
/* Raises why ctx takes no data now (not initialised, finalised); 0. */
int smg_digest_refuse(const SMG_DIGEST_CTX *ctx);

static inline int smg_digest_prov_init_with(const SMG_DIGEST *md, void *vctx)
{
    SMG_DIGEST_CTX *ctx = vctx;

    smg_digest_init(ctx, md, md->kernel(ctx->provctx));
    ctx->initialised = 1;
    ctx->finalised = 0;
    return 1;
}

/*
 * libcrypto 3.0 can hand a digest a NULL context: HMAC_Final again after
 * its internal copy failed for memory.  Fail rather than crash.
 */
static inline int smg_digest_open(const SMG_DIGEST_CTX *ctx)
{
    if (ctx == NULL)
        return 0;
    if (!ctx->initialised || ctx->finalised)
        return smg_digest_refuse(ctx);
    return 1;
}

static inline int smg_digest_prov_update_with(const SMG_DIGEST *md,
                                              void *vctx,
                                              const unsigned char *in,
                                              size_t inl)
{
    SMG_DIGEST_CTX *ctx = vctx;

    if (!smg_digest_open(ctx))
        return 0;
    smg_digest_update(ctx, md, in, inl);
    return 1;
}

static inline int smg_digest_prov_final_with(const SMG_DIGEST *md,
                                             void *vctx, unsigned char *out,
                                             size_t *outl, size_t outsz)
{
    SMG_DIGEST_CTX *ctx = vctx;

    *outl = 0;
    if (!smg_digest_open(ctx))
        return 0;
    /* Refused with nothing queued, as the default provider's digests do
     * (providers/implementations/include/prov/digestcommon.h); EVP never
     * offers less room. */
    if (outsz < md->digest_size)
        return 0;
    smg_digest_final(ctx, md, out);
    ctx->finalised = 1;
    *outl = md->digest_size;
    return 1;
}

/* const OSSL_DISPATCH smg_<name>_functions[] for the digest table md. */
#define SMG_DIGEST_FUNCTIONS(name, md)                                       \
    static int name##_init(void *vctx, const OSSL_PARAM params[])            \
    {                                                                        \
        (void)params;           /* no settable parameters */                 \
        return smg_digest_prov_init_with(&(md), vctx);                       \
    }                                                                        \
    static int name##_update(void *vctx, const unsigned char *in,            \
                             size_t inl)                                     \
    {                                                                        \
        return smg_digest_prov_update_with(&(md), vctx, in, inl);            \
    }                                                                        \
    static int name##_final(void *vctx, unsigned char *out, size_t *outl,    \
                            size_t outsz)                                    \
    {                                                                        \
        return smg_digest_prov_final_with(&(md), vctx, out, outl, outsz);    \
    }                                                                        \
    static int name##_get_params(OSSL_PARAM params[])                        \
    {                                                                        \
        return smg_digest_get_params(params, &(md));                         \
    }                                                                        \
    const OSSL_DISPATCH smg_##name##_functions[] = {                         \
        { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))smg_digest_newctx },      \
        { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))smg_digest_freectx },    \
        { OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))smg_digest_dupctx },      \
        { OSSL_FUNC_DIGEST_INIT, (void (*)(void))name##_init },              \
        { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))name##_update },          \
        { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))name##_final },            \
        { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))name##_get_params },  \
        { OSSL_FUNC_DIGEST_GETTABLE_PARAMS,                                  \
          (void (*)(void))smg_digest_gettable_params },                      \
        { 0, NULL }                                                          \
    }

#endif
