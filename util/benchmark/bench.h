/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of util/benchmark/ (built as util/bench) share: the rows
 * measured (struct alg), the implementations, the capability levels (their
 * table is made from util/KernelLevels.pm into levels.h), the child
 * processes and the run's options and time budget.  main.c says how the
 * whole fits together.
 */
#ifndef SMGOST_BENCH_H
#define SMGOST_BENCH_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#ifdef HAVE_GCRYPT
# include <gcrypt.h>
#endif

#include "levels.h"

#define MAX_SIZE 16384

enum family { F_SM4, F_SM3, F_GOST, F_KUZ, F_STREEBOG, N_FAMILY };
/* K_AEAD: GCM, CCM, XTS, timed as whole messages (IV, 16 bytes of AAD but
 * for XTS, the data, the tag). */
enum kind { K_CIPHER, K_DIGEST, K_MAC, K_AEAD };
/* Who computes: smgost (in a child per level) or a reference. */
enum impl { I_SMG, I_OSSL, I_GOSTPROV, I_GCRYPT, N_IMPL };

/* The family's name in the provider's kernel report ("sm4=..."), and -a's */
extern const char *const family_name[N_FAMILY];
extern const char *const impl_name[N_IMPL];

/*
 * One table row.  Names are smgost's; ossl and gostprov name the same
 * algorithm in those providers; the libgcrypt pair is (algorithm, mode)
 * for ciphers, the algorithm alone for digests and MACs.
 */
struct alg {
    const char *name;
    enum family family;
    enum kind kind;
    int dec;
    const char *ossl, *gostprov;
    int gc_algo, gc_mode;
};

/* measure.c's rows; a row added there is counted here */
#define N_ALGS 46
extern const struct alg *const algs;

/*
 * A capability level: the value of CAP_VAR that forces it, NULL to inherit;
 * alias another name -l takes for it.
 */
struct level {
    const char *name, *alias, *value, *what;
    const char *gcrypt_hide;    /* libgcrypt's names of what it hides */
};
extern const struct level levels[N_LEVELS];

/* --- measure.c: measuring one implementation in this process ---------- */

extern OSSL_LIB_CTX *impl_libctx[N_IMPL];
extern const char *impl_propq[N_IMPL];
extern int impl_loaded[N_IMPL];
/* EVP_CIPHER, EVP_MD or EVP_MAC per implementation and row */
extern void *fetched[N_IMPL][N_ALGS];
/* libgcrypt's column title: the version it reports. */
extern char gcrypt_title[40];

extern unsigned char *inbuf, *outbuf;
extern unsigned char key[64], iv[32];

/* Everything one timed loop needs, made afresh for each measurement. */
struct job {
    const struct alg *a;
    enum impl impl;
    size_t n;
    EVP_CIPHER_CTX *cctx;
    EVP_MD_CTX *mdctx;
    EVP_MAC_CTX *macctx;
    /* K_AEAD decryption: a message the encryption made, and its tag */
    unsigned char *ct, tag[16];
#ifdef HAVE_GCRYPT
    gcry_cipher_hd_t gch;
    gcry_md_hd_t gmd;
    gcry_mac_hd_t gmac;
#endif
};

int make_data(void);
double wall_now(void);
double measure(enum impl impl, const struct alg *a, size_t n, double secs);
OSSL_PROVIDER *load_from(OSSL_LIB_CTX *ctx, const char *dir,
                         const char *name);
void fetch_all(enum impl impl);
void load_references(void);

/* --- gcrypt.c: libgcrypt, the reference outside OpenSSL -------------- */

#ifdef HAVE_GCRYPT
int gcrypt_init(void);
int gcrypt_has(const struct alg *a);
int gcrypt_setup(struct job *j);
int gcrypt_call(struct job *j);
void gcrypt_job_free(struct job *j);
#endif

/* --- child.c: the child processes and their protocol ----------------- */

/* A child process: smgost at a level, or another libgcrypt build. */
struct child {
    enum impl impl;             /* I_SMG, I_OSSL (-m) or I_GCRYPT */
    const struct level *lv;     /* smgost's level */
    const char *prog;           /* libgcrypt's: the binary */
    const char *hide;           /* libgcrypt's: its features hidden */
    pid_t pid;
    FILE *to, *from;
    /* smgost's kernels param; libgcrypt's version */
    char kernels[300];
    /* this level's kernel per family, and whether an earlier level had it */
    char kernel[N_FAMILY][64];
    int dup[N_FAMILY];
    char has[N_ALGS + 1];       /* libgcrypt's: '1' per row it can run */
    char title[40];             /* libgcrypt's column title */
    const char *modules;        /* I_SMG: another build's folder, or NULL */
    char btitle[N_FAMILY][72];  /* its columns' titles */
};

#define MAX_GCRYPT_CHILDREN (4 * N_LEVELS)
/* smgost and its base build at each level, the default provider at each
 * masked level (-m), the libgcrypts */
#define MAX_CHILDREN (3 * N_LEVELS + MAX_GCRYPT_CHILDREN)
extern struct child children[MAX_CHILDREN];
extern size_t nchildren;

int serve(void);
int serve_default(void);
int serve_gcrypt(void);
void start_levels(const char *levelsel, const char *base, char *skipped,
                  size_t size);
void start_gcrypts(const char *levelsel, int match);
void start_defaults(const char *levelsel, int match);
void child_stop(struct child *c);
double child_measure(struct child *c, size_t row, size_t n, double secs);
int child_has(const struct child *c, const struct alg *a);

/* --- main.c: the options --------------------------------------------- */

/* What the run was asked for, and how far its time budget has gone. */
struct run {
    const char *algsel, *levelsel;
    int match;                  /* -m: libgcrypt at each level too */
    size_t sizes[16], nsizes;
    int rounds;
    double total;               /* wall-clock seconds for all of it */
    double wall_start;
    double asked;               /* CPU seconds asked of measurements so far */
    size_t left;                /* measurements still to make */
    double secs_min, secs_max;
};

int selected(const char *patterns, const struct alg *a);
int level_selected(const char *names, const struct level *lv);

/* --- report.c: the tables -------------------------------------------- */

size_t count_measurements(const struct run *r);
void print_header(const struct run *r, const char *skipped);
void bench_family(struct run *r, enum family f);

#endif
