/* libsha_cpu_features(): detection done once (CPUID can trap to a hypervisor,
 * which is slow), cached with an atomic store. */
#include "atomic.h"
#include "cpu_features.h"
#include "libsha.h"

#if !defined(LIBSHA_X86)
unsigned libsha_cpu_detect(void)
{
    return 0; /* no accelerated implementation is built for this architecture yet */
}
#endif

#define DETECTED (1u << 31) /* set once the value is known; no feature uses this bit */

static libsha_atomic_uint cached;

unsigned libsha_cpu_features(void)
{
    unsigned value = libsha_atomic_load_uint(&cached);
    if (!(value & DETECTED)) {
        /* Racing threads compute the same value; any of them may publish it. */
        value = libsha_cpu_detect() | DETECTED;
        libsha_atomic_store_uint(&cached, value);
    }
    return value & ~DETECTED;
}
