/* The lane-generic body's operations (body_lanes.h) on eight 32-bit
 * lanes of an __m256i (files built with -mavx2 or more). No include guard: a
 * file may reset the body's parameters (body_lanes_reset.h) and include
 * this again. */
#include <immintrin.h>

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
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
