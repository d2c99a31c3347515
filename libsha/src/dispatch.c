/* Which implementation is active, and how it is chosen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_ptr.h"
#include "sha256_impl.h"

/* Points at one immutable registry row, so a switch can never mix two. */
static libsha_atomic_ptr active;

static int runnable(const struct libsha_impl *impl)
{
    (void)impl; /* every compiled-in implementation is portable so far */
    return 1;
}

static const struct libsha_impl *best_allowed(unsigned use)
{
    size_t i;
    for (i = 0; i < libsha_registry_count; ++i) {
        const struct libsha_impl *impl = libsha_registry[i];
        if ((impl->use & ~use) == 0 && runnable(impl) && libsha_selftest(impl) == 0)
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
    libsha_atomic_store(&active, impl);
    return impl->name;
}

const struct libsha_impl *libsha_active(void)
{
    const struct libsha_impl *impl = (const struct libsha_impl *)libsha_atomic_load(&active);
    const struct libsha_impl *earlier;

    if (impl != NULL)
        return impl;
    /* First use: threads racing here all compute the same choice; the first
     * to publish wins and an explicit libsha_autodetect is never overwritten. */
    impl = best_allowed(LIBSHA_USE_ALL);
    earlier = (const struct libsha_impl *)libsha_atomic_set_if_null(&active, impl);
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
        *is_runnable = runnable(libsha_registry[index]);
    return libsha_registry[index]->name;
}

const struct libsha_impl *libsha_find(const char *name, int *err)
{
    size_t i;
    if (name == NULL) {
        *err = LIBSHA_ERR_NULL;
        return NULL;
    }
    for (i = 0; i < libsha_registry_count; ++i) {
        if (strcmp(libsha_registry[i]->name, name) == 0) {
            if (!runnable(libsha_registry[i])) {
                *err = LIBSHA_ERR_NOT_RUNNABLE;
                return NULL;
            }
            return libsha_registry[i];
        }
    }
    *err = LIBSHA_ERR_UNKNOWN_IMPL;
    return NULL;
}
