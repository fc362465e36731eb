/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The contract between the mode layers (src/modes.c, and the AEAD layer of
 * src/aead.h) and the block-cipher kernels (portable C in src/, generated
 * assembly from asm/).  Each entry is there for a mode and documented by
 * what that mode needs of it; a table leaves NULL what its cipher does not
 * offer.
 *
 * A kernel only ever transforms whole blocks.  Everything else (partial
 * blocks, padding, IV bookkeeping, key meshing boundaries) belongs to the
 * mode layer.  Each algorithm family offers one SMG_BLOCK_KERNEL table per
 * implementation; the family's kernel chooser (sm4_kernel(), gost89_kernel())
 * picks one from the CPU capabilities at key setup.
 *
 * Conventions for every entry point:
 *  - ks is the family's key schedule (SM4_KEY, GOST89_KEY); the encryption or
 *    decryption schedule is passed as the direction requires, so "ecb" both
 *    encrypts and decrypts.
 *  - in and out may be equal (in place) or not overlap at all; no alignment
 *    is assumed.
 *  - nblocks may be 0.
 *  - a chaining value (iv / ctr) is a full block, read at entry and written
 *    back at exit so that the next call continues the stream.
 */
#ifndef SMGOST_KERNEL_H
#define SMGOST_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#define SMG_MAX_BLOCK 16

/* out[i] = E(in[i]) or D(in[i]) depending on the schedule given. */
typedef void (*smg_ecb_fn)(const void *ks, const unsigned char *in,
                           unsigned char *out, size_t nblocks);
/*
 * Chained modes: CBC encrypt/decrypt, CFB encrypt/decrypt (full-block
 * feedback), OFB.  iv holds the chaining block in and out.
 * CTR: out[i] = in[i] ^ E(ctr), then ctr += 1 as one big-endian integer of
 * the whole block width (wrapping), as OpenSSL's SM4-CTR and Magma CTR do.
 * CNT (GOST 28147-89's counter mode, 8-byte blocks): ctr holds the running
 * (N3,N4) words, little-endian; each block steps N3 += C2 mod 2^32,
 * N4 += C1 mod (2^32 - 1), then out[i] = in[i] ^ E(N3||N4).
 */
typedef void (*smg_chain_fn)(const void *ks, const unsigned char *in,
                             unsigned char *out, size_t nblocks,
                             unsigned char *iv);

typedef struct smg_block_kernel {
    const char *name;          /* reported in the provider's "kernels" param */
    smg_ecb_fn ecb;
    smg_chain_fn cbc_enc;      /* ks: encryption schedule */
    smg_chain_fn cbc_dec;      /* ks: decryption schedule */
    smg_chain_fn cfb_enc;      /* ks: encryption schedule */
    smg_chain_fn cfb_dec;      /* ks: encryption schedule */
    smg_chain_fn ofb;          /* ks: encryption schedule */
    smg_chain_fn ctr;          /* ks: encryption schedule */
    smg_chain_fn cnt;          /* CNT (above): ks: encryption schedule;
                                  NULL where the cipher has no CNT */
    /*
     * The AEAD layer's kernels, a table per mode (below; 16-byte blocks),
     * so that a mode's kernels change without the other modes' tables.
     * gcm: NULL where the cipher has no GCM (a GCM table has its GHASH at
     * least); ccm, xts: NULL where the mode composes from the entries
     * above.
     */
    const struct smg_gcm_kernel *gcm;
    const struct smg_ccm_kernel *ccm;
    const struct smg_xts_kernel *xts;
    /*
     * ECB of a lone block or a few, where their latency is the whole cost
     * (XTS's tweak, a data unit of a few blocks), for tables whose ecb
     * takes longer there than another kernel's; NULL: ecb.
     */
    smg_ecb_fn ecb_lone;
} SMG_BLOCK_KERNEL;

/*
 * The AEAD layer's kernel tables, one per mode: GCM, CCM and XTS
 * (src/aead_gcm.c, aead_ccm.c, aead_xts.c), which are 16-byte-block modes
 * as NIST and IEEE define them, each read by its mode's file only.  The
 * mode layer owns IVs, nonces, AAD, lengths, tags, ciphertext stealing and
 * partial blocks; these entries see whole blocks only, as the others do.
 *
 * GHASH (NIST SP 800-38D, its bit order): for each 16-byte block,
 * xi = (xi ^ in[i]) * H.  htable holds what ghash_init derives from
 * H = E_K(0^128), in a layout private to the table's kernels; it is
 * SMG_GHASH_TABLE_SIZE bytes, 64-byte aligned, and secret (cleansed with the
 * key schedule).
 */
#define SMG_GHASH_TABLE_SIZE 512

typedef void (*smg_ghash_init_fn)(void *htable, const unsigned char h[16]);
typedef void (*smg_ghash_fn)(const void *htable, unsigned char xi[16],
                             const unsigned char *in, size_t nblocks);
/*
 * GCM bulk, CTR fused with GHASH: out[i] = in[i] ^ E(ctr), then the last
 * four bytes of ctr += 1 as a big-endian integer mod 2^32 (the first twelve
 * never change), and xi absorbs each ciphertext block (out[i] on encrypt,
 * in[i] on decrypt).  ks is the encryption schedule; ctr and xi are written
 * back.
 */
typedef void (*smg_gcm_fn)(const void *ks, const void *htable,
                           const unsigned char *in, unsigned char *out,
                           size_t nblocks, unsigned char ctr[16],
                           unsigned char xi[16]);
/*
 * A message's first GCM call, with E(J0) in it: ctr holds J0 at entry;
 * ek0 = E(J0), ctr += 1 as above, then the call is smg_gcm_fn's, so that
 * the tag's mask rides in the data's pass instead of a one-block call of
 * its own (nblocks may be 0 here too).
 */
typedef void (*smg_gcm_j0_fn)(const void *ks, const void *htable,
                              const unsigned char *in, unsigned char *out,
                              size_t nblocks, unsigned char ctr[16],
                              unsigned char xi[16], unsigned char ek0[16]);

typedef struct smg_gcm_kernel {
    /* its GHASH's, reported beside the block kernel's name */
    const char *name;
    smg_ghash_init_fn ghash_init;
    smg_ghash_fn ghash;
    /* NULL: composed by the mode layer from ghash and the block table's
     * ctr (smg_gcm_composed, src/aead.h). */
    smg_gcm_fn enc, dec;
    /* NULL: E(J0) by the block table's ecb, then enc / dec (or their
     * composition). */
    smg_gcm_j0_fn enc_j0, dec_j0;
} SMG_GCM_KERNEL;

/*
 * CCM bulk, CBC-MAC fused with CTR (RFC 3610, NIST SP 800-38C).  mac holds
 * the MAC's next input, the chain value XORed with the last block taken in,
 * whose encryption is still to come; each block takes one E(mac) beside
 * one E(ctr): out[i] = in[i] ^ E(ctr), mac = E(mac) ^ p[i], where p is in
 * (encrypt) or out (decrypt).  After each block the last eight bytes of
 * ctr += 1 as a big-endian integer (the mode layer keeps the count inside
 * CCM's L-byte counter).  ks is the encryption schedule.
 */
typedef void (*smg_ccm_fn)(const void *ks, const unsigned char *in,
                           unsigned char *out, size_t nblocks,
                           unsigned char ctr[16], unsigned char mac[16]);

/* A table without it leaves CCM to smg_ccm_composed (src/aead.h), over the
 * block table's ecb, cbc_enc and ctr. */
typedef struct smg_ccm_kernel {
    smg_ccm_fn enc, dec;
} SMG_CCM_KERNEL;

/*
 * XTS bulk: out[i] = C(in[i] ^ T) ^ T with C the cipher under ks (the
 * encryption schedule to encrypt, the decryption one to decrypt), then T is
 * multiplied by x: IEEE 1619 in its little-endian bit order (reduction
 * 0x87), GB/T 17964-2021 in the reflected bit order OpenSSL 3.5 uses for
 * xts_standard=GB.  tweak holds T in and out.
 */
typedef void (*smg_xts_fn)(const void *ks, const unsigned char *in,
                           unsigned char *out, size_t nblocks,
                           unsigned char tweak[16]);

/* A table without it leaves XTS to smg_xts_composed (src/aead.h), over the
 * block table's ecb. */
typedef struct smg_xts_kernel {
    smg_xts_fn enc_ieee, dec_ieee, enc_gb, dec_gb;
} SMG_XTS_KERNEL;

/*
 * MGM's multiply-accumulate (RFC 9058, src/aead_mgm.c): for nblocks pairs
 * of blocks, sum ^= XOR over i of H_i (x) X_i, h and x holding the H_i and
 * the X_i one after the other.  Blocks and sum are big-endian integers, a
 * polynomial's coefficient of x^j at the integer's bit j (not GCM's
 * reflected order); mac128 multiplies in GF(2^128) mod
 * x^128 + x^7 + x^2 + x + 1 (16-byte blocks and sum, Kuznyechik), mac64 in
 * GF(2^64) mod x^64 + x^4 + x^3 + x + 1 (8-byte ones, Magma).  Every H_i
 * differs, so there is no table of powers: a kernel sums the unreduced
 * products of a batch and reduces once.  The H_i are secret (the mode
 * layer cleanses them); every kernel is constant-time.  The family's list
 * (src/mgm_mac.c) holds one table per instruction set, chosen by the CPU
 * alone: the product does not depend on the block cipher's kernel.
 */
typedef void (*smg_mgm_mac_fn)(unsigned char *sum, const unsigned char *h,
                               const unsigned char *x, size_t nblocks);

typedef struct smg_mgm_kernel {
    const char *name;          /* reported in the provider's "kernels" */
    smg_mgm_mac_fn mac128, mac64;
} SMG_MGM_KERNEL;

/*
 * Defines prefix_entry, a chained-mode entry that hands its calls to the
 * same entry of the table "from" (a table's initialiser cannot name another
 * table's member): for the entries a kernel leaves to the portable one.
 */
#define SMG_CHAIN_FROM(prefix, entry, from)                                  \
    static void prefix##_##entry(const void *ks, const unsigned char *in,   \
                                 unsigned char *out, size_t n,              \
                                 unsigned char *iv)                         \
    {                                                                       \
        (from).entry(ks, in, out, n, iv);                                   \
    }

/* The same for an ECB entry. */
#define SMG_ECB_FROM(prefix, entry, from)                                    \
    static void prefix##_##entry(const void *ks, const unsigned char *in,   \
                                 unsigned char *out, size_t n)              \
    {                                                                       \
        (from).entry(ks, in, out, n);                                       \
    }

/*
 * The serial modes (CBC and CFB encryption, OFB) over a constant-time ECB
 * entry, one block a call, for the tables whose own serial entries are
 * faster table code: with "constant-time = yes" in the provider's
 * configuration the chooser gives such a table's sibling, whose serial
 * entries are these.  They are constant-time when ecb is: the chaining is
 * whole-block XORs and copies, and the blocks they hold are cleansed.
 * bs is the block size (16 or 8).
 */
typedef enum {
    SMG_SERIAL_CBC_ENC, SMG_SERIAL_CFB_ENC, SMG_SERIAL_OFB
} smg_serial_mode;

void smg_serial_by_ecb(smg_serial_mode mode, smg_ecb_fn ecb, size_t bs,
                       const void *ks, const unsigned char *in,
                       unsigned char *out, size_t nblocks, unsigned char *iv);

/* Defines prefix_cbc_enc, prefix_cfb_enc and prefix_ofb over ecb. */
#define SMG_SERIAL_BY_ECB_ONE(prefix, entry, mode, ecb, bs)                  \
    static void prefix##_##entry(const void *ks, const unsigned char *in,   \
                                 unsigned char *out, size_t n,              \
                                 unsigned char *iv)                         \
    {                                                                       \
        smg_serial_by_ecb(mode, ecb, bs, ks, in, out, n, iv);               \
    }
#define SMG_SERIAL_BY_ECB(prefix, ecb, bs)                                   \
    SMG_SERIAL_BY_ECB_ONE(prefix, cbc_enc, SMG_SERIAL_CBC_ENC, ecb, bs)      \
    SMG_SERIAL_BY_ECB_ONE(prefix, cfb_enc, SMG_SERIAL_CFB_ENC, ecb, bs)      \
    SMG_SERIAL_BY_ECB_ONE(prefix, ofb, SMG_SERIAL_OFB, ecb, bs)

#endif
