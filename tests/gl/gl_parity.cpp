// Bit-for-bit comparison of a GPU step with the CPU reference (see gl_test_env.hpp).
#include <fmt/format.h>

#include "gl_test_env.hpp"

namespace murmur::test {

bool bitwiseParityExpected() {
  return glContext().info().renderer.find("llvmpipe") != std::string::npos;
}

std::string bitwiseDifference(const sim::FlockState& reference, const sim::FlockState& candidate) {
  if (reference.size() != candidate.size())
    return fmt::format("{} boids against {}", candidate.size(), reference.size());
  // The stored headings (boids.turn_rate) exist on both sides or on neither.
  if (reference.heading.size() != candidate.heading.size())
    return fmt::format("{} stored headings against {}", candidate.heading.size(), reference.heading.size());
  // So do the lab's units' spins.
  if (reference.attitude.size() != candidate.attitude.size())
    return fmt::format("{} spins against {}", candidate.attitude.size(), reference.attitude.size());
  std::size_t differing = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const bool equal =
        reference.position[i] == candidate.position[i] && reference.velocity[i] == candidate.velocity[i] &&
        reference.group[i] == candidate.group[i] && reference.leader[i] == candidate.leader[i] &&
        (reference.heading.empty() || reference.heading[i] == candidate.heading[i]) &&
        (reference.attitude.empty() || reference.attitude[i] == candidate.attitude[i]);
    if (!equal && differing++ == 0) first = i;
  }
  if (differing == 0) return {};
  const auto hex = [](glm::vec3 v) { return fmt::format("({:a}, {:a}, {:a})", v.x, v.y, v.z); };
  return fmt::format(
      "{} of {} boids differ; first id {}: position {} against {}, velocity {} against {}, leader {} against "
      "{}",
      differing, reference.size(), first, hex(candidate.position[first]), hex(reference.position[first]),
      hex(candidate.velocity[first]), hex(reference.velocity[first]), candidate.leader[first],
      reference.leader[first]);
}

}  // namespace murmur::test
