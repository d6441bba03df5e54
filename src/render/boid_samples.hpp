#pragma once
// The flocking lab's visible aids for a sample of the flock: each sampled boid's trail of past
// positions (the seek note's trail) and its velocity and steering force as lines (the lab's
// ShowVectors). The samples never leave the GPU: after each step that needs them a compute pass
// (render/SampleBoids.comp.glsl) copies them out of the boid buffers (render::BoidBuffers: the gpu
// backend's own, or a cpu backend's flock uploaded) into rings of its own, and the lines are drawn
// from there. The same on every backend, with no read-back and no wait.
//
// The sample: boid ids 0, k, 2k, ... (k = boids / count, so that every group of an interleaved
// flock shows), at most what one storage binding reaches (8 M boids on llvmpipe).
#include <cstdint>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/overlay.hpp"

namespace murmur::render {

// How many boids show the aids and how (OverlayStyle::trails and vectors switch them, for the
// agents too; [render] trail_length, trail_every, trail_boids, vector_boids).
struct AidStyle {
  std::uint32_t trailLength = 40;  // samples a trail keeps (at least 2)
  std::uint32_t trailEvery = 5;    // steps from one sample to the next (at least 1)
  std::uint32_t trailBoids = 24;   // boids with a trail
  std::uint32_t vectorBoids = 24;  // boids whose velocity and force are drawn
  // Units of line per unit of speed and of acceleration (readSceneView: a boid at max_speed, or
  // pushed at max_force, gets a line kVectorBodyLengths bodies long).
  float velocityScale = 1.0f;
  float forceScale = 1.0f;
};
inline constexpr float kVectorBodyLengths = 4.0f;
// The most boids [render] trail_boids and vector_boids may ask for.
inline constexpr std::uint32_t kMaxAidBoids = 4096;

// std140 mirror of SampleBoids.comp.glsl's SampleParams.
struct SampleParams {
  std::uint32_t count;
  std::uint32_t stride;
  std::uint32_t first;
  std::uint32_t mode;
  std::uint32_t groupInW;
  float inverseDt;
  std::uint32_t hasSlots;  // a GLSL bool: BoidBuffers::slot is bound
  std::uint32_t pad;
};

// std140 mirror of SampleLines.vert.glsl's SampleLines.
struct SampleLineParams {
  glm::vec4 velocityColour;
  glm::vec4 forceColour;
  glm::vec4 halfWorld;
  std::uint32_t mode;
  std::uint32_t count;
  std::uint32_t slots;
  std::uint32_t newest;
  std::uint32_t filled;
  std::uint32_t pad[3];
};

class BoidSamples {
 public:
  // Compiles the sampling and line programs (throws gpu::ShaderError).
  explicit BoidSamples(const gpu::ShaderLibrary& shaders);

  // Whether the step numbered `step` since the flock started must be sampled: every trailEvery-th
  // step for trails, every step for vectors (the force is the change since the step before).
  static bool wanted(std::uint64_t step, const AidStyle& style, const OverlayStyle& shown);
  // Forgets every sample (the flock restarted).
  void clear();
  // Records what step `step` needs (wanted()) from `boids` as they are after it; dt: the step's.
  // Records GPU work only.
  void sample(const BoidBuffers& boids, std::uint64_t step, float dt, const AidStyle& style,
              const OverlayStyle& shown);
  // The lines of the samples that `style` describes (none while its counts or length differ from
  // those sampled); the view uniforms bound, blending on, depth writes off. halfWorld: half the
  // world box (a longer trail step crossed a wrap seam and is left out).
  void draw(const AidStyle& style, const OverlayStyle& shown, glm::vec3 halfWorld) const;

  static constexpr GLuint kSlotBinding = 2;
  static constexpr GLuint kSamplesBinding = 5;

 private:
  // A ring of samples: `slots` of `count` boids' samples.
  struct Ring {
    gpu::Buffer buffer;
    std::uint32_t asked = 0;  // the style's count
    std::uint32_t count = 0;  // boids sampled: asked, at most the flock
    std::uint32_t stride = 1;
    std::uint32_t slots = 0;
    std::uint32_t newest = 0;
    std::uint32_t filled = 0;
    std::uint64_t lastStep = 0;  // of the newest sample
  };
  // The ring, made again (empty) when the boids or the style's count or slots changed.
  void fit(Ring& ring, const BoidBuffers& boids, std::uint32_t count, std::uint32_t slots,
           std::size_t vec4sPerBoid, const char* label) const;
  void dispatch(const BoidBuffers& boids, const Ring& ring, std::uint32_t first, std::uint32_t mode,
                float inverseDt) const;

  gpu::Program sampler_;
  gpu::Program lines_;
  gpu::UniformBlock<SampleParams> sampleParams_;
  gpu::UniformBlock<SampleLineParams> lineParams_;
  gpu::VertexArray lineArray_{"sample lines"};  // no attributes: the core profile draws nothing without a VAO
  gpu::Buffer noSlots_;      // bound for the slots when the boids have none (a binding is never empty)
  GLint64 maxStorageVec4s_;  // what one storage binding reaches: the sample's stride covers at most that
  Ring trails_;
  Ring vectors_;
};

}  // namespace murmur::render
