/* Which implementation is active, and how it is chosen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
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

#define ENV_ERROR                                                                                  \
    "LIBSHA_IMPL must be a comma-separated list of standard" USE_WORDS(WORD_TEXT) "; "              \
    "until it is, libsha uses 'standard'"

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

static libsha_atomic_ptr env_error_printed; /* set by the one thread that prints */

/* The mask LIBSHA_IMPL allows: every bit when unset, 'standard' when invalid. */
static unsigned env_mask(int *invalid)
{
    const char *value = getenv("LIBSHA_IMPL");
    const char *p = value;
    unsigned mask = 0;

    *invalid = 0;
    if (value == NULL || *value == '\0')
        return LIBSHA_USE_ALL;
    for (;;) { /* each word, empty ones included, must be known */
        size_t len = strcspn(p, ","), i;
        int known = 0;
        for (i = 0; i < sizeof env_words / sizeof env_words[0]; ++i) {
            if (strlen(env_words[i].word) == len && strncmp(env_words[i].word, p, len) == 0) {
                mask |= word_mask(env_words[i].use);
                known = 1;
            }
        }
        if (!known) {
            *invalid = 1;
            if (libsha_atomic_set_if_null(&env_error_printed, ENV_ERROR) == NULL)
                fprintf(stderr, "libsha: LIBSHA_IMPL='%.64s': '%.*s' is unknown. %s\n", value,
                        (int)(len > 32 ? 32 : len), p, ENV_ERROR);
            return LIBSHA_USE_STANDARD;
        }
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return mask;
}

const char *libsha_config_error(void)
{
    int invalid;
    env_mask(&invalid);
    return invalid ? ENV_ERROR : NULL;
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
        if (strcmp(libsha_registry[i].name, name) == 0) {
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
