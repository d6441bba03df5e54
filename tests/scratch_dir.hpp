#pragma once
// A fresh directory for a test under the system temp dir, named by the test and the process (two
// suites running at once never share one). The process removes every one it made when it exits,
// unless a test failed: then they stay, named on stderr, for a look at what the tests left.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace murmur::test {

class ScratchDirs {
 public:
  static ScratchDirs& instance() {
    static ScratchDirs dirs;
    return dirs;
  }
  void add(const std::filesystem::path& dir) { dirs_.push_back(dir); }

  ScratchDirs(const ScratchDirs&) = delete;
  ScratchDirs& operator=(const ScratchDirs&) = delete;
  ~ScratchDirs() {
    if (::testing::UnitTest::GetInstance()->Failed()) {
      for (const auto& dir : dirs_) std::fprintf(stderr, "kept for the failed tests: %s\n", dir.c_str());
      return;
    }
    std::error_code ignored;  // a directory a test removed itself is fine
    for (const auto& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

 private:
  // Google Test's instance made first, so that it outlives this one, whose destructor asks it.
  ScratchDirs() { ::testing::UnitTest::GetInstance(); }
  std::vector<std::filesystem::path> dirs_;
};

inline std::filesystem::path scratchDir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("murmur_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ScratchDirs::instance().add(dir);
  return dir;
}

}  // namespace murmur::test
