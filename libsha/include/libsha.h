/*
 * libsha: SHA-256 with run-time CPU dispatch.
 *
 * Sections, in this order: one message (the one-shot, streaming, saved
 * states), HMAC, many at once (batches of messages, many streams), key
 * derivation, files, Bitcoin (SHA256D64, the Merkle root), then utilities.
 * The other Merkle trees (a level, SSZ, RFC 6962, BEP 52) are in
 * libsha_trees.h; choosing or listing implementations is in libsha_dispatch.h,
 * which hashing never needs.
 *
 * Words, each for one idea (docs/architecture.md's glossary, word for word):
 *   message  the bytes one digest is of
 *   block    64 bytes, what the compression function takes; a message's tail is
 *            its last bytes with the padding (one or two blocks)
 *   stream   a message fed in chunks to a context (libsha_sha256_ctx, the
 *            sha256 object); a chunk is one update's data (a file's read into
 *            its stream; update_many's per stream)
 *   state    a context saved as bytes (state(), libsha_sha256_export); a
 *            midstate is its chaining words at a block boundary
 *   batch    the many messages, streams' chunks or files of one call; a batch
 *            of messages is described by a libsha_batch in one of its layouts
 *            (pointers, Arrow offsets of 32 or 64 bits, rows, Arrow views)
 *   lane     one of a lane kernel's parallel hashes; its width is how many
 *            lanes it has
 *   row      an implementation: the set of kernels the dispatcher chose or the
 *            caller named, printed as Bitcoin Core prints it
 *            (libsha.dispatch.implementation())
 *
 * Thread safety: every function may be called from any thread at any time.
 * The active implementation is chosen on first use and switched atomically;
 * each call runs entirely on one implementation. A context must not be used
 * by two threads at once.
 *
 * Lengths are in bytes. A NULL data pointer is valid when its length is 0.
 * Every function returns LIBSHA_OK (0) or one of the LIBSHA_ERR_* codes
 * below, and writes nothing on error unless it says otherwise.
 */
#ifndef LIBSHA_H
#define LIBSHA_H

#include <stddef.h>
#include <stdint.h>

#if defined(LIBSHA_STATIC) /* compiled into the program itself, no DLL */
#  define LIBSHA_API
#elif defined(_WIN32) || defined(__CYGWIN__)
#  if defined(LIBSHA_BUILD)
#    define LIBSHA_API __declspec(dllexport)
#  else
#    define LIBSHA_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define LIBSHA_API __attribute__((visibility("default")))
#else
#  define LIBSHA_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define LIBSHA_DIGEST_SIZE 32
#define LIBSHA_BLOCK_SIZE 64

/* Return codes: 0 on success, a distinct negative value per failure. */
#define LIBSHA_OK 0
#define LIBSHA_ERR_NULL (-1)        /* NULL pointer where one is required */
#define LIBSHA_ERR_STATE (-2)       /* context not initialised, or already finalised */
#define LIBSHA_ERR_TOO_LONG (-3)    /* message would exceed 2^61 - 1 bytes */
#define LIBSHA_ERR_UNKNOWN_IMPL (-4) /* no implementation of that name */
#define LIBSHA_ERR_NOT_RUNNABLE (-5) /* implementation not supported by this CPU */
#define LIBSHA_ERR_ARGUMENT (-6)    /* an argument out of its range */
#define LIBSHA_ERR_SELFTEST (-7)    /* implementation failed its known-answer test */
#define LIBSHA_ERR_IO (-8)          /* a file could not be opened or read (its errno value is given back) */
#define LIBSHA_ERR_CANCELLED (-9)   /* stopped by libsha_files_control.cancel */
#define LIBSHA_ERR_NOMEM (-10)      /* scratch memory could not be allocated */
#define LIBSHA_ERR_FORMAT (-11)     /* a saved state that is not one: size, version, kind, check or fields */


/* ==== One message ==== */

/* One-shot SHA-256 of data[0..len) into out[0..32); out may overlap data.
 * len 0 with data NULL is the empty message. Returns LIBSHA_OK or
 * LIBSHA_ERR_NULL (out NULL, or data NULL with len > 0: nothing written). */
LIBSHA_API int libsha_sha256(const void *data, size_t len, unsigned char out[32]);

/*
 * Streaming: a context fed the message in pieces. The struct is public so callers can keep it on the
 * stack; its fields are private. It may be copied with memcpy to fork a
 * computation.
 */
typedef struct libsha_sha256_ctx {
    uint32_t state[8];
    uint64_t length;            /* bytes hashed so far */
    unsigned char pending[64];  /* bytes not yet compressed */
    uint32_t marker;            /* set by init, cleared by final */
    uint32_t reserved;
} libsha_sha256_ctx;

/* sizeof(libsha_sha256_ctx), for bindings that allocate it opaquely. */
LIBSHA_API size_t libsha_sha256_ctx_size(void);

/* Starts a computation in ctx (any previous content is overwritten). NULL: no-op. */
LIBSHA_API void libsha_sha256_init(libsha_sha256_ctx *ctx);

/* Hashes len more bytes of data (any alignment; len 0 with data NULL is fine).
 * Returns LIBSHA_OK, LIBSHA_ERR_NULL (ctx NULL, or data NULL with len > 0),
 * LIBSHA_ERR_STATE (ctx not initialised, or finalised) or LIBSHA_ERR_TOO_LONG
 * (past 2^61 - 1 bytes in all); on error ctx is unchanged. Reads exactly
 * data[0..len). */
LIBSHA_API int libsha_sha256_update(libsha_sha256_ctx *ctx, const void *data, size_t len);

/* Writes the 32-byte digest to out (which must not overlap ctx) and wipes ctx
 * (init it again to reuse; to keep hashing after a digest, final a memcpy of it).
 * Returns LIBSHA_OK, LIBSHA_ERR_NULL (ctx or out NULL) or LIBSHA_ERR_STATE. */
LIBSHA_API int libsha_sha256_final(libsha_sha256_ctx *ctx, unsigned char out[32]);

/* Wipes ctx without producing a digest (for abandoned computations). NULL: no-op. */
LIBSHA_API void libsha_sha256_wipe(libsha_sha256_ctx *ctx);

/*
 * Saved states. libsha_sha256_export writes a live context as LIBSHA_STATE_SIZE
 * bytes that libsha_sha256_import resumes, on any row, CPU, platform or
 * version of libsha that reads version 1. The layout (integers big-endian):
 *   0   4  "lsha"
 *   4   1  version: 1
 *   5   1  kind: 1 SHA-256, 2 HMAC-SHA256
 *   6   2  zero
 *   8   8  bytes hashed so far (an HMAC's inner hash: its key block included)
 *   16 32  the eight chaining words, as a digest is written
 *   48 64  the bytes after the last whole block (length % 64 of them), then zeros
 *  (112 32 HMAC only: the outer chaining words, after the key's outer block)
 *  end  8  the first 8 bytes of the SHA-256 of every byte before them
 * The check catches a damaged or truncated state; it is no MAC. A state holds
 * the chaining words of the message so far: as secret as the message (an
 * HMAC's, as the key). Import refuses, with LIBSHA_ERR_FORMAT and ctx
 * untouched, a wrong size, magic, version, kind or check, non-zero reserved or
 * unused pending bytes, a length past 2^61 - 1 (an HMAC's below 64).
 */
#define LIBSHA_STATE_SIZE 120
#define LIBSHA_HMAC_STATE_SIZE 152

/* Writes ctx (live: else LIBSHA_ERR_STATE) to out; ctx goes on unchanged.
 * LIBSHA_ERR_NULL, LIBSHA_ERR_ARGUMENT (out overlaps ctx): nothing written. */
LIBSHA_API int libsha_sha256_export(const libsha_sha256_ctx *ctx, unsigned char out[LIBSHA_STATE_SIZE]);

/* Makes ctx the context saved in state[0..size) (any previous content is
 * overwritten). Returns LIBSHA_OK, LIBSHA_ERR_NULL, LIBSHA_ERR_FORMAT or
 * LIBSHA_ERR_ARGUMENT (state overlaps ctx); on error ctx is unchanged. */
LIBSHA_API int libsha_sha256_import(libsha_sha256_ctx *ctx, const void *state, size_t size);

/*
 * Midstates: a context at a block boundary as its eight chaining words (32
 * bytes, big-endian, as a digest is written) and its length in bytes, the
 * form Bitcoin's tagged hashes and mining use. libsha_sha256_midstate writes
 * them (length may be NULL); LIBSHA_ERR_ARGUMENT when length % 64 != 0 (or
 * words overlaps ctx), LIBSHA_ERR_STATE when ctx is not live.
 * libsha_sha256_init_midstate starts ctx from them: LIBSHA_ERR_ARGUMENT (ctx
 * untouched) when length is not a multiple of 64 or is past 2^61 - 1.
 */
LIBSHA_API int libsha_sha256_midstate(const libsha_sha256_ctx *ctx, unsigned char words[32], uint64_t *length);
LIBSHA_API int libsha_sha256_init_midstate(libsha_sha256_ctx *ctx, const unsigned char words[32], uint64_t length);

/* ==== HMAC ==== */

/*
 * HMAC-SHA256 (RFC 2104, FIPS 198-1). Keys of any length; a key longer than
 * 64 bytes is hashed first. The key's padded blocks, their hashes and every
 * intermediate value are wiped before a function returns; the context holds
 * only the two chaining states the key determines (wipe them with final or
 * libsha_hmac_sha256_wipe). NULL with length 0 is valid for key and message.
 */
/* One-shot HMAC of msg[0..msglen) under key[0..keylen) into out[0..32); out may
 * overlap key or msg. Returns LIBSHA_OK or LIBSHA_ERR_NULL (out NULL, or key or
 * msg NULL with a length above 0: nothing written). */
LIBSHA_API int libsha_hmac_sha256(const void *key, size_t keylen, const void *msg, size_t msglen,
                                  unsigned char out[32]);

/* Streaming HMAC. The struct is public so callers can keep it on the stack;
 * its fields are private. It may be copied with memcpy to fork a computation. */
typedef struct libsha_hmac_sha256_ctx {
    libsha_sha256_ctx inner; /* H((K ^ ipad) || message so far) */
    libsha_sha256_ctx outer; /* H(K ^ opad), waiting for the inner digest */
} libsha_hmac_sha256_ctx;

/* sizeof(libsha_hmac_sha256_ctx), for bindings that allocate it opaquely. */
LIBSHA_API size_t libsha_hmac_sha256_ctx_size(void);

/* Starts an HMAC under key[0..keylen) (any previous content is overwritten).
 * Returns LIBSHA_OK or LIBSHA_ERR_NULL (ctx NULL, or key NULL with keylen > 0:
 * ctx is not written). */
LIBSHA_API int libsha_hmac_sha256_init(libsha_hmac_sha256_ctx *ctx, const void *key, size_t keylen);

/* Authenticates len more bytes of data. Returns as libsha_sha256_update does
 * (LIBSHA_ERR_STATE for a context not initialised or already finalised; the
 * message limit is 2^61 - 65 bytes, the inner hash's less its key block). */
LIBSHA_API int libsha_hmac_sha256_update(libsha_hmac_sha256_ctx *ctx, const void *data, size_t len);

/* Writes the 32-byte MAC to out (which must not overlap ctx) and wipes ctx.
 * Returns LIBSHA_OK, LIBSHA_ERR_NULL (ctx or out NULL) or LIBSHA_ERR_STATE;
 * nothing is written to out on error. */
LIBSHA_API int libsha_hmac_sha256_final(libsha_hmac_sha256_ctx *ctx, unsigned char out[32]);

/* Wipes ctx without producing a MAC (for abandoned computations). NULL: no-op. */
LIBSHA_API void libsha_hmac_sha256_wipe(libsha_hmac_sha256_ctx *ctx);

/* libsha_sha256_export and _import for an HMAC context (its state, kind 2, is
 * LIBSHA_HMAC_STATE_SIZE bytes and as good as the key). */
LIBSHA_API int libsha_hmac_sha256_export(const libsha_hmac_sha256_ctx *ctx, unsigned char out[LIBSHA_HMAC_STATE_SIZE]);
LIBSHA_API int libsha_hmac_sha256_import(libsha_hmac_sha256_ctx *ctx, const void *state, size_t size);

/* ==== Many at once ==== */

/*
 * A batch: n messages, in one of five layouts (the fields of other layouts
 * are not read):
 *   LIBSHA_POINTERS   message i is msgs[i][0..lens[i]).
 *   LIBSHA_OFFSETS32  Arrow's layout: n + 1 offsets, message i is
 *   LIBSHA_OFFSETS64  data[offsets[i]..offsets[i+1]) (offsets32, or offsets64
 *                     for Arrow's large types). Offsets must be non-decreasing
 *                     with offsets[0] >= 0 (a sliced Arrow array, offsets[0] >
 *                     0, works as it is); data is not read before offsets[0].
 *   LIBSHA_ROWS       rows of one length: message i is data[stride*i ..
 *                     stride*i + len) (a 2-D array's rows, a fixed-width
 *                     column; stride may be larger than len, or 0). data may
 *                     be NULL when len is 0.
 *   LIBSHA_VIEWS      Arrow's binary-view layout (BinaryView, Utf8View;
 *                     Polars' and DuckDB's strings): n views of 16 bytes, each
 *                     an int32 length, then the value itself when it is at
 *                     most 12 bytes, else a 4-byte prefix, an int32 index into
 *                     buffers and an int32 offset there. buffers[k] holds
 *                     buffer_sizes[k] bytes; a view outside its buffer, a
 *                     negative length, index or offset is LIBSHA_ERR_ARGUMENT,
 *                     checked before anything is read or written.
 * Zero the struct, then set layout, n and that layout's fields.
 */
#define LIBSHA_POINTERS 0
#define LIBSHA_OFFSETS32 1
#define LIBSHA_OFFSETS64 2
#define LIBSHA_ROWS 3
#define LIBSHA_VIEWS 4

typedef struct libsha_batch {
    int layout; /* LIBSHA_POINTERS ... LIBSHA_VIEWS */
    size_t n;   /* messages */
    const void *const *msgs; /* POINTERS */
    const size_t *lens;
    const void *data;         /* OFFSETS32, OFFSETS64, ROWS */
    const int32_t *offsets32; /* OFFSETS32: n + 1 of them */
    const int64_t *offsets64; /* OFFSETS64: n + 1 of them */
    size_t stride, len;       /* ROWS */
    const void *views;        /* VIEWS: 16 * n bytes */
    const void *const *buffers;
    const int64_t *buffer_sizes;
    size_t nbuffers;
} libsha_batch;

/* Flags of the batch calls. */
#define LIBSHA_DOUBLE 1u /* SHA256(SHA256(m)), Bitcoin's txids */
#define LIBSHA_HEX 2u    /* each digest as 64 lowercase hex characters (no NUL), made in the same call */

/*
 * Hashes a batch: out[32*i..32*i+32) (out[64*i..64*i+64) with LIBSHA_HEX)
 * receives the digest of message i. The messages go through the active
 * implementation's widest lane kernel, several in flight, one per lane.
 *
 * The start (both NULL: none; not both):
 *   prefix  a live SHA-256 context: digest i is that of what prefix has
 *           hashed followed by message i. The prefix is hashed once; each
 *           lane starts from its state (its pending bytes, if any, go before
 *           each message). A message may then be at most 2^61 - 1 bytes less
 *           the prefix.
 *   hmac    a live HMAC context: out receives the MAC of message i under its
 *           key, after what it has authenticated. Both passes run in the
 *           lanes, the inner one from the key's inner state, the outer one
 *           (one block a message) from its outer state; the lanes' states and
 *           the inner digests are wiped before the call returns.
 * The start is read, never changed (one context serves any number of calls).
 * out must not overlap any input (the messages, the batch's arrays, the
 * start). n == 0 is valid and writes nothing. On error nothing is written.
 * Returns LIBSHA_OK or
 *   LIBSHA_ERR_NULL      out, batch or an array of its layout NULL where a
 *                        byte must be read or written (a message of length 0
 *                        may be NULL; with offsets, data may be NULL when
 *                        every message is empty);
 *   LIBSHA_ERR_STATE     a start not live;
 *   LIBSHA_ERR_ARGUMENT  an unknown layout or flag bit, both starts given,
 *                        LIBSHA_DOUBLE with hmac, n * 64 overflowing, out
 *                        overlapping an input, an offset below 0 or below the
 *                        one before it, a view outside its buffer, or a
 *                        message that would run past the address space;
 *   LIBSHA_ERR_TOO_LONG  a message over 2^61 - 1 bytes (less the prefix).
 */
LIBSHA_API int libsha_sha256_batch(unsigned char *out, const libsha_batch *batch, const libsha_sha256_ctx *prefix,
                                   const libsha_hmac_sha256_ctx *hmac, unsigned flags);

/* The simple form: libsha_sha256_batch of the LIBSHA_POINTERS layout, with no
 * start. Message i is msgs[i][0..lens[i]); the same flags and returns. */
LIBSHA_API int libsha_sha256_many(unsigned char *out, const void *const *msgs, const size_t *lens, size_t n,
                                  unsigned flags);

/*
 * Many streams at once: stream i (ctxs[i]) is fed data[i][0..lens[i]), as
 * libsha_sha256_update would feed it, in one call. Their whole blocks go
 * through the active implementation's lanes, several streams in flight (as
 * many as libsha_sha256_lanes() in libsha_dispatch.h says), a lane taking the next stream when its
 * own chunk runs out; each stream's bytes after its last whole block stay in
 * its context. The result equals n separate updates, for every split of every
 * stream; the contexts stay valid for libsha_sha256_update and _final. No
 * state is kept outside the contexts. n == 0 is valid and does nothing. On
 * error no context is changed. Returns LIBSHA_OK or
 *   LIBSHA_ERR_NULL      ctxs, data, lens or a context NULL, or a chunk NULL
 *                        with its length > 0;
 *   LIBSHA_ERR_STATE     a context not initialised, or finalised;
 *   LIBSHA_ERR_ARGUMENT  a context given twice or overlapping another, or
 *                        overlapping a chunk or the ctxs, data or lens
 *                        arrays; a chunk that would run past the address space;
 *   LIBSHA_ERR_TOO_LONG  a stream past 2^61 - 1 bytes in all;
 *   LIBSHA_ERR_NOMEM     n > 64 and the checks' scratch (8 bytes a stream)
 *                        could not be allocated.
 */
LIBSHA_API int libsha_sha256_update_many(libsha_sha256_ctx *const *ctxs, const void *const *data,
                                         const size_t *lens, size_t n);

/*
 * Finishes n streams: out[32*i..32*i+32) receives the digest of ctxs[i], which
 * is wiped, as libsha_sha256_final does. n == 0 is valid and does nothing. On
 * error nothing is written and no context changed. Returns LIBSHA_OK or
 * LIBSHA_ERR_NULL (out, ctxs or a context NULL), LIBSHA_ERR_STATE (a context
 * not live), LIBSHA_ERR_ARGUMENT (n * 32 overflows, a context given twice or
 * overlapping another, out overlapping a context or ctxs) or LIBSHA_ERR_NOMEM.
 */
LIBSHA_API int libsha_sha256_final_many(unsigned char *out, libsha_sha256_ctx *const *ctxs, size_t n);

/* Many HMAC streams at once, as libsha_sha256_update_many runs
 * SHA-256 streams (the same returns; both halves of each context must be live). The
 * MACs come from libsha_hmac_sha256_final, one context at a time: a final is
 * two short hashes, not worth the lanes. */
LIBSHA_API int libsha_hmac_sha256_update_many(libsha_hmac_sha256_ctx *const *ctxs, const void *const *data,
                                              const size_t *lens, size_t n);

/* ==== Key derivation ==== */

/*
 * Key derivation. PBKDF2-HMAC-SHA256 (RFC 8018 5.2): the out_len bytes
 * derived from password and salt in `iterations` iterations (at least 1);
 * out_len may be anything up to (2^32 - 1) * 32 bytes. Each 32-byte block of
 * the key is a chain of its own: a key's blocks, and the _many form's keys,
 * run side by side in the active row's lanes. libsha_pbkdf2_hmac_sha256_many
 * derives n keys of out_len bytes each, key i (from passwords[i] and salts[i],
 * of password_lens[i] and salt_lens[i] bytes; a pointer may repeat) to
 * out + i * out_len, all with one iteration count. Returns LIBSHA_OK,
 * LIBSHA_ERR_NULL (a pointer NULL with a non-zero length, or an array NULL with
 * n > 0), LIBSHA_ERR_ARGUMENT (iterations 0, out_len past the limit, n *
 * out_len overflowing, or out overlapping a password or salt) or
 * LIBSHA_ERR_TOO_LONG (a salt past SHA-256's limit); on error nothing is
 * written. What was derived from a password on the way is wiped.
 */
LIBSHA_API int libsha_pbkdf2_hmac_sha256(unsigned char *out, size_t out_len, const void *password,
                                         size_t password_len, const void *salt, size_t salt_len,
                                         uint64_t iterations);
LIBSHA_API int libsha_pbkdf2_hmac_sha256_many(unsigned char *out, size_t out_len, const void *const *passwords,
                                              const size_t *password_lens, const void *const *salts,
                                              const size_t *salt_lens, size_t n, uint64_t iterations);

/*
 * HKDF-SHA256 (RFC 5869). Extract: prk = HMAC(salt, ikm), no salt (NULL, 0)
 * standing for 32 zero bytes. Expand: out_len bytes (at most 255 * 32 = 8160)
 * from a pseudorandom key (any length: it is an HMAC key) and info.
 * libsha_hkdf_sha256 does both, the PRK never leaving the library. out may
 * overlap any input. Returns LIBSHA_OK, LIBSHA_ERR_NULL (a pointer NULL with a
 * non-zero length), LIBSHA_ERR_ARGUMENT (out_len past 8160) or
 * LIBSHA_ERR_TOO_LONG (an input past SHA-256's limit); on error nothing is
 * written. Intermediate key material is wiped.
 */
LIBSHA_API int libsha_hkdf_sha256_extract(unsigned char prk[32], const void *salt, size_t salt_len,
                                          const void *ikm, size_t ikm_len);
LIBSHA_API int libsha_hkdf_sha256_expand(unsigned char *out, size_t out_len, const void *prk, size_t prk_len,
                                         const void *info, size_t info_len);
LIBSHA_API int libsha_hkdf_sha256(unsigned char *out, size_t out_len, const void *salt, size_t salt_len,
                                  const void *ikm, size_t ikm_len, const void *info, size_t info_len);

/* ==== Files ==== */

/*
 * Files, read to their end in chunks of 64 KiB on the active implementation.
 * A path is the native bytes on POSIX systems, UTF-8 on Windows. A file that
 * grows or shrinks while it is read gives the digest of the bytes read.
 *
 * libsha_sha256_file: libsha_sha256_files on one path; returns LIBSHA_OK,
 * LIBSHA_ERR_NULL (path or out NULL: nothing written), LIBSHA_ERR_ARGUMENT
 * (the path string overlaps out: nothing written) or LIBSHA_ERR_IO: the file
 * could not be opened or read
 * (a directory, say): out is zeroed and *os_error (if os_error is not NULL)
 * receives the errno value (EFBIG for a file over 2^61 - 1 bytes); it is 0
 * after LIBSHA_OK.
 */
LIBSHA_API int libsha_sha256_file(const char *path, unsigned char out[32], int *os_error);

/* Shared with other threads while libsha_sha256_files runs; zero it first.
 * bytes grows by each read's size (an atomic add), for a progress display;
 * setting cancel to non-zero, from any thread, stops the call at its next
 * read. read_ahead, if not 0: large files are read by a second thread,
 * which libsha_sha256_files starts and ends, while the calling thread hashes
 * the chunks read before; worth it where a core is free for it. gathered grows by the number of small files read whole and hashed several
 * at once on the many-message kernel (also an atomic add). */
typedef struct libsha_files_control {
    uint64_t bytes;
    uint32_t cancel;
    uint32_t gathered;
    uint64_t read_ahead;
} libsha_files_control;
#define LIBSHA_FILE_CANCELLED (-1)

/*
 * n files in order: out[32*i..32*i+32) receives the digest of paths[i] and
 * os_errors[i] 0, or, for a file that could not be opened or read, 32 zero
 * bytes and its errno value; the rest go on. Small files (up to 16 KiB) are
 * gathered and hashed several at once; larger ones, on an implementation with
 * lanes (libsha_sha256_lanes() > 1) and n > 1, stay open side by side, up to
 * one per lane, each read in turn in chunks of 256 KiB over the lanes (1 MiB
 * with read_ahead) and the chunks hashed together (a file that ends or fails
 * leaves its lane to the next). Each file is still read sequentially, once.
 * control may be NULL.
 * Returns LIBSHA_OK (every file hashed), LIBSHA_ERR_IO (some
 * file could not be read), LIBSHA_ERR_CANCELLED (cancel was set: the files
 * not finished have zeroed digests and os_errors[i] == LIBSHA_FILE_CANCELLED),
 * or, with nothing written, LIBSHA_ERR_NULL (out, os_errors, paths or a path
 * NULL) or LIBSHA_ERR_ARGUMENT (n * 32 overflows; out, os_errors, paths, the
 * path strings or control overlap). n == 0 is valid and writes nothing.
 */
LIBSHA_API int libsha_sha256_files(unsigned char *out, int *os_errors, const char *const *paths, size_t n,
                                   libsha_files_control *control);

/* ==== Bitcoin ==== */

/*
 * Double SHA-256 of `blocks` 64-byte blobs: out[32*i..] = SHA256(SHA256(in[64*i..])).
 * Reads exactly in[0..64*blocks) and writes exactly out[0..32*blocks).
 * out may equal in (the Merkle-tree case); other overlaps are not allowed.
 * Does nothing when blocks is 0, or when a pointer is NULL (nothing is written).
 */
LIBSHA_API void libsha_sha256d64(unsigned char *out, const unsigned char *in, size_t blocks);

/*
 * The Bitcoin Merkle root of n 32-byte leaves, as Bitcoin Core's
 * ComputeMerkleRoot: each level pairs adjacent nodes, an odd level pairs its
 * last node with itself, a parent is the double SHA-256 of left || right.
 * n == 1: the root is the leaf; n == 0: 32 zero bytes. *mutated (if not NULL)
 * is set to 1 when some level holds two equal nodes at a pair position
 * (CVE-2012-2459), else 0. The leaves are read, never written; out may
 * overlap them. Scratch: about 10 KiB of stack, nothing allocated, any n.
 * Returns LIBSHA_OK, LIBSHA_ERR_NULL (out NULL, or leaves NULL with n > 0) or
 * LIBSHA_ERR_ARGUMENT (n * 32 overflows); on error nothing is written.
 */
LIBSHA_API int libsha_merkle_root(unsigned char out[32], const unsigned char *leaves, size_t n, int *mutated);

/* ==== Utilities ==== */

/* Lowercase hex: writes 2 * len characters (no terminating NUL) for
 * in[0..len) to out, which must not overlap in. Returns LIBSHA_OK,
 * LIBSHA_ERR_NULL (out or in NULL with len > 0: nothing written) or
 * LIBSHA_ERR_ARGUMENT (2 * len overflows). */
LIBSHA_API int libsha_hex(char *out, const void *in, size_t len);

/* Library version, "MAJOR.MINOR.PATCH". */
LIBSHA_API const char *libsha_version(void);

/* The build configuration, e.g. "Release" or "Debug" (benchmarks warn on the latter). */
LIBSHA_API const char *libsha_build_type(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBSHA_H */
