/* The lane scheduler's work (lanes.c): a batch of messages, a batch of stream
 * chunks, or 64-byte blobs hashed twice. Every entry point that hashes more
 * than one thing at a time describes its work here and hands it to
 * libsha_lanes_run; nothing else calls the row's lane kernels. */
#ifndef LIBSHA_LANES_H
#define LIBSHA_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libsha.h"
#include "sha256_impl.h"

/* A binary view's int32 field at byte `at` (0: length, 8: buffer index, 12: offset). */
static inline int32_t libsha_view_field(const unsigned char *view, int at)
{
    int32_t x;
    memcpy(&x, view + at, 4);
    return x;
}

/* One stream's chunk (many_streams.c sets it up): its pending block first when the
 * chunk completes it, then the chunk's own whole blocks, read in place; both
 * run on the context's state. At least one block. */
struct libsha_stream_job {
    libsha_sha256_ctx *ctx;
    const unsigned char *body;
    size_t body_blocks;
    int at_pending; /* the pending block comes first */
    /* many_streams.c's own: what waits in the context afterwards */
    const unsigned char *rest;
    size_t rest_len, len;
};

/* The work of one call: n messages of batch, digest i to out + 32 * i
 * (flags: LIBSHA_DOUBLE), each from start (NULL: from SHA-256's initial
 * state); or n stream chunks (streams set). */
struct libsha_jobs {
    const libsha_batch *batch;
    unsigned char *out;
    unsigned flags;
    struct libsha_stream_job *streams;
    size_t n;
    const struct libsha_start *start;
};

/* Runs the jobs on impl's kernels. Arguments checked by the caller; out may
 * overlap the messages only as SHA256D64's in-place form does (libsha_d64_on). */
void libsha_lanes_run(const struct libsha_impl *impl, const struct libsha_jobs *jobs);

#endif
