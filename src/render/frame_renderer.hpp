#pragma once
// A whole frame: the sky, the overlay (world box, grid, obstacles, markers, paths) and the flock,
// depth tested, into whatever framebuffer is bound (an OffscreenTarget, a window).
#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/boid_renderer.hpp"
#include "render/camera.hpp"
#include "render/overlay.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {

struct FrameOptions {
  BoidStyle boids;
  OverlayStyle overlay;
  Atmosphere atmosphere;
  GroupPalette palette = kGroupPalette;  // the boids' group colours
};

class FrameRenderer {
 public:
  // Compiles the render programs (throws gpu::ShaderError); needs a current GL context.
  explicit FrameRenderer(const gpu::ShaderLibrary& shaders);

  // The overlay, kept until the next call; the fog thickens with the size of its world box.
  void setOverlay(const Overlay& overlay);

  // Draws into the bound draw framebuffer over the camera's viewport (0, 0, width, height).
  // Leaves blending off and the depth test on.
  void render(const Camera& camera, const BoidBuffers& boids, const FrameOptions& options);

 private:
  ViewUniformBuffer view_;
  gpu::Program sky_;
  gpu::VertexArray skyArray_{"sky"};
  OverlayRenderer overlay_;
  BoidRenderer boids_;
  float fogDensity_ = 0.0f;
};

}  // namespace murmur::render
