/* Timed loops for shabench, run natively so a foreign-function call per
 * iteration is not what gets measured. */
#include <string.h>

#include "bench.h"
#include "dispatch/cpu_features.h"
#include "dispatch/dispatch.h"
#include "kdf/kdf.h"
#include "many/many.h"
#include "one_message/one_message.h"
#include "trees/trees.h"
#include "sha256_impl.h"

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define CAN_DIRTY_UPPER 1
/* Leaves the upper half of a YMM register dirty, as AVX code that skipped
 * vzeroupper would. Written in asm so this file needs no -mavx (the assembler
 * knows the instruction; the compiler never sees a YMM register to clean up). */
static inline void dirty_upper_ymm(void)
{
    __asm__ __volatile__("vpcmpeqd %%ymm15, %%ymm15, %%ymm15" : : : "xmm15");
}
#else
#define CAN_DIRTY_UPPER 0
#endif

/* Writes the first min(len, 32) bytes of a digest of buf[0..len) back over buf,
 * so that each hash depends on the one before. */
static void feed_back(unsigned char *buf, size_t len, const unsigned char digest[32])
{
    memcpy(buf, digest, len < 32 ? len : 32);
}

/* A batch's first digest over its first message, up to 32 bytes: the next run hashes what this
 * one wrote. */
static void feed_back_first(const unsigned char *out, unsigned char *data, const int64_t *offsets, size_t n)
{
    if (n > 0 && offsets[1] > offsets[0])
        feed_back(data + offsets[0], (size_t)(offsets[1] - offsets[0]), out);
}

static void hash_feedback(const struct libsha_impl *impl, unsigned char *buf, size_t len)
{
    libsha_sha256_ctx ctx;
    libsha_enter(); /* as every public entry point does */
    libsha_stream_init(&ctx);
    libsha_stream_update(impl, &ctx, buf, len);
    if (len >= 32) {
        libsha_stream_final(impl, &ctx, buf); /* feeds back, as Bitcoin Core's SHA256_32b */
    } else {
        unsigned char digest[32];
        libsha_stream_final(impl, &ctx, digest);
        feed_back(buf, len, digest);
    }
}

static void stream_feedback(unsigned char *buf, size_t len)
{
    libsha_sha256_ctx ctx;
    unsigned char digest[32];
    libsha_sha256_init(&ctx);
    libsha_sha256_update(&ctx, buf, len);
    if (len >= 32) {
        libsha_sha256_final(&ctx, buf); /* as hash_feedback */
        return;
    }
    libsha_sha256_final(&ctx, digest);
    feed_back(buf, len, digest);
}

static void hmac_feedback(const struct libsha_impl *impl, unsigned char *buf, size_t len)
{
    static const unsigned char key[32] = "libsha benchmark key, 32 bytes.";
    unsigned char mac[32];
    libsha_enter(); /* as the public entry point does */
    libsha_hmac_run(impl, key, sizeof key, buf, len, mac);
    feed_back(buf, len, mac);
}

int libsha_internal_bench(const char *implementation, int op, unsigned char *buf, size_t len, uint64_t iterations)
{
    int err = LIBSHA_OK;
    const struct libsha_impl *impl = libsha_find(implementation, &err);
    uint64_t i;

    if (impl == NULL)
        return err;
    if (buf == NULL)
        return LIBSHA_ERR_NULL;
    switch (op) {
    case LIBSHA_INTERNAL_BENCH_HASH:
        for (i = 0; i < iterations; ++i)
            hash_feedback(impl, buf, len);
        return LIBSHA_OK;
    case LIBSHA_INTERNAL_BENCH_HASH_DIRTY_UPPER:
#if CAN_DIRTY_UPPER
        if (!(libsha_cpu_features() & LIBSHA_CPU_AVX))
            return LIBSHA_ERR_NOT_RUNNABLE;
        for (i = 0; i < iterations; ++i) {
            dirty_upper_ymm();
            hash_feedback(impl, buf, len);
        }
        return LIBSHA_OK;
#else
        return LIBSHA_ERR_NOT_RUNNABLE;
#endif
    case LIBSHA_INTERNAL_BENCH_STREAM:
        if (libsha_active() != impl)
            return LIBSHA_ERR_ARGUMENT;
        for (i = 0; i < iterations; ++i)
            stream_feedback(buf, len);
        return LIBSHA_OK;
    case LIBSHA_INTERNAL_BENCH_HMAC:
        for (i = 0; i < iterations; ++i)
            hmac_feedback(impl, buf, len);
        return LIBSHA_OK;
    case LIBSHA_INTERNAL_BENCH_MERKLE:
        if (len == 0 || len % 32 != 0)
            return LIBSHA_ERR_ARGUMENT;
        for (i = 0; i < iterations; ++i) {
            libsha_enter();
            libsha_merkle_run(impl, buf, buf, len / 32, NULL); /* the root feeds the next tree */
        }
        return LIBSHA_OK;
    case LIBSHA_INTERNAL_BENCH_D64:
        if (len == 0 || len % 64 != 0)
            return LIBSHA_ERR_ARGUMENT;
        for (i = 0; i < iterations; ++i) {
            libsha_enter();
            libsha_d64_on(impl, buf, buf, len / 64);
        }
        return LIBSHA_OK;
    default:
        return LIBSHA_ERR_ARGUMENT;
    }
}

/* One run of the many-streams loop (libsha_internal_bench_streams). */
static void streams_once(const struct libsha_impl *impl, int together, unsigned char *data, size_t stream_bytes,
                         size_t chunk, size_t n)
{
    libsha_sha256_ctx ctx[LIBSHA_INTERNAL_BENCH_MAX_STREAMS], *ctxs[LIBSHA_INTERNAL_BENCH_MAX_STREAMS];
    const void *chunks[LIBSHA_INTERNAL_BENCH_MAX_STREAMS];
    size_t lens[LIBSHA_INTERNAL_BENCH_MAX_STREAMS], at, i;
    unsigned char digests[LIBSHA_INTERNAL_BENCH_MAX_STREAMS][32];
    for (i = 0; i < n; ++i) {
        libsha_stream_init(&ctx[i]);
        ctxs[i] = &ctx[i];
    }
    for (at = 0; at < stream_bytes; at += chunk) {
        size_t len = stream_bytes - at < chunk ? stream_bytes - at : chunk;
        for (i = 0; i < n; ++i)
            chunks[i] = data + i * stream_bytes + at, lens[i] = len;
        if (together) {
            libsha_streams_update_on(impl, (void *const *)ctxs, sizeof ctx[0], 0, chunks, lens, n);
            continue;
        }
        for (i = 0; i < n; ++i) {
            libsha_enter(); /* as the public entry point does */
            libsha_stream_update(impl, &ctx[i], chunks[i], len);
        }
    }
    for (i = 0; i < n; ++i)
        libsha_stream_final(impl, &ctx[i], digests[i]);
    feed_back(data, stream_bytes, digests[0]);
}

int libsha_internal_bench_streams(const char *implementation, int together, unsigned char *data, size_t stream_bytes,
                                  size_t chunk, size_t n, uint64_t iterations)
{
    int err = LIBSHA_OK;
    const struct libsha_impl *impl = libsha_find(implementation, &err);
    uint64_t i;

    if (impl == NULL)
        return err;
    if (data == NULL)
        return LIBSHA_ERR_NULL;
    if (n == 0 || n > LIBSHA_INTERNAL_BENCH_MAX_STREAMS || chunk == 0)
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < iterations; ++i)
        streams_once(impl, together, data, stream_bytes, chunk, n);
    return LIBSHA_OK;
}

int libsha_internal_bench_peer(libsha_internal_peer_sha256_fn fn, unsigned char *buf, size_t len,
                               uint64_t iterations)
{
    uint64_t i;
    if (fn == NULL || buf == NULL)
        return LIBSHA_ERR_NULL;
    for (i = 0; i < iterations; ++i) {
        unsigned char digest[32];
        fn(buf, len, digest);
        feed_back(buf, len, digest);
    }
    return LIBSHA_OK;
}

int libsha_internal_bench_many(const char *implementation, unsigned char *out, unsigned char *data,
                               const int64_t *offsets, size_t n, unsigned flags, int start,
                               const unsigned char *start_bytes, size_t start_len, uint64_t iterations)
{
    int err = LIBSHA_OK;
    const struct libsha_impl *impl = libsha_find(implementation, &err);
    const libsha_batch batch = {.layout = LIBSHA_OFFSETS64, .n = n, .data = data, .offsets64 = offsets};
    libsha_sha256_ctx prefix;
    libsha_hmac_sha256_ctx hmac;
    uint64_t i;

    if (impl == NULL)
        return err;
    if (start == LIBSHA_INTERNAL_AFTER_PREFIX) {
        libsha_stream_init(&prefix);
        if ((err = libsha_stream_update(impl, &prefix, start_bytes, start_len)) != LIBSHA_OK)
            return err;
    } else if (start == LIBSHA_INTERNAL_UNDER_KEY) {
        if ((err = libsha_hmac_sha256_init(&hmac, start_bytes, start_len)) != LIBSHA_OK)
            return err;
    } else if (start != LIBSHA_INTERNAL_FROM_NOTHING) {
        return LIBSHA_ERR_ARGUMENT;
    }
    for (i = 0; i < iterations && err == LIBSHA_OK; ++i) {
        libsha_enter(); /* as the public entry point does */
        err = libsha_batch_on(impl, out, &batch, start == LIBSHA_INTERNAL_AFTER_PREFIX ? &prefix : NULL,
                              start == LIBSHA_INTERNAL_UNDER_KEY ? &hmac : NULL, flags);
        if (err == LIBSHA_OK)
            feed_back_first(out, data, offsets, n);
    }
    libsha_wipe_ctx(&prefix);
    libsha_hmac_sha256_wipe(&hmac);
    return err;
}

int libsha_internal_bench_peer_many(libsha_internal_peer_many_fn fn, void *peer, unsigned char *out,
                                    unsigned char *data, const int64_t *offsets, size_t n, uint64_t iterations)
{
    uint64_t i;
    if (fn == NULL || out == NULL || data == NULL || offsets == NULL)
        return LIBSHA_ERR_NULL;
    for (i = 0; i < iterations; ++i) {
        if (fn(peer, out, data, offsets, n) != 0)
            return LIBSHA_ERR_ARGUMENT;
        feed_back_first(out, data, offsets, n);
    }
    return LIBSHA_OK;
}

int libsha_internal_bench_pbkdf2(const char *implementation, unsigned char *out, size_t dklen, size_t n, int together,
                                 uint64_t rounds, uint64_t iterations)
{
    static const char salt[] = "libsha salt";
    char passwords[LIBSHA_INTERNAL_BENCH_MAX_KEYS][12];
    const void *pw[LIBSHA_INTERNAL_BENCH_MAX_KEYS], *salts[LIBSHA_INTERNAL_BENCH_MAX_KEYS];
    size_t pw_lens[LIBSHA_INTERNAL_BENCH_MAX_KEYS], salt_lens[LIBSHA_INTERNAL_BENCH_MAX_KEYS], k;
    int err = LIBSHA_OK;
    const struct libsha_impl *impl = libsha_find(implementation, &err);
    uint64_t i;

    if (impl == NULL)
        return err;
    if (n == 0 || n > LIBSHA_INTERNAL_BENCH_MAX_KEYS)
        return LIBSHA_ERR_ARGUMENT;
    for (k = 0; k < n; ++k) {
        memcpy(passwords[k], "password", 8);
        passwords[k][8] = (char)('0' + k / 10), passwords[k][9] = (char)('0' + k % 10);
        pw[k] = passwords[k], pw_lens[k] = 10, salts[k] = salt, salt_lens[k] = sizeof salt - 1;
    }
    for (i = 0; i < iterations && err == LIBSHA_OK; ++i) {
        libsha_enter(); /* as the public entry points do */
        if (together) {
            err = libsha_pbkdf2_on(impl, out, dklen, pw, pw_lens, salts, salt_lens, n, rounds);
            continue;
        }
        for (k = 0; k < n && err == LIBSHA_OK; ++k)
            err = libsha_pbkdf2_on(impl, out + k * dklen, dklen, &pw[k], &pw_lens[k], &salts[k], &salt_lens[k], 1,
                                   rounds);
    }
    return err;
}

int libsha_internal_bench_clock(uint64_t iterations)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
    uint64_t x = iterations;
    for (; iterations > 0; --iterations) {
#if defined(__x86_64__)
        __asm__ volatile("add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\t"
                         "add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0"
                         : "+r"(x));
#else
        __asm__ volatile("add %0, %0, %0\n\tadd %0, %0, %0\n\tadd %0, %0, %0\n\tadd %0, %0, %0\n\t"
                         "add %0, %0, %0\n\tadd %0, %0, %0\n\tadd %0, %0, %0\n\tadd %0, %0, %0"
                         : "+r"(x));
#endif
    }
    (void)x; /* volatile: each add runs, read or not */
    return LIBSHA_OK;
#else
    (void)iterations;
    return LIBSHA_ERR_NOT_RUNNABLE;
#endif
}

void libsha_internal_set_wide_window(unsigned wide_from, unsigned wide_to)
{
    libsha_cpu_set_test_window(wide_from, wide_to);
}
