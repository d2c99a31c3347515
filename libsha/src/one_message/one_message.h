/* Private to libsha: one message's operations on an explicit row, for the folders above
 * (one_stream.c: a stream's init, update and final, and the wiping; hmac.c: a key's states). */
#ifndef LIBSHA_ONE_MESSAGE_H
#define LIBSHA_ONE_MESSAGE_H

#include <stddef.h>

#include "libsha.h"
#include "sha256_impl.h"

void libsha_stream_init(libsha_sha256_ctx *ctx);
int libsha_stream_update(const struct libsha_impl *impl, libsha_sha256_ctx *ctx, const void *data,
                         size_t len);
int libsha_stream_final(const struct libsha_impl *impl, libsha_sha256_ctx *ctx, unsigned char out[32]);
/* A live context's marker: any value unlikely in uninitialised memory. */
#define LIBSHA_CTX_MARKER 0x53484132u
/* Whether ctx was initialised and not yet finalised. */
static inline int libsha_stream_live(const libsha_sha256_ctx *ctx)
{
    return ctx->marker == LIBSHA_CTX_MARKER;
}
/* Whether an HMAC context is as init left it and updates keep it: both halves live, the outer one
 * waiting after its key block, the inner one past its own. */
static inline int libsha_hmac_live(const libsha_hmac_sha256_ctx *ctx)
{
    return libsha_stream_live(&ctx->inner) && libsha_stream_live(&ctx->outer) && ctx->outer.length == 64
           && ctx->inner.length >= 64;
}
/* Zero a context, or any bytes, in a way the optimiser cannot drop as dead stores. */
void libsha_wipe_ctx(libsha_sha256_ctx *ctx);
void libsha_wipe_bytes(void *p, size_t n);

/* hmac.c: a key's two states (ctx->inner, ctx->outer after its pad blocks), and the MAC of a
 * live context to out (the context wiped), on an explicit implementation. */
void libsha_hmac_start(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *ctx, const unsigned char *key,
                       size_t keylen);
int libsha_hmac_finish(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *ctx, unsigned char out[32]);

/* hmac.c: the one-shot HMAC on an explicit implementation. */
int libsha_hmac_run(const struct libsha_impl *impl, const void *key, size_t keylen, const void *msg,
                    size_t msglen, unsigned char out[32]);

#endif
