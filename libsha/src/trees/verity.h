/* The kernel's block hash trees (verity.c): fs-verity's and dm-verity's trees
 * share one shape. A block's digest is SHA-256 of the block with a salt before
 * it (fs-verity zero-pads the salt to 64 bytes; dm-verity's format 1 does not)
 * or after it (dm-verity's format 0, Chrome OS's). The digests of one level are
 * packed end to end into hash blocks, the last one zero-filled; each next level
 * hashes the blocks of the one below, up to a level of one block, whose digest
 * is the root. The levels are stored top first, each in its blocks' order. */
#ifndef LIBSHA_TREES_VERITY_H
#define LIBSHA_TREES_VERITY_H

#include <stddef.h>
#include <stdint.h>

#include "libsha.h"
#include "sha256_impl.h"

/* Where the salt goes. */
enum libsha_salt_at { LIBSHA_SALT_BEFORE_PADDED, LIBSHA_SALT_BEFORE, LIBSHA_SALT_AFTER };

struct libsha_verity {
    const struct libsha_impl *impl;
    size_t hash_block;
    int prefixed;               /* before holds a salt */
    libsha_sha256_ctx before;   /* the state after the salt that goes first */
    const unsigned char *after; /* the salt that goes last (format 0), after_len bytes */
    size_t after_len;
};

/* salt: salt_len bytes, read until the last call on v returns. */
void libsha_verity_init(struct libsha_verity *v, const struct libsha_impl *impl, size_t hash_block,
                        const unsigned char *salt, size_t salt_len, enum libsha_salt_at at);

/* out[32i..] = the digest of data's block i (block bytes each) for i < n, in the lanes. */
void libsha_verity_blocks(const struct libsha_verity *v, unsigned char *out, const unsigned char *data, size_t n,
                          size_t block);
/* out = the digest of data[0..len) zero-filled to block bytes (len < block). */
void libsha_verity_short_block(const struct libsha_verity *v, unsigned char out[32], const unsigned char *data,
                               size_t len, size_t block);

/* The hash blocks of the tree over n leaves (0 for n <= 1): a level of ceil(n / per) blocks,
 * per = hash_block / 32, then each above it, up to one block. */
uint64_t libsha_verity_tree_blocks(uint64_t n, size_t hash_block);

/* The tree over leaves[0..32n) (n >= 1; checked by the caller) into tree (libsha_verity_tree_blocks
 * blocks; not written when n is 1), its root to root. leaves may be the tree's own bottom level
 * in place, else must not overlap it. */
void libsha_verity_build(const struct libsha_verity *v, unsigned char root[32], unsigned char *tree,
                         const unsigned char *leaves, uint64_t n);

/* Where the bottom level starts in the tree over n leaves (bytes from its start). */
uint64_t libsha_verity_bottom_offset(uint64_t n, size_t hash_block);

/* Both formats' checks: a block size a power of two within [lo, hi]. */
static inline int libsha_verity_block_ok(uint64_t size, uint64_t lo, uint64_t hi)
{
    return size >= lo && size <= hi && (size & (size - 1)) == 0;
}

#endif
