/* The CPU features libsha uses and the CPU model table's advice: their names, bits and (x86)
 * where CPUID reports them. Read by the detection (cpu_x86_decide.c) and by whoever lists them. */
#include <stddef.h>

#include "dispatch/cpu_features.h"
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
