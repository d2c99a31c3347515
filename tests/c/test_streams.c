/*
 * Many streams at once (libsha_sha256_update_many, _final_many, and the HMAC
 * form), on every implementation this CPU runs, against the one-shot (checked
 * against NIST by test_libsha): seeded random chunks of 0..5,000 bytes, whole
 * blocks and single blocks, streams of different lengths finishing in
 * different calls, streams fed in step (one chunk size, one place in the block), n from 1 to past the widest kernel's lanes and past the
 * call's internal groups, streams fed by libsha_sha256_update between two
 * calls, every split of one stream's 300 bytes over three calls; then the
 * contracts: NULLs, a context twice, overlaps, dead contexts, the length
 * limit, each refused with nothing changed.
 *
 *   test_streams [SEED]   (LIBSHA_TEST_SEED as well; the seed is printed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsha_dispatch.h"
#include "test_check.h"
#include "test_rng.h"

#define MAX_STREAMS 300
#define MAX_TOTAL 12000
static unsigned char pool[MAX_STREAMS * 64 + MAX_TOTAL];

/* A chunk size for a round: random bytes, whole blocks, one block, or nothing. */
static size_t chunk_size(unsigned mode)
{
    switch (mode % 5) {
    case 0:
        return (size_t)(rng_next() % 5001);
    case 1:
        return 64 * (size_t)(rng_next() % 65);
    case 2:
        return 64;
    case 3:
        return 0;
    default:
        return (size_t)(rng_next() % 200);
    }
}

/* n streams of random lengths, each fed from its own place in pool (unaligned), in
 * rounds: each round one update_many over the streams in a shuffled order, a
 * few streams fed by libsha_sha256_update instead; half finished by final_many. */
static void random_streams(const char *impl, size_t n)
{
    static libsha_sha256_ctx ctx[MAX_STREAMS];
    static size_t total[MAX_STREAMS], done[MAX_STREAMS], order[MAX_STREAMS];
    static const unsigned char *start[MAX_STREAMS];
    static unsigned char got[MAX_STREAMS * 32], expected[32];
    libsha_sha256_ctx *ctxs[MAX_STREAMS], *finals[MAX_STREAMS];
    const void *data[MAX_STREAMS];
    size_t lens[MAX_STREAMS], i, round, nfinal = 0;
    int ok = 1;

    for (i = 0; i < n; ++i) {
        libsha_sha256_init(&ctx[i]);
        total[i] = (size_t)(rng_next() % (MAX_TOTAL + 1));
        if (i % 4 == 1)
            total[i] -= total[i] % 64; /* whole blocks */
        start[i] = pool + 64 * i + (size_t)(rng_next() % 64);
        done[i] = 0;
        order[i] = i;
    }
    for (round = 0;; ++round) {
        size_t m = 0, left = 0;
        unsigned mode = (unsigned)(rng_next() % 5);
        for (i = n; i > 1; --i) { /* a new lane order each round */
            size_t j = (size_t)(rng_next() % i), t = order[i - 1];
            order[i - 1] = order[j], order[j] = t;
        }
        for (i = 0; i < n; ++i) {
            size_t s = order[i], len = chunk_size(mode + (unsigned)(s % 2));
            if (len > total[s] - done[s])
                len = total[s] - done[s];
            if ((s + round) % 7 == 0) { /* this one through the one-stream update this round */
                ok &= libsha_sha256_update(&ctx[s], start[s] + done[s], len) == LIBSHA_OK;
            } else {
                ctxs[m] = &ctx[s], data[m] = len == 0 && s % 3 == 0 ? NULL : start[s] + done[s], lens[m++] = len;
            }
            done[s] += len;
            left += total[s] - done[s];
        }
        ok &= libsha_sha256_update_many(ctxs, data, lens, m) == LIBSHA_OK;
        if (left == 0)
            break;
    }
    for (i = 0; i < n; ++i)
        if (i % 2 == 0)
            finals[nfinal++] = &ctx[i];
    ok &= libsha_sha256_final_many(got, finals, nfinal) == LIBSHA_OK;
    for (i = 0; i < n; ++i) {
        unsigned char one[32], *digest = i % 2 == 0 ? got + 32 * (i / 2) : one;
        if (i % 2 == 1)
            ok &= libsha_sha256_final(&ctx[i], one) == LIBSHA_OK;
        libsha_sha256(start[i], total[i], expected);
        ok &= memcmp(digest, expected, 32) == 0;
    }
    check(ok, impl, "random streams", n);
}

/* Every split of a 300-byte stream into three chunks, each call beside a
 * second stream of other bytes, in the other lane order every other time. */
static void every_split(const char *impl)
{
    const unsigned char *a = pool + 3, *b = pool + 4000;
    unsigned char want_a[32], want_b[32], got[64];
    size_t x, y;
    int ok = 1;
    libsha_sha256(a, 300, want_a);
    libsha_sha256(b, 700, want_b);
    for (x = 0; x <= 300; ++x)
        for (y = x; y <= 300; ++y) {
            libsha_sha256_ctx ca, cb, *pair[2];
            const void *data[2];
            size_t lens[2], cuts[4] = {0, x, y, 300}, k;
            libsha_sha256_init(&ca);
            libsha_sha256_init(&cb);
            for (k = 0; k < 3; ++k) {
                int flip = (x + y + k) % 2;
                pair[flip] = &ca, data[flip] = a + cuts[k], lens[flip] = cuts[k + 1] - cuts[k];
                pair[!flip] = &cb, data[!flip] = b + 233 * k, lens[!flip] = k < 2 ? 233 : 234;
                ok &= libsha_sha256_update_many(pair, data, lens, 2) == LIBSHA_OK;
            }
            pair[0] = &ca, pair[1] = &cb;
            ok &= libsha_sha256_final_many(got, pair, 2) == LIBSHA_OK;
            ok &= memcmp(got, want_a, 32) == 0 && memcmp(got + 32, want_b, 32) == 0;
        }
    check(ok, impl, "every split of 300 bytes", 300);
}

/* Streams fed in step (every chunk of a call the same size, every context at the same place in
 * its block), the common call: n of them, 1..33, each its own bytes, in chunks of 64, 128, 1000 and
 * 4,126 bytes after heads of 0, 10 and 64 bytes. */
static void same_shape_streams(const char *impl)
{
    static const size_t chunks[] = {64, 128, 1000, 4126}, heads[] = {0, 10, 64};
    libsha_sha256_ctx ctx[33], *ctxs[33];
    const void *data[33];
    size_t lens[33], n, c, h, i, r;
    unsigned char got[33 * 32], want[32];
    int ok = 1;
    for (n = 1; n <= 33; n += n < 4 ? 1 : 7)
        for (c = 0; c < 4; ++c)
            for (h = 0; h < 3; ++h) {
                size_t total = heads[h] + 3 * chunks[c];
                for (i = 0; i < n; ++i) {
                    libsha_sha256_init(&ctx[i]);
                    libsha_sha256_update(&ctx[i], pool + 97 * i, heads[h]);
                    ctxs[i] = &ctx[i];
                }
                for (r = 0; r < 3; ++r) {
                    for (i = 0; i < n; ++i)
                        data[i] = pool + 97 * i + heads[h] + r * chunks[c], lens[i] = chunks[c];
                    ok &= libsha_sha256_update_many(ctxs, data, lens, n) == LIBSHA_OK;
                }
                ok &= libsha_sha256_final_many(got, ctxs, n) == LIBSHA_OK;
                for (i = 0; i < n; ++i) {
                    libsha_sha256(pool + 97 * i, total, want);
                    ok &= memcmp(got + 32 * i, want, 32) == 0;
                }
            }
    check(ok, impl, "streams fed in step", 33);
}

/* HMAC streams against the one-shot, keys and messages of different lengths. */
static void hmac_streams(const char *impl)
{
    enum { N = 19 };
    libsha_hmac_sha256_ctx ctx[N], *ctxs[N];
    const void *data[N];
    size_t lens[N], i, k;
    int ok = 1;
    for (i = 0; i < N; ++i) {
        libsha_hmac_sha256_init(&ctx[i], pool + 9000 + i, 7 * i);
        ctxs[i] = &ctx[i];
    }
    for (k = 0; k < 3; ++k) {
        for (i = 0; i < N; ++i)
            data[i] = pool + 100 * i + 311 * k, lens[i] = (i * 157 + k * 61) % 900;
        ok &= libsha_hmac_sha256_update_many(ctxs, data, lens, N) == LIBSHA_OK;
    }
    for (i = 0; i < N; ++i) {
        unsigned char got[32], want[32], msg[3 * 900];
        size_t at = 0;
        for (k = 0; k < 3; ++k) {
            size_t len = (i * 157 + k * 61) % 900;
            memcpy(msg + at, pool + 100 * i + 311 * k, len);
            at += len;
        }
        libsha_hmac_sha256(pool + 9000 + i, 7 * i, msg, at, want);
        ok &= libsha_hmac_sha256_final(&ctx[i], got) == LIBSHA_OK && memcmp(got, want, 32) == 0;
    }
    check(ok, impl, "HMAC streams", N);
}

/* Each refusal leaves every context as it was, and final_many writes nothing. */
static void contracts(const char *impl)
{
    static libsha_sha256_ctx ctx[4], before[4], dead;
    static unsigned char raw[sizeof(libsha_sha256_ctx) * 3];
    libsha_sha256_ctx *ctxs[4] = {&ctx[0], &ctx[1], &ctx[2], &ctx[3]}, *twice[2] = {&ctx[0], &ctx[0]};
    libsha_sha256_ctx *shifted[2], *with_null[2] = {&ctx[0], NULL}, *with_dead[2] = {&ctx[0], &dead};
    const void *data[4] = {pool, pool + 100, pool + 200, pool + 300};
    const void *null_chunk[2] = {pool, NULL};
    size_t lens[4] = {100, 100, 100, 100}, i;
    unsigned char out[4 * 32 + 1];
    int ok;

    for (i = 0; i < 4; ++i) {
        libsha_sha256_init(&ctx[i]);
        libsha_sha256_update(&ctx[i], pool + 7 * i, 10 + 30 * i); /* some pending bytes */
    }
    libsha_sha256_init(&dead);
    libsha_sha256_final(&dead, out);
    memcpy(before, ctx, sizeof ctx);
    /* Two contexts that share bytes: one starts 8 bytes into the other. */
    shifted[0] = (libsha_sha256_ctx *)(void *)raw, shifted[1] = (libsha_sha256_ctx *)(void *)(raw + 8);
    libsha_sha256_init(shifted[1]);
    libsha_sha256_init(shifted[0]);

    ok = libsha_sha256_update_many(NULL, data, lens, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_update_many(ctxs, NULL, lens, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_update_many(ctxs, data, NULL, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_update_many(with_null, data, lens, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_update_many(ctxs, null_chunk, lens, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_update_many(twice, data, lens, 2) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_update_many(with_dead, data, lens, 2) == LIBSHA_ERR_STATE;
    ok &= libsha_sha256_update_many(NULL, NULL, NULL, 0) == LIBSHA_OK;
    check(ok, impl, "update_many: NULLs, a context twice, a dead one", 0);
    ok = libsha_sha256_update_many(shifted, data, lens, 2) == LIBSHA_ERR_ARGUMENT;
    check(ok, impl, "update_many: overlapping contexts", 0);
    { /* a chunk over a context, and the arrays over a context */
        const void *over[2] = {pool, (const unsigned char *)&ctx[1] + 5};
        size_t small[2] = {10, 3};
        libsha_sha256_ctx *self[1] = {&ctx[0]};
        ok = libsha_sha256_update_many(ctxs, over, small, 2) == LIBSHA_ERR_ARGUMENT;
        ok &= libsha_sha256_update_many(self, (const void *const *)(void *)&ctx[0], lens, 1) == LIBSHA_ERR_ARGUMENT;
        check(ok, impl, "update_many: a chunk or an array over a context", 0);
    }
    { /* a chunk that would wrap the address space, a stream past the limit */
        const void *high[1] = {(const void *)(~(uintptr_t)0 - 10)};
        size_t wrap[1] = {100};
        libsha_sha256_ctx *one[1] = {&ctx[3]};
        ok = libsha_sha256_update_many(one, high, wrap, 1) == LIBSHA_ERR_ARGUMENT;
        ctx[3].length = (((uint64_t)1) << 61) - 50;
        before[3].length = ctx[3].length;
        ok &= libsha_sha256_update_many(ctxs, data, lens, 4) == LIBSHA_ERR_TOO_LONG;
        check(ok, impl, "update_many: wrap and the length limit", 0);
    }
    check(memcmp(ctx, before, sizeof ctx) == 0, impl, "update_many refusals changed nothing", 0);

    memset(out, 0xa5, sizeof out);
    ok = libsha_sha256_final_many(NULL, ctxs, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_final_many(out, NULL, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_final_many(out, with_null, 2) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_final_many(out, twice, 2) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_final_many(out, with_dead, 2) == LIBSHA_ERR_STATE;
    ok &= libsha_sha256_final_many(out, shifted, 2) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_final_many((unsigned char *)&ctx[1] - 40, ctxs, 2) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_final_many((unsigned char *)ctxs, ctxs, 1) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_final_many(NULL, NULL, 0) == LIBSHA_OK;
    check(ok, impl, "final_many: NULLs, twice, dead, out over a context or ctxs", 0);
    for (i = 0; i < sizeof out && out[i] == 0xa5; ++i)
        ;
    check(i == sizeof out && memcmp(ctx, before, sizeof ctx) == 0, impl, "final_many refusals changed nothing", 0);
    { /* finished contexts are wiped and refused afterwards */
        libsha_sha256_ctx *first[2] = {&ctx[0], &ctx[1]};
        ok = libsha_sha256_final_many(out, first, 2) == LIBSHA_OK && out[64] == 0xa5;
        ok &= libsha_sha256_update_many(first, data, lens, 1) == LIBSHA_ERR_STATE;
        check(ok, impl, "final_many finishes and wipes", 0);
    }
}

int main(int argc, char **argv)
{
    unsigned long long seed = 20261201;
    static const size_t counts[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 33, 65, 257, MAX_STREAMS};
    const char *name;
    size_t i, k;
    int runnable;

    if (argc > 1)
        seed = strtoull(argv[1], NULL, 0);
    else if (getenv("LIBSHA_TEST_SEED") != NULL)
        seed = strtoull(getenv("LIBSHA_TEST_SEED"), NULL, 0);
    printf("streams: LIBSHA_TEST_SEED=%llu\n", seed);
    rng_state = seed | 1;
    for (i = 0; i < sizeof pool; ++i)
        pool[i] = (unsigned char)(rng_next() >> 56);
    for (i = 0; (name = libsha_implementation_at(i, &runnable)) != NULL; ++i) {
        long before = failed;
        if (!runnable)
            continue;
        if (libsha_select(name) != LIBSHA_OK) {
            check(0, name, "select", 0);
            continue;
        }
        for (k = 0; k < sizeof counts / sizeof counts[0]; ++k)
            random_streams(name, counts[k]);
        every_split(name);
        same_shape_streams(name);
        hmac_streams(name);
        contracts(name);
        printf("%s (%zu lanes): %s\n", name, libsha_sha256_lanes(), failed == before ? "ok" : "FAILED");
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0 || passed == 0;
}
