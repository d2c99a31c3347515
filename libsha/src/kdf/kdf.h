/* Private to libsha: key derivation on an explicit row, for the benchmark loops. */
#ifndef LIBSHA_KDF_H
#define LIBSHA_KDF_H

#include <stddef.h>
#include <stdint.h>

#include "sha256_impl.h"

/* pbkdf2.c: libsha_pbkdf2_hmac_sha256_many on an explicit implementation. */
int libsha_pbkdf2_on(const struct libsha_impl *impl, unsigned char *out, size_t out_len,
                     const void *const *passwords, const size_t *password_lens, const void *const *salts,
                     const size_t *salt_lens, size_t n, uint64_t iterations);

#endif
