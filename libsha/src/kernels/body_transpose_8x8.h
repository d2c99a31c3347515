/* The 8x8 transpose that gives eight AVX2 lanes their message words (avx2(8way)
 * and the AVX-512VL 8-lane kernels): for files built with -mavx2 or more. */
#ifndef LIBSHA_BODY_TRANSPOSE_8X8_H
#define LIBSHA_BODY_TRANSPOSE_8X8_H

#include <immintrin.h>

/* The eight words at p[lane] + off in each lane, one vector per word: eight
 * 32-byte loads and an 8x8 transpose, not 64 scalar loads. */
static inline void gather8(const unsigned char *const p[8], size_t off, __m256i w[8])
{
    const __m256i bswap = _mm256_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL, 0x0c0d0e0f08090a0bLL,
                                            0x0405060700010203LL);
    __m256i r[8], t[8], u[8];
    int i;
    for (i = 0; i < 8; ++i)
        r[i] = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(p[i] + off)), bswap);
    for (i = 0; i < 8; i += 2) { /* t[i]: lanes i, i+1 of words 0,1 | 4,5; t[i+1]: 2,3 | 6,7 */
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (i = 0; i < 8; i += 4) { /* u[i + k]: lanes i..i+3 of word k | k + 4 */
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (i = 0; i < 4; ++i) {
        w[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
        w[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
}
#define GATHER8_BLOCK(p, at, w) (gather8((p), (at), (w)), gather8((p), (at) + 32, (w) + 8))

#endif
