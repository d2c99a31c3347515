/* Private to libsha: CPU feature detection. */
#ifndef LIBSHA_CPU_FEATURES_H
#define LIBSHA_CPU_FEATURES_H

#include <stdint.h>

#include "atomic.h"
#include "libsha.h"

/* CPUID's registers, as indices into the readings below. */
enum { LIBSHA_EAX, LIBSHA_EBX, LIBSHA_ECX, LIBSHA_EDX };

/* CPUID bits the x86 rows of the feature table name. */
#define LIBSHA_ECX1_SSSE3 (1u << 9)
#define LIBSHA_ECX1_SSE41 (1u << 19)
#define LIBSHA_ECX1_OSXSAVE (1u << 27)
#define LIBSHA_ECX1_AVX (1u << 28)
#define LIBSHA_EBX7_BMI1 (1u << 3)
#define LIBSHA_EBX7_AVX2 (1u << 5)
#define LIBSHA_EBX7_BMI2 (1u << 8)
#define LIBSHA_EBX7_AVX512F (1u << 16)
#define LIBSHA_EBX7_SHA (1u << 29)
#define LIBSHA_EBX7_AVX512BW (1u << 30)
#define LIBSHA_EBX7_AVX512VL (1u << 31)
#define LIBSHA_XCR0_SSE_AND_YMM 0x6u /* XMM and upper YMM state both saved by the OS */
#define LIBSHA_XCR0_ZMM 0xe0u /* opmask, upper ZMM0-15 and ZMM16-31 state */

/* One row per feature libsha uses, on any architecture: its name (as
 * libsha_cpu_feature_at and Python print it), its LIBSHA_CPU_* bit and, for
 * x86, where CPUID reports it, the state the OS must save for it (XCR0) and
 * the features it builds on (earlier rows). A new feature is one row here
 * and its bit in libsha.h; tests/c/test_x86_decide.c feeds the x86 rows
 * synthetic readings. */
struct libsha_cpu_feature {
    const char *name;
    unsigned bit;
    uint32_t leaf;  /* CPUID leaf (subleaf 0): 1 or 7; 0: not read through CPUID (ARM) */
    int reg;        /* LIBSHA_EAX .. LIBSHA_EDX */
    uint32_t bits;  /* all of them set */
    uint64_t xcr0;  /* all of them set in XCR0 (0: no OS state needed) */
    unsigned needs; /* LIBSHA_CPU_* bits that must already be granted */
};
extern const struct libsha_cpu_feature libsha_cpu_feature_table[];
extern const size_t libsha_cpu_feature_count;

/* The raw x86 readings the decision needs. */
struct libsha_x86_cpuid {
    uint32_t max_leaf; /* CPUID leaf 0, EAX: leaves above it alias the highest one */
    char vendor[13];   /* CPUID leaf 0, EBX EDX ECX: e.g. "GenuineIntel" */
    uint32_t leaf1[4]; /* CPUID leaf 1: EAX, EBX, ECX, EDX */
    uint32_t leaf7[4]; /* CPUID leaf 7 subleaf 0 (meaningless when max_leaf < 7) */
    uint64_t xcr0;     /* XGETBV(0) (0 when OSXSAVE is clear: XGETBV would fault) */
};

/* Choices from a table of CPU models, not features: where a CPU runs two rows
 * and measurement showed which one is faster there, a row needing a
 * LIBSHA_TUNE_* bit is chosen automatically only on the CPUs that have it
 * (an explicit name still selects it). Kept above the LIBSHA_CPU_* bits in
 * the same cached word; libsha_cpu_features() never returns them. */
#define LIBSHA_TUNE_WIDE_LANES (1u << 24) /* AVX-512's 8 and 16 lanes outrun SHA-NI's 2 */
#define LIBSHA_TUNE_MASK (0x7fu << 24)

/* Pure: readings in, LIBSHA_CPU_* and LIBSHA_TUNE_* bits out. Unit-tested with synthetic values. */
unsigned libsha_x86_decide(const struct libsha_x86_cpuid *id);

/* macOS's answer, through sysctlbyname (cpu_arm.c; unit-tested with a stub). */
unsigned libsha_arm_detect_sysctl(void);

/* Reads this CPU (uncached; cpu_x86.c on x86, cpu_arm.c on ARM, cpu_features.c
 * elsewhere): LIBSHA_CPU_* and LIBSHA_TUNE_* bits. */
unsigned libsha_cpu_detect(void);

/* The LIBSHA_TUNE_* bits of this CPU, detected once with the features. */
unsigned libsha_cpu_tuning(void);

/* LIBSHA_CPU_* | LIBSHA_CPU_DETECTED once detected, 0 before. */
#define LIBSHA_CPU_DETECTED (1u << 31)
extern libsha_atomic_uint libsha_cpu_cache;

/* libsha_cpu_features() without a call on the hot path. */
static inline unsigned libsha_cpu_features_cached(void)
{
    unsigned value = libsha_atomic_load_uint(&libsha_cpu_cache);
    return (value & LIBSHA_CPU_DETECTED) ? value : libsha_cpu_features();
}

#endif
