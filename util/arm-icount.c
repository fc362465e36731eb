/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload for util/arm-icount.pl: runs one kernel entry of this build on
 * a buffer of the given size, nothing else, so that the difference of the
 * instruction counts of two sizes (counted by qemu-user's execution log) is
 * the kernel's cost per byte.
 *
 *   arm-icount sm4 KERNEL MODE BYTES    KERNEL: sm4-c sm4e sm4-neon
 *                                      MODE: ecb ctr cbc_enc cbc_dec
 *                                            cfb_enc cfb_dec ofb
 *   arm-icount sm3 KERNEL BYTES        KERNEL: sm3-c sm3-ce
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm3.h"
#include "sm3_arm.h"
#include "sm4.h"
#include "sm4_arm.h"

static const SMG_BLOCK_KERNEL *sm4_by_name(const char *name)
{
    static const SMG_BLOCK_KERNEL *const all[] = {
        &sm4_kernel_c,
#ifdef SM4_ARM_ASM
        &sm4_kernel_sm4e, &sm4_kernel_neon,
#endif
    };
    size_t i;

    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

static const SM3_KERNEL *sm3_by_name(const char *name)
{
    static const SM3_KERNEL *const all[] = {
        &sm3_kernel_c,
#ifdef SM3_ARM_ASM
        &sm3_kernel_ce,
#endif
    };
    size_t i;

    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

static int run_sm4(const char *kname, const char *mode, size_t len)
{
    const SMG_BLOCK_KERNEL *k = sm4_by_name(kname);
    static const unsigned char key[16] = "0123456789abcdef";
    unsigned char iv[16] = { 0 }, *buf;
    SM4_KEY enc, dec;
    smg_chain_fn f = NULL;

    if (k == NULL)
        return 2;
    sm4_set_key(key, &enc, &dec);
    if ((buf = calloc(1, len + 16)) == NULL)
        return 1;
    if (strcmp(mode, "ecb") == 0)
        k->ecb(&enc, buf, buf, len / 16);
    else if (strcmp(mode, "ctr") == 0)
        f = k->ctr;
    else if (strcmp(mode, "cbc_enc") == 0)
        f = k->cbc_enc;
    else if (strcmp(mode, "cbc_dec") == 0)
        f = k->cbc_dec;
    else if (strcmp(mode, "cfb_enc") == 0)
        f = k->cfb_enc;
    else if (strcmp(mode, "cfb_dec") == 0)
        f = k->cfb_dec;
    else if (strcmp(mode, "ofb") == 0)
        f = k->ofb;
    else
        return 2;
    if (f != NULL)
        f(strcmp(mode, "cbc_dec") == 0 ? &dec : &enc, buf, buf, len / 16, iv);
    printf("%02x\n", buf[0]);
    free(buf);
    return 0;
}

static int run_sm3(const char *kname, size_t len)
{
    const SM3_KERNEL *k = sm3_by_name(kname);
    uint32_t state[8] = { 0 };
    unsigned char *buf;

    if (k == NULL)
        return 2;
    if ((buf = calloc(1, len + 64)) == NULL)
        return 1;
    k->blocks(state, buf, len / 64);
    printf("%08x\n", (unsigned int)state[0]);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "sm4") == 0)
        return run_sm4(argv[2], argv[3], strtoul(argv[4], NULL, 0));
    if (argc == 4 && strcmp(argv[1], "sm3") == 0)
        return run_sm3(argv[2], strtoul(argv[3], NULL, 0));
    fprintf(stderr, "usage: %s sm4 KERNEL MODE BYTES | sm3 KERNEL BYTES\n",
            argv[0]);
    return 2;
}
