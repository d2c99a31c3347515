/* Certificate Transparency's Merkle tree (RFC 6962 §2.1, RFC 9162 §2.1): a
 * leaf is SHA256(0x00 || data), a node SHA256(0x01 || left || right), the
 * tree of n leaves split at the largest power of two below n. Its roots and
 * the append-only log state (a compact range: the roots of the perfect
 * subtrees that make up the tree, one per set bit of its size).
 *
 * A batch of leaves is appended a perfect subtree at a time, the largest the
 * log's size allows there (aligned to it) up to SLICE leaves, each reduced
 * level by level in the lanes between two stack buffers. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "one_message/one_message.h"
#include "trees.h"

#define SLICE_LEVELS 9
#define SLICE ((size_t)1 << SLICE_LEVELS) /* leaves: 2 x 8 KiB of scratch */
#define LEAF 0x00
#define NODE 0x01

int libsha_rfc6962_leaf_hashes(unsigned char *out, const libsha_batch *leaves)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    if (out == NULL || leaves == NULL)
        return LIBSHA_ERR_NULL;
    return libsha_prefixed_batch_on(impl, out, leaves, LEAF);
}

/* The root of the perfect subtree of 2^levels (<= SLICE) leaf hashes. */
static void perfect_root(const struct libsha_impl *impl, unsigned char root[32], const unsigned char *leaves,
                         int levels)
{
    unsigned char a[SLICE / 2 * 32], b[SLICE / 4 * 32];
    size_t count = (size_t)1 << levels;
    int level;
    if (levels == 0) {
        memcpy(root, leaves, 32);
        return;
    }
    libsha_prefixed_level_on(impl, a, leaves, count / 2, NODE);
    for (level = 1, count /= 2; level < levels; ++level, count /= 2)
        libsha_prefixed_level_on(impl, level % 2 ? b : a, level % 2 ? a : b, count / 2, NODE);
    memcpy(root, levels % 2 ? a : b, 32);
}

/* A perfect subtree of 2^level leaves at the log's end (its size a multiple of 2^level). */
static void push(const struct libsha_impl *impl, libsha_rfc6962_log *log, unsigned char node[32], int level)
{
    const uint64_t added = (uint64_t)1 << level;
    for (; log->size & ((uint64_t)1 << level); ++level)
        libsha_pair_on(impl, node, log->nodes[level], node, NODE);
    memcpy(log->nodes[level], node, 32);
    log->size += added;
}

static void append_on(const struct libsha_impl *impl, libsha_rfc6962_log *log, const unsigned char *leaves, size_t n)
{
    unsigned char node[32];
    while (n > 0) {
        int level = 0;
        /* The largest power of two that fits what is left, SLICE, and the log's alignment. */
        while (level < SLICE_LEVELS && ((size_t)2 << level) <= n && !(log->size & ((uint64_t)1 << level)))
            ++level;
        perfect_root(impl, node, leaves, level);
        push(impl, log, node, level);
        leaves += (size_t)32 << level;
        n -= (size_t)1 << level;
    }
}

/* The root of the log's tree: its perfect subtrees folded from the smallest (the right edge). */
static void log_root(const struct libsha_impl *impl, const libsha_rfc6962_log *log, unsigned char out[32])
{
    unsigned char node[32];
    int level = 0, have = 0;
    if (log->size == 0) {
        libsha_sha256_ctx ctx; /* the empty tree's root is the hash of nothing */
        libsha_stream_init(&ctx);
        libsha_stream_final(impl, &ctx, out);
        return;
    }
    for (level = 0; level < LIBSHA_TREE_MAX_DEPTH; ++level) {
        if (!(log->size & ((uint64_t)1 << level)))
            continue;
        if (have)
            libsha_pair_on(impl, node, log->nodes[level], node, NODE);
        else
            memcpy(node, log->nodes[level], 32);
        have = 1;
    }
    memcpy(out, node, 32);
}

int libsha_rfc6962_root(unsigned char out[32], const unsigned char *leaf_hashes, size_t n)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_rfc6962_log log;
    libsha_enter();
    if (out == NULL || (leaf_hashes == NULL && n > 0))
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 32 || (uintptr_t)leaf_hashes > UINTPTR_MAX - 32 * n)
        return LIBSHA_ERR_ARGUMENT;
    log.size = 0;
    append_on(impl, &log, leaf_hashes, n);
    log_root(impl, &log, out); /* out may overlap the leaves: they are all read */
    return LIBSHA_OK;
}

void libsha_rfc6962_log_init(libsha_rfc6962_log *log)
{
    if (log != NULL)
        memset(log, 0, sizeof *log);
}

int libsha_rfc6962_log_append(libsha_rfc6962_log *log, const unsigned char *leaf_hashes, size_t n)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    if (log == NULL || (leaf_hashes == NULL && n > 0))
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 32 || (uintptr_t)leaf_hashes > UINTPTR_MAX - 32 * n || (uint64_t)n > UINT64_MAX - log->size)
        return LIBSHA_ERR_ARGUMENT;
    if (libsha_overlaps(log, sizeof *log, leaf_hashes, 32 * n))
        return LIBSHA_ERR_ARGUMENT;
    append_on(impl, log, leaf_hashes, n);
    return LIBSHA_OK;
}

int libsha_rfc6962_log_root(const libsha_rfc6962_log *log, unsigned char out[32])
{
    libsha_enter();
    if (log == NULL || out == NULL)
        return LIBSHA_ERR_NULL;
    log_root(libsha_active(), log, out);
    return LIBSHA_OK;
}
