/* glibc 2.34 moved libpthread's and libdl's functions into libc and gave them
 * new symbol versions: a binary built there needs glibc 2.34, and a wheel
 * built there is tagged manylinux_2_34. Their first versions are still in
 * libc, and are what a build on an older glibc (the manylinux images) binds
 * to. LIBSHA_GLIBC_BASE(f) binds to f's first version here too, on the
 * architectures whose wheels are built on a newer glibc; nothing elsewhere.
 * Include it after a libc header (which defines __GLIBC__), and use it at
 * file scope without a semicolon. */
#ifndef LIBSHA_GLIBC_BASE_H
#define LIBSHA_GLIBC_BASE_H

#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 34) && defined(__x86_64__)
#define LIBSHA_GLIBC_BASE(f) __asm__(".symver " #f "," #f "@GLIBC_2.2.5");
#elif __GLIBC_PREREQ(2, 34) && (defined(__aarch64__) || (defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)))
#define LIBSHA_GLIBC_BASE(f) __asm__(".symver " #f "," #f "@GLIBC_2.17");
#elif __GLIBC_PREREQ(2, 34) && defined(__s390x__)
#define LIBSHA_GLIBC_BASE(f) __asm__(".symver " #f "," #f "@GLIBC_2.2");
#elif __GLIBC_PREREQ(2, 34) && defined(__riscv) && __riscv_xlen == 64
#define LIBSHA_GLIBC_BASE(f) __asm__(".symver " #f "," #f "@GLIBC_2.27");
#endif
#endif
#ifndef LIBSHA_GLIBC_BASE
#define LIBSHA_GLIBC_BASE(f)
#endif

#endif
