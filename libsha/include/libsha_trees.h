/*
 * libsha's Merkle trees: a level made from 64-byte pairs (hashtree's call),
 * Ethereum's SSZ, Certificate Transparency's RFC 6962 / RFC 9162 and
 * BitTorrent v2's BEP 52, the kernel's fs-verity and dm-verity, each level hashed
 * in the active row's lanes.
 * Bitcoin's Merkle root is libsha.h's (libsha_merkle_root), beside SHA256D64.
 *
 * Words, each for one idea (docs/architecture.md's glossary, word for word):
 *   node     32 bytes of a Merkle tree: a leaf, or the hash of two nodes (its
 *            children); a level call's input is pairs, 64 bytes each
 *   leaf     a node of a tree's bottom level: a Bitcoin txid, 32 bytes of SSZ
 *            data (what SSZ's spec calls a chunk), an RFC 6962 entry's leaf
 *            hash, a BEP 52 16 KiB block's digest, a fs-verity or dm-verity
 *            data block's salted digest
 *   level    a tree's nodes of one height, the leaves at 0; a level call
 *            (sha256_64) makes the level above from pairs
 *   layer    BEP 52's piece layer: the level whose nodes are the pieces' roots
 *   piece    BEP 52's unit of a file, piece_length bytes (a power of two from
 *            16 KiB), whose root is a node of the piece layer
 *
 * The threading, length and error conventions are libsha.h's, which this
 * header includes.
 */
#ifndef LIBSHA_TREES_H
#define LIBSHA_TREES_H

#include "libsha.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A level of a Merkle tree (hashtree's call): out[32*i..32*i+32) =
 * SHA256(in[64*i..64*i+64)) for i < n, the n 64-byte nodes (two children
 * each) through the active implementation's widest lanes, the padding block
 * folded into constants. Reads exactly in[0..64*n), writes exactly
 * out[0..32*n); out may equal in (a level hashed in place), no other overlap.
 * n == 0 does nothing. Returns LIBSHA_OK, LIBSHA_ERR_NULL (out or in NULL
 * with n > 0) or LIBSHA_ERR_ARGUMENT (64 * n overflows or runs past the
 * address space, or out overlaps in otherwise); on error nothing is written.
 */
LIBSHA_API int libsha_sha256_64(unsigned char *out, const unsigned char *in, size_t n);

/* merkleize without a limit: the chunks padded to their own power of two. */
#define LIBSHA_SSZ_NO_LIMIT UINT64_MAX

/*
 * Ethereum consensus SSZ's merkleize: data[0..len) cut into 32-byte chunks
 * (the last one right-padded with zeros, as SSZ packs basic values), padded
 * with zero chunks to the power of two >= limit (>= the chunks' count with
 * LIBSHA_SSZ_NO_LIMIT; an empty input is one zero chunk), each parent
 * SHA256(left || right); the root to out. Zero subtrees are never hashed
 * (their roots are constants), so a limit of 2^40 costs 40 hashes more than
 * the chunks' own tree. Scratch: about 20 KiB of stack, nothing allocated, any
 * len; out may overlap data. Returns LIBSHA_OK, LIBSHA_ERR_NULL (out NULL, or
 * data NULL with len > 0) or LIBSHA_ERR_ARGUMENT (more chunks than limit, or
 * data running past the address space); on error nothing is written.
 */
LIBSHA_API int libsha_ssz_merkleize(unsigned char out[32], const void *data, size_t len, uint64_t limit);

/* SSZ's mix_in_length (and mix_in_selector): out = SHA256(root || length as
 * 32 little-endian bytes); out may overlap root. LIBSHA_OK or LIBSHA_ERR_NULL. */
LIBSHA_API int libsha_ssz_mix_in_length(unsigned char out[32], const unsigned char root[32], uint64_t length);

/*
 * Certificate Transparency's tree (RFC 6962 §2.1, RFC 9162 §2.1; Go's
 * checksum database, Sigstore's Rekor, Trillian): a leaf hash is
 * SHA256(0x00 || data), a node SHA256(0x01 || left || right), the tree of n
 * leaves split at the largest power of two below n, the empty tree's root
 * SHA256(""). Proof nodes are 32 bytes each, end to end, in the RFC's order.
 */
#define LIBSHA_RFC6962_MAX_PROOF 65 /* nodes in the longest proof of any tree */

/* out[32*i..] = SHA256(0x00 || message i of leaves), each message as
 * libsha_sha256_batch takes it (any layout; its checks and returns). */
LIBSHA_API int libsha_rfc6962_leaf_hashes(unsigned char *out, const libsha_batch *leaves);

/* The root of the tree over n leaf hashes (32 bytes each, end to end), in
 * bounded stack scratch (about 17 KiB), nothing allocated, any n; out may
 * overlap the leaves. Returns LIBSHA_OK, LIBSHA_ERR_NULL or LIBSHA_ERR_ARGUMENT
 * (32 * n overflows). */
LIBSHA_API int libsha_rfc6962_root(unsigned char out[32], const unsigned char *leaf_hashes, size_t n);

/* An append-only log's state (a compact range): its size, and for every set
 * bit l of size, nodes[l], the root of the perfect subtree of 2^l leaves it
 * holds (the larger subtrees first). O(log n) memory; plain data, which may be
 * stored and restored as it is. */
typedef struct libsha_rfc6962_log {
    uint64_t size;
    unsigned char nodes[64][32];
} libsha_rfc6962_log;

/* The empty log (NULL: no-op). */
LIBSHA_API void libsha_rfc6962_log_init(libsha_rfc6962_log *log);
/* Appends n leaf hashes, hashed a perfect subtree at a time in the lanes.
 * Returns LIBSHA_OK, LIBSHA_ERR_NULL or LIBSHA_ERR_ARGUMENT (size past 2^64 - 1,
 * or the leaves overlapping log); on error the log is unchanged. */
LIBSHA_API int libsha_rfc6962_log_append(libsha_rfc6962_log *log, const unsigned char *leaf_hashes, size_t n);
/* The log's root now. LIBSHA_OK or LIBSHA_ERR_NULL. */
LIBSHA_API int libsha_rfc6962_log_root(const libsha_rfc6962_log *log, unsigned char out[32]);

/* The nodes of the whole tree over n leaves: every level bottom up, the
 * leaves first, each next level the pairs of the one below (an odd last node
 * goes up as it is), up to the root: at most 2n - 1. */
LIBSHA_API size_t libsha_rfc6962_tree_nodes(size_t n);

/* Writes that tree, libsha_rfc6962_tree_nodes(n) nodes, to tree: the form the
 * proofs below read. tree may begin with the leaves themselves (tree ==
 * leaf_hashes), else must not overlap them. Returns LIBSHA_OK, LIBSHA_ERR_NULL
 * or LIBSHA_ERR_ARGUMENT (a size that overflows, or an overlap). */
LIBSHA_API int libsha_rfc6962_tree(unsigned char *tree, const unsigned char *leaf_hashes, size_t n);

/* The inclusion proof of leaf `index` in the tree of the first `size` leaves
 * (RFC 9162 §2.1.3.1; size <= n, the tree kept by libsha_rfc6962_tree over n
 * leaves). *count: in, the room in proof (in nodes; LIBSHA_RFC6962_MAX_PROOF
 * always suffices); out, the nodes written. Returns LIBSHA_OK,
 * LIBSHA_ERR_NULL, or LIBSHA_ERR_ARGUMENT (index >= size, size > n, too
 * little room); on error nothing is written. */
LIBSHA_API int libsha_rfc6962_inclusion_proof(unsigned char *proof, size_t *count, const unsigned char *tree,
                                              size_t n, uint64_t index, uint64_t size);

/* The consistency proof of the tree of old_size leaves with that of size
 * leaves (RFC 9162 §2.1.4.1; old_size <= size <= n): empty when old_size is 0
 * or size. *count and the returns as above (LIBSHA_ERR_ARGUMENT: old_size >
 * size, size > n, too little room). */
LIBSHA_API int libsha_rfc6962_consistency_proof(unsigned char *proof, size_t *count, const unsigned char *tree,
                                                size_t n, uint64_t old_size, uint64_t size);

/* RFC 9162 §2.1.3.2: 1 if the proof (count nodes) takes leaf_hash at index to
 * root in the tree of size leaves, 0 if not (any wrong input: index >= size,
 * a proof too long or too short, a wrong node), LIBSHA_ERR_NULL for a NULL
 * pointer where bytes are needed. */
LIBSHA_API int libsha_rfc6962_verify_inclusion(const unsigned char leaf_hash[32], uint64_t index, uint64_t size,
                                               const unsigned char *proof, size_t count, const unsigned char root[32]);

/* RFC 9162 §2.1.4.2: 1 if the proof shows the tree of old_size leaves (root
 * old_root) is the start of the tree of size leaves (root), else 0. Equal
 * sizes need an empty proof and equal roots; old_size 0 is always 0 (a proof
 * from the empty tree is meaningless, as transparency-dev/merkle has it).
 * LIBSHA_ERR_NULL as above. */
LIBSHA_API int libsha_rfc6962_verify_consistency(uint64_t old_size, uint64_t size, const unsigned char *proof,
                                                 size_t count, const unsigned char old_root[32],
                                                 const unsigned char root[32]);

/*
 * BitTorrent v2's file tree (BEP 52): a leaf is the SHA-256 of a 16 KiB
 * block of the file (the last one short, not padded), the leaves padded
 * with zero leaves to a power of two, a parent SHA256(left || right). The
 * pieces root of data[0..len) goes to root; when len > piece_length (a power
 * of two >= 16384), its piece layer, libsha_bep52_layer_nodes(len,
 * piece_length) nodes (one a piece, the last piece's padded with zero
 * leaves), goes to layer, which must then not be NULL nor overlap data; else
 * layer is not written (it may be NULL). len 0: 32 zero bytes (an empty file
 * has no pieces root; a .torrent leaves it out). Scratch: about 40 KiB of
 * stack, nothing allocated. Returns LIBSHA_OK, LIBSHA_ERR_NULL or
 * LIBSHA_ERR_ARGUMENT (piece_length not a power of two >= 16 KiB, data past
 * the address space, an overlap); on error nothing is written.
 */
#define LIBSHA_BEP52_BLOCK 16384
LIBSHA_API int libsha_bep52_tree(unsigned char root[32], unsigned char *layer, const void *data, size_t len,
                                 uint64_t piece_length);
/* The same tree from its `blocks` leaves (32 bytes each, end to end: the blocks' SHA-256 digests,
 * which a caller may have made on several threads): the pieces root to root and, when blocks >
 * piece_length / 16384, libsha_bep52_layer_nodes' count of nodes to layer, which must not overlap
 * leaves. blocks 0: 32 zero bytes. The same returns and checks as libsha_bep52_tree. */
LIBSHA_API int libsha_bep52_tree_of_leaves(unsigned char root[32], unsigned char *layer, const unsigned char *leaves,
                                           size_t blocks, uint64_t piece_length);
/* The nodes of that piece layer: 0 when len <= piece_length or piece_length is not valid. */
LIBSHA_API uint64_t libsha_bep52_layer_nodes(uint64_t len, uint64_t piece_length);

/*
 * The kernel's block hash trees: fs-verity's (a file's; Android's APK
 * Signature Scheme v4, composefs, IMA) and dm-verity's (a device's; Android
 * Verified Boot's hashtree, ChromeOS, systemd's signed images). A block's
 * digest is SHA-256 of the block and a salt; the digests of one level are
 * packed end to end into hash blocks, the last one zero-filled, each level
 * above hashes the blocks of the one below, up to a level of one block, whose
 * digest is the root hash. The tree is stored top level first, each level's
 * blocks in order: what the kernel reads, `fsverity digest --out-merkle-tree`
 * and `veritysetup format` write. A tree over one block is empty, the block's
 * digest the root. The leaves (the bottom level's digests) may be made in
 * parts, on several threads, then given to the _tree_of_leaves call, which
 * takes them from their own buffer or in place at the tree's bottom level.
 */

/* fs-verity (Documentation/filesystems/fsverity.rst; fsverity-utils): block
 * size a power of two from 1 KiB to 64 KiB, data and hash blocks alike; the
 * salt (0-32 bytes) zero-padded to 64 before each block; the file's last block
 * zero-filled; an empty file's root 32 zero bytes. */
#define LIBSHA_FSVERITY_MAX_SALT 32
#define LIBSHA_FSVERITY_DESCRIPTOR_SIZE 256
/* The tree's bytes for a file of data_size bytes (0: one block or less, or a
 * block size out of range). */
LIBSHA_API uint64_t libsha_fsverity_tree_size(uint64_t data_size, uint32_t block_size);
/* out[32*i..] = the digest of data[0..len)'s block i, ceil(len / block_size)
 * of them; out must not overlap data. */
LIBSHA_API int libsha_fsverity_leaves(unsigned char *out, const void *data, size_t len, uint32_t block_size,
                                      const void *salt, size_t salt_len);
/* The tree of a file of data_size bytes from its leaves (ceil(data_size /
 * block_size) of them) to tree (libsha_fsverity_tree_size bytes; may be NULL
 * when that is 0), its root hash to root. */
LIBSHA_API int libsha_fsverity_tree_of_leaves(unsigned char root[32], unsigned char *tree,
                                              const unsigned char *leaves, uint64_t data_size, uint32_t block_size,
                                              const void *salt, size_t salt_len);
/* The same of data[0..len) in memory; tree must not overlap data. */
LIBSHA_API int libsha_fsverity_tree(unsigned char root[32], unsigned char *tree, const void *data, size_t len,
                                    uint32_t block_size, const void *salt, size_t salt_len);
/* The struct fsverity_descriptor of that tree (`--out-descriptor`; sig_size 0)
 * to descriptor, and the file digest, its SHA-256 (what `fsverity digest`
 * prints and FS_IOC_MEASURE_VERITY returns), to digest; either may be NULL. */
LIBSHA_API int libsha_fsverity_descriptor(unsigned char descriptor[LIBSHA_FSVERITY_DESCRIPTOR_SIZE],
                                          unsigned char digest[32], const unsigned char root[32], uint64_t data_size,
                                          uint32_t block_size, const void *salt, size_t salt_len);

/* dm-verity (Documentation/admin-guide/device-mapper/verity.rst; cryptsetup's
 * veritysetup): data and hash block sizes each a power of two from 512 bytes
 * to 64 KiB; a salt of 0-256 bytes before each block (format 1) or after it
 * (format 0, Chrome OS's); whole data blocks only, at least one. */
#define LIBSHA_DMVERITY_MAX_SALT 256
#define LIBSHA_DMVERITY_SUPERBLOCK_SIZE 512
/* The tree's bytes over data_blocks blocks (0: one block, or a block size out
 * of range); veritysetup's hash area, after the superblock's hash block. */
LIBSHA_API uint64_t libsha_dmverity_tree_size(uint64_t data_blocks, uint32_t hash_block_size);
/* out[32*i..] = the digest of data block i, for i < blocks; out must not overlap data. */
LIBSHA_API int libsha_dmverity_leaves(unsigned char *out, const void *data, size_t blocks, uint32_t data_block_size,
                                      const void *salt, size_t salt_len, int format);
/* The tree over data_blocks leaves to tree (libsha_dmverity_tree_size bytes;
 * NULL allowed when 0), its root hash to root. */
LIBSHA_API int libsha_dmverity_tree_of_leaves(unsigned char root[32], unsigned char *tree,
                                              const unsigned char *leaves, uint64_t data_blocks,
                                              uint32_t hash_block_size, const void *salt, size_t salt_len,
                                              int format);
/* The same of data_blocks blocks in memory; tree must not overlap data. */
LIBSHA_API int libsha_dmverity_tree(unsigned char root[32], unsigned char *tree, const void *data,
                                    uint64_t data_blocks, uint32_t data_block_size, uint32_t hash_block_size,
                                    const void *salt, size_t salt_len, int format);
/* veritysetup's 512-byte superblock for that tree (struct verity_sb: the
 * hash device's uuid, the sizes, the salt). */
LIBSHA_API int libsha_dmverity_superblock(unsigned char superblock[LIBSHA_DMVERITY_SUPERBLOCK_SIZE],
                                          const unsigned char uuid[16], uint64_t data_blocks,
                                          uint32_t data_block_size, uint32_t hash_block_size, const void *salt,
                                          size_t salt_len, int format);
/* Each call above returns LIBSHA_OK, LIBSHA_ERR_NULL (a pointer NULL where
 * bytes are read or written) or LIBSHA_ERR_ARGUMENT (a block size, salt length
 * or format out of range, no data blocks for dm-verity, sizes past the address
 * space, an overlap); on error nothing is written. */

/*
 * Filecoin's piece commitment (commP): the payload zero-filled to whole
 * 127-byte groups, each fr32-padded to 128 bytes (two zero bits after every
 * 254), zero-filled to the piece's padded size (a power of two, at least 128)
 * and cut into 32-byte leaves; each parent SHA256(left || right) with byte 31
 * & 0x3f (sha2-256-trunc254-padded). Built as a stream: a frontier of one node
 * per level, the zero subtrees from a table, so a 32 GiB piece needs this
 * context and nothing else; the leaves' pairs go through the lanes a slice of
 * LIBSHA_COMMP_SLICE leaves at a time.
 */
#define LIBSHA_COMMP_MIN_PAYLOAD 65                        /* go-fil-commp-hashhash's least */
#define LIBSHA_COMMP_MAX_PAYLOAD ((uint64_t)127 << 29)     /* a 64 GiB piece, the largest sector's */
#define LIBSHA_COMMP_SLICE_LEVELS 10
#define LIBSHA_COMMP_SLICE (1 << LIBSHA_COMMP_SLICE_LEVELS) /* leaves: 32 KiB */
/* Plain data; init before use, final ends it (update or final after it:
 * LIBSHA_ERR_STATE). Nothing secret in it. */
typedef struct libsha_commp_ctx {
    uint64_t payload;                                /* bytes taken */
    uint64_t slices;                                 /* full slices gone up the tree */
    unsigned char frontier[64][32];                  /* [SLICE_LEVELS + l]: a left subtree root per set bit l */
    unsigned char leaves[LIBSHA_COMMP_SLICE * 32];   /* the slice under way, fr32-padded */
    unsigned char group[127];                        /* the 127-byte group under way */
    unsigned char reserved;
    uint32_t marker;                                 /* set by init, cleared by final */
} libsha_commp_ctx;

/* sizeof(libsha_commp_ctx), for bindings that allocate it opaquely. */
LIBSHA_API size_t libsha_commp_ctx_size(void);
/* A new commitment (NULL: no-op). */
LIBSHA_API void libsha_commp_init(libsha_commp_ctx *ctx);
/* Takes len more bytes of the payload. Returns LIBSHA_OK, LIBSHA_ERR_NULL,
 * LIBSHA_ERR_STATE (not initialised, or finalised) or LIBSHA_ERR_ARGUMENT (the
 * payload past LIBSHA_COMMP_MAX_PAYLOAD, data past the address space); on
 * error nothing is taken. */
LIBSHA_API int libsha_commp_update(libsha_commp_ctx *ctx, const void *data, size_t len);
/* commP to commp[32] and the padded piece size to *padded_size (may be NULL);
 * then the context is finalised. LIBSHA_ERR_ARGUMENT for a payload under
 * LIBSHA_COMMP_MIN_PAYLOAD bytes (the context left as it was, to take more);
 * LIBSHA_ERR_NULL, LIBSHA_ERR_STATE as update. */
LIBSHA_API int libsha_commp_final(libsha_commp_ctx *ctx, unsigned char commp[32], uint64_t *padded_size);
/* One payload's commP in one call: init, update, final on a context of its
 * own (35 KiB of stack). */
LIBSHA_API int libsha_commp(unsigned char commp[32], uint64_t *padded_size, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LIBSHA_TREES_H */
