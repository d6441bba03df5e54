#pragma once
// A fresh directory for a test under the system temp dir, named by the test and the process (two
// suites running at once never share one).
#include <unistd.h>

#include <filesystem>
#include <string>

namespace murmur::test {

inline std::filesystem::path scratchDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("murmur_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace murmur::test
