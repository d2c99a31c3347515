/*
 * libFuzzer harness: many streams at once (libsha_sha256_update_many,
 * _final_many, libsha_hmac_sha256_update_many) against OpenSSL's EVP streams
 * fed the same chunks. Input: [implementation selector][stream count][chunk
 * plan...]. The plan's bytes (read cyclically from the input) give each of
 * eight rounds' chunk length per stream (0..2,047 bytes, or up to 15 whole
 * blocks) and where the chunk starts in a copy of the input (so a chunk may end
 * at the allocation's end: ASan sees any read past it); now and then one stream
 * goes through the one-stream calls alone in a round.
 * Any difference aborts (a finding).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "fuzz_row.h"
#include "libsha.h"

#define MAX_STREAMS 40

/* Stream i's HMAC key: the input's first bytes, 0..69 of them (short, block-sized and hashed keys). */
static size_t key_length(size_t i, size_t size)
{
    return i % 70 < size ? i % 70 : size;
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    static libsha_sha256_ctx ctx[MAX_STREAMS];
    static libsha_hmac_sha256_ctx hctx[MAX_STREAMS];
    static uint8_t joined[MAX_STREAMS][8 * 2048]; /* eight rounds of chunks up to 2,047 bytes */
    static size_t joined_len[MAX_STREAMS];
    EVP_MD_CTX *theirs[MAX_STREAMS];
    libsha_sha256_ctx *ctxs[MAX_STREAMS];
    libsha_hmac_sha256_ctx *hctxs[MAX_STREAMS];
    const void *data[MAX_STREAMS];
    size_t lens[MAX_STREAMS], n, i, plan_at = 2, at, rounds;
    unsigned char got[MAX_STREAMS * 32], want[32], mac[32];
    uint8_t *copy;

    if (size < 3)
        return 0;
    fuzz_select_row(input[0]);
    n = 1 + input[1] % MAX_STREAMS;
    /* The data: the whole input, copied so that its end is the allocation's end. */
    copy = (uint8_t *)malloc(size);
    if (copy == NULL)
        abort();
    memcpy(copy, input, size);
    for (i = 0; i < n; ++i) {
        libsha_sha256_init(&ctx[i]);
        ctxs[i] = &ctx[i];
        if (libsha_hmac_sha256_init(&hctx[i], copy, key_length(i, size)) != LIBSHA_OK)
            abort();
        hctxs[i] = &hctx[i];
        theirs[i] = EVP_MD_CTX_new();
        if (theirs[i] == NULL || !EVP_DigestInit_ex(theirs[i], EVP_sha256(), NULL))
            abort();
    }
    /* Eight rounds; the HMAC streams get the same chunks, checked against OpenSSL's HMAC of them joined. */
    memset(joined_len, 0, sizeof joined_len);
    for (rounds = 0, at = 0; rounds < 8; ++rounds) {
        uint8_t lone;
        for (i = 0; i < n; ++i) {
            uint8_t p = input[(plan_at++) % size];
            size_t len = p & 0x80 ? 64 * (size_t)(p & 15) : (size_t)p * 8 + (p & 7);
            at = (at + 131 * i + len) % (size + 1);
            if (len > size - at)
                len = size - at;
            data[i] = copy + at, lens[i] = len;
            if (!EVP_DigestUpdate(theirs[i], copy + at, len))
                abort();
            memcpy(joined[i] + joined_len[i], copy + at, len);
            joined_len[i] += len;
        }
        lone = input[(plan_at++) % size];
        if (lone % 5 == 0) { /* one stream alone this round, through the one-stream calls */
            size_t k = lone % n;
            if (libsha_sha256_update(&ctx[k], data[k], lens[k]) != LIBSHA_OK
                || libsha_hmac_sha256_update(&hctx[k], data[k], lens[k]) != LIBSHA_OK)
                abort();
            lens[k] = 0;
        }
        if (libsha_sha256_update_many(ctxs, data, lens, n) != LIBSHA_OK
            || libsha_hmac_sha256_update_many(hctxs, data, lens, n) != LIBSHA_OK)
            abort();
    }
    for (i = 0; i < n; ++i) {
        unsigned int len32 = 32;
        if (HMAC(EVP_sha256(), copy, (int)key_length(i, size), joined[i], joined_len[i], want, &len32) == NULL)
            abort();
        if (libsha_hmac_sha256_final(&hctx[i], mac) != LIBSHA_OK || memcmp(mac, want, 32) != 0)
            abort();
    }
    if (libsha_sha256_final_many(got, ctxs, n) != LIBSHA_OK)
        abort();
    for (i = 0; i < n; ++i) {
        unsigned int len32 = 32;
        if (!EVP_DigestFinal_ex(theirs[i], want, &len32) || memcmp(got + 32 * i, want, 32) != 0)
            abort();
        EVP_MD_CTX_free(theirs[i]);
    }
    if (libsha_sha256_update_many(ctxs, data, lens, n) != LIBSHA_ERR_STATE) /* finished: refused */
        abort();
    free(copy);
    return 0;
}
