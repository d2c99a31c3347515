/* Filecoin's piece commitment (commP) as a stream: bytes gathered into
 * 127-byte groups, each fr32-padded into four leaves of the slice under way;
 * a full slice goes up the zero-padded tree (zero_padded.c, its nodes
 * truncated to 254 bits), whose frontier the context keeps. The tree's height
 * is known only at the end: slices go up as if it were the tallest, and final
 * sets it, which leaves the slices' subtrees as they were. */
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

#include "bytes.h"
#include "dispatch/dispatch.h"
#include "trees.h"
#include "trees/zero_hashes_trunc254.h"

#define COMMP_MARKER 0x636f6d50u /* "comP" */
#define GROUP 127                /* payload bytes a fr32 group takes */

/* 127 bytes as 128: their 1,016 bits (least significant first) in four runs
 * of 254, each followed by two zero bits. Run q starts at bit 254q: byte
 * 31q + (q > 0), shifted right by (8 - 2q) % 8; each is four 64-bit words.
 * The last word reads 8 bytes past the group, bits the mask clears: in must
 * have 8 readable bytes after its 127. */
#if defined(__SSE2__) || defined(_M_X64)
/* Run q as two 128-bit halves: the words at p and p + 8 shifted and joined. */
#define FR32_RUN(q, start, s)                                                                                   \
    do {                                                                                                        \
        const unsigned char *p_ = in + (start);                                                                 \
        __m128i lo_ = _mm_or_si128(_mm_srli_epi64(_mm_loadu_si128((const __m128i *)p_), s),                    \
                                   _mm_slli_epi64(_mm_loadu_si128((const __m128i *)(p_ + 8)), 64 - (s)));      \
        __m128i hi_ = _mm_or_si128(_mm_srli_epi64(_mm_loadu_si128((const __m128i *)(p_ + 16)), s),             \
                                   _mm_slli_epi64(_mm_loadu_si128((const __m128i *)(p_ + 24)), 64 - (s)));     \
        _mm_storeu_si128((__m128i *)(out + 32 * (q)), lo_);                                                     \
        _mm_storeu_si128((__m128i *)(out + 32 * (q) + 16), _mm_and_si128(hi_, top));                           \
    } while (0)

static void fr32_reading_past(unsigned char out[128], const unsigned char *in)
{
    const __m128i top = _mm_set_epi64x(0x3fffffffffffffff, -1);
    _mm_storeu_si128((__m128i *)out, _mm_loadu_si128((const __m128i *)in));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_and_si128(_mm_loadu_si128((const __m128i *)(in + 16)), top));
    FR32_RUN(1, 31, 6);
    FR32_RUN(2, 63, 4);
    FR32_RUN(3, 95, 2);
}
#else
static void fr32_reading_past(unsigned char out[128], const unsigned char *in)
{
    static const int start[4] = {0, 31, 63, 95}, shift[4] = {0, 6, 4, 2};
    int q, w;
    for (q = 0; q < 4; ++q) {
        const unsigned char *p = in + start[q];
        for (w = 0; w < 4; ++w) {
            uint64_t x = libsha_load_le64(p + 8 * w);
            if (shift[q] != 0)
                x = x >> shift[q] | libsha_load_le64(p + 8 * w + 8) << (64 - shift[q]);
            if (w == 3)
                x &= UINT64_C(0x3fffffffffffffff);
            libsha_store_le64(out + 32 * q + 8 * w, x);
        }
    }
}
#endif

/* The same for a group with nothing readable after it: from a copy. */
static void fr32(unsigned char out[128], const unsigned char in[GROUP])
{
    unsigned char g[GROUP + 8];
    memcpy(g, in, GROUP);
    memset(g + GROUP, 0, 8);
    fr32_reading_past(out, g);
}

/* The leaves in the slice under way. */
static size_t slice_leaves(const libsha_commp_ctx *ctx)
{
    return (size_t)(4 * (ctx->payload / GROUP) % LIBSHA_COMMP_SLICE);
}

static void tree_of(struct libsha_zero_tree *t, const struct libsha_impl *impl, const libsha_commp_ctx *ctx, int depth)
{
    libsha_zero_tree_init(t, impl, depth, LIBSHA_COMMP_SLICE_LEVELS, LIBSHA_ZERO_HASHES_TRUNC254, -1, NULL);
    t->trunc254 = 1;
    t->units = ctx->slices;
    memcpy(t->stack, ctx->frontier, sizeof ctx->frontier);
}

/* The full slice up the tree, into the frontier. */
static void push_slice(const struct libsha_impl *impl, libsha_commp_ctx *ctx)
{
    struct libsha_zero_tree t;
    tree_of(&t, impl, ctx, LIBSHA_TREE_MAX_DEPTH);
    libsha_zero_tree_slice(&t, ctx->leaves, LIBSHA_COMMP_SLICE, NULL);
    ctx->slices = t.units;
    memcpy(ctx->frontier, t.stack, sizeof ctx->frontier);
}

size_t libsha_commp_ctx_size(void)
{
    return sizeof(libsha_commp_ctx);
}

void libsha_commp_init(libsha_commp_ctx *ctx)
{
    libsha_enter();
    if (ctx == NULL)
        return;
    memset(ctx, 0, sizeof *ctx);
    ctx->marker = COMMP_MARKER;
}

int libsha_commp_update(libsha_commp_ctx *ctx, const void *data, size_t len)
{
    const struct libsha_impl *impl = libsha_active();
    const unsigned char *p = (const unsigned char *)data;
    libsha_enter();
    if (ctx == NULL || (data == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    if (ctx->marker != COMMP_MARKER)
        return LIBSHA_ERR_STATE;
    if ((uintptr_t)data > UINTPTR_MAX - len || (uint64_t)len > LIBSHA_COMMP_MAX_PAYLOAD - ctx->payload)
        return LIBSHA_ERR_ARGUMENT;
    while (len > 0) {
        const size_t have = (size_t)(ctx->payload % GROUP), at = slice_leaves(ctx);
        size_t groups = 0;
        if (have == 0 && len >= GROUP) { /* whole groups straight from the payload */
            size_t g;
            groups = len / GROUP < (LIBSHA_COMMP_SLICE - at) / 4 ? len / GROUP : (LIBSHA_COMMP_SLICE - at) / 4;
            for (g = 0; g < groups; ++g) {
                if (len - GROUP * g >= GROUP + 8) /* the payload goes on past this group */
                    fr32_reading_past(ctx->leaves + 32 * (at + 4 * g), p + GROUP * g);
                else
                    fr32(ctx->leaves + 32 * (at + 4 * g), p + GROUP * g);
            }
            p += GROUP * groups;
            len -= GROUP * groups;
            ctx->payload += GROUP * groups;
        } else {
            const size_t take = len < GROUP - have ? len : GROUP - have;
            memcpy(ctx->group + have, p, take);
            p += take;
            len -= take;
            ctx->payload += take;
            if (have + take == GROUP) {
                fr32(ctx->leaves + 32 * at, ctx->group);
                groups = 1;
            }
        }
        if (groups > 0 && slice_leaves(ctx) == 0)
            push_slice(impl, ctx);
    }
    return LIBSHA_OK;
}

int libsha_commp_final(libsha_commp_ctx *ctx, unsigned char commp[32], uint64_t *padded_size)
{
    const struct libsha_impl *impl = libsha_active();
    struct libsha_zero_tree t;
    size_t at;
    int depth;
    libsha_enter();
    if (ctx == NULL || commp == NULL)
        return LIBSHA_ERR_NULL;
    if (ctx->marker != COMMP_MARKER)
        return LIBSHA_ERR_STATE;
    if (ctx->payload < LIBSHA_COMMP_MIN_PAYLOAD)
        return LIBSHA_ERR_ARGUMENT;
    at = slice_leaves(ctx);
    if (ctx->payload % GROUP != 0) { /* the last group zero-filled */
        const size_t have = (size_t)(ctx->payload % GROUP);
        memset(ctx->group + have, 0, GROUP - have);
        fr32(ctx->leaves + 32 * at, ctx->group);
        at += 4;
    }
    depth = libsha_ceil_log2(4 * ((ctx->payload + GROUP - 1) / GROUP));
    /* With slices gone up, the tree is at least a slice high, as they assumed; without, it may be lower. */
    tree_of(&t, impl, ctx, ctx->slices > 0 ? LIBSHA_TREE_MAX_DEPTH : depth);
    if (at > 0)
        libsha_zero_tree_slice(&t, ctx->leaves, at, NULL);
    t.depth = depth;
    libsha_zero_tree_root(&t, commp);
    if (padded_size != NULL)
        *padded_size = (uint64_t)32 << depth;
    memset(ctx, 0, sizeof *ctx); /* the marker cleared with the rest */
    return LIBSHA_OK;
}

int libsha_commp(unsigned char commp[32], uint64_t *padded_size, const void *data, size_t len)
{
    libsha_commp_ctx ctx;
    int code;
    if (commp == NULL)
        return LIBSHA_ERR_NULL;
    libsha_commp_init(&ctx);
    code = libsha_commp_update(&ctx, data, len);
    if (code == LIBSHA_OK)
        code = libsha_commp_final(&ctx, commp, padded_size);
    return code;
}
