# Cross-build for Windows on ARM64 (mingw-w64 headers, the UCRT C runtime) with zig; see zig.cmake.
#   cmake -S . -B build-aarch64-windows -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/zig-aarch64-windows.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR ARM64)
set(LIBSHA_ZIG_TARGET aarch64-windows-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/zig.cmake)
