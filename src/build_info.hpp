#pragma once
// What a binary was built from (cmake/BuildInfo.cmake generates the definitions at build time):
// `murmur --version`, the benchmark results' context.
#include <string_view>

namespace murmur {

std::string_view buildVersion();  // the project version: "0.1.0"
std::string_view buildCommit();   // `git describe --always --dirty --tags`, or "unknown"
std::string_view buildType();     // CMake's build type: "Release", "Debug", ...

}  // namespace murmur
