// Fuzzes the MovingAI readers (ai/movingai.hpp) as `murmur path` reads them: the bytes in a regular
// file, read by loadMovingAiMap or loadMovingAiScenarios (core::InputFile, bounded lines). The first
// byte picks which, so that each corpus file exercises one of them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ai/movingai.hpp"
#include "core/error.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static murmur::fuzz::InputFileForFuzzing file;
  const std::string& path = file.write(data, size);
  try {
    if (size > 0 && data[0] == 't')
      murmur::ai::loadMovingAiMap(path);  // "type octile"
    else
      murmur::ai::loadMovingAiScenarios(path);  // "version 1"
  } catch (const murmur::InputError&) {
  }
  return 0;
}
