/*
 * libsha's C tests, against every implementation this CPU runs. Every row: the NIST CAVP short
 * and long messages (one-shot and streamed), every length 0..300 one-shot, HMAC-SHA256 (RFC 4231
 * and the API's contracts). The exhaustive sweeps run once per
 * kernel they exercise (a row's name lists its kernels: kernel_sets.h), on the first row naming it:
 * the one-stream sweeps (every split point of 0..300, pieces of 1..65 bytes, every length
 * 0..1100 whole and after a buffered head) per one-way kernel; SHA256D64 of 0..40 blobs in place
 * and not, and the Bitcoin Merkle root against a level-by-level model, with either; many
 * messages at once (every length in every lane position, batches of one length, random batches:
 * LIBSHA_TEST_SEED picks the seed, printed; and the API's contracts) and files, per set of lane
 * kernels.
 * Also a model of the C API in use. Runs where Python cannot (qemu, wine).
 *
 *   test_libsha VECTOR_DIR [--expect IMPLEMENTATION]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batches.h"
#include "kernel_sets.h"
#include "pattern251.h"
#include "test_rng.h"
#include "libsha_dispatch.h"

#define MAX_MESSAGE 8192

static int passed, failed;

static void check(int ok, const char *impl, const char *what, size_t n)
{
    if (ok) {
        ++passed;
    } else {
        ++failed;
        if (failed <= 20)
            printf("FAIL %s: %s (%zu)\n", impl, what, n);
    }
}

static int hexval(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static size_t unhex(const char *hex, unsigned char *out, size_t max)
{
    size_t n = 0;
    while (hex[0] && hex[1] && hex[0] != '\n' && hex[0] != '\r' && n < max) {
        out[n++] = (unsigned char)(hexval(hex[0]) << 4 | hexval(hex[1]));
        hex += 2;
    }
    return n;
}

/* Checks every (Len, Msg, MD) record of a CAVP .rsp file; returns how many. */
static int nist_file(const char *dir, const char *name, const char *impl)
{
    char path[1024], line[2 * MAX_MESSAGE + 64];
    static unsigned char msg[MAX_MESSAGE];
    unsigned char md[32], out[32];
    size_t bits = 0, len = 0;
    int records = 0;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((f = fopen(path, "r")) == NULL) {
        printf("FAIL cannot open %s\n", path);
        ++failed;
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Len = ", 6) == 0) {
            bits = strtoul(line + 6, NULL, 10);
        } else if (strncmp(line, "Msg = ", 6) == 0) {
            len = unhex(line + 6, msg, sizeof msg);
            if (len > bits / 8)
                len = bits / 8; /* Len = 0 still carries Msg = 00 */
        } else if (strncmp(line, "MD = ", 5) == 0) {
            libsha_sha256_ctx ctx;
            size_t i;
            unhex(line + 5, md, sizeof md);
            check(libsha_sha256(msg, len, out) == LIBSHA_OK && memcmp(out, md, 32) == 0, impl, name, len);
            libsha_sha256_init(&ctx);
            for (i = 0; i < len; i += 37)
                libsha_sha256_update(&ctx, msg + i, len - i < 37 ? len - i : 37);
            check(libsha_sha256_final(&ctx, out) == LIBSHA_OK && memcmp(out, md, 32) == 0, impl, name, len);
            ++records;
        }
    }
    fclose(f);
    return records;
}

/* RFC 4231's HMAC-SHA-256 cases (Key, Data, Mac lines); each through the
 * one-shot call, and streamed split at every point of the message, with a
 * copy of the context finished mid-stream. Returns how many cases. */
static int hmac_file(const char *dir, const char *impl)
{
    char path[1024], line[1024];
    unsigned char key[256], msg[256], mac[32], out[32];
    size_t keylen = 0, msglen = 0, maclen, k;
    int cases = 0;
    FILE *f;

    snprintf(path, sizeof path, "%s/HMAC_SHA256_RFC4231.txt", dir);
    if ((f = fopen(path, "r")) == NULL) {
        printf("FAIL cannot open %s\n", path);
        ++failed;
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Key = ", 6) == 0) {
            keylen = unhex(line + 6, key, sizeof key);
        } else if (strncmp(line, "Data = ", 7) == 0) {
            msglen = unhex(line + 7, msg, sizeof msg);
        } else if (strncmp(line, "Mac = ", 6) == 0) {
            int all_ok = 1;
            maclen = unhex(line + 6, mac, sizeof mac); /* case 5: 16 bytes */
            memset(out, 0, sizeof out);
            check(libsha_hmac_sha256(key, keylen, msg, msglen, out) == LIBSHA_OK && memcmp(out, mac, maclen) == 0,
                  impl, "HMAC RFC 4231 one-shot, key length", keylen);
            for (k = 0; k <= msglen; ++k) {
                libsha_hmac_sha256_ctx ctx, copy;
                all_ok &= libsha_hmac_sha256_init(&ctx, key, keylen) == LIBSHA_OK;
                all_ok &= libsha_hmac_sha256_update(&ctx, msg, k) == LIBSHA_OK;
                copy = ctx; /* a fork, finished first: the original goes on unharmed */
                all_ok &= libsha_hmac_sha256_update(&copy, msg + k, msglen - k) == LIBSHA_OK;
                all_ok &= libsha_hmac_sha256_final(&copy, out) == LIBSHA_OK && memcmp(out, mac, maclen) == 0;
                all_ok &= libsha_hmac_sha256_update(&ctx, msg + k, msglen - k) == LIBSHA_OK;
                all_ok &= libsha_hmac_sha256_final(&ctx, out) == LIBSHA_OK && memcmp(out, mac, maclen) == 0;
                /* final wiped it: refused from now on, and out is left alone */
                memset(out, 0x5a, sizeof out);
                all_ok &= libsha_hmac_sha256_update(&ctx, msg, 1) == LIBSHA_ERR_STATE;
                all_ok &= libsha_hmac_sha256_final(&ctx, out) == LIBSHA_ERR_STATE && out[0] == 0x5a && out[31] == 0x5a;
            }
            check(all_ok, impl, "HMAC RFC 4231 streamed at every split, key length", keylen);
            ++cases;
        }
    }
    fclose(f);
    return cases;
}

/* The HMAC API's contracts: NULL with length 0 is the empty key or message;
 * NULL with a length, or a NULL context or output, is refused and writes nothing. */
static void hmac_contracts(const char *impl)
{
    unsigned char out[32], expected[32], fill[32];
    libsha_hmac_sha256_ctx ctx, untouched;
    const unsigned char empty[1] = {0};

    memset(fill, 0x5a, sizeof fill);
    check(libsha_hmac_sha256(empty, 0, empty, 0, expected) == LIBSHA_OK, impl, "HMAC empty key and message", 0);
    check(libsha_hmac_sha256(NULL, 0, NULL, 0, out) == LIBSHA_OK && memcmp(out, expected, 32) == 0, impl,
          "HMAC NULL key and message of length 0", 0);
    check(libsha_hmac_sha256_init(&ctx, NULL, 0) == LIBSHA_OK && libsha_hmac_sha256_update(&ctx, NULL, 0) == LIBSHA_OK
              && libsha_hmac_sha256_final(&ctx, out) == LIBSHA_OK && memcmp(out, expected, 32) == 0,
          impl, "HMAC streaming, NULL of length 0", 0);
    memcpy(out, fill, 32);
    check(libsha_hmac_sha256(NULL, 1, empty, 0, out) == LIBSHA_ERR_NULL && memcmp(out, fill, 32) == 0, impl,
          "HMAC NULL key with a length", 1);
    check(libsha_hmac_sha256(empty, 0, NULL, 1, out) == LIBSHA_ERR_NULL && memcmp(out, fill, 32) == 0, impl,
          "HMAC NULL message with a length", 1);
    check(libsha_hmac_sha256(empty, 0, empty, 0, NULL) == LIBSHA_ERR_NULL, impl, "HMAC NULL output", 0);
    memset(&ctx, 0x77, sizeof ctx);
    untouched = ctx;
    check(libsha_hmac_sha256_init(&ctx, NULL, 5) == LIBSHA_ERR_NULL && memcmp(&ctx, &untouched, sizeof ctx) == 0,
          impl, "HMAC init with a NULL key of length 5 leaves ctx alone", 5);
    check(libsha_hmac_sha256_init(NULL, empty, 0) == LIBSHA_ERR_NULL, impl, "HMAC init NULL ctx", 0);
    check(libsha_hmac_sha256_update(&ctx, empty, 1) == LIBSHA_ERR_STATE, impl, "HMAC update before init", 0);
    check(libsha_hmac_sha256_update(NULL, empty, 1) == LIBSHA_ERR_NULL, impl, "HMAC update NULL ctx", 0);
    libsha_hmac_sha256_init(&ctx, empty, 0);
    check(libsha_hmac_sha256_update(&ctx, NULL, 3) == LIBSHA_ERR_NULL, impl, "HMAC update NULL data with a length", 3);
    check(libsha_hmac_sha256_final(&ctx, NULL) == LIBSHA_ERR_NULL, impl, "HMAC final NULL output", 0);
    check(libsha_hmac_sha256_final(NULL, out) == LIBSHA_ERR_NULL, impl, "HMAC final NULL ctx", 0);
    libsha_hmac_sha256_wipe(&ctx);
    memset(&untouched, 0, sizeof untouched);
    check(memcmp(&ctx, &untouched, sizeof ctx) == 0, impl, "HMAC wipe zeroes the context", 0);
    check(libsha_hmac_sha256_final(&ctx, out) == LIBSHA_ERR_STATE, impl, "HMAC final after wipe", 0);
    libsha_hmac_sha256_wipe(NULL);
    check(libsha_hmac_sha256_ctx_size() == sizeof(libsha_hmac_sha256_ctx), impl, "HMAC ctx size", 0);
}

/* Bitcoin Core's ComputeMerkleRoot, level by level on a copy, with
 * libsha_sha256d64 (itself checked above): the plain model of the tree. */
static void merkle_model(const unsigned char *leaves, size_t n, unsigned char out[32], int *mutated)
{
    unsigned char *level = malloc(32 * (n + 1) + 1);
    size_t pos;
    *mutated = 0;
    memcpy(level, leaves, 32 * n);
    if (n == 0)
        memset(level, 0, 32);
    while (n > 1) {
        for (pos = 0; pos + 1 < n; pos += 2)
            *mutated |= memcmp(level + 32 * pos, level + 32 * pos + 32, 32) == 0;
        if (n & 1)
            memcpy(level + 32 * n, level + 32 * (n - 1), 32), ++n;
        libsha_sha256d64(level, level, n / 2);
        n /= 2;
    }
    memcpy(out, level, 32);
    free(level);
}

/* The Merkle root of every count 0..600 leaves (two of the C code's 256-leaf chunks), then around
 * the fourth and 1,100, with each count's last leaf repeated too (CVE-2012-2459), and the contracts. */
#define MERKLE_LEAVES 1100
static void merkle(const char *impl)
{
    static unsigned char leaves[32 * (MERKLE_LEAVES + 2)];
    static const size_t beyond[] = {1023, 1024, 1025, MERKLE_LEAVES};
    unsigned char got[32], expected[32], fill[32];
    size_t c, n, i;
    int all_ok = 1, mutated, want;

    pattern251(leaves, sizeof leaves, 3, 29);
    for (c = 0; c < 601 + sizeof beyond / sizeof beyond[0]; ++c) {
        n = c <= 600 ? c : beyond[c - 601];
        merkle_model(leaves, n, expected, &want);
        all_ok &= libsha_merkle_root(got, leaves, n, &mutated) == LIBSHA_OK && memcmp(got, expected, 32) == 0
                  && mutated == want && !want;
        if (n % 2 == 1 && n > 1) { /* the last leaf twice: same root, flagged (one leaf is its own root) */
            memcpy(leaves + 32 * n, leaves + 32 * (n - 1), 32);
            all_ok &= libsha_merkle_root(got, leaves, n + 1, &mutated) == LIBSHA_OK
                      && memcmp(got, expected, 32) == 0 && mutated == 1;
            pattern251(leaves + 32 * n, 32, 32 * n * 29 + 3, 29);
        }
    }
    check(all_ok, impl, "merkle root of every leaf count", MERKLE_LEAVES);
    memset(fill, 0x5a, sizeof fill);
    memcpy(got, fill, 32);
    mutated = 7;
    check(libsha_merkle_root(got, NULL, 1, &mutated) == LIBSHA_ERR_NULL && memcmp(got, fill, 32) == 0 && mutated == 7,
          impl, "merkle NULL leaves refused, nothing written", 0);
    check(libsha_merkle_root(NULL, leaves, 1, &mutated) == LIBSHA_ERR_NULL, impl, "merkle NULL out", 0);
    check(libsha_merkle_root(got, leaves, (size_t)-1 / 16, &mutated) == LIBSHA_ERR_ARGUMENT && mutated == 7, impl,
          "merkle n * 32 overflow refused", 0);
    check(libsha_merkle_root(got, NULL, 0, NULL) == LIBSHA_OK && got[0] == 0 && got[31] == 0, impl,
          "merkle of no leaves is zeros", 0);
}


/* The digest of one message the plain way (one-shot, checked above), or of
 * its digest with LIBSHA_DOUBLE. */
static void one_digest(const unsigned char *msg, size_t len, unsigned flags, unsigned char out[32])
{
    libsha_sha256(msg, len, out);
    if (flags & LIBSHA_DOUBLE)
        libsha_sha256(out, 32, out);
}

#define MANY_MAX 48
#define MANY_POOL (MANY_MAX * 10241 + 64)

/* One batch three ways: pointers and lengths (each message at its own place
 * in pool), and both offsets forms over the messages laid end to end after a
 * non-zero first offset (a sliced Arrow array), against one_digest. */
static int many_batch(const unsigned char *pool, const size_t *starts, const size_t *lens, size_t n,
                      unsigned flags)
{
    static unsigned char joined[MANY_POOL + 7], got[MANY_MAX * 32 + 1], expected[MANY_MAX * 32];
    const void *msgs[MANY_MAX];
    int32_t off32[MANY_MAX + 1];
    int64_t off64[MANY_MAX + 1];
    size_t i, at = 7;
    int ok = 1;

    for (i = 0; i < n; ++i) {
        msgs[i] = lens[i] == 0 && i % 3 == 0 ? NULL : pool + starts[i]; /* NULL is the empty message */
        one_digest(pool + starts[i], lens[i], flags, expected + 32 * i);
        off32[i] = (int32_t)at, off64[i] = (int64_t)at;
        memcpy(joined + at, pool + starts[i], lens[i]);
        at += lens[i];
    }
    off32[n] = (int32_t)at, off64[n] = (int64_t)at;
    got[32 * n] = 0xa5;
    ok &= libsha_sha256_many(got, msgs, lens, n, flags) == LIBSHA_OK && memcmp(got, expected, 32 * n) == 0;
    memset(got, 0, 32 * n);
    ok &= libsha_sha256_batch(got, BATCH_OFFSETS32(joined, off32, n), NULL, NULL, flags) == LIBSHA_OK
          && memcmp(got, expected, 32 * n) == 0;
    memset(got, 0, 32 * n);
    ok &= libsha_sha256_batch(got, BATCH_OFFSETS64(joined, off64, n), NULL, NULL, flags) == LIBSHA_OK
          && memcmp(got, expected, 32 * n) == 0;
    { /* Arrow's binary views: short values inline, the rest in pool or in joined */
        static unsigned char views[MANY_MAX * 16];
        const void *buffers[2] = {pool, joined};
        int64_t sizes[2] = {MANY_POOL, (int64_t)at};
        for (i = 0; i < n; ++i) {
            int32_t len = (int32_t)lens[i], index = (int32_t)(i % 2);
            int32_t offset = index == 0 ? (int32_t)starts[i] : off32[i];
            memset(views + 16 * i, 0, 16);
            memcpy(views + 16 * i, &len, 4);
            if (lens[i] <= 12) {
                memcpy(views + 16 * i + 4, pool + starts[i], lens[i]);
            } else {
                memcpy(views + 16 * i + 4, pool + starts[i], 4);
                memcpy(views + 16 * i + 8, &index, 4);
                memcpy(views + 16 * i + 12, &offset, 4);
            }
        }
        memset(got, 0, 32 * n);
        ok &= libsha_sha256_batch(got, BATCH_VIEWS(views, buffers, sizes, 2, n), NULL, NULL, flags) == LIBSHA_OK
              && memcmp(got, expected, 32 * n) == 0;
    }
    { /* hex, made in the same call, 64 characters a digest */
        static unsigned char text[MANY_MAX * 64 + 1], want[MANY_MAX * 64];
        libsha_hex((char *)want, expected, 32 * n);
        text[64 * n] = 0xa5;
        ok &= libsha_sha256_many(text, msgs, lens, n, flags | LIBSHA_HEX) == LIBSHA_OK
              && memcmp(text, want, 64 * n) == 0 && text[64 * n] == 0xa5;
        memset(text, 0, 64 * n);
        ok &= libsha_sha256_batch(text, BATCH_OFFSETS64(joined, off64, n), NULL, NULL, flags | LIBSHA_HEX) == LIBSHA_OK
              && memcmp(text, want, 64 * n) == 0;
    }
    return ok && got[32 * n] == 0xa5; /* nothing past the n digests */
}

/* n rows of len bytes, stride apart from data, as a LIBSHA_ROWS batch (and as hex), against one_digest. */
static int many_rows(const unsigned char *data, size_t stride, size_t len, size_t n, unsigned flags)
{
    static unsigned char got[MANY_MAX * 64 + 1], expected[MANY_MAX * 32], want[MANY_MAX * 64];
    size_t i;
    int ok;
    for (i = 0; i < n; ++i)
        one_digest(data + stride * i, len, flags, expected + 32 * i);
    got[32 * n] = 0xa5;
    ok = libsha_sha256_batch(got, BATCH_ROWS(data, stride, len, n), NULL, NULL, flags) == LIBSHA_OK && memcmp(got, expected, 32 * n) == 0
         && got[32 * n] == 0xa5;
    libsha_hex((char *)want, expected, 32 * n);
    got[64 * n] = 0xa5;
    ok &= libsha_sha256_batch(got, BATCH_ROWS(data, stride, len, n), NULL, NULL, flags | LIBSHA_HEX) == LIBSHA_OK
          && memcmp(got, want, 64 * n) == 0 && got[64 * n] == 0xa5;
    return ok;
}

/* Many messages: every length 0..300 in every lane position (with different
 * lengths and data beside it), seeded random batches of 0..5,000 bytes where
 * lanes finish at very different blocks (and some 10 KiB), unaligned, with
 * and without LIBSHA_DOUBLE; then the contracts. */
/* positions: one more than the row's widest kernel has lanes, so the message under test takes each
 * lane in turn and the next waits, the others of other lengths and other bytes. */
static void many(const char *impl, size_t positions, unsigned long long seed)
{
    static unsigned char pool[MANY_POOL];
    size_t starts[MANY_MAX], lens[MANY_MAX], i, len, pos, batch;
    unsigned flags;

    pattern251(pool, sizeof pool, 11, 71);
    for (flags = 0; flags <= LIBSHA_DOUBLE; ++flags) {
        int all_ok = 1;
        for (len = 0; len <= 300; ++len)
            for (pos = 0; pos < positions; ++pos) {
                for (i = 0; i < positions; ++i) {
                    lens[i] = i == pos ? len : (len * 7 + i * 53) % 301;
                    starts[i] = 1 + 331 * i + len; /* odd: unaligned, and each lane's own bytes */
                }
                all_ok &= many_batch(pool, starts, lens, positions, flags);
            }
        check(all_ok, impl, flags ? "many DOUBLE: every length 0..300 in every lane" : "many: every length 0..300 in every lane", 300);
        all_ok = 1; /* all of one length (1 to positions messages): tails that end together */
        for (len = 0; len <= 300; ++len)
            for (batch = 1; batch <= positions; ++batch) {
                for (i = 0; i < batch; ++i)
                    lens[i] = len, starts[i] = 3 + 307 * i;
                all_ok &= many_batch(pool, starts, lens, batch, flags);
                /* the same messages as rows 307 bytes apart, as rows packed end to end, and one row n times */
                all_ok &= many_rows(pool + 3, 307, len, batch, flags) && many_rows(pool + 5, len, len, batch, flags)
                          && many_rows(pool + 1, 0, len, batch, flags);
            }
        check(all_ok, impl, flags ? "many DOUBLE: batches of one length 0..300" : "many: batches of one length 0..300", 300);

        rng_state = seed;
        all_ok = 1;
        for (batch = 0; batch < 60; ++batch) {
            size_t n = (size_t)(rng_next() % (MANY_MAX + 1));
            for (i = 0; i < n; ++i) {
                unsigned long long r = rng_next();
                switch (r % 4) {
                case 0: lens[i] = (size_t)(r >> 8) % 64; break;
                case 1: lens[i] = (size_t)(r >> 8) % 5001; break;
                case 2: lens[i] = r % 16 == 1 ? 10240 : 0; break;
                default: lens[i] = 64 * ((size_t)(r >> 8) % 80) + (r >> 20) % 2; break;
                }
                starts[i] = (size_t)(rng_next() % (MANY_POOL - lens[i]));
            }
            all_ok &= many_batch(pool, starts, lens, n, flags);
        }
        check(all_ok, impl, flags ? "many DOUBLE: random batches" : "many: random batches", 60);
    }
    {
        unsigned char out[64 + 32], fill[sizeof out];
        const void *msgs[2] = {pool, NULL};
        size_t two[2] = {3, 0};
        int32_t off32[3] = {5, 9, 9};
        int64_t off64[3] = {5, 9, 9};
        int64_t bad64[3] = {5, 4, 9};
        int32_t neg32[3] = {-1, 4, 9};

        memset(fill, 0x5a, sizeof fill);
        memcpy(out, fill, sizeof out);
        check(libsha_sha256_many(out, msgs, two, 0, 0) == LIBSHA_OK && memcmp(out, fill, sizeof out) == 0, impl,
              "many: n == 0 writes nothing", 0);
        check(libsha_sha256_many(NULL, NULL, NULL, 0, 0) == LIBSHA_OK, impl, "many: n == 0 with NULLs", 0);
        check(libsha_sha256_many(NULL, msgs, two, 2, 0) == LIBSHA_ERR_NULL, impl, "many: NULL out", 0);
        check(libsha_sha256_many(out, NULL, two, 2, 0) == LIBSHA_ERR_NULL, impl, "many: NULL msgs", 0);
        check(libsha_sha256_many(out, msgs, NULL, 2, 0) == LIBSHA_ERR_NULL, impl, "many: NULL lens", 0);
        two[1] = 1;
        check(libsha_sha256_many(out, msgs, two, 2, 0) == LIBSHA_ERR_NULL && memcmp(out, fill, sizeof out) == 0,
              impl, "many: NULL message with a length refused, nothing written", 0);
        two[1] = 0;
        check(libsha_sha256_many(out, msgs, two, 2, 4) == LIBSHA_ERR_ARGUMENT && memcmp(out, fill, sizeof out) == 0,
              impl, "many: unknown flag refused", 0);
        check(libsha_sha256_many(out, msgs, two, (size_t)-1 / 16, 0) == LIBSHA_ERR_ARGUMENT
                  && libsha_sha256_many(out, msgs, two, (size_t)-1 / 64, LIBSHA_HEX) == LIBSHA_ERR_ARGUMENT, impl,
              "many: n * 32 and n * 64 overflow refused", 0);
        msgs[0] = out + 70; /* clear of 2 digests, inside their 128 hex characters (refused before a write) */
        check(libsha_sha256_many(out, msgs, two, 2, 0) == LIBSHA_OK
                  && libsha_sha256_many(out, msgs, two, 2, LIBSHA_HEX) == LIBSHA_ERR_ARGUMENT, impl,
              "many: out's hex size counted in the overlap checks", 0);
        memset(fill, 0x5a, sizeof fill);
        memcpy(out, fill, sizeof out);
        msgs[0] = out + 40;
        check(libsha_sha256_many(out, msgs, two, 2, 0) == LIBSHA_ERR_ARGUMENT && memcmp(out, fill, sizeof out) == 0,
              impl, "many: out overlapping a message refused", 0);
        msgs[0] = pool;
        check(libsha_sha256_many(out, msgs, two, 2, 0) == LIBSHA_OK, impl, "many: NULL empty message", 0);
        one_digest(NULL, 0, 0, fill);
        check(memcmp(out + 32, fill, 32) == 0, impl, "many: NULL empty message hashes as empty", 0);

        memset(fill, 0x5a, sizeof fill);
        memcpy(out, fill, sizeof out);
        check(libsha_sha256_batch(out, BATCH_OFFSETS64(pool, bad64, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT
                  && memcmp(out, fill, sizeof out) == 0, impl, "many: decreasing offsets refused, nothing written", 0);
        check(libsha_sha256_batch(out, BATCH_OFFSETS32(pool, neg32, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT
                  && memcmp(out, fill, sizeof out) == 0, impl, "many: negative offset refused", 0);
        check(libsha_sha256_batch(out, BATCH_OFFSETS64(NULL, off64, 2), NULL, NULL, 0) == LIBSHA_ERR_NULL, impl,
              "many: NULL data with bytes to read", 0);
        check(libsha_sha256_batch(out, BATCH_OFFSETS32(pool, NULL, 2), NULL, NULL, 0) == LIBSHA_ERR_NULL, impl, "many: NULL offsets", 0);
        bad64[0] = 0, bad64[1] = 0, bad64[2] = INT64_MAX;
        check(libsha_sha256_batch(out, BATCH_OFFSETS64(pool, bad64, 2), NULL, NULL, 0) != LIBSHA_OK, impl,
              "many: offsets past the address space refused", 0);
        check(libsha_sha256_batch(out, BATCH_OFFSETS32(out, off32, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT, impl,
              "many: out overlapping data refused", 0);
        { /* views: one outside its buffer, a bad index, a negative length: refused, nothing written */
            unsigned char views[32] = {0};
            const void *buffers[1] = {pool};
            int64_t size = 100;
            int32_t len = 20, index = 0, offset = 81;
            memcpy(views, &len, 4), memcpy(views + 8, &index, 4), memcpy(views + 12, &offset, 4);
            memset(out, 0x5a, sizeof out);
            check(libsha_sha256_batch(out, BATCH_VIEWS(views, buffers, &size, 1, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT
                      && out[0] == 0x5a, impl, "many views: past the buffer refused", 0);
            offset = 80, memcpy(views + 12, &offset, 4);
            check(libsha_sha256_batch(out, BATCH_VIEWS(views, buffers, &size, 1, 2), NULL, NULL, 0) == LIBSHA_OK, impl,
                  "many views: up to the buffer's end", 0);
            index = 1, memcpy(views + 8, &index, 4);
            check(libsha_sha256_batch(out, BATCH_VIEWS(views, buffers, &size, 1, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT, impl,
                  "many views: index past the buffers refused", 0);
            len = -1, memcpy(views, &len, 4);
            check(libsha_sha256_batch(out, BATCH_VIEWS(views, buffers, &size, 1, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT, impl,
                  "many views: negative length refused", 0);
            check(libsha_sha256_batch(out, BATCH_VIEWS(NULL, buffers, &size, 1, 2), NULL, NULL, 0) == LIBSHA_ERR_NULL
                      && libsha_sha256_batch(out, BATCH_VIEWS(views, NULL, &size, 1, 2), NULL, NULL, 0) == LIBSHA_ERR_NULL
                      && libsha_sha256_batch(NULL, BATCH_VIEWS(NULL, NULL, NULL, 0, 0), NULL, NULL, 0) == LIBSHA_OK,
                  impl, "many views: NULLs", 0);
        }
        /* rows: NULL data with bytes to read, a span past the address space, out over the rows */
        check(libsha_sha256_batch(out, BATCH_ROWS(NULL, 8, 8, 2), NULL, NULL, 0) == LIBSHA_ERR_NULL
                  && libsha_sha256_batch(out, BATCH_ROWS(NULL, 8, 0, 2), NULL, NULL, 0) == LIBSHA_OK
                  && libsha_sha256_batch(out, BATCH_ROWS(pool, (size_t)-1 / 2, 8, 3), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT
                  && libsha_sha256_batch(out, BATCH_ROWS(out + 8, 8, 8, 2), NULL, NULL, 0) == LIBSHA_ERR_ARGUMENT
                  && libsha_sha256_batch(NULL, BATCH_ROWS(pool, 8, 8, 2), NULL, NULL, 0) == LIBSHA_ERR_NULL
                  && libsha_sha256_batch(out, BATCH_ROWS(pool, 8, 8, 2), NULL, NULL, 4) == LIBSHA_ERR_ARGUMENT,
              impl, "many rows: contracts", 0);
        off32[1] = off32[2] = 5, off64[1] = off64[2] = 5;
        check(libsha_sha256_batch(out, BATCH_OFFSETS32(NULL, off32, 2), NULL, NULL, 0) == LIBSHA_OK
                  && libsha_sha256_batch(out, BATCH_OFFSETS64(NULL, off64, 2), NULL, NULL, LIBSHA_DOUBLE) == LIBSHA_OK,
              impl, "many: NULL data when every message is empty", 0);
    }
}

/* libsha_hex against snprintf for every length 0..300, nothing written past
 * 2 * len; the contracts. */
static void hex(void)
{
    unsigned char in[300];
    char out[601], expected[601];
    size_t len, k;
    int all_ok = 1;

    pattern251(in, sizeof in, 11, 37);
    for (len = 0; len <= 300; ++len) {
        for (k = 0; k < len; ++k)
            snprintf(expected + 2 * k, 3, "%02x", in[k]);
        memset(out, '#', sizeof out);
        all_ok &= libsha_hex(out, in, len) == LIBSHA_OK && memcmp(out, expected, 2 * len) == 0
                  && out[2 * len] == '#';
    }
    check(all_ok, "-", "hex of every length 0..300", 300);
    memset(out, '#', sizeof out);
    check(libsha_hex(NULL, in, 1) == LIBSHA_ERR_NULL && libsha_hex(out, NULL, 1) == LIBSHA_ERR_NULL
              && libsha_hex(NULL, NULL, 0) == LIBSHA_OK && out[0] == '#', "-", "hex NULLs", 0);
    check(libsha_hex(out, in, (size_t)-1 / 2 + 1) == LIBSHA_ERR_ARGUMENT && out[0] == '#', "-", "hex 2 * len overflow", 0);
}

/* libsha_sha256_file(s): sizes around the 16 KiB small-file limit and the
 * 128 KiB reads, written to the current directory and compared with the
 * one-shot hash; batches longer than a group of small files; errors in place;
 * the contracts. */
#define FILE_SIZES 15
static const size_t file_sizes[FILE_SIZES] = {0, 1, 55, 64, 4096, 16384, 16385, 16386, 65535, 65536, 65537, 131071, 131072, 131073, 300001};
#define REPEATS 5 /* a batch naming every file this many times: small ones fill several groups */

static void files(const char *impl)
{
    static unsigned char content[300001];
    char names[FILE_SIZES][64];
    const char *paths[FILE_SIZES + 2], *repeated[REPEATS * FILE_SIZES];
    static unsigned char many_out[REPEATS * FILE_SIZES * 32];
    static int many_errors[REPEATS * FILE_SIZES];
    unsigned char expected[FILE_SIZES][32], out[(FILE_SIZES + 2) * 32], one[32];
    int errors[FILE_SIZES + 2], os_error = -7, all_ok = 1;
    libsha_files_control control;
    uint64_t total = 0;
    size_t i, k;
    /* Distinct names for test runs that share a directory (ctest -j). */
    unsigned long tag = (unsigned long)time(NULL) ^ (unsigned long)(uintptr_t)&os_error ^ (unsigned long)clock();

    pattern251(content, sizeof content, 7, 131);
    for (i = 0; i < FILE_SIZES; ++i) {
        FILE *f;
        snprintf(names[i], sizeof names[i], "libsha_test_%lx_%zu.bin", tag, file_sizes[i]);
        f = fopen(names[i], "wb");
        if (f == NULL || fwrite(content, 1, file_sizes[i], f) != file_sizes[i] || fclose(f) != 0) {
            check(0, impl, "writing a test file", file_sizes[i]);
            return;
        }
        libsha_sha256(content, file_sizes[i], expected[i]);
        total += file_sizes[i];
        all_ok &= libsha_sha256_file(names[i], one, &os_error) == LIBSHA_OK && os_error == 0
                  && memcmp(one, expected[i], 32) == 0;
        paths[i] = names[i];
    }
    check(all_ok, impl, "sha256_file of sizes around the 128 KiB reads", FILE_SIZES);
    memset(one, 0x5a, sizeof one);
    check(libsha_sha256_file("libsha_no_such_file", one, &os_error) == LIBSHA_ERR_IO && os_error != 0
              && memcmp(one, expected[0], 0) == 0 && one[0] == 0 && one[31] == 0, impl, "missing file: IO error, zeroed", 0);
    check(libsha_sha256_file(".", one, &os_error) == LIBSHA_ERR_IO && os_error != 0, impl, "a directory: IO error", 0);
    check(libsha_sha256_file(".", one, NULL) == LIBSHA_ERR_IO, impl, "os_error may be NULL", 0);
    check(libsha_sha256_file(NULL, one, &os_error) == LIBSHA_ERR_NULL
              && libsha_sha256_file(names[0], NULL, &os_error) == LIBSHA_ERR_NULL, impl, "sha256_file NULLs", 0);

    /* A batch with a missing file and a directory among the others. */
    paths[FILE_SIZES] = "libsha_no_such_file";
    paths[FILE_SIZES + 1] = ".";
    memset(&control, 0, sizeof control);
    memset(errors, 0x11, sizeof errors);
    check(libsha_sha256_files(out, errors, paths, FILE_SIZES + 2, &control) == LIBSHA_ERR_IO, impl,
          "sha256_files with unreadable ones", 0);
    for (i = 0; i < FILE_SIZES; ++i)
        all_ok &= errors[i] == 0 && memcmp(out + 32 * i, expected[i], 32) == 0;
    all_ok &= errors[FILE_SIZES] != 0 && errors[FILE_SIZES + 1] != 0 && out[32 * FILE_SIZES] == 0
              && out[32 * FILE_SIZES + 31] == 0 && out[32 * (FILE_SIZES + 1)] == 0;
    check(all_ok, impl, "sha256_files: digests and errors in place", FILE_SIZES + 2);
    check(control.bytes == total, impl, "sha256_files: control.bytes counts every byte read", (size_t)total);
    check(control.gathered == 6, impl, "sha256_files: control.gathered counts the small files (0..16384 bytes)",
          control.gathered);
    for (k = 0; k < REPEATS * FILE_SIZES; ++k)
        repeated[k] = names[(k * 7) % FILE_SIZES]; /* sizes mixed, small ones in every group position */
    check(libsha_sha256_files(many_out, many_errors, repeated, REPEATS * FILE_SIZES, NULL) == LIBSHA_OK, impl,
          "a long batch", 0);
    for (k = 0; k < REPEATS * FILE_SIZES; ++k)
        all_ok &= many_errors[k] == 0 && memcmp(many_out + 32 * k, expected[(k * 7) % FILE_SIZES], 32) == 0;
    check(all_ok, impl, "a long batch: every digest in its place", REPEATS * FILE_SIZES);
    check(libsha_sha256_files(out, errors, paths, FILE_SIZES, NULL) == LIBSHA_OK, impl, "control may be NULL", 0);

    /* With read_ahead, a helper thread reads the large files' chunks: the same digests and counts,
     * for a batch with unreadable entries, a long mixed one, and one file on its own. */
    memset(&control, 0, sizeof control);
    control.read_ahead = 1;
    memset(out, 0x5a, sizeof out);
    memset(errors, 0x11, sizeof errors);
    check(libsha_sha256_files(out, errors, paths, FILE_SIZES + 2, &control) == LIBSHA_ERR_IO, impl,
          "read_ahead: with unreadable ones", 0);
    for (i = 0; i < FILE_SIZES; ++i)
        all_ok &= errors[i] == 0 && memcmp(out + 32 * i, expected[i], 32) == 0;
    all_ok &= errors[FILE_SIZES] != 0 && errors[FILE_SIZES + 1] != 0 && out[32 * FILE_SIZES] == 0
              && out[32 * (FILE_SIZES + 1) + 31] == 0;
    check(all_ok, impl, "read_ahead: digests and errors in place", FILE_SIZES + 2);
    check(control.bytes == total, impl, "read_ahead: control.bytes counts every byte read", (size_t)total);
    memset(many_out, 0x5a, sizeof many_out);
    check(libsha_sha256_files(many_out, many_errors, repeated, REPEATS * FILE_SIZES, &control) == LIBSHA_OK, impl,
          "read_ahead: a long batch", 0);
    for (k = 0; k < REPEATS * FILE_SIZES; ++k)
        all_ok &= many_errors[k] == 0 && memcmp(many_out + 32 * k, expected[(k * 7) % FILE_SIZES], 32) == 0;
    check(all_ok, impl, "read_ahead: a long batch, every digest in its place", REPEATS * FILE_SIZES);
    for (i = 0; i < FILE_SIZES; ++i) {
        all_ok &= libsha_sha256_files(out, errors, &paths[i], 1, &control) == LIBSHA_OK && errors[0] == 0
                  && memcmp(out, expected[i], 32) == 0;
    }
    check(all_ok, impl, "read_ahead: each file alone (one lane, the helper reading)", FILE_SIZES);
    control.cancel = 1;
    check(libsha_sha256_files(out, errors, paths, FILE_SIZES, &control) == LIBSHA_ERR_CANCELLED
              && errors[0] == LIBSHA_FILE_CANCELLED && errors[FILE_SIZES - 1] == LIBSHA_FILE_CANCELLED,
          impl, "read_ahead: cancelled", 0);

    /* Cancelled before it starts: nothing hashed, every entry marked -1. */
    memset(&control, 0, sizeof control);
    control.cancel = 1;
    memset(out, 0x5a, sizeof out);
    check(libsha_sha256_files(out, errors, paths, FILE_SIZES, &control) == LIBSHA_ERR_CANCELLED
              && errors[0] == LIBSHA_FILE_CANCELLED && errors[FILE_SIZES - 1] == LIBSHA_FILE_CANCELLED && out[0] == 0 && out[32 * FILE_SIZES - 1] == 0,
          impl, "sha256_files cancelled", 0);

    /* The contracts: checked before anything is written. */
    memset(out, 0x5a, sizeof out);
    memset(errors, 0x11, sizeof errors);
    check(libsha_sha256_files(out, errors, paths, 0, NULL) == LIBSHA_OK && out[0] == 0x5a, impl, "n = 0", 0);
    check(libsha_sha256_files(NULL, errors, paths, 1, NULL) == LIBSHA_ERR_NULL
              && libsha_sha256_files(out, NULL, paths, 1, NULL) == LIBSHA_ERR_NULL
              && libsha_sha256_files(out, errors, NULL, 1, NULL) == LIBSHA_ERR_NULL, impl, "sha256_files NULLs", 0);
    paths[1] = NULL;
    check(libsha_sha256_files(out, errors, paths, 2, NULL) == LIBSHA_ERR_NULL && out[0] == 0x5a, impl,
          "a NULL path, nothing written", 0);
    paths[1] = names[1];
    check(libsha_sha256_files(out, (int *)(void *)(out + 16), paths, 2, NULL) == LIBSHA_ERR_ARGUMENT
              && libsha_sha256_files(out, errors, (const char *const *)(void *)(out + 32), 2, NULL) == LIBSHA_ERR_ARGUMENT
              && libsha_sha256_files(out, errors, paths, 2, (libsha_files_control *)(void *)(out + 8))
                     == LIBSHA_ERR_ARGUMENT
              && out[0] == 0x5a, impl, "overlapping arguments refused, nothing written", 0);
    check(libsha_sha256_files(out, errors, paths, (size_t)-1 / 16, NULL) == LIBSHA_ERR_ARGUMENT, impl,
          "n * 32 overflows", 0);
    for (i = 0; i < FILE_SIZES; ++i)
        remove(names[i]);
}

/* Expected values, computed once with 'standard' after it passed the NIST vectors. */
#define LONGEST 1100
static unsigned char data[64 * 41], prefix_digest[LONGEST + 1][32], d64_expected[41 * 32];

static void compute_expected(void)
{
    size_t i, n;
    pattern251(data, sizeof data, 7, 131);
    for (n = 0; n <= LONGEST; ++n)
        libsha_sha256(data, n, prefix_digest[n]);
    for (i = 0; i < 41; ++i) {
        unsigned char inner[32];
        libsha_sha256(data + 64 * i, 64, inner);
        libsha_sha256(inner, 32, d64_expected + 32 * i);
    }
}

/* Every row: each length that crosses a block boundary up to 300, one-shot. */
static void block_boundaries(const char *impl)
{
    size_t n;
    int all_ok = 1;
    for (n = 0; n <= 300; ++n) {
        unsigned char digest[32];
        libsha_sha256(data, n, digest);
        all_ok &= memcmp(digest, prefix_digest[n], 32) == 0;
    }
    check(all_ok, impl, "one-shot, every length", 300);
}

static int streamed_ok(size_t n, size_t head, size_t piece)
{
    libsha_sha256_ctx ctx;
    unsigned char digest[32];
    size_t i;
    libsha_sha256_init(&ctx);
    libsha_sha256_update(&ctx, data, head);
    for (i = head; i < n; i += piece)
        libsha_sha256_update(&ctx, data + i, n - i < piece ? n - i : piece);
    libsha_sha256_final(&ctx, digest);
    return memcmp(digest, prefix_digest[n], 32) == 0;
}

/* A one-way kernel: every split point, pieces around a block's size, and every length to 1,100
 * whole and after a buffered head (kernels taking blocks in pairs have an odd-block path). */
static void streaming(const char *impl)
{
    static const size_t pieces[] = {1, 7, 55, 56, 63, 64, 65}, heads[] = {65, 129, 193};
    size_t n, k;
    for (n = 0; n <= 300; ++n) {
        int all_ok = 1;
        for (k = 0; k <= n; ++k)
            all_ok &= streamed_ok(n, k, n - k > 0 ? n - k : 1);
        for (k = 0; k < sizeof pieces / sizeof pieces[0]; ++k)
            all_ok &= streamed_ok(n, 0, pieces[k]);
        check(all_ok, impl, "every split point and piece size of length", n);
    }
    for (n = 0; n <= LONGEST; ++n) {
        int all_ok = 1;
        unsigned char digest[32];
        libsha_sha256(data, n, digest);
        all_ok &= memcmp(digest, prefix_digest[n], 32) == 0;
        for (k = 0; k < sizeof heads / sizeof heads[0]; ++k)
            all_ok &= streamed_ok(n, heads[k] < n ? heads[k] : n, LONGEST);
        check(all_ok, impl, "whole and after a head, length", n);
    }
}

static void d64(const char *impl)
{
    static unsigned char buf[64 * 41], out[41 * 32];
    size_t blobs;
    for (blobs = 0; blobs <= 40; ++blobs) {
        libsha_sha256d64(out, data, blobs);
        check(memcmp(out, d64_expected, 32 * blobs) == 0, impl, "sha256d64 blobs", blobs);
        memcpy(buf, data, 64 * blobs);
        libsha_sha256d64(buf, buf, blobs);
        check(memcmp(buf, d64_expected, 32 * blobs) == 0, impl, "sha256d64 in place, blobs", blobs);
    }
}

/* HMAC (RFC 2104) from the streaming API, on whatever row is active: run on 'standard' once it
 * passed the NIST vectors, it gives the table every row's libsha_hmac_sha256 is checked against. */
static void hmac_model(const unsigned char *key, size_t keylen, const unsigned char *msg, size_t msglen,
                       unsigned char out[32])
{
    unsigned char block[64] = {0}, pad[64], inner[32];
    libsha_sha256_ctx ctx;
    size_t i;
    if (keylen > 64)
        libsha_sha256(key, keylen, block);
    else
        memcpy(block, key, keylen);
    for (i = 0; i < 64; ++i)
        pad[i] = block[i] ^ 0x36;
    libsha_sha256_init(&ctx), libsha_sha256_update(&ctx, pad, 64), libsha_sha256_update(&ctx, msg, msglen);
    libsha_sha256_final(&ctx, inner);
    for (i = 0; i < 64; ++i)
        pad[i] = block[i] ^ 0x5c;
    libsha_sha256_init(&ctx), libsha_sha256_update(&ctx, pad, 64), libsha_sha256_update(&ctx, inner, 32);
    libsha_sha256_final(&ctx, out);
}

/* Every key length to 200 (across the block a longer key is hashed to) with the message lengths
 * around a block, and every message length to 300 with the key lengths around one: the message
 * itself takes the one-stream paths the streaming sweep covers. */
#define HMAC_KEYS 200
#define HMAC_MESSAGES 300
static const size_t hmac_some_messages[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 300};
static const size_t hmac_some_keys[] = {0, 1, 63, 64, 65, 200};
static unsigned char hmac_expected[HMAC_KEYS + 1][HMAC_MESSAGES + 1][32];

/* Whether (key length, message length) is in the sweep. */
static int hmac_swept(size_t k, size_t m)
{
    size_t i;
    for (i = 0; i < sizeof hmac_some_messages / sizeof hmac_some_messages[0]; ++i)
        if (m == hmac_some_messages[i])
            return 1;
    for (i = 0; i < sizeof hmac_some_keys / sizeof hmac_some_keys[0]; ++i)
        if (k == hmac_some_keys[i])
            return 1;
    return 0;
}

static void hmac_key(size_t keylen, unsigned char *key)
{
    pattern251(key, keylen, keylen, 1);
}

static void compute_hmac_expected(void)
{
    unsigned char key[HMAC_KEYS];
    size_t k, m;
    for (k = 0; k <= HMAC_KEYS; ++k) {
        hmac_key(k, key);
        for (m = 0; m <= HMAC_MESSAGES; ++m)
            if (hmac_swept(k, m))
                hmac_model(key, k, data + k, m, hmac_expected[k][m]);
    }
}

/* A one-way kernel: the HMAC sweep above. */
static void hmac_sweep(const char *impl)
{
    unsigned char key[HMAC_KEYS], out[32];
    size_t k, m;
    int all_ok = 1;
    for (k = 0; k <= HMAC_KEYS; ++k) {
        hmac_key(k, key);
        for (m = 0; m <= HMAC_MESSAGES; ++m)
            if (hmac_swept(k, m))
                all_ok &= libsha_hmac_sha256(key, k, data + k, m, out) == LIBSHA_OK
                          && memcmp(out, hmac_expected[k][m], 32) == 0;
    }
    check(all_ok, impl, "HMAC: every key length with the message lengths around a block, and back", HMAC_MESSAGES);
}

int main(int argc, char **argv)
{
    const char *dir, *expect = NULL, *detected, *name;
    unsigned long long seed = 20261130;
    size_t i, widest;
    int runnable, tested = 0, one_way_new, lanes_new, detection_only;
    static struct kernel_sets seen;

    /* --detection-only: what detection chose, every row the CPU lacks refused, and each runnable row on
       NIST's short messages alone, for a run whose rows another run sweeps (a CPU feature hidden by a shim). */
    detection_only = argc == 5 && strcmp(argv[4], "--detection-only") == 0;
    if (argc < 2 || (argc >= 4 && strcmp(argv[2], "--expect") != 0) || (argc != 2 && argc != 4 && !detection_only)) {
        fprintf(stderr, "usage: %s VECTOR_DIR [--expect IMPLEMENTATION [--detection-only]]\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    if (getenv("LIBSHA_TEST_SEED") != NULL)
        seed = strtoull(getenv("LIBSHA_TEST_SEED"), NULL, 0);
    printf("random batches: LIBSHA_TEST_SEED=%llu\n", seed);
    if (argc >= 4)
        expect = argv[3];
    detected = libsha_implementation(); /* first use: the library detects by itself */
    printf("libsha %s (%s), detected: %s\n", libsha_version(), libsha_build_type(), detected);
    if (expect != NULL)
        check(strcmp(detected, expect) == 0, detected, "detection chose this, not the expected one", 0);

    check(libsha_select("standard") == LIBSHA_OK, "standard", "select", 0);
    check(nist_file(dir, "SHA256ShortMsg.rsp", "standard") == 65, "standard", "ShortMsg records", 0);
    if (!detection_only) {
        compute_expected();
        compute_hmac_expected();
        hex();
    }
    check(libsha_select("no such implementation") == LIBSHA_ERR_UNKNOWN_IMPL, "-", "unknown name refused", 0);

    for (i = 0; (name = libsha_implementation_at(i, &runnable)) != NULL; ++i) {
        int before_failed = failed, before_passed = passed;
        if (!runnable) {
            /* Asking for it is an error, never an illegal instruction. */
            check(libsha_select(name) == LIBSHA_ERR_NOT_RUNNABLE, name, "not runnable, refused", 0);
            printf("%s: not runnable on this CPU (select refused it)\n", name);
            continue;
        }
        check(libsha_select(name) == LIBSHA_OK && strcmp(libsha_implementation(), name) == 0, name, "select", 0);
        nist_file(dir, "SHA256ShortMsg.rsp", name);
        if (detection_only) {
            ++tested;
            printf("%s: %d passed, %d failed (NIST's short messages alone)\n", name, passed - before_passed,
                   failed - before_failed);
            continue;
        }
        new_kernels(&seen, name, &one_way_new, &lanes_new, &widest);
        nist_file(dir, "SHA256LongMsg.rsp", name);
        block_boundaries(name);
        check(hmac_file(dir, name) == 7, name, "HMAC RFC 4231 cases", 0);
        hmac_contracts(name);
        printf("%s: sweeps", name);
        if (one_way_new)
            streaming(name), hmac_sweep(name), printf(" one-stream and HMAC;");
        if (one_way_new || lanes_new) /* D64's one blob is the one-way kernel's, wider ones the lanes' */
            d64(name), merkle(name), printf(" D64 and Merkle;");
        if (lanes_new)
            many(name, widest + 1, seed), files(name), printf(" many (%zu lane positions) and files;", widest + 1);
        printf("%s\n", one_way_new || lanes_new ? "" : " none: its kernels were swept on earlier rows");
        ++tested;
        printf("%s: %d passed, %d failed\n", name, passed - before_passed, failed - before_failed);
    }
    check(tested > 0, "-", "implementations tested", 0);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
