/* libsha_cpu_features(): detection done once (CPUID can trap to a hypervisor,
 * which is slow), cached with an atomic store. The names of what it finds are
 * cpu_feature_table.c's. */
#include <stddef.h>

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
