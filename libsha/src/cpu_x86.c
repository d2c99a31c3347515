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

/* The LIBSHA_TUNE_* bits by vendor, family and model range, from measurements and cited figures
 * (docs/architecture.md, "Rows and CPUs"); the first entry that matches decides, and a CPU no
 * entry names gets none.
 * - Intel family 6 (Ice Lake to Sapphire Rapids, AVX-512 in full 512-bit units, a SHA-NI slower per
 *   lane than AMD's): 16 AVX-512 lanes hashed 1.6-1.9 x as fast as 2 SHA-NI lanes.
 * - AMD Zen 5 server (family 1Ah models 00h-1Fh, Turin) and desktop (40h-4Fh, Granite Ridge), with
 *   the full 512-bit datapath: measured on family 1Ah model 02h, the AVX-512 row 1.3-1.95 x the
 *   SHA-NI row on batches (SHA256D64, Merkle roots, many messages).
 * - AMD Zen 5 mobile parts (Strix Point 20h-2Fh, Krackan 60h-6Fh, Strix Halo 70h-7Fh) run 512-bit
 *   operations in two 256-bit halves, which halves 16 lanes' rate: below 2 SHA-NI lanes, so no entry.
 * - AMD Zen 4 (family 19h) splits every 512-bit operation in two and keeps four sha256rnds2 in
 *   flight (two SHA-NI lanes +98 % over one, the Linux kernel's sha256-ni finup_mb patch, 2025):
 *   SHA-NI stays, written here so the decision is seen to be made. */
static const struct {
    const char *vendor;
    uint32_t family;              /* as leaf 1 gives it, extended family added */
    uint32_t model_lo, model_hi;  /* model with the extended model, inclusive */
    unsigned tune;
} tuning_table[] = {
    {"GenuineIntel", 0x06, 0x00, 0xff, LIBSHA_TUNE_WIDE_LANES},
    {"AuthenticAMD", 0x1a, 0x00, 0x1f, LIBSHA_TUNE_WIDE_LANES},
    {"AuthenticAMD", 0x1a, 0x40, 0x4f, LIBSHA_TUNE_WIDE_LANES},
    {"AuthenticAMD", 0x19, 0x00, 0xff, 0},
};

static unsigned tuning(const struct libsha_x86_cpuid *id)
{
    uint32_t eax = id->leaf1[LIBSHA_EAX];
    uint32_t family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
    size_t i;
    if (family == 0x6 || family == 0xf)
        model |= ((eax >> 16) & 0xf) << 4;
    if (family == 0xf)
        family += (eax >> 20) & 0xff;
    for (i = 0; i < sizeof tuning_table / sizeof tuning_table[0]; ++i)
        if (strcmp(id->vendor, tuning_table[i].vendor) == 0 && family == tuning_table[i].family
            && model >= tuning_table[i].model_lo && model <= tuning_table[i].model_hi)
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
