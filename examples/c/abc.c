/* Prints SHA-256("abc"): cc abc.c -I P/include -L P/lib -lsha -Wl,-rpath,P/lib */
#include <stdio.h>
#include <libsha.h>
#include <libsha_dispatch.h> /* libsha_implementation(): which row hashed */

int main(void)
{
    unsigned char digest[LIBSHA_DIGEST_SIZE];
    if (libsha_sha256("abc", 3, digest) != LIBSHA_OK)
        return 1;
    for (int i = 0; i < LIBSHA_DIGEST_SIZE; ++i)
        printf("%02x", digest[i]);
    printf("  (%s, libsha %s)\n", libsha_implementation(), libsha_version());
    return 0;
}
