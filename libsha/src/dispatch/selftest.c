/* Known-answer test run before an implementation is installed, as Bitcoin
 * Core's SelfTest(): a miscompiled or mis-detected kernel is never used. It
 * covers every kernel a row fills: the transform, finalize, each D64 width,
 * each many-message, last-block and whole-message width, and each PBKDF2
 * chain width (against the row's own transform, itself checked first). */
#include <string.h>

#include "dispatch/selftest.h"
#include "fips180.h"
#include "sha256_impl.h"
#include "selftest_vectors.h"

_Static_assert(sizeof selftest_d64 >= LIBSHA_MAX_LANES * 32, "known D64 answers for the widest kernel");
_Static_assert(sizeof selftest_states / sizeof selftest_states[0] >= LIBSHA_MAX_LANES, "a start state per lane");
_Static_assert(sizeof selftest_input >= 32 * (LIBSHA_MAX_LANES - 1) + 128, "two blocks per lane");
_Static_assert(sizeof selftest_input >= 57 * (LIBSHA_MAX_LANES - 1) + 56, "a tail per lane");
_Static_assert(sizeof selftest_input >= 5 * (LIBSHA_MAX_LANES - 1) + 168, "a whole message per lane");
_Static_assert(sizeof selftest_input >= 44 * (LIBSHA_MAX_LANES - 1) + 128, "a chain per lane");

/* A finalize function against the transform (checked first) with the padding
 * in memory, for tails that end in every 16-byte vector and that need a
 * second block: what the message then hashes to must not depend on the path. */
static int finalize_matches(const struct libsha_impl *impl)
{
    static const size_t tails[] = {0, 1, 15, 16, 31, 32, 47, 48, 55, 56, 63};
    size_t i;

    for (i = 0; i < sizeof tails / sizeof tails[0]; ++i) {
        size_t used = tails[i];
        uint64_t bits = (uint64_t)(64 + used) * 8; /* one whole block before the tail */
        uint32_t fast[8], slow[8];
        unsigned char pending[64], last[128], out[32], expected[32];

        memcpy(pending, selftest_input + 64, sizeof pending);
        memcpy(fast, selftest_states[1], sizeof fast);
        memcpy(slow, selftest_states[1], sizeof slow);
        impl->finalize(fast, pending, used, bits, out);
        memset(last, 0, sizeof last);
        memcpy(last, pending, used);
        last[used] = 0x80;
        libsha_store_be64(last + (used < 56 ? 56 : 120), bits);
        impl->transform(slow, last, used < 56 ? 1 : 2);
        libsha_store_digest(expected, slow);
        if (memcmp(out, expected, 32) != 0)
            return 0;
    }
    return 1;
}

/* A many-message kernel against the transform (checked first): lane l starts
 * from its own state and reads two blocks at its own offset, so a kernel that
 * mixed up lanes, or dropped the second block, gives some lane a wrong state. */
/* One PBKDF2 chain `count` iterations further on the row's transform: the
 * definition the chain kernels are held to. */
static void chain_by_transform(const struct libsha_impl *impl, struct libsha_chain *c, uint64_t count)
{
    unsigned char block[64];
    uint32_t s[8];
    int i;

    memset(block + 32, 0, 32);
    block[32] = 0x80;
    libsha_store_be64(block + 56, (64 + 32) * 8);
    for (; count > 0; --count) {
        for (i = 0; i < 8; ++i)
            libsha_store_be32(block + 4 * i, c->u[i]);
        memcpy(s, c->inner, sizeof s);
        impl->transform(s, block, 1);
        for (i = 0; i < 8; ++i)
            libsha_store_be32(block + 4 * i, s[i]);
        memcpy(s, c->outer, sizeof s);
        impl->transform(s, block, 1);
        for (i = 0; i < 8; ++i)
            c->u[i] = s[i], c->t[i] ^= s[i];
    }
}

/* Lane `lane`'s chain: its states, U and T from the input's words, 11 words further each lane. */
static void chain_from_input(struct libsha_chain *c, size_t lane)
{
    const unsigned char *p = selftest_input + 44 * lane;
    int i;
    for (i = 0; i < 8; ++i) {
        c->inner[i] = libsha_load_be32(p + 4 * i), c->outer[i] = libsha_load_be32(p + 32 + 4 * i);
        c->u[i] = libsha_load_be32(p + 64 + 4 * i), c->t[i] = libsha_load_be32(p + 96 + 4 * i);
    }
}

/* PBKDF2's chain kernel of `width` lanes, each lane's states, U and T words of its own, a few
 * iterations, against the transform. */
static int chains_match(const struct libsha_impl *impl, size_t width)
{
    struct libsha_chain got[LIBSHA_MAX_LANES], want;
    struct libsha_chain *lanes[LIBSHA_MAX_LANES];
    size_t lane;

    for (lane = 0; lane < width; ++lane) {
        chain_from_input(&got[lane], lane);
        lanes[lane] = &got[lane];
    }
    impl->chains[width](lanes, 3);
    for (lane = 0; lane < width; ++lane) {
        chain_from_input(&want, lane);
        chain_by_transform(impl, &want, 3);
        if (memcmp(got[lane].u, want.u, 32) != 0 || memcmp(got[lane].t, want.t, 32) != 0)
            return 0;
    }
    return 1;
}

static int many_matches(const struct libsha_impl *impl, size_t width)
{
    uint32_t got[LIBSHA_MAX_LANES][8], expected[8];
    uint32_t *states[LIBSHA_MAX_LANES];
    const unsigned char *blocks[LIBSHA_MAX_LANES];
    size_t lane;

    for (lane = 0; lane < width; ++lane) {
        memcpy(got[lane], selftest_states[lane], sizeof got[lane]);
        states[lane] = got[lane];
        blocks[lane] = selftest_input + 32 * lane;
    }
    impl->many[width](states, blocks, 2);
    for (lane = 0; lane < width; ++lane) {
        memcpy(expected, selftest_states[lane], sizeof expected);
        impl->transform(expected, blocks[lane], 2);
        if (memcmp(got[lane], expected, sizeof expected) != 0)
            return 0;
    }
    return 1;
}

/* How a message ends, by the transform with the padding in memory: state is
 * after its full blocks, rest its last len (< 56) bytes, bits its length;
 * with LIBSHA_DOUBLE the outer hash too. */
static void finish_by_transform(const struct libsha_impl *impl, uint32_t state[8], const unsigned char *rest,
                                size_t len, uint64_t bits, unsigned flags, unsigned char digest[32])
{
    unsigned char block[64];
    memset(block, 0, sizeof block);
    memcpy(block, rest, len);
    block[len] = 0x80;
    libsha_store_be64(block + 56, bits);
    impl->transform(state, block, 1);
    libsha_store_digest(digest, state);
    if (flags & LIBSHA_DOUBLE) {
        memset(block, 0, sizeof block);
        memcpy(block, digest, 32);
        block[32] = 0x80;
        libsha_store_be64(block + 56, 256);
        memcpy(state, LIBSHA_H0, 8 * sizeof state[0]);
        impl->transform(state, block, 1);
        libsha_store_digest(digest, state);
    }
}

/* A many_last kernel against the transform, padding in memory: lanes with
 * their own states, tails of their own lengths (in every 16-byte vector) and
 * bytes, with and without LIBSHA_DOUBLE. */
static int many_last_matches(const struct libsha_impl *impl, size_t width)
{
    uint32_t got[LIBSHA_MAX_LANES][8];
    uint32_t *states[LIBSHA_MAX_LANES];
    struct libsha_tail tails[LIBSHA_MAX_LANES];
    unsigned char digests[LIBSHA_MAX_LANES][32], *out[LIBSHA_MAX_LANES];
    unsigned flags, round;
    size_t lane;

    /* Rounds 0 and 1: tails of every lane's own length; 2 and 3: 64-byte
     * messages (a kernel may take their padding block from a table). */
    for (round = 0; round < 4; ++round) {
        flags = round & 1 ? LIBSHA_DOUBLE : 0;
        for (lane = 0; lane < width; ++lane) {
            memcpy(got[lane], selftest_states[lane], sizeof got[lane]);
            states[lane] = got[lane];
            tails[lane].before = round < 2 ? 57 * lane : 64;
            tails[lane].rest = selftest_input + (round < 2 ? tails[lane].before : 64 + 57 * lane);
            tails[lane].len = round < 2 ? (lane * 13 + 7 + 7 * flags) % 56 : 0;
            tails[lane].bits = (uint64_t)(tails[lane].before + tails[lane].len) * 8;
            tails[lane].kw = NULL;
            tails[lane].outer = NULL;
            out[lane] = digests[lane];
        }
        impl->many_last[width](states, tails, out, flags);
        for (lane = 0; lane < width; ++lane) {
            uint32_t expected[8];
            unsigned char digest[32];
            memcpy(expected, selftest_states[lane], sizeof expected);
            finish_by_transform(impl, expected, tails[lane].rest, tails[lane].len, tails[lane].bits, flags, digest);
            if (memcmp(digests[lane], digest, 32) != 0)
                return 0;
        }
    }
    return 1;
}

/* A many_whole kernel against the transform: lanes with their own bytes, of
 * lengths with no full block, one, and two, tails in every 16-byte vector or
 * none (the padding block from its K + W table), with and without
 * LIBSHA_DOUBLE, in two sets of lanes (set 1 starting where set 0's last
 * lane would be next). */
static int many_whole_matches(const struct libsha_impl *impl, size_t width)
{
    static const size_t lengths[] = {0, 13, 55, 64, 64 + 31, 128, 128 + 40};
    const unsigned char *msgs[LIBSHA_MAX_LANES];
    unsigned char digests[2 * LIBSHA_MAX_LANES][32], *out[LIBSHA_MAX_LANES];
    uint32_t kw[64];
    size_t i, lane;

    for (i = 0; i < 2 * sizeof lengths / sizeof lengths[0]; ++i) {
        size_t len = lengths[i / 2];
        unsigned flags = i & 1 ? LIBSHA_DOUBLE : 0;
        for (lane = 0; lane < width; ++lane) {
            msgs[lane] = selftest_input + 5 * lane;
            out[lane] = digests[lane];
        }
        libsha_length_block_kw((uint64_t)len * 8, kw);
        impl->many_whole[width](msgs, len, out, flags, NULL, len % 64 == 0 ? kw : NULL, 2, 5 * width);
        for (lane = 0; lane < 2 * width; ++lane) { /* message `lane` is at 5 * lane, its digest digests[lane] */
            uint32_t expected[8];
            unsigned char digest[32];
            memcpy(expected, LIBSHA_H0, sizeof expected);
            impl->transform(expected, selftest_input + 5 * lane, len / 64);
            finish_by_transform(impl, expected, selftest_input + 5 * lane + len / 64 * 64, len % 64,
                                (uint64_t)len * 8, flags, digest);
            if (memcmp(digests[lane], digest, 32) != 0)
                return 0;
        }
    }
    return 1;
}

int libsha_selftest(const struct libsha_impl *impl)
{
    size_t blocks, width;

    /* 0 to 16 blocks: odd and even counts for transforms that take blocks in
     * pairs, and loops inside multi-block transforms. */
    for (blocks = 0; blocks <= 16; ++blocks) {
        uint32_t state[8];
        memcpy(state, LIBSHA_H0, sizeof state);
        impl->transform(state, selftest_input, blocks);
        if (memcmp(state, selftest_states[blocks], sizeof state) != 0)
            return -1;
    }
    if (impl->finalize != NULL && !finalize_matches(impl))
        return -1;
    if (impl->d64[1] == NULL)
        return -1;
    for (width = 1; width <= LIBSHA_MAX_LANES; ++width) {
        unsigned char out[LIBSHA_MAX_LANES * 32];
        if (impl->d64[width] == NULL)
            continue;
        impl->d64[width](out, selftest_input);
        if (memcmp(out, selftest_d64, width * 32) != 0)
            return -1;
    }
    if (impl->chains[1] == NULL)
        return -1;
    for (width = 1; width <= LIBSHA_MAX_LANES; ++width)
        if (impl->chains[width] != NULL && !chains_match(impl, width))
            return -1;
    for (width = 2; width <= LIBSHA_MAX_LANES; ++width)
        if ((impl->many[width] != NULL && !many_matches(impl, width))
            || (impl->many_last[width] != NULL && !many_last_matches(impl, width))
            || (impl->many_whole[width] != NULL && !many_whole_matches(impl, width)))
            return -1;
    return 0;
}
