/* A pointer published with release and read with acquire semantics.
 * C11 <stdatomic.h> where the compiler has it; MSVC's interlocked intrinsics
 * otherwise (MSVC's C11 atomics are still experimental). */
#ifndef LIBSHA_ATOMIC_PTR_H
#define LIBSHA_ATOMIC_PTR_H

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>

typedef void *volatile libsha_atomic_ptr;

static __forceinline const void *libsha_atomic_load(libsha_atomic_ptr *p)
{
#if defined(_M_ARM64)
    return (const void *)__ldar64((unsigned __int64 volatile *)p);
#else
    const void *v = *p; /* x86 loads are acquire; the barrier stops compiler reordering */
    _ReadWriteBarrier();
    return v;
#endif
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

#else
#include <stdatomic.h>

typedef _Atomic(const void *) libsha_atomic_ptr;

static inline const void *libsha_atomic_load(libsha_atomic_ptr *p)
{
    return atomic_load_explicit(p, memory_order_acquire);
}

static inline void libsha_atomic_store(libsha_atomic_ptr *p, const void *v)
{
    atomic_store_explicit(p, v, memory_order_release);
}

static inline const void *libsha_atomic_set_if_null(libsha_atomic_ptr *p, const void *desired)
{
    const void *expected = NULL;
    atomic_compare_exchange_strong_explicit(p, &expected, desired, memory_order_acq_rel,
                                            memory_order_acquire);
    return expected;
}
#endif

#endif
