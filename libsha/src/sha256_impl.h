/* Private to libsha: what an implementation is. The kernels' types, with which each kernel file
 * declares what it defines, and the row (struct libsha_impl) the dispatcher installs, that every
 * entry point runs on. What the kernels compute is FIPS 180-4's (fips180.h). */
#ifndef LIBSHA_SHA256_IMPL_H
#define LIBSHA_SHA256_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "libsha.h" /* the flags kernels take: LIBSHA_DOUBLE */

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

/* The tails of `lanes` whole messages of len bytes each, their full blocks read up to p[lane]: each
 * lane's rest, its length, and `bits`, the length in bits of what is hashed (any start's included). */
static inline void libsha_same_length_tails(struct libsha_tail tails[], const unsigned char *const p[], int lanes,
                                            size_t len, uint64_t bits)
{
    int lane;
    for (lane = 0; lane < lanes; ++lane) {
        tails[lane].rest = p[lane];
        tails[lane].len = len % 64;
        tails[lane].before = len - len % 64;
        tails[lane].bits = bits;
        tails[lane].kw = NULL;
        tails[lane].outer = NULL;
    }
}

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

/* Lane widths a kernel may have: each is an index into a row's kernel arrays. */
#define LIBSHA_MAX_LANES 16

/* One row of the dispatch table: immutable, switched as a whole. Written with
 * designated initializers, e.g. .d64[4] = libsha_sse41_d64_4way; the
 * dispatcher and the self-test loop over the widths a row fills. */
struct libsha_impl {
    const char *name;       /* printed as Bitcoin Core prints it */
    const char *old_name;   /* NULL, or the name the row had before: libsha_select takes it too */
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
    /* NULL, or a row of two engines: the kernels for the batches' messages
     * outside the CPU's wide window (libsha_cpu_wide_window); the row's own
     * take those inside it. */
    const struct libsha_impl *narrow;
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

#endif
