/* avx2(8way): eight blobs or messages at once in AVX2 lanes. */
#include <immintrin.h>

#include "sha256_impl.h"

#define VEC __m256i
#define LANES 8
#define OP_ADD(a, b) _mm256_add_epi32(a, b)
#define OP_XOR(a, b) _mm256_xor_si256(a, b)
#define OP_AND(a, b) _mm256_and_si256(a, b)
#define OP_OR(a, b) _mm256_or_si256(a, b)
#define OP_SHR(x, n) _mm256_srli_epi32(x, n)
#define OP_SHL(x, n) _mm256_slli_epi32(x, n)
#define V_SET1(x) _mm256_set1_epi32((int)(x))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define BE(in, blob, i) ((int)libsha_load_be32((in) + 64 * (blob) + 4 * (i)))
#define V_LOAD_WORD(in, i)                                                                        \
    _mm256_set_epi32(BE(in, 7, i), BE(in, 6, i), BE(in, 5, i), BE(in, 4, i), BE(in, 3, i), BE(in, 2, i), \
                     BE(in, 1, i), BE(in, 0, i))
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))

/* Words off/4 .. off/4 + 7 of the block at each lane's pointer, one vector per
 * word: eight 32-byte loads and an 8x8 transpose, not 64 scalar loads. */
static inline void gather8(const unsigned char *const p[8], int off, __m256i w[8])
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
#define V_GATHER_BLOCK(p, w) (gather8((p), 0, (w)), gather8((p), 32, (w) + 8))
#define MULTIWAY_D64 libsha_avx2_d64_8way
#define MULTIWAY_MANY libsha_avx2_many_8way

#include "sha256_multiway.h"
