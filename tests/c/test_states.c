/*
 * Saved states and the batches that start from a context, on every row this CPU runs (and, through
 * ctest, on aarch64 under qemu and in the Windows build under wine):
 * - a state of every length 0..300 and of block boundaries up to 1 MiB, made on one row and resumed
 *   on another, finishes to the one-shot digest 'standard' gives, and goes on hashing;
 * - the known states below (libsha.h's layout, version 1; tests/one_message/test_states.py builds
 *   the same layout from the pure-Python reference) come out of every row and resume on every row:
 *   a state saved on one machine resumes on another;
 *   - every single-byte change and every truncation of them is LIBSHA_ERR_FORMAT, the context
 *     left as it was (every byte);
 * - midstates in and out, and the argument checks;
 * - libsha_sha256_batch after a prefix and under a key: every message length 0..300 in
 *   every lane position, prefixes and keys of several lengths, every form, against the streaming
 *   API (every layout); their refusals. Each set of lane kernels once (kernel_sets.h).
 */
#include <stdio.h>
#include <string.h>

#include "batches.h"
#include "kernel_sets.h"
#include "pattern251.h"
#include "libsha_dispatch.h"
#include "test_check.h"

/* The state after pattern251(200, 3, 7), and an HMAC's under the key pattern251(100, 11, 13) after
 * the same message: libsha.h's layout, version 1. */
static const char *const KNOWN_SHA256 =
    "6c7368610101000000000000000000c804c6a2cf97627e478bfa7c4809858803eea787149ce61cb4da5e16b656a244475c63"
    "6a71787f868d0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000f6871c1b9828abdc";
static const char *const KNOWN_HMAC =
    "6c7368610102000000000000000001085a69c8610c70ff799ae7a94952207e56ae1e8497d37fafcbe5ffc65678668eb55c63"
    "6a71787f868d0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000007b26006c81c49a34650a1575469bcb50f6f71cc5a0c2f06267d431798e72405abf9d7db4073f"
    "ed6b";

#define LONGEST (1 << 20)
static unsigned char data[LONGEST + 400];
static unsigned char message[200], key[100], known[LIBSHA_HMAC_STATE_SIZE], known_hmac[LIBSHA_HMAC_STATE_SIZE];
static unsigned char digest_of_message[32], mac_of_message[32];

static int same_digest(libsha_sha256_ctx *ctx, const unsigned char *msg, size_t len)
{
    unsigned char got[32], want[32];
    return libsha_sha256_final(ctx, got) == LIBSHA_OK && libsha_sha256(msg, len, want) == LIBSHA_OK
           && memcmp(got, want, 32) == 0;
}

/* A state made on row `made` at each length, resumed on row `resumed`. The digests to compare with
 * come from the one-shot, on `resumed` (every row's one-shot passed test_libsha's sweeps). */
static void resume_across(const char *made, const char *resumed, const size_t *lengths, size_t count)
{
    size_t i;
    for (i = 0; i < count; ++i) {
        size_t len = lengths[i];
        libsha_sha256_ctx ctx, back, more;
        unsigned char state[LIBSHA_STATE_SIZE];
        int ok;
        libsha_select(made);
        libsha_sha256_init(&ctx);
        ok = libsha_sha256_update(&ctx, data, len / 3) == LIBSHA_OK
             && libsha_sha256_update(&ctx, data + len / 3, len - len / 3) == LIBSHA_OK
             && libsha_sha256_export(&ctx, state) == LIBSHA_OK;
        libsha_select(resumed);
        ok &= libsha_sha256_import(&back, state, sizeof state) == LIBSHA_OK;
        more = back;
        ok &= same_digest(&back, data, len);
        ok &= libsha_sha256_update(&more, data + len, 300) == LIBSHA_OK && same_digest(&more, data, len + 300);
        check(ok, resumed, made, len);
    }
}

/* Import refuses state[0..size) with LIBSHA_ERR_FORMAT, leaving the context's every byte. */
static int refused(const unsigned char *state, size_t size, int hmac)
{
    libsha_hmac_sha256_ctx ctx, before;
    memset(&ctx, 0xa5, sizeof ctx);
    before = ctx;
    if (hmac ? libsha_hmac_sha256_import(&ctx, state, size) != LIBSHA_ERR_FORMAT
             : libsha_sha256_import(&ctx.inner, state, size) != LIBSHA_ERR_FORMAT)
        return 0;
    return memcmp(&ctx, &before, sizeof ctx) == 0;
}

static void known_states(const char *impl)
{
    libsha_sha256_ctx ctx;
    libsha_hmac_sha256_ctx mac;
    unsigned char out[LIBSHA_HMAC_STATE_SIZE], got[32];
    size_t i, v;
    int ok = 1;
    libsha_sha256_init(&ctx);
    libsha_sha256_update(&ctx, message, sizeof message);
    check(libsha_sha256_export(&ctx, out) == LIBSHA_OK && memcmp(out, known, LIBSHA_STATE_SIZE) == 0, impl,
          "the known SHA-256 state made", 0);
    libsha_hmac_sha256_init(&mac, key, sizeof key);
    libsha_hmac_sha256_update(&mac, message, sizeof message);
    check(libsha_hmac_sha256_export(&mac, out) == LIBSHA_OK && memcmp(out, known_hmac, LIBSHA_HMAC_STATE_SIZE) == 0,
          impl, "the known HMAC state made", 0);
    check(libsha_sha256_import(&ctx, known, LIBSHA_STATE_SIZE) == LIBSHA_OK && libsha_sha256_final(&ctx, got) == LIBSHA_OK
              && memcmp(got, digest_of_message, 32) == 0, impl, "the known SHA-256 state resumed", 0);
    check(libsha_hmac_sha256_import(&mac, known_hmac, LIBSHA_HMAC_STATE_SIZE) == LIBSHA_OK
              && libsha_hmac_sha256_final(&mac, got) == LIBSHA_OK && memcmp(got, mac_of_message, 32) == 0,
          impl, "the known HMAC state resumed", 0);
    for (i = 0; i < LIBSHA_HMAC_STATE_SIZE; ++i) { /* every single-byte change, every truncation */
        unsigned char changed[LIBSHA_HMAC_STATE_SIZE];
        for (v = 0; v < 256; ++v) {
            if (i < LIBSHA_STATE_SIZE && v != known[i]) {
                memcpy(changed, known, LIBSHA_STATE_SIZE);
                changed[i] = (unsigned char)v;
                ok &= refused(changed, LIBSHA_STATE_SIZE, 0);
            }
            if (v != known_hmac[i]) {
                memcpy(changed, known_hmac, LIBSHA_HMAC_STATE_SIZE);
                changed[i] = (unsigned char)v;
                ok &= refused(changed, LIBSHA_HMAC_STATE_SIZE, 1);
            }
        }
        ok &= refused(known_hmac, i, 1) && (i >= LIBSHA_STATE_SIZE || refused(known, i, 0));
    }
    ok &= refused(known, LIBSHA_STATE_SIZE + 1, 0) && refused(known_hmac, LIBSHA_HMAC_STATE_SIZE, 0)
          && refused(known, LIBSHA_STATE_SIZE, 1);
    check(ok, impl, "every changed byte, truncation and wrong kind refused, the context untouched", 0);
}

static void contracts(const char *impl)
{
    libsha_sha256_ctx ctx, done;
    libsha_hmac_sha256_ctx mac;
    unsigned char out[LIBSHA_HMAC_STATE_SIZE], words[32];
    uint64_t length = 1;
    int ok;
    libsha_sha256_init(&ctx);
    libsha_sha256_update(&ctx, data, 128);
    ok = libsha_sha256_midstate(&ctx, words, &length) == LIBSHA_OK && length == 128;
    ok &= libsha_sha256_init_midstate(&done, words, length) == LIBSHA_OK && libsha_sha256_update(&done, data + 128, 5) == LIBSHA_OK
          && same_digest(&done, data, 133);
    ok &= libsha_sha256_midstate(&ctx, words, NULL) == LIBSHA_OK;
    libsha_sha256_update(&ctx, data, 1);
    ok &= libsha_sha256_midstate(&ctx, words, &length) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_init_midstate(&done, words, 65) == LIBSHA_ERR_ARGUMENT
          && libsha_sha256_init_midstate(&done, words, (uint64_t)1 << 61) == LIBSHA_ERR_ARGUMENT
          && libsha_sha256_init_midstate(&done, words, ((uint64_t)1 << 61) - 64) == LIBSHA_OK;
    ok &= libsha_sha256_init_midstate(NULL, words, 0) == LIBSHA_ERR_NULL
          && libsha_sha256_init_midstate(&done, NULL, 0) == LIBSHA_ERR_NULL
          && libsha_sha256_midstate(NULL, words, NULL) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_export(NULL, out) == LIBSHA_ERR_NULL && libsha_sha256_export(&ctx, NULL) == LIBSHA_ERR_NULL
          && libsha_sha256_import(NULL, known, LIBSHA_STATE_SIZE) == LIBSHA_ERR_NULL
          && libsha_sha256_import(&ctx, NULL, LIBSHA_STATE_SIZE) == LIBSHA_ERR_NULL;
    {
        union { /* out over the context */
            libsha_sha256_ctx ctx;
            unsigned char bytes[2 * LIBSHA_STATE_SIZE];
        } both;
        both.ctx = ctx;
        ok &= libsha_sha256_export(&both.ctx, both.bytes + 8) == LIBSHA_ERR_ARGUMENT;
    }
    libsha_sha256_final(&ctx, words);
    ok &= libsha_sha256_export(&ctx, out) == LIBSHA_ERR_STATE && libsha_sha256_midstate(&ctx, words, NULL) == LIBSHA_ERR_STATE;
    libsha_hmac_sha256_init(&mac, key, 3);
    libsha_hmac_sha256_final(&mac, words);
    ok &= libsha_hmac_sha256_export(&mac, out) == LIBSHA_ERR_STATE;
    check(ok, impl, "midstates and the argument checks", 0);
}

/* The digest of what ctx holds followed by msg[0..len), by the streaming API on a copy. */
static void continued(const libsha_sha256_ctx *ctx, const libsha_hmac_sha256_ctx *mac, const unsigned char *msg,
                      size_t len, unsigned flags, unsigned char out[32])
{
    if (mac != NULL) {
        libsha_hmac_sha256_ctx copy = *mac;
        libsha_hmac_sha256_update(&copy, msg, len);
        libsha_hmac_sha256_final(&copy, out);
    } else {
        libsha_sha256_ctx copy = *ctx;
        libsha_sha256_update(&copy, msg, len);
        libsha_sha256_final(&copy, out);
        if (flags & LIBSHA_DOUBLE)
            libsha_sha256(out, 32, out);
    }
}

#define POSITIONS LANE_POSITIONS
static unsigned char got[32 * (POSITIONS + 1)], want[32 * (POSITIONS + 1)];

/* One batch of n messages in every form, from ctx (a prefix) or under mac. */
static int batch_forms(const libsha_sha256_ctx *ctx, const libsha_hmac_sha256_ctx *mac, const size_t *starts,
                       const size_t *lens, size_t n, unsigned flags)
{
    const void *msgs[POSITIONS];
    int64_t off64[POSITIONS + 1];
    int32_t off32[POSITIONS + 1];
    size_t i;
    int ok = 1;
    for (i = 0; i < n; ++i) {
        msgs[i] = data + starts[i];
        continued(ctx, mac, data + starts[i], lens[i], flags, want + 32 * i);
    }
    memset(got, 0, sizeof got);
    ok &= (mac ? libsha_sha256_batch(got, BATCH_POINTERS(msgs, lens, n), NULL, mac, flags)
               : libsha_sha256_batch(got, BATCH_POINTERS(msgs, lens, n), ctx, NULL, flags)) == LIBSHA_OK
          && memcmp(got, want, 32 * n) == 0;
    /* Offsets need the messages end to end: their lengths laid over data from 0. */
    off64[0] = off32[0] = 0;
    for (i = 0; i < n; ++i) {
        off64[i + 1] = off64[i] + (int64_t)lens[i];
        off32[i + 1] = (int32_t)off64[i + 1];
        continued(ctx, mac, data + off64[i], lens[i], flags, want + 32 * i);
    }
    memset(got, 0, sizeof got);
    ok &= (mac ? libsha_sha256_batch(got, BATCH_OFFSETS64(data, off64, n), NULL, mac, flags)
               : libsha_sha256_batch(got, BATCH_OFFSETS64(data, off64, n), ctx, NULL, flags)) == LIBSHA_OK
          && memcmp(got, want, 32 * n) == 0;
    memset(got, 0, sizeof got);
    ok &= (mac ? libsha_sha256_batch(got, BATCH_OFFSETS32(data, off32, n), NULL, mac, flags)
               : libsha_sha256_batch(got, BATCH_OFFSETS32(data, off32, n), ctx, NULL, flags)) == LIBSHA_OK
          && memcmp(got, want, 32 * n) == 0;
    return ok;
}

/* Rows and views: n rows of one length, stride apart; the same as views into data. */
static int rows_and_views(const libsha_sha256_ctx *ctx, const libsha_hmac_sha256_ctx *mac, size_t len, size_t n)
{
    static unsigned char views[16 * POSITIONS];
    const void *buffers[1] = {data};
    int64_t size = (int64_t)sizeof data;
    size_t i, stride = len + 3;
    int ok = 1;
    for (i = 0; i < n; ++i) {
        int32_t l = (int32_t)len, index = 0, at = (int32_t)(stride * i);
        continued(ctx, mac, data + stride * i, len, 0, want + 32 * i);
        memset(views + 16 * i, 0, 16);
        memcpy(views + 16 * i, &l, 4);
        if (len <= 12) {
            memcpy(views + 16 * i + 4, data + stride * i, len);
        } else {
            memcpy(views + 16 * i + 8, &index, 4);
            memcpy(views + 16 * i + 12, &at, 4);
        }
    }
    memset(got, 0, sizeof got);
    ok &= (mac ? libsha_sha256_batch(got, BATCH_ROWS(data, stride, len, n), NULL, mac, 0)
               : libsha_sha256_batch(got, BATCH_ROWS(data, stride, len, n), ctx, NULL, 0)) == LIBSHA_OK
          && memcmp(got, want, 32 * n) == 0;
    memset(got, 0, sizeof got);
    ok &= (mac ? libsha_sha256_batch(got, BATCH_VIEWS(views, buffers, &size, 1, n), NULL, mac, 0)
               : libsha_sha256_batch(got, BATCH_VIEWS(views, buffers, &size, 1, n), ctx, NULL, 0)) == LIBSHA_OK
          && memcmp(got, want, 32 * n) == 0;
    return ok;
}

static const size_t prefix_lengths[] = {0, 1, 55, 63, 64, 65, 200, 1024};
static const size_t key_lengths[] = {0, 1, 32, 64, 65, 200};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every length 0..300 in each lane position (the others of other lengths), after each prefix and
 * under each key, in every form; a run of one length (the in-step path) at each length too. */
static void batches(const char *impl, size_t positions)
{
    size_t len, pos, j, s;
    for (s = 0; s < COUNT(prefix_lengths) + COUNT(key_lengths); ++s) {
        libsha_sha256_ctx ctx;
        libsha_hmac_sha256_ctx mac;
        int hmac = s >= COUNT(prefix_lengths), ok = 1;
        size_t starts[POSITIONS], lens[POSITIONS];
        if (hmac)
            libsha_hmac_sha256_init(&mac, data + 7, key_lengths[s - COUNT(prefix_lengths)]);
        else
            libsha_sha256_init(&ctx), libsha_sha256_update(&ctx, data + 5, prefix_lengths[s]);
        for (len = 0; len <= 300; ++len) {
            for (pos = 0; pos < positions; ++pos) {
                for (j = 0; j < positions; ++j) {
                    lens[j] = j == pos ? len : (len * 7 + j * 37) % 301;
                    starts[j] = (j * 131 + len) % 4096;
                }
                ok &= batch_forms(hmac ? NULL : &ctx, hmac ? &mac : NULL, starts, lens, positions, 0);
                if (!hmac && pos == 0)
                    ok &= batch_forms(&ctx, NULL, starts, lens, positions, LIBSHA_DOUBLE);
            }
            for (j = 0; j < positions; ++j) /* one length: the in-step path */
                lens[j] = len, starts[j] = j * 301;
            ok &= batch_forms(hmac ? NULL : &ctx, hmac ? &mac : NULL, starts, lens, positions, 0);
            ok &= rows_and_views(hmac ? NULL : &ctx, hmac ? &mac : NULL, len, positions);
        }
        check(ok, impl, hmac ? "HMAC batches, every length in every lane position, key length"
                             : "batches after a prefix, every length in every lane position, prefix length",
              hmac ? key_lengths[s - COUNT(prefix_lengths)] : prefix_lengths[s]);
    }
}

static void batch_refusals(const char *impl)
{
    libsha_sha256_ctx ctx, dead;
    libsha_hmac_sha256_ctx mac;
    const void *msgs[2] = {data, data};
    size_t lens[2] = {10, 20}, huge[2] = {10, (size_t)(((uint64_t)1 << 61) - 1 - 99)};
    int ok;
    libsha_sha256_init(&ctx);
    libsha_sha256_update(&ctx, data, 100);
    libsha_hmac_sha256_init(&mac, data, 10);
    libsha_sha256_init(&dead);
    libsha_sha256_final(&dead, got);
    memset(got, 0x5a, 64);
    ok = libsha_sha256_batch(got, BATCH_POINTERS(msgs, lens, 2), NULL, &mac, LIBSHA_DOUBLE) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_batch(got, BATCH_POINTERS(msgs, lens, 2), &dead, NULL, 0) == LIBSHA_ERR_STATE;
    ok &= libsha_sha256_batch(got, NULL, &ctx, NULL, 0) == LIBSHA_ERR_NULL;
    ok &= libsha_sha256_batch(got, BATCH_POINTERS(msgs, lens, 2), &ctx, &mac, 0) == LIBSHA_ERR_ARGUMENT; /* one start */
    ok &= libsha_sha256_batch(got, &(libsha_batch){.layout = LIBSHA_VIEWS + 1, .n = 2, .msgs = msgs, .lens = lens},
                              &ctx, NULL, 0) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_batch(got, &(libsha_batch){.layout = -1, .n = 2, .msgs = msgs, .lens = lens}, NULL, NULL,
                              0) == LIBSHA_ERR_ARGUMENT;
    ok &= hmac_many_with_key(got, NULL, 3, BATCH_POINTERS(msgs, lens, 2), 0) == LIBSHA_ERR_NULL;
    if (sizeof(size_t) >= 8) /* past the limit less the prefix: refused before a byte is read */
        ok &= libsha_sha256_batch(got, BATCH_POINTERS(msgs, huge, 2), &ctx, NULL, 0) == LIBSHA_ERR_TOO_LONG;
    ok &= got[0] == 0x5a && got[63] == 0x5a; /* nothing written */
    ok &= libsha_sha256_batch((unsigned char *)&ctx, BATCH_POINTERS(msgs, lens, 2), &ctx, NULL, 0) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_batch((unsigned char *)&mac + 100, BATCH_POINTERS(msgs, lens, 2), NULL, &mac, 0) == LIBSHA_ERR_ARGUMENT;
    ok &= libsha_sha256_batch(got, BATCH_POINTERS(msgs, lens, 0), &ctx, NULL, 0) == LIBSHA_OK;
    check(ok, impl, "batch refusals", 0);
}

int main(void)
{
    static const size_t boundaries[] = {64, 128, 192, 1024, 4096, 65536, 1 << 20};
    size_t every[301], i, j, widest, count = 0;
    const char *rows[32], *name;
    int runnable, one_way_new, lanes_new;
    static struct kernel_sets seen;

    pattern251(data, sizeof data, 1, 3);
    pattern251(message, sizeof message, 3, 7);
    pattern251(key, sizeof key, 11, 13);
    check(unhex(KNOWN_SHA256, known) == LIBSHA_STATE_SIZE && unhex(KNOWN_HMAC, known_hmac) == LIBSHA_HMAC_STATE_SIZE,
          "-", "the known states' sizes", 0);
    libsha_select("standard");
    libsha_sha256(message, sizeof message, digest_of_message);
    libsha_hmac_sha256(key, sizeof key, message, sizeof message, mac_of_message);
    for (i = 0; i <= 300; ++i)
        every[i] = i;
    for (i = 0; (name = libsha_implementation_at(i, &runnable)) != NULL && count < 32; ++i)
        if (runnable)
            rows[count++] = name;
    for (i = 0; i < count; ++i) {
        long before = passed;
        check(libsha_select(rows[i]) == LIBSHA_OK, rows[i], "select", 0);
        known_states(rows[i]);
        contracts(rows[i]);
        resume_across(rows[i], rows[(i + 1) % count], every, 301);
        resume_across(rows[(i + 1) % count], rows[i], boundaries, COUNT(boundaries));
        for (j = 0; j < count; ++j) /* every pair, at a few lengths */
            resume_across(rows[i], rows[j], every + 63, 3);
        libsha_select(rows[i]);
        new_kernels(&seen, rows[i], &one_way_new, &lanes_new, &widest);
        if (lanes_new || i == 0)
            batches(rows[i], widest + 1), batch_refusals(rows[i]);
        printf("%s: %ld passed%s\n", rows[i], passed - before, lanes_new || i == 0 ? ", batches from a context" : "");
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0 || count == 0;
}
