/* Private to libsha: what every public hashing entry point does first (libsha_enter). */
#ifndef LIBSHA_DISPATCH_ENTER_H
#define LIBSHA_DISPATCH_ENTER_H

#include "atomic.h"
#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

/* libsha_cpu_features() without a call on the hot path. */
static inline unsigned libsha_cpu_features_cached(void)
{
    unsigned value = libsha_atomic_load_uint(&libsha_cpu_cache);
    return (value & LIBSHA_CPU_DETECTED) ? libsha_detection_features(value) : libsha_cpu_features();
}

#if defined(LIBSHA_X86)
/* x86_zeroupper.c: vzeroupper, for libsha_enter below. */
void libsha_x86_zeroupper(void);
#endif

/* First thing in every public hashing entry point: on CPUs with AVX, clear
 * the upper YMM state the caller may have left dirty (never elsewhere:
 * vzeroupper faults without AVX). */
static inline void libsha_enter(void)
{
/* Left out where the compiler cannot emit vzeroupper: that costs speed, never correctness. */
#if defined(LIBSHA_X86) && defined(LIBSHA_HAVE_AVX)
    if (libsha_cpu_features_cached() & LIBSHA_CPU_AVX)
        libsha_x86_zeroupper();
#endif
}

#endif
