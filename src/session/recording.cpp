#include "session/recording.hpp"

#include <sstream>

#include <fmt/format.h>

#include "build_info.hpp"
#include "sim/scene_toml.hpp"

namespace murmur::session {

record::TrajectoryInfo trajectoryInfo(const world::World& world) {
  const sim::Scene& scene = world.scene();
  record::TrajectoryInfo info;
  info.scenePath = scene.path;
  if (scene.document) {  // the scene as loaded, in TOML (comments and layout are not kept)
    std::ostringstream text;
    text << scene.document->root;
    info.sceneText = text.str();
  }
  info.build = fmt::format("{} ({})", buildVersion(), buildCommit());
  info.backend = world.backend().name();
  info.device = world.backend().device();
  info.dt = scene.model.dt;
  info.worldMin = scene.model.worldMin;
  info.worldMax = scene.model.worldMax;
  info.periodic = scene.model.boundary == sim::Boundary::Wrap;
  info.twoD = scene.model.dims == 2;
  return info;
}

}  // namespace murmur::session
