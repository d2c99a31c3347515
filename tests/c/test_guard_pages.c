/*
 * No read or write outside the caller's buffers, on every implementation:
 * for lengths 0..1100 and offsets 0..63, the input starts `offset` bytes after
 * an unreadable page and, separately, ends `offset` bytes before one (offset 0:
 * right against it); digests are written so they end right before an
 * unwritable page. One-shot, streaming (in two updates), SHA256D64, and
 * HMAC-SHA256 with the same bytes as key and message (one-shot and streamed),
 * the Merkle root of every whole number of 32-byte leaves, and many messages at
 * once (the one that touches the guard in each lane position of the widest
 * kernel, 16 lanes, beside shorter prefixes of it; and through both offsets
 * forms), the same after a prefix and under an HMAC key (offsets below 17, the
 * prefix's and key's lengths from the offset), many streams at once (offsets below 34: the guarded stream in each
 * lane position twice, each stream fed in two chunks, the digests against the
 * output's guard), hex of the first 64, the level call of whole 64-byte nodes, and the Merkle
 * trees (offsets below TREE_OFFSETS: SSZ's merkleize and BEP 52's root of every length, RFC 6962's
 * root and BEP 52's tree of whole leaves). A stray access is a crash here; every
 * digest is also checked. Each kernel once (kernel_sets.h): a row's one-stream paths where its
 * one-way kernel is new, its many-message paths where its lane kernels are. With a name as
 * argument, only that implementation, all of it.
 *   test_guard_pages [NAME] [--lane-positions] [--skip NAME]
 * --lane-positions: only the offsets that put the guarded message in each lane position once
 * (0..MESSAGES-1), which also reach every alignment of a scalar: for ASan+UBSan, whose own checks
 * (the library's stack and globals, alignment) need no more, beside the plain build's full sweep.
 * --skip NAME: not that row; under an emulator, 'standard' (the portable C, swept by every native
 * build) leaves the sweep to the target's own kernels.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "batches.h"
#include "kernel_sets.h"
#include "pattern251.h"
#include "libsha_dispatch.h"
#include "libsha_trees.h"

#define MAX_LEN 1100
#define OFFSETS 64
#define TREE_OFFSETS 5
#define MESSAGES LANE_POSITIONS /* one more than the widest kernel's lanes (kernel_sets.h) */

static long passed, failed;

/* [unreadable page][`pages` readable pages][unreadable page]: returns the first readable byte. */
static unsigned char *guarded(size_t pages, size_t page)
{
    unsigned char *p = mmap(NULL, (pages + 2) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p, page, PROT_NONE) != 0 || mprotect(p + (pages + 1) * page, page, PROT_NONE) != 0)
        return NULL;
    return p + page;
}

static void check(int ok, const char *impl, const char *what, size_t len, size_t offset)
{
    if (ok) {
        ++passed;
    } else if (++failed <= 20) {
        printf("FAIL %s: %s, length %zu, offset %zu\n", impl, what, len, offset);
    }
}

static unsigned char pattern[MAX_LEN], expected[MAX_LEN + 1][32], expected_d64[MAX_LEN / 64][32];
static unsigned char expected_hmac[MAX_LEN + 1][32], expected_merkle[MAX_LEN / 32 + 1][32];
/* The trees: the level call, SSZ's merkleize, RFC 6962's root, BEP 52's pieces root. */
static unsigned char expected_level[MAX_LEN / 64][32], expected_ssz[MAX_LEN + 1][32],
    expected_ct[MAX_LEN / 32 + 1][32], expected_bep52[MAX_LEN + 1][32];

/* The one-stream paths, with the same bytes as key and message for HMAC, and hex. */
static void one_stream_placement(const char *impl, const unsigned char *in, size_t len, size_t offset, unsigned char *out_end)
{
    libsha_sha256_ctx ctx;
    unsigned char *out = out_end - 32;
    check(libsha_sha256(in, len, out) == LIBSHA_OK && memcmp(out, expected[len], 32) == 0, impl, "one-shot", len, offset);
    libsha_sha256_init(&ctx);
    libsha_sha256_update(&ctx, in, len / 2);
    libsha_sha256_update(&ctx, in + len / 2, len - len / 2);
    check(libsha_sha256_final(&ctx, out) == LIBSHA_OK && memcmp(out, expected[len], 32) == 0, impl, "streaming", len, offset);
    check(libsha_hmac_sha256(in, len, in, len, out) == LIBSHA_OK && memcmp(out, expected_hmac[len], 32) == 0, impl,
          "HMAC one-shot", len, offset);
    {
        libsha_hmac_sha256_ctx hctx;
        libsha_hmac_sha256_init(&hctx, in, len);
        libsha_hmac_sha256_update(&hctx, in, len / 3);
        libsha_hmac_sha256_update(&hctx, in + len / 3, len - len / 3);
        check(libsha_hmac_sha256_final(&hctx, out) == LIBSHA_OK && memcmp(out, expected_hmac[len], 32) == 0, impl,
              "HMAC streaming", len, offset);
    }
    if (len <= 64) { /* hex: the input against its guard, the text against the output's */
        char *text = (char *)out_end - 2 * len;
        static const char digit[] = "0123456789abcdef";
        size_t k;
        int ok = libsha_hex(text, in, len) == LIBSHA_OK;
        for (k = 0; k < len; ++k)
            ok &= text[2 * k] == digit[in[k] >> 4] && text[2 * k + 1] == digit[in[k] & 15];
        check(ok, impl, "hex", len, offset);
    }
}

/* The many-message paths: the Merkle root, many messages and SHA256D64. */
static void lanes_placement(const char *impl, const unsigned char *in, size_t len, size_t offset, unsigned char *out_end)
{
    unsigned char *out = out_end - 32;
    if (len % 32 == 0) {
        int mutated;
        check(libsha_merkle_root(out, in, len / 32, &mutated) == LIBSHA_OK
                  && memcmp(out, expected_merkle[len / 32], 32) == 0, impl, "merkle root", len, offset);
    }
    {
        const void *msgs[MESSAGES];
        size_t lens[MESSAGES], j, pos = offset % MESSAGES;
        int ok;
        int64_t off64[4] = {0, 0, (int64_t)len, (int64_t)len};
        int32_t off32[2] = {0, (int32_t)len};
        for (j = 0; j < MESSAGES; ++j) {
            msgs[j] = in;
            lens[j] = j == pos ? len : len * j / MESSAGES;
        }
        ok = libsha_sha256_many(out_end - 32 * MESSAGES, msgs, lens, MESSAGES, 0) == LIBSHA_OK;
        for (j = 0; j < MESSAGES; ++j)
            ok &= memcmp(out_end - 32 * (MESSAGES - j), expected[lens[j]], 32) == 0;
        check(ok, impl, "many", len, offset);
        ok = libsha_sha256_batch(out_end - 96, BATCH_OFFSETS64(in, off64, 3), NULL, NULL, 0) == LIBSHA_OK
             && memcmp(out_end - 96, expected[0], 32) == 0 && memcmp(out_end - 64, expected[len], 32) == 0
             && memcmp(out_end - 32, expected[0], 32) == 0;
        ok &= libsha_sha256_batch(out, BATCH_OFFSETS32(in, off32, 1), NULL, NULL, 0) == LIBSHA_OK && memcmp(out, expected[len], 32) == 0;
        if (len > 12) { /* a binary view of the message, its buffer the message alone */
            unsigned char view[16] = {0};
            const void *buffers[1] = {in};
            int64_t size = (int64_t)len;
            int32_t n32 = (int32_t)len;
            memcpy(view, &n32, 4);
            ok &= libsha_sha256_batch(out, BATCH_VIEWS(view, buffers, &size, 1, 1), NULL, NULL, 0) == LIBSHA_OK
                  && memcmp(out, expected[len], 32) == 0;
        }
        check(ok, impl, "many, offsets", len, offset);
        /* Rows: the message MESSAGES times over at stride 0 (the same row), up to the output's end,
         * and once as hex (64 characters a digest), up to the output's end too. */
        ok = libsha_sha256_batch(out_end - 32 * MESSAGES, BATCH_ROWS(in, 0, len, MESSAGES), NULL, NULL, 0) == LIBSHA_OK;
        for (j = 0; j < MESSAGES; ++j)
            ok &= memcmp(out_end - 32 * (MESSAGES - j), expected[len], 32) == 0;
        {
            char hex[64];
            libsha_hex(hex, expected[len], 32);
            ok &= libsha_sha256_batch(out_end - 64, BATCH_ROWS(in, len, len, 1), NULL, NULL, LIBSHA_HEX) == LIBSHA_OK
                  && memcmp(out_end - 64, hex, 64) == 0;
        }
        check(ok, impl, "many rows, hex", len, offset);
    }
    if (offset < MESSAGES) { /* batches from a context: the guarded message in each lane position, after a
                                  * prefix and under a key of lengths the offset picks, through pointers and rows */
        libsha_sha256_ctx prefix, copy;
        libsha_hmac_sha256_ctx key, mac;
        const void *msgs[MESSAGES];
        size_t lens[MESSAGES], j, pos = offset % MESSAGES, plen = offset * 37 % 200;
        unsigned char want[32];
        int ok;
        libsha_sha256_init(&prefix);
        libsha_sha256_update(&prefix, pattern, plen);
        libsha_hmac_sha256_init(&key, pattern + 3, offset * 7 % 150);
        for (j = 0; j < MESSAGES; ++j) {
            msgs[j] = in;
            lens[j] = j == pos ? len : len * j / MESSAGES;
        }
        ok = libsha_sha256_batch(out_end - 32 * MESSAGES, BATCH_POINTERS(msgs, lens, MESSAGES), &prefix, NULL, 0) == LIBSHA_OK;
        for (j = 0; j < MESSAGES; ++j) {
            copy = prefix;
            libsha_sha256_update(&copy, in, lens[j]);
            libsha_sha256_final(&copy, want);
            ok &= memcmp(out_end - 32 * (MESSAGES - j), want, 32) == 0;
        }
        ok &= libsha_sha256_batch(out, BATCH_ROWS(in, 0, len, 1), &prefix, NULL, 0) == LIBSHA_OK
              && memcmp(out, out_end - 32 * (MESSAGES - pos), 32) == 0;
        check(ok, impl, "many after a prefix", len, offset);
        ok = libsha_sha256_batch(out_end - 32 * MESSAGES, BATCH_POINTERS(msgs, lens, MESSAGES), NULL, &key, 0) == LIBSHA_OK;
        for (j = 0; j < MESSAGES; ++j) {
            mac = key;
            libsha_hmac_sha256_update(&mac, in, lens[j]);
            libsha_hmac_sha256_final(&mac, want);
            ok &= memcmp(out_end - 32 * (MESSAGES - j), want, 32) == 0;
        }
        ok &= libsha_sha256_batch(out, BATCH_ROWS(in, len, len, 1), NULL, &key, 0) == LIBSHA_OK
              && memcmp(out, out_end - 32 * (MESSAGES - pos), 32) == 0;
        check(ok, impl, "HMAC of many under one key", len, offset);
    }
    if (offset < 2 * MESSAGES) { /* many streams: the guarded one in each lane position (twice), in two chunks */
        libsha_sha256_ctx ctx[MESSAGES], *ctxs[MESSAGES];
        const void *data[MESSAGES];
        size_t lens[MESSAGES], heads[MESSAGES], j, pos = offset % MESSAGES;
        int ok = 1, k;
        for (j = 0; j < MESSAGES; ++j) {
            libsha_sha256_init(&ctx[j]);
            ctxs[j] = &ctx[j];
            lens[j] = j == pos ? len : len * j / MESSAGES;
            heads[j] = (lens[j] * (j + 1) / (MESSAGES + 1) + offset) % (lens[j] + 1);
        }
        for (k = 0; k < 2; ++k) {
            size_t chunk[MESSAGES];
            for (j = 0; j < MESSAGES; ++j) {
                data[j] = k == 0 ? in : in + heads[j];
                chunk[j] = k == 0 ? heads[j] : lens[j] - heads[j];
            }
            ok &= libsha_sha256_update_many(ctxs, data, chunk, MESSAGES) == LIBSHA_OK;
        }
        ok &= libsha_sha256_final_many(out_end - 32 * MESSAGES, ctxs, MESSAGES) == LIBSHA_OK;
        for (j = 0; j < MESSAGES; ++j)
            ok &= memcmp(out_end - 32 * (MESSAGES - j), expected[lens[j]], 32) == 0;
        check(ok, impl, "many streams", len, offset);
    }
    if (len % 64 == 0) {
        size_t blobs = len / 64;
        libsha_sha256d64(out_end - 32 * blobs, in, blobs);
        check(blobs == 0 || memcmp(out_end - 32 * blobs, expected_d64, 32 * blobs) == 0, impl, "sha256d64", len, offset);
        check(libsha_sha256_64(out_end - 32 * blobs, in, blobs) == LIBSHA_OK
                  && (blobs == 0 || memcmp(out_end - 32 * blobs, expected_level, 32 * blobs) == 0),
              impl, "sha256_64", len, offset);
    }
    /* The trees read their input through the kernels checked above at every offset: a few offsets
     * each way are enough for their own reads, and keep the test in its time under emulation. */
    if (offset >= TREE_OFFSETS)
        return;
    check(libsha_ssz_merkleize(out, in, len, LIBSHA_SSZ_NO_LIMIT) == LIBSHA_OK && memcmp(out, expected_ssz[len], 32) == 0,
          impl, "ssz merkleize", len, offset);
    if (len % 32 == 0)
        check(libsha_rfc6962_root(out, in, len / 32) == LIBSHA_OK && memcmp(out, expected_ct[len / 32], 32) == 0,
              impl, "rfc6962 root", len, offset);
    check(libsha_bep52_tree(out, NULL, in, len, LIBSHA_BEP52_BLOCK) == LIBSHA_OK
              && memcmp(out, expected_bep52[len], 32) == 0, impl, "bep52 tree", len, offset);
    /* Leaves padded with zero leaves to a power of two: SSZ's merkleize of them, no limit (one piece). */
    if (len % 32 == 0)
        check(libsha_bep52_tree_of_leaves(out, NULL, in, len / 32, (uint64_t)1 << 40) == LIBSHA_OK
                  && memcmp(out, expected_ssz[len], 32) == 0,
              impl, "bep52 tree of leaves", len, offset);
}

int main(int argc, char **argv)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (MAX_LEN + OFFSETS + page - 1) / page;
    unsigned char *in = guarded(pages, page), *out = guarded(pages, page);
    unsigned char *in_end = in + pages * page, *out_end = out + pages * page;
    size_t i, len, offset, widest, offsets = OFFSETS;
    const char *name, *only = NULL, *skip = NULL;
    int runnable, one_way_new, lanes_new, a;
    static struct kernel_sets seen;

    for (a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--lane-positions") == 0) {
            offsets = MESSAGES;
        } else if (strcmp(argv[a], "--skip") == 0 && a + 1 < argc) {
            skip = argv[++a];
        } else if (argv[a][0] != '-' && only == NULL) {
            only = argv[a];
        } else {
            printf("usage: %s [NAME] [--lane-positions] [--skip NAME]\n", argv[0]);
            return 2;
        }
    }

    if (in == NULL || out == NULL) {
        printf("cannot map guard pages\n");
        return 1;
    }
    pattern251(pattern, MAX_LEN, 5, 89);
    libsha_select("standard");
    for (len = 0; len <= MAX_LEN; ++len) {
        libsha_sha256(pattern, len, expected[len]);
        libsha_hmac_sha256(pattern, len, pattern, len, expected_hmac[len]);
        if (len % 32 == 0)
            libsha_merkle_root(expected_merkle[len / 32], pattern, len / 32, NULL);
        if (len % 32 == 0)
            libsha_rfc6962_root(expected_ct[len / 32], pattern, len / 32);
        libsha_ssz_merkleize(expected_ssz[len], pattern, len, LIBSHA_SSZ_NO_LIMIT);
        libsha_bep52_tree(expected_bep52[len], NULL, pattern, len, LIBSHA_BEP52_BLOCK);
    }
    libsha_sha256_64(expected_level[0], pattern, MAX_LEN / 64);
    libsha_sha256d64(expected_d64[0], pattern, MAX_LEN / 64);

    for (i = 0; (name = libsha_implementation_at(i, &runnable)) != NULL; ++i) {
        long before = passed;
        if (!runnable || (only != NULL && strcmp(name, only) != 0) || (skip != NULL && strcmp(name, skip) == 0))
            continue;
        if (libsha_select(name) != LIBSHA_OK) {
            check(0, name, "select (its self-test)", 0, 0);
            continue;
        }
        new_kernels(&seen, name, &one_way_new, &lanes_new, &widest);
        if (only != NULL) /* the one named: all of it */
            one_way_new = lanes_new = 1;
        for (len = 0; len <= MAX_LEN; ++len) {
            for (offset = 0; offset < offsets; ++offset) {
                unsigned char *at[2] = {in + offset, in_end - offset - len}; /* after the lower guard, before the upper */
                size_t k;
                for (k = 0; k < 2; ++k) {
                    memcpy(at[k], pattern, len);
                    if (one_way_new)
                        one_stream_placement(name, at[k], len, offset, out_end);
                    if (lanes_new)
                        lanes_placement(name, at[k], len, offset, out_end);
                }
            }
        }
        printf("%s: %ld cases passed%s%s\n", name, passed - before, one_way_new ? ", one-stream paths" : "",
               lanes_new ? ", many-message paths" : "");
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    if (only != NULL && passed == 0) {
        printf("no runnable implementation named %s\n", only);
        return 1;
    }
    return failed != 0;
}
