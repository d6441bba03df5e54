#include "render/boid_samples.hpp"

#include <algorithm>
#include <string>

#include "render/palette.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {
namespace {

constexpr std::uint32_t kTrailMode = 0;
constexpr std::uint32_t kVectorMode = 1;  // sampling; drawn as kVelocityLines, then kForceLines
constexpr std::uint32_t kVelocityLines = 1;
constexpr std::uint32_t kForceLines = 2;
constexpr std::uint32_t kWorkgroupSize = 64;
constexpr std::size_t kVec4sPerVectorSample = 3;  // position, velocity, force

gpu::Defines sampleDefines() {
  gpu::Defines defines = viewDefines();
  defines.insert(defines.end(), {{"POSITION_BINDING", "0"},
                                 {"VELOCITY_BINDING", "1"},
                                 {"SLOT_BINDING", std::to_string(BoidSamples::kSlotBinding)},
                                 {"SAMPLES_BINDING", std::to_string(BoidSamples::kSamplesBinding)},
                                 {"SAMPLE_TRAIL", std::to_string(kTrailMode) + "u"},
                                 {"SAMPLE_VECTORS", std::to_string(kVectorMode) + "u"},
                                 {"SAMPLE_VELOCITY", std::to_string(kVelocityLines) + "u"},
                                 {"SAMPLE_FORCE", std::to_string(kForceLines) + "u"},
                                 {"WORKGROUP_SIZE", std::to_string(kWorkgroupSize)}});
  return defines;
}

// The vec4s one storage binding reaches on the current context.
GLint64 maxStorageVec4s() {
  GLint64 blockBytes = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &blockBytes);
  return blockBytes / GLint64(sizeof(glm::vec4));
}

// The aids' samples a step needs (BoidSamples::wanted, ::sample): trails every trailEvery-th step,
// vectors every step.
bool trailsDue(std::uint64_t step, const AidStyle& style, const OverlayStyle& shown) {
  return shown.trails && style.trailBoids > 0 && step % std::max(style.trailEvery, 1u) == 0;
}
bool vectorsDue(const AidStyle& style, const OverlayStyle& shown) {
  return shown.vectors && style.vectorBoids > 0;
}

}  // namespace

BoidSamples::BoidSamples(const gpu::ShaderLibrary& shaders)
    : sampler_(shaders.compute("render/SampleBoids.comp.glsl", sampleDefines())),
      lines_(
          shaders.graphics("render/SampleLines.vert.glsl", "render/SampleLines.frag.glsl", sampleDefines())),
      sampleParams_("boid sample constants", kDrawParamsBinding),
      lineParams_("sample line constants", kDrawParamsBinding),
      noSlots_("boid sample placeholder slots", sizeof(std::uint32_t), 0),
      maxStorageVec4s_(maxStorageVec4s()) {}

bool BoidSamples::wanted(std::uint64_t step, const AidStyle& style, const OverlayStyle& shown) {
  return vectorsDue(style, shown) || trailsDue(step, style, shown);
}

void BoidSamples::clear() {
  trails_.filled = 0;
  vectors_.filled = 0;
}

void BoidSamples::fit(Ring& ring, const BoidBuffers& boids, std::uint32_t count, std::uint32_t slots,
                      std::size_t vec4sPerBoid, const char* label) const {
  const auto reach = static_cast<std::uint32_t>(std::min<GLint64>(boids.count, maxStorageVec4s_));
  const std::uint32_t sampled = std::min(count, reach);
  const std::uint32_t stride = sampled > 0 ? reach / sampled : 1;
  if (ring.buffer && ring.asked == count && ring.count == sampled && ring.stride == stride &&
      ring.slots == slots)
    return;
  ring = Ring{};
  ring.asked = count;
  ring.count = sampled;
  ring.stride = stride;
  ring.slots = slots;
  ring.buffer = gpu::Buffer(label, std::size_t(count) * slots * vec4sPerBoid * sizeof(glm::vec4), 0);
}

void BoidSamples::dispatch(const BoidBuffers& boids, const Ring& ring, std::uint32_t first,
                           std::uint32_t mode, float inverseDt) const {
  const std::size_t reach = std::size_t(ring.count - 1) * ring.stride + 1;
  // Through slots, the sampled boids may sit anywhere in the arrays: those are bound whole.
  const bool slots = boids.slot != 0;
  const std::size_t elements = slots ? boids.count : reach;
  if (slots)
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, kSlotBinding, boids.slot, 0,
                      GLsizeiptr(reach * sizeof(std::uint32_t)));
  else
    noSlots_.bindBase(GL_SHADER_STORAGE_BUFFER, kSlotBinding);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, boids.position, boids.positionOffset,
                    GLsizeiptr(elements * sizeof(glm::vec4)));
  // The velocity the boid moves with, not the one it is drawn along.
  const bool motion = boids.motion != 0;
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, motion ? boids.motion : boids.velocity,
                    motion ? boids.motionOffset : boids.velocityOffset,
                    GLsizeiptr(elements * sizeof(glm::vec4)));
  ring.buffer.bindBase(GL_SHADER_STORAGE_BUFFER, kSamplesBinding);
  sampleParams_.set({ring.count, ring.stride, first, mode,
                     boids.groupSource == GroupSource::PositionW ? 1u : 0u, inverseDt, std::uint32_t{slots},
                     0});
  sampler_.use();
  glDispatchCompute((ring.count + kWorkgroupSize - 1) / kWorkgroupSize, 1, 1);
}

void BoidSamples::sample(const BoidBuffers& boids, std::uint64_t step, float dt, const AidStyle& style,
                         const OverlayStyle& shown) {
  if (boids.count == 0) return;
  // The step's writes to the boid buffers (a compute pass, an upload) before the reads.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  if (trailsDue(step, style, shown)) {
    fit(trails_, boids, style.trailBoids, std::max(style.trailLength, 2u), 1, "boid trails");
    // A gap in the sampling (the trails were off, or the interval changed) starts the trail again.
    if (trails_.filled > 0 && step != trails_.lastStep + style.trailEvery) trails_.filled = 0;
    trails_.newest = trails_.filled == 0 ? 0 : (trails_.newest + 1) % trails_.slots;
    trails_.filled = std::min(trails_.filled + 1, trails_.slots);
    trails_.lastStep = step;
    if (trails_.count > 0) dispatch(boids, trails_, trails_.newest * trails_.count, kTrailMode, 0.0f);
  }
  if (vectorsDue(style, shown)) {
    fit(vectors_, boids, style.vectorBoids, 1, kVec4sPerVectorSample, "boid vectors");
    const bool follows = vectors_.filled > 0 && step == vectors_.lastStep + 1 && dt > 0.0f;
    vectors_.filled = 1;
    vectors_.lastStep = step;
    if (vectors_.count > 0) dispatch(boids, vectors_, 0, kVectorMode, follows ? 1.0f / dt : 0.0f);
  }
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void BoidSamples::draw(const AidStyle& style, const OverlayStyle& shown, glm::vec3 halfWorld) const {
  const bool trails = shown.trails && trails_.filled >= 2 && trails_.count > 0 &&
                      trails_.asked == style.trailBoids && trails_.slots == std::max(style.trailLength, 2u);
  const bool vectors =
      shown.vectors && vectors_.filled > 0 && vectors_.count > 0 && vectors_.asked == style.vectorBoids;
  if (!trails && !vectors) return;
  lines_.use();
  lineArray_.bind();
  SampleLineParams params{glm::vec4(kVelocityColour, style.velocityScale),
                          glm::vec4(kForceColour, style.forceScale),
                          glm::vec4(halfWorld, 0.0f),
                          kTrailMode,
                          0,
                          0,
                          0,
                          0,
                          {0, 0, 0}};
  if (trails) {
    params.mode = kTrailMode;
    params.count = trails_.count;
    params.slots = trails_.slots;
    params.newest = trails_.newest;
    params.filled = trails_.filled;
    trails_.buffer.bindBase(GL_SHADER_STORAGE_BUFFER, kSamplesBinding);
    lineParams_.set(params);
    glDrawArrays(GL_LINES, 0, GLsizei(2 * trails_.count * (trails_.slots - 1)));
  }
  if (vectors) {
    params.count = vectors_.count;
    vectors_.buffer.bindBase(GL_SHADER_STORAGE_BUFFER, kSamplesBinding);
    for (const std::uint32_t lines : {kVelocityLines, kForceLines}) {
      params.mode = lines;
      lineParams_.set(params);
      glDrawArrays(GL_LINES, 0, GLsizei(2 * vectors_.count));
    }
  }
  glBindVertexArray(0);
}

}  // namespace murmur::render
