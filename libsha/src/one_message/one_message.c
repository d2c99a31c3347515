/* The public hashing entry points: each runs on the active implementation. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"

#ifndef LIBSHA_VERSION_STRING
#error "the build defines LIBSHA_VERSION_STRING (CMakeLists.txt)"
#endif
#ifndef LIBSHA_BUILD_TYPE
#define LIBSHA_BUILD_TYPE "unknown"
#endif

const char *libsha_version(void)
{
    return LIBSHA_VERSION_STRING;
}

const char *libsha_build_type(void)
{
    return LIBSHA_BUILD_TYPE;
}

size_t libsha_sha256_ctx_size(void)
{
    return sizeof(libsha_sha256_ctx);
}

size_t libsha_sha256_lanes(void)
{
    return libsha_widest_many(libsha_active());
}

void libsha_sha256_init(libsha_sha256_ctx *ctx)
{
    libsha_enter();
    libsha_stream_init(ctx);
}

int libsha_sha256_update(libsha_sha256_ctx *ctx, const void *data, size_t len)
{
    libsha_enter();
    return libsha_stream_update(libsha_active(), ctx, data, len);
}

int libsha_sha256_final(libsha_sha256_ctx *ctx, unsigned char out[32])
{
    libsha_enter();
    return libsha_stream_final(libsha_active(), ctx, out);
}

void libsha_sha256_wipe(libsha_sha256_ctx *ctx)
{
    libsha_wipe_ctx(ctx);
}

int libsha_sha256(const void *data, size_t len, unsigned char out[32])
{
    /* One implementation for the whole message, even if another thread switches. */
    const struct libsha_impl *impl = libsha_active();
    libsha_sha256_ctx ctx;
    int err;

    libsha_enter();
    if (out == NULL || (data == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    libsha_stream_init(&ctx);
    err = libsha_stream_update(impl, &ctx, data, len);
    if (err != LIBSHA_OK) {
        libsha_wipe_ctx(&ctx);
        return err;
    }
    return libsha_stream_final(impl, &ctx, out); /* which wipes ctx */
}
