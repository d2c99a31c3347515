# Cross-build for FreeBSD on x86-64 with zig; see zig.cmake.
#   cmake -S . -B build-x86_64-freebsd -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/zig-x86_64-freebsd.cmake
set(CMAKE_SYSTEM_NAME FreeBSD)
set(CMAKE_SYSTEM_PROCESSOR amd64)
set(LIBSHA_ZIG_TARGET x86_64-freebsd)
include(${CMAKE_CURRENT_LIST_DIR}/zig.cmake)
