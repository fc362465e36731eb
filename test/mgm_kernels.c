/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MGM's multiply-accumulate kernels (src/kernel.h's SMG_MGM_KERNEL): every
 * table of the family's list (src/kernel_list.h) that this level's CPU
 * capabilities run, both entries (GF(2^128) and GF(2^64)), against the
 * tests' product bit by bit (test/lib/mgm_ref.h; RFC 9058, 4.1: blocks as
 * big-endian integers, x^128 + x^7 + x^2 + x + 1 and
 * x^64 + x^4 + x^3 + x + 1).  Every
 * block count from 0 to MAXB (past two passes of the widest x86-64 loop,
 * 32 blocks of GF(2^64), with every tail length), each call split in two
 * at random onto a random running sum; H and the blocks random, with runs
 * of all-ones and all-zeros blocks where the carries are.  The kernels'
 * known answers through the provider are test/24-mgm.t's (RFC 9058,
 * appendix A).
 *
 * Usage: mgm_kernels [seed]; driven by test/26-mgm-kernels.t.
 */
#include "testutil.h"

#include "cpu.h"
#include "kernel_list.h"
#include "mgm_mac.h"
#include "mgm_ref.h"

#define MAXB 140

static void fill(TU_RNG *r, unsigned char *p, size_t len, size_t bs)
{
    size_t i;

    tu_rng_bytes(r, p, len);
    for (i = 0; i < len; i += bs)
        switch (tu_rng_below(r, 16)) {
        case 0:
            memset(p + i, 0xff, bs);
            break;
        case 1:
            memset(p + i, 0, bs);
            break;
        default:
            break;
        }
}

static void check_entry(TU_RNG *r, const char *name, smg_mgm_mac_fn mac,
                        size_t bs)
{
    static unsigned char h[MAXB * 16], x[MAXB * 16];
    unsigned char sum[16], want[16], p[16];
    size_t n, i, j, cut;

    for (n = 0; n <= MAXB; n++) {
        fill(r, h, n * bs, bs);
        fill(r, x, n * bs, bs);
        tu_rng_bytes(r, sum, bs);
        memcpy(want, sum, bs);
        for (i = 0; i < n; i++) {
            ref_mgm_mul(p, h + i * bs, x + i * bs, bs);
            for (j = 0; j < bs; j++)
                want[j] ^= p[j];
        }
        cut = tu_rng_upto(r, n + 1);
        mac(sum, h, x, cut);
        mac(sum, h + cut * bs, x + cut * bs, n - cut);
        if (!TU_CHECK(memcmp(sum, want, bs) == 0,
                      "%s GF(2^%zu): %zu blocks (split at %zu)", name,
                      bs * 8, n, cut))
            return;
    }
}

int main(int argc, char **argv)
{
    const SMG_KERNEL_FAMILY *f = &mgm_kernel_family;
    size_t i;
    TU_RNG r;

    tu_rng_seed(&r, tu_seed(argc > 1 ? argv[1] : NULL));
    printf("# kernels: %s\n",
           smg_mgm_kernel(0)->name);
    for (i = 0; i < f->nkernels; i++) {
        const SMG_MGM_KERNEL *k = f->kernels[i].table;

        if (!smg_cpu_has(f->kernels[i].caps))
            continue;
        check_entry(&r, k->name, k->mac128, 16);
        check_entry(&r, k->name, k->mac64, 8);
        printf("# checked %s\n", k->name);
    }
    return tu_report("mgm kernels");
}
