/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The lists of kernel tables and the registry of the families that own
 * them.  Each family (SM4, SM3, GOST 28147-89, Kuznyechik, Streebog) keeps
 * one list of every table this build has, x86-64's or aarch64's then the portable
 * one, with what a CPU must have to run each; its chooser, the provider's
 * kernel report (which make bench reads its columns from), the
 * constant-time check and the tests read that list, so that a new table is
 * one line in it.
 */
#ifndef SMGOST_KERNEL_LIST_H
#define SMGOST_KERNEL_LIST_H

#include <stddef.h>
#include <stdint.h>

/* Every entry of the table is constant-time (README, "Constant time"). */
#define SMG_KERNEL_CT 1u
/*
 * A "-ct" sibling: chosen only with "constant-time = yes", the table
 * before it (the same capabilities, faster table code in its serial modes)
 * otherwise.
 */
#define SMG_KERNEL_CT_ONLY 2u

typedef struct smg_kernel_entry {
    const void *table;         /* the family's table type */
    uint32_t caps;             /* SMG_CAP_* bits the CPU must all have */
    unsigned int flags;        /* SMG_KERNEL_* */
    /*
     * NULL: any CPU; else the core this table's schedule is tuned on
     * ("zen4", "zen5", "glc"), taken only where the family's schedule
     * answers that name.
     */
    const char *schedule;
} SMG_KERNEL_ENTRY;

typedef struct smg_kernel_family {
    const char *name;          /* the key of the provider's kernel report */
    /* Fastest first; the last is the portable table, which every CPU runs. */
    const SMG_KERNEL_ENTRY *kernels;
    size_t nkernels;
    /* The table's name in the report, into buf (at most len bytes). */
    void (*describe)(const void *table, char *buf, size_t len);
    /* The schedule this CPU takes (NULL function or result: no preference). */
    const char *(*schedule)(void);
} SMG_KERNEL_FAMILY;

/* The families, in the order of the provider's report. */
typedef enum {
    SMG_FAMILY_SM4, SMG_FAMILY_SM3, SMG_FAMILY_GOST89, SMG_FAMILY_KUZNYECHIK,
    SMG_FAMILY_STREEBOG, SMG_FAMILY_MGM,
    SMG_NFAMILIES
} smg_family;
extern const SMG_KERNEL_FAMILY *const smg_kernel_families[SMG_NFAMILIES];
extern const SMG_KERNEL_FAMILY sm4_kernel_family, sm3_kernel_family,
    gost89_kernel_family, kuznyechik_kernel_family, streebog_kernel_family,
    mgm_kernel_family;

/*
 * The first table of f's list that the (masked) CPU runs, that answers
 * constant_time (with it: SMG_KERNEL_CT; without: not SMG_KERNEL_CT_ONLY)
 * and whose schedule is the CPU's; the portable table if none does.
 */
const void *smg_kernel_choose(const SMG_KERNEL_FAMILY *f, int constant_time);

/*
 * "sm4=<table> sm3=<table> gost=<table> kuznyechik=<table> ...": each
 * family's name and that of its table in chosen (indexed by smg_family),
 * into buf.
 */
void smg_kernel_report(const void *const chosen[SMG_NFAMILIES], char *buf,
                       size_t len);

#endif
