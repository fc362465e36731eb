/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Byte order: 32- and 64-bit words from and to bytes, big- and
 * little-endian, whatever the host's.  Written byte by byte, which gcc and
 * clang turn into one load or store (with a byte swap where needed).
 */
#ifndef SMGOST_BYTEORDER_H
#define SMGOST_BYTEORDER_H

#include <stdint.h>

static inline uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16
        | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static inline uint64_t load_be64(const unsigned char *p)
{
    return (uint64_t)p[7] | (uint64_t)p[6] << 8 | (uint64_t)p[5] << 16
        | (uint64_t)p[4] << 24 | (uint64_t)p[3] << 32 | (uint64_t)p[2] << 40
        | (uint64_t)p[1] << 48 | (uint64_t)p[0] << 56;
}

static inline void store_be64(unsigned char *p, uint64_t v)
{
    store_be32(p, (uint32_t)(v >> 32));
    store_be32(p + 4, (uint32_t)v);
}

static inline uint64_t load_le64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
        | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40
        | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void store_le64(unsigned char *p, uint64_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
    p[4] = (unsigned char)(v >> 32);
    p[5] = (unsigned char)(v >> 40);
    p[6] = (unsigned char)(v >> 48);
    p[7] = (unsigned char)(v >> 56);
}

#endif
