/* Opens the library by path and finds its functions: dlopen, or LoadLibraryExW on Windows, with the
 * flags ctypes uses (RTLD_NOW | RTLD_LOCAL; the library's own folder searched for what it needs). */
#include "_accel_library.h"

#include <stdio.h>
#include <string.h>

#ifdef _WIN32
#include <stdlib.h>
#include <windows.h>

void *accel_library_open(const char *path, char *error, size_t size)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    wchar_t *wide;
    HMODULE library = NULL;
    if (n <= 0) {
        snprintf(error, size, "not a UTF-8 path");
        return NULL;
    }
    if ((wide = malloc((size_t)n * sizeof *wide)) == NULL) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wide, n) == n)
        library = LoadLibraryExW(wide, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR);
    free(wide);
    if (library == NULL)
        snprintf(error, size, "LoadLibraryExW failed: Windows error %lu", (unsigned long)GetLastError());
    return (void *)library;
}

void *accel_library_function(void *library, const char *name)
{
    /* FARPROC to void *: the one way Windows hands out a function's address */
    FARPROC function = GetProcAddress((HMODULE)library, name);
    void *address;
    memcpy(&address, &function, sizeof address);
    return address;
}

#else
#include <dlfcn.h>

#include "glibc_base.h"
LIBSHA_GLIBC_BASE(dlopen)
LIBSHA_GLIBC_BASE(dlsym)
LIBSHA_GLIBC_BASE(dlerror)

void *accel_library_open(const char *path, char *error, size_t size)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, size, "%s", reason != NULL ? reason : "dlopen failed");
    }
    return library;
}

void *accel_library_function(void *library, const char *name)
{
    return dlsym(library, name);
}
#endif
