/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU capability probe behind src/cpu.h: CPUID/XGETBV on x86-64, getauxval
 * on aarch64, nothing elsewhere.  The result is computed once (pthread_once)
 * and then masked by libcrypto's override variables so that a user or a test
 * can force any kernel tier, exactly as with OpenSSL's own code paths.  A
 * mask can only hide features: nothing the CPU or OS lacks is ever enabled.
 */
#include "cpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint32_t caps;
static struct smg_cpu_id cpu_id;
static pthread_once_t caps_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__)
# include <cpuid.h>

/*
 * libcrypto's number syntax (crypto/cpuid.c, ossl_strtouint64): C-style
 * base prefix (0x hex, leading 0 octal, else decimal), stop at the first
 * character that is not a digit of the base.
 */
static uint64_t parse_u64(const char *s)
{
    uint64_t v = 0;
    unsigned int base = 10, d;

    if (*s == '0') {
        base = 8;
        s++;
        if (*s == 'x' || *s == 'X') {
            base = 16;
            s++;
        }
    }
    for (;; s++) {
        if (*s >= '0' && *s <= '9')
            d = (unsigned int)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned int)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned int)(*s - 'A' + 10);
        else
            break;
        if (d >= base)
            break;
        v = v * base + d;
    }
    return v;
}

/*
 * OPENSSL_ia32cap = [~]A[:[~]B] with libcrypto 3.0's rules (crypto/cpuid.c,
 * checked with `openssl version -a`): "~X" clears the bits X of the probed
 * word, a plain value replaces it, and an empty A keeps the probed word
 * only when the string starts with ':'.  A plain A means libcrypto never
 * runs CPUID, so a following "~B" masks an all-zero word; without a ':'
 * part B is zero.  Hence an empty variable yields no features at all.
 * The caller ANDs the result with the real words.
 */
static void apply_ia32cap(const char *env, uint64_t *a, uint64_t *b)
{
    int cpuid_ran = 1;

    if (*env == '~') {
        uint64_t mask = parse_u64(env + 1);

        /* hiding FXSR (bit 24) hides the XMM-only PCLMUL/XOP/AES-NI/AVX */
        if (mask & (1u << 24))
            mask |= (uint64_t)(1u << 1 | 1u << 11 | 1u << 25 | 1u << 28) << 32;
        *a &= ~mask;
    } else if (*env != ':') {
        *a = parse_u64(env);
        cpuid_ran = 0;
    }
    env = strchr(env, ':');
    if (env == NULL || !cpuid_ran)
        *b = 0;
    if (env == NULL)
        return;
    env++;
    if (*env == '~')
        *b &= ~parse_u64(env + 1);
    else
        *b = parse_u64(env);
}

static int bit(uint64_t w, unsigned int n)
{
    return (int)((w >> n) & 1);
}

/*
 * Display family and model (Intel SDM vol. 2 CPUID.01H:EAX; AMD APM vol. 3
 * E.3.2): the extended family adds to a base family of 15; the extended
 * model is the high nibble when the base family is 6 or 15.
 */
static void probe_id(unsigned int ebx, unsigned int ecx, unsigned int edx)
{
    unsigned int eax1, base, r[12], i, ext;
    const char *p;

    __cpuid(1, eax1, r[0], r[1], r[2]);
    base = (eax1 >> 8) & 0xf;
    memcpy(cpu_id.vendor, &ebx, 4);
    memcpy(cpu_id.vendor + 4, &edx, 4);
    memcpy(cpu_id.vendor + 8, &ecx, 4);
    cpu_id.family = base + (base == 0xf ? (eax1 >> 20) & 0xff : 0);
    cpu_id.model = ((eax1 >> 4) & 0xf)
                   | (base == 0x6 || base == 0xf ? (eax1 >> 12) & 0xf0 : 0);
    if (__get_cpuid(0x80000000, &ext, &ebx, &ecx, &edx) && ext >= 0x80000004) {
        for (i = 0; i < 3; i++)
            __cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2],
                    r[4 * i + 3]);
        for (p = (const char *)r; *p == ' '; p++)
            ;
        memcpy(cpu_id.name, p, sizeof(r) - (size_t)(p - (const char *)r));
    }
}

static void probe(void)
{
    unsigned int eax, ebx, ecx, edx, max;
    unsigned int l7_ebx = 0, l7_ecx = 0, l71_eax = 0;
    uint64_t a, b, real_a, real_b, xcr0 = 0;
    const char *env;
    int ymm_os, zmm_os;

    if (!__get_cpuid(0, &max, &ebx, &ecx, &edx))
        return;
    probe_id(ebx, ecx, edx);
    __cpuid(1, eax, ebx, ecx, edx);
    a = (uint64_t)edx | (uint64_t)ecx << 32;
    if (max >= 7) {
        __cpuid_count(7, 0, eax, l7_ebx, l7_ecx, edx);
        max = eax;      /* highest subleaf of leaf 7 */
        if (max >= 1) {
            __cpuid_count(7, 1, l71_eax, ebx, ecx, edx);
        }
    }
    b = (uint64_t)l7_ebx | (uint64_t)l7_ecx << 32;

    /* OSXSAVE (CPUID.1 ECX bit 27) says XGETBV may be executed. */
    if (bit(a, 32 + 27)) {
        unsigned int lo, hi;

        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = (uint64_t)lo | (uint64_t)hi << 32;
    }
    ymm_os = (xcr0 & 0x6) == 0x6;            /* XMM and YMM state */
    zmm_os = ymm_os && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM0-15, ZMM16-31 */

    real_a = a;
    real_b = b;
    env = getenv("OPENSSL_ia32cap");
    if (env != NULL) {
        apply_ia32cap(env, &a, &b);
        /* replacing a word may only hide what the CPU has */
        a &= real_a;
        b &= real_b;
    }

    /* Bit positions: libcrypto's OPENSSL_ia32cap(3) word layout and the
     * Intel SDM's CPUID leaves 1 and 7. */
    if (bit(a, 32 + 9))
        caps |= SMG_CAP_SSSE3;
    if (bit(a, 32 + 25))
        caps |= SMG_CAP_AESNI;
    if (bit(a, 32 + 1))
        caps |= SMG_CAP_PCLMUL;
    if (bit(b, 3))
        caps |= SMG_CAP_BMI1;
    if (bit(b, 8))
        caps |= SMG_CAP_BMI2;
    if (ymm_os) {
        if (bit(a, 32 + 28))
            caps |= SMG_CAP_AVX;
        if (bit(b, 5))
            caps |= SMG_CAP_AVX2;
        /* the VEX forms of GFNI/VAES/VPCLMULQDQ need YMM state too */
        if (bit(b, 32 + 8))
            caps |= SMG_CAP_GFNI;
        if (bit(b, 32 + 9))
            caps |= SMG_CAP_VAES;
        if (bit(b, 32 + 10))
            caps |= SMG_CAP_VPCLMULQDQ;
    }
    if (zmm_os) {
        if (bit(b, 16))
            caps |= SMG_CAP_AVX512F;
        if (bit(b, 17))
            caps |= SMG_CAP_AVX512DQ;
        if (bit(b, 30))
            caps |= SMG_CAP_AVX512BW;
        if (bit(b, 31))
            caps |= SMG_CAP_AVX512VL;
        if (bit(b, 32 + 1))
            caps |= SMG_CAP_AVX512VBMI;
    }
    if (l71_eax & (1u << 1))
        caps |= SMG_CAP_X86_SM3;
    if (l71_eax & (1u << 2))
        caps |= SMG_CAP_X86_SM4;
}

#elif defined(__aarch64__) && defined(__linux__)
# include <sys/auxv.h>

/* Linux arch/arm64 uapi hwcap.h values, in case libc's headers are old. */
# ifndef HWCAP_ASIMD
#  define HWCAP_ASIMD (1UL << 1)
# endif
# ifndef HWCAP_AES
#  define HWCAP_AES (1UL << 3)
# endif
# ifndef HWCAP_PMULL
#  define HWCAP_PMULL (1UL << 4)
# endif
# ifndef HWCAP_SHA2
#  define HWCAP_SHA2 (1UL << 6)
# endif
# ifndef HWCAP_SM3
#  define HWCAP_SM3 (1UL << 18)
# endif
# ifndef HWCAP_SM4
#  define HWCAP_SM4 (1UL << 19)
# endif

/* libcrypto's OPENSSL_armcap bits (OpenSSL crypto/arm_arch.h). */
# define ARMCAP_NEON   (1u << 0)
# define ARMCAP_AES    (1u << 2)
# define ARMCAP_SHA256 (1u << 4)
# define ARMCAP_PMULL  (1u << 5)
# define ARMCAP_SM3    (1u << 9)
# define ARMCAP_SM4    (1u << 10)

static void probe(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t real = 0, armcap;
    const char *env;

    if (hw & HWCAP_ASIMD)
        real |= ARMCAP_NEON;
    if (hw & HWCAP_AES)
        real |= ARMCAP_AES;
    if (hw & HWCAP_PMULL)
        real |= ARMCAP_PMULL;
    if (hw & HWCAP_SHA2)
        real |= ARMCAP_SHA256;
    if (hw & HWCAP_SM3)
        real |= ARMCAP_SM3;
    if (hw & HWCAP_SM4)
        real |= ARMCAP_SM4;

    armcap = real;
    /* libcrypto (crypto/armcap.c) takes the variable as strtoul(.., 0) */
    env = getenv("OPENSSL_armcap");
    if (env != NULL)
        armcap = (uint32_t)strtoul(env, NULL, 0) & real;

    if (armcap & ARMCAP_NEON)
        caps |= SMG_CAP_ARM_ASIMD;
    if (armcap & ARMCAP_AES)
        caps |= SMG_CAP_ARM_AES;
    if (armcap & ARMCAP_PMULL)
        caps |= SMG_CAP_ARM_PMULL;
    if (armcap & ARMCAP_SHA256)
        caps |= SMG_CAP_ARM_SHA2;
    if (armcap & ARMCAP_SM3)
        caps |= SMG_CAP_ARM_SM3;
    if (armcap & ARMCAP_SM4)
        caps |= SMG_CAP_ARM_SM4;
}

#else

static void probe(void)
{
}

#endif

static void read_override(char *dst, size_t size, const char *name)
{
    const char *env = getenv(name);

    if (env != NULL && strlen(env) < size)
        memcpy(dst, env, strlen(env) + 1);
}

static void probe_once(void)
{
    probe();
    read_override(cpu_id.sm3_schedule, sizeof(cpu_id.sm3_schedule),
                  "SMGOST_SM3_SCHEDULE");
    read_override(cpu_id.sm4_ccm, sizeof(cpu_id.sm4_ccm), "SMGOST_SM4_CCM");
}

uint32_t smg_cpu_caps(void)
{
    pthread_once(&caps_once, probe_once);
    return caps;
}

const struct smg_cpu_id *smg_cpu_id(void)
{
    pthread_once(&caps_once, probe_once);
    return &cpu_id;
}

static const struct {
    uint32_t bit;
    const char *name;
} cap_names[] = {
    { SMG_CAP_SSSE3, "ssse3" },
    { SMG_CAP_AESNI, "aesni" },
    { SMG_CAP_PCLMUL, "pclmul" },
    { SMG_CAP_AVX, "avx" },
    { SMG_CAP_AVX2, "avx2" },
    { SMG_CAP_BMI1, "bmi1" },
    { SMG_CAP_BMI2, "bmi2" },
    { SMG_CAP_AVX512F, "avx512f" },
    { SMG_CAP_AVX512DQ, "avx512dq" },
    { SMG_CAP_AVX512BW, "avx512bw" },
    { SMG_CAP_AVX512VL, "avx512vl" },
    { SMG_CAP_AVX512VBMI, "avx512vbmi" },
    { SMG_CAP_GFNI, "gfni" },
    { SMG_CAP_VAES, "vaes" },
    { SMG_CAP_VPCLMULQDQ, "vpclmulqdq" },
    { SMG_CAP_X86_SM3, "sm3ni" },
    { SMG_CAP_X86_SM4, "sm4ni" },
    { SMG_CAP_ARM_ASIMD, "asimd" },
    { SMG_CAP_ARM_AES, "aes" },
    { SMG_CAP_ARM_PMULL, "pmull" },
    { SMG_CAP_ARM_SHA2, "sha2" },
    { SMG_CAP_ARM_SM3, "sm3" },
    { SMG_CAP_ARM_SM4, "sm4" },
};

static char caps_string[256];
static pthread_once_t caps_string_once = PTHREAD_ONCE_INIT;

static void build_caps_string(void)
{
    uint32_t c = smg_cpu_caps();
    size_t i, len = 0, n;

    for (i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++) {
        if (!(c & cap_names[i].bit))
            continue;
        n = strlen(cap_names[i].name);
        if (len + n + 2 > sizeof(caps_string))
            break;
        if (len > 0)
            caps_string[len++] = ' ';
        memcpy(caps_string + len, cap_names[i].name, n);
        len += n;
    }
    caps_string[len] = '\0';
}

const char *smg_cpu_caps_string(void)
{
    pthread_once(&caps_string_once, build_caps_string);
    return caps_string;
}
