/* The implementations compiled into this build, best first: one row each, under the one #if
 * that says which kernel families (CMake's LIBSHA_HAVE_<FAMILY>, which implies the families it
 * builds on) it needs. The dispatcher installs the first row the caller allows, the CPU runs and
 * the self-test passes. */
#include "dispatch/registry.h"
#include "libsha_dispatch.h"
#include "sha256_impl.h"

/* Every kernel a row may name, declared with its type from sha256_impl.h as its own file declares
 * it (so both are checked against one type). Declared whether or not its family is built: a
 * declaration nothing uses costs nothing. */
libsha_transform_f libsha_standard_transform;
libsha_d64_f libsha_standard_d64;
libsha_chains_f libsha_standard_chains_1way;
/* kernels/sse4_1way.c, kernels/sse41_4way.c */
libsha_transform_f libsha_sse4_transform;
libsha_finalize_f libsha_sse4_finalize;
libsha_d64_f libsha_sse4_d64, libsha_sse41_d64_4way;
libsha_chains_f libsha_sse4_chains_1way;
libsha_many_f libsha_sse41_many_4way;
libsha_many_last_f libsha_sse41_many_last_4way;
libsha_many_whole_f libsha_sse41_many_whole_4way;
libsha_chains_f libsha_sse41_chains_4way;
/* kernels/avx2_1way.c, kernels/avx2_8way.c */
libsha_transform_f libsha_avx2_transform;
libsha_finalize_f libsha_avx2_finalize;
libsha_d64_f libsha_avx2_d64_8way;
libsha_many_f libsha_avx2_many_8way;
libsha_many_last_f libsha_avx2_many_last_8way;
libsha_many_whole_f libsha_avx2_many_whole_8way;
libsha_chains_f libsha_avx2_chains_1way;
libsha_chains_f libsha_avx2_chains_8way;
/* kernels/avx512_4way_8way_16way.c */
libsha_d64_f libsha_avx512_d64_4way, libsha_avx512_d64_8way, libsha_avx512_d64_16way;
libsha_many_f libsha_avx512_many_4way, libsha_avx512_many_8way, libsha_avx512_many_16way;
libsha_many_last_f libsha_avx512_many_last_8way, libsha_avx512_many_last_16way;
libsha_many_whole_f libsha_avx512_many_whole_8way, libsha_avx512_many_whole_16way;
libsha_chains_f libsha_avx512_chains_4way, libsha_avx512_chains_8way, libsha_avx512_chains_16way;
/* kernels/x86_shani_1way.c */
libsha_transform_f libsha_x86_shani_transform;
libsha_finalize_f libsha_x86_shani_finalize;
libsha_d64_f libsha_x86_shani_d64_1way;
libsha_chains_f libsha_x86_shani_chains_1way;
/* kernels/x86_shani_2way.c, kernels/x86_shani_4way.c */
libsha_d64_f libsha_x86_shani_d64_2way, libsha_x86_shani_d64_4way;
libsha_many_f libsha_x86_shani_many_2way, libsha_x86_shani_many_4way;
libsha_many_last_f libsha_x86_shani_many_last_2way, libsha_x86_shani_many_last_4way;
libsha_many_whole_f libsha_x86_shani_many_whole_2way, libsha_x86_shani_many_whole_4way;
libsha_chains_f libsha_x86_shani_chains_2way, libsha_x86_shani_chains_4way;
/* kernels/arm_shani_1way_2way.c */
libsha_transform_f libsha_arm_shani_transform;
libsha_d64_f libsha_arm_shani_d64_1way, libsha_arm_shani_d64_2way;
libsha_many_f libsha_arm_shani_many_2way;
libsha_many_last_f libsha_arm_shani_many_last_2way;
libsha_chains_f libsha_arm_shani_chains_1way, libsha_arm_shani_chains_2way;
/* tests/c/sha256_portable_lanes.c (LIBSHA_TEST_PORTABLE_LANES) */
libsha_d64_f libsha_portable_d64_16way;
libsha_many_f libsha_portable_many_16way;
libsha_many_last_f libsha_portable_many_last_16way;
libsha_many_whole_f libsha_portable_many_whole_16way;
libsha_chains_f libsha_portable_chains_16way;

#if defined(LIBSHA_HAVE_SHANI_4WAY)
/* Four SHA-NI lanes (kernels/x86_shani_4way.c): the narrow engine of the row below, whose own
 * kernels of these widths are the same (written once here). */
#define SHANI_4WAY_D64 [1] = libsha_x86_shani_d64_1way, [2] = libsha_x86_shani_d64_2way, [4] = libsha_x86_shani_d64_4way
#define SHANI_4WAY_MANY [2] = libsha_x86_shani_many_2way, [4] = libsha_x86_shani_many_4way
#define SHANI_4WAY_MANY_LAST [2] = libsha_x86_shani_many_last_2way, [4] = libsha_x86_shani_many_last_4way
#define SHANI_4WAY_MANY_WHOLE [2] = libsha_x86_shani_many_whole_2way, [4] = libsha_x86_shani_many_whole_4way
#define SHANI_4WAY_CHAINS                                                                  \
    [1] = libsha_x86_shani_chains_1way, [2] = libsha_x86_shani_chains_2way,                \
    [4] = libsha_x86_shani_chains_4way
static const struct libsha_impl x86_shani_4way_engine = {
    .name = "x86_shani(1way,2way,4way)",
    .use = LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_SHANI | LIBSHA_USE_AVX512,
    .cpu = LIBSHA_CPU_X86_SHA | LIBSHA_CPU_AVX512,
    .transform = libsha_x86_shani_transform,
    .finalize = libsha_x86_shani_finalize,
    .d64 = {SHANI_4WAY_D64},
    .many = {SHANI_4WAY_MANY},
    .many_last = {SHANI_4WAY_MANY_LAST},
    .many_whole = {SHANI_4WAY_MANY_WHOLE},
    .chains = {SHANI_4WAY_CHAINS},
};
#endif

#if defined(LIBSHA_TEST_PORTABLE_LANES)
/* The standard kernels, the narrow engine of the tests' portable row: so the split of a batch between
 * two engines (lanes.c) runs on every CPU, in the C tests and under the sanitizers. */
static const struct libsha_impl standard_engine = {
    .name = "standard",
    .use = LIBSHA_USE_STANDARD,
    .transform = libsha_standard_transform,
    .d64 = {[1] = libsha_standard_d64},
    .chains = {[1] = libsha_standard_chains_1way},
};
#endif

const struct libsha_impl libsha_registry[] = {
#if defined(LIBSHA_HAVE_SHANI) && defined(LIBSHA_HAVE_AVX512)
    {
        /* One stream on SHA-NI, blobs and batches on AVX-512 where its lanes are the faster (the CPU
         * model table's LIBSHA_TUNE_WIDE_LANES): 1 and 2 blobs or messages on SHA-NI, 8 and 16 on
         * AVX-512. Its use bits name avx2 too, so LIBSHA_IMPL=avx512 allows AVX-512 rows without
         * allowing SHA-NI. */
        .name = "x86_shani(1way,2way),avx512(8way,16way)",
        .use = LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_SHANI | LIBSHA_USE_AVX512,
        .cpu = LIBSHA_CPU_X86_SHA | LIBSHA_CPU_AVX512,
        .tune = LIBSHA_TUNE_WIDE_LANES,
        .transform = libsha_x86_shani_transform,
        .finalize = libsha_x86_shani_finalize,
        .d64 = {[1] = libsha_x86_shani_d64_1way, [2] = libsha_x86_shani_d64_2way, [8] = libsha_avx512_d64_8way,
                [16] = libsha_avx512_d64_16way},
        .many = {[2] = libsha_x86_shani_many_2way, [8] = libsha_avx512_many_8way, [16] = libsha_avx512_many_16way},
        .many_last = {[2] = libsha_x86_shani_many_last_2way, [8] = libsha_avx512_many_last_8way,
                      [16] = libsha_avx512_many_last_16way},
        .many_whole = {[8] = libsha_avx512_many_whole_8way, [16] = libsha_avx512_many_whole_16way},
        .chains = {[1] = libsha_x86_shani_chains_1way, [2] = libsha_x86_shani_chains_2way,
                   [8] = libsha_avx512_chains_8way, [16] = libsha_avx512_chains_16way},
    },
#endif
#if defined(LIBSHA_HAVE_SHANI_4WAY)
    {
        /* Two engines in one batch where the CPU keeps four sha256rnds2 in flight (the CPU model
         * table's LIBSHA_TUNE_SHANI_4WAY): four SHA-NI lanes (x86_shani_4way_engine: their words in
         * AVX-512VL's XMM16-31, so the row needs AVX-512) for SHA256D64, PBKDF2 and the messages
         * outside the CPU's wide window, AVX-512's 8 and 16 lanes for those inside it (the table's
         * window; lanes.c splits the batch), SHA-NI's 4 and 2 again for their last few. Its old name,
         * from before the window, still selects it. */
        .name = "x86_shani(1way,2way,4way),avx512(8way,16way)",
        .old_name = "x86_shani(1way,2way,4way)",
        .use = LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_SHANI | LIBSHA_USE_AVX512,
        .cpu = LIBSHA_CPU_X86_SHA | LIBSHA_CPU_AVX512,
        .tune = LIBSHA_TUNE_SHANI_4WAY,
        .transform = libsha_x86_shani_transform,
        .finalize = libsha_x86_shani_finalize,
        .d64 = {SHANI_4WAY_D64},
        .many = {SHANI_4WAY_MANY, [8] = libsha_avx512_many_8way, [16] = libsha_avx512_many_16way},
        .many_last = {SHANI_4WAY_MANY_LAST, [8] = libsha_avx512_many_last_8way, [16] = libsha_avx512_many_last_16way},
        .many_whole = {SHANI_4WAY_MANY_WHOLE, [8] = libsha_avx512_many_whole_8way,
                       [16] = libsha_avx512_many_whole_16way},
        .chains = {SHANI_4WAY_CHAINS},
        .narrow = &x86_shani_4way_engine,
    },
#endif
#if defined(LIBSHA_HAVE_SHANI)
    {
        /* SHA-NI replaces the SSE4 and AVX2 paths, as in Bitcoin Core. */
        .name = "x86_shani(1way,2way)",
        .use = LIBSHA_USE_SSE4 | LIBSHA_USE_SHANI,
        .cpu = LIBSHA_CPU_X86_SHA,
        .transform = libsha_x86_shani_transform,
        .finalize = libsha_x86_shani_finalize,
        .d64 = {[1] = libsha_x86_shani_d64_1way, [2] = libsha_x86_shani_d64_2way},
        .many = {[2] = libsha_x86_shani_many_2way},
        .many_last = {[2] = libsha_x86_shani_many_last_2way},
        .many_whole = {[2] = libsha_x86_shani_many_whole_2way},
        .chains = {[1] = libsha_x86_shani_chains_1way, [2] = libsha_x86_shani_chains_2way},
    },
#endif
#if defined(LIBSHA_HAVE_BMI2) && defined(LIBSHA_HAVE_AVX512)
    {
        /* The AVX2+BMI2 single stream, with AVX-512's lanes for blobs and batches (its 4 lanes
         * too: 3 x as fast as sse41(4way) on Sapphire Rapids). */
        .name = "avx2(1way),avx512(4way,8way,16way)",
        .use = LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_AVX512,
        .cpu = LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX2 | LIBSHA_CPU_BMI2 | LIBSHA_CPU_AVX512,
        .transform = libsha_avx2_transform,
        .finalize = libsha_avx2_finalize,
        .d64 = {[1] = libsha_sse4_d64, [4] = libsha_avx512_d64_4way, [8] = libsha_avx512_d64_8way,
                [16] = libsha_avx512_d64_16way},
        .many = {[4] = libsha_avx512_many_4way, [8] = libsha_avx512_many_8way, [16] = libsha_avx512_many_16way},
        .many_last = {[8] = libsha_avx512_many_last_8way, [16] = libsha_avx512_many_last_16way},
        .many_whole = {[8] = libsha_avx512_many_whole_8way, [16] = libsha_avx512_many_whole_16way},
        .chains = {[1] = libsha_avx2_chains_1way, [4] = libsha_avx512_chains_4way, [8] = libsha_avx512_chains_8way,
                   [16] = libsha_avx512_chains_16way},
    },
#endif
#if defined(LIBSHA_HAVE_BMI2)
    {
        .name = "avx2(1way),sse41(4way),avx2(8way)",
        .use = LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2,
        .cpu = LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX2 | LIBSHA_CPU_BMI2,
        .transform = libsha_avx2_transform,
        .finalize = libsha_avx2_finalize,
        .d64 = {[1] = libsha_sse4_d64, [4] = libsha_sse41_d64_4way, [8] = libsha_avx2_d64_8way},
        .many = {[4] = libsha_sse41_many_4way, [8] = libsha_avx2_many_8way},
        .many_last = {[8] = libsha_avx2_many_last_8way},
        .many_whole = {[8] = libsha_avx2_many_whole_8way},
        .chains = {[1] = libsha_avx2_chains_1way, [4] = libsha_sse41_chains_4way, [8] = libsha_avx2_chains_8way},
    },
#endif
#if defined(LIBSHA_HAVE_AVX2)
    {
        .name = "sse4(1way),sse41(4way),avx2(8way)",
        .use = LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2,
        .cpu = LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX2,
        .transform = libsha_sse4_transform,
        .finalize = libsha_sse4_finalize,
        .d64 = {[1] = libsha_sse4_d64, [4] = libsha_sse41_d64_4way, [8] = libsha_avx2_d64_8way},
        .many = {[4] = libsha_sse41_many_4way, [8] = libsha_avx2_many_8way},
        .many_last = {[8] = libsha_avx2_many_last_8way},
        .many_whole = {[8] = libsha_avx2_many_whole_8way},
        .chains = {[1] = libsha_sse4_chains_1way, [4] = libsha_sse41_chains_4way, [8] = libsha_avx2_chains_8way},
    },
#endif
#if defined(LIBSHA_HAVE_SSE41)
    {
        .name = "sse4(1way),sse41(4way)",
        .use = LIBSHA_USE_SSE4,
        .cpu = LIBSHA_CPU_SSE41,
        .transform = libsha_sse4_transform,
        .finalize = libsha_sse4_finalize,
        .d64 = {[1] = libsha_sse4_d64, [4] = libsha_sse41_d64_4way},
        .many = {[4] = libsha_sse41_many_4way},
        .many_last = {[4] = libsha_sse41_many_last_4way},
        .many_whole = {[4] = libsha_sse41_many_whole_4way},
        .chains = {[1] = libsha_sse4_chains_1way, [4] = libsha_sse41_chains_4way},
    },
#endif
#if defined(LIBSHA_HAVE_ARM_SHA2)
    {
        .name = "arm_shani(1way,2way)",
        .use = LIBSHA_USE_SHANI,
        .cpu = LIBSHA_CPU_ARM_SHA2,
        .transform = libsha_arm_shani_transform,
        .d64 = {[1] = libsha_arm_shani_d64_1way, [2] = libsha_arm_shani_d64_2way},
        .many = {[2] = libsha_arm_shani_many_2way},
        .many_last = {[2] = libsha_arm_shani_many_last_2way},
        .chains = {[1] = libsha_arm_shani_chains_1way, [2] = libsha_arm_shani_chains_2way},
    },
#endif
    {
        .name = "standard",
        .use = LIBSHA_USE_STANDARD,
        .transform = libsha_standard_transform,
        .d64 = {[1] = libsha_standard_d64},
        .chains = {[1] = libsha_standard_chains_1way},
    },
#if defined(LIBSHA_TEST_PORTABLE_LANES)
    {
        /* Tests only (tests/c/sha256_portable_lanes.c): the AVX-512 row's 16 lanes on generic C
         * vectors, a row of two engines as x86_shani(1way,2way,4way),avx512(8way,16way) is (the
         * messages outside the CPU's wide window on the standard transform). After standard, so
         * never chosen automatically. */
        .name = "standard(1way),portable(16way)",
        .use = LIBSHA_USE_STANDARD,
        .transform = libsha_standard_transform,
        .d64 = {[1] = libsha_standard_d64, [16] = libsha_portable_d64_16way},
        .many = {[16] = libsha_portable_many_16way},
        .many_last = {[16] = libsha_portable_many_last_16way},
        .many_whole = {[16] = libsha_portable_many_whole_16way},
        .chains = {[1] = libsha_standard_chains_1way, [16] = libsha_portable_chains_16way},
        .narrow = &standard_engine,
    },
#endif
};

const size_t libsha_registry_count = sizeof libsha_registry / sizeof libsha_registry[0];
