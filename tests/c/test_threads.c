/*
 * Threads hash (streaming, one-shot, SHA256D64, many streams at once on
 * contexts each thread owns, and each its own part of one many-message batch
 * into one shared output, as sha256_many(threads=) splits a batch) and compare with digests computed beforehand, while other threads
 * switch the implementation with
 * libsha_select and libsha_autodetect as fast as they can. Built with
 * -fsanitize=thread by tools/sanitize.sh: zero reports, zero wrong digests.
 *
 *   test_threads [ROUNDS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern251.h"

#include "libsha_dispatch.h"

#define HASHERS 3
#define SWITCHERS 2
#define BLOBS 37
static const size_t lengths[] = {0, 1, 31, 55, 56, 63, 64, 65, 127, 200, 1000, 4099};
#define NLEN (sizeof lengths / sizeof lengths[0])

static unsigned char data[4160], expected[NLEN][32], expected_d64[32 * BLOBS]; /* data: the longest message */
/* The shared batch: PART messages per hasher, message j of length lengths[j % NLEN]. */
#define PART 24
static const void *batch_msgs[HASHERS * PART];
static size_t batch_lens[HASHERS * PART];
static unsigned char batch_out[HASHERS * PART * 32];
static long rounds = 2000;
static long hasher_wrong[HASHERS];
static volatile int stop;

static void *hasher(void *arg)
{
    long *wrong = arg, r;
    size_t part = (size_t)(wrong - hasher_wrong), first = part * PART;
    unsigned char out[32 * BLOBS];
    for (r = 0; r < rounds; ++r) {
        size_t i;
        libsha_sha256_many(batch_out + 32 * first, batch_msgs + first, batch_lens + first, PART, 0);
        for (i = first; i < first + PART; ++i)
            *wrong += memcmp(batch_out + 32 * i, expected[i % NLEN], 32) != 0;
        for (i = 0; i < NLEN; ++i) {
            libsha_sha256_ctx ctx;
            unsigned char digest[32];
            size_t cut = lengths[i] / 3;
            libsha_sha256_init(&ctx);
            libsha_sha256_update(&ctx, data, cut);
            libsha_sha256_update(&ctx, data + cut, lengths[i] - cut);
            libsha_sha256_final(&ctx, digest);
            *wrong += memcmp(digest, expected[i], 32) != 0;
            libsha_sha256(data, lengths[i], digest);
            *wrong += memcmp(digest, expected[i], 32) != 0;
        }
        libsha_sha256d64(out, data, BLOBS);
        *wrong += memcmp(out, expected_d64, sizeof out) != 0;
        { /* many streams at once: this thread's own contexts, each fed in two chunks */
            libsha_sha256_ctx ctx[NLEN], *ctxs[NLEN];
            const void *chunks[NLEN];
            size_t lens[NLEN], k;
            for (k = 0; k < NLEN; ++k) {
                libsha_sha256_init(&ctx[k]);
                ctxs[k] = &ctx[k], chunks[k] = data, lens[k] = lengths[k] / 3;
            }
            libsha_sha256_update_many(ctxs, chunks, lens, NLEN);
            for (k = 0; k < NLEN; ++k)
                chunks[k] = data + lengths[k] / 3, lens[k] = lengths[k] - lengths[k] / 3;
            libsha_sha256_update_many(ctxs, chunks, lens, NLEN);
            libsha_sha256_final_many(out, ctxs, NLEN);
            for (k = 0; k < NLEN; ++k)
                *wrong += memcmp(out + 32 * k, expected[k], 32) != 0;
        }
    }
    return NULL;
}

static void *switcher(void *arg)
{
    long *switches = arg;
    size_t n = 0, i = 0;
    int runnable;
    while (libsha_implementation_at(n, NULL) != NULL)
        ++n;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        const char *name = libsha_implementation_at(i++ % n, &runnable);
        if (runnable)
            libsha_select(name);
        else
            libsha_autodetect(LIBSHA_USE_ALL);
        ++*switches;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t hashers[HASHERS], switchers[SWITCHERS];
    long *wrong = hasher_wrong, switches[SWITCHERS] = {0}, total_wrong = 0, total_switches = 0;
    size_t i;

    if (argc > 1)
        rounds = atol(argv[1]);
    pattern251(data, sizeof data, 1, 7);
    libsha_select("standard");
    for (i = 0; i < NLEN; ++i)
        libsha_sha256(data, lengths[i], expected[i]);
    libsha_sha256d64(expected_d64, data, BLOBS);
    for (i = 0; i < HASHERS * PART; ++i)
        batch_msgs[i] = data, batch_lens[i] = lengths[i % NLEN];

    for (i = 0; i < SWITCHERS; ++i)
        pthread_create(&switchers[i], NULL, switcher, &switches[i]);
    for (i = 0; i < HASHERS; ++i)
        pthread_create(&hashers[i], NULL, hasher, &wrong[i]);
    for (i = 0; i < HASHERS; ++i) {
        pthread_join(hashers[i], NULL);
        total_wrong += wrong[i];
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < SWITCHERS; ++i) {
        pthread_join(switchers[i], NULL);
        total_switches += switches[i];
    }
    printf("%ld digests checked by %d threads during %ld switches\n",
           (long)HASHERS * rounds * (3 * (long)NLEN + 1 + PART), HASHERS, total_switches);
    printf("%ld passed, %ld failed\n", (long)HASHERS * rounds * (3 * (long)NLEN + 1 + PART) - total_wrong,
           total_wrong);
    return total_wrong != 0;
}
