/* Private to libsha: the known-answer self-test a row passes before it is installed (selftest.c). */
#ifndef LIBSHA_DISPATCH_SELFTEST_H
#define LIBSHA_DISPATCH_SELFTEST_H

#include "sha256_impl.h"

/* 0 when impl gives the known answers. */
int libsha_selftest(const struct libsha_impl *impl);

#endif
