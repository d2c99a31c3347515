/*
 * libsha's internal entry points: the timed loops shabench runs (and the
 * fuzzer and C tests check). Not installed and not part of the API: they are
 * exported from the shared library under the libsha_internal_ prefix only so
 * that shabench can call them, and may change with any release. C, Rust, Go
 * and Java users include libsha.h alone.
 */
#ifndef LIBSHA_INTERNAL_BENCH_H
#define LIBSHA_INTERNAL_BENCH_H

#include "libsha.h"

#define LIBSHA_INTERNAL_API LIBSHA_API

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Benchmark kernel for shabench: runs `iterations` times, on the named
 * implementation only (the active one is left alone), either
 *   LIBSHA_INTERNAL_BENCH_HASH: SHA-256 of buf[0..len), its first min(len, 32) bytes
 *                      written back over buf (each hash depends on the last), or
 *   LIBSHA_INTERNAL_BENCH_D64:  libsha_sha256d64 in place over len / 64 blobs, or
 *   LIBSHA_INTERNAL_BENCH_HASH_DIRTY_UPPER: as LIBSHA_INTERNAL_BENCH_HASH after a 256-bit
 *                      register write each time (x86 with AVX, GCC/Clang
 *                      builds; LIBSHA_ERR_NOT_RUNNABLE elsewhere), or
 *   LIBSHA_INTERNAL_BENCH_STREAM: as LIBSHA_INTERNAL_BENCH_HASH through the public
 *                      libsha_sha256_init/update/final, as a C caller makes
 *                      them; they run on the active implementation, so it
 *                      must be the named one (LIBSHA_ERR_ARGUMENT otherwise), or
 *   LIBSHA_INTERNAL_BENCH_HMAC: HMAC-SHA256 of buf[0..len) under a fixed 32-byte key,
 *                      fed back as LIBSHA_INTERNAL_BENCH_HASH does, or
 *   LIBSHA_INTERNAL_BENCH_MERKLE: the Merkle root of the len / 32 leaves in buf, written
 *                      over the first leaf (len a non-zero multiple of 32).
 * Returns LIBSHA_OK or a LIBSHA_ERR_* code.
 */
#define LIBSHA_INTERNAL_BENCH_HASH 0
#define LIBSHA_INTERNAL_BENCH_D64 1
#define LIBSHA_INTERNAL_BENCH_HASH_DIRTY_UPPER 2
#define LIBSHA_INTERNAL_BENCH_STREAM 3
#define LIBSHA_INTERNAL_BENCH_HMAC 4
#define LIBSHA_INTERNAL_BENCH_MERKLE 5
LIBSHA_INTERNAL_API int libsha_internal_bench(const char *implementation, int op, unsigned char *buf, size_t len,
                                              uint64_t iterations);

/*
 * Benchmark kernel for shabench's many-message rows: libsha_sha256_many_offsets64
 * on the named implementation, `iterations` times over the same batch (each
 * run's first digest is written over message 0's first bytes, up to 32, so
 * no run can be skipped). With start LIBSHA_INTERNAL_AFTER_PREFIX, every
 * message after the start_len bytes at start (its _after form's call); with
 * LIBSHA_INTERNAL_UNDER_KEY, HMACs under that key (libsha_hmac_sha256_many's);
 * the context is made once, before the loop. Returns as those calls, or
 * LIBSHA_ERR_UNKNOWN_IMPL / LIBSHA_ERR_NOT_RUNNABLE for the name.
 */
#define LIBSHA_INTERNAL_FROM_NOTHING 0
#define LIBSHA_INTERNAL_AFTER_PREFIX 1
#define LIBSHA_INTERNAL_UNDER_KEY 2
LIBSHA_INTERNAL_API int libsha_internal_bench_many(const char *implementation, unsigned char *out,
                                                   unsigned char *data, const int64_t *offsets, size_t n,
                                                   unsigned flags, int start, const unsigned char *start_bytes,
                                                   size_t start_len, uint64_t iterations);

/*
 * Benchmark loop for shabench's many-streams rows: n streams (n <= 64), stream
 * i the stream_bytes at data + i * stream_bytes, each fed in chunks of `chunk`
 * bytes, a chunk of every stream per round, then finished; with `together`
 * each round is one libsha_sha256_update_many, else n libsha_sha256_update
 * calls, on the named implementation. `iterations` times, the first digest
 * written over the first stream's first bytes (up to 32) each time. Returns
 * LIBSHA_OK, LIBSHA_ERR_NULL (data NULL), LIBSHA_ERR_ARGUMENT (n 0 or over 64,
 * chunk 0) or LIBSHA_ERR_UNKNOWN_IMPL / LIBSHA_ERR_NOT_RUNNABLE for the name.
 */
#define LIBSHA_INTERNAL_BENCH_MAX_STREAMS 64
LIBSHA_INTERNAL_API int libsha_internal_bench_streams(const char *implementation, int together, unsigned char *data,
                                                      size_t stream_bytes, size_t chunk, size_t n,
                                                      uint64_t iterations);

/*
 * Benchmark loop for shabench's peer rows: another library's one-shot
 * SHA-256 with OpenSSL's signature, SHA256(data, len, md), run as
 * LIBSHA_INTERNAL_BENCH_HASH runs libsha's (the same feedback), so C loops
 * are set against C loops. Returns LIBSHA_OK or LIBSHA_ERR_NULL (fn or buf NULL).
 */
typedef unsigned char *(*libsha_internal_peer_sha256_fn)(const unsigned char *data, size_t len, unsigned char *md);
LIBSHA_INTERNAL_API int libsha_internal_bench_peer(libsha_internal_peer_sha256_fn fn, unsigned char *buf, size_t len,
                                                   uint64_t iterations);

/*
 * Benchmark loop for shabench's batch peer rows: another library's multi-buffer
 * SHA-256 behind one call shape, fn(peer, out, data, offsets, n) hashing the n
 * messages data[offsets[i] .. offsets[i + 1]) into out[32 * i] and returning 0
 * (anything else is a failure), run as libsha_internal_bench_many runs libsha
 * (the same feedback), so C loops are set against C loops. Returns LIBSHA_OK,
 * LIBSHA_ERR_NULL (fn, out, data or offsets NULL) or LIBSHA_ERR_ARGUMENT (fn failed).
 */
typedef int (*libsha_internal_peer_many_fn)(void *peer, unsigned char *out, const unsigned char *data,
                                            const int64_t *offsets, size_t n);
LIBSHA_INTERNAL_API int libsha_internal_bench_peer_many(libsha_internal_peer_many_fn fn, void *peer, unsigned char *out,
                                                        unsigned char *data, const int64_t *offsets, size_t n,
                                                        uint64_t iterations);

/*
 * Benchmark loop for shabench's key derivation rows: n PBKDF2-HMAC-SHA256 keys of dklen bytes
 * (n <= 64; key i from the password "password" and i, salt "libsha salt"), `rounds` iterations
 * each, on the named implementation, `iterations` times: with `together` in one call
 * (libsha_pbkdf2_hmac_sha256_many's), else one call per key. The keys go to out (n * dklen
 * bytes). Returns as those calls, LIBSHA_ERR_ARGUMENT for n 0 or over 64, or
 * LIBSHA_ERR_UNKNOWN_IMPL / LIBSHA_ERR_NOT_RUNNABLE for the name.
 */
#define LIBSHA_INTERNAL_BENCH_MAX_KEYS 64
LIBSHA_INTERNAL_API int libsha_internal_bench_pbkdf2(const char *implementation, unsigned char *out, size_t dklen,
                                                     size_t n, int together, uint64_t rounds, uint64_t iterations);

/*
 * The core clock, for shabench's cycle figures (rdtsc and the OS's MHz are not core cycles in a
 * VM): `iterations` times, eight dependent one-cycle adds. Timed by the caller, it gives cycles per
 * second. LIBSHA_OK on x86-64 and ARM64 built by GCC or Clang; LIBSHA_ERR_NOT_RUNNABLE elsewhere.
 */
LIBSHA_INTERNAL_API int libsha_internal_bench_clock(uint64_t iterations);

/* Tests only: a row of two engines hashes the batch messages of wide_from <= length < wide_to on its
 * wide lanes, whatever the CPU model table says for this CPU (wide_to UINT_MAX: no end; 0: the table's
 * window again). Lets a test put both engines of one batch to work on any CPU that runs the row. */
LIBSHA_INTERNAL_API void libsha_internal_set_wide_window(unsigned wide_from, unsigned wide_to);

#ifdef __cplusplus
}
#endif

#endif /* LIBSHA_INTERNAL_BENCH_H */
