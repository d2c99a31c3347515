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

/* The LIBSHA_TUNE_* bits by vendor and family, from measurements
 * (docs/architecture.md, "Rows and CPUs"). Intel's SHA-NI (Ice Lake to Sapphire Rapids) is slower
 * per lane than AMD's, and its AVX-512 runs full 512-bit vectors: there 16
 * AVX-512 lanes hashed 1.6-1.9 x as fast as 2 SHA-NI lanes. AMD's Zen 4
 * splits each 512-bit op in two and its SHA-NI is fast: SHA-NI stays. */
static const struct {
    const char *vendor;
    uint32_t family; /* as leaf 1 gives it, extended family added */
    unsigned tune;
} tuning_table[] = {
    {"GenuineIntel", 6, LIBSHA_TUNE_WIDE_LANES},
};

static unsigned tuning(const struct libsha_x86_cpuid *id)
{
    uint32_t family = (id->leaf1[LIBSHA_EAX] >> 8) & 0xf;
    size_t i;
    if (family == 0xf)
        family += (id->leaf1[LIBSHA_EAX] >> 20) & 0xff;
    for (i = 0; i < sizeof tuning_table / sizeof tuning_table[0]; ++i)
        if (strcmp(id->vendor, tuning_table[i].vendor) == 0 && family == tuning_table[i].family)
            return tuning_table[i].tune;
    return 0;
}

unsigned libsha_x86_decide(const struct libsha_x86_cpuid *id)
{
    unsigned features = 0;
    size_t i;

    for (i = 0; i < libsha_cpu_feature_count; ++i) {
        const struct libsha_cpu_feature *row = &libsha_cpu_feature_table[i];
        const uint32_t *regs = row->leaf == 1 ? id->leaf1 : id->leaf7;
        if (row->leaf == 0)
            continue; /* not an x86 feature */
        if (id->max_leaf < row->leaf)
            continue; /* the leaf would alias another one */
        if ((regs[row->reg] & row->bits) != row->bits)
            continue;
        if ((id->xcr0 & row->xcr0) != row->xcr0)
            continue;
        if ((features & row->needs) != row->needs)
            continue;
        features |= row->bit;
    }
    return features | tuning(id);
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
    memcpy(id.vendor, &regs[1], 4), memcpy(id.vendor + 4, &regs[3], 4), memcpy(id.vendor + 8, &regs[2], 4);
    if (id.max_leaf >= 1)
        cpuid(1, id.leaf1);
    if (id.max_leaf >= 7)
        cpuid(7, id.leaf7);
    if (id.leaf1[LIBSHA_ECX] & LIBSHA_ECX1_OSXSAVE)
        id.xcr0 = xgetbv0(); /* XGETBV itself faults unless the OS set OSXSAVE */
    return libsha_x86_decide(&id);
}
