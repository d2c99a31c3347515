/* sse41(4way): four blobs or messages at once in SSE4.1 lanes. */
#include <immintrin.h>

#include "sha256_impl.h"

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

#include "sha256_gather_sse41.h"
#define V_GATHER_BLOCK(p, w) GATHER4_BLOCK(p, w)
#define MULTIWAY_D64 libsha_sse41_d64_4way
#define MULTIWAY_MANY libsha_sse41_many_4way

#include "sha256_multiway.h"
