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

static int check_pointers(const unsigned char *out, const void *const *msgs, const size_t *lens, size_t n,
                          unsigned flags)
{
    size_t i;
    int err = check_common(out, n, flags);
    if (err != LIBSHA_OK || n == 0)
        return err;
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
        if ((uint64_t)lens[i] > LIBSHA_MAX_MESSAGE_BYTES)
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
            if ((uint64_t)(last_ - first_) > LIBSHA_MAX_MESSAGE_BYTES)                                        \
                for (i = 0; i < n; ++i)                                                                       \
                    if ((uint64_t)((OFF)[i + 1] - (OFF)[i]) > LIBSHA_MAX_MESSAGE_BYTES)                       \
                        return LIBSHA_ERR_TOO_LONG;                                                           \
            if (libsha_overlaps(out, OUT_SIZE(flags) * n, (const unsigned char *)data + first_,                  \
                                (size_t)(last_ - first_)))                                                    \
                return LIBSHA_ERR_ARGUMENT;                                                                   \
        }                                                                                                     \
        if (libsha_overlaps(out, OUT_SIZE(flags) * n, (OFF), sizeof *(OFF) * (n + 1)))                       \
            return LIBSHA_ERR_ARGUMENT;                                                                       \
    } while (0)

/* One of off32 and off64 is NULL. */
static int check_offsets(const unsigned char *out, const void *data, const int32_t *off32, const int64_t *off64,
                         size_t n, unsigned flags)
{
    size_t i;
    int err = check_common(out, n, flags);
    if (err != LIBSHA_OK || n == 0)
        return err;
    if (off32 == NULL && off64 == NULL)
        return LIBSHA_ERR_NULL;
    if (off32 != NULL)
        CHECK_OFFSETS(off32);
    else
        CHECK_OFFSETS(off64);
    return LIBSHA_OK;
}

/* Every view must lie inside its buffer: nothing is read that the caller did not name. */
static int check_views(const unsigned char *out, const unsigned char *views, const void *const *buffers,
                       const int64_t *buffer_sizes, size_t nbuffers, size_t n, unsigned flags)
{
    size_t i;
    int err = check_common(out, n, flags);
    if (err != LIBSHA_OK || n == 0)
        return err;
    if (views == NULL || (nbuffers > 0 && (buffers == NULL || buffer_sizes == NULL)))
        return LIBSHA_ERR_NULL;
    if (libsha_overlaps(out, OUT_SIZE(flags) * n, views, 16 * n))
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < nbuffers; ++i) {
        if (buffer_sizes[i] < 0)
            return LIBSHA_ERR_ARGUMENT;
        if (buffer_sizes[i] > 0 && buffers[i] == NULL)
            return LIBSHA_ERR_NULL;
        if ((uint64_t)buffer_sizes[i] > (uint64_t)(UINTPTR_MAX - (uintptr_t)buffers[i])
            || libsha_overlaps(out, OUT_SIZE(flags) * n, buffers[i], (size_t)buffer_sizes[i]))
            return LIBSHA_ERR_ARGUMENT;
    }
    for (i = 0; i < n; ++i) {
        const unsigned char *view = views + 16 * i;
        int32_t len = libsha_view_field(view, 0), index, offset;
        if (len < 0)
            return LIBSHA_ERR_ARGUMENT;
        if (len <= 12)
            continue;
        index = libsha_view_field(view, 8), offset = libsha_view_field(view, 12);
        if (index < 0 || (size_t)index >= nbuffers || offset < 0 || (int64_t)offset + len > buffer_sizes[index])
            return LIBSHA_ERR_ARGUMENT;
    }
    return LIBSHA_OK;
}

/* Rows of one length: each inside the address space, clear of out. */
static int check_rows(const unsigned char *out, const void *data, size_t stride, size_t len, size_t n, unsigned flags)
{
    size_t span;
    int err = check_common(out, n, flags);
    if (err != LIBSHA_OK || n == 0 || len == 0)
        return err;
    if (data == NULL)
        return LIBSHA_ERR_NULL;
    if ((uint64_t)len > LIBSHA_MAX_MESSAGE_BYTES)
        return LIBSHA_ERR_TOO_LONG;
    if (stride != 0 && n - 1 > (SIZE_MAX - len) / stride)
        return LIBSHA_ERR_ARGUMENT;
    span = stride * (n - 1) + len; /* from data to the last row's end */
    if ((uintptr_t)data > UINTPTR_MAX - span || libsha_overlaps(out, OUT_SIZE(flags) * n, data, span))
        return LIBSHA_ERR_ARGUMENT;
    return LIBSHA_OK;
}

/* The batch hashed on impl if its checks passed (err == LIBSHA_OK); nothing written otherwise. */
static int run_checked(int err, const struct libsha_impl *impl, unsigned char *out,
                       const struct libsha_batch *batch, size_t n, unsigned flags)
{
    struct libsha_jobs jobs = {batch, out, flags & ~(unsigned)LIBSHA_HEX, NULL, n};
    size_t i;
    if (err != LIBSHA_OK)
        return err;
    if (!(flags & LIBSHA_HEX)) {
        libsha_lanes_run(impl, &jobs);
        return LIBSHA_OK;
    }
    /* With LIBSHA_HEX the digests go to the upper half of out's 64 * n bytes, then each becomes its
     * 64 characters from the front: digest i's text ends at 64 * i + 64, which is at most where
     * digest i itself ends (32 * n + 32 * i + 32), so no digest is overwritten before it is read. */
    jobs.out = out + 32 * n;
    libsha_lanes_run(impl, &jobs);
    for (i = 0; i < n; ++i) {
        unsigned char digest[32];
        memcpy(digest, out + 32 * n + 32 * i, 32);
        libsha_hex((char *)out + 64 * i, digest, 32);
    }
    return LIBSHA_OK;
}

/* Each entry point takes the active implementation once, for the whole batch. */
int libsha_sha256_many(unsigned char *out, const void *const *msgs, const size_t *lens, size_t n,
                       unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    const struct libsha_batch batch = {.msgs = msgs, .lens = lens};
    libsha_enter();
    return run_checked(check_pointers(out, msgs, lens, n, flags), impl, out, &batch, n, flags);
}

int libsha_many_offsets_on(const struct libsha_impl *impl, unsigned char *out, const void *data,
                           const int32_t *off32, const int64_t *off64, size_t n, unsigned flags)
{
    const struct libsha_batch batch = {.data = (const unsigned char *)data, .off32 = off32, .off64 = off64};
    return run_checked(check_offsets(out, data, off32, off64, n, flags), impl, out, &batch, n, flags);
}

int libsha_sha256_many_offsets32(unsigned char *out, const void *data, const int32_t *offsets, size_t n,
                                 unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_many_offsets_on(impl, out, data, offsets, NULL, n, flags);
}

int libsha_sha256_many_offsets64(unsigned char *out, const void *data, const int64_t *offsets, size_t n,
                                 unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_many_offsets_on(impl, out, data, NULL, offsets, n, flags);
}

int libsha_sha256_many_rows(unsigned char *out, const void *data, size_t stride, size_t len, size_t n,
                            unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    const struct libsha_batch batch = {.data = (const unsigned char *)data, .rows = 1, .stride = stride, .row_len = len};
    libsha_enter();
    return run_checked(check_rows(out, data, stride, len, n, flags), impl, out, &batch, n, flags);
}

int libsha_sha256_many_views(unsigned char *out, const void *views, const void *const *buffers,
                             const int64_t *buffer_sizes, size_t nbuffers, size_t n, unsigned flags)
{
    const struct libsha_impl *impl = libsha_active();
    const struct libsha_batch batch = {.views = (const unsigned char *)views, .buffers = buffers};
    libsha_enter();
    return run_checked(check_views(out, batch.views, buffers, buffer_sizes, nbuffers, n, flags), impl, out, &batch,
                       n, flags);
}

void libsha_d64_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t blocks)
{
    const struct libsha_batch batch = {.data = in, .rows = 1, .stride = 64, .row_len = 64};
    const struct libsha_jobs jobs = {&batch, out, LIBSHA_DOUBLE, NULL, blocks};
    if (out == NULL || in == NULL)
        return;
    libsha_lanes_run(impl, &jobs);
}
