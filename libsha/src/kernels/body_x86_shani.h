/*
 * The x86 SHA extensions' building blocks, shared by the SHA-NI kernels
 * (x86_shani_1way.c, x86_shani_2way.c; built with -msse4.1 -msha; x86_shani_4way.c adds -mavx512vl).
 *
 * The SHA instructions keep the state as two vectors, ABEF and CDGH (A in
 * the highest lane), and take K + W four rounds at a time.
 */
#ifndef LIBSHA_BODY_X86_SHANI_H
#define LIBSHA_BODY_X86_SHANI_H

#include <immintrin.h>

#include "body_padding_schedule.h"
#include "fips180.h"
#include "sha256_impl.h"

#define BSWAP32_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL)
#define LOAD16(p, i) _mm_loadu_si128((const __m128i *)(p) + (i))
#define LOAD_W(p, i, mask) _mm_shuffle_epi8(LOAD16(p, i), mask)
#define K4(g) _mm_loadu_si128((const __m128i *)&LIBSHA_K[4 * (g)])

/* Four rounds with kw = K + W for rounds 4g..4g+3. */
#define RNDS4(s0, s1, kw)                                                  \
    do {                                                                   \
        __m128i kw_ = (kw);                                                \
        s1 = _mm_sha256rnds2_epu32(s1, s0, kw_);                           \
        s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(kw_, 0x0e));  \
    } while (0)

/* W for the next four rounds from the last sixteen (held in a, b, c, d). */
#define SCHED4(a, b, c, d) \
    a = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(a, b), _mm_alignr_epi8(d, c, 4)), d)

/* Rounds 16..63 once W0..15 are in m0..m3 and rounds 0..15 are done. */
#define ROUNDS_16_TO_63(s0, s1, m0, m1, m2, m3)                                   \
    SCHED4(m0, m1, m2, m3); RNDS4(s0, s1, _mm_add_epi32(m0, K4(4)));              \
    SCHED4(m1, m2, m3, m0); RNDS4(s0, s1, _mm_add_epi32(m1, K4(5)));              \
    SCHED4(m2, m3, m0, m1); RNDS4(s0, s1, _mm_add_epi32(m2, K4(6)));              \
    SCHED4(m3, m0, m1, m2); RNDS4(s0, s1, _mm_add_epi32(m3, K4(7)));              \
    SCHED4(m0, m1, m2, m3); RNDS4(s0, s1, _mm_add_epi32(m0, K4(8)));              \
    SCHED4(m1, m2, m3, m0); RNDS4(s0, s1, _mm_add_epi32(m1, K4(9)));              \
    SCHED4(m2, m3, m0, m1); RNDS4(s0, s1, _mm_add_epi32(m2, K4(10)));             \
    SCHED4(m3, m0, m1, m2); RNDS4(s0, s1, _mm_add_epi32(m3, K4(11)));             \
    SCHED4(m0, m1, m2, m3); RNDS4(s0, s1, _mm_add_epi32(m0, K4(12)));             \
    SCHED4(m1, m2, m3, m0); RNDS4(s0, s1, _mm_add_epi32(m1, K4(13)));             \
    SCHED4(m2, m3, m0, m1); RNDS4(s0, s1, _mm_add_epi32(m2, K4(14)));             \
    SCHED4(m3, m0, m1, m2); RNDS4(s0, s1, _mm_add_epi32(m3, K4(15)))

/* All 64 rounds over W0..15 in m0..m3 (consumed). */
#define COMPRESS(s0, s1, m0, m1, m2, m3)                \
    RNDS4(s0, s1, _mm_add_epi32(m0, K4(0)));            \
    RNDS4(s0, s1, _mm_add_epi32(m1, K4(1)));            \
    RNDS4(s0, s1, _mm_add_epi32(m2, K4(2)));            \
    RNDS4(s0, s1, _mm_add_epi32(m3, K4(3)));            \
    ROUNDS_16_TO_63(s0, s1, m0, m1, m2, m3)

/* The padding block after a 64-byte message: K + W is a constant table, and
 * each pair of rounds loads its own two words (no shuffle, nothing past the end). */
#define KW_RNDS4(s0, s1, kw, g)                                                               \
    s1 = _mm_sha256rnds2_epu32(s1, s0, _mm_loadu_si128((const __m128i *)&(kw)[4 * (g)]));     \
    s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_loadl_epi64((const __m128i *)&(kw)[4 * (g) + 2]))
#define PAD_RNDS4(s0, s1, g) KW_RNDS4(s0, s1, LIBSHA_PAD64_KW, g)
#define COMPRESS_PAD64(s0, s1)                                                                 \
    PAD_RNDS4(s0, s1, 0); PAD_RNDS4(s0, s1, 1); PAD_RNDS4(s0, s1, 2); PAD_RNDS4(s0, s1, 3);     \
    PAD_RNDS4(s0, s1, 4); PAD_RNDS4(s0, s1, 5); PAD_RNDS4(s0, s1, 6); PAD_RNDS4(s0, s1, 7);     \
    PAD_RNDS4(s0, s1, 8); PAD_RNDS4(s0, s1, 9); PAD_RNDS4(s0, s1, 10); PAD_RNDS4(s0, s1, 11);   \
    PAD_RNDS4(s0, s1, 12); PAD_RNDS4(s0, s1, 13); PAD_RNDS4(s0, s1, 14); PAD_RNDS4(s0, s1, 15)

/* H0 as ABEF and CDGH. */
#define H0_ABEF _mm_set_epi32(0x6a09e667, (int)0xbb67ae85, 0x510e527f, (int)0x9b05688c)
#define H0_CDGH _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, 0x5be0cd19)

/* ABEF, CDGH -> [a b c d], [e f g h] (lane 0 first): the digest words in order. */
#define TO_ABCD_EFGH(abef, cdgh, abcd, efgh)                        \
    do {                                                            \
        __m128i feba_ = _mm_shuffle_epi32(abef, 0x1b);              \
        __m128i dchg_ = _mm_shuffle_epi32(cdgh, 0xb1);              \
        abcd = _mm_blend_epi16(feba_, dchg_, 0xf0);                 \
        efgh = _mm_alignr_epi8(dchg_, feba_, 8);                    \
    } while (0)

/* The inner digest as the outer block's W0..7; W8..15 are its padding, for an outer message of
 * `bits` (256: SHA-256's; 768: an HMAC's, after its key block). */
#define OUTER_BLOCK_OF(abef, cdgh, m0, m1, m2, m3, bits)            \
    do {                                                            \
        TO_ABCD_EFGH(abef, cdgh, m0, m1);                           \
        m2 = _mm_set_epi32(0, 0, 0, (int)0x80000000);               \
        m3 = _mm_set_epi32((int)(bits), 0, 0, 0);                   \
    } while (0)
#define OUTER_BLOCK(abef, cdgh, m0, m1, m2, m3) OUTER_BLOCK_OF(abef, cdgh, m0, m1, m2, m3, 256)

#define STORE_DIGEST(out, abef, cdgh, mask)                                         \
    do {                                                                            \
        __m128i abcd_, efgh_;                                                       \
        TO_ABCD_EFGH(abef, cdgh, abcd_, efgh_);                                     \
        _mm_storeu_si128((__m128i *)(out), _mm_shuffle_epi8(abcd_, mask));          \
        _mm_storeu_si128((__m128i *)(out) + 1, _mm_shuffle_epi8(efgh_, mask));      \
    } while (0)

/* A state in natural order (a..h) as ABEF and CDGH, and back. */
#define LOAD_STATE(state, abef, cdgh)                                              \
    do {                                                                           \
        __m128i cdab_ = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&(state)[0]), 0xb1); \
        __m128i hgfe_ = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&(state)[4]), 0x1b); \
        abef = _mm_alignr_epi8(cdab_, hgfe_, 8);                                   \
        cdgh = _mm_blend_epi16(hgfe_, cdab_, 0xf0);                                \
    } while (0)
#define STORE_STATE(state, abef, cdgh)                                             \
    do {                                                                           \
        __m128i abcd_, efgh_;                                                      \
        TO_ABCD_EFGH(abef, cdgh, abcd_, efgh_);                                    \
        _mm_storeu_si128((__m128i *)&(state)[0], abcd_);                           \
        _mm_storeu_si128((__m128i *)&(state)[4], efgh_);                           \
    } while (0)

#endif
