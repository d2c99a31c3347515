/* The portable implementation: fully unrolled scalar C, no CPU requirement. */
#include "sha256_impl.h"

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x) (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

/* One round. Callers rotate the names a..h instead of moving eight values. */
#define ROUND(a, b, c, d, e, f, g, h, kw)                 \
    do {                                                  \
        uint32_t t1 = (h) + BSIG1(e) + CH(e, f, g) + (kw); \
        uint32_t t2 = BSIG0(a) + MAJ(a, b, c);            \
        (d) += t1;                                        \
        (h) = t1 + t2;                                    \
    } while (0)

#define ROUNDS16(i)                                       \
    ROUND(a, b, c, d, e, f, g, h, LIBSHA_K[(i) + 0] + w0);   \
    ROUND(h, a, b, c, d, e, f, g, LIBSHA_K[(i) + 1] + w1);   \
    ROUND(g, h, a, b, c, d, e, f, LIBSHA_K[(i) + 2] + w2);   \
    ROUND(f, g, h, a, b, c, d, e, LIBSHA_K[(i) + 3] + w3);   \
    ROUND(e, f, g, h, a, b, c, d, LIBSHA_K[(i) + 4] + w4);   \
    ROUND(d, e, f, g, h, a, b, c, LIBSHA_K[(i) + 5] + w5);   \
    ROUND(c, d, e, f, g, h, a, b, LIBSHA_K[(i) + 6] + w6);   \
    ROUND(b, c, d, e, f, g, h, a, LIBSHA_K[(i) + 7] + w7);   \
    ROUND(a, b, c, d, e, f, g, h, LIBSHA_K[(i) + 8] + w8);   \
    ROUND(h, a, b, c, d, e, f, g, LIBSHA_K[(i) + 9] + w9);   \
    ROUND(g, h, a, b, c, d, e, f, LIBSHA_K[(i) + 10] + w10); \
    ROUND(f, g, h, a, b, c, d, e, LIBSHA_K[(i) + 11] + w11); \
    ROUND(e, f, g, h, a, b, c, d, LIBSHA_K[(i) + 12] + w12); \
    ROUND(d, e, f, g, h, a, b, c, LIBSHA_K[(i) + 13] + w13); \
    ROUND(c, d, e, f, g, h, a, b, LIBSHA_K[(i) + 14] + w14); \
    ROUND(b, c, d, e, f, g, h, a, LIBSHA_K[(i) + 15] + w15)

/* The next 16 schedule words, in place: w[j] += s1(w[j-2]) + w[j-7] + s0(w[j-15])
 * with indices mod 16, in order, so each term is already the one FIPS asks for. */
#define SCHEDULE16()                         \
    w0 += SSIG1(w14) + w9 + SSIG0(w1);       \
    w1 += SSIG1(w15) + w10 + SSIG0(w2);      \
    w2 += SSIG1(w0) + w11 + SSIG0(w3);       \
    w3 += SSIG1(w1) + w12 + SSIG0(w4);       \
    w4 += SSIG1(w2) + w13 + SSIG0(w5);       \
    w5 += SSIG1(w3) + w14 + SSIG0(w6);       \
    w6 += SSIG1(w4) + w15 + SSIG0(w7);       \
    w7 += SSIG1(w5) + w0 + SSIG0(w8);        \
    w8 += SSIG1(w6) + w1 + SSIG0(w9);        \
    w9 += SSIG1(w7) + w2 + SSIG0(w10);       \
    w10 += SSIG1(w8) + w3 + SSIG0(w11);      \
    w11 += SSIG1(w9) + w4 + SSIG0(w12);      \
    w12 += SSIG1(w10) + w5 + SSIG0(w13);     \
    w13 += SSIG1(w11) + w6 + SSIG0(w14);     \
    w14 += SSIG1(w12) + w7 + SSIG0(w15);     \
    w15 += SSIG1(w13) + w8 + SSIG0(w0)

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

    ROUNDS16(0);
    SCHEDULE16();
    ROUNDS16(16);
    SCHEDULE16();
    ROUNDS16(32);
    SCHEDULE16();
    ROUNDS16(48);

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
    int i;

    for (i = 0; i < 8; ++i) {
        inner[i] = LIBSHA_H0[i];
        outer[i] = LIBSHA_H0[i];
    }
    compress(inner, BLOCK_WORDS(in));
    /* The padding block of a 64-byte message: 0x80, zeros, length 512 bits. */
    compress(inner, 0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 512);
    /* The 32-byte inner digest, padded into one block: length 256 bits. */
    compress(outer, inner[0], inner[1], inner[2], inner[3], inner[4], inner[5], inner[6], inner[7],
             0x80000000u, 0, 0, 0, 0, 0, 0, 256);
    for (i = 0; i < 8; ++i)
        libsha_store_be32(out + 4 * i, outer[i]);
}
