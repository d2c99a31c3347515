/*
 * libsha's C tests, against every implementation this CPU runs: the NIST CAVP
 * short and long messages (one-shot and streamed), streaming at every split
 * point of lengths 0..300, and SHA256D64 of 0..40 blobs, in place and not.
 * Also a model of the C API in use. Runs where Python cannot (qemu, wine).
 *
 *   test_libsha VECTOR_DIR [--expect IMPLEMENTATION]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsha.h"

#define MAX_MESSAGE 8192

static int passed, failed;

static void check(int ok, const char *impl, const char *what, size_t n)
{
    if (ok) {
        ++passed;
    } else {
        ++failed;
        if (failed <= 20)
            printf("FAIL %s: %s (%zu)\n", impl, what, n);
    }
}

static int hexval(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static size_t unhex(const char *hex, unsigned char *out, size_t max)
{
    size_t n = 0;
    while (hex[0] && hex[1] && hex[0] != '\n' && hex[0] != '\r' && n < max) {
        out[n++] = (unsigned char)(hexval(hex[0]) << 4 | hexval(hex[1]));
        hex += 2;
    }
    return n;
}

/* Checks every (Len, Msg, MD) record of a CAVP .rsp file; returns how many. */
static int nist_file(const char *dir, const char *name, const char *impl)
{
    char path[1024], line[2 * MAX_MESSAGE + 64];
    static unsigned char msg[MAX_MESSAGE];
    unsigned char md[32], out[32];
    size_t bits = 0, len = 0;
    int records = 0;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((f = fopen(path, "r")) == NULL) {
        printf("FAIL cannot open %s\n", path);
        ++failed;
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Len = ", 6) == 0) {
            bits = strtoul(line + 6, NULL, 10);
        } else if (strncmp(line, "Msg = ", 6) == 0) {
            len = unhex(line + 6, msg, sizeof msg);
            if (len > bits / 8)
                len = bits / 8; /* Len = 0 still carries Msg = 00 */
        } else if (strncmp(line, "MD = ", 5) == 0) {
            libsha_sha256_ctx ctx;
            size_t i;
            unhex(line + 5, md, sizeof md);
            check(libsha_sha256(msg, len, out) == LIBSHA_OK && memcmp(out, md, 32) == 0, impl, name, len);
            libsha_sha256_init(&ctx);
            for (i = 0; i < len; i += 37)
                libsha_sha256_update(&ctx, msg + i, len - i < 37 ? len - i : 37);
            check(libsha_sha256_final(&ctx, out) == LIBSHA_OK && memcmp(out, md, 32) == 0, impl, name, len);
            ++records;
        }
    }
    fclose(f);
    return records;
}

/* Expected values, computed once with 'standard' after it passed the NIST vectors. */
static unsigned char data[64 * 41], prefix_digest[301][32], d64_expected[41 * 32];

static void compute_expected(void)
{
    size_t i, n;
    for (i = 0; i < sizeof data; ++i)
        data[i] = (unsigned char)(i * 131 + 7);
    for (n = 0; n <= 300; ++n)
        libsha_sha256(data, n, prefix_digest[n]);
    for (i = 0; i < 41; ++i) {
        unsigned char inner[32];
        libsha_sha256(data + 64 * i, 64, inner);
        libsha_sha256(inner, 32, d64_expected + 32 * i);
    }
}

static void streaming_and_d64(const char *impl)
{
    static unsigned char buf[64 * 41], out[41 * 32];
    size_t n, k, blobs;
    for (n = 0; n <= 300; ++n) {
        int all_ok = 1;
        for (k = 0; k <= n; ++k) {
            libsha_sha256_ctx ctx;
            unsigned char digest[32];
            libsha_sha256_init(&ctx);
            libsha_sha256_update(&ctx, data, k);
            libsha_sha256_update(&ctx, data + k, n - k);
            libsha_sha256_final(&ctx, digest);
            all_ok &= memcmp(digest, prefix_digest[n], 32) == 0;
        }
        check(all_ok, impl, "every split point of length", n);
    }
    for (blobs = 0; blobs <= 40; ++blobs) {
        libsha_sha256d64(out, data, blobs);
        check(memcmp(out, d64_expected, 32 * blobs) == 0, impl, "sha256d64 blobs", blobs);
        memcpy(buf, data, 64 * blobs);
        libsha_sha256d64(buf, buf, blobs);
        check(memcmp(buf, d64_expected, 32 * blobs) == 0, impl, "sha256d64 in place, blobs", blobs);
    }
}

int main(int argc, char **argv)
{
    const char *dir, *expect = NULL, *detected, *name;
    size_t i;
    int runnable, tested = 0;

    if (argc < 2 || (argc == 4 && strcmp(argv[2], "--expect") != 0) || (argc != 2 && argc != 4)) {
        fprintf(stderr, "usage: %s VECTOR_DIR [--expect IMPLEMENTATION]\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    if (argc == 4)
        expect = argv[3];
    detected = libsha_implementation(); /* first use: the library detects by itself */
    printf("libsha %s (%s), detected: %s\n", libsha_version(), libsha_build_type(), detected);
    if (expect != NULL)
        check(strcmp(detected, expect) == 0, detected, "detection chose this, not the expected one", 0);

    check(libsha_select("standard") == LIBSHA_OK, "standard", "select", 0);
    check(nist_file(dir, "SHA256ShortMsg.rsp", "standard") == 65, "standard", "ShortMsg records", 0);
    compute_expected();
    check(libsha_select("no such implementation") == LIBSHA_ERR_UNKNOWN_IMPL, "-", "unknown name refused", 0);

    for (i = 0; (name = libsha_implementation_at(i, &runnable)) != NULL; ++i) {
        int before_failed = failed, before_passed = passed;
        if (!runnable) {
            /* Asking for it is an error, never an illegal instruction. */
            check(libsha_select(name) == LIBSHA_ERR_NOT_RUNNABLE, name, "not runnable, refused", 0);
            printf("%s: not runnable on this CPU (select refused it)\n", name);
            continue;
        }
        check(libsha_select(name) == LIBSHA_OK && strcmp(libsha_implementation(), name) == 0, name, "select", 0);
        nist_file(dir, "SHA256ShortMsg.rsp", name);
        nist_file(dir, "SHA256LongMsg.rsp", name);
        streaming_and_d64(name);
        ++tested;
        printf("%s: %d passed, %d failed\n", name, passed - before_passed, failed - before_failed);
    }
    check(tested > 0, "-", "implementations tested", 0);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
