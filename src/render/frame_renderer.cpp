#include "render/frame_renderer.hpp"

#include <algorithm>

#include <glm/geometric.hpp>

namespace murmur::render {
namespace {

// Fog that hides about a sixth of the far side of the world box seen from the framing distance:
// enough to read depth, little enough to keep distant flocks visible.
constexpr float kFogPerWorldDiagonal = 0.35f;

}  // namespace

FrameRenderer::FrameRenderer(const gpu::ShaderLibrary& shaders)
    : sky_(shaders.graphics("render/Sky.vert.glsl", "render/Sky.frag.glsl", viewDefines())),
      overlay_(shaders),
      boids_(shaders),
      samples_(shaders) {
  setOverlay(Overlay{});
}

void FrameRenderer::setOverlay(const Overlay& overlay) {
  overlay_.set(overlay);
  raptorCount_ = static_cast<std::uint32_t>(overlay.raptors.size());
  if (raptorCount_ > 0) {
    sim::FlockState raptors;
    for (const Raptor& r : overlay.raptors) {
      raptors.position.push_back(r.position);
      raptors.velocity.push_back(r.velocity);
    }
    raptors.group.assign(raptorCount_, 0);
    raptors_.upload(raptors);
  }
  fogDensity_ = kFogPerWorldDiagonal / std::max(glm::length(overlay.worldMax - overlay.worldMin), 1.0f);
  halfWorld_ = 0.5f * (overlay.worldMax - overlay.worldMin);
}

void FrameRenderer::render(const Camera& camera, const BoidBuffers& boids, const FrameOptions& options) {
  view_.update(makeViewUniforms(camera, options.atmosphere, fogDensity_, options.palette));

  glViewport(0, 0, camera.width(), camera.height());
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glDepthMask(GL_TRUE);
  glClear(GL_DEPTH_BUFFER_BIT);

  // The sky covers every pixel, so the colour buffer needs no clear.
  glDisable(GL_DEPTH_TEST);
  sky_.use();
  skyArray_.bind();
  glDrawArrays(GL_TRIANGLES, 0, 3);

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  overlay_.drawShapes(options.overlay);
  boids_.draw(boids, options.boids);
  if (!options.overlay.markers && raptorCount_ > 0) {  // the predators as birds of prey, not glyphs
    BoidStyle raptor = options.boids;
    raptor.shape = BoidShape::Birds;
    raptor.size *= kRaptorScale;
    raptor.pointShare = 1.0f;
    boids_.draw(raptors_.buffers(), raptor);
  }

  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glDepthFunc(GL_LEQUAL);
  overlay_.drawLines(options.overlay);
  samples_.draw(options.aids, options.overlay, halfWorld_);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace murmur::render
