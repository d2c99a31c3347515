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
#include "helper_thread.h"
#include "dispatch/dispatch.h"
#include "fips180.h"
#include "many/many.h"
#include "one_message/one_message.h"
#include "sha256_impl.h"

/* Measured on a page-cached 1 GiB file: reads of 64 KiB to 4 MiB all ran
 * within 2 % of each other; this size stays in L2 while it is hashed. Below
 * glibc's mmap threshold (128 KiB), too: a 128 KiB buffer, mmapped fresh by
 * the first call in a Python process, made that call's reads take 3 times the
 * system time (0.38 s more for 1 GiB, AMD Zen 4); 64 KiB ran as fast as ever. */
#define READ_SIZE (64u * 1024u)

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

static void close_file(int fd)
{
#ifdef _WIN32
    _close(fd);
#else
    close(fd); /* opened for reading only: nothing of ours is lost if this fails */
#endif
}

/* What a read, or a file's whole hashing, came to: DONE when it went through. */
enum { DONE = 0, CANCELLED = LIBSHA_FILE_CANCELLED, GATHERED = -3, STREAMING = -4 };

/* A batch's small files wait here, whole, and are hashed together, one per
 * lane of the widest kernel: on SHA-NI two at a time run 1.5 times as fast as
 * one, on AVX2 eight at a time several times. */
#define SMALL_FILE (16u * 1024u)
#define GATHER_FILES 16u
struct gathered {
    unsigned char *bytes; /* GATHER_FILES * SMALL_FILE + 1: room for one byte past a small file */
    int64_t offsets[GATHER_FILES + 1];
    size_t slots[GATHER_FILES];
    size_t count;
};

/* A batch's large files (more than SMALL_FILE), up to one per lane of the widest kernel, stay
 * open side by side: each round reads a chunk of every one, each into its own buffer, and hashes
 * the chunks together (libsha_sha256_update_many's engine); a file that ends or fails leaves its
 * lane to the next large one. Chunks of 256 KiB over the lanes (at least 32 KiB): all of a round's
 * buffers stay in L2 from the read to the hash. (Measured on 1 GiB in the page cache: reads into a
 * 128 KiB buffer took a quarter of the system time of reads into 1 to 4 MiB ones.)
 *
 * With control->read_ahead, a helper thread reads each file's next chunk into a second buffer
 * while this thread hashes the chunks read before (a lane of its own then even for one file). */
#define ROUND_BYTES (256u * 1024u)
#define MIN_LANE_READ (32u * 1024u)
/* With a helper the chunks are read on another core and reach this one's caches from L3 either
 * way; rounds of 1 MiB cost fewer hand-overs. (Measured, 16 fresh files of 64 MiB, one worker:
 * rounds of 256 KiB took 1.05 times as long as Python's old two-thread reader with 1 MiB reads;
 * of 1 and 4 MiB, 1.00. On a tree of 2 GB, 1 MiB was 1 % faster than 256 KiB, 4 MiB 2 % slower.) */
#define AHEAD_ROUND_BYTES (1024u * 1024u)
#define AHEAD_MAX_LANE_READ (1024u * 1024u)
struct open_stream {
    libsha_sha256_ctx ctx;
    int fd;
    size_t slot;         /* its index in the batch */
    unsigned char *buf[2]; /* the lane's buffers (one twice without a helper): they stay with the lane */
    size_t have;         /* bytes in buf[side] to hash this round: a new stream's head, or with a helper
                            the chunk it read last round */
    size_t got;          /* the last read's count */
    int result;          /* the last read's result */
    int too_long;        /* over SHA-256's 2^61 - 1 bytes */
};
struct streams {
    size_t lanes; /* how many may be open */
    int on;       /* large files go through here (several lanes, or a helper) */
    size_t count; /* open now, s[0 .. count) */
    size_t read_size;
    unsigned char *buffers; /* lanes * read_size, twice with a helper */
    int cancelled;
    int read_ahead;                  /* asked for: a helper reads the next chunks */
    struct libsha_helper *helper;    /* started with the first large file */
    int side;                        /* with a helper: the buffers hashed this round */
    libsha_files_control *control;
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

static void read_ahead(void *p);

/* The streams' buffers and helper, on the first large file. Without buffers, each file is hashed
 * to its end at once; without a helper, each round's reads and hash take turns. */
static void start_streams(struct streams *st)
{
    size_t i, sides;
    st->helper = st->read_ahead ? libsha_helper_start(read_ahead, st) : NULL;
    sides = st->helper != NULL ? 2 : 1;
    st->buffers = (unsigned char *)malloc(sides * st->lanes * st->read_size);
    if (st->buffers == NULL) {
        libsha_helper_stop(st->helper);
        st->helper = NULL;
        st->on = 0;
        return;
    }
    for (i = 0; i < st->lanes; ++i) {
        st->s[i].buf[0] = st->buffers + i * st->read_size;
        st->s[i].buf[1] = st->buffers + ((sides - 1) * st->lanes + i) * st->read_size;
    }
}

/* Hashes path into out, or, with g, gathers it there when it is small, or,
 * with st, opens it in a lane when it is large. Returns DONE, GATHERED,
 * STREAMING, CANCELLED or an errno value. */
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
    }
    libsha_stream_init(&ctx);
    if (result == DONE && st != NULL && st->on && st->buffers == NULL)
        start_streams(st);
    if (result == DONE && st != NULL && st->on) { /* on in a lane, beside the others, its head first */
        struct open_stream *s = &st->s[st->count++];
        s->ctx = ctx, s->fd = fd, s->slot = slot, s->too_long = 0;
        if (head_len > 0) /* head_len <= SMALL_FILE + 1 < MIN_LANE_READ */
            memcpy(s->buf[st->side], head, head_len);
        s->have = head_len;
        return STREAMING;
    }
    if (result == DONE && head_len > 0) {
        libsha_enter();
        libsha_stream_update(impl, &ctx, head, head_len);
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
    unsigned char digests[GATHER_FILES * 32];
    const libsha_batch batch = {.layout = LIBSHA_OFFSETS64, .n = g->count, .data = g->bytes, .offsets64 = g->offsets};
    size_t k;
    if (g->count == 0)
        return;
    libsha_enter();
    (void)libsha_batch_on(impl, digests, &batch, NULL, NULL, 0); /* valid by construction */
    for (k = 0; k < g->count; ++k)
        memcpy(out + 32 * g->slots[k], digests + 32 * k, 32);
    if (control != NULL)
        add_gathered(control, (uint32_t)g->count);
    g->count = 0;
}

/* Lane k's stream has ended (s->result DONE with nothing read: its digest) or failed (an errno
 * value, or CANCELLED): its result goes out, its file is closed, the last lane's stream takes k
 * (with its buffers, which hold its next chunk; lane k's go to the lane left free). */
static void end_stream(const struct libsha_impl *impl, struct streams *st, size_t k, unsigned char *out,
                       int *os_errors, int *err)
{
    struct open_stream *s = &st->s[k];
    unsigned char *freed[2];
    int result = s->too_long ? EFBIG : s->result;
    freed[0] = s->buf[0], freed[1] = s->buf[1];
    close_file(s->fd);
    if (result == DONE) {
        libsha_stream_final(impl, &s->ctx, out + 32 * s->slot); /* wipes the context */
        os_errors[s->slot] = DONE;
    } else {
        memset(out + 32 * s->slot, 0, 32);
        os_errors[s->slot] = result;
        if (result == CANCELLED)
            st->cancelled = 1;
        else
            *err = LIBSHA_ERR_IO;
    }
    if (k != --st->count) {
        *s = st->s[st->count];
        st->s[st->count].buf[0] = freed[0], st->s[st->count].buf[1] = freed[1];
    }
    libsha_wipe_ctx(&st->s[st->count].ctx);
}

/* The helper's job: every open stream's next chunk, into the buffers not hashed this round. */
static void read_ahead(void *p)
{
    struct streams *st = (struct streams *)p;
    size_t k;
    for (k = 0; k < st->count; ++k) {
        struct open_stream *s = &st->s[k];
        s->result = read_counted(s->fd, s->buf[!st->side], st->read_size, &s->got, st->control);
    }
}

/* Whether n more bytes would take the stream over SHA-256's 2^61 - 1 (then it fails with EFBIG). */
static int over_limit(struct open_stream *s, size_t n)
{
    if ((uint64_t)n > LIBSHA_MAX_MESSAGE_BYTES - s->ctx.length)
        s->too_long = 1;
    return s->too_long;
}

/* One round: a chunk of every open stream read, all hashed together; the ended and failed ones out.
 * A new stream's head (read when it opened) goes first. With a helper, the chunks hashed are those
 * it read last round while it reads the next ones; a stream ends once its next read finds the end. */
static void run_round(const struct libsha_impl *impl, struct streams *st, unsigned char *out, int *os_errors,
                      int *err)
{
    libsha_sha256_ctx *ctxs[LIBSHA_MAX_LANES];
    const void *data[LIBSHA_MAX_LANES];
    size_t lens[LIBSHA_MAX_LANES], m = 0, k;
    int side = st->side;
    if (st->helper != NULL)
        libsha_helper_post(st->helper);
    for (k = 0; k < st->count; ++k) {
        struct open_stream *s = &st->s[k];
        size_t n = s->have;
        if (st->helper == NULL) { /* after the bytes it has (a new stream's head) */
            s->result = read_counted(s->fd, s->buf[0] + s->have, st->read_size - s->have, &s->got, st->control);
            n += s->result == DONE ? s->got : 0;
        }
        if (n > 0 && !over_limit(s, n))
            ctxs[m] = &s->ctx, data[m] = s->buf[side], lens[m++] = n;
    }
    if (m > 0) /* valid by construction: distinct contexts, chunks in our buffers, lengths checked */
        (void)libsha_streams_update_on(impl, (void *const *)ctxs, sizeof(libsha_sha256_ctx), 0, data, lens, m);
    if (st->helper != NULL) {
        libsha_helper_wait(st->helper);
        st->side = !side;
    }
    for (k = 0; k < st->count;) {
        struct open_stream *s = &st->s[k];
        if (s->result == DONE && s->got > 0 && !s->too_long) {
            s->have = st->helper != NULL ? s->got : 0;
            ++k;
        } else {
            end_stream(impl, st, k, out, os_errors, err); /* lane k now holds another stream, or none */
        }
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

/* One path is a batch of one: the same reads and hash as libsha_sha256_files. */
int libsha_sha256_file(const char *path, unsigned char out[32], int *os_error)
{
    int error = 0, result;

    libsha_enter();
    if (path == NULL || out == NULL)
        return LIBSHA_ERR_NULL;
    result = libsha_sha256_files(out, &error, &path, 1, NULL);
    if (os_error != NULL)
        *os_error = result == LIBSHA_OK ? 0 : error;
    return result;
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
    gathered.bytes = (unsigned char *)malloc(GATHER_FILES * SMALL_FILE + 1);
    gathered.offsets[0] = 0, gathered.count = 0;
    streams.count = 0, streams.cancelled = 0, streams.side = 0, streams.control = control;
    streams.lanes = n > 1 ? libsha_widest_many(impl) : 1; /* one file: nothing to hash beside it */
    streams.read_ahead = control != NULL && control->read_ahead != 0;
    streams.on = streams.lanes > 1 || streams.read_ahead;
    streams.read_size = ROUND_BYTES / streams.lanes > MIN_LANE_READ ? ROUND_BYTES / streams.lanes : MIN_LANE_READ;
    if (streams.read_ahead) {
        size_t each = AHEAD_ROUND_BYTES / streams.lanes;
        streams.read_size = each < MIN_LANE_READ ? MIN_LANE_READ : each > AHEAD_MAX_LANE_READ ? AHEAD_MAX_LANE_READ : each;
    }
    streams.buffers = NULL, streams.helper = NULL; /* with the first large file (start_streams) */
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
        if (result != DONE && result != GATHERED && result != STREAMING) {
            memset(out + 32 * i, 0, 32);
            err = LIBSHA_ERR_IO;
        }
        if (gathered.count == GATHER_FILES)
            hash_gathered(impl, &gathered, out, control);
        while (streams.on && streams.count == streams.lanes && !streams.cancelled)
            run_round(impl, &streams, out, os_errors, &err); /* until a lane is free */
        if (streams.cancelled)
            cancelled = 1;
    }
    while (!cancelled && streams.count > 0) {
        run_round(impl, &streams, out, os_errors, &err);
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
    libsha_helper_stop(streams.helper);
    free(streams.buffers);
    free(gathered.bytes);
    free(buf);
    return err;
}
