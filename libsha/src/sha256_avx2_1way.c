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
#include "sha256_x86_last_block.h"

/* sigma1 of two words at once: each sits doubled in a 64-bit lane, where a
 * 64-bit right shift is a 32-bit rotation of the low half. */
static LIBSHA_ALWAYS_INLINE __m256i sigma1_doubled(__m256i d)
{
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(d, 17), _mm256_srli_epi64(d, 19)),
                            _mm256_srli_epi32(d, 10));
}

static LIBSHA_ALWAYS_INLINE __m256i sigma0x4(__m256i x)
{
    __m256i r = _mm256_xor_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25));
    r = _mm256_xor_si256(r, _mm256_xor_si256(_mm256_srli_epi32(x, 18), _mm256_slli_epi32(x, 14)));
    return _mm256_xor_si256(r, _mm256_srli_epi32(x, 3));
}

/* W[t..t+3] of both blocks from x0..x3 = their W[t-16..t-1]: every step
 * stays inside a 128-bit lane, so the two blocks never mix. */
static LIBSHA_ALWAYS_INLINE __m256i schedule4(__m256i x0, __m256i x1, __m256i x2, __m256i x3)
{
    const __m256i low_pair = _mm256_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 11, 10, 9, 8, 3, 2, 1, 0, -1, -1, -1,
                                             -1, -1, -1, -1, -1, 11, 10, 9, 8, 3, 2, 1, 0);
    const __m256i high_pair = _mm256_set_epi8(11, 10, 9, 8, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1, 11, 10, 9,
                                              8, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i w = _mm256_add_epi32(_mm256_add_epi32(x0, _mm256_alignr_epi8(x3, x2, 4)),
                                 sigma0x4(_mm256_alignr_epi8(x1, x0, 4)));
    /* W[t] and W[t+1] need sigma1 of W[t-2] and W[t-1]; W[t+2] and W[t+3] of those two. */
    w = _mm256_add_epi32(w, _mm256_shuffle_epi8(sigma1_doubled(_mm256_shuffle_epi32(x3, 0xfa)), low_pair));
    return _mm256_add_epi32(w, _mm256_shuffle_epi8(sigma1_doubled(_mm256_shuffle_epi32(w, 0x50)), high_pair));
}

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* One round. Maj is ((a ^ b) & (b ^ c)) ^ b, whose b ^ c is the previous
 * round's a ^ b. The new e is summed on its own, Sigma1(e) last, so that it
 * waits on e for fewer additions than T1 + d would take; of the forms of Ch
 * and of these sums tried, this one ran fastest with gcc and clang. */
#define ROUND(a, b, c, d, e, f, g, h, kw)                                                      \
    do {                                                                                       \
        uint32_t ch_ = ((f ^ g) & e) ^ g, s1_ = ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25);         \
        uint32_t t1_ = h + (kw) + ch_ + s1_;                                                   \
        d = d + h + (kw) + ch_ + s1_;                                                          \
        h = t1_ + (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + (((a ^ b) & (b ^ c)) ^ b);        \
    } while (0)

/* Four rounds from kw[0..3], the names rotated as sha256_rounds.h does. */
#define ROUNDS4_A(kw)                               \
    ROUND(a, b, c, d, e, f, g, h, (kw)[0]);         \
    ROUND(h, a, b, c, d, e, f, g, (kw)[1]);         \
    ROUND(g, h, a, b, c, d, e, f, (kw)[2]);         \
    ROUND(f, g, h, a, b, c, d, e, (kw)[3])
#define ROUNDS4_B(kw)                               \
    ROUND(e, f, g, h, a, b, c, d, (kw)[0]);         \
    ROUND(d, e, f, g, h, a, b, c, (kw)[1]);         \
    ROUND(c, d, e, f, g, h, a, b, (kw)[2]);         \
    ROUND(b, c, d, e, f, g, h, a, (kw)[3])

/* K + W of four rounds for both blocks at p (block n's at p[0..3], block
 * n + 1's at p[4..7]) from their W in x and the constants at k. */
#define STORE_KW(p, k, x) \
    _mm256_store_si256((__m256i *)(p), _mm256_add_epi32(x, _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(k)))))

/* Four rounds of block n from p, then the schedule four groups ahead for both blocks. */
#define STEP(ROUNDS4, p, k, xa, xb, xc, xd) \
    ROUNDS4(p);                            \
    xa = schedule4(xa, xb, xc, xd);        \
    STORE_KW((p) + 32, k, xa)

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
    int i;

    STORE_KW(kw, LIBSHA_K, x0);
    STORE_KW(kw + 8, LIBSHA_K + 4, x1);
    STORE_KW(kw + 16, LIBSHA_K + 8, x2);
    STORE_KW(kw + 24, LIBSHA_K + 12, x3);
    for (i = 0, p = kw; i < 3; ++i, p += 32) {
        const uint32_t *k = LIBSHA_K + 16 + 16 * i;
        STEP(ROUNDS4_A, p, k, x0, x1, x2, x3);
        STEP(ROUNDS4_B, p + 8, k + 4, x1, x2, x3, x0);
        STEP(ROUNDS4_A, p + 16, k + 8, x2, x3, x0, x1);
        STEP(ROUNDS4_B, p + 24, k + 12, x3, x0, x1, x2);
    }
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
    s[0] += a, s[1] += b, s[2] += c, s[3] += d, s[4] += e, s[5] += f, s[6] += g, s[7] += h;
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
        unsigned char last[128];
        libsha_pad_two_blocks(last, pending, used, bits);
        libsha_avx2_transform(state, last, 2);
    } else {
        __m128i b0, b1, b2, b3;
        LIBSHA_X86_LAST_BLOCK(pending, used, bits, b0, b1, b2, b3);
        compress2(state, BOTH(b0), BOTH(b1), BOTH(b2), BOTH(b3), 0);
    }
    libsha_store_digest(out, state);
}
