cmake_minimum_required(VERSION 3.25)
# Fails when a binary holds a path string: the build's source directory must not be compiled into
# `murmur` (it finds its scenes, report.py and data from its own path: core/install_dirs.hpp). Run as
# a test:  cmake -DBINARY=<file> -DFORBIDDEN=<path> -DPRESENT=<a string it must hold> -P CheckNoSourcePath.cmake
# PRESENT proves that the search reads the binary's strings at all.
find_program(GREP grep REQUIRED)
function(occurrences text out)
  execute_process(COMMAND "${GREP}" -a -o -F -- "${text}" "${BINARY}" RESULT_VARIABLE rc OUTPUT_VARIABLE found)
  if(rc GREATER 1)
    message(FATAL_ERROR "grep failed (${rc}) on ${BINARY}")
  endif()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

occurrences("${PRESENT}" present)
if(present STREQUAL "")
  message(FATAL_ERROR "${BINARY} does not hold '${PRESENT}': the search cannot be trusted")
endif()
occurrences("${FORBIDDEN}" forbidden)
if(NOT forbidden STREQUAL "")
  execute_process(COMMAND "${GREP}" -a -o -E -- "[[:print:]]*${FORBIDDEN}[[:print:]]*" "${BINARY}"
                  OUTPUT_VARIABLE context)
  message(FATAL_ERROR "${BINARY} contains ${FORBIDDEN}:\n${context}")
endif()
message(STATUS "${BINARY} holds '${PRESENT}' and not ${FORBIDDEN}")
