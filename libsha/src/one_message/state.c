/* Saved states: a context as bytes that resume it on any row, CPU or platform
 * (libsha.h gives the layout), and midstates, a state at a block boundary as
 * 32 bytes and a length. Import checks everything before it writes. */
#include <string.h>

#include "fips180.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"

#define MAGIC "lsha"
#define VERSION 1
#define KIND_SHA256 1
#define KIND_HMAC 2
#define AT_LENGTH 8
#define AT_WORDS 16
#define AT_PENDING 48
#define AT_OUTER 112
#define CHECK_SIZE 8

static uint64_t load_be64(const unsigned char *p)
{
    uint64_t hi = libsha_load_be32(p), lo = libsha_load_be32(p + 4);
    return hi << 32 | lo;
}

static void store_words(unsigned char *out, const uint32_t words[8])
{
    libsha_store_digest(out, words);
}

static void load_words(uint32_t words[8], const unsigned char *in)
{
    int i;
    for (i = 0; i < 8; ++i)
        words[i] = libsha_load_be32(in + 4 * i);
}

/* The check: the first 8 bytes of the SHA-256 of everything before it (any row gives the same). */
static void check_of(const unsigned char *state, size_t size, unsigned char check[CHECK_SIZE])
{
    unsigned char digest[32];
    libsha_sha256(state, size - CHECK_SIZE, digest);
    memcpy(check, digest, CHECK_SIZE);
}

/* The header, length, words and pending bytes of a stream (the inner one of an HMAC). */
static void export_stream(const libsha_sha256_ctx *ctx, unsigned kind, unsigned char *out)
{
    size_t used = (size_t)(ctx->length % 64);
    memset(out, 0, AT_PENDING + 64);
    memcpy(out, MAGIC, 4);
    out[4] = VERSION;
    out[5] = (unsigned char)kind;
    libsha_store_be64(out + AT_LENGTH, ctx->length);
    store_words(out + AT_WORDS, ctx->state);
    memcpy(out + AT_PENDING, ctx->pending, used); /* the bytes past them stay zero: one encoding per state */
}

/* Whether state[0..size) is a valid saved state of that kind and size (nothing written). */
static int valid(const unsigned char *state, size_t size, unsigned kind, size_t expected)
{
    unsigned char check[CHECK_SIZE];
    uint64_t length;
    size_t i, used;
    if (size != expected || memcmp(state, MAGIC, 4) != 0 || state[4] != VERSION || state[5] != kind
        || state[6] != 0 || state[7] != 0)
        return 0;
    length = load_be64(state + AT_LENGTH);
    if (length > LIBSHA_MAX_MESSAGE_BYTES || (kind == KIND_HMAC && length < 64))
        return 0;
    used = (size_t)(length % 64);
    for (i = used; i < 64; ++i)
        if (state[AT_PENDING + i] != 0)
            return 0;
    check_of(state, size, check);
    return memcmp(check, state + size - CHECK_SIZE, CHECK_SIZE) == 0;
}

static void import_stream(libsha_sha256_ctx *ctx, const unsigned char *state)
{
    libsha_stream_init(ctx);
    ctx->length = load_be64(state + AT_LENGTH);
    load_words(ctx->state, state + AT_WORDS);
    memcpy(ctx->pending, state + AT_PENDING, 64);
}

int libsha_sha256_export(const libsha_sha256_ctx *ctx, unsigned char out[LIBSHA_STATE_SIZE])
{
    if (ctx == NULL || out == NULL)
        return LIBSHA_ERR_NULL;
    if (!libsha_stream_live(ctx))
        return LIBSHA_ERR_STATE;
    if (libsha_overlaps(out, LIBSHA_STATE_SIZE, ctx, sizeof *ctx))
        return LIBSHA_ERR_ARGUMENT;
    export_stream(ctx, KIND_SHA256, out);
    check_of(out, LIBSHA_STATE_SIZE, out + LIBSHA_STATE_SIZE - CHECK_SIZE);
    return LIBSHA_OK;
}

int libsha_sha256_import(libsha_sha256_ctx *ctx, const void *state, size_t size)
{
    if (ctx == NULL || state == NULL)
        return LIBSHA_ERR_NULL;
    if (!valid((const unsigned char *)state, size, KIND_SHA256, LIBSHA_STATE_SIZE))
        return LIBSHA_ERR_FORMAT;
    if (libsha_overlaps(state, size, ctx, sizeof *ctx))
        return LIBSHA_ERR_ARGUMENT;
    import_stream(ctx, (const unsigned char *)state);
    return LIBSHA_OK;
}

int libsha_hmac_sha256_export(const libsha_hmac_sha256_ctx *ctx, unsigned char out[LIBSHA_HMAC_STATE_SIZE])
{
    if (ctx == NULL || out == NULL)
        return LIBSHA_ERR_NULL;
    if (!libsha_hmac_live(ctx))
        return LIBSHA_ERR_STATE;
    if (libsha_overlaps(out, LIBSHA_HMAC_STATE_SIZE, ctx, sizeof *ctx))
        return LIBSHA_ERR_ARGUMENT;
    export_stream(&ctx->inner, KIND_HMAC, out);
    store_words(out + AT_OUTER, ctx->outer.state);
    check_of(out, LIBSHA_HMAC_STATE_SIZE, out + LIBSHA_HMAC_STATE_SIZE - CHECK_SIZE);
    return LIBSHA_OK;
}

int libsha_hmac_sha256_import(libsha_hmac_sha256_ctx *ctx, const void *state, size_t size)
{
    const unsigned char *s = (const unsigned char *)state;
    if (ctx == NULL || state == NULL)
        return LIBSHA_ERR_NULL;
    if (!valid(s, size, KIND_HMAC, LIBSHA_HMAC_STATE_SIZE))
        return LIBSHA_ERR_FORMAT;
    if (libsha_overlaps(state, size, ctx, sizeof *ctx))
        return LIBSHA_ERR_ARGUMENT;
    import_stream(&ctx->inner, s);
    libsha_stream_init(&ctx->outer);
    load_words(ctx->outer.state, s + AT_OUTER);
    ctx->outer.length = 64;
    return LIBSHA_OK;
}

int libsha_sha256_midstate(const libsha_sha256_ctx *ctx, unsigned char words[32], uint64_t *length)
{
    if (ctx == NULL || words == NULL)
        return LIBSHA_ERR_NULL;
    if (!libsha_stream_live(ctx))
        return LIBSHA_ERR_STATE;
    if (ctx->length % 64 != 0 || libsha_overlaps(words, 32, ctx, sizeof *ctx))
        return LIBSHA_ERR_ARGUMENT;
    store_words(words, ctx->state);
    if (length != NULL)
        *length = ctx->length;
    return LIBSHA_OK;
}

int libsha_sha256_init_midstate(libsha_sha256_ctx *ctx, const unsigned char words[32], uint64_t length)
{
    if (ctx == NULL || words == NULL)
        return LIBSHA_ERR_NULL;
    if (length % 64 != 0 || length > LIBSHA_MAX_MESSAGE_BYTES || libsha_overlaps(words, 32, ctx, sizeof *ctx))
        return LIBSHA_ERR_ARGUMENT;
    libsha_stream_init(ctx);
    load_words(ctx->state, words);
    ctx->length = length;
    return LIBSHA_OK;
}
