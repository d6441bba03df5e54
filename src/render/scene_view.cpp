#include "render/scene_view.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include <glm/trigonometric.hpp>

#include "sim/scene_toml.hpp"

namespace murmur::render {

float defaultBodyLength(const sim::ModelParams& model) {
  return model.radius > 0.0f ? 3.2f * model.radius : 0.32f * model.perceptionRadius;
}

namespace {

// An integer key between lo and hi.
std::uint32_t count(sim::TableReader& r, std::string_view key, std::uint32_t fallback, std::uint32_t lo,
                    std::uint32_t hi) {
  const std::int64_t value = r.integer(key, fallback);
  if (value < lo || value > hi) r.fail(key, fmt::format("must be an integer from {} to {}", lo, hi));
  return static_cast<std::uint32_t>(value);
}

// ShowVectors' lines: kVectorBodyLengths birds long at max_speed, and at max_force.
void scaleVectors(SceneView& view, const sim::ModelParams& model) {
  const float length = kVectorBodyLengths * view.boids.size;
  view.aids.velocityScale = model.maxSpeed > 0.0f ? length / model.maxSpeed : 1.0f;
  view.aids.forceScale = model.maxForce > 0.0f ? length / model.maxForce : 1.0f;
}

}  // namespace

SceneView readSceneView(const sim::Scene& scene) {
  SceneView view;
  // A 2D flock is read from above, without perspective: walls never hide boids.
  const bool flat = scene.model.dims == 2;
  view.pitchDegrees = flat ? 90.0f : view.pitchDegrees;
  view.yawDegrees = flat ? 0.0f : view.yawDegrees;  // north (-z) up, as a map is drawn
  view.orthographic = flat;
  // A 3D flock is filmed as people film starlings: dark birds against a dusk sky, the camera on the
  // flock rather than on an empty box and grid. Several groups keep their colours; a 2D map keeps its
  // day look, and one group there is coloured by heading, which shows where its streams go.
  view.boids.colouring = scene.groups > 1 ? BoidColouring::Group
                         : flat           ? BoidColouring::Heading
                                          : BoidColouring::Silhouette;
  view.sky = flat ? Sky::Day : Sky::Dusk;
  view.overlay.box = flat;
  view.overlay.grid = flat;
  view.cameraMotion = flat ? CameraMotion::Fixed : CameraMotion::Follow;
  // The flocking lab (2D) marks its few leaders in red; a 3D flock may have many, and red ones
  // would swamp the group colours, so they are lit up instead.
  view.boids.leaderMark = flat ? LeaderMark::Red : LeaderMark::Light;
  if (scene.groups <= view.palette.size())
    for (const sim::GroupSpec& spec : scene.groupSpecs) {
      if (spec.steering.role == sim::GroupRole::Chase) view.palette[spec.group] = kChaserColour;
      if (spec.steering.role == sim::GroupRole::Intercept) view.palette[spec.group] = kInterceptorColour;
    }
  view.boids.speedLow = scene.model.minSpeed;
  view.boids.speedHigh = scene.model.maxSpeed;
  view.boids.size = defaultBodyLength(scene.model);
  if (!scene.document) {
    scaleVectors(view, scene.model);
    return view;
  }
  sim::TableReader root(scene.document->path, scene.document->root, "");
  std::optional<sim::TableReader> section = root.table("render");
  if (!section) return view;
  sim::TableReader& r = *section;
  view.yawDegrees = static_cast<float>(r.number("camera_yaw", view.yawDegrees));
  view.pitchDegrees = static_cast<float>(r.number("camera_pitch", view.pitchDegrees));
  if (view.pitchDegrees < -90.0 || view.pitchDegrees > 90.0)
    r.fail("camera_pitch", "must be between -90 and 90");
  view.orthographic =
      r.choice("projection", {{"perspective", false}, {"orthographic", true}}, view.orthographic);
  view.distance = static_cast<float>(r.number("camera_distance", 0.0));
  if (view.distance < 0.0f) r.fail("camera_distance", "must be >= 0 (0: frame the world box)");
  // The reader only returns finite numbers: a NaN can only be the fallback, the key's absence.
  const float absent = std::numeric_limits<float>::quiet_NaN();
  if (const glm::vec3 target = r.vec3("camera_target", glm::vec3(absent)); !std::isnan(target.x))
    view.target = target;
  view.fovDegrees = static_cast<float>(r.number("fov", view.fovDegrees));
  view.cameraMotion = r.choice("camera",
                               {{"fixed", CameraMotion::Fixed},
                                {"follow", CameraMotion::Follow},
                                {"orbit", CameraMotion::Orbit},
                                {"ground", CameraMotion::Ground}},
                               view.cameraMotion);
  if (view.fovDegrees < 5.0f || view.fovDegrees > 150.0f) r.fail("fov", "must be between 5 and 150 degrees");
  view.boids.shape = r.choice(
      "boid_shape", {{"auto", BoidShape::Auto}, {"birds", BoidShape::Birds}, {"points", BoidShape::Points}},
      view.boids.shape);
  const double size = r.number("boid_size", 0.0);
  if (size < 0.0) r.fail("boid_size", "must be >= 0 (0: from boids.radius)");
  if (size > 0.0) view.boids.size = static_cast<float>(size);
  view.boids.colouring = r.choice("colour",
                                  {{"group", BoidColouring::Group},
                                   {"heading", BoidColouring::Heading},
                                   {"speed", BoidColouring::Speed},
                                   {"silhouette", BoidColouring::Silhouette}},
                                  view.boids.colouring);
  view.boids.leaderMark =
      r.choice("leaders", {{"red", LeaderMark::Red}, {"light", LeaderMark::Light}}, view.boids.leaderMark);
  view.sky = r.choice("sky", {{"day", Sky::Day}, {"dusk", Sky::Dusk}}, view.sky);
  view.showStats = r.boolean("show_stats", view.showStats);
  view.overlay.box = r.boolean("show_box", view.overlay.box);
  view.overlay.grid = r.boolean("show_grid", view.overlay.grid);
  view.overlay.obstacles = r.boolean("show_obstacles", view.overlay.obstacles);
  view.overlay.markers = r.boolean("show_markers", view.overlay.markers);
  view.overlay.paths = r.boolean("show_paths", view.overlay.paths);
  view.overlay.senses = r.boolean("show_senses", view.overlay.senses);
  view.overlay.trails = r.boolean("show_trails", view.overlay.trails);
  view.aids.trailLength = count(r, "trail_length", view.aids.trailLength, 2, 10'000);
  view.aids.trailEvery = count(r, "trail_every", view.aids.trailEvery, 1, 100'000);
  view.aids.trailBoids = count(r, "trail_boids", view.aids.trailBoids, 0, kMaxAidBoids);
  view.overlay.vectors = r.boolean("show_vectors", view.overlay.vectors);
  view.aids.vectorBoids = count(r, "vector_boids", view.aids.vectorBoids, 0, kMaxAidBoids);
  r.finish();
  scaleVectors(view, scene.model);
  return view;
}

FrameOptions frameOptions(const SceneView& view) {
  FrameOptions options;
  options.boids = view.boids;
  options.overlay = view.overlay;
  options.aids = view.aids;
  options.palette = view.palette;
  options.atmosphere.sky = view.sky;
  return options;
}

Camera sceneCamera(const SceneView& view, const sim::ModelParams& model, int width, int height,
                   int leftInset) {
  Camera camera;
  camera.setViewport(width, height);
  camera.setLeftInset(leftInset);
  camera.setFieldOfView(view.fovDegrees);
  camera.setOrthographic(view.orthographic);
  camera.setOrbit(camera.target(), camera.distance(), glm::radians(view.yawDegrees),
                  glm::radians(view.pitchDegrees));
  camera.frameBox(model.worldMin, model.worldMax);
  camera.setOrbit(view.target.value_or(camera.target()),
                  view.distance > 0.0f ? view.distance : camera.distance(), camera.yaw(), camera.pitch());
  return camera;
}

}  // namespace murmur::render
