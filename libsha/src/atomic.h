/* A pointer and an unsigned published with release and read with acquire
 * semantics. C11 <stdatomic.h> where the compiler has it; MSVC's interlocked
 * intrinsics otherwise (MSVC's C11 atomics are still experimental). And
 * relaxed adds, reads and stores of plain integers, for counters in public structs
 * that any language reads (libsha_files_control), which cannot be _Atomic. */
#ifndef LIBSHA_ATOMIC_H
#define LIBSHA_ATOMIC_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>

typedef void *volatile libsha_atomic_ptr;
typedef volatile long libsha_atomic_uint;

#if defined(_M_ARM64)
#define LIBSHA_LOAD_ACQUIRE_PTR(p) ((const void *)__ldar64((unsigned __int64 volatile *)(p)))
#define LIBSHA_LOAD_ACQUIRE_UINT(p) ((unsigned)__ldar32((unsigned __int32 volatile *)(p)))
#else
/* x86 loads are acquire loads; the barrier stops the compiler reordering. */
static __forceinline const void *libsha_load_ptr_x86(libsha_atomic_ptr *p)
{
    const void *v = *p;
    _ReadWriteBarrier();
    return v;
}
static __forceinline unsigned libsha_load_uint_x86(libsha_atomic_uint *p)
{
    unsigned v = (unsigned)*p;
    _ReadWriteBarrier();
    return v;
}
#define LIBSHA_LOAD_ACQUIRE_PTR(p) libsha_load_ptr_x86(p)
#define LIBSHA_LOAD_ACQUIRE_UINT(p) libsha_load_uint_x86(p)
#endif

static __forceinline const void *libsha_atomic_load(libsha_atomic_ptr *p)
{
    return LIBSHA_LOAD_ACQUIRE_PTR(p);
}

static __forceinline void libsha_atomic_store(libsha_atomic_ptr *p, const void *v)
{
    _InterlockedExchangePointer((void *volatile *)p, (void *)v);
}

/* Stores desired if *p is NULL; returns the value *p held before. */
static __forceinline const void *libsha_atomic_set_if_null(libsha_atomic_ptr *p, const void *desired)
{
    return _InterlockedCompareExchangePointer((void *volatile *)p, (void *)desired, NULL);
}

static __forceinline unsigned libsha_atomic_load_uint(libsha_atomic_uint *p)
{
    return LIBSHA_LOAD_ACQUIRE_UINT(p);
}

static __forceinline void libsha_atomic_store_uint(libsha_atomic_uint *p, unsigned v)
{
    _InterlockedExchange(p, (long)v);
}

static __forceinline void libsha_relaxed_add_u64(uint64_t *p, uint64_t n)
{
    _InterlockedExchangeAdd64((volatile __int64 *)p, (__int64)n);
}

static __forceinline void libsha_relaxed_add_u32(uint32_t *p, uint32_t n)
{
    _InterlockedExchangeAdd((volatile long *)p, (long)n);
}

static __forceinline uint32_t libsha_relaxed_load_u32(const uint32_t *p)
{
    return *(const volatile uint32_t *)p;
}

static __forceinline void libsha_relaxed_store_u32(uint32_t *p, uint32_t v)
{
    _InterlockedExchange((volatile long *)p, (long)v);
}

static __forceinline uint64_t libsha_relaxed_load_u64(const uint64_t *p)
{
    /* one read of all 64 bits on 32-bit x86 too */
    return (uint64_t)_InterlockedCompareExchange64((volatile __int64 *)p, 0, 0);
}

#else
#include <stdatomic.h>
#include <stddef.h>

typedef _Atomic(const void *) libsha_atomic_ptr;
typedef atomic_uint libsha_atomic_uint;

static inline const void *libsha_atomic_load(libsha_atomic_ptr *p)
{
    return atomic_load_explicit(p, memory_order_acquire);
}

static inline void libsha_atomic_store(libsha_atomic_ptr *p, const void *v)
{
    atomic_store_explicit(p, v, memory_order_release);
}

/* Stores desired if *p is NULL; returns the value *p held before. */
static inline const void *libsha_atomic_set_if_null(libsha_atomic_ptr *p, const void *desired)
{
    const void *expected = NULL;
    atomic_compare_exchange_strong_explicit(p, &expected, desired, memory_order_acq_rel,
                                            memory_order_acquire);
    return expected;
}

static inline unsigned libsha_atomic_load_uint(libsha_atomic_uint *p)
{
    return atomic_load_explicit(p, memory_order_acquire);
}

static inline void libsha_atomic_store_uint(libsha_atomic_uint *p, unsigned v)
{
    atomic_store_explicit(p, v, memory_order_release);
}

static inline void libsha_relaxed_add_u64(uint64_t *p, uint64_t n)
{
    __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

static inline void libsha_relaxed_add_u32(uint32_t *p, uint32_t n)
{
    __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

static inline uint32_t libsha_relaxed_load_u32(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void libsha_relaxed_store_u32(uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline uint64_t libsha_relaxed_load_u64(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}
#endif

#endif
