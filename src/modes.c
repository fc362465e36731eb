/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one block-cipher mode layer (see modes.h): context life cycle, init,
 * update/final for the block modes (ECB, CBC with PKCS#7 padding) and the
 * stream modes (CFB, OFB, CTR, GOST CNT) with partial blocks carried in
 * `num`, key meshing boundaries, and the generic parameters, with the
 * behaviour of OpenSSL's default provider where it has one.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "ctgrind.h"
#include "err.h"
#include "modes.h"

static const unsigned char zero_block[SMG_MAX_BLOCK];

void *smg_cipher_newctx(void *provctx, const SMG_CIPHER_ALG *alg)
{
    const SMG_CIPHER_FAMILY *fam = alg->family;
    SMG_CIPHER_CTX *ctx = OPENSSL_zalloc(fam->ctx_size);

    if (ctx == NULL) {
        SMG_RAISE(provctx, SMG_R_OUT_OF_MEMORY);
        return NULL;
    }
    ctx->alg = alg;
    ctx->provctx = provctx;
    ctx->bs = fam->block_size;
    ctx->ivlen = alg->iv_len;
    ctx->pad = 1;
    if (fam->init_ctx != NULL)
        fam->init_ctx(ctx);
    return ctx;
}

void smg_cipher_freectx(void *vctx)
{
    SMG_CIPHER_CTX *ctx = vctx;

    if (ctx != NULL)
        OPENSSL_clear_free(ctx, ctx->alg->family->ctx_size);
}

void *smg_cipher_dupctx(void *vctx)
{
    SMG_CIPHER_CTX *ctx = vctx;
    SMG_CIPHER_CTX *dup = OPENSSL_memdup(ctx, ctx->alg->family->ctx_size);

    if (dup == NULL)
        SMG_RAISE(ctx->provctx, SMG_R_OUT_OF_MEMORY);
    return dup;
}

static int is_stream_mode(smg_mode mode)
{
    return mode != SMG_MODE_ECB && mode != SMG_MODE_CBC;
}

static int is_counter_mode(smg_mode mode)
{
    return mode == SMG_MODE_CTR || mode == SMG_MODE_CNT;
}

int smg_cipher_init(SMG_CIPHER_CTX *ctx, const unsigned char *key,
                    size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[], int enc,
                    const SMG_INIT_STEPS *steps)
{
    const unsigned char *given = NULL;
    size_t want;

    ctx->enc = enc ? 1 : 0;
    if (steps->restart != NULL)
        steps->restart(ctx);
    /* An algorithm without an IV (ECB) ignores one given. */
    if (iv != NULL && ctx->alg->iv_len != 0) {
        if (!steps->iv_len_ok(ctx, ivlen, &want)) {
            if (want != 0)
                SMG_RAISE_DATA(ctx->provctx, SMG_PROV(INVALID_IV_LENGTH),
                               "got %zu bytes, expected %zu", ivlen, want);
            else
                SMG_RAISE_DATA(ctx->provctx, SMG_PROV(INVALID_IV_LENGTH),
                               "got %zu bytes", ivlen);
            return 0;
        }
        given = iv;
        ctx->iv_set = 1;
    }
    steps->take_iv(ctx, given, ivlen);

    if (key != NULL) {
        want = steps->key_len(ctx);
        if (keylen != want) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(INVALID_KEY_LENGTH),
                           "got %zu bytes, expected %zu", keylen, want);
            return 0;
        }
        ctx->key_set = 0;
        if (!steps->set_key(ctx, key))
            return 0;
        ctx->key_set = 1;
    } else if (ctx->key_set && ctx->alg->family->restore_key != NULL
               && !ctx->alg->family->restore_key(ctx)) {
        return 0;
    }
    ctx->initialised = 1;
    return steps->set_ctx_params(ctx, params);
}

/* A re-init starts a new message, whatever the old one left behind. */
static void block_restart(SMG_CIPHER_CTX *ctx)
{
    ctx->num = 0;
    ctx->bufsz = 0;
    ctx->mesh_count = 0;
    ctx->cnt_started = 0;
    ctx->finalised = 0;
    OPENSSL_cleanse(ctx->buf, sizeof(ctx->buf));
}

/* Whether the algorithm's IV is a register of 1 to max_iv_blocks blocks
 * (GOST R 34.13-2015's CBC, CFB and OFB, where the family takes them). */
static int takes_register(const SMG_CIPHER_CTX *ctx)
{
    smg_mode m = ctx->alg->mode;

    return (m == SMG_MODE_CBC || m == SMG_MODE_CFB || m == SMG_MODE_OFB)
           && ctx->alg->family->max_iv_blocks > 1;
}

/* Whether the algorithm takes an IV of z = ivlen / bs blocks. */
static int register_len_ok(const SMG_CIPHER_CTX *ctx, size_t ivlen)
{
    return takes_register(ctx) && ivlen >= ctx->bs && ivlen % ctx->bs == 0
           && ivlen / ctx->bs <= ctx->alg->family->max_iv_blocks;
}

static int block_iv_len_ok(const SMG_CIPHER_CTX *ctx, size_t ivlen,
                           size_t *want)
{
    *want = takes_register(ctx) ? 0 : ctx->alg->iv_len;
    return ivlen == ctx->alg->iv_len || register_len_ok(ctx, ivlen);
}

/*
 * The register from the IV as given: for z > 1 blocks rotated right by a
 * block (modes.h), so that the first block's rotation left brings R's
 * first block to the front.
 */
static void load_register(SMG_CIPHER_CTX *ctx)
{
    size_t bs = ctx->bs, len = ctx->ivlen;

    if (len <= bs) {
        memcpy(ctx->iv, ctx->oiv, SMG_MAX_BLOCK);
        return;
    }
    memcpy(ctx->iv, ctx->oiv + len - bs, bs);
    memcpy(ctx->iv + bs, ctx->oiv, len - bs);
}

/* The chaining value restarts from the IV, but a counter runs on where
 * the family says so. */
static void block_take_iv(SMG_CIPHER_CTX *ctx, const unsigned char *iv,
                          size_t ivlen)
{
    if (iv != NULL) {
        memcpy(ctx->oiv, iv, ivlen);
        ctx->ivlen = ivlen;
    }
    if (ctx->iv_set && (iv != NULL || !is_counter_mode(ctx->alg->mode)
                        || ctx->alg->family->restart_counter_on_reinit))
        load_register(ctx);
}

/*
 * Before a block with a register of z > 1 blocks: R's oldest block, the one
 * this block takes, to the front, where the kernel replaces it with the
 * block's own (R = LSB(R) || new, GOST R 34.13-2015 5.3-5.5).
 */
static void register_next(SMG_CIPHER_CTX *ctx)
{
    unsigned char newest[SMG_MAX_BLOCK];
    size_t bs = ctx->bs;

    memcpy(newest, ctx->iv, bs);
    memmove(ctx->iv, ctx->iv + bs, ctx->ivlen - bs);
    memcpy(ctx->iv + ctx->ivlen - bs, newest, bs);
    OPENSSL_cleanse(newest, sizeof(newest));
}

/*
 * nblocks of a chained mode on a register of z > 1 blocks, a block a call:
 * block i chains from block i - z (speed is z = 1's concern).
 */
static __attribute__((noinline))
void register_blocks(SMG_CIPHER_CTX *ctx, smg_chain_fn fn, const void *ks,
                     const unsigned char *in, unsigned char *out,
                     size_t nblocks)
{
    for (; nblocks > 0; nblocks--, in += ctx->bs, out += ctx->bs) {
        register_next(ctx);
        fn(ks, in, out, 1, ctx->iv);
    }
}

/* A chained mode's kernel entry over nblocks, on the register. */
static inline void chain_blocks(SMG_CIPHER_CTX *ctx, smg_chain_fn fn,
                                const void *ks, const unsigned char *in,
                                unsigned char *out, size_t nblocks)
{
    if (ctx->ivlen > ctx->bs)
        register_blocks(ctx, fn, ks, in, out, nblocks);
    else
        fn(ks, in, out, nblocks, ctx->iv);
}

static size_t block_key_len(const SMG_CIPHER_CTX *ctx)
{
    return ctx->alg->family->key_len;
}

static int block_set_key(SMG_CIPHER_CTX *ctx, const unsigned char *key)
{
    OPENSSL_cleanse(ctx->ks_enc, sizeof(ctx->ks_enc));
    OPENSSL_cleanse(ctx->ks_dec, sizeof(ctx->ks_dec));
    return ctx->alg->family->set_key(ctx, key);
}

static const SMG_INIT_STEPS block_init_steps = {
    .restart = block_restart,
    .iv_len_ok = block_iv_len_ok,
    .take_iv = block_take_iv,
    .key_len = block_key_len,
    .set_key = block_set_key,
    .set_ctx_params = smg_cipher_set_ctx_params,
};

int smg_cipher_einit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return smg_cipher_init(vctx, key, keylen, iv, ivlen, params, 1,
                           &block_init_steps);
}

int smg_cipher_dinit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return smg_cipher_init(vctx, key, keylen, iv, ivlen, params, 0,
                           &block_init_steps);
}

/* Whole blocks of ECB or CBC, in the context's direction. */
static void block_mode_blocks(SMG_CIPHER_CTX *ctx, const unsigned char *in,
                              unsigned char *out, size_t nblocks)
{
    const SMG_BLOCK_KERNEL *k = ctx->kernel;

    if (nblocks == 0)
        return;
    if (ctx->alg->mode == SMG_MODE_ECB)
        k->ecb(ctx->enc ? ctx->ks_enc : ctx->ks_dec, in, out, nblocks);
    else if (ctx->enc)
        chain_blocks(ctx, k->cbc_enc, ctx->ks_enc, in, out, nblocks);
    else
        chain_blocks(ctx, k->cbc_dec, ctx->ks_dec, in, out, nblocks);
}

/*
 * Output may trail the input (out <= in, as in-place processing of a
 * stream does) or not overlap it at all; output that runs ahead of input it
 * has not read yet would corrupt it.  lead is how far the output position
 * runs ahead of the input position (the bytes buffered from earlier calls).
 */
static int overlap_ok(const unsigned char *out, const unsigned char *in,
                      size_t inl, size_t lead)
{
    uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;

    return o + lead <= i || o >= i + inl;
}

/*
 * Some bytes from or to NULL, or more than an object can have: no object
 * is larger than PTRDIFF_MAX, nor does one wrap around the address space.
 * Either is a caller's bug, never data.
 */
int smg_length_ok(SMG_CIPHER_CTX *ctx, const unsigned char *in,
                  const unsigned char *out, size_t inl)
{
    /* OpenSSL's own block and stream modes (3.0 to 3.6) read or write
     * through a NULL buffer */
    if (inl != 0 && (in == NULL || out == NULL)) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(CIPHER_OPERATION_FAILED),
                       "%zu bytes from or to a NULL buffer", inl);
        return 0;
    }
    if (inl > PTRDIFF_MAX || inl > UINTPTR_MAX - (uintptr_t)in
        || inl > UINTPTR_MAX - (uintptr_t)out) {
        SMG_RAISE_DATA(ctx->provctx, SMG_R_LENGTH_TOO_LARGE, "%zu bytes",
                       inl);
        return 0;
    }
    return 1;
}

/* Room and placement for an output exactly as long as the input. */
int smg_same_length_output_ok(SMG_CIPHER_CTX *ctx, unsigned char *out,
                              size_t outsize, const unsigned char *in,
                              size_t inl)
{
    if (inl > outsize) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(OUTPUT_BUFFER_TOO_SMALL),
                       "need %zu bytes, have %zu", inl, outsize);
        return 0;
    }
    if (!overlap_ok(out, in, inl, 0)) {
        SMG_RAISE(ctx->provctx, SMG_R_PARTIALLY_OVERLAPPING);
        return 0;
    }
    return 1;
}

static int check_ready(SMG_CIPHER_CTX *ctx)
{
    if (!ctx->initialised) {
        SMG_RAISE(ctx->provctx, SMG_R_NOT_INITIALISED);
        return 0;
    }
    if (!ctx->key_set) {
        SMG_RAISE(ctx->provctx, SMG_PROV(NO_KEY_SET));
        return 0;
    }
    return 1;
}

/*
 * The per-call path of every update starts on a cache line: where it
 * starts otherwise moves with the size of unrelated code, and on an Intel
 * Xeon of family 6 model 167 SM4-CTR at 16 and 64 bytes ran 6% slower with
 * stream_mode_update at 16 mod 64 than at 0, 32 or 48, with the same
 * instructions (make bench at the gfni-avx512 level, alternating builds).
 */
#define SMG_CALL_PATH __attribute__((aligned(64)))

SMG_CALL_PATH
static int block_mode_update(SMG_CIPHER_CTX *ctx, unsigned char *out,
                             size_t *outl, size_t outsize,
                             const unsigned char *in, size_t inl)
{
    size_t bs = ctx->bs, total, nout, written = 0, nblocks;

    total = ctx->bufsz + inl;
    nout = total - total % bs;
    /* With padding, a decryption keeps its last block back for final. */
    if (!ctx->enc && ctx->pad && nout > 0 && total % bs == 0)
        nout -= bs;
    if (nout > outsize) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(OUTPUT_BUFFER_TOO_SMALL),
                       "need %zu bytes, have %zu", nout, outsize);
        return 0;
    }
    if (nout > 0 && !overlap_ok(out, in, inl, ctx->bufsz)) {
        SMG_RAISE(ctx->provctx, SMG_R_PARTIALLY_OVERLAPPING);
        return 0;
    }
    if (ctx->bufsz > 0 && nout > 0) {
        size_t take = bs - ctx->bufsz;

        memcpy(ctx->buf + ctx->bufsz, in, take);
        in += take;
        inl -= take;
        block_mode_blocks(ctx, ctx->buf, out, 1);
        written = bs;
        ctx->bufsz = 0;
    }
    nblocks = (nout - written) / bs;
    block_mode_blocks(ctx, in, out + written, nblocks);
    in += nblocks * bs;
    inl -= nblocks * bs;
    written += nblocks * bs;
    memcpy(ctx->buf + ctx->bufsz, in, inl);
    ctx->bufsz += inl;
    *outl = written;
    return 1;
}

/* Before each keystream block: meshing at its period, CNT's first E(IV). */
static void stream_prepare_block(SMG_CIPHER_CTX *ctx)
{
    if (ctx->mesh_period != 0 && ctx->mesh_count == ctx->mesh_period) {
        ctx->alg->family->mesh(ctx);
        ctx->mesh_count = 0;
    }
    if (ctx->alg->mode == SMG_MODE_CNT && !ctx->cnt_started) {
        ctx->kernel->ecb(ctx->ks_enc, ctx->iv, ctx->iv, 1);
        ctx->cnt_started = 1;
    }
}

static smg_chain_fn stream_kernel(const SMG_CIPHER_CTX *ctx)
{
    const SMG_BLOCK_KERNEL *k = ctx->kernel;

    switch (ctx->alg->mode) {
    case SMG_MODE_CFB:
        return ctx->enc ? k->cfb_enc : k->cfb_dec;
    case SMG_MODE_OFB:
        return k->ofb;
    case SMG_MODE_CTR:
        return k->ctr;
    default:
        return k->cnt;
    }
}

/*
 * Whether CFB keeps its partial block in buf, leaving iv the last whole
 * ciphertext block until the block is complete (whole_block_iv).
 */
static int cfb_in_buf(const SMG_CIPHER_CTX *ctx)
{
    return ctx->alg->mode == SMG_MODE_CFB && ctx->alg->family->whole_block_iv;
}

/*
 * One byte at position num of the current keystream block.  OFB keeps the
 * keystream in iv, and CFB its register (the keystream, then the
 * ciphertext written over it), as OpenSSL's cfb128/ofb128 do, so that
 * updated-iv matches the default provider; CFB with whole_block_iv keeps
 * that register in buf instead, and CTR and CNT keep their keystream there.
 */
static unsigned char stream_byte(SMG_CIPHER_CTX *ctx, unsigned char in)
{
    size_t n = ctx->num;
    unsigned char c, *reg;

    switch (ctx->alg->mode) {
    case SMG_MODE_CFB:
        reg = cfb_in_buf(ctx) ? ctx->buf : ctx->iv;
        c = reg[n] ^ in;
        reg[n] = ctx->enc ? c : in;
        return c;
    case SMG_MODE_OFB:
        return ctx->iv[n] ^ in;
    default:
        return ctx->buf[n] ^ in;
    }
}

SMG_CALL_PATH
static int stream_mode_update(SMG_CIPHER_CTX *ctx, unsigned char *out,
                              size_t *outl, size_t outsize,
                              const unsigned char *in, size_t inl)
{
    size_t bs = ctx->bs, done = inl;
    smg_chain_fn blocks = stream_kernel(ctx);

    if (!smg_same_length_output_ok(ctx, out, outsize, in, inl))
        return 0;
    if (ctx->num != 0) {
        for (; ctx->num != 0 && inl > 0; inl--)
            *out++ = stream_byte(ctx, *in++), ctx->num = (ctx->num + 1) % bs;
        /* A partial CFB block kept in buf, now whole: the next register. */
        if (ctx->num == 0 && cfb_in_buf(ctx)) {
            if (ctx->ivlen > bs)
                register_next(ctx);
            memcpy(ctx->iv, ctx->buf, bs);
        }
    }

    while (inl >= bs) {
        size_t nblocks = inl / bs;

        stream_prepare_block(ctx);
        if (ctx->mesh_period != 0
            && nblocks > (ctx->mesh_period - ctx->mesh_count) / bs)
            nblocks = (ctx->mesh_period - ctx->mesh_count) / bs;
        if (ctx->alg->family->period_blocks == NULL || ctx->mesh_count != 0
            || nblocks * bs != ctx->mesh_period
            || !ctx->alg->family->period_blocks(ctx, in, out, nblocks))
            chain_blocks(ctx, blocks, ctx->ks_enc, in, out, nblocks);
        ctx->mesh_count += nblocks * bs;
        in += nblocks * bs;
        out += nblocks * bs;
        inl -= nblocks * bs;
    }
    if (inl > 0) {
        unsigned char ks[SMG_MAX_BLOCK];

        stream_prepare_block(ctx);
        /*
         * A block of zeros through the mode's own kernel yields the
         * keystream and leaves iv as OpenSSL leaves it; CFB kept in buf
         * takes E(iv) there and leaves iv alone.  A register of z > 1
         * blocks gives its oldest block (at iv + bs until the block is
         * whole, for CFB kept in buf).
         */
        if (ctx->ivlen > bs && !cfb_in_buf(ctx))
            register_next(ctx);
        if (cfb_in_buf(ctx))
            ctx->kernel->ecb(ctx->ks_enc,
                             ctx->ivlen > bs ? ctx->iv + bs : ctx->iv,
                             ctx->buf, 1);
        else if (ctx->alg->mode == SMG_MODE_CFB)
            ctx->kernel->cfb_enc(ctx->ks_enc, zero_block, ks, 1, ctx->iv);
        else
            blocks(ctx->ks_enc, zero_block,
                   ctx->alg->mode == SMG_MODE_OFB ? ks : ctx->buf, 1,
                   ctx->iv);
        OPENSSL_cleanse(ks, sizeof(ks));
        ctx->mesh_count += bs;
        for (; inl > 0; inl--)
            *out++ = stream_byte(ctx, *in++), ctx->num++;
    }
    *outl = done;
    return 1;
}

SMG_CALL_PATH
int smg_cipher_update(void *vctx, unsigned char *out, size_t *outl,
                      size_t outsize, const unsigned char *in, size_t inl)
{
    SMG_CIPHER_CTX *ctx = vctx;

    *outl = 0;
    if (!check_ready(ctx))
        return 0;
    if (ctx->finalised) {
        SMG_RAISE(ctx->provctx, SMG_R_UPDATE_AFTER_FINAL);
        return 0;
    }
    if (inl == 0)
        return 1;
    if (!smg_length_ok(ctx, in, out, inl))
        return 0;
    if (is_stream_mode(ctx->alg->mode))
        return stream_mode_update(ctx, out, outl, outsize, in, inl);
    return block_mode_update(ctx, out, outl, outsize, in, inl);
}

/*
 * The reason of a bad final block (see evp_final_errors in modes.h): the
 * default provider's for SM4; for GOST those of the legacy EVP layer
 * (crypto/evp/evp_enc.c) that gostprov runs, in library EVP.
 */
static uint32_t final_reason(const SMG_CIPHER_CTX *ctx, uint32_t prov,
                             int evp)
{
    return ctx->alg->family->evp_final_errors
           ? (uint32_t)ERR_PACK(ERR_LIB_EVP, 0, evp) : prov;
}

/* PKCS#7 check without branches on the padding bytes (no padding oracle
 * through timing); returns the pad length, or 0 if it is malformed. */
static size_t pkcs7_pad_length(const unsigned char *block, size_t bs)
{
    unsigned int pad = block[bs - 1], bad, i;

    bad = ((pad - 1) >> 8) & 1;                  /* pad == 0 */
    bad |= ((unsigned int)bs - pad) >> 8 & 1;    /* pad > bs */
    for (i = 0; i < bs; i++) {
        /* position i is inside the padding iff bs - i <= pad */
        unsigned int inside = ((pad - ((unsigned int)bs - i)) >> 8 & 1) ^ 1;

        bad |= inside & (((block[i] ^ pad) + 0xff) >> 8 & 1);
    }
    return (size_t)(pad & (bad - 1));
}

int smg_cipher_final(void *vctx, unsigned char *out, size_t *outl,
                     size_t outsize)
{
    SMG_CIPHER_CTX *ctx = vctx;
    size_t bs = ctx->bs;

    *outl = 0;
    if (!check_ready(ctx))
        return 0;
    if (ctx->finalised) {
        SMG_RAISE(ctx->provctx, SMG_R_ALREADY_FINALISED);
        return 0;
    }
    if (is_stream_mode(ctx->alg->mode)) {
        ctx->finalised = 1;
        return 1;
    }
    if (ctx->enc && ctx->pad) {
        size_t n = bs - ctx->bufsz;

        if (outsize < bs) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(OUTPUT_BUFFER_TOO_SMALL),
                           "need %zu bytes, have %zu", bs, outsize);
            return 0;
        }
        memset(ctx->buf + ctx->bufsz, (int)n, n);
        block_mode_blocks(ctx, ctx->buf, out, 1);
        *outl = bs;
    } else if (!ctx->enc && (ctx->pad || ctx->bufsz != 0)) {
        /*
         * The block held back for the padding; padding switched off after
         * it was held back outputs it whole, as the default provider does.
         */
        unsigned char block[SMG_MAX_BLOCK];
        size_t n = bs;

        if (ctx->bufsz != bs) {
            int evp = ctx->pad ? EVP_R_WRONG_FINAL_BLOCK_LENGTH
                               : EVP_R_DATA_NOT_MULTIPLE_OF_BLOCK_LENGTH;

            SMG_RAISE_DATA(ctx->provctx,
                           final_reason(ctx,
                                        SMG_PROV(WRONG_FINAL_BLOCK_LENGTH),
                                        evp),
                           "%zu bytes pending", ctx->bufsz);
            return 0;
        }
        block_mode_blocks(ctx, ctx->buf, block, 1);
        if (ctx->pad) {
            size_t pad = pkcs7_pad_length(block, bs);

            /*
             * What the caller learns anyway, good padding or not and the
             * length, is all that leaves the check (test/95-ct-modes.t).
             */
            CT_PUBLIC(&pad, sizeof(pad));
            if (pad == 0) {
                OPENSSL_cleanse(block, sizeof(block));
                SMG_RAISE(ctx->provctx,
                          final_reason(ctx, SMG_PROV(BAD_DECRYPT),
                                       EVP_R_BAD_DECRYPT));
                return 0;
            }
            n = bs - pad;
        }
        if (outsize < n) {
            OPENSSL_cleanse(block, sizeof(block));
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(OUTPUT_BUFFER_TOO_SMALL),
                           "need %zu bytes, have %zu", n, outsize);
            return 0;
        }
        memcpy(out, block, n);
        OPENSSL_cleanse(block, sizeof(block));
        *outl = n;
    } else if (ctx->bufsz != 0) {
        SMG_RAISE_DATA(ctx->provctx,
                       final_reason(ctx, SMG_PROV(WRONG_FINAL_BLOCK_LENGTH),
                                    EVP_R_DATA_NOT_MULTIPLE_OF_BLOCK_LENGTH),
                       "%zu bytes pending and padding is off", ctx->bufsz);
        return 0;
    }
    ctx->bufsz = 0;
    OPENSSL_cleanse(ctx->buf, sizeof(ctx->buf));
    ctx->finalised = 1;
    return 1;
}

int smg_cipher_cipher(void *vctx, unsigned char *out, size_t *outl,
                      size_t outsize, const unsigned char *in, size_t inl)
{
    SMG_CIPHER_CTX *ctx = vctx;

    *outl = 0;
    if (!check_ready(ctx) || !smg_length_ok(ctx, in, out, inl))
        return 0;
    if (is_stream_mode(ctx->alg->mode))
        return stream_mode_update(ctx, out, outl, outsize, in, inl);
    /* One-shot block modes: whole blocks, no padding, as OpenSSL does. */
    if (inl % ctx->bs != 0) {
        SMG_RAISE(ctx->provctx, SMG_R_NOT_A_MULTIPLE_OF_BLOCK);
        return 0;
    }
    if (!smg_same_length_output_ok(ctx, out, outsize, in, inl))
        return 0;
    block_mode_blocks(ctx, in, out, inl / ctx->bs);
    *outl = inl;
    return 1;
}

static unsigned int evp_mode(smg_mode mode)
{
    switch (mode) {
    case SMG_MODE_ECB:
        return EVP_CIPH_ECB_MODE;
    case SMG_MODE_CBC:
        return EVP_CIPH_CBC_MODE;
    case SMG_MODE_CFB:
        return EVP_CIPH_CFB_MODE;
    case SMG_MODE_CTR:
        return EVP_CIPH_CTR_MODE;
    default:  /* OFB, and GOST CNT as gost-engine declares it */
        return EVP_CIPH_OFB_MODE;
    }
}

const OSSL_PARAM smg_cipher_generic_gettable_ctx_params[] = {
    SMG_CIPHER_GENERIC_GETTABLE_CTX,
    OSSL_PARAM_END
};

const OSSL_PARAM smg_cipher_generic_settable_ctx_params[] = {
    SMG_CIPHER_GENERIC_SETTABLE_CTX,
    OSSL_PARAM_END
};

static const OSSL_PARAM cipher_known_gettable_params[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END
};

const OSSL_PARAM *smg_cipher_gettable_params(void *provctx)
{
    (void)provctx;
    return cipher_known_gettable_params;
}

int smg_cipher_get_params(const SMG_CIPHER_ALG *alg, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL
        && !OSSL_PARAM_set_uint(p, evp_mode(alg->mode)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, alg->family->key_len))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, alg->iv_len))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, alg->reported_block_size))
        return 0;
    for (p = params; p != NULL && p->key != NULL; p++) {
        if ((strcmp(p->key, OSSL_CIPHER_PARAM_AEAD) == 0
             || strcmp(p->key, OSSL_CIPHER_PARAM_CUSTOM_IV) == 0
             || strcmp(p->key, OSSL_CIPHER_PARAM_CTS) == 0
             || strcmp(p->key, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK) == 0
             || strcmp(p->key, OSSL_CIPHER_PARAM_HAS_RAND_KEY) == 0)
            && !OSSL_PARAM_set_int(p, 0))
            return 0;
    }
    return 1;
}

void smg_acpkm_next_key(const SMG_BLOCK_KERNEL *k, const void *ks, size_t bs,
                        unsigned char key[SMG_ACPKM_KEY_LEN])
{
    unsigned char d[SMG_ACPKM_KEY_LEN];
    size_t i;

    for (i = 0; i < sizeof(d); i++)
        d[i] = (unsigned char)(0x80 + i);
    k->ecb(ks, d, key, sizeof(d) / bs);
}

int smg_set_iv_param(OSSL_PARAM *p, const unsigned char *iv, size_t len,
                     int string_first)
{
    if (OPENSSL_version_major() == 3 && OPENSSL_version_minor() < 6)
        return string_first ? OSSL_PARAM_set_octet_string(p, iv, len)
                              || OSSL_PARAM_set_octet_ptr(p, iv, len)
                            : OSSL_PARAM_set_octet_ptr(p, iv, len)
                              || OSSL_PARAM_set_octet_string(p, iv, len);
    if (p->data_type == OSSL_PARAM_OCTET_PTR)
        return OSSL_PARAM_set_octet_ptr(p, iv, len);
    return OSSL_PARAM_set_octet_string(p, iv, len);
}

/*
 * With whole_block_iv, a CBC decryption holding a block back for final
 * (bufsz == bs happens then only) reports that block, the last ciphertext
 * taken in, as gost-engine does: its EVP layer decrypts the block at once
 * and holds back the plaintext instead.
 */
static int held_back_block(const SMG_CIPHER_CTX *ctx)
{
    return ctx->alg->family->whole_block_iv && ctx->alg->mode == SMG_MODE_CBC
           && ctx->bufsz == ctx->bs;
}

/*
 * A register of z > 1 blocks reads as GOST R 34.13-2015's R (its oldest
 * block first) as the next whole block would start from it, into room
 * (SMG_MAX_IV bytes); with a block held back as above, R after it.
 */
static const unsigned char *updated_iv(const SMG_CIPHER_CTX *ctx,
                                       unsigned char *room)
{
    size_t bs = ctx->bs, len = ctx->ivlen;

    if (len <= bs)
        return held_back_block(ctx) ? ctx->buf : ctx->iv;
    memcpy(room, ctx->iv + bs, len - bs);
    memcpy(room + len - bs, ctx->iv, bs);
    if (held_back_block(ctx)) {
        memmove(room, room + bs, len - bs);
        memcpy(room + len - bs, ctx->buf, bs);
    }
    return room;
}

int smg_cipher_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    SMG_CIPHER_CTX *ctx = vctx;
    const SMG_CIPHER_ALG *alg = ctx->alg;
    unsigned char room[SMG_MAX_IV];
    OSSL_PARAM *p;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, alg->family->key_len))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, ctx->ivlen))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING)) != NULL
        && !OSSL_PARAM_set_uint(p, ctx->pad))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_NUM)) != NULL
        && !OSSL_PARAM_set_uint(p, (unsigned int)ctx->num))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) != NULL
        && !smg_set_iv_param(p, ctx->oiv, ctx->ivlen, 0))
        goto fail;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) != NULL
        && !smg_set_iv_param(p, updated_iv(ctx, room), ctx->ivlen, 0))
        goto fail;
    OPENSSL_cleanse(room, sizeof(room));
    if (alg->family->get_ctx_params != NULL)
        return alg->family->get_ctx_params(ctx, params);
    return 1;
 fail:
    OPENSSL_cleanse(room, sizeof(room));
    SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_SET_PARAMETER), "%s",
                   p->key);
    return 0;
}

/* A size_t param that may only confirm the fixed value it already has. */
static int check_fixed_size(SMG_CIPHER_CTX *ctx, const OSSL_PARAM *p,
                            size_t want, uint32_t reason)
{
    size_t v;

    if (!OSSL_PARAM_get_size_t(p, &v)) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER), "%s",
                       p->key);
        return 0;
    }
    if (v != want) {
        SMG_RAISE_DATA(ctx->provctx, reason, "got %zu, expected %zu", v,
                       want);
        return 0;
    }
    return 1;
}

/*
 * ivlen: one block, or z blocks where the family takes them (modes.h); a
 * new length forgets the IV, which the next init must give.
 */
static int set_iv_len(SMG_CIPHER_CTX *ctx, const OSSL_PARAM *p)
{
    size_t v;

    if (!takes_register(ctx))
        return check_fixed_size(ctx, p, ctx->alg->iv_len,
                                SMG_PROV(INVALID_IV_LENGTH));
    if (!OSSL_PARAM_get_size_t(p, &v)) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER), "%s",
                       p->key);
        return 0;
    }
    if (v != ctx->alg->iv_len && !register_len_ok(ctx, v)) {
        SMG_RAISE_DATA(ctx->provctx, SMG_PROV(INVALID_IV_LENGTH),
                       "%zu is not 1 to %zu blocks of %zu bytes", v,
                       ctx->alg->family->max_iv_blocks, ctx->bs);
        return 0;
    }
    if (v != ctx->ivlen) {
        ctx->ivlen = v;
        ctx->iv_set = 0;
        OPENSSL_cleanse(ctx->oiv, sizeof(ctx->oiv));
        OPENSSL_cleanse(ctx->iv, sizeof(ctx->iv));
    }
    return 1;
}

int smg_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    SMG_CIPHER_CTX *ctx = vctx;
    const SMG_CIPHER_ALG *alg = ctx->alg;
    const OSSL_PARAM *p;
    unsigned int v;

    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !check_fixed_size(ctx, p, alg->family->key_len,
                             SMG_PROV(INVALID_KEY_LENGTH)))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
        && !set_iv_len(ctx, p))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING))
        != NULL) {
        if (!OSSL_PARAM_get_uint(p, &v)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        ctx->pad = v ? 1 : 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_NUM)) != NULL) {
        if (!OSSL_PARAM_get_uint(p, &v)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%s", p->key);
            return 0;
        }
        /*
         * num indexes the current block: anything else would read past it.
         * The default provider of OpenSSL 3.6 refuses num 16 with this
         * reason (test/err_compare.c); 3.0's takes it.
         */
        if (v >= ctx->bs || (v != 0 && !is_stream_mode(alg->mode))) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%u is not a position in a %zu-byte block", v,
                           ctx->bs);
            return 0;
        }
        /*
         * Whole-block CFB keeps the ciphertext of a partial block out of
         * updated-iv, so iv and num cannot resume one: num stays as it is.
         */
        if (v != ctx->num && cfb_in_buf(ctx)) {
            SMG_RAISE_DATA(ctx->provctx, SMG_PROV(FAILED_TO_GET_PARAMETER),
                           "%u: this CFB register holds whole blocks, num "
                           "stays %zu", v, ctx->num);
            return 0;
        }
        ctx->num = v;
    }
    if (alg->family->set_ctx_params != NULL)
        return alg->family->set_ctx_params(ctx, params);
    return 1;
}
