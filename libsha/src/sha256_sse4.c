/*
 * sse4(1way): one message, the rounds in scalar registers while SSE4.1
 * computes the message schedule four words at a time beside them, on other
 * execution units. Intrinsics only (no inline assembly), so MSVC builds it.
 */
#include <immintrin.h>

#include "padding_schedule.h"
#include "sha256_x86_last_block.h"
#include "sha256_impl.h"

#include "sha256_rounds_scalar.h"

#define KW_TABLE(i, unused) kw[i]

/* sigma1 of two words at once: each sits doubled in a 64-bit lane, where a
 * 64-bit right shift is a 32-bit rotation of the low half. Lanes 0 and 2 hold
 * the results; the byte shuffles below pick them out. */
static LIBSHA_ALWAYS_INLINE __m128i sigma1_doubled(__m128i d)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(d, 17), _mm_srli_epi64(d, 19)), _mm_srli_epi32(d, 10));
}

static LIBSHA_ALWAYS_INLINE __m128i sigma0x4(__m128i x)
{
    __m128i r = _mm_xor_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25));
    r = _mm_xor_si128(r, _mm_xor_si128(_mm_srli_epi32(x, 18), _mm_slli_epi32(x, 14)));
    return _mm_xor_si128(r, _mm_srli_epi32(x, 3));
}

/* W[t..t+3] from x0..x3 = W[t-16..t-1]. */
static LIBSHA_ALWAYS_INLINE __m128i schedule4(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
    const __m128i low_pair = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 11, 10, 9, 8, 3, 2, 1, 0);
    const __m128i high_pair = _mm_set_epi8(11, 10, 9, 8, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1);
    __m128i w = _mm_add_epi32(_mm_add_epi32(x0, _mm_alignr_epi8(x3, x2, 4)), sigma0x4(_mm_alignr_epi8(x1, x0, 4)));
    /* W[t] and W[t+1] need sigma1 of W[t-2] and W[t-1]; W[t+2] and W[t+3] of those two. */
    w = _mm_add_epi32(w, _mm_shuffle_epi8(sigma1_doubled(_mm_shuffle_epi32(x3, 0xfa)), low_pair));
    return _mm_add_epi32(w, _mm_shuffle_epi8(sigma1_doubled(_mm_shuffle_epi32(w, 0x50)), high_pair));
}

#define STORE_KW(i, x) _mm_storeu_si128((__m128i *)&kw[i], _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)&LIBSHA_K[i])))

/* Four rounds (ROUNDS4: SHA256_ROUNDS4_A or _B, by name rotation), then the
 * schedule four groups ahead. */
#define STEP(ROUNDS4, g, xa, xb, xc, xd)                   \
    ROUNDS4(KW_TABLE, 4 * (g), _, _, _, _);                \
    xa = schedule4(xa, xb, xc, xd);                        \
    STORE_KW(16 + 4 * (g), xa)
#define STEP_A(g, xa, xb, xc, xd) STEP(SHA256_ROUNDS4_A, g, xa, xb, xc, xd)
#define STEP_B(g, xa, xb, xc, xd) STEP(SHA256_ROUNDS4_B, g, xa, xb, xc, xd)

/* One block whose W0..15 are x0..x3. */
static LIBSHA_ALWAYS_INLINE void compress(uint32_t s[8], __m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
    uint32_t kw[64];
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    uint32_t t1, t2;

    STORE_KW(0, x0);
    STORE_KW(4, x1);
    STORE_KW(8, x2);
    STORE_KW(12, x3);
    STEP_A(0, x0, x1, x2, x3);
    STEP_B(1, x1, x2, x3, x0);
    STEP_A(2, x2, x3, x0, x1);
    STEP_B(3, x3, x0, x1, x2);
    STEP_A(4, x0, x1, x2, x3);
    STEP_B(5, x1, x2, x3, x0);
    STEP_A(6, x2, x3, x0, x1);
    STEP_B(7, x3, x0, x1, x2);
    STEP_A(8, x0, x1, x2, x3);
    STEP_B(9, x1, x2, x3, x0);
    STEP_A(10, x2, x3, x0, x1);
    STEP_B(11, x3, x0, x1, x2);
    SHA256_ROUNDS4_A(KW_TABLE, 48, _, _, _, _);
    SHA256_ROUNDS4_B(KW_TABLE, 52, _, _, _, _);
    SHA256_ROUNDS4_A(KW_TABLE, 56, _, _, _, _);
    SHA256_ROUNDS4_B(KW_TABLE, 60, _, _, _, _);

    s[0] += a, s[1] += b, s[2] += c, s[3] += d, s[4] += e, s[5] += f, s[6] += g, s[7] += h;
}

/* The padding block after a 64-byte message: its K + W is a constant table. */
static void compress_pad64(uint32_t s[8])
{
    const uint32_t *kw = LIBSHA_PAD64_KW;
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    uint32_t t1, t2;
    int i;

    for (i = 0; i < 64; i += 8) {
        SHA256_ROUNDS4_A(KW_TABLE, i, _, _, _, _);
        SHA256_ROUNDS4_B(KW_TABLE, i + 4, _, _, _, _);
    }
    s[0] += a, s[1] += b, s[2] += c, s[3] += d, s[4] += e, s[5] += f, s[6] += g, s[7] += h;
}

#define BSWAP32_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL)
#define LOAD_W(p, i) _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p) + (i)), BSWAP32_MASK)

void libsha_sse4_transform(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    for (; n > 0; --n, blocks += 64)
        compress(state, LOAD_W(blocks, 0), LOAD_W(blocks, 1), LOAD_W(blocks, 2), LOAD_W(blocks, 3));
}

void libsha_sse4_finalize(uint32_t state[8], const unsigned char pending[64], size_t used, uint64_t bits,
                          unsigned char out[32])
{
    if (used >= 56) { /* the length needs a second block: the rare, generic way */
        unsigned char last[128];
        libsha_pad_two_blocks(last, pending, used, bits);
        libsha_sse4_transform(state, last, 2);
    } else {
        /* The padded block goes back to memory in whole 16-byte stores, which
         * the transform's 16-byte loads forward, so one copy of the rounds
         * serves both. Running a second, inlined copy on the registers here
         * was 8 ns faster for one block alone, but made messages of 64..111
         * bytes 1.7x slower (transform and finalize each slowed down: likely
         * twice the code to keep decoded). */
        __m128i block[4];
        LIBSHA_X86_LAST_BLOCK(pending, used, bits, block[0], block[1], block[2], block[3]);
        libsha_sse4_transform(state, (const unsigned char *)block, 1);
    }
    libsha_store_digest(out, state);
}

void libsha_sse4_d64(unsigned char *out, const unsigned char *in)
{
    uint32_t inner[8], outer[8];

    memcpy(inner, LIBSHA_H0, sizeof inner);
    memcpy(outer, LIBSHA_H0, sizeof outer);
    compress(inner, LOAD_W(in, 0), LOAD_W(in, 1), LOAD_W(in, 2), LOAD_W(in, 3));
    compress_pad64(inner);
    /* The inner digest, padded to a block: length 256 bits. */
    compress(outer, _mm_loadu_si128((const __m128i *)&inner[0]), _mm_loadu_si128((const __m128i *)&inner[4]),
             _mm_set_epi32(0, 0, 0, (int)0x80000000), _mm_set_epi32(256, 0, 0, 0));
    libsha_store_digest(out, outer);
}
