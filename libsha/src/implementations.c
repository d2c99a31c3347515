/* The implementations compiled into this build, best first. The dispatcher
 * installs the first one the caller allows, the CPU runs and the self-test passes. */
#include "sha256_impl.h"

static const struct libsha_impl standard = {
    "standard", LIBSHA_USE_STANDARD, libsha_standard_transform, libsha_standard_d64, NULL, NULL, NULL,
};

const struct libsha_impl *const libsha_registry[] = {
    &standard,
};

const size_t libsha_registry_count = sizeof libsha_registry / sizeof libsha_registry[0];
