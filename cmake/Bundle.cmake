# The release bundle: `cmake --install` and CPack (TGZ) lay out
#   bin/murmur, bin/murmur_bench        RPATH $ORIGIN/../lib
#   lib/                                every shared library they need beyond the host's (glibc, the
#                                       GL/EGL dispatch layer, X11: cmake/SystemLibraries.cmake),
#                                       found by CMake's runtime-dependency machinery
#   share/doc/murmur
# and the package's files (cmake/Package.cmake): the library, its headers, share/murmur.
# `cpack` in the build directory writes murmur-<version>-linux-x86_64.tar.gz.
include(SystemLibraries)

set_target_properties(murmur murmur_bench PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
install(TARGETS murmur murmur_bench RUNTIME_DEPENDENCY_SET murmur_runtime RUNTIME DESTINATION bin)

# PRE_EXCLUDE sees the names as NEEDED lists them; POST_EXCLUDE the resolved paths.
set(post_exclude "")
foreach(regex IN LISTS MURMUR_SYSTEM_LIBRARIES)
  string(REGEX REPLACE "^\\^" "/" regex "${regex}")
  list(APPEND post_exclude "${regex}")
endforeach()
install(RUNTIME_DEPENDENCY_SET murmur_runtime
        PRE_EXCLUDE_REGEXES ${MURMUR_SYSTEM_LIBRARIES}
        POST_EXCLUDE_REGEXES ${post_exclude}
        DIRECTORIES ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES}
        DESTINATION lib)

install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION share/doc/murmur)
install(FILES "${PROJECT_SOURCE_DIR}/bench/README.md" DESTINATION share/doc/murmur RENAME bench.md)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION share/doc/murmur/docs)

set(CPACK_GENERATOR TGZ)
set(CPACK_PACKAGE_NAME murmur)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_FILE_NAME "murmur-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_STRIP_FILES ON)
include(CPack)
