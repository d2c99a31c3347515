/* Many independent messages at once: libsha_sha256_batch (every layout, from
 * nothing or from a start) and its simple form libsha_sha256_many, each batch
 * checked in full before the first byte is written, then handed to the lane
 * scheduler (lanes.c); and SHA256D64, a batch of 64-byte rows hashed twice.
 * LIBSHA_HEX turns the digests into text in the same call. */
#include <stdint.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "fips180.h"
#include "lanes.h"
#include "many.h"
#include "one_message/one_message.h"

/* The bytes out receives per message: a digest, or its 64 hex characters. */
#define OUT_SIZE(flags) ((flags) & LIBSHA_HEX ? (size_t)64 : (size_t)32)

/* What every form checks first: out, n and the flags. */
static int check_common(const unsigned char *out, size_t n, unsigned flags)
{
    if (flags & ~(unsigned)(LIBSHA_DOUBLE | LIBSHA_HEX))
        return LIBSHA_ERR_ARGUMENT;
    if (n > SIZE_MAX / 64 - 1)
        return LIBSHA_ERR_ARGUMENT;
    if (out == NULL && n > 0)
        return LIBSHA_ERR_NULL;
    return LIBSHA_OK;
}

static int check_pointers(const unsigned char *out, const libsha_batch *b, size_t n, unsigned flags,
                          uint64_t limit)
{
    const void *const *msgs = b->msgs;
    const size_t *lens = b->lens;
    size_t i;
    if (msgs == NULL || lens == NULL)
        return LIBSHA_ERR_NULL;
    if (libsha_overlaps(out, OUT_SIZE(flags) * n, msgs, sizeof *msgs * n)
        || libsha_overlaps(out, OUT_SIZE(flags) * n, lens, sizeof *lens * n))
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < n; ++i) {
        if (lens[i] == 0)
            continue;
        if (msgs[i] == NULL)
            return LIBSHA_ERR_NULL;
        if ((uint64_t)lens[i] > limit)
            return LIBSHA_ERR_TOO_LONG;
        if ((uintptr_t)msgs[i] > UINTPTR_MAX - lens[i] || libsha_overlaps(out, OUT_SIZE(flags) * n, msgs[i], lens[i]))
            return LIBSHA_ERR_ARGUMENT;
    }
    return LIBSHA_OK;
}

/* The checks of both offsets forms: OFF is int32_t or int64_t. */
#define CHECK_OFFSETS(OFF)                                                                                    \
    do {                                                                                                      \
        int64_t first_ = (OFF)[0], last_ = (OFF)[n];                                                          \
        if (first_ < 0)                                                                                       \
            return LIBSHA_ERR_ARGUMENT;                                                                       \
        for (i = 0; i < n; ++i)                                                                               \
            if ((OFF)[i + 1] < (OFF)[i])                                                                      \
                return LIBSHA_ERR_ARGUMENT;                                                                   \
        if (last_ > first_) {                                                                                 \
            if (data == NULL)                                                                                 \
                return LIBSHA_ERR_NULL;                                                                       \
            if ((uint64_t)last_ > (uint64_t)(UINTPTR_MAX - (uintptr_t)data))                                  \
                return LIBSHA_ERR_ARGUMENT;                                                                   \
            if ((uint64_t)(last_ - first_) > limit)                                                           \
                for (i = 0; i < n; ++i)                                                                       \
                    if ((uint64_t)((OFF)[i + 1] - (OFF)[i]) > limit)                                          \
                        return LIBSHA_ERR_TOO_LONG;                                                           \
            if (libsha_overlaps(out, OUT_SIZE(flags) * n, data + first_, (size_t)(last_ - first_)))           \
                return LIBSHA_ERR_ARGUMENT;                                                                   \
        }                                                                                                     \
        if (libsha_overlaps(out, OUT_SIZE(flags) * n, (OFF), sizeof *(OFF) * (n + 1)))                       \
            return LIBSHA_ERR_ARGUMENT;                                                                       \
    } while (0)

/* LIBSHA_OFFSETS32 or LIBSHA_OFFSETS64. */
static int check_offsets(const unsigned char *out, const libsha_batch *b, size_t n, unsigned flags,
                         uint64_t limit)
{
    const unsigned char *data = (const unsigned char *)b->data;
    size_t i;
    if (b->layout == LIBSHA_OFFSETS32 ? b->offsets32 == NULL : b->offsets64 == NULL)
        return LIBSHA_ERR_NULL;
    if (b->layout == LIBSHA_OFFSETS32)
        CHECK_OFFSETS(b->offsets32);
    else
        CHECK_OFFSETS(b->offsets64);
    return LIBSHA_OK;
}

/* Every view must lie inside its buffer: nothing is read that the caller did not name. */
static int check_views(const unsigned char *out, const libsha_batch *b, size_t n, unsigned flags,
                       uint64_t limit)
{
    const void *const *buffers = b->buffers;
    const int64_t *buffer_sizes = b->buffer_sizes;
    size_t i;
    if (b->views == NULL || (b->nbuffers > 0 && (buffers == NULL || buffer_sizes == NULL)))
        return LIBSHA_ERR_NULL;
    if (libsha_overlaps(out, OUT_SIZE(flags) * n, b->views, 16 * n))
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < b->nbuffers; ++i) {
        if (buffer_sizes[i] < 0)
            return LIBSHA_ERR_ARGUMENT;
        if (buffer_sizes[i] > 0 && buffers[i] == NULL)
            return LIBSHA_ERR_NULL;
        if ((uint64_t)buffer_sizes[i] > (uint64_t)(UINTPTR_MAX - (uintptr_t)buffers[i])
            || libsha_overlaps(out, OUT_SIZE(flags) * n, buffers[i], (size_t)buffer_sizes[i]))
            return LIBSHA_ERR_ARGUMENT;
    }
    for (i = 0; i < n; ++i) {
        const unsigned char *view = (const unsigned char *)b->views + 16 * i;
        int32_t len = libsha_view_field(view, 0), index, offset;
        if (len < 0)
            return LIBSHA_ERR_ARGUMENT;
        if ((uint64_t)len > limit)
            return LIBSHA_ERR_TOO_LONG;
        if (len <= 12)
            continue;
        index = libsha_view_field(view, 8), offset = libsha_view_field(view, 12);
        if (index < 0 || (size_t)index >= b->nbuffers || offset < 0 || (int64_t)offset + len > buffer_sizes[index])
            return LIBSHA_ERR_ARGUMENT;
    }
    return LIBSHA_OK;
}

/* Rows of one length: each inside the address space, clear of out. */
static int check_rows(const unsigned char *out, const libsha_batch *b, size_t n, unsigned flags,
                      uint64_t limit)
{
    size_t span, stride = b->stride, len = b->len;
    if (len == 0)
        return LIBSHA_OK;
    if (b->data == NULL)
        return LIBSHA_ERR_NULL;
    if ((uint64_t)len > limit)
        return LIBSHA_ERR_TOO_LONG;
    if (stride != 0 && n - 1 > (SIZE_MAX - len) / stride)
        return LIBSHA_ERR_ARGUMENT;
    span = stride * (n - 1) + len; /* from data to the last row's end */
    if ((uintptr_t)b->data > UINTPTR_MAX - span || libsha_overlaps(out, OUT_SIZE(flags) * n, b->data, span))
        return LIBSHA_ERR_ARGUMENT;
    return LIBSHA_OK;
}

/* The batch's checks, by its layout (as lanes.c's message() reads it): messages at most `limit` bytes. */
static int check_batch(const unsigned char *out, const libsha_batch *b, unsigned flags, uint64_t limit)
{
    size_t n = b->n;
    int err = check_common(out, n, flags);
    if (err != LIBSHA_OK || n == 0)
        return err;
    switch (b->layout) {
    case LIBSHA_POINTERS:
        return check_pointers(out, b, n, flags, limit);
    case LIBSHA_OFFSETS32:
    case LIBSHA_OFFSETS64:
        return check_offsets(out, b, n, flags, limit);
    case LIBSHA_ROWS:
        return check_rows(out, b, n, flags, limit);
    default: /* LIBSHA_VIEWS: libsha_sha256_batch refused the other values */
        return check_views(out, b, n, flags, limit);
    }
}

/* Where the messages start: after what ctx hashed (a prefix), or, with hmac set,
 * under its key after what it authenticated. ctx is only read, never written. */
static int start_after(struct libsha_start *start, const libsha_sha256_ctx *ctx, const libsha_hmac_sha256_ctx *hmac,
                       const unsigned char *out, size_t n, unsigned flags, uint64_t *limit)
{
    const void *whole = hmac != NULL ? (const void *)hmac : (const void *)ctx;
    size_t size = hmac != NULL ? sizeof *hmac : sizeof *ctx;
    if (hmac != NULL)
        ctx = &hmac->inner;
    if (ctx == NULL)
        return LIBSHA_ERR_NULL;
    if (hmac != NULL ? !libsha_hmac_live(hmac) : !libsha_stream_live(ctx))
        return LIBSHA_ERR_STATE;
    if (hmac != NULL && (flags & LIBSHA_DOUBLE))
        return LIBSHA_ERR_ARGUMENT;
    /* (n past this: check_common refuses it) */
    if (n <= SIZE_MAX / 64 - 1 && libsha_overlaps(out, OUT_SIZE(flags) * n, whole, size))
        return LIBSHA_ERR_ARGUMENT;
    memcpy(start->state, ctx->state, sizeof start->state);
    start->head_len = (size_t)(ctx->length % 64);
    start->bytes = ctx->length - start->head_len;
    start->head = ctx->pending;
    start->outer = hmac != NULL ? hmac->outer.state : NULL;
    *limit = LIBSHA_MAX_MESSAGE_BYTES - ctx->length;
    return LIBSHA_OK;
}

/* The batch checked (after its start, if one is given: prefix or hmac), then hashed on impl; nothing written on error. */
int libsha_batch_on(const struct libsha_impl *impl, unsigned char *out, const libsha_batch *batch,
                    const libsha_sha256_ctx *prefix, const libsha_hmac_sha256_ctx *hmac, unsigned flags)
{
    struct libsha_start start;
    struct libsha_jobs jobs = {batch, out, flags & ~(unsigned)LIBSHA_HEX, NULL, 0, NULL};
    uint64_t limit = LIBSHA_MAX_MESSAGE_BYTES;
    int after = prefix != NULL || hmac != NULL, err = LIBSHA_OK;
    size_t i, n;
    if (batch == NULL)
        return LIBSHA_ERR_NULL;
    if (batch->layout < LIBSHA_POINTERS || batch->layout > LIBSHA_VIEWS || (prefix != NULL && hmac != NULL))
        return LIBSHA_ERR_ARGUMENT;
    n = jobs.n = batch->n;
    if (after)
        err = start_after(&start, prefix, hmac, out, n, flags, &limit);
    if (err == LIBSHA_OK)
        err = check_batch(out, batch, flags, limit);
    if (err != LIBSHA_OK)
        return err;
    if (after)
        jobs.start = &start;
    /* With LIBSHA_HEX the digests go to the upper half of out's 64 * n bytes, then each becomes its
     * 64 characters from the front: digest i's text ends at 64 * i + 64, which is at most where
     * digest i itself ends (32 * n + 32 * i + 32), so no digest is overwritten before it is read. */
    if (flags & LIBSHA_HEX)
        jobs.out = out + 32 * n;
    libsha_lanes_run(impl, &jobs);
    if (after)
        libsha_wipe_bytes(start.state, sizeof start.state);
    for (i = 0; (flags & LIBSHA_HEX) && i < n; ++i) {
        unsigned char digest[32];
        memcpy(digest, out + 32 * n + 32 * i, 32);
        libsha_hex((char *)out + 64 * i, digest, 32);
    }
    return LIBSHA_OK;
}

/* Each entry point takes the active implementation once, for the whole batch. */
int libsha_sha256_batch(unsigned char *out, const libsha_batch *batch, const libsha_sha256_ctx *prefix,
                        const libsha_hmac_sha256_ctx *hmac, unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_batch_on(impl, out, batch, prefix, hmac, flags);
}

int libsha_sha256_many(unsigned char *out, const void *const *msgs, const size_t *lens, size_t n, unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    const libsha_batch batch = {.layout = LIBSHA_POINTERS, .n = n, .msgs = msgs, .lens = lens};
    libsha_enter();
    return libsha_batch_on(impl, out, &batch, NULL, NULL, flags);
}

void libsha_d64_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t blocks)
{
    const libsha_batch batch = {.layout = LIBSHA_ROWS, .n = blocks, .data = in, .stride = 64, .len = 64};
    const struct libsha_jobs jobs = {&batch, out, LIBSHA_DOUBLE, NULL, blocks, NULL};
    if (out == NULL || in == NULL)
        return;
    libsha_lanes_run(impl, &jobs);
}

void libsha_sha256d64(unsigned char *out, const unsigned char *in, size_t blocks)
{
    libsha_enter();
    libsha_d64_on(libsha_active(), out, in, blocks);
}
