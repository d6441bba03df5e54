// MovingAI's benchmark maps are third-party and live outside the repository (README, Maps). The tests
// that check them read them from $MURMUR_DATA_DIR/movingai at run time; tests/CMakeLists.txt registers
// them only when the build was configured with MURMUR_DATA_DIR, and then a directory that is not there
// makes them fail, never skip.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace murmur::test {

inline std::filesystem::path movingAiDir() {
  const char* dir = std::getenv("MURMUR_DATA_DIR");
  return std::filesystem::path(dir != nullptr ? dir : "(MURMUR_DATA_DIR is not set)") / "movingai";
}

}  // namespace murmur::test
