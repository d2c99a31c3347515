/* Private to libsha: what differs between compilers (MSVC and GCC/Clang), for every folder. */
#ifndef LIBSHA_COMPILER_H
#define LIBSHA_COMPILER_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#  define LIBSHA_ALWAYS_INLINE __forceinline
#else
#  define LIBSHA_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

/* A hint that the cache line `ahead` bytes past p is wanted soon. A prefetch never faults, so the
 * address may lie past the buffer's end; it is made from an integer, as pointer arithmetic past the end
 * of an object would be undefined. */
#if defined(__GNUC__) || defined(__clang__)
#define LIBSHA_PREFETCH(p, ahead) __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (ahead)))
#else
#define LIBSHA_PREFETCH(p, ahead) ((void)0)
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#include <stdlib.h>
#define LIBSHA_BSWAP32(x) _byteswap_ulong(x)
#define LIBSHA_BSWAP64(x) _byteswap_uint64(x)
#else
#define LIBSHA_BSWAP32(x) __builtin_bswap32(x)
#define LIBSHA_BSWAP64(x) __builtin_bswap64(x)
#endif

#endif
