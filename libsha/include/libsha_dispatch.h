/*
 * libsha_dispatch.h: which implementation (row) hashes, and why.
 *
 * Hashing never needs this header: the first hash detects the CPU (CPUID and
 * XGETBV, getauxval, sysctlbyname, IsProcessorFeaturePresent) and installs the
 * fastest row this CPU runs that passes its known-answer self-test. This is
 * for callers that restrict or name the row, list the rows, or ask what the
 * detection and the CPU model table decided, here or for another CPU.
 *
 * Words: a row is an implementation, the set of kernels the dispatcher chose
 * or the caller named, printed as Bitcoin Core prints it
 * ("x86_shani(1way,2way)"); a family is one instruction set's kernels, allowed
 * by a LIBSHA_USE_* bit; a feature is a LIBSHA_CPU_* bit of the CPU and OS;
 * advice is a LIBSHA_TUNE_* bit of the CPU model table.
 *
 * Switching rows is atomic: a hashing call runs entirely on the row active
 * when it started. Choosing a row the CPU cannot run is an error, never an
 * illegal instruction.
 */
#ifndef LIBSHA_DISPATCH_H
#define LIBSHA_DISPATCH_H

#include "libsha.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Implementation mask bits, as Bitcoin Core's sha256_implementation. A row
 * needs every bit of its families and of the ones it builds on: the AVX-512
 * rows need LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_AVX512 (the one
 * with SHA-NI LIBSHA_USE_SHANI too), as the AVX2 rows need LIBSHA_USE_SSE4
 * (libsha_implementation_needs gives each row's). */
#define LIBSHA_USE_STANDARD 0u
#define LIBSHA_USE_SSE4 1u
#define LIBSHA_USE_AVX2 2u
#define LIBSHA_USE_SHANI 4u
#define LIBSHA_USE_AVX512 8u /* libsha's own: Bitcoin Core has no AVX-512 kernels */
#define LIBSHA_USE_ALL (LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_SHANI | LIBSHA_USE_AVX512)

/* CPU features libsha_cpu_features() reports (each implies what the OS must enable). */
#define LIBSHA_CPU_SSE41 (1u << 0)    /* x86 SSE4.1 and SSSE3 */
#define LIBSHA_CPU_AVX (1u << 1)      /* x86 AVX, with YMM state saved by the OS */
#define LIBSHA_CPU_AVX2 (1u << 2)     /* x86 AVX2 (implies LIBSHA_CPU_AVX) */
#define LIBSHA_CPU_X86_SHA (1u << 3)  /* x86 SHA extensions (with SSE4.1) */
#define LIBSHA_CPU_ARM_SHA2 (1u << 4) /* ARMv8 SHA-256 instructions */
#define LIBSHA_CPU_BMI2 (1u << 5)     /* x86 BMI1 and BMI2 */
#define LIBSHA_CPU_AVX512 (1u << 6)   /* x86 AVX-512F, VL and BW, with ZMM state saved by the OS */

/*
 * Installs the fastest implementation that `use` allows, that this CPU runs
 * and that passes its known-answer self-test; returns its printable name
 * (a static string). Hashing never needs this call: the first hash detects
 * with LIBSHA_USE_ALL by itself.
 */
LIBSHA_API const char *libsha_autodetect(unsigned use);

/* The active implementation's printable name (a static string). */
LIBSHA_API const char *libsha_implementation(void);

/* How many messages or streams the active implementation keeps in flight at once (its widest lane
 * kernel's lanes; 1: one after another): what libsha_sha256_update_many and the batches run. */
LIBSHA_API size_t libsha_sha256_lanes(void);

/*
 * Installs the implementation of that printable name, e.g.
 * "x86_shani(1way,2way)". Returns LIBSHA_OK, LIBSHA_ERR_UNKNOWN_IMPL (no such
 * name in this build), LIBSHA_ERR_NOT_RUNNABLE (this CPU lacks a feature it
 * needs: nothing is installed, nothing faults) or LIBSHA_ERR_SELFTEST.
 */
LIBSHA_API int libsha_select(const char *name);

/* The LIBSHA_CPU_* features of this CPU and OS, detected once. */
LIBSHA_API unsigned libsha_cpu_features(void);

/* Enumerates every feature this library knows, on any architecture: for
 * index 0, 1, ... returns its name (e.g. "avx2", a static string) and stores
 * its LIBSHA_CPU_* bit in *bit (if not NULL); returns NULL past the last one. */
LIBSHA_API const char *libsha_cpu_feature_at(size_t index, unsigned *bit);

/*
 * The environment variable LIBSHA_IMPL restricts every automatic choice
 * (first use and libsha_autodetect): a comma-separated list of the words
 * standard, sse4, avx2, shani and avx512, each allowing that implementation
 * family (avx2 and shani include the sse4 base they build on, avx512 the
 * sse4 and avx2 base, never SHA-NI). An invalid value stops only the
 * automatic choice: everything that lists, reports or selects by name works
 * as before. C, whose hashing calls cannot all return an error, then hashes
 * with 'standard' and says so once on stderr; libsha_select() before the
 * first hash makes the choice explicit (nothing printed). This returns a
 * static description of the valid values, or NULL when the value is valid or
 * unset; libsha_config_check says which word is wrong.
 */
LIBSHA_API const char *libsha_config_error(void);

/*
 * Checks a LIBSHA_IMPL value (NULL: the environment's, as the automatic
 * choice reads it). Returns LIBSHA_OK for a valid or empty value, with an
 * empty message; else LIBSHA_ERR_ARGUMENT, with one line in message (at most
 * size bytes with its NUL, cut if need be) that quotes the value and names
 * the first unknown word and the valid ones, e.g. "LIBSHA_IMPL='bogus':
 * 'bogus' is not one of standard, sse4, avx2, shani, avx512 (a comma-separated
 * list of them)". message may be NULL when size is 0; else NULL is
 * LIBSHA_ERR_NULL. Prints nothing.
 */
LIBSHA_API int libsha_config_check(const char *value, char *message, size_t size);

/*
 * Enumerates the compiled-in implementations: for index 0, 1, ... returns
 * the name and stores in *runnable (if not NULL) whether this CPU can run
 * it; returns NULL past the last one.
 */
LIBSHA_API const char *libsha_implementation_at(size_t index, int *runnable);

/*
 * What a row needs, for index 0, 1, ... as libsha_implementation_at lists them:
 * returns its name and stores (each pointer may be NULL) the LIBSHA_USE_* bits
 * a caller must allow, the LIBSHA_CPU_* features the CPU must have, and the
 * LIBSHA_TUNE_* advice the automatic choice needs before it takes the row (an
 * explicit libsha_select does not); returns NULL past the last one.
 */
LIBSHA_API const char *libsha_implementation_needs(size_t index, unsigned *use, unsigned *features,
                                                   unsigned *tuning);

/*
 * The row the automatic choice takes on a CPU with these LIBSHA_CPU_* features
 * and LIBSHA_TUNE_* advice, where `use` allows it: the first compiled-in row
 * that `use` allows and whose needs the CPU meets (LIBSHA_IMPL and the
 * self-test aside). A static string; "standard" where nothing else qualifies.
 * With this CPU's libsha_cpu_features() and libsha_cpu_tuning() it is what
 * libsha_autodetect(use) installs.
 */
LIBSHA_API const char *libsha_implementation_for(unsigned use, unsigned features, unsigned tuning);

/*
 * The CPU model table. Where a CPU runs two rows and measurement showed which
 * one is faster there, a row that needs a LIBSHA_TUNE_* bit is chosen
 * automatically only on the CPU models whose entry gives it; libsha_select and
 * LIBSHA_IMPL still reach it elsewhere. docs/architecture.md ("Rows and CPUs")
 * gives each entry and its reason.
 */
#define LIBSHA_TUNE_WIDE_LANES (1u << 0) /* AVX-512's 8 and 16 lanes outrun SHA-NI's 2 on batches */
#define LIBSHA_TUNE_SHANI_4WAY (1u << 1) /* four SHA-NI chains outrun two on batches */

/* This CPU's LIBSHA_TUNE_* bits, detected once with its features (0 where no entry names it). */
LIBSHA_API unsigned libsha_cpu_tuning(void);

/* Enumerates the LIBSHA_TUNE_* bits: for index 0, 1, ... returns the name (e.g.
 * "wide-lanes", a static string) and stores the bit in *bit (if not NULL);
 * returns NULL past the last one. */
LIBSHA_API const char *libsha_cpu_tuning_at(size_t index, unsigned *bit);

/* The name of the table's entry for this CPU (e.g. "AMD Zen 5 server (family
 * 1Ah, models 00h-1Fh)", a static string), or NULL where no entry names it
 * (and on every CPU but x86's). */
LIBSHA_API const char *libsha_cpu_model(void);

/* Enumerates the table's entries, first match first: for index 0, 1, ...
 * returns the entry's name and stores its LIBSHA_TUNE_* bits in *tuning (if
 * not NULL); returns NULL past the last one. */
LIBSHA_API const char *libsha_cpu_model_at(size_t index, unsigned *tuning);

/* x86 CPUID and XGETBV readings, for libsha_x86_decide. */
typedef struct libsha_x86_cpuid {
    uint32_t max_leaf; /* leaf 0 EAX: leaves above it alias the highest one */
    char vendor[16];   /* leaf 0 EBX, EDX, ECX: "GenuineIntel"; the first 12 bytes are compared */
    uint32_t leaf1[4]; /* leaf 1 EAX, EBX, ECX, EDX */
    uint32_t leaf7[4]; /* leaf 7 subleaf 0 EAX, EBX, ECX, EDX */
    uint64_t xcr0;     /* XGETBV(0); 0 where leaf 1 ECX's OSXSAVE bit is clear */
} libsha_x86_cpuid;

/*
 * What libsha decides on an x86 CPU that gives these readings, without
 * reading this one (on any architecture): its LIBSHA_CPU_* features to
 * *features, the model table's LIBSHA_TUNE_* bits to *tuning and its entry's
 * name (or NULL) to *model; each pointer may be NULL. Detection runs the same
 * decision on this CPU's own readings. Returns LIBSHA_OK, or LIBSHA_ERR_NULL
 * when id is NULL (nothing written).
 */
LIBSHA_API int libsha_x86_decide(const libsha_x86_cpuid *id, unsigned *features, unsigned *tuning,
                                 const char **model);

#ifdef __cplusplus
}
#endif

#endif /* LIBSHA_DISPATCH_H */
