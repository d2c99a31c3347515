/* The implementations compiled into this build, best first. The dispatcher
 * installs the first one the caller allows, the CPU runs and the self-test
 * passes. */
#include "sha256_impl.h"

#if defined(LIBSHA_X86)
/* SHA-NI replaces the SSE4 and AVX2 paths, as in Bitcoin Core. */
static const struct libsha_impl x86_shani = {
    "x86_shani(1way,2way)", LIBSHA_USE_SSE4 | LIBSHA_USE_SHANI, LIBSHA_CPU_X86_SHA,
    libsha_x86_shani_transform, libsha_x86_shani_finalize, libsha_x86_shani_d64_1way, libsha_x86_shani_d64_2way, NULL, NULL,
};
static const struct libsha_impl sse4_avx2 = {
    "sse4(1way),sse41(4way),avx2(8way)", LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2, LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX2,
    libsha_sse4_transform, libsha_sse4_finalize, libsha_sse4_d64, NULL, libsha_sse41_d64_4way, libsha_avx2_d64_8way,
};
static const struct libsha_impl sse4 = {
    "sse4(1way),sse41(4way)", LIBSHA_USE_SSE4, LIBSHA_CPU_SSE41,
    libsha_sse4_transform, libsha_sse4_finalize, libsha_sse4_d64, NULL, libsha_sse41_d64_4way, NULL,
};
#endif

#if defined(LIBSHA_ARM)
static const struct libsha_impl arm_shani = {
    "arm_shani(1way,2way)", LIBSHA_USE_SHANI, LIBSHA_CPU_ARM_SHA2,
    libsha_arm_shani_transform, NULL, libsha_arm_shani_d64_1way, libsha_arm_shani_d64_2way, NULL, NULL,
};
#endif

static const struct libsha_impl standard = {
    "standard", LIBSHA_USE_STANDARD, 0, libsha_standard_transform, NULL, libsha_standard_d64, NULL, NULL, NULL,
};

const struct libsha_impl *const libsha_registry[] = {
#if defined(LIBSHA_X86)
    &x86_shani, &sse4_avx2, &sse4,
#endif
#if defined(LIBSHA_ARM)
    &arm_shani,
#endif
    &standard,
};

const size_t libsha_registry_count = sizeof libsha_registry / sizeof libsha_registry[0];
