# libsha_family(NAME ARCH x86|arm64 DOC "..." FLAGS spelling... [MSVC spelling] [NEEDS family...]
#               PROBE source SOURCES file...)
#
# Declares one kernel family, all of it in one call: the option LIBSHA_NO_<NAME> (DOC says what it
# leaves out), the compile probe and the flag spellings tried in order until the probe compiles
# ('none': no flag; MSVC replaces the list with its one spelling), the families it builds on
# (NEEDS: left out with any of them), and its sources under libsha/src, built with the flags that
# passed. A family that is built defines LIBSHA_HAVE_<NAME> for the whole library, which is how
# registry.c's rows and libsha_enter() know it is there. A family of another architecture than the
# target's is not declared at all.
#
# Read afterwards: the global properties LIBSHA_FAMILIES (every family declared for this target),
# LIBSHA_FAMILIES_BUILT and LIBSHA_FAMILIES_LEFT_OUT ("NAME (why)" each).
include(CheckCSourceCompiles)

function(libsha_family name)
  cmake_parse_arguments(PARSE_ARGV 1 F "" "ARCH;DOC;MSVC;PROBE" "FLAGS;NEEDS;SOURCES")
  if(NOT F_ARCH OR NOT F_PROBE OR NOT F_SOURCES OR NOT F_FLAGS)
    message(FATAL_ERROR "libsha_family(${name}): ARCH, FLAGS, PROBE and SOURCES are required")
  endif()
  if(NOT (F_ARCH STREQUAL "x86" AND LIBSHA_X86) AND NOT (F_ARCH STREQUAL "arm64" AND LIBSHA_ARM))
    return()
  endif()
  option(LIBSHA_NO_${name} "Leave out the ${F_DOC}" OFF)
  set_property(GLOBAL APPEND PROPERTY LIBSHA_FAMILIES ${name})

  if(LIBSHA_NO_${name})
    set(why "LIBSHA_NO_${name}=ON")
    message(STATUS "libsha: ${name} kernels left out (LIBSHA_NO_${name})")
  else()
    get_property(built GLOBAL PROPERTY LIBSHA_FAMILIES_BUILT)
    foreach(need IN LISTS F_NEEDS)
      if(NOT need IN_LIST built)
        set(why "it builds on ${need}, which is left out")
        message(STATUS "libsha: ${name} kernels left out: ${why}")
        break()
      endif()
    endforeach()
  endif()

  if(NOT why)
    set(spellings "${F_FLAGS}")
    if(MSVC AND DEFINED F_MSVC)
      set(spellings "${F_MSVC}")
    endif()
    set(CMAKE_REQUIRED_QUIET ON)
    foreach(spelling IN LISTS spellings)
      set(flags "${spelling}")
      if(flags STREQUAL "none")
        set(flags "")
      endif()
      string(MAKE_C_IDENTIFIER "LIBSHA_COMPILER_HAS_${name}_${flags}" result)
      set(CMAKE_REQUIRED_FLAGS "${flags}")
      check_c_source_compiles("${F_PROBE}" ${result})
      if(${result})
        message(STATUS "libsha: ${name} kernels built with '${spelling}'")
        separate_arguments(options NATIVE_COMMAND "${flags}")
        foreach(file IN LISTS F_SOURCES)
          target_sources(sha PRIVATE ${LIBSHA_SRC}/${file})
          set_source_files_properties(${LIBSHA_SRC}/${file} PROPERTIES COMPILE_OPTIONS "${options}")
        endforeach()
        target_compile_definitions(sha PRIVATE LIBSHA_HAVE_${name})
        set_property(GLOBAL APPEND PROPERTY LIBSHA_FAMILIES_BUILT ${name})
        return()
      endif()
    endforeach()
    string(REPLACE ";" "', '" tried "${spellings}")
    set(why "the compiler took none of '${tried}'")
    message(WARNING "libsha: the compiler cannot build ${name} (tried '${tried}'): its kernels are left out")
  endif()
  set_property(GLOBAL APPEND PROPERTY LIBSHA_FAMILIES_LEFT_OUT "${name} (${why})")
endfunction()
