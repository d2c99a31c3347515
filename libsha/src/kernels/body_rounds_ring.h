/*
 * SHA-256's 64 rounds for the lane bodies (body_lanes.h), the message
 * schedule in a ring of 16 words in memory, each new word computed in the
 * round that first needs it.
 *
 * Why a ring in memory: body_rounds.h's schedule in sixteen variables, beside
 * the state, its saved copy and temporaries, keeps about 34 vectors live,
 * more than x86 has registers; the compiler then spills where it likes (gcc
 * 12: 301 spills in avx2(8way)'s block) and reloads on the rounds' critical
 * path. Here the registers hold the state and a few temporaries; a ring word
 * is stored once and read as a memory operand. RING_PIN tells GCC and Clang
 * the word must live in memory, or they would lift the whole ring back into
 * registers.
 *
 * Maj(a, b, c) is b ^ ((a ^ b) & (b ^ c)), and this round's b ^ c is the last
 * round's a ^ b (kept in bc): three operations a round where the plain form
 * takes four. An instruction set whose Maj is one operation (AVX-512's
 * vpternlogd) defines OP_MAJ before body_rounds.h and keeps it.
 *
 * With 32 vector registers (AVX-512, every width) the ring fits in them
 * beside the state: an includer defines RING_IN_REGISTERS before its first
 * include of this header, with a round and a schedule word as
 * RING_ROUND_OPS(a, b, c, d, e, f, g, h, kw) and RING_SCHEDULE_OPS(wi, w1,
 * w9, w14) (body_rounds_avx512_asm.h). The ring is then never pinned, and
 * each schedule word is made sixteen rounds before the round that takes it.
 *
 * The includer defines body_rounds.h's OP_* and V_SET1, and names its state
 * a..h and the ring w[16] (an array of VEC).
 */
#ifndef LIBSHA_BODY_ROUNDS_RING_H
#define LIBSHA_BODY_ROUNDS_RING_H

#ifndef OP_MAJ
#define RING_MAJ_BY_XOR 1
#endif
#include "body_rounds.h"

#if defined(__GNUC__) || defined(__clang__)
#define RING_PIN(x) __asm__("" : "+m"(x))
/* K through a pointer the compiler cannot see through: with the constants in view, gcc builds
 * each K[i] vector from an immediate (mov, vmovd, vpbroadcastd, and a general register) where
 * one broadcast load does. */
#define RING_K_POINTER(k) __asm__("" : "+r"(k))
#else
#define RING_PIN(x) ((void)0) /* MSVC keeps large arrays in memory without being told */
#define RING_K_POINTER(k) ((void)0)
#endif
/* A ring word's pin: RING_PIN, or nothing where the ring lives in registers. */
#if defined(RING_IN_REGISTERS)
#define RING_PIN_W(x) ((void)0)
#else
#define RING_PIN_W(x) RING_PIN(x)
#endif
#define RING_PIN16(w)                                                                          \
    do {                                                                                       \
        RING_PIN_W(w[0]); RING_PIN_W(w[1]); RING_PIN_W(w[2]); RING_PIN_W(w[3]);                 \
        RING_PIN_W(w[4]); RING_PIN_W(w[5]); RING_PIN_W(w[6]); RING_PIN_W(w[7]);                 \
        RING_PIN_W(w[8]); RING_PIN_W(w[9]); RING_PIN_W(w[10]); RING_PIN_W(w[11]);               \
        RING_PIN_W(w[12]); RING_PIN_W(w[13]); RING_PIN_W(w[14]); RING_PIN_W(w[15]);             \
    } while (0)

/* The rounds' temporaries, declared by RING_ROUNDS64*: t1, and for Maj by xor t2 and bc; none
 * where RING_ROUND_OPS has its own. */
#if defined(RING_ROUND_OPS)
#define RING_TEMPS (void)0
#elif defined(RING_MAJ_BY_XOR)
#define RING_TEMPS VEC t1, t2, bc = OP_XOR(b, c)
#define RING_MAJ(a, b, c) OP_XOR(b, OP_AND(t2 = OP_XOR(a, b), bc))
#define RING_MAJ_NEXT() bc = t2
#else
#define RING_TEMPS VEC t1
#define RING_MAJ(a, b, c) OP_MAJ(a, b, c)
#define RING_MAJ_NEXT() ((void)0)
#endif

/* One round on K[i] + W[i] = kw; the callers rotate the names. */
#if defined(RING_ROUND_OPS)
#define RING_ROUND(a, b, c, d, e, f, g, h, kw) RING_ROUND_OPS(a, b, c, d, e, f, g, h, kw)
#else
#define RING_ROUND(a, b, c, d, e, f, g, h, kw)                                  \
    do {                                                                        \
        t1 = OP_ADD(OP_ADD(OP_ADD(h, kw), OP_CH(e, f, g)), OP_BSIG1(e));        \
        d = OP_ADD(d, t1);                                                      \
        h = OP_ADD(OP_ADD(t1, OP_BSIG0(a)), RING_MAJ(a, b, c));                 \
        RING_MAJ_NEXT();                                                        \
    } while (0)
#endif

/* Rounds 0..15: the block's own words, already in the ring; ring_k points at K[0]. */
#define RING_ROUND_WORD(a, b, c, d, e, f, g, h, i) \
    RING_ROUND(a, b, c, d, e, f, g, h, OP_ADD(V_SET1(ring_k[i]), w[i]))
/* Rounds 16..63, as round 16 j + i of a pass (ring_k points at K[16 j]): W[i] = W[i-16] +
 * s0(W[i-15]) + W[i-7] + s1(W[i-2]), over W[i-16]'s place in the ring. */
#define RING_ROUND_SCHEDULE(a, b, c, d, e, f, g, h, i)                                                       \
    do {                                                                                                     \
        VEC wi_ = OP_ADD(OP_ADD(w[(i) & 15], OP_SSIG0(w[((i) + 1) & 15])),                                   \
                         OP_ADD(w[((i) + 9) & 15], OP_SSIG1(w[((i) + 14) & 15])));                           \
        w[(i) & 15] = wi_;                                                                                   \
        RING_PIN(w[(i) & 15]);                                                                               \
        RING_ROUND(a, b, c, d, e, f, g, h, OP_ADD(V_SET1(ring_k[i]), wi_));                                  \
    } while (0)
/* A block whose K + W is known in advance (a padding block): 64 words at ring_kw, a pass of 16 at a time. */
#define RING_ROUND_KNOWN(a, b, c, d, e, f, g, h, i) RING_ROUND(a, b, c, d, e, f, g, h, V_SET1(ring_kw[i]))

/* Eight rounds from round i (a multiple of 8): the names come back to their places. */
#define RING_ROUNDS8(R, i)                    \
    R(a, b, c, d, e, f, g, h, (i) + 0);       \
    R(h, a, b, c, d, e, f, g, (i) + 1);       \
    R(g, h, a, b, c, d, e, f, (i) + 2);       \
    R(f, g, h, a, b, c, d, e, (i) + 3);       \
    R(e, f, g, h, a, b, c, d, (i) + 4);       \
    R(d, e, f, g, h, a, b, c, (i) + 5);       \
    R(c, d, e, f, g, h, a, b, (i) + 6);       \
    R(b, c, d, e, f, g, h, a, (i) + 7)

/* All 64 rounds of the block in w[0..15] (pinned), which the schedule overwrites. Rounds 16..63 are
 * one 16-round pass run three times, not unrolled: the whole block unrolled is some 4,000
 * instructions, as many as Zen 3's op cache holds, and decoding it again each block costs more
 * than the loop. */
/* The schedule's passes from `first` (1..3) to the last, ring_k at K[16 * (first - 1)] before them. */
#define RING_SCHEDULE_PASSES(first)                  \
    for (pass_ = (first); pass_ < 4; ++pass_) {      \
        ring_k += 16;                                \
        RING_ROUNDS8(RING_ROUND_SCHEDULE, 0);        \
        RING_ROUNDS8(RING_ROUND_SCHEDULE, 8);        \
    }
/* A block's rounds: 0..7 on the ring's words, 8..15 by ROUND_8_TO_15, then `after_15` (rounds of its
 * own, if any), then the schedule's passes from `first_pass`. */
#define RING_BLOCK_ROUNDS(ROUND_8_TO_15, after_15, first_pass) \
    do {                                                       \
        int pass_;                                             \
        const uint32_t *ring_k = LIBSHA_K;                     \
        RING_TEMPS;                                            \
        RING_K_POINTER(ring_k);                                \
        RING_ROUNDS8(RING_ROUND_WORD, 0);                      \
        RING_ROUNDS8(ROUND_8_TO_15, 8);                        \
        after_15;                                              \
        RING_SCHEDULE_PASSES(first_pass);                      \
    } while (0)
#if defined(RING_IN_REGISTERS)
/* W[i + 16] = W[i] + s0(W[i + 1]) + W[i + 9] + s1(W[i + 14]), over W[i] in the ring. */
#define RING_SCHEDULE_AHEAD(i) \
    RING_SCHEDULE_OPS(w[(i) & 15], w[((i) + 1) & 15], w[((i) + 9) & 15], w[((i) + 14) & 15])
/* Round i of a pass (ring_k at the pass's K) on W[16 j + i], which then gives its place to
 * W[16 j + i + 16]: made sixteen rounds before the round that takes it, it stays off the rounds'
 * dependency chain (its W[i + 14] came two rounds before, W[i + 9] seven). */
#define RING_ROUND_AHEAD(a, b, c, d, e, f, g, h, i)                     \
    do {                                                                \
        VEC kw_ = OP_ADD(V_SET1(ring_k[i]), w[(i) & 15]);              \
        RING_SCHEDULE_AHEAD(i);                                         \
        RING_ROUND(a, b, c, d, e, f, g, h, kw_);                        \
    } while (0)
/* A block's rounds: `first` (a pass of its own, if any), the passes that schedule ahead from
 * `first_pass` (0..2) to the third, then the last sixteen rounds on the words they left. */
#define RING_AHEAD_BLOCK(first, first_pass)          \
    do {                                             \
        int pass_;                                   \
        const uint32_t *ring_k = LIBSHA_K;           \
        RING_TEMPS;                                  \
        RING_K_POINTER(ring_k);                      \
        first;                                       \
        for (pass_ = (first_pass); pass_ < 3; ++pass_) { \
            RING_ROUNDS8(RING_ROUND_AHEAD, 0);       \
            RING_ROUNDS8(RING_ROUND_AHEAD, 8);       \
            ring_k += 16;                            \
        }                                            \
        RING_ROUNDS8(RING_ROUND_WORD, 0);            \
        RING_ROUNDS8(RING_ROUND_WORD, 8);            \
    } while (0)
#define RING_ROUNDS64() RING_AHEAD_BLOCK((void)0, 0)
#else
#define RING_ROUNDS64() RING_BLOCK_ROUNDS(RING_ROUND_WORD, (void)0, 1)
#endif

/* All 64 rounds of a block known in advance, K + W the 64 words at kw (uint32_t), looped as above. */
#define RING_ROUNDS64_KNOWN(kw)                      \
    do {                                             \
        int pass_;                                   \
        const uint32_t *ring_kw = (kw);              \
        RING_TEMPS;                                  \
        RING_K_POINTER(ring_kw);                     \
        for (pass_ = 0; pass_ < 4; ++pass_) {        \
            RING_ROUNDS8(RING_ROUND_KNOWN, 0);       \
            RING_ROUNDS8(RING_ROUND_KNOWN, 8);       \
            ring_kw += 16;                           \
        }                                            \
    } while (0)

/* A PBKDF2 chain's block (body_lanes.h's MULTIWAY_CHAINS): W0..7 vary, W8..15 are the padding of an
 * HMAC's 96-byte message (0x80000000, zeros, 768), so rounds 8..15 take K + W as constants and W16..31
 * drop their constant terms: sigmas of constants, zeros. The ring holds W0..7 only at first; W8..15
 * are never read from it. */
#define RING_CHAIN_PAD(j) ((j) == 8 ? 0x80000000u : (j) == 15 ? 768u : 0u)
#define RING_CHAIN_VARIES(j) ((j) < 8 || (j) >= 16)
#define RING_SCALAR_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define RING_SCALAR_SSIG0(x) (RING_SCALAR_ROTR(x, 7) ^ RING_SCALAR_ROTR(x, 18) ^ ((x) >> 3))
#define RING_SCALAR_SSIG1(x) (RING_SCALAR_ROTR(x, 17) ^ RING_SCALAR_ROTR(x, 19) ^ ((x) >> 10))
/* Each term of W[i] = s1(W[i-2]) + W[i-7] + s0(W[i-15]) + W[i-16]: from the ring where it varies, else
 * zero (the compiler drops the add), its constant value summed in RING_CHAIN_CONST. */
#define RING_CHAIN_TERM(j, f) (RING_CHAIN_VARIES(j) ? f(w[(j) & 15]) : V_SET1(0))
#define RING_CHAIN_SAME(x) (x)
#define RING_CHAIN_CONST(i)                                                                        \
    ((RING_CHAIN_VARIES((i) - 2) ? 0u : RING_SCALAR_SSIG1(RING_CHAIN_PAD((i) - 2)))                \
     + (RING_CHAIN_VARIES((i) - 7) ? 0u : RING_CHAIN_PAD((i) - 7))                                 \
     + (RING_CHAIN_VARIES((i) - 15) ? 0u : RING_SCALAR_SSIG0(RING_CHAIN_PAD((i) - 15)))            \
     + (RING_CHAIN_VARIES((i) - 16) ? 0u : RING_CHAIN_PAD((i) - 16)))
#define RING_ROUND_CHAIN_PAD(a, b, c, d, e, f, g, h, i) \
    RING_ROUND(a, b, c, d, e, f, g, h, V_SET1(ring_k[i] + RING_CHAIN_PAD(i)))
/* W[i] (16 <= i < 32) of a chain block from the ring, its constant terms folded. */
#define RING_CHAIN_SUM(i)                                                                                   \
    OP_ADD(OP_ADD(RING_CHAIN_TERM((i) - 16, RING_CHAIN_SAME), RING_CHAIN_TERM((i) - 15, OP_SSIG0)),         \
           OP_ADD(RING_CHAIN_TERM((i) - 7, RING_CHAIN_SAME), RING_CHAIN_TERM((i) - 2, OP_SSIG1)))
#define RING_CHAIN_WORD(i) \
    (RING_CHAIN_CONST(i) != 0 ? OP_ADD(RING_CHAIN_SUM(i), V_SET1(RING_CHAIN_CONST(i))) : RING_CHAIN_SUM(i))

#if defined(RING_IN_REGISTERS)
/* The chain's first pass, scheduling ahead as RING_ROUND_AHEAD does: round i takes W[i] (W0..7 from
 * the ring, the padding's as constants) and leaves W[i + 16] in its place. */
#define RING_ROUND_CHAIN_AHEAD(a, b, c, d, e, f, g, h, i)                                                   \
    do {                                                                                                    \
        VEC kw_ = RING_CHAIN_VARIES(i) ? OP_ADD(V_SET1(ring_k[i]), w[(i) & 15])                             \
                                       : V_SET1(ring_k[i] + RING_CHAIN_PAD(i));                             \
        w[(i) & 15] = RING_CHAIN_WORD((i) + 16);                                                            \
        RING_ROUND(a, b, c, d, e, f, g, h, kw_);                                                            \
    } while (0)
#define RING_CHAIN_FIRST_PASS()                        \
    RING_ROUNDS8(RING_ROUND_CHAIN_AHEAD, 0);           \
    RING_ROUNDS8(RING_ROUND_CHAIN_AHEAD, 8);           \
    ring_k += 16
#define RING_ROUNDS64_CHAIN() RING_AHEAD_BLOCK(RING_CHAIN_FIRST_PASS(), 1)
#else
#define RING_ROUND_CHAIN_SCHEDULE(a, b, c, d, e, f, g, h, i)                                                \
    do {                                                                                                    \
        VEC wi_ = RING_CHAIN_WORD(i);                                                                       \
        w[(i) & 15] = wi_;                                                                                  \
        RING_PIN(w[(i) & 15]);                                                                              \
        RING_ROUND(a, b, c, d, e, f, g, h, OP_ADD(V_SET1(ring_k[i]), wi_));                                 \
    } while (0)

/* All 64 rounds of a chain block, W0..7 in w[0..7] (pinned): rounds 16..31 are the chain's own. */
#define RING_CHAIN_16_TO_31()                          \
    RING_ROUNDS8(RING_ROUND_CHAIN_SCHEDULE, 16);       \
    RING_ROUNDS8(RING_ROUND_CHAIN_SCHEDULE, 24);       \
    ring_k += 16
#define RING_ROUNDS64_CHAIN() RING_BLOCK_ROUNDS(RING_ROUND_CHAIN_PAD, RING_CHAIN_16_TO_31(), 2)
#endif

#endif
