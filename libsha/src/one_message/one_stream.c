/* Streaming SHA-256 and the SHA256D64 driver, over any implementation. */
#include <string.h>

#include "fips180.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"


void libsha_stream_init(libsha_sha256_ctx *ctx)
{
    if (ctx == NULL)
        return;
    memcpy(ctx->state, LIBSHA_H0, sizeof ctx->state);
    ctx->length = 0; /* pending needs no clearing: only bytes below length % 64 are read */
    ctx->marker = LIBSHA_CTX_MARKER;
    ctx->reserved = 0;
}

/* Copies in 16-byte pieces: the next step reads this data back 16 bytes at a
 * time, and loads that match earlier stores are forwarded without a stall. */
static void copy_in(unsigned char *dst, const unsigned char *src, size_t n)
{
    for (; n >= 16; n -= 16, dst += 16, src += 16)
        memcpy(dst, src, 16);
    if (n > 0)
        memcpy(dst, src, n);
}

int libsha_stream_update(const struct libsha_impl *impl, libsha_sha256_ctx *ctx, const void *data,
                         size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t used;

    if (ctx == NULL || (p == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    if (ctx->marker != LIBSHA_CTX_MARKER)
        return LIBSHA_ERR_STATE;
    if ((uint64_t)len > LIBSHA_MAX_MESSAGE_BYTES - ctx->length)
        return LIBSHA_ERR_TOO_LONG;
    if (len == 0)
        return LIBSHA_OK;

    used = (size_t)(ctx->length % 64);
    ctx->length += len;
    if (used > 0) {
        size_t take = 64 - used < len ? 64 - used : len;
        copy_in(ctx->pending + used, p, take);
        p += take;
        len -= take;
        if (used + take < 64)
            return LIBSHA_OK;
        impl->transform(ctx->state, ctx->pending, 1);
    }
    if (len >= 64) {
        size_t blocks = len / 64;
        impl->transform(ctx->state, p, blocks);
        p += blocks * 64;
        len -= blocks * 64;
    }
    if (len > 0)
        copy_in(ctx->pending, p, len);
    return LIBSHA_OK;
}

int libsha_stream_final(const struct libsha_impl *impl, libsha_sha256_ctx *ctx, unsigned char out[32])
{
    size_t used;
    uint64_t bits;

    if (ctx == NULL || out == NULL)
        return LIBSHA_ERR_NULL;
    if (ctx->marker != LIBSHA_CTX_MARKER)
        return LIBSHA_ERR_STATE;

    used = (size_t)(ctx->length % 64);
    bits = ctx->length * 8;
    if (impl->finalize != NULL) {
        impl->finalize(ctx->state, ctx->pending, used, bits, out);
        libsha_wipe_ctx(ctx);
        return LIBSHA_OK;
    }
    ctx->pending[used++] = 0x80;
    if (used > 56) {
        memset(ctx->pending + used, 0, 64 - used);
        impl->transform(ctx->state, ctx->pending, 1);
        used = 0;
    }
    memset(ctx->pending + used, 0, 56 - used);
    libsha_store_be64(ctx->pending + 56, bits);
    impl->transform(ctx->state, ctx->pending, 1);

    libsha_store_digest(out, ctx->state);
    libsha_wipe_ctx(ctx);
    return LIBSHA_OK;
}

void libsha_wipe_bytes(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    memset(p, 0, n);
    /* The compiler must assume the asm reads *p, so the stores are not dead. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    /* A call through a volatile pointer cannot be proven dead, so it stays. */
    static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;
    wipe_memset(p, 0, n);
#endif
}

void libsha_wipe_ctx(libsha_sha256_ctx *ctx)
{
    if (ctx == NULL)
        return;
#if defined(__GNUC__) || defined(__clang__)
    {
        /* Plain 16-byte stores: memset(ctx, 0, 112) became `rep stos` here, whose
         * slow start sat right before the next hash reused the memory. */
        static const libsha_sha256_ctx zero;
        *ctx = zero;
        /* The compiler must assume the asm reads *ctx, so the stores are not dead. */
        __asm__ __volatile__("" : : "r"(ctx) : "memory");
    }
#else
    libsha_wipe_bytes(ctx, sizeof *ctx);
#endif
}
