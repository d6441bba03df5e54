#pragma once
// What the demo's window and headless modes share: the world, the backend that steps it, the
// renderer that draws it on the current GL context, and the camera framing it.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "app/backend.hpp"
#include "app/world.hpp"
#include "gpu/context.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"

namespace murmur::app {

class DemoSession {
 public:
  // Loads the scene (InputError on bad input), makes the backend on `context` (which must be
  // current and outlive the session; the gpu backend computes in it) and the renderer.
  DemoSession(const SceneOptions& scene, const std::string& backend, int device, gpu::Context& context);

  // One fixed step of the simulation (dt from the scene).
  void step();
  // Draws the current state into the bound framebuffer with the session's camera and options.
  void render();

  // The initial flock again.
  void reset();
  // A new flock of `count` boids, spawned as the scene says.
  void respawn(std::uint32_t count);
  // Another scene: the world, the flock, the camera (InputError on a bad scene; nothing changes then).
  void loadScene(const std::string& path);
  // Moves the flock to another backend (gpu, cpu, cpu-naive) with the state carried over.
  // InputError when that backend cannot be made; the current one stays.
  void switchBackend(std::string_view name);
  // Frames the whole world box again.
  void frameWorld();

  World& world() { return world_; }
  const World& world() const { return world_; }
  FlockBackend& backend() { return *backend_; }
  std::uint32_t boidCount() const { return count_; }
  std::uint64_t steps() const { return steps_; }
  double lastStepMilliseconds() const { return lastStepMs_; }
  render::Camera& camera() { return camera_; }
  render::FrameOptions& frameOptions() { return options_; }
  const gpu::ContextInfo& contextInfo() const { return context_.info(); }

 private:
  // Puts world_'s initial flock on the backend, its overlay in the renderer, the camera on it.
  void startWorld();
  render::BoidBuffers boidBuffers();

  gpu::Context& context_;
  int device_;
  World world_;
  std::unique_ptr<FlockBackend> backend_;
  std::uint32_t count_ = 0;
  std::uint64_t steps_ = 0;
  double lastStepMs_ = 0.0;
  gpu::ShaderLibrary shaders_;
  render::FrameRenderer renderer_;
  render::HostBoidBuffers hostBuffers_;  // the state of a cpu backend, uploaded when it changed
  bool hostBuffersCurrent_ = false;
  render::Camera camera_;
  render::FrameOptions options_;
};

}  // namespace murmur::app
