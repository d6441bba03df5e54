// Fuzzes the scene loader: TOML text -> parseScene (sim limits) -> the ai module's [navigation] and
// [[agents]]. Bad input must be an InputError; anything else (a crash, a sanitizer report, another
// exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ai/scene_agents.hpp"
#include "core/error.hpp"
#include "sim/scene_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const murmur::sim::Scene scene =
        murmur::sim::parseScene(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
    murmur::ai::loadSceneAgents(scene);
  } catch (const murmur::InputError&) {
  }
  return 0;
}
