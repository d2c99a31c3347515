/* The C tests' 251-byte cycle: byte i of a buffer is (start + i * step) % 251, so data has no
 * power-of-two period a lane or block bug could hide in (tests/support/data.py's pattern251 is the
 * same cycle with step 1). step must not be a multiple of 251. */
#ifndef LIBSHA_TESTS_PATTERN251_H
#define LIBSHA_TESTS_PATTERN251_H

#include <stddef.h>

static void pattern251(unsigned char *p, size_t n, size_t start, size_t step)
{
    size_t i;
    for (i = 0; i < n; ++i)
        p[i] = (unsigned char)((start + i * step) % 251);
}

#endif
