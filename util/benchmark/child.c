/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The child processes, both ends: a child serves measurements of smgost at
 * one capability level (--serve), of the default provider under a level's
 * mask (--serve-default, -m) or of another libgcrypt build
 * (--serve-gcrypt); the parent starts one per level, skipping a level
 * whose kernels an earlier one has, and asks them over pipes.
 *
 * smgost picks its kernels once, when the module loads, from CPUID masked
 * by CAP_VAR, which is why each level needs a process of its own.
 */
#define _GNU_SOURCE     /* pipe2, environ */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/params.h>

#include "bench.h"

/* --- the child's end: measuring on request ---------------------------- */

/*
 * Protocol on stdin/stdout: first "K <kernels>" (libgcrypt: "K <version>
 * <one 0/1 per row: has it>") or "E <why>", then for each "M <row> <bytes>
 * <seconds>" one "R <bytes per second>".
 */
static int serve_requests(enum impl impl)
{
    char line[128];
    unsigned int row;
    size_t n;
    double secs;

    while (fgets(line, sizeof(line), stdin) != NULL
           && sscanf(line, "M %u %zu %lf", &row, &n, &secs) == 3
           && row < N_ALGS && n <= MAX_SIZE) {
        printf("R %.6e\n", measure(impl, &algs[row], n, secs));
        fflush(stdout);
    }
    return 0;
}

int serve_gcrypt(void)
{
#ifdef HAVE_GCRYPT
    size_t i;

    if (!gcrypt_init()) {
        printf("E libgcrypt did not initialise\n");
        return 1;
    }
    printf("K %s ", gcry_check_version(NULL));
    for (i = 0; i < N_ALGS; i++)
        putchar(gcrypt_has(&algs[i]) ? '1' : '0');
    printf("\n");
    fflush(stdout);
    return serve_requests(I_GCRYPT);
#else
    printf("E built without libgcrypt\n");
    return 1;
#endif
}

/*
 * The default provider in a child, so that the capability mask of the
 * level it runs at (-m) hides from libcrypto's own kernels what the level
 * hides from smgost's: the same CPU for both.
 */
int serve_default(void)
{
    size_t i;

    impl_propq[I_OSSL] = "provider=default";
    fetch_all(I_OSSL);
    printf("K openssl ");
    for (i = 0; i < N_ALGS; i++)
        putchar(fetched[I_OSSL][i] != NULL ? '1' : '0');
    printf("\n");
    fflush(stdout);
    return serve_requests(I_OSSL);
}

int serve(void)
{
    const char *dir = getenv("SMGOST_MODULES");
    OSSL_PROVIDER *prov = NULL;
    char *kernels = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr("kernels", &kernels, 0), OSSL_PARAM_END
    };

    if (dir == NULL || *dir == '\0')
        dir = "providers";
    impl_libctx[I_SMG] = OSSL_LIB_CTX_new();
    impl_propq[I_SMG] = "provider=smgost";
    if (impl_libctx[I_SMG] != NULL)
        prov = load_from(impl_libctx[I_SMG], dir, "smgost");
    if (prov == NULL || !OSSL_PROVIDER_get_params(prov, params)
        || kernels == NULL) {
        printf("E cannot load smgost from %s\n", dir);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    fetch_all(I_SMG);
    printf("K %s\n", kernels);
    fflush(stdout);
    return serve_requests(I_SMG);
}

/* --- the parent's end: starting, asking and stopping the children ------ */

struct child children[MAX_CHILDREN];
size_t nchildren;

void child_stop(struct child *c)
{
    int status;

    if (c->to != NULL)
        fclose(c->to);
    if (c->from != NULL)
        fclose(c->from);
    c->to = c->from = NULL;
    if (c->pid > 0)
        waitpid(c->pid, &status, 0);
    c->pid = 0;
}

/*
 * This process's environment with each of the n entries of set ("NAME=..."),
 * where not NULL, in place of that variable.
 */
static char **child_environ(char *const set[], size_t n_set)
{
    size_t n = 0, k = 0, i;
    char **env;

    while (environ[n] != NULL)
        n++;
    if ((env = calloc(n + n_set + 1, sizeof(*env))) == NULL)
        return NULL;
    for (n = 0; environ[n] != NULL; n++) {
        int replaced = 0;

        for (i = 0; i < n_set; i++)
            replaced |= set[i] != NULL
                && strncmp(environ[n], set[i],
                           strcspn(set[i], "=") + 1) == 0;
        if (!replaced)
            env[k++] = environ[n];
    }
    for (i = 0; i < n_set; i++)
        if (set[i] != NULL)
            env[k++] = set[i];
    return env;
}

/* Runs self arg with stdin/stdout on new pipes; 0 or an errno. */
static int child_spawn(struct child *c, const char *self, char *arg,
                       char **env, int *to, int *from)
{
    int down[2], up[2], err;
    const char *runner = getenv("SMGOST_RUNNER");
    /* a cross build runs under the same emulator as the parent */
    int emulated = runner != NULL && *runner != '\0';
    char *argv_direct[] = { (char *)self, arg, NULL };
    char *argv_runner[] = { "sh", "-c", "exec $SMGOST_RUNNER \"$0\" \"$1\"",
                            (char *)self, arg, NULL };
    posix_spawn_file_actions_t fa;

    /* close-on-exec: a later child must not hold this one's pipes open */
    if (pipe2(down, O_CLOEXEC) != 0)
        return errno;
    if (pipe2(up, O_CLOEXEC) != 0) {
        err = errno;
        close(down[0]);
        close(down[1]);
        return err;
    }
    /* posix_spawn, not fork: a forked child hangs under qemu-user 7.2 */
    if ((err = posix_spawn_file_actions_init(&fa)) == 0) {
        if ((err = posix_spawn_file_actions_adddup2(&fa, down[0], 0)) == 0
            && (err = posix_spawn_file_actions_adddup2(&fa, up[1], 1)) == 0)
            err = posix_spawn(&c->pid, emulated ? "/bin/sh" : self, &fa,
                              NULL, emulated ? argv_runner : argv_direct, env);
        posix_spawn_file_actions_destroy(&fa);
    }
    close(down[0]);
    close(up[1]);
    if (err != 0) {
        close(down[1]);
        close(up[0]);
        return err;
    }
    *to = down[1];
    *from = up[0];
    return 0;
}

static int child_start(struct child *c, const char *self)
{
    char line[300] = "", entry[128], modules[4200], hide[600], **env;
    const char *value = c->lv != NULL ? c->lv->value : NULL;
    const char *what = c->lv != NULL ? c->lv->name : self;
    char *set[3] = { NULL, NULL, NULL };
    int to = -1, from = -1, err = ENOMEM;

    if (value != NULL && (c->impl == I_SMG || c->impl == I_OSSL)) {
        snprintf(entry, sizeof(entry), CAP_VAR "=%s", value);
        set[0] = entry;
    }
    if (c->modules != NULL) {
        snprintf(modules, sizeof(modules), "SMGOST_MODULES=%s", c->modules);
        set[1] = modules;
    }
    if (c->hide != NULL) {
        snprintf(hide, sizeof(hide), "SMGOST_BENCH_GCRYPT_HIDE=%s", c->hide);
        set[2] = hide;
    }
    env = child_environ(set, 3);
    if (env != NULL)
        err = child_spawn(c, self,
                          c->impl == I_SMG ? "--serve"
                          : c->impl == I_OSSL ? "--serve-default"
                          : "--serve-gcrypt",
                          env, &to, &from);
    free(env);
    if (err != 0) {
        fprintf(stderr, "bench: %s: cannot start %s: %s\n", what, self,
                strerror(err));
        c->pid = 0;
        return 0;
    }
    if ((c->to = fdopen(to, "w")) == NULL)
        close(to);
    if ((c->from = fdopen(from, "r")) == NULL)
        close(from);
    if (c->to == NULL || c->from == NULL
        || fgets(line, sizeof(line), c->from) == NULL
        || strncmp(line, "K ", 2) != 0) {
        fprintf(stderr, "bench: %s: %s", what,
                line[0] == 'E' ? line + 2 : "the child did not start\n");
        child_stop(c);
        return 0;
    }
    line[strcspn(line, "\n")] = '\0';
    snprintf(c->kernels, sizeof(c->kernels), "%s", line + 2);
    return 1;
}

/*
 * The kernel the provider's report ("sm4=gfni-avx512+vpclmul-avx512
 * sm3=sm3-c gost=gost89-c", one family=kernel token per family) names for
 * family; "?" if it names none.
 */
static void kernel_of(const char *kernels, const char *family, char *out,
                      size_t outsz)
{
    size_t len = strlen(family);
    const char *p = kernels;

    while ((p = strstr(p, family)) != NULL) {
        if ((p == kernels || p[-1] == ' ') && p[len] == '=') {
            p += len + 1;
            snprintf(out, outsz, "%.*s", (int)strcspn(p, " "), p);
            return;
        }
        p += len;
    }
    snprintf(out, outsz, "?");
}

double child_measure(struct child *c, size_t row, size_t n, double secs)
{
    char line[64];
    double r;

    fprintf(c->to, "M %zu %zu %.6f\n", row, n, secs);
    fflush(c->to);
    if (fgets(line, sizeof(line), c->from) == NULL
        || sscanf(line, "R %lf", &r) != 1)
        return -1;
    return r;
}

/* Whether child c measures row a: a new smgost kernel, or libgcrypt has it. */
int child_has(const struct child *c, const struct alg *a)
{
    if (c->impl == I_SMG)
        return !c->dup[a->family];
    return c->has[a - algs] == '1';
}

/*
 * One child per selected level, except that a level whose kernels all
 * match an earlier one's is noted in skipped and stopped.
 */
void start_levels(const char *levelsel, const char *base, char *skipped,
                  size_t size)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    size_t i, k, used;
    int f;

    if (len <= 0) {
        perror("bench: /proc/self/exe");
        return;
    }
    self[len] = '\0';
    signal(SIGPIPE, SIG_IGN);
    for (i = 0; i < N_LEVELS; i++) {
        struct child *c = &children[nchildren];

        if (!level_selected(levelsel, &levels[i]))
            continue;
        c->impl = I_SMG;
        c->lv = &levels[i];
        c->modules = base;
        if (!child_start(c, self))
            continue;
        for (k = 0; k < nchildren; k++)
            if (children[k].impl == I_SMG && children[k].modules == base
                && strcmp(children[k].kernels, c->kernels) == 0)
                break;
        if (k < nchildren) {
            used = strlen(skipped);
            snprintf(skipped + used, size - used,
                     "  %s%-15s %-34s as %s: not measured\n",
                     base != NULL ? "base " : "", c->lv->name,
                     c->lv->value != NULL ? c->lv->value : "",
                     children[k].lv->name);
            child_stop(c);
            continue;
        }
        for (f = 0; f < N_FAMILY; f++) {
            kernel_of(c->kernels, family_name[f], c->kernel[f],
                      sizeof(c->kernel[f]));
            snprintf(c->btitle[f], sizeof(c->btitle[f]), "base %s",
                     c->kernel[f]);
            for (k = 0; k < nchildren; k++)
                if (children[k].impl == I_SMG && children[k].modules == base
                    && strcmp(children[k].kernel[f], c->kernel[f]) == 0)
                    c->dup[f] = 1;
        }
        nchildren++;
    }
}

/* One libgcrypt child: prog serving, with lv's features hidden if lv. */
static void start_gcrypt(const char *prog, const struct level *lv)
{
    struct child *c = &children[nchildren];
    char *sp, version[24];

    if (nchildren == sizeof(children) / sizeof(children[0]))
        return;
    memset(c, 0, sizeof(*c));
    c->impl = I_GCRYPT;
    c->prog = prog;
    c->lv = lv;
    c->hide = lv != NULL ? lv->gcrypt_hide : NULL;
    if (!child_start(c, prog))
        return;
    sp = strrchr(c->kernels, ' ');
    if (sp == NULL || strlen(sp + 1) != N_ALGS) {
        fprintf(stderr, "bench: %s: built from another util/benchmark\n",
                prog);
        child_stop(c);
        return;
    }
    memcpy(c->has, sp + 1, N_ALGS + 1);
    *sp = '\0';
    snprintf(version, sizeof(version), "%.23s", c->kernels);
    snprintf(c->title, sizeof(c->title), "gcrypt %s%s%.10s", version,
             lv != NULL ? " " : "", lv != NULL ? lv->name : "");
    nchildren++;
}

/*
 * One child per binary in SMGOST_BENCH_GCRYPT (space-separated), each
 * linked with another libgcrypt, unmasked; with match (-m), each of them
 * and this binary's libgcrypt once more per chosen level that hides
 * something.
 */
void start_gcrypts(const char *levelsel, int match)
{
    const char *env = getenv("SMGOST_BENCH_GCRYPT");
    static char list[1024], self[4096];
    const char *progs[MAX_GCRYPT_CHILDREN];
    char *tok, *save = NULL;
    size_t n = 0, p, i;
    ssize_t len;

#ifdef HAVE_GCRYPT
    /* this binary's libgcrypt runs unmasked in this process */
    if (match && (len = readlink("/proc/self/exe", self,
                                 sizeof(self) - 1)) > 0) {
        self[len] = '\0';
        progs[n++] = self;
    }
#endif
    (void)len;
    snprintf(list, sizeof(list), "%s", env != NULL ? env : "");
    for (tok = strtok_r(list, " ", &save); tok != NULL && n < MAX_GCRYPT_CHILDREN;
         tok = strtok_r(NULL, " ", &save))
        progs[n++] = tok;
    for (p = 0; p < n; p++) {
        if (progs[p] != self)
            start_gcrypt(progs[p], NULL);
        for (i = 0; match && i < N_LEVELS; i++)
            if (levels[i].gcrypt_hide != NULL
                && level_selected(levelsel, &levels[i]))
                start_gcrypt(progs[p], &levels[i]);
    }
}

/*
 * With match (-m), the default provider once more per chosen level that
 * hides something, in a child under that level's mask.
 */
void start_defaults(const char *levelsel, int match)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    size_t i;

    if (!match || len <= 0)
        return;
    self[len] = '\0';
    for (i = 0; i < N_LEVELS && nchildren < MAX_CHILDREN; i++) {
        struct child *c = &children[nchildren];
        char *sp;

        if (levels[i].value == NULL || !level_selected(levelsel, &levels[i]))
            continue;
        memset(c, 0, sizeof(*c));
        c->impl = I_OSSL;
        c->lv = &levels[i];
        if (!child_start(c, self))
            continue;
        sp = strrchr(c->kernels, ' ');
        if (sp == NULL || strlen(sp + 1) != N_ALGS) {
            child_stop(c);
            continue;
        }
        memcpy(c->has, sp + 1, N_ALGS + 1);
        snprintf(c->title, sizeof(c->title), "openssl %s", levels[i].name);
        nchildren++;
    }
}
