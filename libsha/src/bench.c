/* Timed loops for shabench, run natively so a foreign-function call per
 * iteration is not what gets measured. */
#include "sha256_impl.h"

int libsha_bench(const char *implementation, int op, unsigned char *buf, size_t len,
                 uint64_t iterations)
{
    int err = LIBSHA_OK;
    const struct libsha_impl *impl = libsha_find(implementation, &err);
    uint64_t i;

    if (impl == NULL)
        return err;
    if (buf == NULL)
        return LIBSHA_ERR_NULL;
    switch (op) {
    case LIBSHA_BENCH_HASH:
        if (len < 32)
            return LIBSHA_ERR_ARGUMENT;
        for (i = 0; i < iterations; ++i) {
            libsha_sha256_ctx ctx;
            libsha_sha256_init(&ctx);
            libsha_stream_update(impl, &ctx, buf, len);
            libsha_stream_final(impl, &ctx, buf); /* feeds back, as Bitcoin Core's SHA256_32b */
        }
        return LIBSHA_OK;
    case LIBSHA_BENCH_D64:
        if (len == 0 || len % 64 != 0)
            return LIBSHA_ERR_ARGUMENT;
        for (i = 0; i < iterations; ++i)
            libsha_d64_run(impl, buf, buf, len / 64);
        return LIBSHA_OK;
    default:
        return LIBSHA_ERR_ARGUMENT;
    }
}
