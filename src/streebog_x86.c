/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 Streebog kernels (asm/streebog-*-x86_64.pl): their
 * kernel tables (the capabilities each needs are its row in
 * src/streebog_x86.h).
 */
#include "streebog_x86.h"

#ifdef STREEBOG_X86_ASM

const STREEBOG_KERNEL streebog_kernel_gfni_avx512 = {
    "streebog-gfni-avx512", streebog_gfni_avx512_blocks,
    streebog_gfni_avx512_g
};

const STREEBOG_KERNEL streebog_kernel_gfni_avx2 = {
    "streebog-gfni-avx2", streebog_gfni_avx2_blocks, streebog_gfni_avx2_g
};

const STREEBOG_KERNEL streebog_kernel_avx2 = {
    "streebog-avx2", streebog_avx2_blocks, streebog_avx2_g
};

#endif
