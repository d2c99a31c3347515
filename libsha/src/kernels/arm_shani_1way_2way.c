/*
 * arm_shani(1way,2way): the ARMv8 SHA-256 instructions, built with
 * -march=armv8-a+crypto on this file only. The state stays in natural order
 * (ABCD, EFGH); each instruction pair does four rounds.
 */
#include <arm_neon.h>

#include "body_padding_schedule.h"
#include "body_sha_2way.h"
#include "fips180.h"
#include "sha256_impl.h"

libsha_transform_f libsha_arm_shani_transform;
libsha_d64_f libsha_arm_shani_d64_1way, libsha_arm_shani_d64_2way;
libsha_many_f libsha_arm_shani_many_2way;
libsha_many_last_f libsha_arm_shani_many_last_2way;
libsha_chains_f libsha_arm_shani_chains_1way, libsha_arm_shani_chains_2way;

#define K4(g) vld1q_u32(&LIBSHA_K[4 * (g)])
#define LOAD_W(p, i) vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8((const uint8_t *)(p) + 16 * (i))))

/* Four rounds with kw = K + W. sha256h2 needs ABCD from before sha256h. */
#define RNDS4(abcd, efgh, kw)                              \
    do {                                                   \
        uint32x4_t kw_ = (kw), abcd_ = (abcd);             \
        abcd = vsha256hq_u32(abcd, efgh, kw_);             \
        efgh = vsha256h2q_u32(efgh, abcd_, kw_);           \
    } while (0)

/* W for the next four rounds from the last sixteen (held in a, b, c, d). */
#define SCHED4(a, b, c, d) a = vsha256su1q_u32(vsha256su0q_u32(a, b), c, d)
#define FOUR_ROUNDS(g, abcd, efgh, a, b, c, d) SCHED4(a, b, c, d); RNDS4(abcd, efgh, vaddq_u32(a, K4(g)))

#define COMPRESS(abcd, efgh, m0, m1, m2, m3)                                             \
    RNDS4(abcd, efgh, vaddq_u32(m0, K4(0))); RNDS4(abcd, efgh, vaddq_u32(m1, K4(1)));    \
    RNDS4(abcd, efgh, vaddq_u32(m2, K4(2))); RNDS4(abcd, efgh, vaddq_u32(m3, K4(3)));    \
    FOUR_ROUNDS(4, abcd, efgh, m0, m1, m2, m3); FOUR_ROUNDS(5, abcd, efgh, m1, m2, m3, m0);          \
    FOUR_ROUNDS(6, abcd, efgh, m2, m3, m0, m1); FOUR_ROUNDS(7, abcd, efgh, m3, m0, m1, m2);          \
    FOUR_ROUNDS(8, abcd, efgh, m0, m1, m2, m3); FOUR_ROUNDS(9, abcd, efgh, m1, m2, m3, m0);          \
    FOUR_ROUNDS(10, abcd, efgh, m2, m3, m0, m1); FOUR_ROUNDS(11, abcd, efgh, m3, m0, m1, m2);        \
    FOUR_ROUNDS(12, abcd, efgh, m0, m1, m2, m3); FOUR_ROUNDS(13, abcd, efgh, m1, m2, m3, m0);        \
    FOUR_ROUNDS(14, abcd, efgh, m2, m3, m0, m1); FOUR_ROUNDS(15, abcd, efgh, m3, m0, m1, m2)

/* The padding block after a 64-byte message: K + W is a constant table. */
#define KW4(abcd, efgh, kw, g) RNDS4(abcd, efgh, vld1q_u32(&(kw)[4 * (g)]))
#define PAD4(abcd, efgh, g) KW4(abcd, efgh, LIBSHA_PAD64_KW, g)
#define COMPRESS_PAD64(abcd, efgh)                                                         \
    PAD4(abcd, efgh, 0); PAD4(abcd, efgh, 1); PAD4(abcd, efgh, 2); PAD4(abcd, efgh, 3);    \
    PAD4(abcd, efgh, 4); PAD4(abcd, efgh, 5); PAD4(abcd, efgh, 6); PAD4(abcd, efgh, 7);    \
    PAD4(abcd, efgh, 8); PAD4(abcd, efgh, 9); PAD4(abcd, efgh, 10); PAD4(abcd, efgh, 11);  \
    PAD4(abcd, efgh, 12); PAD4(abcd, efgh, 13); PAD4(abcd, efgh, 14); PAD4(abcd, efgh, 15)

/* The outer block: the inner digest's words, then 0x80, zeros, length 256 bits. */
static const uint32_t OUTER_PAD[8] = {0x80000000u, 0, 0, 0, 0, 0, 0, 256};

#define STORE_DIGEST(out, abcd, efgh)                                                  \
    vst1q_u8((uint8_t *)(out), vrev32q_u8(vreinterpretq_u8_u32(abcd)));                \
    vst1q_u8((uint8_t *)(out) + 16, vrev32q_u8(vreinterpretq_u8_u32(efgh)))

void libsha_arm_shani_transform(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    uint32x4_t abcd = vld1q_u32(&state[0]), efgh = vld1q_u32(&state[4]);

    for (; n > 0; --n, blocks += 64) {
        uint32x4_t save0 = abcd, save1 = efgh;
        uint32x4_t m0 = LOAD_W(blocks, 0), m1 = LOAD_W(blocks, 1), m2 = LOAD_W(blocks, 2), m3 = LOAD_W(blocks, 3);
        COMPRESS(abcd, efgh, m0, m1, m2, m3);
        abcd = vaddq_u32(abcd, save0);
        efgh = vaddq_u32(efgh, save1);
    }
    vst1q_u32(&state[0], abcd);
    vst1q_u32(&state[4], efgh);
}

void libsha_arm_shani_d64_1way(unsigned char *out, const unsigned char *in)
{
    const uint32x4_t h0 = vld1q_u32(&LIBSHA_H0[0]), h1 = vld1q_u32(&LIBSHA_H0[4]);
    uint32x4_t abcd = h0, efgh = h1, save0, save1;
    uint32x4_t m0 = LOAD_W(in, 0), m1 = LOAD_W(in, 1), m2 = LOAD_W(in, 2), m3 = LOAD_W(in, 3);

    COMPRESS(abcd, efgh, m0, m1, m2, m3);
    abcd = vaddq_u32(abcd, h0), efgh = vaddq_u32(efgh, h1);
    save0 = abcd, save1 = efgh;
    COMPRESS_PAD64(abcd, efgh);
    m0 = vaddq_u32(abcd, save0), m1 = vaddq_u32(efgh, save1);

    m2 = vld1q_u32(&OUTER_PAD[0]), m3 = vld1q_u32(&OUTER_PAD[4]);
    abcd = h0, efgh = h1;
    COMPRESS(abcd, efgh, m0, m1, m2, m3);
    abcd = vaddq_u32(abcd, h0), efgh = vaddq_u32(efgh, h1);
    STORE_DIGEST(out, abcd, efgh);
}

/* Two blobs, their round chains interleaved group by group: s* is the first, t* the second. */
#define RNDS4_2WAY(g, ma, na) \
    RNDS4(s0, s1, vaddq_u32(ma, K4(g))); RNDS4(t0, t1, vaddq_u32(na, K4(g)))
#define FOUR_ROUNDS_2WAY(g, ma, mb, mc, md, na, nb, nc, nd) \
    FOUR_ROUNDS(g, s0, s1, ma, mb, mc, md); FOUR_ROUNDS(g, t0, t1, na, nb, nc, nd)
/* The padding block's rounds on the K + W table pad_kw, a local of the function. */
#define PAD4_2WAY(g) KW4(s0, s1, pad_kw, g); KW4(t0, t1, pad_kw, g)

void libsha_arm_shani_d64_2way(unsigned char *out, const unsigned char *in)
{
    const uint32x4_t h0 = vld1q_u32(&LIBSHA_H0[0]), h1 = vld1q_u32(&LIBSHA_H0[4]);
    uint32x4_t s0 = h0, s1 = h1, t0 = h0, t1 = h1, save0, save1, save2, save3;
    uint32x4_t m0 = LOAD_W(in, 0), m1 = LOAD_W(in, 1), m2 = LOAD_W(in, 2), m3 = LOAD_W(in, 3);
    uint32x4_t n0 = LOAD_W(in, 4), n1 = LOAD_W(in, 5), n2 = LOAD_W(in, 6), n3 = LOAD_W(in, 7);
    const uint32_t *const pad_kw = LIBSHA_PAD64_KW;

    SHA256_COMPRESS_2WAY();
    s0 = vaddq_u32(s0, h0), s1 = vaddq_u32(s1, h1), t0 = vaddq_u32(t0, h0), t1 = vaddq_u32(t1, h1);
    save0 = s0, save1 = s1, save2 = t0, save3 = t1;
    SHA256_PAD64_2WAY();
    m0 = vaddq_u32(s0, save0), m1 = vaddq_u32(s1, save1), n0 = vaddq_u32(t0, save2), n1 = vaddq_u32(t1, save3);

    m2 = n2 = vld1q_u32(&OUTER_PAD[0]);
    m3 = n3 = vld1q_u32(&OUTER_PAD[4]);
    s0 = t0 = h0, s1 = t1 = h1;
    SHA256_COMPRESS_2WAY();
    s0 = vaddq_u32(s0, h0), s1 = vaddq_u32(s1, h1), t0 = vaddq_u32(t0, h0), t1 = vaddq_u32(t1, h1);
    STORE_DIGEST(out, s0, s1);
    STORE_DIGEST(out + 32, t0, t1);
}

/* Many messages: two lanes' blocks with their round chains interleaved, as
 * in the 2-way D64 kernel (the lane scheduler, lanes.c, feeds them). */
void libsha_arm_shani_many_2way(uint32_t *const state[], const unsigned char *const blocks[], size_t n)
{
    const unsigned char *p = blocks[0], *q = blocks[1];
    uint32x4_t s0 = vld1q_u32(&state[0][0]), s1 = vld1q_u32(&state[0][4]);
    uint32x4_t t0 = vld1q_u32(&state[1][0]), t1 = vld1q_u32(&state[1][4]);

    for (; n > 0; --n, p += 64, q += 64) {
        uint32x4_t save0 = s0, save1 = s1, save2 = t0, save3 = t1;
        uint32x4_t m0 = LOAD_W(p, 0), m1 = LOAD_W(p, 1), m2 = LOAD_W(p, 2), m3 = LOAD_W(p, 3);
        uint32x4_t n0 = LOAD_W(q, 0), n1 = LOAD_W(q, 1), n2 = LOAD_W(q, 2), n3 = LOAD_W(q, 3);
        SHA256_COMPRESS_2WAY();
        s0 = vaddq_u32(s0, save0), s1 = vaddq_u32(s1, save1);
        t0 = vaddq_u32(t0, save2), t1 = vaddq_u32(t1, save3);
    }
    vst1q_u32(&state[0][0], s0), vst1q_u32(&state[0][4], s1);
    vst1q_u32(&state[1][0], t0), vst1q_u32(&state[1][4], t1);
}

/* One vector of a message's last block read in place (see struct
 * libsha_tail): bytes past the message cleared, the 0x80 marker at len. A
 * vector that would run past the end is loaded so that it ends there and its
 * bytes moved down (a table lookup clears what comes from past 15). */
static inline uint8x16_t tail_vector(const struct libsha_tail *t, int base)
{
    static const uint8_t iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const uint8x16_t index = vaddq_u8(vld1q_u8(iota), vdupq_n_u8((uint8_t)base));
    const uint8x16_t used = vdupq_n_u8((uint8_t)t->len);
    uint8x16_t v, keep, marker;

    if (t->len >= (size_t)base + 16)
        return vld1q_u8(t->rest + base);
    if (t->len > (size_t)base) {
        int r = (int)t->len - base;
        if (t->len + t->before >= 16) {
            v = vqtbl1q_u8(vld1q_u8(t->rest + t->len - 16), vaddq_u8(vld1q_u8(iota), vdupq_n_u8((uint8_t)(16 - r))));
        } else {
            uint8_t small[16] = {0};
            memcpy(small, t->rest + base, (size_t)r);
            v = vld1q_u8(small);
        }
    } else {
        v = vdupq_n_u8(0);
    }
    keep = vcgtq_u8(used, index);
    marker = vandq_u8(vceqq_u8(used, index), vdupq_n_u8(0x80));
    return vorrq_u8(vandq_u8(v, keep), marker);
}

/* The tail's block as message words: the length in bits in bytes 56..63. */
#define TAIL_BLOCK(t, w0, w1, w2, w3)                                                                    \
    do {                                                                                                 \
        uint8x16_t last_ = vreinterpretq_u8_u64(vsetq_lane_u64(LIBSHA_TO_BE64((t).bits),                 \
                                                               vreinterpretq_u64_u8(tail_vector(&(t), 48)), 1)); \
        w0 = vreinterpretq_u32_u8(vrev32q_u8(tail_vector(&(t), 0)));                                     \
        w1 = vreinterpretq_u32_u8(vrev32q_u8(tail_vector(&(t), 16)));                                    \
        w2 = vreinterpretq_u32_u8(vrev32q_u8(tail_vector(&(t), 32)));                                    \
        w3 = vreinterpretq_u32_u8(vrev32q_u8(last_));                                                    \
    } while (0)

/* The last block of two messages, padded in registers, and with
 * LIBSHA_DOUBLE their outer hashes, both lanes interleaved. */
void libsha_arm_shani_many_last_2way(uint32_t *const state[], const struct libsha_tail tails[],
                                     unsigned char *const out[], unsigned flags)
{
    const uint32x4_t h0 = vld1q_u32(&LIBSHA_H0[0]), h1 = vld1q_u32(&LIBSHA_H0[4]);
    uint32x4_t s0 = vld1q_u32(&state[0][0]), s1 = vld1q_u32(&state[0][4]);
    uint32x4_t t0 = vld1q_u32(&state[1][0]), t1 = vld1q_u32(&state[1][4]);
    uint32x4_t save0 = s0, save1 = s1, save2 = t0, save3 = t1, m0, m1, m2, m3, n0, n1, n2, n3;
    /* Two blocks of padding alone with one K + W: two 64-byte messages (D64's table), or a batch's
     * table for its length (after a start, say). */
    const uint32_t *pad_kw = tails[0].bits == 512 && tails[1].bits == 512 ? LIBSHA_PAD64_KW
                             : tails[0].kw != NULL && tails[0].kw == tails[1].kw ? tails[0].kw : NULL;

    if (pad_kw != NULL) {
        SHA256_PAD64_2WAY();
    } else {
        TAIL_BLOCK(tails[0], m0, m1, m2, m3);
        TAIL_BLOCK(tails[1], n0, n1, n2, n3);
        SHA256_COMPRESS_2WAY();
    }
    s0 = vaddq_u32(s0, save0), s1 = vaddq_u32(s1, save1), t0 = vaddq_u32(t0, save2), t1 = vaddq_u32(t1, save3);
    if (flags & LIBSHA_DOUBLE) { /* from H0, or an HMAC's outer state (its padding: 768 bits) */
        const uint32_t *outer = tails[0].outer;
        uint32x4_t o0 = outer != NULL ? vld1q_u32(&outer[0]) : h0, o1 = outer != NULL ? vld1q_u32(&outer[4]) : h1;
        m0 = s0, m1 = s1, n0 = t0, n1 = t1;
        m2 = n2 = vld1q_u32(&OUTER_PAD[0]);
        m3 = n3 = outer != NULL ? vsetq_lane_u32(768, vld1q_u32(&OUTER_PAD[4]), 3) : vld1q_u32(&OUTER_PAD[4]);
        s0 = t0 = o0, s1 = t1 = o1;
        SHA256_COMPRESS_2WAY();
        s0 = vaddq_u32(s0, o0), s1 = vaddq_u32(s1, o1), t0 = vaddq_u32(t0, o0), t1 = vaddq_u32(t1, o1);
    }
    STORE_DIGEST(out[0], s0, s1);
    STORE_DIGEST(out[1], t0, t1);
}

/* A PBKDF2 chain's block after its 32 bytes: 0x80, zeros, the length of an HMAC's 96-byte message. */
static const uint32_t CHAIN_PAD[8] = {0x80000000u, 0, 0, 0, 0, 0, 0, 768};

/* A chain's block from the state (a0, a1), its 32 bytes in m0, m1 and the padding p2, p3: the
 * result, added back, is the next block's 32 bytes. */
#define CHAIN_BLOCK(a0, a1)                                  \
    m2 = p2, m3 = p3, s0 = a0, s1 = a1;                      \
    COMPRESS(s0, s1, m0, m1, m2, m3);                        \
    m0 = vaddq_u32(s0, a0), m1 = vaddq_u32(s1, a1)
/* The same for two chains, the second's state (b0, b1) and 32 bytes in n0, n1, rounds interleaved. */
#define CHAIN_BLOCK_2WAY(a0, a1, b0, b1)                                                      \
    m2 = n2 = p2, m3 = n3 = p3, s0 = a0, s1 = a1, t0 = b0, t1 = b1;                           \
    SHA256_COMPRESS_2WAY();                                                                   \
    m0 = vaddq_u32(s0, a0), m1 = vaddq_u32(s1, a1), n0 = vaddq_u32(t0, b0), n1 = vaddq_u32(t1, b1)

/* PBKDF2's iterations, one chain: U's words go straight from one block's state to the next one's
 * message (the state is in natural order, as the digest's words are). */
void libsha_arm_shani_chains_1way(struct libsha_chain *const chains[], uint64_t count)
{
    struct libsha_chain *c = chains[0];
    const uint32x4_t i0 = vld1q_u32(&c->inner[0]), i1 = vld1q_u32(&c->inner[4]);
    const uint32x4_t o0 = vld1q_u32(&c->outer[0]), o1 = vld1q_u32(&c->outer[4]);
    const uint32x4_t p2 = vld1q_u32(&CHAIN_PAD[0]), p3 = vld1q_u32(&CHAIN_PAD[4]);
    uint32x4_t m0 = vld1q_u32(&c->u[0]), m1 = vld1q_u32(&c->u[4]), m2, m3, s0, s1;
    uint32x4_t x0 = vld1q_u32(&c->t[0]), x1 = vld1q_u32(&c->t[4]);

    for (; count > 0; --count) {
        CHAIN_BLOCK(i0, i1);
        CHAIN_BLOCK(o0, o1);
        x0 = veorq_u32(x0, m0), x1 = veorq_u32(x1, m1);
    }
    vst1q_u32(&c->u[0], m0), vst1q_u32(&c->u[4], m1);
    vst1q_u32(&c->t[0], x0), vst1q_u32(&c->t[4], x1);
}

/* Two chains, their rounds interleaved as the other 2-way kernels do (s* the first, t* the second). */
void libsha_arm_shani_chains_2way(struct libsha_chain *const chains[], uint64_t count)
{
    struct libsha_chain *c = chains[0], *d = chains[1];
    const uint32x4_t i0 = vld1q_u32(&c->inner[0]), i1 = vld1q_u32(&c->inner[4]);
    const uint32x4_t o0 = vld1q_u32(&c->outer[0]), o1 = vld1q_u32(&c->outer[4]);
    const uint32x4_t j0 = vld1q_u32(&d->inner[0]), j1 = vld1q_u32(&d->inner[4]);
    const uint32x4_t q0 = vld1q_u32(&d->outer[0]), q1 = vld1q_u32(&d->outer[4]);
    const uint32x4_t p2 = vld1q_u32(&CHAIN_PAD[0]), p3 = vld1q_u32(&CHAIN_PAD[4]);
    uint32x4_t m0 = vld1q_u32(&c->u[0]), m1 = vld1q_u32(&c->u[4]), m2, m3, s0, s1;
    uint32x4_t n0 = vld1q_u32(&d->u[0]), n1 = vld1q_u32(&d->u[4]), n2, n3, t0, t1;
    uint32x4_t x0 = vld1q_u32(&c->t[0]), x1 = vld1q_u32(&c->t[4]);
    uint32x4_t y0 = vld1q_u32(&d->t[0]), y1 = vld1q_u32(&d->t[4]);

    for (; count > 0; --count) {
        CHAIN_BLOCK_2WAY(i0, i1, j0, j1);
        CHAIN_BLOCK_2WAY(o0, o1, q0, q1);
        x0 = veorq_u32(x0, m0), x1 = veorq_u32(x1, m1), y0 = veorq_u32(y0, n0), y1 = veorq_u32(y1, n1);
    }
    vst1q_u32(&c->u[0], m0), vst1q_u32(&c->u[4], m1), vst1q_u32(&c->t[0], x0), vst1q_u32(&c->t[4], x1);
    vst1q_u32(&d->u[0], n0), vst1q_u32(&d->u[4], n1), vst1q_u32(&d->t[0], y0), vst1q_u32(&d->t[4], y1);
}
