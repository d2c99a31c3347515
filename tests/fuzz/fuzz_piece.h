/* The harnesses' copies of the pieces an input is cut into: each in an allocation of its own size,
 * so ASan sees any read past one. */
#ifndef LIBSHA_FUZZ_PIECE_H
#define LIBSHA_FUZZ_PIECE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *piece(const uint8_t *data, size_t len)
{
    uint8_t *p = malloc(len ? len : 1);
    if (p == NULL)
        abort();
    if (len)
        memcpy(p, data, len);
    return p;
}

#endif
