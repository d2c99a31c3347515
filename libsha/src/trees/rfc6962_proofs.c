/* RFC 6962 / RFC 9162 trees kept whole, for proofs: every level of the tree,
 * bottom up (level l+1 pairs level l's nodes; an odd last node goes up as it
 * is, which builds the RFC's tree, split at the largest power of two), then
 * inclusion and consistency proofs for any tree size up to the one kept
 * (RFC 9162 §2.1.3.1, §2.1.4.1), and their verification (§2.1.3.2, §2.1.4.2).
 *
 * In the tree of n leaves, node i of level l covers leaves [i * 2^l,
 * min((i + 1) * 2^l, n)). A proof for a smaller tree (an older size of the
 * log) asks for subtrees whose right edge is inside the kept tree; those are
 * made from the kept perfect subtrees, a node per level down the edge. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "trees.h"

#define NODE 0x01

size_t libsha_rfc6962_tree_nodes(size_t n)
{
    size_t total = n;
    while (n > 1) {
        n = n / 2 + n % 2;
        total += n;
    }
    return total;
}

int libsha_rfc6962_tree(unsigned char *tree, const unsigned char *leaf_hashes, size_t n)
{
    const struct libsha_impl *impl = libsha_active();
    size_t nodes, at = 0, count = n;
    libsha_enter();
    if (n == 0)
        return LIBSHA_OK;
    if (tree == NULL || leaf_hashes == NULL)
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 64)
        return LIBSHA_ERR_ARGUMENT;
    nodes = libsha_rfc6962_tree_nodes(n);
    if ((uintptr_t)tree > UINTPTR_MAX - 32 * nodes || (uintptr_t)leaf_hashes > UINTPTR_MAX - 32 * n)
        return LIBSHA_ERR_ARGUMENT;
    if (tree != leaf_hashes && libsha_overlaps(tree, 32 * nodes, leaf_hashes, 32 * n))
        return LIBSHA_ERR_ARGUMENT;
    if (tree != leaf_hashes)
        memcpy(tree, leaf_hashes, 32 * n);
    while (count > 1) {
        unsigned char *level = tree + 32 * at, *up = level + 32 * count;
        libsha_prefixed_level_on(impl, up, level, count / 2, NODE);
        if (count % 2)
            memcpy(up + 32 * (count / 2), level + 32 * (count - 1), 32);
        at += count;
        count = count / 2 + count % 2;
    }
    return LIBSHA_OK;
}

/* Where the kept tree's levels start. */
struct kept {
    const unsigned char *tree;
    size_t n;
    size_t start[LIBSHA_TREE_MAX_DEPTH + 1]; /* node index of each level's first node */
    int levels;
};

static void kept_levels(struct kept *k, const unsigned char *tree, size_t n)
{
    size_t count = n, at = 0;
    k->tree = tree, k->n = n, k->levels = 0;
    for (;;) {
        k->start[k->levels++] = at;
        if (count <= 1)
            break;
        at += count;
        count = count / 2 + count % 2;
    }
}

/* The largest power of two below s (s >= 2). */
static uint64_t split_of(uint64_t s)
{
    uint64_t k = 1;
    while (k << 1 < s)
        k <<= 1;
    return k;
}

/* MTH(D[a:b]) of the kept leaves, for a range the RFC's recursion asks for (a a multiple of the
 * power of two >= b - a, b <= n). */
static void subtree(const struct libsha_impl *impl, const struct kept *k, uint64_t a, uint64_t b, unsigned char out[32])
{
    const int l = libsha_ceil_log2(b - a);
    const uint64_t end = a + ((uint64_t)1 << l) < k->n ? a + ((uint64_t)1 << l) : k->n;
    if (end == b) { /* a node of the kept tree */
        memcpy(out, k->tree + 32 * (k->start[l] + (size_t)(a >> l)), 32);
    } else { /* the edge of a smaller tree inside this node */
        const uint64_t mid = a + ((uint64_t)1 << (l - 1));
        unsigned char right[32];
        subtree(impl, k, mid, b, right);
        libsha_pair_on(impl, out, k->tree + 32 * (k->start[l - 1] + (size_t)(a >> (l - 1))), right, NODE);
    }
}

/* The nodes collected top down, out bottom up (the RFC's order); *count: room in, nodes out. */
static int give(unsigned char *proof, size_t *count, unsigned char found[][32], size_t made)
{
    size_t i;
    if (made > *count)
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < made; ++i)
        memcpy(proof + 32 * i, found[made - 1 - i], 32);
    *count = made;
    return LIBSHA_OK;
}

static int check_kept(const unsigned char *tree, size_t n, const unsigned char *proof, const size_t *count,
                      uint64_t size)
{
    if (count == NULL || (tree == NULL && n > 0) || (proof == NULL && *count > 0))
        return LIBSHA_ERR_NULL;
    if (size > n || n > SIZE_MAX / 64)
        return LIBSHA_ERR_ARGUMENT;
    return LIBSHA_OK;
}

int libsha_rfc6962_inclusion_proof(unsigned char *proof, size_t *count, const unsigned char *tree, size_t n,
                                   uint64_t index, uint64_t size)
{
    const struct libsha_impl *impl = libsha_active();
    unsigned char found[LIBSHA_RFC6962_MAX_PROOF][32];
    struct kept k;
    uint64_t lo = 0, hi = size;
    size_t made = 0;
    int err;
    libsha_enter();
    if ((err = check_kept(tree, n, proof, count, size)) != LIBSHA_OK)
        return err;
    if (index >= size)
        return LIBSHA_ERR_ARGUMENT;
    kept_levels(&k, tree, n);
    while (hi - lo > 1) {
        const uint64_t split = lo + split_of(hi - lo);
        if (index < split) {
            subtree(impl, &k, split, hi, found[made++]);
            hi = split;
        } else {
            subtree(impl, &k, lo, split, found[made++]);
            lo = split;
        }
    }
    return give(proof, count, found, made);
}

int libsha_rfc6962_consistency_proof(unsigned char *proof, size_t *count, const unsigned char *tree, size_t n,
                                     uint64_t old_size, uint64_t size)
{
    const struct libsha_impl *impl = libsha_active();
    unsigned char found[LIBSHA_RFC6962_MAX_PROOF][32];
    struct kept k;
    uint64_t lo = 0, hi = size, m = old_size;
    size_t made = 0;
    int whole = 1, err; /* whole: SUBPROOF's b, the old tree is a subtree of this one from its first leaf */
    libsha_enter();
    if ((err = check_kept(tree, n, proof, count, size)) != LIBSHA_OK)
        return err;
    if (old_size > size)
        return LIBSHA_ERR_ARGUMENT;
    if (old_size == 0 || old_size == size)
        return give(proof, count, found, 0);
    kept_levels(&k, tree, n);
    while (m != hi - lo) {
        const uint64_t half = split_of(hi - lo);
        if (m <= half) {
            subtree(impl, &k, lo + half, hi, found[made++]);
            hi = lo + half;
        } else {
            subtree(impl, &k, lo, lo + half, found[made++]);
            lo += half, m -= half, whole = 0;
        }
    }
    if (!whole)
        subtree(impl, &k, lo, hi, found[made++]);
    return give(proof, count, found, made);
}

/* fn and sn right-shifted together until fn's low bit is set or fn is 0. */
#define SHIFT_TO_SET_BIT(fn, sn)          \
    while (!((fn) & 1) && (fn) != 0)      \
        (fn) >>= 1, (sn) >>= 1

int libsha_rfc6962_verify_inclusion(const unsigned char leaf_hash[32], uint64_t index, uint64_t size,
                                    const unsigned char *proof, size_t count, const unsigned char root[32])
{
    const struct libsha_impl *impl = libsha_active();
    unsigned char r[32];
    uint64_t fn = index, sn = size - 1;
    size_t i;
    libsha_enter();
    if (leaf_hash == NULL || root == NULL || (proof == NULL && count > 0))
        return LIBSHA_ERR_NULL;
    if (index >= size)
        return 0;
    memcpy(r, leaf_hash, 32);
    for (i = 0; i < count; ++i) {
        const unsigned char *p = proof + 32 * i;
        if (sn == 0)
            return 0;
        if ((fn & 1) || fn == sn) {
            libsha_pair_on(impl, r, p, r, NODE);
            SHIFT_TO_SET_BIT(fn, sn);
        } else {
            libsha_pair_on(impl, r, r, p, NODE);
        }
        fn >>= 1, sn >>= 1;
    }
    return sn == 0 && memcmp(r, root, 32) == 0;
}

int libsha_rfc6962_verify_consistency(uint64_t old_size, uint64_t size, const unsigned char *proof, size_t count,
                                      const unsigned char old_root[32], const unsigned char root[32])
{
    const struct libsha_impl *impl = libsha_active();
    unsigned char fr[32], sr[32];
    uint64_t fn, sn;
    size_t i = 0;
    libsha_enter();
    if (old_root == NULL || root == NULL || (proof == NULL && count > 0))
        return LIBSHA_ERR_NULL;
    if (old_size == 0 || old_size > size) /* a proof from the empty tree is meaningless */
        return 0;
    if (old_size == size) /* the same tree: nothing to prove */
        return count == 0 && memcmp(old_root, root, 32) == 0;
    if (count == 0)
        return 0;
    fn = old_size - 1, sn = size - 1;
    while (fn & 1)
        fn >>= 1, sn >>= 1;
    /* A power-of-two old tree is itself the first node of the path. */
    if ((old_size & (old_size - 1)) == 0) {
        memcpy(fr, old_root, 32);
    } else {
        memcpy(fr, proof, 32);
        i = 1;
    }
    memcpy(sr, fr, 32);
    for (; i < count; ++i) {
        const unsigned char *c = proof + 32 * i;
        if (sn == 0)
            return 0;
        if ((fn & 1) || fn == sn) {
            libsha_pair_on(impl, fr, c, fr, NODE);
            libsha_pair_on(impl, sr, c, sr, NODE);
            SHIFT_TO_SET_BIT(fn, sn);
        } else {
            libsha_pair_on(impl, sr, sr, c, NODE);
        }
        fn >>= 1, sn >>= 1;
    }
    return sn == 0 && memcmp(fr, old_root, 32) == 0 && memcmp(sr, root, 32) == 0;
}
