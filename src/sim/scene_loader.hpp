#pragma once
// Loading scene files (TOML). Every problem is an InputError naming file, line and key:
// unknown section or key, wrong type, out-of-range value. Defaults are model.md's.
#include <string>
#include <string_view>

#include "sim/scene.hpp"

namespace murmur::sim {

// Reads and validates the scene at path (missing or unreadable file: InputError).
Scene loadScene(const std::string& path);

// Parses scene text; sourceName is used in messages (and Scene::path).
Scene parseScene(std::string_view text, const std::string& sourceName);

// Checks the cross-field limits of a scene built in code or changed after loading (e.g. --boids);
// throws InputError with the scene's path and the offending key.
void validateScene(const Scene& scene);

}  // namespace murmur::sim
