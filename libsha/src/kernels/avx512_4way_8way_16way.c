/*
 * avx512(4way,8way,16way): the lane-generic body (body_lanes.h) on AVX-512F,
 * VL and BW. vprold rotates in one instruction where AVX2 needs two shifts
 * and an or; vpternlogd does Ch, Maj and each sigma's three-way xor in one.
 * Sixteen lanes in ZMM registers, and eight and four in YMM and XMM
 * registers (AVX-512VL) for the batches and blob counts too small for sixteen.
 */
#include <immintrin.h>

#include "sha256_impl.h"

/* Rotates and three-input logic, for every width: V_PREFIX names the
 * width's intrinsics (_mm512_, _mm256_, _mm_), pasted by the body's own
 * MULTIWAY_JOIN where these expand. vpternlogd's immediate is the truth
 * table, indexed by x << 2 | y << 1 | z. */
#define OP_ROTR(x, n) MULTIWAY_JOIN(V_PREFIX, ror_epi32)(x, n)
#define OP_XOR3(x, y, z) MULTIWAY_JOIN(V_PREFIX, ternarylogic_epi32)(x, y, z, 0x96)
#define OP_CH(x, y, z) MULTIWAY_JOIN(V_PREFIX, ternarylogic_epi32)(x, y, z, 0xca)
#define OP_MAJ(x, y, z) MULTIWAY_JOIN(V_PREFIX, ternarylogic_epi32)(x, y, z, 0xe8)

/* 32 registers at every width (AVX-512VL's XMM/YMM16-31 too): where the compiler speaks GNU asm, the
 * schedule lives in them and the rounds are asm that keeps it there. */
#include "body_rounds_avx512_asm.h"

/* Sixteen lanes. */
#define V_PREFIX _mm512_
#define VEC __m512i
#define LANES 16
#define OP_ADD(a, b) _mm512_add_epi32(a, b)
#define OP_XOR(a, b) _mm512_xor_si512(a, b)
#define OP_AND(a, b) _mm512_and_si512(a, b)
#define OP_OR(a, b) _mm512_or_si512(a, b)
#define OP_SHR(x, n) _mm512_srli_epi32(x, n)
#define OP_SHL(x, n) _mm512_slli_epi32(x, n)
#define V_SET1(x) _mm512_set1_epi32((int)(x))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))

/* Lane l's 64-byte block in r[l], byte-swapped, in: word i of every lane in w[i]. */
static inline void transpose16(const __m512i r[16], __m512i w[16])
{
    __m512i t[16], u[16];
    int i, m;
    for (i = 0; i < 16; i += 2) { /* per 128-bit chunk j: lanes i, i+1 of words 4j, 4j+1 | 4j+2, 4j+3 */
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (i = 0; i < 16; i += 4) { /* u[i + m], chunk j: lanes i..i+3 of word 4j + m */
        u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (m = 0; m < 4; ++m) { /* chunk j of u[m], u[4 + m], u[8 + m], u[12 + m] makes word 4j + m */
        __m512i x0 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0x44), x1 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0xee);
        __m512i y0 = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0x44);
        __m512i y1 = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0xee);
        w[m] = _mm512_shuffle_i32x4(x0, y0, 0x88);
        w[4 + m] = _mm512_shuffle_i32x4(x0, y0, 0xdd);
        w[8 + m] = _mm512_shuffle_i32x4(x1, y1, 0x88);
        w[12 + m] = _mm512_shuffle_i32x4(x1, y1, 0xdd);
    }
}

static inline __m512i bswap32x16(__m512i v)
{
    const __m512i bswap = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
    return _mm512_shuffle_epi8(v, bswap);
}

static inline void gather16(const unsigned char *const p[16], size_t at, __m512i w[16])
{
    __m512i r[16];
    int i;
    for (i = 0; i < 16; ++i)
        r[i] = bswap32x16(_mm512_loadu_si512((const void *)(p[i] + at)));
    transpose16(r, w);
}

/* Each tail padded in registers: a masked load reads its len bytes and no
 * more (masked-off bytes never fault), and 0x80 goes in at byte len. */
static inline void tail16(const struct libsha_tail tails[16], __m512i w[16])
{
    __m512i r[16];
    int i;
    for (i = 0; i < 16; ++i) {
        size_t len = tails[i].len;
        const void *rest = len > 0 ? (const void *)tails[i].rest : (const void *)&tails[i];
        __m512i v = _mm512_maskz_loadu_epi8(_cvtu64_mask64((UINT64_C(1) << len) - 1), rest);
        v = _mm512_mask_mov_epi8(v, _cvtu64_mask64(UINT64_C(1) << len), _mm512_set1_epi8((char)0x80));
        r[i] = bswap32x16(v);
    }
    transpose16(r, w);
}

/* 8x8 transposes in both 256-bit halves at once: r[i] holds lane i's eight
 * words below and lane i + 8's above, w[k] word k of lanes 0..7 below and
 * 8..15 above (one vector per state word, in lane order). Its own inverse. */
static inline void transpose8x2(const __m512i r[8], __m512i w[8])
{
    const __m512i halves = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i highs = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    __m512i t[8], u[8];
    int i;
    for (i = 0; i < 8; i += 2) {
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (i = 0; i < 8; i += 4) {
        u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (i = 0; i < 4; ++i) { /* 128-bit chunks 0 and 2 of u[i], u[i + 4]; then 1 and 3 */
        w[i] = _mm512_permutex2var_epi64(u[i], halves, u[i + 4]);
        w[i + 4] = _mm512_permutex2var_epi64(u[i], highs, u[i + 4]);
    }
}

static inline void load_states16(uint32_t *const state[16], __m512i words[8])
{
    __m512i r[8];
    int i;
    for (i = 0; i < 8; ++i)
        r[i] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)state[i])),
                                  _mm256_loadu_si256((const __m256i *)state[i + 8]), 1);
    transpose8x2(r, words);
}

static inline void store_states16(uint32_t *const state[16], const __m512i words[8])
{
    __m512i r[8];
    int i;
    transpose8x2(words, r);
    for (i = 0; i < 8; ++i) {
        _mm256_storeu_si256((__m256i *)state[i], _mm512_castsi512_si256(r[i]));
        _mm256_storeu_si256((__m256i *)state[i + 8], _mm512_extracti64x4_epi64(r[i], 1));
    }
}

static inline void store_digests16(unsigned char *const out[16], const __m512i digest[8])
{
    __m512i r[8];
    int i;
    transpose8x2(digest, r);
    for (i = 0; i < 8; ++i) {
        __m512i v = bswap32x16(r[i]);
        _mm256_storeu_si256((__m256i *)out[i], _mm512_castsi512_si256(v));
        _mm256_storeu_si256((__m256i *)out[i + 8], _mm512_extracti64x4_epi64(v, 1));
    }
}

#define V_LOAD_STATES(state, words) load_states16((state), (words))
#define V_STORE_STATES(state, words) store_states16((state), (words))
#define V_STORE_DIGESTS(out, digest) store_digests16((out), (digest))
#define V_GATHER_BLOCK(p, at, w) gather16((p), (at), (w))
#define V_TAIL_BLOCK(tails, w) tail16((tails), (w))
#define MULTIWAY_D64 libsha_avx512_d64_16way
#define MULTIWAY_MANY libsha_avx512_many_16way
#define MULTIWAY_CHAINS libsha_avx512_chains_16way
#define MULTIWAY_MANY_LAST libsha_avx512_many_last_16way
#define MULTIWAY_MANY_WHOLE libsha_avx512_many_whole_16way
#include "body_lanes.h"

#include "body_lanes_reset.h"
#undef V_PREFIX

/* Eight lanes: avx2(8way) with AVX-512VL's rotate and logic. */
#define V_PREFIX _mm256_
#include "body_lanes_m256.h"
#include "body_transpose_8x8.h"
#define V_GATHER_BLOCK(p, at, w) GATHER8_BLOCK(p, at, w)
#define MULTIWAY_D64 libsha_avx512_d64_8way
#define MULTIWAY_MANY libsha_avx512_many_8way
#define MULTIWAY_CHAINS libsha_avx512_chains_8way
#define MULTIWAY_MANY_LAST libsha_avx512_many_last_8way
#define MULTIWAY_MANY_WHOLE libsha_avx512_many_whole_8way
#include "body_lanes.h"

#include "body_lanes_reset.h"
#undef V_PREFIX

/* Four lanes: sse41(4way) with AVX-512VL's rotate and logic, VEX-encoded. */
#define V_PREFIX _mm_
#include "body_lanes_m128.h"
#include "body_transpose_4x4.h"
#define V_GATHER_BLOCK(p, at, w) GATHER4_BLOCK(p, at, w)
#define MULTIWAY_D64 libsha_avx512_d64_4way
#define MULTIWAY_MANY libsha_avx512_many_4way
#define MULTIWAY_CHAINS libsha_avx512_chains_4way
#include "body_lanes.h"
