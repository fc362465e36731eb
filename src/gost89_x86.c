/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C side of the x86-64 GOST 28147-89 / Magma kernels: the scalar
 * serial-mode kernel (asm/gost89-serial-x86_64.pl: CBC and CFB encryption,
 * OFB, IMIT) and the vector kernels (asm/gost89-x86_64.pl), the builders of
 * their tables and the kernel tables (src/gost89.c lists them with the
 * capabilities each needs).
 */
#include "gost89_x86.h"

#ifdef GOST89_X86_ASM

#include <stddef.h>
#include "cpu.h"

/* The assembly hard-codes these offsets. */
_Static_assert(offsetof(GOST89_KEY, rk) == 0, "GOST89_KEY.rk offset");
_Static_assert(offsetof(GOST89_KEY, tab) == 128, "GOST89_KEY.tab offset");
_Static_assert(offsetof(GOST89_KEY, big_endian) == 136,
               "GOST89_KEY.big_endian offset");
_Static_assert(offsetof(GOST89_SBOX_TABLES, t) == 0, "GOST89_SBOX_TABLES.t offset");
_Static_assert(offsetof(GOST89_SBOX_TABLES, simd) == 4096,
               "GOST89_SBOX_TABLES.simd offset");
_Static_assert(sizeof(((GOST89_SBOX_TABLES *)0)->simd) >= 320,
               "GOST89_SBOX_TABLES.simd size");
_Static_assert(offsetof(GOST89_SBOX_TABLES, t0x) == 4416,
               "GOST89_SBOX_TABLES.t0x offset");

void gost89_scalar_tables_build(GOST89_SBOX_TABLES *t)
{
    unsigned int i;

    for (i = 0; i < 512; i++)
        t->t0x[i] = t->t[0][i & 255];
}

/*
 * IMIT is serial: one block's 16 rounds wait for the one before.  The
 * scalar table kernel's rounds are the fastest, so they are the default;
 * the lean vector rounds are constant-time.
 */
int gost89_imit_blocks_x86(int constant_time, const GOST89_KEY *enc,
                         unsigned char state[8], const unsigned char *in,
                         size_t nblocks)
{
#ifdef GOST89_X86_SIMD
    if (constant_time || !smg_cpu_has(SMG_CAP_BMI1)) {
        /* as src/gost89.c's list takes the lean rounds' tables */
        if (smg_cpu_has(GOST89_CAPS_AVX512)) {
            gost89_avx512_imit(enc, state, in, nblocks);
            return 1;
        }
        if (smg_cpu_has(SMG_CAP_AVX2)) {
            gost89_avx2_imit(enc, state, in, nblocks);
            return 1;
        }
    }
#endif
    if (!smg_cpu_has(SMG_CAP_BMI1) || constant_time)
        return 0;
    gost89_scalar_imit(enc, state, in, nblocks);
    return 1;
}

/* The parallel modes of the scalar kernel are the C kernel's. */
static void gost89_x86_ecb(const void *ks, const unsigned char *in,
                         unsigned char *out, size_t n)
{
    gost89_kernel_c.ecb(ks, in, out, n);
}

SMG_CHAIN_FROM(gost89_x86, cbc_dec, gost89_kernel_c)
SMG_CHAIN_FROM(gost89_x86, cfb_dec, gost89_kernel_c)
SMG_CHAIN_FROM(gost89_x86, ctr, gost89_kernel_c)
SMG_CHAIN_FROM(gost89_x86, cnt, gost89_kernel_c)

const SMG_BLOCK_KERNEL gost89_kernel_scalar = {
    "gost89-scalar-bmi1",
    gost89_x86_ecb,
    gost89_scalar_cbc_enc,
    gost89_x86_cbc_dec,
    gost89_scalar_cfb_enc,
    gost89_x86_cfb_dec,
    gost89_scalar_ofb,
    gost89_x86_ctr,
    gost89_x86_cnt,
    NULL, NULL, NULL, NULL
};

#ifdef GOST89_X86_SIMD

/*
 * simd layout (S[i] is the S-box of nibble i, i = 0 least significant):
 *   [  0.. 63] VPERMB table of the low nibbles: [16j + x] = S[2j](x)
 *   [ 64..127] VPERMB table of the high nibbles: [16j + x] = S[2j+1](x) << 4
 *   [128..319] VPSHUFB tables, 48 bytes per byte position j:
 *              [128 + 48j +      x] = S[2j](x) << 3
 *              [128 + 48j + 16 + x] = (S[2j+1](x) << 7) & 0xff
 *              [128 + 48j + 32 + x] = S[2j+1](x) >> 1
 * where j is the byte position within the 32-bit half-block.  The AVX-512
 * kernel builds each VPERMB index as nibble | j << 4; the AVX2 kernel
 * splits rol(S(x), 11) per byte so that the rotation needs no shift (see
 * the .pl).
 */
void gost89_x86_simd_tables_build(GOST89_SBOX_TABLES *t,
                                  const GOST89_PARAMSET *ps)
{
    unsigned int j, x;

    for (j = 0; j < 4; j++) {
        for (x = 0; x < 16; x++) {
            t->simd[16 * j + x] = ps->sbox[2 * j][x];
            t->simd[64 + 16 * j + x] = (unsigned char)(ps->sbox[2 * j + 1][x] << 4);
            t->simd[128 + 48 * j + x] = (unsigned char)(ps->sbox[2 * j][x] << 3);
            t->simd[144 + 48 * j + x] = (unsigned char)(ps->sbox[2 * j + 1][x] << 7);
            t->simd[160 + 48 * j + x] = ps->sbox[2 * j + 1][x] >> 1;
        }
    }
}

/*
 * Every parallel mode runs in the vector kernel at every block count (each
 * has a lean path for short calls), so no secret reaches a table index.
 * The serial modes take the scalar kernel by default: a lone block through
 * its table rounds is about 1.2 times as fast as through the lean vector
 * rounds (measured at 16 KiB: 26.2 against 30.8 TSC cycles a byte).  The
 * "-ct" sibling ("constant-time = yes", or a CPU without BMI1) runs them
 * through the lean rounds, constant-time.
 */
const SMG_BLOCK_KERNEL gost89_kernel_avx512 = {
    "gost89-avx512vbmi",
    gost89_avx512_ecb,
    gost89_scalar_cbc_enc,
    gost89_avx512_cbc_dec,
    gost89_scalar_cfb_enc,
    gost89_avx512_cfb_dec,
    gost89_scalar_ofb,
    gost89_avx512_ctr,
    gost89_avx512_cnt,
    NULL, NULL, NULL, NULL
};

const SMG_BLOCK_KERNEL gost89_kernel_avx512_ct = {
    "gost89-avx512vbmi-ct",
    gost89_avx512_ecb,
    gost89_avx512_cbc_enc,
    gost89_avx512_cbc_dec,
    gost89_avx512_cfb_enc,
    gost89_avx512_cfb_dec,
    gost89_avx512_ofb,
    gost89_avx512_ctr,
    gost89_avx512_cnt,
    NULL, NULL, NULL, NULL
};

const SMG_BLOCK_KERNEL gost89_kernel_avx2 = {
    "gost89-avx2",
    gost89_avx2_ecb,
    gost89_scalar_cbc_enc,
    gost89_avx2_cbc_dec,
    gost89_scalar_cfb_enc,
    gost89_avx2_cfb_dec,
    gost89_scalar_ofb,
    gost89_avx2_ctr,
    gost89_avx2_cnt,
    NULL, NULL, NULL, NULL
};

/* "constant-time = yes": the serial modes through the AVX2 ECB. */
SMG_SERIAL_BY_ECB(gost89_avx2_ct, gost89_avx2_ecb, 8)

const SMG_BLOCK_KERNEL gost89_kernel_avx2_ct = {
    "gost89-avx2-ct",
    gost89_avx2_ecb,
    gost89_avx2_ct_cbc_enc,
    gost89_avx2_cbc_dec,
    gost89_avx2_ct_cfb_enc,
    gost89_avx2_cfb_dec,
    gost89_avx2_ct_ofb,
    gost89_avx2_ctr,
    gost89_avx2_cnt,
    NULL, NULL, NULL, NULL
};

void gost89_avx512_cnt_side(const void *ks, const unsigned char *in,
                            unsigned char *out, size_t nblocks,
                            unsigned char *iv, GOST89_SIDE *side);
void gost89_avx512_cfb_dec_side(const void *ks, const unsigned char *in,
                                unsigned char *out, size_t nblocks,
                                unsigned char *iv, GOST89_SIDE *side);

_Static_assert(offsetof(GOST89_SIDE, enc) == 0 && offsetof(GOST89_SIDE, dec) == 8
               && offsetof(GOST89_SIDE, in) == 16
               && offsetof(GOST89_SIDE, out) == 56, "GOST89_SIDE layout");

#endif /* GOST89_X86_SIMD */

const SMG_BLOCK_KERNEL *gost89_mesh_kernel_x86(const SMG_BLOCK_KERNEL *k)
{
#ifdef GOST89_X86_SIMD
    if (k == &gost89_kernel_avx2)
        return &gost89_kernel_c;
#endif
    return k;
}

int gost89_side_able_x86(const SMG_BLOCK_KERNEL *k)
{
#ifdef GOST89_X86_SIMD
    return k == &gost89_kernel_avx512 || k == &gost89_kernel_avx512_ct;
#else
    (void)k;
    return 0;
#endif
}

void gost89_side_x86(const SMG_BLOCK_KERNEL *k, int cnt, const GOST89_KEY *ks,
                   const unsigned char *in, unsigned char *out, size_t nblocks,
                   unsigned char *iv, GOST89_SIDE *side)
{
    (void)k;    /* gost89_side_able_x86(k): the AVX-512 tables */
#ifdef GOST89_X86_SIMD
    if (cnt)
        gost89_avx512_cnt_side(ks, in, out, nblocks, iv, side);
    else
        gost89_avx512_cfb_dec_side(ks, in, out, nblocks, iv, side);
#else
    (void)cnt, (void)ks, (void)in, (void)out, (void)nblocks, (void)iv;
    (void)side;
#endif
}

#endif /* GOST89_X86_ASM */
