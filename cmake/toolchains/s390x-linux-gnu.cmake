# Cross-build for IBM Z Linux (big endian) with Debian's gcc-s390x-linux-gnu, run under qemu-s390x.
set(LIBSHA_CROSS_PROCESSOR s390x)
set(LIBSHA_CROSS_TRIPLE s390x-linux-gnu)
set(LIBSHA_CROSS_QEMU qemu-s390x)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
