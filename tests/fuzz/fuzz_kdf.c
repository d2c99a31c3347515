/*
 * libFuzzer harness: key derivation against OpenSSL. Input: [row][iterations][dklen lo][dklen hi]
 * [count][split...][bytes...]. On the row the first byte picks (any runnable one), PBKDF2-HMAC-SHA256
 * of up to eight passwords and salts cut from the bytes, with 1..64 iterations and 1..1024 bytes out,
 * one at a time and all at once, against OpenSSL's PKCS5_PBKDF2_HMAC; and HKDF-SHA256 of the same
 * bytes (extract, expand, both at once; 0..8160 bytes out, past it refused) against OpenSSL's HKDF.
 * Under ASan and UBSan: no read or write outside a buffer, whatever the lengths.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "fuzz_piece.h"
#include "fuzz_row.h"
#include "libsha.h"

#define MAX_KEYS 8

static void openssl_hkdf(int mode, const uint8_t *key, size_t keylen, const uint8_t *salt, size_t saltlen,
                         const uint8_t *info, size_t infolen, unsigned char *out, size_t outlen)
{
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    OSSL_PARAM params[6], *p = params;
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    *p++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, keylen);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
    *p = OSSL_PARAM_construct_end();
    if (EVP_KDF_derive(ctx, out, outlen, params) != 1)
        abort();
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
}

static void check_pbkdf2(const uint8_t *data, size_t size, unsigned iterations, size_t dklen, size_t count)
{
    const void *passwords[MAX_KEYS], *salts[MAX_KEYS];
    size_t password_lens[MAX_KEYS], salt_lens[MAX_KEYS], i, at = 0;
    unsigned char *many = malloc(MAX_KEYS * dklen), *one = malloc(dklen), *theirs = malloc(dklen);
    if (many == NULL || one == NULL || theirs == NULL)
        abort();
    for (i = 0; i < count; ++i) { /* password i and salt i: the next bytes, cut where the input says */
        size_t plen = at < size ? data[at] % 160 : 0, slen = at + 1 < size ? data[at + 1] % 160 : 0;
        at += 2;
        plen = plen < size - (at < size ? at : size) ? plen : size - (at < size ? at : size);
        passwords[i] = piece(data + (at < size ? at : size), plen), password_lens[i] = plen;
        at += plen;
        slen = slen < size - (at < size ? at : size) ? slen : size - (at < size ? at : size);
        salts[i] = piece(data + (at < size ? at : size), slen), salt_lens[i] = slen;
        at += slen;
    }
    if (libsha_pbkdf2_hmac_sha256_many(many, dklen, passwords, password_lens, salts, salt_lens, count, iterations)
        != LIBSHA_OK)
        abort();
    for (i = 0; i < count; ++i) {
        if (libsha_pbkdf2_hmac_sha256(one, dklen, passwords[i], password_lens[i], salts[i], salt_lens[i], iterations)
            != LIBSHA_OK)
            abort();
        if (PKCS5_PBKDF2_HMAC(passwords[i], (int)password_lens[i], salts[i], (int)salt_lens[i], (int)iterations,
                              EVP_sha256(), (int)dklen, theirs) != 1)
            abort();
        if (memcmp(one, theirs, dklen) != 0 || memcmp(many + i * dklen, theirs, dklen) != 0)
            abort();
        free((void *)passwords[i]);
        free((void *)salts[i]);
    }
    free(many), free(one), free(theirs);
}

static void check_hkdf(const uint8_t *data, size_t size, size_t outlen)
{
    size_t third = size / 3;
    uint8_t *ikm = piece(data, third), *salt = piece(data + third, third), *info = piece(data + 2 * third, size - 2 * third);
    unsigned char prk[32], theirs_prk[32];
    unsigned char *out = malloc(outlen + 1), *theirs = malloc(outlen + 1);
    if (out == NULL || theirs == NULL)
        abort();
    if (libsha_hkdf_sha256_extract(prk, salt, third, ikm, third) != LIBSHA_OK)
        abort();
    openssl_hkdf(EVP_KDF_HKDF_MODE_EXTRACT_ONLY, ikm, third, salt, third, info, 0, theirs_prk, 32);
    if (memcmp(prk, theirs_prk, 32) != 0)
        abort();
    if (outlen > 255 * 32) {
        if (libsha_hkdf_sha256(out, outlen, salt, third, ikm, third, info, size - 2 * third) != LIBSHA_ERR_ARGUMENT
            || libsha_hkdf_sha256_expand(out, outlen, prk, 32, info, size - 2 * third) != LIBSHA_ERR_ARGUMENT)
            abort();
    } else if (outlen > 0) {
        openssl_hkdf(EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, ikm, third, salt, third, info, size - 2 * third, theirs,
                     outlen);
        if (libsha_hkdf_sha256(out, outlen, salt, third, ikm, third, info, size - 2 * third) != LIBSHA_OK
            || memcmp(out, theirs, outlen) != 0)
            abort();
        if (libsha_hkdf_sha256_expand(out, outlen, prk, 32, info, size - 2 * third) != LIBSHA_OK
            || memcmp(out, theirs, outlen) != 0)
            abort();
    }
    free(ikm), free(salt), free(info), free(out), free(theirs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t count, dklen, outlen;
    unsigned iterations;

    if (size < 5)
        return 0;
    fuzz_select_row(data[0]);
    iterations = 1 + data[1] % 64;
    outlen = (size_t)data[2] | (size_t)(data[3] & 0x3f) << 8; /* HKDF: 0..16383, past 8160 refused */
    dklen = 1 + outlen % 1024;
    count = 1 + data[4] % MAX_KEYS;
    check_pbkdf2(data + 5, size - 5, iterations, dklen, count);
    check_hkdf(data + 5, size - 5, outlen);
    return 0;
}
