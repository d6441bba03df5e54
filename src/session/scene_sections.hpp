#pragma once
// The top-level sections of a scene file besides sim's own: those of the modules above sim, each
// declared beside the loader that reads it. The session module composes the modules, so it is the one
// that passes them to sim::loadScene (session/scene_source.hpp), for the command and the library alike.
#include <algorithm>
#include <array>
#include <iterator>

#include "ai/scene_agents.hpp"
#include "render/scene_view.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::session {

// ai's [navigation] and [[agents]], render's [render]. sim::loadScene refuses (std::invalid_argument)
// a list that names a section twice or one of sim's.
inline constexpr auto kSceneSections = [] {
  std::array<sim::SceneSection, std::size(ai::kSceneSections) + std::size(render::kSceneSections)> all{};
  std::copy(std::begin(render::kSceneSections), std::end(render::kSceneSections),
            std::copy(std::begin(ai::kSceneSections), std::end(ai::kSceneSections), all.begin()));
  return all;
}();

}  // namespace murmur::session
