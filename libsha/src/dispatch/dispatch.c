/* Which implementation is active, and how it is chosen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "dispatch/dispatch.h"
#include "dispatch/registry.h"
#include "dispatch/selftest.h"
#include "sha256_impl.h"

/* Points at one immutable registry row, so a switch can never mix two.
 * Read by libsha_active() (sha256_impl.h), inlined into every entry point. */
libsha_atomic_ptr libsha_active_row;

static int runnable(const struct libsha_impl *impl)
{
    return (impl->cpu & ~libsha_cpu_features()) == 0;
}

/* LIBSHA_IMPL's words after 'standard', one per LIBSHA_USE_* bit. A word
 * allows its bit and the base its rows build on (word_mask), read from the
 * registry, so a new row or family adds nothing here. */
#define USE_WORDS(X) X(sse4, LIBSHA_USE_SSE4) X(avx2, LIBSHA_USE_AVX2) X(shani, LIBSHA_USE_SHANI) X(avx512, LIBSHA_USE_AVX512)
#define WORD_ROW(word, bit) {#word, bit},
#define WORD_TEXT(word, bit) ", " #word

static const struct {
    const char *word;
    unsigned use;
} env_words[] = {{"standard", LIBSHA_USE_STANDARD}, USE_WORDS(WORD_ROW)};

#define WORD_LIST "standard" USE_WORDS(WORD_TEXT)
#define ENV_RULE "LIBSHA_IMPL must be a comma-separated list of " WORD_LIST

/* A word's bit, with the bits every row whose highest bit it is also needs
 * (avx2 and shani rows on x86 need sse4's; avx512 rows sse4's and avx2's, but
 * only the one that pairs AVX-512 with SHA-NI needs shani's). */
static unsigned word_mask(unsigned bit)
{
    unsigned mask = ~0u;
    size_t i;
    for (i = 0; i < libsha_registry_count && bit != 0; ++i) {
        unsigned use = libsha_registry[i].use;
        if ((use & bit) && use < 2 * bit)
            mask &= use;
    }
    return mask == ~0u ? bit : mask;
}

/* The mask a LIBSHA_IMPL value allows: every bit when it is NULL or empty; 0 with *bad (and its
 * length) at the first unknown word, empty words included. Pure: the one parser for the
 * environment (env_mask) and for libsha_config_check. */
static unsigned parse_words(const char *value, const char **bad, size_t *bad_len)
{
    const char *p = value;
    unsigned mask = 0;

    *bad = NULL, *bad_len = 0;
    if (value == NULL || *value == '\0')
        return LIBSHA_USE_ALL;
    for (;;) {
        size_t len = strcspn(p, ","), i;
        int known = 0;
        for (i = 0; i < sizeof env_words / sizeof env_words[0]; ++i) {
            if (strlen(env_words[i].word) == len && strncmp(env_words[i].word, p, len) == 0) {
                mask |= word_mask(env_words[i].use);
                known = 1;
            }
        }
        if (!known) {
            *bad = p, *bad_len = len;
            return 0;
        }
        if (p[len] == '\0')
            return mask;
        p += len + 1;
    }
}

/* Appends text[0..len) to out (capacity size, used so far *at), control bytes as \xNN so the
 * message stays one line; always NUL-terminated, cut where it must be. */
static void append_escaped(char *out, size_t size, size_t *at, const char *text, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < len && *at + 1 < size; ++i) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c != 0x7f) {
            out[(*at)++] = (char)c;
        } else if (*at + 4 < size) {
            out[(*at)++] = '\\', out[(*at)++] = 'x', out[(*at)++] = hex[c >> 4], out[(*at)++] = hex[c & 15];
        } else {
            break;
        }
    }
    out[*at] = '\0';
}

static void append(char *out, size_t size, size_t *at, const char *text)
{
    append_escaped(out, size, at, text, strlen(text));
}

int libsha_config_check(const char *value, char *message, size_t size)
{
    const char *bad;
    size_t bad_len, at = 0;
    if (message == NULL && size != 0)
        return LIBSHA_ERR_NULL;
    if (value == NULL)
        value = getenv("LIBSHA_IMPL");
    parse_words(value, &bad, &bad_len);
    if (size != 0)
        message[0] = '\0';
    if (bad == NULL)
        return LIBSHA_OK;
    if (size != 0) {
        size_t shown = strlen(value) > 64 ? 64 : strlen(value);
        append(message, size, &at, "LIBSHA_IMPL='");
        append_escaped(message, size, &at, value, shown);
        append(message, size, &at, shown < strlen(value) ? "...': '" : "': '");
        append_escaped(message, size, &at, bad, bad_len > 32 ? 32 : bad_len);
        append(message, size, &at, bad_len == 0 ? "' (an empty word)" : "'");
        append(message, size, &at, " is not one of " WORD_LIST " (a comma-separated list of them)");
    }
    return LIBSHA_ERR_ARGUMENT;
}

static libsha_atomic_ptr env_error_printed; /* set by the one thread that prints */

/* The mask LIBSHA_IMPL allows: every bit when unset, 'standard' when invalid (said once on stderr:
 * a C caller gets no exception). */
static unsigned env_mask(int *invalid)
{
    const char *value = getenv("LIBSHA_IMPL"), *bad;
    size_t bad_len;
    unsigned mask = parse_words(value, &bad, &bad_len);

    *invalid = bad != NULL;
    if (!*invalid)
        return mask;
    if (libsha_atomic_set_if_null(&env_error_printed, ENV_RULE) == NULL) {
        char message[256];
        libsha_config_check(value == NULL ? "" : value, message, sizeof message);
        fprintf(stderr, "libsha: %s; libsha hashes with 'standard' until it is fixed or the program selects an "
                        "implementation\n", message);
    }
    return LIBSHA_USE_STANDARD;
}

const char *libsha_config_error(void)
{
    return libsha_config_check(NULL, NULL, 0) == LIBSHA_OK ? NULL : ENV_RULE;
}

/* Whether the automatic choice may take the row on a CPU with these features and advice. */
static int takes(const struct libsha_impl *impl, unsigned use, unsigned features, unsigned tuning)
{
    return (impl->use & ~use) == 0 && (impl->cpu & ~features) == 0 && (impl->tune & ~tuning) == 0;
}

const char *libsha_implementation_for(unsigned use, unsigned features, unsigned tuning)
{
    size_t i;
    for (i = 0; i < libsha_registry_count; ++i)
        if (takes(&libsha_registry[i], use, features, tuning))
            return libsha_registry[i].name;
    return "standard"; /* not reached: the standard row needs nothing */
}

static const struct libsha_impl *best_allowed(unsigned use)
{
    size_t i;
    int invalid;
    use &= env_mask(&invalid);
    for (i = 0; i < libsha_registry_count; ++i) {
        const struct libsha_impl *impl = &libsha_registry[i];
        if (takes(impl, use, libsha_cpu_features(), libsha_cpu_tuning()) && libsha_selftest(impl) == 0)
            return impl;
    }
    /* Only reachable if even the portable code gives wrong answers: a broken
     * build must not hand out wrong digests. */
    fputs("libsha: the 'standard' implementation failed its self-test; this build is broken\n",
          stderr);
    abort();
}

const char *libsha_autodetect(unsigned use)
{
    const struct libsha_impl *impl = best_allowed(use);
    libsha_atomic_store(&libsha_active_row, impl);
    return impl->name;
}

const struct libsha_impl *libsha_active_first_use(void)
{
    /* Threads racing here all compute the same choice; the first to publish
     * wins, and an explicit choice made meanwhile is never overwritten. */
    const struct libsha_impl *impl = best_allowed(LIBSHA_USE_ALL);
    const struct libsha_impl *earlier =
        (const struct libsha_impl *)libsha_atomic_set_if_null(&libsha_active_row, impl);
    return earlier != NULL ? earlier : impl;
}

const char *libsha_implementation(void)
{
    return libsha_active()->name;
}

const char *libsha_implementation_at(size_t index, int *is_runnable)
{
    if (index >= libsha_registry_count)
        return NULL;
    if (is_runnable != NULL)
        *is_runnable = runnable(&libsha_registry[index]);
    return libsha_registry[index].name;
}

const char *libsha_implementation_needs(size_t index, unsigned *use, unsigned *features, unsigned *tuning)
{
    if (index >= libsha_registry_count)
        return NULL;
    if (use != NULL)
        *use = libsha_registry[index].use;
    if (features != NULL)
        *features = libsha_registry[index].cpu;
    if (tuning != NULL)
        *tuning = libsha_registry[index].tune;
    return libsha_registry[index].name;
}

const struct libsha_impl *libsha_find(const char *name, int *err)
{
    size_t i;
    if (name == NULL) {
        *err = LIBSHA_ERR_NULL;
        return NULL;
    }
    for (i = 0; i < libsha_registry_count; ++i) {
        const char *old = libsha_registry[i].old_name;
        if (strcmp(libsha_registry[i].name, name) == 0 || (old != NULL && strcmp(old, name) == 0)) {
            if (runnable(&libsha_registry[i]))
                return &libsha_registry[i];
            *err = LIBSHA_ERR_NOT_RUNNABLE;
            return NULL;
        }
    }
    *err = LIBSHA_ERR_UNKNOWN_IMPL;
    return NULL;
}

int libsha_select(const char *name)
{
    int err = LIBSHA_OK;
    const struct libsha_impl *impl = libsha_find(name, &err);
    if (impl == NULL)
        return err;
    if (libsha_selftest(impl) != 0)
        return LIBSHA_ERR_SELFTEST;
    libsha_atomic_store(&libsha_active_row, impl);
    return LIBSHA_OK;
}
