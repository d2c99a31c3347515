/* SHA-256 of standard input, streamed: build with
 *   cc sha256sum.c $(pkg-config --cflags --libs libsha) -Wl,-rpath,"$(pkg-config --variable=libdir libsha)"
 * where pkg-config finds libsha.pc: after `cmake --install build --prefix P`, set
 * PKG_CONFIG_PATH=P/lib/pkgconfig (docs/c-api.md); the rpath lets the program find libsha.so.0 in P.
 */
#include <stdio.h>

#include <libsha.h>

int main(void)
{
    unsigned char buf[65536], digest[LIBSHA_DIGEST_SIZE];
    libsha_sha256_ctx ctx;
    size_t n;

    libsha_sha256_init(&ctx);
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (libsha_sha256_update(&ctx, buf, n) != LIBSHA_OK)
            return 1;
    if (ferror(stdin) || libsha_sha256_final(&ctx, digest) != LIBSHA_OK)
        return 1;
    for (n = 0; n < sizeof digest; ++n)
        printf("%02x", digest[n]);
    printf("  -\n");
    return 0;
}
