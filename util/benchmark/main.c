/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `make bench`: smgost's throughput through EVP, as users get it, beside
 * OpenSSL's default provider, gostprov and libgcrypt, in one run.
 *
 * smgost picks its kernels once, when the module loads, from CPUID masked
 * by OPENSSL_ia32cap (OPENSSL_armcap on aarch64).  So every capability
 * level runs in its own process: the program re-executes itself with
 * --serve and the mask set, and that child measures on request over a
 * pipe.  The parent measures the other implementations itself, unmasked,
 * and asks the children in turn, so each table cell is a set of short
 * alternating rounds (A B C A B C ...) over every implementation and the
 * best round of each is kept (a round's figure is its fastest batch of
 * calls, measure()): a noisy neighbour slows all of them alike, and only
 * ever slows.  Levels that end up with the same kernel as an
 * earlier level are measured once.
 *
 * Other libgcrypt builds are measured the same way: `make bench GCRYPT=DIR`
 * links util/benchmark/ against DIR's libgcrypt as util/bench-gcrypt,
 * named to this process in SMGOST_BENCH_GCRYPT, and that binary serves with
 * --serve-gcrypt: one more column per family, titled with its version,
 * beside the libgcrypt this binary is linked with.
 *
 * With -m each libgcrypt also runs once per chosen level but the first,
 * with the features that level hides from smgost hidden from libgcrypt
 * too (GCRYCTL_DISABLE_HWF, through SMGOST_BENCH_GCRYPT_HIDE in its
 * child's environment), so that a level is compared with what libgcrypt
 * does on a CPU that has only that level.
 *
 * Another build of smgost too: `make bench BASE=DIR` (SMGOST_BENCH_BASE,
 * DIR the providers folder of, say, a worktree of an older commit) runs
 * each selected level once more with DIR's smgost.so, in columns titled
 * "base <kernel>" beside this build's, so that a change is measured
 * before and after in one run.
 *
 * This file holds the options and the run's order; measure.c the rows and
 * the timed loops, gcrypt.c libgcrypt, child.c the child processes and
 * their protocol, report.c the tables.  The levels come from
 * util/KernelLevels.pm, which make test reads too (levels.h).
 */
#define _GNU_SOURCE     /* FNM_CASEFOLD */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define DEFAULT_SECONDS 150.0
#define QUICK_SECONDS 20.0

/* LEVELS_INIT: util/KernelLevels.pm's levels for make bench (levels.h) */
const struct level levels[] = { LEVELS_INIT };

static const size_t default_sizes[] = { 16, 64, 256, 1024, 8192, 16384 };

int selected(const char *patterns, const struct alg *a)
{
    char buf[256], *tok, *save = NULL;

    if (patterns == NULL)
        return 1;
    snprintf(buf, sizeof(buf), "%s", patterns);
    for (tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save))
        if (fnmatch(tok, a->name, FNM_CASEFOLD) == 0
            || fnmatch(tok, family_name[a->family], FNM_CASEFOLD) == 0)
            return 1;
    return 0;
}

/* Whether tok names lv, by its name or its alias. */
static int level_named(const struct level *lv, const char *tok)
{
    return strcmp(tok, lv->name) == 0
           || (lv->alias != NULL && strcmp(tok, lv->alias) == 0);
}

int level_selected(const char *names, const struct level *lv)
{
    char buf[256], *tok, *save = NULL;

    if (names == NULL)
        return 1;
    snprintf(buf, sizeof(buf), "%s", names);
    for (tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save))
        if (level_named(lv, tok))
            return 1;
    return 0;
}

static void usage(FILE *f)
{
    size_t i;

    fprintf(f,
"usage: bench [-q] [-t SECONDS] [-r ROUNDS] [-a ALGS] [-s SIZES] [-l LEVELS]\n"
"             [-m]\n"
"  -q          quick run (%.0f s, 3 rounds)\n"
"  -t SECONDS  total time to spread over the measurements (default\n"
"              $BENCH_SECONDS, else %.0f)\n"
"  -r ROUNDS   alternating rounds per table cell, best kept (default 5)\n"
"  -a ALGS     comma-separated globs on smgost names or families (sm4, sm3,\n"
"              gost, kuznyechik, streebog), e.g. -a 'SM4-C*,gost89'\n"
"  -s SIZES    comma-separated bytes per call, multiples of 16 (default\n"
"              16,64,256,1024,8192,16384)\n"
"  -m          also each libgcrypt at each chosen level, with the features\n"
"              the level hides from smgost hidden from it (GCRYCTL_DISABLE_HWF),\n"
"              and the default provider under the level's " CAP_VAR "\n"
"  -l LEVELS   comma-separated smgost capability levels (default: each):\n",
            QUICK_SECONDS, DEFAULT_SECONDS);
    for (i = 0; i < N_LEVELS; i++)
        fprintf(f, "    %-15s %s%s%s%s%s%s\n", levels[i].name,
                levels[i].what,
                levels[i].value != NULL ? ": " CAP_VAR "=" : "",
                levels[i].value != NULL ? levels[i].value : "",
                levels[i].alias != NULL ? " (or " : "",
                levels[i].alias != NULL ? levels[i].alias : "",
                levels[i].alias != NULL ? ")" : "");
    fprintf(f, "SMGOST_MODULES names smgost.so's folder, SMGOST_GOSTPROV "
               "gostprov.so's (empty: no gostprov).\n"
               "SMGOST_BENCH_GCRYPT: space-separated bench binaries linked "
               "with other libgcrypt\nbuilds (make bench GCRYPT=DIR builds "
               "util/bench-gcrypt), measured as more columns.\n"
               "SMGOST_BENCH_BASE: another build's smgost.so folder (make "
               "bench BASE=DIR),\nmeasured at the same levels in \"base\" "
               "columns.\n");
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(struct run *r, int argc, char **argv)
{
    const char *env = getenv("BENCH_SECONDS");
    char buf[256], *tok, *save = NULL;
    size_t s;
    int opt;

    r->total = env != NULL && *env != '\0' ? atof(env) : DEFAULT_SECONDS;
    r->rounds = 5;
    while ((opt = getopt(argc, argv, "qt:r:a:s:l:mh")) != -1) {
        switch (opt) {
        case 'q':
            r->total = QUICK_SECONDS;
            r->rounds = 3;
            break;
        case 't':
            r->total = atof(optarg);
            break;
        case 'r':
            r->rounds = atoi(optarg);
            break;
        case 'a':
            r->algsel = optarg;
            break;
        case 'l':
            r->levelsel = optarg;
            break;
        case 'm':
            r->match = 1;
            break;
        case 's':
            snprintf(buf, sizeof(buf), "%s", optarg);
            for (tok = strtok_r(buf, ",", &save); tok != NULL
                 && r->nsizes < sizeof(r->sizes) / sizeof(r->sizes[0]);
                 tok = strtok_r(NULL, ",", &save))
                r->sizes[r->nsizes++] = strtoul(tok, NULL, 0);
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc || r->total <= 0 || r->rounds < 1) {
        usage(stderr);
        return 2;
    }
    if (r->nsizes == 0) {
        r->nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
        memcpy(r->sizes, default_sizes, sizeof(default_sizes));
    }
    for (s = 0; s < r->nsizes; s++)
        if (r->sizes[s] == 0 || r->sizes[s] > MAX_SIZE
            || r->sizes[s] % 16 != 0) {
            fprintf(stderr, "bench: sizes must be multiples of 16 up to %d\n",
                    MAX_SIZE);
            return 2;
        }
    if (r->levelsel != NULL) {
        char buf[256], *tok, *save = NULL;
        size_t i;

        snprintf(buf, sizeof(buf), "%s", r->levelsel);
        for (tok = strtok_r(buf, ", ", &save); tok != NULL;
             tok = strtok_r(NULL, ", ", &save)) {
            for (i = 0; i < N_LEVELS && !level_named(&levels[i], tok); i++)
                ;
            if (i == N_LEVELS) {
                fprintf(stderr, "bench: no level %s (bench -h lists them)\n",
                        tok);
                return 2;
            }
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    struct run r = { .secs_min = 1e9 };
    char skipped[N_LEVELS * 80] = "";
    size_t k;
    int f, rc;

    if (!make_data())
        return 1;
    if (argc == 2 && strcmp(argv[1], "--serve") == 0)
        return serve();
    if (argc == 2 && strcmp(argv[1], "--serve-default") == 0)
        return serve_default();
    if (argc == 2 && strcmp(argv[1], "--serve-gcrypt") == 0)
        return serve_gcrypt();
    if ((rc = parse_args(&r, argc, argv)) >= 0)
        return rc;
    load_references();
    start_levels(r.levelsel, NULL, skipped, sizeof(skipped));
    if (nchildren == 0) {
        fprintf(stderr, "bench: smgost did not load at any level\n");
        return 1;
    }
    if (getenv("SMGOST_BENCH_BASE") != NULL
        && *getenv("SMGOST_BENCH_BASE") != '\0')
        start_levels(r.levelsel, getenv("SMGOST_BENCH_BASE"), skipped,
                     sizeof(skipped));
    start_gcrypts(r.levelsel, r.match);
    start_defaults(r.levelsel, r.match);
    if ((r.left = count_measurements(&r)) == 0) {
        fprintf(stderr, "bench: nothing selected\n");
        return 2;
    }
    print_header(&r, skipped);
    r.wall_start = wall_now();
    for (f = 0; f < N_FAMILY; f++)
        bench_family(&r, f);
    printf("\n%.0f s; %.1f to %.1f ms of CPU time per measurement\n",
           wall_now() - r.wall_start, r.secs_min * 1e3, r.secs_max * 1e3);
    for (k = 0; k < nchildren; k++)
        child_stop(&children[k]);
    return 0;
}
