# Sanitizer builds (the "asan" preset: HAEC_SANITIZE=address,undefined, build-asan/).
# Every target we compile with CMake gets -fsanitize=<list>; see docs/SANITIZERS.md for running
# the result under smpirun (the simulators SimGrid runs are not instrumented, so the ASan runtime
# must be preloaded ahead of our libraries).
if(NOT HAEC_SANITIZE)
  return()
endif()
string(REPLACE ";" "," HAEC_SANITIZE "${HAEC_SANITIZE}")

# Frame pointers keep the reports' stacks readable; UB must fail the test, not print and go on.
add_compile_options(-fsanitize=${HAEC_SANITIZE} -fno-omit-frame-pointer)
if(HAEC_SANITIZE MATCHES "undefined")
  add_compile_options(-fno-sanitize-recover=undefined)
endif()
add_link_options(-fsanitize=${HAEC_SANITIZE})

# ASan's runtime must come first in the process; smpirun's programs (smpireplaymain, smpicc
# apps) are not linked with it, so whoever preloads libhaec_suite.so must preload it first.
# `haec run` does so by itself with this path (HAEC_SANITIZER_PRELOAD, see tools/haec/cmd_run.cpp).
set(HAEC_SANITIZER_RUNTIME "")
if(HAEC_SANITIZE MATCHES "address")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(_haec_asan_name libasan.so)
  else() # clang: the shared runtime (clang links the static one into executables by default)
    add_link_options(-shared-libsan)
    set(_haec_asan_name libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so)
  endif()
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_haec_asan_name}
                  OUTPUT_VARIABLE HAEC_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${HAEC_SANITIZER_RUNTIME}" OR NOT EXISTS "${HAEC_SANITIZER_RUNTIME}")
    message(FATAL_ERROR "HAEC_SANITIZE=${HAEC_SANITIZE}: cannot find ${_haec_asan_name} "
                        "(${CMAKE_CXX_COMPILER} -print-file-name gave '${HAEC_SANITIZER_RUNTIME}')")
  endif()
  add_compile_definitions(HAEC_SANITIZER_PRELOAD="${HAEC_SANITIZER_RUNTIME}")
endif()
message(STATUS "Sanitizers: ${HAEC_SANITIZE}; runtime to preload: ${HAEC_SANITIZER_RUNTIME}")

# build-asan/sanitizers/smpirun: a static launcher (LD_PRELOAD cannot load our instrumented suite
# into it) for tests/sanitizers/smpirun-asan.sh; scripts/test-asan.sh puts it first in PATH.
if(HAEC_SANITIZER_RUNTIME)
  add_executable(haec_asan_smpirun ${PROJECT_SOURCE_DIR}/tests/sanitizers/smpirun_launcher.c)
  set_target_properties(haec_asan_smpirun PROPERTIES
    OUTPUT_NAME smpirun RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/sanitizers
    COMPILE_OPTIONS "-Wall;-Wextra" LINK_OPTIONS "-static")
  target_compile_definitions(haec_asan_smpirun PRIVATE
    HAEC_SMPIRUN_ASAN_SCRIPT="${PROJECT_SOURCE_DIR}/tests/sanitizers/smpirun-asan.sh")
  # (HAEC_SANITIZER_PRELOAD, the runtime's path, reaches it through add_compile_definitions above.)
  # Tests find it before SimGrid's smpirun, which it runs (tests get SimGrid's bin/ first in PATH).
  list(APPEND HAEC_TEST_PATH "PATH=path_list_prepend:${CMAKE_BINARY_DIR}/sanitizers")
endif()
