/* libsha_cpu_features(): detection done once (CPUID can trap to a hypervisor,
 * which is slow), cached with an atomic store. */
#include <stddef.h>

#include "atomic.h"
#include "cpu_features.h"
#include "libsha_dispatch.h"

const struct libsha_cpu_feature libsha_cpu_feature_table[] = {
    {"sse4.1", LIBSHA_CPU_SSE41, 1, LIBSHA_ECX, LIBSHA_ECX1_SSSE3 | LIBSHA_ECX1_SSE41, 0, 0},
    /* The AVX bit alone is not enough: without OS support a YMM instruction faults. */
    {"avx", LIBSHA_CPU_AVX, 1, LIBSHA_ECX, LIBSHA_ECX1_AVX | LIBSHA_ECX1_OSXSAVE, LIBSHA_XCR0_SSE_AND_YMM, 0},
    {"avx2", LIBSHA_CPU_AVX2, 7, LIBSHA_EBX, LIBSHA_EBX7_AVX2, 0, LIBSHA_CPU_AVX},
    /* F, VL and BW together (Skylake-SP and later, Zen 4 and later), and all
     * three parts of the ZMM and opmask state saved, or an EVEX instruction faults. */
    {"avx512", LIBSHA_CPU_AVX512, 7, LIBSHA_EBX, LIBSHA_EBX7_AVX512F | LIBSHA_EBX7_AVX512VL | LIBSHA_EBX7_AVX512BW,
     LIBSHA_XCR0_ZMM, LIBSHA_CPU_AVX2},
    /* General-register instructions: no OS state. */
    {"bmi2", LIBSHA_CPU_BMI2, 7, LIBSHA_EBX, LIBSHA_EBX7_BMI1 | LIBSHA_EBX7_BMI2, 0, 0},
    /* SHA-NI needs no OS state, but its code is SSE4.1 (and SSSE3) around it. */
    {"sha", LIBSHA_CPU_X86_SHA, 7, LIBSHA_EBX, LIBSHA_EBX7_SHA, 0, LIBSHA_CPU_SSE41},
    /* Each OS reports it its own way (cpu_arm.c). */
    {"arm-sha2", LIBSHA_CPU_ARM_SHA2, 0, 0, 0, 0, 0},
};
const size_t libsha_cpu_feature_count = sizeof libsha_cpu_feature_table / sizeof libsha_cpu_feature_table[0];

const char *libsha_cpu_feature_at(size_t index, unsigned *bit)
{
    if (index >= libsha_cpu_feature_count)
        return NULL;
    if (bit != NULL)
        *bit = libsha_cpu_feature_table[index].bit;
    return libsha_cpu_feature_table[index].name;
}

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

const char *libsha_cpu_tuning_at(size_t index, unsigned *bit)
{
    /* Names as Python prints them, beside the features'. */
    static const struct {
        const char *name;
        unsigned bit;
    } advice[] = {{"wide-lanes", LIBSHA_TUNE_WIDE_LANES}, {"shani-4way", LIBSHA_TUNE_SHANI_4WAY}};
    if (index >= sizeof advice / sizeof advice[0])
        return NULL;
    if (bit != NULL)
        *bit = advice[index].bit;
    return advice[index].name;
}
