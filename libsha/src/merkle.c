/* The Bitcoin Merkle root (Bitcoin Core's ComputeMerkleRoot), in bounded memory.
 *
 * The leaves go through in chunks of CHUNK: each chunk is reduced to its
 * subtree root in a buffer on the stack, level by level, on the widest D64
 * kernel (each level's pairs are adjacent 64-byte blobs). Chunk boundaries
 * fall on multiples of CHUNK, so below the chunk's root every level of the
 * tree has the same parity at its right end inside a chunk as in the whole
 * tree, and the last chunk can duplicate its odd last node locally. Above the
 * chunks, their roots are combined as a binary counter over a stack of one
 * node per level, which also applies the odd-level rule at the right edge. */
#include <stdint.h>
#include <string.h>

#include "sha256_impl.h"

#define CHUNK_LEVELS 8
#define CHUNK ((size_t)1 << CHUNK_LEVELS) /* leaves: 8 KiB of scratch */
#define MAX_LEVELS 64

/* Reduces `count` (1..CHUNK) nodes in buf to one, in place; odd levels
 * duplicate their last node. To the top of the tree when this chunk is all of
 * it; else through all CHUNK_LEVELS levels, so that a short last chunk (even
 * a single leaf) duplicates its way up as it would in the whole tree. Real
 * pairs of equal nodes set *mutated. */
static void reduce_chunk(const struct libsha_impl *impl, unsigned char *buf, size_t count, int whole_tree,
                         int *mutated)
{
    int level;
    for (level = 0; whole_tree ? count > 1 : level < CHUNK_LEVELS; ++level) {
        size_t pos;
        for (pos = 0; pos + 1 < count; pos += 2)
            *mutated |= memcmp(buf + 32 * pos, buf + 32 * pos + 32, 32) == 0;
        if (count & 1) {
            memcpy(buf + 32 * count, buf + 32 * (count - 1), 32);
            ++count;
        }
        libsha_d64_run(impl, buf, buf, count / 2);
        count /= 2;
    }
}

/* out = SHA256D(left || right). */
static void combine(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *left,
                    const unsigned char *right)
{
    unsigned char pair[64];
    memcpy(pair, left, 32);
    memcpy(pair + 32, right, 32);
    libsha_d64_run(impl, out, pair, 1);
}

int libsha_merkle_run(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *leaves,
                      size_t n, int *mutated)
{
    /* +1 node: room for the duplicate an odd chunk level appends. */
    unsigned char buf[(CHUNK + 1) * 32], stack[MAX_LEVELS][32], node[32];
    uint64_t units = 0; /* chunk roots pushed so far: a binary counter over stack[] */
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

    for (done = 0; done < n; done += CHUNK) {
        size_t count = n - done < CHUNK ? n - done : CHUNK;
        memcpy(buf, leaves + 32 * done, 32 * count);
        reduce_chunk(impl, buf, count, n <= CHUNK, &found);
        memcpy(node, buf, 32);
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
