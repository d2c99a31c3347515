# Cross-build for 64-bit ARM Linux with Debian's gcc-aarch64-linux-gnu:
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(LIBSHA_CROSS_PROCESSOR aarch64)
set(LIBSHA_CROSS_TRIPLE aarch64-linux-gnu)
# -cpu max has the SHA-2 instructions; tests that need them absent fake getauxval instead.
set(LIBSHA_CROSS_QEMU qemu-aarch64;-cpu;max)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
