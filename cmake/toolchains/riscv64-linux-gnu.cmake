# Cross-build for 64-bit RISC-V Linux with Debian's gcc-riscv64-linux-gnu, run under qemu-riscv64.
set(LIBSHA_CROSS_PROCESSOR riscv64)
set(LIBSHA_CROSS_TRIPLE riscv64-linux-gnu)
set(LIBSHA_CROSS_QEMU qemu-riscv64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
