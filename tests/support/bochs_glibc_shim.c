/* glibc 2.38's C23 names of strtoull and sscanf, for bochscpu-python's wheel on an older glibc
 * (tests/support/bochs.py builds and loads this only where that wheel fails to import). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

unsigned long long __isoc23_strtoull(const char *s, char **end, int base);
int __isoc23_sscanf(const char *s, const char *format, ...);

unsigned long long __isoc23_strtoull(const char *s, char **end, int base)
{
    return strtoull(s, end, base);
}

int __isoc23_sscanf(const char *s, const char *format, ...)
{
    va_list args;
    int n;
    va_start(args, format);
    n = vsscanf(s, format, args);
    va_end(args);
    return n;
}
