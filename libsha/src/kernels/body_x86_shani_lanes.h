/*
 * SHA-NI kernels of LANES independent lanes, their round chains interleaved:
 * a sha256rnds2 waits on the one before it in its lane, so every other lane's
 * fills the gap. How many chains pay depends on the CPU: two reach the
 * instruction's throughput on Intel, AMD keeps up to four in flight (the CPU
 * model table says where a row of four is chosen).
 *
 * The includer (x86_shani_2way.c, x86_shani_4way.c) defines LANES (2, 3 or 4) and the
 * names of the kernels it wants (each one left undefined is not built):
 *   LANES_MANY_WHOLE  libsha_many_whole_f: messages of one length, state and
 *                     tails in registers, the padding block of a whole
 *                     number of blocks from its K + W table; 64-byte ones
 *                     as pairs in a pipeline (with 4 lanes, lanes 0-1 and
 *                     then 2-3);
 *   LANES_D64         libsha_d64_f;
 *   LANES_MANY        libsha_many_f;
 *   LANES_MANY_LAST   libsha_many_last_f;
 *   LANES_CHAINS      libsha_chains_f.
 * Lane l's registers are named with l pasted in (a0, c0, m0_0 .. m0_3 for
 * lane 0): EACH(X, ...) writes X once a lane, so every step below is written
 * once for any width and compiles to straight-line code.
 */
#include "body_x86_last_block.h"
#include "body_x86_shani.h"

#define LANES_JOIN2(x, y) x##y
#define LANES_JOIN(x, y) LANES_JOIN2(x, y)
#define WHOLE_GROUP LANES_JOIN(LANES_MANY_WHOLE, _group)
#define PAIR_AT LANES_JOIN(LANES_MANY_WHOLE, _pair_at)
#define PIPELINED_64 LANES_JOIN(LANES_MANY_WHOLE, _pipelined_64)

#if LANES == 2
#  define EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__)
#elif LANES == 3
#  define EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__)
#elif LANES == 4
#  define EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__) X(3, __VA_ARGS__)
#else
#  error "LANES must be 2, 3 or 4"
#endif

/* A lane's state (ABEF in a, CDGH in c), its saved copy, its message words. */
#define DECLARE_LANE(l, _) __m128i a##l, c##l, m##l##_0, m##l##_1, m##l##_2, m##l##_3;
#define DECLARE_SAVED_LANE(l, _) __m128i sa##l, sc##l;
#define SET_LANE(l, abef, cdgh) a##l = (abef), c##l = (cdgh);
#define SAVE_LANE(l, _) sa##l = a##l, sc##l = c##l;
#define ADD_SAVED_LANE(l, _) a##l = _mm_add_epi32(a##l, sa##l), c##l = _mm_add_epi32(c##l, sc##l);
#define ADD_LANE(l, abef, cdgh) a##l = _mm_add_epi32(a##l, abef), c##l = _mm_add_epi32(c##l, cdgh);
#define LOAD_BLOCK_LANE(l, p)                                                             \
    m##l##_0 = LOAD_W(p[l], 0, mask), m##l##_1 = LOAD_W(p[l], 1, mask);                   \
    m##l##_2 = LOAD_W(p[l], 2, mask), m##l##_3 = LOAD_W(p[l], 3, mask);
#define SWAP_BLOCK_LANE(l, _)                                                             \
    m##l##_0 = _mm_shuffle_epi8(m##l##_0, mask), m##l##_1 = _mm_shuffle_epi8(m##l##_1, mask); \
    m##l##_2 = _mm_shuffle_epi8(m##l##_2, mask), m##l##_3 = _mm_shuffle_epi8(m##l##_3, mask);
#define TAIL_LANE(l, tails) LIBSHA_X86_TAIL_BLOCK((tails)[l], m##l##_0, m##l##_1, m##l##_2, m##l##_3);
#define OUTER_LANE(l, bits) OUTER_BLOCK_OF(a##l, c##l, m##l##_0, m##l##_1, m##l##_2, m##l##_3, bits);
#define STORE_DIGEST_LANE(l, out) STORE_DIGEST((out)[l], a##l, c##l, mask);
#define LOAD_STATE_LANE(l, state) LOAD_STATE((state)[l], a##l, c##l);
#define STORE_STATE_LANE(l, state) STORE_STATE((state)[l], a##l, c##l);

/* Rounds 4g..4g+3 of every lane on W in m_i; the next four W (into m_i, from m_i..m_l) first. */
#define RNDS_LANE(l, g, i) RNDS4(a##l, c##l, _mm_add_epi32(m##l##_##i, K4(g)));
#define SCHED_LANE(l, i, j, k, q) SCHED4(m##l##_##i, m##l##_##j, m##l##_##k, m##l##_##q);
#define KW_LANE(l, kw, g) KW_RNDS4(a##l, c##l, kw, g);
#define R4(SET, g, i) SET(RNDS_LANE, g, i)
#define S4(SET, g, i, j, k, q) SET(SCHED_LANE, i, j, k, q) SET(RNDS_LANE, g, i)
#define KW4(SET, kw, g) SET(KW_LANE, kw, g)

/* The 64 rounds of each lane of SET (EACH: every lane) over its W0..15 in m_0..m_3 (consumed). */
#define COMPRESS_OF(SET)                                                                  \
    R4(SET, 0, 0) R4(SET, 1, 1) R4(SET, 2, 2) R4(SET, 3, 3)                              \
    S4(SET, 4, 0, 1, 2, 3) S4(SET, 5, 1, 2, 3, 0) S4(SET, 6, 2, 3, 0, 1) S4(SET, 7, 3, 0, 1, 2)     \
    S4(SET, 8, 0, 1, 2, 3) S4(SET, 9, 1, 2, 3, 0) S4(SET, 10, 2, 3, 0, 1) S4(SET, 11, 3, 0, 1, 2)   \
    S4(SET, 12, 0, 1, 2, 3) S4(SET, 13, 1, 2, 3, 0) S4(SET, 14, 2, 3, 0, 1) S4(SET, 15, 3, 0, 1, 2)
/* The 64 rounds of a block the lanes of SET share, from its K + W table. */
#define COMPRESS_KW_OF(SET, kw)                                                            \
    KW4(SET, kw, 0) KW4(SET, kw, 1) KW4(SET, kw, 2) KW4(SET, kw, 3) KW4(SET, kw, 4) KW4(SET, kw, 5)  \
    KW4(SET, kw, 6) KW4(SET, kw, 7) KW4(SET, kw, 8) KW4(SET, kw, 9) KW4(SET, kw, 10) KW4(SET, kw, 11) \
    KW4(SET, kw, 12) KW4(SET, kw, 13) KW4(SET, kw, 14) KW4(SET, kw, 15)
#define LANES_COMPRESS() COMPRESS_OF(EACH)
#define LANES_COMPRESS_KW(kw) COMPRESS_KW_OF(EACH, kw)

/* A block in each lane of SET (every lane: LANES_BLOCK), on the states, saved and added back. */
#define BLOCK_OF(SET, compress) SET(SAVE_LANE, _) compress SET(ADD_SAVED_LANE, _)
#define LANES_BLOCK(compress) BLOCK_OF(EACH, compress)

/* n blocks in each lane at p[lane] (advanced past them), on the lanes' states: the four lanes' asm
 * loop (body_x86_shani_4lanes_asm.h) where the includer has it, else the intrinsics. */
#if defined(SHANI4_BLOCKS_ASM) && LANES == 4
#  define TO_MEMORY_LANE(l, st) (st)[2 * l] = a##l, (st)[2 * l + 1] = c##l;
#  define FROM_MEMORY_LANE(l, st) a##l = (st)[2 * l], c##l = (st)[2 * l + 1];
#  define DECLARE_STATE_LANE(l, _) __m128i a##l, c##l;
#  define LANES_BLOCKS_DECLARE EACH(DECLARE_STATE_LANE, _) /* what LANES_BLOCKS needs */
#  define LANES_BLOCKS(p, n)                                                             \
    do {                                                                                 \
        __m128i st_[8];                                                                  \
        if ((n) > 0) {                                                                   \
            EACH(TO_MEMORY_LANE, st_)                                                    \
            shani4_blocks(st_, p, n);                                                    \
            EACH(FROM_MEMORY_LANE, st_)                                                  \
        }                                                                                \
    } while (0)
#else
#  define LANES_BLOCKS_DECLARE                                                           \
    const __m128i mask = BSWAP32_MASK;                                                   \
    EACH(DECLARE_LANE, _)                                                                \
    EACH(DECLARE_SAVED_LANE, _)
#  define LANES_BLOCKS(p, n)                                                             \
    do {                                                                                 \
        size_t b_, l_;                                                                   \
        for (b_ = (n); b_ > 0; --b_) {                                                   \
            EACH(LOAD_BLOCK_LANE, p)                                                     \
            LANES_BLOCK(LANES_COMPRESS())                                                \
            for (l_ = 0; l_ < LANES; ++l_)                                               \
                p[l_] += 64;                                                             \
        }                                                                                \
    } while (0)
#endif

/* With LIBSHA_DOUBLE (from SHA-256's initial state) or an HMAC's outer state (not NULL), each
 * lane's digest through the outer hash. */
#define LANES_OUTER(flags, outer)                                                        \
    do {                                                                                 \
        if ((outer) != NULL || ((flags) & LIBSHA_DOUBLE)) {                              \
            __m128i o0_ = H0_ABEF, o1_ = H0_CDGH;                                        \
            if ((outer) != NULL)                                                         \
                LOAD_STATE(outer, o0_, o1_);                                             \
            EACH(OUTER_LANE, (outer) != NULL ? 768 : 256)                                \
            EACH(SET_LANE, o0_, o1_)                                                     \
            LANES_COMPRESS()                                                             \
            EACH(ADD_LANE, o0_, o1_)                                                     \
        }                                                                                \
    } while (0)

#if defined(LANES_MANY_WHOLE)
libsha_many_whole_f LANES_MANY_WHOLE;

/* One set of LANES messages of one length (LANES_MANY_WHOLE's contract, one group). */
static LIBSHA_ALWAYS_INLINE void WHOLE_GROUP(const unsigned char *const msgs[], size_t len, unsigned char *const out[],
                                             unsigned flags, const struct libsha_start *start, const uint32_t *kw)
{
    const __m128i mask = BSWAP32_MASK;
    const uint64_t bits = ((start != NULL ? start->bytes : 0) + len) * 8;
    const unsigned char *p[LANES];
    struct libsha_tail tails[LANES];
    __m128i i0 = H0_ABEF, i1 = H0_CDGH;
    size_t lane;
    EACH(DECLARE_LANE, _)
    EACH(DECLARE_SAVED_LANE, _)

    for (lane = 0; lane < LANES; ++lane)
        p[lane] = msgs[lane];
    if (start != NULL)
        LOAD_STATE(start->state, i0, i1);
    EACH(SET_LANE, i0, i1)
    LANES_BLOCKS(p, len / 64);
    if (len % 64 == 0) {
        if (bits == 512)
            kw = LIBSHA_PAD64_KW;
        LANES_BLOCK(LANES_COMPRESS_KW(kw))
    } else {
        libsha_same_length_tails(tails, p, LANES, len, bits);
        EACH(TAIL_LANE, tails)
        EACH(SWAP_BLOCK_LANE, _)
        LANES_BLOCK(LANES_COMPRESS())
    }
    LANES_OUTER(flags, start != NULL ? start->outer : NULL);
    EACH(STORE_DIGEST_LANE, out)
}

#if LANES % 2 == 0
/*
 * 64-byte messages from the initial state (SSZ's nodes, Merkle levels, rows of
 * 64 bytes), a pair at a time in a pipeline: each step runs one pair's
 * message block beside the padding block of the pair before, whose K + W is a
 * table. Four chains are in flight with the registers of three lanes (a pair's
 * state and message words, and two states), where four lanes with message
 * words each would need 24 of the 16 XMM registers.
 */
#define PAIR_A(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) /* the pair in its message block */
#define PAIR_B(X, ...) X(2, __VA_ARGS__) X(3, __VA_ARGS__)
#define PIPE_R4(g, i) PAIR_A(RNDS_LANE, g, i) PAIR_B(KW_LANE, pad_kw, g)
#define PIPE_S4(g, i, j, k, q) PAIR_A(SCHED_LANE, i, j, k, q) PAIR_A(RNDS_LANE, g, i) PAIR_B(KW_LANE, pad_kw, g)
#define PIPE_STEP()                                                                          \
    PIPE_R4(0, 0) PIPE_R4(1, 1) PIPE_R4(2, 2) PIPE_R4(3, 3)                                  \
    PIPE_S4(4, 0, 1, 2, 3) PIPE_S4(5, 1, 2, 3, 0) PIPE_S4(6, 2, 3, 0, 1) PIPE_S4(7, 3, 0, 1, 2)      \
    PIPE_S4(8, 0, 1, 2, 3) PIPE_S4(9, 1, 2, 3, 0) PIPE_S4(10, 2, 3, 0, 1) PIPE_S4(11, 3, 0, 1, 2)    \
    PIPE_S4(12, 0, 1, 2, 3) PIPE_S4(13, 1, 2, 3, 0) PIPE_S4(14, 2, 3, 0, 1) PIPE_S4(15, 3, 0, 1, 2)
#define MOVE_TO_B(l, from) a##l = a##from, c##l = c##from, sa##l = a##l, sc##l = c##l;
/* Pair k of a call's sets of LANES (a pair of lanes from each). */
static LIBSHA_ALWAYS_INLINE void PAIR_AT(const unsigned char *const msgs[], unsigned char *const out[], size_t step,
                                         size_t k, const unsigned char *p[2], unsigned char *o[2])
{
    p[0] = msgs[0] + k * step, p[1] = msgs[1] + k * step;
    o[0] = out[0] + k * 32 * LANES, o[1] = out[1] + k * 32 * LANES;
}

static void PIPELINED_64(const unsigned char *const msgs[], unsigned char *const out[], size_t groups, size_t step)
{
    const __m128i mask = BSWAP32_MASK;
    const unsigned char *p[2];
    unsigned char *o[4];
    size_t k;
    PAIR_A(DECLARE_LANE, _)
    __m128i a2, c2, a3, c3;
    PAIR_A(DECLARE_SAVED_LANE, _)
    PAIR_B(DECLARE_SAVED_LANE, _)

    PAIR_AT(msgs, out, step, 0, p, o);
    PAIR_A(LOAD_BLOCK_LANE, p)
    PAIR_A(SET_LANE, H0_ABEF, H0_CDGH)
    COMPRESS_OF(PAIR_A) /* the first pair's message block alone */
    PAIR_A(ADD_LANE, H0_ABEF, H0_CDGH)
    for (k = 1; k < groups; ++k) {
        const uint32_t *pad_kw = LIBSHA_PAD64_KW;
#if defined(__GNUC__) || defined(__clang__)
        __asm__("" : "+r"(pad_kw)); /* read from the table where used: not hoisted into spilled registers */
#endif
        MOVE_TO_B(2, 0) MOVE_TO_B(3, 1)
        o[2] = o[0], o[3] = o[1];
        PAIR_AT(msgs, out, step, k, p, o);
        PAIR_A(LOAD_BLOCK_LANE, p)
        PAIR_A(SET_LANE, H0_ABEF, H0_CDGH)
        PIPE_STEP()
        PAIR_A(ADD_LANE, H0_ABEF, H0_CDGH)
        PAIR_B(ADD_SAVED_LANE, _)
        PAIR_B(STORE_DIGEST_LANE, o)
    }
    BLOCK_OF(PAIR_A, COMPRESS_KW_OF(PAIR_A, LIBSHA_PAD64_KW)) /* the last pair's padding block alone */
    PAIR_A(STORE_DIGEST_LANE, o)
}
#undef PAIR_A
#undef PAIR_B
#undef PIPE_R4
#undef PIPE_S4
#undef PIPE_STEP
#undef MOVE_TO_B
#endif

void LANES_MANY_WHOLE(const unsigned char *const msgs[], size_t len, unsigned char *const out[], unsigned flags,
                      const struct libsha_start *start, const uint32_t *kw, size_t groups, size_t step)
{
    const unsigned char *p[LANES];
    unsigned char *o[LANES];
    size_t g, lane;
#if LANES % 2 == 0
    if (len == 64 && start == NULL && !(flags & LIBSHA_DOUBLE)) {
        for (lane = 0; lane < LANES; lane += 2)
            PIPELINED_64(msgs + lane, out + lane, groups, step);
        return;
    }
#endif
    for (g = 0; g < groups; ++g) {
        for (lane = 0; lane < LANES; ++lane) {
            p[lane] = msgs[lane] != NULL ? msgs[lane] + g * step : NULL; /* NULL: len is 0 */
            o[lane] = out[lane] + g * 32 * LANES;
        }
        WHOLE_GROUP(p, len, o, flags, start, kw);
    }
}
#endif

#if defined(LANES_D64)
libsha_d64_f LANES_D64;

void LANES_D64(unsigned char *out, const unsigned char *in)
{
    const __m128i mask = BSWAP32_MASK;
    const unsigned char *p[LANES];
    unsigned char *o[LANES];
    size_t lane;
    EACH(DECLARE_LANE, _)
    EACH(DECLARE_SAVED_LANE, _)

    for (lane = 0; lane < LANES; ++lane)
        p[lane] = in + 64 * lane, o[lane] = out + 32 * lane;
    EACH(LOAD_BLOCK_LANE, p)
    EACH(SET_LANE, H0_ABEF, H0_CDGH)
    LANES_COMPRESS()
    EACH(ADD_LANE, H0_ABEF, H0_CDGH)
    LANES_BLOCK(LANES_COMPRESS_KW(LIBSHA_PAD64_KW))
    LANES_OUTER(LIBSHA_DOUBLE, (const uint32_t *)NULL);
    EACH(STORE_DIGEST_LANE, o) /* every blob read before: out may be in */
}
#endif

#if defined(LANES_MANY)
libsha_many_f LANES_MANY;

void LANES_MANY(uint32_t *const state[], const unsigned char *const blocks[], size_t n)
{
    const unsigned char *p[LANES];
    size_t lane;
    LANES_BLOCKS_DECLARE

    for (lane = 0; lane < LANES; ++lane)
        p[lane] = blocks[lane];
    EACH(LOAD_STATE_LANE, state)
    LANES_BLOCKS(p, n);
    EACH(STORE_STATE_LANE, state)
}
#endif

#if defined(LANES_MANY_LAST)
libsha_many_last_f LANES_MANY_LAST;

void LANES_MANY_LAST(uint32_t *const state[], const struct libsha_tail tails[], unsigned char *const out[],
                     unsigned flags)
{
    const __m128i mask = BSWAP32_MASK;
    const uint32_t *kw;
    size_t lane;
    int same = 1;
    EACH(DECLARE_LANE, _)
    EACH(DECLARE_SAVED_LANE, _)

    /* One K + W table for every lane: two blocks of padding alone (64-byte messages, D64's table), or
     * a batch's table for its length. */
    for (lane = 1; lane < LANES; ++lane)
        same &= tails[lane].bits == tails[0].bits && tails[lane].kw == tails[0].kw;
    kw = !same ? NULL : tails[0].bits == 512 ? LIBSHA_PAD64_KW : tails[0].kw;
    EACH(LOAD_STATE_LANE, state)
    if (kw != NULL) {
        LANES_BLOCK(LANES_COMPRESS_KW(kw))
    } else {
        EACH(TAIL_LANE, tails)
        EACH(SWAP_BLOCK_LANE, _)
        LANES_BLOCK(LANES_COMPRESS())
    }
    LANES_OUTER(flags, tails[0].outer);
    EACH(STORE_DIGEST_LANE, out)
}
#endif

/* PBKDF2's iterations: each lane's two blocks (inner, then outer state) of an HMAC of its last U,
 * the result the next block's message; the state of every chain in registers between them. */
#define CHAIN_DECLARE_LANE(l, _) __m128i in0_##l, in1_##l, out0_##l, out1_##l, t0_##l, t1_##l;
#define CHAIN_LOAD_LANE(l, _)                                                              \
    LOAD_STATE(chains[l]->inner, in0_##l, in1_##l);                                         \
    LOAD_STATE(chains[l]->outer, out0_##l, out1_##l);                                       \
    m##l##_0 = _mm_loadu_si128((const __m128i *)&chains[l]->u[0]);                          \
    m##l##_1 = _mm_loadu_si128((const __m128i *)&chains[l]->u[4]);                          \
    m##l##_2 = _mm_set_epi32(0, 0, 0, (int)0x80000000);                                     \
    m##l##_3 = _mm_set_epi32(768, 0, 0, 0);                                                 \
    t0_##l = _mm_loadu_si128((const __m128i *)&chains[l]->t[0]);                            \
    t1_##l = _mm_loadu_si128((const __m128i *)&chains[l]->t[4]);
#define CHAIN_STORE_LANE(l, _)                                                             \
    _mm_storeu_si128((__m128i *)&chains[l]->u[0], m##l##_0);                                \
    _mm_storeu_si128((__m128i *)&chains[l]->u[4], m##l##_1);                                \
    _mm_storeu_si128((__m128i *)&chains[l]->t[0], t0_##l);                                  \
    _mm_storeu_si128((__m128i *)&chains[l]->t[4], t1_##l);
#define CHAIN_FROM_LANE(l, which) SET_LANE(l, which##0_##l, which##1_##l)
#define CHAIN_ADD_LANE(l, which) ADD_LANE(l, which##0_##l, which##1_##l)
#define CHAIN_XOR_LANE(l, _) t0_##l = _mm_xor_si128(t0_##l, m##l##_0), t1_##l = _mm_xor_si128(t1_##l, m##l##_1);
#define CHAIN_BLOCK(which)                                                                 \
    EACH(CHAIN_FROM_LANE, which) LANES_COMPRESS() EACH(CHAIN_ADD_LANE, which)              \
    EACH(OUTER_LANE, 768)

#if defined(LANES_CHAINS)
libsha_chains_f LANES_CHAINS;

void LANES_CHAINS(struct libsha_chain *const chains[], uint64_t count)
{
#if defined(SHANI4_BLOCKS_ASM) && LANES == 4
    __m128i ch[32]; /* shani4_chains's layout */
    size_t l;

    for (l = 0; l < LANES; ++l) {
        LOAD_STATE(chains[l]->inner, ch[8 * l], ch[8 * l + 1]);
        LOAD_STATE(chains[l]->outer, ch[8 * l + 2], ch[8 * l + 3]);
        ch[8 * l + 4] = _mm_loadu_si128((const __m128i *)&chains[l]->t[0]);
        ch[8 * l + 5] = _mm_loadu_si128((const __m128i *)&chains[l]->t[4]);
        ch[8 * l + 6] = _mm_loadu_si128((const __m128i *)&chains[l]->u[0]);
        ch[8 * l + 7] = _mm_loadu_si128((const __m128i *)&chains[l]->u[4]);
    }
    if (count > 0)
        shani4_chains(ch, count);
    for (l = 0; l < LANES; ++l) {
        _mm_storeu_si128((__m128i *)&chains[l]->t[0], ch[8 * l + 4]);
        _mm_storeu_si128((__m128i *)&chains[l]->t[4], ch[8 * l + 5]);
        _mm_storeu_si128((__m128i *)&chains[l]->u[0], ch[8 * l + 6]);
        _mm_storeu_si128((__m128i *)&chains[l]->u[4], ch[8 * l + 7]);
    }
#else
    EACH(DECLARE_LANE, _)
    EACH(CHAIN_DECLARE_LANE, _)

    EACH(CHAIN_LOAD_LANE, _)
    for (; count > 0; --count) {
        CHAIN_BLOCK(in)
        CHAIN_BLOCK(out)
        EACH(CHAIN_XOR_LANE, _)
    }
    EACH(CHAIN_STORE_LANE, _)
#endif
}
#endif

#undef EACH
#undef DECLARE_LANE
#undef DECLARE_SAVED_LANE
#undef SET_LANE
#undef SAVE_LANE
#undef ADD_SAVED_LANE
#undef ADD_LANE
#undef LOAD_BLOCK_LANE
#undef SWAP_BLOCK_LANE
#undef TAIL_LANE
#undef OUTER_LANE
#undef STORE_DIGEST_LANE
#undef LOAD_STATE_LANE
#undef STORE_STATE_LANE
#undef RNDS_LANE
#undef SCHED_LANE
#undef KW_LANE
#undef R4
#undef S4
#undef KW4
#undef COMPRESS_OF
#undef COMPRESS_KW_OF
#undef LANES_COMPRESS
#undef LANES_COMPRESS_KW
#undef LANES_BLOCK
#undef LANES_BLOCKS
#undef LANES_BLOCKS_DECLARE
#undef DECLARE_STATE_LANE
#undef TO_MEMORY_LANE
#undef FROM_MEMORY_LANE
#undef BLOCK_OF
#undef LANES_OUTER
#undef CHAIN_DECLARE_LANE
#undef CHAIN_LOAD_LANE
#undef CHAIN_STORE_LANE
#undef CHAIN_FROM_LANE
#undef CHAIN_ADD_LANE
#undef CHAIN_XOR_LANE
#undef CHAIN_BLOCK
#undef LANES_JOIN
#undef LANES_JOIN2
#undef WHOLE_GROUP
#undef PAIR_AT
#undef PIPELINED_64
