/* A level of a Merkle tree: n 64-byte nodes (two children each) to n digests,
 * through the one lane scheduler as rows of one length, where the row's
 * many_whole kernel takes them all in one call with the padding block's K + W
 * as constants (hashtree's operation, libsha_sha256_64). */
#include <string.h>

#include "many/lanes.h"
#include "fips180.h"
#include "dispatch/dispatch.h"
#include "one_message/one_message.h"
#include "many/many.h"
#include "trees.h"

void libsha_level_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t n)
{
    const libsha_batch batch = {.layout = LIBSHA_ROWS, .n = n, .data = in, .stride = 64, .len = 64};
    const struct libsha_jobs jobs = {&batch, out, 0, NULL, n, NULL};
    libsha_lanes_run(impl, &jobs);
}

/* Nodes a prefixed level takes at a time: their records fill 8 KiB of stack. */
#define RECORDS 128

void libsha_prefixed_level_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t n,
                              unsigned char byte)
{
    /* Each node as its whole 65-byte message (byte || left || right), the records end to end: rows of one
     * length go through the row's many_whole kernel, its tail block padded in registers, where a start
     * with a head byte would take the lanes' general path. */
    unsigned char records[RECORDS * 65];
    size_t done, i;
    for (done = 0; done < n; done += RECORDS) {
        const size_t k = n - done < RECORDS ? n - done : RECORDS;
        const libsha_batch batch = {.layout = LIBSHA_ROWS, .n = k, .data = records, .stride = 65, .len = 65};
        const struct libsha_jobs jobs = {&batch, out + 32 * done, 0, NULL, k, NULL};
        for (i = 0; i < k; ++i) {
            records[65 * i] = byte;
            memcpy(records + 65 * i + 1, in + 64 * (done + i), 64);
        }
        libsha_lanes_run(impl, &jobs);
    }
}

int libsha_prefixed_batch_on(const struct libsha_impl *impl, unsigned char *out, const libsha_batch *batch,
                             unsigned char byte)
{
    /* The byte in a context of its own: the batch's checks (limits, overlaps) are libsha_sha256_batch's. */
    libsha_sha256_ctx prefix;
    int err;
    libsha_stream_init(&prefix);
    libsha_stream_update(impl, &prefix, &byte, 1);
    err = libsha_batch_on(impl, out, batch, &prefix, NULL, 0);
    libsha_wipe_ctx(&prefix);
    return err;
}

void libsha_pair_on(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *left,
                    const unsigned char *right, int prefix)
{
    /* One node alone: the transform on its two blocks, no lanes to set up. */
    unsigned char blocks[128];
    const size_t at = prefix >= 0; /* where the children start */
    const uint64_t bits = (64 + at) * 8;
    uint32_t state[8];
    memset(blocks, 0, sizeof blocks);
    blocks[0] = (unsigned char)prefix;
    memcpy(blocks + at, left, 32);
    memcpy(blocks + at + 32, right, 32);
    blocks[64 + at] = 0x80;
    libsha_store_be64(blocks + 120, bits);
    memcpy(state, LIBSHA_H0, sizeof state);
    impl->transform(state, blocks, 2);
    libsha_store_digest(out, state);
}

int libsha_sha256_64(unsigned char *out, const unsigned char *in, size_t n)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    if (n == 0)
        return LIBSHA_OK;
    if (out == NULL || in == NULL)
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 64 || (uintptr_t)in > UINTPTR_MAX - 64 * n || (uintptr_t)out > UINTPTR_MAX - 32 * n)
        return LIBSHA_ERR_ARGUMENT;
    if (out != in && libsha_overlaps(out, 32 * n, in, 64 * n))
        return LIBSHA_ERR_ARGUMENT;
    libsha_level_on(impl, out, in, n);
    return LIBSHA_OK;
}
