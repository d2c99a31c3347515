/*
 * libFuzzer harness: the Merkle trees against plain versions over OpenSSL's SHA256(). Input:
 * [row][limit extra][index][old size][bep52 length hi][bep52 piece shift][bytes...]. On the row the
 * first byte picks: the level call on the bytes' 64-byte blocks, in place and not; SSZ merkleize of
 * the bytes packed into chunks under a limit the second byte sets; RFC 6962's root, log, tree and
 * proofs over the bytes' 32-byte pieces as leaf hashes, every proof checked to verify and a damaged
 * one not to; BEP 52's tree of the bytes repeated to a length the fifth byte sets; fs-verity's and
 * dm-verity's trees of the same bytes, block sizes, salt length and format from the fifth and sixth
 * bytes, against a plain tree over OpenSSL's EVP streams (the leaves, the tree, its root, the
 * descriptor's digest, the superblock's fields); Filecoin's commP of the bytes repeated, one-shot and
 * as a stream in pieces, against a plain fr32 and tree. Each piece in an allocation of its own size. Under
 * ASan and UBSan: no read or write outside a buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "fuzz_piece.h"
#include "fuzz_row.h"
#include "libsha_trees.h"

static void pair(const uint8_t *l, const uint8_t *r, int prefix, uint8_t out[32])
{
    uint8_t buf[65];
    size_t at = prefix >= 0;
    buf[0] = (uint8_t)prefix;
    memcpy(buf + at, l, 32);
    memcpy(buf + at + 32, r, 32);
    SHA256(buf, 64 + at, out);
}

/* A zero-padded tree the plain way: the level padded to a power of two >= width, then halved. */
static void zero_root(const uint8_t *nodes, size_t n, uint64_t width, uint8_t out[32])
{
    uint8_t zero[65][32];
    size_t count = n, i;
    int depth = 0;
    uint8_t *level = malloc(32 * (n + 1));
    memset(zero[0], 0, 32);
    while (((uint64_t)1 << depth) < width)
        ++depth;
    for (i = 0; i < 64; ++i)
        pair(zero[i], zero[i], -1, zero[i + 1]);
    if (n)
        memcpy(level, nodes, 32 * n);
    for (i = 0; i < (size_t)depth; ++i) {
        size_t j;
        if (count == 0)
            break;
        if (count & 1)
            memcpy(level + 32 * count++, zero[i], 32);
        for (j = 0; j < count / 2; ++j)
            pair(level + 64 * j, level + 64 * j + 32, -1, level + 32 * j);
        count /= 2;
    }
    memcpy(out, count ? level : zero[depth], 32);
    free(level);
}

static void mth(const uint8_t *h, size_t n, uint8_t out[32])
{
    uint8_t l[32], r[32];
    size_t k = 1;
    if (n == 0) {
        SHA256(NULL, 0, out);
        return;
    }
    if (n == 1) {
        memcpy(out, h, 32);
        return;
    }
    while (k * 2 < n)
        k *= 2;
    mth(h, k, l);
    mth(h + 32 * k, n - k, r);
    pair(l, r, 1, out);
}

static void check_level(const uint8_t *bytes, size_t len)
{
    size_t n = len / 64, i;
    uint8_t *in = piece(bytes, 64 * n), *out = malloc(32 * n + 1), want[32];
    if (libsha_sha256_64(out, in, n) != LIBSHA_OK)
        abort();
    for (i = 0; i < n; ++i) {
        SHA256(in + 64 * i, 64, want);
        if (memcmp(out + 32 * i, want, 32) != 0)
            abort();
    }
    if (libsha_sha256_64(in, in, n) != LIBSHA_OK || (n && memcmp(in, out, 32 * n) != 0))
        abort();
    free(in);
    free(out);
}

static void check_ssz(const uint8_t *bytes, size_t len, unsigned extra)
{
    size_t chunks = (len + 31) / 32;
    uint8_t *data = piece(bytes, len), *padded = calloc(chunks + 1, 32), got[32], want[32];
    uint64_t limit = extra == 255 ? LIBSHA_SSZ_NO_LIMIT : chunks + extra;
    if (len)
        memcpy(padded, bytes, len);
    if (libsha_ssz_merkleize(got, data, len, limit) != LIBSHA_OK)
        abort();
    zero_root(padded, chunks, limit == LIBSHA_SSZ_NO_LIMIT ? chunks : limit, want);
    if (memcmp(got, want, 32) != 0)
        abort();
    if (chunks > 0 && libsha_ssz_merkleize(got, data, len, chunks - 1) != LIBSHA_ERR_ARGUMENT)
        abort();
    free(data);
    free(padded);
}

static void check_rfc6962(const uint8_t *bytes, size_t len, unsigned index_byte, unsigned old_byte)
{
    size_t n = len / 32, count, nodes = libsha_rfc6962_tree_nodes(n);
    uint8_t *leaves = piece(bytes, 32 * n), *tree = malloc(32 * nodes + 1), got[32], want[32], old_root[32];
    uint8_t proof[LIBSHA_RFC6962_MAX_PROOF * 32];
    libsha_rfc6962_log log;
    uint64_t size, index, old;
    mth(leaves, n, want);
    if (libsha_rfc6962_root(got, leaves, n) != LIBSHA_OK || memcmp(got, want, 32) != 0)
        abort();
    libsha_rfc6962_log_init(&log);
    if (libsha_rfc6962_log_append(&log, leaves, n / 3) != LIBSHA_OK ||
        libsha_rfc6962_log_append(&log, leaves + 32 * (n / 3), n - n / 3) != LIBSHA_OK ||
        libsha_rfc6962_log_root(&log, got) != LIBSHA_OK || memcmp(got, want, 32) != 0 || log.size != n)
        abort();
    if (libsha_rfc6962_tree(tree, leaves, n) != LIBSHA_OK)
        abort();
    if (n == 0) {
        count = LIBSHA_RFC6962_MAX_PROOF;
        if (libsha_rfc6962_inclusion_proof(proof, &count, tree, n, 0, 0) != LIBSHA_ERR_ARGUMENT)
            abort();
        goto done;
    }
    size = 1 + index_byte % n, index = old_byte % size, old = 1 + (index_byte ^ old_byte) % size;
    mth(leaves, (size_t)size, want);
    count = LIBSHA_RFC6962_MAX_PROOF;
    if (libsha_rfc6962_inclusion_proof(proof, &count, tree, n, index, size) != LIBSHA_OK)
        abort();
    if (libsha_rfc6962_verify_inclusion(leaves + 32 * index, index, size, proof, count, want) != 1)
        abort();
    if (count > 0) {
        proof[old_byte % (32 * count)] ^= 1;
        if (libsha_rfc6962_verify_inclusion(leaves + 32 * index, index, size, proof, count, want) != 0)
            abort();
    }
    mth(leaves, (size_t)old, old_root);
    count = LIBSHA_RFC6962_MAX_PROOF;
    if (libsha_rfc6962_consistency_proof(proof, &count, tree, n, old, size) != LIBSHA_OK)
        abort();
    if (libsha_rfc6962_verify_consistency(old, size, proof, count, old_root, want) != 1)
        abort();
    if (count > 0) {
        proof[index_byte % (32 * count)] ^= 0x80;
        if (libsha_rfc6962_verify_consistency(old, size, proof, count, old_root, want) != 0)
            abort();
    }
    /* The bytes themselves as a proof: any answer, no crash. */
    (void)libsha_rfc6962_verify_inclusion(want, index, size, leaves, n, old_root);
    (void)libsha_rfc6962_verify_consistency(old, size, leaves, n, old_root, want);
done:
    free(leaves);
    free(tree);
}

static void check_bep52(const uint8_t *bytes, size_t len, unsigned hi, unsigned shift)
{
    const size_t block = LIBSHA_BEP52_BLOCK;
    size_t total = len == 0 ? 0 : (size_t)hi * 2048 + len, i, blocks = (total + block - 1) / block;
    uint64_t piece_length = (uint64_t)block << (shift % 6);
    uint64_t layer_nodes = libsha_bep52_layer_nodes(total, piece_length);
    uint8_t *data = malloc(total + 1), *leaves = malloc(32 * blocks + 1), *layer = malloc(32 * layer_nodes + 1);
    uint8_t *again = malloc(32 * layer_nodes + 1);
    uint8_t got[32], want[32];
    for (i = 0; i < total; ++i)
        data[i] = bytes[i % len];
    for (i = 0; i < blocks; ++i)
        SHA256(data + block * i, total - block * i < block ? total - block * i : block, leaves + 32 * i);
    if (libsha_bep52_tree(got, layer, data, total, piece_length) != LIBSHA_OK)
        abort();
    zero_root(leaves, blocks, blocks, want);
    if (total > 0 && memcmp(got, want, 32) != 0)
        abort();
    for (i = 0; i < layer_nodes; ++i) {
        size_t per = (size_t)(piece_length / block), first = i * per, k = blocks - first < per ? blocks - first : per;
        zero_root(leaves + 32 * first, k, per, want);
        if (memcmp(layer + 32 * i, want, 32) != 0)
            abort();
    }
    if (libsha_bep52_tree(got, layer, data, total, piece_length + 1) != LIBSHA_ERR_ARGUMENT)
        abort();
    /* The same tree from the leaves (as the binding's threads make them): the same root and layer. */
    if (libsha_bep52_tree(want, layer, data, total, piece_length) != LIBSHA_OK)
        abort();
    memcpy(again, layer, 32 * layer_nodes);
    if (libsha_bep52_tree_of_leaves(got, layer, leaves, blocks, piece_length) != LIBSHA_OK || memcmp(got, want, 32) != 0
        || memcmp(again, layer, 32 * layer_nodes) != 0)
        abort();
    if (libsha_bep52_tree_of_leaves(got, layer, leaves, blocks, piece_length - 1) != LIBSHA_ERR_ARGUMENT)
        abort();
    free(data);
    free(leaves);
    free(layer);
    free(again);
}

/* One block's digest the plain way: the salt before it (zero-padded to 64 bytes where padded) or
 * after it, the block zero-filled to `block` bytes. */
static void salted_digest(const uint8_t *salt, size_t salt_len, int padded, int after, const uint8_t *p, size_t len,
                          size_t block, uint8_t out[32])
{
    static const uint8_t zeros[65536];
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    EVP_DigestInit_ex(c, EVP_sha256(), NULL);
    if (!after && salt_len > 0) {
        EVP_DigestUpdate(c, salt, salt_len);
        if (padded && salt_len % 64 != 0)
            EVP_DigestUpdate(c, zeros, 64 - salt_len % 64);
    }
    EVP_DigestUpdate(c, p, len);
    EVP_DigestUpdate(c, zeros, block - len);
    if (after)
        EVP_DigestUpdate(c, salt, salt_len);
    EVP_DigestFinal_ex(c, out, NULL);
    EVP_MD_CTX_free(c);
}

/* The tree over n >= 1 leaves the plain way: each level's digests packed into zero-filled hash
 * blocks, levels made bottom up until one block, laid out top first into tree (*tree_len bytes). */
static void plain_verity(const uint8_t *leaves, size_t n, size_t hb, const uint8_t *salt, size_t salt_len, int padded,
                         int after, uint8_t *tree, size_t *tree_len, uint8_t root[32])
{
    uint8_t *stored[64], *cur = malloc(32 * n);
    size_t sizes[64], count = n, at = 0, i;
    int depth = 0, d;
    memcpy(cur, leaves, 32 * n);
    while (count > 1) {
        const size_t blocks = (32 * count + hb - 1) / hb;
        uint8_t *level = calloc(blocks, hb), *up = malloc(32 * blocks);
        memcpy(level, cur, 32 * count);
        for (i = 0; i < blocks; ++i)
            salted_digest(salt, salt_len, padded, after, level + hb * i, hb, hb, up + 32 * i);
        stored[depth] = level;
        sizes[depth++] = blocks * hb;
        free(cur);
        cur = up;
        count = blocks;
    }
    memcpy(root, cur, 32);
    free(cur);
    for (d = depth - 1; d >= 0; --d) {
        memcpy(tree + at, stored[d], sizes[d]);
        at += sizes[d];
        free(stored[d]);
    }
    *tree_len = at;
}

/* A piece of the input, cycled to n bytes, in an allocation of its own size. */
static uint8_t *cycled(const uint8_t *bytes, size_t len, size_t n)
{
    uint8_t *p = malloc(n + 1);
    size_t i;
    for (i = 0; i < n; ++i)
        p[i] = bytes[i % len];
    return p;
}

static void check_fsverity(const uint8_t *data, size_t total, const uint8_t *salt, size_t salt_len, size_t block)
{
    const size_t n = (total + block - 1) / block, room = (size_t)libsha_fsverity_tree_size(total, (uint32_t)block);
    uint8_t *leaves = malloc(32 * n + 1), *again = malloc(32 * n + 1), *tree = malloc(room + 1);
    uint8_t *plain = malloc(room + 1), root[32], want[32], descriptor[LIBSHA_FSVERITY_DESCRIPTOR_SIZE], digest[32];
    size_t i, plain_len = 0;
    for (i = 0; i < n; ++i)
        salted_digest(salt, salt_len, 1, 0, data + block * i, total - block * i < block ? total - block * i : block,
                      block, leaves + 32 * i);
    if (libsha_fsverity_tree(root, tree, data, total, (uint32_t)block, salt, salt_len) != LIBSHA_OK)
        abort();
    if (n == 0)
        memset(want, 0, 32);
    else
        plain_verity(leaves, n, block, salt, salt_len, 1, 0, plain, &plain_len, want);
    if (memcmp(root, want, 32) != 0 || plain_len != room || memcmp(tree, plain, room) != 0)
        abort();
    if (libsha_fsverity_leaves(again, data, total, (uint32_t)block, salt, salt_len) != LIBSHA_OK
        || memcmp(again, leaves, 32 * n) != 0)
        abort();
    memset(tree, 0, room);
    if (libsha_fsverity_tree_of_leaves(root, tree, again, total, (uint32_t)block, salt, salt_len) != LIBSHA_OK
        || memcmp(root, want, 32) != 0 || memcmp(tree, plain, room) != 0)
        abort();
    if (libsha_fsverity_descriptor(descriptor, digest, root, total, (uint32_t)block, salt, salt_len) != LIBSHA_OK)
        abort();
    SHA256(descriptor, sizeof descriptor, want);
    if (memcmp(digest, want, 32) != 0 || descriptor[0] != 1 || descriptor[1] != 1 || descriptor[3] != salt_len
        || memcmp(descriptor + 16, root, 32) != 0)
        abort();
    if (libsha_fsverity_tree(root, tree, data, total, (uint32_t)block + 1, salt, salt_len) != LIBSHA_ERR_ARGUMENT
        || libsha_fsverity_tree(root, tree, data, total, (uint32_t)block, salt, 33) != LIBSHA_ERR_ARGUMENT)
        abort();
    free(leaves);
    free(again);
    free(tree);
    free(plain);
}

static void check_dmverity(const uint8_t *data, size_t total, const uint8_t *salt, size_t salt_len, size_t dbs,
                           size_t hbs, int format)
{
    const size_t n = total / dbs, room = (size_t)libsha_dmverity_tree_size(n, (uint32_t)hbs);
    uint8_t *leaves = malloc(32 * n + 1), *again = malloc(32 * n + 1), *tree = malloc(room + 1);
    uint8_t *plain = malloc(room + 1), root[32], want[32], sb[LIBSHA_DMVERITY_SUPERBLOCK_SIZE], uuid[16] = {1, 2, 3};
    size_t i, plain_len = 0;
    if (n == 0) {
        if (libsha_dmverity_tree(root, tree, data, 0, (uint32_t)dbs, (uint32_t)hbs, salt, salt_len, format)
            != LIBSHA_ERR_ARGUMENT)
            abort();
        goto done;
    }
    for (i = 0; i < n; ++i)
        salted_digest(salt, salt_len, 0, format == 0, data + dbs * i, dbs, dbs, leaves + 32 * i);
    plain_verity(leaves, n, hbs, salt, salt_len, 0, format == 0, plain, &plain_len, want);
    if (libsha_dmverity_tree(root, tree, data, n, (uint32_t)dbs, (uint32_t)hbs, salt, salt_len, format) != LIBSHA_OK
        || memcmp(root, want, 32) != 0 || plain_len != room || memcmp(tree, plain, room) != 0)
        abort();
    if (libsha_dmverity_leaves(again, data, n, (uint32_t)dbs, salt, salt_len, format) != LIBSHA_OK
        || memcmp(again, leaves, 32 * n) != 0)
        abort();
    memset(tree, 0, room);
    if (libsha_dmverity_tree_of_leaves(root, tree, again, n, (uint32_t)hbs, salt, salt_len, format) != LIBSHA_OK
        || memcmp(root, want, 32) != 0 || memcmp(tree, plain, room) != 0)
        abort();
    if (libsha_dmverity_superblock(sb, uuid, n, (uint32_t)dbs, (uint32_t)hbs, salt, salt_len, format) != LIBSHA_OK
        || memcmp(sb, "verity\0\0", 8) != 0 || sb[12] != format || sb[72] != (uint8_t)n || sb[80] != (uint8_t)salt_len
        || (salt_len > 0 && memcmp(sb + 88, salt, salt_len) != 0))
        abort();
    if (libsha_dmverity_tree(root, tree, data, n, (uint32_t)dbs, (uint32_t)hbs, salt, salt_len, 2) != LIBSHA_ERR_ARGUMENT
        || libsha_dmverity_tree(root, tree, data, n, (uint32_t)dbs, 256, salt, salt_len, format) != LIBSHA_ERR_ARGUMENT)
        abort();
done:
    free(leaves);
    free(again);
    free(tree);
    free(plain);
}

/* Both kernel trees of the bytes repeated to a length, block sizes and salt from a and b. */
static void check_verity(const uint8_t *bytes, size_t len, unsigned a, unsigned b)
{
    const size_t total = len == 0 ? 0 : (size_t)(a / 3) * 1024 + len;
    const size_t fs_salt = len == 0 ? 0 : b % 33, dm_salt = len == 0 ? 0 : (a + b) % 257;
    uint8_t *data = cycled(bytes, len ? len : 1, total), *salt = cycled(bytes, len ? len : 1, dm_salt);
    uint8_t *fs_salted = cycled(bytes, len ? len : 1, fs_salt);
    check_fsverity(data, total, fs_salted, fs_salt, (size_t)1024 << (a % 3));
    check_dmverity(data, total, salt, dm_salt, (size_t)512 << (b % 3), (size_t)512 << ((a ^ b) % 3), (int)(a >> 2) & 1);
    free(data);
    free(salt);
    free(fs_salted);
}

/* A plain Filecoin commP: fr32 bit by bit, every leaf of the padded piece, each parent truncated. */
static void plain_commp(const uint8_t *data, size_t len, uint8_t out[32], uint64_t *padded)
{
    const size_t groups = (len + 126) / 127;
    size_t size = 128, i, n;
    uint8_t *tree;
    while (size < 128 * groups)
        size *= 2;
    tree = calloc(size, 1);
    for (i = 0; i < 1016 * groups; ++i) { /* bit i of the payload to bit i + 2 * (i / 254) of the piece */
        const size_t to = i + 2 * (i / 254);
        if (i / 8 < len && (data[i / 8] >> (i % 8) & 1))
            tree[to / 8] |= (uint8_t)(1u << (to % 8));
    }
    for (n = size / 32; n > 1; n /= 2)
        for (i = 0; i < n / 2; ++i) {
            pair(tree + 64 * i, tree + 64 * i + 32, -1, tree + 32 * i);
            tree[32 * i + 31] &= 0x3f;
        }
    memcpy(out, tree, 32);
    *padded = size;
    free(tree);
}

/* Filecoin's commP of the bytes repeated to a length from a and b, one-shot and as a stream fed in
 * pieces whose sizes the bytes give, against the plain one. */
static void check_commp(const uint8_t *bytes, size_t len, unsigned a, unsigned b)
{
    const size_t total = len == 0 ? 0 : (size_t)a * 131 + b + len;
    uint8_t *data = cycled(bytes, len ? len : 1, total), got[32], want[32];
    uint64_t padded = 0, want_padded;
    libsha_commp_ctx *ctx = malloc(sizeof *ctx);
    size_t at = 0, k = 0;
    if (total < LIBSHA_COMMP_MIN_PAYLOAD) {
        if (libsha_commp(got, &padded, data, total) != LIBSHA_ERR_ARGUMENT)
            abort();
        goto done;
    }
    plain_commp(data, total, want, &want_padded);
    if (libsha_commp(got, &padded, data, total) != LIBSHA_OK || memcmp(got, want, 32) != 0 || padded != want_padded)
        abort();
    libsha_commp_init(ctx);
    while (at < total) {
        const size_t step = 1 + (size_t)bytes[k++ % len] * (1 + b % 97);
        const size_t take = step < total - at ? step : total - at;
        uint8_t *part = piece(data + at, take);
        if (libsha_commp_update(ctx, part, take) != LIBSHA_OK)
            abort();
        free(part);
        at += take;
    }
    if (libsha_commp_final(ctx, got, NULL) != LIBSHA_OK || memcmp(got, want, 32) != 0
        || libsha_commp_final(ctx, got, NULL) != LIBSHA_ERR_STATE || libsha_commp_update(ctx, data, 1) != LIBSHA_ERR_STATE)
        abort();
done:
    free(ctx);
    free(data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    fuzz_select_row(data[0]);
    check_level(data + 6, size - 6);
    check_ssz(data + 6, size - 6, data[1]);
    check_rfc6962(data + 6, size - 6, data[2], data[3]);
    check_bep52(data + 6, size - 6, data[4], data[5]);
    check_verity(data + 6, size - 6, data[4], data[5]);
    check_commp(data + 6, size - 6, data[4], data[5]);
    return 0;
}
