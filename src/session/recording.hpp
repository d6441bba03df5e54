#pragma once
// What a trajectory (record/trajectory.hpp) records of a world besides its frames: the scene as
// loaded, the build, the backend and device, the step, the box.
#include "record/trajectory.hpp"
#include "world/world.hpp"

namespace murmur::session {

record::TrajectoryInfo trajectoryInfo(const world::World& world);

}  // namespace murmur::session
