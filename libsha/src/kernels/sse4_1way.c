/*
 * sse4(1way): one message, the rounds in scalar registers while SSE4.1
 * computes the message schedule four words at a time beside them, on other
 * execution units. Intrinsics only (no inline assembly), so MSVC builds it.
 */
#include <immintrin.h>

#include "body_padding_schedule.h"
#include "body_x86_last_block.h"
#include "fips180.h"
#include "sha256_impl.h"

libsha_transform_f libsha_sse4_transform;
libsha_finalize_f libsha_sse4_finalize;
libsha_d64_f libsha_sse4_d64;
libsha_chains_f libsha_sse4_chains_1way;

#define VEC __m128i
#define V_ADD(a, b) _mm_add_epi32(a, b)
#define V_XOR(a, b) _mm_xor_si128(a, b)
#define V_SRL32(x, n) _mm_srli_epi32(x, n)
#define V_SLL32(x, n) _mm_slli_epi32(x, n)
#define V_SRL64(x, n) _mm_srli_epi64(x, n)
#define V_ALIGNR4(hi, lo) _mm_alignr_epi8(hi, lo, 4)
#define V_SHUFFLE32(x, imm) _mm_shuffle_epi32(x, imm)
#define V_SHUFFLE8(x, mask) _mm_shuffle_epi8(x, mask)
#define V_MASK(hi64, lo64) _mm_set_epi64x(hi64, lo64)
#include "body_rounds_1way.h"

/* NARROW: here 0.98 x the time of SHORT; on llvm-mca's Sandy Bridge model 0.95 x. */
#define ROUNDS4_A(kw) LIBSHA_ROUNDS4_A(LIBSHA_ROUND_NARROW, kw)
#define ROUNDS4_B(kw) LIBSHA_ROUNDS4_B(LIBSHA_ROUND_NARROW, kw)

/* K + W of four rounds at p, from W in x and the constants at k. */
#define STORE_KW(p, k, x) _mm_storeu_si128((__m128i *)(p), _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)(k))))

/* One block whose W0..15 are x0..x3. */
static LIBSHA_ALWAYS_INLINE void compress(uint32_t s[8], __m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
    uint32_t kw[64];
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

    LIBSHA_ROUNDS48_SCHEDULED(kw, 4);
    ROUNDS4_A(kw + 48);
    ROUNDS4_B(kw + 52);
    ROUNDS4_A(kw + 56);
    ROUNDS4_B(kw + 60);
    LIBSHA_ADD_STATE(s);
}

/* The padding block after a 64-byte message: its K + W is a constant table. */
static void compress_pad64(uint32_t s[8])
{
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    const uint32_t *p;

    for (p = LIBSHA_PAD64_KW; p < LIBSHA_PAD64_KW + 64; p += 8) {
        ROUNDS4_A(p);
        ROUNDS4_B(p + 4);
    }
    LIBSHA_ADD_STATE(s);
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
        libsha_finish_two_blocks(libsha_sse4_transform, state, pending, used, bits);
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

/* PBKDF2's one chain on the same rounds and vector schedule. */
#define CHAIN_BLOCK(s, x)                                                                                  \
    compress(s, _mm_loadu_si128((const __m128i *)&(x)[0]), _mm_loadu_si128((const __m128i *)&(x)[4]),     \
             _mm_set_epi32(0, 0, 0, (int)0x80000000), _mm_set_epi32(768, 0, 0, 0))
#define CHAINS_1WAY libsha_sse4_chains_1way
#include "body_chain_1way.h"
