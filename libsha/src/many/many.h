/* Private to libsha: the calls of many/ that the folders above (trees/, files/, the benchmark
 * loops) make on an explicit row, checks included. The lane scheduler itself is lanes.h's. */
#ifndef LIBSHA_MANY_H
#define LIBSHA_MANY_H

#include <stddef.h>

#include "libsha.h"
#include "sha256_impl.h"

/* many_messages.c: SHA256D64 of `blocks` 64-byte blobs on impl (out may be in; nothing done when either is NULL). */
void libsha_d64_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in,
                   size_t blocks);
/* many_messages.c: libsha_sha256_batch on impl, checks included (also the files' and the benchmark's). */
int libsha_batch_on(const struct libsha_impl *impl, unsigned char *out, const libsha_batch *batch,
                    const libsha_sha256_ctx *prefix, const libsha_hmac_sha256_ctx *hmac, unsigned flags);

/* many_streams.c: many streams' chunks on impl, checks included (also the benchmark's): objs[i]
 * are contexts of `size` bytes, a libsha_sha256_ctx first in each (HMAC contexts when hmac). */
int libsha_streams_update_on(const struct libsha_impl *impl, void *const *objs, size_t size, int hmac,
                             const void *const *data, const size_t *lens, size_t n);

#endif
