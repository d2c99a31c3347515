/* PBKDF2-HMAC-SHA256 (RFC 8018 5.2). Each 32-byte block of a derived key is
 * one chain, U1 = HMAC(P, S || INT(i)), then U(j+1) = HMAC(P, U(j)), the
 * block the xor of them all. Every U after the first is two compressions of
 * a 32-byte input with a known padding from the password's two pad states,
 * so the iterations go to the row's chain kernels (several chains in their
 * lanes: a key's blocks, and many derivations' keys), never through the
 * generic update path. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "fips180.h"
#include "kdf/kdf.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"

/* Chains made and run together: 64 of them are 8 KiB on the stack. */
#define CHUNK 64

/* RFC 8018: a derived key of at most (2^32 - 1) blocks. */
static int too_long(size_t out_len)
{
    return (uint64_t)out_len / 32 > (uint64_t)0xffffffffu - (out_len % 32 != 0);
}

/* n chains, each `count` iterations further, in the row's widest kernels and
 * the narrower ones for the rest (every row has chains[1]); lanes past the
 * last chain run a copy of it (wiped here). */
static void run_chains(const struct libsha_impl *impl, struct libsha_chain *chains, size_t n, uint64_t count)
{
    struct libsha_chain spare;
    size_t widest, done = 0, w, lane;
    unsigned widths;
    int used_spare = 0;

    if (count == 0)
        return;
    LIBSHA_WIDTHS_OF(impl->chains, widths, widest);
    for (; done < n; done += w) {
        struct libsha_chain *lanes[LIBSHA_MAX_LANES];
        w = libsha_pick_width(widths, widest, n - done);
        for (lane = 0; lane < w; ++lane)
            lanes[lane] = done + lane < n ? &chains[done + lane] : &spare;
        if (done + w > n)
            spare = chains[done], used_spare = 1;
        impl->chains[w](lanes, count);
    }
    if (used_spare)
        libsha_wipe_bytes(&spare, sizeof spare);
}

/* Checks before anything is read or written: LIBSHA_OK, or the error. */
static int check(unsigned char *out, size_t out_len, const void *const *passwords, const size_t *password_lens,
                 const void *const *salts, const size_t *salt_lens, size_t n, uint64_t iterations)
{
    size_t i;
    if (n > 0 && (passwords == NULL || password_lens == NULL || salts == NULL || salt_lens == NULL))
        return LIBSHA_ERR_NULL;
    if (out == NULL && out_len > 0 && n > 0)
        return LIBSHA_ERR_NULL;
    if (iterations == 0 || too_long(out_len) || (out_len > 0 && n > SIZE_MAX / out_len))
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < n; ++i) {
        if ((passwords[i] == NULL && password_lens[i] > 0) || (salts[i] == NULL && salt_lens[i] > 0))
            return LIBSHA_ERR_NULL;
        /* The salt and a block's index follow the inner pad's block in one message. */
        if ((uint64_t)salt_lens[i] > LIBSHA_MAX_MESSAGE_BYTES - 64 - 4)
            return LIBSHA_ERR_TOO_LONG;
        if (libsha_overlaps(out, n * out_len, passwords[i], password_lens[i])
            || libsha_overlaps(out, n * out_len, salts[i], salt_lens[i]))
            return LIBSHA_ERR_ARGUMENT;
    }
    return LIBSHA_OK;
}

int libsha_pbkdf2_on(const struct libsha_impl *impl, unsigned char *out, size_t out_len,
                     const void *const *passwords, const size_t *password_lens, const void *const *salts,
                     const size_t *salt_lens, size_t n, uint64_t iterations)
{
    struct libsha_chain chains[CHUNK];
    libsha_hmac_sha256_ctx keyed, salted, block;
    size_t blocks = out_len / 32 + (out_len % 32 != 0), key = 0, index = 0, first_key, first_index, k, i;
    unsigned char be[4], u1[32];
    int err = check(out, out_len, passwords, password_lens, salts, salt_lens, n, iterations);

    if (err != LIBSHA_OK || out_len == 0)
        return err;
    while (key < n) {
        /* A chunk of chains: U1 of each, the keyed and salted contexts made once per key. */
        first_key = key, first_index = index;
        for (k = 0; k < CHUNK && key < n; ++k) {
            if (k == 0 || index == 0) {
                libsha_hmac_start(impl, &keyed, (const unsigned char *)passwords[key], password_lens[key]);
                salted = keyed;
                libsha_stream_update(impl, &salted.inner, salts[key], salt_lens[key]); /* checked */
            }
            block = salted;
            libsha_store_be32(be, (uint32_t)(index + 1));
            libsha_stream_update(impl, &block.inner, be, 4);
            libsha_hmac_finish(impl, &block, u1);
            memcpy(chains[k].inner, keyed.inner.state, 32);
            memcpy(chains[k].outer, keyed.outer.state, 32);
            for (i = 0; i < 8; ++i)
                chains[k].u[i] = chains[k].t[i] = libsha_load_be32(u1 + 4 * i);
            if (++index == blocks)
                ++key, index = 0;
        }
        run_chains(impl, chains, k, iterations - 1);
        /* Each chain's T to its key's block; a key's last block may be cut short. */
        for (i = 0, key = first_key, index = first_index; i < k; ++i) {
            unsigned char t[32];
            size_t at = index * 32, len = out_len - at < 32 ? out_len - at : 32;
            libsha_store_digest(t, chains[i].t);
            memcpy(out + key * out_len + at, t, len);
            libsha_wipe_bytes(t, sizeof t);
            if (++index == blocks)
                ++key, index = 0;
        }
    }
    libsha_wipe_bytes(chains, sizeof chains);
    libsha_hmac_sha256_wipe(&keyed);
    libsha_hmac_sha256_wipe(&salted);
    libsha_wipe_bytes(u1, sizeof u1);
    return LIBSHA_OK;
}

int libsha_pbkdf2_hmac_sha256_many(unsigned char *out, size_t out_len, const void *const *passwords,
                                   const size_t *password_lens, const void *const *salts, const size_t *salt_lens,
                                   size_t n, uint64_t iterations)
{
    /* One row for the whole call, even if another thread switches. */
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_pbkdf2_on(impl, out, out_len, passwords, password_lens, salts, salt_lens, n, iterations);
}

int libsha_pbkdf2_hmac_sha256(unsigned char *out, size_t out_len, const void *password, size_t password_len,
                              const void *salt, size_t salt_len, uint64_t iterations)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    return libsha_pbkdf2_on(impl, out, out_len, &password, &password_len, &salt, &salt_len, 1, iterations);
}
