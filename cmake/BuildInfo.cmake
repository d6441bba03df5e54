# murmur_build_info(target): a static library with murmur::buildVersion(), buildCommit() and
# buildType() (src/build_info.hpp). The commit is `git describe --always --dirty --tags` taken at
# every build, not at configure time, so a binary never names a stale commit; the generated source
# is rewritten only when the text changes, so an unchanged tree relinks nothing. No source path
# goes into the binary.
function(murmur_build_info target)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/build_info.cpp")
  find_package(Git QUIET)
  add_custom_target(${target}_generate
    COMMAND ${CMAKE_COMMAND} "-DGIT=${GIT_EXECUTABLE}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
            "-DVERSION=${PROJECT_VERSION}" "-DBUILD_TYPE=$<CONFIG>" "-DOUT=${out}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/BuildInfoScript.cmake"
    BYPRODUCTS "${out}"
    COMMENT "Build info (version, commit, build type)"
    VERBATIM)
  add_library(${target} STATIC "${out}")
  add_dependencies(${target} ${target}_generate)
  target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}/src")
endfunction()
