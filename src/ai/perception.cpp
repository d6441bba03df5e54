#include "ai/perception.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

#include <glm/geometric.hpp>

namespace murmur::ai {
namespace {

glm::vec3 inWorld(const PerceptionWorld& world, glm::vec3 point) {
  if (world.dims == 2) point.y = 0.0f;
  return point;
}

}  // namespace

std::string_view toString(Sight sight) {
  switch (sight) {
    case Sight::Seen:
      return "seen";
    case Sight::TooFar:
      return "too far";
    case Sight::OutsideCone:
      return "outside cone";
    case Sight::Occluded:
      return "occluded";
  }
  return "unknown";
}

std::string_view toString(Hearing hearing) {
  switch (hearing) {
    case Hearing::Heard:
      return "heard";
    case Hearing::TooQuiet:
      return "too quiet";
    case Hearing::TooFar:
      return "too far";
  }
  return "unknown";
}

bool inViewCone(const glm::vec3& forward, const glm::vec3& toTarget, float halfAngle) {
  assert(glm::length(forward) > 0.0f && "inViewCone: forward must be non-zero");
  if (halfAngle >= std::numbers::pi_v<float>) return true;
  const float distance = glm::length(toTarget);
  if (distance == 0.0f) return true;
  return glm::dot(glm::normalize(forward), toTarget) >= distance * std::cos(halfAngle);
}

bool segmentHitsSphere(const glm::vec3& a, const glm::vec3& b, const sim::Obstacle& sphere) {
  const glm::vec3 ab = b - a;
  const float lengthSquared = glm::dot(ab, ab);
  // The point of the segment closest to the centre.
  const float t =
      lengthSquared > 0.0f ? std::clamp(glm::dot(sphere.center - a, ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
  const glm::vec3 offset = a + t * ab - sphere.center;
  return glm::dot(offset, offset) < sphere.radius * sphere.radius;
}

bool lineOfSightClear(const PerceptionWorld& world, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 from = inWorld(world, a);
  const glm::vec3 to = inWorld(world, b);
  for (const sim::Obstacle& obstacle : world.obstacles) {
    const sim::Obstacle sphere{inWorld(world, obstacle.center), obstacle.radius};
    if (segmentHitsSphere(from, to, sphere)) return false;
  }
  return world.grid == nullptr || segmentClear(*world.grid, world.placement, from, to);
}

Sight see(const PerceptionWorld& world, const SightParams& params, const glm::vec3& eye,
          const glm::vec3& forward, const glm::vec3& target) {
  const glm::vec3 toTarget = inWorld(world, target) - inWorld(world, eye);
  if (glm::length(toTarget) > params.viewDistance) return Sight::TooFar;
  if (!inViewCone(inWorld(world, forward), toTarget, params.halfAngle)) return Sight::OutsideCone;
  if (!lineOfSightClear(world, eye, target)) return Sight::Occluded;
  return Sight::Seen;
}

Hearing hear(const PerceptionWorld& world, PathFinder* paths, const HearingParams& params,
             const glm::vec3& listener, const glm::vec3& source, float sourceSpeed) {
  if (!(sourceSpeed > params.loudSpeed)) return Hearing::TooQuiet;
  if (world.grid == nullptr) {
    const float distance = glm::length(inWorld(world, source) - inWorld(world, listener));
    return distance <= params.range ? Hearing::Heard : Hearing::TooFar;
  }
  if (paths == nullptr || &paths->map() != world.grid)
    throw std::invalid_argument("hear: paths must be a PathFinder on world.grid");
  const Cell from = cellAt(world.placement, listener);
  const Cell to = cellAt(world.placement, source);
  if (!world.grid->passable(from) || !world.grid->passable(to)) return Hearing::TooFar;
  SearchOptions options = searchOptions(Connectivity::Eight);
  options.maxLength = double(params.range) / double(world.placement.cellSize);
  const PathResult result = paths->findPath(from, to, options);
  return result.status == PathStatus::Found ? Hearing::Heard : Hearing::TooFar;
}

}  // namespace murmur::ai
