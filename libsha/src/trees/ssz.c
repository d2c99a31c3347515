/* Ethereum consensus SSZ: merkleize (chunks padded with zero subtrees to the
 * limit's power of two) and mix_in_length. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "trees.h"
#include "trees/zero_hashes.h"

int libsha_ssz_merkleize(unsigned char out[32], const void *data, size_t len, uint64_t limit)
{
    const struct libsha_impl *impl = libsha_active();
    const size_t chunks = len / 32 + (len % 32 != 0);
    unsigned char last[32], root[32];
    int depth;
    libsha_enter();
    if (out == NULL || (data == NULL && len > 0))
        return LIBSHA_ERR_NULL;
    if (limit != LIBSHA_SSZ_NO_LIMIT && limit < chunks)
        return LIBSHA_ERR_ARGUMENT;
    if ((uintptr_t)data > UINTPTR_MAX - len)
        return LIBSHA_ERR_ARGUMENT;
    depth = libsha_ceil_log2(limit == LIBSHA_SSZ_NO_LIMIT ? chunks : limit);
    if (len % 32 != 0) { /* basic values packed: the last chunk's zeros are ours */
        memset(last, 0, 32);
        memcpy(last, (const unsigned char *)data + 32 * (chunks - 1), len % 32);
    }
    libsha_zero_padded_root(impl, root, (const unsigned char *)data, chunks, len % 32 != 0 ? last : NULL, depth,
                            LIBSHA_ZERO_HASHES);
    memcpy(out, root, 32); /* out may overlap the data */
    return LIBSHA_OK;
}

int libsha_ssz_mix_in_length(unsigned char out[32], const unsigned char root[32], uint64_t length)
{
    unsigned char pair[64];
    int i;
    libsha_enter();
    if (out == NULL || root == NULL)
        return LIBSHA_ERR_NULL;
    memcpy(pair, root, 32);
    memset(pair + 32, 0, 32);
    for (i = 0; i < 8; ++i)
        pair[32 + i] = (unsigned char)(length >> (8 * i));
    libsha_level_on(libsha_active(), out, pair, 1);
    return LIBSHA_OK;
}
