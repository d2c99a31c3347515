/* libsha_cpu_features(): detection done once (CPUID can trap to a hypervisor,
 * which is slow), cached with an atomic store. */
#include "atomic.h"
#include "cpu_features.h"
#include "libsha.h"

#if !defined(LIBSHA_X86) && !defined(LIBSHA_ARM)
unsigned libsha_cpu_detect(void)
{
    return 0; /* no accelerated implementation is built for this architecture yet */
}
#endif

libsha_atomic_uint libsha_cpu_cache;

unsigned libsha_cpu_features(void)
{
    unsigned value = libsha_atomic_load_uint(&libsha_cpu_cache);
    if (!(value & LIBSHA_CPU_DETECTED)) {
        /* Racing threads compute the same value; any of them may publish it. */
        value = libsha_cpu_detect() | LIBSHA_CPU_DETECTED;
        libsha_atomic_store_uint(&libsha_cpu_cache, value);
    }
    return value & ~LIBSHA_CPU_DETECTED;
}
