/*
 * Batch peers for shabench: isa-l_crypto's and Intel IPsec-MB's multi-buffer
 * managers, and hashtree's kernels, behind libsha's batch-peer call shape
 * (libsha_internal_peer_many_fn in libsha/src/bench/bench.h), so
 * libsha_internal_bench_peer_many times them in the same C loop as
 * libsha_internal_bench_many times libsha. shabench compiles this file on first
 * use against the peer's own headers, with -DWITH_ISAL_CRYPTO, -DWITH_IPSEC_MB
 * or -DWITH_HASHTREE; nothing of any of them is in libsha.
 *
 * Every manager is set up by name (not by the library's own dispatcher), so
 * a row says which kernel it times. The caller checks the CPU can run it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POOL 64 /* jobs in flight: every manager's lanes full, with room to spare */

struct peer {
    void *manager;
    int (*run)(struct peer *peer, unsigned char *out, const unsigned char *data, const int64_t *offsets, size_t n);
    void (*release)(struct peer *peer);
};

int peer_many(void *peer, unsigned char *out, const unsigned char *data, const int64_t *offsets, size_t n)
{
    struct peer *p = peer;
    return p->run(p, out, data, offsets, n);
}

void peer_free(void *peer)
{
    struct peer *p = peer;
    if (p != NULL) {
        p->release(p);
        free(p);
    }
}

#if defined(WITH_ISAL_CRYPTO)
#include <isa-l_crypto/sha256_mb.h>

/* The managers by name: declared in isa-l's internal header, exported by its library. */
#define ISAL_MANAGERS(X) X(sse_ni) X(avx2) X(avx512) X(avx512_ni) X(sse) X(avx)
#define DECLARE(name)                                                                                     \
    void _sha256_ctx_mgr_init_##name(ISAL_SHA256_HASH_CTX_MGR *mgr);                                      \
    ISAL_SHA256_HASH_CTX *_sha256_ctx_mgr_submit_##name(ISAL_SHA256_HASH_CTX_MGR *mgr, ISAL_SHA256_HASH_CTX *ctx, \
                                                        const void *buffer, uint32_t len, ISAL_HASH_CTX_FLAG flags); \
    ISAL_SHA256_HASH_CTX *_sha256_ctx_mgr_flush_##name(ISAL_SHA256_HASH_CTX_MGR *mgr);
ISAL_MANAGERS(DECLARE)

struct isal {
    ISAL_SHA256_HASH_CTX_MGR mgr; /* first: the allocation is aligned for it */
    ISAL_SHA256_HASH_CTX ctx[POOL];
    ISAL_SHA256_HASH_CTX *(*submit)(ISAL_SHA256_HASH_CTX_MGR *, ISAL_SHA256_HASH_CTX *, const void *, uint32_t,
                                    ISAL_HASH_CTX_FLAG);
    ISAL_SHA256_HASH_CTX *(*flush)(ISAL_SHA256_HASH_CTX_MGR *);
};

static void isal_digest(const ISAL_SHA256_HASH_CTX *done, unsigned char *out)
{
    size_t message = (size_t)(uintptr_t)done->user_data;
    int i;
    for (i = 0; i < 8; ++i) {
        uint32_t word = done->job.result_digest[i];
        out[32 * message + 4 * i] = (unsigned char)(word >> 24);
        out[32 * message + 4 * i + 1] = (unsigned char)(word >> 16);
        out[32 * message + 4 * i + 2] = (unsigned char)(word >> 8);
        out[32 * message + 4 * i + 3] = (unsigned char)word;
    }
}

/* Each message is one ISAL_HASH_ENTIRE job; a free context takes the next one. */
static int isal_run(struct peer *peer, unsigned char *out, const unsigned char *data, const int64_t *offsets, size_t n)
{
    struct isal *s = peer->manager;
    ISAL_SHA256_HASH_CTX *free_ctx[POOL], *done;
    size_t nfree = 0, i;
    for (i = 0; i < POOL; ++i) {
        isal_hash_ctx_init(&s->ctx[i]);
        free_ctx[nfree++] = &s->ctx[i];
    }
    for (i = 0; i < n; ++i) {
        ISAL_SHA256_HASH_CTX *ctx;
        uint64_t len = (uint64_t)(offsets[i + 1] - offsets[i]);
        if (len > UINT32_MAX)
            return -1;
        while (nfree == 0) { /* every context in flight: flush one out */
            done = s->flush(&s->mgr);
            if (done == NULL || done->error != ISAL_HASH_CTX_ERROR_NONE)
                return -1;
            isal_digest(done, out);
            free_ctx[nfree++] = done;
        }
        ctx = free_ctx[--nfree];
        ctx->user_data = (void *)(uintptr_t)i;
        done = s->submit(&s->mgr, ctx, data + offsets[i], (uint32_t)len, ISAL_HASH_ENTIRE);
        if (done != NULL) {
            if (done->error != ISAL_HASH_CTX_ERROR_NONE)
                return -1;
            isal_digest(done, out);
            free_ctx[nfree++] = done;
        }
    }
    while ((done = s->flush(&s->mgr)) != NULL) {
        if (done->error != ISAL_HASH_CTX_ERROR_NONE)
            return -1;
        isal_digest(done, out);
    }
    return 0;
}

static void isal_release(struct peer *peer)
{
    free(peer->manager);
}

void *isal_peer(const char *manager)
{
    struct peer *peer;
    struct isal *s;
    void (*init)(ISAL_SHA256_HASH_CTX_MGR *) = NULL;
#define PICK(name)                                                                 \
    if (strcmp(manager, #name) == 0) {                                             \
        init = _sha256_ctx_mgr_init_##name;                                        \
        s = aligned_alloc(64, (sizeof(struct isal) + 63) / 64 * 64);               \
        if (s == NULL)                                                             \
            return NULL;                                                           \
        s->submit = _sha256_ctx_mgr_submit_##name, s->flush = _sha256_ctx_mgr_flush_##name; \
    } else
    ISAL_MANAGERS(PICK)
    return NULL;
#undef PICK
    peer = malloc(sizeof *peer);
    if (peer == NULL) {
        free(s);
        return NULL;
    }
    init(&s->mgr);
    peer->manager = s, peer->run = isal_run, peer->release = isal_release;
    return peer;
}
#endif

#if defined(WITH_IPSEC_MB)
#include <intel-ipsec-mb.h>

static int ipsec_done(IMB_JOB *job)
{
    return job == NULL || job->status == IMB_STATUS_COMPLETED ? 0 : -1;
}

/* Plain IMB_AUTH_SHA_256 jobs, no cipher; the manager writes each digest to its place in out. */
static int ipsec_run(struct peer *peer, unsigned char *out, const unsigned char *data, const int64_t *offsets, size_t n)
{
    IMB_MGR *mgr = peer->manager;
    IMB_JOB *job;
    size_t i;
    for (i = 0; i < n; ++i) {
        job = IMB_GET_NEXT_JOB(mgr);
        memset(job, 0, sizeof *job);
        job->cipher_mode = IMB_CIPHER_NULL;
        job->cipher_direction = IMB_DIR_ENCRYPT;
        job->chain_order = IMB_ORDER_HASH_CIPHER;
        job->hash_alg = IMB_AUTH_SHA_256;
        job->src = data + offsets[i];
        job->hash_start_src_offset_in_bytes = 0;
        job->msg_len_to_hash_in_bytes = (uint64_t)(offsets[i + 1] - offsets[i]);
        job->auth_tag_output = out + 32 * i;
        job->auth_tag_output_len_in_bytes = 32;
        if (ipsec_done(IMB_SUBMIT_JOB(mgr)) != 0)
            return -1;
    }
    while ((job = IMB_FLUSH_JOB(mgr)) != NULL)
        if (ipsec_done(job) != 0)
            return -1;
    return 0;
}

static void ipsec_release(struct peer *peer)
{
    free_mb_mgr(peer->manager);
}

/* "sse" keeps SHA-NI (its SHA-256 jobs run on it); "avx2" and "avx512" are asked for their lane
 * kernels with IMB_FLAG_SHANI_OFF, which they would otherwise leave for SHA-NI. */
void *ipsec_peer(const char *manager)
{
    int lanes = strcmp(manager, "sse") != 0;
    IMB_MGR *mgr = alloc_mb_mgr(lanes ? IMB_FLAG_SHANI_OFF : 0);
    struct peer *peer;
    if (mgr == NULL)
        return NULL;
    if (strcmp(manager, "sse") == 0)
        init_mb_mgr_sse(mgr);
    else if (strcmp(manager, "avx2") == 0)
        init_mb_mgr_avx2(mgr);
    else if (strcmp(manager, "avx512") == 0)
        init_mb_mgr_avx512(mgr);
    else {
        free_mb_mgr(mgr);
        return NULL;
    }
    peer = malloc(sizeof *peer);
    if (peer == NULL) {
        free_mb_mgr(mgr);
        return NULL;
    }
    peer->manager = mgr, peer->run = ipsec_run, peer->release = ipsec_release;
    return peer;
}

const char *ipsec_version(void)
{
    return imb_get_version_str();
}
#endif

#if defined(WITH_HASHTREE)
#include <hashtree.h>

/* hashtree's one call: count 64-byte blocks lying end to end, hashed each to its digest. shabench
 * hands it only batches of 64-byte messages cut from one buffer, so offsets[i] is offsets[0] + 64 i. */
static int hashtree_run(struct peer *peer, unsigned char *out, const unsigned char *data, const int64_t *offsets,
                        size_t n)
{
    hashtree_hash_fcn kernel = (hashtree_hash_fcn)peer->manager;
    if (n > 0 && offsets[n] - offsets[0] != (int64_t)(64 * n))
        return -1;
    kernel(out, data + offsets[0], (uint64_t)n);
    return 0;
}

static void hashtree_release(struct peer *peer)
{
    (void)peer;
}

/* The kernel by name, as hashtree_init(override) takes it, not the one its own dispatcher picks. */
void *hashtree_peer(const char *kernel)
{
    struct peer *peer;
    hashtree_hash_fcn fn = NULL;
#define HASHTREE_KERNELS(X) X(shani_x2) X(avx512_x16) X(avx2_x8) X(avx_x4) X(avx_x1) X(sse_x1)
#define PICK(name)                                  if (strcmp(kernel, #name) == 0)                     fn = hashtree_sha256_##name;
    HASHTREE_KERNELS(PICK)
#undef PICK
    if (fn == NULL)
        return NULL;
    peer = malloc(sizeof *peer);
    if (peer == NULL)
        return NULL;
    peer->manager = (void *)fn, peer->run = hashtree_run, peer->release = hashtree_release;
    return peer;
}
#endif
