/* dm-verity (the kernel's Documentation/admin-guide/device-mapper/verity.rst,
 * cryptsetup's lib/verity/): the hash tree over a device's data blocks, each
 * digest SHA256(salt || block) in format 1 or SHA256(block || salt) in format 0
 * (Chrome OS's), in hash blocks of their own size, the top level first, as
 * `veritysetup format` writes it after its optional 512-byte superblock. One
 * data block has no tree: its digest is the root. */
#include <string.h>

#include "bytes.h"
#include "dispatch/dispatch.h"
#include "libsha_trees.h"
#include "trees/verity.h"

#define MIN_BLOCK 512
#define MAX_BLOCK 65536

static int check_params(uint32_t block_size, const void *salt, size_t salt_len, int format)
{
    if (salt == NULL && salt_len > 0)
        return LIBSHA_ERR_NULL;
    if (!libsha_verity_block_ok(block_size, MIN_BLOCK, MAX_BLOCK) || salt_len > LIBSHA_DMVERITY_MAX_SALT ||
        (format != 0 && format != 1))
        return LIBSHA_ERR_ARGUMENT;
    return LIBSHA_OK;
}

static void verity_init(struct libsha_verity *v, uint32_t hash_block_size, const void *salt, size_t salt_len,
                        int format)
{
    libsha_verity_init(v, libsha_active(), hash_block_size, (const unsigned char *)salt, salt_len,
                       format == 0 ? LIBSHA_SALT_AFTER : LIBSHA_SALT_BEFORE);
}

uint64_t libsha_dmverity_tree_size(uint64_t data_blocks, uint32_t hash_block_size)
{
    if (!libsha_verity_block_ok(hash_block_size, MIN_BLOCK, MAX_BLOCK))
        return 0;
    return libsha_verity_tree_blocks(data_blocks, hash_block_size) * hash_block_size;
}

int libsha_dmverity_leaves(unsigned char *out, const void *data, size_t blocks, uint32_t data_block_size,
                           const void *salt, size_t salt_len, int format)
{
    struct libsha_verity v;
    int code;
    libsha_enter();
    if (out == NULL || (data == NULL && blocks > 0))
        return LIBSHA_ERR_NULL;
    if ((code = check_params(data_block_size, salt, salt_len, format)) != LIBSHA_OK)
        return code;
    if (blocks > SIZE_MAX / data_block_size || (uintptr_t)data > UINTPTR_MAX - blocks * data_block_size ||
        libsha_overlaps(out, 32 * blocks, data, blocks * data_block_size))
        return LIBSHA_ERR_ARGUMENT;
    verity_init(&v, data_block_size, salt, salt_len, format);
    libsha_verity_blocks(&v, out, (const unsigned char *)data, blocks, data_block_size);
    return LIBSHA_OK;
}

/* The checks both tree calls make of the tree and its size. */
static int check_tree(const unsigned char *root, const unsigned char *tree, uint64_t data_blocks,
                      uint32_t hash_block_size, size_t *room)
{
    const uint64_t bytes = libsha_dmverity_tree_size(data_blocks, hash_block_size);
    if (root == NULL)
        return LIBSHA_ERR_NULL;
    if (data_blocks == 0 || bytes > SIZE_MAX) /* veritysetup refuses an empty device too */
        return LIBSHA_ERR_ARGUMENT;
    if (tree == NULL && bytes > 0)
        return LIBSHA_ERR_NULL;
    *room = (size_t)bytes;
    return LIBSHA_OK;
}

int libsha_dmverity_tree_of_leaves(unsigned char root[32], unsigned char *tree, const unsigned char *leaves,
                                   uint64_t data_blocks, uint32_t hash_block_size, const void *salt, size_t salt_len,
                                   int format)
{
    struct libsha_verity v;
    size_t room = 0;
    int code;
    libsha_enter();
    if ((code = check_params(hash_block_size, salt, salt_len, format)) != LIBSHA_OK ||
        (code = check_tree(root, tree, data_blocks, hash_block_size, &room)) != LIBSHA_OK)
        return code;
    if (leaves == NULL)
        return LIBSHA_ERR_NULL;
    if (data_blocks > SIZE_MAX / 32 || (uintptr_t)leaves > UINTPTR_MAX - 32 * (size_t)data_blocks)
        return LIBSHA_ERR_ARGUMENT;
    if (room > 0 && leaves != tree + libsha_verity_bottom_offset(data_blocks, hash_block_size) &&
        libsha_overlaps(tree, room, leaves, 32 * (size_t)data_blocks))
        return LIBSHA_ERR_ARGUMENT;
    verity_init(&v, hash_block_size, salt, salt_len, format);
    libsha_verity_build(&v, root, tree, leaves, data_blocks);
    return LIBSHA_OK;
}

int libsha_dmverity_tree(unsigned char root[32], unsigned char *tree, const void *data, uint64_t data_blocks,
                         uint32_t data_block_size, uint32_t hash_block_size, const void *salt, size_t salt_len,
                         int format)
{
    struct libsha_verity v;
    unsigned char one[32];
    size_t room = 0, len;
    int code;
    libsha_enter();
    if ((code = check_params(data_block_size, salt, salt_len, format)) != LIBSHA_OK ||
        (code = check_params(hash_block_size, salt, salt_len, format)) != LIBSHA_OK ||
        (code = check_tree(root, tree, data_blocks, hash_block_size, &room)) != LIBSHA_OK)
        return code;
    if (data == NULL)
        return LIBSHA_ERR_NULL;
    if (data_blocks > SIZE_MAX / data_block_size)
        return LIBSHA_ERR_ARGUMENT;
    len = (size_t)data_blocks * data_block_size;
    if ((uintptr_t)data > UINTPTR_MAX - len || libsha_overlaps(tree, room, data, len))
        return LIBSHA_ERR_ARGUMENT;
    if (data_blocks == 1) {
        verity_init(&v, data_block_size, salt, salt_len, format);
        libsha_verity_blocks(&v, one, (const unsigned char *)data, 1, data_block_size);
    } else { /* the leaves straight into the tree's bottom level */
        unsigned char *bottom = tree + libsha_verity_bottom_offset(data_blocks, hash_block_size);
        verity_init(&v, hash_block_size, salt, salt_len, format);
        libsha_verity_blocks(&v, bottom, (const unsigned char *)data, (size_t)data_blocks, data_block_size);
        libsha_verity_build(&v, one, tree, bottom, data_blocks);
    }
    memcpy(root, one, 32);
    return LIBSHA_OK;
}

static void store_le(unsigned char *p, uint64_t x, int bytes)
{
    int i;
    for (i = 0; i < bytes; ++i)
        p[i] = (unsigned char)(x >> (8 * i));
}

int libsha_dmverity_superblock(unsigned char superblock[LIBSHA_DMVERITY_SUPERBLOCK_SIZE], const unsigned char uuid[16],
                               uint64_t data_blocks, uint32_t data_block_size, uint32_t hash_block_size,
                               const void *salt, size_t salt_len, int format)
{
    unsigned char sb[LIBSHA_DMVERITY_SUPERBLOCK_SIZE] = {0};
    int code;
    libsha_enter();
    if (superblock == NULL || uuid == NULL)
        return LIBSHA_ERR_NULL;
    if ((code = check_params(data_block_size, salt, salt_len, format)) != LIBSHA_OK ||
        (code = check_params(hash_block_size, salt, salt_len, format)) != LIBSHA_OK)
        return code;
    /* cryptsetup's struct verity_sb, little-endian */
    memcpy(sb, "verity\0\0", 8);
    store_le(sb + 8, 1, 4); /* the superblock's version */
    store_le(sb + 12, (uint64_t)format, 4);
    memcpy(sb + 16, uuid, 16);
    memcpy(sb + 32, "sha256", 6); /* algorithm[32] */
    store_le(sb + 64, data_block_size, 4);
    store_le(sb + 68, hash_block_size, 4);
    store_le(sb + 72, data_blocks, 8);
    store_le(sb + 80, salt_len, 2); /* then 6 bytes of padding */
    if (salt_len > 0)
        memcpy(sb + 88, salt, salt_len); /* salt[256], then 168 bytes of padding */
    memcpy(superblock, sb, sizeof sb);
    return LIBSHA_OK;
}
