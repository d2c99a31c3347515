/*
 * x86_shani's one stream: the x86 SHA extensions. Built with -msse4.1 -msha and
 * never -mavx: VEX-encoded moves around SHA instructions run far slower (the
 * entry points clear a caller's dirty upper YMM state first: libsha_enter).
 * One stream and one chain here; the kernels of several lanes (2 and 4) are
 * x86_shani_2way.c and x86_shani_4way.c. Its building blocks are in body_x86_shani.h.
 */
#include <string.h>

#include "body_x86_last_block.h"
#include "body_x86_shani.h"

libsha_transform_f libsha_x86_shani_transform;
libsha_finalize_f libsha_x86_shani_finalize;
libsha_d64_f libsha_x86_shani_d64_1way;
libsha_chains_f libsha_x86_shani_chains_1way;

void libsha_x86_shani_transform(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    const __m128i mask = BSWAP32_MASK;
    __m128i s0, s1;

    LOAD_STATE(state, s0, s1);
    for (; n > 0; --n, blocks += 64) {
        __m128i save0 = s0, save1 = s1;
        __m128i m0 = LOAD_W(blocks, 0, mask), m1 = LOAD_W(blocks, 1, mask);
        __m128i m2 = LOAD_W(blocks, 2, mask), m3 = LOAD_W(blocks, 3, mask);
        COMPRESS(s0, s1, m0, m1, m2, m3);
        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
    }
    STORE_STATE(state, s0, s1);
}

void libsha_x86_shani_finalize(uint32_t state[8], const unsigned char pending[64], size_t used, uint64_t bits,
                               unsigned char out[32])
{
    const __m128i mask = BSWAP32_MASK;
    __m128i s0, s1, save0, save1, m0, m1, m2, m3;

    if (used >= 56) { /* the length needs a second block: the rare, generic way */
        libsha_finish_two_blocks(libsha_x86_shani_transform, state, pending, used, bits);
        libsha_store_digest(out, state);
        return;
    }
    LIBSHA_X86_LAST_BLOCK(pending, used, bits, m0, m1, m2, m3);
    m0 = _mm_shuffle_epi8(m0, mask), m1 = _mm_shuffle_epi8(m1, mask);
    m2 = _mm_shuffle_epi8(m2, mask), m3 = _mm_shuffle_epi8(m3, mask);

    LOAD_STATE(state, s0, s1);
    save0 = s0, save1 = s1;
    COMPRESS(s0, s1, m0, m1, m2, m3);
    s0 = _mm_add_epi32(s0, save0);
    s1 = _mm_add_epi32(s1, save1);
    STORE_DIGEST(out, s0, s1, mask);
}

void libsha_x86_shani_d64_1way(unsigned char *out, const unsigned char *in)
{
    const __m128i mask = BSWAP32_MASK;
    __m128i s0 = H0_ABEF, s1 = H0_CDGH, save0, save1;
    __m128i m0 = LOAD_W(in, 0, mask), m1 = LOAD_W(in, 1, mask);
    __m128i m2 = LOAD_W(in, 2, mask), m3 = LOAD_W(in, 3, mask);

    COMPRESS(s0, s1, m0, m1, m2, m3);
    s0 = _mm_add_epi32(s0, H0_ABEF);
    s1 = _mm_add_epi32(s1, H0_CDGH);
    save0 = s0, save1 = s1;
    COMPRESS_PAD64(s0, s1);
    s0 = _mm_add_epi32(s0, save0);
    s1 = _mm_add_epi32(s1, save1);

    OUTER_BLOCK(s0, s1, m0, m1, m2, m3);
    s0 = H0_ABEF, s1 = H0_CDGH;
    COMPRESS(s0, s1, m0, m1, m2, m3);
    s0 = _mm_add_epi32(s0, H0_ABEF);
    s1 = _mm_add_epi32(s1, H0_CDGH);
    STORE_DIGEST(out, s0, s1, mask);
}

/* A PBKDF2 chain's 32 bytes, as a block's W0..7 (m0, m1, from a..h in natural order) beside the
 * padding of an HMAC's 96-byte message, and its xor T. */
#define CHAIN_LOAD(c, i0, i1, o0, o1, m0, m1, m2, m3, x0, x1)                     \
    do {                                                                        \
        LOAD_STATE((c)->inner, i0, i1);                                         \
        LOAD_STATE((c)->outer, o0, o1);                                         \
        m0 = _mm_loadu_si128((const __m128i *)&(c)->u[0]);                      \
        m1 = _mm_loadu_si128((const __m128i *)&(c)->u[4]);                      \
        m2 = _mm_set_epi32(0, 0, 0, (int)0x80000000);                           \
        m3 = _mm_set_epi32(768, 0, 0, 0);                                       \
        x0 = _mm_loadu_si128((const __m128i *)&(c)->t[0]);                      \
        x1 = _mm_loadu_si128((const __m128i *)&(c)->t[4]);                      \
    } while (0)
#define CHAIN_STORE(c, m0, m1, x0, x1)                                          \
    do {                                                                        \
        _mm_storeu_si128((__m128i *)&(c)->u[0], m0);                            \
        _mm_storeu_si128((__m128i *)&(c)->u[4], m1);                            \
        _mm_storeu_si128((__m128i *)&(c)->t[0], x0);                            \
        _mm_storeu_si128((__m128i *)&(c)->t[4], x1);                            \
    } while (0)

/* A chain's block from the state (a0, a1), W0..15 in m0..m3: the result, added back, becomes the next
 * block's message in m0..m3 (its W0..7, and the padding of an HMAC's 96-byte message). */
#define CHAIN_BLOCK(a0, a1)                                   \
    s0 = a0, s1 = a1;                                         \
    COMPRESS(s0, s1, m0, m1, m2, m3);                         \
    s0 = _mm_add_epi32(s0, a0), s1 = _mm_add_epi32(s1, a1);   \
    OUTER_BLOCK_OF(s0, s1, m0, m1, m2, m3, 768)
/* PBKDF2's iterations, one chain: the round chain of each block starts as soon as the last one's
 * state is added up, the one dependency an iteration has. */
void libsha_x86_shani_chains_1way(struct libsha_chain *const chains[], uint64_t count)
{
    __m128i i0, i1, o0, o1, s0, s1, m0, m1, m2, m3, x0, x1;

    CHAIN_LOAD(chains[0], i0, i1, o0, o1, m0, m1, m2, m3, x0, x1);
    for (; count > 0; --count) {
        CHAIN_BLOCK(i0, i1);
        CHAIN_BLOCK(o0, o1);
        x0 = _mm_xor_si128(x0, m0), x1 = _mm_xor_si128(x1, m1);
    }
    CHAIN_STORE(chains[0], m0, m1, x0, x1);
}
