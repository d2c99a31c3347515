/* HMAC-SHA256 (RFC 2104) on the streaming core: the key fixes two chaining
 * states, inner and outer, after one block each; the message goes through the
 * inner one, and the inner digest through the outer one. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"

/* ctx->inner and ctx->outer after the key's ipad and opad blocks. */
void libsha_hmac_start(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *ctx, const unsigned char *key,
                       size_t keylen)
{
    unsigned char block[64], pad[64]; /* K0, then K0 ^ ipad and K0 ^ opad */
    size_t i;

    memset(block, 0, sizeof block);
    if (keylen > 64) { /* RFC 2104: a long key is replaced by its hash */
        libsha_sha256_ctx hashed;
        libsha_stream_init(&hashed);
        libsha_stream_update(impl, &hashed, key, keylen); /* cannot fail: keylen fits in memory */
        libsha_stream_final(impl, &hashed, block);        /* which wipes `hashed` */
    } else if (keylen > 0) {
        memcpy(block, key, keylen);
    }
    for (i = 0; i < 64; ++i)
        pad[i] = (unsigned char)(block[i] ^ 0x36);
    libsha_stream_init(&ctx->inner);
    impl->transform(ctx->inner.state, pad, 1);
    ctx->inner.length = 64;
    for (i = 0; i < 64; ++i)
        pad[i] = (unsigned char)(block[i] ^ 0x5c);
    libsha_stream_init(&ctx->outer);
    impl->transform(ctx->outer.state, pad, 1);
    ctx->outer.length = 64;
    libsha_wipe_bytes(block, sizeof block);
    libsha_wipe_bytes(pad, sizeof pad);
}

/* Both states must be live before anything is consumed, so an error leaves all as it was. */
static int hmac_check(const libsha_hmac_sha256_ctx *ctx)
{
    if (ctx == NULL)
        return LIBSHA_ERR_NULL;
    if (!libsha_hmac_live(ctx))
        return LIBSHA_ERR_STATE;
    return LIBSHA_OK;
}

int libsha_hmac_finish(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *ctx, unsigned char out[32])
{
    unsigned char inner[32];
    libsha_stream_final(impl, &ctx->inner, inner);       /* wipes ctx->inner */
    libsha_stream_update(impl, &ctx->outer, inner, 32);  /* 64 + 32 bytes: far below the limit */
    libsha_wipe_bytes(inner, sizeof inner);
    return libsha_stream_final(impl, &ctx->outer, out);  /* wipes ctx->outer */
}

size_t libsha_hmac_sha256_ctx_size(void)
{
    return sizeof(libsha_hmac_sha256_ctx);
}

int libsha_hmac_sha256_init(libsha_hmac_sha256_ctx *ctx, const void *key, size_t keylen)
{
    libsha_enter();
    if (ctx == NULL || (key == NULL && keylen > 0))
        return LIBSHA_ERR_NULL;
    libsha_hmac_start(libsha_active(), ctx, (const unsigned char *)key, keylen);
    return LIBSHA_OK;
}

int libsha_hmac_sha256_update(libsha_hmac_sha256_ctx *ctx, const void *data, size_t len)
{
    int err;
    libsha_enter();
    if ((err = hmac_check(ctx)) != LIBSHA_OK)
        return err;
    return libsha_stream_update(libsha_active(), &ctx->inner, data, len);
}

int libsha_hmac_sha256_final(libsha_hmac_sha256_ctx *ctx, unsigned char out[32])
{
    int err;
    libsha_enter();
    if (out == NULL)
        return LIBSHA_ERR_NULL;
    if ((err = hmac_check(ctx)) != LIBSHA_OK)
        return err;
    return libsha_hmac_finish(libsha_active(), ctx, out);
}

void libsha_hmac_sha256_wipe(libsha_hmac_sha256_ctx *ctx)
{
    if (ctx == NULL)
        return;
    libsha_wipe_ctx(&ctx->inner);
    libsha_wipe_ctx(&ctx->outer);
}

int libsha_hmac_run(const struct libsha_impl *impl, const void *key, size_t keylen, const void *msg,
                    size_t msglen, unsigned char out[32])
{
    libsha_hmac_sha256_ctx ctx;
    int err;

    if (out == NULL || (key == NULL && keylen > 0) || (msg == NULL && msglen > 0))
        return LIBSHA_ERR_NULL;
    libsha_hmac_start(impl, &ctx, (const unsigned char *)key, keylen);
    err = libsha_stream_update(impl, &ctx.inner, msg, msglen);
    if (err != LIBSHA_OK) {
        libsha_hmac_sha256_wipe(&ctx);
        return err;
    }
    /* out is written last, after key and msg were read: it may overlap them. */
    return libsha_hmac_finish(impl, &ctx, out);
}

int libsha_hmac_sha256(const void *key, size_t keylen, const void *msg, size_t msglen, unsigned char out[32])
{
    /* One implementation for the whole MAC, even if another thread switches. */
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_hmac_run(impl, key, keylen, msg, msglen, out);
}
