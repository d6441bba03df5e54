#pragma once
// The flock as the renderer reads it: GL storage buffers that the vertex shaders index by boid,
// with no copy through the CPU. The GPU backend hands over the buffers its compute pipeline writes;
// for the CPU backends HostBoidBuffers uploads the state into buffers of this layout each frame.
//
// Layout (std430, what shaders/render/Boids.glsl declares):
//   position  vec4[count]  xyz: position in world units; w: the group as a float (GroupSource::
//                          PositionW, the layout of gpu::FlockPipeline and HostBoidBuffers) or free
//   velocity  vec4[count]  xyz: velocity in units/s (the bird flies along it); w: free
//   group     uint[count]  the boid's group (GroupSource::Buffer); optional
//   flags     uint[count]  bit kLeaderFlag: an emergent leader (drawn larger and lighter); optional
// Groups are coloured by render::groupColour; without a source every boid is in group 0.
// Boid i is element i of every array (any order of boids, as long as the arrays agree: a pipeline
// that reorders positions into cell order must reorder groups and flags alike). Each array starts at
// its byte offset in its buffer; offsets must be multiples of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT
// (ping-pong halves of one buffer qualify when each half is).
#include <cstdint>
#include <span>
#include <vector>

#include <glad/gl.h>
#include <glm/vec4.hpp>

#include "render/dynamic_buffer.hpp"
#include "sim/flock.hpp"

namespace murmur::render {

inline constexpr std::uint32_t kLeaderFlag = 1u;

enum class GroupSource : std::uint32_t { None = 0, Buffer = 1, PositionW = 2 };

struct BoidBuffers {
  GLuint position = 0;
  GLintptr positionOffset = 0;  // bytes
  GLuint velocity = 0;
  GLintptr velocityOffset = 0;
  GroupSource groupSource = GroupSource::None;
  GLuint group = 0;  // with GroupSource::Buffer
  GLintptr groupOffset = 0;
  GLuint flags = 0;  // 0: no flags (no leaders)
  GLintptr flagsOffset = 0;
  std::uint32_t count = 0;
};

// Buffers of the layout above filled from a CPU flock (the demo's cpu backends, tests, benches):
// groups in position.w, as the GPU pipeline keeps them.
class HostBoidBuffers {
 public:
  // flags: empty, or one word per boid.
  void upload(const sim::FlockState& state, std::span<const std::uint32_t> flags = {});
  BoidBuffers buffers() const;

 private:
  std::vector<glm::vec4> staging_;  // the vec3 arrays widened to vec4
  DynamicBuffer position_{"boid positions (uploaded)"};
  DynamicBuffer velocity_{"boid velocities (uploaded)"};
  DynamicBuffer flags_{"boid flags"};
  std::uint32_t count_ = 0;
  bool hasFlags_ = false;
};

}  // namespace murmur::render
