/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report: the header (versions, CPU, what a figure means, the levels
 * and their kernels), one table per family with a column per distinct
 * smgost kernel and per reference, and the pacing that spreads the run's
 * time over its measurements.  Each cell is a set of short alternating
 * rounds over every column, the best round of each kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "cpu.h"
#include "bench.h"

/* A column of a family's table: a distinct smgost kernel or a reference. */
struct column {
    enum impl impl;
    struct child *c;            /* NULL: measured in this process */
    const char *title;
    int width;
};

/* The families gostprov has, where ratios are taken against it. */
static int gost_family(enum family f)
{
    return f == F_GOST || f == F_KUZ || f == F_STREEBOG;
}

/* The implementation ratios are taken against, or N_IMPL if none. */
static enum impl reference(const struct alg *a)
{
    size_t row = (size_t)(a - algs);

    /* the default provider, gostprov for GOST, Kuznyechik and Streebog,
     * else libgcrypt (SM4-GCM, CCM and XTS under OpenSSL 3.0) */
    if (!gost_family(a->family) && fetched[I_OSSL][row] != NULL)
        return I_OSSL;
    if (gost_family(a->family) && fetched[I_GOSTPROV][row] != NULL)
        return I_GOSTPROV;
#ifdef HAVE_GCRYPT
    if (gcrypt_has(a))
        return I_GCRYPT;
#endif
    return N_IMPL;
}

static int ref_available(enum impl impl, const struct alg *a)
{
#ifdef HAVE_GCRYPT
    if (impl == I_GCRYPT)
        return gcrypt_has(a);
#endif
    return fetched[impl][a - algs] != NULL;
}

size_t count_measurements(const struct run *r)
{
    size_t i, k, n = 0;

    for (i = 0; i < N_ALGS; i++) {
        if (!selected(r->algsel, &algs[i]))
            continue;
        for (k = 0; k < nchildren; k++)
            n += child_has(&children[k], &algs[i]);
        for (k = I_OSSL; k < N_IMPL; k++)
            n += impl_loaded[k] && ref_available(k, &algs[i]);
    }
    return n * r->nsizes * (size_t)r->rounds;
}

void print_header(const struct run *r, const char *skipped)
{
    const struct smg_cpu_id *id = smg_cpu_id();
    const char *v;
    size_t k;

    printf("smgost benchmark: %s", OpenSSL_version(OPENSSL_VERSION));
#ifdef HAVE_GCRYPT
    printf(", libgcrypt %s", gcry_check_version(NULL));
#endif
    for (k = 0; k < nchildren; k++)
        if (children[k].impl == I_GCRYPT)
            printf(", libgcrypt %s (%s)", children[k].kernels,
                   children[k].prog);
    printf(", gostprov %s\n", impl_loaded[I_GOSTPROV] ? "loaded" : "absent");
    if (id->vendor[0] != '\0')
        printf("CPU: %s family %u (0x%x) model %u (0x%x), \"%s\"\n",
               id->vendor, id->family, id->family, id->model, id->model,
               id->name);
    else
        printf("CPU: not identified (no CPUID on this architecture)\n");
    printf("MB/s (10^6 bytes per second of the measuring thread's CPU time) "
           "through EVP,\nthe fastest batch of calls (about 1/64 of a "
           "measurement) in the best of %d\nalternating rounds; about %.0f s "
           "in all (-t, BENCH_SECONDS).\n", r->rounds, r->total);
    printf("Ciphers: one update per call on one context (padding off); "
           "SM4-GCM, CCM, XTS: a\nwhole message per call (IV, 16 bytes of "
           "AAD but XTS, the data, the 16-byte tag);\nSM3, Streebog, "
           "md_gost94: init+update+final per call; MACs: keyed\n"
           "init+update+final per call.\n\n"
           "smgost levels (" CAP_VAR "):\n");
    for (k = 0; k < nchildren; k++) {
        if (children[k].impl != I_SMG)
            continue;
        v = children[k].lv->value;
        if (v == NULL)
            v = getenv(CAP_VAR) != NULL ? getenv(CAP_VAR) : "unset";
        printf("  %s%-15s %-34s %s\n",
               children[k].modules != NULL ? "base " : "",
               children[k].lv->name, v, children[k].kernels);
    }
    for (k = 0; k < nchildren; k++)
        if (children[k].impl == I_SMG && children[k].modules != NULL) {
            printf("base: smgost.so from %s\n", children[k].modules);
            break;
        }
    fputs(skipped, stdout);
    fflush(stdout);
}

/*
 * CPU seconds for each of the next m measurements so that the run ends on
 * time: what is left of the wall-clock budget, shared among the measurements
 * left at the rate of wall time per second asked seen so far (warm-ups,
 * overheads, and waiting for a core on a busy machine).
 */
static double pace(struct run *r, size_t m)
{
    double spent = wall_now() - r->wall_start;
    double rate = r->asked > 0 ? spent / r->asked : 1.125;
    double secs = (r->total - spent) / rate
                  / (double)(r->left > 0 ? r->left : 1);

    if (secs < 0.002)
        secs = 0.002;
    if (secs > 1.0)
        secs = 1.0;
    r->asked += secs * (double)m;
    r->left -= m < r->left ? m : r->left;
    if (secs < r->secs_min)
        r->secs_min = secs;
    if (secs > r->secs_max)
        r->secs_max = secs;
    return secs;
}

/* The columns of family f's table; returns how many. */
static size_t family_columns(enum family f, struct column *cols)
{
    size_t i, k, n = 0;
    int has;

    for (k = 0; k < nchildren; k++)
        if (children[k].impl == I_SMG && !children[k].dup[f]) {
            cols[n].impl = I_SMG;
            cols[n].c = &children[k];
            cols[n].title = children[k].modules != NULL
                            ? children[k].btitle[f] : children[k].kernel[f];
            cols[n].width = (int)strlen(cols[n].title) + 1;
            if (cols[n].width < 16)
                cols[n].width = 16;
            n++;
        }
    for (k = I_OSSL; k < N_IMPL; k++) {
        has = 0;
        for (i = 0; i < N_ALGS; i++)
            has |= algs[i].family == f && ref_available(k, &algs[i]);
        if (impl_loaded[k] && has) {
            cols[n].impl = k;
            cols[n].c = NULL;
            cols[n].title = k == I_GCRYPT ? gcrypt_title : impl_name[k];
            cols[n].width = (int)strlen(cols[n].title) + 2;
            if (cols[n].width < 10)
                cols[n].width = 10;
            n++;
        }
    }
    for (k = 0; k < nchildren; k++) {
        has = 0;
        for (i = 0; i < N_ALGS; i++)
            has |= algs[i].family == f && children[k].impl != I_SMG
                   && child_has(&children[k], &algs[i]);
        if (has) {
            cols[n].impl = children[k].impl;
            cols[n].c = &children[k];
            cols[n].title = children[k].title;
            cols[n].width = (int)strlen(cols[n].title) + 2;
            n++;
        }
    }
    return n;
}

/* One table cell set: the rounds over every column, then the row. */
static void bench_row(struct run *r, const struct column *cols, size_t ncols,
                      const struct alg *a, const char *label, size_t n)
{
    double best[MAX_CHILDREN + N_IMPL], v, refv = -1, secs;
    enum impl ref = reference(a);
    size_t k, m = 0;
    int round;

    for (k = 0; k < ncols; k++) {
        best[k] = -1;
        m += cols[k].c != NULL ? child_has(cols[k].c, a)
                               : ref_available(cols[k].impl, a);
    }
    secs = pace(r, m * (size_t)r->rounds);
    for (round = 0; round < r->rounds; round++)
        for (k = 0; k < ncols; k++) {
            if (cols[k].c != NULL && child_has(cols[k].c, a))
                v = child_measure(cols[k].c, (size_t)(a - algs), n, secs);
            else if (cols[k].c == NULL && ref_available(cols[k].impl, a))
                v = measure(cols[k].impl, a, n, secs);
            else
                continue;
            if (v > best[k])
                best[k] = v;
        }
    /* the reference measured here (libgcrypt: the one linked in) */
    for (k = 0; k < ncols; k++)
        if (cols[k].impl == ref && cols[k].c == NULL)
            refv = best[k];
    printf("%-18s %6zu", label, n);
    for (k = 0; k < ncols; k++) {
        if (best[k] < 0)
            printf("%*s", cols[k].width, "-");
        else if (cols[k].impl != I_SMG)
            printf("%*.1f", cols[k].width, best[k] / 1e6);
        else if (refv > 0)
            printf("%*.1f %5.2fx", cols[k].width - 7, best[k] / 1e6,
                   best[k] / refv);
        else
            printf("%*.1f %6s", cols[k].width - 7, best[k] / 1e6, "");
    }
    printf("\n");
    fflush(stdout);
}

void bench_family(struct run *r, enum family f)
{
    struct column cols[MAX_CHILDREN + N_IMPL];
    size_t i, k, s, ncols;
    char label[40];
    int any = 0;

    for (i = 0; i < N_ALGS; i++)
        any |= algs[i].family == f && selected(r->algsel, &algs[i]);
    if (!any)
        return;
    ncols = family_columns(f, cols);
    printf("\n%s: smgost MB/s and ratio to %s\n",
           f == F_SM4 ? "SM4" : f == F_SM3 ? "SM3"
           : f == F_GOST ? "GOST 28147-89/Magma"
           : f == F_KUZ ? "Kuznyechik" : "Streebog (GOST R 34.11-2012)",
           f == F_KUZ ? "gostprov"
           : gost_family(f) ? "gostprov (* to libgcrypt: gostprov lacks it)"
           : f == F_SM4 ? "the OpenSSL default provider (GCM, CCM, XTS: to "
                          "libgcrypt if it lacks them)"
           : "the OpenSSL default provider");
    printf("%-18s %6s", "algorithm", "bytes");
    for (k = 0; k < ncols; k++)
        printf("%*s", cols[k].width, cols[k].title);
    printf("\n");
    for (i = 0; i < N_ALGS; i++) {
        const struct alg *a = &algs[i];

        if (a->family != f || !selected(r->algsel, a))
            continue;
        snprintf(label, sizeof(label), "%s%s%s", a->name,
                 a->kind != K_CIPHER && a->kind != K_AEAD ? ""
                 : a->dec ? " dec" : " enc",
                 gost_family(f) && reference(a) == I_GCRYPT ? " *" : "");
        for (s = 0; s < r->nsizes; s++)
            bench_row(r, cols, ncols, a, label, r->sizes[s]);
    }
}
