/* The accelerator's own loading of the library (libsha/_accel_library.c): free of Python, so that
 * every cross build here compiles it, Windows' among them. */
#ifndef LIBSHA_ACCEL_LIBRARY_H
#define LIBSHA_ACCEL_LIBRARY_H

#include <stddef.h>

/* The shared library at `path` (bytes as os.fsencode gives them: UTF-8 on Windows), loaded as ctypes
 * loads it (so both find the one copy in the process), and never unloaded; or NULL with the system's
 * reason in error[0..size). */
void *accel_library_open(const char *path, char *error, size_t size);

/* The address of the function `name` in a library from accel_library_open, or NULL. */
void *accel_library_function(void *library, const char *name);

#endif
