#pragma once
// A whole frame: the sky, the overlay (world box, grid, obstacles, markers, paths), the flock and
// the sampled boids' trails and vectors, depth tested, into whatever framebuffer is bound (an
// OffscreenTarget, a window).
#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/boid_renderer.hpp"
#include "render/boid_samples.hpp"
#include "render/camera.hpp"
#include "render/overlay.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {

struct FrameOptions {
  BoidStyle boids;
  OverlayStyle overlay;
  Atmosphere atmosphere;
  GroupPalette palette = kGroupPalette;  // the boids' group colours
  AidStyle aids;                         // the sampled boids' trails and vectors (overlay.trails, .vectors)
};

class FrameRenderer {
 public:
  // Compiles the render programs (throws gpu::ShaderError); needs a current GL context.
  explicit FrameRenderer(const gpu::ShaderLibrary& shaders);

  // The overlay, kept until the next call; the fog thickens with the size of its world box.
  void setOverlay(const Overlay& overlay);

  // After a step (numbered `step` since the flock started; dt its length): samples `boids` for the
  // trails and vectors options.aids and options.overlay ask for (BoidSamples::wanted says when).
  void sampleBoids(const BoidBuffers& boids, std::uint64_t step, float dt, const FrameOptions& options) {
    samples_.sample(boids, step, dt, options.aids, options.overlay);
  }
  // Forgets the samples (the flock restarted).
  void clearSamples() { samples_.clear(); }

  // Draws into the bound draw framebuffer over the camera's viewport (0, 0, width, height).
  // Leaves blending off and the depth test on.
  void render(const Camera& camera, const BoidBuffers& boids, const FrameOptions& options);

 private:
  ViewUniformBuffer view_;
  gpu::Program sky_;
  gpu::VertexArray skyArray_{"sky"};
  OverlayRenderer overlay_;
  BoidRenderer boids_;
  HostBoidBuffers raptors_;  // Overlay::raptors
  std::uint32_t raptorCount_ = 0;
  BoidSamples samples_;
  float fogDensity_ = 0.0f;
  glm::vec3 halfWorld_{0.0f};
};

}  // namespace murmur::render
