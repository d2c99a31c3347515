/* libsha_cpu_features(): detection done once (CPUID can trap to a hypervisor,
 * which is slow), cached with an atomic store. The names of what it finds are
 * cpu_feature_table.c's. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "atomic.h"
#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

#if !defined(LIBSHA_X86) && !defined(LIBSHA_ARM)
unsigned libsha_cpu_detect(void)
{
    return 0; /* no accelerated implementation is built for this architecture yet */
}
#endif

_Static_assert(((LIBSHA_TUNE_WIDE_LANES | LIBSHA_TUNE_SHANI_4WAY) & ~LIBSHA_DETECTION_TUNING) == 0,
               "the advice fits the detection word");

libsha_atomic_uint libsha_cpu_cache;

static unsigned detected(void)
{
    unsigned value = libsha_atomic_load_uint(&libsha_cpu_cache);
    if (!(value & LIBSHA_CPU_DETECTED)) {
        /* Racing threads compute the same value; any of them may publish it. */
        value = libsha_cpu_detect() | LIBSHA_CPU_DETECTED;
        libsha_atomic_store_uint(&libsha_cpu_cache, value);
    }
    return value;
}

unsigned libsha_cpu_features(void)
{
    return libsha_detection_features(detected());
}

unsigned libsha_cpu_tuning(void)
{
    return libsha_detection_tuning(detected());
}

const char *libsha_cpu_model(void)
{
    return libsha_detection_model(detected());
}

/* The tests' window (libsha_cpu_set_test_window), in bytes; a `to` of 0: none set, the table's.
 * UINT_MAX as `to` has no end. */
static libsha_atomic_uint test_from, test_to;

void libsha_cpu_set_test_window(unsigned wide_from, unsigned wide_to)
{
    libsha_atomic_store_uint(&test_from, wide_from);
    libsha_atomic_store_uint(&test_to, wide_to);
}

void libsha_cpu_wide_window(size_t *wide_from, size_t *wide_to)
{
    unsigned to = libsha_atomic_load_uint(&test_to);
    if (to != 0) {
        *wide_from = libsha_atomic_load_uint(&test_from);
        *wide_to = to == UINT_MAX ? SIZE_MAX : to;
        return;
    }
    libsha_cpu_model_window((int)((detected() >> 16) & LIBSHA_DETECTION_ENTRIES) - 1, wide_from, wide_to);
}
