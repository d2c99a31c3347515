/*
 * x86_shani(1way,2way): the x86 SHA extensions. Built with -msse4.1 -msha and
 * never -mavx: VEX-encoded moves around SHA instructions run far slower (the
 * entry points clear a caller's dirty upper YMM state first: libsha_enter).
 *
 * The SHA instructions keep the state as two vectors, ABEF and CDGH (A in
 * the highest lane), and take K + W four rounds at a time.
 */
#include <immintrin.h>

#include <string.h>

#include "body_padding_schedule.h"
#include "body_x86_last_block.h"
#include "body_sha_2way.h"
#include "sha256_impl.h"

libsha_transform_f libsha_x86_shani_transform;
libsha_finalize_f libsha_x86_shani_finalize;
libsha_d64_f libsha_x86_shani_d64_1way, libsha_x86_shani_d64_2way;
libsha_many_f libsha_x86_shani_many_2way;
libsha_many_last_f libsha_x86_shani_many_last_2way;
libsha_chains_f libsha_x86_shani_chains_1way, libsha_x86_shani_chains_2way;

#define BSWAP32_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL)
#define LOAD16(p, i) _mm_loadu_si128((const __m128i *)(p) + (i))
#define LOAD_W(p, i, mask) _mm_shuffle_epi8(LOAD16(p, i), mask)
#define K4(g) _mm_loadu_si128((const __m128i *)&LIBSHA_K[4 * (g)])

/* Four rounds with kw = K + W for rounds 4g..4g+3. */
#define RNDS4(s0, s1, kw)                                                  \
    do {                                                                   \
        __m128i kw_ = (kw);                                                \
        s1 = _mm_sha256rnds2_epu32(s1, s0, kw_);                           \
        s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(kw_, 0x0e));  \
    } while (0)

/* W for the next four rounds from the last sixteen (held in a, b, c, d). */
#define SCHED4(a, b, c, d) \
    a = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(a, b), _mm_alignr_epi8(d, c, 4)), d)

/* Rounds 16..63 once W0..15 are in m0..m3 and rounds 0..15 are done. */
#define ROUNDS_16_TO_63(s0, s1, m0, m1, m2, m3)                                   \
    SCHED4(m0, m1, m2, m3); RNDS4(s0, s1, _mm_add_epi32(m0, K4(4)));              \
    SCHED4(m1, m2, m3, m0); RNDS4(s0, s1, _mm_add_epi32(m1, K4(5)));              \
    SCHED4(m2, m3, m0, m1); RNDS4(s0, s1, _mm_add_epi32(m2, K4(6)));              \
    SCHED4(m3, m0, m1, m2); RNDS4(s0, s1, _mm_add_epi32(m3, K4(7)));              \
    SCHED4(m0, m1, m2, m3); RNDS4(s0, s1, _mm_add_epi32(m0, K4(8)));              \
    SCHED4(m1, m2, m3, m0); RNDS4(s0, s1, _mm_add_epi32(m1, K4(9)));              \
    SCHED4(m2, m3, m0, m1); RNDS4(s0, s1, _mm_add_epi32(m2, K4(10)));             \
    SCHED4(m3, m0, m1, m2); RNDS4(s0, s1, _mm_add_epi32(m3, K4(11)));             \
    SCHED4(m0, m1, m2, m3); RNDS4(s0, s1, _mm_add_epi32(m0, K4(12)));             \
    SCHED4(m1, m2, m3, m0); RNDS4(s0, s1, _mm_add_epi32(m1, K4(13)));             \
    SCHED4(m2, m3, m0, m1); RNDS4(s0, s1, _mm_add_epi32(m2, K4(14)));             \
    SCHED4(m3, m0, m1, m2); RNDS4(s0, s1, _mm_add_epi32(m3, K4(15)))

/* All 64 rounds over W0..15 in m0..m3 (consumed). */
#define COMPRESS(s0, s1, m0, m1, m2, m3)                \
    RNDS4(s0, s1, _mm_add_epi32(m0, K4(0)));            \
    RNDS4(s0, s1, _mm_add_epi32(m1, K4(1)));            \
    RNDS4(s0, s1, _mm_add_epi32(m2, K4(2)));            \
    RNDS4(s0, s1, _mm_add_epi32(m3, K4(3)));            \
    ROUNDS_16_TO_63(s0, s1, m0, m1, m2, m3)

/* The padding block after a 64-byte message: K + W is a constant table, and
 * each pair of rounds loads its own two words (no shuffle, nothing past the end). */
#define KW_RNDS4(s0, s1, kw, g)                                                               \
    s1 = _mm_sha256rnds2_epu32(s1, s0, _mm_loadu_si128((const __m128i *)&(kw)[4 * (g)]));     \
    s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_loadl_epi64((const __m128i *)&(kw)[4 * (g) + 2]))
#define PAD_RNDS4(s0, s1, g) KW_RNDS4(s0, s1, LIBSHA_PAD64_KW, g)
#define COMPRESS_PAD64(s0, s1)                                                                 \
    PAD_RNDS4(s0, s1, 0); PAD_RNDS4(s0, s1, 1); PAD_RNDS4(s0, s1, 2); PAD_RNDS4(s0, s1, 3);     \
    PAD_RNDS4(s0, s1, 4); PAD_RNDS4(s0, s1, 5); PAD_RNDS4(s0, s1, 6); PAD_RNDS4(s0, s1, 7);     \
    PAD_RNDS4(s0, s1, 8); PAD_RNDS4(s0, s1, 9); PAD_RNDS4(s0, s1, 10); PAD_RNDS4(s0, s1, 11);   \
    PAD_RNDS4(s0, s1, 12); PAD_RNDS4(s0, s1, 13); PAD_RNDS4(s0, s1, 14); PAD_RNDS4(s0, s1, 15)

/* H0 as ABEF and CDGH. */
#define H0_ABEF _mm_set_epi32(0x6a09e667, (int)0xbb67ae85, 0x510e527f, (int)0x9b05688c)
#define H0_CDGH _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, 0x5be0cd19)

/* ABEF, CDGH -> [a b c d], [e f g h] (lane 0 first): the digest words in order. */
#define TO_ABCD_EFGH(abef, cdgh, abcd, efgh)                        \
    do {                                                            \
        __m128i feba_ = _mm_shuffle_epi32(abef, 0x1b);              \
        __m128i dchg_ = _mm_shuffle_epi32(cdgh, 0xb1);              \
        abcd = _mm_blend_epi16(feba_, dchg_, 0xf0);                 \
        efgh = _mm_alignr_epi8(dchg_, feba_, 8);                    \
    } while (0)

/* The inner digest as the outer block's W0..7; W8..15 are its padding, for an outer message of
 * `bits` (256: SHA-256's; 768: an HMAC's, after its key block). */
#define OUTER_BLOCK_OF(abef, cdgh, m0, m1, m2, m3, bits)            \
    do {                                                            \
        TO_ABCD_EFGH(abef, cdgh, m0, m1);                           \
        m2 = _mm_set_epi32(0, 0, 0, (int)0x80000000);               \
        m3 = _mm_set_epi32((int)(bits), 0, 0, 0);                   \
    } while (0)
#define OUTER_BLOCK(abef, cdgh, m0, m1, m2, m3) OUTER_BLOCK_OF(abef, cdgh, m0, m1, m2, m3, 256)

#define STORE_DIGEST(out, abef, cdgh, mask)                                         \
    do {                                                                            \
        __m128i abcd_, efgh_;                                                       \
        TO_ABCD_EFGH(abef, cdgh, abcd_, efgh_);                                     \
        _mm_storeu_si128((__m128i *)(out), _mm_shuffle_epi8(abcd_, mask));          \
        _mm_storeu_si128((__m128i *)(out) + 1, _mm_shuffle_epi8(efgh_, mask));      \
    } while (0)

/* A state in natural order (a..h) as ABEF and CDGH, and back. */
#define LOAD_STATE(state, abef, cdgh)                                              \
    do {                                                                           \
        __m128i cdab_ = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&(state)[0]), 0xb1); \
        __m128i hgfe_ = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&(state)[4]), 0x1b); \
        abef = _mm_alignr_epi8(cdab_, hgfe_, 8);                                   \
        cdgh = _mm_blend_epi16(hgfe_, cdab_, 0xf0);                                \
    } while (0)
#define STORE_STATE(state, abef, cdgh)                                             \
    do {                                                                           \
        __m128i abcd_, efgh_;                                                      \
        TO_ABCD_EFGH(abef, cdgh, abcd_, efgh_);                                    \
        _mm_storeu_si128((__m128i *)&(state)[0], abcd_);                           \
        _mm_storeu_si128((__m128i *)&(state)[4], efgh_);                           \
    } while (0)

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

/* The two-lane steps below work on s0/s1 (first blob) and t0/t1 (second). */
#define RNDS4_2WAY(g, ma, na) \
    RNDS4(s0, s1, _mm_add_epi32(ma, K4(g))); RNDS4(t0, t1, _mm_add_epi32(na, K4(g)))
#define FOUR_ROUNDS_2WAY(g, ma, mb, mc, md, na, nb, nc, nd) \
    SCHED4(ma, mb, mc, md); SCHED4(na, nb, nc, nd); RNDS4_2WAY(g, ma, na)
/* The padding block's rounds on the K + W table pad_kw, a local of the function. */
#define PAD4_2WAY(g) KW_RNDS4(s0, s1, pad_kw, g); KW_RNDS4(t0, t1, pad_kw, g)

/* Two blobs with their round chains interleaved: each sha256rnds2 waits on
 * the one before it, so a second independent chain fills the gaps. */
void libsha_x86_shani_d64_2way(unsigned char *out, const unsigned char *in)
{
    const __m128i mask = BSWAP32_MASK;
    const uint32_t *const pad_kw = LIBSHA_PAD64_KW;
    __m128i s0 = H0_ABEF, s1 = H0_CDGH, t0 = H0_ABEF, t1 = H0_CDGH;
    __m128i save0, save1, save2, save3;
    __m128i m0 = LOAD_W(in, 0, mask), m1 = LOAD_W(in, 1, mask);
    __m128i m2 = LOAD_W(in, 2, mask), m3 = LOAD_W(in, 3, mask);
    __m128i n0 = LOAD_W(in, 4, mask), n1 = LOAD_W(in, 5, mask);
    __m128i n2 = LOAD_W(in, 6, mask), n3 = LOAD_W(in, 7, mask);

    /* Inner hash, first block. */
    SHA256_COMPRESS_2WAY();
    s0 = _mm_add_epi32(s0, H0_ABEF), s1 = _mm_add_epi32(s1, H0_CDGH);
    t0 = _mm_add_epi32(t0, H0_ABEF), t1 = _mm_add_epi32(t1, H0_CDGH);

    /* Inner hash, padding block. */
    save0 = s0, save1 = s1, save2 = t0, save3 = t1;
    SHA256_PAD64_2WAY();
    s0 = _mm_add_epi32(s0, save0), s1 = _mm_add_epi32(s1, save1);
    t0 = _mm_add_epi32(t0, save2), t1 = _mm_add_epi32(t1, save3);

    /* Outer hash. */
    OUTER_BLOCK(s0, s1, m0, m1, m2, m3);
    OUTER_BLOCK(t0, t1, n0, n1, n2, n3);
    s0 = H0_ABEF, s1 = H0_CDGH, t0 = H0_ABEF, t1 = H0_CDGH;
    SHA256_COMPRESS_2WAY();
    s0 = _mm_add_epi32(s0, H0_ABEF), s1 = _mm_add_epi32(s1, H0_CDGH);
    t0 = _mm_add_epi32(t0, H0_ABEF), t1 = _mm_add_epi32(t1, H0_CDGH);
    STORE_DIGEST(out, s0, s1, mask);
    STORE_DIGEST(out + 32, t0, t1, mask);
}

/* Many messages: two lanes' blocks with their round chains interleaved, as
 * in the 2-way D64 kernel (the lane scheduler, lanes.c, feeds them). */
void libsha_x86_shani_many_2way(uint32_t *const state[], const unsigned char *const blocks[], size_t n)
{
    const __m128i mask = BSWAP32_MASK;
    const unsigned char *p = blocks[0], *q = blocks[1];
    __m128i s0, s1, t0, t1;

    LOAD_STATE(state[0], s0, s1);
    LOAD_STATE(state[1], t0, t1);
    for (; n > 0; --n, p += 64, q += 64) {
        __m128i save0 = s0, save1 = s1, save2 = t0, save3 = t1;
        __m128i m0 = LOAD_W(p, 0, mask), m1 = LOAD_W(p, 1, mask);
        __m128i m2 = LOAD_W(p, 2, mask), m3 = LOAD_W(p, 3, mask);
        __m128i n0 = LOAD_W(q, 0, mask), n1 = LOAD_W(q, 1, mask);
        __m128i n2 = LOAD_W(q, 2, mask), n3 = LOAD_W(q, 3, mask);
        SHA256_COMPRESS_2WAY();
        s0 = _mm_add_epi32(s0, save0), s1 = _mm_add_epi32(s1, save1);
        t0 = _mm_add_epi32(t0, save2), t1 = _mm_add_epi32(t1, save3);
    }
    STORE_STATE(state[0], s0, s1);
    STORE_STATE(state[1], t0, t1);
}

/* The last block of two messages, padded in registers, and with
 * LIBSHA_DOUBLE their outer hashes, both lanes interleaved. */
void libsha_x86_shani_many_last_2way(uint32_t *const state[], const struct libsha_tail tails[],
                                     unsigned char *const out[], unsigned flags)
{
    const __m128i mask = BSWAP32_MASK;
    __m128i s0, s1, t0, t1, save0, save1, save2, save3, m0, m1, m2, m3, n0, n1, n2, n3;
    /* Two blocks of padding alone with one K + W: two 64-byte messages (D64's table), or a batch's
     * table for its length (after a start, say). */
    const uint32_t *pad_kw = tails[0].bits == 512 && tails[1].bits == 512 ? LIBSHA_PAD64_KW
                             : tails[0].kw != NULL && tails[0].kw == tails[1].kw ? tails[0].kw : NULL;

    LOAD_STATE(state[0], s0, s1);
    LOAD_STATE(state[1], t0, t1);
    save0 = s0, save1 = s1, save2 = t0, save3 = t1;
    if (pad_kw != NULL) {
        SHA256_PAD64_2WAY();
    } else {
        LIBSHA_X86_TAIL_BLOCK(tails[0], m0, m1, m2, m3);
        LIBSHA_X86_TAIL_BLOCK(tails[1], n0, n1, n2, n3);
        m0 = _mm_shuffle_epi8(m0, mask), m1 = _mm_shuffle_epi8(m1, mask);
        m2 = _mm_shuffle_epi8(m2, mask), m3 = _mm_shuffle_epi8(m3, mask);
        n0 = _mm_shuffle_epi8(n0, mask), n1 = _mm_shuffle_epi8(n1, mask);
        n2 = _mm_shuffle_epi8(n2, mask), n3 = _mm_shuffle_epi8(n3, mask);
        SHA256_COMPRESS_2WAY();
    }
    s0 = _mm_add_epi32(s0, save0), s1 = _mm_add_epi32(s1, save1);
    t0 = _mm_add_epi32(t0, save2), t1 = _mm_add_epi32(t1, save3);
    if (flags & LIBSHA_DOUBLE) { /* from H0, or an HMAC's outer state */
        __m128i o0 = H0_ABEF, o1 = H0_CDGH;
        int bits = 256;
        if (tails[0].outer != NULL) {
            LOAD_STATE(tails[0].outer, o0, o1);
            bits = 768;
        }
        OUTER_BLOCK_OF(s0, s1, m0, m1, m2, m3, bits);
        OUTER_BLOCK_OF(t0, t1, n0, n1, n2, n3, bits);
        s0 = t0 = o0, s1 = t1 = o1;
        SHA256_COMPRESS_2WAY();
        s0 = _mm_add_epi32(s0, o0), s1 = _mm_add_epi32(s1, o1);
        t0 = _mm_add_epi32(t0, o0), t1 = _mm_add_epi32(t1, o1);
    }
    STORE_DIGEST(out[0], s0, s1, mask);
    STORE_DIGEST(out[1], t0, t1, mask);
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
/* The same for two chains, the second's state (b0, b1) and message n0..n3, rounds interleaved. */
#define CHAIN_BLOCK_2WAY(a0, a1, b0, b1)                      \
    s0 = a0, s1 = a1, t0 = b0, t1 = b1;                       \
    SHA256_COMPRESS_2WAY();                                   \
    s0 = _mm_add_epi32(s0, a0), s1 = _mm_add_epi32(s1, a1);   \
    t0 = _mm_add_epi32(t0, b0), t1 = _mm_add_epi32(t1, b1);   \
    OUTER_BLOCK_OF(s0, s1, m0, m1, m2, m3, 768);              \
    OUTER_BLOCK_OF(t0, t1, n0, n1, n2, n3, 768)

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

/* Two chains, their rounds interleaved as the other 2-way kernels do. */
void libsha_x86_shani_chains_2way(struct libsha_chain *const chains[], uint64_t count)
{
    __m128i i0, i1, o0, o1, s0, s1, m0, m1, m2, m3, x0, x1;
    __m128i j0, j1, p0, p1, t0, t1, n0, n1, n2, n3, y0, y1;

    CHAIN_LOAD(chains[0], i0, i1, o0, o1, m0, m1, m2, m3, x0, x1);
    CHAIN_LOAD(chains[1], j0, j1, p0, p1, n0, n1, n2, n3, y0, y1);
    for (; count > 0; --count) {
        CHAIN_BLOCK_2WAY(i0, i1, j0, j1);
        CHAIN_BLOCK_2WAY(o0, o1, p0, p1);
        x0 = _mm_xor_si128(x0, m0), x1 = _mm_xor_si128(x1, m1);
        y0 = _mm_xor_si128(y0, n0), y1 = _mm_xor_si128(y1, n1);
    }
    CHAIN_STORE(chains[0], m0, m1, x0, x1);
    CHAIN_STORE(chains[1], n0, n1, y0, y1);
}
