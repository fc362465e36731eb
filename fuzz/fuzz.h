/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the libFuzzer harnesses in fuzz/ share: a reader that turns the
 * fuzzer's bytes into choices, a message stream that stretches a few bytes
 * into long inputs (so that small corpus files still reach meshing periods
 * and the wide kernels), the library contexts (smgost linked in statically
 * and registered as a built-in provider, so the fuzzer's coverage reaches
 * our code; the references in their own context), and the one way a
 * harness reports a finding: a description on stderr, then abort(), which
 * libFuzzer turns into a crash file.
 *
 * Harnesses: sm4.c (every SM4 mode against OpenSSL's default provider),
 * digest.c (SM3, Streebog, GOST R 34.11-94 and HMAC over them against the
 * default provider and gostprov), gost.c (every GOST 28147-89, Magma and
 * Kuznyechik cipher, the GOST MAC and the OMAC MACs against gostprov, or
 * smgost's own plain run where gostprov has no counterpart), aead.c
 * (SM4-GCM, CCM and XTS against a reference written from the standards
 * over the default provider's SM4-ECB), mgm.c (kuznyechik-mgm and
 * magma-mgm against RFC 9058's MGM rebuilt over gostprov's block ciphers),
 * ctr_omac.c (the CTR-ACPKM-OMAC ciphers against smgost's own plain run,
 * their decryption and a wrong tag).
 * `make fuzz FUZZ_SECONDS=N` builds them against a sanitized copy of the
 * module objects in fuzz/build/ and runs each on a copy of its seed corpus
 * fuzz/corpus/<harness>/ (made by fuzz/make-corpus.pl).
 */
#ifndef SMGOST_FUZZ_H
#define SMGOST_FUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

/* The module's entry point, linked in from fuzz/build/libsmgost.a. */
OSSL_provider_init_fn OSSL_provider_init;

#define FZ_PROPQ "provider=smgost"
#define FZ_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ choices */

typedef struct {
    const uint8_t *p;
    size_t n;
} FZ_IN;

/* Once the input runs out every choice is 0: the plainest option. */
static inline unsigned fz_u8(FZ_IN *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static inline unsigned fz_u16(FZ_IN *in)
{
    unsigned hi = fz_u8(in);

    return hi << 8 | fz_u8(in);
}

static inline void fz_bytes(FZ_IN *in, unsigned char *out, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        out[i] = (unsigned char)fz_u8(in);
}

/*
 * A length that is mostly short but can reach past several 1024-byte
 * GOST meshing periods and the 64-block SM4 passes: two bytes, the top
 * bit of the first choosing the long range.
 */
static inline size_t fz_len(FZ_IN *in)
{
    unsigned v = fz_u16(in);

    return v & 0x8000 ? (v & 0x3fff) : (v & 0x7ff) % 300;
}

/* ----------------------------------------------------- message stream */

/*
 * Message bytes come from the tail of the input, repeated as often as
 * needed, each pass XORed with its pass number so that a repeated tail
 * does not give repeated blocks; with no tail, a counter.
 */
typedef struct {
    const uint8_t *p;
    size_t n, pos, pass;
} FZ_MSG;

static inline void fz_msg_init(FZ_MSG *m, const uint8_t *p, size_t n)
{
    m->p = p;
    m->n = n;
    m->pos = 0;
    m->pass = 0;
}

static inline void fz_msg_take(FZ_MSG *m, unsigned char *out, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        if (m->n == 0) {
            out[i] = (unsigned char)(m->pos++ * 131u + 7u);
            continue;
        }
        out[i] = (unsigned char)(m->p[m->pos] ^ m->pass);
        if (++m->pos == m->n) {
            m->pos = 0;
            m->pass++;
        }
    }
}

/* ------------------------------------------------------------ AEADs */

/*
 * len bytes of in through updates of chunk bytes (0: one update) on an
 * AEAD context: AAD where out is NULL, else data into out (which may be
 * in), each update giving out its whole length.  Returns 1 on success.
 */
static inline int fz_aead_updates(EVP_CIPHER_CTX *ctx, unsigned char *out,
                                  const unsigned char *in, size_t len,
                                  size_t chunk)
{
    size_t pos, n;
    int l;

    for (pos = 0; pos < len; pos += n) {
        n = chunk == 0 || len - pos < chunk ? len - pos : chunk;
        if (!EVP_CipherUpdate(ctx, out == NULL ? NULL : out + pos, &l,
                              in + pos, (int)n)
            || (out != NULL && (size_t)l != n))
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------- findings */

static inline void fz_hexdump(const char *label, const unsigned char *p,
                              size_t n)
{
    size_t i;

    fprintf(stderr, "  %s (%zu bytes):", label, n);
    for (i = 0; i < n && i < 96; i++)
        fprintf(stderr, "%s%02x", i % 32 == 0 ? "\n    " : "", p[i]);
    fprintf(stderr, "%s\n", n > 96 ? " ..." : "");
}

/* Where two buffers first differ, or (size_t)-1 if they are equal. */
static inline size_t fz_first_diff(const unsigned char *a, size_t al,
                                   const unsigned char *b, size_t bl)
{
    size_t i, n = al < bl ? al : bl;

    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return al == bl ? (size_t)-1 : n;
}

static inline void fz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

static inline void fz_fail(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "\n*** smgost fuzz finding: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    ERR_print_errors_fp(stderr);
    abort();
}

/* Aborts unless ours equals ref; what names the step. */
static inline void fz_same(const char *what, const unsigned char *ours,
                           size_t ol, const unsigned char *ref, size_t rl)
{
    size_t at = fz_first_diff(ours, ol, ref, rl);

    if (at == (size_t)-1)
        return;
    fprintf(stderr, "\n%s: smgost and the reference differ at byte %zu\n",
            what, at);
    fz_hexdump("smgost", ours, ol);
    fz_hexdump("reference", ref, rl);
    fz_fail("%s: outputs differ", what);
}

/* ---------------------------------------------------- library contexts */

/* smgost, registered from the objects linked in, and the default
 * provider (HMAC, and the EVP machinery the MACs need). */
static inline OSSL_LIB_CTX *fz_smgost_libctx(void)
{
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *prov = NULL;
    const char *kernels = "?";
    OSSL_PARAM p[2];

    if (lc == NULL
        || !OSSL_PROVIDER_add_builtin(lc, "smgost", OSSL_provider_init)
        || (prov = OSSL_PROVIDER_load(lc, "smgost")) == NULL
        || OSSL_PROVIDER_load(lc, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "fuzz: cannot load the smgost provider\n");
        exit(1);
    }
    /* Which kernels this run fuzzes (OPENSSL_ia32cap can force others). */
    p[0] = OSSL_PARAM_construct_utf8_ptr("kernels", (char **)&kernels, 0);
    p[1] = OSSL_PARAM_construct_end();
    OSSL_PROVIDER_get_params(prov, p);
    fprintf(stderr, "fuzz: smgost kernels %s\n", kernels);
    return lc;
}

/* The reference: OpenSSL's default provider, plus gostprov if asked
 * (from SMGOST_GOSTPROV, else libcrypto's modules directory), loaded into
 * lc (NULL: the default library context, which gostprov's MACs need). */
static inline OSSL_LIB_CTX *fz_ref_load(OSSL_LIB_CTX *lc, int with_gostprov)
{
    /* Held for the program's life: the leak check sees them reachable
     * when libcrypto's cleanup has let go of the default context. */
    static OSSL_PROVIDER *deflt, *gost;
    const char *dir = getenv("SMGOST_GOSTPROV");

    if ((deflt = OSSL_PROVIDER_load(lc, "default")) == NULL) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "fuzz: cannot load OpenSSL's default provider\n");
        exit(1);
    }
    if (with_gostprov
        && ((dir != NULL && *dir != '\0'
             && !OSSL_PROVIDER_set_default_search_path(lc, dir))
            || (gost = OSSL_PROVIDER_load(lc, "gostprov")) == NULL)) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "fuzz: cannot load gostprov (install "
                "libengine-gost-openssl, or set SMGOST_GOSTPROV to its "
                "folder)\n");
        exit(1);
    }
    return lc;
}

/* The reference in a library context of its own. */
static inline OSSL_LIB_CTX *fz_ref_libctx(int with_gostprov)
{
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();

    if (lc == NULL) {
        fprintf(stderr, "fuzz: out of memory\n");
        exit(1);
    }
    return fz_ref_load(lc, with_gostprov);
}

#endif
