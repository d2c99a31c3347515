/* libsha._accel: the binding's per-call paths as C methods, for CPython 3.11+.
 *
 * Two builds of this one file (CMakeLists.txt): by default each CPython gets its own
 * (LIBSHA_ACCEL_FULL_API: the full C API of that version, cp3XY-cp3XY wheels, free-threaded 3.13t
 * and 3.14t among them), which adds what the limited API lacks: vectorcall for the types'
 * constructors, and on free-threaded builds a PyMutex in every object and the module's declaration
 * that it does not need the GIL. With LIBSHA_ABI3=1, the limited API of 3.11 instead: one cp311-abi3
 * wheel for the later CPythons with the GIL that have no wheel of their own.
 *
 * It holds no SHA-256 code: open() loads the library by its path, as ctypes would (libsha/_loader.py
 * finds the path; both then share the one copy in the process), and binds its entry points, so that
 * the dispatcher, select(), LIBSHA_IMPL and the self-test govern this path as they govern ctypes',
 * and a command that only hashes (libsha sum) never imports ctypes. libsha/_binding.py, which chose
 * this path, sets it up with one function (setup(ready)): until hashing is allowed (a valid or unset
 * LIBSHA_IMPL, or a row selected by name) every hashing call first calls ready(), which opens the
 * library and allows, or raises ConfigurationError. Errors that need words (a str, a buffer that is
 * not C-contiguous, a code from the library, the objects' refusals) are raised by the binding's own
 * Python functions (libsha._errors, libsha._views), which this module imports itself: each message
 * is written once.
 *
 * The GIL is released for inputs from GIL_RELEASE_BYTES on, as hashlib does; an object that has
 * released it once has a lock, which every method then takes (hashlib's scheme), so threads that
 * share an object see each update whole.
 */
#if !defined(Py_LIMITED_API) && !defined(LIBSHA_ACCEL_FULL_API) /* CMake's USE_SABI defines it */
#define Py_LIMITED_API 0x030b0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_accel_library.h"
#include "atomic.h"
#include "libsha.h"
#include "libsha_dispatch.h"

/* Which build this is, for libsha.dispatch.binding(build=True). */
#if defined(Py_LIMITED_API)
#define ACCEL_BUILD "abi3"
#elif defined(Py_GIL_DISABLED)
#define ACCEL_BUILD "cp" Py_STRINGIFY(PY_MAJOR_VERSION) Py_STRINGIFY(PY_MINOR_VERSION) "t"
#else
#define ACCEL_BUILD "cp" Py_STRINGIFY(PY_MAJOR_VERSION) Py_STRINGIFY(PY_MINOR_VERSION)
#endif

/* The library's entry points (open()), with their types from libsha.h. Set once, before `allowed`
 * is first published (release/acquire), and never changed or cleared after: an object freed after
 * the binding refused hashing again still wipes its context. */
typedef int oneshot_f(const void *data, size_t len, unsigned char *out);
typedef void ctx_f(libsha_sha256_ctx *ctx);
typedef int update_f(libsha_sha256_ctx *ctx, const void *data, size_t len);
typedef int final_f(libsha_sha256_ctx *ctx, unsigned char *out);
typedef int hmac_f(const void *key, size_t keylen, const void *msg, size_t msglen, unsigned char *out);
typedef int hmac_init_f(libsha_hmac_sha256_ctx *ctx, const void *key, size_t keylen);
typedef int hmac_update_f(libsha_hmac_sha256_ctx *ctx, const void *data, size_t len);
typedef int hmac_final_f(libsha_hmac_sha256_ctx *ctx, unsigned char *out);
typedef void hmac_ctx_f(libsha_hmac_sha256_ctx *ctx);
typedef int hex_f(char *out, const void *in, size_t len);
typedef int many_f(libsha_sha256_ctx *const *ctxs, const void *const *data, const size_t *lens, size_t n);
typedef int hmac_many_f(libsha_hmac_sha256_ctx *const *ctxs, const void *const *data, const size_t *lens, size_t n);
typedef int export_f(const libsha_sha256_ctx *ctx, unsigned char *out);
typedef int import_f(libsha_sha256_ctx *ctx, const void *state, size_t size);
typedef int hmac_export_f(const libsha_hmac_sha256_ctx *ctx, unsigned char *out);
typedef int hmac_import_f(libsha_hmac_sha256_ctx *ctx, const void *state, size_t size);
typedef int batch_f(unsigned char *out, const libsha_batch *batch, const libsha_sha256_ctx *prefix,
                    const libsha_hmac_sha256_ctx *hmac, unsigned flags);
typedef int hkdf_f(unsigned char *out, size_t out_len, const void *salt, size_t salt_len, const void *ikm,
                   size_t ikm_len, const void *info, size_t info_len);
typedef int midstate_f(const libsha_sha256_ctx *ctx, unsigned char words[32], uint64_t *length);
typedef int init_midstate_f(libsha_sha256_ctx *ctx, const unsigned char words[32], uint64_t length);
typedef int files_f(unsigned char *out, int *os_errors, const char *const *paths, size_t n,
                    libsha_files_control *control);
typedef int config_check_f(const char *value, char *message, size_t size);
typedef size_t size_f(void);

static struct {
    oneshot_f *sha256;
    ctx_f *init;
    update_f *update;
    final_f *final;
    ctx_f *wipe;
    hmac_f *hmac;
    hmac_init_f *hmac_init;
    hmac_update_f *hmac_update;
    hmac_final_f *hmac_final;
    hmac_ctx_f *hmac_wipe;
    hex_f *hex;
    many_f *update_many;
    hmac_many_f *hmac_update_many;
    export_f *export_state;
    import_f *import_state;
    hmac_export_f *hmac_export_state;
    hmac_import_f *hmac_import_state;
    batch_f *batch;
    hkdf_f *hkdf;
    midstate_f *midstate;
    init_midstate_f *init_midstate;
    files_f *files;
    config_check_f *config_check;
} lib;

/* The entry points' names, in the order of the table above (open() finds each by its name). */
static const char *const entry_names[] = {
    "libsha_sha256", "libsha_sha256_init", "libsha_sha256_update", "libsha_sha256_final", "libsha_sha256_wipe",
    "libsha_hmac_sha256", "libsha_hmac_sha256_init", "libsha_hmac_sha256_update", "libsha_hmac_sha256_final",
    "libsha_hmac_sha256_wipe", "libsha_hex", "libsha_sha256_update_many", "libsha_hmac_sha256_update_many",
    "libsha_sha256_export", "libsha_sha256_import", "libsha_hmac_sha256_export", "libsha_hmac_sha256_import",
    "libsha_sha256_batch", "libsha_hkdf_sha256", "libsha_sha256_midstate", "libsha_sha256_init_midstate",
    "libsha_sha256_files", "libsha_config_check",
};
#define ENTRY_POINTS (sizeof entry_names / sizeof entry_names[0])

/* The declarations in libsha.h and the types above agree (_Generic does not evaluate its operand:
 * no reference to the library, which this module never links). */
#define SAME_TYPE(function, type) _Static_assert(_Generic(&function, type *: 1, default: 0), #function)
SAME_TYPE(libsha_sha256, oneshot_f);
SAME_TYPE(libsha_sha256_init, ctx_f);
SAME_TYPE(libsha_sha256_update, update_f);
SAME_TYPE(libsha_sha256_final, final_f);
SAME_TYPE(libsha_sha256_wipe, ctx_f);
SAME_TYPE(libsha_hmac_sha256, hmac_f);
SAME_TYPE(libsha_hmac_sha256_init, hmac_init_f);
SAME_TYPE(libsha_hmac_sha256_update, hmac_update_f);
SAME_TYPE(libsha_hmac_sha256_final, hmac_final_f);
SAME_TYPE(libsha_hmac_sha256_wipe, hmac_ctx_f);
SAME_TYPE(libsha_hex, hex_f);
SAME_TYPE(libsha_sha256_update_many, many_f);
SAME_TYPE(libsha_hmac_sha256_update_many, hmac_many_f);
SAME_TYPE(libsha_sha256_export, export_f);
SAME_TYPE(libsha_sha256_import, import_f);
SAME_TYPE(libsha_hmac_sha256_export, hmac_export_f);
SAME_TYPE(libsha_hmac_sha256_import, hmac_import_f);
SAME_TYPE(libsha_sha256_batch, batch_f);
SAME_TYPE(libsha_hkdf_sha256, hkdf_f);
SAME_TYPE(libsha_sha256_midstate, midstate_f);
SAME_TYPE(libsha_sha256_init_midstate, init_midstate_f);
SAME_TYPE(libsha_sha256_files, files_f);
SAME_TYPE(libsha_config_check, config_check_f);
SAME_TYPE(libsha_sha256_ctx_size, size_f);
SAME_TYPE(libsha_hmac_sha256_ctx_size, size_f);
_Static_assert(sizeof entry_names / sizeof entry_names[0] == sizeof lib / sizeof(void (*)(void)), "a name for each");

/* Inputs from this size on release the GIL: below it, releasing and retaking it costs more than the
 * hash (hashlib's threshold). The ctypes path's calls always release it. */
#define GIL_RELEASE_BYTES 2048

static libsha_atomic_uint allowed;   /* hashing may run now (allow()); read by every thread */
static PyObject *ask_ready;          /* _binding's: opens the library and allows, or raises ConfigurationError */
/* The binding's words, imported at module init: */
static PyObject *view_error;         /* _views.contiguous_view: raises the binding's buffer errors */
static PyObject *check_code;         /* _errors.check: raises for a library return code */
static PyObject *refusal;            /* _errors.refuse: raises the objects' refusals */
static PyObject *sha256_type, *hmac_type;
static PyObject *empty_bytes;        /* b"", the one-shots' default argument (made at import) */

/* Runs `statement` without the GIL when the call hashes `bytes` bytes or more (as hashlib does: below
 * that, releasing and retaking the GIL costs more than the hash); with it otherwise. */
#define WITHOUT_GIL_FROM(bytes, statement)                                                                    \
    do {                                                                                                      \
        if ((Py_ssize_t)(bytes) >= GIL_RELEASE_BYTES) {                                                       \
            Py_BEGIN_ALLOW_THREADS                                                                            \
            statement;                                                                                        \
            Py_END_ALLOW_THREADS                                                                              \
        } else {                                                                                              \
            statement;                                                                                        \
        }                                                                                                     \
    } while (0)

static int ready(void)
{
    PyObject *result;
    if (libsha_atomic_load_uint(&allowed))
        return 0;
    if (ask_ready == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "libsha._accel is used before libsha set it up");
        return -1;
    }
    result = PyObject_CallNoArgs(ask_ready);
    if (result == NULL)
        return -1;
    Py_DECREF(result);
    if (!libsha_atomic_load_uint(&allowed)) {
        PyErr_SetString(PyExc_RuntimeError, "libsha._accel: the library loaded but was not bound");
        return -1;
    }
    return 0;
}

/* The binding's refusal `what` (a key of _errors.REFUSALS), about `subject` if not NULL; NULL. */
static PyObject *refuse(const char *what, PyObject *subject)
{
    PyObject *result = subject != NULL ? PyObject_CallFunction(refusal, "sO", what, subject)
                                       : PyObject_CallFunction(refusal, "s", what);
    Py_XDECREF(result);
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "libsha: %s", what);
    return NULL;
}

static int raise_code(int code)
{
    PyObject *result = PyObject_CallFunction(check_code, "i", code);
    if (result == NULL)
        return -1;
    Py_DECREF(result);
    PyErr_Format(PyExc_RuntimeError, "libsha returned error %d", code);
    return -1;
}

/* obj's bytes (C-contiguous, any buffer), or -1 with the binding's own exception for it. */
static int get_view(PyObject *obj, Py_buffer *view, const char *what)
{
    PyObject *result;
    if (PyBytes_CheckExact(obj)) { /* the common case, without the buffer protocol's calls: bytes is immutable */
        char *buf;
        if (PyBytes_AsStringAndSize(obj, &buf, &view->len) < 0)
            return -1;
        view->buf = buf;
        view->obj = NULL; /* PyBuffer_Release does nothing for it */
        return 0;
    }
    if (!PyUnicode_Check(obj) && PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) == 0)
        return 0;
    PyErr_Clear();
    result = PyObject_CallFunction(view_error, "Os", obj, what); /* raises TypeError or NonContiguousError */
    if (result != NULL) {
        Py_DECREF(result);
        PyErr_Format(PyExc_TypeError, "%s: a buffer libsha cannot read", what);
    }
    return -1;
}

/* ---- one-shots ---- */

static PyObject *digest_of(PyObject *data, int hex)
{
    Py_buffer view;
    unsigned char out[32];
    char text[64];
    int code;
    if (ready() < 0 || get_view(data, &view, "data") < 0)
        return NULL;
    WITHOUT_GIL_FROM(view.len, code = lib.sha256(view.buf, (size_t)view.len, out));
    PyBuffer_Release(&view);
    if (code != LIBSHA_OK)
        return raise_code(code), NULL;
    if (!hex)
        return PyBytes_FromStringAndSize((const char *)out, 32);
    lib.hex(text, out, 32);
    return PyUnicode_FromStringAndSize(text, 64);
}

static PyObject *oneshot(PyObject *const *args, Py_ssize_t nargs, int hex, const char *name)
{
    if (nargs > 1)
        return PyErr_Format(PyExc_TypeError, "%s() takes at most 1 argument (%zd given)", name, nargs);
    return digest_of(nargs ? args[0] : empty_bytes, hex);
}

static PyObject *sha256_digest(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return oneshot(args, nargs, 0, "sha256_digest");
}

static PyObject *sha256_hexdigest(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return oneshot(args, nargs, 1, "sha256_hexdigest");
}

static PyObject *hmac_sha256(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer key, msg;
    unsigned char out[32];
    int code;
    (void)module;
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "hmac_sha256() takes exactly 2 arguments (%zd given)", nargs);
    if (ready() < 0 || get_view(args[0], &key, "key") < 0)
        return NULL;
    if (get_view(args[1], &msg, "msg") < 0) {
        PyBuffer_Release(&key);
        return NULL;
    }
    WITHOUT_GIL_FROM(key.len + msg.len, code = lib.hmac(key.buf, (size_t)key.len, msg.buf, (size_t)msg.len, out));
    PyBuffer_Release(&key);
    PyBuffer_Release(&msg);
    if (code != LIBSHA_OK)
        return raise_code(code), NULL;
    return PyBytes_FromStringAndSize((const char *)out, 32);
}

/* Zeroes a stack buffer that held key-equivalent bytes (volatile: not a dead store to drop). */
static void wipe_bytes(void *p, size_t n)
{
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (n-- > 0)
        *v++ = 0;
}

/* hkdf(key_material, length, salt, info): the whole derivation in one call (salt and info may be
 * None; _hkdf.hkdf checked length, and the library refuses more than its 8160 bytes). The key is
 * made on the stack and wiped there. */
static PyObject *hkdf(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view[3]; /* key material, salt, info */
    static const char *const what[3] = {"key_material", "salt", "info"};
    unsigned char out[255 * 32];
    size_t length;
    Py_ssize_t got = 0, i;
    PyObject *result = NULL;
    int code = LIBSHA_OK;
    (void)module;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "hkdf() takes exactly 4 arguments (%zd given)", nargs);
    length = PyLong_AsSize_t(args[1]);
    if (length == (size_t)-1 && PyErr_Occurred())
        return NULL;
    if (ready() < 0)
        return NULL;
    for (got = 0; got < 3; ++got) {
        PyObject *obj = got == 0 || args[got + 1] != Py_None ? args[got == 0 ? 0 : got + 1] : NULL;
        if (obj == NULL) {
            view[got].buf = NULL, view[got].len = 0, view[got].obj = NULL;
        } else if (get_view(obj, &view[got], what[got]) < 0) {
            code = -1;
            break;
        }
    }
    if (code == LIBSHA_OK) {
        code = lib.hkdf(out, length, view[1].buf, (size_t)view[1].len, view[0].buf, (size_t)view[0].len,
                        view[2].buf, (size_t)view[2].len);
        if (code != LIBSHA_OK)
            raise_code(code);
        else
            result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)length);
    }
    for (i = 0; i < got; ++i)
        if (view[i].obj != NULL)
            PyBuffer_Release(&view[i]);
    if (code == LIBSHA_OK)
        wipe_bytes(out, length); /* (on an error the library wrote nothing) */
    return result;
}

/* ---- the objects' shared parts: a lock per object, hashlib's schemes ----
 * With the GIL: made on first need, when an update first releases the GIL (until then the GIL
 * serialises every method). Free-threaded: a PyMutex in every object, taken by every method. */

#ifdef Py_GIL_DISABLED
typedef PyMutex object_lock; /* zeroed by tp_alloc: unlocked */
#define ENTER(op) PyMutex_Lock(&LOCK(op))
#define LEAVE(op) PyMutex_Unlock(&LOCK(op))
#define FREE_LOCK(op) ((void)0)
static int make_lock(PyObject *op)
{
    (void)op;
    return 0;
}
#else
typedef PyThread_type_lock object_lock; /* NULL until an update releases the GIL */

static void enter(PyThread_type_lock lock)
{
    if (lock != NULL && !PyThread_acquire_lock(lock, 0)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(lock, 1);
        Py_END_ALLOW_THREADS
    }
}

static void leave(PyThread_type_lock lock)
{
    if (lock != NULL)
        PyThread_release_lock(lock);
}

#define ENTER(op) enter(LOCK(op))
#define LEAVE(op) leave(LOCK(op))
#define FREE_LOCK(op) (LOCK(op) != NULL ? PyThread_free_lock(LOCK(op)) : (void)0)
static int make_lock(PyObject *op);
#endif

static allocfunc type_alloc; /* the types' tp_alloc (the generic one), read once at import */

static PyObject *alloc(PyObject *type)
{
    return type_alloc((PyTypeObject *)type, 0);
}

static freefunc type_free; /* and their tp_free, read once at import */

static void release_object(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    type_free(self);
    Py_DECREF(type);
}

/* An HMAC object's pickle would carry key-equivalent bytes wherever pickles go. */
static PyObject *refuse_pickle(PyObject *self, PyObject *unused)
{
    PyObject *name = PyType_GetName(Py_TYPE(self)); /* as the ctypes path's objects say it */
    (void)unused;
    if (name == NULL)
        return NULL;
    refuse("pickle", name);
    Py_DECREF(name);
    return NULL;
}

static PyObject *object_repr(PyObject *self)
{
    PyObject *name = PyObject_GetAttrString(self, "name"), *text;
    if (name == NULL)
        return NULL;
    text = PyUnicode_FromFormat("<libsha.%U object @ %p>", name, (void *)self);
    Py_DECREF(name);
    return text;
}

static PyObject *digest_result(const unsigned char out[32], int hex)
{
    char text[64];
    if (!hex)
        return PyBytes_FromStringAndSize((const char *)out, 32);
    lib.hex(text, out, 32);
    return PyUnicode_FromStringAndSize(text, 64);
}

/* ---- the two objects, libsha.sha256 and libsha.HMAC: a lock, then a context of their kind ---- */

typedef struct {
    PyObject_HEAD
    object_lock lock;
    libsha_sha256_ctx ctx;
} Sha256;

typedef struct {
    PyObject_HEAD
    object_lock lock;
    libsha_hmac_sha256_ctx ctx;
} Hmac;

/* What differs between them: the context's place and size, and the library calls on it (through
 * these wrappers, so one code path calls either with its own type). */
typedef struct {
    size_t offset, size;
    int (*update)(void *ctx, const void *data, size_t len);
    int (*final)(void *ctx, unsigned char *out);
    void (*wipe)(void *ctx);
    const char *what; /* the argument's name in errors */
    int (*export_state)(const void *ctx, unsigned char *out);
    int (*import_state)(void *ctx, const void *state, size_t size);
    size_t state_size;
} Kind;

static int sha256_update_any(void *ctx, const void *data, size_t len) { return lib.update(ctx, data, len); }
static int sha256_final_any(void *ctx, unsigned char *out) { return lib.final(ctx, out); }
static void sha256_wipe_any(void *ctx) { lib.wipe(ctx); }
static int hmac_update_any(void *ctx, const void *data, size_t len) { return lib.hmac_update(ctx, data, len); }
static int hmac_final_any(void *ctx, unsigned char *out) { return lib.hmac_final(ctx, out); }
static void hmac_wipe_any(void *ctx) { lib.hmac_wipe(ctx); }
static int sha256_export_any(const void *ctx, unsigned char *out) { return lib.export_state(ctx, out); }
static int sha256_import_any(void *ctx, const void *state, size_t size) { return lib.import_state(ctx, state, size); }
static int hmac_export_any(const void *ctx, unsigned char *out) { return lib.hmac_export_state(ctx, out); }
static int hmac_import_any(void *ctx, const void *state, size_t size) { return lib.hmac_import_state(ctx, state, size); }

static const Kind SHA256_KIND = {offsetof(Sha256, ctx), sizeof(libsha_sha256_ctx), sha256_update_any, sha256_final_any,
                            sha256_wipe_any, "data", sha256_export_any, sha256_import_any, LIBSHA_STATE_SIZE};
static const Kind HMAC_KIND = {offsetof(Hmac, ctx), sizeof(libsha_hmac_sha256_ctx), hmac_update_any, hmac_final_any,
                          hmac_wipe_any, "msg", hmac_export_any, hmac_import_any, LIBSHA_HMAC_STATE_SIZE};

typedef struct {
    PyObject_HEAD
    object_lock lock;
} Locked;

#define LOCK(op) (((Locked *)(op))->lock)
#define CONTEXT(op, kind) ((void *)((char *)(op) + (kind)->offset))

#ifndef Py_GIL_DISABLED
/* The object's lock, made if it has none yet (under the GIL); -1 with MemoryError. */
static int make_lock(PyObject *op)
{
    if (LOCK(op) == NULL && (LOCK(op) = PyThread_allocate_lock()) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}
#endif

static int feed(PyObject *op, const Kind *kind, PyObject *data)
{
    Py_buffer view;
    int code;
    if (get_view(data, &view, kind->what) < 0)
        return -1;
    /* The GIL goes while this object is updated: from then on every method takes its lock. */
    if (view.len >= GIL_RELEASE_BYTES && make_lock(op) < 0) {
        PyBuffer_Release(&view);
        return -1;
    }
    ENTER(op);
    WITHOUT_GIL_FROM(view.len, code = kind->update(CONTEXT(op, kind), view.buf, (size_t)view.len));
    LEAVE(op);
    PyBuffer_Release(&view);
    return code == LIBSHA_OK ? 0 : raise_code(code);
}

static PyObject *finish(PyObject *op, const Kind *kind, int hex)
{
    union {
        libsha_sha256_ctx sha256;
        libsha_hmac_sha256_ctx hmac;
    } copy;
    unsigned char out[32];
    int code;
    if (ready() < 0)
        return NULL;
    ENTER(op);
    memcpy(&copy, CONTEXT(op, kind), kind->size);
    LEAVE(op);
    code = kind->final(&copy, out); /* final() wipes the copy; this object goes on */
    if (code != LIBSHA_OK)
        return raise_code(code), NULL;
    return digest_result(out, hex);
}

static PyObject *copy_of(PyObject *op, const Kind *kind)
{
    PyObject *other;
    if (ready() < 0 || (other = alloc((PyObject *)Py_TYPE(op))) == NULL)
        return NULL;
    ENTER(op);
    memcpy(CONTEXT(other, kind), CONTEXT(op, kind), kind->size);
    LEAVE(op);
    return other;
}

/* The object's saved state (libsha.h's layout), as bytes; the stack copy is wiped. */
static PyObject *state_of(PyObject *op, const Kind *kind)
{
    unsigned char out[LIBSHA_HMAC_STATE_SIZE];
    PyObject *result;
    int code;
    if (ready() < 0)
        return NULL;
    ENTER(op);
    code = kind->export_state(CONTEXT(op, kind), out);
    LEAVE(op);
    if (code != LIBSHA_OK)
        return raise_code(code), NULL;
    result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)kind->state_size);
    wipe_bytes(out, sizeof out);
    return result;
}

/* A new object of type resumed from a saved state (any bytes-like object). */
static PyObject *from_state(PyObject *type, PyObject *state, const Kind *kind)
{
    Py_buffer view;
    PyObject *self;
    int code;
    if (ready() < 0 || get_view(state, &view, "state") < 0)
        return NULL;
    if ((self = alloc(type)) == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    code = kind->import_state(CONTEXT(self, kind), view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (code != LIBSHA_OK) {
        Py_DECREF(self);
        return raise_code(code), NULL;
    }
    return self;
}

/* _context_into(address): the object's context copied to the binding's own buffer there (a ctypes
 * array of the context's size), under the object's lock: a batch starts from it without its state
 * passing through a bytes object that nothing wipes. */
static PyObject *context_into(PyObject *op, PyObject *address, const Kind *kind)
{
    void *to = PyLong_AsVoidPtr(address);
    if (to == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "_context_into: a NULL address");
        return NULL;
    }
    ENTER(op);
    memcpy(to, CONTEXT(op, kind), kind->size);
    LEAVE(op);
    Py_RETURN_NONE;
}

static void release(PyObject *op, const Kind *kind)
{
    if (lib.wipe != NULL)
        kind->wipe(CONTEXT(op, kind)); /* a state reveals the message's prefix; an HMAC's is as good as the key */
    FREE_LOCK(op);
    release_object(op);
}

static PyObject *update_method(PyObject *op, PyObject *data, const Kind *kind)
{
    if (ready() < 0 || feed(op, kind, data) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* The methods, one set per kind. */
#define METHODS(name, KIND)                                                                                  \
    static PyObject *name##_update(PyObject *op, PyObject *data) { return update_method(op, data, &KIND); }   \
    static PyObject *name##_digest(PyObject *op, PyObject *unused) { (void)unused; return finish(op, &KIND, 0); } \
    static PyObject *name##_hexdigest(PyObject *op, PyObject *unused) { (void)unused; return finish(op, &KIND, 1); } \
    static PyObject *name##_copy(PyObject *op, PyObject *unused) { (void)unused; return copy_of(op, &KIND); }  \
    static PyObject *name##_deepcopy(PyObject *op, PyObject *memo) { (void)memo; return copy_of(op, &KIND); } \
    static PyObject *name##_state(PyObject *op, PyObject *unused) { (void)unused; return state_of(op, &KIND); } \
    static PyObject *name##_from_state(PyObject *type, PyObject *state) { return from_state(type, state, &KIND); } \
    static PyObject *name##_context_into(PyObject *op, PyObject *address) { return context_into(op, address, &KIND); } \
    static void name##_dealloc(PyObject *op) { release(op, &KIND); }                                          \
    static PyMethodDef name##_methods[] = {                                                                   \
        {"update", name##_update, METH_O, "Feeds more of the message (any C-contiguous buffer)."},           \
        {"digest", name##_digest, METH_NOARGS, "The result for the message so far, as 32 bytes."},          \
        {"hexdigest", name##_hexdigest, METH_NOARGS, "The result as 64 lowercase hex digits."},              \
        {"copy", name##_copy, METH_NOARGS, "An independent copy of this object."},                           \
        {"__copy__", name##_copy, METH_NOARGS, NULL},                                                         \
        {"__deepcopy__", name##_deepcopy, METH_O, NULL},                                                      \
        {"state", name##_state, METH_NOARGS, STATE_DOC},                                                     \
        {"from_state", name##_from_state, METH_O | METH_CLASS, FROM_STATE_DOC},                             \
        {"_context_into", name##_context_into, METH_O, NULL},                                                 \
        {"__reduce__", REDUCE, METH_NOARGS, NULL},                                                            \
        EXTRA_METHODS                                                                                         \
        {NULL, NULL, 0, NULL},                                                                                \
    };

/* A SHA-256 object pickles as its saved state (sha256.from_state(state)); an HMAC object's
 * state is as good as its key, so it leaves only when state() is asked for by name. */
static PyObject *sha256_reduce(PyObject *self, PyObject *unused)
{
    PyObject *state = state_of(self, &SHA256_KIND), *restore, *result;
    (void)unused;
    if (state == NULL)
        return NULL;
    restore = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "from_state");
    result = restore == NULL ? NULL : Py_BuildValue("(O(O))", restore, state);
    Py_XDECREF(restore);
    Py_DECREF(state);
    return result;
}

/* midstate(): (the eight chaining words as 32 big-endian bytes, the length in bytes) of a message so
 * far that ends at a 64-byte block boundary: Bitcoin's and mining's midstate. */
static PyObject *sha256_midstate(PyObject *op, PyObject *unused)
{
    unsigned char words[32];
    uint64_t length;
    int code;
    (void)unused;
    if (ready() < 0)
        return NULL;
    ENTER(op);
    code = lib.midstate(&((Sha256 *)op)->ctx, words, &length);
    LEAVE(op);
    if (code == LIBSHA_ERR_ARGUMENT) /* bytes wait after the last whole block */
        return refuse("no midstate", NULL);
    if (code != LIBSHA_OK)
        return raise_code(code), NULL;
    return Py_BuildValue("(y#K)", (const char *)words, (Py_ssize_t)32, (unsigned long long)length);
}

static PyObject *make_sha256(PyTypeObject *type, PyObject *data);

/* sha256.from_midstate(words, length): a new object resumed from a midstate (32 bytes of chaining
 * words after `length` bytes, a multiple of 64). */
static PyObject *sha256_from_midstate(PyObject *type, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    unsigned long long length;
    PyObject *self;
    int code;
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "from_midstate() takes exactly 2 arguments (%zd given)", nargs);
    if (!PyLong_Check(args[1]) || PyBool_Check(args[1]))
        return refuse("midstate length type", args[1]);
    if (PyUnicode_Check(args[0]))
        return refuse("midstate words type", args[0]);
    length = PyLong_AsUnsignedLongLong(args[1]);
    if (length == (unsigned long long)-1 && PyErr_Occurred()) { /* negative, or past 64 bits */
        PyErr_Clear();
        return refuse("midstate length", args[1]);
    }
    if (ready() < 0 || get_view(args[0], &view, "words") < 0)
        return NULL;
    if (view.len != 32) {
        PyObject *size = PyLong_FromSsize_t(view.len);
        PyBuffer_Release(&view);
        if (size != NULL) {
            refuse("midstate words size", size);
            Py_DECREF(size);
        }
        return NULL;
    }
    if ((self = make_sha256((PyTypeObject *)type, NULL)) == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    code = lib.init_midstate(&((Sha256 *)self)->ctx, view.buf, (uint64_t)length);
    PyBuffer_Release(&view);
    if (code != LIBSHA_OK) {
        Py_DECREF(self);
        return code == LIBSHA_ERR_ARGUMENT ? refuse("midstate length", args[1]) : (raise_code(code), NULL);
    }
    return self;
}

#define STATE_DOC "The saved state of the message so far, as bytes (libsha.h's layout): from_state() resumes it, \
on any machine. As secret as the message so far."
#define FROM_STATE_DOC "A new object resumed from a saved state (state() gives one); ValueError if it is not one."
#define REDUCE sha256_reduce
#define EXTRA_METHODS                                                                                         \
    {"midstate", sha256_midstate, METH_NOARGS, MIDSTATE_DOC},                                                 \
    {"from_midstate", (PyCFunction)(void (*)(void))sha256_from_midstate, METH_FASTCALL | METH_CLASS, FROM_MIDSTATE_DOC},
#define MIDSTATE_DOC "(the eight chaining words as 32 big-endian bytes, the length in bytes) of a message so far \
that ends at a 64-byte block boundary (ValueError otherwise): Bitcoin's and mining's midstate."
#define FROM_MIDSTATE_DOC "A new object resumed from a midstate: the 32 bytes of chaining words after `length` bytes \
(a multiple of 64), as midstate() gives them."
METHODS(sha256_object, SHA256_KIND)
#undef STATE_DOC
#undef FROM_STATE_DOC
#undef REDUCE
#undef EXTRA_METHODS
#define EXTRA_METHODS
#define STATE_DOC "The saved state (libsha.h's layout): the key's two chaining states and the message so far. \
As good as the key: keep it as secret. HMAC.from_state() resumes it; pickle refuses the object."
#define FROM_STATE_DOC "A new HMAC object resumed from an HMAC object's saved state; ValueError if it is not one."
#define REDUCE refuse_pickle
METHODS(hmac_object, HMAC_KIND)

/* A new sha256 object fed data (NULL: nothing). */
static PyObject *make_sha256(PyTypeObject *type, PyObject *data)
{
    PyObject *self;
    if (ready() < 0 || (self = alloc((PyObject *)type)) == NULL)
        return NULL;
    lib.init(&((Sha256 *)self)->ctx);
    if (data != NULL && feed(self, &SHA256_KIND, data) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static PyObject *sha256_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"data", "string", "usedforsecurity", NULL};
    PyObject *data = NULL, *string = NULL, *usedforsecurity = NULL;
    Py_ssize_t nargs = PyTuple_Size(args);
    if (kwds == NULL && nargs <= 1) /* sha256() and sha256(data), the common calls: no parsing */
        return make_sha256(type, nargs ? PyTuple_GetItem(args, 0) : NULL);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$OO:sha256", keywords, &data, &string, &usedforsecurity))
        return NULL;
    if (data != NULL && string != NULL)
        return refuse("data and string", NULL);
    return make_sha256(type, data != NULL ? data : string);
}

/* A new HMAC object under key, fed msg (None: nothing). */
static PyObject *make_hmac(PyTypeObject *type, PyObject *key, PyObject *msg)
{
    PyObject *self;
    Py_buffer view;
    int code;
    if (ready() < 0 || get_view(key, &view, "key") < 0)
        return NULL;
    if ((self = alloc((PyObject *)type)) == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    code = lib.hmac_init(&((Hmac *)self)->ctx, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (code != LIBSHA_OK) {
        raise_code(code);
        Py_DECREF(self);
        return NULL;
    }
    if (msg != Py_None && feed(self, &HMAC_KIND, msg) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static PyObject *hmac_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"key", "msg", NULL};
    PyObject *key, *msg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:HMAC", keywords, &key, &msg))
        return NULL;
    return make_hmac(type, key, msg);
}

#ifndef Py_LIMITED_API
/* The constructors by vectorcall (the full API's type slot): sha256(), sha256(data), HMAC(key) and
 * HMAC(key, msg) with no tuple made; any other form goes through tp_new as the abi3 build's do. */
static PyObject *by_tp_new(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames, newfunc new)
{
    PyObject *tuple, *kwargs = NULL, *result;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), i;
    if ((tuple = PyTuple_New(nargs)) == NULL)
        return NULL;
    for (i = 0; i < nargs; ++i)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    if (kwnames != NULL) {
        if ((kwargs = PyDict_New()) == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        for (i = 0; i < PyTuple_GET_SIZE(kwnames); ++i)
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                Py_DECREF(tuple);
                Py_DECREF(kwargs);
                return NULL;
            }
    }
    result = new((PyTypeObject *)type, tuple, kwargs);
    Py_DECREF(tuple);
    Py_XDECREF(kwargs);
    return result;
}

static PyObject *sha256_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && nargs <= 1)
        return make_sha256((PyTypeObject *)type, nargs ? args[0] : NULL);
    return by_tp_new(type, args, nargsf, kwnames, sha256_new);
}

static PyObject *hmac_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && (nargs == 1 || nargs == 2))
        return make_hmac((PyTypeObject *)type, args[0], nargs == 2 ? args[1] : Py_None);
    return by_tp_new(type, args, nargsf, kwnames, hmac_new);
}
#endif

static PyType_Slot sha256_slots[] = {
    {Py_tp_doc, "SHA-256 with hashlib's interface: sha256(data).digest(), update, hexdigest, copy.\n\n"
                "A drop-in for hashlib.sha256, e.g. in hmac.new(key, msg, libsha.sha256) and\n"
                "hashlib.file_digest(f, libsha.sha256). Safe to share between threads."},
    {Py_tp_new, sha256_new},
    {Py_tp_dealloc, sha256_object_dealloc},
    {Py_tp_methods, sha256_object_methods},
    {Py_tp_repr, object_repr},
    {0, NULL},
};

static PyType_Spec sha256_spec = {"libsha.sha256", sizeof(Sha256), 0, Py_TPFLAGS_DEFAULT, sha256_slots};

static PyType_Slot hmac_slots[] = {
    {Py_tp_doc, "HMAC-SHA256 with hmac.HMAC's interface: update, digest, hexdigest, copy.\n\n"
                "The key's two chaining states live in a C context that is wiped when the object\n"
                "is freed; the key itself is not kept. Safe to share between threads."},
    {Py_tp_new, hmac_new},
    {Py_tp_dealloc, hmac_object_dealloc},
    {Py_tp_methods, hmac_object_methods},
    {Py_tp_repr, object_repr},
    {0, NULL},
};

static PyType_Spec hmac_spec = {"libsha.HMAC", sizeof(Hmac), 0, Py_TPFLAGS_DEFAULT, hmac_slots};

/* ---- update_many: the streams' blocks together through the library's lanes ---- */

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (PyObject *const *)a, y = (uintptr_t) * (PyObject *const *)b;
    return x < y ? -1 : x > y;
}

/* update_many(hashers, chunks, hmac): lists of one length, checked by _many/streams.py's update_many,
 * the one place its arguments are checked and its errors worded (one kind, each hasher once, each
 * chunk a C-contiguous buffer). What would reach memory or a lock if that were bypassed is refused
 * here as a bad internal call. The objects' locks are taken in address order, the one order every
 * call takes them in, so calls sharing objects cannot deadlock. */
static PyObject *update_many(PyObject *module, PyObject *args)
{
    PyObject *hashers, *chunks, *result = NULL, **order = NULL;
    int hmac, code = LIBSHA_OK;
    Py_ssize_t n, i, taken = 0, got = 0, total = 0;
    Py_buffer *views = NULL;
    void **ctxs = NULL;
    const void **data = NULL;
    size_t *lens = NULL;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!p:update_many", &PyList_Type, &hashers, &PyList_Type, &chunks, &hmac))
        return NULL;
    if ((n = PyList_Size(hashers)) != PyList_Size(chunks)) {
        PyErr_BadInternalCall();
        return NULL;
    }
    if (ready() < 0)
        return NULL;
    if (n == 0)
        Py_RETURN_NONE;
    views = PyMem_Calloc((size_t)n, sizeof *views);
    ctxs = PyMem_Calloc((size_t)n, sizeof *ctxs);
    data = PyMem_Calloc((size_t)n, sizeof *data);
    lens = PyMem_Calloc((size_t)n, sizeof *lens);
    order = PyMem_Calloc((size_t)n, sizeof *order);
    if (views == NULL || ctxs == NULL || data == NULL || lens == NULL || order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < n; ++i) {
        PyObject *h = PyList_GetItem(hashers, i);
        if ((PyObject *)Py_TYPE(h) != (hmac ? hmac_type : sha256_type)) {
            PyErr_BadInternalCall();
            goto done;
        }
        ctxs[i] = CONTEXT(h, hmac ? &HMAC_KIND : &SHA256_KIND);
        order[i] = h;
    }
    for (; got < n; ++got) {
        if (get_view(PyList_GetItem(chunks, got), &views[got], "chunk") < 0)
            goto done;
        data[got] = views[got].buf, lens[got] = (size_t)views[got].len, total += views[got].len;
    }
    qsort(order, (size_t)n, sizeof *order, by_address);
    for (i = 1; i < n; ++i)
        if (order[i] == order[i - 1]) { /* its lock would be taken twice */
            PyErr_BadInternalCall();
            goto done;
        }
    for (i = 0; i < n; ++i) /* every lock exists before any is taken: the GIL goes below */
        if (make_lock(order[i]) < 0)
            goto done;
    for (; taken < n; ++taken)
        ENTER(order[taken]);
    WITHOUT_GIL_FROM(total, code = hmac ? lib.hmac_update_many((libsha_hmac_sha256_ctx *const *)ctxs, data, lens,
                                                               (size_t)n)
                                        : lib.update_many((libsha_sha256_ctx *const *)ctxs, data, lens, (size_t)n));
    if (code == LIBSHA_OK) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else {
        raise_code(code);
    }
done:
    while (taken > 0)
        LEAVE(order[--taken]);
    while (got > 0)
        PyBuffer_Release(&views[--got]);
    PyMem_Free(views), PyMem_Free(ctxs), PyMem_Free(data), PyMem_Free(lens), PyMem_Free(order);
    return result;
}

/* ---- hash_bytes_list: a list of bytes through the library's batch call, without ctypes' per-item work ---- */

/* A slice's scratch, on the heap (thread stacks may be small): its items (a reference held on each
 * while the GIL is released), their bytes and their digests, `slice` of each. */
struct list_scratch {
    PyObject **items;
    const void **msgs;
    size_t *lens;
    unsigned char *out;
};

static int scratch_alloc(struct list_scratch *s, Py_ssize_t slice)
{
    size_t n = (size_t)slice;
    unsigned char *block = PyMem_Malloc(n * (sizeof *s->items + sizeof *s->msgs + sizeof *s->lens + 64));
    if (block == NULL)
        return -1;
    s->items = (PyObject **)block;
    s->msgs = (const void **)(block + n * sizeof *s->items);
    s->lens = (size_t *)(block + n * (sizeof *s->items + sizeof *s->msgs));
    s->out = block + n * (sizeof *s->items + sizeof *s->msgs + sizeof *s->lens);
    return 0;
}

#ifdef Py_LIMITED_API
/* Item i of a list or tuple as a new reference; NULL, no exception set, where a list another thread
 * shortened no longer has it (the limited API has no view of the item array; this build always runs
 * with the GIL). */
static PyObject *item_ref(PyObject *messages, int is_list, Py_ssize_t i)
{
    PyObject *item = is_list ? PyList_GetItem(messages, i) : PyTuple_GetItem(messages, i);
    if (item == NULL)
        PyErr_Clear();
    Py_XINCREF(item); /* another thread may drop it from a list while the GIL is out */
    return item;
}
#endif

/* hash_slice's codes besides the library's: either sends the list to the binding's Python path, which
 * takes any buffer and says when a list changes size under it. */
#define SLICE_NOT_BYTES 1 /* an item is not exact bytes */
#define SLICE_SHRANK 2    /* the list lost items while it was read (another thread) */

/* A list's items are objects spread over the heap: each one's header is a cache miss that its
 * reference count waits for (free-threaded, an atomic operation, so one miss at a time: 12 % of a
 * two-thread sha256_many on 65,536 x 1 KiB went to PyList_GetItemRef). The version-specific builds
 * read the item array in place and fetch the header ITEM_AHEAD items ahead. A hint only. */
#define ITEM_AHEAD 8
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_FOR_WRITE(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH_FOR_WRITE(p) ((void)(p))
#endif

/* A reference taken on each of messages[first:first + count], their bytes and lengths put in the
 * scratch; returns how many were taken (fewer on an error, its code in *code). */
#ifndef Py_LIMITED_API
#ifndef Py_BEGIN_CRITICAL_SECTION /* before 3.13: the GIL, held here, is the list's lock */
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#endif

static Py_ssize_t take_run(PyObject *const *items, Py_ssize_t count, struct list_scratch *scratch, size_t *total,
                           int *code)
{
    Py_ssize_t i;
    for (i = 0; i < count; ++i) {
        PyObject *item = items[i];
        if (i + ITEM_AHEAD < count)
            PREFETCH_FOR_WRITE(items[i + ITEM_AHEAD]);
        if (!PyBytes_CheckExact(item)) {
            *code = SLICE_NOT_BYTES;
            break;
        }
        Py_INCREF(item);
        scratch->items[i] = item;
        scratch->msgs[i] = PyBytes_AS_STRING(item);
        scratch->lens[i] = (size_t)PyBytes_GET_SIZE(item);
        *total += scratch->lens[i];
    }
    return i;
}

static Py_ssize_t take_items(PyObject *messages, Py_ssize_t first, Py_ssize_t count, struct list_scratch *scratch,
                             size_t *total, int *code)
{
    Py_ssize_t taken = 0;
    if (PyTuple_Check(messages)) { /* (immutable: read without a lock) */
        if (first + count > PyTuple_GET_SIZE(messages)) {
            *code = SLICE_SHRANK;
            return 0;
        }
        return take_run(PySequence_Fast_ITEMS(messages) + first, count, scratch, total, code);
    }
    /* The list's lock (free-threaded, its critical section, which every change to a list takes) keeps
     * its item array in place while it is read; held for the gathering only, not the hashing. */
    Py_BEGIN_CRITICAL_SECTION(messages);
    if (first + count > PyList_GET_SIZE(messages))
        *code = SLICE_SHRANK;
    else
        taken = take_run(PySequence_Fast_ITEMS(messages) + first, count, scratch, total, code);
    Py_END_CRITICAL_SECTION();
    return taken;
}
#else
static Py_ssize_t take_items(PyObject *messages, Py_ssize_t first, Py_ssize_t count, struct list_scratch *scratch,
                             size_t *total, int *code)
{
    Py_ssize_t i;
    int is_list = PyList_Check(messages);
    for (i = 0; i < count; ++i) {
        PyObject *item = item_ref(messages, is_list, first + i);
        if (item == NULL || !PyBytes_CheckExact(item)) {
            *code = item == NULL ? SLICE_SHRANK : SLICE_NOT_BYTES;
            Py_XDECREF(item);
            break;
        }
        scratch->items[i] = item;
        scratch->msgs[i] = PyBytes_AsString(item);
        scratch->lens[i] = (size_t)PyBytes_Size(item);
        *total += scratch->lens[i];
    }
    return i;
}
#endif

static int hash_slice(PyObject *messages, Py_ssize_t first, Py_ssize_t count, unsigned flags, int start,
                      const void *ctx, struct list_scratch *scratch, unsigned char *out)
{
    const void *const *msgs = scratch->msgs;
    const size_t *lens = scratch->lens;
    size_t total = 0;
    int code = LIBSHA_OK;
    Py_ssize_t i = take_items(messages, first, count, scratch, &total, &code);
    if (code == LIBSHA_OK) {
        const libsha_batch batch = {.layout = LIBSHA_POINTERS, .n = (size_t)count, .msgs = msgs, .lens = lens};
        const libsha_sha256_ctx *prefix = start == 1 ? ctx : NULL;
        const libsha_hmac_sha256_ctx *hmac = start == 2 ? ctx : NULL;
        WITHOUT_GIL_FROM(total, code = lib.batch(out, &batch, prefix, hmac, flags));
    }
    while (i > 0) {
        if (i > ITEM_AHEAD)
            PREFETCH_FOR_WRITE(scratch->items[i - 1 - ITEM_AHEAD]);
        Py_DECREF(scratch->items[--i]);
    }
    return code;
}

/* hash_bytes_list(messages, flags, start, ctx, slice, into, first, stop): the digests of messages[first:stop]
 * of a list or tuple of bytes (stop -1: to the end), `slice` messages (_many/lists.py's SLICE) a library call:
 * their pointers, lengths and digests stay in cache while the digests become objects. Returns a list
 * of bytes (of str with LIBSHA_HEX); or, when into is not 0, writes them end to end from that address
 * (a caller's out=, checked by the binding) and returns None. Worker threads (_many/lists.py) each
 * take a part of one list, each part's objects made while the others hash. start 0:
 * from nothing, 1: after the SHA-256 context at address ctx, 2: under the HMAC context there (the
 * binding's own, alive for the call). NotImplemented when an item is not exact bytes, or the list lost
 * items while it was hashed (another thread): the binding's Python path takes every other kind, and
 * words the error for a list that changed size (written into out=, the binding's RuntimeError). */
static PyObject *hash_bytes_list(PyObject *module, PyObject *args)
{
    PyObject *messages, *result = NULL;
    unsigned flags;
    int start;
    unsigned long long address, into;
    unsigned char *digests;
    struct list_scratch scratch = {NULL, NULL, NULL, NULL};
    Py_ssize_t n, size, first, stop = -1, from = 0, i, slice, width;
    (void)module;
    if (!PyArg_ParseTuple(args, "OIiKnK|nn:hash_bytes_list", &messages, &flags, &start, &address, &slice, &into, &from,
                          &stop))
        return NULL;
    if (!PyList_Check(messages) && !PyTuple_Check(messages))
        Py_RETURN_NOTIMPLEMENTED;
    if (start < 0 || start > 2 || (start != 0 && address == 0))
        return PyErr_Format(PyExc_ValueError, "hash_bytes_list: start %d with context %llu", start, address);
    if (ready() < 0)
        return NULL;
    size = PyObject_Size(messages);
    if (stop < 0)
        stop = size;
    if (from < 0 || from > stop)
        return PyErr_Format(PyExc_ValueError, "hash_bytes_list: messages [%zd, %zd) of %zd", from, stop, size);
    if (stop > size) /* a part of a list that lost items since the caller split it */
        Py_RETURN_NOTIMPLEMENTED;
    n = stop - from;
    width = flags & LIBSHA_HEX ? 64 : 32;
    if (slice <= 0 || (size_t)slice > SIZE_MAX / 128)
        return PyErr_Format(PyExc_ValueError, "hash_bytes_list: a slice of %zd messages", slice);
    if (scratch_alloc(&scratch, slice) < 0)
        return PyErr_NoMemory();
    if (into != 0) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else if ((result = PyList_New(n)) == NULL) {
        goto done;
    }
    for (first = 0; first < n; first += slice) {
        Py_ssize_t count = n - first < slice ? n - first : slice;
        int code;
        digests = into ? (unsigned char *)(uintptr_t)into + width * first : scratch.out;
        code = PyObject_Size(messages) != size
                   ? SLICE_SHRANK
                   : hash_slice(messages, from + first, count, flags, start, (const void *)(uintptr_t)address,
                                &scratch, digests);
        if (code != LIBSHA_OK) {
            Py_CLEAR(result);
            if (code == SLICE_NOT_BYTES || code == SLICE_SHRANK) {
                Py_INCREF(Py_NotImplemented);
                result = Py_NotImplemented;
            } else {
                raise_code(code);
            }
            goto done;
        }
        for (i = 0; i < count && !into; ++i) {
            const char *at = (const char *)scratch.out + width * i;
            PyObject *digest =
                flags & LIBSHA_HEX ? PyUnicode_FromStringAndSize(at, 64) : PyBytes_FromStringAndSize(at, 32);
            if (digest == NULL) {
                Py_CLEAR(result);
                goto done;
            }
            PyList_SetItem(result, first + i, digest);
        }
    }
done:
    PyMem_Free(scratch.items);
    return result;
}

/* all_bytes(messages): whether every item of a list or tuple is exact bytes, what hash_bytes_list takes: asked
 * before a call that writes into a caller's buffer or splits the list over threads, so that neither
 * starts on a list the Python path must take instead. */
static PyObject *all_bytes(PyObject *module, PyObject *messages)
{
    Py_ssize_t i, n;
    int plain = 1;
    (void)module;
    if (!PyList_Check(messages) && !PyTuple_Check(messages))
        Py_RETURN_FALSE;
#ifndef Py_LIMITED_API
    Py_BEGIN_CRITICAL_SECTION(messages); /* (see take_items) */
    PyObject *const *items = PySequence_Fast_ITEMS(messages);
    n = PySequence_Fast_GET_SIZE(messages);
    for (i = 0; i < n && plain; ++i) {
        if (i + ITEM_AHEAD < n)
            PREFETCH_FOR_WRITE(items[i + ITEM_AHEAD]);
        plain = PyBytes_CheckExact(items[i]);
    }
    Py_END_CRITICAL_SECTION();
#else
    n = PyObject_Size(messages);
    for (i = 0; i < n && plain; ++i) {
        PyObject *item = item_ref(messages, PyList_Check(messages), i);
        plain = item != NULL && PyBytes_CheckExact(item);
        Py_XDECREF(item);
    }
#endif
    return PyBool_FromLong(plain);
}

/* ---- a tree's nodes from a list of bytes, read in one pass ---- */

/* Copies items[0:count], each exact bytes of `size` bytes, end to end to `to` (NULL: only checks
 * them); 0 where an item is anything else (what was copied before it is left as it is). */
#ifndef Py_LIMITED_API
static int copy_nodes(PyObject *const *items, Py_ssize_t count, Py_ssize_t size, char *to)
{
    Py_ssize_t i;
    for (i = 0; i < count; ++i) {
        PyObject *item = items[i];
        if (i + ITEM_AHEAD < count)
            PREFETCH_FOR_WRITE(items[i + ITEM_AHEAD]);
        if (!PyBytes_CheckExact(item) || PyBytes_GET_SIZE(item) != size)
            return 0;
        if (to != NULL)
            memcpy(to + i * size, PyBytes_AS_STRING(item), (size_t)size);
    }
    return 1;
}
#endif

/* nodes[first:first + count] (a list or tuple of exact bytes of `size` bytes each) end to end to `to`
 * (NULL: only checked): 1, or 0 where an item is anything else or the list no longer has them all
 * (another thread). */
static int nodes_to(PyObject *nodes, Py_ssize_t size, Py_ssize_t first, Py_ssize_t count, char *to)
{
    int plain = 0;
#ifndef Py_LIMITED_API
    Py_BEGIN_CRITICAL_SECTION(nodes); /* (see take_items) */
    if (first + count <= PySequence_Fast_GET_SIZE(nodes))
        plain = copy_nodes(PySequence_Fast_ITEMS(nodes) + first, count, size, to);
    Py_END_CRITICAL_SECTION();
#else
    Py_ssize_t i;
    for (i = 0, plain = 1; i < count && plain; ++i) {
        PyObject *item = item_ref(nodes, PyList_Check(nodes), first + i);
        plain = item != NULL && PyBytes_CheckExact(item) && PyBytes_Size(item) == size;
        if (plain && to != NULL)
            memcpy(to + i * size, PyBytes_AsString(item), (size_t)size);
        Py_XDECREF(item);
    }
#endif
    return plain;
}

/* joined_nodes(nodes, size): the items of a list or tuple end to end in one new bytes object, each
 * exact bytes of `size` bytes, in one pass (b"".join makes an 80-byte view of every item first, and
 * the type and length checks before it are passes of their own: at 2^20 nodes spread over the heap,
 * each pass is cache misses). NotImplemented where an item is anything else: the binding's Python
 * path takes every other bytes-like kind and words the errors. */
static PyObject *joined_nodes(PyObject *module, PyObject *args)
{
    PyObject *nodes, *joined;
    Py_ssize_t size, n;
    (void)module;
    if (!PyArg_ParseTuple(args, "On:joined_nodes", &nodes, &size))
        return NULL;
    if (size <= 0 || (!PyList_Check(nodes) && !PyTuple_Check(nodes)))
        Py_RETURN_NOTIMPLEMENTED;
    n = PyObject_Size(nodes);
    if (n > PY_SSIZE_T_MAX / size)
        return PyErr_NoMemory();
    if ((joined = PyBytes_FromStringAndSize(NULL, n * size)) == NULL)
        return NULL;
    if (!nodes_to(nodes, size, 0, n, PyBytes_AsString(joined))) {
        Py_DECREF(joined);
        Py_RETURN_NOTIMPLEMENTED;
    }
    return joined;
}

/* plain_nodes(nodes, size): whether every item of a list or tuple is exact bytes of `size` bytes (what
 * joined_nodes and nodes_into take), read in one pass: asked before a call writes into a caller's
 * out= a slice at a time, so that none starts on a list that node_buffer must take instead. */
static PyObject *plain_nodes(PyObject *module, PyObject *args)
{
    PyObject *nodes;
    Py_ssize_t size;
    (void)module;
    if (!PyArg_ParseTuple(args, "On:plain_nodes", &nodes, &size))
        return NULL;
    if (size <= 0 || (!PyList_Check(nodes) && !PyTuple_Check(nodes)))
        Py_RETURN_FALSE;
    return PyBool_FromLong(nodes_to(nodes, size, 0, PyObject_Size(nodes), NULL));
}

/* nodes_into(nodes, size, first, count, address): nodes[first:first + count] end to end at address (a
 * buffer of count x size bytes the binding owns: a slice of a long list, in a scratch buffer reused
 * for every slice, so that no buffer of the whole list is ever made). True, or NotImplemented as
 * joined_nodes returns it (or where the list is shorter now). */
static PyObject *nodes_into(PyObject *module, PyObject *args)
{
    PyObject *nodes;
    Py_ssize_t size, first, count;
    unsigned long long address;
    (void)module;
    if (!PyArg_ParseTuple(args, "OnnnK:nodes_into", &nodes, &size, &first, &count, &address))
        return NULL;
    if (size <= 0 || first < 0 || count < 0 || count > PY_SSIZE_T_MAX / size || address == 0)
        return PyErr_Format(PyExc_ValueError, "nodes_into: %zd nodes of %zd bytes from %zd", count, size, first);
    if ((!PyList_Check(nodes) && !PyTuple_Check(nodes)) || first > PY_SSIZE_T_MAX - count
        || !nodes_to(nodes, size, first, count, (char *)(uintptr_t)address))
        Py_RETURN_NOTIMPLEMENTED;
    Py_RETURN_TRUE;
}

/* ---- files (libsha sum, sha256_file, sha256_files) ---- */

/* FilesControl(read_ahead=False): a libsha_files_control that the C call and the binding's threads
 * share, zeroed: .bytes read so far and .gathered (the library adds to them), .cancel (set to stop
 * the call at its next read), and .read_ahead as made. */
typedef struct {
    PyObject_HEAD
    libsha_files_control control;
} FilesControl;

static PyObject *files_control_type;

static PyObject *files_control_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"read_ahead", NULL};
    int read_ahead = 0;
    FilesControl *self;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|$p:FilesControl", keywords, &read_ahead))
        return NULL;
    if ((self = (FilesControl *)((allocfunc)PyType_GetSlot(type, Py_tp_alloc))(type, 0)) == NULL)
        return NULL; /* (tp_alloc zeroes the object: the control starts zeroed) */
    self->control.read_ahead = (uint64_t)read_ahead;
    return (PyObject *)self;
}

static void files_control_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    ((freefunc)PyType_GetSlot(type, Py_tp_free))(self);
    Py_DECREF(type);
}

/* Read while the library adds to them from the threads of a call in progress: relaxed atomic reads. */
static PyObject *files_control_bytes(PyObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(libsha_relaxed_load_u64(&((FilesControl *)self)->control.bytes));
}

static PyObject *files_control_gathered(PyObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLong(libsha_relaxed_load_u32(&((FilesControl *)self)->control.gathered));
}

static PyObject *files_control_cancel(PyObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLong(libsha_relaxed_load_u32(&((FilesControl *)self)->control.cancel));
}

static int files_control_set_cancel(PyObject *self, PyObject *value, void *unused)
{
    int yes = value == NULL ? 0 : PyObject_IsTrue(value);
    (void)unused;
    if (yes < 0)
        return -1;
    libsha_relaxed_store_u32(&((FilesControl *)self)->control.cancel, (uint32_t)yes);
    return 0;
}

static PyObject *files_control_read_ahead(PyObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(((FilesControl *)self)->control.read_ahead); /* set once, at creation */
}

static PyGetSetDef files_control_getset[] = {
    {"bytes", files_control_bytes, NULL, "bytes read so far", NULL},
    {"read_ahead", files_control_read_ahead, NULL, "whether a second thread reads large files ahead", NULL},
    {"gathered", files_control_gathered, NULL, "small files read whole and hashed several at once", NULL},
    {"cancel", files_control_cancel, files_control_set_cancel, "set: the call stops at its next read", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot files_control_slots[] = {
    {Py_tp_new, (void *)files_control_new},
    {Py_tp_dealloc, (void *)files_control_dealloc},
    {Py_tp_getset, files_control_getset},
    {0, NULL},
};

static PyType_Spec files_control_spec = {
    "libsha._accel.FilesControl", sizeof(FilesControl), 0, Py_TPFLAGS_DEFAULT, files_control_slots,
};

/* sha256_files(paths, control): one libsha_sha256_files call on a list of paths (bytes, without
 * null bytes: the binding's _path made them), the GIL released: (its code, the digests joined, the
 * os_errors as a list). The binding turns the code into its errors (libsha/_files.py). */
static PyObject *sha256_files(PyObject *module, PyObject *args)
{
    PyObject *paths, *control, *held, *digests = NULL, *os_errors = NULL;
    const char **names = NULL;
    int *errors = NULL, code = 0;
    Py_ssize_t n, i;
    (void)module;
    if (!PyArg_ParseTuple(args, "OO!:sha256_files", &paths, (PyTypeObject *)files_control_type, &control))
        return NULL;
    if (ready() < 0)
        return NULL;
    if ((held = PySequence_Tuple(paths)) == NULL) /* its items stay alive, whatever another thread does */
        return NULL;
    n = PyTuple_Size(held);
    for (i = 0; i < n; ++i)
        if (!PyBytes_Check(PyTuple_GetItem(held, i))) {
            Py_DECREF(held);
            return PyErr_Format(PyExc_TypeError, "sha256_files: path %zd is not bytes", i);
        }
    if (n > PY_SSIZE_T_MAX / LIBSHA_DIGEST_SIZE || (size_t)n > SIZE_MAX / sizeof *names) {
        Py_DECREF(held);
        return PyErr_NoMemory();
    }
    names = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *names);
    errors = PyMem_Calloc((size_t)(n ? n : 1), sizeof *errors);
    digests = PyBytes_FromStringAndSize(NULL, n * LIBSHA_DIGEST_SIZE);
    if (names == NULL || errors == NULL || digests == NULL) {
        if (names == NULL || errors == NULL)
            PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < n; ++i)
        names[i] = PyBytes_AsString(PyTuple_GetItem(held, i));
    Py_BEGIN_ALLOW_THREADS
    code = lib.files((unsigned char *)PyBytes_AsString(digests), errors, names, (size_t)n,
                     &((FilesControl *)control)->control);
    Py_END_ALLOW_THREADS
    if ((os_errors = PyList_New(n)) == NULL)
        goto done;
    for (i = 0; i < n; ++i) {
        PyObject *error = PyLong_FromLong(errors[i]);
        if (error == NULL || PyList_SetItem(os_errors, i, error) < 0) {
            Py_CLEAR(os_errors);
            goto done;
        }
    }
done:
    PyMem_Free(names);
    PyMem_Free(errors);
    Py_DECREF(held);
    if (os_errors == NULL) {
        Py_XDECREF(digests);
        return NULL;
    }
    return Py_BuildValue("(iNN)", code, digests, os_errors);
}

/* ---- set-up from libsha/_binding.py ---- */

static void replace(PyObject **slot, PyObject *value)
{
    PyObject *old = *slot;
    Py_INCREF(value);
    *slot = value;
    Py_XDECREF(old);
}

/* setup(ready): the function hashing calls until it is allowed (libsha/_binding.py's). */
static PyObject *setup(PyObject *module, PyObject *ready_callable)
{
    (void)module;
    replace(&ask_ready, ready_callable);
    Py_RETURN_NONE;
}

/* An address the system's loader gave as a function pointer (implementation-defined in ISO C, as
 * dlsym's use always is). */
#define ENTRY(field, type, address) (lib.field = (type *)(uintptr_t)(address))

/* open(path): the library at path (str or bytes) loaded by this module itself, as ctypes would load
 * it, and its entry points bound: no ctypes needed on this path (a command's start-up). OSError where
 * it does not load or lacks an entry point, ValueError where its contexts differ from this header's;
 * nothing bound then. Hashing waits for allow(True): LIBSHA_IMPL is the binding's to judge. */
static PyObject *open_library(PyObject *module, PyObject *path)
{
    PyObject *encoded = NULL;
    void *library, *a[ENTRY_POINTS];
    size_f *ctx_size, *hmac_ctx_size;
    char error[512];
    size_t i;
    (void)module;
    if (!PyUnicode_FSConverter(path, &encoded))
        return NULL;
    library = accel_library_open(PyBytes_AsString(encoded), error, sizeof error);
    if (library == NULL) {
        PyErr_Format(PyExc_OSError, "%s: %s", PyBytes_AsString(encoded), error);
        Py_DECREF(encoded);
        return NULL;
    }
    for (i = 0; i < ENTRY_POINTS; ++i)
        if ((a[i] = accel_library_function(library, entry_names[i])) == NULL) {
            PyErr_Format(PyExc_OSError, "%s: not a libsha library of this version (no %s)",
                         PyBytes_AsString(encoded), entry_names[i]);
            Py_DECREF(encoded);
            return NULL;
        }
    Py_DECREF(encoded);
    ctx_size = (size_f *)(uintptr_t)accel_library_function(library, "libsha_sha256_ctx_size");
    hmac_ctx_size = (size_f *)(uintptr_t)accel_library_function(library, "libsha_hmac_sha256_ctx_size");
    if (ctx_size == NULL || hmac_ctx_size == NULL || ctx_size() != sizeof(libsha_sha256_ctx)
        || hmac_ctx_size() != sizeof(libsha_hmac_sha256_ctx))
        return PyErr_Format(PyExc_ValueError, "libsha._accel was built for contexts of %zu and %zu bytes; this library "
                            "has others", sizeof(libsha_sha256_ctx), sizeof(libsha_hmac_sha256_ctx));
    if (lib.sha256 != NULL) { /* bound before: other threads may be calling these; the same library only */
        if ((uintptr_t)lib.sha256 != (uintptr_t)a[0] || (uintptr_t)lib.config_check != (uintptr_t)a[22])
            return PyErr_Format(PyExc_ValueError, "libsha._accel is bound to another library already");
        Py_RETURN_NONE;
    }
    ENTRY(sha256, oneshot_f, a[0]), ENTRY(init, ctx_f, a[1]), ENTRY(update, update_f, a[2]);
    ENTRY(final, final_f, a[3]), ENTRY(wipe, ctx_f, a[4]), ENTRY(hmac, hmac_f, a[5]);
    ENTRY(hmac_init, hmac_init_f, a[6]), ENTRY(hmac_update, hmac_update_f, a[7]);
    ENTRY(hmac_final, hmac_final_f, a[8]), ENTRY(hmac_wipe, hmac_ctx_f, a[9]), ENTRY(hex, hex_f, a[10]);
    ENTRY(update_many, many_f, a[11]), ENTRY(hmac_update_many, hmac_many_f, a[12]);
    ENTRY(export_state, export_f, a[13]), ENTRY(import_state, import_f, a[14]);
    ENTRY(hmac_export_state, hmac_export_f, a[15]), ENTRY(hmac_import_state, hmac_import_f, a[16]);
    ENTRY(batch, batch_f, a[17]), ENTRY(hkdf, hkdf_f, a[18]);
    ENTRY(midstate, midstate_f, a[19]), ENTRY(init_midstate, init_midstate_f, a[20]);
    ENTRY(files, files_f, a[21]), ENTRY(config_check, config_check_f, a[22]);
    Py_RETURN_NONE;
}

/* configuration_problem(): LIBSHA_IMPL's problem in the library's words (libsha_config_check), or
 * None where it is valid or unset. After open(). */
static PyObject *configuration_problem(PyObject *module, PyObject *unused)
{
    char message[256];
    (void)module, (void)unused;
    if (lib.config_check == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "libsha._accel.configuration_problem() before open()");
        return NULL;
    }
    if (lib.config_check(NULL, message, sizeof message) == 0)
        Py_RETURN_NONE;
    message[sizeof message - 1] = 0;
    return PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
}

/* allow(False): hashing calls ready() again first (an invalid LIBSHA_IMPL, nothing selected). */
static PyObject *allow(PyObject *module, PyObject *flag)
{
    int yes = PyObject_IsTrue(flag);
    (void)module;
    if (yes < 0)
        return NULL;
    if (yes && lib.sha256 == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "libsha._accel.allow(True) before open()");
        return NULL;
    }
    libsha_atomic_store_uint(&allowed, (unsigned)yes);
    Py_RETURN_NONE;
}

static PyMethodDef module_functions[] = {
    {"sha256_digest", (PyCFunction)(void (*)(void))sha256_digest, METH_FASTCALL,
     "SHA-256 of any C-contiguous buffer, as 32 bytes: hashlib.sha256(data).digest() in one call."},
    {"sha256_hexdigest", (PyCFunction)(void (*)(void))sha256_hexdigest, METH_FASTCALL,
     "SHA-256 of any C-contiguous buffer, as 64 lowercase hex digits."},
    {"hmac_sha256", (PyCFunction)(void (*)(void))hmac_sha256, METH_FASTCALL,
     "HMAC-SHA256 of msg under key (any C-contiguous buffers), as 32 bytes."},
    {"update_many", update_many, METH_VARARGS, NULL},
    {"hkdf", (PyCFunction)(void (*)(void))hkdf, METH_FASTCALL, NULL},
    {"hash_bytes_list", hash_bytes_list, METH_VARARGS, NULL},
    {"all_bytes", all_bytes, METH_O, NULL},
    {"joined_nodes", joined_nodes, METH_VARARGS, NULL},
    {"nodes_into", nodes_into, METH_VARARGS, NULL},
    {"plain_nodes", plain_nodes, METH_VARARGS, NULL},
    {"setup", setup, METH_O, NULL},
    {"sha256_files", sha256_files, METH_VARARGS, NULL},
    {"open", open_library, METH_O, NULL},
    {"configuration_problem", configuration_problem, METH_NOARGS, NULL},
    {"allow", allow, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "libsha._accel", "libsha's per-call paths as C methods over the library it loads.",
    -1, module_functions, NULL, NULL, NULL, NULL,
};

#ifndef Py_LIMITED_API
typedef vectorcallfunc vectorcallfunc_or_null;
#define VECTORCALL(f) f
#else
typedef void *vectorcallfunc_or_null;
#define VECTORCALL(f) NULL
#endif

/* hashlib's attributes, on the class as on its objects. */
static int set_attribute(PyObject *type, const char *name, PyObject *value)
{
    int result = value == NULL ? -1 : PyObject_SetAttrString(type, name, value);
    Py_XDECREF(value);
    return result;
}

static int add_type(PyObject *module, PyType_Spec *spec, const char *attribute, const char *name, PyObject **slot,
                    vectorcallfunc_or_null vectorcall)
{
    PyObject *type = PyType_FromSpec(spec);
    if (type == NULL)
        return -1;
#ifndef Py_LIMITED_API
    ((PyTypeObject *)type)->tp_vectorcall = vectorcall; /* calls of the type itself: no args tuple */
#else
    (void)vectorcall;
#endif
    if (set_attribute(type, "name", PyUnicode_FromString(name)) < 0
        || set_attribute(type, "digest_size", PyLong_FromLong(LIBSHA_DIGEST_SIZE)) < 0
        || set_attribute(type, "block_size", PyLong_FromLong(LIBSHA_BLOCK_SIZE)) < 0
        || set_attribute(type, "__module__", PyUnicode_FromString("libsha")) < 0
        || PyModule_AddObject(module, attribute, type) < 0) { /* steals the reference on success */
        Py_DECREF(type);
        return -1;
    }
    *slot = type; /* the module holds it for as long as the process runs */
    type_alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)type, Py_tp_alloc);
    type_free = (freefunc)PyType_GetSlot((PyTypeObject *)type, Py_tp_free);
    return 0;
}

/* The binding's words (libsha/_errors.py, libsha/_views.py), held for the process's life. */
static int import_words(void)
{
    PyObject *errors = PyImport_ImportModule("libsha._errors"), *views;
    if (errors == NULL)
        return -1;
    check_code = PyObject_GetAttrString(errors, "check");
    refusal = PyObject_GetAttrString(errors, "refuse");
    Py_DECREF(errors);
    if ((views = PyImport_ImportModule("libsha._views")) == NULL)
        return -1;
    view_error = PyObject_GetAttrString(views, "contiguous_view");
    Py_DECREF(views);
    return check_code != NULL && refusal != NULL && view_error != NULL ? 0 : -1;
}

PyMODINIT_FUNC PyInit__accel(void)
{
    PyObject *module = PyModule_Create(&module_def), *names;
    if (module == NULL)
        return NULL;
    /* The entry points open() binds, by name. */
    if ((names = PyTuple_New((Py_ssize_t)ENTRY_POINTS)) != NULL)
        for (size_t i = 0; i < ENTRY_POINTS; ++i)
            PyTuple_SetItem(names, (Py_ssize_t)i, PyUnicode_FromString(entry_names[i]));
    if (names == NULL || PyModule_AddObject(module, "ENTRY_POINTS", names) < 0) {
        Py_XDECREF(names);
        Py_DECREF(module);
        return NULL;
    }
    /* Where an object's C context starts, for the tests that edit a context's length field. */
    if (PyModule_AddIntConstant(module, "SHA256_CONTEXT_OFFSET", (long)offsetof(Sha256, ctx)) < 0
        || PyModule_AddIntConstant(module, "HMAC_CONTEXT_OFFSET", (long)offsetof(Hmac, ctx)) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    if (import_words() < 0 || PyModule_AddIntConstant(module, "GIL_RELEASE_BYTES", GIL_RELEASE_BYTES) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    if (add_type(module, &sha256_spec, "sha256", "sha256", &sha256_type, VECTORCALL(sha256_vectorcall)) < 0
        || add_type(module, &hmac_spec, "HMAC", "hmac-sha256", &hmac_type, VECTORCALL(hmac_vectorcall)) < 0
        || PyModule_AddStringConstant(module, "BUILD", ACCEL_BUILD) < 0
        || (files_control_type = PyType_FromSpec(&files_control_spec)) == NULL
        || PyModule_AddObject(module, "FilesControl", Py_NewRef(files_control_type)) < 0
        || (empty_bytes = PyBytes_FromStringAndSize(NULL, 0)) == NULL) {
        Py_DECREF(module);
        return NULL;
    }
#ifdef Py_GIL_DISABLED
    /* Every object's state is under its own PyMutex, the module's under atomics or set once at import. */
    if (PyUnstable_Module_SetGIL(module, Py_MOD_GIL_NOT_USED) < 0) {
        Py_DECREF(module);
        return NULL;
    }
#endif
    return module;
}
