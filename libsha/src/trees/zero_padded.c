/* The root of a binary tree whose leaves run out before its width: the missing
 * ones are zero, and every all-zero subtree is one of the precomputed zero[d],
 * never hashed (SSZ's merkleize, BEP 52's file trees).
 *
 * The leaves go through in slices of 2^low, in order: each slice is reduced
 * to its subtree root in a buffer on the stack, level by level in the lanes,
 * its first level read in place (the leaves' pairs are adjacent 64-byte
 * blocks); a short last slice pairs its odd node of each level with that
 * level's zero. Above the slices, their roots combine as a binary counter over
 * a stack of one node per level, and the right edge pairs each level's lone
 * node with the zero subtree beside it, up to the tree's depth. The nodes of
 * one level may be copied out as they are made (BEP 52's piece layer). */
#include <string.h>

#include "trees.h"

/* Filecoin's trees keep 254 bits of each node: byte 31's two high bits cleared. */
static void truncated(const struct libsha_zero_tree *t, unsigned char *nodes, size_t count)
{
    size_t i;
    if (t->trunc254)
        for (i = 0; i < count; ++i)
            nodes[32 * i + 31] &= 0x3f;
}

static void combine(const struct libsha_zero_tree *t, unsigned char out[32], const unsigned char *left,
                    const unsigned char *right)
{
    libsha_pair_on(t->impl, out, left, right, -1);
    truncated(t, out, 1);
}

static void hash_level(const struct libsha_zero_tree *t, unsigned char *out, const unsigned char *in, size_t n)
{
    libsha_level_on(t->impl, out, in, n);
    truncated(t, out, n);
}

/* Node `node` of level `level` is made: copied out if that level is the one wanted. */
static void made(struct libsha_zero_tree *t, int level, const unsigned char *nodes, size_t count)
{
    if (level == t->capture) {
        memcpy(t->captured + 32 * t->ncaptured, nodes, 32 * count);
        t->ncaptured += count;
    }
}

void libsha_zero_tree_init(struct libsha_zero_tree *t, const struct libsha_impl *impl, int depth, int slice_levels,
                           const unsigned char (*zero)[32], int capture, unsigned char *captured)
{
    t->impl = impl;
    t->depth = depth;
    t->low = depth < slice_levels ? depth : slice_levels;
    t->zero = zero;
    t->units = 0;
    t->capture = capture;
    t->captured = captured;
    t->ncaptured = 0;
    t->trunc254 = 0;
}

void libsha_zero_tree_slice(struct libsha_zero_tree *t, const unsigned char *nodes, size_t k, const unsigned char *last)
{
    unsigned char buf[(LIBSHA_ZERO_TREE_SLICE / 2 + 1) * 32], node[32];
    size_t count = last != NULL && k % 2 == 0 ? k / 2 - 1 : k / 2; /* pairs read in place */
    int height;

    made(t, 0, nodes, last != NULL ? k - 1 : k);
    if (last != NULL)
        made(t, 0, last, 1);
    if (t->low == 0) {
        memcpy(node, last != NULL ? last : nodes, 32);
    } else {
        hash_level(t, buf, nodes, count);
        if (k & 1)
            combine(t, buf + 32 * count++, last != NULL ? last : nodes + 32 * (k - 1), t->zero[0]);
        else if (last != NULL)
            combine(t, buf + 32 * count++, nodes + 32 * (k - 2), last);
        made(t, 1, buf, count);
        for (height = 1; height < t->low; ++height) {
            if (count & 1)
                memcpy(buf + 32 * count++, t->zero[height], 32);
            hash_level(t, buf, buf, count / 2);
            count /= 2;
            made(t, height + 1, buf, count);
        }
        memcpy(node, buf, 32);
    }
    ++t->units;
    for (height = 0; !(t->units & ((uint64_t)1 << height)); ++height) {
        combine(t, node, t->stack[t->low + height], node);
        made(t, t->low + height + 1, node, 1);
    }
    memcpy(t->stack[t->low + height], node, 32);
}

void libsha_zero_tree_root(struct libsha_zero_tree *t, unsigned char out[32])
{
    const int low = t->low, depth = t->depth;
    unsigned char node[32];
    int level, have = 0;
    if (t->units == 0) {
        memcpy(out, t->zero[depth], 32);
        return;
    }
    if (t->units == (uint64_t)1 << (depth - low)) { /* every leaf given: the carry reached the top */
        memcpy(out, t->stack[depth], 32);
        return;
    }
    /* The right edge: a level's node from the counter is a left child; what came up from below is the
     * right child beside it, or the left child of a zero subtree. */
    for (level = 0; low + level < depth; ++level) {
        if (have && low + level == t->capture)
            made(t, low + level, node, 1); /* the edge's partial node at the wanted level */
        if (t->units & ((uint64_t)1 << level)) {
            combine(t, node, t->stack[low + level], have ? node : t->zero[low + level]);
            have = 1;
        } else if (have) {
            combine(t, node, node, t->zero[low + level]);
        }
    }
    memcpy(out, node, 32);
}

void libsha_zero_padded_root(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *nodes,
                             size_t count, const unsigned char *last, int depth, const unsigned char zero[][32])
{
    struct libsha_zero_tree t;
    size_t done, slice;
    libsha_zero_tree_init(&t, impl, depth, LIBSHA_ZERO_TREE_SLICE_LEVELS, zero, -1, NULL);
    slice = (size_t)1 << t.low;
    for (done = 0; done < count; done += slice) {
        const size_t k = count - done < slice ? count - done : slice;
        libsha_zero_tree_slice(&t, nodes + 32 * done, k, done + k == count ? last : NULL);
    }
    libsha_zero_tree_root(&t, out);
}
