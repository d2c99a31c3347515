/* Private to libsha: every compiled-in implementation, best first (registry.c). */
#ifndef LIBSHA_DISPATCH_REGISTRY_H
#define LIBSHA_DISPATCH_REGISTRY_H

#include <stddef.h>

#include "sha256_impl.h"

extern const struct libsha_impl libsha_registry[];
extern const size_t libsha_registry_count;

#endif
