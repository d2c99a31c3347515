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
#define LANE_WORD(p, lane, i) ((int)libsha_load_be32((p)[lane] + 4 * (i)))
#define V_GATHER_WORD(p, i)                                                                               \
    _mm256_set_epi32(LANE_WORD(p, 7, i), LANE_WORD(p, 6, i), LANE_WORD(p, 5, i), LANE_WORD(p, 4, i),       \
                     LANE_WORD(p, 3, i), LANE_WORD(p, 2, i), LANE_WORD(p, 1, i), LANE_WORD(p, 0, i))
#define MULTIWAY_D64 libsha_avx2_d64_8way
#define MULTIWAY_MANY libsha_avx2_many_8way

#include "sha256_multiway.h"
