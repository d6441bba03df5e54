#pragma once
// The [render] section of a scene file: how the scene wants to be looked at. Every key is optional;
// unknown keys are errors, like everywhere in a scene.
//
//   [render]
//   camera_yaw = 32           # degrees about +y; 0 looks from +z (2D worlds: 0, -z up)
//   camera_pitch = 18         # degrees above the horizontal plane (2D worlds: 90, straight down)
//   projection = "perspective" # or "orthographic" (the default for 2D worlds)
//   camera_distance = 0       # units from the target; 0 frames the whole world box
//   camera_target = [0, 0, 0] # default: where the world box is centred on the screen
//   fov = 50                  # vertical field of view, degrees
//   boid_shape = "auto"       # "birds", "points" or "auto" (points beyond 500,000 boids)
//   boid_size = 0             # units: a bird's length; 0: 3.2 x boids.radius
//   camera = "follow"         # headless frames and videos: "fixed", "follow" (frame the flock as it
//                             # moves) or "orbit" (follow and turn about it); 2D worlds: "fixed"
//   colour = "silhouette"     # "group", "heading", "speed" or "silhouette" (default: group for
//                             # several groups, else silhouette; heading in 2D worlds)
//   leaders = "light"         # by group: "red" (the default of 2D worlds) or "light"
//   sky = "dusk"              # or "day" (the default of 2D worlds)
//   show_stats = true         # headless frames: the step, boid count and backend in a corner
//   show_box = false          # and show_grid (both default true in 2D worlds), show_obstacles,
//                             # show_markers, show_paths, show_senses
//   show_trails = false       # trails of past positions: the agents' and trail_boids boids'
//   trail_length = 40         # samples a trail keeps (2..10000)
//   trail_every = 5           # steps from one sample to the next (1..100000)
//   trail_boids = 24          # boids with a trail (0..4096: boid ids 0, k, 2k, ...)
//   show_vectors = false      # the lab's ShowVectors: velocity (green) and steering force (black)
//   vector_boids = 24         # of the agents and of this many boids (0..4096)
#include <optional>

#include <glm/vec3.hpp>

#include "render/boid_renderer.hpp"
#include "render/boid_samples.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "sim/scene.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::render {

// The top-level section of a scene file that readSceneView reads: sim::loadScene accepts it when given
// this (the program passes it with the other modules' sections: session/scene_sections.hpp).
inline constexpr sim::SceneSection kSceneSections[] = {{"render", false}};

// How headless frames and videos move the camera; in the window, Follow and Orbit start the camera
// following the flock's centre (the mouse still turns and zooms it).
enum class CameraMotion {
  Fixed,   // as the scene's camera keys set it
  Follow,  // glides (half a second behind) to frame the flock as it moves and spreads
  Orbit,   // follows, and turns about the flock at kOrbitDegreesPerSecond of simulated time
  // Stands on the ground (camera_target's x and z, the world's centre by default, kGroundEyeHeight
  // above the world's floor) and looks up at the flock it follows, as people film starlings.
  Ground,
};
inline constexpr float kGroundEyeHeight = 1.7f;
inline constexpr float kOrbitDegreesPerSecond = 6.0f;

struct SceneView {
  float yawDegrees = 32.0f;    // flat (2D) worlds default to 0
  float pitchDegrees = 18.0f;  // flat (2D) worlds default to 90: seen from straight above
  bool orthographic = false;   // flat (2D) worlds default to true
  float distance = 0.0f;
  std::optional<glm::vec3> target;  // none: centred on the world box's outline
  float fovDegrees = 50.0f;
  CameraMotion cameraMotion = CameraMotion::Fixed;
  BoidStyle boids;
  OverlayStyle overlay;
  AidStyle aids;  // trails and vectors (overlay.trails and overlay.vectors switch them)
  // kGroupPalette, with the flocking lab's colours for the scene's chase (blue) and intercept
  // (magenta) groups when every group has its own entry (at most kGroupPalette.size() groups).
  GroupPalette palette = kGroupPalette;
  Sky sky = Sky::Day;
  bool showStats = true;  // the text overlay of headless frames
};

// A bird's length when [render] boid_size does not say: 3.2 x boids.radius (birds about as close as
// the separation distance keeps them), else 0.32 x the perception radius.
float defaultBodyLength(const sim::ModelParams& model);

// Reads scene.document's [render] section (defaults for a scene built in code or without one; a
// loaded scene has one only when sim::loadScene was given kSceneSections).
// Throws murmur::InputError naming the file, line and key of a bad value or an unknown key.
SceneView readSceneView(const sim::Scene& scene);

// The frame options the view asks for (boid style, overlay, aids, palette, sky); the atmosphere's
// time and fog limit keep their defaults.
FrameOptions frameOptions(const SceneView& view);

// The camera the view asks for, with a viewport of width x height, framed right of leftInset pixels
// (Camera::setLeftInset).
Camera sceneCamera(const SceneView& view, const sim::ModelParams& model, int width, int height,
                   int leftInset = 0);

}  // namespace murmur::render
