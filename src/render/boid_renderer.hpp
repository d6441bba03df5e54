#pragma once
// The flock in one instanced draw: a lit bird per boid (or, for very large flocks, a shaded point
// sprite), read straight from the storage buffers of render::BoidBuffers.
#include <cstdint>

#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/view_uniforms.hpp"

namespace murmur::render {

enum class BoidShape {
  Birds,   // a 3D bird mesh per boid, turned along its velocity
  Points,  // one point sprite per boid: tens of millions stay interactive
  Auto,    // birds up to kMaxAutoBirds boids, points beyond
};

inline constexpr std::uint32_t kMaxAutoBirds = 500'000;

// What a boid's colour tells (leaders are marked in every mode: LeaderMark).
enum class BoidColouring {
  Group,    // the group palette (render/palette.hpp)
  Heading,  // hue from the direction of flight in the x-z plane, lighter climbing, darker diving
  Speed,    // a ramp from slow (deep blue) through teal to fast (yellow), over [speedLow, speedHigh]
  Silhouette,  // every bird near black (kSilhouetteColour), as a flock is seen against a dusk sky
};

// How emergent leaders are marked when boids are coloured by group (by heading or speed they are
// always lit up: there is no group colour to replace).
enum class LeaderMark {
  Light,  // their own colour pushed towards white, 1.25x larger: marked without swamping the flock
          // when many boids lead (the default of 3D scenes)
  Red,    // kLeaderColour and 1.6x larger, the flocking lab's convention (the default of 2D scenes)
};

struct BoidStyle {
  BoidShape shape = BoidShape::Auto;
  BoidColouring colouring = BoidColouring::Group;
  LeaderMark leaderMark = LeaderMark::Light;
  float speedLow = 0.0f;  // the speed ramp's ends (the model's min and max speed)
  float speedHigh = 10.0f;
  float size = 1.6f;            // world units: a bird's length, a point's diameter
  float minBirdPixels = 9.0f;   // far birds are drawn larger, to stay this long on screen at any zoom
  float minPointPixels = 3.0f;  // and far points this wide
};

// std140 mirror of BoidStyleBlock (shaders/render/Boids.glsl): the constants of one draw.
struct BoidDrawParams {
  float size;
  float minPixels;
  std::uint32_t groupSource;  // GroupSource
  std::uint32_t hasLeaders;   // a GLSL bool
  std::uint32_t colouring;    // BoidColouring
  float speedLow;
  float speedHigh;
  std::uint32_t leaderMark;   // LeaderMark
};

class BoidRenderer {
 public:
  // Flocks beyond one storage binding's reach (GL_MAX_SHADER_STORAGE_BLOCK_SIZE / 16 boids, or
  // maxBoidsPerDraw when lower; rounded to the offset alignment) are drawn in several draws over
  // consecutive ranges of the buffers. 0: the device's limit.
  explicit BoidRenderer(const gpu::ShaderLibrary& shaders, std::uint32_t maxBoidsPerDraw = 0);

  // Draws into the bound framebuffer; the view uniforms (ViewUniformBuffer) must be bound and the
  // depth test set by the caller. Binds storage buffers at its binding points (below).
  void draw(const BoidBuffers& boids, const BoidStyle& style) const;

  static constexpr GLuint kPositionBinding = 0;
  static constexpr GLuint kVelocityBinding = 1;
  static constexpr GLuint kGroupBinding = 2;

 private:
  gpu::Program birds_;
  gpu::Program points_;
  gpu::Buffer birdMesh_;
  GLsizei birdVertices_ = 0;
  gpu::VertexArray birdArray_{"bird mesh"};
  gpu::VertexArray pointArray_{"boid points"};  // no attributes: the core profile draws nothing without a VAO
  gpu::Buffer placeholder_;      // bound where a BoidBuffers array is absent
  gpu::UniformBlock<BoidDrawParams> drawParams_;
  std::uint32_t maxBoidsPerDraw_;
};

}  // namespace murmur::render
