/* Private to libsha: SHA-256's big-endian words in memory, and the overlap check of the batch calls. */
#ifndef LIBSHA_BYTES_H
#define LIBSHA_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compiler.h"

/* Big-endian loads and stores as one word-sized access each: byte-wise
 * stores would defeat store-to-load forwarding when the next hash reads them. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LIBSHA_TO_BE32(x) (x)
#define LIBSHA_TO_BE64(x) (x)
#define LIBSHA_TO_LE64(x) LIBSHA_BSWAP64(x)
#else /* little-endian: every platform libsha targets, MSVC's included */
#define LIBSHA_TO_BE32(x) LIBSHA_BSWAP32(x)
#define LIBSHA_TO_BE64(x) LIBSHA_BSWAP64(x)
#define LIBSHA_TO_LE64(x) (x)
#endif

static inline uint32_t libsha_load_be32(const unsigned char *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return LIBSHA_TO_BE32(x);
}

static inline void libsha_store_be32(unsigned char *p, uint32_t x)
{
    x = LIBSHA_TO_BE32(x);
    memcpy(p, &x, 4);
}

static inline void libsha_store_be64(unsigned char *p, uint64_t x)
{
    x = LIBSHA_TO_BE64(x);
    memcpy(p, &x, 8);
}

static inline uint64_t libsha_load_le64(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return LIBSHA_TO_LE64(x);
}

static inline void libsha_store_le64(unsigned char *p, uint64_t x)
{
    x = LIBSHA_TO_LE64(x);
    memcpy(p, &x, 8);
}

/* The eight state words as the 32-byte big-endian digest. */
static inline void libsha_store_digest(unsigned char out[32], const uint32_t state[8])
{
    int i;
    for (i = 0; i < 8; ++i)
        libsha_store_be32(out + 4 * i, state[i]);
}

/* Whether [a, a + alen) and [b, b + blen) share a byte: the argument checks of the
 * batch entry points (many_messages.c, files.c, trees/), so no output overwrites an input. */
static inline int libsha_overlaps(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen > 0 && blen > 0 && x < y + blen && y < x + alen;
}

#endif
