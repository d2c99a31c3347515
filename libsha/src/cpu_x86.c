/* x86 feature detection: CPUID and XGETBV, read with GCC/Clang or MSVC builtins. */
#include <stddef.h>
#include <string.h>

#include "cpu_features.h"
#include "libsha.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#else
#include <cpuid.h>
#endif

#define ECX1_SSSE3 (1u << 9)
#define ECX1_SSE41 (1u << 19)
#define ECX1_OSXSAVE (1u << 27)
#define ECX1_AVX (1u << 28)
#define EBX7_AVX2 (1u << 5)
#define EBX7_SHA (1u << 29)
#define XCR0_SSE_AND_YMM 0x6u /* XMM and upper YMM state both saved by the OS */

/* One row per feature libsha uses: where CPUID reports it, the state the OS
 * must save for it (XCR0), and the features it builds on (earlier rows). A
 * new feature is one row; tests/c/test_x86_decide.c feeds this synthetic
 * readings. */
static const struct {
    unsigned feature; /* the LIBSHA_CPU_* bit this row grants */
    uint32_t leaf;    /* CPUID leaf (subleaf 0): 1 or 7 */
    int reg;          /* LIBSHA_EAX .. LIBSHA_EDX */
    uint32_t bits;    /* all of them set */
    uint64_t xcr0;    /* all of them set in XCR0 (0: no OS state needed) */
    unsigned needs;   /* LIBSHA_CPU_* bits that must already be granted */
} x86_features[] = {
    {LIBSHA_CPU_SSE41, 1, LIBSHA_ECX, ECX1_SSSE3 | ECX1_SSE41, 0, 0},
    /* The AVX bit alone is not enough: without OS support a YMM instruction faults. */
    {LIBSHA_CPU_AVX, 1, LIBSHA_ECX, ECX1_AVX | ECX1_OSXSAVE, XCR0_SSE_AND_YMM, 0},
    {LIBSHA_CPU_AVX2, 7, LIBSHA_EBX, EBX7_AVX2, 0, LIBSHA_CPU_AVX},
    /* SHA-NI needs no OS state, but its code is SSE4.1 (and SSSE3) around it. */
    {LIBSHA_CPU_X86_SHA, 7, LIBSHA_EBX, EBX7_SHA, 0, LIBSHA_CPU_SSE41},
};

unsigned libsha_x86_decide(const struct libsha_x86_cpuid *id)
{
    unsigned features = 0;
    size_t i;

    for (i = 0; i < sizeof x86_features / sizeof x86_features[0]; ++i) {
        const uint32_t *regs = x86_features[i].leaf == 1 ? id->leaf1 : id->leaf7;
        if (id->max_leaf < x86_features[i].leaf)
            continue; /* the leaf would alias another one */
        if ((regs[x86_features[i].reg] & x86_features[i].bits) != x86_features[i].bits)
            continue;
        if ((id->xcr0 & x86_features[i].xcr0) != x86_features[i].xcr0)
            continue;
        if ((features & x86_features[i].needs) != x86_features[i].needs)
            continue;
        features |= x86_features[i].feature;
    }
    return features;
}

#if defined(_MSC_VER) && !defined(__clang__)
static void cpuid(uint32_t leaf, uint32_t regs[4])
{
    int r[4];
    __cpuidex(r, (int)leaf, 0);
    regs[0] = (uint32_t)r[0], regs[1] = (uint32_t)r[1], regs[2] = (uint32_t)r[2], regs[3] = (uint32_t)r[3];
}

static uint64_t xgetbv0(void)
{
    return _xgetbv(0);
}
#else
static void cpuid(uint32_t leaf, uint32_t regs[4])
{
    __cpuid_count(leaf, 0, regs[0], regs[1], regs[2], regs[3]);
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    /* The mnemonic needs only the assembler, not -mxsave on this file. */
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

unsigned libsha_cpu_detect(void)
{
    struct libsha_x86_cpuid id;
    uint32_t regs[4];

    memset(&id, 0, sizeof id);
    cpuid(0, regs);
    id.max_leaf = regs[0];
    if (id.max_leaf >= 1)
        cpuid(1, id.leaf1);
    if (id.max_leaf >= 7)
        cpuid(7, id.leaf7);
    if (id.leaf1[LIBSHA_ECX] & ECX1_OSXSAVE)
        id.xcr0 = xgetbv0(); /* XGETBV itself faults unless the OS set OSXSAVE */
    return libsha_x86_decide(&id);
}
