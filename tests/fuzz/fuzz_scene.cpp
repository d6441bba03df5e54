// Fuzzes the scene loader as the app loads scenes: TOML text -> parseScene (sim limits) with the
// sections of the modules above sim (session/scene_sections.hpp) -> the ai module's [navigation] and
// [[agents]], the render module's [render]. Bad input must be an InputError; anything else (a crash,
// a sanitizer report, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ai/scene_agents.hpp"
#include "core/error.hpp"
#include "render/scene_view.hpp"
#include "session/scene_sections.hpp"
#include "sim/scene_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const murmur::sim::Scene scene =
        murmur::sim::parseScene(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml",
                                murmur::session::kSceneSections);
    murmur::ai::loadSceneAgents(scene);
    murmur::render::readSceneView(scene);
  } catch (const murmur::InputError&) {
  }
  return 0;
}
