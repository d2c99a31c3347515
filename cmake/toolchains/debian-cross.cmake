# The part every Debian cross toolchain file shares: set LIBSHA_CROSS_PROCESSOR (CMake's name for the
# CPU), LIBSHA_CROSS_TRIPLE (Debian's gcc-TRIPLE and /usr/TRIPLE) and LIBSHA_CROSS_QEMU (qemu-user's
# binary and its options), then include this. Binaries run under qemu-user with Debian's cross libc
# (CMAKE_CROSSCOMPILING_EMULATOR, so ctest does it).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${LIBSHA_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${LIBSHA_CROSS_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${LIBSHA_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBSHA_CROSS_QEMU};-L;/usr/${LIBSHA_CROSS_TRIPLE})
