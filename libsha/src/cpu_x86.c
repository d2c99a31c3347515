/* x86 feature detection: CPUID and XGETBV, read with GCC/Clang or MSVC builtins. */
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

unsigned libsha_x86_decide(const struct libsha_x86_cpuid *id)
{
    unsigned features = 0;

    if (id->max_leaf < 1)
        return 0;
    if ((id->leaf1_ecx & ECX1_SSSE3) && (id->leaf1_ecx & ECX1_SSE41))
        features |= LIBSHA_CPU_SSE41;
    /* The AVX bit alone is not enough: without OS support a YMM instruction faults. */
    if ((id->leaf1_ecx & ECX1_AVX) && (id->leaf1_ecx & ECX1_OSXSAVE) &&
        (id->xcr0 & XCR0_SSE_AND_YMM) == XCR0_SSE_AND_YMM)
        features |= LIBSHA_CPU_AVX;
    if (id->max_leaf >= 7) {
        if ((features & LIBSHA_CPU_AVX) && (id->leaf7_ebx & EBX7_AVX2))
            features |= LIBSHA_CPU_AVX2;
        if ((features & LIBSHA_CPU_SSE41) && (id->leaf7_ebx & EBX7_SHA))
            features |= LIBSHA_CPU_X86_SHA;
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
    struct libsha_x86_cpuid id = {0, 0, 0, 0};
    uint32_t regs[4];

    cpuid(0, regs);
    id.max_leaf = regs[0];
    if (id.max_leaf >= 1) {
        cpuid(1, regs);
        id.leaf1_ecx = regs[2];
    }
    if (id.max_leaf >= 7) {
        cpuid(7, regs);
        id.leaf7_ebx = regs[1];
    }
    if (id.leaf1_ecx & ECX1_OSXSAVE)
        id.xcr0 = xgetbv0(); /* XGETBV itself faults unless the OS set OSXSAVE */
    return libsha_x86_decide(&id);
}
