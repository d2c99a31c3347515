/* The portable implementation: fully unrolled scalar C, no CPU requirement. */
#include "sha256_impl.h"

#define CHAINS_1WAY libsha_standard_chains_1way
#include "body_compress_scalar.h"

libsha_transform_f libsha_standard_transform;
libsha_d64_f libsha_standard_d64;

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
