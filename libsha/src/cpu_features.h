/* Private to libsha: CPU feature detection. */
#ifndef LIBSHA_CPU_FEATURES_H
#define LIBSHA_CPU_FEATURES_H

#include <stdint.h>

#include "atomic.h"
#include "libsha.h"

/* CPUID's registers, as indices into the readings below. */
enum { LIBSHA_EAX, LIBSHA_EBX, LIBSHA_ECX, LIBSHA_EDX };

/* The raw x86 readings the decision needs. */
struct libsha_x86_cpuid {
    uint32_t max_leaf; /* CPUID leaf 0, EAX: leaves above it alias the highest one */
    uint32_t leaf1[4]; /* CPUID leaf 1: EAX, EBX, ECX, EDX */
    uint32_t leaf7[4]; /* CPUID leaf 7 subleaf 0 (meaningless when max_leaf < 7) */
    uint64_t xcr0;     /* XGETBV(0) (0 when OSXSAVE is clear: XGETBV would fault) */
};

/* Pure: readings in, LIBSHA_CPU_* bits out. Unit-tested with synthetic values. */
unsigned libsha_x86_decide(const struct libsha_x86_cpuid *id);

/* macOS's answer, through sysctlbyname (cpu_arm.c; unit-tested with a stub). */
unsigned libsha_arm_detect_sysctl(void);

/* Reads this CPU (uncached; cpu_x86.c on x86, cpu_arm.c on ARM, cpu_features.c elsewhere). */
unsigned libsha_cpu_detect(void);

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
