/* The block hash trees of fs-verity and dm-verity (verity.h): the salted
 * digests of equal blocks in the lanes (a salt before them is hashed once, a
 * prefix every lane starts from; one after them ends each lane's stream), and
 * the levels above, each a batch of the level below's blocks. */
#include <string.h>

#include "bytes.h"
#include "many/many.h"
#include "one_message/one_message.h"
#include "trees/verity.h"

#define STREAMS 16 /* format 0's streams in one call: a few lane groups */

void libsha_verity_init(struct libsha_verity *v, const struct libsha_impl *impl, size_t hash_block,
                        const unsigned char *salt, size_t salt_len, enum libsha_salt_at at)
{
    static const unsigned char zeros[64];
    memset(v, 0, sizeof *v);
    v->impl = impl;
    v->hash_block = hash_block;
    libsha_stream_init(&v->before);
    if (salt_len == 0)
        return;
    if (at == LIBSHA_SALT_AFTER) {
        v->after = salt, v->after_len = salt_len;
        return;
    }
    v->prefixed = 1;
    libsha_stream_update(impl, &v->before, salt, salt_len);
    if (at == LIBSHA_SALT_BEFORE_PADDED && salt_len % 64 != 0) /* fs-verity: to a whole SHA-256 block */
        libsha_stream_update(impl, &v->before, zeros, 64 - salt_len % 64);
}

/* Format 0's blocks: each a stream of its block then the salt. */
static void blocks_then_salt(const struct libsha_verity *v, unsigned char *out, const unsigned char *data, size_t n,
                             size_t block)
{
    libsha_sha256_ctx ctx[STREAMS];
    void *objs[STREAMS];
    const void *body[STREAMS];
    size_t lens[STREAMS], done, i;
    for (done = 0; done < n; done += STREAMS) {
        const size_t k = n - done < STREAMS ? n - done : STREAMS;
        for (i = 0; i < k; ++i) {
            libsha_stream_init(&ctx[i]);
            objs[i] = &ctx[i], body[i] = data + block * (done + i), lens[i] = block;
        }
        libsha_streams_update_on(v->impl, objs, sizeof ctx[0], 0, body, lens, k);
        for (i = 0; i < k; ++i) {
            libsha_stream_update(v->impl, &ctx[i], v->after, v->after_len);
            libsha_stream_final(v->impl, &ctx[i], out + 32 * (done + i));
        }
    }
}

void libsha_verity_blocks(const struct libsha_verity *v, unsigned char *out, const unsigned char *data, size_t n,
                          size_t block)
{
    libsha_batch rows = {.layout = LIBSHA_ROWS, .n = n, .data = data, .stride = block, .len = block};
    if (n == 0)
        return;
    if (v->after_len > 0)
        blocks_then_salt(v, out, data, n, block);
    else
        (void)libsha_batch_on(v->impl, out, &rows, v->prefixed ? &v->before : NULL, NULL, 0);
}

void libsha_verity_short_block(const struct libsha_verity *v, unsigned char out[32], const unsigned char *data,
                               size_t len, size_t block)
{
    static const unsigned char zeros[1024];
    libsha_sha256_ctx ctx = v->before;
    size_t left = block - len;
    libsha_stream_update(v->impl, &ctx, data, len);
    for (; left > 0; left -= left < sizeof zeros ? left : sizeof zeros)
        libsha_stream_update(v->impl, &ctx, zeros, left < sizeof zeros ? left : sizeof zeros);
    libsha_stream_update(v->impl, &ctx, v->after, v->after_len);
    libsha_stream_final(v->impl, &ctx, out);
}

/* The blocks of each level over n leaves, bottom up: its count of levels. */
static int level_blocks(uint64_t n, size_t hash_block, uint64_t blocks[64])
{
    const uint64_t per = hash_block / 32;
    int levels = 0;
    while (n > 1) {
        n = n / per + (n % per != 0);
        blocks[levels++] = n;
    }
    return levels;
}

uint64_t libsha_verity_tree_blocks(uint64_t n, size_t hash_block)
{
    uint64_t blocks[64], total = 0;
    int levels = level_blocks(n, hash_block, blocks), i;
    for (i = 0; i < levels; ++i)
        total += blocks[i];
    return total;
}

uint64_t libsha_verity_bottom_offset(uint64_t n, size_t hash_block)
{
    uint64_t blocks[64];
    return level_blocks(n, hash_block, blocks) == 0 ? 0 : (libsha_verity_tree_blocks(n, hash_block) - blocks[0]) * hash_block;
}

void libsha_verity_build(const struct libsha_verity *v, unsigned char root[32], unsigned char *tree,
                         const unsigned char *leaves, uint64_t n)
{
    const size_t hb = v->hash_block;
    uint64_t blocks[64];
    size_t at[64]; /* each level's offset in tree: the top level first */
    const int levels = level_blocks(n, hb, blocks);
    unsigned char top[32];
    int i;
    if (levels == 0) { /* one leaf: it is the root */
        memmove(root, leaves, 32);
        return;
    }
    at[levels - 1] = 0;
    for (i = levels - 2; i >= 0; --i)
        at[i] = at[i + 1] + (size_t)blocks[i + 1] * hb;
    if (tree + at[0] != leaves)
        memcpy(tree + at[0], leaves, 32 * (size_t)n);
    memset(tree + at[0] + 32 * (size_t)n, 0, (size_t)blocks[0] * hb - 32 * (size_t)n);
    for (i = 0; i + 1 < levels; ++i) {
        unsigned char *up = tree + at[i + 1];
        libsha_verity_blocks(v, up, tree + at[i], (size_t)blocks[i], hb);
        memset(up + 32 * (size_t)blocks[i], 0, (size_t)blocks[i + 1] * hb - 32 * (size_t)blocks[i]);
    }
    libsha_verity_blocks(v, top, tree + at[levels - 1], 1, hb);
    memcpy(root, top, 32);
}
