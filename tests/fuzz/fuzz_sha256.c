/*
 * libFuzzer harness: libsha against OpenSSL's libcrypto on the same bytes.
 * Input: [implementation selector][chunking seed][message...]. The message is
 * hashed one-shot (also through the int-length entry) and streamed in chunks
 * the seed chooses, on the selected implementation; whole 64-byte blobs also
 * go through SHA256D64, in place and not; a copy of the context is finished
 * mid-stream, and the finished context must be refused. HMAC-SHA256 is
 * checked against OpenSSL's HMAC() the same way, under a key cut from the
 * front of the message (the seed picks its length, 0..160, so short,
 * block-sized and hashed keys all occur). The message's 32-byte leaves also
 * go through the Merkle root, against Bitcoin Core's algorithm on OpenSSL.
 * The message is also cut into up to 64 consecutive messages (lengths from
 * its own bytes, so lanes end at different blocks) hashed at once, through
 * pointers, both offsets forms and binary views, with or without LIBSHA_DOUBLE,
 * and again after a prefix and under an HMAC key cut from its front, and
 * libsha_hex encodes the message. One input in four is also written to a file
 * and read back by libsha_sha256_file and libsha_sha256_files. The message's
 * first bytes are also CPUID readings for the CPU decision (check_decision)
 * and a LIBSHA_IMPL value for libsha_config_check (check_config).
 * Any difference aborts (a finding).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "../c/batches.h"
#include "bench/bench.h"
#include "fuzz_row.h"
#include "libsha_dispatch.h"

static void openssl_sha256(const uint8_t *data, size_t len, unsigned char out[32])
{
    unsigned int n = 32;
    if (!EVP_Digest(data, len, out, &n, EVP_sha256(), NULL))
        abort();
}

static void check_hmac(const uint8_t *msg, size_t len, unsigned seed)
{
    size_t keylen = (seed * 37u) % 161u, pos, chunk, i;
    unsigned char expected[32], got[32];
    unsigned int n = 32;
    libsha_hmac_sha256_ctx ctx;

    if (keylen > len)
        keylen = len;
    if (HMAC(EVP_sha256(), msg, (int)keylen, msg + keylen, len - keylen, expected, &n) == NULL || n != 32)
        abort();
    if (libsha_hmac_sha256(msg, keylen, msg + keylen, len - keylen, got) != LIBSHA_OK || memcmp(got, expected, 32) != 0)
        abort();
    if (libsha_hmac_sha256_init(&ctx, msg, keylen) != LIBSHA_OK)
        abort();
    for (pos = keylen, i = 0; pos < len; pos += chunk, ++i) {
        chunk = 1 + (size_t)((seed * (i + 3) * 17u) % 97u);
        if (chunk > len - pos)
            chunk = len - pos;
        if (libsha_hmac_sha256_update(&ctx, msg + pos, chunk) != LIBSHA_OK)
            abort();
    }
    if (libsha_hmac_sha256_final(&ctx, got) != LIBSHA_OK || memcmp(got, expected, 32) != 0)
        abort();
    if (libsha_hmac_sha256_update(&ctx, msg, len) != LIBSHA_ERR_STATE || libsha_hmac_sha256_final(&ctx, got) != LIBSHA_ERR_STATE)
        abort();
}

/* The Merkle root of the message's whole 32-byte leaves (at most 160),
 * against Bitcoin Core's algorithm on OpenSSL's SHA-256; then the same with
 * the last leaf repeated, which an odd count must flag and not change. */
static void check_merkle(const uint8_t *msg, size_t len)
{
    static unsigned char level[32 * 162];
    unsigned char got[32], expected[32], inner[32];
    size_t n = len / 32 > 160 ? 160 : len / 32, count, pos;
    int mutated, want = 0, repeat;

    for (repeat = 0; repeat <= (n % 2 == 1 && n > 1); ++repeat) {
        count = n + (size_t)repeat;
        memcpy(level, msg, 32 * n);
        if (repeat)
            memcpy(level + 32 * n, msg + 32 * (n - 1), 32);
        if (libsha_merkle_root(got, level, count, &mutated) != LIBSHA_OK)
            abort();
        if (count == 0)
            memset(level, 0, 32);
        want = 0;
        while (count > 1) {
            for (pos = 0; pos + 1 < count; pos += 2)
                want |= memcmp(level + 32 * pos, level + 32 * pos + 32, 32) == 0;
            if (count & 1)
                memcpy(level + 32 * count, level + 32 * (count - 1), 32), ++count;
            for (pos = 0; pos < count / 2; ++pos) {
                openssl_sha256(level + 64 * pos, 64, inner);
                openssl_sha256(inner, 32, level + 32 * pos);
            }
            count /= 2;
        }
        if (repeat == 0)
            memcpy(expected, level, 32);
        if (memcmp(got, level, 32) != 0 || mutated != want || (repeat && (!mutated || memcmp(got, expected, 32) != 0)))
            abort();
    }
}

/* Many messages: msg cut at lengths its bytes choose (often short, some past
 * several blocks), after a skipped prefix the seed picks (a sliced Arrow
 * array's first offset above 0). */
static void check_many(const uint8_t *msg, size_t len, unsigned seed)
{
    enum { MAX_MSGS = 64 };
    static unsigned char got[32 * MAX_MSGS], expected[32 * MAX_MSGS];
    const void *ptrs[MAX_MSGS];
    size_t lens[MAX_MSGS], n = 0, pos = seed % 7 < len ? seed % 7 : len, i;
    int32_t off32[MAX_MSGS + 1];
    int64_t off64[MAX_MSGS + 1];
    unsigned flags = seed & 1 ? LIBSHA_DOUBLE : 0;

    off32[0] = (int32_t)pos, off64[0] = (int64_t)pos;
    while (n < MAX_MSGS && pos < len) {
        size_t want = msg[pos] % 4 == 0 ? (size_t)msg[pos] * 3 : (size_t)msg[pos] % 70;
        lens[n] = want < len - pos ? want : len - pos;
        ptrs[n] = lens[n] == 0 && n % 2 ? NULL : msg + pos;
        openssl_sha256(msg + pos, lens[n], expected + 32 * n);
        if (flags)
            openssl_sha256(expected + 32 * n, 32, expected + 32 * n);
        pos += lens[n++];
        off32[n] = (int32_t)pos, off64[n] = (int64_t)pos;
    }
    if (libsha_sha256_many(got, ptrs, lens, n, flags) != LIBSHA_OK || memcmp(got, expected, 32 * n) != 0)
        abort();
    memset(got, 0, sizeof got);
    if (libsha_sha256_batch(got, BATCH_OFFSETS32(msg, off32, n), NULL, NULL, flags) != LIBSHA_OK || memcmp(got, expected, 32 * n) != 0)
        abort();
    memset(got, 0, sizeof got);
    if (libsha_sha256_batch(got, BATCH_OFFSETS64(msg, off64, n), NULL, NULL, flags) != LIBSHA_OK || memcmp(got, expected, 32 * n) != 0)
        abort();
    { /* Arrow's binary views over the same pieces: short ones inline, the rest in msg */
        static unsigned char views[16 * MAX_MSGS];
        const void *buffers[1] = {msg};
        int64_t size = (int64_t)len;
        for (i = 0; i < n; ++i) {
            int32_t piece = (int32_t)lens[i], index = 0, at = (int32_t)off64[i];
            memset(views + 16 * i, 0, 16);
            memcpy(views + 16 * i, &piece, 4);
            if (lens[i] <= 12) {
                memcpy(views + 16 * i + 4, msg + at, lens[i]);
            } else {
                memcpy(views + 16 * i + 8, &index, 4);
                memcpy(views + 16 * i + 12, &at, 4);
            }
        }
        memset(got, 0, sizeof got);
        if (libsha_sha256_batch(got, BATCH_VIEWS(views, buffers, &size, 1, n), NULL, NULL, flags) != LIBSHA_OK
            || memcmp(got, expected, 32 * n) != 0)
            abort();
    }
    { /* the same digests as hex, made by the hashing call */
        static unsigned char text[64 * MAX_MSGS];
        static const char digit[] = "0123456789abcdef";
        if (libsha_sha256_batch(text, BATCH_OFFSETS64(msg, off64, n), NULL, NULL, flags | LIBSHA_HEX) != LIBSHA_OK)
            abort();
        for (i = 0; i < 32 * n; ++i)
            if (text[2 * i] != digit[expected[i] >> 4] || text[2 * i + 1] != digit[expected[i] & 15])
                abort();
    }
    { /* rows of one length the last bytes pick, stride apart (0: one row over and over) */
        size_t row_len = len > 0 ? msg[len - 1] % 150u : 0, gap = len > 1 ? msg[len - 2] % 9u : 0;
        size_t stride = gap == 8 ? 0 : row_len + gap, rows = 0;
        while (rows < MAX_MSGS && (rows == 0 ? row_len : stride * rows + row_len) <= len
               && (rows == 0 || stride > 0 || rows < 5)) {
            openssl_sha256(msg + stride * rows, row_len, expected + 32 * rows);
            if (flags)
                openssl_sha256(expected + 32 * rows, 32, expected + 32 * rows);
            ++rows;
        }
        memset(got, 0, sizeof got);
        if (libsha_sha256_batch(got, BATCH_ROWS(row_len ? msg : NULL, stride, row_len, rows), NULL, NULL, flags) != LIBSHA_OK
            || memcmp(got, expected, 32 * rows) != 0)
            abort();
    }
    for (i = 0; i + 1 < n; ++i) /* one decreasing offset: refused, nothing written */
        if (off64[i + 1] > off64[i]) {
            int64_t keep = off64[i + 1];
            memset(got, 0x5a, sizeof got);
            off64[i + 1] = off64[i] - 1;
            if (libsha_sha256_batch(got, BATCH_OFFSETS64(msg, off64, n), NULL, NULL, flags) != LIBSHA_ERR_ARGUMENT || got[0] != 0x5a)
                abort();
            off64[i + 1] = keep;
            break;
        }
}

/* Batches from a context: msg cut as check_many cuts it, each piece hashed after a prefix (the
 * front of msg, 0..149 bytes the seed picks) and under an HMAC key (0..160 bytes), through
 * pointers, Arrow offsets and rows, against OpenSSL; the contexts must come out unchanged. */
static void check_after(const uint8_t *msg, size_t len, unsigned seed)
{
    enum { MAX_MSGS = 40 };
    static unsigned char got[32 * MAX_MSGS], want_prefix[32 * MAX_MSGS], want_hmac[32 * MAX_MSGS];
    const void *ptrs[MAX_MSGS];
    size_t lens[MAX_MSGS], n = 0, pos = 0, i;
    size_t plen = (seed * 13u) % 150u, keylen = (seed * 37u) % 161u;
    int64_t off64[MAX_MSGS + 1];
    libsha_sha256_ctx prefix, prefix_before;
    libsha_hmac_sha256_ctx key, key_before;
    unsigned int mac_len = 32;

    plen = plen < len ? plen : len;
    keylen = keylen < len ? keylen : len;
    libsha_sha256_init(&prefix);
    if (libsha_sha256_update(&prefix, msg, plen) != LIBSHA_OK || libsha_hmac_sha256_init(&key, msg, keylen) != LIBSHA_OK)
        abort();
    prefix_before = prefix, key_before = key;
    off64[0] = 0;
    while (n < MAX_MSGS && pos < len) {
        size_t want = msg[pos] % 4 == 0 ? (size_t)msg[pos] * 3 : (size_t)msg[pos] % 70;
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        lens[n] = want < len - pos ? want : len - pos;
        ptrs[n] = msg + pos;
        if (md == NULL || !EVP_DigestInit_ex(md, EVP_sha256(), NULL) || !EVP_DigestUpdate(md, msg, plen)
            || !EVP_DigestUpdate(md, msg + pos, lens[n]) || !EVP_DigestFinal_ex(md, want_prefix + 32 * n, NULL))
            abort();
        EVP_MD_CTX_free(md);
        if (HMAC(EVP_sha256(), msg, (int)keylen, msg + pos, lens[n], want_hmac + 32 * n, &mac_len) == NULL)
            abort();
        pos += lens[n++];
        off64[n] = (int64_t)pos;
    }
    if (libsha_sha256_batch(got, BATCH_POINTERS(ptrs, lens, n), &prefix, NULL, 0) != LIBSHA_OK || memcmp(got, want_prefix, 32 * n) != 0)
        abort();
    memset(got, 0, sizeof got);
    if (libsha_sha256_batch(got, BATCH_OFFSETS64(msg, off64, n), &prefix, NULL, 0) != LIBSHA_OK
        || memcmp(got, want_prefix, 32 * n) != 0)
        abort();
    if (libsha_sha256_batch(got, BATCH_POINTERS(ptrs, lens, n), NULL, &key, 0) != LIBSHA_OK || memcmp(got, want_hmac, 32 * n) != 0)
        abort();
    memset(got, 0, sizeof got);
    if (hmac_many_with_key(got, msg, keylen, BATCH_POINTERS(ptrs, lens, n), 0) != LIBSHA_OK || memcmp(got, want_hmac, 32 * n) != 0)
        abort();
    { /* the first piece's length as rows: every row the same bytes */
        size_t row = n > 0 ? lens[0] : 0, rows = n < 5 ? n : 5;
        memset(got, 0, sizeof got);
        if (libsha_sha256_batch(got, BATCH_ROWS(msg, 0, row, rows), NULL, &key, 0) != LIBSHA_OK)
            abort();
        for (i = 0; i < rows; ++i)
            if (memcmp(got + 32 * i, want_hmac, 32) != 0)
                abort();
    }
    if (memcmp(&prefix, &prefix_before, sizeof prefix) != 0 || memcmp(&key, &key_before, sizeof key) != 0)
        abort(); /* read, never written */
    if (libsha_sha256_batch(got, BATCH_POINTERS(ptrs, lens, n), NULL, &key, LIBSHA_DOUBLE) != LIBSHA_ERR_ARGUMENT)
        abort();
    if (libsha_sha256_batch(got, BATCH_POINTERS(ptrs, lens, n), &prefix, &key, 0) != LIBSHA_ERR_ARGUMENT)
        abort(); /* one start at most */
    {
        libsha_batch unknown = *BATCH_POINTERS(ptrs, lens, n);
        unknown.layout = (seed & 1) ? LIBSHA_VIEWS + 1 + (int)(seed % 1000) : -1 - (int)(seed % 1000);
        memset(got, 0x5a, 32);
        if (libsha_sha256_batch(got, &unknown, NULL, NULL, 0) != LIBSHA_ERR_ARGUMENT || got[0] != 0x5a)
            abort(); /* an unknown layout: refused, nothing read or written */
    }
    libsha_sha256_wipe(&prefix);
    if (libsha_sha256_batch(got, BATCH_POINTERS(ptrs, lens, n), &prefix, NULL, 0) != LIBSHA_ERR_STATE)
        abort();
    libsha_hmac_sha256_wipe(&key);
}

/* libsha_hex of the message against a byte-by-byte encoding. */
static void check_hex(const uint8_t *msg, size_t len)
{
    static char got[2 * 4096 + 1];
    static const char digit[] = "0123456789abcdef";
    size_t i, n = len < 4096 ? len : 4096;

    got[2 * n] = '#';
    if (libsha_hex(got, msg, n) != LIBSHA_OK || got[2 * n] != '#')
        abort();
    for (i = 0; i < n; ++i)
        if (got[2 * i] != digit[msg[i] >> 4] || got[2 * i + 1] != digit[msg[i] & 15])
            abort();
}

/* The message as a file: the one-file call and a batch naming it twice (with a missing one between),
 * read ahead by the helper thread for odd lengths. One file in two is the message followed by a
 * 251-byte cycle of 16,385 to 86,384 bytes (the length from the message's last byte): a large file,
 * hashed as streams through the lanes, its head and chunks crossing the reads' borders. */
static void check_file(const uint8_t *msg, size_t len, const unsigned char expected[32])
{
    static char path[64];
    const char *paths[3];
    unsigned char got[96], large_digest[32];
    const unsigned char *want = expected;
    unsigned char *content = NULL;
    const uint8_t *bytes = msg;
    size_t size = len, k;
    int errors[3], os_error;
    libsha_files_control control;
    FILE *f;

    if (path[0] == 0)
        snprintf(path, sizeof path, "/tmp/libsha_fuzz_%ld.bin", (long)getpid());
    if (len > 0 && (msg[0] & 2)) {
        size = len + 16385 + (size_t)msg[len - 1] * 274;
        content = (unsigned char *)malloc(size);
        if (content == NULL)
            abort();
        memcpy(content, msg, len);
        for (k = len; k < size; ++k)
            content[k] = (unsigned char)(k % 251);
        SHA256(content, size, large_digest);
        bytes = content, want = large_digest;
    }
    f = fopen(path, "wb");
    if (f == NULL || fwrite(bytes, 1, size, f) != size || fclose(f) != 0)
        abort();
    if (libsha_sha256_file(path, got, &os_error) != LIBSHA_OK || os_error != 0 || memcmp(got, want, 32) != 0)
        abort();
    paths[0] = path, paths[1] = "/nonexistent/libsha_fuzz", paths[2] = path;
    memset(&control, 0, sizeof control);
    control.read_ahead = len & 1;
    if (libsha_sha256_files(got, errors, paths, 3, &control) != LIBSHA_ERR_IO || errors[0] != 0 || errors[1] == 0
        || errors[2] != 0 || memcmp(got, want, 32) != 0 || memcmp(got + 64, want, 32) != 0
        || control.bytes != 2 * (uint64_t)size)
        abort();
    if (libsha_sha256_files(got, errors, paths, 1, &control) != LIBSHA_OK || errors[0] != 0
        || memcmp(got, want, 32) != 0) /* alone: one lane, the helper reading where asked */
        abort();
    remove(path);
    free(content);
}

/* A batch peer in libsha_internal_peer_many_fn's shape: OpenSSL's SHA256() per message. */
/* The CPU decision on readings cut from the message (vendor one the model table names, one time
 * in two): the features and advice are bits the library names, the model entry (or none) gives
 * that advice, and libsha_implementation_for's row is the first whose needs the CPU meets under a
 * mask from the input. */
static void check_decision(const uint8_t *msg, size_t len, unsigned seed)
{
    static const char *const vendors[] = {"GenuineIntel", "AuthenticAMD", "HygonGenuine"};
    libsha_x86_cpuid id;
    unsigned features = 0, tuning = 0, again = 0, known_features = 0, known_tuning = 0, bit, entry_tuning = 0;
    unsigned use = seed % 16u, need_use, need_features, need_tuning;
    const char *model = NULL, *name, *entry, *row;
    size_t i;
    int matched = 0;

    memset(&id, 0, sizeof id);
    memcpy(&id, msg, len < sizeof id ? len : sizeof id);
    if (seed & 1u)
        memcpy(id.vendor, vendors[(seed >> 1) % 3u], 12);
    if (libsha_x86_decide(&id, &features, &tuning, &model) != LIBSHA_OK || libsha_x86_decide(&id, &again, NULL, NULL)
        || again != features)
        abort();
    for (i = 0; (name = libsha_cpu_feature_at(i, &bit)) != NULL; ++i)
        known_features |= bit;
    for (i = 0; (name = libsha_cpu_tuning_at(i, &bit)) != NULL; ++i)
        known_tuning |= bit;
    for (i = 0; !matched && model != NULL && (entry = libsha_cpu_model_at(i, &entry_tuning)) != NULL; ++i)
        matched = entry == model;
    if ((features & ~known_features) || (tuning & ~known_tuning) || (model != NULL && !matched)
        || tuning != (model != NULL ? entry_tuning : 0u))
        abort();
    row = libsha_implementation_for(use, features, tuning);
    for (i = 0; (name = libsha_implementation_needs(i, &need_use, &need_features, &need_tuning)) != NULL; ++i) {
        int takes = (need_use & ~use) == 0 && (need_features & ~features) == 0 && (need_tuning & ~tuning) == 0;
        if (takes != (name == row))
            abort(); /* an earlier row qualified, or the answer does not */
        if (takes)
            break;
    }
    if (name == NULL)
        abort();
}

/* A LIBSHA_IMPL value cut from the message: the same verdict whatever room the message has, the
 * message one NUL-terminated line inside that room, empty when the value is valid. */
static void check_config(const uint8_t *msg, size_t len)
{
    static const size_t rooms[] = {0, 1, 2, 9, 40, 256};
    char value[200], message[256 + 8];
    size_t n = len < sizeof value - 1 ? len : sizeof value - 1, r, i;
    int verdict;

    libsha_config_check(NULL, NULL, 0); /* the environment's value: read, never written */
    memcpy(value, msg, n);
    value[n] = '\0';
    verdict = libsha_config_check(value, NULL, 0);
    if (verdict != LIBSHA_OK && verdict != LIBSHA_ERR_ARGUMENT)
        abort();
    for (r = 0; r < sizeof rooms / sizeof rooms[0]; ++r) {
        memset(message, 'Z', sizeof message);
        if (libsha_config_check(value, rooms[r] ? message : NULL, rooms[r]) != verdict)
            abort();
        if (rooms[r] == 0)
            continue;
        for (i = 0; i < rooms[r] && message[i] != '\0'; ++i)
            if ((unsigned char)message[i] < 0x20 || message[i] == 0x7f)
                abort(); /* one line: control bytes are escaped */
        if (i == rooms[r] || message[rooms[r]] != 'Z' || (verdict == LIBSHA_OK && message[0] != '\0'))
            abort(); /* terminated inside its room, nothing past it, empty when valid */
    }
}

static int openssl_many(void *peer, unsigned char *out, const unsigned char *data, const int64_t *offsets, size_t n)
{
    size_t i;
    (void)peer;
    for (i = 0; i < n; ++i)
        SHA256(data + offsets[i], (size_t)(offsets[i + 1] - offsets[i]), out + 32 * i);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    static unsigned char blobs_out[32 * 64], in_place[64 * 64];
    unsigned char expected[32], got[32], inner[32];
    const uint8_t *msg;
    size_t len, count = 0, i, pos, chunk;
    const char *name;
    libsha_sha256_ctx ctx;

    if (size < 2)
        return 0;
    name = fuzz_select_row(input[0]);
    msg = input + 2, len = size - 2;
    {
        /* The feature table: each name has one bit, and it ends. */
        unsigned bit = 0;
        const char *feature = libsha_cpu_feature_at(input[1] % 8u, &bit);
        if (feature != NULL && (bit == 0 || (bit & (bit - 1)) != 0))
            abort();
    }
    if (len <= 256) {
        /* The peer loop gives what libsha's own benchmark loop gives. */
        unsigned char ours[256], theirs[256];
        memcpy(ours, msg, len);
        memcpy(theirs, msg, len);
        if (libsha_internal_bench(name, LIBSHA_INTERNAL_BENCH_HASH, ours, len, 2) != LIBSHA_OK
            || libsha_internal_bench_peer(SHA256, theirs, len, 2) != LIBSHA_OK || memcmp(ours, theirs, len) != 0)
            abort();
    }
    if (len <= 256) {
        /* The batch peer loop over a peer that is OpenSSL, message by message, gives what
         * libsha_internal_bench_many gives: the input cut into up to 8 messages at its own bytes. */
        unsigned char ours[256], theirs[256], out_ours[8 * 32], out_theirs[8 * 32];
        int64_t offsets[9];
        size_t n = 1 + (len > 0 ? msg[0] % 8u : 0), i;
        for (i = 0; i <= n; ++i)
            offsets[i] = (int64_t)(len * i / n);
        memcpy(ours, msg, len);
        memcpy(theirs, msg, len);
        if (libsha_internal_bench_many(name, out_ours, ours, offsets, n, 0, LIBSHA_INTERNAL_FROM_NOTHING, NULL, 0, 2) != LIBSHA_OK
            || libsha_internal_bench_peer_many(openssl_many, NULL, out_theirs, theirs, offsets, n, 2) != LIBSHA_OK
            || memcmp(ours, theirs, len) != 0 || memcmp(out_ours, out_theirs, 32 * n) != 0)
            abort();
    }

    openssl_sha256(msg, len, expected);
    if (libsha_sha256(msg, len, got) != LIBSHA_OK || memcmp(got, expected, 32) != 0)
        abort();
    libsha_sha256_init(&ctx);
    for (pos = 0, i = 0; pos < len; pos += chunk, ++i) {
        chunk = 1 + (size_t)((input[1] * (i + 1) * 31u) % 129u); /* 1..129: crosses block borders */
        if (chunk > len - pos)
            chunk = len - pos;
        if (libsha_sha256_update(&ctx, msg + pos, chunk) != LIBSHA_OK)
            abort();
        if (i == input[1] % 8u) { /* fork a copy mid-stream, as the header allows */
            libsha_sha256_ctx copy = ctx;
            openssl_sha256(msg, pos + chunk, inner);
            if (libsha_sha256_final(&copy, got) != LIBSHA_OK || memcmp(got, inner, 32) != 0)
                abort();
        }
    }
    if (libsha_sha256_final(&ctx, got) != LIBSHA_OK || memcmp(got, expected, 32) != 0)
        abort();
    /* A finished context is refused (its marker is gone), and so is data NULL with len > 0. */
    if (libsha_sha256_update(&ctx, msg, len) != LIBSHA_ERR_STATE || libsha_sha256_final(&ctx, got) != LIBSHA_ERR_STATE)
        abort();
    if (len > 0 && libsha_sha256(NULL, len, got) != LIBSHA_ERR_NULL)
        abort();

    check_hmac(msg, len, input[1]);
    check_decision(msg, len, input[1]);
    check_config(msg, len);
    check_merkle(msg, len);
    check_many(msg, len, input[1]);
    check_after(msg, len, input[1]);
    check_hex(msg, len);
    if (input[1] % 4u == 0)
        check_file(msg, len, expected);

    count = len / 64 > 64 ? 64 : len / 64;
    libsha_sha256d64(blobs_out, msg, count);
    memcpy(in_place, msg, 64 * count);
    libsha_sha256d64(in_place, in_place, count);
    for (i = 0; i < count; ++i) {
        openssl_sha256(msg + 64 * i, 64, inner);
        openssl_sha256(inner, 32, expected);
        if (memcmp(blobs_out + 32 * i, expected, 32) != 0 || memcmp(in_place + 32 * i, expected, 32) != 0)
            abort();
    }
    return 0;
}
