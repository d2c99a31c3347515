/* Many independent messages at once: libsha_sha256_many and its forms (Arrow
 * offsets and views, rows), each checked in full before the first byte is
 * written, then handed to the lane scheduler (lanes.c) as one batch; and
 * SHA256D64, a batch of 64-byte rows hashed twice. LIBSHA_HEX turns the
 * digests into text in the same call. */
#include <stdint.h>
#include <string.h>

#include "lanes.h"

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

static int check_pointers(const unsigned char *out, const struct libsha_batch *b, size_t n, unsigned flags,
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

/* One of off32 and off64 is set. */
static int check_offsets(const unsigned char *out, const struct libsha_batch *b, size_t n, unsigned flags,
                         uint64_t limit)
{
    const unsigned char *data = b->data;
    size_t i;
    if (b->off32 == NULL && b->off64 == NULL)
        return LIBSHA_ERR_NULL;
    if (b->off32 != NULL)
        CHECK_OFFSETS(b->off32);
    else
        CHECK_OFFSETS(b->off64);
    return LIBSHA_OK;
}

/* Every view must lie inside its buffer: nothing is read that the caller did not name. */
static int check_views(const unsigned char *out, const struct libsha_batch *b, size_t n, unsigned flags,
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
        const unsigned char *view = b->views + 16 * i;
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
static int check_rows(const unsigned char *out, const struct libsha_batch *b, size_t n, unsigned flags,
                      uint64_t limit)
{
    size_t span, stride = b->stride, len = b->row_len;
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
static int check_batch(const unsigned char *out, const struct libsha_batch *b, size_t n, unsigned flags,
                       uint64_t limit)
{
    int err = check_common(out, n, flags);
    if (err != LIBSHA_OK || n == 0)
        return err;
    if (b->lens != NULL || b->msgs != NULL)
        return check_pointers(out, b, n, flags, limit);
    if (b->rows)
        return check_rows(out, b, n, flags, limit);
    if (b->views != NULL)
        return check_views(out, b, n, flags, limit);
    return check_offsets(out, b, n, flags, limit);
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
static int many_on(const struct libsha_impl *impl, unsigned char *out, const struct libsha_batch *batch, size_t n,
                   unsigned flags, const libsha_sha256_ctx *prefix, const libsha_hmac_sha256_ctx *hmac, int after)
{
    struct libsha_start start;
    struct libsha_jobs jobs = {batch, out, flags & ~(unsigned)LIBSHA_HEX, NULL, n, NULL};
    uint64_t limit = LIBSHA_MAX_MESSAGE_BYTES;
    size_t i;
    int err = after ? start_after(&start, prefix, hmac, out, n, flags, &limit) : LIBSHA_OK;
    if (err == LIBSHA_OK)
        err = check_batch(out, batch, n, flags, limit);
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

/* Each entry point takes the active implementation once, for the whole batch. The batch's
 * layouts, as the public forms name them: */
#define POINTERS {.msgs = msgs, .lens = lens}
#define OFFSETS32 {.data = (const unsigned char *)data, .off32 = offsets}
#define OFFSETS64 {.data = (const unsigned char *)data, .off64 = offsets}
#define ROWS {.data = (const unsigned char *)data, .rows = 1, .stride = stride, .row_len = len}
#define VIEWS                                                                                                 \
    {.views = (const unsigned char *)views, .buffers = buffers, .buffer_sizes = buffer_sizes, .nbuffers = nbuffers}

/* One public form: its batch's layout hashed from nothing, after a prefix context, or under an HMAC context. */
#define MANY_FROM_NOTHING(...) MANY(NULL, NULL, 0, __VA_ARGS__)
#define MANY(prefix, hmac, after, ...)                                                                        \
    do {                                                                                                      \
        const struct libsha_impl *impl = libsha_active();                                                     \
        const struct libsha_batch batch = __VA_ARGS__;                                                        \
        libsha_enter();                                                                                       \
        return many_on(impl, out, &batch, n, flags, prefix, hmac, after);                                     \
    } while (0)

int libsha_sha256_many(unsigned char *out, const void *const *msgs, const size_t *lens, size_t n, unsigned flags)
{
    MANY_FROM_NOTHING(POINTERS);
}

int libsha_many_offsets_on(const struct libsha_impl *impl, unsigned char *out, const void *data,
                           const int32_t *off32, const int64_t *off64, size_t n, unsigned flags,
                           const libsha_sha256_ctx *prefix, const libsha_hmac_sha256_ctx *hmac)
{
    const struct libsha_batch batch = {.data = (const unsigned char *)data, .off32 = off32, .off64 = off64};
    return many_on(impl, out, &batch, n, flags, prefix, hmac, prefix != NULL || hmac != NULL);
}

int libsha_sha256_many_offsets32(unsigned char *out, const void *data, const int32_t *offsets, size_t n,
                                 unsigned flags)
{
    MANY_FROM_NOTHING(OFFSETS32);
}

int libsha_sha256_many_offsets64(unsigned char *out, const void *data, const int64_t *offsets, size_t n,
                                 unsigned flags)
{
    MANY_FROM_NOTHING(OFFSETS64);
}

int libsha_sha256_many_rows(unsigned char *out, const void *data, size_t stride, size_t len, size_t n,
                            unsigned flags)
{
    MANY_FROM_NOTHING(ROWS);
}

int libsha_sha256_many_views(unsigned char *out, const void *views, const void *const *buffers,
                             const int64_t *buffer_sizes, size_t nbuffers, size_t n, unsigned flags)
{
    MANY_FROM_NOTHING(VIEWS);
}

int libsha_sha256_many_after(unsigned char *out, const libsha_sha256_ctx *prefix, const void *const *msgs,
                             const size_t *lens, size_t n, unsigned flags)
{
    MANY(prefix, NULL, 1, POINTERS);
}

int libsha_sha256_many_offsets32_after(unsigned char *out, const libsha_sha256_ctx *prefix, const void *data,
                                       const int32_t *offsets, size_t n, unsigned flags)
{
    MANY(prefix, NULL, 1, OFFSETS32);
}

int libsha_sha256_many_offsets64_after(unsigned char *out, const libsha_sha256_ctx *prefix, const void *data,
                                       const int64_t *offsets, size_t n, unsigned flags)
{
    MANY(prefix, NULL, 1, OFFSETS64);
}

int libsha_sha256_many_rows_after(unsigned char *out, const libsha_sha256_ctx *prefix, const void *data,
                                  size_t stride, size_t len, size_t n, unsigned flags)
{
    MANY(prefix, NULL, 1, ROWS);
}

int libsha_sha256_many_views_after(unsigned char *out, const libsha_sha256_ctx *prefix, const void *views,
                                   const void *const *buffers, const int64_t *buffer_sizes, size_t nbuffers,
                                   size_t n, unsigned flags)
{
    MANY(prefix, NULL, 1, VIEWS);
}

int libsha_hmac_sha256_many_after(unsigned char *out, const libsha_hmac_sha256_ctx *hmac, const void *const *msgs,
                                  const size_t *lens, size_t n, unsigned flags)
{
    MANY(NULL, hmac, 1, POINTERS);
}

int libsha_hmac_sha256_many_offsets32_after(unsigned char *out, const libsha_hmac_sha256_ctx *hmac, const void *data,
                                            const int32_t *offsets, size_t n, unsigned flags)
{
    MANY(NULL, hmac, 1, OFFSETS32);
}

int libsha_hmac_sha256_many_offsets64_after(unsigned char *out, const libsha_hmac_sha256_ctx *hmac, const void *data,
                                            const int64_t *offsets, size_t n, unsigned flags)
{
    MANY(NULL, hmac, 1, OFFSETS64);
}

int libsha_hmac_sha256_many_rows_after(unsigned char *out, const libsha_hmac_sha256_ctx *hmac, const void *data,
                                       size_t stride, size_t len, size_t n, unsigned flags)
{
    MANY(NULL, hmac, 1, ROWS);
}

int libsha_hmac_sha256_many_views_after(unsigned char *out, const libsha_hmac_sha256_ctx *hmac, const void *views,
                                        const void *const *buffers, const int64_t *buffer_sizes, size_t nbuffers,
                                        size_t n, unsigned flags)
{
    MANY(NULL, hmac, 1, VIEWS);
}

int libsha_hmac_sha256_many(unsigned char *out, const void *key, size_t keylen, const void *const *msgs,
                            const size_t *lens, size_t n, unsigned flags)
{
    libsha_hmac_sha256_ctx hmac;
    int err = libsha_hmac_sha256_init(&hmac, key, keylen);
    if (err == LIBSHA_OK)
        err = libsha_hmac_sha256_many_after(out, &hmac, msgs, lens, n, flags);
    libsha_hmac_sha256_wipe(&hmac);
    return err;
}

void libsha_d64_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t blocks)
{
    const struct libsha_batch batch = {.data = in, .rows = 1, .stride = 64, .row_len = 64};
    const struct libsha_jobs jobs = {&batch, out, LIBSHA_DOUBLE, NULL, blocks, NULL};
    if (out == NULL || in == NULL)
        return;
    libsha_lanes_run(impl, &jobs);
}
