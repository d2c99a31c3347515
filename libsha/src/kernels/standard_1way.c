/* The portable implementation: fully unrolled scalar C, no CPU requirement. */
#include "fips180.h"
#include "sha256_impl.h"

#include "body_rounds_scalar.h"

libsha_transform_f libsha_standard_transform;
libsha_d64_f libsha_standard_d64;

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

#define BE(p, i) libsha_load_be32((p) + 4 * (i))
#define BLOCK_WORDS(p)                                                                           \
    BE(p, 0), BE(p, 1), BE(p, 2), BE(p, 3), BE(p, 4), BE(p, 5), BE(p, 6), BE(p, 7), BE(p, 8),    \
        BE(p, 9), BE(p, 10), BE(p, 11), BE(p, 12), BE(p, 13), BE(p, 14), BE(p, 15)

void libsha_standard_transform(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    for (; n > 0; --n, blocks += 64)
        compress(state, BLOCK_WORDS(blocks));
}

void libsha_standard_d64(unsigned char *out, const unsigned char *in)
{
    uint32_t inner[8], outer[8];

    memcpy(inner, LIBSHA_H0, sizeof inner);
    memcpy(outer, LIBSHA_H0, sizeof outer);
    compress(inner, BLOCK_WORDS(in));
    /* The padding block of a 64-byte message: 0x80, zeros, length 512 bits. */
    compress(inner, 0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 512);
    /* The 32-byte inner digest, padded into one block: length 256 bits. */
    compress(outer, inner[0], inner[1], inner[2], inner[3], inner[4], inner[5], inner[6], inner[7],
             0x80000000u, 0, 0, 0, 0, 0, 0, 256);
    libsha_store_digest(out, outer);
}

#define CHAINS_1WAY libsha_standard_chains_1way
#define CHAIN_BLOCK(s, x) \
    compress(s, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 0x80000000u, 0, 0, 0, 0, 0, 0, 768)
#include "body_chain_1way.h"
