# The installed package: `cmake --install build --prefix P` lays out
#   lib/libmurmur.so                      the library (every module inside, the shaders embedded;
#                                         only include/murmur's API exported)
#   include/murmur/                       its public headers
#   lib/cmake/Murmur/                     MurmurConfig.cmake, MurmurConfigVersion.cmake and the
#                                         exported target Murmur::murmur (find_package(Murmur))
#   lib/python3/dist-packages/murmur/     the Python module (python/CMakeLists.txt)
#   share/murmur/scenes, share/murmur/sweeps, share/murmur/data (the project's maps), share/murmur/bench/report.py,
#   share/murmur/sweep_report.py
# cmake/Bundle.cmake adds the executables and the release bundle's own libraries.
include(CMakePackageConfigHelpers)

install(TARGETS murmur_shared EXPORT MurmurTargets LIBRARY DESTINATION lib INCLUDES DESTINATION include)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/murmur" DESTINATION include)
install(EXPORT MurmurTargets NAMESPACE Murmur:: DESTINATION lib/cmake/Murmur)
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/MurmurConfig.cmake.in"
                              "${CMAKE_BINARY_DIR}/MurmurConfig.cmake" INSTALL_DESTINATION lib/cmake/Murmur)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/MurmurConfigVersion.cmake" VERSION "${PROJECT_VERSION}"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/MurmurConfig.cmake" "${CMAKE_BINARY_DIR}/MurmurConfigVersion.cmake"
        DESTINATION lib/cmake/Murmur)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenes/" DESTINATION share/murmur/scenes)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/sweeps/" DESTINATION share/murmur/sweeps)
install(PROGRAMS "${PROJECT_SOURCE_DIR}/scripts/sweep_report.py" DESTINATION share/murmur)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/data/" DESTINATION share/murmur/data)
install(FILES "${PROJECT_SOURCE_DIR}/bench/report.py" DESTINATION share/murmur/bench
        PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
