#include "ai/motion.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/rules.hpp"

namespace murmur::ai {

glm::vec3 containment(const Vehicle& vehicle, const AgentSpace& space) {
  return sim::containmentPush(vehicle.position, space.worldMin, space.worldMax, space.margin,
                              vehicle.maxSpeed, space.dims);
}

void moveVehicle(Vehicle& vehicle, glm::vec3& heading, const glm::vec3& steering, float dt,
                 const AgentSpace& space) {
  constexpr float kStopped = 1e-6f;  // slower than this keeps the old heading
  applySteering(vehicle, steering, dt, space.dims);
  advanceVehicle(vehicle, dt, space);
  const float speed = glm::length(vehicle.velocity);
  if (speed > kStopped) heading = vehicle.velocity / speed;
}

void advanceVehicle(Vehicle& vehicle, float dt, const AgentSpace& space, bool wraps) {
  const glm::vec3 from = vehicle.position;
  glm::vec3 to = from + vehicle.velocity * dt;
  for (int axis = 0; axis < 3; ++axis) {
    if (space.dims == 2 && axis == 1) continue;
    if (wraps) {
      to[axis] = sim::wrapCoordinate(to[axis], space.worldMin[axis], space.worldMax[axis]);
    } else if (to[axis] < space.worldMin[axis] || to[axis] > space.worldMax[axis]) {
      to[axis] = std::clamp(to[axis], space.worldMin[axis], space.worldMax[axis]);
      vehicle.velocity[axis] = 0.0f;
    }
  }
  if (space.navigation) {
    const NavigationGrid& navigation = *space.navigation;
    const auto clear = [&](const glm::vec3& point) {
      return segmentClear(navigation.map, navigation.placement, from, point);
    };
    if (!clear(to)) {
      const glm::vec3 alongX(to.x, to.y, from.z);
      const glm::vec3 alongZ(from.x, to.y, to.z);
      const bool xFirst = std::abs(vehicle.velocity.x) >= std::abs(vehicle.velocity.z);
      const glm::vec3& first = xFirst ? alongX : alongZ;
      const glm::vec3& second = xFirst ? alongZ : alongX;
      const int firstDropped = xFirst ? 2 : 0;
      if (clear(first)) {
        to = first;
        vehicle.velocity[firstDropped] = 0.0f;
      } else if (clear(second)) {
        to = second;
        vehicle.velocity[2 - firstDropped] = 0.0f;
      } else {
        to = glm::vec3(from.x, to.y, from.z);
        vehicle.velocity.x = 0.0f;
        vehicle.velocity.z = 0.0f;
      }
    }
  }
  vehicle.position = to;
}

}  // namespace murmur::ai
