/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness: smgost's GOST 28147-89 and Magma ciphers (gost89,
 * gost89-cnt, gost89-cnt-12, gost89-cbc, gost89-ecb, magma-ecb, magma-cbc,
 * magma-ctr, magma-ofb, magma-cfb, magma-ctr-acpkm), Kuznyechik ciphers
 * (kuznyechik-ecb, -cbc, -cfb, -ofb, -ctr, -ctr-acpkm) and MACs (gost-mac,
 * gost-mac-12, magma-mac, kuznyechik-mac, magma-ctr-acpkm-omac,
 * kuznyechik-ctr-acpkm-omac) against gost-engine's gostprov.  The fuzzer
 * picks the algorithm, direction, key, IV (of 1 to 4 blocks where GOST R
 * 34.13-2015's register takes them: Magma's and Kuznyechik's OFB, CBC and
 * CFB), the parameter set and how it is given (`paramset` by any spelling,
 * perhaps mangled, or `alg_id_param`, perhaps mangled, in the init call or
 * after it), key meshing (ACPKM: the section `key-mesh` in the init call
 * or after it; OMAC-ACPKM: N and T), padding, one odd parameter (num,
 * keylen, ivlen, key-mesh, padding, MAC size, key length, any value), the
 * message and how smgost is fed it: update pieces (or EVP_Cipher calls
 * where those mean the same), in place or not, a context copy finished
 * alongside, a stretch of other data and a re-init first.
 *
 * smgost must first keep its contract: refuse exactly the parameters it
 * documents as wrong (unknown sets, non-canonical or unknown encodings,
 * num outside a stream block or other than 0 in CFB, keylen/ivlen other
 * than fixed or 1 to 4 blocks, key meshing on ECB/CBC, ACPKM sections not
 * a non-zero multiple of the block, MAC sizes outside 1..block, keys not
 * 32 bytes).  Then its result must equal gostprov's byte for byte, or both
 * must fail.  gostprov is run only the way it is right (gost-engine 3.0.1
 * crashes on parameters in the init call, a re-init keeps its stream
 * position or resets key-mesh, and its CTR-ACPKM keystream is wrong after
 * a one-call init): fresh context, cipher first, key and IV in a second
 * init call, its parameters after it, every message in one piece.  Where
 * gostprov has no counterpart smgost is its own reference: GOST
 * 28147-89's and Magma's ECB is rebuilt from gostprov's CBC one block at a
 * time; magma-ofb, magma-cfb and IVs of more than one block (gostprov
 * takes one) are compared with smgost's own plain run on a fresh context,
 * and so are a GOST MAC under a set gostprov's two MACs do not use,
 * magma-ctr-acpkm-omac, and OMAC-ACPKM with the default T or one that is
 * not a multiple of key and block (gostprov applies T from the key
 * material after the first such stretch).  A cipher's updated-iv after
 * final must equal the reference's too (but where gostprov's
 * kuznyechik-cfb lags a block behind: a message of whole blocks).  A num
 * inside the block changes the stream in a way gostprov cannot mirror,
 * and an ivlen other than the one in force clears the IV: those cases run
 * unchecked, under the sanitizers only.
 *
 * Input: algorithm, four flag bytes, key (32), IV (8; Kuznyechik 16; the
 * further blocks of a longer IV are derived from it), further choices
 * (see pick_case), and the rest is the message stream (fuzz.h).
 */
#include "fuzz.h"

#include <ctype.h>
#include <strings.h>
#include <openssl/core_names.h>

static OSSL_LIB_CTX *ours_lc, *ref_lc;

enum kind { CFB, CNT, CBC, ECB, CTR, MAC, OFB };

static const struct {
    const char *name;
    enum kind kind;
    int magma;                  /* no parameter sets, no meshing (Magma,
                                   Kuznyechik) */
    int default_set;            /* index in sets[] */
    const char *ref;            /* gostprov's algorithm (GOST's ECB: its
                                   CBC); NULL: none, smgost's own one-shot
                                   run is the reference */
    size_t bs;                  /* block size */
    int acpkm;                  /* ACPKM: key-mesh the section (CTR-ACPKM,
                                   OMAC-ACPKM's N, with T) */
    int omac;                   /* an OMAC MAC (size 1..bs, no set) */
} algs[] = {
    { "gost89", CFB, 0, 5, "gost89", 8, 0, 0 },
    { "gost89-cnt", CNT, 0, 1, "gost89-cnt", 8, 0, 0 },
    { "gost89-cnt-12", CNT, 0, 5, "gost89-cnt-12", 8, 0, 0 },
    { "gost89-cbc", CBC, 0, 5, "gost89-cbc", 8, 0, 0 },
    { "gost89-ecb", ECB, 0, 5, "gost89-cbc", 8, 0, 0 },
    { "magma-ecb", ECB, 1, 5, "magma-cbc", 8, 0, 0 },
    { "magma-cbc", CBC, 1, 5, "magma-cbc", 8, 0, 0 },
    { "magma-ctr", CTR, 1, 5, "magma-ctr", 8, 0, 0 },
    { "gost-mac", MAC, 0, 1, "gost-mac", 8, 0, 0 },
    { "gost-mac-12", MAC, 0, 5, "gost-mac-12", 8, 0, 0 },
    { "kuznyechik-ecb", ECB, 1, 5, "kuznyechik-ecb", 16, 0, 0 },
    { "kuznyechik-cbc", CBC, 1, 5, "kuznyechik-cbc", 16, 0, 0 },
    { "kuznyechik-cfb", CFB, 1, 5, "kuznyechik-cfb", 16, 0, 0 },
    { "kuznyechik-ofb", OFB, 1, 5, "kuznyechik-ofb", 16, 0, 0 },
    { "kuznyechik-ctr", CTR, 1, 5, "kuznyechik-ctr", 16, 0, 0 },
    /* GOST R 34.13-2015's Magma modes gostprov lacks, and the ACPKM and
     * OMAC algorithms (R 1323565.1.017-2018) */
    { "magma-ofb", OFB, 1, 5, NULL, 8, 0, 0 },
    { "magma-cfb", CFB, 1, 5, NULL, 8, 0, 0 },
    { "magma-ctr-acpkm", CTR, 1, 5, "magma-ctr-acpkm", 8, 1, 0 },
    { "kuznyechik-ctr-acpkm", CTR, 1, 5, "kuznyechik-ctr-acpkm", 16, 1, 0 },
    { "magma-mac", MAC, 1, 5, "magma-mac", 8, 0, 1 },
    { "kuznyechik-mac", MAC, 1, 5, "kuznyechik-mac", 16, 0, 1 },
    { "magma-ctr-acpkm-omac", MAC, 1, 5, NULL, 8, 1, 1 },
    { "kuznyechik-ctr-acpkm-omac", MAC, 1, 5, "kuznyechik-ctr-acpkm-omac", 16,
      1, 1 },
};

/* GOST R 34.13-2015's register of z blocks: OFB, CBC, CFB of Magma and
 * Kuznyechik take an IV of 1 to 4 blocks. */
#define MAX_Z 4
static int takes_z(size_t a)
{
    return algs[a].magma && (algs[a].kind == CBC || algs[a].kind == CFB
                             || algs[a].kind == OFB);
}

/* RFC 4357 section 11.2 and RFC 7836: names, OIDs, DER bodies. */
static const struct {
    const char *name, *short_name, *oid;
    unsigned char der[9];
    size_t derlen;
} sets[] = {
    { "id-Gost28147-89-TestParamSet", "Test", "1.2.643.2.2.31.0",
      { 0x2a, 0x85, 0x03, 0x02, 0x02, 0x1f, 0x00 }, 7 },
    { "id-Gost28147-89-CryptoPro-A-ParamSet", "CryptoPro-A",
      "1.2.643.2.2.31.1", { 0x2a, 0x85, 0x03, 0x02, 0x02, 0x1f, 0x01 }, 7 },
    { "id-Gost28147-89-CryptoPro-B-ParamSet", "CryptoPro-B",
      "1.2.643.2.2.31.2", { 0x2a, 0x85, 0x03, 0x02, 0x02, 0x1f, 0x02 }, 7 },
    { "id-Gost28147-89-CryptoPro-C-ParamSet", "CryptoPro-C",
      "1.2.643.2.2.31.3", { 0x2a, 0x85, 0x03, 0x02, 0x02, 0x1f, 0x03 }, 7 },
    { "id-Gost28147-89-CryptoPro-D-ParamSet", "CryptoPro-D",
      "1.2.643.2.2.31.4", { 0x2a, 0x85, 0x03, 0x02, 0x02, 0x1f, 0x04 }, 7 },
    { "id-tc26-gost-28147-param-Z", "Z", "1.2.643.7.1.2.5.1.1",
      { 0x2a, 0x85, 0x03, 0x07, 0x01, 0x02, 0x05, 0x01, 0x01 }, 9 },
};
#define NSETS FZ_NELEM(sets)
/* algs[] rows of gostprov's two MACs */
#define MAC_A 8
#define MAC_Z 9
#define SET_A 1
#define SET_Z 5

static EVP_CIPHER *ours_ciph[FZ_NELEM(algs)], *ref_ciph[FZ_NELEM(algs)];
static EVP_MAC *ours_mac[FZ_NELEM(algs)], *ref_mac[FZ_NELEM(algs)];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t i;

    (void)argc, (void)argv;
    ours_lc = fz_smgost_libctx();
    /*
     * gostprov's OMAC MACs fetch their cipher from the default library
     * context, whatever context they run in (a gostprov defect): the
     * reference is that context.  (A second load of gostprov, into
     * another context, leaks what its engine registers.)
     */
    ref_lc = fz_ref_load(NULL, 1);
    for (i = 0; i < FZ_NELEM(algs); i++) {
        int ok;

        /* gostprov's algorithms carry no provider= property. */
        if (algs[i].kind == MAC) {
            ours_mac[i] = EVP_MAC_fetch(ours_lc, algs[i].name, FZ_PROPQ);
            if (algs[i].ref != NULL)
                ref_mac[i] = EVP_MAC_fetch(ref_lc, algs[i].ref, NULL);
            ok = ours_mac[i] != NULL
                 && (algs[i].ref == NULL || ref_mac[i] != NULL);
        } else {
            ours_ciph[i] = EVP_CIPHER_fetch(ours_lc, algs[i].name, FZ_PROPQ);
            if (algs[i].ref != NULL)
                ref_ciph[i] = EVP_CIPHER_fetch(ref_lc, algs[i].ref, NULL);
            ok = ours_ciph[i] != NULL
                 && (algs[i].ref == NULL || ref_ciph[i] != NULL);
        }
        if (!ok) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "fuzz: cannot fetch %s\n", algs[i].name);
            exit(1);
        }
    }
    return 0;
}

/* ------------------------------------------------------------ the case */

#define MAX_DATA 0x3000
#define MAX_CHUNKS 32
#define DER_MAX 64

enum way { WAY_NONE, WAY_NAME_INIT, WAY_NAME_AFTER, WAY_DER_INIT,
           WAY_DER_AFTER };
enum odd { ODD_NONE, ODD_NUM, ODD_KEYLEN, ODD_IVLEN, ODD_KEYMESH,
           ODD_PADDING, ODD_MACSIZE, ODD_MACKEY, NODDS };

typedef struct {
    size_t a;                   /* algs[] */
    enum kind kind;
    int enc, pad, roundtrip;
    unsigned char key[32], iv[16 * MAX_Z], prelude_iv[16 * MAX_Z];
    size_t z;                   /* IV blocks (takes_z) */
    enum way way;
    int set;                    /* the set meant, -1: none given */
    char setname[48];           /* WAY_NAME_*: as given, maybe mangled */
    unsigned char der[DER_MAX]; /* WAY_DER_*: as given, maybe mangled */
    size_t derlen;
    int mesh_given;             /* key-mesh in the set's phase (ACPKM: in
                                   the init call unless mesh_after) */
    size_t mesh;
    int mesh_after;
    size_t tmesh;               /* OMAC-ACPKM: cipher-key-mesh T, with N */
    enum odd odd;
    unsigned long odd_val;
    size_t macsize;
    int size_at_init, key_as_param, set_before_init;
    /* how smgost is fed */
    size_t len, chunks[MAX_CHUNKS], nchunks;
    int inplace;
    int oneshot;                /* EVP_Cipher calls where they apply */
    size_t copy_at;             /* copy before this piece; > nchunks: none */
    int prelude, prelude_same_iv, reinit_key;
    size_t prelude_len;
} CASE;

static int oneshot_applies(const CASE *c);

static void describe(const CASE *c)
{
    static const char *const ways[] = {
        "none", "paramset in init", "paramset after init",
        "alg_id_param in init", "alg_id_param after init"
    };
    static const char *const odds[NODDS] = {
        "none", "num", "keylen", "ivlen", "key-mesh", "padding", "size",
        "key length"
    };
    size_t i;

    fprintf(stderr, "  %s %s, length %zu, padding %d, set way: %s",
            algs[c->a].name, c->kind == MAC ? "MAC" : c->enc ? "encrypt"
                                                              : "decrypt",
            c->len, c->pad, ways[c->way]);
    if (c->way == WAY_NAME_INIT || c->way == WAY_NAME_AFTER)
        fprintf(stderr, " \"%s\"", c->setname);
    fprintf(stderr, "\n  key-mesh %s %zu, odd parameter %s %#lx, MAC size "
            "%zu, %s, %s, copy before piece %zu, round trip %d\n",
            c->mesh_given ? "given" : "not given", c->mesh, odds[c->odd],
            c->odd_val, c->macsize, c->inplace ? "in place" : "out of place",
            oneshot_applies(c) ? "EVP_Cipher" : "EVP_CipherUpdate",
            c->copy_at, c->roundtrip);
    if (c->prelude)
        fprintf(stderr, "  %zu bytes first, then a re-init with %s and %s\n",
                c->prelude_len, c->reinit_key ? "the key" : "no key",
                c->prelude_same_iv ? "no IV" : "the IV");
    fprintf(stderr, "  pieces:");
    for (i = 0; i < c->nchunks; i++)
        fprintf(stderr, " %zu", c->chunks[i]);
    fputc('\n', stderr);
    if (c->mesh_given)
        fprintf(stderr, "  key-mesh %zu%s, cipher-key-mesh %zu\n", c->mesh,
                c->mesh_after ? " after init" : "", c->tmesh);
    fz_hexdump("key", c->key, 32);
    fz_hexdump("iv", c->iv, algs[c->a].bs * c->z);
    if (c->way == WAY_DER_INIT || c->way == WAY_DER_AFTER)
        fz_hexdump("alg_id_param", c->der, c->derlen);
}

static size_t ivlen_of(const CASE *c)
{
    if (c->kind == ECB || c->kind == MAC)
        return 0;
    /* CTR: half a block (GOST R 34.13-2015), else z blocks */
    return c->kind == CTR ? algs[c->a].bs / 2 : algs[c->a].bs * c->z;
}

/* RFC 4357 10.1 Gost28147-89-Parameters, DER, short form. */
static size_t alg_id(int set, const unsigned char iv[8],
                     unsigned char out[DER_MAX])
{
    out[0] = 0x30;
    out[1] = (unsigned char)(12 + sets[set].derlen);
    out[2] = 0x04;
    out[3] = 0x08;
    memcpy(out + 4, iv, 8);
    out[12] = 0x06;
    out[13] = (unsigned char)sets[set].derlen;
    memcpy(out + 14, sets[set].der, sets[set].derlen);
    return 14 + sets[set].derlen;
}

/* The set a `paramset` string names, as smgost's contract reads it
 * (names ignoring ASCII case, OIDs exactly); -1 if none. */
static int set_of_name(const char *s)
{
    size_t i;

    for (i = 0; i < NSETS; i++)
        if (strcasecmp(s, sets[i].name) == 0
            || strcasecmp(s, sets[i].short_name) == 0
            || strcmp(s, sets[i].oid) == 0)
            return (int)i;
    return strcasecmp(s, "TC26-Z") == 0 ? SET_Z : -1;
}

/* The set a canonical encoding names; -1 if it is not one. */
static int set_of_der(const unsigned char *der, size_t len)
{
    unsigned char want[DER_MAX];
    size_t i;

    for (i = 0; i < NSETS; i++)
        if (len >= 12 && alg_id((int)i, der + 4, want) == len
            && memcmp(want, der, len) == 0)
            return (int)i;
    return -1;
}

/* A spelling of set s, now and then mangled by the fuzzer. */
static void pick_name(FZ_IN *in, CASE *c, int s)
{
    unsigned how = fz_u8(in), at = fz_u8(in), ch = fz_u8(in);
    const char *base = how % 4 == 0 ? sets[s].name
                       : how % 4 == 1 ? sets[s].short_name
                       : how % 4 == 2 ? sets[s].oid : "TC26-Z";
    size_t n = strlen(base);

    memcpy(c->setname, base, n + 1);
    switch ((how >> 2) % 6) {
    case 0:                     /* as is */
        break;
    case 1:                     /* one character changed */
        if (ch == 0)
            ch = 'x';
        c->setname[at % n] = (char)ch;
        break;
    case 2:                     /* cut short */
        c->setname[at % n] = '\0';
        break;
    case 3:                     /* one more character */
        c->setname[n] = (char)(ch != 0 ? ch : ' ');
        c->setname[n + 1] = '\0';
        break;
    default:                    /* another case */
        c->setname[at % n] = (char)(islower((unsigned char)base[at % n])
                                    ? toupper((unsigned char)base[at % n])
                                    : tolower((unsigned char)base[at % n]));
        break;
    }
}

/* The encoding of set s with IV iv, now and then mangled. */
static void pick_der(FZ_IN *in, CASE *c, int s, const unsigned char *iv)
{
    unsigned how = fz_u8(in), at = fz_u8(in), ch = fz_u8(in);

    c->derlen = alg_id(s, iv, c->der);
    switch (how % 8) {
    case 0:
    case 1:
    case 2:
        break;
    case 3:                     /* a byte changed */
        c->der[at % c->derlen] ^= (unsigned char)(ch != 0 ? ch : 1);
        break;
    case 4:                     /* cut short */
        c->derlen = at % c->derlen;
        break;
    case 5:                     /* trailing bytes */
        c->der[c->derlen++] = (unsigned char)ch;
        break;
    case 6:                     /* long-form length of the SEQUENCE */
        memmove(c->der + 3, c->der + 2, c->derlen - 2);
        c->der[2] = c->der[1];
        c->der[1] = 0x81;
        c->derlen++;
        break;
    default:                    /* an unknown set's OID: last arc bumped */
        c->der[c->derlen - 1] = (unsigned char)(c->der[c->derlen - 1]
                                                + 1 + at % 16);
        break;
    }
}

static void pick_case(FZ_IN *in, CASE *c)
{
    unsigned f1, f2, f3, f4;
    size_t i, left;

    memset(c, 0, sizeof(*c));
    c->a = fz_u8(in) % FZ_NELEM(algs);
    c->kind = algs[c->a].kind;
    f1 = fz_u8(in);
    f2 = fz_u8(in);
    f3 = fz_u8(in);
    f4 = fz_u8(in);
    fz_bytes(in, c->key, 32);
    fz_bytes(in, c->iv, 8);
    if (algs[c->a].bs == 16)
        fz_bytes(in, c->iv + 8, 8);
    /* An IV of z blocks: the further ones from the first. */
    c->z = takes_z(c->a) ? 1 + (f3 >> 4) % MAX_Z : 1;
    for (i = algs[c->a].bs; i < algs[c->a].bs * c->z; i++)
        c->iv[i] = (unsigned char)(c->iv[i % algs[c->a].bs]
                                   ^ (0x5b * (i / algs[c->a].bs)));
    for (i = 0; i < sizeof(c->iv); i++)
        c->prelude_iv[i] = (unsigned char)~c->iv[i];
    c->enc = c->kind == MAC || (f1 & 1);
    c->roundtrip = !c->enc && (f1 & 2);
    c->pad = (c->kind != CBC && c->kind != ECB) || !(f1 & 4);
    c->inplace = (f1 >> 3) & 1;
    c->prelude = (f1 >> 4) & 1;
    c->prelude_same_iv = (f1 >> 5) & 1;
    c->reinit_key = (f1 >> 6) & 1;
    c->prelude_len = (f1 & 0x80) ? fz_u16(in) % 3000 : fz_u8(in) % 40;
    /* Magma takes no set: smgost ignores one, gostprov is not told. */
    c->set = -1;
    c->way = WAY_NONE;
    if (!algs[c->a].magma && f2 % 7 < NSETS) {
        c->set = (int)(f2 % 7);
        c->way = (enum way)(1 + (f2 >> 3) % (c->kind == MAC ? 2 : 4));
        if (c->way == WAY_NAME_INIT || c->way == WAY_NAME_AFTER)
            pick_name(in, c, c->set);
        else
            pick_der(in, c, c->set, c->prelude && !c->prelude_same_iv
                                    ? c->prelude_iv : c->iv);
    }
    c->mesh_given = (c->kind == CFB || c->kind == CNT) && !algs[c->a].magma
                    && (f2 & 0x40);
    if (algs[c->a].acpkm) {
        /* Sections of 1 to 48 blocks, or now and then a raw value; T a
         * multiple of key and block (the standard's, and gostprov's),
         * or of the block alone. */
        size_t bs = algs[c->a].bs;

        c->mesh_given = (f2 & 0x40) != 0;
        c->mesh_after = (f2 & 0x80) != 0;
        if (c->mesh_given) {
            unsigned n = fz_u8(in), t = fz_u8(in);

            c->mesh = n & 0x80 ? (n & 0x7f) : bs * (1 + n % 48);
            c->tmesh = t & 0x80 ? bs * (1 + t % 64) : (32 + bs) * (1 + t % 4);
        }
    } else {
        c->mesh = (f2 & 0x80) ? fz_u8(in) : 0;
    }
    c->odd = (enum odd)(f3 % 16 < NODDS ? f3 % 16 : ODD_NONE);
    c->odd_val = fz_u8(in);
    if (f3 & 0x80)
        c->odd_val = c->odd_val << 24 | 0xffffff;
    c->macsize = algs[c->a].bs == 16 ? 2 * (1 + f4 % 8) : 1 + f4 % 8;
    c->size_at_init = (f4 >> 3) & 1;
    c->key_as_param = (f4 >> 4) & 1;
    c->set_before_init = (f4 >> 5) & 1;
    c->oneshot = (f4 >> 6) & 1;
    c->len = fz_len(in);
    if (c->len > MAX_DATA)
        c->len = MAX_DATA;
    c->nchunks = fz_u8(in) % MAX_CHUNKS;
    for (i = 0, left = c->len; i + 1 < c->nchunks && left > 0; i++) {
        size_t n = fz_len(in);

        c->chunks[i] = n < left ? n : left;
        left -= c->chunks[i];
    }
    c->chunks[i] = left;
    c->nchunks = i + 1;
    c->copy_at = fz_u8(in);
}

/* -------------------------------------------------------------- results */

typedef struct {
    int ok;
    unsigned char out[MAX_DATA + 16];
    size_t outl;
    unsigned char iv[16 * MAX_Z]; /* updated-iv after final */
    size_t ivlen;               /* 0: none to compare */
} RESULT;

/*
 * updated-iv after final: the register depends on the message only, not
 * on how it was fed, so gostprov's one piece is the reference.
 */
static void take_iv(EVP_CIPHER_CTX *ctx, RESULT *r)
{
    OSSL_PARAM p[2];

    p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV,
                                             r->iv, sizeof(r->iv));
    p[1] = OSSL_PARAM_construct_end();
    r->ivlen = EVP_CIPHER_CTX_get_params(ctx, p) && OSSL_PARAM_modified(p)
               ? p[0].return_size : 0;
}

/* What smgost's contract says the case must do with its parameters. */
typedef struct {
    int refuse;                 /* some parameter must be refused */
    int unchecked;              /* taken, but no reference to compare */
    int set;                    /* the set in force */
    unsigned char iv[16 * MAX_Z]; /* the IV of the message */
    int pad;                    /* padding in force */
    int mesh_given;             /* gostprov gets key-mesh ... */
    size_t mesh;                /* ... of this value (CFB/CNT) */
} EXPECT;

static void expect(const CASE *c, EXPECT *e)
{
    int given = -1;

    memset(e, 0, sizeof(*e));
    e->set = algs[c->a].default_set;
    e->pad = c->pad;
    memcpy(e->iv, c->iv, sizeof(e->iv));
    if (c->way == WAY_NAME_INIT || c->way == WAY_NAME_AFTER) {
        given = set_of_name(c->setname);
        e->refuse |= given < 0;
    } else if (c->way == WAY_DER_INIT || c->way == WAY_DER_AFTER) {
        given = set_of_der(c->der, c->derlen);
        e->refuse |= given < 0;
        /* The encoding's IV is the message's, unless a re-init gives one. */
        if (given >= 0 && !(c->prelude && !c->prelude_same_iv))
            memcpy(e->iv, c->der + 4, 8);
    }
    if (given >= 0)
        e->set = given;
    e->mesh_given = c->mesh_given;
    e->mesh = c->mesh;
    /* ACPKM: N and T non-zero multiples of the block */
    if (algs[c->a].acpkm && c->mesh_given)
        e->refuse |= c->mesh == 0 || c->mesh % algs[c->a].bs != 0
                     || (c->kind == MAC && c->tmesh % algs[c->a].bs != 0);
    switch (c->odd) {
    case ODD_NUM:
        if (c->kind == MAC)
            break;
        /* CFB's register holds whole blocks: no num can resume one. */
        if (c->odd_val >= algs[c->a].bs || (c->odd_val != 0
                                && (c->kind == ECB || c->kind == CBC
                                    || c->kind == CFB)))
            e->refuse = 1;
        else if (c->odd_val != 0)
            e->unchecked = 1;
        break;
    case ODD_KEYLEN:
        e->refuse |= c->kind != MAC && c->odd_val != 32;
        break;
    case ODD_IVLEN:
        if (c->kind == MAC)
            break;
        if (!algs[c->a].magma) {
            e->refuse |= c->odd_val != ivlen_of(c);
            break;
        }
        /*
         * Magma and Kuznyechik: the algorithm's IV length, or z blocks
         * where takes_z; another length than the one in force clears the
         * IV, so that the message fails: unchecked.
         */
        if (c->odd_val == ivlen_of(c))
            break;
        if (takes_z(c->a) && c->odd_val % algs[c->a].bs == 0
            && c->odd_val / algs[c->a].bs >= 1
            && c->odd_val / algs[c->a].bs <= MAX_Z)
            e->unchecked = 1;
        else
            e->refuse = 1;
        break;
    case ODD_KEYMESH:
        if (c->kind == MAC)     /* a cipher parameter */
            break;
        if (algs[c->a].acpkm) {
            /* the section, set last */
            if (c->odd_val == 0 || c->odd_val % algs[c->a].bs != 0) {
                e->refuse = 1;
            } else {
                e->mesh_given = 1;
                e->mesh = c->odd_val;
            }
            break;
        }
        /* Magma has no meshing parameter: smgost ignores it. */
        if (algs[c->a].magma)
            break;
        e->refuse |= (c->kind == ECB || c->kind == CBC) && c->odd_val != 0;
        /* set last, it wins over the one given with the set */
        if (c->kind == CFB || c->kind == CNT) {
            e->mesh_given = 1;
            e->mesh = c->odd_val;
        }
        break;
    case ODD_PADDING:
        /*
         * A re-init through EVP turns padding off again if
         * EVP_CIPHER_CTX_set_padding() last turned it off (EVP keeps that
         * flag; the raw parameter does not change it).
         */
        if ((c->kind == ECB || c->kind == CBC) && !(c->prelude && !c->pad))
            e->pad = c->odd_val != 0;
        break;
    case ODD_MACSIZE:
        e->refuse |= c->kind == MAC && (c->odd_val < 1
                                        || c->odd_val > algs[c->a].bs);
        break;
    case ODD_MACKEY:
        e->refuse |= c->kind == MAC && c->odd_val % 64 != 32;
        break;
    default:
        break;
    }
}

/* The odd parameter, as set after the init. */
static int set_odd(const CASE *c, EVP_CIPHER_CTX *ctx)
{
    OSSL_PARAM p[2];
    unsigned u = (unsigned)c->odd_val;
    size_t z = c->odd_val;

    switch (c->odd) {
    case ODD_NUM:
        p[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &u);
        break;
    case ODD_KEYLEN:
        p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &z);
        break;
    case ODD_IVLEN:
        p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &z);
        break;
    case ODD_KEYMESH:
        p[0] = OSSL_PARAM_construct_size_t("key-mesh", &z);
        break;
    case ODD_PADDING:
        p[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &u);
        break;
    default:
        return 1;
    }
    p[1] = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* The parameters of one phase (the init call, or right after it): the set
 * as the case says, and key-mesh in the set's phase (an alg_id_param
 * after it would switch meshing back on). */
static void phase_params(const CASE *c, int at_init, OSSL_PARAM p[3],
                         size_t *mesh)
{
    size_t n = 0;
    int set_now = c->way == WAY_NONE ? at_init
                  : (c->way == WAY_NAME_INIT || c->way == WAY_DER_INIT)
                    == at_init;

    if (set_now && (c->way == WAY_NAME_INIT || c->way == WAY_NAME_AFTER))
        p[n++] = OSSL_PARAM_construct_utf8_string("paramset",
                                                  (char *)c->setname, 0);
    if (set_now && (c->way == WAY_DER_INIT || c->way == WAY_DER_AFTER))
        p[n++] = OSSL_PARAM_construct_octet_string(
            "alg_id_param", (void *)c->der, c->derlen);
    if ((algs[c->a].acpkm ? at_init != c->mesh_after : set_now)
        && c->mesh_given) {
        *mesh = c->mesh;
        p[n++] = OSSL_PARAM_construct_size_t("key-mesh", mesh);
    }
    p[n] = OSSL_PARAM_construct_end();
}

/* One piece through EVP_CipherUpdate, or the one-shot EVP_Cipher. */
static int feed(EVP_CIPHER_CTX *ctx, int oneshot, unsigned char *out,
                size_t *done, const unsigned char *in, size_t n)
{
    int l;

    if (oneshot) {
        if ((l = EVP_Cipher(ctx, out + *done, in, (unsigned)n)) < 0)
            return 0;
    } else if (!EVP_CipherUpdate(ctx, out + *done, &l, in, (int)n)) {
        return 0;
    }
    *done += (size_t)l;
    return 1;
}

/*
 * EVP_Cipher gives the same result as updates in the stream modes, and in
 * ECB/CBC without padding for whole blocks.
 */
static int oneshot_applies(const CASE *c)
{
    size_t i;

    if (!c->oneshot)
        return 0;
    if (c->kind != ECB && c->kind != CBC)
        return 1;
    if (c->pad || (c->odd == ODD_PADDING && c->odd_val != 0))
        return 0;
    for (i = 0; i < c->nchunks; i++)
        if (c->chunks[i] % algs[c->a].bs != 0)
            return 0;
    return 1;
}

/*
 * An IV of z > 1 blocks: a first init names the cipher, then its length
 * is set, before the init that gives the IV (README).  Returns whether
 * the next init must pass the cipher.
 */
static int init_z(EVP_CIPHER_CTX *ctx, const CASE *c, int enc, int *ok)
{
    size_t ivlen = algs[c->a].bs * c->z;
    OSSL_PARAM p[2];

    *ok = 1;
    if (c->z <= 1)
        return 1;
    p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen);
    p[1] = OSSL_PARAM_construct_end();
    *ok = EVP_CipherInit_ex2(ctx, ours_ciph[c->a], NULL, NULL, enc, NULL)
          && EVP_CIPHER_CTX_set_params(ctx, p);
    return 0;
}

/*
 * smgost, fed as the case says.  *refused tells whether a parameter step
 * failed (as against the data steps); copy gets the copy's result.
 */
static void ours_cipher(const CASE *c, const unsigned char *in, RESULT *r,
                        RESULT *copy_r, int *param_refused,
                        FZ_MSG *junk_src)
{
    static unsigned char junk[3000 + 16], junk_out[3000 + 16];
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *copy = NULL;
    OSSL_PARAM init_p[3], after_p[3];
    size_t i, rd = 0, jdone = 0, m0, m1;
    int l, oneshot = oneshot_applies(c), zok, named;

    r->ok = 0;
    r->outl = 0;
    r->ivlen = 0;
    copy_r->ok = 0;
    copy_r->outl = 0;
    copy_r->ivlen = 0;
    *param_refused = 0;
    phase_params(c, 1, init_p, &m0);
    phase_params(c, 0, after_p, &m1);
    if (ctx == NULL)
        fz_fail("out of memory");
    named = init_z(ctx, c, c->enc, &zok);
    if (!zok
        || !EVP_CipherInit_ex2(ctx, named ? ours_ciph[c->a] : NULL, c->key,
                            c->prelude && !c->prelude_same_iv
                            ? c->prelude_iv : c->iv, c->enc, init_p)
        || !EVP_CIPHER_CTX_set_params(ctx, after_p)
        || !EVP_CIPHER_CTX_set_padding(ctx, c->pad)
        || !set_odd(c, ctx)) {
        *param_refused = 1;
        goto end;
    }
    if (c->prelude) {
        fz_msg_take(junk_src, junk, c->prelude_len);
        if (!feed(ctx, 0, junk_out, &jdone, junk, c->prelude_len)
            || !EVP_CipherInit_ex2(ctx, NULL, c->reinit_key ? c->key : NULL,
                                   c->prelude_same_iv ? NULL : c->iv,
                                   c->enc, NULL))
            goto end;
    }
    if (c->inplace)
        memcpy(r->out, in, c->len);
    for (i = 0; i <= c->nchunks; i++) {
        if (i == c->copy_at) {
            if ((copy = EVP_CIPHER_CTX_new()) == NULL
                || !EVP_CIPHER_CTX_copy(copy, ctx))
                fz_fail("EVP_CIPHER_CTX_copy failed on smgost's context");
            memcpy(copy_r->out, r->out, r->outl);
            copy_r->outl = r->outl;
        }
        if (i == c->nchunks)
            break;
        if (!feed(ctx, oneshot, r->out, &r->outl,
                  c->inplace ? r->out + rd : in + rd, c->chunks[i]))
            goto end;
        if (copy != NULL
            && !feed(copy, oneshot, copy_r->out, &copy_r->outl, in + rd,
                     c->chunks[i]))
            goto end;
        rd += c->chunks[i];
    }
    if (!EVP_CipherFinal_ex(ctx, r->out + r->outl, &l))
        goto end;
    r->outl += (size_t)l;
    r->ok = 1;
    take_iv(ctx, r);
    if (copy != NULL) {
        if (!EVP_CipherFinal_ex(copy, copy_r->out + copy_r->outl, &l))
            fz_fail("the copy failed where the original succeeded");
        copy_r->outl += (size_t)l;
        copy_r->ok = 1;
        take_iv(copy, copy_r);
    }
 end:
    EVP_CIPHER_CTX_free(copy);
    EVP_CIPHER_CTX_free(ctx);
    ERR_clear_error();
}

/* gostprov, the way it is right: fresh context, parameters after the
 * init (the set as a canonical alg_id_param with the message's IV). */
static int ref_ctx(const CASE *c, const EXPECT *e, int enc,
                   const unsigned char *iv, EVP_CIPHER_CTX **out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char der[DER_MAX];
    OSSL_PARAM p[2];
    size_t mesh = e->mesh;
    /* gostprov's ACPKM keystream is wrong after a one-call init (3.0.1) */
    int ok = ctx != NULL
             && EVP_CipherInit_ex2(ctx, ref_ciph[c->a], NULL, NULL, enc, NULL)
             && EVP_CipherInit_ex2(ctx, NULL, c->key, iv, enc, NULL);

    if (ok && !algs[c->a].magma && e->set != algs[c->a].default_set) {
        p[0] = OSSL_PARAM_construct_octet_string("alg_id_param", der,
                                                 alg_id(e->set, iv, der));
        p[1] = OSSL_PARAM_construct_end();
        ok = EVP_CIPHER_CTX_set_params(ctx, p);
    }
    if (ok && e->mesh_given) {
        p[0] = OSSL_PARAM_construct_size_t("key-mesh", &mesh);
        p[1] = OSSL_PARAM_construct_end();
        ok = EVP_CIPHER_CTX_set_params(ctx, p);
    }
    if (!ok) {
        ERR_print_errors_fp(stderr);
        describe(c);
        fz_fail("gostprov refused a context set up the way it is right");
    }
    *out = ctx;
    return 1;
}

static void ref_stream(const CASE *c, const EXPECT *e, int enc,
                       const unsigned char *in, size_t len, RESULT *r)
{
    EVP_CIPHER_CTX *ctx;
    int l1 = 0, l2 = 0;

    ref_ctx(c, e, enc, e->iv, &ctx);
    r->ok = EVP_CIPHER_CTX_set_padding(ctx, e->pad)
            && EVP_CipherUpdate(ctx, r->out, &l1, in, (int)len)
            && EVP_CipherFinal_ex(ctx, r->out + l1, &l2);
    r->outl = r->ok ? (size_t)l1 + (size_t)l2 : 0;
    r->ivlen = 0;
    if (r->ok)
        take_iv(ctx, r);
    EVP_CIPHER_CTX_free(ctx);
    ERR_clear_error();
}

/*
 * ECB from gostprov's CBC under a zero IV: encrypting P_i ^ C_{i-1} one
 * block at a time gives E(P_i); one decryption of the whole input gives
 * D(C_i) ^ C_{i-1}.  PKCS#7 as smgost (and OpenSSL) apply it.
 */
static void ref_ecb(const CASE *c, const EXPECT *e, int enc,
                    const unsigned char *in, size_t len, RESULT *r)
{
    static unsigned char buf[MAX_DATA + 16];
    static const unsigned char zero[8];
    EVP_CIPHER_CTX *ctx;
    size_t n = len, i, j;
    int l = 0, ok = 1;

    r->ok = 0;
    r->outl = 0;
    r->ivlen = 0;               /* ECB has no IV */
    if (enc && !e->pad && len % 8 != 0)
        return;
    if (!enc && (len % 8 != 0 || (e->pad && len == 0)))
        return;
    memcpy(buf, in, len);
    if (enc && e->pad) {
        memset(buf + len, (int)(8 - len % 8), 8 - len % 8);
        n = len + 8 - len % 8;
    }
    ref_ctx(c, e, enc, zero, &ctx);
    ok = EVP_CIPHER_CTX_set_padding(ctx, 0);
    if (enc) {
        for (i = 0; ok && i < n; i += 8) {
            for (j = 0; j < 8 && i > 0; j++)
                buf[i + j] ^= r->out[i - 8 + j];
            ok = EVP_CipherUpdate(ctx, r->out + i, &l, buf + i, 8) && l == 8;
        }
    } else {
        ok = EVP_CipherUpdate(ctx, r->out, &l, buf, (int)n)
             && (size_t)l == n;
        for (i = 8; ok && i < n; i++)
            r->out[i] ^= in[i - 8];
    }
    EVP_CIPHER_CTX_free(ctx);
    ERR_clear_error();
    if (!ok)
        fz_fail("gostprov's CBC failed on whole blocks with padding off");
    if (!enc && e->pad) {
        unsigned p = r->out[n - 1];

        if (p < 1 || p > 8)
            return;
        for (i = n - p; i < n; i++)
            if (r->out[i] != p)
                return;
        n -= p;
    }
    r->outl = n;
    r->ok = 1;
}

/* Whether gostprov is the reference: it has the algorithm and takes the
 * IV (one block only). */
static int by_gostprov(const CASE *c)
{
    return algs[c->a].ref != NULL && c->z == 1;
}

/*
 * No gostprov counterpart: smgost's own plain run, a fresh context with
 * key, IV and the expected parameters after the init, the message in one
 * piece, is the reference for the case's fed run.
 */
static void ref_self(const CASE *c, const EXPECT *e, int enc,
                     const unsigned char *in, size_t len, RESULT *r)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[2];
    size_t mesh = e->mesh;
    int l1 = 0, l2 = 0, zok, named;

    if (ctx == NULL)
        fz_fail("out of memory");
    p[0] = OSSL_PARAM_construct_size_t("key-mesh", &mesh);
    p[1] = OSSL_PARAM_construct_end();
    named = init_z(ctx, c, enc, &zok);
    if (!zok
        || !EVP_CipherInit_ex2(ctx, named ? ours_ciph[c->a] : NULL, c->key,
                               e->iv, enc, NULL)
        || (e->mesh_given && !EVP_CIPHER_CTX_set_params(ctx, p))
        || !EVP_CIPHER_CTX_set_padding(ctx, e->pad)) {
        describe(c);
        fz_fail("smgost's plain run refused what its fed run took");
    }
    r->ok = EVP_CipherUpdate(ctx, r->out, &l1, in, (int)len)
            && EVP_CipherFinal_ex(ctx, r->out + l1, &l2);
    r->outl = r->ok ? (size_t)l1 + (size_t)l2 : 0;
    r->ivlen = 0;
    if (r->ok)
        take_iv(ctx, r);
    EVP_CIPHER_CTX_free(ctx);
    ERR_clear_error();
}

static void ref_cipher(const CASE *c, const EXPECT *e, int enc,
                       const unsigned char *in, size_t len, RESULT *r)
{
    if (!by_gostprov(c)) {
        ref_self(c, e, enc, in, len, r);
        return;
    }
    /* gostprov has Kuznyechik's ECB, not GOST 28147-89's or Magma's */
    if (c->kind == ECB && algs[c->a].bs == 8)
        ref_ecb(c, e, enc, in, len, r);
    else
        ref_stream(c, e, enc, in, len, r);
}

static void check(const char *what, const CASE *c, const RESULT *ours,
                  const RESULT *ref)
{
    if (ours->ok != ref->ok) {
        describe(c);
        fz_fail("%s: smgost %s, the reference %s", what,
                ours->ok ? "succeeded" : "failed",
                ref->ok ? "succeeded" : "failed");
    }
    if (ours->ok && fz_first_diff(ours->out, ours->outl, ref->out,
                                  ref->outl) != (size_t)-1) {
        describe(c);
        fz_same(what, ours->out, ours->outl, ref->out, ref->outl);
    }
    if (ours->ok && ref->ivlen > 0
        && fz_first_diff(ours->iv, ours->ivlen, ref->iv, ref->ivlen)
           != (size_t)-1) {
        describe(c);
        fz_same("updated-iv after final", ours->iv, ours->ivlen, ref->iv,
                ref->ivlen);
    }
}

static void cipher_case(const CASE *c, FZ_MSG *msg)
{
    static RESULT ours, copy, ref, pt;
    static unsigned char in[MAX_DATA + 16];
    EXPECT e;
    size_t len = c->len;
    int refused;

    expect(c, &e);
    fz_msg_take(msg, in, len);
    /* A decryption of what the reference encrypted, so padding is valid
     * (not where smgost must refuse the parameters: gostprov may too). */
    if (c->roundtrip && !e.refuse) {
        ref_cipher(c, &e, 1, in, len, &pt);
        if (!pt.ok || pt.outl > MAX_DATA)
            return;
        memcpy(in, pt.out, pt.outl);
        len = pt.outl;
    }
    {
        CASE cc = *c;

        cc.len = len;
        /* The pieces cover the message as it now is. */
        cc.chunks[cc.nchunks - 1] += len - c->len;
        ours_cipher(&cc, in, &ours, &copy, &refused, msg);
    }
    if (e.refuse) {
        if (!refused) {
            describe(c);
            fz_fail("smgost took a parameter its contract refuses");
        }
        return;
    }
    if (refused) {
        describe(c);
        fz_fail("smgost refused a parameter its contract takes");
    }
    if (e.unchecked)
        return;
    ref_cipher(c, &e, c->enc, in, len, &ref);
    /*
     * gostprov's kuznyechik-cfb takes the last block of a call that ends
     * on a block boundary into its register only at the next call: its
     * updated-iv after such a message is a block behind.
     */
    if (by_gostprov(c) && c->kind == CFB && algs[c->a].bs == 16
        && len % 16 == 0)
        ref.ivlen = 0;
    check(c->enc ? "encryption" : "decryption", c, &ours, &ref);
    if (copy.ok)
        check("the copy", c, &copy, &ref);
}

/* ----------------------------------------------------------------- MAC */

static void ours_mac_run(const CASE *c, const unsigned char *msg, RESULT *r,
                         RESULT *copy_r, int *param_refused, FZ_MSG *junk_src,
                         int plain)
{
    static unsigned char junk[3000];
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(ours_mac[c->a]), *copy = NULL;
    OSSL_PARAM p[6], q[4];
    size_t n = 0, i, rd = 0, size = c->macsize, sn = c->mesh, st = c->tmesh;
    int sections = algs[c->a].acpkm && c->mesh_given;
    size_t keylen = c->odd == ODD_MACKEY ? c->odd_val % 64 : 32;
    unsigned char key[64];
    int has_set = c->way == WAY_NAME_INIT || c->way == WAY_NAME_AFTER;

    memset(key, 0x5c, sizeof(key));
    memcpy(key, c->key, 32);
    r->ok = copy_r->ok = 0;
    r->outl = copy_r->outl = 0;
    *param_refused = 0;
    if (ctx == NULL)
        fz_fail("out of memory");
    if (c->odd == ODD_MACSIZE)
        size = c->odd_val;
    q[0] = OSSL_PARAM_construct_utf8_string("paramset", (char *)c->setname, 0);
    q[1] = OSSL_PARAM_construct_end();
    if (has_set && (plain || c->set_before_init)
        && !EVP_MAC_CTX_set_params(ctx, q))
        goto refused;
    if (has_set && !plain && !c->set_before_init)
        p[n++] = q[0];
    if (plain || c->size_at_init) {
        p[n++] = OSSL_PARAM_construct_size_t("size", &size);
        /* OMAC-ACPKM's N and T go with the size */
        if (sections) {
            p[n++] = OSSL_PARAM_construct_size_t("key-mesh", &sn);
            p[n++] = OSSL_PARAM_construct_size_t("cipher-key-mesh", &st);
        }
    }
    if (!plain && c->key_as_param)
        p[n++] = OSSL_PARAM_construct_octet_string("key", key, keylen);
    p[n] = OSSL_PARAM_construct_end();
    if (!EVP_MAC_init(ctx, !plain && c->key_as_param ? NULL : key,
                      !plain && c->key_as_param ? 0 : keylen, p))
        goto refused;
    q[0] = OSSL_PARAM_construct_size_t("size", &size);
    q[1] = q[2] = q[3] = OSSL_PARAM_construct_end();
    if (sections) {
        q[1] = OSSL_PARAM_construct_size_t("key-mesh", &sn);
        q[2] = OSSL_PARAM_construct_size_t("cipher-key-mesh", &st);
    }
    if (!plain && !c->size_at_init && !EVP_MAC_CTX_set_params(ctx, q))
        goto refused;
    if (!plain && c->prelude) {
        fz_msg_take(junk_src, junk, c->prelude_len);
        if (!EVP_MAC_update(ctx, junk, c->prelude_len)
            || !EVP_MAC_init(ctx, c->reinit_key ? key : NULL,
                             c->reinit_key ? keylen : 0, NULL))
            goto end;
    }
    for (i = 0; i <= c->nchunks && !plain; i++) {
        if (i == c->copy_at && (copy = EVP_MAC_CTX_dup(ctx)) == NULL)
            fz_fail("EVP_MAC_CTX_dup failed on smgost's context");
        if (i == c->nchunks)
            break;
        if (!EVP_MAC_update(ctx, msg + rd, c->chunks[i])
            || (copy != NULL && !EVP_MAC_update(copy, msg + rd,
                                                c->chunks[i])))
            goto end;
        rd += c->chunks[i];
    }
    if (plain && !EVP_MAC_update(ctx, msg, c->len))
        goto end;
    r->ok = EVP_MAC_final(ctx, r->out, &r->outl, 16);
    if (copy != NULL) {
        copy_r->ok = EVP_MAC_final(copy, copy_r->out, &copy_r->outl, 16);
        if (!copy_r->ok)
            fz_fail("the MAC copy failed where the original succeeded");
    }
    goto end;
 refused:
    *param_refused = 1;
 end:
    EVP_MAC_CTX_free(copy);
    EVP_MAC_CTX_free(ctx);
    ERR_clear_error();
}

static void mac_case(const CASE *c, FZ_MSG *fmsg)
{
    static RESULT ours, copy, ref, unused;
    static unsigned char msg[MAX_DATA];
    EXPECT e;
    int refused, r2;

    expect(c, &e);
    fz_msg_take(fmsg, msg, c->len);
    ours_mac_run(c, msg, &ours, &copy, &refused, fmsg, 0);
    if (e.refuse) {
        if (!refused) {
            describe(c);
            fz_fail("smgost took a MAC parameter its contract refuses");
        }
        return;
    }
    if (refused) {
        describe(c);
        fz_fail("smgost refused a MAC parameter its contract takes");
    }
    if (algs[c->a].omac && algs[c->a].ref != NULL
        && (!algs[c->a].acpkm
            || (c->mesh_given
                && c->tmesh % (32 + algs[c->a].bs) == 0))) {
        /*
         * gostprov's OMAC: key at init, then size (and N, T), the message
         * in one piece.  OMAC-ACPKM only where T is a multiple of key and
         * block: gostprov applies T from the key material after the first
         * such stretch (as test/evp_diff.c compares it).
         */
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(ref_mac[c->a]);
        size_t size = c->odd == ODD_MACSIZE ? c->odd_val : c->macsize;
        size_t sn = c->mesh, st = c->tmesh;
        OSSL_PARAM p[4];

        p[0] = OSSL_PARAM_construct_size_t("size", &size);
        p[1] = p[2] = p[3] = OSSL_PARAM_construct_end();
        if (algs[c->a].acpkm) {
            p[1] = OSSL_PARAM_construct_size_t("key-mesh", &sn);
            p[2] = OSSL_PARAM_construct_size_t("cipher-key-mesh", &st);
        }
        ref.outl = 0;
        ref.ok = ctx != NULL && EVP_MAC_init(ctx, c->key, 32, NULL)
                 && EVP_MAC_CTX_set_params(ctx, p)
                 && EVP_MAC_update(ctx, msg, c->len)
                 && EVP_MAC_final(ctx, ref.out, &ref.outl, 16);
        EVP_MAC_CTX_free(ctx);
        ERR_clear_error();
    } else if (!algs[c->a].omac && (e.set == SET_A || e.set == SET_Z)) {
        /* gostprov: key at init, size after it, the message in one piece
         * (its result for 8 bytes depends on the pieces). */
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(ref_mac[e.set == SET_A
                                               ? MAC_A : MAC_Z]);
        size_t size = c->odd == ODD_MACSIZE ? c->odd_val : c->macsize;
        OSSL_PARAM p[2];

        p[0] = OSSL_PARAM_construct_size_t("size", &size);
        p[1] = OSSL_PARAM_construct_end();
        ref.outl = 0;
        ref.ok = ctx != NULL && EVP_MAC_init(ctx, c->key, 32, NULL)
                 && EVP_MAC_CTX_set_params(ctx, p)
                 && EVP_MAC_update(ctx, msg, c->len)
                 && EVP_MAC_final(ctx, ref.out, &ref.outl, 8);
        EVP_MAC_CTX_free(ctx);
        ERR_clear_error();
    } else {
        /* No gostprov MAC uses this set: smgost's plain run is the
         * reference for the fed one. */
        ours_mac_run(c, msg, &ref, &unused, &r2, fmsg, 1);
        if (r2)
            fz_fail("smgost's plain MAC run refused its parameters");
    }
    check("MAC", c, &ours, &ref);
    if (copy.ok)
        check("the MAC copy", c, &copy, &ref);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FZ_IN in = { data, size };
    FZ_MSG msg;
    CASE c;

    pick_case(&in, &c);
    fz_msg_init(&msg, in.p, in.n);
    if (c.kind == MAC)
        mac_case(&c, &msg);
    else
        cipher_case(&c, &msg);
    return 0;
}
