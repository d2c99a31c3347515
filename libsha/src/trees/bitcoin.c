/* The Bitcoin Merkle root (Bitcoin Core's ComputeMerkleRoot), in bounded memory.
 *
 * The leaves go through in slices of SLICE: each slice is reduced to its
 * subtree root in buffers on the stack, level by level, on the widest D64
 * kernel (each level's pairs are adjacent 64-byte blobs). Slice boundaries
 * fall on multiples of SLICE, so below the slice's root every level of the
 * tree has the same parity at its right end inside a slice as in the whole
 * tree, and the last slice can duplicate its odd last node locally. Above the
 * slices, their roots are combined as a binary counter over a stack of one
 * node per level, which also applies the odd-level rule at the right edge.
 *
 * A slice is reduced in two steps, so that the few narrow levels at the top
 * of a subtree (8, 4, 2, 1 pairs: half-empty or one-lane kernels) come once
 * per SLICE leaves, not once per buffer: each run of RUN leaves goes down
 * RUN_LEVELS levels (128, 64, 32, 16 pairs: whole 16-lane calls), and the
 * runs' nodes together go down the rest. */
#include <stdint.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "many/many.h"
#include "trees.h"
#include "sha256_impl.h"

#define RUN_LEVELS 4
#define RUN ((size_t)256) /* leaves: 8 KiB of scratch */
#define SLICE_LEVELS 12
#define SLICE ((size_t)1 << SLICE_LEVELS)               /* leaves */
#define SLICE_NODES (SLICE >> RUN_LEVELS)             /* a slice's nodes after the first step */
#define MAX_LEVELS 64

/* Whether two nodes are equal: inline, once per pair (memcmp's call cost
 * about a tenth of a 16-lane D64 blob). */
static inline int same_node(const unsigned char *a, const unsigned char *b)
{
    uint64_t x[4], y[4];
    memcpy(x, a, 32);
    memcpy(y, b, 32);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3])) == 0;
}

/* Reduces `count` (>= 1) nodes in buf by `levels` levels (0: to a single
 * node, the top of the tree), in place; odd levels duplicate their last node.
 * Real pairs of equal nodes set *mutated (not looked for when it is NULL: the
 * caller did not ask, as in Bitcoin Core). Returns the nodes left. */
static size_t reduce(const struct libsha_impl *impl, unsigned char *buf, size_t count, int levels, int *mutated)
{
    int level;
    for (level = 0; levels == 0 ? count > 1 : level < levels; ++level) {
        size_t pos;
        for (pos = 0; mutated != NULL && pos + 1 < count; pos += 2)
            *mutated |= same_node(buf + 32 * pos, buf + 32 * pos + 32);
        if (count & 1) {
            memcpy(buf + 32 * count, buf + 32 * (count - 1), 32);
            ++count;
        }
        libsha_d64_on(impl, buf, buf, count / 2);
        count /= 2;
    }
    return count;
}

/* The root of `count` (1..SLICE) leaves into root: to the top of the tree
 * when this slice is all of it; else through all SLICE_LEVELS levels, so that
 * a short last slice (even a single leaf) duplicates its way up as it would
 * in the whole tree. */
static void reduce_slice(const struct libsha_impl *impl, const unsigned char *leaves, size_t count, int whole_tree,
                         unsigned char root[32], int *mutated)
{
    /* +1 node each: room for the duplicate an odd level appends. */
    unsigned char run[(RUN + 1) * 32], nodes[(SLICE_NODES + 1) * 32];
    size_t done, made = 0;

    if (whole_tree && count <= ((size_t)1 << RUN_LEVELS)) {
        /* The tree is shorter than the first step: straight to its top. */
        memcpy(run, leaves, 32 * count);
        reduce(impl, run, count, 0, mutated);
        memcpy(root, run, 32);
        return;
    }
    for (done = 0; done < count; done += RUN) {
        size_t k = count - done < RUN ? count - done : RUN;
        memcpy(run, leaves + 32 * done, 32 * k);
        k = reduce(impl, run, k, RUN_LEVELS, mutated);
        memcpy(nodes + 32 * made, run, 32 * k);
        made += k;
    }
    reduce(impl, nodes, made, whole_tree ? 0 : SLICE_LEVELS - RUN_LEVELS, mutated);
    memcpy(root, nodes, 32);
}

/* out = SHA256D(left || right). */
static void combine(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *left,
                    const unsigned char *right)
{
    unsigned char pair[64];
    memcpy(pair, left, 32);
    memcpy(pair + 32, right, 32);
    libsha_d64_on(impl, out, pair, 1);
}

int libsha_merkle_run(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *leaves,
                      size_t n, int *mutated)
{
    unsigned char stack[MAX_LEVELS][32], node[32];
    uint64_t units = 0; /* slice roots pushed so far: a binary counter over stack[] */
    int found = 0;
    size_t done, level;

    if (out == NULL || (leaves == NULL && n > 0))
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 32)
        return LIBSHA_ERR_ARGUMENT;
    if (n == 0) {
        memset(out, 0, 32);
        if (mutated != NULL)
            *mutated = 0;
        return LIBSHA_OK;
    }

    for (done = 0; done < n; done += SLICE) {
        size_t count = n - done < SLICE ? n - done : SLICE;
        reduce_slice(impl, leaves + 32 * done, count, n <= SLICE, node, mutated != NULL ? &found : NULL);
        ++units;
        /* Carry: a pair at a level combines into the next one up. */
        for (level = 0; !(units & ((uint64_t)1 << level)); ++level) {
            found |= memcmp(stack[level], node, 32) == 0;
            combine(impl, node, stack[level], node);
        }
        memcpy(stack[level], node, 32);
    }

    /* The right edge: the lowest level holding a node carries it up; a level
     * where it has no partner pairs it with itself (the odd-level rule). */
    for (level = 0; !(units & ((uint64_t)1 << level)); ++level)
        ;
    memcpy(node, stack[level], 32);
    while (units != ((uint64_t)1 << level)) {
        combine(impl, node, node, node);
        units += (uint64_t)1 << level;
        for (++level; !(units & ((uint64_t)1 << level)); ++level) {
            found |= memcmp(stack[level], node, 32) == 0;
            combine(impl, node, stack[level], node);
        }
    }
    memcpy(out, node, 32);
    if (mutated != NULL)
        *mutated = found;
    return LIBSHA_OK;
}

int libsha_merkle_root(unsigned char out[32], const unsigned char *leaves, size_t n, int *mutated)
{
    /* One implementation for the whole tree, even if another thread switches. */
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_merkle_run(impl, out, leaves, n, mutated);
}
