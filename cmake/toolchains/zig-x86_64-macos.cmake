# Cross-build for Intel macOS (11.0 and newer, the wheels' deployment target) with zig; see zig.cmake.
#   cmake -S . -B build-x86_64-macos -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/zig-x86_64-macos.cmake
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(LIBSHA_ZIG_TARGET x86_64-macos.11.0)
include(${CMAKE_CURRENT_LIST_DIR}/zig.cmake)
