#pragma once
// A world (its flock on a backend, the scene's CPU agents that steer it) with the scene's view, the
// renderer that draws it on a GL context, and the camera framing it: what the demo's window and
// headless modes and the library (include/murmur) step and draw.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/context.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"
#include "render/overlay.hpp"
#include "render/png_writer.hpp"
#include "render/scene_view.hpp"
#include "session/scene_source.hpp"
#include "world/backend.hpp"
#include "world/world.hpp"

namespace murmur::session {

// The program's tags of every picture Murmur writes: its name and version, the build's commit.
std::vector<render::TextTag> programTags();

class Session {
 public:
  // Loads the scene, its [render] view and its agents (InputError on bad input), makes the backend
  // on `context` (which must be current and outlive the session; the gpu backend computes in it)
  // and the renderer.
  Session(const SceneOptions& scene, const std::string& backend, int device, gpu::Context& context);
  // The same on a backend made by the caller (on `context` when it is a gpu backend); without a
  // context, no renderer until attachContext().
  Session(const SceneOptions& scene, std::unique_ptr<world::FlockBackend> backend, int device,
          gpu::Context* context);

  // The renderer, made on `context` (current; it must outlive the session) for a session made
  // without one. Nothing when it has one.
  void attachContext(gpu::Context& context);
  bool canRender() const { return renderer_.has_value(); }

  // One fixed step (dt from the scene): the agents read the flock and move, then the boids.
  void step();
  // Draws the current state into the bound framebuffer with the session's camera and options
  // (std::logic_error without a renderer).
  void render();

  // The initial flock and agents again.
  void reset();
  // A new flock of `count` boids, spawned as the scene says (agents back at their start).
  void respawn(std::uint32_t count);
  // `state` as the initial flock (world::World::setInitial), agents back at their start.
  void setInitial(sim::FlockState state, const std::string& source);
  // Another scene: the world, the flock, the agents, the camera (InputError on a bad scene; nothing
  // changes then).
  void loadScene(const std::string& path);
  // Moves the flock to another backend (gpu, cpu, cpu-naive) with the state carried over.
  // InputError when that backend cannot be made; the current one stays.
  void switchBackend(std::string_view name);
  // The camera of the scene's [render] section again (by default: the whole world box in view), in
  // the part of the viewport right of the camera's left inset (what a panel leaves free).
  void frameWorld();
  // The camera turned as it is, moved to film the flock right of the camera's left inset: a sample
  // of its boids (sim::positionSampleRuns) fills kFlockFill of the view, leaving out kFlockTrim of
  // them at each side (a few strays do not shrink it). Sets the silhouette point share for that view.
  void frameFlock();
  // How the scene's view starts: the flock framed when its camera moves with the flock ([render]
  // camera = "follow" or "orbit", the default of 3D scenes), else the world.
  void frameScene();
  // The last framing again (the world, or the flock's box as it was then) for the camera's viewport
  // and inset as they are now: without reading the flock back, so without waiting for the GPU.
  void refitView();
  // One move of the scene's camera motion (render::CameraMotion) for a headless frame, `seconds`
  // of simulated time after the previous one (0: the first frame, which frames the flock at once),
  // and the share of silhouette points drawn for the new view (updatePointShare).
  void moveCamera(double seconds);
  // The share of silhouette points drawn (render::silhouettePointShare) for the view as it is now,
  // from a sample of the flock (a read-back on the gpu backend), approached as the following camera
  // approaches the flock, `seconds` after the last; nothing to do unless points are drawn as
  // silhouettes. frameFlock sets it at once.
  void updatePointShare(double seconds);

  world::World& world() { return world_; }
  const world::World& world() const { return world_; }
  const render::SceneView& view() const { return view_; }
  world::FlockBackend& backend() { return world_.backend(); }
  std::uint32_t boidCount() const { return static_cast<std::uint32_t>(world_.initial().size()); }
  std::uint64_t steps() const { return steps_; }            // since the flock (re)started
  std::uint64_t totalSteps() const { return totalSteps_; }  // over the whole session
  std::size_t agentCount() const { return world_.director() ? world_.director()->size() : 0; }
  double lastStepMilliseconds() const { return lastStepMs_; }
  render::Camera& camera() { return camera_; }
  render::FrameOptions& frameOptions() { return options_; }
  const render::FrameOptions& frameOptions() const { return options_; }
  bool hasPredator() const;
  // The agents' state labels of the overlay drawn last (for drawAgentLabels).
  const std::vector<render::Label>& labels() const { return labels_; }
  // The context the session draws on (std::logic_error without one).
  const gpu::ContextInfo& contextInfo() const;
  // What --backend auto chose and why, for the demo to print once its checks passed; empty for a
  // named backend.
  const std::string& autoChoice() const { return autoChoice_; }
  // DescribedWorld::countNote of the scene loaded first.
  const std::string& countNote() const { return countNote_; }
  // What made the picture of this step: the program, its commit, the scene file, seed, step,
  // backend and boid count (the PNG frames' text chunks, the videos' metadata).
  std::vector<render::TextTag> pictureTags() const;
  // Writes the scene as it runs (sim::savedSceneText: the parameters as the panel left them, the
  // count, the seed; a map beside the scene named by its absolute path) to path, with the output
  // discipline; a comment line first says what made it. InputError naming `option` for a bad path
  // or a scene built in code.
  void saveScene(const std::string& path, const std::string& option) const;

 private:
  // The backend first (its kind sets the count of a scene with boids.gpu_count), then the world.
  struct Start {
    std::unique_ptr<world::FlockBackend> backend;
    std::string autoChoice;
    DescribedWorld described;
  };
  static Start start(const SceneOptions& scene, const std::string& backend, int device,
                     gpu::Context& context);
  static Start start(const SceneOptions& scene, std::unique_ptr<world::FlockBackend> backend);
  Session(Start start, const SceneOptions& scene, int device, gpu::Context* context);
  // After the world (re)loaded: the flock at its start, view_'s boid style and overlay options,
  // its camera on the world.
  void startView();
  // The flock is at its start again: no steps, the overlay and the host buffers out of date.
  void flockRestarted();
  // The overlay of the scene with the agents where they are now.
  void updateOverlay();
  // After a step: the agents' trail points and velocities, the sampled boids (render::BoidSamples)
  // as the frame options' trails and vectors ask.
  void sampleAids();
  render::BoidBuffers boidBuffers();

  gpu::Context* context_;  // null until attachContext() for a session made without one
  int device_;
  int threads_;                        // --threads, for the backends switched to later
  std::vector<std::string> dataDirs_;  // --data-dir, for the scenes loaded later
  render::SceneView view_;             // the scene's [render] section
  std::string autoChoice_;  // what --backend auto chose and why (before world_: filled as it is made)
  std::string countNote_;
  world::World world_;
  std::uint64_t steps_ = 0;
  std::uint64_t totalSteps_ = 0;
  double lastStepMs_ = 0.0;
  gpu::ShaderLibrary shaders_;
  std::optional<render::FrameRenderer> renderer_;
  bool overlayCurrent_ = false;  // agents move every step
  std::vector<render::Label> labels_;
  // Per agent: its trail, newest point first (sampled last at agentTrailStep_), and its velocity of
  // the step before (the force of ShowVectors is the change over the step) and the step it was
  // taken at.
  std::vector<std::vector<glm::vec3>> agentTrails_;
  std::uint64_t agentTrailStep_ = 0;
  std::vector<glm::vec3> agentVelocities_;
  std::vector<glm::vec3> agentForces_;
  std::uint64_t agentVelocityStep_ = 0;
  render::HostBoidBuffers hostBuffers_;  // the state of a cpu backend, uploaded when it changed
  bool hostBuffersCurrent_ = false;
  render::Camera camera_;
  // What frameFlock fitted last (render::Camera::framePoints' points); none: the world.
  std::optional<std::vector<glm::vec3>> framedFlock_;
  // The share for the view from `sample`, `keep` of the old one kept.
  void setPointShare(const std::vector<glm::vec3>& sample, float keep);
  // The following camera's move towards framing `sample`, `keep` of the old view kept.
  void follow(const std::vector<glm::vec3>& sample, double seconds, float keep);
  // With camera = "ground": the camera's eye moved to the spot on the ground, looking at its target.
  void standOnGround();
  render::FrameOptions options_;
};

}  // namespace murmur::session
