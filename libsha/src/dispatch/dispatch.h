/* Private to libsha: the active row, which every entry point asks for the row its whole call runs
 * on (dispatch.c); and, from enter.h, what every public hashing entry point does first. */
#ifndef LIBSHA_DISPATCH_DISPATCH_H
#define LIBSHA_DISPATCH_DISPATCH_H

#include "atomic.h"
#include "dispatch/enter.h"
#include "libsha_dispatch.h"
#include "sha256_impl.h"

/* The active row, chosen on first use. */
extern libsha_atomic_ptr libsha_active_row;
const struct libsha_impl *libsha_active_first_use(void);

static inline const struct libsha_impl *libsha_active(void)
{
    const struct libsha_impl *impl = (const struct libsha_impl *)libsha_atomic_load(&libsha_active_row);
    return impl != NULL ? impl : libsha_active_first_use();
}

/* The runnable implementation of that name, or NULL with *err set. */
const struct libsha_impl *libsha_find(const char *name, int *err);

#endif
