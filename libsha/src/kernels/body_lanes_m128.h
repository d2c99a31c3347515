/* The lane-generic body's operations (body_lanes.h) on four 32-bit lanes
 * of an __m128i (SSE2; files built with -msse4.1 or more). No include guard:
 * a file may reset the body's parameters (body_lanes_reset.h) and
 * include this again. */
#include <immintrin.h>

#define VEC __m128i
#define LANES 4
#define OP_ADD(a, b) _mm_add_epi32(a, b)
#define OP_XOR(a, b) _mm_xor_si128(a, b)
#define OP_AND(a, b) _mm_and_si128(a, b)
#define OP_OR(a, b) _mm_or_si128(a, b)
#define OP_SHR(x, n) _mm_srli_epi32(x, n)
#define OP_SHL(x, n) _mm_slli_epi32(x, n)
#define V_SET1(x) _mm_set1_epi32((int)(x))
#define V_STOREU(p, v) _mm_storeu_si128((__m128i *)(p), v)
#define V_LOADU(p) _mm_loadu_si128((const __m128i *)(p))
