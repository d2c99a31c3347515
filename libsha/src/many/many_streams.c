/* Many streams at once: libsha_sha256_update_many and final_many, and the HMAC
 * form. Every argument is checked before the first byte is written; then each
 * stream's chunk becomes a job for the lane scheduler (lanes.c): its pending
 * block first when the chunk completes it (the bytes that complete it are
 * copied there), then its own whole blocks, read in place. The bytes after
 * the last whole block wait in the context, as libsha_sha256_update leaves
 * them.
 *
 * Nothing outside the contexts is kept between calls, so a call owns what it
 * is given. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "fips180.h"
#include "lanes.h"
#include "many.h"
#include "one_message/one_message.h"

/* The checks sort the contexts' addresses: on the stack up to this many. */
#define SORTED_ON_STACK 64

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
    return x < y ? -1 : x > y;
}

/* Contexts usually come in address order (an array's): insertion sort is
 * then linear, and a short call pays no comparison through a pointer. */
static void sort_addresses(void **p, size_t n)
{
    size_t i, j;
    if (n > SORTED_ON_STACK) {
        qsort(p, n, sizeof *p, by_address);
        return;
    }
    for (i = 1; i < n; ++i) {
        void *x = p[i];
        for (j = i; j > 0 && (uintptr_t)p[j - 1] > (uintptr_t)x; --j)
            p[j] = p[j - 1];
        p[j] = x;
    }
}

/* The contexts' addresses, sorted (sorted[0 .. n)), with the span they cover:
 * most ranges a call checks lie wholly outside it, and skip the search. */
struct objects {
    void **sorted;
    size_t n, size;
    uintptr_t low, high;
};

/* Whether [p, p + len) shares a byte with one of the (sorted, disjoint) objects. */
static int hits_object(const struct objects *o, const void *p, size_t len)
{
    uintptr_t start = (uintptr_t)p;
    size_t lo = 0, hi = o->n; /* to find the first object starting at or after p + len */
    if (len == 0 || start >= o->high || (start < o->low && o->low - start >= len))
        return 0; /* empty, after the span, or ending before it */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)o->sorted[mid] < start || (uintptr_t)o->sorted[mid] - start < len)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && libsha_overlaps(o->sorted[lo - 1], o->size, p, len);
}

/* One context: not NULL, not running past the address space, live (both
 * halves of an HMAC). */
static int check_object(const void *obj, size_t size, int hmac)
{
    const libsha_sha256_ctx *ctx = (const libsha_sha256_ctx *)obj;
    if (ctx == NULL)
        return LIBSHA_ERR_NULL;
    if ((uintptr_t)ctx > UINTPTR_MAX - size)
        return LIBSHA_ERR_ARGUMENT;
    if (hmac ? !libsha_hmac_live((const libsha_hmac_sha256_ctx *)obj) : !libsha_stream_live(ctx))
        return LIBSHA_ERR_STATE;
    return LIBSHA_OK;
}

/* The contexts (each checked already) sorted into o: none given twice or
 * overlapping another. */
static int sort_objects(struct objects *o)
{
    size_t i;
    sort_addresses(o->sorted, o->n);
    for (i = 1; i < o->n; ++i)
        if ((uintptr_t)o->sorted[i] - (uintptr_t)o->sorted[i - 1] < o->size)
            return LIBSHA_ERR_ARGUMENT; /* given twice, or two that overlap */
    o->low = (uintptr_t)o->sorted[0], o->high = (uintptr_t)o->sorted[o->n - 1] + o->size;
    return LIBSHA_OK;
}

/* Room for n sorted pointers: the stack's, or allocated (NULL if that fails). */
static void **sorting_room(void **stack, size_t n)
{
    if (n <= SORTED_ON_STACK)
        return stack;
    return (void **)malloc(n * sizeof(void *)); /* n <= SIZE_MAX / 32: checked by the callers */
}

static void free_room(void **room, void **stack)
{
    if (room != stack)
        free(room);
}

/* Everything update_many checks before it writes (beyond the arrays' NULLs):
 * each context (check_object, then none twice), each chunk (NULL only when
 * empty, inside the address space, the stream's length within SHA-256's
 * limit, clear of every context), and the three arrays clear of the contexts. */
static int check_update(void *const *objs, int hmac, const void *const *data, const size_t *lens, struct objects *o)
{
    size_t i, n = o->n;
    uintptr_t low = UINTPTR_MAX, high = 0; /* the span of the chunks */
    int err;
    for (i = 0; i < n; ++i) {
        const libsha_sha256_ctx *ctx = (const libsha_sha256_ctx *)objs[i];
        err = check_object(ctx, o->size, hmac);
        if (err != LIBSHA_OK)
            return err;
        if (lens[i] > 0 && data[i] == NULL)
            return LIBSHA_ERR_NULL;
        if ((uint64_t)lens[i] > LIBSHA_MAX_MESSAGE_BYTES - ctx->length)
            return LIBSHA_ERR_TOO_LONG;
        if (lens[i] > 0) {
            uintptr_t start = (uintptr_t)data[i];
            if (start > UINTPTR_MAX - lens[i])
                return LIBSHA_ERR_ARGUMENT;
            low = start < low ? start : low;
            high = start + lens[i] > high ? start + lens[i] : high;
        }
        o->sorted[i] = objs[i];
    }
    err = sort_objects(o);
    if (err != LIBSHA_OK)
        return err;
    if (hits_object(o, objs, sizeof *objs * n) || hits_object(o, data, sizeof *data * n)
        || hits_object(o, lens, sizeof *lens * n))
        return LIBSHA_ERR_ARGUMENT;
    if (low < high && hits_object(o, (const void *)low, high - low)) /* some chunk may meet a context */
        for (i = 0; i < n; ++i)
            if (hits_object(o, data[i], lens[i]))
                return LIBSHA_ERR_ARGUMENT;
    return LIBSHA_OK;
}

/* The stream's bytes after its last whole block wait in its pending block. */
static void keep_rest(struct libsha_stream_job *s)
{
    if (s->rest_len > 0)
        memcpy(s->ctx->pending, s->rest, s->rest_len);
    s->ctx->length += s->len;
}

/* A stream's chunk set up as a job: the bytes that complete its pending
 * block are copied there now (the chunk and the context are disjoint).
 * Returns whether it has a block to hash; if not, its rest is kept now. */
static int start_stream(struct libsha_stream_job *s, libsha_sha256_ctx *ctx, const unsigned char *p, size_t len)
{
    size_t used = (size_t)(ctx->length % 64), take = 0;
    s->ctx = ctx, s->len = len;
    if (len == 0)
        return 0; /* p may be NULL: not even offset by 0 */
    if (used > 0) {
        take = 64 - used < len ? 64 - used : len;
        memcpy(ctx->pending + used, p, take);
    }
    s->body = p + take;
    s->body_blocks = (len - take) / 64;
    s->rest = s->body + 64 * s->body_blocks;
    s->rest_len = len - take - 64 * s->body_blocks;
    s->at_pending = used > 0 && used + take == 64;
    if (s->at_pending || s->body_blocks > 0)
        return 1;
    keep_rest(s);
    return 0;
}

/* Streams are handed to the scheduler this many at a time (their jobs live on the stack). */
#define STREAMS_PER_PASS 256

int libsha_streams_update_on(const struct libsha_impl *impl, void *const *objs, size_t size, int hmac,
                             const void *const *data, const size_t *lens, size_t n)
{
    void *stack[SORTED_ON_STACK];
    struct objects o;
    struct libsha_stream_job streams[STREAMS_PER_PASS];
    struct libsha_jobs work = {NULL, NULL, 0, streams, 0, NULL};
    size_t first;
    int err;

    libsha_enter();
    if (n == 0)
        return LIBSHA_OK;
    if (objs == NULL || data == NULL || lens == NULL)
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / sizeof(void *))
        return LIBSHA_ERR_ARGUMENT;
    o.n = n, o.size = size, o.sorted = sorting_room(stack, n);
    if (o.sorted == NULL)
        return LIBSHA_ERR_NOMEM;
    err = check_update(objs, hmac, data, lens, &o);
    free_room(o.sorted, stack);
    if (err != LIBSHA_OK)
        return err;
    for (first = 0; first < n; first += STREAMS_PER_PASS) {
        size_t count = n - first < STREAMS_PER_PASS ? n - first : STREAMS_PER_PASS, jobs = 0, i;
        for (i = 0; i < count; ++i) /* the streams with blocks to hash, in order */
            jobs += (size_t)start_stream(&streams[jobs], (libsha_sha256_ctx *)objs[first + i],
                                         (const unsigned char *)data[first + i], lens[first + i]);
        work.n = jobs;
        libsha_enter(); /* memcpy may leave upper state dirty: see lanes.c */
        libsha_lanes_run(impl, &work);
        for (i = 0; i < jobs; ++i)
            keep_rest(&streams[i]);
    }
    return LIBSHA_OK;
}

int libsha_sha256_update_many(libsha_sha256_ctx *const *ctxs, const void *const *data, const size_t *lens, size_t n)
{
    return libsha_streams_update_on(libsha_active(), (void *const *)ctxs, sizeof(libsha_sha256_ctx), 0, data, lens, n);
}

/* The HMAC form hands its contexts on as SHA-256 ones: the inner state must come first. */
_Static_assert(offsetof(libsha_hmac_sha256_ctx, inner) == 0, "an HMAC context starts with its inner context");

int libsha_hmac_sha256_update_many(libsha_hmac_sha256_ctx *const *ctxs, const void *const *data, const size_t *lens,
                                   size_t n)
{
    /* The message goes through the inner context, the struct's first member. */
    return libsha_streams_update_on(libsha_active(), (void *const *)ctxs, sizeof(libsha_hmac_sha256_ctx), 1, data, lens,
                                    n);
}

int libsha_sha256_final_many(unsigned char *out, libsha_sha256_ctx *const *ctxs, size_t n)
{
    const struct libsha_impl *impl = libsha_active();
    void *stack[SORTED_ON_STACK];
    struct objects o;
    size_t i;
    int err;

    libsha_enter();
    if (n == 0)
        return LIBSHA_OK;
    if (out == NULL || ctxs == NULL)
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 32)
        return LIBSHA_ERR_ARGUMENT;
    if ((uintptr_t)out > UINTPTR_MAX - 32 * n || libsha_overlaps(out, 32 * n, ctxs, sizeof *ctxs * n))
        return LIBSHA_ERR_ARGUMENT;
    o.n = n, o.size = sizeof(libsha_sha256_ctx), o.sorted = sorting_room(stack, n);
    if (o.sorted == NULL)
        return LIBSHA_ERR_NOMEM;
    for (i = 0, err = LIBSHA_OK; i < n && err == LIBSHA_OK; ++i) {
        err = check_object(ctxs[i], o.size, 0);
        o.sorted[i] = ctxs[i];
    }
    if (err == LIBSHA_OK)
        err = sort_objects(&o);
    if (err == LIBSHA_OK && hits_object(&o, out, 32 * n))
        err = LIBSHA_ERR_ARGUMENT;
    free_room(o.sorted, stack);
    if (err != LIBSHA_OK)
        return err;
    for (i = 0; i < n; ++i)
        libsha_stream_final(impl, ctxs[i], out + 32 * i); /* checked: cannot fail; wipes the context */
    return LIBSHA_OK;
}
