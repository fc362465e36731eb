/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The family registry, the one chooser that walks a family's list of
 * kernel tables, and the kernel report built from the families' choices.
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "kernel_list.h"

const SMG_KERNEL_FAMILY *const smg_kernel_families[SMG_NFAMILIES] = {
    [SMG_FAMILY_SM4] = &sm4_kernel_family,
    [SMG_FAMILY_SM3] = &sm3_kernel_family,
    [SMG_FAMILY_GOST89] = &gost89_kernel_family,
    [SMG_FAMILY_KUZNYECHIK] = &kuznyechik_kernel_family,
    [SMG_FAMILY_STREEBOG] = &streebog_kernel_family,
    [SMG_FAMILY_MGM] = &mgm_kernel_family,
};

const void *smg_kernel_choose(const SMG_KERNEL_FAMILY *f, int constant_time)
{
    uint32_t caps = smg_cpu_caps();
    const char *schedule = f->schedule != NULL ? f->schedule() : NULL;
    size_t i;

    for (i = 0; i + 1 < f->nkernels; i++) {
        const SMG_KERNEL_ENTRY *e = &f->kernels[i];

        if ((caps & e->caps) != e->caps)
            continue;
        if (constant_time ? !(e->flags & SMG_KERNEL_CT)
                          : (e->flags & SMG_KERNEL_CT_ONLY) != 0)
            continue;
        if (e->schedule != NULL
            && (schedule == NULL || strcmp(e->schedule, schedule) != 0))
            continue;
        return e->table;
    }
    return f->kernels[f->nkernels - 1].table;
}

void smg_kernel_report(const void *const chosen[SMG_NFAMILIES], char *buf,
                       size_t len)
{
    size_t used = 0;
    int f;

    buf[0] = '\0';
    for (f = 0; f < SMG_NFAMILIES && used < len; f++) {
        char name[96];
        int n;

        smg_kernel_families[f]->describe(chosen[f], name, sizeof(name));
        n = snprintf(buf + used, len - used, "%s%s=%s", f > 0 ? " " : "",
                     smg_kernel_families[f]->name, name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}
