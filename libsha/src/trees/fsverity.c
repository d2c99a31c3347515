/* fs-verity (the kernel's Documentation/filesystems/fsverity.rst): the Merkle
 * tree of a file's blocks, the last one zero-filled, each block's digest after
 * the salt zero-padded to 64 bytes; the tree as the kernel stores it (and
 * `fsverity digest --out-merkle-tree` writes it), the fsverity_descriptor, and
 * the file digest, the descriptor's SHA-256. An empty file's root is 32 zero
 * bytes; a file of one block has no tree, its block's digest is the root. */
#include <string.h>

#include "bytes.h"
#include "dispatch/dispatch.h"
#include "libsha_trees.h"
#include "trees/verity.h"

#define MIN_BLOCK 1024
#define MAX_BLOCK 65536

static int check_params(uint32_t block_size, const void *salt, size_t salt_len)
{
    if (salt == NULL && salt_len > 0)
        return LIBSHA_ERR_NULL;
    if (!libsha_verity_block_ok(block_size, MIN_BLOCK, MAX_BLOCK) || salt_len > LIBSHA_FSVERITY_MAX_SALT)
        return LIBSHA_ERR_ARGUMENT;
    return LIBSHA_OK;
}

static uint64_t blocks_of(uint64_t size, uint32_t block_size)
{
    return size / block_size + (size % block_size != 0);
}

uint64_t libsha_fsverity_tree_size(uint64_t data_size, uint32_t block_size)
{
    if (!libsha_verity_block_ok(block_size, MIN_BLOCK, MAX_BLOCK))
        return 0;
    return libsha_verity_tree_blocks(blocks_of(data_size, block_size), block_size) * block_size;
}

/* The digests of data's blocks, the last one zero-filled. */
static void leaves_of(const struct libsha_verity *v, unsigned char *out, const unsigned char *data, size_t len,
                      size_t block)
{
    const size_t whole = len / block;
    libsha_verity_blocks(v, out, data, whole, block);
    if (len % block != 0)
        libsha_verity_short_block(v, out + 32 * whole, data + block * whole, len % block, block);
}

int libsha_fsverity_leaves(unsigned char *out, const void *data, size_t len, uint32_t block_size, const void *salt,
                           size_t salt_len)
{
    struct libsha_verity v;
    int code;
    libsha_enter();
    if (out == NULL || (data == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    if ((code = check_params(block_size, salt, salt_len)) != LIBSHA_OK)
        return code;
    if ((uintptr_t)data > UINTPTR_MAX - len ||
        libsha_overlaps(out, 32 * (size_t)blocks_of(len, block_size), data, len))
        return LIBSHA_ERR_ARGUMENT;
    libsha_verity_init(&v, libsha_active(), block_size, salt, salt_len, LIBSHA_SALT_BEFORE_PADDED);
    leaves_of(&v, out, data, len, block_size);
    return LIBSHA_OK;
}

/* The tree's size, checked against the address space: LIBSHA_OK, or LIBSHA_ERR_ARGUMENT. */
static int tree_room(uint64_t data_size, uint32_t block_size, size_t *size)
{
    const uint64_t bytes = libsha_fsverity_tree_size(data_size, block_size);
    if (bytes > SIZE_MAX)
        return LIBSHA_ERR_ARGUMENT;
    *size = (size_t)bytes;
    return LIBSHA_OK;
}

int libsha_fsverity_tree_of_leaves(unsigned char root[32], unsigned char *tree, const unsigned char *leaves,
                                   uint64_t data_size, uint32_t block_size, const void *salt, size_t salt_len)
{
    struct libsha_verity v;
    uint64_t n;
    size_t room;
    int code;
    libsha_enter();
    if ((code = check_params(block_size, salt, salt_len)) != LIBSHA_OK)
        return code;
    n = blocks_of(data_size, block_size);
    if (root == NULL || (leaves == NULL && n > 0))
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 32 || (uintptr_t)leaves > UINTPTR_MAX - 32 * (size_t)n ||
        tree_room(data_size, block_size, &room) != LIBSHA_OK)
        return LIBSHA_ERR_ARGUMENT;
    if (tree == NULL && room > 0)
        return LIBSHA_ERR_NULL;
    if (room > 0 && leaves != tree + libsha_verity_bottom_offset(n, block_size) &&
        libsha_overlaps(tree, room, leaves, 32 * (size_t)n))
        return LIBSHA_ERR_ARGUMENT;
    if (n == 0) {
        memset(root, 0, 32);
        return LIBSHA_OK;
    }
    libsha_verity_init(&v, libsha_active(), block_size, salt, salt_len, LIBSHA_SALT_BEFORE_PADDED);
    libsha_verity_build(&v, root, tree, leaves, n);
    return LIBSHA_OK;
}

int libsha_fsverity_tree(unsigned char root[32], unsigned char *tree, const void *data, size_t len,
                         uint32_t block_size, const void *salt, size_t salt_len)
{
    const unsigned char *p = (const unsigned char *)data;
    struct libsha_verity v;
    unsigned char one[32];
    uint64_t n;
    size_t room;
    int code;
    libsha_enter();
    if (root == NULL || (data == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    if ((code = check_params(block_size, salt, salt_len)) != LIBSHA_OK)
        return code;
    if ((uintptr_t)data > UINTPTR_MAX - len || tree_room(len, block_size, &room) != LIBSHA_OK)
        return LIBSHA_ERR_ARGUMENT;
    if (tree == NULL && room > 0)
        return LIBSHA_ERR_NULL;
    if (libsha_overlaps(tree, room, data, len))
        return LIBSHA_ERR_ARGUMENT;
    n = blocks_of(len, block_size);
    if (n == 0) {
        memset(root, 0, 32);
        return LIBSHA_OK;
    }
    libsha_verity_init(&v, libsha_active(), block_size, salt, salt_len, LIBSHA_SALT_BEFORE_PADDED);
    if (n == 1) {
        leaves_of(&v, one, p, len, block_size);
        memcpy(root, one, 32);
        return LIBSHA_OK;
    }
    { /* the leaves straight into the tree's bottom level */
        unsigned char *bottom = tree + libsha_verity_bottom_offset(n, block_size);
        leaves_of(&v, bottom, p, len, block_size);
        libsha_verity_build(&v, one, tree, bottom, n);
    }
    memcpy(root, one, 32);
    return LIBSHA_OK;
}

static void store_le64(unsigned char *p, uint64_t x)
{
    int i;
    for (i = 0; i < 8; ++i)
        p[i] = (unsigned char)(x >> (8 * i));
}

int libsha_fsverity_descriptor(unsigned char descriptor[LIBSHA_FSVERITY_DESCRIPTOR_SIZE], unsigned char digest[32],
                               const unsigned char root[32], uint64_t data_size, uint32_t block_size,
                               const void *salt, size_t salt_len)
{
    unsigned char d[LIBSHA_FSVERITY_DESCRIPTOR_SIZE] = {0};
    int code, log = 0;
    libsha_enter();
    if (root == NULL || (descriptor == NULL && digest == NULL))
        return LIBSHA_ERR_NULL;
    if ((code = check_params(block_size, salt, salt_len)) != LIBSHA_OK)
        return code;
    while (((uint32_t)1 << log) < block_size)
        ++log;
    d[0] = 1; /* version */
    d[1] = 1; /* FS_VERITY_HASH_ALG_SHA256 */
    d[2] = (unsigned char)log;
    d[3] = (unsigned char)salt_len;
    /* d[4..8): sig_size, 0 in the digest */
    store_le64(d + 8, data_size);
    memcpy(d + 16, root, 32); /* root_hash[64], zero after SHA-256's 32 */
    if (salt_len > 0)
        memcpy(d + 80, salt, salt_len); /* salt[32], then 144 reserved zero bytes */
    if (digest != NULL)
        (void)libsha_sha256(d, sizeof d, digest);
    if (descriptor != NULL)
        memcpy(descriptor, d, sizeof d);
    return LIBSHA_OK;
}
