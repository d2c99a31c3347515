/* x86 detection: this CPU's CPUID and XGETBV readings, read with GCC/Clang or MSVC builtins, for the
 * pure decision (cpu_x86_decide.c). */
#include <stddef.h>
#include <string.h>

#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#else
#include <cpuid.h>
#endif

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
    libsha_x86_cpuid id;
    uint32_t regs[4];

    memset(&id, 0, sizeof id);
    cpuid(0, regs);
    id.max_leaf = regs[0];
    memcpy(id.vendor, &regs[1], 4), memcpy(id.vendor + 4, &regs[3], 4), memcpy(id.vendor + 8, &regs[2], 4);
    if (id.max_leaf >= 1)
        cpuid(1, id.leaf1);
    if (id.max_leaf >= 7)
        cpuid(7, id.leaf7);
    if (id.leaf1[LIBSHA_ECX] & LIBSHA_ECX1_OSXSAVE)
        id.xcr0 = xgetbv0(); /* XGETBV itself faults unless the OS set OSXSAVE */
    return libsha_x86_detection(&id);
}
