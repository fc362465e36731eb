/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The families' lists of kernel tables (src/kernel_list.h) as the test
 * recipes read them, so that a table added to a list reaches the ISA check
 * (test/15-isa.t), the constant-time check (test/80-ct.t), the AEAD kernel
 * test (test/23-aead-kernels.t) and the manual's check (test/90-doc.t) with
 * no edit of theirs.  First a line saying whether the lists are whole, or
 * this build left tables out of them (no-asm, no-gost-simd: Configure):
 *
 *   build complete=0|1
 *
 * Then one line a table, in list order:
 *
 *   table FAMILY NAME isa=ISA ct=0|1 ct-only=0|1 schedule=S runs=0|1
 *         chosen=C
 *
 * NAME as the provider's kernel report gives it; ISA what the capabilities
 * the table needs let its code use on x86-64: avx512 (AVX-512F), avx2, avx
 * (any other x86-64 feature), or "-" (none: the portable table, or
 * aarch64's); S the core its schedule is tuned on, or "-"; runs: whether
 * this (masked) CPU has those capabilities; C the constant-time settings
 * with which the family's chooser takes it ("no", "yes", "no,yes" or "-").
 * Then, for each table, one line per entry point it holds:
 *
 *   entry NAME SLOT OFFSET
 *
 * SLOT the entry's member (src/kernel.h, src/sm3.h, src/streebog.h), named as
 * test/ct_check names its entries; OFFSET its address less main's, in hex,
 * so that `nm` of this program names the function (test/15-isa.t, the
 * tiers of the functions; test/80-ct.t, the function behind each path).
 *
 * Usage: kernels
 */
#include "testutil.h"

#include "cpu.h"
#include "kernel_list.h"
#include "sm3.h"
#include "streebog.h"
#include "sm4.h"

#define X86_CAPS                                                             \
    (SMG_CAP_SSSE3 | SMG_CAP_AESNI | SMG_CAP_PCLMUL | SMG_CAP_AVX            \
     | SMG_CAP_AVX2 | SMG_CAP_BMI1 | SMG_CAP_BMI2 | SMG_CAP_AVX512F          \
     | SMG_CAP_AVX512BW | SMG_CAP_AVX512VL | SMG_CAP_AVX512DQ                \
     | SMG_CAP_AVX512VBMI | SMG_CAP_GFNI | SMG_CAP_VAES                      \
     | SMG_CAP_VPCLMULQDQ | SMG_CAP_X86_SM3 | SMG_CAP_X86_SM4)

static const char *isa(uint32_t caps)
{
    if (caps & SMG_CAP_AVX512F)
        return "avx512";
    if (caps & SMG_CAP_AVX2)
        return "avx2";
    return (caps & X86_CAPS) != 0 ? "avx" : "-";
}

int main(void);

typedef void (*any_fn)(void);

static void entry(const char *name, const char *slot, any_fn fn)
{
    if (fn != NULL)
        printf("entry %s %s %lx\n", name, slot,
               (unsigned long)((uintptr_t)fn - (uintptr_t)main));
}

/* Every entry point of a block table and of its GCM, CCM and XTS tables. */
static void block_entries(const char *name, const SMG_BLOCK_KERNEL *k)
{
    const SMG_GCM_KERNEL *g = k->gcm;
    const SMG_CCM_KERNEL *c = k->ccm;
    const SMG_XTS_KERNEL *x = k->xts;

    entry(name, "ecb", (any_fn)k->ecb);
    entry(name, "cbc_enc", (any_fn)k->cbc_enc);
    entry(name, "cbc_dec", (any_fn)k->cbc_dec);
    entry(name, "cfb_enc", (any_fn)k->cfb_enc);
    entry(name, "cfb_dec", (any_fn)k->cfb_dec);
    entry(name, "ofb", (any_fn)k->ofb);
    entry(name, "ctr", (any_fn)k->ctr);
    entry(name, "cnt", (any_fn)k->cnt);
    entry(name, "ecb_lone", (any_fn)k->ecb_lone);
    if (g != NULL) {
        entry(name, "ghash_init", (any_fn)g->ghash_init);
        entry(name, "ghash", (any_fn)g->ghash);
        entry(name, "gcm_enc", (any_fn)g->enc);
        entry(name, "gcm_dec", (any_fn)g->dec);
    }
    if (c != NULL) {
        entry(name, "ccm_enc", (any_fn)c->enc);
        entry(name, "ccm_dec", (any_fn)c->dec);
    }
    if (x != NULL) {
        entry(name, "xts_enc_ieee", (any_fn)x->enc_ieee);
        entry(name, "xts_dec_ieee", (any_fn)x->dec_ieee);
        entry(name, "xts_enc_gb", (any_fn)x->enc_gb);
        entry(name, "xts_dec_gb", (any_fn)x->dec_gb);
    }
    if (g != NULL) {
        entry(name, "gcm_enc_j0", (any_fn)g->enc_j0);
        entry(name, "gcm_dec_j0", (any_fn)g->dec_j0);
    }
}

int main(void)
{
    int f;
    size_t i;

#if defined(SMG_NO_ASM) || defined(SMG_NO_GOST_SIMD)
    printf("build complete=0\n");
#else
    printf("build complete=1\n");
#endif
    for (f = 0; f < SMG_NFAMILIES; f++) {
        const SMG_KERNEL_FAMILY *fam = smg_kernel_families[f];
        const void *chosen[2] = {
            smg_kernel_choose(fam, 0), smg_kernel_choose(fam, 1)
        };

        for (i = 0; i < fam->nkernels; i++) {
            const SMG_KERNEL_ENTRY *e = &fam->kernels[i];
            char name[96];

            fam->describe(e->table, name, sizeof(name));
            printf("table %s %s isa=%s ct=%d ct-only=%d schedule=%s runs=%d "
                   "chosen=%s\n", fam->name, name, isa(e->caps),
                   (e->flags & SMG_KERNEL_CT) != 0,
                   (e->flags & SMG_KERNEL_CT_ONLY) != 0,
                   e->schedule != NULL ? e->schedule : "-",
                   smg_cpu_has(e->caps),
                   chosen[0] == e->table
                   ? (chosen[1] == e->table ? "no,yes" : "no")
                   : chosen[1] == e->table ? "yes" : "-");
            if (f == SMG_FAMILY_SM3) {
                entry(name, "blocks",
                      (any_fn)((const SM3_KERNEL *)e->table)->blocks);
            } else if (f == SMG_FAMILY_MGM) {
                const SMG_MGM_KERNEL *k = e->table;

                entry(name, "mac128", (any_fn)k->mac128);
                entry(name, "mac64", (any_fn)k->mac64);
            } else if (f == SMG_FAMILY_STREEBOG) {
                const STREEBOG_KERNEL *k = e->table;

                entry(name, "blocks", (any_fn)k->blocks);
                entry(name, "g", (any_fn)k->g);
            } else {
                block_entries(name, e->table);
            }
        }
    }
    return 0;
}
