/* The Merkle trees' shared steps (trees/): a level of 64-byte nodes hashed in the
 * lanes, with or without a one-byte prefix, and the roots of all-zero subtrees. */
#ifndef LIBSHA_TREES_TREES_H
#define LIBSHA_TREES_TREES_H

#include <stddef.h>
#include <stdint.h>

#include "libsha_trees.h"
#include "sha256_impl.h"

/* Deepest tree any call here takes: 2^64 leaves. */
#define LIBSHA_TREE_MAX_DEPTH 64

/* out[32i..] = SHA256(in[64i..64i+64)) for i < n on impl's lanes (level.c); out
 * may equal in, no other overlap. Arguments unchecked. */
void libsha_level_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t n);

/* out[32i..] = SHA256(byte || in[64i..64i+64)) (RFC 6962's interior nodes with
 * 0x01); out must not overlap in. */
void libsha_prefixed_level_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in, size_t n,
                              unsigned char byte);

/* bitcoin.c: Bitcoin's Merkle root (libsha.h's libsha_merkle_root) on an explicit implementation. */
int libsha_merkle_run(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *leaves,
                      size_t n, int *mutated);

/* out = SHA256(left || right), or SHA256(prefix || left || right) for a prefix byte
 * 0..255 (-1: none), on impl's transform; out may overlap left or right. */
void libsha_pair_on(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *left,
                    const unsigned char *right, int prefix);

/* Each message of batch after one byte (RFC 6962's leaves with 0x00), checked as
 * libsha_sha256_batch checks a batch. */
int libsha_prefixed_batch_on(const struct libsha_impl *impl, unsigned char *out, const libsha_batch *batch,
                             unsigned char byte);

/* A zero-padded tree built slice by slice (zero_padded.c): slices of
 * 2^min(slice_levels, depth) leaves, in order, every one full but the last;
 * then its root. With capture >= 0, every node of that level is copied to
 * captured[] as it is made, the right edge's partial one included
 * (ncaptured of them). */
#define LIBSHA_ZERO_TREE_SLICE_LEVELS 10
#define LIBSHA_ZERO_TREE_SLICE ((size_t)1 << LIBSHA_ZERO_TREE_SLICE_LEVELS) /* 16 KiB of scratch */
struct libsha_zero_tree {
    const struct libsha_impl *impl;
    int depth, low; /* the tree's height; a slice's root's level */
    const unsigned char (*zero)[32];
    uint64_t units; /* slices so far: a binary counter over stack[low..] */
    unsigned char stack[LIBSHA_TREE_MAX_DEPTH + 1][32];
    int capture;
    unsigned char *captured;
    size_t ncaptured;
    int trunc254; /* Filecoin's nodes: byte 31 & 0x3f after every hash (0 from init) */
};
void libsha_zero_tree_init(struct libsha_zero_tree *t, const struct libsha_impl *impl, int depth, int slice_levels,
                           const unsigned char (*zero)[32], int capture, unsigned char *captured);
/* k leaves (the last one *last where last is not NULL). */
void libsha_zero_tree_slice(struct libsha_zero_tree *t, const unsigned char *nodes, size_t k, const unsigned char *last);
void libsha_zero_tree_root(struct libsha_zero_tree *t, unsigned char out[32]);

/* The root of a tree `depth` levels high whose bottom level is nodes[0..count)
 * (32 bytes each; the last one *last instead where last is not NULL) and then
 * zero[0] to the end: 1 <= count <= 2^depth, or count 0 (the root zero[depth]);
 * checked by the caller. zero[d] (d <= depth) is the root of a padding subtree d
 * levels high. Bounded scratch on the stack, any count; nodes are only read. */
void libsha_zero_padded_root(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *nodes,
                             size_t count, const unsigned char *last, int depth, const unsigned char zero[][32]);

/* The depth of the smallest power of two >= n (0 for n <= 1). */
static inline int libsha_ceil_log2(uint64_t n)
{
    int d = 0;
    while (d < 64 && ((uint64_t)1 << d) < n)
        ++d;
    return d;
}

#endif
