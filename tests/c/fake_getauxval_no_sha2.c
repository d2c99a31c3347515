/* LD_PRELOAD shim for the tests: getauxval reports no SHA-2 (as on a
 * Cortex-A53 without the crypto extension), everything else unchanged.
 * Every qemu CPU model has SHA-2, so this is how the fallback is exercised. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/auxv.h>

#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)
#endif

unsigned long getauxval(unsigned long type)
{
    unsigned long (*real)(unsigned long) = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
    unsigned long value = real != NULL ? real(type) : 0;
    return type == AT_HWCAP ? value & ~HWCAP_SHA2 : value;
}
