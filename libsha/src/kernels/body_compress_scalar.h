/*
 * One block in general registers (body_rounds_scalar.h's rounds), and PBKDF2's one-chain kernel on
 * it: the includer names the kernel CHAINS_1WAY. standard(1way) builds it as portable C, the AVX2
 * file with BMI2 (rorx). The message words are parameters, so the chain's padding words, constants,
 * fold into the schedule.
 */
#ifndef LIBSHA_BODY_COMPRESS_SCALAR_H
#define LIBSHA_BODY_COMPRESS_SCALAR_H

#include <string.h>

#include "body_rounds_scalar.h"
#include "sha256_impl.h"

#define KW_ADD(i, w) (LIBSHA_K[i] + (w))

/* The message words are parameters, not an array, so that where a caller
 * passes constants (the padding blocks of SHA256D64) the compiler folds
 * their whole schedule and the K + W sums into immediates. */
static LIBSHA_ALWAYS_INLINE void compress(uint32_t s[8], uint32_t w0, uint32_t w1, uint32_t w2,
                                          uint32_t w3, uint32_t w4, uint32_t w5, uint32_t w6,
                                          uint32_t w7, uint32_t w8, uint32_t w9, uint32_t w10,
                                          uint32_t w11, uint32_t w12, uint32_t w13, uint32_t w14,
                                          uint32_t w15)
{
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    uint32_t t1, t2;

    SHA256_ROUNDS64(KW_ADD);

    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
    s[5] += f;
    s[6] += g;
    s[7] += h;
}

libsha_chains_f CHAINS_1WAY;

/* Each iteration's two blocks: 32 bytes and the padding of an HMAC's 96-byte message. */
void CHAINS_1WAY(struct libsha_chain *const chains[], uint64_t count)
{
    struct libsha_chain *c = chains[0];
    uint32_t u[8], t[8], s[8];
    int i;

    memcpy(u, c->u, sizeof u);
    memcpy(t, c->t, sizeof t);
    for (; count > 0; --count) {
        memcpy(s, c->inner, sizeof s);
        compress(s, u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], 0x80000000u, 0, 0, 0, 0, 0, 0, 768);
        memcpy(u, c->outer, sizeof u);
        compress(u, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], 0x80000000u, 0, 0, 0, 0, 0, 0, 768);
        for (i = 0; i < 8; ++i)
            t[i] ^= u[i];
    }
    memcpy(c->u, u, sizeof u);
    memcpy(c->t, t, sizeof t);
}

#endif
