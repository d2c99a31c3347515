/* Private to libsha: what every implementation file and the dispatcher share. */
#ifndef LIBSHA_SHA256_IMPL_H
#define LIBSHA_SHA256_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpu_features.h"
#include "libsha_dispatch.h"

#if defined(_MSC_VER) && !defined(__clang__)
#  define LIBSHA_ALWAYS_INLINE __forceinline
#else
#  define LIBSHA_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

/* The kernels' types. Each kernel file declares the functions it defines
 * with them (e.g. `libsha_transform_f libsha_sse4_transform;`), and so does
 * registry.c beside the rows that use them: both are checked against
 * one type, and a new kernel touches no shared header. */

/* Compresses n consecutive 64-byte blocks (any alignment) into state. */
typedef void libsha_transform_f(uint32_t state[8], const unsigned char *blocks, size_t n);
typedef libsha_transform_f *libsha_transform_fn;
/* Optional: pads the last `used` (< 64) message bytes held in pending, whose
 * bit length is `bits`, compresses, and writes the digest. Where the generic
 * padding in memory would make the transform wait on byte-wide stores. */
typedef void libsha_finalize_f(uint32_t state[8], const unsigned char pending[64], size_t used, uint64_t bits,
                               unsigned char out[32]);
typedef libsha_finalize_f *libsha_finalize_fn;
/* Double SHA-256 of W consecutive 64-byte blobs into W 32-byte digests;
 * reads all of its input before writing any output, so out may equal in. */
typedef void libsha_d64_f(unsigned char *out, const unsigned char *in);
typedef libsha_d64_f *libsha_d64_fn;

/* Many independent messages, one per lane: lane i compresses the n
 * consecutive 64-byte blocks at blocks[i] into state[i] (a..h in natural
 * order). The states are distinct; block pointers may be shared. */
typedef void libsha_many_f(uint32_t *const state[], const unsigned char *const blocks[], size_t n);
typedef libsha_many_f *libsha_many_fn;

/* A message's last bytes, read in place: the len (< 64) bytes at rest, after
 * `before` bytes of the same message; bits is the message's length in bits.
 * kw, where not NULL (len 0 only): K + W of the tail's block, all padding,
 * which the caller made once for a batch of one length (libsha_length_block_kw);
 * a kernel may round on it in place of scheduling the block. */
struct libsha_tail {
    const unsigned char *rest;
    size_t len;
    size_t before;
    uint64_t bits;
    const uint32_t *kw;
    /* With LIBSHA_DOUBLE: the outer hash's state after its 64-byte key block
     * (an HMAC's), the same in every lane; NULL: SHA-256's initial state. */
    const uint32_t *outer;
};

/* Optional: finishes W lanes whose full blocks are done, each tail padded in
 * registers (tails[i].len < 56: one block), and with LIBSHA_DOUBLE the outer
 * hash too (from tails[0].outer where it is not NULL: an HMAC's); lane i's
 * digest goes to out[i]. Reads nothing outside a tail's
 * [rest - before, rest + len). */
typedef void libsha_many_last_f(uint32_t *const state[], const struct libsha_tail tails[],
                                unsigned char *const out[], unsigned flags);
typedef libsha_many_last_f *libsha_many_last_fn;

/* Where every message of a batch starts when it does not start from nothing:
 * `bytes` (a multiple of 64) hashed to `state`, then the head_len (< 64)
 * bytes at head, which every message continues (a prefix, or an HMAC's
 * inner pad and what its context took since). With outer set (HMAC), each
 * inner digest is then hashed from that state, after its 64-byte key block,
 * in place of LIBSHA_DOUBLE's outer hash. */
struct libsha_start {
    uint32_t state[8];
    uint64_t bytes;
    const unsigned char *head;
    size_t head_len;
    const uint32_t *outer;
};

/* Optional: W whole messages of one length `len` (len % 64 < 56: a single
 * tail block), lane i's at msgs[i] (NULL only when len is 0), hashed from
 * the initial state (or from start's, which has no head bytes) to their
 * digests in out[i], with LIBSHA_DOUBLE (or start's outer state) the outer
 * hash too: no state goes in or out, and the tails are padded in registers.
 * kw: when len % 64 == 0, K + W of the padding block that follows (the caller
 * makes it once for a batch of one length: libsha_length_block_kw); else
 * NULL. groups (>= 1) sets of W go through in one call: set g's message of
 * lane i is at msgs[i] + g * step, its digest goes to out[i] + g * 32 * W
 * (rows a stride apart: step is W strides, the digests end to end). The
 * common batch of a fixed-width column. Reads nothing outside a message. */
typedef void libsha_many_whole_f(const unsigned char *const msgs[], size_t len, unsigned char *const out[],
                                 unsigned flags, const struct libsha_start *start, const uint32_t *kw, size_t groups,
                                 size_t step);
typedef libsha_many_whole_f *libsha_many_whole_fn;

/* One PBKDF2 chain (RFC 8018's F for one output block): the password's HMAC
 * states after its ipad and opad blocks, the chain's last U (as words), and T,
 * the xor of every U so far. */
struct libsha_chain {
    uint32_t inner[8], outer[8], u[8], t[8];
};

/* Optional: W chains at once, each `count` iterations further (u = HMAC(password, u),
 * t ^= u): each iteration is two blocks of 32 bytes and a known padding, the
 * states never leaving registers between them. */
typedef void libsha_chains_f(struct libsha_chain *const chains[], uint64_t count);
typedef libsha_chains_f *libsha_chains_fn;

/* SHA-256's message limit (2^64 - 1 bits), in whole bytes. */
#define LIBSHA_MAX_MESSAGE_BYTES ((((uint64_t)1) << 61) - 1)

/* A hint that the cache line `ahead` bytes past p is wanted soon. A prefetch never faults, so the
 * address may lie past the buffer's end; it is made from an integer, as pointer arithmetic past the end
 * of an object would be undefined. */
#if defined(__GNUC__) || defined(__clang__)
#define LIBSHA_PREFETCH(p, ahead) __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (ahead)))
#else
#define LIBSHA_PREFETCH(p, ahead) ((void)0)
#endif

/* Lane widths a kernel may have: each is an index into a row's kernel arrays. */
#define LIBSHA_MAX_LANES 16

/* One row of the dispatch table: immutable, switched as a whole. Written with
 * designated initializers, e.g. .d64[4] = libsha_sse41_d64_4way; the
 * dispatcher and the self-test loop over the widths a row fills. */
struct libsha_impl {
    const char *name;       /* printed as Bitcoin Core prints it */
    unsigned use;           /* LIBSHA_USE_* bits that must be allowed */
    unsigned cpu;           /* LIBSHA_CPU_* features it executes */
    unsigned tune;          /* LIBSHA_TUNE_* bits automatic choice needs (libsha.h) */
    libsha_transform_fn transform;
    libsha_finalize_fn finalize; /* NULL: the generic padding in one_stream.c */
    /* SHA256D64 of W blobs at once in .d64[W]: [1] is required, wider ones
     * are optional (NULL where absent). */
    libsha_d64_fn d64[LIBSHA_MAX_LANES + 1];
    /* W messages at once in .many[W] (W >= 2, NULL where absent); one
     * message at a time goes through the transform. */
    libsha_many_fn many[LIBSHA_MAX_LANES + 1];
    /* The last block of W messages at once, padded in registers, in
     * .many_last[W] (optional: else the tails are padded in memory). */
    libsha_many_last_fn many_last[LIBSHA_MAX_LANES + 1];
    /* W whole messages of one length at once in .many_whole[W] (optional). */
    libsha_many_whole_fn many_whole[LIBSHA_MAX_LANES + 1];
    /* W PBKDF2 chains at once in .chains[W]: [1] is required, wider ones
     * are optional. */
    libsha_chains_fn chains[LIBSHA_MAX_LANES + 1];
};

/* The row's widest many-message kernel (1: none, the transform alone). */
static inline size_t libsha_widest_many(const struct libsha_impl *impl)
{
    size_t w = LIBSHA_MAX_LANES;
    while (w > 1 && impl->many[w] == NULL)
        --w;
    return w;
}

/* The widths W >= 2 at which a row's kernel array (.many, .chains) has a kernel,
 * as bits (bit W) in `widths`, and the widest in `widest` (1 where none). */
#define LIBSHA_WIDTHS_OF(kernels, widths, widest)                 \
    do {                                                         \
        size_t w_;                                               \
        (widths) = 0, (widest) = 1;                              \
        for (w_ = 2; w_ <= LIBSHA_MAX_LANES; ++w_)               \
            if ((kernels)[w_] != NULL)                           \
                (widths) |= 1u << w_, (widest) = w_;             \
    } while (0)

/* The kernel width for `active` busy lanes, of the widths a row has (`widths`
 * and `widest` as LIBSHA_WIDTHS_OF gives them): the narrowest that holds them
 * all if they fill more than half of it, else the widest one they fill (1: the
 * one-lane kernel). How the lane scheduler (lanes.c) shrinks a batch's last
 * lanes, and PBKDF2 (pbkdf2.c) its last chains. */
static inline size_t libsha_pick_width(unsigned widths, size_t widest, size_t active)
{
    size_t w;
    if (active >= widest)
        return widest;
    for (w = active; w != 1 && !(widths >> w & 1u); ++w)
        ;
    if (2 * active > w)
        return w;
    for (w = active; w != 1 && !(widths >> w & 1u); --w)
        ;
    return w;
}

/* FIPS 180-4 4.2.2: the round constants. */
static const uint32_t LIBSHA_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* FIPS 180-4 5.3.3: the initial hash value. */
static const uint32_t LIBSHA_H0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* Big-endian loads and stores as one word-sized access each: byte-wise
 * stores would defeat store-to-load forwarding when the next hash reads them. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <stdlib.h>
#define LIBSHA_BSWAP32(x) _byteswap_ulong(x)
#define LIBSHA_BSWAP64(x) _byteswap_uint64(x)
#else
#define LIBSHA_BSWAP32(x) __builtin_bswap32(x)
#define LIBSHA_BSWAP64(x) __builtin_bswap64(x)
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LIBSHA_TO_BE32(x) (x)
#define LIBSHA_TO_BE64(x) (x)
#else /* little-endian: every platform libsha targets, MSVC's included */
#define LIBSHA_TO_BE32(x) LIBSHA_BSWAP32(x)
#define LIBSHA_TO_BE64(x) LIBSHA_BSWAP64(x)
#endif

static inline uint32_t libsha_load_be32(const unsigned char *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return LIBSHA_TO_BE32(x);
}

static inline void libsha_store_be32(unsigned char *p, uint32_t x)
{
    x = LIBSHA_TO_BE32(x);
    memcpy(p, &x, 4);
}

static inline void libsha_store_be64(unsigned char *p, uint64_t x)
{
    x = LIBSHA_TO_BE64(x);
    memcpy(p, &x, 8);
}

/* The eight state words as the 32-byte big-endian digest. */
static inline void libsha_store_digest(unsigned char out[32], const uint32_t state[8])
{
    int i;
    for (i = 0; i < 8; ++i)
        libsha_store_be32(out + 4 * i, state[i]);
}

/* A message's last `used` bytes (56..63) padded into two blocks and compressed
 * by transform: where the length no longer fits beside them, the rare case
 * finalize functions leave to memory. */
static inline void libsha_finish_two_blocks(libsha_transform_fn transform, uint32_t state[8],
                                            const unsigned char *pending, size_t used, uint64_t bits)
{
    unsigned char last[128];
    memcpy(last, pending, used);
    last[used] = 0x80;
    memset(last + used + 1, 0, 128 - 8 - used - 1);
    libsha_store_be64(last + 120, bits);
    transform(state, last, 2);
}

/* Whether [a, a + alen) and [b, b + blen) share a byte: the argument checks of the
 * batch entry points (many_messages.c, files.c), so no output overwrites an input. */
static inline int libsha_overlaps(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen > 0 && blen > 0 && x < y + blen && y < x + alen;
}

/* K[i] + W[i] of the block that pads a message of whole blocks (0x80, zeros,
 * the length `bits`): one schedule for every message of that length, so
 * lanes of one length share it as scalars instead of scheduling it in vectors. */
static inline void libsha_length_block_kw(uint64_t bits, uint32_t kw[64])
{
#define LIBSHA_ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
    uint32_t w[64];
    int i;
    memset(w, 0, sizeof w);
    w[0] = 0x80000000u;
    w[14] = (uint32_t)(bits >> 32);
    w[15] = (uint32_t)bits;
    for (i = 16; i < 64; ++i)
        w[i] = (LIBSHA_ROR(w[i - 2], 17) ^ LIBSHA_ROR(w[i - 2], 19) ^ (w[i - 2] >> 10)) + w[i - 7]
               + (LIBSHA_ROR(w[i - 15], 7) ^ LIBSHA_ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
    for (i = 0; i < 64; ++i)
        kw[i] = LIBSHA_K[i] + w[i];
#undef LIBSHA_ROR
}

/* registry.c: every compiled-in implementation, best first. */
extern const struct libsha_impl libsha_registry[];
extern const size_t libsha_registry_count;

/* dispatch.c: the active row, chosen on first use. */
extern libsha_atomic_ptr libsha_active_row;
const struct libsha_impl *libsha_active_first_use(void);

static inline const struct libsha_impl *libsha_active(void)
{
    const struct libsha_impl *impl = (const struct libsha_impl *)libsha_atomic_load(&libsha_active_row);
    return impl != NULL ? impl : libsha_active_first_use();
}
/* The runnable implementation of that name, or NULL with *err set. */
const struct libsha_impl *libsha_find(const char *name, int *err);

/* selftest.c: 0 when impl gives the known answers. */
int libsha_selftest(const struct libsha_impl *impl);

/* one_stream.c: the hashing operations on an explicit implementation. */
void libsha_stream_init(libsha_sha256_ctx *ctx);
int libsha_stream_update(const struct libsha_impl *impl, libsha_sha256_ctx *ctx, const void *data,
                         size_t len);
int libsha_stream_final(const struct libsha_impl *impl, libsha_sha256_ctx *ctx, unsigned char out[32]);
/* A live context's marker: any value unlikely in uninitialised memory. */
#define LIBSHA_CTX_MARKER 0x53484132u
/* Whether ctx was initialised and not yet finalised. */
static inline int libsha_stream_live(const libsha_sha256_ctx *ctx)
{
    return ctx->marker == LIBSHA_CTX_MARKER;
}
/* Whether an HMAC context is as init left it and updates keep it: both halves live, the outer one
 * waiting after its key block, the inner one past its own. */
static inline int libsha_hmac_live(const libsha_hmac_sha256_ctx *ctx)
{
    return libsha_stream_live(&ctx->inner) && libsha_stream_live(&ctx->outer) && ctx->outer.length == 64
           && ctx->inner.length >= 64;
}
/* Zero a context, or any bytes, in a way the optimiser cannot drop as dead stores. */
void libsha_wipe_ctx(libsha_sha256_ctx *ctx);
void libsha_wipe_bytes(void *p, size_t n);

/* merkle.c: the Merkle root on an explicit implementation. */
int libsha_merkle_run(const struct libsha_impl *impl, unsigned char out[32], const unsigned char *leaves,
                      size_t n, int *mutated);

/* many_messages.c: SHA256D64 of `blocks` 64-byte blobs on impl (out may be in; nothing done when either is NULL). */
void libsha_d64_on(const struct libsha_impl *impl, unsigned char *out, const unsigned char *in,
                    size_t blocks);
/* many_messages.c: libsha_sha256_batch on impl, checks included (also the files' and the benchmark's). */
int libsha_batch_on(const struct libsha_impl *impl, unsigned char *out, const libsha_batch *batch,
                    const libsha_sha256_ctx *prefix, const libsha_hmac_sha256_ctx *hmac, unsigned flags);

/* many_streams.c: many streams' chunks on impl, checks included (also the benchmark's): objs[i]
 * are contexts of `size` bytes, a libsha_sha256_ctx first in each (HMAC contexts when hmac). */
int libsha_streams_update_on(const struct libsha_impl *impl, void *const *objs, size_t size, int hmac,
                             const void *const *data, const size_t *lens, size_t n);

/* pbkdf2.c: libsha_pbkdf2_hmac_sha256_many on an explicit implementation (also the benchmark's). */
int libsha_pbkdf2_on(const struct libsha_impl *impl, unsigned char *out, size_t out_len,
                     const void *const *passwords, const size_t *password_lens, const void *const *salts,
                     const size_t *salt_lens, size_t n, uint64_t iterations);

/* hmac.c: a key's two states (ctx->inner, ctx->outer after its pad blocks), and the MAC of a
 * live context to out (the context wiped), on an explicit implementation. */
void libsha_hmac_start(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *ctx, const unsigned char *key,
                       size_t keylen);
int libsha_hmac_finish(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *ctx, unsigned char out[32]);

/* hmac.c: the one-shot HMAC on an explicit implementation. */
int libsha_hmac_run(const struct libsha_impl *impl, const void *key, size_t keylen, const void *msg,
                    size_t msglen, unsigned char out[32]);

#if defined(LIBSHA_X86)
/* x86_zeroupper.c: vzeroupper, for libsha_enter below. */
void libsha_x86_zeroupper(void);
#endif

/* First thing in every public hashing entry point: on CPUs with AVX, clear
 * the upper YMM state the caller may have left dirty (never elsewhere:
 * vzeroupper faults without AVX). */
static inline void libsha_enter(void)
{
/* Left out where the compiler cannot emit vzeroupper: that costs speed, never correctness. */
#if defined(LIBSHA_X86) && defined(LIBSHA_HAVE_AVX)
    if (libsha_cpu_features_cached() & LIBSHA_CPU_AVX)
        libsha_x86_zeroupper();
#endif
}

#endif
