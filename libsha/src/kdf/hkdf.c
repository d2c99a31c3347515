/* HKDF-SHA256 (RFC 5869): extract, PRK = HMAC(salt, IKM); expand,
 * T(i) = HMAC(PRK, T(i-1) || info || i), the key their first L bytes. */
#include <string.h>

#include "dispatch/dispatch.h"
#include "fips180.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"

#define HKDF_MAX (255 * 32)

static int check_expand(const unsigned char *out, size_t out_len, const void *prk, size_t prk_len,
                        const void *info, size_t info_len)
{
    if ((out == NULL && out_len > 0) || (prk == NULL && prk_len > 0) || (info == NULL && info_len > 0))
        return LIBSHA_ERR_NULL;
    if (out_len > HKDF_MAX)
        return LIBSHA_ERR_ARGUMENT;
    /* Each block's message: the key's pad block, T(i-1), info and the counter byte. */
    if ((uint64_t)info_len > LIBSHA_MAX_MESSAGE_BYTES - 64 - 32 - 1)
        return LIBSHA_ERR_TOO_LONG;
    return LIBSHA_OK;
}

/* Expand under a keyed context (wiped here). The blocks are made in a buffer of
 * our own and copied out last: out may overlap any input. */
static void expand(const struct libsha_impl *impl, libsha_hmac_sha256_ctx *keyed, unsigned char *out,
                   size_t out_len, const void *info, size_t info_len)
{
    unsigned char okm[HKDF_MAX];
    libsha_hmac_sha256_ctx block;
    size_t at;
    unsigned char i = 1;

    for (at = 0; at < out_len; at += 32, ++i) {
        block = *keyed;
        if (at > 0)
            libsha_stream_update(impl, &block.inner, okm + at - 32, 32);
        libsha_stream_update(impl, &block.inner, info, info_len); /* checked */
        libsha_stream_update(impl, &block.inner, &i, 1);
        libsha_hmac_finish(impl, &block, okm + at);
    }
    if (out_len > 0)
        memcpy(out, okm, out_len);
    libsha_wipe_bytes(okm, (out_len + 31) / 32 * 32);
    libsha_hmac_sha256_wipe(keyed);
}

int libsha_hkdf_sha256_extract(unsigned char prk[32], const void *salt, size_t salt_len, const void *ikm,
                               size_t ikm_len)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_enter();
    /* RFC 5869: no salt is 32 zero bytes, the same HMAC key as the empty one. */
    return libsha_hmac_run(impl, salt, salt_len, ikm, ikm_len, prk);
}

int libsha_hkdf_sha256_expand(unsigned char *out, size_t out_len, const void *prk, size_t prk_len,
                              const void *info, size_t info_len)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_hmac_sha256_ctx keyed;
    int err;

    libsha_enter();
    if ((err = check_expand(out, out_len, prk, prk_len, info, info_len)) != LIBSHA_OK)
        return err;
    libsha_hmac_start(impl, &keyed, (const unsigned char *)prk, prk_len);
    expand(impl, &keyed, out, out_len, info, info_len);
    return LIBSHA_OK;
}

int libsha_hkdf_sha256(unsigned char *out, size_t out_len, const void *salt, size_t salt_len, const void *ikm,
                       size_t ikm_len, const void *info, size_t info_len)
{
    const struct libsha_impl *impl = libsha_active();
    libsha_hmac_sha256_ctx keyed;
    unsigned char prk[32];
    int err;

    libsha_enter();
    if ((err = check_expand(out, out_len, prk, sizeof prk, info, info_len)) != LIBSHA_OK)
        return err;
    if ((salt == NULL && salt_len > 0) || (ikm == NULL && ikm_len > 0))
        return LIBSHA_ERR_NULL;
    if ((uint64_t)ikm_len > LIBSHA_MAX_MESSAGE_BYTES - 64)
        return LIBSHA_ERR_TOO_LONG;
    libsha_hmac_run(impl, salt, salt_len, ikm, ikm_len, prk); /* checked */
    libsha_hmac_start(impl, &keyed, prk, sizeof prk);
    libsha_wipe_bytes(prk, sizeof prk);
    expand(impl, &keyed, out, out_len, info, info_len);
    return LIBSHA_OK;
}
