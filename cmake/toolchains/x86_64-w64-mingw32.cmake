# Cross-build for 64-bit Windows with Debian's gcc-mingw-w64-x86-64:
#   cmake -S . -B build-win64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-w64-mingw32.cmake
# Binaries run under wine (CMAKE_CROSSCOMPILING_EMULATOR, so ctest does it).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Static libgcc: the DLL and tests then need nothing from the toolchain at run time.
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libgcc")
# Debian's wine64 package keeps its binary off PATH, in /usr/lib/wine.
find_program(LIBSHA_WINE NAMES wine wine64 PATHS /usr/lib/wine /usr/lib64/wine)
if(LIBSHA_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBSHA_WINE})
endif()
