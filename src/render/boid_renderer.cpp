#include "render/boid_renderer.hpp"

#include <algorithm>
#include <span>
#include <string>

#include <fmt/format.h>
#include <glm/vec4.hpp>

#include "render/meshes.hpp"
#include "render/palette.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {
namespace {

gpu::Defines boidDefines() {
  gpu::Defines defines = viewDefines();
  defines.insert(defines.end(),
                 {{"POSITION_BINDING", std::to_string(BoidRenderer::kPositionBinding)},
                  {"VELOCITY_BINDING", std::to_string(BoidRenderer::kVelocityBinding)},
                  {"GROUP_BINDING", std::to_string(BoidRenderer::kGroupBinding)},
                  {"GROUP_BUFFER", std::to_string(std::uint32_t(GroupSource::Buffer)) + "u"},
                  {"GROUP_POSITION_W", std::to_string(std::uint32_t(GroupSource::PositionW)) + "u"},
                  {"COLOUR_BY_GROUP", std::to_string(std::uint32_t(BoidColouring::Group)) + "u"},
                  {"COLOUR_BY_HEADING", std::to_string(std::uint32_t(BoidColouring::Heading)) + "u"},
                  {"COLOUR_BY_SPEED", std::to_string(std::uint32_t(BoidColouring::Speed)) + "u"},
                  {"COLOUR_SILHOUETTE", std::to_string(std::uint32_t(BoidColouring::Silhouette)) + "u"},
                  {"SILHOUETTE_COLOUR", fmt::format("vec3({}, {}, {})", kSilhouetteColour.r, kSilhouetteColour.g,
                                                    kSilhouetteColour.b)},
                  {"LEADER_RED", std::to_string(std::uint32_t(LeaderMark::Red)) + "u"}});
  return defines;
}

// Boids per draw: at most what one storage binding may address (or `asked`, when given), in whole
// multiples of the offset alignment so that every range after the first starts aligned too.
std::uint32_t boidsPerDraw(std::uint32_t asked) {
  GLint64 blockBytes = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &blockBytes);
  GLint alignment = 1;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  const std::int64_t granule = std::max<std::int64_t>(alignment / std::int64_t(sizeof(std::uint32_t)), 1);
  std::int64_t perDraw = blockBytes / std::int64_t(sizeof(glm::vec4));
  if (asked > 0) perDraw = std::min<std::int64_t>(perDraw, asked);
  return static_cast<std::uint32_t>(
      std::clamp<std::int64_t>(perDraw / granule * granule, granule, UINT32_MAX));
}

void bindArray(GLuint binding, GLuint buffer, GLintptr offset, std::size_t elementBytes, std::uint32_t first,
               std::uint32_t count, const gpu::Buffer& placeholder) {
  if (buffer == 0) {
    placeholder.bindBase(GL_SHADER_STORAGE_BUFFER, binding);
    return;
  }
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, buffer, offset + GLintptr(first * elementBytes),
                    GLsizeiptr(count * elementBytes));
}

}  // namespace

BoidRenderer::BoidRenderer(const gpu::ShaderLibrary& shaders, std::uint32_t maxBoidsPerDraw)
    : birds_(shaders.graphics("render/Boid.vert.glsl", "render/Boid.frag.glsl", boidDefines())),
      points_(shaders.graphics("render/BoidPoint.vert.glsl", "render/BoidPoint.frag.glsl", boidDefines())),
      placeholder_("boid placeholder", sizeof(glm::vec4)),
      drawParams_("boid draw constants", kDrawParamsBinding),
      maxBoidsPerDraw_(boidsPerDraw(maxBoidsPerDraw)) {
  const std::vector<MeshVertex> mesh = birdMesh();
  birdMesh_ = gpu::Buffer::fromSpan("bird mesh", std::span<const MeshVertex>(mesh), 0);
  birdVertices_ = static_cast<GLsizei>(mesh.size());
  glVertexArrayVertexBuffer(birdArray_.id(), 0, birdMesh_.id(), 0, sizeof(MeshVertex));
  glEnableVertexArrayAttrib(birdArray_.id(), 0);
  glVertexArrayAttribFormat(birdArray_.id(), 0, 4, GL_FLOAT, GL_FALSE, offsetof(MeshVertex, position));
  glVertexArrayAttribBinding(birdArray_.id(), 0, 0);
  glEnableVertexArrayAttrib(birdArray_.id(), 1);
  glVertexArrayAttribFormat(birdArray_.id(), 1, 3, GL_FLOAT, GL_FALSE, offsetof(MeshVertex, normal));
  glVertexArrayAttribBinding(birdArray_.id(), 1, 0);
  placeholder_.fill(0);
}

void BoidRenderer::draw(const BoidBuffers& boids, const BoidStyle& style) const {
  if (boids.count == 0) return;
  const bool points =
      style.shape == BoidShape::Points || (style.shape == BoidShape::Auto && boids.count > kMaxAutoBirds);
  const gpu::Program& program = points ? points_ : birds_;
  drawParams_.set({style.size, points ? style.minPointPixels : style.minBirdPixels,
                   static_cast<std::uint32_t>(boids.groupSource), std::uint32_t{boids.leaders},
                   static_cast<std::uint32_t>(style.colouring), style.speedLow,
                   std::max(style.speedHigh, style.speedLow + 1e-3f), static_cast<std::uint32_t>(style.leaderMark)});
  if (points) glEnable(GL_PROGRAM_POINT_SIZE);
  // Silhouette points are translucent (their coverage, BoidPoint.vert.glsl): blended over whatever
  // lies behind and not hiding each other, so that darkness grows with the birds along the line of
  // sight. One colour, so the order they are drawn in does not matter.
  const bool translucent = points && style.colouring == BoidColouring::Silhouette;
  if (translucent) {
    glEnable(GL_BLEND);
    // The frame's alpha stays opaque: frames and screenshots are read with it.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glDepthMask(GL_FALSE);
  }
  program.use();
  (points ? pointArray_ : birdArray_).bind();
  // Compute shaders may have just written the buffers.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  for (std::uint32_t first = 0; first < boids.count; first += maxBoidsPerDraw_) {
    const std::uint32_t n = std::min(maxBoidsPerDraw_, boids.count - first);
    bindArray(kPositionBinding, boids.position, boids.positionOffset, sizeof(glm::vec4), first, n,
              placeholder_);
    bindArray(kVelocityBinding, boids.velocity, boids.velocityOffset, sizeof(glm::vec4), first, n,
              placeholder_);
    const GLuint group = boids.groupSource == GroupSource::Buffer ? boids.group : 0;
    bindArray(kGroupBinding, group, boids.groupOffset, sizeof(std::uint32_t), first, n, placeholder_);
    if (points)
      glDrawArrays(GL_POINTS, 0, GLsizei(n));
    else
      glDrawArraysInstanced(GL_TRIANGLES, 0, birdVertices_, GLsizei(n));
  }
  glBindVertexArray(0);
  if (translucent) {
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
}

}  // namespace murmur::render
