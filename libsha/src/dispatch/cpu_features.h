/* Private to libsha: CPU feature detection. */
#ifndef LIBSHA_CPU_FEATURES_H
#define LIBSHA_CPU_FEATURES_H

#include <stdint.h>

#include "atomic.h"
#include "libsha_dispatch.h"

/* CPUID's registers, as indices into the readings below. */
enum { LIBSHA_EAX, LIBSHA_EBX, LIBSHA_ECX, LIBSHA_EDX };

/* CPUID bits the x86 rows of the feature table name. */
#define LIBSHA_ECX1_SSSE3 (1u << 9)
#define LIBSHA_ECX1_SSE41 (1u << 19)
#define LIBSHA_ECX1_OSXSAVE (1u << 27)
#define LIBSHA_ECX1_AVX (1u << 28)
#define LIBSHA_EBX7_BMI1 (1u << 3)
#define LIBSHA_EBX7_AVX2 (1u << 5)
#define LIBSHA_EBX7_BMI2 (1u << 8)
#define LIBSHA_EBX7_AVX512F (1u << 16)
#define LIBSHA_EBX7_SHA (1u << 29)
#define LIBSHA_EBX7_AVX512BW (1u << 30)
#define LIBSHA_EBX7_AVX512VL (1u << 31)
#define LIBSHA_XCR0_SSE_AND_YMM 0x6u /* XMM and upper YMM state both saved by the OS */
#define LIBSHA_XCR0_ZMM 0xe0u /* opmask, upper ZMM0-15 and ZMM16-31 state */

/* One row per feature libsha uses, on any architecture: its name (as
 * libsha_cpu_feature_at and Python print it), its LIBSHA_CPU_* bit and, for
 * x86, where CPUID reports it, the state the OS must save for it (XCR0) and
 * the features it builds on (earlier rows). A new feature is one row here
 * and its bit in libsha.h; tests/c/test_x86_decide.c feeds the x86 rows
 * synthetic readings. */
struct libsha_cpu_feature {
    const char *name;
    unsigned bit;
    uint32_t leaf;  /* CPUID leaf (subleaf 0): 1 or 7; 0: not read through CPUID (ARM) */
    int reg;        /* LIBSHA_EAX .. LIBSHA_EDX */
    uint32_t bits;  /* all of them set */
    uint64_t xcr0;  /* all of them set in XCR0 (0: no OS state needed) */
    unsigned needs; /* LIBSHA_CPU_* bits that must already be granted */
};
extern const struct libsha_cpu_feature libsha_cpu_feature_table[];
extern const size_t libsha_cpu_feature_count;

/* libsha_cpu_detect's answer in one word, so that one atomic store publishes all of it: the
 * LIBSHA_CPU_* bits (0-15), the CPU model table's entry + 1 (16-23; 0: no entry), the
 * LIBSHA_TUNE_* bits (24-30) and, once cached, LIBSHA_CPU_DETECTED (31). */
#define LIBSHA_CPU_DETECTED (1u << 31)
#define LIBSHA_DETECTION_FEATURES 0xffffu
#define LIBSHA_DETECTION_ENTRIES 0xffu /* entries + 1 that fit (cpu_models.c checks its count) */
#define LIBSHA_DETECTION_TUNING 0x7fu

static inline unsigned libsha_detection_word(unsigned features, unsigned tuning, int entry)
{
    return (features & LIBSHA_DETECTION_FEATURES) | (((unsigned)(entry + 1) & LIBSHA_DETECTION_ENTRIES) << 16)
           | ((tuning & LIBSHA_DETECTION_TUNING) << 24);
}

static inline unsigned libsha_detection_features(unsigned word)
{
    return word & LIBSHA_DETECTION_FEATURES;
}

static inline unsigned libsha_detection_tuning(unsigned word)
{
    return (word >> 24) & LIBSHA_DETECTION_TUNING;
}

static inline const char *libsha_detection_model(unsigned word)
{
    unsigned entry = (word >> 16) & LIBSHA_DETECTION_ENTRIES;
    return entry == 0 ? NULL : libsha_cpu_model_at(entry - 1, NULL);
}

/* The CPU model table's first entry that names the CPU of these readings, or -1 (cpu_models.c). */
int libsha_x86_model_entry(const libsha_x86_cpuid *id);

/* The wide window of the table's entry `entry` (-1: none names the CPU): a row of two engines hashes
 * a batch's messages of *wide_from <= length < *wide_to on its wide lanes (cpu_models.c). */
void libsha_cpu_model_window(int entry, size_t *wide_from, size_t *wide_to);

/* This CPU's wide window, or the one libsha_cpu_set_test_window set. */
void libsha_cpu_wide_window(size_t *wide_from, size_t *wide_to);

/* Tests only (libsha_internal_set_wide_window): the window every row of two engines takes from now on,
 * wide_to UINT_MAX having no end; wide_to 0 gives back the table's. */
void libsha_cpu_set_test_window(unsigned wide_from, unsigned wide_to);

/* Pure: readings in, a detection word out (cpu_x86_decide.c; libsha_x86_decide gives it apart). */
unsigned libsha_x86_detection(const libsha_x86_cpuid *id);

/* macOS's answer, through sysctlbyname (cpu_arm.c; unit-tested with a stub). */
unsigned libsha_arm_detect_sysctl(void);

/* Reads this CPU (uncached; cpu_x86.c on x86, cpu_arm.c on ARM, cpu_features.c
 * elsewhere): a detection word. */
unsigned libsha_cpu_detect(void);

/* The detection word | LIBSHA_CPU_DETECTED once detected, 0 before. */
extern libsha_atomic_uint libsha_cpu_cache;

#endif
