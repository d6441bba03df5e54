#include "render/boid_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "render/meshes.hpp"
#include "render/palette.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {
namespace {

constexpr std::uint32_t kWorkgroupSize = 64;
constexpr std::uint32_t kListsWorkgroupSize = 256;  // BirdLists.comp.glsl: one workgroup
// BirdInstances.comp.glsl's two dispatches (uPhase).
constexpr std::uint32_t kCountPhase = 0;
constexpr std::uint32_t kWritePhase = 1;
// The vertices of birdMesh and farBirdMesh (non-indexed triangles).
const std::uint32_t kBirdVertices = std::uint32_t(birdMesh().size());
const std::uint32_t kFarBirdVertices = std::uint32_t(farBirdMesh().size());

gpu::Defines boidDefines() {
  gpu::Defines defines = viewDefines();
  defines.insert(defines.end(),
                 {{"POSITION_BINDING", std::to_string(BoidRenderer::kPositionBinding)},
                  {"INSTANCE_BINDING", std::to_string(BoidRenderer::kInstanceBinding)},
                  {"COMMAND_BINDING", std::to_string(BoidRenderer::kCommandBinding)},
                  {"MESH_BINDING", std::to_string(BoidRenderer::kMeshBinding)},
                  {"BIRD_VERTICES", std::to_string(kBirdVertices) + "u"},
                  {"FAR_BIRD_VERTICES", std::to_string(kFarBirdVertices) + "u"},
                  {"LISTS_BINDING", std::to_string(BoidRenderer::kListsBinding)},
                  {"WORKGROUP_SIZE", std::to_string(kWorkgroupSize)},
                  {"LISTS_WORKGROUP_SIZE", std::to_string(kListsWorkgroupSize)},
                  {"BIRD_COUNT", std::to_string(kCountPhase) + "u"},
                  {"BIRD_WRITE", std::to_string(kWritePhase) + "u"},
                  {"WING_LIFT", fmt::format("{}", kWingLift)},
                  {"BIRD_REACH", fmt::format("{}", kBirdReach)},
                  {"VELOCITY_BINDING", std::to_string(BoidRenderer::kVelocityBinding)},
                  {"GROUP_BINDING", std::to_string(BoidRenderer::kGroupBinding)},
                  {"SLOT_BINDING", std::to_string(BoidRenderer::kSlotBinding)},
                  {"BANK_BINDING", std::to_string(BoidRenderer::kBankBinding)},
                  {"GROUP_BUFFER", std::to_string(std::uint32_t(GroupSource::Buffer)) + "u"},
                  {"GROUP_POSITION_W", std::to_string(std::uint32_t(GroupSource::PositionW)) + "u"},
                  {"COLOUR_BY_GROUP", std::to_string(std::uint32_t(BoidColouring::Group)) + "u"},
                  {"COLOUR_BY_HEADING", std::to_string(std::uint32_t(BoidColouring::Heading)) + "u"},
                  {"COLOUR_BY_SPEED", std::to_string(std::uint32_t(BoidColouring::Speed)) + "u"},
                  {"COLOUR_SILHOUETTE", std::to_string(std::uint32_t(BoidColouring::Silhouette)) + "u"},
                  {"SILHOUETTE_COLOUR", fmt::format("vec3({}, {}, {})", kSilhouetteColour.r,
                                                    kSilhouetteColour.g, kSilhouetteColour.b)},
                  {"LEADER_RED", std::to_string(std::uint32_t(LeaderMark::Red)) + "u"},
                  {"BIRD_AREA_SHARE", fmt::format("{}", kBirdAreaShare)}});
  return defines;
}

// Boids per draw: at most what one storage binding may address (or `asked`, when given), in whole
// multiples of the offset alignment so that every range after the first starts aligned too. The
// largest array of a range is its instance records; its compute pass must fit one dispatch.
std::uint32_t boidsPerDraw(std::uint32_t asked) {
  GLint64 blockBytes = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &blockBytes);
  GLint alignment = 1;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  GLint groups = 0;
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
  const std::int64_t granule = std::max<std::int64_t>(alignment / std::int64_t(sizeof(std::uint32_t)), 1);
  std::int64_t perDraw = std::min<std::int64_t>(blockBytes / std::int64_t(sizeof(BirdInstance)),
                                                std::int64_t(groups) * kWorkgroupSize);
  if (asked > 0) perDraw = std::min<std::int64_t>(perDraw, asked);
  return static_cast<std::uint32_t>(
      std::clamp<std::int64_t>(perDraw / granule * granule, granule, UINT32_MAX));
}

// Calls f(range, first, n) for each range [first, first + n) of a flock of `count` boids drawn
// perDraw at a time.
template <class F>
void forEachRange(std::uint32_t count, std::uint32_t perDraw, const F& f) {
  for (std::uint32_t range = 0, first = 0; first < count; ++range, first += perDraw)
    f(range, first, std::min(perDraw, count - first));
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
    : instancer_(shaders.compute("render/BirdInstances.comp.glsl", boidDefines())),
      lists_(shaders.compute("render/BirdLists.comp.glsl", boidDefines())),
      birds_(shaders.graphics("render/Boid.vert.glsl", "render/Boid.frag.glsl", boidDefines())),
      farBirds_(shaders.graphics("render/FarBoid.vert.glsl", "render/FarBoid.frag.glsl", boidDefines())),
      points_(shaders.graphics("render/BoidPoint.vert.glsl", "render/BoidPoint.frag.glsl", boidDefines())),
      placeholder_("boid placeholder", sizeof(glm::vec4)),
      drawParams_("boid draw constants", kDrawParamsBinding),
      maxBoidsPerDraw_(boidsPerDraw(maxBoidsPerDraw)) {
  std::vector<BirdMeshVertex> meshes;
  for (const auto& mesh : {birdMesh(), farBirdMesh()})
    for (const MeshVertex& v : mesh)
      meshes.push_back({glm::vec4(v.position, v.wing), glm::vec4(v.normal, 0.0f)});
  birdMeshes_ = gpu::Buffer::fromSpan("bird meshes", std::span<const BirdMeshVertex>(meshes), 0);
  placeholder_.fill(0);
}

bool drawsPoints(const BoidStyle& style, std::size_t boids) {
  return style.shape == BoidShape::Points || (style.shape == BoidShape::Auto && boids > kMaxAutoBirds);
}

bool drawsSilhouettePoints(const BoidStyle& style, std::size_t boids) {
  return style.colouring == BoidColouring::Silhouette && drawsPoints(style, boids);
}

float silhouettePointShare(const Camera& camera, std::span<const glm::vec3> sample, std::size_t boids,
                           const BoidStyle& style) {
  if (sample.empty() || !drawsSilhouettePoints(style, boids)) return 1.0f;
  const float patch = float(std::max(camera.width(), camera.height())) / 32.0f;
  const int columns = int(std::ceil(float(camera.width()) / patch)),
            rows = int(std::ceil(float(camera.height()) / patch));
  std::vector<double> depth(std::size_t(columns) * std::size_t(rows), 0.0);
  const glm::mat4 viewProjection = camera.viewProjection();
  const double boidsPerSample = double(boids) / double(sample.size()),
               patchArea = double(patch) * double(patch);
  for (const glm::vec3& position : sample) {
    // As render/BoidPoint.vert.glsl sizes and shades it (leaders, a little larger, aside).
    const glm::vec4 clip = viewProjection * glm::vec4(position, 1.0f);
    const std::optional<glm::vec2> pixel = camera.pixelOf(clip);
    if (!pixel || pixel->x < 0.0f || pixel->y < 0.0f || pixel->x >= float(camera.width()) ||
        pixel->y >= float(camera.height()))
      continue;
    const float pixels = style.size * camera.pixelsPerUnitAtDepthOne() / std::max(clip.w, 1e-4f);
    const float pointPixels = std::clamp(pixels, style.minPointPixels, 64.0f);
    const float share = std::min(pixels / pointPixels, 1.0f);
    const double coverage = kBirdAreaShare * share * share;
    const double disc = 0.25 * std::numbers::pi * double(pointPixels) * double(pointPixels);
    depth[std::size_t(int(pixel->y / patch)) * std::size_t(columns) + std::size_t(int(pixel->x / patch))] +=
        -std::log1p(-coverage) * disc / patchArea * boidsPerSample;
  }
  std::erase(depth, 0.0);
  if (depth.empty()) return 1.0f;
  const auto quantile = depth.begin() + std::ptrdiff_t(kPointDepthQuantile * double(depth.size() - 1));
  std::nth_element(depth.begin(), quantile, depth.end());
  return float(std::clamp(double(kPointDepthTarget) / *quantile, 1e-4, 1.0));
}

void BoidRenderer::draw(const BoidBuffers& boids, const BoidStyle& style) {
  if (boids.count == 0) return;
  const bool points = drawsPoints(style, boids.count);
  const BoidDrawParams params{style.size,
                              points ? style.minPointPixels : style.minBirdPixels,
                              static_cast<std::uint32_t>(boids.groupSource),
                              std::uint32_t{boids.leaders},
                              static_cast<std::uint32_t>(style.colouring),
                              style.speedLow,
                              std::max(style.speedHigh, style.speedLow + 1e-3f),
                              static_cast<std::uint32_t>(style.leaderMark),
                              style.detailBirdPixels,
                              0,
                              0,
                              0,
                              std::uint32_t{boids.slot != 0},
                              style.pointShare,
                              std::uint32_t{boids.bank != 0},
                              0};
  // Compute shaders may have just written the buffers.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  if (points)
    drawPoints(boids, params, style.colouring == BoidColouring::Silhouette);
  else
    drawBirds(boids, params);
}

void BoidRenderer::bindRange(const BoidBuffers& boids, std::uint32_t first, std::uint32_t n) const {
  // Through slots, the range's boids may sit anywhere in the arrays: those are bound whole.
  const bool slots = boids.slot != 0;
  const std::uint32_t arrayFirst = slots ? 0 : first, arrayCount = slots ? boids.count : n;
  bindArray(kSlotBinding, boids.slot, 0, sizeof(std::uint32_t), first, n, placeholder_);
  bindArray(kPositionBinding, boids.position, boids.positionOffset, sizeof(glm::vec4), arrayFirst, arrayCount,
            placeholder_);
  bindArray(kVelocityBinding, boids.velocity, boids.velocityOffset, sizeof(glm::vec4), arrayFirst, arrayCount,
            placeholder_);
  bindArray(kBankBinding, boids.bank, boids.bankOffset, sizeof(glm::vec4), arrayFirst, arrayCount,
            placeholder_);
  const GLuint group = boids.groupSource == GroupSource::Buffer ? boids.group : 0;
  bindArray(kGroupBinding, group, boids.groupOffset, sizeof(std::uint32_t), arrayFirst, arrayCount,
            placeholder_);
}

void BoidRenderer::drawBirds(const BoidBuffers& boids, BoidDrawParams params) {
  const std::uint32_t perRange = std::min(maxBoidsPerDraw_, boids.count);
  const std::uint32_t ranges = (boids.count + maxBoidsPerDraw_ - 1) / maxBoidsPerDraw_;
  const std::uint32_t groups = (perRange + kWorkgroupSize - 1) / kWorkgroupSize;  // of the largest range
  if (instances_.size() < std::size_t(boids.count) * sizeof(BirdInstance))
    instances_ = gpu::Buffer("bird instances", std::size_t(boids.count) * sizeof(BirdInstance), 0);
  if (commands_.size() < std::size_t(ranges) * 2 * sizeof(DrawCommand))
    commands_ = gpu::Buffer("bird draw commands", std::size_t(ranges) * 2 * sizeof(DrawCommand), 0);
  if (listFirsts_.size() < std::size_t(groups) * sizeof(glm::uvec2))
    listFirsts_ = gpu::Buffer("bird list firsts", std::size_t(groups) * sizeof(glm::uvec2), 0);
  const auto bindInstances = [this](std::uint32_t first, std::uint32_t n) {
    instances_.bindRange(GL_SHADER_STORAGE_BUFFER, kInstanceBinding,
                         std::size_t(first) * sizeof(BirdInstance), std::size_t(n) * sizeof(BirdInstance));
  };

  // Once per bird: its instance record, in the near or the far list of its range (count, then each
  // workgroup's first records and the draw commands, then write).
  commands_.bindBase(GL_SHADER_STORAGE_BUFFER, kCommandBinding);
  listFirsts_.bindBase(GL_SHADER_STORAGE_BUFFER, kListsBinding);
  forEachRange(boids.count, maxBoidsPerDraw_, [&](std::uint32_t range, std::uint32_t first, std::uint32_t n) {
    bindRange(boids, first, n);
    bindInstances(first, n);
    params.count = n;
    params.firstCommand = 2 * range;
    const GLuint rangeGroups = (n + kWorkgroupSize - 1) / kWorkgroupSize;
    params.phase = kCountPhase;
    drawParams_.set(params);
    instancer_.use();
    glDispatchCompute(rangeGroups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    lists_.use();
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    params.phase = kWritePhase;
    drawParams_.set(params);
    instancer_.use();
    glDispatchCompute(rangeGroups, 1, 1);
  });
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);

  // Then per vertex only the record applied to the mesh: each range's near list, then its far one.
  emptyArray_.bind();
  birdMeshes_.bindBase(GL_SHADER_STORAGE_BUFFER, kMeshBinding);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, commands_.id());
  // Command i's offset in the bound indirect buffer.
  const auto command = [](std::uint32_t i) { return reinterpret_cast<const void*>(i * sizeof(DrawCommand)); };
  forEachRange(boids.count, maxBoidsPerDraw_, [&](std::uint32_t range, std::uint32_t first, std::uint32_t n) {
    bindInstances(first, n);
    birds_.use();
    glDrawArraysIndirect(GL_TRIANGLES, command(2 * range));
    farBirds_.use();
    glDrawArraysIndirect(GL_TRIANGLES, command(2 * range + 1));
  });
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
  glBindVertexArray(0);
}

void BoidRenderer::drawPoints(const BoidBuffers& boids, const BoidDrawParams& params, bool silhouette) const {
  drawParams_.set(params);
  glEnable(GL_PROGRAM_POINT_SIZE);
  // Silhouette points are translucent (their coverage, BoidPoint.vert.glsl): blended over whatever
  // lies behind and not hiding each other, so that darkness grows with the birds along the line of
  // sight. One colour, so the order they are drawn in does not matter.
  if (silhouette) {
    glEnable(GL_BLEND);
    // The frame's alpha stays opaque: frames and screenshots are read with it.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glDepthMask(GL_FALSE);
  }
  points_.use();
  emptyArray_.bind();
  forEachRange(boids.count, maxBoidsPerDraw_, [&](std::uint32_t, std::uint32_t first, std::uint32_t n) {
    bindRange(boids, first, n);
    glDrawArrays(GL_POINTS, 0, GLsizei(n));
  });
  glBindVertexArray(0);
  if (silhouette) {
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
}

}  // namespace murmur::render
