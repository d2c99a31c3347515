/* The C tests' tally: check() counts a result and prints the first failures, naming the row, what
 * failed and a number (a length, a count); unhex() reads the known answers written in hex. */
#ifndef LIBSHA_TESTS_CHECK_H
#define LIBSHA_TESTS_CHECK_H

#include <stddef.h>
#include <stdio.h>

static long passed, failed;

static void check(int ok, const char *impl, const char *what, size_t n)
{
    if (ok) {
        ++passed;
    } else if (++failed <= 30) {
        printf("FAIL %s: %s (%zu)\n", impl, what, n);
    }
}

/* Lowercase hex (pairs of digits) to bytes at out; returns the count. */
static size_t unhex(const char *hex, unsigned char *out)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned hi = (unsigned)(hex[0] <= '9' ? hex[0] - '0' : hex[0] - 'a' + 10);
        unsigned lo = (unsigned)(hex[1] <= '9' ? hex[1] - '0' : hex[1] - 'a' + 10);
        out[n++] = (unsigned char)(hi << 4 | lo);
    }
    return n;
}

#endif
