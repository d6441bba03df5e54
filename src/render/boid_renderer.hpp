#pragma once
// The flock: a lit bird per boid (or, for very large flocks, a shaded point sprite), from the storage
// buffers of render::BoidBuffers with no copy through the CPU. Birds take a compute pass that does
// each bird's work once (render/BirdInstances.comp.glsl: its basis, size, colour, whether it is in
// view, near or far; a count, a prefix sum and a write, to keep the boids' order) and two indirect
// draws that pull the records by vertex index, the full mesh
// (11 triangles) for near birds and a 4-triangle one for far birds; points are one draw.
#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gpu/gl_objects.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/camera.hpp"
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
  Group,       // the group palette (render/palette.hpp)
  Heading,     // hue from the direction of flight in the x-z plane, lighter climbing, darker diving
  Speed,       // a ramp from slow (deep blue) through teal to fast (yellow), over [speedLow, speedHigh]
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
  float size = 1.6f;           // world units: a bird's length, a point's diameter
  float minBirdPixels = 9.0f;  // far birds are drawn larger, to stay this long on screen at any zoom
  // Birds drawn shorter than this on screen get the far mesh (render::farBirdMesh: 4 triangles lit
  // once per face, where the full one has 11 lit per pixel; a third of the time on llvmpipe), which
  // covers about the same pixels at that size. 0: every bird gets the full mesh.
  float detailBirdPixels = 14.0f;
  float minPointPixels = 3.0f;  // and far points this wide
  // Silhouette points: the share of the boids drawn, each as dark as before (chosen by a hash of
  // its index: the same boids every frame). A deep flock drawn whole adds up to black; drawn in part,
  // its density shows. silhouettePointShare gives the share a view needs; 1: every boid.
  float pointShare = 1.0f;
};

// Whether a draw of `boids` boids in this style draws points (else birds).
bool drawsPoints(const BoidStyle& style, std::size_t boids);
// Whether it draws them as silhouettes: the points silhouettePointShare thins.
bool drawsSilhouettePoints(const BoidStyle& style, std::size_t boids);

// The darkness a silhouette point adds where it lies: the share of its disc a bird of its
// projected size covers (a bird is slender: about a third of its length squared), so that far
// birds add up along the line of sight as the flock's density.
inline constexpr float kBirdAreaShare = 0.35f;

// The optical depth (-ln of the sky's share left) that silhouettePointShare gives the darkest
// parts of a flock: about 8% of the sky shows through there, and every part lighter shows lighter.
inline constexpr float kPointDepthTarget = 2.5f;
// The part of the flock's screen that kPointDepthTarget holds for: its densest 15% is darker.
inline constexpr float kPointDepthQuantile = 0.85f;

// BoidStyle::pointShare for a flock of `boids` seen by `camera`, estimated from a sample of their
// positions (sim::positionSampleRuns' boids: positions spread over the ids): the optical depth the
// whole flock's silhouette points would add up to, per patch of the screen (a 32nd of its larger
// side), and the share that brings the kPointDepthQuantile-th of the patches the sample reaches to
// kPointDepthTarget. 1 when that is less than every boid, or the style draws no silhouette points.
float silhouettePointShare(const Camera& camera, std::span<const glm::vec3> sample, std::size_t boids,
                           const BoidStyle& style);

// std140 mirror of BoidStyleBlock (shaders/render/Boids.glsl): the constants of one draw.
struct BoidDrawParams {
  float size;
  float minPixels;
  std::uint32_t groupSource;  // GroupSource
  std::uint32_t hasLeaders;   // a GLSL bool
  std::uint32_t colouring;    // BoidColouring
  float speedLow;
  float speedHigh;
  std::uint32_t leaderMark;    // LeaderMark
  float detailPixels;          // birds only: BoidStyle::detailBirdPixels
  std::uint32_t count;         // the boids of the range
  std::uint32_t firstCommand;  // birds only: the range's near draw command (its far one follows)
  std::uint32_t phase;         // birds only: the bird pass's (BirdInstances.comp.glsl)
  std::uint32_t hasSlots;      // a GLSL bool: BoidBuffers::slot is bound (boids found through it)
  float pointShare;            // points only: BoidStyle::pointShare
  std::uint32_t hasBank;       // a GLSL bool: BoidBuffers::bank is bound (birds drawn banked)
  std::uint32_t pad;
};
static_assert(sizeof(BoidDrawParams) == 64, "std140 layout of BoidStyleBlock");

// std430 mirrors of shaders/render/Birds.glsl: a bird's instance record, made once per bird by
// BirdInstances.comp.glsl, and a vertex of the bird meshes (MeshVertex widened to two vec4s).
struct BirdInstance {
  glm::vec4 centreSize;
  glm::vec4 forwardLift;
  glm::vec4 side;
  glm::vec4 colour;
};
struct BirdMeshVertex {
  glm::vec4 positionWing;
  glm::vec4 normal;
};

// glDrawArraysIndirect's command (DrawArraysIndirectCommand), as BirdLists.comp.glsl fills it.
struct DrawCommand {
  std::uint32_t vertexCount;
  std::uint32_t instanceCount;
  std::uint32_t firstVertex;
  std::uint32_t firstInstance;
};

class BoidRenderer {
 public:
  // Flocks beyond one storage binding's reach (GL_MAX_SHADER_STORAGE_BLOCK_SIZE over the largest
  // record a boid has, the 64 bytes of a BirdInstance; or maxBoidsPerDraw when lower; rounded to the
  // offset alignment) are drawn in several draws over consecutive ranges of the buffers. 0: the
  // device's limit.
  explicit BoidRenderer(const gpu::ShaderLibrary& shaders, std::uint32_t maxBoidsPerDraw = 0);

  // Draws into the bound framebuffer; the view uniforms (ViewUniformBuffer) must be bound and the
  // depth test set by the caller. Binds storage buffers at its binding points (below). Birds grow
  // the instance buffer to the flock (64 bytes a boid) when it is larger than any before.
  void draw(const BoidBuffers& boids, const BoidStyle& style);

  static constexpr GLuint kPositionBinding = 0;
  static constexpr GLuint kVelocityBinding = 1;
  static constexpr GLuint kGroupBinding = 2;
  static constexpr GLuint kSlotBinding = 4;
  static constexpr GLuint kInstanceBinding = 3;
  static constexpr GLuint kCommandBinding = 6;
  static constexpr GLuint kMeshBinding = 7;
  static constexpr GLuint kListsBinding = 10;
  static constexpr GLuint kBankBinding = 11;

 private:
  // params: the style's part; count and firstCommand are set per range.
  void drawBirds(const BoidBuffers& boids, BoidDrawParams params);
  void drawPoints(const BoidBuffers& boids, const BoidDrawParams& params, bool silhouette) const;
  // Binds the boid arrays of range [first, first + n) at their binding points.
  void bindRange(const BoidBuffers& boids, std::uint32_t first, std::uint32_t n) const;

  gpu::Program instancer_;  // BirdInstances.comp.glsl
  gpu::Program lists_;      // BirdLists.comp.glsl
  gpu::Program birds_;      // Boid.*.glsl: near birds
  gpu::Program farBirds_;   // FarBoid.*.glsl
  gpu::Program points_;
  gpu::Buffer birdMeshes_;  // BirdMeshVertex: birdMesh, then farBirdMesh
  gpu::Buffer instances_;   // a BirdInstance per boid of the largest flock drawn so far
  gpu::Buffer commands_;    // two DrawCommands per range of the largest flock drawn so far
  gpu::Buffer listFirsts_;  // BirdInstances.comp.glsl's lists[]: a uvec2 per workgroup of a range
  // No attributes (birds and points are pulled by vertex index): the core profile draws nothing
  // without a VAO.
  gpu::VertexArray emptyArray_{"boids (no attributes)"};
  gpu::Buffer placeholder_;  // bound where a BoidBuffers array is absent
  gpu::UniformBlock<BoidDrawParams> drawParams_;
  std::uint32_t maxBoidsPerDraw_;
};

}  // namespace murmur::render
