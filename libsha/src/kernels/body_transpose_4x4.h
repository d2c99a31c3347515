/* The 4x4 transposes that give four 128-bit lanes their message words
 * (sse41(4way) and the AVX-512VL 4-lane kernels): for files built with
 * -msse4.1 or more. */
#ifndef LIBSHA_BODY_TRANSPOSE_4X4_H
#define LIBSHA_BODY_TRANSPOSE_4X4_H

#include <immintrin.h>

/* The four words at p[lane] + off in each lane, one vector per word: four
 * 16-byte loads and a 4x4 transpose, not 16 scalar loads. */
static inline void gather4(const unsigned char *const p[4], size_t off, __m128i w[4])
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i r0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p[0] + off)), bswap);
    __m128i r1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p[1] + off)), bswap);
    __m128i r2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p[2] + off)), bswap);
    __m128i r3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p[3] + off)), bswap);
    __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpackhi_epi32(r0, r1);
    __m128i t2 = _mm_unpacklo_epi32(r2, r3), t3 = _mm_unpackhi_epi32(r2, r3);
    w[0] = _mm_unpacklo_epi64(t0, t2), w[1] = _mm_unpackhi_epi64(t0, t2);
    w[2] = _mm_unpacklo_epi64(t1, t3), w[3] = _mm_unpackhi_epi64(t1, t3);
}
#define GATHER4_BLOCK(p, at, w)                                                                       \
    (gather4((p), (at), (w)), gather4((p), (at) + 16, (w) + 4), gather4((p), (at) + 32, (w) + 8),      \
     gather4((p), (at) + 48, (w) + 12))

#endif
