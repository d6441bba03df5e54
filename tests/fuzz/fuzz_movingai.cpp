// Fuzzes the MovingAI readers (ai/movingai.hpp): the same bytes as a .map and as a .scen file (the first
// byte picks which, so that each corpus file exercises one of them).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "ai/movingai.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    if (size > 0 && data[0] == 't') murmur::ai::parseMovingAiMap(in, "fuzz.map");  // "type octile"
    else murmur::ai::parseMovingAiScenarios(in, "fuzz.scen");                     // "version 1"
  } catch (const murmur::InputError&) {
  }
  return 0;
}
