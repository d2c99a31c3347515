/*
 * One message per vector lane: the bodies shared by sse41(4way), avx2(8way),
 * the AVX-512 kernels and the tests' portable 16-lane build. The includer
 * defines VEC, LANES, the OP_* operations on VEC (see body_rounds.h),
 * V_SET1(x), V_LOADU(p), V_STOREU(p, v), V_GATHER_BLOCK(p, at, w) (the 16 words
 * of the block at p[lane] + at in each lane, byte-swapped, one vector per word
 * into w[0..15]) and the functions' names: MULTIWAY_D64 (SHA256D64 of LANES
 * blobs) and MULTIWAY_MANY (blocks of LANES independent messages).
 *
 * Optional: MULTIWAY_MANY_LAST and MULTIWAY_MANY_WHOLE name a last-block
 * kernel (libsha_many_last_f) and a whole-message one (libsha_many_whole_f),
 * with V_TAIL_BLOCK(tails, w) where the instruction set can pad the tails in
 * registers (the words of each lane's tail, zero from its end: w[14] and
 * w[15], the length, are set here); without it the tails are padded in
 * stack buffers and gathered.
 *
 * Optional: MULTIWAY_CHAINS names a PBKDF2 chains kernel (libsha_chains_f).
 *
 * Optional: V_LOAD_STATES(state, words), V_STORE_STATES(state, words) and
 * V_STORE_DIGESTS(out, digest) move the eight state words between the lanes'
 * own arrays and one vector per word with shuffles; without them each word
 * goes through a small array, a scalar access per lane.
 *
 * A file may include this body more than once, for two widths: it has no
 * include guard, and its helpers are named after MULTIWAY_MANY.
 */
#include <stddef.h>

#include "body_padding_schedule.h"
#include "fips180.h"
#include "sha256_impl.h"
#include "body_rounds_ring.h"

/* How far ahead of its block each lane's next one is asked for: the hardware's stream prefetchers lose
 * track of a lane's stream, which jumps to a new message whenever one ends. Measured on Sapphire Rapids,
 * 16 lanes: two blocks ahead made a 100 MB batch 1.25 x faster (mixed lengths and 1 KiB alike), one or
 * three to eight blocks less so; batches in the cache did not move. */
#define MULTIWAY_PREFETCH_AHEAD (2 * 64)

libsha_d64_f MULTIWAY_D64;
libsha_many_f MULTIWAY_MANY;

#define SET_STATE(s)                                                 \
    a = V_SET1((s)[0]), b = V_SET1((s)[1]), c = V_SET1((s)[2]),        \
    d = V_SET1((s)[3]), e = V_SET1((s)[4]), f = V_SET1((s)[5]),        \
    g = V_SET1((s)[6]), h = V_SET1((s)[7])
#define SET_H0() SET_STATE(LIBSHA_H0)
#define ADD_STATE(s0, s1, s2, s3, s4, s5, s6, s7)                                   \
    a = OP_ADD(a, s0), b = OP_ADD(b, s1), c = OP_ADD(c, s2), d = OP_ADD(d, s3),     \
    e = OP_ADD(e, s4), f = OP_ADD(f, s5), g = OP_ADD(g, s6), h = OP_ADD(h, s7)
#define ADD_SET1(s)                                                                     \
    ADD_STATE(V_SET1((s)[0]), V_SET1((s)[1]), V_SET1((s)[2]), V_SET1((s)[3]),           \
              V_SET1((s)[4]), V_SET1((s)[5]), V_SET1((s)[6]), V_SET1((s)[7]))
#define ADD_H0() ADD_SET1(LIBSHA_H0)
/* The state before a block, kept in memory (saved[]) for the add after it: in registers it would
 * take eight the rounds need. */
#define SAVE_STATE()                                                                        \
    do {                                                                                    \
        saved[0] = a, saved[1] = b, saved[2] = c, saved[3] = d;                             \
        saved[4] = e, saved[5] = f, saved[6] = g, saved[7] = h;                             \
        RING_PIN(saved[0]); RING_PIN(saved[1]); RING_PIN(saved[2]); RING_PIN(saved[3]);     \
        RING_PIN(saved[4]); RING_PIN(saved[5]); RING_PIN(saved[6]); RING_PIN(saved[7]);     \
    } while (0)
#define ADD_SAVED() ADD_STATE(saved[0], saved[1], saved[2], saved[3], saved[4], saved[5], saved[6], saved[7])
/* The block in the ring w[], pinned, on the state a..h (saved and added back). */
#define COMPRESS_RING()                            \
    do {                                           \
        RING_PIN16(w);                             \
        SAVE_STATE();                              \
        RING_ROUNDS64();                           \
        ADD_SAVED(); \
    } while (0)
/* How the block loop holds the lanes' pointers: LANE_POINTERS declares q_, the pointers it gathers
 * from at q_[lane] + LANE_AT(at); in each block LANE_BLOCK(p) comes before the gather, LANE_REREAD()
 * after it (before the prefetches) and LANE_NEXT() at its end.
 * - The AVX-512 kernels (their schedule in registers) read the lanes' pointers from the caller's array
 *   at each use, at one offset for all (RING_K_POINTER hides that they stay the same): sixteen pointers
 *   and the loop's own do not fit in x86's general registers, and gcc kept copies on the stack and
 *   stored them back (16 lanes: 68 stack operands a block where this has 16; 8 lanes 40 and 24).
 * - sse41(4way) and avx2(8way) keep a copy of each pointer, advanced block by block: on offsets from
 *   the caller's pointers the 4-lane loop ran 1.13 x slower at 16 KiB on Zen 3 (and 1.08 x for 8 lanes
 *   reading them again each block). */
#if defined(RING_IN_REGISTERS)
#define LANE_POINTERS(p, at, count) const unsigned char *const *q_
#define LANE_AT(at) (at)
#define LANE_BLOCK(p) do { q_ = (p); RING_K_POINTER(q_); } while (0)
#define LANE_REREAD() RING_K_POINTER(q_)
#define LANE_NEXT() ((void)0)
#else
#define LANE_POINTERS(p, at, count)                                         \
    const unsigned char *q_[LANES];                                         \
    for (l_ = 0; l_ < LANES && (count) > 0; ++l_)                           \
        q_[l_] = (p)[l_] + (at)
#define LANE_AT(at) 0
#define LANE_BLOCK(p) ((void)0)
#define LANE_REREAD() ((void)0)
#define LANE_NEXT()                                                         \
    for (l_ = 0; l_ < LANES; ++l_)                                          \
        q_[l_] += 64
#endif
/* `count` blocks at p[lane] + at in each lane into a..h, `at` advanced past them. */
#define COMPRESS_BLOCKS(p, at, count)                                       \
    do {                                                                    \
        size_t n_;                                                          \
        int l_;                                                             \
        LANE_POINTERS(p, at, count);                                        \
        for (n_ = (count); n_ > 0; --n_) {                                  \
            LANE_BLOCK(p);                                                  \
            V_GATHER_BLOCK(q_, LANE_AT(at), w);                             \
            LANE_REREAD();                                                  \
            for (l_ = 0; l_ < LANES; ++l_)                                  \
                LIBSHA_PREFETCH(q_[l_] + LANE_AT(at), MULTIWAY_PREFETCH_AHEAD); \
            COMPRESS_RING();                                                \
            LANE_NEXT();                                                    \
            (at) += 64;                                                     \
        }                                                                   \
    } while (0)
/* The outer hash of each lane's 32-byte digest a..h, padded, from state s after `before` bytes:
 * SHA-256's (LIBSHA_H0, 0), or an HMAC's (its outer state after the 64-byte key block). */
#define OUTER_HASH_FROM(s, before)                                                     \
    w[0] = a, w[1] = b, w[2] = c, w[3] = d, w[4] = e, w[5] = f, w[6] = g, w[7] = h;    \
    w[8] = V_SET1(0x80000000u);                                                        \
    w[9] = w[10] = w[11] = w[12] = w[13] = w[14] = V_SET1(0);                          \
    w[15] = V_SET1(((before) + 32) * 8);                                               \
    RING_PIN16(w);                                                                     \
    SET_STATE(s);                                                                      \
    RING_ROUNDS64();                                                                   \
    ADD_SET1(s)
#define OUTER_HASH() OUTER_HASH_FROM(LIBSHA_H0, 0)

#define MULTIWAY_JOIN2(x, y) x##y
#define MULTIWAY_JOIN(x, y) MULTIWAY_JOIN2(x, y)
#define STORE_DIGESTS MULTIWAY_JOIN(MULTIWAY_MANY, _store_digests)
#define LOAD_STATES MULTIWAY_JOIN(MULTIWAY_MANY, _load_states)
#define STORE_STATES MULTIWAY_JOIN(MULTIWAY_MANY, _store_states)

/* Lane l's digest (a..h) to out[l]. */
static LIBSHA_ALWAYS_INLINE void STORE_DIGESTS(unsigned char *const out[], const VEC digest[8])
#if defined(V_STORE_DIGESTS)
{
    V_STORE_DIGESTS(out, digest);
}
#else
{
    uint32_t lanes[LANES];
    int i, lane;
    for (i = 0; i < 8; ++i) {
        V_STOREU(lanes, digest[i]);
        for (lane = 0; lane < LANES; ++lane)
            libsha_store_be32(out[lane] + 4 * i, lanes[lane]);
    }
}
#endif

/* Word i of every lane's state, one vector per word. */
static LIBSHA_ALWAYS_INLINE void LOAD_STATES(uint32_t *const state[], VEC words[8])
#if defined(V_LOAD_STATES)
{
    V_LOAD_STATES(state, words);
}
#else
{
    uint32_t lanes[LANES];
    int i, lane;
    for (i = 0; i < 8; ++i) {
        for (lane = 0; lane < LANES; ++lane)
            lanes[lane] = state[lane][i];
        words[i] = V_LOADU(lanes);
    }
}
#endif

/* The inverse: word i of every lane back to state[lane][i]. */
static LIBSHA_ALWAYS_INLINE void STORE_STATES(uint32_t *const state[], const VEC words[8])
#if defined(V_STORE_STATES)
{
    V_STORE_STATES(state, words);
}
#else
{
    uint32_t lanes[LANES];
    int i, lane;
    for (i = 0; i < 8; ++i) {
        V_STOREU(lanes, words[i]);
        for (lane = 0; lane < LANES; ++lane)
            state[lane][i] = lanes[lane];
    }
}
#endif

void MULTIWAY_D64(unsigned char *out, const unsigned char *in)
{
    VEC a, b, c, d, e, f, g, h;
    VEC saved[8];
    VEC w[16];
    const unsigned char *p[LANES];
    unsigned char *outs[LANES];
    int lane;

    for (lane = 0; lane < LANES; ++lane)
        p[lane] = in + 64 * lane, outs[lane] = out + 32 * lane;

    /* Inner hash, the message block. */
    V_GATHER_BLOCK(p, 0, w);
    RING_PIN16(w);
    SET_H0();
    RING_ROUNDS64();
    ADD_H0();

    /* Inner hash, the padding block: no schedule to compute. */
    SAVE_STATE();
    RING_ROUNDS64_KNOWN(LIBSHA_PAD64_KW);
    ADD_SAVED();

    OUTER_HASH();
    {
        const VEC digest[8] = {a, b, c, d, e, f, g, h};
        STORE_DIGESTS(outs, digest); /* all input is read by now: out may equal in */
    }
}

/* Many messages: lane l compresses n blocks from blocks[l] into state[l].
 * The states are transposed into vectors once per call, not per block. */
void MULTIWAY_MANY(uint32_t *const state[], const unsigned char *const blocks[], size_t n)
{
    VEC a, b, c, d, e, f, g, h;
    VEC saved[8];
    VEC words[8], w[16];
    size_t at = 0;

    LOAD_STATES(state, words);
    a = words[0], b = words[1], c = words[2], d = words[3];
    e = words[4], f = words[5], g = words[6], h = words[7];

    COMPRESS_BLOCKS(blocks, at, n);

    words[0] = a, words[1] = b, words[2] = c, words[3] = d;
    words[4] = e, words[5] = f, words[6] = g, words[7] = h;
    STORE_STATES(state, words);
}

#if defined(MULTIWAY_CHAINS)
libsha_chains_f MULTIWAY_CHAINS;
#define CHAIN_WORDS MULTIWAY_JOIN(MULTIWAY_MANY, _chain_words)

/* Lane l's chain field at byte `at` of *chains[l] (its inner or outer state, U or T), one vector
 * per word. */
static LIBSHA_ALWAYS_INLINE void CHAIN_WORDS(struct libsha_chain *const chains[], size_t at, VEC words[8],
                                             int store)
{
    uint32_t *field[LANES];
    int lane;
    for (lane = 0; lane < LANES; ++lane)
        field[lane] = (uint32_t *)((unsigned char *)chains[lane] + at);
    if (store)
        STORE_STATES(field, words);
    else
        LOAD_STATES(field, words);
}

/* A chain's block: its 32 bytes x[0..7] into the ring (the padding is RING_ROUNDS64_CHAIN's
 * constants), the rounds from state s (eight vectors), added back, into x. */
#define CHAIN_BLOCK(s, x)                                                               \
    w[0] = x[0], w[1] = x[1], w[2] = x[2], w[3] = x[3], w[4] = x[4], w[5] = x[5];       \
    w[6] = x[6], w[7] = x[7];                                                           \
    RING_PIN_W(w[0]); RING_PIN_W(w[1]); RING_PIN_W(w[2]); RING_PIN_W(w[3]);             \
    RING_PIN_W(w[4]); RING_PIN_W(w[5]); RING_PIN_W(w[6]); RING_PIN_W(w[7]);             \
    a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];     \
    RING_ROUNDS64_CHAIN();                                                              \
    x[0] = OP_ADD(a, s[0]), x[1] = OP_ADD(b, s[1]), x[2] = OP_ADD(c, s[2]);             \
    x[3] = OP_ADD(d, s[3]), x[4] = OP_ADD(e, s[4]), x[5] = OP_ADD(f, s[5]);             \
    x[6] = OP_ADD(g, s[6]), x[7] = OP_ADD(h, s[7])

/* PBKDF2's iterations on LANES chains, one per lane: the chains' words stay
 * transposed, one vector per word, for all `count` iterations. */
void MULTIWAY_CHAINS(struct libsha_chain *const chains[], uint64_t count)
{
    VEC a, b, c, d, e, f, g, h;
    VEC inner[8], outer[8], u[8], t[8], w[16];
    int i;

    CHAIN_WORDS(chains, offsetof(struct libsha_chain, inner), inner, 0);
    CHAIN_WORDS(chains, offsetof(struct libsha_chain, outer), outer, 0);
    CHAIN_WORDS(chains, offsetof(struct libsha_chain, u), u, 0);
    CHAIN_WORDS(chains, offsetof(struct libsha_chain, t), t, 0);
    for (; count > 0; --count) {
        int half;
        /* Inner then outer hash: one copy of the rounds (a loop too large for the compilers to unroll). */
        for (half = 0; half < 2; ++half) {
            const VEC *s = half == 0 ? inner : outer;
            CHAIN_BLOCK(s, u);
        }
        for (i = 0; i < 8; ++i)
            t[i] = OP_XOR(t[i], u[i]);
    }
    CHAIN_WORDS(chains, offsetof(struct libsha_chain, u), u, 1);
    CHAIN_WORDS(chains, offsetof(struct libsha_chain, t), t, 1);
}
#undef CHAIN_WORDS
#undef CHAIN_BLOCK
#endif

#if defined(MULTIWAY_MANY_LAST)
libsha_many_last_f MULTIWAY_MANY_LAST;
libsha_many_whole_f MULTIWAY_MANY_WHOLE;
#define TAIL_WORDS MULTIWAY_JOIN(MULTIWAY_MANY, _tail_words)
#define WHOLE_GROUP MULTIWAY_JOIN(MULTIWAY_MANY, _whole_group)

/* Each lane's tail (< 56 bytes) padded, as message words; its length in bits
 * in w[14] and w[15]. */
static LIBSHA_ALWAYS_INLINE void TAIL_WORDS(const struct libsha_tail tails[], VEC w[16])
{
    uint32_t hi[LANES], lo[LANES];
    int lane;
#if defined(V_TAIL_BLOCK)
    V_TAIL_BLOCK(tails, w);
#else
    {
        unsigned char padded[LANES][64];
        const unsigned char *p[LANES];
        for (lane = 0; lane < LANES; ++lane) {
            memset(padded[lane], 0, 64);
            if (tails[lane].len > 0)
                memcpy(padded[lane], tails[lane].rest, tails[lane].len);
            padded[lane][tails[lane].len] = 0x80;
            p[lane] = padded[lane];
        }
        V_GATHER_BLOCK(p, 0, w);
    }
#endif
    for (lane = 0; lane < LANES; ++lane) {
        hi[lane] = (uint32_t)(tails[lane].bits >> 32);
        lo[lane] = (uint32_t)tails[lane].bits;
    }
    w[14] = V_LOADU(hi), w[15] = V_LOADU(lo);
}

/* The digests out: with LIBSHA_DOUBLE after the outer hash; after an HMAC's, from its outer
 * state (outer, when not NULL). One outer hash for both: each copy of the rounds is compile time
 * in every build, and the state is broadcast from memory either way. */
#define FINISH_FROM(out, flags, outer)                                           \
    do {                                                                         \
        if ((outer) != NULL || ((flags) & LIBSHA_DOUBLE)) {                      \
            const uint32_t *from_ = (outer) != NULL ? (outer) : LIBSHA_H0;       \
            OUTER_HASH_FROM(from_, (outer) != NULL ? 64 : 0);                    \
        }                                                                        \
        {                                                                        \
            const VEC digest_[8] = {a, b, c, d, e, f, g, h};                     \
            STORE_DIGESTS(out, digest_);                                         \
        }                                                                        \
    } while (0)

/* The last block of LANES messages, each tail (< 56 bytes) padded here, and
 * with LIBSHA_DOUBLE the outer hash, in the same registers. */
void MULTIWAY_MANY_LAST(uint32_t *const state[], const struct libsha_tail tails[], unsigned char *const out[],
                        unsigned flags)
{
    VEC a, b, c, d, e, f, g, h;
    VEC saved[8];
    VEC words[8], w[16];

    TAIL_WORDS(tails, w);
    LOAD_STATES(state, words);
    a = words[0], b = words[1], c = words[2], d = words[3];
    e = words[4], f = words[5], g = words[6], h = words[7];
    COMPRESS_RING();
    FINISH_FROM(out, flags, (flags & LIBSHA_DOUBLE) ? tails[0].outer : (const uint32_t *)NULL);
}

/* LANES whole messages of one length at msgs[lane] + at: from the initial state (or start's, the
 * same in every lane) through their full blocks and tails to the digests, the state never leaving
 * registers. A lane's msgs[lane] may be NULL where len is 0. */
static LIBSHA_ALWAYS_INLINE void WHOLE_GROUP(const unsigned char *const msgs[], size_t at, size_t len,
                                             unsigned char *const out[], unsigned flags,
                                             const struct libsha_start *start, const uint32_t *kw)
{
    VEC a, b, c, d, e, f, g, h;
    VEC saved[8];
    VEC w[16];
    const uint32_t *outer = start != NULL ? start->outer : NULL;
    uint64_t bits = ((start != NULL ? start->bytes : 0) + len) * 8;

    if (start != NULL) {
        SET_STATE(start->state);
    } else {
        SET_H0();
    }
    COMPRESS_BLOCKS(msgs, at, len / 64);
    if (len % 64 == 0) {
        /* The padding block is the same in every lane: its K + W as scalars. */
        SAVE_STATE();
        RING_ROUNDS64_KNOWN(kw);
        ADD_SAVED();
    } else {
        const unsigned char *p[LANES];
        struct libsha_tail tails[LANES];
        int lane;
        for (lane = 0; lane < LANES; ++lane)
            p[lane] = msgs[lane] + at;
        libsha_same_length_tails(tails, p, LANES, len, bits);
        TAIL_WORDS(tails, w);
        COMPRESS_RING();
    }
    FINISH_FROM(out, flags, outer);
}

void MULTIWAY_MANY_WHOLE(const unsigned char *const msgs[], size_t len, unsigned char *const out[], unsigned flags,
                         const struct libsha_start *start, const uint32_t *kw, size_t groups, size_t step)
{
    unsigned char *o[LANES];
    size_t g;
    int lane;
    for (g = 0; g < groups; ++g) {
        for (lane = 0; lane < LANES; ++lane)
            o[lane] = out[lane] + g * 32 * LANES;
        WHOLE_GROUP(msgs, len > 0 ? g * step : 0, len, o, flags, start, kw);
    }
}
#undef WHOLE_GROUP
#undef TAIL_WORDS
#undef FINISH_FROM
#endif

#undef STORE_DIGESTS
#undef LOAD_STATES
#undef STORE_STATES
#undef COMPRESS_BLOCKS
#undef LANE_POINTERS
#undef LANE_AT
#undef LANE_BLOCK
#undef LANE_REREAD
#undef LANE_NEXT
