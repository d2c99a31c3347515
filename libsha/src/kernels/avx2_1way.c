/*
 * avx2(1way): one message, two blocks per schedule. AVX2 computes the message
 * schedule of block n (in the low 128-bit lanes) and block n + 1 (the high
 * ones) at once and stores K + W for both; the rounds run in general
 * registers with BMI2's rorx (a rotate with three operands and no flags).
 * Block n's rounds run beside the vector work, block n + 1's read what it
 * left behind. Intrinsics only (no inline assembly), so MSVC builds it.
 */
#include <immintrin.h>

#include "sha256_impl.h"
#include "body_x86_last_block.h"

libsha_transform_f libsha_avx2_transform;
libsha_finalize_f libsha_avx2_finalize;

#define VEC __m256i
#define V_ADD(a, b) _mm256_add_epi32(a, b)
#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_SRL32(x, n) _mm256_srli_epi32(x, n)
#define V_SLL32(x, n) _mm256_slli_epi32(x, n)
#define V_SRL64(x, n) _mm256_srli_epi64(x, n)
#define V_ALIGNR4(hi, lo) _mm256_alignr_epi8(hi, lo, 4)
#define V_SHUFFLE32(x, imm) _mm256_shuffle_epi32(x, imm)
#define V_SHUFFLE8(x, mask) _mm256_shuffle_epi8(x, mask)
#define V_MASK(hi64, lo64) _mm256_set_epi64x(hi64, lo64, hi64, lo64)
#include "body_rounds_1way.h"

/* SHORT in both blocks: NARROW in block n (beside the schedule) was 1.02 x
 * slower here (Golden Cove), though llvm-mca's Haswell and Skylake models
 * put it 3-4 % ahead there; measure it on such a core before switching. */
#define ROUNDS4_A(kw) LIBSHA_ROUNDS4_A(LIBSHA_ROUND_SHORT, kw)
#define ROUNDS4_B(kw) LIBSHA_ROUNDS4_B(LIBSHA_ROUND_SHORT, kw)

/* K + W of four rounds for both blocks at p (block n's at p[0..3], block
 * n + 1's at p[4..7]) from their W in x and the constants at k. */
#define STORE_KW(p, k, x) \
    _mm256_store_si256((__m256i *)(p), _mm256_add_epi32(x, _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(k)))))

#if defined(_MSC_VER) && !defined(__clang__)
#define ALIGN32 __declspec(align(32))
#else
#define ALIGN32 __attribute__((aligned(32)))
#endif

/* Compresses the block whose W0..15 are the low lanes of x0..x3 and, when
 * `two`, then the block in their high lanes. Not inlined, and its rounds in
 * loops of sixteen: one copy serves the transform's pairs, its odd block and
 * the finalize, small enough to stay in the decoded-instruction cache. */
static void compress2(uint32_t s[8], __m256i x0, __m256i x1, __m256i x2, __m256i x3, int two)
{
    ALIGN32 uint32_t kw[128];
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    const uint32_t *p;

    LIBSHA_ROUNDS48_SCHEDULED(kw, 8);
    ROUNDS4_A(kw + 96);
    ROUNDS4_B(kw + 104);
    ROUNDS4_A(kw + 112);
    ROUNDS4_B(kw + 120);
    a += s[0], b += s[1], c += s[2], d += s[3], e += s[4], f += s[5], g += s[6], h += s[7];
    s[0] = a, s[1] = b, s[2] = c, s[3] = d, s[4] = e, s[5] = f, s[6] = g, s[7] = h;
    if (!two)
        return;
    for (p = kw + 4; p < kw + 128; p += 16) {
        ROUNDS4_A(p);
        ROUNDS4_B(p + 8);
    }
    LIBSHA_ADD_STATE(s);
}

#define BSWAP32_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL)
#define BSWAP32_MASK2 _mm256_broadcastsi128_si256(BSWAP32_MASK)
/* Bytes 16i..16i+15 of the blocks at p (low lanes) and q (high lanes), as words. */
#define LOAD_W2(p, q, i)                                                                                  \
    _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p) + (i))), \
                                                _mm_loadu_si128((const __m128i *)(q) + (i)), 1),          \
                        BSWAP32_MASK2)
/* One block's vector in both lanes. */
#define BOTH(v) _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(v), BSWAP32_MASK2)

void libsha_avx2_transform(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    for (; n >= 2; n -= 2, blocks += 128)
        compress2(state, LOAD_W2(blocks, blocks + 64, 0), LOAD_W2(blocks, blocks + 64, 1),
                  LOAD_W2(blocks, blocks + 64, 2), LOAD_W2(blocks, blocks + 64, 3), 1);
    if (n == 1)
        compress2(state, LOAD_W2(blocks, blocks, 0), LOAD_W2(blocks, blocks, 1), LOAD_W2(blocks, blocks, 2),
                  LOAD_W2(blocks, blocks, 3), 0);
}

void libsha_avx2_finalize(uint32_t state[8], const unsigned char pending[64], size_t used, uint64_t bits,
                          unsigned char out[32])
{
    if (used >= 56) { /* the length needs a second block: the rare, generic way */
        libsha_finish_two_blocks(libsha_avx2_transform, state, pending, used, bits);
    } else {
        __m128i b0, b1, b2, b3;
        LIBSHA_X86_LAST_BLOCK(pending, used, bits, b0, b1, b2, b3);
        compress2(state, BOTH(b0), BOTH(b1), BOTH(b2), BOTH(b3), 0);
    }
    libsha_store_digest(out, state);
}

/* PBKDF2's one chain: compress2's schedule in vectors beside its scalar rounds (1.15 x the scalar
 * rounds' and schedule's speed on Sapphire Rapids). */
#define CHAIN_WORDS(x, i) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&(x)[i]))
#define CHAIN_BLOCK(s, x)                                                                                  \
    compress2(s, CHAIN_WORDS(x, 0), CHAIN_WORDS(x, 4),                                                      \
              _mm256_setr_epi32((int)0x80000000, 0, 0, 0, (int)0x80000000, 0, 0, 0),                       \
              _mm256_setr_epi32(0, 0, 0, 768, 0, 0, 0, 768), 0)
#define CHAINS_1WAY libsha_avx2_chains_1way
#include "body_chain_1way.h"
