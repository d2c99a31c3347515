/* ARM feature detection: does the CPU have the ARMv8 SHA-256 instructions?
 * Each OS says so its own way. */
#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

#if defined(__APPLE__) || defined(LIBSHA_TEST_SYSCTL)
#if defined(__APPLE__)
#include <sys/sysctl.h>
#else /* the test supplies a stub with this signature */
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
#endif

/* macOS: the value must be read, not just found: 0 means absent. */
unsigned libsha_arm_detect_sysctl(void)
{
    int value = 0;
    size_t size = sizeof value;
    if (sysctlbyname("hw.optional.arm.FEAT_SHA256", &value, &size, NULL, 0) != 0 || size != sizeof value)
        return 0;
    return value == 1 ? LIBSHA_CPU_ARM_SHA2 : 0;
}
#endif

#if defined(LIBSHA_ARM)
#if defined(__linux__)
#include <sys/auxv.h>
#if defined(__aarch64__)
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)
#endif
unsigned libsha_cpu_detect(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_SHA2) ? LIBSHA_CPU_ARM_SHA2 : 0;
}
#else /* 32-bit ARM reports the ARMv8 crypto extensions in AT_HWCAP2 */
#ifndef HWCAP2_SHA2
#define HWCAP2_SHA2 (1UL << 3)
#endif
unsigned libsha_cpu_detect(void)
{
    return (getauxval(AT_HWCAP2) & HWCAP2_SHA2) ? LIBSHA_CPU_ARM_SHA2 : 0;
}
#endif

#elif defined(__APPLE__)
unsigned libsha_cpu_detect(void)
{
    return libsha_arm_detect_sysctl();
}

#elif defined(_WIN32)
#include <windows.h>
unsigned libsha_cpu_detect(void)
{
    return IsProcessorFeaturePresent(PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE) ? LIBSHA_CPU_ARM_SHA2 : 0;
}

#elif defined(__FreeBSD__)
#include <sys/auxv.h>
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)
#endif
unsigned libsha_cpu_detect(void)
{
    unsigned long hwcap = 0;
    if (elf_aux_info(AT_HWCAP, &hwcap, sizeof hwcap) != 0)
        return 0;
    return (hwcap & HWCAP_SHA2) ? LIBSHA_CPU_ARM_SHA2 : 0;
}

#else
unsigned libsha_cpu_detect(void)
{
    return 0; /* no known way to ask: the portable implementation only */
}
#endif
#endif /* LIBSHA_ARM */
