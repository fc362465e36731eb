/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allocator alloc_fail.c and key_hygiene.c install with
 * CRYPTO_set_mem_functions(): every block OpenSSL or a provider gets through
 * OPENSSL_malloc() and friends carries a header (size, the file and line
 * OPENSSL_malloc was called from, a tag the test sets), live blocks are
 * listed, the Nth allocation after mh_fail_at(N) fails, and a hook sees the
 * contents of each block just before it goes back to the C library.
 *
 * realloc is malloc, copy and free, so that the old block passes the hook
 * like any other freed block.  Single-threaded, like the two programs.
 */
#ifndef SMGOST_MEMHOOK_H
#define SMGOST_MEMHOOK_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

typedef struct mh_block {
    struct mh_block *prev, *next;
    size_t size;
    const char *file;           /* OPENSSL_FILE, as OPENSSL_malloc got it */
    /* The end of file, copied: a leak report comes after the module that
     * holds the string is unloaded. */
    char where[44];
    int line;
    int tag;                    /* mh_tag when it was allocated */
    long tag2;
    int cls;                    /* mh_classify(file) at allocation */
} __attribute__((aligned(16))) MH_BLOCK;

/* The list of live blocks: a ring through this sentinel. */
static MH_BLOCK mh_live = { .prev = &mh_live, .next = &mh_live };
static unsigned long mh_nlive, mh_nallocs;
/* 0: no failure armed; else allocations left before the failing one. */
static unsigned long mh_countdown;
static int mh_failed;
/* Set by the test, recorded in each block for leak reports. */
static int mh_tag;
static long mh_tag2;
/* If set, gives each new block its cls (e.g. which object allocated it). */
static int (*mh_classify)(const char *file);
/* If set, only the allocations it accepts count towards mh_fail_at's N. */
static int (*mh_counts)(const char *file);
/* Called with each block's contents just before it is freed, if set. */
static void (*mh_on_free)(const MH_BLOCK *b, const unsigned char *p);

/* The next allocation but n-1 fails (n > 0); only that one. */
static inline void mh_fail_at(unsigned long n)
{
    mh_countdown = n;
    mh_failed = 0;
}

/* Disarms; true if the armed failure happened. */
static inline int mh_fail_off(void)
{
    mh_countdown = 0;
    return mh_failed;
}

static inline int mh_should_fail(const char *file)
{
    if (mh_countdown == 0 || (mh_counts != NULL && !mh_counts(file))
        || --mh_countdown != 0)
        return 0;
    mh_failed = 1;
    return 1;
}

static void mh_copy_where(char where[44], const char *file)
{
    size_t len = file != NULL ? strlen(file) : 0;

    if (file == NULL)
        file = "?";
    else if (len > 43)
        file += len - 43;
    strncpy(where, file, 43);
    where[43] = '\0';
}

static void *mh_malloc(size_t n, const char *file, int line)
{
    MH_BLOCK *b;

    if (mh_should_fail(file) || n > (size_t)-1 - sizeof(*b)
        || (b = malloc(sizeof(*b) + n)) == NULL)
        return NULL;
    b->size = n;
    b->file = file;
    mh_copy_where(b->where, file);
    b->line = line;
    b->tag = mh_tag;
    b->tag2 = mh_tag2;
    b->cls = mh_classify != NULL ? mh_classify(file) : 0;
    b->next = mh_live.next;
    b->prev = &mh_live;
    mh_live.next->prev = b;
    mh_live.next = b;
    mh_nlive++;
    mh_nallocs++;
    return b + 1;
}

static void mh_free(void *p, const char *file, int line)
{
    MH_BLOCK *b;

    (void)file, (void)line;
    if (p == NULL)
        return;
    b = (MH_BLOCK *)p - 1;
    if (mh_on_free != NULL)
        mh_on_free(b, p);
    b->prev->next = b->next;
    b->next->prev = b->prev;
    mh_nlive--;
    free(b);
}

static void *mh_realloc(void *p, size_t n, const char *file, int line)
{
    size_t old;
    void *q;

    if (p == NULL)
        return mh_malloc(n, file, line);
    if (n == 0) {
        mh_free(p, file, line);
        return NULL;
    }
    if ((q = mh_malloc(n, file, line)) == NULL)
        return NULL;
    old = ((MH_BLOCK *)p - 1)->size;
    memcpy(q, p, old < n ? old : n);
    mh_free(p, file, line);
    return q;
}

/*
 * True if the string OPENSSL_malloc was given as its file name lies in the
 * loaded object whose path ends with "/<object>": OPENSSL_FILE is a string
 * literal, so it sits in the read-only data of the code that allocated.
 * Needs _GNU_SOURCE for dladdr().
 */
static inline int mh_from_object(const char *file, const char *object)
{
    Dl_info info;
    size_t n, m = strlen(object);

    if (file == NULL || !dladdr(file, &info) || info.dli_fname == NULL)
        return 0;
    n = strlen(info.dli_fname);
    return n > m && info.dli_fname[n - m - 1] == '/'
           && strcmp(info.dli_fname + n - m, object) == 0;
}

/* First thing in main: no OpenSSL allocation may come before it. */
static inline void mh_install(void)
{
    if (!CRYPTO_set_mem_functions(mh_malloc, mh_realloc, mh_free)) {
        fprintf(stderr, "CRYPTO_set_mem_functions refused: OpenSSL "
                "allocated memory before main\n");
        exit(2);
    }
}

#endif
