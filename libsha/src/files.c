/* SHA-256 of files read to their end. The read loop is here, in C, so a batch
 * of small files costs a few system calls each and nothing else, and a thread
 * runs a whole batch without coming back to its caller (Python's GIL). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* open's O_CLOEXEC under -std=c11 */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

#include "atomic.h"
#include "sha256_impl.h"

/* Measured on a page-cached 1 GiB file: reads of 64 KiB to 4 MiB all ran
 * within 2 % of each other; this size stays in L2 while it is hashed. */
#define READ_SIZE (128u * 1024u)

/* The control counters are plain integers in the public struct, so any
 * language can read them; here they are touched atomically (atomic.h). */
static void add_bytes(libsha_files_control *p, uint64_t n)
{
    libsha_relaxed_add_u64(&p->bytes, n);
}
static void add_gathered(libsha_files_control *p, uint32_t n)
{
    libsha_relaxed_add_u32(&p->gathered, n);
}
static int cancelled(const libsha_files_control *p)
{
    return libsha_relaxed_load_u32(&p->cancel) != 0;
}

/* Opens path for reading; returns a file descriptor, or -1 with errno set. */
static int open_file(const char *path)
{
#ifdef _WIN32
    /* Paths arrive as UTF-8 (what Python's os.fsencode gives on Windows). */
    int fd, wide = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    wchar_t *wpath;
    if (wide <= 0) {
        errno = EILSEQ;
        return -1;
    }
    wpath = (wchar_t *)malloc(sizeof(wchar_t) * (size_t)wide);
    if (wpath == NULL) {
        errno = ENOMEM;
        return -1;
    }
    MultiByteToWideChar(CP_UTF8, 0, path, -1, wpath, wide);
    fd = _wopen(wpath, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    free(wpath);
    return fd;
#else
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    return fd;
#endif
}

/* Reads up to len bytes; returns the count (0 at the end) or -1 with errno set. */
static long read_some(int fd, unsigned char *buf, size_t len)
{
#ifdef _WIN32
    return _read(fd, buf, (unsigned)len);
#else
    ssize_t n;
    do
        n = read(fd, buf, len);
    while (n < 0 && errno == EINTR);
    return (long)n;
#endif
}

/* Whether the file holds more than limit bytes: its end found by seeking, then
 * back to where reading was. (Not fstat: glibc 2.33 made it a new symbol, which
 * would raise the oldest glibc our wheels run on.) Pipes cannot seek: never. */
static int larger_than(int fd, uint64_t limit)
{
#ifdef _WIN32
    __int64 at = _lseeki64(fd, 0, SEEK_CUR), end = at < 0 ? -1 : _lseeki64(fd, 0, SEEK_END);
    if (end >= 0)
        _lseeki64(fd, at, SEEK_SET);
#else
    off_t at = lseek(fd, 0, SEEK_CUR), end = at < 0 ? -1 : lseek(fd, 0, SEEK_END);
    if (end >= 0 && lseek(fd, at, SEEK_SET) < 0)
        return 0;
#endif
    return end >= 0 && (uint64_t)end > limit;
}

static void close_file(int fd)
{
#ifdef _WIN32
    _close(fd);
#else
    close(fd); /* opened for reading only: nothing of ours is lost if this fails */
#endif
}

/* What a read, or a file's whole hashing, came to: DONE when it went through. */
enum { DONE = 0, CANCELLED = LIBSHA_FILE_CANCELLED, DEFERRED = LIBSHA_FILE_DEFERRED, GATHERED = -3, STREAMING = -4 };

/* A batch's small files wait here, whole, and are hashed together, one per
 * lane of the widest kernel: on SHA-NI two at a time run 1.5 times as fast as
 * one, on AVX2 eight at a time several times. */
#define SMALL_FILE (16u * 1024u)
#define GROUP 16u
struct gathered {
    unsigned char *bytes; /* GROUP * SMALL_FILE + 1: room for one byte past a small file */
    int64_t offsets[GROUP + 1];
    size_t slots[GROUP];
    size_t count;
};

/* A batch's large files (more than SMALL_FILE), up to one per lane of the widest kernel, stay
 * open side by side: each round reads a chunk of every one, each into its own buffer, and hashes
 * the chunks together (libsha_sha256_update_many's engine); a file that ends or fails leaves its
 * lane to the next large one. Chunks of 256 KiB over the lanes (at least 32 KiB): all of a round's
 * buffers stay in L2 from the read to the hash. (Measured on 1 GiB in the page cache: reads into a
 * 128 KiB buffer took a quarter of the system time of reads into 1 to 4 MiB ones.) */
#define ROUND_BYTES (256u * 1024u)
#define MIN_LANE_READ (32u * 1024u)
struct open_stream {
    libsha_sha256_ctx ctx;
    int fd;
    size_t slot;   /* its index in the batch */
    size_t got;    /* this round's chunk */
    int result;    /* this round's read */
};
struct streams {
    size_t lanes; /* how many may be open: 1 turns this off (each file hashed to its end at once) */
    size_t count; /* open now, s[0 .. count) */
    size_t read_size;
    unsigned char *buffers; /* lanes * read_size */
    int cancelled;
    struct open_stream s[LIBSHA_MAX_LANES];
};

/* One read of up to len bytes into p, unless control says stop: *got receives
 * the count (0 at the end), which control counts. Returns DONE, CANCELLED or
 * an errno value. */
static int read_counted(int fd, unsigned char *p, size_t len, size_t *got, libsha_files_control *control)
{
    long n;
    *got = 0;
    if (control != NULL && cancelled(control))
        return CANCELLED;
    n = read_some(fd, p, len);
    if (n < 0)
        return errno != 0 ? errno : EIO;
    *got = (size_t)n;
    if (control != NULL)
        add_bytes(control, (uint64_t)n);
    return DONE;
}

/* Reads until the end of the file or until more than limit bytes are in p;
 * *got receives the count, *at_end whether the end was seen. Returns DONE,
 * CANCELLED or an errno value. */
static int read_head(int fd, unsigned char *p, size_t limit, size_t *got, int *at_end,
                     libsha_files_control *control)
{
    *got = 0, *at_end = 0;
    while (*got <= limit) {
        size_t n;
        int result = read_counted(fd, p + *got, limit + 1 - *got, &n, control);
        if (result != DONE)
            return result;
        if (n == 0) {
            *at_end = 1;
            break;
        }
        *got += n;
    }
    return DONE;
}

/* Hashes path into out, or, with g, gathers it there when it is small, or
 * leaves it when control defers it. Returns DONE, GATHERED, DEFERRED,
 * CANCELLED or an errno value. */
static int hash_path(const struct libsha_impl *impl, const char *path, unsigned char *buf,
                     unsigned char out[32], libsha_files_control *control, struct gathered *g, size_t slot,
                     struct streams *st)
{
    libsha_sha256_ctx ctx;
    int fd = open_file(path), result = DONE;
    const unsigned char *head = NULL;
    size_t head_len = 0;

    if (fd < 0)
        return errno != 0 ? errno : EIO;
    if (g != NULL) {
        unsigned char *p = g->bytes + g->offsets[g->count];
        int at_end;
        result = read_head(fd, p, SMALL_FILE, &head_len, &at_end, control);
        if (result == DONE && at_end) {
            g->offsets[g->count + 1] = g->offsets[g->count] + (int64_t)head_len;
            g->slots[g->count++] = slot;
            close_file(fd);
            return GATHERED;
        }
        head = p; /* more than SMALL_FILE bytes: hashed as a stream, these first */
        if (result == DONE && control != NULL && control->defer_over != 0 && larger_than(fd, control->defer_over)) {
            add_bytes(control, (uint64_t)0 - head_len); /* the caller reads them again */
            close_file(fd);
            return DEFERRED;
        }
    }
    libsha_stream_init(&ctx);
    if (result == DONE && head_len > 0) {
        libsha_enter();
        libsha_stream_update(impl, &ctx, head, head_len);
    }
    if (result == DONE && st != NULL && st->lanes > 1 && st->buffers == NULL) {
        st->buffers = (unsigned char *)malloc(st->lanes * st->read_size); /* on the first large file only */
        if (st->buffers == NULL)
            st->lanes = 1; /* each file hashed to its end at once, as with one lane */
    }
    if (result == DONE && st != NULL && st->lanes > 1) { /* on in a lane, beside the others */
        struct open_stream *s = &st->s[st->count++];
        s->ctx = ctx, s->fd = fd, s->slot = slot;
        libsha_wipe_ctx(&ctx);
        return STREAMING;
    }
    while (result == DONE) {
        size_t n;
        result = read_counted(fd, buf, READ_SIZE, &n, control);
        if (result != DONE || n == 0)
            break;
        libsha_enter();
        if (libsha_stream_update(impl, &ctx, buf, n) != LIBSHA_OK)
            result = EFBIG; /* over SHA-256's 2^61 - 1 bytes */
    }
    close_file(fd);
    if (result == DONE)
        libsha_stream_final(impl, &ctx, out);
    else
        libsha_wipe_ctx(&ctx);
    return result;
}

/* The gathered files' digests, each to its slot in out. */
static void hash_gathered(const struct libsha_impl *impl, struct gathered *g, unsigned char *out,
                          libsha_files_control *control)
{
    unsigned char digests[GROUP * 32];
    size_t k;
    if (g->count == 0)
        return;
    libsha_enter();
    (void)libsha_many_offsets_on(impl, digests, g->bytes, NULL, g->offsets, g->count, 0); /* valid by construction */
    for (k = 0; k < g->count; ++k)
        memcpy(out + 32 * g->slots[k], digests + 32 * k, 32);
    if (control != NULL)
        add_gathered(control, (uint32_t)g->count);
    g->count = 0;
}

/* Lane k's stream has ended (s->result DONE with nothing read: its digest) or failed (an errno
 * value, or CANCELLED): its result goes out, its file is closed, the last lane's stream takes k. */
static void end_stream(const struct libsha_impl *impl, struct streams *st, size_t k, unsigned char *out,
                       int *os_errors, int *err)
{
    struct open_stream *s = &st->s[k];
    close_file(s->fd);
    if (s->result == DONE) {
        libsha_stream_final(impl, &s->ctx, out + 32 * s->slot); /* wipes the context */
        os_errors[s->slot] = DONE;
    } else {
        memset(out + 32 * s->slot, 0, 32);
        os_errors[s->slot] = s->result;
        if (s->result == CANCELLED)
            st->cancelled = 1;
        else
            *err = LIBSHA_ERR_IO;
    }
    if (k != --st->count)
        *s = st->s[st->count];
    libsha_wipe_ctx(&st->s[st->count].ctx);
}

/* One round: a chunk of every open stream read, all hashed together; the ended and failed ones out. */
static void run_round(const struct libsha_impl *impl, struct streams *st, unsigned char *out, int *os_errors,
                      libsha_files_control *control, int *err)
{
    libsha_sha256_ctx *ctxs[LIBSHA_MAX_LANES];
    const void *data[LIBSHA_MAX_LANES];
    size_t lens[LIBSHA_MAX_LANES], m = 0, k;
    for (k = 0; k < st->count; ++k) {
        struct open_stream *s = &st->s[k];
        unsigned char *buf = st->buffers + k * st->read_size;
        s->result = read_counted(s->fd, buf, st->read_size, &s->got, control);
        if (s->result == DONE && (uint64_t)s->got > LIBSHA_MAX_MESSAGE_BYTES - s->ctx.length)
            s->result = EFBIG; /* over SHA-256's 2^61 - 1 bytes */
        if (s->result == DONE && s->got > 0)
            ctxs[m] = &s->ctx, data[m] = buf, lens[m++] = s->got;
    }
    if (m > 0) /* valid by construction: distinct contexts, chunks in our buffers, lengths checked */
        (void)libsha_streams_update_on(impl, (void *const *)ctxs, sizeof(libsha_sha256_ctx), 0, data, lens, m);
    for (k = 0; k < st->count;) {
        if (st->s[k].result == DONE && st->s[k].got > 0)
            ++k;
        else
            end_stream(impl, st, k, out, os_errors, err); /* lane k now holds another stream, or none */
    }
}

/* Cancelled: every stream still open is closed, its digest zeroed, marked LIBSHA_FILE_CANCELLED. */
static void cancel_streams(const struct libsha_impl *impl, struct streams *st, unsigned char *out, int *os_errors)
{
    int ignored = LIBSHA_OK;
    while (st->count > 0) {
        st->s[0].result = CANCELLED;
        end_stream(impl, st, 0, out, os_errors, &ignored);
    }
}

int libsha_sha256_file(const char *path, unsigned char out[32], int *os_error)
{
    const struct libsha_impl *impl = libsha_active();
    unsigned char *buf;
    int result;

    libsha_enter();
    if (path == NULL || out == NULL)
        return LIBSHA_ERR_NULL;
    if (os_error != NULL)
        *os_error = 0;
    buf = (unsigned char *)malloc(READ_SIZE);
    result = buf != NULL ? hash_path(impl, path, buf, out, NULL, NULL, 0, NULL) : ENOMEM;
    free(buf);
    if (result == DONE)
        return LIBSHA_OK;
    memset(out, 0, 32);
    if (os_error != NULL)
        *os_error = result;
    return LIBSHA_ERR_IO;
}

/* Everything checked before a byte is written: NULLs, sizes, overlaps. */
static int check_files(const unsigned char *out, const int *os_errors, const char *const *paths, size_t n,
                       const libsha_files_control *control)
{
    size_t i;
    if (out == NULL || os_errors == NULL || paths == NULL)
        return LIBSHA_ERR_NULL;
    if (n > SIZE_MAX / 32 || n > SIZE_MAX / sizeof *paths)
        return LIBSHA_ERR_ARGUMENT;
    if (libsha_overlaps(out, 32 * n, os_errors, sizeof *os_errors * n) || libsha_overlaps(out, 32 * n, paths, sizeof *paths * n)
        || libsha_overlaps(os_errors, sizeof *os_errors * n, paths, sizeof *paths * n))
        return LIBSHA_ERR_ARGUMENT;
    if (control != NULL
        && (libsha_overlaps(out, 32 * n, control, sizeof *control)
            || libsha_overlaps(os_errors, sizeof *os_errors * n, control, sizeof *control)))
        return LIBSHA_ERR_ARGUMENT;
    for (i = 0; i < n; ++i) {
        size_t len;
        if (paths[i] == NULL)
            return LIBSHA_ERR_NULL;
        len = strlen(paths[i]) + 1;
        if (libsha_overlaps(out, 32 * n, paths[i], len) || libsha_overlaps(os_errors, sizeof *os_errors * n, paths[i], len))
            return LIBSHA_ERR_ARGUMENT;
    }
    return LIBSHA_OK;
}

int libsha_sha256_files(unsigned char *out, int *os_errors, const char *const *paths, size_t n,
                        libsha_files_control *control)
{
    const struct libsha_impl *impl = libsha_active();
    struct gathered gathered;
    struct streams streams;
    unsigned char *buf;
    int err = LIBSHA_OK, cancelled = 0;
    size_t i;

    libsha_enter();
    if (n == 0)
        return LIBSHA_OK;
    err = check_files(out, os_errors, paths, n, control);
    if (err != LIBSHA_OK)
        return err;
    buf = (unsigned char *)malloc(READ_SIZE);
    gathered.bytes = (unsigned char *)malloc(GROUP * SMALL_FILE + 1);
    gathered.offsets[0] = 0, gathered.count = 0;
    streams.count = 0, streams.cancelled = 0;
    streams.lanes = n > 1 ? libsha_widest_many(impl) : 1; /* one file: nothing to hash beside it */
    streams.read_size = ROUND_BYTES / streams.lanes > MIN_LANE_READ ? ROUND_BYTES / streams.lanes : MIN_LANE_READ;
    streams.buffers = NULL; /* allocated with the first large file (hash_path) */
    for (i = 0; i < n && !cancelled; ++i) {
        int result = ENOMEM;
        if (buf != NULL)
            result = hash_path(impl, paths[i], buf, out + 32 * i, control, gathered.bytes != NULL ? &gathered : NULL, i,
                               &streams);
        if (result == CANCELLED) {
            cancelled = 1;
            break;
        }
        if (result != STREAMING)
            os_errors[i] = result == GATHERED ? DONE : result;
        if (result == DEFERRED)
            memset(out + 32 * i, 0, 32);
        else if (result != DONE && result != GATHERED && result != STREAMING) {
            memset(out + 32 * i, 0, 32);
            err = LIBSHA_ERR_IO;
        }
        if (gathered.count == GROUP)
            hash_gathered(impl, &gathered, out, control);
        while (streams.count == streams.lanes && streams.lanes > 1 && !streams.cancelled)
            run_round(impl, &streams, out, os_errors, control, &err); /* until a lane is free */
        if (streams.cancelled)
            cancelled = 1;
    }
    while (!cancelled && streams.count > 0) {
        run_round(impl, &streams, out, os_errors, control, &err);
        cancelled = streams.cancelled;
    }
    hash_gathered(impl, &gathered, out, control); /* read whole: theirs are finished, even when cancelled */
    if (cancelled) {
        cancel_streams(impl, &streams, out, os_errors);
        for (; i < n; ++i) { /* from the first path not yet taken (every earlier one is done or was open) */
            memset(out + 32 * i, 0, 32);
            os_errors[i] = LIBSHA_FILE_CANCELLED;
        }
        err = LIBSHA_ERR_CANCELLED;
    }
    free(streams.buffers);
    free(gathered.bytes);
    free(buf);
    return err;
}
