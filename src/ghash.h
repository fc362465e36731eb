/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The portable, constant-time GHASH (src/ghash.c): the ghash_init and ghash
 * entries of kernel.h's SMG_AEAD_KERNEL for tables without a GHASH of their
 * own.
 */
#ifndef SMGOST_GHASH_H
#define SMGOST_GHASH_H

#include "kernel.h"

void smg_ghash_c_init(void *htable, const unsigned char h[16]);
void smg_ghash_c(const void *htable, unsigned char xi[16],
                 const unsigned char *in, size_t nblocks);

#endif
