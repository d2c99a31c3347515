/*
 * libFuzzer harness: saved states (libsha_sha256_import, libsha_hmac_sha256_import, the midstate
 * calls). Input: [mode][position][value][bytes...]. Mode 0: the bytes are a state as they come;
 * else a valid state (of the bytes hashed as a message, or as an HMAC's key and message) with the
 * byte at `position` set to `value`, or cut at `position`. Whatever import says: on refusal the
 * context is untouched (every byte); on success the state is canonical (export gives the same
 * bytes back), and the context hashes on: its digest equals that of its export imported again,
 * after more bytes, and a valid state changed in one byte or cut short is refused. Under ASan
 * and UBSan: no read past a state's size, no undefined behaviour on any length field.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libsha.h"

static void import_sha256(const uint8_t *state, size_t size, int changed)
{
    libsha_sha256_ctx ctx, before, again;
    unsigned char out[LIBSHA_STATE_SIZE], digest[32], digest_again[32];
    int err;
    memset(&ctx, 0xa5, sizeof ctx);
    before = ctx;
    err = libsha_sha256_import(&ctx, state, size);
    if (err != LIBSHA_OK) {
        if (err != LIBSHA_ERR_FORMAT || memcmp(&ctx, &before, sizeof ctx) != 0)
            abort();
        return;
    }
    if (changed) /* a valid state with one byte changed or cut short: the check must catch it */
        abort();
    if (size != LIBSHA_STATE_SIZE || libsha_sha256_export(&ctx, out) != LIBSHA_OK || memcmp(out, state, size) != 0)
        abort();
    if (libsha_sha256_import(&again, out, sizeof out) != LIBSHA_OK)
        abort();
    if (libsha_sha256_update(&ctx, state, 7) == LIBSHA_OK) { /* TOO_LONG at the limit */
        libsha_sha256_update(&again, state, 7);
    }
    if (libsha_sha256_final(&ctx, digest) != LIBSHA_OK || libsha_sha256_final(&again, digest_again) != LIBSHA_OK
        || memcmp(digest, digest_again, 32) != 0)
        abort();
}

static void import_hmac(const uint8_t *state, size_t size, int changed)
{
    libsha_hmac_sha256_ctx ctx, before;
    unsigned char out[LIBSHA_HMAC_STATE_SIZE], mac[32];
    int err;
    memset(&ctx, 0x5a, sizeof ctx);
    before = ctx;
    err = libsha_hmac_sha256_import(&ctx, state, size);
    if (err != LIBSHA_OK) {
        if (err != LIBSHA_ERR_FORMAT || memcmp(&ctx, &before, sizeof ctx) != 0)
            abort();
        return;
    }
    if (changed || size != LIBSHA_HMAC_STATE_SIZE || libsha_hmac_sha256_export(&ctx, out) != LIBSHA_OK
        || memcmp(out, state, size) != 0)
        abort();
    if (libsha_hmac_sha256_final(&ctx, mac) != LIBSHA_OK)
        abort();
}

static void midstates(const uint8_t *bytes, size_t len)
{
    libsha_sha256_ctx ctx;
    unsigned char words[32];
    uint64_t length = 0, asked;
    if (len < 40)
        return;
    memcpy(&asked, bytes + 32, 8);
    libsha_sha256_init(&ctx);
    if (libsha_sha256_init_midstate(&ctx, bytes, asked) == LIBSHA_OK) {
        if (asked % 64 != 0 || asked > ((uint64_t)1 << 61) - 1)
            abort();
        if (libsha_sha256_midstate(&ctx, words, &length) != LIBSHA_OK || length != asked || memcmp(words, bytes, 32) != 0)
            abort();
    } else if (asked % 64 == 0 && asked <= ((uint64_t)1 << 61) - 1) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    static uint8_t state[LIBSHA_HMAC_STATE_SIZE];
    const uint8_t *bytes = input + 3;
    size_t len, n;
    if (size < 3)
        return 0;
    len = size - 3;
    if (input[0] == 0) {
        import_sha256(bytes, len, 0);
        import_hmac(bytes, len, 0);
        midstates(bytes, len);
        return 0;
    }
    if (input[0] % 2) { /* a SHA-256 state of the bytes */
        libsha_sha256_ctx ctx;
        libsha_sha256_init(&ctx);
        libsha_sha256_update(&ctx, bytes, len);
        libsha_sha256_export(&ctx, state);
        n = LIBSHA_STATE_SIZE;
    } else { /* an HMAC's: the first third its key */
        libsha_hmac_sha256_ctx ctx;
        libsha_hmac_sha256_init(&ctx, bytes, len / 3);
        libsha_hmac_sha256_update(&ctx, bytes + len / 3, len - len / 3);
        libsha_hmac_sha256_export(&ctx, state);
        n = LIBSHA_HMAC_STATE_SIZE;
    }
    if (input[0] % 4 < 2) { /* one byte changed */
        size_t at = input[1] % n;
        int changed = state[at] != input[2];
        state[at] = input[2];
        import_sha256(state, n, changed && n == LIBSHA_STATE_SIZE);
        import_hmac(state, n, changed && n == LIBSHA_HMAC_STATE_SIZE);
    } else { /* cut short */
        size_t cut = input[1] % n;
        import_sha256(state, cut, 1);
        import_hmac(state, cut, 1);
    }
    return 0;
}
