# Cross-build for little-endian POWER Linux with Debian's gcc-powerpc64le-linux-gnu, run under qemu-ppc64le.
set(LIBSHA_CROSS_PROCESSOR ppc64le)
set(LIBSHA_CROSS_TRIPLE powerpc64le-linux-gnu)
set(LIBSHA_CROSS_QEMU qemu-ppc64le)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
