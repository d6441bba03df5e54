# The release bundle test (CTest "Bundle"): builds the package with cpack, unpacks it into an empty
# directory under the system temp dir (away from the build tree), checks with readelf that every
# NEEDED library of every binary and bundled library is in the bundle's lib/ or on the host list of
# cmake/SystemLibraries.cmake, then runs `murmur --version`, `murmur devices` and a headless
# `murmur run` (gpu backend, the bundle's own scene), every scene of the source tree by name for a few
# steps (listed by `murmur scenes` and `murmur run --help`), and a short `murmur bench` with an A* row
# and a tiny flock row from there with an empty LD_LIBRARY_PATH and no MURMUR_DATA_DIR: the bundle needs
# no folder outside it.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DCPACK=... -DREADELF=... -P BundleTest.cmake
cmake_minimum_required(VERSION 3.25)
list(APPEND CMAKE_MODULE_PATH "${SOURCE_DIR}/cmake")
include(SystemLibraries)

function(check_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

string(RANDOM LENGTH 8 tag)
set(work "/tmp/murmur-bundle-test-${tag}")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}/package" "${work}/unpacked")

check_run("cpack" "${CPACK}" -G TGZ --config "${BUILD_DIR}/CPackConfig.cmake" -B "${work}/package")
file(GLOB tarballs "${work}/package/murmur-*-linux-*.tar.gz")
list(LENGTH tarballs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one murmur-<version>-linux-<arch>.tar.gz, found: ${tarballs}")
endif()
file(SIZE "${tarballs}" size)
math(EXPR size_mib "${size} / 1048576")
message(STATUS "bundle: ${tarballs} (${size_mib} MiB)")
file(ARCHIVE_EXTRACT INPUT "${tarballs}" DESTINATION "${work}/unpacked")
file(GLOB root LIST_DIRECTORIES true "${work}/unpacked/*")
set(bin "${root}/bin")
foreach(program murmur murmur_bench)
  if(NOT EXISTS "${bin}/${program}")
    message(FATAL_ERROR "the bundle has no bin/${program}")
  endif()
endforeach()
foreach(file share/murmur/scenes/free.toml share/murmur/bench/report.py share/doc/murmur/README.md)
  if(NOT EXISTS "${root}/${file}")
    message(FATAL_ERROR "the bundle has no ${file}")
  endif()
endforeach()

# Every NEEDED entry: bundled, or a host library.
file(GLOB bundled LIST_DIRECTORIES false RELATIVE "${root}/lib" "${root}/lib/*")
message(STATUS "bundled libraries: ${bundled}")
file(GLOB elves LIST_DIRECTORIES false "${bin}/*" "${root}/lib/*")
foreach(elf IN LISTS elves)
  check_run("readelf ${elf}" "${READELF}" -d "${elf}")
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]]+\\]" entries "${output}")
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE ".*\\[([^]]+)\\]" "\\1" needed "${entry}")
    set(allowed FALSE)
    if(needed IN_LIST bundled)
      set(allowed TRUE)
    endif()
    foreach(regex IN LISTS MURMUR_SYSTEM_LIBRARIES)
      if(needed MATCHES "${regex}")
        set(allowed TRUE)
      endif()
    endforeach()
    if(NOT allowed)
      message(FATAL_ERROR "${elf} needs ${needed}: neither in the bundle's lib/ nor a host library")
    endif()
  endforeach()
  if(elf MATCHES "/bin/" AND NOT output MATCHES "\\$ORIGIN/\\.\\./lib")
    message(FATAL_ERROR "${elf} has no RPATH/RUNPATH $ORIGIN/../lib:\n${output}")
  endif()
endforeach()

# Run from the unpacked bundle: no build tree, no LD_LIBRARY_PATH.
set(env "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH --unset=MURMUR_DATA_DIR LD_LIBRARY_PATH=)
check_run("murmur --version" ${env} "${bin}/murmur" --version)
if(NOT output MATCHES "^murmur [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit [^,]+, [A-Za-z]+ build\\)")
  message(FATAL_ERROR "unexpected murmur --version: ${output}")
endif()
check_run("murmur devices" ${env} "${bin}/murmur" devices)
execute_process(COMMAND ${env} "${bin}/murmur" run --scene "${root}/share/murmur/scenes/free.toml"
                        --boids 300 --steps 5 --backend gpu --json
                WORKING_DIRECTORY "${work}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"boids\":300" OR NOT out MATCHES "\"gl_device\":\\{\"vendor\"")
  message(FATAL_ERROR "headless murmur run from the bundle failed (${rc}):\n${out}\n${err}")
endif()
# Every scene of the source tree is in the bundle and runs from it by name (found in share/murmur/scenes
# from a working directory outside the bundle; maze2d's map comes from share/murmur/data), on the cpu
# backend for a few steps with a small flock (murmuration alone has 100,000 boids).
file(GLOB shipped RELATIVE "${SOURCE_DIR}/scenes" "${SOURCE_DIR}/scenes/*.toml")
file(GLOB bundled_scenes RELATIVE "${root}/share/murmur/scenes" "${root}/share/murmur/scenes/*.toml")
list(SORT shipped)
list(SORT bundled_scenes)
if(NOT shipped OR NOT shipped STREQUAL bundled_scenes)
  message(FATAL_ERROR "the bundle ships the scenes ${bundled_scenes}, the source tree has ${shipped}")
endif()
check_run("murmur scenes" ${env} "${bin}/murmur" scenes)
set(listing "\n${output}")  # each name after a line break, the first one too
check_run("murmur run --help" ${env} "${bin}/murmur" run --help)
set(run_help "${output}")
foreach(scene IN LISTS shipped)
  string(REGEX REPLACE "\\.toml$" "" name "${scene}")
  if(NOT listing MATCHES "\n${name} +[A-Z]" OR NOT run_help MATCHES "\n  ${name} +[A-Z]")
    message(FATAL_ERROR "${name} is not listed by murmur scenes or murmur run --help from the bundle:\n"
                        "${listing}\n${run_help}")
  endif()
  execute_process(COMMAND ${env} "${bin}/murmur" run --scene "${name}" --boids 200 --steps 3 --backend cpu
                          --json
                  WORKING_DIRECTORY "${work}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\"boids\":200" OR NOT out MATCHES "share/murmur/scenes/${scene}")
    message(FATAL_ERROR "murmur run --scene ${name} from the bundle failed (${rc}):\n${out}\n${err}")
  endif()
endforeach()
# murmur bench finds murmur_bench beside it, the report script under share/ and the A* maps in
# share/murmur/data: the A* rows run, with their ratio.
execute_process(COMMAND ${env} "${bin}/murmur" bench --quick --filter "^density/gpu/n:1000/|^BM_AStar.*/rooms_65_81"
                        --out "${work}/bench"
                WORKING_DIRECTORY "${work}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB results "${work}/bench/*.json")
if(NOT rc EQUAL 0 OR NOT results OR NOT out MATCHES "results  " OR NOT out MATCHES "A\\* is [0-9.]+x faster")
  message(FATAL_ERROR "murmur bench from the bundle failed (${rc}):\n${out}\n${err}")
endif()
file(REMOVE_RECURSE "${work}")
message(STATUS "bundle ok: ${size_mib} MiB")
