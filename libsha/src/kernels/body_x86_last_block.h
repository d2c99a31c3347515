/* The last block of a message, padded in registers, for the x86 kernels'
 * finalize and many-message functions (SSSE3 + SSE4.1; the includer is built
 * with them).
 * Building the padding in registers, not in memory, spares the transform a
 * load that waits on byte-wide stores (a failed store-to-load forward). */
#ifndef LIBSHA_SHA256_X86_LAST_BLOCK_H
#define LIBSHA_SHA256_X86_LAST_BLOCK_H

#include <immintrin.h>
#include <string.h>

#include "sha256_impl.h"

/* Keeps the bytes of v below `used` (v holds block bytes base..base+15), puts
 * the 0x80 marker at `used`, zeroes the rest: the padding, without a store. */
static inline __m128i libsha_pad16(__m128i v, int base, __m128i used)
{
    const __m128i index = _mm_add_epi8(_mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                       _mm_set1_epi8((char)base));
    __m128i keep = _mm_cmpgt_epi8(used, index);
    __m128i marker = _mm_and_si128(_mm_cmpeq_epi8(used, index), _mm_set1_epi8((char)0x80));
    return _mm_or_si128(_mm_and_si128(v, keep), marker);
}

/* One vector of the last block: the message bytes base..base+15 of pending as
 * they are, or cut at `used` and marked, or the marker alone, or zeros. */
static inline __m128i libsha_last_block_vector(const unsigned char *pending, size_t used, int base)
{
    if (used >= (size_t)base + 16)
        return _mm_loadu_si128((const __m128i *)(pending + base));
    if (used > (size_t)base)
        return libsha_pad16(_mm_loadu_si128((const __m128i *)(pending + base)), base, _mm_set1_epi8((char)used));
    return used == (size_t)base ? _mm_cvtsi32_si128(0x80) : _mm_setzero_si128();
}

/* One vector of a message's last block read in place: the `len` (< 64) bytes
 * at rest are the message's last, and `before` more of it precede them. Reads
 * nothing outside [rest - before, rest + len): a vector that would run past
 * the end is loaded so that it ends there, and its bytes moved down into
 * place; a message under 16 bytes in all goes through a small copy. */
static inline __m128i libsha_tail_vector(const unsigned char *rest, size_t len, size_t before, int base)
{
    if (len >= (size_t)base + 16)
        return _mm_loadu_si128((const __m128i *)(rest + base));
    if (len > (size_t)base) {
        __m128i v;
        int r = (int)len - base; /* 1..15 bytes of message in this vector */
        if (len + before >= 16) {
            /* Byte j comes from position j + 16 - r of the 16 bytes that end the
             * message; bytes past r are cleared by libsha_pad16. */
            __m128i shift = _mm_add_epi8(_mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                         _mm_set1_epi8((char)(16 - r)));
            v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(rest + len - 16)), shift);
        } else {
            unsigned char small[16] = {0};
            memcpy(small, rest + base, (size_t)r);
            v = _mm_loadu_si128((const __m128i *)small);
        }
        return libsha_pad16(v, base, _mm_set1_epi8((char)len));
    }
    return len == (size_t)base ? _mm_cvtsi32_si128(0x80) : _mm_setzero_si128();
}

/* The last vector of a block with bytes 56..63 set to the length in bits, big-endian. */
static inline __m128i libsha_with_length(__m128i last, uint64_t bits)
{
    return _mm_blend_epi16(last, _mm_set_epi64x((long long)LIBSHA_TO_BE64(bits), 0), 0xf0);
}

/* The block that ends a message whose last `used` (< 56) bytes are in pending
 * and whose bit length is `bits`, as four vectors of its bytes in order. The
 * vectors past the message are pure padding, built instead of loaded. */
#define LIBSHA_X86_LAST_BLOCK(pending, used, bits, b0, b1, b2, b3)                                                \
    do {                                                                                                        \
        b0 = libsha_last_block_vector((pending), (used), 0);                                                   \
        b1 = libsha_last_block_vector((pending), (used), 16);                                                  \
        b2 = libsha_last_block_vector((pending), (used), 32);                                                  \
        b3 = libsha_with_length(libsha_last_block_vector((pending), (used), 48), (uint64_t)(bits));            \
    } while (0)

/* The same for a message's tail read in place (struct libsha_tail, len < 56). */
#define LIBSHA_X86_TAIL_BLOCK(tail, b0, b1, b2, b3)                                                              \
    do {                                                                                                        \
        b0 = libsha_tail_vector((tail).rest, (tail).len, (tail).before, 0);                                    \
        b1 = libsha_tail_vector((tail).rest, (tail).len, (tail).before, 16);                                   \
        b2 = libsha_tail_vector((tail).rest, (tail).len, (tail).before, 32);                                   \
        b3 = libsha_with_length(libsha_tail_vector((tail).rest, (tail).len, (tail).before, 48), (tail).bits);  \
    } while (0)

#endif
