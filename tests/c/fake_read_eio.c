/* Preloaded by tests/files/test_file_lanes.py: read() fails with EIO on a file whose name ends in
 * "fails-midway" once LIBSHA_TEST_EIO_AFTER bytes of it have been read, so a read error in the
 * middle of a file (a failing disk, a network file system) can be tested without FUSE. Linux. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t read(int fd, void *buf, size_t count)
{
    static ssize_t (*real_read)(int, void *, size_t);
    static const char suffix[] = "fails-midway";
    char link[64], target[PATH_MAX];
    const char *after = getenv("LIBSHA_TEST_EIO_AFTER");
    ssize_t len;
    if (real_read == NULL)
        real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    len = readlink(link, target, sizeof target - 1);
    if (after != NULL && len >= (ssize_t)(sizeof suffix - 1)
        && memcmp(target + len - (sizeof suffix - 1), suffix, sizeof suffix - 1) == 0
        && lseek(fd, 0, SEEK_CUR) >= atol(after)) {
        errno = EIO;
        return -1;
    }
    return real_read(fd, buf, count);
}
