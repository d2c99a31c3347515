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
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))

#include "sha256_gather_avx2.h"
#define V_GATHER_BLOCK(p, w) (gather8((p), 0, (w)), gather8((p), 32, (w) + 8))
#define MULTIWAY_D64 libsha_avx2_d64_8way
#define MULTIWAY_MANY libsha_avx2_many_8way

#include "sha256_multiway.h"
