/* BitTorrent v2's file tree (BEP 52): a leaf is the SHA-256 of a 16 KiB block
 * of the file (the last one short, not padded), the leaves are padded with
 * zero leaves to a power of two, a parent is SHA256(left || right); the
 * `pieces root` is its root, the `piece layers` entry the level whose nodes
 * each cover one piece (a piece past the file's end is the root of a zero
 * subtree; only files longer than a piece have one).
 *
 * The blocks go through a slice of SLICE_BLOCKS at a time: their leaves in the
 * lanes (rows of one length, read in place), then the slice into the
 * zero-padded tree, which copies the piece level out as it makes it. */
#include <string.h>

#include "many/lanes.h"
#include "dispatch/dispatch.h"
#include "trees.h"
#include "trees/zero_hashes.h"

#define BLOCK ((size_t)16384)
#define SLICE_LEVELS 9
#define SLICE_BLOCKS ((size_t)1 << SLICE_LEVELS) /* 8 MiB of data, 16 KiB of leaves */

/* Leaf i of n is SHA-256 of the i-th 16 KiB of data[0..len) (the last one shorter). */
static void leaves_of(const struct libsha_impl *impl, unsigned char *out, const unsigned char *data, size_t len)
{
    const size_t whole = len / BLOCK, rest = len % BLOCK;
    libsha_batch batch = {.layout = LIBSHA_ROWS, .n = whole, .data = data, .stride = BLOCK, .len = BLOCK};
    struct libsha_jobs jobs = {&batch, out, 0, NULL, whole, NULL};
    libsha_lanes_run(impl, &jobs);
    if (rest > 0) {
        batch.n = jobs.n = 1, batch.data = data + BLOCK * whole, batch.len = rest;
        jobs.out = out + 32 * whole;
        libsha_lanes_run(impl, &jobs);
    }
}

uint64_t libsha_bep52_layer_nodes(uint64_t len, uint64_t piece_length)
{
    if (piece_length < BLOCK || (piece_length & (piece_length - 1)) != 0 || len <= piece_length)
        return 0;
    return len / piece_length + (len % piece_length != 0);
}

/* The checks both entry points make: the piece length, and for a file of more than one piece (n
 * blocks) a layer that does not overlap the input. */
static int check_tree_arguments(const unsigned char *layer, uint64_t blocks, uint64_t piece_length,
                                const void *input, size_t input_len)
{
    if (piece_length < BLOCK || (piece_length & (piece_length - 1)) != 0)
        return LIBSHA_ERR_ARGUMENT;
    if (blocks > piece_length / BLOCK) {
        if (layer == NULL)
            return LIBSHA_ERR_NULL;
        if (libsha_overlaps(layer, 32 * (size_t)((blocks + piece_length / BLOCK - 1) / (piece_length / BLOCK)),
                            input, input_len))
            return LIBSHA_ERR_ARGUMENT;
    }
    return LIBSHA_OK;
}

/* The tree over `blocks` leaves, a slice at a time: each slice's leaves from leaves_in when it is
 * not NULL (the caller made them), else hashed from data[0..len) here. */
static void tree_over(const struct libsha_impl *impl, unsigned char root[32], unsigned char *layer,
                      size_t blocks, uint64_t piece_length, const unsigned char *leaves_in,
                      const unsigned char *data, size_t len)
{
    unsigned char leaves[SLICE_BLOCKS * 32], top[32];
    const int capture = blocks > piece_length / BLOCK ? libsha_ceil_log2(piece_length / BLOCK) : -1;
    struct libsha_zero_tree t;
    size_t done;
    libsha_zero_tree_init(&t, impl, libsha_ceil_log2(blocks), SLICE_LEVELS, LIBSHA_ZERO_HASHES, capture, layer);
    for (done = 0; done < blocks; done += SLICE_BLOCKS) {
        const size_t k = blocks - done < SLICE_BLOCKS ? blocks - done : SLICE_BLOCKS;
        if (leaves_in != NULL) {
            libsha_zero_tree_slice(&t, leaves_in + 32 * done, k, NULL);
        } else {
            const size_t at = BLOCK * done, bytes = len - at < BLOCK * k ? len - at : BLOCK * k;
            leaves_of(impl, leaves, data + at, bytes);
            libsha_zero_tree_slice(&t, leaves, k, NULL);
        }
    }
    libsha_zero_tree_root(&t, top);
    memcpy(root, top, 32); /* root may overlap the input: it is all read */
}

int libsha_bep52_tree(unsigned char root[32], unsigned char *layer, const void *data, size_t len,
                      uint64_t piece_length)
{
    const unsigned char *p = (const unsigned char *)data;
    const size_t blocks = len / BLOCK + (len % BLOCK != 0);
    int code;
    libsha_enter();
    if (root == NULL || (data == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    if ((uintptr_t)data > UINTPTR_MAX - len)
        return LIBSHA_ERR_ARGUMENT;
    if ((code = check_tree_arguments(layer, blocks, piece_length, data, len)) != LIBSHA_OK)
        return code;
    if (len == 0) { /* no pieces root: an empty file has none */
        memset(root, 0, 32);
        return LIBSHA_OK;
    }
    tree_over(libsha_active(), root, layer, blocks, piece_length, NULL, p, len);
    return LIBSHA_OK;
}

int libsha_bep52_tree_of_leaves(unsigned char root[32], unsigned char *layer, const unsigned char *leaves,
                                size_t blocks, uint64_t piece_length)
{
    int code;
    libsha_enter();
    if (root == NULL || (leaves == NULL && blocks > 0))
        return LIBSHA_ERR_NULL;
    if (blocks > SIZE_MAX / 32 || (uintptr_t)leaves > UINTPTR_MAX - 32 * blocks)
        return LIBSHA_ERR_ARGUMENT;
    if ((code = check_tree_arguments(layer, blocks, piece_length, leaves, 32 * blocks)) != LIBSHA_OK)
        return code;
    if (blocks == 0) {
        memset(root, 0, 32);
        return LIBSHA_OK;
    }
    tree_over(libsha_active(), root, layer, blocks, piece_length, leaves, NULL, 0);
    return LIBSHA_OK;
}
