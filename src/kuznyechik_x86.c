/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 Kuznyechik kernels (asm/kuznyechik-*-x86_64.pl):
 * their kernel tables (src/kuznyechik.c lists them with the CPU
 * capabilities each needs) and the choice of their key schedule.
 */
#include <stddef.h>

#include "kuznyechik_x86.h"

#ifdef KUZNYECHIK_X86_ASM

/* The assembly reads the round keys at 0, 16 bytes apart, and the
 * direction of ECB at 160 (util/ct-asm-check.pl knows it public). */
_Static_assert(offsetof(KUZNYECHIK_KEY, rk) == 0
               && offsetof(KUZNYECHIK_KEY, decrypt) == 160,
               "KUZNYECHIK_KEY layout");

const SMG_BLOCK_KERNEL kuznyechik_kernel_gfni_avx512 = {
    "kuznyechik-gfni-avx512",
    kuznyechik_gfni_avx512_ecb,
    kuznyechik_gfni_avx512_cbc_enc,
    kuznyechik_gfni_avx512_cbc_dec,
    kuznyechik_gfni_avx512_cfb_enc,
    kuznyechik_gfni_avx512_cfb_dec,
    kuznyechik_gfni_avx512_ofb,
    kuznyechik_gfni_avx512_ctr,
    NULL, NULL, NULL, NULL, NULL
};

const SMG_BLOCK_KERNEL kuznyechik_kernel_gfni_avx2 = {
    "kuznyechik-gfni-avx2",
    kuznyechik_gfni_avx2_ecb,
    kuznyechik_gfni_avx2_cbc_enc,
    kuznyechik_gfni_avx2_cbc_dec,
    kuznyechik_gfni_avx2_cfb_enc,
    kuznyechik_gfni_avx2_cfb_dec,
    kuznyechik_gfni_avx2_ofb,
    kuznyechik_gfni_avx2_ctr,
    NULL, NULL, NULL, NULL, NULL
};

const SMG_BLOCK_KERNEL kuznyechik_kernel_avx2 = {
    "kuznyechik-avx2",
    kuznyechik_avx2_ecb,
    kuznyechik_avx2_cbc_enc,
    kuznyechik_avx2_cbc_dec,
    kuznyechik_avx2_cfb_enc,
    kuznyechik_avx2_cfb_dec,
    kuznyechik_avx2_ofb,
    kuznyechik_avx2_ctr,
    NULL, NULL, NULL, NULL, NULL
};

/*
 * The GFNI tiers' schedule runs on the GFNI one-block core (the AVX-512
 * tier's CPUs have AVX2, which its VEX form needs), the AVX2 tier's on its
 * own: the Feistel's 32 rounds take about as long as 3 blocks of the
 * serial modes, against some 10 us in the constant-time C.
 */
int kuznyechik_x86_schedule(const SMG_BLOCK_KERNEL *k,
                            const unsigned char key[32],
                            unsigned char rk[10][16])
{
    if (k == &kuznyechik_kernel_gfni_avx512
        || k == &kuznyechik_kernel_gfni_avx2)
        kuznyechik_gfni_avx2_schedule(key, rk);
    else if (k == &kuznyechik_kernel_avx2)
        kuznyechik_avx2_schedule(key, rk);
    else
        return 0;
    return 1;
}

#endif
