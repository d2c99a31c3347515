/*
 * libsha: SHA-256 with run-time CPU dispatch.
 *
 * Thread safety: every function may be called from any thread at any time.
 * The active implementation is chosen on first use (or by libsha_autodetect)
 * and switched atomically; each call runs entirely on one implementation.
 * A libsha_sha256_ctx or libsha_hmac_sha256_ctx must not be used by two
 * threads at once.
 *
 * Lengths are in bytes. A NULL data pointer is valid when its length is 0.
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

/* Implementation mask bits, as Bitcoin Core's sha256_implementation. A row
 * needs every bit of its families and of the ones it builds on: the AVX-512
 * rows need LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_AVX512 (the one
 * with SHA-NI LIBSHA_USE_SHANI too), as the AVX2 rows need LIBSHA_USE_SSE4
 * (libsha_implementation_needs gives each row's). */
#define LIBSHA_USE_STANDARD 0u
#define LIBSHA_USE_SSE4 1u
#define LIBSHA_USE_AVX2 2u
#define LIBSHA_USE_SHANI 4u
#define LIBSHA_USE_AVX512 8u /* libsha's own: Bitcoin Core has no AVX-512 kernels */
#define LIBSHA_USE_ALL (LIBSHA_USE_SSE4 | LIBSHA_USE_AVX2 | LIBSHA_USE_SHANI | LIBSHA_USE_AVX512)

/* CPU features libsha_cpu_features() reports (each implies what the OS must enable). */
#define LIBSHA_CPU_SSE41 (1u << 0)    /* x86 SSE4.1 and SSSE3 */
#define LIBSHA_CPU_AVX (1u << 1)      /* x86 AVX, with YMM state saved by the OS */
#define LIBSHA_CPU_AVX2 (1u << 2)     /* x86 AVX2 (implies LIBSHA_CPU_AVX) */
#define LIBSHA_CPU_X86_SHA (1u << 3)  /* x86 SHA extensions (with SSE4.1) */
#define LIBSHA_CPU_ARM_SHA2 (1u << 4) /* ARMv8 SHA-256 instructions */
#define LIBSHA_CPU_BMI2 (1u << 5)     /* x86 BMI1 and BMI2 */
#define LIBSHA_CPU_AVX512 (1u << 6)   /* x86 AVX-512F, VL and BW, with ZMM state saved by the OS */

/* Library version, "MAJOR.MINOR.PATCH". */
LIBSHA_API const char *libsha_version(void);

/* The build configuration, e.g. "Release" or "Debug" (benchmarks warn on the latter). */
LIBSHA_API const char *libsha_build_type(void);

/*
 * Installs the fastest implementation that `use` allows, that this CPU runs
 * and that passes its known-answer self-test; returns its printable name
 * (a static string). Hashing never needs this call: the first hash detects
 * with LIBSHA_USE_ALL by itself.
 */
LIBSHA_API const char *libsha_autodetect(unsigned use);

/* The active implementation's printable name (a static string). */
LIBSHA_API const char *libsha_implementation(void);

/*
 * Installs the implementation of that printable name, e.g.
 * "x86_shani(1way,2way)". Returns LIBSHA_OK, LIBSHA_ERR_UNKNOWN_IMPL (no such
 * name in this build), LIBSHA_ERR_NOT_RUNNABLE (this CPU lacks a feature it
 * needs: nothing is installed, nothing faults) or LIBSHA_ERR_SELFTEST.
 */
LIBSHA_API int libsha_select(const char *name);

/* The LIBSHA_CPU_* features of this CPU and OS, detected once. */
LIBSHA_API unsigned libsha_cpu_features(void);

/* Enumerates every feature this library knows, on any architecture: for
 * index 0, 1, ... returns its name (e.g. "avx2", a static string) and stores
 * its LIBSHA_CPU_* bit in *bit (if not NULL); returns NULL past the last one. */
LIBSHA_API const char *libsha_cpu_feature_at(size_t index, unsigned *bit);

/*
 * The environment variable LIBSHA_IMPL restricts every automatic choice
 * (first use and libsha_autodetect): a comma-separated list of the words
 * standard, sse4, avx2, shani and avx512, each allowing that implementation
 * family (avx2 and shani include the sse4 base they build on, avx512 the
 * sse4 and avx2 base, never SHA-NI). An invalid value stops only the
 * automatic choice: everything that lists, reports or selects by name works
 * as before. C, whose hashing calls cannot all return an error, then hashes
 * with 'standard' and says so once on stderr; libsha_select() before the
 * first hash makes the choice explicit (nothing printed). This returns a
 * static description of the valid values, or NULL when the value is valid or
 * unset; libsha_config_check says which word is wrong.
 */
LIBSHA_API const char *libsha_config_error(void);

/*
 * Checks a LIBSHA_IMPL value (NULL: the environment's, as the automatic
 * choice reads it). Returns LIBSHA_OK for a valid or empty value, with an
 * empty message; else LIBSHA_ERR_ARGUMENT, with one line in message (at most
 * size bytes with its NUL, cut if need be) that quotes the value and names
 * the first unknown word and the valid ones, e.g. "LIBSHA_IMPL='bogus':
 * 'bogus' is not one of standard, sse4, avx2, shani, avx512 (a comma-separated
 * list of them)". message may be NULL when size is 0; else NULL is
 * LIBSHA_ERR_NULL. Prints nothing.
 */
LIBSHA_API int libsha_config_check(const char *value, char *message, size_t size);

/*
 * Enumerates the compiled-in implementations: for index 0, 1, ... returns
 * the name and stores in *runnable (if not NULL) whether this CPU can run
 * it; returns NULL past the last one.
 */
LIBSHA_API const char *libsha_implementation_at(size_t index, int *runnable);

/*
 * What a row needs, for index 0, 1, ... as libsha_implementation_at lists them:
 * returns its name and stores (each pointer may be NULL) the LIBSHA_USE_* bits
 * a caller must allow, the LIBSHA_CPU_* features the CPU must have, and the
 * LIBSHA_TUNE_* advice the automatic choice needs before it takes the row (an
 * explicit libsha_select does not); returns NULL past the last one.
 */
LIBSHA_API const char *libsha_implementation_needs(size_t index, unsigned *use, unsigned *features,
                                                   unsigned *tuning);

/*
 * The row the automatic choice takes on a CPU with these LIBSHA_CPU_* features
 * and LIBSHA_TUNE_* advice, where `use` allows it: the first compiled-in row
 * that `use` allows and whose needs the CPU meets (LIBSHA_IMPL and the
 * self-test aside). A static string; "standard" where nothing else qualifies.
 * With this CPU's libsha_cpu_features() and libsha_cpu_tuning() it is what
 * libsha_autodetect(use) installs.
 */
LIBSHA_API const char *libsha_implementation_for(unsigned use, unsigned features, unsigned tuning);

/*
 * The CPU model table. Where a CPU runs two rows and measurement showed which
 * one is faster there, a row that needs a LIBSHA_TUNE_* bit is chosen
 * automatically only on the CPU models whose entry gives it; libsha_select and
 * LIBSHA_IMPL still reach it elsewhere. docs/architecture.md ("Rows and CPUs")
 * gives each entry and its reason.
 */
#define LIBSHA_TUNE_WIDE_LANES (1u << 0) /* AVX-512's 8 and 16 lanes outrun SHA-NI's 2 on batches */

/* This CPU's LIBSHA_TUNE_* bits, detected once with its features (0 where no entry names it). */
LIBSHA_API unsigned libsha_cpu_tuning(void);

/* Enumerates the LIBSHA_TUNE_* bits: for index 0, 1, ... returns the name (e.g.
 * "wide-lanes", a static string) and stores the bit in *bit (if not NULL);
 * returns NULL past the last one. */
LIBSHA_API const char *libsha_cpu_tuning_at(size_t index, unsigned *bit);

/* The name of the table's entry for this CPU (e.g. "AMD Zen 5 server (family
 * 1Ah, models 00h-1Fh)", a static string), or NULL where no entry names it
 * (and on every CPU but x86's). */
LIBSHA_API const char *libsha_cpu_model(void);

/* Enumerates the table's entries, first match first: for index 0, 1, ...
 * returns the entry's name and stores its LIBSHA_TUNE_* bits in *tuning (if
 * not NULL); returns NULL past the last one. */
LIBSHA_API const char *libsha_cpu_model_at(size_t index, unsigned *tuning);

/* x86 CPUID and XGETBV readings, for libsha_x86_decide. */
typedef struct libsha_x86_cpuid {
    uint32_t max_leaf; /* leaf 0 EAX: leaves above it alias the highest one */
    char vendor[16];   /* leaf 0 EBX, EDX, ECX: "GenuineIntel"; the first 12 bytes are compared */
    uint32_t leaf1[4]; /* leaf 1 EAX, EBX, ECX, EDX */
    uint32_t leaf7[4]; /* leaf 7 subleaf 0 EAX, EBX, ECX, EDX */
    uint64_t xcr0;     /* XGETBV(0); 0 where leaf 1 ECX's OSXSAVE bit is clear */
} libsha_x86_cpuid;

/*
 * What libsha decides on an x86 CPU that gives these readings, without
 * reading this one (on any architecture): its LIBSHA_CPU_* features to
 * *features, the model table's LIBSHA_TUNE_* bits to *tuning and its entry's
 * name (or NULL) to *model; each pointer may be NULL. Detection runs the same
 * decision on this CPU's own readings. Returns LIBSHA_OK, or LIBSHA_ERR_NULL
 * when id is NULL (nothing written).
 */
LIBSHA_API int libsha_x86_decide(const libsha_x86_cpuid *id, unsigned *features, unsigned *tuning,
                                 const char **model);

/*
 * Streaming SHA-256. The struct is public so callers can keep it on the
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

/*
 * Many streams at once: stream i (ctxs[i]) is fed data[i][0..lens[i]), as
 * libsha_sha256_update would feed it, in one call. Their whole blocks go
 * through the active implementation's lanes, several streams in flight (as
 * many as libsha_sha256_lanes() says), a lane taking the next stream when its
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

/* How many streams libsha_sha256_update_many hashes at once on the active
 * implementation (its widest many-message kernel; 1: one after another). */
LIBSHA_API size_t libsha_sha256_lanes(void);

/* One-shot SHA-256 of data[0..len) into out[0..32); out may overlap data.
 * len 0 with data NULL is the empty message. Returns LIBSHA_OK or
 * LIBSHA_ERR_NULL (out NULL, or data NULL with len > 0: nothing written). */
LIBSHA_API int libsha_sha256(const void *data, size_t len, unsigned char out[32]);

/* libsha_sha256 with an int length, for foreign-function interfaces whose
 * cheapest call passes plain C ints (Python's ctypes without argtypes).
 * Returns as libsha_sha256, or LIBSHA_ERR_ARGUMENT for len < 0 (nothing written). */
LIBSHA_API int libsha_sha256_intlen(const void *data, int len, unsigned char out[32]);

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

/* Many HMAC streams at once, as libsha_sha256_update_many runs SHA-256
 * streams (the same returns; both halves of each context must be live). The
 * MACs come from libsha_hmac_sha256_final, one context at a time: a final is
 * two short hashes, not worth the lanes. */
LIBSHA_API int libsha_hmac_sha256_update_many(libsha_hmac_sha256_ctx *const *ctxs, const void *const *data,
                                              const size_t *lens, size_t n);

/*
 * Double SHA-256 of `blocks` 64-byte blobs: out[32*i..] = SHA256(SHA256(in[64*i..])).
 * Reads exactly in[0..64*blocks) and writes exactly out[0..32*blocks).
 * out may equal in (the Merkle-tree case); other overlaps are not allowed.
 * Does nothing when blocks is 0, or when a pointer is NULL (nothing is written).
 */
LIBSHA_API void libsha_sha256d64(unsigned char *out, const unsigned char *in, size_t blocks);

/*
 * Many independent messages at once: out[32*i..32*i+32) receives the digest of
 * message i, for i < n. The messages go through the active implementation's
 * widest multi-message kernel (several messages in flight, one per lane).
 * Flags: LIBSHA_DOUBLE for SHA256(SHA256(m)) (Bitcoin txids); LIBSHA_HEX for
 * the digests as lowercase hex, out[64*i..64*i+64) each (no NUL), made in the
 * same call. out must not overlap any input (the messages, lens, msgs or offsets).
 * n == 0 is valid and writes nothing. On error nothing is written. Returns
 * LIBSHA_OK or
 *   LIBSHA_ERR_NULL      out, msgs, lens, offsets or data NULL where a byte
 *                        must be read or written (a message of length 0 may
 *                        be NULL; with offsets, data may be NULL when every
 *                        message is empty);
 *   LIBSHA_ERR_ARGUMENT  unknown flag bits, n * 64 overflows, out overlaps an
 *                        input, an offset below 0 or below the one before it,
 *                        or a message that would run past the address space;
 *   LIBSHA_ERR_TOO_LONG  a message over 2^61 - 1 bytes.
 */
#define LIBSHA_DOUBLE 1u
#define LIBSHA_HEX 2u

/* Message i is msgs[i][0..lens[i]). */
LIBSHA_API int libsha_sha256_many(unsigned char *out, const void *const *msgs, const size_t *lens, size_t n,
                                  unsigned flags);

/* Arrow's layout: n + 1 offsets, message i is data[offsets[i]..offsets[i+1]).
 * Offsets must be non-decreasing with offsets[0] >= 0 (a sliced Arrow array,
 * offsets[0] > 0, works as it is); data is not read before offsets[0]. */
LIBSHA_API int libsha_sha256_many_offsets32(unsigned char *out, const void *data, const int32_t *offsets,
                                            size_t n, unsigned flags);
LIBSHA_API int libsha_sha256_many_offsets64(unsigned char *out, const void *data, const int64_t *offsets,
                                            size_t n, unsigned flags);

/* Rows of one length: message i is data[stride*i .. stride*i + len) (a 2-D
 * array's rows, a fixed-width column; stride may be larger than len, or 0).
 * data may be NULL when len is 0. */
LIBSHA_API int libsha_sha256_many_rows(unsigned char *out, const void *data, size_t stride, size_t len, size_t n,
                                       unsigned flags);

/* Arrow's binary-view layout (BinaryView, Utf8View; Polars' and DuckDB's
 * strings): n views of 16 bytes, each an int32 length, then the value itself
 * when it is at most 12 bytes, else a 4-byte prefix, an int32 index into
 * buffers and an int32 offset there. buffers[k] holds buffer_sizes[k] bytes;
 * a view outside its buffer, a negative length, index or offset is
 * LIBSHA_ERR_ARGUMENT, checked before anything is read or written. */
LIBSHA_API int libsha_sha256_many_views(unsigned char *out, const void *views, const void *const *buffers,
                                        const int64_t *buffer_sizes, size_t nbuffers, size_t n, unsigned flags);

/*
 * Many messages after one prefix: digest i is that of what ctx (a live
 * context) has hashed, followed by message i. The prefix is hashed once, by
 * the context; each lane starts from its state (its pending bytes, if any,
 * go before each message). ctx is read, never changed, and must not overlap
 * out. Each form takes the arguments of its libsha_sha256_many form and
 * returns as it does, and LIBSHA_ERR_STATE for a ctx not live; a message may
 * be at most 2^61 - 1 bytes less the prefix (else LIBSHA_ERR_TOO_LONG).
 */
LIBSHA_API int libsha_sha256_many_after(unsigned char *out, const libsha_sha256_ctx *ctx, const void *const *msgs,
                                        const size_t *lens, size_t n, unsigned flags);
LIBSHA_API int libsha_sha256_many_offsets32_after(unsigned char *out, const libsha_sha256_ctx *ctx, const void *data,
                                                  const int32_t *offsets, size_t n, unsigned flags);
LIBSHA_API int libsha_sha256_many_offsets64_after(unsigned char *out, const libsha_sha256_ctx *ctx, const void *data,
                                                  const int64_t *offsets, size_t n, unsigned flags);
LIBSHA_API int libsha_sha256_many_rows_after(unsigned char *out, const libsha_sha256_ctx *ctx, const void *data,
                                             size_t stride, size_t len, size_t n, unsigned flags);
LIBSHA_API int libsha_sha256_many_views_after(unsigned char *out, const libsha_sha256_ctx *ctx, const void *views,
                                              const void *const *buffers, const int64_t *buffer_sizes,
                                              size_t nbuffers, size_t n, unsigned flags);

/*
 * HMAC-SHA256 of many messages under one key: out[32*i..] (64 hex characters
 * with LIBSHA_HEX) is the MAC of message i. Both passes run in the lanes:
 * the inner one from the key's inner state, the outer one (one block per
 * message) from its outer state; the lanes' states and the inner digests are
 * wiped before a call returns. libsha_hmac_sha256_many takes the key
 * itself (wiped before it returns, as libsha_hmac_sha256 does); the _after
 * forms take a live HMAC context (read, never changed: its key's pads
 * hashed once for any number of calls; what it has authenticated goes before
 * every message). Arguments and returns as libsha_sha256_many's forms, with
 * LIBSHA_ERR_NULL for key NULL with keylen > 0 or ctx NULL, LIBSHA_ERR_STATE
 * for a ctx not live, LIBSHA_ERR_ARGUMENT for LIBSHA_DOUBLE or out
 * overlapping ctx.
 */
LIBSHA_API int libsha_hmac_sha256_many(unsigned char *out, const void *key, size_t keylen, const void *const *msgs,
                                       const size_t *lens, size_t n, unsigned flags);
LIBSHA_API int libsha_hmac_sha256_many_after(unsigned char *out, const libsha_hmac_sha256_ctx *ctx,
                                             const void *const *msgs, const size_t *lens, size_t n, unsigned flags);
LIBSHA_API int libsha_hmac_sha256_many_offsets32_after(unsigned char *out, const libsha_hmac_sha256_ctx *ctx,
                                                       const void *data, const int32_t *offsets, size_t n,
                                                       unsigned flags);
LIBSHA_API int libsha_hmac_sha256_many_offsets64_after(unsigned char *out, const libsha_hmac_sha256_ctx *ctx,
                                                       const void *data, const int64_t *offsets, size_t n,
                                                       unsigned flags);
LIBSHA_API int libsha_hmac_sha256_many_rows_after(unsigned char *out, const libsha_hmac_sha256_ctx *ctx,
                                                  const void *data, size_t stride, size_t len, size_t n,
                                                  unsigned flags);
LIBSHA_API int libsha_hmac_sha256_many_views_after(unsigned char *out, const libsha_hmac_sha256_ctx *ctx,
                                                   const void *views, const void *const *buffers,
                                                   const int64_t *buffer_sizes, size_t nbuffers, size_t n,
                                                   unsigned flags);

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

/* Lowercase hex: writes 2 * len characters (no terminating NUL) for
 * in[0..len) to out, which must not overlap in. Returns LIBSHA_OK,
 * LIBSHA_ERR_NULL (out or in NULL with len > 0: nothing written) or
 * LIBSHA_ERR_ARGUMENT (2 * len overflows). */
LIBSHA_API int libsha_hex(char *out, const void *in, size_t len);

/*
 * Files, read to their end in chunks of 128 KiB on the active implementation.
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

#ifdef __cplusplus
}
#endif

#endif /* LIBSHA_H */
