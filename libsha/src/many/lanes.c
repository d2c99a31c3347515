/* The lane scheduler, after isa-l_crypto's multi-buffer manager: every lane of
 * the row's widest many-message kernel holds a job (a message, or a stream's
 * chunk), and a lane whose job ends takes the next one, so lanes stay busy
 * whatever the lengths. The only caller of the row's lane kernels (run_kernel).
 *
 * A lane walks through segments of whole 64-byte blocks, on its state: a
 * message's own full blocks (read in place), then its padded tail (one or two
 * blocks in the lane's buffer), then with LIBSHA_DOUBLE the outer block (the
 * digest, padded as a 32-byte message); a stream's pending block (in its
 * context), then its chunk's whole blocks, on the context's state. Each
 * kernel call runs the selected lanes for as many blocks as the shortest
 * segment among them has left. Where the row has a many_last kernel and
 * every selected lane is at a one-block tail, the tails are padded in
 * registers instead and the lanes finish in that one call (outer hash
 * included). On such a row a message whose body is done and whose tail fits
 * one block does not wait for the others: its state and tail are put off
 * (defer_tail) and its lane takes the next job at once; a full width of
 * tails goes through many_last together. Once no job is waiting, the last
 * lanes move to narrower kernels, down to the transform, so a long last
 * message does not hold eight lanes.
 *
 * Jobs of one shape skip the lanes' bookkeeping and go through in step
 * (in step): streaks of messages of one length through the row's many_whole
 * kernel (a fixed-width column), SHA256D64's blobs through its d64 kernels,
 * streams fed in step through fixed groups of the widest kernel.
 *
 * A new kind of job is a new `start` (where its segments and state come
 * from) and a new `advance` case (what follows a segment). */
#include <stdint.h>
#include <string.h>

#include "dispatch/cpu_features.h"
#include "dispatch/dispatch.h"
#include "fips180.h"
#include "lanes.h"
#include "one_message/one_message.h"

/* ---- The kernels: every call the scheduler makes goes through run_kernel. ---- */

enum kernel_kind { BLOCKS, LAST_BLOCKS, WHOLE, D64 };

struct kernel_call {
    enum kernel_kind kind;
    size_t width;
    uint32_t *const *states;           /* BLOCKS, LAST_BLOCKS */
    const unsigned char *const *next;  /* BLOCKS: each lane's next block */
    size_t blocks;                     /* BLOCKS: how many of each */
    const struct libsha_tail *tails;   /* LAST_BLOCKS */
    const unsigned char *const *msgs;  /* WHOLE */
    size_t len;                        /* WHOLE: every message's length */
    unsigned char *const *outs;        /* LAST_BLOCKS, WHOLE: each lane's digest */
    unsigned flags;                    /* LAST_BLOCKS, WHOLE */
    unsigned char *out;                /* D64 */
    const unsigned char *in;           /* D64 */
    const struct libsha_start *start;  /* WHOLE: NULL, or where every lane starts */
    const uint32_t *kw;                /* WHOLE: the padding block's K + W when len % 64 == 0 */
    size_t groups, step;               /* WHOLE: sets of width messages, each step bytes past the last */
};

/* The width 1 of BLOCKS is the transform (one lane). */
static inline void run_kernel(const struct libsha_impl *impl, const struct kernel_call *c)
{
    switch (c->kind) {
    case BLOCKS:
        if (c->width == 1)
            impl->transform(c->states[0], c->next[0], c->blocks);
        else
            impl->many[c->width](c->states, c->next, c->blocks);
        break;
    case LAST_BLOCKS:
        impl->many_last[c->width](c->states, c->tails, c->outs, c->flags);
        break;
    case WHOLE:
        impl->many_whole[c->width](c->msgs, c->len, c->outs, c->flags, c->start, c->kw, c->groups, c->step);
        break;
    case D64:
        impl->d64[c->width](c->out, c->in);
        break;
    }
}

static inline void run_blocks_on(const struct libsha_impl *impl, size_t w, uint32_t *const states[],
                                 const unsigned char *const next[], size_t blocks)
{
    struct kernel_call c = {BLOCKS, w, states, next, blocks, NULL, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL, 0, 0};
    run_kernel(impl, &c);
}

/* ---- Where the jobs' bytes are ---- */

/* Message i; an empty one may have a NULL pointer, which is never offset. */
static inline void message(const libsha_batch *b, size_t i, const unsigned char **p, size_t *len)
{
    const unsigned char *view;
    int64_t start;
    switch (b->layout) {
    case LIBSHA_POINTERS:
        *p = (const unsigned char *)b->msgs[i];
        *len = b->lens[i];
        return;
    case LIBSHA_ROWS:
        *len = b->len;
        *p = b->len > 0 ? (const unsigned char *)b->data + b->stride * i : NULL;
        return;
    case LIBSHA_VIEWS:
        view = (const unsigned char *)b->views + 16 * i;
        *len = (size_t)libsha_view_field(view, 0);
        if (*len <= 12)
            *p = view + 4; /* short values live in the view itself */
        else
            *p = (const unsigned char *)b->buffers[libsha_view_field(view, 8)] + libsha_view_field(view, 12);
        return;
    default: /* LIBSHA_OFFSETS32, LIBSHA_OFFSETS64 */
        start = b->layout == LIBSHA_OFFSETS32 ? b->offsets32[i] : b->offsets64[i];
        *len = (size_t)((b->layout == LIBSHA_OFFSETS32 ? b->offsets32[i + 1] : b->offsets64[i + 1]) - start);
        *p = *len > 0 ? (const unsigned char *)b->data + start : NULL;
    }
}

/* ---- Which jobs a run takes ---- */

/* The jobs of a run, by length (a row of two engines runs a batch twice, once on each engine): the
 * messages or stream chunks of from <= length < to, or with `outside` the others. */
struct length_class {
    size_t from, to;
    int outside;
};
static const struct length_class EVERY_JOB = {0, SIZE_MAX, 0};

static inline int in_class(struct length_class c, size_t len)
{
    return (len >= c.from && len < c.to) != c.outside;
}

/* A stream chunk's length: its pending block's and its body's (the part the lanes hash). */
static inline size_t chunk_length(const struct libsha_stream_job *s)
{
    return (s->at_pending ? 64 : 0) + 64 * s->body_blocks;
}

static inline int job_in_class(const struct libsha_jobs *jobs, struct length_class c, size_t i)
{
    const unsigned char *p;
    size_t len;
    if (c.from == 0 && c.to == SIZE_MAX && !c.outside)
        return 1;
    if (jobs->streams != NULL)
        return in_class(c, chunk_length(&jobs->streams[i]));
    message(jobs->batch, i, &p, &len);
    return in_class(c, len);
}

/* ---- Lanes ---- */

/* A lane's place in its job: a stream's PENDING then BODY; a message's HEAD (a
 * start's head bytes and its first bytes), BODY, TAIL, OUTER. */
enum stage { IDLE, PENDING, HEAD, BODY, TAIL, OUTER };

struct lane {
    uint32_t *state;           /* own (a message's), or a stream's context's */
    const unsigned char *next; /* the next block of the current segment */
    size_t blocks;             /* blocks left in it */
    size_t index;              /* the job this lane runs */
    enum stage stage;
    /* messages only: */
    const unsigned char *body; /* after HEAD: the full blocks read in place */
    size_t body_blocks;
    const unsigned char *rest; /* the message's bytes after its full blocks */
    size_t rest_len;           /* < 64 */
    size_t before;             /* bytes readable before rest, of the same message (or of head[]) */
    uint64_t bits;
    int padded;               /* the tail is in block[] */
    uint32_t own[8];
    unsigned char block[128]; /* the padded tail, or the outer block */
    unsigned char head[64];   /* a start's head bytes and the message's first ones */
};

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

/* The message's head block (a start's head bytes, then its first ones) in
 * head[], and where the rest of it lies; or, for a short one, all of it in
 * head[] as the tail. p[0..len) is the message. */
static inline void start_after_head(struct lane *l, const struct libsha_start *s, const unsigned char *p, size_t len)
{
    size_t h = s->head_len, first = 64 - h, full;
    memcpy(l->head, s->head, h);
    if (h + len < 64) {
        if (len > 0)
            memcpy(l->head + h, p, len);
        l->rest = l->head, l->rest_len = h + len, l->before = 0;
        l->body_blocks = 0;
        l->stage = TAIL;
        l->blocks = 0;
        return;
    }
    memcpy(l->head + h, p, first);
    full = (len - first) / 64;
    l->body = p + first, l->body_blocks = full;
    l->rest_len = (len - first) % 64;
    l->before = first + 64 * full;
    l->rest = p + l->before;
    l->next = l->head, l->blocks = 1, l->stage = HEAD;
}

static inline void start_message(struct lane *l, const struct libsha_jobs *jobs, size_t index, int eager)
{
    const struct libsha_start *s = jobs->start;
    const unsigned char *p;
    size_t len, full;

    message(jobs->batch, index, &p, &len);
    l->state = l->own;
    l->index = index;
    l->padded = 0;
    if (s != NULL) {
        memcpy(l->own, s->state, sizeof l->own);
        l->bits = (s->bytes + s->head_len + len) * 8; /* checked against the limit by the caller */
        if (s->head_len > 0) {
            start_after_head(l, s, p, len);
            if (eager)
                pad_tail(l);
            return;
        }
    } else {
        memcpy(l->own, LIBSHA_H0, sizeof l->own);
        l->bits = (uint64_t)len * 8;
    }
    full = len / 64;
    l->rest_len = len % 64;
    l->before = len - l->rest_len;
    l->rest = full > 0 ? p + 64 * full : p;
    if (eager)
        pad_tail(l);
    else if (full > 0 && l->rest_len > 0) /* read when the body is done: in the cache by then */
        LIBSHA_PREFETCH(l->rest, l->rest_len - 1);
    if (full > 0) {
        l->next = p;
        l->blocks = full;
        l->stage = BODY;
    } else {
        l->stage = TAIL; /* the segment is set up when it runs (to_tail) */
        l->blocks = 0;
    }
}

static inline void start_stream(struct lane *l, const struct libsha_stream_job *s, size_t index)
{
    l->state = s->ctx->state;
    l->index = index;
    if (s->at_pending) {
        l->next = s->ctx->pending, l->blocks = 1, l->stage = PENDING;
    } else {
        l->next = s->body, l->blocks = s->body_blocks, l->stage = BODY;
    }
}

/* One run of a call's jobs through the lanes: its lanes, and the jobs still waiting. */
struct lane_run {
    struct lane lane[LIBSHA_MAX_LANES];
    size_t widest;  /* the row's widest many-message kernel */
    unsigned widths; /* the widths of its many-message kernels, as bits (LIBSHA_WIDTHS_OF) */
    size_t active;  /* lanes not IDLE */
    size_t waiting; /* the next job to take */
    size_t n;       /* the run ends before job n */
    struct length_class cls; /* the jobs it takes; it passes over the others */
    int eager;      /* pad tails when a message starts (rows without many_last kernels) */
    int outer;      /* an outer hash follows each message's: LIBSHA_DOUBLE or an HMAC */
    const struct libsha_jobs *jobs;
    /* Tails put off: where the row has a many_last kernel as wide as its widest many kernel, a message
     * whose body is done and whose tail fits one block leaves its lane at once (the lane takes the next
     * job in the same step), its state and tail kept here; `widest` of them go through many_last
     * together, padded in registers. Without this a lane would stop the others twice a message: when its
     * body ends, and again when its tail block (padded in memory just before) ends. */
    int defer;
    size_t deferred;
    uint32_t deferred_state[LIBSHA_MAX_LANES][8];
    struct libsha_tail deferred_tail[LIBSHA_MAX_LANES];
    unsigned char *deferred_out[LIBSHA_MAX_LANES];
    unsigned last_widths; /* the widths of its many_last kernels (LIBSHA_WIDTHS_OF) */
    size_t last_widest;
    const struct libsha_impl *impl;
};

/* The lane's job is done: the lane takes the next waiting one, or goes IDLE when none is left. */
static inline void take_next(struct lane_run *st, struct lane *l)
{
    while (st->waiting < st->n && !job_in_class(st->jobs, st->cls, st->waiting))
        ++st->waiting;
    if (st->waiting >= st->n) {
        l->stage = IDLE;
        --st->active;
    } else if (st->jobs->streams != NULL) {
        start_stream(l, &st->jobs->streams[st->waiting], st->waiting);
        ++st->waiting;
    } else {
        start_message(l, st->jobs, st->waiting++, st->eager);
    }
}

/* The outer hash's state after its key block, an HMAC's; NULL: SHA-256's initial state. */
static inline const uint32_t *outer_state(const struct libsha_jobs *jobs)
{
    return jobs->start != NULL ? jobs->start->outer : NULL;
}

/* The lane's one-block tail, as the many_last kernels take it. */
static inline void lane_tail(const struct libsha_jobs *jobs, const struct lane *l, struct libsha_tail *t)
{
    t->rest = l->rest;
    t->len = l->rest_len;
    t->before = l->before;
    t->bits = l->bits;
    t->kw = NULL;
    t->outer = outer_state(jobs);
}

/* The lane's inner digest, in block[0..32), goes through the outer hash:
 * SHA-256's from its initial state (LIBSHA_DOUBLE), or an HMAC's from the
 * state after its key block. */
static inline void to_outer(const struct libsha_jobs *jobs, struct lane *l)
{
    const uint32_t *outer = outer_state(jobs);
    memset(l->block + 32, 0, 32);
    l->block[32] = 0x80;
    libsha_store_be64(l->block + 56, outer != NULL ? (64 + 32) * 8 : 32 * 8);
    memcpy(l->state, outer != NULL ? outer : LIBSHA_H0, sizeof l->own);
    l->next = l->block;
    l->blocks = 1;
    l->stage = OUTER;
}

/* `used` tails (states, tails, outs: arrays of LIBSHA_MAX_LANES), padded in registers, through the
 * wl-lane many_last kernel (the lanes it has beyond `used` copy the first, into spare states and
 * digests), with the outer hash (LIBSHA_DOUBLE's, or an HMAC's from its outer state) in the same call. */
static void run_tails(const struct libsha_impl *impl, const struct libsha_jobs *jobs, uint32_t *states[],
                      struct libsha_tail tails[], unsigned char *outs[], size_t used, size_t wl)
{
    uint32_t spare[LIBSHA_MAX_LANES][8]; /* states of padding lanes, thrown away */
    unsigned char spare_out[LIBSHA_MAX_LANES][32];
    struct kernel_call c = {LAST_BLOCKS, wl, states, NULL, 0, tails, NULL, 0, outs,
                            outer_state(jobs) != NULL ? LIBSHA_DOUBLE : jobs->flags, NULL, NULL, NULL, NULL, 0, 0};
    size_t i;
    for (i = used; i < wl; ++i) {
        memcpy(spare[i], states[0], sizeof spare[i]);
        states[i] = spare[i], tails[i] = tails[0], outs[i] = spare_out[i];
    }
    run_kernel(impl, &c);
    if (jobs->start != NULL)
        libsha_wipe_bytes(spare, sizeof spare); /* a key's or a prefix's state went through them */
}

/* The tails put off so far, through the narrowest many_last kernel that holds them all (or the widest). */
static void flush_deferred(struct lane_run *st)
{
    uint32_t *states[LIBSHA_MAX_LANES];
    size_t wl = st->last_widest, w;
    if (st->deferred == 0)
        return;
    for (w = st->deferred; w < st->last_widest; ++w)
        if (st->last_widths & (1u << w)) {
            wl = w;
            break;
        }
    for (w = 0; w < st->deferred; ++w)
        states[w] = st->deferred_state[w];
    libsha_enter();
    run_tails(st->impl, st->jobs, states, st->deferred_tail, st->deferred_out, st->deferred, wl);
    st->deferred = 0;
}

/* The lane's message is at its one-block tail: put off (state and tail kept), the lane free for the next
 * job; a full set of tails goes through now. */
static inline void defer_tail(struct lane_run *st, struct lane *l)
{
    size_t i = st->deferred++;
    memcpy(st->deferred_state[i], l->state, sizeof st->deferred_state[i]);
    lane_tail(st->jobs, l, &st->deferred_tail[i]);
    st->deferred_out[i] = st->jobs->out + 32 * l->index;
    if (st->deferred == st->last_widest)
        flush_deferred(st);
}

/* The lane's segment is done: on to its next one, or its job is finished. */
static inline void advance(struct lane_run *st, struct lane *l)
{
    switch (l->stage) {
    case HEAD:
        if (l->body_blocks > 0) {
            l->next = l->body, l->blocks = l->body_blocks, l->stage = BODY;
            return;
        }
        l->stage = TAIL;
        l->blocks = 0;
        return;
    case PENDING: {
        const struct libsha_stream_job *s = &st->jobs->streams[l->index];
        if (s->body_blocks > 0) {
            l->next = s->body, l->blocks = s->body_blocks, l->stage = BODY;
            return;
        }
        break;
    }
    case BODY:
        if (st->jobs->streams != NULL)
            break; /* a stream's chunk ends with its body; its rest waits in the context */
        if (st->defer && l->rest_len < 56) {
            defer_tail(st, l);
            break;
        }
        l->stage = TAIL;
        l->blocks = 0;
        return;
    case TAIL:
        if (st->outer) {
            libsha_store_digest(l->block, l->state);
            to_outer(st->jobs, l);
            return;
        }
        libsha_store_digest(st->jobs->out + 32 * l->index, l->state);
        break;
    case OUTER:
        libsha_store_digest(st->jobs->out + 32 * l->index, l->state);
        break;
    case IDLE:
        return;
    }
    take_next(st, l);
}

/* Jobs first .. n - 1 into as many lanes as the widest kernel has. */
static void fill_lanes(struct lane_run *st, const struct libsha_impl *impl, const struct libsha_jobs *jobs,
                       struct length_class cls, size_t first, size_t n)
{
    size_t i;
    st->active = 0, st->waiting = first, st->n = n, st->jobs = jobs, st->cls = cls;
    st->outer = (jobs->flags & LIBSHA_DOUBLE) || (jobs->start != NULL && jobs->start->outer != NULL);
    LIBSHA_WIDTHS_OF(impl->many, st->widths, st->widest);
    LIBSHA_WIDTHS_OF(impl->many_last, st->last_widths, st->last_widest);
    st->eager = st->last_widths == 0;
    st->impl = impl;
    st->deferred = 0;
    st->defer = st->widest >= 2 && impl->many_last[st->widest] != NULL && jobs->streams == NULL;
    for (i = 0; i < st->widest; ++i) {
        st->lane[i].stage = IDLE;
        ++st->active; /* take_next counts the lane out again where no job of its class is left */
        take_next(st, &st->lane[i]);
    }
}

/* Up to w busy lanes, in lane order; returns how many. */
static size_t pick_lanes(struct lane_run *st, size_t w, struct lane *picked[])
{
    size_t i, used = 0;
    for (i = 0; i < st->widest && used < w; ++i)
        if (st->lane[i].stage != IDLE)
            picked[used++] = &st->lane[i];
    return used;
}

/* Whether every picked lane is at a message's one-block tail not yet padded: a many_last kernel pads it in
 * registers. */
static int at_short_tails(struct lane *const picked[], size_t used)
{
    size_t i;
    for (i = 0; i < used; ++i)
        if (picked[i]->stage != TAIL || picked[i]->padded || picked[i]->rest_len >= 56)
            return 0;
    return 1;
}

/* The picked lanes' last blocks, padded in registers, through the wl-lane many_last kernel (run_tails);
 * each lane's digest goes out and it takes its next message. */
static void run_last_blocks(const struct libsha_impl *impl, struct lane_run *st, struct lane *const picked[],
                            size_t used, size_t wl)
{
    uint32_t *states[LIBSHA_MAX_LANES];
    struct libsha_tail tails[LIBSHA_MAX_LANES];
    unsigned char *outs[LIBSHA_MAX_LANES];
    size_t i;
    for (i = 0; i < used; ++i) {
        states[i] = picked[i]->state;
        lane_tail(st->jobs, picked[i], &tails[i]);
        outs[i] = st->jobs->out + 32 * picked[i]->index;
    }
    run_tails(impl, st->jobs, states, tails, outs, used, wl);
    for (i = 0; i < used; ++i)
        take_next(st, picked[i]);
}

/* The picked lanes' next blocks, as many as the shortest segment among them has left, through the w-lane
 * kernel (the transform for one); lanes at the end of a segment move on to the next. */
static void run_picked(const struct libsha_impl *impl, struct lane_run *st, struct lane *const picked[], size_t used,
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
    run_blocks_on(impl, w, states, next, blocks);
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

/* Jobs first .. n - 1 through the lanes: each round picks a kernel width for the busy lanes, then either
 * pads and finishes them all in registers (every one at a message's short tail, and the row has the
 * kernel) or runs their next blocks. */
static void run_lanes(const struct libsha_impl *impl, const struct libsha_jobs *jobs, struct length_class cls,
                      size_t first, size_t n)
{
    struct lane_run st;
    fill_lanes(&st, impl, jobs, cls, first, n);
    while (st.active > 0) {
        struct lane *picked[LIBSHA_MAX_LANES];
        size_t w = libsha_pick_width(st.widths, st.widest, st.active), used = pick_lanes(&st, w, picked);
        /* One lane left at its tail: through the 2-lane last-block kernel, the
         * second lane a copy, if the row has one. */
        size_t wl = impl->many_last[w] == NULL && w == 1 && impl->many_last[2] != NULL ? 2 : w;
        /* glibc's memset and memcpy (the tails) may use AVX-512 registers
         * and leave upper state dirty; SSE kernels then run at half speed. */
        libsha_enter();
        if (impl->many_last[wl] != NULL && at_short_tails(picked, used))
            run_last_blocks(impl, &st, picked, used, wl);
        else
            run_picked(impl, &st, picked, used, w);
    }
    flush_deferred(&st);
    if (jobs->start != NULL) { /* the lanes' states and blocks came from a prefix's or a key's state */
        libsha_wipe_bytes(st.lane, sizeof st.lane);
        libsha_wipe_bytes(st.deferred_state, sizeof st.deferred_state);
    }
}

/* ---- Jobs of one shape, in step ---- */

/* The in-step lanes' states: the caller's, wiped once after its last streak; and K + W of the padding
 * block after a whole number of blocks, for the length it was made for (kw_bits; UINT64_MAX: none
 * yet), kept across streaks of that length. */
struct streak_scratch {
    uint32_t own[LIBSHA_MAX_LANES][8];
    uint64_t kw_bits;
    uint32_t kw[64];
};

/* K + W of the padding block after `bits` of whole blocks, made once for a batch of one length. */
static const uint32_t *padding_kw(struct streak_scratch *scratch, uint64_t bits)
{
    if (scratch->kw_bits != bits) {
        libsha_length_block_kw(bits, scratch->kw);
        scratch->kw_bits = bits;
    }
    return scratch->kw;
}

/* What a many_whole call of messages of length len takes as kw (after the jobs' start, if any). */
static const uint32_t *whole_kw(struct streak_scratch *scratch, const struct libsha_jobs *jobs, size_t len)
{
    return len % 64 == 0 ? padding_kw(scratch, ((jobs->start != NULL ? jobs->start->bytes : 0) + len) * 8) : NULL;
}

/* A streak of w messages of one length `len` (a one-block tail) after a
 * start with no head bytes, in step: every lane from the start's state, the
 * bodies through the w-lane kernel, the tails padded in registers by its
 * many_last kernel, which also hashes an HMAC's inner digests from its outer
 * state (as LIBSHA_DOUBLE's from the initial one). Digest i goes to out[i]. */
static void run_streak_after(const struct libsha_impl *impl, const struct libsha_jobs *jobs, size_t w,
                             const unsigned char *const msgs[], size_t len, unsigned char *const out[],
                             struct streak_scratch *scratch)
{
    const struct libsha_start *s = jobs->start;
    uint32_t *states[LIBSHA_MAX_LANES];
    struct libsha_tail tails[LIBSHA_MAX_LANES];
    struct kernel_call c = {LAST_BLOCKS, w, states, NULL, 0, tails, NULL, 0, out,
                            s->outer != NULL ? LIBSHA_DOUBLE : jobs->flags, NULL, NULL, NULL, NULL, 0, 0};
    size_t i, full = len / 64;
    uint64_t bits = (s->bytes + len) * 8;
    const uint32_t *kw = len % 64 == 0 ? padding_kw(scratch, bits) : NULL;
    for (i = 0; i < w; ++i) {
        memcpy(scratch->own[i], s->state, sizeof scratch->own[i]);
        states[i] = scratch->own[i];
        tails[i].rest = full > 0 ? msgs[i] + 64 * full : msgs[i];
        tails[i].len = len % 64;
        tails[i].before = 64 * full;
        tails[i].bits = bits;
        tails[i].kw = kw;
        tails[i].outer = s->outer;
    }
    if (full > 0)
        run_blocks_on(impl, w, states, msgs, full);
    run_kernel(impl, &c);
}

/* How many sets of w messages of length len lie end to end from msgs[0]: the streak in msgs (when its own
 * messages do), and the sets after it from message `next` on (an Arrow column of one width, a batch cut
 * from one buffer), which one many_whole call then takes with the streak. At least 1: the streak. */
static size_t contiguous_groups(const libsha_batch *b, const unsigned char *const msgs[], size_t w, size_t len,
                                size_t next, size_t n)
{
    const uintptr_t first = (uintptr_t)msgs[0]; /* compared as numbers: no pointer past an object is formed */
    size_t groups = 1, j;
    if (len == 0)
        return 1; /* empty messages may have no address */
    for (j = 1; j < w; ++j)
        if ((uintptr_t)msgs[j] != first + j * len)
            return 1;
    for (; next + w <= n; next += w, ++groups)
        for (j = 0; j < w; ++j) {
            const unsigned char *p;
            size_t l;
            message(b, next + j, &p, &l);
            if (l != len || (uintptr_t)p != first + (groups * w + j) * len)
                return groups;
        }
    return groups;
}

/* The widest width whose streaks of one length go through in step: the row's widest many_whole
 * kernel (after a start, one with no head bytes); after such a start on a row without one, its
 * widest many kernel with a many_last beside it (run_streak_after); else none (0). */
static size_t streak_width(const struct libsha_impl *impl, const struct libsha_start *start)
{
    size_t i, whole = 0, after = 0;
    if (start != NULL && start->head_len > 0)
        return 0;
    for (i = 2; i <= LIBSHA_MAX_LANES; ++i) {
        if (impl->many_whole[i] != NULL)
            whole = i;
        if (start != NULL && impl->many[i] != NULL && impl->many_last[i] != NULL)
            after = i;
    }
    return whole > 0 ? whole : after;
}

/* Each streak of W consecutive messages of one length (with a one-block tail)
 * goes through in step: whole through the row's widest many_whole kernel,
 * state and tails in registers (a fixed-width column is all such streaks),
 * from nothing or from a start; after a start on a row without one, through
 * run_streak_after. The other messages go through the lanes, in runs
 * between the streaks. */
static void run_messages(const struct libsha_impl *impl, const struct libsha_jobs *jobs, struct length_class cls)
{
    const unsigned char *msgs[LIBSHA_MAX_LANES];
    unsigned char *outs[LIBSHA_MAX_LANES];
    struct kernel_call c = {WHOLE, 0, NULL, NULL, 0, NULL, msgs, 0, outs, jobs->flags, NULL, NULL, jobs->start, NULL, 1, 0};
    size_t w = streak_width(impl, jobs->start), i, streak = 0, len = 0, done = 0, j, n = jobs->n;
    struct streak_scratch scratch;
    int streaks_after = 0;
    const libsha_batch *b = jobs->batch;
    scratch.kw_bits = UINT64_MAX; /* no length has that many bits */

    if (w > 0 && impl->many_whole[w] != NULL && b->layout == LIBSHA_ROWS && b->len % 64 < 56) {
        /* Rows of one length: every w in turn are a streak, a stride apart (SSZ's and Merkle levels'
         * 64-byte nodes, a fixed-width column), with none of the general loop's checks a row. */
        c.width = w, c.len = b->len;
        c.kw = whole_kw(&scratch, jobs, b->len);
        c.groups = n / w, c.step = w * b->stride;
        for (j = 0; c.groups > 0 && j < w; ++j) {
            msgs[j] = b->len > 0 ? (const unsigned char *)b->data + b->stride * j : NULL;
            outs[j] = jobs->out + 32 * j;
        }
        if (c.groups > 0)
            run_kernel(impl, &c);
        done = c.groups * w;
        w = 0; /* the rest, fewer than w, through the lanes */
    }
    for (i = 0; w > 0 && i < n; ++i) {
        const unsigned char *p;
        size_t l;
        message(jobs->batch, i, &p, &l);
        if (!in_class(cls, l)) { /* the other engine's: it breaks the streak, the lanes pass over it */
            streak = 0;
            continue;
        }
        if (streak == 0 || l != len)
            streak = 0, len = l;
        if (len % 64 >= 56) /* a two-block tail: the lanes pad it in memory */
            continue;
        msgs[streak++] = p;
        if (streak < w)
            continue;
        if (done < i + 1 - w)
            run_lanes(impl, jobs, cls, done, i + 1 - w);
        for (j = 0; j < w; ++j)
            outs[j] = jobs->out + 32 * (i + 1 - w + j);
        c.width = w, c.len = len;
        c.kw = whole_kw(&scratch, jobs, len);
        if (impl->many_whole[w] == NULL) {
            run_streak_after(impl, jobs, w, msgs, len, outs, &scratch), streaks_after = 1;
        } else {
            c.groups = contiguous_groups(jobs->batch, msgs, w, len, i + 1, n), c.step = w * len;
            run_kernel(impl, &c);
            i += (c.groups - 1) * w;
        }
        done = i + 1, streak = 0;
    }
    if (done < n)
        run_lanes(impl, jobs, cls, done, n);
    if (streaks_after)
        libsha_wipe_bytes(&scratch, sizeof scratch);
}

/* SHA256D64: the blobs lie end to end; the widest d64 kernel first, then the
 * rest on narrower ones (every row has d64[1]). Each step's output never
 * reaches input not yet read, so out may be the input itself. */
static void run_d64(const struct libsha_impl *impl, const struct libsha_jobs *jobs)
{
    struct kernel_call c = {D64, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, jobs->out, jobs->batch->data, NULL, NULL, 0, 0};
    size_t width, blocks = jobs->n;
    for (width = LIBSHA_MAX_LANES; width >= 1; --width) {
        if (impl->d64[width] == NULL)
            continue;
        for (c.width = width; blocks >= width; blocks -= width, c.out += width * 32, c.in += width * 64)
            run_kernel(impl, &c);
    }
}

/* Whether every stream's chunk has the same shape (a pending block or not, the same body): the common call,
 * streams fed in step, go a kernel's width at a time without the lanes' bookkeeping. */
static int same_shape(const struct libsha_stream_job *streams, size_t n)
{
    size_t i;
    for (i = 1; i < n; ++i)
        if (streams[i].at_pending != streams[0].at_pending || streams[i].body_blocks != streams[0].body_blocks)
            return 0;
    return 1;
}

/* Streams of one shape, a kernel's width at a time: each group's pending blocks, then its bodies. */
static void run_same_shape(const struct libsha_impl *impl, const struct libsha_stream_job *streams, size_t n)
{
    uint32_t spare[LIBSHA_MAX_LANES][8];
    uint32_t *states[LIBSHA_MAX_LANES];
    const unsigned char *pending[LIBSHA_MAX_LANES], *body[LIBSHA_MAX_LANES];
    size_t first, used, w, i, widest;
    unsigned widths;
    LIBSHA_WIDTHS_OF(impl->many, widths, widest);
    for (first = 0; first < n; first += used) {
        w = libsha_pick_width(widths, widest, n - first);
        used = w < n - first ? w : n - first;
        for (i = 0; i < w; ++i) {
            const struct libsha_stream_job *s = &streams[first + (i < used ? i : 0)];
            states[i] = i < used ? s->ctx->state : spare[i];
            pending[i] = s->ctx->pending, body[i] = s->body;
        }
        if (streams[first].at_pending)
            run_blocks_on(impl, w, states, pending, 1);
        if (streams[first].body_blocks > 0)
            run_blocks_on(impl, w, states, body, streams[first].body_blocks);
    }
}

/* The jobs of one class on one engine's kernels. A batch of one shape (streams fed in step, rows) is
 * all of one class: only another batch comes here with a class short of every job. */
static void run_engine(const struct libsha_impl *impl, const struct libsha_jobs *jobs, struct length_class cls)
{
    const libsha_batch *b = jobs->batch;
    if (jobs->streams != NULL) {
        if (same_shape(jobs->streams, jobs->n))
            run_same_shape(impl, jobs->streams, jobs->n);
        else
            run_lanes(impl, jobs, cls, 0, jobs->n);
    } else if (b->layout == LIBSHA_ROWS && b->len == 64 && b->stride == 64 && (jobs->flags & LIBSHA_DOUBLE) && jobs->start == NULL) {
        run_d64(impl, jobs);
    } else {
        run_messages(impl, jobs, cls);
    }
}

/* A row of two engines: a batch of one shape (rows of one length, SHA256D64's blobs, streams fed in
 * step) on the engine its length takes; another batch twice, each engine passing over the other's
 * jobs, so each digest is written once, by its own engine. */
static void run_on_engines(const struct libsha_impl *impl, const struct libsha_jobs *jobs)
{
    struct length_class wide = {0, 0, 0}, narrow;
    int one_shape = jobs->streams != NULL ? same_shape(jobs->streams, jobs->n) : jobs->batch->layout == LIBSHA_ROWS;
    libsha_cpu_wide_window(&wide.from, &wide.to);
    narrow = wide, narrow.outside = 1;
    if (one_shape) {
        size_t len = jobs->streams != NULL ? chunk_length(&jobs->streams[0]) : jobs->batch->len;
        run_engine(in_class(wide, len) ? impl : impl->narrow, jobs, EVERY_JOB);
        return;
    }
    run_engine(impl->narrow, jobs, narrow);
    run_engine(impl, jobs, wide);
}

void libsha_lanes_run(const struct libsha_impl *impl, const struct libsha_jobs *jobs)
{
    if (jobs->n == 0)
        return;
    if (impl->narrow != NULL)
        run_on_engines(impl, jobs);
    else
        run_engine(impl, jobs, EVERY_JOB);
}
