/* Many independent messages at once (libsha_sha256_many and the Arrow-offsets
 * forms), after isa-l_crypto's multi-buffer manager: every lane of the widest
 * many-message kernel holds a message, and a lane whose message ends takes
 * the next one, so lanes stay busy whatever the lengths.
 *
 * A lane walks through segments of whole 64-byte blocks: the message's own
 * full blocks (read in place), then its padded tail (one or two blocks in the
 * lane's buffer), then with LIBSHA_DOUBLE the outer block (the digest, padded
 * as a 32-byte message). Each kernel call runs the selected lanes for as many
 * blocks as the shortest segment among them has left. Where the row has a
 * many_last kernel and every selected lane is at a one-block tail, the tails
 * are padded in registers instead and the lanes finish in that one call
 * (outer hash included). Once no message is waiting, the batch's last lanes
 * move to narrower kernels, down to the transform, so a long last message
 * does not hold eight lanes for one. Runs of messages of one length, the
 * common case of a fixed-width column, skip the lanes where the row has a
 * many_whole kernel (many_run, at the end). */
#include <stdint.h>
#include <string.h>

#include "sha256_impl.h"

struct libsha_batch {
    /* Pointers and lengths (msgs, lens); or Arrow's layout: data and n + 1
     * offsets of 32 or 64 bits (one of off32, off64); or Arrow's binary views
     * (16 bytes each) into buffers; or rows of one length, `stride` bytes
     * apart from data (rows set: a numpy array's, a fixed-width column's). */
    const void *const *msgs;
    const size_t *lens;
    const unsigned char *data;
    const int32_t *off32;
    const int64_t *off64;
    const unsigned char *views;
    const void *const *buffers;
    int rows;
    size_t stride, row_len;
};

/* A binary view's int32 field at byte `at` (0: length, 8: buffer index, 12: offset). */
static inline int32_t view_field(const unsigned char *view, int at)
{
    int32_t x;
    memcpy(&x, view + at, 4);
    return x;
}

enum stage { IDLE, BODY, TAIL, OUTER };

struct lane {
    uint32_t state[8];
    const unsigned char *next; /* the next block of the current segment */
    size_t blocks;             /* blocks left in it */
    size_t index;              /* the message this lane hashes */
    const unsigned char *rest; /* the message's bytes after its full blocks */
    size_t rest_len;           /* < 64 */
    size_t before;             /* the message's bytes before rest */
    uint64_t bits;
    enum stage stage;
    int padded;               /* the tail is in block[] */
    unsigned char block[128]; /* the padded tail, or the outer block */
};

/* Message i; an empty one may have a NULL pointer, which is never offset. */
static inline void message(const struct libsha_batch *b, size_t i, const unsigned char **p, size_t *len)
{
    int64_t start;
    if (b->lens != NULL) {
        *p = (const unsigned char *)b->msgs[i];
        *len = b->lens[i];
        return;
    }
    if (b->rows) {
        *len = b->row_len;
        *p = b->row_len > 0 ? b->data + b->stride * i : NULL;
        return;
    }
    if (b->views != NULL) {
        const unsigned char *view = b->views + 16 * i;
        *len = (size_t)view_field(view, 0);
        if (*len <= 12)
            *p = view + 4; /* short values live in the view itself */
        else
            *p = (const unsigned char *)b->buffers[view_field(view, 8)] + view_field(view, 12);
        return;
    }
    start = b->off32 != NULL ? b->off32[i] : b->off64[i];
    *len = (size_t)((b->off32 != NULL ? b->off32[i + 1] : b->off64[i + 1]) - start);
    *p = *len > 0 ? b->data + start : NULL;
}

/* Pads the message's last rest_len bytes into the lane's block buffer. Rows
 * without a many_last kernel do this when the message starts, long before the
 * blocks are read, so those reads need not wait for these narrow stores to
 * reach the cache. */
static inline void pad_tail(struct lane *l)
{
    size_t blocks = l->rest_len < 56 ? 1 : 2;
    memset(l->block, 0, 64 * blocks);
    if (l->rest_len > 0)
        memcpy(l->block, l->rest, l->rest_len);
    l->block[l->rest_len] = 0x80;
    libsha_store_be64(l->block + 64 * blocks - 8, l->bits);
    l->padded = 1;
}

/* The lane's tail is its next segment (padded now if it was not yet). */
static inline void to_tail(struct lane *l)
{
    if (!l->padded)
        pad_tail(l);
    l->next = l->block;
    l->blocks = l->rest_len < 56 ? 1 : 2;
    l->stage = TAIL;
}

static inline void start(struct lane *l, const struct libsha_batch *b, size_t index, int eager)
{
    const unsigned char *p;
    size_t len, full;

    message(b, index, &p, &len);
    full = len / 64;
    memcpy(l->state, LIBSHA_H0, sizeof l->state);
    l->index = index;
    l->bits = (uint64_t)len * 8;
    l->rest_len = len % 64;
    l->before = len - l->rest_len;
    l->rest = full > 0 ? p + 64 * full : p;
    l->padded = 0;
    if (eager)
        pad_tail(l);
    if (full > 0) {
        l->next = p;
        l->blocks = full;
        l->stage = BODY;
    } else {
        l->stage = TAIL; /* the segment is set up when it runs (to_tail) */
        l->blocks = 0;
    }
}

/* One stretch of a batch in the lanes: its lanes, and the messages still waiting. */
struct stretch {
    struct lane lane[LIBSHA_MAX_LANES];
    size_t widest;  /* the row's widest many-message kernel */
    size_t active;  /* lanes not IDLE */
    size_t waiting; /* the next message to take */
    size_t n;       /* the stretch ends before message n */
    int eager;      /* pad tails when a message starts (rows without many_last kernels) */
    const struct libsha_batch *batch;
    unsigned char *out;
    unsigned flags;
};

/* The lane's message is hashed (its digest is out): the lane takes the next
 * waiting message, or goes IDLE when none is left. */
static inline void take_next_message(struct stretch *st, struct lane *l)
{
    if (st->waiting < st->n) {
        start(l, st->batch, st->waiting++, st->eager);
    } else {
        l->stage = IDLE;
        --st->active;
    }
}

/* The lane's segment is done: on to its next one, or finished. */
static inline void advance(struct stretch *st, struct lane *l)
{
    if (l->stage == BODY) {
        l->stage = TAIL;
        l->blocks = 0;
        return;
    }
    if (l->stage == TAIL && (st->flags & LIBSHA_DOUBLE)) {
        libsha_store_digest(l->block, l->state);
        memset(l->block + 32, 0, 32);
        l->block[32] = 0x80;
        libsha_store_be64(l->block + 56, 256);
        memcpy(l->state, LIBSHA_H0, sizeof l->state);
        l->next = l->block;
        l->blocks = 1;
        l->stage = OUTER;
        return;
    }
    libsha_store_digest(st->out + 32 * l->index, l->state);
    take_next_message(st, l);
}

/* Messages first .. n - 1 into as many lanes as the widest kernel has. */
static void fill_lanes(struct stretch *st, const struct libsha_impl *impl, unsigned char *out,
                       const struct libsha_batch *batch, size_t first, size_t n, unsigned flags)
{
    size_t i;
    st->widest = 1, st->active = 0, st->waiting = first, st->n = n, st->eager = 1;
    st->batch = batch, st->out = out, st->flags = flags;
    for (i = 2; i <= LIBSHA_MAX_LANES; ++i) {
        if (impl->many[i] != NULL)
            st->widest = i;
        if (impl->many_last[i] != NULL)
            st->eager = 0;
    }
    for (i = 0; i < st->widest; ++i) {
        st->lane[i].stage = IDLE;
        if (st->waiting < n) {
            start(&st->lane[i], batch, st->waiting++, st->eager);
            ++st->active;
        }
    }
}

/* Up to w busy lanes, in lane order; returns how many. */
static size_t pick_lanes(struct stretch *st, size_t w, struct lane *picked[])
{
    size_t i, used = 0;
    for (i = 0; i < st->widest && used < w; ++i)
        if (st->lane[i].stage != IDLE)
            picked[used++] = &st->lane[i];
    return used;
}

/* Whether every picked lane is at a one-block tail not yet padded: a many_last kernel pads it in registers. */
static int at_short_tails(struct lane *const picked[], size_t used)
{
    size_t i;
    for (i = 0; i < used; ++i)
        if (picked[i]->stage != TAIL || picked[i]->padded || picked[i]->rest_len >= 56)
            return 0;
    return 1;
}

/* The picked lanes' last blocks, padded in registers, through the wl-lane many_last kernel (the lanes it
 * has beyond `used` copy the first); each lane's digest goes out and it takes its next message. */
static void run_last_blocks(const struct libsha_impl *impl, struct stretch *st, struct lane *const picked[],
                            size_t used, size_t wl)
{
    uint32_t spare[LIBSHA_MAX_LANES][8]; /* states of padding lanes, thrown away */
    unsigned char spare_out[LIBSHA_MAX_LANES][32];
    uint32_t *states[LIBSHA_MAX_LANES];
    struct libsha_tail tails[LIBSHA_MAX_LANES];
    unsigned char *outs[LIBSHA_MAX_LANES];
    size_t i;
    for (i = 0; i < wl; ++i) {
        struct lane *l = picked[i < used ? i : 0];
        states[i] = i < used ? l->state : spare[i];
        tails[i].rest = l->rest;
        tails[i].len = l->rest_len;
        tails[i].before = l->before;
        tails[i].bits = l->bits;
        outs[i] = i < used ? st->out + 32 * l->index : spare_out[i];
    }
    impl->many_last[wl](states, tails, outs, st->flags);
    for (i = 0; i < used; ++i)
        take_next_message(st, picked[i]);
}

/* The picked lanes' next blocks, as many as the shortest segment among them has left, through the w-lane
 * kernel (the transform for one); lanes at the end of a segment move on to the next. */
static void run_blocks(const struct libsha_impl *impl, struct stretch *st, struct lane *const picked[], size_t used,
                       size_t w)
{
    uint32_t spare[LIBSHA_MAX_LANES][8];
    uint32_t *states[LIBSHA_MAX_LANES];
    const unsigned char *next[LIBSHA_MAX_LANES];
    size_t i, blocks = SIZE_MAX;
    for (i = 0; i < used; ++i) {
        struct lane *l = picked[i];
        if (l->stage == TAIL && l->blocks == 0)
            to_tail(l);
        states[i] = l->state;
        next[i] = l->next;
        if (l->blocks < blocks)
            blocks = l->blocks;
    }
    for (i = used; i < w; ++i) /* fewer busy lanes than the kernel has */
        states[i] = spare[i], next[i] = next[0];
    libsha_run_width(impl, w, states, next, blocks);
    for (i = 0; i < used; ++i) {
        struct lane *l = picked[i];
        l->blocks -= blocks;
        if (l->blocks > 0) {
            l->next += 64 * blocks;
            continue;
        }
        advance(st, l);
    }
}

/* Messages first .. n - 1 through the lanes: each round picks a kernel width for the busy lanes, then
 * either pads and finishes them all in registers (every one at a short tail, and the row has the
 * kernel) or runs their next blocks. */
static void run_lanes(const struct libsha_impl *impl, unsigned char *out, const struct libsha_batch *batch,
                      size_t first, size_t n, unsigned flags)
{
    struct stretch st;
    fill_lanes(&st, impl, out, batch, first, n, flags);
    while (st.active > 0) {
        struct lane *picked[LIBSHA_MAX_LANES];
        size_t w = libsha_pick_width(impl, st.widest, st.active), used = pick_lanes(&st, w, picked);
        /* One lane left at its tail: through the 2-lane last-block kernel, the
         * second lane a copy, if the row has one. */
        size_t wl = impl->many_last[w] == NULL && w == 1 && impl->many_last[2] != NULL ? 2 : w;
        /* glibc's memset and memcpy (the tails) may use AVX-512 registers
         * and leave upper state dirty; SSE kernels then run at half speed. */
        libsha_enter();
        if (impl->many_last[wl] != NULL && at_short_tails(picked, used))
            run_last_blocks(impl, &st, picked, used, wl);
        else
            run_blocks(impl, &st, picked, used, w);
    }
}

/* Each run of W consecutive messages of one length (with a one-block tail)
 * goes whole through the row's widest many_whole kernel, state and tails in
 * registers: a fixed-width column is all such runs. The other messages go
 * through the lanes, in stretches between the runs. */
static void many_run(const struct libsha_impl *impl, unsigned char *out, const struct libsha_batch *batch, size_t n,
                     unsigned flags)
{
    const unsigned char *msgs[LIBSHA_MAX_LANES];
    unsigned char *outs[LIBSHA_MAX_LANES];
    size_t w = 0, i, run = 0, len = 0, done = 0, j;

    for (i = 2; i <= LIBSHA_MAX_LANES; ++i)
        if (impl->many_whole[i] != NULL)
            w = i;
    for (i = 0; w > 0 && i < n; ++i) {
        const unsigned char *p;
        size_t l;
        message(batch, i, &p, &l);
        if (run == 0 || l != len)
            run = 0, len = l;
        if (len % 64 >= 56) /* a two-block tail: the lanes pad it in memory */
            continue;
        msgs[run++] = p;
        if (run < w)
            continue;
        if (done < i + 1 - w)
            run_lanes(impl, out, batch, done, i + 1 - w, flags);
        for (j = 0; j < w; ++j)
            outs[j] = out + 32 * (i + 1 - w + j);
        impl->many_whole[w](msgs, len, outs, flags);
        done = i + 1, run = 0;
    }
    if (done < n)
        run_lanes(impl, out, batch, done, n, flags);
}

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
        int32_t len = view_field(view, 0), index, offset;
        if (len < 0)
            return LIBSHA_ERR_ARGUMENT;
        if (len <= 12)
            continue;
        index = view_field(view, 8), offset = view_field(view, 12);
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
    size_t i;
    if (err != LIBSHA_OK)
        return err;
    if (!(flags & LIBSHA_HEX)) {
        many_run(impl, out, batch, n, flags);
        return LIBSHA_OK;
    }
    /* With LIBSHA_HEX the digests go to the upper half of out's 64 * n bytes, then each becomes its
     * 64 characters from the front: digest i's text ends at 64 * i + 64, which is at most where
     * digest i itself ends (32 * n + 32 * i + 32), so no digest is overwritten before it is read. */
    many_run(impl, out + 32 * n, batch, n, flags & ~(unsigned)LIBSHA_HEX);
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
