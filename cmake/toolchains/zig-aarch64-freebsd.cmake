# Cross-build for FreeBSD on 64-bit ARM with zig; see zig.cmake.
#   cmake -S . -B build-aarch64-freebsd -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/zig-aarch64-freebsd.cmake
set(CMAKE_SYSTEM_NAME FreeBSD)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(LIBSHA_ZIG_TARGET aarch64-freebsd)
include(${CMAKE_CURRENT_LIST_DIR}/zig.cmake)
