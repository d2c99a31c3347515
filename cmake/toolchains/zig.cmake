# Shared part of the zig-<target>.cmake toolchain files: C cross-compiled with zig's C compiler
# (clang with each target's system headers and libraries, from the `ziglang` wheel on PyPI).
# The including file sets LIBSHA_ZIG_TARGET (zig's target triple), CMAKE_SYSTEM_NAME and
# CMAKE_SYSTEM_PROCESSOR.
#
# zig is found as LIBSHA_ZIG (cache or environment), else `zig` on PATH, else inside the `ziglang`
# package of the first Python on PATH that has it (pip install ziglang; the release extra). In a
# pip build (pip wheel -C cmake.define.CMAKE_TOOLCHAIN_FILE=...), whose isolated environment
# comes first on PATH, set LIBSHA_ZIG, as tools/cross_wheels.sh does.
if(NOT LIBSHA_ZIG AND DEFINED ENV{LIBSHA_ZIG})
  set(LIBSHA_ZIG "$ENV{LIBSHA_ZIG}")
endif()
if(NOT LIBSHA_ZIG)
  find_program(LIBSHA_ZIG_ON_PATH zig)
  if(LIBSHA_ZIG_ON_PATH)
    set(LIBSHA_ZIG "${LIBSHA_ZIG_ON_PATH}")
  endif()
endif()
if(NOT LIBSHA_ZIG)
  foreach(python IN ITEMS python3 python)
    find_program(LIBSHA_ZIG_PYTHON_${python} ${python})
    if(LIBSHA_ZIG_PYTHON_${python})
      execute_process(COMMAND "${LIBSHA_ZIG_PYTHON_${python}}" -c
        "import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))"
        OUTPUT_VARIABLE zig OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed ERROR_QUIET)
      if(NOT failed AND EXISTS "${zig}")
        set(LIBSHA_ZIG "${zig}")
        break()
      endif()
    endif()
  endforeach()
endif()
if(NOT LIBSHA_ZIG)
  message(FATAL_ERROR "libsha: no zig found for ${LIBSHA_ZIG_TARGET}: pip install ziglang "
    "(the release extra), put zig on PATH, or set LIBSHA_ZIG to its path")
endif()
# Try-compiles (the kernel probes) read this file again in a new scope: keep what was found.
set(LIBSHA_ZIG "${LIBSHA_ZIG}" CACHE FILEPATH "zig, whose C compiler cross-builds libsha")
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES LIBSHA_ZIG)
# The probes compile only: linking each one would build the target's C runtime during configure.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_COMPILER "${LIBSHA_ZIG}" cc -target ${LIBSHA_ZIG_TARGET})
